"""What the table sees, as one frozen value: :class:`ScreenModel`.

The model is pure data (standard library plus the rules engine's enums): the
host builds one after every change (usually with
:func:`voice_host.screen.adapter.screen_model_from_game`) and hands it to a
screen, the full-screen :class:`~voice_host.screen.app.TableApp` or the
line-by-line :class:`~voice_host.screen.plain.PlainScreen`.  Both only draw it;
neither decides anything.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from voice_host.rules.board import Segment, SegmentKind
from voice_host.rules.state import Phase
from voice_host.rules.teams import possessive


@dataclass(frozen=True)
class TeamView:
    """One team as the screen shows it."""

    name: str
    """The team's name, as spoken."""
    colour: str
    """The piece colour as ``#rrggbb`` (light enough to read on black)."""
    position: int
    """The segment the piece stands on: 0 is START, the last segment is FINISH."""
    mark: str
    """One character drawn as the piece (the team's initial unless two teams share one), so
    that colour is never the only way to tell pieces apart."""


def countdown_seconds(seconds_left: float) -> int:
    """Seconds left rounded up, as a countdown shows them (0.2 s left is "1"): the
    screen and the host's spoken lines use this one rule, so what is heard is what
    is shown."""
    return max(0, math.ceil(seconds_left - 1e-9))


def seconds_words(seconds_left: float) -> str:
    """The seconds left as the countdown shows them, in words: "25 seconds", "1 second"."""
    n = countdown_seconds(seconds_left)
    return "1 second" if n == 1 else f"{n} seconds"


@dataclass(frozen=True)
class TimerView:
    """The turn timer, in seconds of game time (wall clock live, audio time in a replay)."""

    seconds_left: float
    """Seconds until the buzzer (never below 0)."""
    total: float
    """Seconds the turn lasts in all (30 by default)."""
    paused: bool = False
    """True while the timer is paused (accessibility: timing is never essential)."""

    @property
    def whole_seconds(self) -> int:
        """Seconds left rounded up, as a countdown shows them (0.2 s left is "1")."""
        return countdown_seconds(self.seconds_left)

    @property
    def fraction(self) -> float:
        """The part of the turn still to run, from 0.0 to 1.0."""
        if self.total <= 0:
            return 0.0
        return min(1.0, max(0.0, self.seconds_left / self.total))


@dataclass(frozen=True)
class ScreenModel:
    """Everything the table screen shows at one moment.

    ``teams`` and ``to_play`` follow the game's playing order.  Text fields are
    empty strings when there is nothing to show.
    """

    segments: tuple[Segment, ...]
    """The board, segment 0 (START) first, FINISH last."""
    teams: tuple[TeamView, ...]
    """Every team, in playing order."""
    to_play: int | None = None
    """Index into ``teams`` of the team whose turn or round it is; None before the game."""
    phase: Phase = Phase.TURN
    """What the game waits for."""
    describers: tuple[str, ...] = ()
    """The players describing now."""
    category: str | None = None
    """What is being described: a category, ``Control`` in CONTROL/FINISH rounds, or None."""
    turn_number: int = 0
    """Turns begun so far (a new number means a new turn)."""
    timer: TimerView | None = None
    """The turn timer, or None when no timer runs (between turns, SPIN, game over)."""
    card: str | None = None
    """The entry the describer must describe, or None when it is hidden from the table."""
    count: int = 0
    """Cards guessed correctly this turn."""
    passes_left: int = 0
    """PASSes still allowed this turn."""
    spin_result: str | None = None
    """The latest spinner result (``wide-green``, ``narrow-green``, ``red``, ``line``) or None."""
    spin_steps: int = 0
    """Segments a pending green result moves (while the team chooses), else 0."""
    pushable: tuple[str, ...] = ()
    """While the team chooses after a green spin: the teams it may push back (R19)."""
    winner: str | None = None
    """The winning team's name once the game is over."""
    heard: str = ""
    """The last words heard from the microphone."""
    judgement: str = ""
    """What the referee made of them ("counted as glacier", "foul: swimmer is a form of swim")."""
    judged: str = ""
    """The kind of that judgement (``guess``, ``foul``, ``near_miss``, ``command`` or
    ``nothing``), or "" when none is given."""
    announcement: str = ""
    """The last thing the host said aloud."""
    message: str = ""
    """A note for the table (microphone lost, saved, help)."""
    board_name: str = ""
    """The board's name."""

    @property
    def team(self) -> TeamView | None:
        """The team whose turn or round it is, or None."""
        if self.to_play is None or not 0 <= self.to_play < len(self.teams):
            return None
        return self.teams[self.to_play]


class Screen(Protocol):
    """Anything the host can show a model on (``TableApp``, ``PlainScreen``)."""

    def update_model(self, model: ScreenModel) -> None:
        """Show ``model``; safe to call from the host's thread."""


def segment_name(segment: Segment) -> str:
    """The segment in words for a reader: its category, or ``START``, ``SPIN``, ..."""
    return segment.category if segment.category is not None else segment.kind.value


def phase_title(model: ScreenModel) -> str:
    """A short headline for the phase: ``Red's turn``, ``CONTROL round: Red``, ..."""
    team = model.team
    name = team.name if team is not None else "?"
    if model.phase is Phase.GAME_OVER:
        return f"{model.winner or name} wins!"
    titles = {
        Phase.TURN: f"{possessive(name)} turn",
        Phase.SPIN: f"{name}: SPIN",
        Phase.SPIN_CHOICE: f"{name}: SPIN choice",
        Phase.CONTROL_ROUND: f"CONTROL round: {name}",
        Phase.FINISH_ROUND: f"FINISH round: {name}",
    }
    return titles[model.phase]


def spin_text(model: ScreenModel) -> str:
    """The spinner's result and what it allows, or an empty string outside SPIN phases."""
    if model.phase is Phase.SPIN_CHOICE and model.spin_steps:
        n = model.spin_steps
        spin = f"Spin {_spin_words(model.spin_result)}: forward {n}"
        if not model.pushable:
            return f"{spin}; no team can be pushed back from START"  # R19
        *most, last = model.pushable
        teams = f"{', '.join(most)} or {last}" if most else last
        return f"{spin}, or push {teams} back {n}"
    if model.phase is Phase.SPIN:
        if model.spin_result is None:
            return "Spin the spinner"
        return f"Spin {_spin_words(model.spin_result)}: spin again"
    return ""


def _spin_words(result: str | None) -> str:
    return (result or "").replace("-", " ")


def kind_symbol(kind: SegmentKind) -> str:
    """The symbol marking a special segment (empty for a category segment)."""
    return _SYMBOLS.get(kind, "")


_SYMBOLS = {
    SegmentKind.START: "»",
    SegmentKind.CONTROL: "◆",
    SegmentKind.SPIN: "↻",
    SegmentKind.FINISH: "★",
}
