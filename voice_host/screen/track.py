"""The board drawn as a winding track of cells, as rich ``Text``.

Each segment is a cell ``CELL_WIDTH`` characters wide and three rows high:
its name (``OBJECT``, ``CONTROL``, ...), its number with the special
segment's symbol, and the pieces standing on it.  Rows of cells run left to
right, then right to left (a serpentine, like the boxed board's track), with
arrows between cells and a down arrow where the track turns.  Names and
symbols say what a segment is; colour only repeats it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rich.text import Text

from voice_host.rules.board import Segment, SegmentKind
from voice_host.screen.colours import BACKGROUND, TEXT, category_colour
from voice_host.screen.model import ScreenModel, kind_symbol

#: Characters per cell.  Seven fits every name: ``CONTROL``, ``OBJECT``, ``FINISH``.
CELL_WIDTH = 7
#: Characters between cells (where the direction arrow goes).
GAP = 1
#: Text rows per row of cells (name, number, pieces), plus one row for the turn arrow.
CELL_ROWS = 3

_SPECIAL_STYLE = {
    SegmentKind.START: f"bold #000000 on {TEXT}",
    SegmentKind.FINISH: f"bold #000000 on {TEXT}",
    SegmentKind.CONTROL: "bold #ffff00 on #3a3a3a",
    SegmentKind.SPIN: "bold #ffff00 on #3a3a3a",
}


@dataclass(frozen=True)
class CellPlace:
    """Where one segment's cell is drawn."""

    row: int
    """Row of cells, from the top (0 holds START)."""
    column: int
    """Cell column from the left."""


def cells_per_row(width: int) -> int:
    """How many cells fit in ``width`` characters (at least 2)."""
    return max(2, (width + GAP) // (CELL_WIDTH + GAP))


def track_places(n_segments: int, per_row: int) -> tuple[CellPlace, ...]:
    """The cell of each segment: rows of ``per_row``, alternately left-to-right and back."""
    places = []
    for index in range(n_segments):
        row, offset = divmod(index, per_row)
        column = offset if row % 2 == 0 else per_row - 1 - offset
        places.append(CellPlace(row, column))
    return tuple(places)


def segment_label(segment: Segment) -> str:
    """The name written on a cell: the category or the kind, upper case."""
    return (segment.category or segment.kind.value).upper()


def segment_style(segment: Segment) -> str:
    """The rich style of a cell's name and number rows."""
    if segment.kind is SegmentKind.NORMAL:
        return f"bold #000000 on {category_colour(segment.category)}"
    return _SPECIAL_STYLE[segment.kind]


def pieces_on(model: ScreenModel, index: int) -> tuple[int, ...]:
    """Indices of the teams whose pieces stand on segment ``index``."""
    return tuple(i for i, team in enumerate(model.teams) if team.position == index)


def render_track(model: ScreenModel, width: int) -> Text:
    """The whole board as text ``width`` characters wide (or as narrow as two cells)."""
    per_row = cells_per_row(width)
    places = track_places(len(model.segments), per_row)
    n_rows = math.ceil(len(model.segments) / per_row) if model.segments else 0
    by_place = {(p.row, p.column): i for i, p in enumerate(places)}
    out = Text(style=f"{TEXT} on {BACKGROUND}", no_wrap=True, overflow="crop")
    for row in range(n_rows):
        for line in range(CELL_ROWS):
            for column in range(per_row):
                index = by_place.get((row, column))
                if column:
                    _gap(out, row, line, index, by_place.get((row, column - 1)))
                if index is None:
                    out.append(" " * CELL_WIDTH)
                else:
                    _cell_line(out, model, index, line)
            out.append("\n")
        if row < n_rows - 1:
            turn_column = per_row - 1 if row % 2 == 0 else 0
            arrow_at = turn_column * (CELL_WIDTH + GAP) + CELL_WIDTH // 2
            out.append(" " * arrow_at)
            out.append("↓", style=f"bold {TEXT}")
            out.append("\n")
    out.rstrip()
    return out


def _gap(out: Text, row: int, line: int, right: int | None, left: int | None) -> None:
    if line == 1 and right is not None and left is not None:
        out.append("→" if row % 2 == 0 else "←", style=f"bold {TEXT}")
    else:
        out.append(" " * GAP)


def _cell_line(out: Text, model: ScreenModel, index: int, line: int) -> None:
    segment = model.segments[index]
    if line == 0:
        out.append(segment_label(segment).center(CELL_WIDTH), style=segment_style(segment))
    elif line == 1:
        symbol = kind_symbol(segment.kind)
        number = f"{symbol}{index}{symbol}" if symbol else str(index)
        out.append(number.center(CELL_WIDTH), style=segment_style(segment))
    else:
        _pieces(out, model, index)


def _pieces(out: Text, model: ScreenModel, index: int) -> None:
    teams = pieces_on(model, index)
    spaced = len(teams) * 2 - 1 <= CELL_WIDTH
    shown = teams[:CELL_WIDTH]
    used = (len(shown) * 2 - 1) if spaced and shown else len(shown)
    left = (CELL_WIDTH - used) // 2
    out.append(" " * left)
    for n, team_index in enumerate(shown):
        if n and spaced:
            out.append(" ")
        team = model.teams[team_index]
        if team_index == model.to_play:
            # Whose turn it is: the piece is drawn reversed, a block, not just a letter.
            out.append(team.mark, style=f"bold #000000 on {team.colour}")
        else:
            out.append(team.mark, style=f"bold {team.colour} on {BACKGROUND}")
    out.append(" " * (CELL_WIDTH - left - used))


def render_legend(model: ScreenModel) -> Text:
    """A key to the track: each category's colour with its name, and the special segments."""
    out = Text(style=f"{TEXT} on {BACKGROUND}")
    categories = []
    for segment in model.segments:
        if segment.category is not None and segment.category not in categories:
            categories.append(segment.category)
    for category in categories:
        out.append(
            f" {category.upper()} ", style=segment_style(Segment(SegmentKind.NORMAL, category))
        )
        out.append(" ")
    out.append("\n")
    specials = (
        (SegmentKind.CONTROL, "CONTROL round"),
        (SegmentKind.SPIN, "SPIN"),
        (SegmentKind.START, "START"),
        (SegmentKind.FINISH, "FINISH"),
    )
    for kind, words in specials:
        out.append(f" {kind_symbol(kind)} ", style=_SPECIAL_STYLE[kind])
        out.append(f" {words}  ", style=f"bold {TEXT}")
    return out
