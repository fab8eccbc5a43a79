"""The board drawn as a track, the big digits and the panels' text (no textual)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from screen_helpers import base_model

from voice_host.rules import Phase, default_board
from voice_host.screen import TeamView, TimerView
from voice_host.screen.bigtext import HEIGHT, big_digits
from voice_host.screen.panels import card_panel_text, status_text, teams_text, timer_bar
from voice_host.screen.track import (
    CELL_ROWS,
    CELL_WIDTH,
    GAP,
    CellPlace,
    cells_per_row,
    render_legend,
    render_track,
    track_places,
)


def cell_text(lines: list[str], place: CellPlace, line: int) -> str:
    """The text of one row of one cell in a rendered track."""
    top = place.row * (CELL_ROWS + 1) + line
    left = place.column * (CELL_WIDTH + GAP)
    return lines[top][left : left + CELL_WIDTH] if top < len(lines) else ""


@pytest.mark.parametrize(
    ("width", "per_row"),
    [
        (80, 10),  # 10 cells of 7 plus 9 gaps is 79
        (79, 10),  # exactly fits
        (78, 9),  # one character short of ten
        (5, 2),  # never fewer than two a row
    ],
)
def test_cells_per_row(width: int, per_row: int) -> None:
    assert cells_per_row(width) == per_row


def test_the_track_winds_back_and_forth() -> None:
    places = track_places(7, 3)
    assert [(p.row, p.column) for p in places] == [
        (0, 0), (0, 1), (0, 2),  # left to right
        (1, 2), (1, 1), (1, 0),  # right to left
        (2, 0),
    ]  # fmt: skip


def test_every_segment_is_named_and_numbered_on_its_cell() -> None:
    model = replace(base_model(), segments=default_board().segments)
    width = 80
    lines = render_track(model, width).plain.split("\n")
    places = track_places(len(model.segments), cells_per_row(width))
    for index, segment in enumerate(model.segments):
        label = (segment.category or segment.kind.value).upper()
        assert cell_text(lines, places[index], 0).strip() == label
        assert str(index) in cell_text(lines, places[index], 1)


@pytest.mark.parametrize(
    ("kind_index", "symbol"),
    [
        (3, "↻"),  # SPIN
        (5, "◆"),  # CONTROL
        (0, "»"),  # START
        (9, "★"),  # FINISH
    ],
)
def test_special_segments_carry_a_symbol_not_only_a_colour(kind_index: int, symbol: str) -> None:
    lines = render_track(base_model(), 80).plain.split("\n")
    place = track_places(10, cells_per_row(80))[kind_index]
    assert cell_text(lines, place, 1).strip() == f"{symbol}{kind_index}{symbol}"


def test_pieces_stand_under_their_segments() -> None:
    model = base_model()
    teams = (
        replace(model.teams[0], position=4),
        replace(model.teams[1], position=4),
        TeamView("Green", "#5fff5f", 7, "G"),
    )
    model = replace(model, teams=teams)
    width = 30  # three cells a row: segment 4 is on the second row, 7 on the third
    lines = render_track(model, width).plain.split("\n")
    places = track_places(len(model.segments), cells_per_row(width))
    assert cell_text(lines, places[4], 2).strip() == "R B"
    assert cell_text(lines, places[7], 2).strip() == "G"
    assert cell_text(lines, places[0], 2).strip() == ""


def test_the_legend_names_every_category_and_special_segment() -> None:
    legend = render_legend(replace(base_model(), segments=default_board().segments)).plain
    for word in ("OBJECT", "NATURE", "RANDOM", "PERSON", "ACTION", "WORLD"):
        assert word in legend
    for word in ("◆ ", "CONTROL", "↻ ", "SPIN", "START", "FINISH"):
        assert word in legend


def test_big_digits_are_five_rows_of_blocks() -> None:
    rows = big_digits("10", stretch=1)
    assert len(rows) == HEIGHT
    assert rows == (" ██ ███", "  █ █ █", "  █ █ █", "  █ █ █", "  █ ███")


def test_big_digits_refuse_letters() -> None:
    with pytest.raises(ValueError, match="no big glyph"):
        big_digits("1a")


@pytest.mark.parametrize(
    ("left", "total", "bar"),
    [
        (30.0, 30.0, "██████████"),  # a full turn ahead
        (15.0, 30.0, "█████░░░░░"),  # half gone
        (0.0, 30.0, "░░░░░░░░░░"),  # time up
        (-2.0, 30.0, "░░░░░░░░░░"),  # overshoot is clamped
    ],
)
def test_timer_bar(left: float, total: float, bar: str) -> None:
    assert timer_bar(TimerView(left, total), 10) == bar


def test_the_status_line_says_whose_turn_describers_and_category() -> None:
    text = status_text(base_model()).plain
    assert text.startswith("RED'S TURN")
    assert "Describing: Ann" in text and "Category: OBJECT" in text


def test_the_status_line_names_the_winner() -> None:
    text = status_text(replace(base_model(), phase=Phase.GAME_OVER, winner="Blue")).plain
    assert text.startswith("BLUE WINS!")


def test_the_teams_panel_marks_whose_turn_it_is() -> None:
    lines = teams_text(base_model()).plain.split("\n")
    assert lines[0].startswith("▶  R  Red") and lines[1].startswith("   B  Blue")
    assert lines[0].endswith(" 0 START")


def test_the_card_is_upper_case_and_spaced() -> None:
    assert card_panel_text("Big Ben").plain == "B I G   B E N"
