"""The host's voice played into one output stream kept open between texts
(``announce.player_kept_open``): through PulseAudio a stream opened for each text
asked for nothing for 1.4-1.9 s after its first blocks, and drained that much after
its sound, so the microphone gate stayed shut a second longer after every
announcement.  These tests play through a stand-in for ``sounddevice`` that asks for
blocks in real time (``standin/sounddevice.py``)."""

from __future__ import annotations

import importlib.util
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from voice_host.announce.player_kept_open import KeptOpenPlayer
from voice_host.announce.render import RenderedAudio
from voice_host.errors import DeviceError

STANDIN = Path(__file__).parent / "standin" / "sounddevice.py"
RATE = 22050


def _audio(seconds: float, rate: int = RATE) -> RenderedAudio:
    return RenderedAudio(b"\x01\x00" * round(rate * seconds), rate)


def _standin() -> ModuleType:
    spec = importlib.util.spec_from_file_location("standin_sounddevice_kept", STANDIN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Counted:
    """The stand-in, noting every stream opened and every block the callbacks wrote."""

    def __init__(self, refuse_rate: float | None = None, hang_after: int | None = None) -> None:
        self.sd = _standin()
        self.opened: list[Any] = []
        self.written: list[bytes] = []
        outer = self
        base = self.sd.RawOutputStream

        class Stream(base):  # type: ignore[misc, valid-type]
            def __init__(self, *, samplerate: float, callback: Any, **kwargs: Any) -> None:
                if refuse_rate is not None and samplerate == refuse_rate:
                    raise outer.sd.PortAudioError("Invalid sample rate")
                self.calls = 0

                def noting(out: Any, frames: int, t: Any, status: Any) -> None:
                    self.calls += 1
                    if hang_after is not None and self.calls > hang_after:
                        self.aborted.wait()  # a device that stopped asking
                    callback(out, frames, t, status)
                    outer.written.append(bytes(out))

                super().__init__(samplerate=samplerate, callback=noting, **kwargs)
                self.latency = 0.01
                outer.opened.append(self)

        self.sd.RawOutputStream = Stream


def _play(
    player: KeptOpenPlayer, audio: RenderedAudio, cancel: threading.Event | None = None
) -> bool:
    return player.play(audio, on_start=lambda: None, cancel=cancel or threading.Event())


def test_texts_follow_each_other_in_one_stream_with_silence_between() -> None:
    fake = Counted()
    player = KeptOpenPlayer.open(None, sd=fake.sd)
    try:
        player.warm(RATE)
        assert len(fake.opened) == 1
        assert _play(player, _audio(0.2)) and _play(player, _audio(0.1))
        assert len(fake.opened) == 1  # no stream opened per text
        sound = b"".join(fake.written)
        assert sound.count(b"\x01\x00") == round(RATE * 0.3)  # both texts, whole
        assert sound.startswith(b"\x00\x00")  # silence played before the first
        time.sleep(0.1)
        assert fake.written[-1] == b"\x00" * len(fake.written[-1])  # and after the last
        assert fake.opened[0].active and not fake.opened[0].aborted.is_set()
    finally:
        player.close()
    assert fake.opened[0].aborted.is_set()


def test_a_cancel_stops_the_text_and_the_stream_plays_on() -> None:
    fake = Counted()
    player = KeptOpenPlayer.open(None, sd=fake.sd)
    try:
        cancel = threading.Event()
        threading.Timer(0.15, cancel.set).start()
        assert not _play(player, _audio(2.0), cancel)
        heard = b"".join(fake.written).count(b"\x01\x00")
        assert 0 < heard < RATE  # cut well before its 2 s
        assert _play(player, _audio(0.1))
        assert len(fake.opened) == 1
    finally:
        player.close()


def test_a_stream_that_stops_asking_is_given_up_and_opened_again() -> None:
    fake = Counted(hang_after=20)
    player = KeptOpenPlayer.open(None, sd=fake.sd)
    try:
        player.warm(RATE)
        time.sleep(0.5)  # 20 blocks of 12 ms: the device has stopped asking
        with pytest.raises(DeviceError, match="stopped playing"):
            _play(player, _audio(0.1))
        assert fake.opened[0].aborted.is_set()
        assert _play(player, _audio(0.05))  # a fresh stream (which plays its first blocks)
        assert len(fake.opened) == 2
    finally:
        player.close()


def test_a_device_refusing_the_engines_rate_keeps_one_stream_at_its_own() -> None:
    fake = Counted(refuse_rate=RATE)
    player = KeptOpenPlayer.open(None, sd=fake.sd)
    player._rate = 48000.0  # the device's own rate, as it lists it
    try:
        assert _play(player, _audio(0.1))
        assert _play(player, _audio(0.1))
        assert len(fake.opened) == 1 and fake.opened[0].rate == 48000
        assert b"".join(fake.written).count(b"\x01\x00") == pytest.approx(2 * 4800, abs=4)
    finally:
        player.close()
