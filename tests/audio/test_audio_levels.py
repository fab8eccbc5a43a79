"""A microphone that hears nothing at all (muted by its key) is noticed; one in a
quiet room is not.  A table heard too faintly, or a microphone that overloads, is
noticed once; a quiet moment, a clap or a cheer is not."""

from __future__ import annotations

import math

import numpy as np

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.audio.levels import (
    FAINT_BELOW_DBFS,
    FAINT_SECONDS,
    OVERLOAD_MOMENTS,
    SILENT_SECONDS,
    LevelWatch,
    SilentInputWatch,
    TableLevelWatch,
    chunk_dbfs,
)


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


def clipped_block(t: float, share: float) -> AudioChunk:
    """100 ms of loud noise with ``share`` of its samples at full scale."""
    n = SAMPLE_RATE // 10
    values = np.round(np.random.default_rng(3).standard_normal(n) * 3000.0)
    values[: int(share * n)] = 32767
    return AudioChunk(values.astype("<i2").tobytes(), SAMPLE_RATE, t)


def table(watch: TableLevelWatch, blocks: list[AudioChunk], in_play: bool = True) -> list[str]:
    """The watch's news over ``blocks``, each with the audio seconds seen before it."""
    return [
        f"{i / 10 + 0.1:.1f} {news}"
        for i, b in enumerate(blocks)
        if (news := watch.observe(b, in_play))
    ]


def speech(seconds: float, dbfs: float, start: float = 0.0) -> list[AudioChunk]:
    """Talk whose loudest blocks reach ``dbfs``: every fifth block at it, the rest 20 dB
    under (the gaps between words, over the microphone's hiss)."""
    return [
        block(start + i / 10, dbfs if i % 5 == 0 else dbfs - 20.0, seed=i)
        for i in range(int(seconds * 10))
    ]


def test_a_faint_table_is_news_once() -> None:
    # speech whose loudest words stay 6 dB under the line, turn after turn
    watch = TableLevelWatch()
    faint = speech(3 * FAINT_SECONDS, FAINT_BELOW_DBFS - 6.0)
    assert table(watch, faint) == [f"{FAINT_SECONDS:.1f} faint"]


def test_a_table_heard_well_is_no_news() -> None:
    # speech at a laptop's usual level, with a long pause to think in it
    watch = TableLevelWatch()
    blocks = speech(30.0, -25.0) + speech(FAINT_SECONDS - 1.0, -70.0, 30.0) + speech(60.0, -25.0)
    assert table(watch, blocks) == []


def test_faint_audio_between_turns_is_not_counted() -> None:
    # between turns the table may be silent: only audio in play counts
    watch = TableLevelWatch()
    faint = speech(2 * FAINT_SECONDS, FAINT_BELOW_DBFS - 10.0)
    assert table(watch, faint, in_play=False) == []
    # nor is a dead input "faint": that is the muted microphone's news
    assert table(watch, [block(i / 10, None) for i in range(int(2 * FAINT_SECONDS * 10))]) == []


def test_a_microphone_that_clips_again_and_again_is_news_once() -> None:
    watch = TableLevelWatch()
    # loud talk clipping on every other second, for a minute
    blocks = [clipped_block(i / 10, 0.05 if i % 20 == 0 else 0.0) for i in range(600)]
    news = table(watch, blocks)
    assert news == [f"{2 * (OVERLOAD_MOMENTS - 1) + 0.1:.1f} overload"]


def test_a_clap_or_a_cheer_is_no_overload() -> None:
    watch = TableLevelWatch()
    # a burst of clipping (a cheer: every block for two seconds) is one moment or two,
    # and a clap a minute later another
    blocks = [clipped_block(i / 10, 0.05 if i < 20 or i == 700 else 0.0) for i in range(800)]
    assert table(watch, blocks) == []
    # a sample or two at full scale in a block is no overload
    assert table(TableLevelWatch(), [clipped_block(i / 10, 0.002) for i in range(600)]) == []


def test_a_recordings_clipped_share_and_loudest_block() -> None:
    watch = LevelWatch()
    blocks = [clipped_block(0.0, 0.05), block(0.1, -40.0)]
    assert list(watch.counting(blocks)) == blocks
    assert watch.clipped == int(0.05 * SAMPLE_RATE // 10)
    assert abs(watch.share() - 0.025) < 0.001
    assert watch.loudest == max(chunk_dbfs(b) for b in blocks)
