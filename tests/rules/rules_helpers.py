"""Small builders shared by the rules tests."""

from __future__ import annotations

import random
from typing import Any

from voice_host.rules import Board, Game, HouseRules, board_from_data, parse_teams

TWO_TEAMS = "Red:Ann,Bob;Blue:Cat,Dan"
THREE_TEAMS = "Red:Ann,Bob;Blue:Cat,Dan;Green:Eve,Fay"
#: A short track with every kind of segment:
#: 0 START, 1 Object, 2 Nature, 3 SPIN, 4 Random, 5 CONTROL, 6 Person, 7 Action, 8 World, 9 FINISH.
SHORT_TRACK = "START Object Nature SPIN Random CONTROL Person Action World FINISH"


def make_board(spec: str = SHORT_TRACK) -> Board:
    """A board from space-separated segment names."""
    return board_from_data(spec.split())


def make_game(
    teams: str = TWO_TEAMS,
    board: str = SHORT_TRACK,
    *,
    first: int | str = 0,
    deck_size: int = 50,
    seed: int = 1,
    **rules: Any,
) -> Game:
    """A game on a small board with a seeded random source and the given house rules."""
    return Game(
        parse_teams(teams),
        make_board(board),
        HouseRules(**rules),
        rng=random.Random(seed),
        deck_size=deck_size,
        first_team=first,
    )


def play(game: Game, *lines: str) -> None:
    """Apply inputs written in the simulate vocabulary."""
    for line in lines:
        game.apply_text(line)


def turn(game: Game, correct: int) -> None:
    """A whole timed turn: ``correct`` correct guesses, then time-up."""
    play(game, *["correct"] * correct, "time-up")
