"""The turn timer (R5, R8) on the host's clock, with its cues as events.

The timer is read when something happens (an audio chunk, a key, a loop tick);
it never drives announcements by itself.  :meth:`TurnTimer.cues` returns each
cue once, when its moment has passed: the ten-second warning and the end.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

#: Seconds left at which the host warns once (dialogue.md item 7).
WARNING_AT = 10.0

#: How often a running turn's time left is saved, in whole seconds of the timer: a
#: turn resumed after a power cut gains at most this much (a save takes about a
#: millisecond, so every second costs nothing a player would notice).
SAVE_TIMER_EVERY = 1


class Cue(enum.Enum):
    """A moment of the turn worth telling the players."""

    WARNING = "warning"
    """Ten seconds left."""
    END = "end"
    """The buzzer: time is up."""


@dataclass(frozen=True)
class TimerCue:
    """A cue and the clock time (seconds) at which it fell due."""

    cue: Cue
    at: float


class TurnTimer:
    """A countdown of ``seconds`` on the host's clock that can be paused (accessibility).

    Not started, it shows the full time; after :meth:`start` it runs until the
    buzzer; :meth:`pause` freezes it and :meth:`resume` goes on from there.
    """

    def __init__(self, seconds: float) -> None:
        if seconds <= 0:
            raise ValueError(f"a turn must last more than 0 seconds, not {seconds}")
        self.seconds = seconds
        """Length of a turn in seconds."""
        self._left = seconds
        self._since: float | None = None
        self._started = False
        self._given: set[Cue] = set()

    @property
    def started(self) -> bool:
        """Whether the turn's countdown has begun."""
        return self._started

    @property
    def running(self) -> bool:
        """Whether it is counting down now."""
        return self._since is not None

    @property
    def paused(self) -> bool:
        """Started but not counting down (paused, or stopped at the buzzer)."""
        return self._started and self._since is None

    def start(self, at: float, left: float | None = None) -> None:
        """Begin a fresh countdown at ``at`` seconds, of the full turn or of ``left``
        seconds (a resumed turn); with ten seconds or fewer, no warning is due."""
        self._left = self.seconds if left is None else min(self.seconds, left)
        self._since = at
        self._started = True
        self._given = {Cue.WARNING} if self._left <= WARNING_AT < self.seconds else set()

    def reset(self) -> None:
        """Back to the full time, not started (a new turn)."""
        self._left = self.seconds
        self._since = None
        self._started = False
        self._given = set()

    def expire(self) -> None:
        """Stop with no time left (a turn re-opened by undo after its time ran out)."""
        self._left = 0.0
        self._since = None
        self._started = True
        self._given = {Cue.WARNING, Cue.END}

    def pause(self, at: float) -> bool:
        """Freeze the countdown; False if it was not running."""
        if self._since is None:
            return False
        self._left = self.left(at)
        self._since = None
        return True

    def resume(self, at: float) -> bool:
        """Go on counting from where it was paused; False if not paused or no time is left."""
        if self._since is not None or not self._started or self._left <= 0:
            return False
        self._since = at
        return True

    def left(self, at: float) -> float:
        """Seconds left at ``at`` (never below 0)."""
        if self._since is None:
            return self._left
        return max(0.0, self._left - (at - self._since))

    @property
    def buzzer(self) -> float | None:
        """The clock time at which it runs out, while it runs; else None."""
        return None if self._since is None else self._since + self._left

    def cues(self, at: float) -> list[TimerCue]:
        """Cues whose moment has passed by ``at`` and were not given yet, in order."""
        buzzer = self.buzzer
        if buzzer is None:
            return []
        out: list[TimerCue] = []
        warn_at = buzzer - WARNING_AT
        if Cue.WARNING not in self._given and self.seconds > WARNING_AT and at >= warn_at:
            self._given.add(Cue.WARNING)
            if at < buzzer:
                out.append(TimerCue(Cue.WARNING, warn_at))
        if Cue.END not in self._given and at >= buzzer:
            self._given.add(Cue.END)
            self._left = 0.0
            self._since = None
            out.append(TimerCue(Cue.END, buzzer))
        return out
