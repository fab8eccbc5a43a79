"""The fallback: announcements printed as lines when nothing can speak."""

from __future__ import annotations

import time
from collections.abc import Callable

from voice_host.announce.protocol import DEFAULT_OPTIONS, AnnounceOptions, TimedAnnouncer
from voice_host.announce.sounds import Sound


def printed_line(options: AnnounceOptions, text: str) -> str:
    """How an announcement looks in print: ``Host: Red team, your turn.`` (a screen reader
    reads the speaker's name as a word, where it read ``[host]`` as brackets)."""
    return f"{options.label.capitalize()}: {text}"


def is_printed_line(line: str, options: AnnounceOptions = DEFAULT_OPTIONS) -> bool:
    """Whether ``line`` is an announcement printed by :func:`printed_line` for ``options``."""
    return line.startswith(printed_line(options, ""))


class PrintedAnnouncer(TimedAnnouncer):
    """Prints each text instead of speaking it; never gates the microphone.

    A private announcer (the card voice) prints nothing: the room could read it.
    """

    def __init__(
        self,
        options: AnnounceOptions = DEFAULT_OPTIONS,
        *,
        printer: Callable[[str], None] = print,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(clock, options.tail, printer)
        self.options = options
        """The options it was opened with."""
        self._printer = printer

    @property
    def audible(self) -> bool:
        """Never: texts are printed."""
        return False

    def say(self, text: str, *, interrupt: bool = False) -> None:
        """Print ``text`` (unless private); ``interrupt`` has nothing to cut."""
        if text.strip() and not self.options.private:
            self._printer(printed_line(self.options, text))

    def sound(self, cue: Sound) -> None:
        """Nothing can sound: its words are said as a text is (printed, or by a screen
        reader)."""
        self.say(cue.words)

    def stop(self) -> None:
        """Nothing plays, so nothing to stop."""

    def drain(self, timeout: float | None = None) -> bool:
        """Printing is immediate: always done."""
        return True

    def close(self) -> None:
        """Nothing to release."""
