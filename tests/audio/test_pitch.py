"""The pitch of a voice: median F0 of the voiced frames, or None."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from voice_host.audio.pitch import median_pitch
from voice_host.audio.wav import read_wav

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
RATE = 16000


def voiced(f0: float, seconds: float = 1.0, level: float = 6000.0) -> bytes:
    """A vowel-like sound: ``f0`` and its harmonics, falling in strength, with
    a little noise, as 16-bit samples."""
    t = np.arange(int(seconds * RATE)) / RATE
    x = sum(np.sin(2 * np.pi * f0 * k * t) / k for k in range(1, 8))
    x = level * x / np.max(np.abs(x)) + np.random.default_rng(1).normal(0, 50, len(t))
    return np.clip(x, -32768, 32767).astype("<i2").tobytes()


@pytest.mark.parametrize("f0", [85.0, 120.0, 180.0, 250.0, 350.0])
def test_a_voiced_sound_gives_its_pitch(f0: float) -> None:
    pitch = median_pitch(voiced(f0))
    assert pitch is not None
    assert abs(pitch - f0) / f0 < 0.03


def test_silence_noise_and_a_click_give_no_pitch() -> None:
    assert median_pitch(bytes(2 * RATE)) is None
    noise = np.random.default_rng(2).normal(0, 3000, RATE)
    assert median_pitch(noise.astype("<i2").tobytes()) is None
    assert median_pitch(voiced(120.0, seconds=0.05)) is None  # under ten frames
    assert median_pitch(b"") is None


def test_the_pitch_is_that_of_the_loud_speech_not_the_pauses() -> None:
    quiet = voiced(250.0, 0.5, level=200.0)
    loud = voiced(110.0, 0.5)
    pitch = median_pitch(quiet + loud + quiet)
    assert pitch is not None and abs(pitch - 110.0) < 4


def test_other_sample_rates_are_refused() -> None:
    with pytest.raises(ValueError, match="16000 Hz"):
        median_pitch(voiced(120.0), rate=8000)


def test_a_womans_voice_and_a_mans_differ_by_half_again() -> None:
    # the fixture voices slt (a woman's) and rms (a man's), each calling out a guess
    slt = median_pitch(read_wav(FIXTURES / "slt" / "guess__is_it_a_kangaroo.wav").samples)
    rms = median_pitch(read_wav(FIXTURES / "rms" / "guess__a_teacher.wav").samples)
    assert slt is not None and rms is not None
    assert slt / rms >= 1.5
