"""Two clocks behind one protocol: the wall clock live, audio time in a replay.

Timers, guess times and latencies are all read from the host's one clock, so a
recorded game replays deterministically and faster than real time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from typing import Protocol

from voice_host.audio.chunk import AudioChunk


class Clock(Protocol):
    """Anything that tells the host's time."""

    def now(self) -> float:
        """Seconds on this clock (only differences between readings mean anything)."""
        ...


class WallClock:
    """Live play: monotonic wall-clock seconds (never jumps when the system time is set)."""

    def now(self) -> float:
        """Seconds of ``time.monotonic()``."""
        return time.monotonic()


class AudioClock:
    """Replay: seconds of audio fed so far (samples fed divided by their rate), from ``start``."""

    def __init__(self, start: float = 0.0) -> None:
        self._t = start

    def now(self) -> float:
        """Seconds of audio time fed so far."""
        return self._t

    def feed(self, chunk: AudioChunk) -> None:
        """Count ``chunk`` as fed: the clock moves to its end (never backwards)."""
        self._t = max(self._t, chunk.end_time)

    def advance_to(self, t: float) -> None:
        """Move to ``t`` seconds of audio time (a scripted gap); never backwards."""
        if t < self._t:
            raise ValueError(f"audio time cannot go back from {self._t:.3f} to {t:.3f}")
        self._t = t


def restamped(
    chunks: Iterable[AudioChunk], clock: Clock, reanchor: threading.Event | None = None
) -> Iterator[AudioChunk]:
    """Microphone chunks moved onto ``clock`` (offset fixed at the first chunk), so the
    timer, guesses, claims and the microphone gate share one clock.

    ``reanchor``, once set (the microphone was reopened after a stall), fixes the offset
    again at the next chunk: a microphone's audio time counts the samples it delivered
    and does not run on over the stall, so without it every later chunk would be
    stamped as early as the stall was long (the gate, R8's buzzer and R17's claims
    all compare those times with the wall clock)."""
    offset: float | None = None
    for chunk in chunks:
        if reanchor is not None and reanchor.is_set():
            reanchor.clear()
            offset = None
        if offset is None:
            offset = clock.now() - chunk.end_time
        yield AudioChunk(chunk.samples, chunk.rate, chunk.start_time + offset)
