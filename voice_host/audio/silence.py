"""Silence as a source of chunks (tests, padding, keyboard-only play)."""

from __future__ import annotations

from collections.abc import Iterator

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.audio.wav import CHUNK_SECONDS


class SilenceSource:
    """``seconds`` of digital silence in chunks of ``chunk_seconds``, from ``start_time``."""

    def __init__(
        self, seconds: float, chunk_seconds: float = CHUNK_SECONDS, start_time: float = 0.0
    ) -> None:
        if seconds < 0:
            raise ValueError(f"silence length must not be negative, not {seconds}")
        self.total = round(seconds * SAMPLE_RATE)
        self.block = max(1, round(chunk_seconds * SAMPLE_RATE))
        self.start_time = start_time

    def __iter__(self) -> Iterator[AudioChunk]:
        done = 0
        while done < self.total:
            n = min(self.block, self.total - done)
            yield AudioChunk(bytes(2 * n), SAMPLE_RATE, self.start_time + done / SAMPLE_RATE)
            done += n
