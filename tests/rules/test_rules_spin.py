"""SPIN (R18-R21).  On the short track SPIN is segment 3 and CONTROL segment 5."""

from __future__ import annotations

import pytest
from rules_helpers import THREE_TEAMS, make_game, play, turn

from voice_host.rules import Choose, IllegalInputError, Phase, Spin, SpinResult


@pytest.mark.parametrize(
    ("result", "forward_to"),
    [
        ("wide-green", 5),  # forward 2 from segment 3
        ("narrow-green", 6),  # forward 3 from segment 3
    ],
)
def test_R18_green_moves_own_piece_forward(result: str, forward_to: int) -> None:
    game = make_game()
    turn(game, 3)
    assert game.phase is Phase.SPIN
    play(game, f"spin {result}")
    assert game.phase is Phase.SPIN_CHOICE
    play(game, "choose forward")
    assert game.position("Red") == forward_to


@pytest.mark.parametrize(
    ("result", "pushed_to"),
    [
        ("wide-green", 4),  # back 2 from segment 6
        ("narrow-green", 3),  # back 3 from segment 6
    ],
)
def test_R18_green_pushes_the_chosen_opponent_back(result: str, pushed_to: int) -> None:
    game = make_game(THREE_TEAMS)
    turn(game, 3)  # Red on SPIN
    play(game, "spin red")  # no bonus; Red plays again
    turn(game, 0)
    turn(game, 6)  # Blue to 6
    turn(game, 0)  # Green
    turn(game, 0)  # Red stays on SPIN: no landing, no spin
    assert game.phase is Phase.TURN and game.to_play.name == "Blue"
    turn(game, 0)
    turn(game, 3)  # Green to SPIN
    play(game, f"spin {result}", "choose push BLUE")
    assert game.position("Blue") == pushed_to
    assert game.position("Red") == 3
    assert game.position("Green") == 3


def test_R18_red_gives_no_bonus_and_line_spins_again() -> None:
    game = make_game()
    turn(game, 3)
    play(game, "spin line")
    assert game.phase is Phase.SPIN
    assert game.state.last_spin is SpinResult.LINE
    play(game, "spin red")
    assert game.phase is Phase.TURN
    assert game.state.positions == (3, 0)


def test_R18_the_engine_spins_with_its_random_source() -> None:
    results = set()
    for seed in range(40):
        game = make_game(seed=seed)
        turn(game, 3)
        game.apply(Spin())
        assert game.state.last_spin is not None
        results.add(game.state.last_spin)
    assert results == set(SpinResult)


def test_R18_choices_offer_forward_and_each_opponent_off_START() -> None:
    game = make_game(THREE_TEAMS)
    turn(game, 3)
    play(game, "spin red")
    turn(game, 0)
    turn(game, 1)  # Blue to 1
    turn(game, 0)  # Green stays on START
    turn(game, 0)  # Red
    turn(game, 2)  # Blue to 3: SPIN
    play(game, "spin wide-green")
    assert game.legal_inputs() == [Choose.forward(), Choose.push("Red")]


def test_R19_an_opponent_stops_on_START() -> None:
    game = make_game()
    turn(game, 1)  # Red to 1
    turn(game, 3)  # Blue to SPIN
    play(game, "spin narrow-green", "choose push Red")
    assert game.position("Red") == 0


def test_R19_an_opponent_on_START_cannot_be_pushed() -> None:
    game = make_game()
    turn(game, 3)
    play(game, "spin wide-green")
    with pytest.raises(IllegalInputError, match="Blue is on START"):
        play(game, "choose push Blue")
    with pytest.raises(IllegalInputError, match="cannot push itself"):
        play(game, "choose push Red")


def test_R20_a_forward_bonus_onto_CONTROL_has_no_effect() -> None:
    game = make_game()
    turn(game, 3)
    play(game, "spin wide-green", "choose forward")  # 3 -> 5, CONTROL
    assert game.position("Red") == 5
    assert game.phase is Phase.TURN  # a normal turn, not a CONTROL round
    assert game.state.control_retry == (False, False)


def test_R20_a_push_back_onto_SPIN_has_no_effect() -> None:
    game = make_game()
    turn(game, 5)  # Red on CONTROL
    play(game, "control-won Red")
    turn(game, 0)  # Red's bonus turn, nothing guessed
    turn(game, 3)  # Blue to SPIN
    play(game, "spin wide-green", "choose push Red")  # Red 5 -> 3, SPIN
    assert game.position("Red") == 3
    turn(game, 0)  # Blue again (R21)
    assert game.phase is Phase.TURN and game.to_play.name == "Red"


def test_R20_a_forward_bonus_onto_another_SPIN_has_no_effect() -> None:
    game = make_game(board="START Object Nature SPIN Random SPIN Person Action World FINISH")
    turn(game, 3)
    play(game, "spin wide-green", "choose forward")  # 3 -> 5, SPIN
    assert game.position("Red") == 5
    assert game.phase is Phase.TURN  # no second spin
    assert game.to_play.name == "Red"  # R21: Red plays another turn, from segment 5
    assert game.category == "Person"


def test_R20_a_push_back_onto_CONTROL_has_no_effect() -> None:
    game = make_game()
    turn(game, 1)  # Red to 1
    turn(game, 7)  # Blue to 7
    turn(game, 2)  # Red to 3, SPIN
    play(game, "spin wide-green", "choose push Blue")  # Blue 7 -> 5, CONTROL
    assert game.position("Blue") == 5
    assert game.phase is Phase.TURN and game.to_play.name == "Red"  # no CONTROL round now
    assert game.state.control_retry == (False, False)  # nor owed
    turn(game, 0)
    assert game.to_play.name == "Blue"
    assert game.phase is Phase.TURN  # Blue plays a normal turn from CONTROL
    assert game.category == "Person"


@pytest.mark.parametrize(
    ("lines", "segment", "category"),
    [
        (["spin narrow-green", "choose forward"], 6, "Person"),  # from where the bonus put it
        (["spin wide-green", "choose push Blue"], 3, "Random"),  # from SPIN (R6: next ahead)
        (["spin red"], 3, "Random"),  # no bonus: from SPIN
        (["spin line", "spin red"], 3, "Random"),
    ],
)
def test_R21_the_same_team_plays_another_turn_from_where_it_stands(
    lines: list[str], segment: int, category: str
) -> None:
    game = make_game()
    turn(game, 0)  # Red stays on START
    turn(game, 2)  # Blue to 2
    turn(game, 3)  # Red to 3, SPIN
    describers = game.state.describers
    play(game, *lines)
    assert game.phase is Phase.TURN and game.to_play.name == "Red"
    assert game.position("Red") == segment and game.category == category
    assert (game.state.correct, game.state.passes_left) == (0, 1)  # a new turn
    assert game.state.describers != describers  # R4: a new turn rotates the describers


@pytest.mark.parametrize(
    ("same_team", "next_team"),
    [
        (True, "Red"),  # default: the spinning team plays another turn
        (False, "Blue"),  # house rule: play passes after the spin
    ],
)
def test_R21_after_a_spin(same_team: bool, next_team: str) -> None:
    game = make_game(spin_then_same_team=same_team)
    turn(game, 3)
    play(game, "spin narrow-green", "choose forward")
    assert game.phase is Phase.TURN
    assert game.to_play.name == next_team
