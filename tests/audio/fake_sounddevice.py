"""A scripted stand-in for the ``sounddevice`` module (no PortAudio needed).

Each ``RawInputStream`` opened takes the next :class:`Plan`: whether opening
fails, which sample rates the device accepts, how many blocks it delivers
when started (synchronously, through the real callback), and whether it then
reports itself inactive.  After its blocks a stream goes quiet, like an
unplugged USB microphone that raises nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any


class FakePortAudioError(Exception):
    """Stands for ``sounddevice.PortAudioError``."""


@dataclass
class Plan:
    """What the next opened stream does."""

    blocks: int = 0
    fail_open: bool = False
    rates: tuple[int, ...] = (16000,)
    channels: tuple[int, ...] = (1,)
    inactive_after: bool = False


@dataclass
class FakeStream:
    sd: FakeSoundDevice
    plan: Plan
    samplerate: int
    blocksize: int
    channels: int
    callback: Callable[[Any, int, Any, Any], None]
    active: bool = False
    closed: bool = False
    calls: list[str] = field(default_factory=list)
    """``stop``, ``abort`` and ``close``, in the order called."""

    def start(self) -> None:
        self.active = True
        for i in range(self.plan.blocks):
            value = (self.sd.blocks_sent + 1) % 30000
            self.sd.blocks_sent += 1
            block = value.to_bytes(2, "little", signed=True) * self.blocksize * self.channels
            self.callback(block, self.blocksize, None, None)
            del i
        if self.plan.inactive_after:
            self.active = False

    def stop(self) -> None:
        self.calls.append("stop")
        self.active = False

    def abort(self) -> None:
        self.calls.append("abort")
        self.active = False

    def close(self) -> None:
        self.calls.append("close")
        self.closed = True


@dataclass
class FakeSoundDevice:
    """The parts of ``sounddevice`` the host uses, following a script of plans."""

    plans: list[Plan]
    devices: list[dict[str, Any]] = field(
        default_factory=lambda: [
            {"name": "HDMI out", "max_input_channels": 0, "default_samplerate": 48000.0},
            {"name": "USB Mic", "max_input_channels": 1, "default_samplerate": 48000.0},
            {"name": "Webcam Mic", "max_input_channels": 2, "default_samplerate": 16000.0},
        ]
    )
    default: Any = field(default_factory=lambda: SimpleNamespace(device=[1, 0]))
    PortAudioError: type[Exception] = FakePortAudioError
    streams: list[FakeStream] = field(default_factory=list)
    blocks_sent: int = 0
    open_attempts: list[int] = field(default_factory=list)
    open_layouts: list[tuple[int, int]] = field(default_factory=list)
    open_devices: list[int] = field(default_factory=list)
    """The device index of each stream asked for."""

    def query_devices(self) -> list[dict[str, Any]]:
        return self.devices

    def RawInputStream(
        self,
        *,
        samplerate: int,
        channels: int,
        dtype: str,
        blocksize: int,
        device: int,
        callback: Callable[[Any, int, Any, Any], None],
    ) -> FakeStream:
        assert dtype == "int16"
        self.open_attempts.append(samplerate)
        self.open_layouts.append((samplerate, channels))
        self.open_devices.append(device)
        if not self.plans:
            raise FakePortAudioError("device unavailable")
        plan = self.plans[0]
        if plan.fail_open:
            self.plans.pop(0)
            raise FakePortAudioError("device unavailable")
        if samplerate not in plan.rates:
            raise FakePortAudioError("Invalid sample rate")
        if channels not in plan.channels:
            raise FakePortAudioError("Invalid number of channels")
        self.plans.pop(0)
        stream = FakeStream(self, plan, samplerate, blocksize, channels, callback)
        self.streams.append(stream)
        return stream
