"""What reaches the host: key presses, the referee's judgements, microphone news.

Keys and voice are both always live: the keyboard thread and the listening
thread put :data:`HostInput` values on one :class:`InputQueue`, and the host
takes them in arrival order.  A replay calls the host directly instead.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field

from voice_host.referee.values import Judgement


@dataclass(frozen=True)
class KeyPress:
    """A key pressed on the host's keyboard (or a team's buzzer key)."""

    key: str
    """One character (``"c"``, ``"?"``, ``"1"``), or ``" "`` for space / Enter."""
    t: float
    """Seconds on the host's clock when it was pressed."""


@dataclass(frozen=True)
class Heard:
    """Judgements the referee made of one batch of recogniser events."""

    judgements: tuple[Judgement, ...]
    """In spoken order; times in seconds on the host's clock."""


@dataclass(frozen=True)
class MicStatus:
    """The microphone (or recogniser) stopped or came back."""

    listening: bool
    """True when listening works (again), False when it stopped."""
    message: str
    """One line saying what happened."""
    shown: str = ""
    """The same news with its reason in a device's own words, for a player who reads
    it: shown instead of ``message`` on the board view's host line, never said (as
    :attr:`Notice.shown`)."""


@dataclass(frozen=True)
class Stop:
    """End the session (Ctrl-C, the screen closed): save and leave."""

    reason: str = "interrupted"


@dataclass(frozen=True)
class KeysClosed:
    """The keyboard's input ended (a pipe ran out): only voice can play on."""


@dataclass(frozen=True)
class Notice:
    """A line from the wiring for the host to say (no speech output, saving failed)."""

    text: str
    later: bool = False
    """Advice that can wait: said when the turn in progress ends, not over the
    describer (while the host speaks the microphone is not judged)."""
    shown: str = ""
    """The same news with its reason in a device's own words, for a player who reads
    it: shown instead of ``text`` on the board view's host line, never said."""


@dataclass(frozen=True)
class Suspending:
    """The process is about to stop (Ctrl-Z, or SIGTSTP from elsewhere) while the host
    runs on a thread of its own (the board view): pause and save, then set ``done``."""

    t: float
    """Seconds on the host's clock when the stop was asked for."""
    done: threading.Event = field(default_factory=threading.Event, compare=False)
    """Set once the turn is paused and saved: the process may stop."""


@dataclass(frozen=True)
class Continued:
    """The process was continued after :class:`Suspending` (``fg``)."""

    t: float


HostInput = KeyPress | Heard | MicStatus | Notice | Stop | KeysClosed | Suspending | Continued
"""Anything the host's loop takes."""


class InputQueue:
    """The one queue merging keys, voice and microphone news (thread-safe)."""

    def __init__(self) -> None:
        # SimpleQueue: its put is reentrant, so a signal handler (the board view's
        # SIGTSTP) may put while the thread it interrupted was itself putting a key
        self._queue: queue.SimpleQueue[HostInput] = queue.SimpleQueue()

    def put(self, item: HostInput) -> None:
        """Add an input (from any thread, and from a signal handler)."""
        self._queue.put(item)

    def take_notices(self) -> list[Notice]:
        """Take the :class:`Notice` items waiting in the queue, leaving everything
        else in its order (news from the set-up, said before the game opens)."""
        taken: list[HostInput] = []
        while True:
            try:
                taken.append(self._queue.get_nowait())
            except queue.Empty:
                break
        notices = []
        for item in taken:
            if isinstance(item, Notice):
                notices.append(item)
            else:
                self._queue.put(item)
        return notices

    def get(self, timeout: float) -> HostInput | None:
        """The next input, or None after ``timeout`` seconds without one."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None
