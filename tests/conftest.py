"""Fixtures for every test."""

from __future__ import annotations

import pytest

from voice_host.audio import devices


@pytest.fixture(autouse=True)
def _device_indexes_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no device index followed by its name
    (:func:`voice_host.audio.devices.follow_index` remembers them for the process, as
    a game needs; one test's fake devices are not another's)."""
    monkeypatch.setattr(devices, "_chosen_names", {})
