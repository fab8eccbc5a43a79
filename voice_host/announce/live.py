"""The live announcer: a queue of texts served by one thread that renders and plays them.

The thread records on the host's clock exactly when sound starts and ends
(:class:`~voice_host.announce.timeline.SpeechTimeline`), so the host can keep
the microphone gated while it speaks.  The interval is closed in a ``finally``:
whatever fails, the gate opens again.
"""

from __future__ import annotations

import re
import threading
import time
from collections import deque
from collections.abc import Callable

from voice_host.announce.player import Player
from voice_host.announce.printed import printed_line
from voice_host.announce.protocol import (
    DEFAULT_OPTIONS,
    AnnounceOptions,
    Notify,
    TimedAnnouncer,
)
from voice_host.announce.render import Renderer, without_closing_pause
from voice_host.announce.sounds import Sound, render_sound
from voice_host.announce.timeline import SpeechTimeline

#: Seconds ``close`` waits for the speaking thread to finish.
CLOSE_WAIT = 5.0


class Pyttsx3Announcer(TimedAnnouncer):
    """Speaks through a renderer (pyttsx3) and a player (sounddevice), one text at a time.

    When rendering or playing fails, that text is printed instead, the reason is said once
    ("Speech output failed: ...; announcements are printed until it works again"), and the
    next text tries the voice again (a device plugged back in is used again).
    ``timeline`` is one to record on instead of a new one (a voice taking over from a
    :class:`~voice_host.announce.returning.ReturningAnnouncer`).  ``notify``, when given,
    is told the failure as plain words to say (:func:`failure_said`) and that line to
    print, instead of ``printer``.
    """

    def __init__(
        self,
        renderer: Renderer,
        player: Player,
        options: AnnounceOptions = DEFAULT_OPTIONS,
        *,
        clock: Callable[[], float] = time.monotonic,
        printer: Callable[[str], None] = print,
        owns_renderer: bool = False,
        timeline: SpeechTimeline | None = None,
        notify: Notify | None = None,
    ) -> None:
        super().__init__(clock, options.tail, printer, timeline)
        self.options = options
        """The options it was opened with."""
        self._renderer = renderer
        self._player = player
        self._printer = printer
        self._owns_renderer = owns_renderer
        self._notify = notify
        self._cond = threading.Condition()
        self._queue: deque[str | Sound] = deque()
        self._current: threading.Event | None = None
        self._closed = False
        self._failing = False
        # When (time.monotonic) the pause after the last text played runs out: the
        # pause the engine closed it with, kept only before another text.
        self._pause_until = 0.0
        self._thread = threading.Thread(
            target=self._serve, name=f"voice-host-say-{options.label}", daemon=True
        )
        self._thread.start()

    @property
    def audible(self) -> bool:
        """True while the voice works; False after a failure until a text plays again."""
        return not self._failing

    def say(self, text: str, *, interrupt: bool = False) -> None:
        """See :meth:`Announcer.say`.  After :meth:`close` the text is printed instead."""
        if not text.strip():
            return
        with self._cond:
            if self._closed:
                self._print(text)
                return
            if interrupt:
                self._cancel_locked()
            self._queue.append(text)
            self._cond.notify_all()

    def sound(self, cue: Sound) -> None:
        """See :meth:`Announcer.sound`: played after what is queued.  After :meth:`close`,
        or when it fails, its words are printed."""
        with self._cond:
            if self._closed:
                self._print(cue.words)
                return
            self._queue.append(cue)
            self._cond.notify_all()

    def stop(self) -> None:
        """See :meth:`Announcer.stop`."""
        with self._cond:
            self._cancel_locked()
            self._cond.notify_all()

    def _cancel_locked(self) -> None:
        self._queue.clear()
        if self._current is not None:
            self._current.set()

    def drain(self, timeout: float | None = None) -> bool:
        """See :meth:`Announcer.drain`."""
        with self._cond:
            return self._cond.wait_for(
                lambda: not self._queue and self._current is None, timeout=timeout
            )

    def close(self) -> None:
        """See :meth:`Announcer.close`."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cancel_locked()
            self._cond.notify_all()
        self._thread.join(timeout=CLOSE_WAIT)
        self._player.close()
        if self._owns_renderer:
            self._renderer.close()
        # Should the thread be stuck in a device, the gate must still open.
        self.timeline.end(completed=False)

    # -- the speaking thread ----------------------------------------------------------------

    def _serve(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: bool(self._queue) or self._closed)
                if self._closed:
                    return
                item = self._queue.popleft()
                cancel = threading.Event()
                self._current = cancel
            try:
                self._speak(item, cancel)
            finally:
                with self._cond:
                    self._current = None
                    self._cond.notify_all()

    def _speak(self, item: str | Sound, cancel: threading.Event) -> None:
        """Play a text, or a chime (on the timeline with its label; printed as its words)."""
        label, words = (item.label, item.words) if isinstance(item, Sound) else (item, item)
        completed = False
        try:
            if isinstance(item, Sound):
                audio, pause = render_sound(item, volume=self.options.volume), 0.0
            else:
                rendered = self._renderer.render(item, self.options.settings)
                audio, pause = without_closing_pause(rendered)
            # The texts of one moment ("Time! Red got four right." "Red moves 4...")
            # keep the pause between them; after the last, the microphone opens at once.
            cancel.wait(max(0.0, self._pause_until - time.monotonic()))
            if cancel.is_set():
                return
            completed = self._player.play(
                audio, on_start=lambda: self.timeline.begin(label), cancel=cancel
            )
            self._pause_until = time.monotonic() + (pause if completed else 0.0)
            self._failing = False
        except Exception as exc:  # EngineError, DeviceError, or a bug: never lose the text
            self._failed(words, exc)
        finally:
            self.timeline.end(completed=completed)

    def _failed(self, text: str, exc: Exception) -> None:
        if not self._failing:
            self._failing = True
            why = str(exc) or type(exc).__name__
            if self.options.private and _names(why, text):
                # the notice is said on the loudspeaker: a reason quoting the card
                # ("failed to render 'Object: Telescope'") would tell the table
                why = "the card could not be said"
            printed = failure_notice(self.options, why)
            if self._notify is None:
                self._printer(printed)
            else:
                self._notify(failure_said(self.options), printed)
        self._print(text)

    def _print(self, text: str) -> None:
        if text.strip() and not self.options.private:
            self._printer(printed_line(self.options, text))


def _names(why: str, text: str) -> bool:
    """Whether ``why`` holds a word of ``text`` (a private card's, case aside)."""
    words = {w for w in re.findall(r"[^\W_]+", text.casefold()) if len(w) > 1}
    return bool(words & set(re.findall(r"[^\W_]+", why.casefold())))


def failure_notice(options: AnnounceOptions, why: str) -> str:
    """The one line said when a working voice fails mid-game."""
    if options.private:
        return f"Private card audio failed: {why}; press K to see the card"
    return f"Speech output failed: {why}; announcements are printed until it works again"


def failure_said(options: AnnounceOptions) -> str:
    """The news of :func:`failure_notice` in plain words, to be said aloud (the device's
    reason is printed, not said: the failure comes in the middle of a turn)."""
    if options.private:
        return "Card audio stopped; press K to see the card."
    return "Speech output stopped; announcements are printed until it works again."
