"""The host's words said by the player's own screen reader (``--screen-reader``).

A player who plays with a screen reader hears every printed line in the
reader's voice.  If the host spoke as well, the two voices would talk over each
other, so in this mode the host's voice stays silent and each announcement is
printed as a bare line: no ``Host:`` label, since read aloud "host" is the wake
word ("Host: pass." would be a command).

The reader's voice still reaches the microphone.  So every line written to the
terminal (announcements and the line screen's own lines alike, through
:meth:`ScreenReaderAnnouncer.stream`) is planned on the announcer's timeline for
as long as a reader takes to say it at ``rate`` words a minute, one line after
another, and the microphone gate covers those plans as it covers the host's own
voice.  The plan is an estimate: a reader faster than ``rate`` leaves the
microphone shut a little longer than needed, a slower one lets its last words
through.  Screen readers stop reading at a key press, so a key cuts the plan
short (:meth:`ScreenReaderAnnouncer.silenced`); nothing else can silence the
reader, so ``stop()`` and ``interrupt`` leave the plan as it is.
"""

from __future__ import annotations

import io
import re
import threading
import time
from collections.abc import Callable
from typing import TextIO, cast

from voice_host.announce.printed import PrintedAnnouncer
from voice_host.announce.protocol import DEFAULT_OPTIONS, AnnounceOptions
from voice_host.announce.timeline import SpeechInterval

#: The words a reader says: a word with its apostrophes, or a number.
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*|\d+")
#: Where a reader pauses: the end of a sentence or clause.
_PAUSE = re.compile(r"[.!?;:,](?=\s|$)")
#: Seconds a reader pauses at each of those.
PAUSE_SECONDS = 0.15
#: Words a number counts as, at most ("47" is "forty seven"; "2026" four words).
NUMBER_WORDS = 4
#: Seconds before a key press at which the reader's plan ends: the timeline counts a
#: plan's last instant as speech, and the key's action must find the reader silent.
SILENCED_BEFORE_KEY = 0.001
#: The reading rate assumed when the options give none, words a minute.
DEFAULT_READER_RATE = 170


def reading_seconds(text: str, rate: int) -> float:
    """About how long a screen reader takes to say ``text`` at ``rate`` words a minute:
    its words (a number of n digits as n words, up to :data:`NUMBER_WORDS`) plus a
    short pause at each sentence or clause end.  0 for a line with no words."""
    if rate <= 0:
        raise ValueError(f"reading rate must be positive, not {rate}")
    words = sum(
        min(len(token), NUMBER_WORDS) if token.isdigit() else 1 for token in _WORD.findall(text)
    )
    if not words:
        return 0.0
    return words * 60.0 / rate + PAUSE_SECONDS * len(_PAUSE.findall(text))


class ScreenReaderAnnouncer(PrintedAnnouncer):
    """Prints each announcement for the player's screen reader, and plans the reading.

    ``say`` only prints (the text, without a label).  :meth:`read` plans one line's
    reading on the timeline; :meth:`stream` wraps the terminal so that every line
    written to it is planned.  A private announcer prints nothing.  Not
    :attr:`audible`: the host's voice is silent (the reader's is planned, not played).
    """

    def __init__(
        self,
        options: AnnounceOptions = DEFAULT_OPTIONS,
        *,
        printer: Callable[[str], None] = print,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(options, printer=printer, clock=clock)
        self.rate = options.rate or DEFAULT_READER_RATE
        """The screen reader's rate assumed, words a minute (``options.rate``)."""
        self._lock = threading.Lock()
        self._unread: set[str] = set()

    def say(self, text: str, *, interrupt: bool = False) -> None:
        """Print ``text`` as a bare line (unless private); ``interrupt`` cannot silence
        the reader, so it changes nothing."""
        if text.strip() and not self.options.private:
            self._printer(text)

    def read(self, line: str, at: float | None = None) -> SpeechInterval | None:
        """Plan the reader saying ``line`` from ``at`` (default now), or from the end of
        what it is still reading; the plan, or None for a line without words."""
        seconds = reading_seconds(line, self.rate)
        if seconds <= 0:
            return None
        now = self.timeline.clock() if at is None else at
        with self._lock:
            self._unread.discard(line.strip())  # printed again: read again
            last = self.timeline.last()
            start = now if last is None else max(now, last.end)
            interval = SpeechInterval(start, start + seconds, line.strip())
            self.timeline.add(interval)
        return interval

    def silenced(self, at: float | None = None) -> None:
        """A key was pressed at ``at`` (default now): screen readers stop reading then,
        so the plan ends just before it (the key's own action finds the reader quiet)
        and lines not yet begun are dropped."""
        when = (self.timeline.clock() if at is None else at) - SILENCED_BEFORE_KEY
        with self._lock:
            stopped = [i.text for i in self.timeline.speech_intervals() if i.end > when]
            self.timeline.cut(when)
            self._unread.update(stopped)

    def unread(self, line: str) -> bool:
        """Whether ``line`` was printed but a key stopped the reader before it ended
        (and it has not been printed again since): the player may not have heard it."""
        with self._lock:
            return line.strip() in self._unread

    def stream(self, out: TextIO) -> TextIO:
        """``out``, with every line written to it planned (:meth:`read`)."""
        return cast(TextIO, ReadAloudStream(out, self))

    def stop(self) -> None:
        """Nothing the host does silences the reader (a key does: :meth:`silenced`)."""


class ReadAloudStream(io.TextIOBase):
    """A text stream that writes to ``out`` and has ``reader`` plan each line written."""

    def __init__(self, out: TextIO, reader: ScreenReaderAnnouncer) -> None:
        super().__init__()
        self._out = out
        self._reader = reader
        self._partial = ""
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        """Write ``text`` to the terminal; plan each line it completes."""
        with self._lock:
            written = self._out.write(text)
            *lines, self._partial = (self._partial + text).split("\n")
        for line in lines:
            self._reader.read(line)
        return written

    def flush(self) -> None:
        """Flush the terminal; a line left without its end is planned now."""
        with self._lock:
            partial, self._partial = self._partial, ""
        if partial:
            self._reader.read(partial)
        self._out.flush()

    def writable(self) -> bool:
        """True."""
        return True

    def isatty(self) -> bool:
        """Whether the terminal is one."""
        return self._out.isatty()

    def fileno(self) -> int:
        """The terminal's file descriptor."""
        return self._out.fileno()
