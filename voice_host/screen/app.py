"""``TableApp``: the full-screen table view (textual), driven by :class:`ScreenModel` values.

The app decides nothing.  The host calls :meth:`TableApp.update_model` from
any thread after each change, and receives every key press through the
``on_key`` callback it passed in (the host decides what keys mean).  Only
``ctrl+q`` is kept by the app, as an emergency quit, and ``ctrl+z``, which stops
the process as it does in any terminal program (``fg`` brings it back): the
``on_suspend`` callback runs first (the host pauses the turn and saves it), and
``on_continued`` once the process goes on; a SIGTSTP sent from elsewhere does
the same.

High contrast throughout: white and yellow bold text on black, big block
digits for the timer and the count, names and symbols on every segment so
colour is never the only carrier of meaning.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget

from voice_host.screen.model import ScreenModel
from voice_host.screen.panels import (
    COMPACT_LINES,
    card_panel_text,
    count_text,
    heard_text,
    host_text,
    status_text,
    teams_text,
    timer_text,
)
from voice_host.screen.track import render_legend, render_track

KeyCallback = Callable[[str], None]
"""Called with each key pressed (see :func:`key_name`)."""

JobCallback = Callable[[], None]
"""Called on the app's thread as the process stops (Ctrl-Z) or goes on (``fg``)."""


def key_name(event: events.Key) -> str:
    """The key as the host sees it: a printable character itself (``"?"``, ``"r"``, ``"1"``),
    anything else by textual's name (``"space"``, ``"enter"``, ``"escape"``, ``"ctrl+c"``,
    ``"f1"``, ``"up"``)."""
    if event.is_printable and event.character and event.character != " ":
        return event.character
    return event.key


class ModelPanel(Widget):
    """A panel that draws one part of the model; subclasses say how."""

    DEFAULT_CSS = "ModelPanel { height: auto; }"

    def __init__(self, model: ScreenModel, *, id: str) -> None:
        super().__init__(id=id)
        self.model = model
        """The model drawn now."""

    def show(self, model: ScreenModel) -> None:
        """Draw ``model`` from now on."""
        self.model = model
        self.refresh(layout=True)

    def render(self) -> Text:
        """The panel's text at its current width."""
        return self.text(max(1, self.content_size.width))

    def text(self, width: int) -> Text:
        """The panel's text for ``width`` characters; overridden by each panel."""
        raise NotImplementedError


class StatusPanel(ModelPanel):
    """Whose turn or round, describers, category."""

    def text(self, width: int) -> Text:
        """See :func:`~voice_host.screen.panels.status_text`."""
        return status_text(self.model)


class TrackPanel(ModelPanel):
    """The board as a track, with its legend."""

    def text(self, width: int) -> Text:
        """The track at this width, a blank line, and the legend."""
        out = render_track(self.model, width)
        out.append("\n\n")
        out.append_text(render_legend(self.model))
        return out


#: Below this many rows the timer and the count are drawn in one line each rather
#: than in big digits, and the right column's panels lose their bottom edge, so that on
#: a classic 80x24 terminal the status, the card, the timer, the count, the teams (six
#: of them), what was heard and the host's line all fit without scrolling.
COMPACT_BELOW_ROWS = 40


def _is_short(rows: int) -> bool:
    """Whether a terminal of ``rows`` rows gets the compact layout."""
    return rows < COMPACT_BELOW_ROWS


def _compact_limit(rows: int, width: int) -> int | None:
    """How many characters a long text may take in a panel ``width`` wide on a
    terminal of ``rows`` rows (:data:`~voice_host.screen.panels.COMPACT_LINES`), or
    None on a tall one."""
    return COMPACT_LINES * max(width - 8, 10) if _is_short(rows) else None


class TimerPanel(ModelPanel):
    """Big digits and a bar for the time left (one line on a short terminal)."""

    def text(self, width: int) -> Text:
        """See :func:`~voice_host.screen.panels.timer_text`."""
        return timer_text(self.model.timer, width, compact=_is_short(self.app.size.height))


class CountPanel(ModelPanel):
    """Big digits for the count this turn (one line on a short terminal)."""

    def text(self, width: int) -> Text:
        """See :func:`~voice_host.screen.panels.count_text`."""
        return count_text(self.model, width, compact=_is_short(self.app.size.height))


class TeamsPanel(ModelPanel):
    """Every team with its piece and segment."""

    def text(self, width: int) -> Text:
        """See :func:`~voice_host.screen.panels.teams_text`."""
        return teams_text(self.model)


class CardPanel(ModelPanel):
    """The describer's entry; not displayed at all while the model's card is None."""

    def show(self, model: ScreenModel) -> None:
        """Draw ``model``, hiding the panel when it has no card."""
        super().show(model)
        self.display = model.card is not None

    def text(self, width: int) -> Text:
        """See :func:`~voice_host.screen.panels.card_panel_text`."""
        return card_panel_text(self.model.card or "")


class HeardPanel(ModelPanel):
    """The last words heard and their judgement."""

    def text(self, width: int) -> Text:
        """See :func:`~voice_host.screen.panels.heard_text`."""
        return heard_text(self.model, _compact_limit(self.app.size.height, width))


class HostPanel(ModelPanel):
    """The host's last announcement and the message line."""

    def text(self, width: int) -> Text:
        """See :func:`~voice_host.screen.panels.host_text`."""
        return host_text(self.model, _compact_limit(self.app.size.height, width))


class _TableScreen(Screen[None], inherit_bindings=False):
    """The one screen, without textual's tab / ctrl+c bindings so those keys reach the host."""


class ModelChanged(Message):
    """Posted (thread-safely) when a new model waits to be drawn."""


class ExitRequested(Message):
    """Posted (thread-safely) when the host has finished and the app should close."""


class TableApp(App[None], inherit_bindings=False):
    """The table screen.  ``model`` is drawn first; ``on_key`` receives every key but ctrl+q."""

    TITLE = "voice-host"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        Binding("ctrl+z", "suspend_process", "Stop", show=False, priority=True),
    ]
    CSS = """
    Screen { background: #000000; color: #ffffff; }
    #status { border: heavy #ffffff; padding: 0 1; }
    #main { height: auto; }
    #left { width: 1fr; height: auto; }
    #right { width: 38; height: auto; }
    #track { padding: 1 1 0 1; }
    #timer, #count, #teams, #heard {
        border: heavy #ffffff; border-title-color: #ffff00; border-title-style: bold;
        padding: 0 1;
    }
    #card {
        border: double #ffff00; border-title-color: #ffff00; border-title-style: bold;
        padding: 1 2; text-align: center;
    }
    .-compact #card { padding: 0 2; }
    .-compact #timer, .-compact #count, .-compact #teams, .-compact #heard {
        border-bottom: none;
    }
    #host { padding: 0 1; }
    """

    def __init__(
        self,
        model: ScreenModel,
        on_key: KeyCallback | None = None,
        *,
        on_suspend: JobCallback | None = None,
        on_continued: JobCallback | None = None,
    ) -> None:
        super().__init__()
        self._model = model
        self._key_callback = on_key
        self._on_suspend = on_suspend
        self._on_continued = on_continued
        self._lock = threading.Lock()

    @property
    def model(self) -> ScreenModel:
        """The latest model given (drawn now, or about to be)."""
        with self._lock:
            return self._model

    def get_default_screen(self) -> Screen[None]:
        """The table screen (textual calls this once at start)."""
        return _TableScreen()

    def compose(self) -> ComposeResult:
        """The panels: status and the card on top (the describer must always see it),
        then the track on the left and timer, count, teams, heard and host on the
        right; whatever a short terminal cuts off is the bottom of the track."""
        model = self._model
        status = StatusPanel(model, id="status")
        yield status
        card = CardPanel(model, id="card")
        card.border_title = "CARD: DESCRIBER ONLY"
        card.display = model.card is not None
        yield card
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield TrackPanel(model, id="track")
            with Vertical(id="right"):
                timer = TimerPanel(model, id="timer")
                timer.border_title = "TIME"
                yield timer
                count = CountPanel(model, id="count")
                count.border_title = "COUNT"
                yield count
                teams = TeamsPanel(model, id="teams")
                teams.border_title = "TEAMS"
                yield teams
                heard = HeardPanel(model, id="heard")
                heard.border_title = "HEARD"
                yield heard
                yield HostPanel(model, id="host")

    def update_model(self, model: ScreenModel) -> None:
        """Draw ``model``.  Safe from any thread and never blocks: the newest model wins."""
        with self._lock:
            self._model = model
        # post_message is thread-safe and returns at once (no deadlock if the app is closing);
        # before the app runs the model is simply kept and drawn by compose().
        if self.is_running:
            self.post_message(ModelChanged())

    def request_exit(self) -> None:
        """Close the app soon.  Safe from any thread and never blocks; does nothing when
        the app is not running (it may have exited already)."""
        if self.is_running:
            self.post_message(ExitRequested())

    def on_exit_requested(self, message: ExitRequested) -> None:
        """Exit, from the app's own thread."""
        self.exit()

    def on_model_changed(self, message: ModelChanged) -> None:
        """Draw the newest model on every panel."""
        model = self.model
        for panel in self.query(ModelPanel):
            panel.show(model)

    def on_resize(self, event: events.Resize) -> None:
        """On a short terminal, the card's blank rows go too (see :data:`COMPACT_BELOW_ROWS`).

        Crossing that height redraws every panel at once: the timer and count are drawn
        for the terminal's height, and between turns or while paused no new model comes
        to redraw them (the right column keeps its width, so textual would not)."""
        short = _is_short(event.size.height)
        if short != self.screen.has_class("-compact"):
            self.screen.set_class(short, "-compact")
            for panel in self.query(ModelPanel):
                panel.refresh(layout=True)

    def on_mount(self) -> None:
        """The first size is known once mounted; and the terminal driver's SIGTSTP handler
        (which puts the terminal back and stops the process) is in place by now: the
        host's callbacks go around it."""
        self.screen.set_class(_is_short(self.size.height), "-compact")
        self._around_stops()

    def _around_stops(self) -> None:
        """Run ``on_suspend`` before the driver's SIGTSTP handler stops the process and
        ``on_continued`` once it goes on: Ctrl-Z (bound to textual's suspend action,
        which sends SIGTSTP) and a ``kill -TSTP`` alike.  Only where the driver took
        SIGTSTP (a real terminal, on the main thread); headless, nothing changes."""
        if self._on_suspend is None and self._on_continued is None:
            return
        if threading.current_thread() is not threading.main_thread():
            return
        driver_handler = signal.getsignal(signal.SIGTSTP)
        if not callable(driver_handler):
            return
        before, after = self._on_suspend, self._on_continued

        def stopping(signum: int, frame: FrameType | None) -> None:
            if before is not None:
                before()
            driver_handler(signum, frame)  # returns once the process is continued
            if after is not None:
                after()

        signal.signal(signal.SIGTSTP, stopping)

    def run(self, *args: Any, **kwargs: Any) -> None:
        """Run the app (see :meth:`App.run`), then put back the SIGTSTP and SIGCONT
        handlers it found: textual's terminal driver sets its own and leaves them, so a
        Ctrl-Z and ``fg`` after the view had gone (the host still saving and saying
        goodbye) started the full screen again on an app with no event loop, and raised
        from wherever the main thread was.  Only on the main thread (where a handler
        can be set)."""
        if threading.current_thread() is not threading.main_thread():
            super().run(*args, **kwargs)
            return
        found = {sig: signal.getsignal(sig) for sig in (signal.SIGTSTP, signal.SIGCONT)}
        try:
            super().run(*args, **kwargs)
        finally:
            for sig, handler in found.items():
                signal.signal(sig, signal.SIG_DFL if handler is None else handler)

    def on_key(self, event: events.Key) -> None:
        """Hand the key to the host's callback."""
        event.stop()
        event.prevent_default()
        if self._key_callback is not None:
            self._key_callback(key_name(event))
