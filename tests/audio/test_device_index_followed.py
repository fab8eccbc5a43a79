"""A device chosen by index (``--device 2``, ``--card-audio 3``) stays the device it
named when PortAudio lists the devices afresh (a rescan) and numbers them otherwise."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fake_sounddevice import FakeSoundDevice, Plan

from voice_host.announce.player import SounddevicePlayer
from voice_host.announce.render import RenderedAudio
from voice_host.audio import devices
from voice_host.audio.microphone import MicrophoneSource
from voice_host.errors import DeviceError

HDMI = {"name": "HDMI out", "max_input_channels": 0, "max_output_channels": 2}
USB = {"name": "USB Mic", "max_input_channels": 1, "default_samplerate": 16000.0}
WEBCAM = {"name": "Webcam Mic", "max_input_channels": 2, "default_samplerate": 16000.0}
HEADSET = {"name": "Headset Mic", "max_input_channels": 1, "default_samplerate": 16000.0}


def test_a_microphone_given_by_index_is_found_by_its_name_after_a_renumbering() -> None:
    # A headset plugged in before the rescan comes before it in the new list: index 2,
    # the webcam's, is now the USB microphone's.
    sd = FakeSoundDevice([Plan(), Plan()], devices=[HDMI, USB, WEBCAM])
    source = MicrophoneSource("2", sd=sd)
    source.check()
    assert source.input_device is not None and source.input_device.name == "Webcam Mic"
    sd.devices = [HDMI, HEADSET, USB, WEBCAM]
    source.check()
    assert sd.open_devices[-1] == 3
    assert source.input_device.name == "Webcam Mic"


def test_a_microphone_given_by_index_that_is_gone_is_refused_not_another_opened() -> None:
    sd = FakeSoundDevice([Plan(), Plan()], devices=[HDMI, USB, WEBCAM])
    source = MicrophoneSource(2, sd=sd)
    source.check()
    sd.devices = [HDMI, HEADSET, USB]  # the webcam unplugged: index 2 is the USB one
    with pytest.raises(DeviceError, match=r"'Webcam Mic'.* is not there now"):
        source.check()
    assert sd.open_devices == [2]


class _Stream:
    def __init__(self, finished_callback: Any, **_: Any) -> None:
        self._finished = finished_callback

    def start(self) -> None:
        self._finished()  # the sound "played" at once

    def close(self) -> None: ...


class OutputsSd:
    """``sounddevice`` with outputs that a rescan lists as ``after_rescan`` says."""

    class CallbackStop(Exception):
        pass

    def __init__(self, listed: list[str]) -> None:
        self.listed = listed
        self.after_rescan = listed
        self.opened: list[Any] = []

    def query_devices(self, device: Any = None, kind: str | None = None) -> Any:
        outputs = [
            {"name": n, "max_output_channels": 2, "default_samplerate": 48000.0}
            for n in self.listed
        ]
        return outputs if device is None else outputs[device]

    def RawOutputStream(self, **kwargs: Any) -> _Stream:
        self.opened.append(kwargs["device"])
        return _Stream(**kwargs)

    def _terminate(self) -> None: ...

    def _initialize(self) -> None:
        self.listed = self.after_rescan


def _play(player: SounddevicePlayer) -> bool:
    audio = RenderedAudio(b"\x00\x00" * 10, 48000)
    return player.play(audio, on_start=lambda: None, cancel=threading.Event())


def test_card_audio_given_by_index_follows_its_headphones_through_a_rescan() -> None:
    # The microphone's retry restarts PortAudio while the card voice's player is
    # open: the next card's stream went to index 3, now the laptop's speakers.
    sd = OutputsSd(["HDMI", "Speakers", "Dock", "USB Headphones"])
    player = SounddevicePlayer.open("3", sd=sd)
    assert _play(player)
    sd.after_rescan = ["HDMI", "Speakers", "Bluetooth speaker", "Dock", "USB Headphones"]
    assert devices.rescan(sd)
    assert _play(player)
    assert sd.opened == [3, 4]
    again = SounddevicePlayer.reopen(3, sd=sd)  # the retry's reopen finds them too
    assert again.device == 4


def test_card_audio_given_by_index_is_refused_when_its_headphones_are_gone() -> None:
    sd = OutputsSd(["HDMI", "Speakers", "Dock", "USB Headphones"])
    player = SounddevicePlayer.open(3, sd=sd)
    sd.after_rescan = ["HDMI", "Dock", "Speakers", "Bluetooth speaker"]
    assert devices.rescan(sd)
    with pytest.raises(DeviceError, match=r"'USB Headphones'.* is not there now"):
        _play(player)
    with pytest.raises(DeviceError, match=r"'USB Headphones'.* is not there now"):
        SounddevicePlayer.reopen(3, sd=sd)
    assert sd.opened == []  # never the speakers now at index 3
