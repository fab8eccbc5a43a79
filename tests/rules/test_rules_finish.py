"""FINISH rounds and the winner (R22, R23).  The short track's FINISH is segment 9."""

from __future__ import annotations

import pytest
from rules_helpers import THREE_TEAMS, make_game, play, turn

from voice_host.rules import CONTROL_ENTRY, ControlWon, IllegalInputError, Phase


def test_R22_passing_FINISH_stops_on_it_and_starts_the_FINISH_round() -> None:
    game = make_game()
    turn(game, 12)
    assert game.position("Red") == 9
    assert game.phase is Phase.FINISH_ROUND
    assert game.to_play.name == "Red"
    assert game.category == CONTROL_ENTRY


def test_R22_the_team_wins_only_by_guessing_first() -> None:
    game = make_game()
    turn(game, 9)
    play(game, "control-won Red")
    assert game.phase is Phase.GAME_OVER
    assert game.winner == "Red"
    assert game.outcome is not None and game.outcome.winner == "Red"
    assert game.legal_inputs() == []
    with pytest.raises(IllegalInputError, match="game is over, Red won"):
        play(game, "correct")


@pytest.mark.parametrize("line", ["time-up", "correct", "pass"])
def test_R22_a_FINISH_round_is_a_CONTROL_round_with_no_time_limit(line: str) -> None:
    game = make_game(THREE_TEAMS)
    describers = game.state.describers
    turn(game, 9)
    assert game.state.describers == describers  # the turn's describers describe it
    assert {t.name for t in game.teams} <= {
        i.team for i in game.legal_inputs() if isinstance(i, ControlWon)
    }  # to ALL players: any team may answer
    with pytest.raises(IllegalInputError, match="phase finish-round"):
        play(game, line)


def test_R23_a_failed_team_stays_on_FINISH_with_no_normal_turn() -> None:
    game = make_game()
    turn(game, 9)
    play(game, "control-won Blue")
    assert game.winner is None
    assert game.position("Red") == 9
    turn(game, 1)  # Blue
    assert game.to_play.name == "Red"
    assert game.phase is Phase.FINISH_ROUND
    play(game, "control-simultaneous", "control-won Red")  # R17 holds here too
    assert game.winner == "Red"


def test_R23_opponents_may_push_a_team_off_FINISH() -> None:
    game = make_game()
    turn(game, 9)
    play(game, "control-won Blue")  # Red fails, stays
    turn(game, 3)  # Blue to SPIN
    play(game, "spin narrow-green", "choose push Red")
    assert game.position("Red") == 6
    turn(game, 0)  # Blue again (R21)
    assert game.to_play.name == "Red" and game.phase is Phase.TURN


@pytest.mark.parametrize(
    ("after", "next_team"),
    [
        ("next-team", "Blue"),  # default: the next team in order, whoever won
        ("winner", "Green"),  # house rule: the round's winner plays next
    ],
)
def test_R23_after_a_failed_FINISH_round(after: str, next_team: str) -> None:
    game = make_game(THREE_TEAMS, after_failed_finish=after)
    turn(game, 9)
    play(game, "control-won Green")
    assert game.to_play.name == next_team
    assert game.phase is Phase.TURN


@pytest.mark.parametrize(
    ("when", "same_team", "phase", "to_play"),
    [
        ("next-turn", True, Phase.FINISH_ROUND, "Red"),  # default; R21 makes it at once
        ("next-turn", False, Phase.TURN, "Blue"),  # play passes; Red's round comes later
        ("immediately", True, Phase.FINISH_ROUND, "Red"),  # the round before anything else
        ("immediately", False, Phase.FINISH_ROUND, "Red"),  # even when play would pass
    ],
)
def test_R23_FINISH_reached_by_a_SPIN_bonus(
    when: str, same_team: bool, phase: Phase, to_play: str
) -> None:
    board = "START Object Nature SPIN Random FINISH"
    game = make_game(board=board, finish_by_spin=when, spin_then_same_team=same_team)
    turn(game, 3)
    describers = game.state.describers
    play(game, "spin narrow-green", "choose forward")
    assert game.position("Red") == 5
    assert game.phase is phase
    assert game.to_play.name == to_play
    if when == "immediately":
        assert game.state.describers == describers  # still the same turn's describers
    if to_play == "Blue":
        turn(game, 0)
        assert game.phase is Phase.FINISH_ROUND and game.to_play.name == "Red"


@pytest.mark.parametrize(
    ("after", "phase", "retry"),
    [
        # default: play passes in order; Red is next anyway, and still owes its round
        ("next-team", Phase.CONTROL_ROUND, True),
        # house rule: Red takes the next turn as the winner, which settles its retry
        ("winner", Phase.TURN, False),
    ],
)
def test_R23_winning_a_FINISH_round_settles_a_retry_only_when_the_winner_plays_next(
    after: str, phase: Phase, retry: bool
) -> None:
    # README ruling: winning another team's FINISH round cancels the winner's own CONTROL
    # retry only when that win gives it the next turn.
    game = make_game(after_failed_finish=after)
    turn(game, 5)  # Red on CONTROL
    play(game, "control-won Blue")  # Red owes a CONTROL round
    turn(game, 9)  # Blue's stolen turn reaches FINISH
    play(game, "control-won Red")  # Red answers Blue's FINISH round first
    assert game.winner is None and game.position("Blue") == 9
    assert game.to_play.name == "Red"
    assert game.phase is phase
    assert game.state.control_retry == (retry, False)


def test_R14_R23_a_team_on_FINISH_that_wins_a_CONTROL_round_plays_its_FINISH_round() -> None:
    # R14: the winner takes its turn next; R23: on FINISH that turn is the FINISH round.
    game = make_game(THREE_TEAMS)
    turn(game, 9)
    play(game, "control-won Blue")  # Red fails and waits on FINISH; Blue plays next
    turn(game, 5)  # Blue on CONTROL
    play(game, "control-won Red")
    assert game.to_play.name == "Red"
    assert game.phase is Phase.FINISH_ROUND
    play(game, "control-won Red")
    assert game.winner == "Red"
