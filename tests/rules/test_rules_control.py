"""CONTROL rounds (R13-R17).  On the short track CONTROL is segment 5."""

from __future__ import annotations

import pytest
from rules_helpers import THREE_TEAMS, make_game, play, turn

from voice_host.rules import CONTROL_ENTRY, ControlWon, Foul, IllegalInputError, Phase


def test_R13_landing_on_CONTROL_by_guessing_starts_a_round_for_all() -> None:
    game = make_game()
    describers = game.state.describers
    turn(game, 5)
    assert game.position("Red") == 5
    assert game.phase is Phase.CONTROL_ROUND
    assert game.to_play.name == "Red"  # play does not pass
    assert game.state.describers == describers  # the same describers describe it
    assert game.category == CONTROL_ENTRY
    assert game.current_card is not None
    assert ControlWon("Blue") in game.legal_inputs()  # every team may answer


@pytest.mark.parametrize("line", ["time-up", "correct", "pass"])
def test_R13_a_CONTROL_round_has_no_time_limit(line: str) -> None:
    # No timer, so no time-up; no count, so no correct; PASS is a turn's (R10).
    game = make_game()
    turn(game, 5)
    with pytest.raises(IllegalInputError, match="phase control-round"):
        play(game, line)


@pytest.mark.parametrize(
    ("lines", "segment"),
    [
        (["control-won Red"], 5),  # Red's bonus turn starts on CONTROL
        (["control-won Red", *["correct"] * 3, "time-up", "spin red"], 8),  # ... or SPIN
    ],
)
def test_R13_R18_a_turn_with_no_correct_guess_triggers_nothing_where_it_stands(
    lines: list[str], segment: int
) -> None:
    # README ruling: only a landing by correct guesses starts a CONTROL round or a spin;
    # a turn that guesses nothing lands nowhere new, and play passes (R9).
    game = make_game(board="START Object Nature SPIN Random CONTROL Person Action SPIN FINISH")
    turn(game, 5)
    play(game, *lines)
    assert game.to_play.name == "Red" and game.position("Red") == segment
    turn(game, 0)
    assert game.phase is Phase.TURN and game.to_play.name == "Blue"


def test_R14_first_team_to_shout_wins_and_takes_the_next_turn() -> None:
    game = make_game(THREE_TEAMS)
    turn(game, 5)  # Red on CONTROL
    play(game, "control-won Green")
    assert game.phase is Phase.TURN
    assert game.to_play.name == "Green"


@pytest.mark.parametrize(
    ("order", "after_winner"),
    [
        ("from-winner", "Red"),  # default: play goes on after the winner (Green -> Red)
        ("from-lander", "Blue"),  # house rule: play goes on after the lander (Red -> Blue)
    ],
)
def test_R14_order_after_a_stolen_turn(order: str, after_winner: str) -> None:
    game = make_game(THREE_TEAMS, order_after_control=order)
    turn(game, 5)  # Red on CONTROL
    play(game, "control-won green")
    turn(game, 1)  # Green's stolen turn
    assert game.to_play.name == after_winner


@pytest.mark.parametrize("rotate", [True, False])
def test_R15_landing_team_wins_and_its_describers_change(rotate: bool) -> None:
    game = make_game("Red:Ann,Bob,Cy,Dee;Blue:Eve,Fay", rotate_describers=rotate)
    assert game.state.describers == ("Ann", "Bob")
    turn(game, 5)
    play(game, "control-won Red")
    assert game.phase is Phase.TURN
    assert game.to_play.name == "Red"  # the bonus turn
    assert game.state.describers == ("Cy", "Dee")


@pytest.mark.parametrize("rotate", [True, False])
@pytest.mark.parametrize("advanced", [False, True])
@pytest.mark.parametrize("size", [2, 3, 4, 5])
@pytest.mark.parametrize("retry", [False, True])  # the round on landing, or an R16 retry
def test_R15_the_bonus_turn_never_has_the_describers_of_the_round(
    size: int, advanced: bool, rotate: bool, retry: bool
) -> None:
    players = ",".join(f"P{i}" for i in range(size))
    game = make_game(f"Red:{players};Blue:Eve,Fay", advanced=advanced, rotate_describers=rotate)
    turn(game, 5)
    if retry:
        play(game, "control-won Blue")
        turn(game, 0)  # Blue's turn; Red's CONTROL round again
        assert game.phase is Phase.CONTROL_ROUND and game.to_play.name == "Red"
    in_round = set(game.state.describers)
    play(game, "control-won Red")
    bonus = set(game.state.describers)
    assert game.phase is Phase.TURN and game.to_play.name == "Red"
    assert len(bonus) == len(in_round)  # R4's count still holds
    # Every describer changes when the team has players enough; with 3 players and
    # 2 describers only one can (the one guesser), and does.
    assert len(bonus & in_round) == max(0, 2 * len(in_round) - size)


@pytest.mark.parametrize("rotate", [True, False])
@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_R15_a_second_CONTROL_round_won_in_a_row_changes_the_describers_again(
    size: int, rotate: bool
) -> None:
    # The bonus turn lands on CONTROL again and its describers win that round too:
    # the next bonus turn may not keep them (with describers that do not rotate, it
    # once had the first bonus turn's describers again).
    players = ",".join(f"P{i}" for i in range(size))
    game = make_game(
        f"Red:{players};Blue:Eve,Fay",
        "START Object CONTROL Nature CONTROL FINISH",
        rotate_describers=rotate,
    )
    turn(game, 2)
    play(game, "control-won Red")
    first_bonus = set(game.state.describers)
    turn(game, 2)
    assert game.phase is Phase.CONTROL_ROUND and game.position("Red") == 4
    assert set(game.state.describers) == first_bonus  # the bonus turn's describers describe it
    play(game, "control-won Red")
    second_bonus = set(game.state.describers)
    assert game.phase is Phase.TURN and game.to_play.name == "Red"
    assert len(second_bonus) == len(first_bonus)
    assert len(second_bonus & first_bonus) == max(0, 2 * len(first_bonus) - size)


def test_R16_landing_team_fails_stays_and_plays_CONTROL_again_next_turn() -> None:
    game = make_game()
    turn(game, 5)
    play(game, "control-won Blue")
    assert game.position("Red") == 5
    assert game.state.control_retry == (True, False)
    turn(game, 1)  # Blue's turn
    assert game.to_play.name == "Red"
    assert game.phase is Phase.CONTROL_ROUND  # no normal turn: CONTROL again
    play(game, "control-won Red")
    assert game.phase is Phase.TURN and game.to_play.name == "Red"
    assert game.state.control_retry == (False, False)


def test_R16_winning_a_round_settles_the_winner_own_retry() -> None:
    game = make_game()
    turn(game, 5)
    play(game, "control-won Blue")  # Red owes a retry
    turn(game, 5)  # Blue lands on CONTROL too
    play(game, "control-won Red")  # Red wins Blue's round
    assert game.state.control_retry == (False, True)
    assert game.phase is Phase.TURN and game.to_play.name == "Red"


def test_R16_a_team_owing_a_CONTROL_round_pushed_off_CONTROL_plays_a_normal_turn() -> None:
    # README ruling: the retry belongs to the CONTROL segment; a push takes it away.
    game = make_game()
    turn(game, 5)  # Red on CONTROL
    play(game, "control-won Blue")  # Red owes a CONTROL round
    turn(game, 3)  # Blue to SPIN
    play(game, "spin wide-green", "choose push Red")  # Red 5 -> 3 (a SPIN: no effect, R20)
    assert game.state.control_retry == (False, False)
    turn(game, 0)  # Blue again (R21)
    assert game.to_play.name == "Red"
    assert game.phase is Phase.TURN  # a normal turn, from segment 3
    assert game.category == "Random"


def test_R17_simultaneous_answers_draw_another_card() -> None:
    game = make_game()
    turn(game, 5)
    card = game.current_card
    play(game, "control-simultaneous")
    assert game.phase is Phase.CONTROL_ROUND
    assert game.current_card != card
    assert game.to_play.name == "Red"


@pytest.mark.parametrize("penalty", ["forfeit", "lose-one", "end-turn"])
@pytest.mark.parametrize("landing", [5, 9])  # CONTROL, FINISH
def test_R11_a_foul_in_a_control_or_finish_round_draws_another_card(
    penalty: str, landing: int
) -> None:
    # R11 holds in the rounds too: the card is forfeited and the next follows.  There
    # is no count to lose and no timer to stop, so every foul penalty does just that.
    game = make_game(foul_penalty=penalty)
    turn(game, landing)
    phase = game.phase
    assert phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND)
    assert Foul() in game.legal_inputs()
    card, positions = game.current_card, game.state.positions
    play(game, "foul")
    assert (game.phase, game.to_play.name, game.state.positions) == (phase, "Red", positions)
    assert game.current_card != card
    assert game.state.winner is None
    game.undo()
    assert game.current_card == card
