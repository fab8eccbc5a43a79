"""A turn: timer start, categories, correct, time-up, PASS, fouls (R5-R12)."""

from __future__ import annotations

import pytest
from rules_helpers import THREE_TEAMS, make_game, play, turn

from voice_host.rules import Foul, IllegalInputError, Pass, Phase


def test_R5_a_turn_starts_fresh_with_a_card_out() -> None:
    game = make_game()
    play(game, "correct", "pass", "time-up")
    assert game.phase is Phase.TURN
    assert game.to_play.name == "Blue"
    assert game.state.turn == 2
    assert game.state.correct == 0
    assert game.state.passes_left == 1
    assert game.current_card is not None


def test_R6_category_is_that_of_the_team_segment() -> None:
    game = make_game()
    turn(game, 2)  # Red to segment 2, Nature
    assert game.category_for("Red") == "Nature"
    turn(game, 1)  # Blue to segment 1, Object
    assert game.category == "Nature"  # Red to play again


@pytest.mark.parametrize(
    ("start_category", "expected"),
    [
        (None, "Object"),  # default: the first segment's category
        ("World", "World"),  # house rule: a fixed category on START
    ],
)
def test_R6_category_on_START(start_category: str | None, expected: str) -> None:
    game = make_game(start_category=start_category)
    assert game.category == expected


@pytest.mark.parametrize(
    ("board", "expected"),
    [
        # The short track's first segment is Object, which is also the first category
        # of all: these boards tell "the first segment's category" from "Object".
        ("START Person Nature SPIN Random FINISH", "Person"),
        ("START SPIN World Nature FINISH", "World"),  # a SPIN first: the first category ahead
    ],
)
def test_R6_category_on_START_is_the_first_segment_of_the_board(board: str, expected: str) -> None:
    game = make_game(board=board)
    assert game.category == expected
    assert game.category_for("Blue") == expected


@pytest.mark.parametrize(
    ("special_category", "expected"),
    [
        ("next", "Random"),  # default: the category segment ahead of SPIN
        ("previous", "Nature"),  # house rule: the one behind it
    ],
)
def test_R6_category_on_a_SPIN_segment(special_category: str, expected: str) -> None:
    game = make_game(special_category=special_category)
    play(game, "correct", "correct", "correct", "time-up", "spin red")  # Red on SPIN, plays again
    assert game.phase is Phase.TURN and game.to_play.name == "Red"
    assert game.category == expected


@pytest.mark.parametrize(
    ("special_category", "expected"),
    [
        ("next", "Person"),  # default: the category segment ahead of CONTROL (5 -> 6)
        ("previous", "Random"),  # house rule: the one behind it (4)
    ],
)
def test_R6_R15_category_of_a_bonus_turn_on_a_CONTROL_segment(
    special_category: str, expected: str
) -> None:
    # rules.md decides the category on START only; a turn that starts on CONTROL (the
    # bonus turn after winning the round, R15) uses the same default as on SPIN.
    game = make_game(special_category=special_category)
    turn(game, 5)
    play(game, "control-won Red")
    assert game.phase is Phase.TURN and game.to_play.name == "Red"
    assert game.category == expected


def test_R7_correct_counts_and_draws_another_card_same_category() -> None:
    game = make_game()
    first = game.current_card
    play(game, "correct")
    assert game.state.correct == 1
    assert game.current_card != first
    assert game.category == "Object"


def test_R8_time_up_moves_the_piece_one_segment_per_correct_card() -> None:
    game = make_game()
    play(game, "correct", "correct", "time-up")
    assert game.position("Red") == 2
    # Guesses after the buzzer count for the next team, never for Red.
    play(game, "correct")
    assert game.position("Red") == 2
    assert game.to_play.name == "Blue" and game.state.correct == 1


def test_R8_nothing_guessed_means_no_move() -> None:
    game = make_game()
    turn(game, 0)
    assert game.position("Red") == 0


def test_R9_play_passes_to_the_next_team_in_order() -> None:
    game = make_game(THREE_TEAMS)
    order = []
    for _ in range(4):
        order.append(game.to_play.name)
        turn(game, 1)
    assert order == ["Red", "Blue", "Green", "Red"]


@pytest.mark.parametrize("passes", [1, 2])
def test_R10_passes_per_turn(passes: int) -> None:
    game = make_game(passes_per_turn=passes)
    for _ in range(passes):
        play(game, "pass")
    assert Pass() not in game.legal_inputs()
    with pytest.raises(IllegalInputError, match="no pass left"):
        play(game, "pass")
    play(game, "time-up")
    assert game.position("Red") == 0  # passed cards do not count


def test_R10_a_pass_skips_the_card() -> None:
    game = make_game()
    card = game.current_card
    play(game, "pass")
    assert game.current_card != card
    assert game.state.passes_left == 0


def test_R11_foul_forfeits_the_card_by_default() -> None:
    game = make_game()
    play(game, "correct")
    card = game.current_card
    play(game, "foul")
    assert game.current_card != card
    assert game.state.correct == 1  # the foul card does not count ...
    assert game.state.passes_left == 1  # ... and does not use up the PASS
    assert game.phase is Phase.TURN


@pytest.mark.parametrize(
    ("penalty", "position", "to_play"),
    [
        ("forfeit", 2, "Red"),  # default: card lost, turn goes on, both guesses count
        ("lose-one", 1, "Red"),  # house rule: one guess taken off
        ("end-turn", 2, "Blue"),  # house rule: the turn ends at once
    ],
)
def test_R11_foul_penalty_options(penalty: str, position: int, to_play: str) -> None:
    game = make_game(foul_penalty=penalty)
    play(game, "correct", "correct", "foul")
    if penalty != "end-turn":
        play(game, "time-up")
        assert game.to_play.name == "Blue"
    else:
        assert game.to_play.name == to_play
    assert game.position("Red") == position


def test_R11_lose_one_never_goes_below_zero() -> None:
    game = make_game(foul_penalty="lose-one")
    play(game, "foul", "foul", "time-up")
    assert game.position("Red") == 0


def test_R12_mouthing_is_called_as_a_foul_at_any_moment() -> None:
    game = make_game()
    assert Foul() in game.legal_inputs()  # even before any guess
    play(game, "foul", "correct", "foul")
    assert game.state.correct == 1
