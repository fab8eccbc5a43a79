"""The one audio format inside the host: 16 kHz mono signed 16-bit chunks."""

from __future__ import annotations

from dataclasses import dataclass

#: The rate every recogniser is fed, in samples per second.
SAMPLE_RATE = 16_000


@dataclass(frozen=True)
class AudioChunk:
    """A block of mono signed 16-bit little-endian samples that knows its place in time."""

    samples: bytes
    """Raw PCM, mono, signed 16-bit little-endian (two bytes a sample)."""
    rate: int
    """Samples per second."""
    start_time: float
    """Seconds of audio time at which the first sample starts."""

    def __post_init__(self) -> None:
        if self.rate <= 0:
            raise ValueError(f"sample rate must be positive, not {self.rate}")
        if len(self.samples) % 2:
            raise ValueError("16-bit audio needs an even number of bytes")

    @property
    def frames(self) -> int:
        """Number of samples in the chunk."""
        return len(self.samples) // 2

    @property
    def duration(self) -> float:
        """Length in seconds."""
        return self.frames / self.rate

    @property
    def end_time(self) -> float:
        """Seconds of audio time just after the last sample."""
        return self.start_time + self.duration
