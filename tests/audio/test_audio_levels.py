"""A microphone that hears nothing at all (muted by its key) is noticed; one in a
quiet room is not."""

from __future__ import annotations

import math

import numpy as np

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.audio.levels import SILENT_SECONDS, SilentInputWatch, chunk_dbfs


def block(t: float, dbfs: float | None, seed: int = 0) -> AudioChunk:
    """100 ms of white noise at ``dbfs`` RMS (None: digital zeros) from ``t``."""
    n = SAMPLE_RATE // 10
    if dbfs is None:
        return AudioChunk(bytes(2 * n), SAMPLE_RATE, t)
    noise = np.random.default_rng(seed).standard_normal(n)
    values = np.round(noise * 32768.0 * 10 ** (dbfs / 20))
    return AudioChunk(values.astype("<i2").tobytes(), SAMPLE_RATE, t)


def feed(watch: SilentInputWatch, levels: list[float | None], start: float = 0.0) -> list[str]:
    news = []
    for i, level in enumerate(levels):
        said = watch.observe(block(start + i / 10, level, seed=i))
        if said is not None:
            news.append(f"{start + (i + 1) / 10:.1f} {said}")
    return news


def test_the_level_of_a_block() -> None:
    assert chunk_dbfs(block(0.0, None)) == -math.inf
    assert abs(chunk_dbfs(block(0.0, -40.0)) + 40.0) < 0.5
    assert abs(chunk_dbfs(block(0.0, -70.0)) + 70.0) < 1.5


def test_a_muted_microphone_is_news_once_and_sound_again_is_news_once() -> None:
    watch = SilentInputWatch()
    blocks = int(SILENT_SECONDS * 10)
    # digital zeros for twice the time: said once, when the time is up
    assert feed(watch, [None] * 2 * blocks) == [f"{SILENT_SECONDS:.1f} silent"]
    assert watch.silent
    # someone unmutes it and speaks
    assert feed(watch, [-30.0, -30.0, None], start=30.0) == ["30.1 sound"]
    assert not watch.silent


def test_a_quiet_room_is_no_muted_microphone() -> None:
    # a laptop's microphone in a still room (-70 dBFS), for a minute
    watch = SilentInputWatch()
    assert feed(watch, [-70.0] * 600) == []


def test_one_sound_restarts_the_count() -> None:
    # near-digital silence with a cough every 10 s: never silent
    watch = SilentInputWatch()
    levels: list[float | None] = [None if i % 100 else -35.0 for i in range(600)]
    assert feed(watch, levels) == []
