"""The textual table app, headless through textual's test pilot.

Each test runs its own event loop with ``asyncio.run`` (no pytest plugin needed).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from dataclasses import replace

import pytest
from screen_helpers import base_model, make_game
from textual.pilot import Pilot

from voice_host.rules import Phase
from voice_host.screen import ScreenModel, TimerView, screen_model_from_game
from voice_host.screen.app import (
    COMPACT_BELOW_ROWS,
    CardPanel,
    CountPanel,
    HeardPanel,
    StatusPanel,
    TableApp,
    TimerPanel,
    TrackPanel,
)
from voice_host.screen.bigtext import HEIGHT, big_digits
from voice_host.screen.panels import clipped, count_text, timer_bar
from voice_host.screen.track import CELL_ROWS, CELL_WIDTH, GAP, cells_per_row, track_places

SIZE = (120, 44)


def run_app(
    model: ScreenModel,
    body: Callable[[TableApp, Pilot[None]], Awaitable[None]],
    on_key: Callable[[str], None] | None = None,
) -> None:
    """Run ``body`` against a headless app showing ``model``."""

    async def main() -> None:
        app = TableApp(model, on_key=on_key)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await body(app, pilot)

    asyncio.run(main())


def piece_cell(app: TableApp, segment: int) -> str:
    """The pieces row under ``segment`` as the track panel draws it at its width."""
    panel = app.query_one(TrackPanel)
    width = panel.content_size.width
    lines = panel.render().plain.split("\n")
    place = track_places(len(panel.model.segments), cells_per_row(width))[segment]
    top = place.row * (CELL_ROWS + 1) + 2
    left = place.column * (CELL_WIDTH + GAP)
    return lines[top][left : left + CELL_WIDTH].strip()


def test_pieces_appear_on_their_segments_and_move_with_the_model() -> None:
    start = base_model()
    moved = replace(
        start, teams=(replace(start.teams[0], position=6), replace(start.teams[1], position=2))
    )

    async def body(app: TableApp, pilot: Pilot[None]) -> None:
        assert piece_cell(app, 0) == "R B"
        app.update_model(moved)
        await pilot.pause()
        assert piece_cell(app, 0) == ""
        assert piece_cell(app, 6) == "R"
        assert piece_cell(app, 2) == "B"

    run_app(start, body)


@pytest.mark.parametrize(
    ("seconds_left", "shown"),
    [
        (30.0, 30),  # a whole turn
        (7.2, 8),  # under ten: counts up to the next whole second
    ],
)
def test_the_timer_bar_follows_the_model(seconds_left: float, shown: int) -> None:
    timer = TimerView(seconds_left, 30.0)

    async def body(app: TableApp, pilot: Pilot[None]) -> None:
        app.update_model(replace(base_model(), timer=timer))
        await pilot.pause()
        panel = app.query_one(TimerPanel)
        lines = panel.render().plain.split("\n")
        assert [line.strip() for line in lines[:HEIGHT]] == [
            row.strip() for row in big_digits(f"{shown:2d}")
        ]
        assert timer_bar(timer, panel.content_size.width) == lines[HEIGHT]
        assert lines[HEIGHT + 1] == f"{shown} of 30 seconds left"

    run_app(base_model(timer=TimerView(1.0, 30.0)), body)


def test_a_paused_timer_says_so() -> None:
    async def body(app: TableApp, pilot: Pilot[None]) -> None:
        text = app.query_one(TimerPanel).render().plain
        assert "PAUSED" in text

    run_app(base_model(timer=TimerView(12.0, 30.0, paused=True)), body)


def test_the_card_panel_hides_and_comes_back() -> None:
    async def body(app: TableApp, pilot: Pilot[None]) -> None:
        card = app.query_one(CardPanel)
        assert card.display and card.render().plain == "T E L E S C O P E"
        app.update_model(replace(base_model(), card=None))
        await pilot.pause()
        assert not card.display
        assert card.region.height == 0  # not drawn at all, not just blank
        app.update_model(replace(base_model(), card="Comet"))
        await pilot.pause()
        assert card.display and card.render().plain == "C O M E T"

    run_app(base_model(), body)


def test_count_heard_and_judgement_are_drawn() -> None:
    model = base_model(count=3, heard="glazier", judgement="counted as glacier")

    async def body(app: TableApp, pilot: Pilot[None]) -> None:
        count = app.query_one(CountPanel).render().plain
        assert "███" in count and "correct this turn" in count
        heard = app.query_one(HeardPanel).render().plain
        assert "glazier" in heard and "counted as glacier" in heard
        assert "RED'S TURN" in app.query_one(StatusPanel).render().plain

    run_app(model, body)


@pytest.mark.parametrize(
    ("pressed", "received"),
    [
        ("question_mark", "?"),  # help is the character itself
        ("r", "r"),  # a letter
        ("1", "1"),  # a team buzzer digit
        ("space", "space"),  # space by name, not as a blank
        ("enter", "enter"),  # non-printing keys by textual's name
        ("ctrl+c", "ctrl+c"),  # the host saves and exits on its own terms
        ("tab", "tab"),  # not swallowed by focus movement
    ],
)
def test_keys_reach_the_host_callback(pressed: str, received: str) -> None:
    keys: list[str] = []

    async def body(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press(pressed)
        await pilot.pause()
        assert app.is_running

    run_app(base_model(), body, on_key=keys.append)
    assert keys == [received]


def test_ctrl_q_quits_without_reaching_the_host() -> None:
    keys: list[str] = []

    async def body(app: TableApp, pilot: Pilot[None]) -> None:
        await pilot.press("ctrl+q")
        await pilot.pause()

    run_app(base_model(), body, on_key=keys.append)
    assert keys == []


def test_update_model_from_another_thread() -> None:
    later = base_model(count=4, heard="comet")

    async def body(app: TableApp, pilot: Pilot[None]) -> None:
        worker = threading.Thread(target=app.update_model, args=(later,))
        worker.start()
        worker.join()  # update_model must not wait for the app's loop
        await pilot.pause()
        await pilot.pause()
        assert app.model is later
        assert app.query_one(CountPanel).model is later
        assert "comet" in app.query_one(HeardPanel).render().plain

    run_app(base_model(), body)


def test_a_model_given_before_the_app_runs_is_drawn_at_start() -> None:
    app = TableApp(base_model())
    app.update_model(base_model(heard="early"))

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "early" in app.query_one(HeardPanel).render().plain

    asyncio.run(main())


@pytest.mark.parametrize(
    "size",
    [
        (80, 24),  # a classic terminal: the screen scrolls, nothing breaks
        (40, 15),  # very narrow: two cells a row
    ],
)
def test_small_terminals_still_draw_the_track(size: tuple[int, int]) -> None:
    async def main() -> None:
        app = TableApp(base_model())
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            track = app.query_one(TrackPanel)
            assert track.render().plain.startswith(" START ")
            assert piece_cell(app, 0) == "R B"

    asyncio.run(main())


@pytest.mark.parametrize("teams", ["Red:A,B;Blue:C,D", "Red:A,B;Blue:C,D;Green:E,F;Gold:G,H"])
def test_a_classic_terminal_shows_the_card_timer_count_teams_and_heard_unscrolled(
    teams: str,
) -> None:
    # 80x24 used to show the status, the track and the right column, and nothing of
    # the card below them: the describer had nothing to read.  The card now sits
    # under the status, and on a short terminal the timer and count take a line each
    # and the card loses its blank rows.
    size = (80, 24)

    async def main() -> None:
        game = screen_model_from_game(make_game(teams=teams), card="Telescope")
        model = replace(game, timer=TimerView(28.0, 30.0), count=2, heard="is it a telescope")
        app = TableApp(model)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for name in ("status", "card", "timer", "count", "teams", "heard"):
                region = app.query_one(f"#{name}").region
                assert region.y >= 0 and region.bottom <= size[1], name
            assert "T E L E S C O P E" in app.query_one(CardPanel).render().plain
            timer = app.query_one(TimerPanel).render().plain.split("\n")
            assert timer[0].startswith("28 █") and len(timer) == 2  # no big digits
            assert app.query_one(CountPanel).render().plain == " 2 correct this turn"

    asyncio.run(main())


def test_a_tall_terminal_keeps_the_big_digits() -> None:
    def body(app: TableApp, pilot: Pilot[None]) -> Awaitable[None]:
        rows = app.query_one(TimerPanel).render().plain.split("\n")
        assert len(rows) == HEIGHT + 2  # the digits, the bar, the line under it
        return pilot.pause()

    run_app(base_model(), body)


def test_a_classic_terminal_shows_heard_and_the_host_line_with_six_long_named_teams() -> None:
    # With six teams, one of them long enough to wrap the status line, the boxed
    # panels of the right column ran past row 24: the judgement, the host's last
    # words and the message line (a question, "microphone lost") were off screen.
    # Below 40 rows those panels lose their bottom edge.
    size = (80, 24)
    teams = ";".join(
        f"{name}:A{i},B{i}"
        for i, name in enumerate(
            [
                "The Fantastic Four",
                "Big Red",
                "Tremendous Tigers",
                "The Brainy Bunch",
                "Gold",
                "Blue",
            ]
        )
    )

    async def main() -> None:
        game = screen_model_from_game(make_game(teams=teams), card="Telescope")
        model = replace(
            game,
            timer=TimerView(28.0, 30.0),
            heard="is it a telescope",
            judgement="counted as telescope",
            announcement="Telescope, correct. One.",
            message="Microphone lost",
        )
        app = TableApp(model)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            assert app.query_one(StatusPanel).region.height == 4  # the status wraps
            for name in ("card", "timer", "count", "teams", "heard", "host"):
                region = app.query_one(f"#{name}").region
                assert region.y >= 0 and region.bottom <= size[1], name
            assert app.query_one("#timer").border_title == "TIME"

    asyncio.run(main())


@pytest.mark.parametrize(("first", "then"), [((120, 30), (120, 44)), ((120, 44), (120, 30))])
def test_a_resize_across_40_rows_redraws_the_timer_and_count_without_a_new_model(
    first: tuple[int, int], then: tuple[int, int]
) -> None:
    # Between turns (the game waiting for its describer) or while paused no new model
    # comes; the timer and count were left as drawn for the old height: one line each on
    # a tall terminal, or big digits running off a short one, until the next change.
    async def main() -> None:
        app = TableApp(base_model(count=3))
        async with app.run_test(size=first) as pilot:
            await pilot.pause()
            await pilot.resize_terminal(*then)
            await pilot.pause()
            tall = then[1] >= COMPACT_BELOW_ROWS
            timer_rows = HEIGHT + 2 if tall else 2
            count_rows = HEIGHT + 1 if tall else 1
            assert app.query_one(TimerPanel).content_region.height == timer_rows
            assert app.query_one(CountPanel).content_region.height == count_rows

    asyncio.run(main())


def test_a_classic_terminal_keeps_the_message_line_under_a_long_clue_and_status() -> None:
    # A long clue heard and the host's status answer (seven lines at 38 columns)
    # pushed the message line ("Keyboard only: not listening.") below row 24.  On a
    # short terminal each is cut to about two lines; the host says them whole.
    size = (80, 24)
    teams = ";".join(f"Team {n}:A{n},B{n}" for n in range(1, 7))
    status = " ".join(f"Team {n} on segment {n} of 47, Nature." for n in range(1, 7))
    clue = "it is a long thing you look through at night to see the stars and planets " * 2

    async def main() -> None:
        game = screen_model_from_game(make_game(teams=teams), card="Telescope")
        model = replace(
            game,
            heard=clue,
            judgement="nothing: no answer, forbidden form, foul talk or command heard",
            announcement=status,
            message="Keyboard only: not listening.",
        )
        app = TableApp(model)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            host = app.query_one("#host")
            assert host.region.bottom <= size[1]
            assert "Keyboard only: not listening." in host.render().plain
            assert "…" in app.query_one("#heard").render().plain
        tall = TableApp(model)
        async with tall.run_test(size=(80, 60)) as pilot:
            await pilot.pause()
            assert status in tall.query_one("#host").render().plain.replace("\n", " ")

    asyncio.run(main())


def test_the_count_outside_a_turn_is_the_last_turns() -> None:
    # During a CONTROL or FINISH round and after the win, COUNT showed "11 correct
    # this turn" for the turn that had ended.
    model = base_model()
    assert "correct this turn" in count_text(model, 30)
    for phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND, Phase.GAME_OVER):
        assert count_text(replace(model, phase=phase), 30).plain.endswith("correct last turn")


@pytest.mark.parametrize(
    ("text", "limit", "shown"),
    [
        ("aaa bbb ccc", 8, "aaa bbb…"),  # a whole word that fits stays (was "aaa…")
        ("aaa bbbbbbb", 8, "aaa…"),  # a word cut is dropped
        ("abcdefghij", 5, "abcd…"),  # one long word is cut
        ("short", 8, "short"),
    ],
)
def test_long_text_is_cut_at_a_word(text: str, limit: int, shown: str) -> None:
    assert clipped(text, limit) == shown
