"""The board as data (R24): the default layout and loading others."""

from __future__ import annotations

import itertools
import json

import pytest

from voice_host.deck.model import CATEGORIES as DECK_CATEGORIES
from voice_host.deck.model import CONTROL as DECK_CONTROL
from voice_host.rules import (
    CATEGORIES,
    CONTROL_ENTRY,
    BoardError,
    Segment,
    SegmentKind,
    default_board,
    load_board,
)


def test_R6_the_six_categories() -> None:
    assert CATEGORIES == ("Object", "Nature", "Random", "Person", "Action", "World")


def test_R24_categories_match_the_deck() -> None:
    assert CATEGORIES == DECK_CATEGORIES
    assert CONTROL_ENTRY == DECK_CONTROL


def test_R24_default_board_has_40_to_50_segments_from_START_to_FINISH() -> None:
    board = default_board()
    assert 40 <= len(board) <= 50
    assert board[0].kind is SegmentKind.START
    assert board[board.finish].kind is SegmentKind.FINISH
    kinds = [s.kind for s in board.segments]
    assert kinds.count(SegmentKind.START) == 1 and kinds.count(SegmentKind.FINISH) == 1


def test_R24_default_board_cycles_categories() -> None:
    cats = [s.category for s in default_board().segments if s.category is not None]
    assert cats[:6] == list(CATEGORIES)
    assert all(cats[i] == CATEGORIES[i % 6] for i in range(len(cats)))


def test_R24_default_board_spreads_SPIN_and_CONTROL_along_the_track() -> None:
    board = default_board()
    for kind in (SegmentKind.SPIN, SegmentKind.CONTROL):
        where = [i for i, s in enumerate(board.segments) if s.kind is kind]
        assert len(where) >= 3
        assert where[0] < board.finish / 3 and where[-1] > 2 * board.finish / 3
    specials = [
        i for i, s in enumerate(board.segments) if s.kind in (SegmentKind.SPIN, SegmentKind.CONTROL)
    ]
    assert all(b - a >= 3 for a, b in itertools.pairwise(specials))


def test_R24_a_layout_loads_from_text_and_round_trips() -> None:
    text = json.dumps({"name": "Tiny", "segments": ["start", "OBJECT", "spin", "World", "Finish"]})
    board = load_board(text)
    assert board.name == "Tiny"
    assert board.segments == (
        Segment(SegmentKind.START),
        Segment(SegmentKind.NORMAL, "Object"),
        Segment(SegmentKind.SPIN),
        Segment(SegmentKind.NORMAL, "World"),
        Segment(SegmentKind.FINISH),
    )
    assert load_board(json.dumps(board.to_data())) == board


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", r"not valid JSON: line 1 column 2"),  # broken JSON
        ("[" * 100_000 + "]" * 100_000, r"nested far too deeply"),  # no RecursionError traceback
        # past Python's 4,300-digit limit on reading a number: no ValueError traceback
        ('{"segments": ["START", "Object", "FINISH"], "x": ' + "9" * 5000 + "}", "far too long"),
        ('{"name": "x"}', r"no 'segments' list"),  # no segments
        ('{"segments": "START"}', r"must be a list"),  # segments not a list
        ('["START", "Objct", "FINISH"]', r"segment 1: unknown segment 'Objct'"),  # misspelt
        ('["START", 7, "FINISH"]', r"segment 1: expected a name"),  # not a string
        ('["START", null, "Object", "FINISH"]', r"segment 1: expected a name in quotes, got null$"),
        ('["Object", "START", "FINISH"]', r"exactly one START, as segment 0 \(found at 1\)"),
        ('["START", "Object", "START", "FINISH"]', r"exactly one START.*found at 0, 2"),
        ('["START", "Object", "World"]', r"exactly one FINISH.*there is none"),
        ('["START", "FINISH", "Object", "FINISH"]', r"exactly one FINISH.*found at 1, 3"),
        ('["START", "SPIN", "FINISH"]', r"no category segment"),  # nothing to describe
        ('["START", "FINISH"]', r"has 2 segments"),  # too short
        # far too long: the board view drew nothing for minutes
        (
            json.dumps(["START", *["Object"] * 1000, "FINISH"]),
            r"has 1,002 segments; at most 1,000$",
        ),
        ('{"name": 3, "segments": []}', r"'name' must be a string"),
    ],
)
def test_R24_malformed_layouts_are_named_clearly(text: str, message: str) -> None:
    with pytest.raises(BoardError, match=message):
        load_board(text)
