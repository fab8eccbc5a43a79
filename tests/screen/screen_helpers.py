"""Small builders shared by the screen tests."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from voice_host.rules import Board, Game, board_from_data, parse_teams
from voice_host.screen import ScreenModel, TimerView, screen_model_from_game

#: 0 START, 1 Object, 2 Nature, 3 SPIN, 4 Random, 5 CONTROL, 6 Person, 7 Action, 8 World,
#: 9 FINISH.
SHORT_TRACK = "START Object Nature SPIN Random CONTROL Person Action World FINISH"


def make_board(spec: str = SHORT_TRACK) -> Board:
    """A board from space-separated segment names."""
    return board_from_data(spec.split())


def make_game(teams: str = "Red:Ann,Bob;Blue:Cat,Dan", board: str = SHORT_TRACK) -> Game:
    """A seeded game on the short track."""
    return Game(parse_teams(teams), make_board(board), rng=random.Random(1), deck_size=20)


def base_model(**changes: Any) -> ScreenModel:
    """Red's first turn on the short track, 30 of 30 seconds left, with ``changes`` applied."""
    model = screen_model_from_game(make_game(), timer=TimerView(30.0, 30.0), card="Telescope")
    return replace(model, **changes)
