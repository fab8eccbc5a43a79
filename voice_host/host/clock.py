"""Two clocks behind one protocol: the wall clock live, audio time in a replay.

Timers, guess times and latencies are all read from the host's one clock, so a
recorded game replays deterministically and faster than real time.
"""

from __future__ import annotations

import collections
import logging
import math
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Protocol

from voice_host.audio.chunk import AudioChunk

log = logging.getLogger(__name__)


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


#: Live, a microphone's audio time and the host's clock part ways: a block the
#: sound system lost (an input overflow, while the listening thread held the
#: interpreter through a long decode: up to 0.4 s on a slow machine) is not
#: counted, and a sound card's crystal runs up to about 0.1% off the computer's
#: (3.6 s an hour).  A chunk the listening thread waited for reached it as soon as
#: it ended, give or take a few milliseconds, so the least lateness of such chunks
#: over a stretch tells where the audio really is: :func:`restamped` reads it over
#: this many seconds on the host's clock ...
DRIFT_SPAN = 20.0
#: ... taken a second at a time ...
DRIFT_STEP = 1.0
#: ... and moves its offset when that least lateness is further than this from
#: nought: a slip of this size is what R8's grace and the gate's tail take without
#: notice.
DRIFT_MAX = 0.05
#: A chunk the reader got within this long of asking had been waiting in the queue
#: (the reader was behind), so its lateness says nothing of the audio's clock.
WAITED = 0.005


def restamped(
    chunks: Iterable[AudioChunk],
    clock: Clock,
    reanchor: threading.Event | None = None,
) -> Iterator[AudioChunk]:
    """Microphone chunks moved onto ``clock``, so the timer, guesses, claims and the
    microphone gate share one clock.

    The offset is fixed at the first chunk, then follows the clock: a chunk the
    reader had to wait for arrives as it ends, so when the least lateness (the clock
    when it arrived, less its stamped end) of such chunks over the last :data:`DRIFT_SPAN`
    seconds is further than :data:`DRIFT_MAX` from nought, the offset moves by it
    (blocks the sound system lost, a sound card's clock running fast or slow, a
    first chunk that arrived late).  Chunks that were already waiting in the queue
    (the listening thread behind, however long) do not count.  The recogniser ends
    its utterance at such a step, as at any gap in the audio.

    ``reanchor``, once set (the microphone was reopened after a stall), fixes the offset
    again at the next chunk: a microphone's audio time counts the samples it delivered
    and does not run on over the stall, so without it every later chunk would be
    stamped as early as the stall was long (the gate, R8's buzzer and R17's claims
    all compare those times with the wall clock)."""
    offset: float | None = None
    steps = round(DRIFT_SPAN / DRIFT_STEP)
    lateness: collections.deque[float] = collections.deque(maxlen=steps)  # least, each step
    opened = 0.0  # the clock when the current step opened
    least = math.inf  # least lateness in the current step
    source = iter(chunks)
    while True:
        asked = clock.now()
        chunk = next(source, None)
        if chunk is None:
            return
        now = clock.now()
        if reanchor is not None and reanchor.is_set():
            reanchor.clear()
            offset = None
        if offset is None:
            offset = now - chunk.end_time
            lateness.clear()
            opened, least = now, math.inf
        else:
            if now - asked >= WAITED:
                least = min(least, now - (chunk.end_time + offset))
            if now - opened >= DRIFT_STEP:
                lateness.append(least)
                opened, least = now, math.inf
                slip = min(lateness)
                if len(lateness) == steps and math.isfinite(slip) and abs(slip) > DRIFT_MAX:
                    offset += slip
                    lateness = collections.deque((x - slip for x in lateness), maxlen=steps)
                    log.info("microphone time moved %+.3f s to follow the clock", slip)
        yield AudioChunk(chunk.samples, chunk.rate, chunk.start_time + offset)
