"""When the host's own voice is audible, and the microphone gate that follows from it.

Every announcer keeps one :class:`SpeechTimeline` on the host's clock (wall
clock live, audio time in a replay).  The host asks it whether a moment or a
stretch of microphone audio overlaps the host's speech plus a short tail, and
drops what does (dialogue rule 1: never judge your own voice).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

#: Seconds after the host stops speaking during which the microphone stays gated: room echo
#: and the recogniser's own lag both outlast the last sample played.
DEFAULT_TAIL = 0.5
#: How many finished intervals a timeline remembers (the gate only needs the recent ones).
HISTORY = 4096

#: Told ``(start, end)`` in seconds on the host's clock once a spoken interval's end is known.
SpeechListener = Callable[[float, float], None]


@dataclass(frozen=True)
class SpeechInterval:
    """One stretch of the host's own voice."""

    start: float
    """Seconds on the host's clock when the sound started."""
    end: float
    """Seconds on the host's clock when the sound stopped (cut short or finished)."""
    text: str
    """What was said."""
    completed: bool = True
    """False when the announcement was cut short by ``stop()`` or an interruption."""

    @property
    def duration(self) -> float:
        """Length in seconds."""
        return self.end - self.start


class SpeechTimeline:
    """Thread-safe record of speaking intervals, with the microphone gate.

    The announcer's thread calls :meth:`begin` and :meth:`end`; the host's
    threads ask :meth:`is_gated` and :meth:`gate_overlaps`.  ``end`` is idempotent
    and announcers call it in a ``finally``, so an error never leaves the gate shut.
    """

    def __init__(
        self,
        clock: Callable[[], float],
        *,
        tail: float = DEFAULT_TAIL,
        report: Callable[[str], None] | None = None,
    ) -> None:
        if tail < 0:
            raise ValueError(f"gate tail must be 0 seconds or more, not {tail}")
        self.clock = clock
        """The host's clock, in seconds."""
        self.tail = tail
        """Seconds the gate stays shut after speech ends."""
        self._report = report
        self._lock = threading.Lock()
        self._intervals: deque[SpeechInterval] = deque(maxlen=HISTORY)
        self._open: tuple[float, str] | None = None
        self._listeners: list[SpeechListener] = []

    # -- recording (announcer side) ---------------------------------------------------------

    def begin(self, text: str, at: float | None = None) -> None:
        """Mark that the host's voice is audible from ``at`` (default: now) until :meth:`end`."""
        start = self.clock() if at is None else at
        with self._lock:
            self._open = (start, text)

    def end(self, *, completed: bool = True, at: float | None = None) -> SpeechInterval | None:
        """Close the open interval at ``at`` (default: now); a no-op when nothing is open."""
        stop = self.clock() if at is None else at
        with self._lock:
            if self._open is None:
                return None
            start, text = self._open
            self._open = None
            interval = SpeechInterval(start, max(start, stop), text, completed)
            self._intervals.append(interval)
        self._tell(interval)
        return interval

    def add(self, interval: SpeechInterval) -> None:
        """Record an interval whose end is already known (a replay plans its speech ahead)."""
        with self._lock:
            self._intervals.append(interval)
        self._tell(interval)

    def cut(self, at: float) -> SpeechInterval | None:
        """Cut planned speech short at ``at`` seconds (a replay's ``stop``).

        Intervals not yet started at ``at`` are dropped (they were only queued); the one
        sounding at ``at`` is shortened to end there.  Returns the shortened interval, if any.
        """
        with self._lock:
            while self._intervals and self._intervals[-1].start >= at:
                self._intervals.pop()
            if not self._intervals or self._intervals[-1].end <= at:
                return None
            last = self._intervals[-1]
            shortened = SpeechInterval(last.start, at, last.text, False)
            self._intervals[-1] = shortened
        self._tell(shortened)
        return shortened

    def add_listener(self, listener: SpeechListener) -> None:
        """Call ``listener(start, end)`` for every interval once its end is known.

        Called on the announcer's thread; it should return quickly.  An exception it
        raises is reported and otherwise ignored, so the announcer keeps going.
        """
        with self._lock:
            self._listeners.append(listener)

    def _tell(self, interval: SpeechInterval) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(interval.start, interval.end)
            except Exception as exc:  # a host bug must not stop the voice or shut the gate
                if self._report is not None:
                    self._report(f"speech listener failed: {exc}")

    # -- queries (host side) ----------------------------------------------------------------

    def speech_intervals(self) -> tuple[SpeechInterval, ...]:
        """Finished intervals, oldest first (the open one, if any, is not included)."""
        with self._lock:
            return tuple(self._intervals)

    def speaking_since(self) -> float | None:
        """Start of the interval still sounding (live playback), or None."""
        with self._lock:
            return None if self._open is None else self._open[0]

    def last(self) -> SpeechInterval | None:
        """The most recent finished interval (its text helps ignore an echo of it)."""
        with self._lock:
            return self._intervals[-1] if self._intervals else None

    def is_speaking(self, t: float | None = None) -> bool:
        """Whether the host's voice is audible at ``t`` seconds (default: now)."""
        return self._overlaps(t, t, tail=0.0)

    def is_gated(self, t: float | None = None) -> bool:
        """Whether microphone audio at ``t`` must not be judged: speaking, or within the tail."""
        return self._overlaps(t, t, tail=self.tail)

    def gate_overlaps(self, start: float, end: float) -> bool:
        """Whether any of the microphone audio from ``start`` to ``end`` seconds is gated."""
        if end < start:
            raise ValueError(f"span ends ({end}) before it starts ({start})")
        return self._overlaps(start, end, tail=self.tail)

    def _overlaps(self, start: float | None, end: float | None, *, tail: float) -> bool:
        if start is None or end is None:
            start = end = self.clock()
        with self._lock:
            if self._open is not None and end >= self._open[0]:
                return True
            # Newest first: one voice speaks one thing at a time, so intervals are in order
            # and the first one ending before the span means no older one can reach it.
            for interval in reversed(self._intervals):
                if interval.end + tail < start:
                    break
                if interval.start <= end:
                    return True
        return False
