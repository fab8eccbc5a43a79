"""The text of each panel of the table screen, as rich ``Text`` built from a model.

Pure functions (rich only, no textual): the app's widgets call them with the
width they have, and tests read them directly.
"""

from __future__ import annotations

from rich.text import Text

from voice_host.rules.state import Phase
from voice_host.screen.bigtext import big_digits
from voice_host.screen.colours import BACKGROUND, HIGHLIGHT, TEXT
from voice_host.screen.model import ScreenModel, TimerView, phase_title, segment_name, spin_text

#: Characters of the timer bar that are run (full) and still to run (light shade): the two
#: differ in shape, not only in colour.
BAR_LEFT = "█"
BAR_GONE = "░"
#: Seconds left from which the timer is drawn in the warning colour.
WARNING_SECONDS = 10
_WARNING = "#ff5f5f"
_BOLD = f"bold {TEXT}"
_YELLOW = f"bold {HIGHLIGHT}"


def status_text(model: ScreenModel) -> Text:
    """The headline: whose turn or round, describers, category, passes, spin."""
    out = Text(style=f"{TEXT} on {BACKGROUND}")
    team = model.team
    out.append(phase_title(model).upper(), style=_YELLOW)
    if team is not None:
        out.append(f"  [{team.mark}]", style=f"bold {team.colour}")
    if model.phase is not Phase.GAME_OVER:
        if model.describers:
            out.append("   Describing: ", style=_BOLD)
            out.append(", ".join(model.describers), style=_YELLOW)
        if model.category is not None:
            out.append("   Category: ", style=_BOLD)
            out.append(model.category.upper(), style=_YELLOW)
        if model.phase is Phase.TURN:
            passes = "pass" if model.passes_left == 1 else "passes"
            out.append(f"   {model.passes_left} {passes} left", style=_BOLD)
    spin = spin_text(model)
    if spin:
        out.append("\n")
        out.append(spin, style=_YELLOW)
    return out


def timer_bar(timer: TimerView, width: int) -> str:
    """The timer as a bar ``width`` characters long: full blocks for the time left."""
    width = max(1, width)
    left = round(timer.fraction * width)
    return BAR_LEFT * left + BAR_GONE * (width - left)


def timer_text(timer: TimerView | None, width: int, *, compact: bool = False) -> Text:
    """Big digits of the seconds left (``compact``: plain ones), the bar, and whether
    the timer runs or is paused."""
    out = Text(style=f"{TEXT} on {BACKGROUND}", no_wrap=True, overflow="crop")
    if timer is None:
        out.append("No timer running", style=_BOLD)
        return out
    left = timer.whole_seconds
    style = f"bold {_WARNING}" if left <= WARNING_SECONDS else _YELLOW
    bar_width = width
    if compact:  # the seconds in front of the bar, on its line
        seconds = f"{left:2d} "
        out.append(seconds, style=style)
        bar_width -= len(seconds)
    else:
        for row in big_digits(f"{left:2d}"):
            out.append(row.center(width).rstrip(), style=style)
            out.append("\n")
    out.append(timer_bar(timer, bar_width), style=style)
    out.append("\n")
    if timer.paused:
        out.append(" PAUSED ", style=f"bold #000000 on {HIGHLIGHT}")
        out.append(f"  {left} of {timer.total:g} s", style=_BOLD)
    else:
        out.append(f"{left} of {timer.total:g} seconds left", style=_BOLD)
    return out


def count_text(model: ScreenModel, width: int, *, compact: bool = False) -> Text:
    """Big digits of the cards guessed this turn (``compact``: plain ones), with a label."""
    out = Text(style=f"{TEXT} on {BACKGROUND}", no_wrap=True, overflow="crop")
    # outside a turn the count is the last turn's (a CONTROL round's cards are not counted)
    label = "correct this turn" if model.phase is Phase.TURN else "correct last turn"
    if compact:
        out.append(f"{model.count:2d} ", style=_YELLOW)
        out.append(label, style=_BOLD)
        return out
    for row in big_digits(str(model.count)):
        out.append(row.center(width).rstrip(), style=_YELLOW)
        out.append("\n")
    out.append(label, style=_BOLD)
    return out


def teams_text(model: ScreenModel) -> Text:
    """One line per team: turn arrow, piece mark, name, segment number and name."""
    out = Text(style=f"{TEXT} on {BACKGROUND}", no_wrap=True, overflow="ellipsis")
    for i, team in enumerate(model.teams):
        if i:
            out.append("\n")
        playing = i == model.to_play
        out.append("▶ " if playing else "  ", style=_YELLOW)
        out.append(f" {team.mark} ", style=f"bold #000000 on {team.colour}")
        out.append(f" {team.name:<8}", style=_YELLOW if playing else _BOLD)
        where = "?"
        if 0 <= team.position < len(model.segments):
            where = f"{team.position:>2} {segment_name(model.segments[team.position])}"
        out.append(f" {where}", style=_BOLD)
    return out


def card_panel_text(card: str) -> Text:
    """The describer's entry: upper case, bold yellow, letters spaced for reading at a distance."""
    out = Text(style=f"{TEXT} on {BACKGROUND}", justify="center")
    out.append(" ".join(card.upper()), style=_YELLOW)
    return out


#: On a short terminal, what was heard, its judgement and the host's last words are
#: cut to about this many lines each (the host says them all, and A repeats them), so
#: that a long clue or a status answer does not push the message line off the screen.
COMPACT_LINES = 2


def clipped(text: str, limit: int | None) -> str:
    """``text``, cut at a word to at most ``limit`` characters with "…" (None: whole)."""
    if limit is None or len(text) <= limit:
        return text
    head = text[: max(limit - 1, 1)]
    if text[len(head)] != " " and " " in head.strip():  # its last word was cut: drop it
        head = head.rstrip().rsplit(" ", 1)[0]
    return head.rstrip(" ,.;:") + "…"


def heard_text(model: ScreenModel, limit: int | None = None) -> Text:
    """The last words heard and the referee's judgement of them (``limit``: the
    characters the words may take, see :func:`clipped`; the judgement one line of them)."""
    out = Text(style=f"{TEXT} on {BACKGROUND}")
    out.append("Heard: ", style=_BOLD)
    out.append(f"“{clipped(model.heard, limit)}”" if model.heard else "—", style=_YELLOW)
    out.append("\n")
    out.append("Judged: ", style=_BOLD)
    # the judgement in one line: its words were heard above
    line = None if limit is None else limit // COMPACT_LINES
    out.append(clipped(model.judgement, line) or "—", style=_YELLOW)
    return out


def host_text(model: ScreenModel, limit: int | None = None) -> Text:
    """The host's last announcement (``limit``: as :func:`heard_text`) and the message line."""
    out = Text(style=f"{TEXT} on {BACKGROUND}")
    out.append("Host said: ", style=_BOLD)
    out.append(clipped(model.announcement, limit) or "—", style=_BOLD)
    if model.message:
        out.append("\n")
        out.append(" ! ", style=f"bold #000000 on {HIGHLIGHT}")
        out.append(f" {model.message}", style=_YELLOW)
    return out
