"""PortAudio is restarted (rescan) only when no stream of the process is still open.

The microphone's retry (the listening thread) and the speech output's retry (its own
daemon thread) both list the devices and, failing, restart PortAudio
(:func:`voice_host.audio.devices.rescan`).  ``Pa_Terminate`` frees the list that a
``Pa_GetDeviceInfo`` on another thread may be reading: a listing must wait for a
restart under way, as a stream's opening does."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from voice_host.announce.player import SounddevicePlayer
from voice_host.audio import devices
from voice_host.audio.devices import list_input_devices, rescan


class RestartingSd:
    """``sounddevice`` whose restart takes a while, noting any listing during one."""

    def __init__(self) -> None:
        self.restarting = False
        self.terminating = threading.Event()
        self.release = threading.Event()
        self.read_during_restart: list[str] = []
        self.default = type("Default", (), {"device": (0, 0)})()

    def _note(self, what: str) -> None:
        if self.restarting:
            self.read_during_restart.append(what)

    def query_devices(self, device: Any = None, kind: str | None = None) -> Any:
        self._note("query_devices")
        info = {"name": "Mic", "max_input_channels": 1, "max_output_channels": 2}
        info["default_samplerate"] = 48000.0
        return info if device is not None or kind is not None else [info]

    def _terminate(self) -> None:
        self.restarting = True
        self.terminating.set()
        self.release.wait(5.0)

    def _initialize(self) -> None:
        self.restarting = False


def _listed_during_a_restart(read: Any) -> list[str]:
    sd = RestartingSd()
    restart = threading.Thread(target=rescan, args=(sd,))
    restart.start()
    assert sd.terminating.wait(5.0)
    reader = threading.Thread(target=read, args=(sd,))
    reader.start()
    reader.join(0.3)  # a reader that waits for the restart is still waiting here
    sd.release.set()
    restart.join(5.0)
    reader.join(5.0)
    assert not reader.is_alive()
    return sd.read_during_restart


def test_the_microphones_are_not_listed_while_portaudio_restarts() -> None:
    assert devices.streams_open() == 0
    assert _listed_during_a_restart(list_input_devices) == []


def test_an_output_is_not_looked_up_while_portaudio_restarts() -> None:
    assert _listed_during_a_restart(lambda sd: SounddevicePlayer.open(None, sd=sd)) == []


class VanishedStream:
    """A stream whose device has gone: aborting it fails (PortAudio's error)."""

    def __init__(self) -> None:
        self.closed = False

    def abort(self) -> None:
        raise RuntimeError("Error stopping stream: Unanticipated host error")

    def close(self) -> None:
        self.closed = True


def test_a_stream_whose_abort_fails_is_closed_all_the_same() -> None:
    # The count says it is no longer open, so a rescan may restart PortAudio: it must
    # not still be open then (a microphone unplugged mid-game fails to abort).
    stream = devices.opened_stream(VanishedStream)
    with pytest.raises(RuntimeError):  # the abort's error, after the close
        devices.closed_stream(stream, abort=True)
    assert devices.streams_open() == 0
    assert stream.closed
