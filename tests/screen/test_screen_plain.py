"""The --plain screen: one short line per change, saying only what changed."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from screen_helpers import base_model, make_game

from voice_host.rules import Correct, Phase, Spin, SpinResult, TimeUp
from voice_host.screen import PlainScreen, ScreenModel, TimerView, screen_model_from_game


def lines_for(models: list[ScreenModel], **options: bool) -> list[str | None]:
    screen = PlainScreen(**options)  # type: ignore[arg-type]
    return [screen.line_for(m) for m in models]


def test_the_first_line_says_everything_and_an_unchanged_model_says_nothing() -> None:
    model = base_model()
    assert lines_for([model, model]) == [
        "Turn: Red. Describing: Ann. Segment 0 of 9, START. Category: Object. Card: Telescope. "
        "30 seconds left. Count 0.",
        None,
    ]


def test_a_turn_told_line_by_line() -> None:
    m0 = base_model()
    m1 = replace(m0, timer=TimerView(29.0, 30.0))  # same ten-second band: silent
    m2 = replace(m0, timer=TimerView(22.6, 30.0), count=1, card="Glacier")
    m3 = replace(m2, timer=TimerView(19.5, 30.0))  # crosses 20
    m4 = replace(m3, heard="glazier", judgement="counted as glacier")
    m5 = replace(m4, timer=TimerView(19.5, 30.0, paused=True))
    m6 = replace(m4, timer=TimerView(9.2, 30.0))  # resumed, and under 10
    m7 = replace(m4, timer=TimerView(0.0, 30.0))
    assert lines_for([m0, m1, m2, m3, m4, m5, m6, m7])[1:] == [
        None,
        "Card: Glacier. 23 seconds left. Count 1.",
        "20 seconds left.",
        "Heard: glazier. Counted as glacier.",
        "Timer paused, 20 seconds left.",
        "Timer running, 10 seconds left.",
        "Time up.",
    ]


def test_a_timer_stopped_with_its_time_spent_is_time_up_not_running() -> None:
    # an undone end of turn re-opens the turn with no time left: the host says its
    # time is up, and the line said "Timer running, 0 seconds left."
    paused = replace(base_model(), timer=TimerView(12.0, 30.0, paused=True))
    spent = replace(base_model(), timer=TimerView(0.0, 30.0))
    assert lines_for([paused, spent])[1] == "Time up."


def test_talk_the_referee_made_nothing_of_is_no_line() -> None:
    # dialogue.md 5 and 12: what was heard is written when a player may dispute it. A
    # describer's every clue, judged nothing, would have a screen reader read the
    # table's talk back to it over the game (and into the microphone).
    m0 = base_model()
    clue = replace(m0, heard="you look at stars with it", judgement="nothing", judged="nothing")
    guess = replace(clue, heard="glazier", judgement="counted as glacier", judged="guess", count=1)
    assert lines_for([m0, clue, guess])[1:] == [
        None,
        "Heard: glazier. Counted as glacier. 30 seconds left. Count 1.",
    ]


def test_a_new_turn_names_the_team_its_segment_and_the_piece_that_moved() -> None:
    game = make_game()
    for _ in range(2):
        game.apply(Correct())
    before = screen_model_from_game(game, timer=TimerView(3.0, 30.0))
    game.apply(TimeUp())
    after = screen_model_from_game(game, timer=TimerView(30.0, 30.0))
    assert lines_for([before, after])[1] == (
        "Turn: Blue. Describing: Cat. Segment 0 of 9, START. Category: Object. "
        "Red: segment 2 of 9, Nature. 30 seconds left. Count 0."
    )


def test_landing_on_SPIN_and_the_spin_choice() -> None:
    game = make_game()
    for _ in range(3):
        game.apply(Correct())
    game.apply(TimeUp())
    spin = screen_model_from_game(game)
    game.apply(Spin(SpinResult.NARROW_GREEN))
    choice = screen_model_from_game(game)
    assert lines_for([spin, choice]) == [
        "Spin: Red. Describing: Ann. Segment 3 of 9, SPIN. Spin the spinner.",
        "Spin choice: Red. Describing: Ann. Segment 3 of 9, SPIN. "
        "Spin narrow green: forward 3; no team can be pushed back from START.",
    ]


def test_the_spin_choice_names_the_teams_that_can_be_pushed_back() -> None:
    # R19: "or push a team back 3" was written with every other team on START, where
    # none can be pushed; a player who cannot see the track would try it.
    game = make_game("Red:Ann,Bob;Blue:Cat,Dan;Green:Eve,Fay")
    for inp in (Correct(), TimeUp(), Correct(), TimeUp(), TimeUp()):  # Red 1, Blue 1
        game.apply(inp)
    for _ in range(2):
        game.apply(Correct())
    game.apply(TimeUp())  # Red on 3, SPIN
    game.apply(Spin(SpinResult.WIDE_GREEN))
    line = lines_for([screen_model_from_game(game)])[0]
    assert line.endswith("Spin wide green: forward 2, or push Blue back 2."), line


def test_game_over_names_the_winner() -> None:
    model = replace(base_model(), phase=Phase.GAME_OVER, winner="Red", card=None)
    assert lines_for([model]) == ["Game over: Red wins."]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        # by default the card is written and the announcement is not (the announcer says it)
        ({}, "Card: Comet."),
        # a screen reader the guessers can hear must not read the card out
        ({"show_card": False}, "Host: Comet is next."),
    ],
)
def test_card_and_announcement_options(options: dict[str, bool], expected: str) -> None:
    m0 = base_model()
    m1 = replace(m0, card="Comet", announcement="Comet is next")
    if options:
        options = {**options, "announcements": True}
    assert lines_for([m0, m1], **options)[1] == expected


def test_a_message_is_written_once() -> None:
    m0 = base_model()
    m1 = replace(m0, message="Microphone lost: keys only")
    m2 = replace(m1, timer=TimerView(29.0, 30.0))
    assert lines_for([m0, m1, m2])[1:] == ["Microphone lost: keys only.", None]


def test_colour_is_off_unless_asked() -> None:
    plain, coloured = lines_for([base_model()]), lines_for([base_model()], colour=True)
    assert plain[0] is not None and "\x1b" not in plain[0]
    assert coloured[0] is not None and "\x1b[1;38;2;255;95;95mRed\x1b[0m" in coloured[0]


def test_update_model_writes_lines_to_the_stream() -> None:
    out = io.StringIO()
    screen = PlainScreen(out)
    screen.update_model(base_model())
    screen.update_model(base_model())
    screen.update_model(base_model(count=1))
    assert out.getvalue().splitlines() == [
        "Turn: Red. Describing: Ann. Segment 0 of 9, START. Category: Object. Card: Telescope. "
        "30 seconds left. Count 0.",
        "30 seconds left. Count 1.",
    ]


def test_time_step_below_one_second_is_refused() -> None:
    with pytest.raises(ValueError, match="time_step"):
        PlainScreen(time_step=0)
