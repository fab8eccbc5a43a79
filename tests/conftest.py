"""Fixtures for every test."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from voice_host.audio import devices

#: A ``sounddevice`` for a machine with no audio device (its docstring says why), first
#: on the import path of this process and of every process it starts.
NO_AUDIO = str(Path(__file__).parent / "noaudio")
sys.path.insert(0, NO_AUDIO)
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (NO_AUDIO, os.environ.get("PYTHONPATH", "")) if p
)


@pytest.fixture
def real_sounddevice(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The real ``sounddevice`` and PortAudio for this test, in this process and in the
    processes it starts (instead of the stand-in for a machine with no audio device)."""
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != NO_AUDIO])
    rest = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != NO_AUDIO]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(rest))
    standin = sys.modules.pop("sounddevice", None)
    try:
        yield
    finally:
        sys.modules.pop("sounddevice", None)
        if standin is not None:
            sys.modules["sounddevice"] = standin


@pytest.fixture(autouse=True)
def _device_indexes_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no device index followed by its name
    (:func:`voice_host.audio.devices.follow_index` remembers them for the process, as
    a game needs; one test's fake devices are not another's)."""
    monkeypatch.setattr(devices, "_chosen_names", {})
