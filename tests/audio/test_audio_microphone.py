"""The microphone source against a scripted fake ``sounddevice``: flow, stalls, reopening."""

from __future__ import annotations

import subprocess
import sys
import threading
from dataclasses import dataclass, field
from itertools import islice
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from fake_sounddevice import FakeSoundDevice, Plan

from voice_host.audio import devices
from voice_host.audio.microphone import MicrophoneEvent, MicrophoneSource
from voice_host.errors import DeviceError


def make_source(
    sd: FakeSoundDevice, device: int | str | None = None, **kwargs: object
) -> tuple[MicrophoneSource, list[MicrophoneEvent], list[float]]:
    events: list[MicrophoneEvent] = []
    sleeps: list[float] = []
    source = MicrophoneSource(
        device,
        on_event=events.append,
        stall_seconds=0.05,  # quick, so the test does not wait a real second
        backoff=(0.5, 1.0, 2.0),
        sd=sd,
        sleep=sleeps.append,
        **{"start_seconds": 0.05, **kwargs},  # type: ignore[arg-type]
    )
    return source, events, sleeps


def test_blocks_flow_as_50_ms_chunks_in_audio_time() -> None:
    sd = FakeSoundDevice([Plan(blocks=5)])
    source, events, _ = make_source(sd)
    chunks = list(islice(source, 5))
    assert [round(c.start_time, 2) for c in chunks] == [0.0, 0.05, 0.1, 0.15, 0.2]
    assert all(c.frames == 800 and c.rate == 16000 for c in chunks)
    # Each block's content arrives intact and in order.
    assert [int.from_bytes(c.samples[:2], "little") for c in chunks] == [1, 2, 3, 4, 5]
    assert [e.kind for e in events] == ["opened"]
    assert source.input_device is not None and source.input_device.name == "USB Mic"


def test_a_stall_is_reported_and_the_device_reopened_with_backoff() -> None:
    # Three blocks, then silence (unplugged); the first reopen fails; the second works.
    sd = FakeSoundDevice([Plan(blocks=3), Plan(fail_open=True), Plan(blocks=2)])
    source, events, sleeps = make_source(sd)
    chunks = list(islice(source, 5))
    assert len(chunks) == 5
    assert [e.kind for e in events] == ["opened", "stalled", "reopen_failed", "reopened"]
    assert sleeps == [0.5, 1.0]
    assert sd.streams[0].closed
    # Audio time runs on over the stall: samples delivered, not wall time.
    assert chunks[3].start_time == pytest.approx(3 * 0.05)


def test_a_reopened_stream_that_sends_nothing_is_a_failed_attempt() -> None:
    # The source is suspended (PulseAudio): the device opens at once but sends no
    # sound until it resumes. Each such open was "reopened" with the backoff back at
    # its first step, so the host said "stopped" and "back" every 1.5 s for as long
    # as it lasted and never gave up.
    sd = FakeSoundDevice([Plan(blocks=2), Plan(blocks=0), Plan(blocks=0), Plan(blocks=2)])
    source, events, sleeps = make_source(sd)
    chunks = list(islice(source, 4))
    assert len(chunks) == 4
    assert [e.kind for e in events] == [
        "opened",
        "stalled",
        "reopen_failed",
        "reopen_failed",
        "reopened",
    ]
    assert "sent no sound" in events[2].message
    assert events[-1].message == "microphone back after 3 attempt(s)"
    assert sleeps == [0.5, 1.0, 2.0]  # the backoff goes on from step to step


def test_a_device_that_never_sends_sound_again_gives_up() -> None:
    sd = FakeSoundDevice([Plan(blocks=1), Plan(blocks=0), Plan(blocks=0), Plan(blocks=0)])
    source, events, sleeps = make_source(sd)
    with pytest.raises(DeviceError, match="could not be reopened"):
        list(islice(source, 2))
    assert sleeps == [0.5, 1.0, 2.0]
    assert [e.kind for e in events][-2:] == ["reopen_failed", "gave_up"]
    assert all(stream.closed for stream in sd.streams)


def test_a_slow_first_block_is_waited_for() -> None:
    # A PulseAudio source fed by a null sink sent its first block up to 2 s after
    # opening: with only the 1 s stall limit it was reopened before it ever spoke.
    sd = FakeSoundDevice([Plan(blocks=0)])
    source, events, _ = make_source(sd, start_seconds=1.0)
    chunks = iter(source)

    def first_block() -> None:
        stream = sd.streams[0]
        stream.callback(b"\x05\x00" * stream.blocksize, stream.blocksize, None, None)

    timer = threading.Timer(0.3, first_block)  # six stall limits after opening
    timer.start()
    try:
        chunk = next(chunks)
    finally:
        timer.cancel()
    assert int.from_bytes(chunk.samples[:2], "little") == 5
    assert [e.kind for e in events] == ["opened"]


def test_a_stalled_stream_is_aborted_not_stopped() -> None:
    # PortAudio's stop waits for the device: on a suspended PulseAudio source it
    # held the watchdog for as long as the source stayed suspended (11 s in the audit,
    # for ever if it never resumed). Abort returns at once.
    sd = FakeSoundDevice([Plan(blocks=1), Plan(blocks=1)])
    source, _, _ = make_source(sd)
    assert len(list(islice(source, 2))) == 2
    assert sd.streams[0].calls == ["abort", "close"]


def test_blocks_dropped_while_the_reader_is_behind_keep_their_time() -> None:
    # 60 blocks come while the reader is busy: the queue holds 50, the last 10 are
    # dropped. The next block was heard 3.0 s in, not 2.5 s: stamped 2.5 s, every
    # later chunk of the evening came early by the audio lost (the live host puts
    # chunks on the wall clock once, so its gate, buzzer and claims all slipped).
    sd = FakeSoundDevice([Plan(blocks=60)])
    source, _, _ = make_source(sd)
    chunks = iter(source)
    backlog = list(islice(chunks, 50))
    assert backlog[-1].start_time == pytest.approx(49 * 0.05)
    assert source.dropped_blocks == 10
    stream = sd.streams[0]
    stream.callback(b"\x07\x00" * stream.blocksize, stream.blocksize, None, None)
    after = next(chunks)
    assert int.from_bytes(after.samples[:2], "little") == 7
    assert after.start_time == pytest.approx(60 * 0.05)


def test_an_inactive_stream_counts_as_stalled() -> None:
    sd = FakeSoundDevice([Plan(blocks=1, inactive_after=True), Plan(blocks=1)])
    events: list[MicrophoneEvent] = []
    # A long stall time: only the stream's own "inactive" flag can trigger the reopen.
    source = MicrophoneSource(on_event=events.append, stall_seconds=60, sd=sd, sleep=lambda s: None)
    assert len(list(islice(source, 2))) == 2
    assert "stalled" in [e.kind for e in events]


def test_giving_up_after_every_backoff_step_is_a_device_error() -> None:
    sd = FakeSoundDevice([Plan(blocks=1)])  # no plans left: every reopen fails
    source, events, sleeps = make_source(sd)
    with pytest.raises(DeviceError, match="could not be reopened"):
        list(islice(source, 3))
    assert sleeps == [0.5, 1.0, 2.0]
    assert events[-1].kind == "gave_up"


def test_a_device_refusing_16k_is_opened_at_its_rate_and_resampled() -> None:
    sd = FakeSoundDevice([Plan(blocks=2, rates=(48000,))])
    source, _, _ = make_source(sd, device="usb")
    chunks = list(islice(source, 2))
    assert sd.open_attempts == [16000, 48000]
    # two 50 ms blocks at 48 kHz: 1600 samples at 16 kHz, less the few
    # milliseconds the resampling filter still holds
    assert 1600 - 160 <= sum(c.frames for c in chunks) <= 1600
    assert [c.rate for c in chunks] == [16000, 16000]
    assert chunks[1].start_time == pytest.approx(chunks[0].end_time)


def test_a_stereo_only_device_is_opened_in_stereo_and_mixed_to_mono() -> None:
    # The webcam's microphone records two channels at 16 kHz and refuses one.
    sd = FakeSoundDevice([Plan(blocks=2, rates=(16000,), channels=(2,))])
    source, _, _ = make_source(sd, device="webcam")
    chunks = list(islice(source, 2))
    assert sd.open_layouts == [(16000, 1), (16000, 2)]
    assert sum(c.frames for c in chunks) == 1600  # two 50 ms blocks, one channel
    # the fake's samples are the block number on both channels: mixed, they stay so
    first = np.frombuffer(chunks[0].samples, "<i2")
    assert set(first.tolist()) == {1}


def test_a_mono_device_is_never_asked_for_stereo() -> None:
    sd = FakeSoundDevice([Plan(rates=(44100,))])  # refuses both rates it is offered
    source, _, _ = make_source(sd, device="usb")
    with pytest.raises(DeviceError, match="cannot open microphone"):
        list(islice(source, 1))
    assert sd.open_layouts == [(16000, 1), (48000, 1)]


@pytest.mark.parametrize(
    ("device", "expected"),
    [
        (None, "USB Mic"),  # the system default input
        (2, "Webcam Mic"),  # by index
        ("2", "Webcam Mic"),  # an index given as text on the command line
        ("webcam", "Webcam Mic"),  # by name substring, any case
    ],
)
def test_device_selection(device: int | str | None, expected: str) -> None:
    assert devices.resolve_input_device(device, FakeSoundDevice([])).name == expected


@pytest.mark.parametrize(
    ("device", "message"),
    [
        (0, "no input device with index 0"),  # an output-only device
        ("piano", "no input device named like"),  # nothing matches
        ("mic", "matches several"),  # ambiguous
    ],
)
def test_bad_device_choices_are_device_errors(device: int | str, message: str) -> None:
    with pytest.raises(DeviceError, match=message):
        devices.resolve_input_device(device, FakeSoundDevice([]))


def test_no_input_device_at_all_is_a_clear_error() -> None:
    sd = FakeSoundDevice([], devices=[{"name": "HDMI", "max_input_channels": 0}])
    assert devices.list_input_devices(sd) == []
    with pytest.raises(DeviceError, match="no microphone"):
        list(MicrophoneSource(sd=sd))


def test_check_opens_the_device_and_closes_it_again() -> None:
    sd = FakeSoundDevice([Plan(blocks=2)])
    MicrophoneSource(sd=sd).check()
    assert len(sd.streams) == 1 and sd.streams[0].closed  # nothing left open


def test_check_says_why_a_present_device_will_not_open() -> None:
    # Busy (another program holds it) or refused: every layout fails to open.
    sd = FakeSoundDevice([])
    with pytest.raises(DeviceError, match="cannot open microphone 'USB Mic': device unavailable"):
        MicrophoneSource(sd=sd).check()
    assert sd.open_attempts  # it did try, rather than only look the device up


def test_list_input_devices_skips_outputs_and_marks_the_default() -> None:
    found = devices.list_input_devices(FakeSoundDevice([]))
    assert [(d.index, d.name, d.is_default) for d in found] == [
        (1, "USB Mic", True),
        (2, "Webcam Mic", False),
    ]


class _Pair:
    """Like sounddevice's ``default.device``: an ``_InputOutputPair``, indexed as a
    list is (``[0]`` input, ``[1]`` output) but neither a list nor a tuple."""

    def __init__(self, input_index: int, output_index: int) -> None:
        self._pair = [input_index, output_index]

    def __getitem__(self, index: int) -> int:
        return self._pair[index]


def test_the_default_input_is_found_in_sounddevices_own_pair() -> None:
    # The real module's default pair: the webcam (index 2), not the first input
    # listed, is the system's default. Read as "no default", the microphone opened
    # was the first input listed and `devices` starred none (found with PulseAudio,
    # where the first input is "pulse" and the default "default").
    sd = FakeSoundDevice([], default=SimpleNamespace(device=_Pair(2, 0)))
    found = devices.list_input_devices(sd)
    assert [(d.name, d.is_default) for d in found] == [("USB Mic", False), ("Webcam Mic", True)]
    assert devices.resolve_input_device(None, sd).name == "Webcam Mic"


@dataclass
class RestartingSoundDevice(FakeSoundDevice):
    """Lists the devices PortAudio found when it started: ``plugged`` (a microphone
    plugged in, a sound server started) shows only after ``_terminate`` and
    ``_initialize``, as sounddevice's own module does."""

    plugged: list[dict[str, Any]] = field(default_factory=list)
    restarts: int = 0

    def _terminate(self) -> None:
        self.restarts += 1

    def _initialize(self) -> None:
        self.devices = self.devices + self.plugged
        self.plugged = []


def test_a_microphone_plugged_in_later_is_found_by_a_fresh_device_list() -> None:
    # The game started with no microphone (or before the sound server): PortAudio's
    # list, made when it started, had no input, and every later try read that list,
    # so the host never heard the microphone plugged in for it.
    sd = RestartingSoundDevice(
        [Plan(blocks=2)],
        devices=[{"name": "HDMI out", "max_input_channels": 0}],
        default=SimpleNamespace(device=_Pair(-1, 0)),
        plugged=[{"name": "USB Mic", "max_input_channels": 1, "default_samplerate": 16000.0}],
    )
    source, _, _ = make_source(sd)
    assert len(list(islice(source, 2))) == 2
    assert sd.restarts == 1
    assert source.input_device is not None and source.input_device.name == "USB Mic"


def test_portaudio_is_not_restarted_under_an_open_stream() -> None:
    # Restarting PortAudio closes every stream of the process: not while the host's
    # voice (or anything else) plays through one.
    sd = RestartingSoundDevice([], devices=[], plugged=[])
    playing = devices.opened_stream(lambda: SimpleNamespace(close=lambda: None))
    try:
        with pytest.raises(DeviceError, match="no microphone"):
            MicrophoneSource(sd=sd).check()
        assert sd.restarts == 0
    finally:
        devices.closed_stream(playing)
    with pytest.raises(DeviceError, match="no microphone"):
        MicrophoneSource(sd=sd).check()
    assert sd.restarts == 1


def test_missing_portaudio_is_a_device_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_portaudio(name: str) -> object:
        raise OSError("PortAudio library not found")

    monkeypatch.setattr(devices.importlib, "import_module", no_portaudio)
    with pytest.raises(DeviceError, match="PortAudio"):
        devices.list_input_devices()


def test_importing_the_audio_package_does_not_import_sounddevice() -> None:
    # A fresh interpreter: this test process may have imported it for another reason.
    code = (
        "import sys, voice_host.audio.microphone, voice_host.audio.wav, "
        "voice_host.commands.listen, voice_host.commands.devices; "
        "print('sounddevice' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
