"""A voice whose output could not be opened at start, printing until the output comes.

The engine rendered but no output device opened (the sound server not up yet after
login, a Bluetooth or USB speaker not connected yet): texts are printed, as by
:class:`~voice_host.announce.printed.PrintedAnnouncer`, and the host asks
:meth:`ReturningAnnouncer.recover` now and then, at moments when nothing is said.
That opens the output again on a thread of its own (PortAudio's list of devices is
made afresh first when no stream is open, as the microphone does), proves it by
playing a moment of silence, and once it plays swaps in a
:class:`~voice_host.announce.live.Pyttsx3Announcer`.

The real voice records on this announcer's own :class:`SpeechTimeline`: the
microphone gate (the listening thread) reads the one timeline before and after the
swap, so it never reads a voice that was replaced, and its listeners stay told.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sequence

from voice_host.announce.live import Pyttsx3Announcer
from voice_host.announce.player import Player
from voice_host.announce.printed import printed_line
from voice_host.announce.protocol import (
    DEFAULT_OPTIONS,
    AnnounceOptions,
    Notify,
    TimedAnnouncer,
)
from voice_host.announce.render import RenderedAudio, Renderer
from voice_host.announce.sounds import Sound

#: Seconds after the failure (then after each failed attempt) before the next attempt;
#: the last is repeated for the rest of the session.
RETRY_BACKOFF = (5.0, 10.0, 20.0, 30.0)
#: What an attempt plays to prove the output works: a tenth of a second of silence.
SILENCE = RenderedAudio(b"\x00\x00" * 2205, 22050)


def _thread(work: Callable[[], None]) -> None:
    threading.Thread(target=work, name="voice-host-speech-retry", daemon=True).start()


class ReturningAnnouncer(TimedAnnouncer):
    """Prints each text (nothing when private) until :meth:`recover` finds the output.

    ``renderer`` is the engine that rendered at start (closed with the announcer when
    ``owns_renderer``); ``open_player`` opens the output for ``options.device``, raising
    :class:`~voice_host.errors.DeviceError` while there is none.  ``start`` runs an
    attempt (default: on a daemon thread; tests run it at once).  ``notify`` is passed
    to the voice that takes over (see :class:`Pyttsx3Announcer`).  Thread-safe: the
    host's thread speaks and recovers, any thread may ask the gate.
    """

    def __init__(
        self,
        renderer: Renderer,
        open_player: Callable[[int | str | None], Player],
        options: AnnounceOptions = DEFAULT_OPTIONS,
        *,
        clock: Callable[[], float] = time.monotonic,
        printer: Callable[[str], None] = print,
        owns_renderer: bool = False,
        backoff: Sequence[float] = RETRY_BACKOFF,
        start: Callable[[Callable[[], None]], None] = _thread,
        notify: Notify | None = None,
    ) -> None:
        super().__init__(clock, options.tail, printer)
        if not backoff:
            raise ValueError("the retry backoff needs at least one delay")
        self.options = options
        """The options it was opened with."""
        self._renderer = renderer
        self._open_player = open_player
        self._clock = clock
        self._printer = printer
        self._owns_renderer = owns_renderer
        self._backoff = tuple(backoff)
        self._start = start
        self._notify = notify
        self._lock = threading.Lock()
        self._voice: Pyttsx3Announcer | None = None
        self._closed = False
        self._failures = 0  # attempts failed so far
        self._due = clock() + self._backoff[0]
        self._trying = False  # an attempt is under way
        self._found: Player | None = None  # an attempt's player, waiting for the swap
        self.attempts = 0
        """Attempts started so far (for tests and logs)."""

    @property
    def audible(self) -> bool:
        """False while printing; once the output is back, the real voice's."""
        voice = self._voice
        return voice is not None and voice.audible

    @property
    def recovered(self) -> bool:
        """Whether the real voice has taken over."""
        return self._voice is not None

    def say(self, text: str, *, interrupt: bool = False) -> None:
        """See :meth:`Announcer.say`: printed (unless private) until the output is back."""
        voice = self._voice
        if voice is not None:
            voice.say(text, interrupt=interrupt)
        elif text.strip() and not self.options.private:
            self._printer(printed_line(self.options, text))

    def sound(self, cue: Sound) -> None:
        """See :meth:`Announcer.sound`: its words printed until the output is back."""
        voice = self._voice
        if voice is not None:
            voice.sound(cue)
        else:
            self.say(cue.words)

    def stop(self) -> None:
        """See :meth:`Announcer.stop`."""
        voice = self._voice
        if voice is not None:
            voice.stop()

    def drain(self, timeout: float | None = None) -> bool:
        """See :meth:`Announcer.drain`."""
        voice = self._voice
        return True if voice is None else voice.drain(timeout)

    def recover(self, back: str = "", *, take: bool = True) -> bool:
        """Try the output again if an attempt is due; True once, when the real voice has
        just taken over (``back``, if given, is printed then: the host says it).

        Call it from the host's thread while nothing is said.  An attempt (silent: it
        plays silence and touches no timeline) is started only when due
        (:data:`RETRY_BACKOFF`); the output it found is taken at a call with ``take``
        (the host's: not while the describer talks), the same call or a later one."""
        with self._lock:
            if self._closed or self._voice is not None:
                return False
            if self._found is None:
                if self._trying or self._clock() < self._due:
                    return False
                self._trying = True
                self.attempts += 1
                attempt = True
            elif not take:
                return False
            else:
                player, self._found = self._found, None
                self._voice = Pyttsx3Announcer(
                    self._renderer,
                    player,
                    self.options,
                    clock=self._clock,
                    printer=self._printer,
                    owns_renderer=self._owns_renderer,
                    timeline=self.timeline,
                    notify=self._notify,
                )
                attempt = False
        if attempt:
            self._start(self._attempt)
            # an attempt that ended at once (tests) is taken now
            return take and self._found is not None and self.recover(back)
        if back and not self.options.private:
            self._printer(printed_line(self.options, back))
        return True

    def _attempt(self) -> None:
        """Open the output and play a moment of silence on it (an attempt's thread)."""
        player: Player | None = None
        try:
            player = self._open_player(self.options.device)
            player.play(SILENCE, on_start=lambda: None, cancel=threading.Event())
        except Exception:  # DeviceError (still no output), or a bug: try again later
            if player is not None:
                with contextlib.suppress(Exception):
                    player.close()
            player = None
        with self._lock:
            self._trying = False
            if player is not None and not self._closed:
                self._found = player
                return
            self._failures += 1
            step = min(self._failures, len(self._backoff) - 1)
            self._due = self._clock() + self._backoff[step]
        if player is not None:  # closed meanwhile
            with contextlib.suppress(Exception):
                player.close()

    def close(self) -> None:
        """See :meth:`Announcer.close`."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            voice, self._voice = self._voice, None
            found, self._found = self._found, None
        if found is not None:
            with contextlib.suppress(Exception):
                found.close()
        if voice is not None:
            voice.close()
        elif self._owns_renderer:
            self._renderer.close()
