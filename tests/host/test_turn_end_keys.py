"""Turn keys pressed as a turn ends (session 60's audit): C pressed for a guess
called out at the buzzer, or T pressed twice, went to the next team's turn, which
nobody had described: "Submarine, correct. One." for Blue 0.3 s after "Time!"."""

from __future__ import annotations

from typing import Any

import pytest

from voice_host.host.core import TURN_ENDED_SECONDS
from voice_host.host.inputs import KeyPress
from voice_host.rules import Correct, Foul, Pass, Phase, TimeUp

from .conftest import HostMaker


def _turn_running(host: Any, clock: Any) -> float:
    """Let time pass until the turn's timer runs ("Go!" said); the time then."""
    while not host.timer.running:
        clock.advance_to(clock.now() + 0.1)
        host.tick(clock.now())
    return clock.now()


def _red_ended_by_t(make_host: HostMaker) -> tuple[Any, Any, float]:
    """Red scores one and ends its turn with T at ``t``: the host, its clock, ``t``."""
    host, clock, _ = make_host(timer=30.0)
    host.start()
    t = _turn_running(host, clock) + 3.0
    clock.advance_to(t)
    host.handle(KeyPress("c", t))
    host.handle(KeyPress("t", t))
    assert [type(i) for i in host.game.inputs] == [Correct, TimeUp]
    assert host.game.phase is Phase.TURN and host.game.to_play.name == "Blue"
    return host, clock, t


@pytest.mark.parametrize(("key", "kind"), [("c", Correct), ("p", Pass), ("f", Foul)])
def test_a_card_key_just_after_a_turn_ended_is_not_the_next_teams(
    make_host: HostMaker, key: str, kind: type
) -> None:
    host, clock, t = _red_ended_by_t(make_host)
    clock.advance_to(t + 0.3)
    host.handle(KeyPress(key, t + 0.3))
    assert [type(i) for i in host.game.inputs] == [Correct, TimeUp]  # nothing for Blue
    told = host.said[-1].text
    assert "came as Red's turn ended" in told and "press U" in told
    assert f"press {key.upper()} again" in told
    # pressed again, it is meant for Blue's turn, which it starts (as a key after "Go!")
    clock.advance_to(t + 0.8)
    host.handle(KeyPress(key, t + 0.8))
    assert [type(i) for i in host.game.inputs] == [Correct, TimeUp, kind]
    assert host.game.to_play.name == "Blue"


def test_t_pressed_twice_ends_one_turn(make_host: HostMaker) -> None:
    host, _, t = _red_ended_by_t(make_host)
    host.handle(KeyPress("t", t + 0.05))  # the second press of a double tap
    assert [type(i) for i in host.game.inputs] == [Correct, TimeUp]
    assert host.game.phase is Phase.TURN and host.game.to_play.name == "Blue"
    assert "Red's turn has just ended" in host.said[-1].text


def test_a_late_key_for_the_ended_turn_counts_after_undoing_its_end(make_host: HostMaker) -> None:
    # what the host tells the describer to do: U (and Y) takes the end back, C counts
    host, _, t = _red_ended_by_t(make_host)
    host.handle(KeyPress("c", t + 0.3))
    host.handle(KeyPress("u", t + 1.0))
    host.handle(KeyPress("y", t + 1.2))
    assert host.game.to_play.name == "Red" and host.game.phase is Phase.TURN
    host.handle(KeyPress("c", t + 1.5))  # Red's turn again: not refused
    assert [type(i) for i in host.game.inputs] == [Correct, Correct]
    assert host.game.state.correct == 2


def test_a_key_after_the_settling_time_is_the_new_turns(make_host: HostMaker) -> None:
    host, clock, t = _red_ended_by_t(make_host)
    later = t + TURN_ENDED_SECONDS + 0.2
    clock.advance_to(later)
    host.tick(later)
    host.handle(KeyPress("c", later))
    assert [type(i) for i in host.game.inputs] == [Correct, TimeUp, Correct]
    assert host.game.to_play.name == "Blue" and host.game.state.correct == 1
