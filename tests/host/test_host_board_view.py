"""The live host with the board view (textual's test pilot) and in line mode.

The host loop runs in its worker thread exactly as in ``voice-host play``;
the pilot presses keys into the app, whose ``on_key`` feeds the host's queue.
Waits poll the app until the host has acted (with a generous deadline): no
timing is asserted.
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from voice_host.announce.printed import PrintedAnnouncer
from voice_host.config import HostConfig
from voice_host.errors import UsageError
from voice_host.host.clock import WallClock
from voice_host.host.inputs import Notice
from voice_host.host.live import LiveSession, run_live, uses_board_view
from voice_host.rules import Game, Phase
from voice_host.screen.app import CardPanel, CountPanel, StatusPanel, TableApp, TeamsPanel

from .conftest import DATA

SIZE = (120, 44)
#: Polls of 0.05 s before a wait gives up (a deadline, not a timing assertion).
POLLS = 400


def config(tmp_path: Path, **changes: object) -> HostConfig:
    """Red:Ann,Bob against Blue:Cat,Dan on the test board and deck, keys only."""
    values: dict[str, object] = {
        "teams": "Red:Ann,Bob;Blue:Cat,Dan",
        "timer": 120.0,
        "deck": DATA / "deck.txt",
        "board": DATA / "board.json",
        "keyboard_only": True,
        "save": tmp_path / "game.json",
        "seed": 7,
    }
    values.update(changes)
    return HostConfig(**values)  # type: ignore[arg-type]


def session(
    tmp_path: Path,
    said: list[str],
    show_card: bool | None = None,
    announcer: PrintedAnnouncer | None = None,
) -> LiveSession:
    return LiveSession.open(
        config(tmp_path),
        stdout=io.StringIO(),
        env={},
        clock=WallClock(),
        board_view=True,
        show_card=show_card,
        announcer=announcer or PrintedAnnouncer(printer=said.append),
    )


async def until(pilot: Pilot[None], done: Callable[[], bool], what: str) -> None:
    for _ in range(POLLS):
        if done():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"never happened: {what}")


def text(app: TableApp, panel: type[StatusPanel | CountPanel | CardPanel | TeamsPanel]) -> str:
    return app.query_one(panel).render().plain


def saved(tmp_path: Path) -> Game:
    outer = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    return Game.from_json(outer["game"])


def test_a_short_game_by_keys_on_the_board_view(tmp_path: Path) -> None:
    said: list[str] = []
    live = session(tmp_path, said)
    app = live.table_app()

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            worker = live.serve(app)
            await until(pilot, lambda: "RED'S TURN" in text(app, StatusPanel), "Red's turn")
            entry = live.host.entry_text()
            card = " ".join(entry.upper())
            await until(pilot, lambda: text(app, CardPanel) == card, "the describer's card")
            await until(pilot, lambda: live.host.timer.running, "the timer")
            await pilot.press("c")
            await until(pilot, lambda: app.model.count == 1, "count 1")
            assert "correct this turn" in text(app, CountPanel)
            assert any(f"{entry}, correct. One." in line for line in said)
            await pilot.press("c")
            await until(pilot, lambda: app.model.count == 2, "count 2")
            await pilot.press("t")  # time: Red moves 2, to CONTROL (R13)
            await until(pilot, lambda: app.model.phase is Phase.CONTROL_ROUND, "CONTROL")
            assert app.model.teams[0].position == 2
            assert "CONTROL" in text(app, StatusPanel)
            await pilot.press("2")  # Blue's buzzer wins the round
            await until(pilot, lambda: "BLUE'S TURN" in text(app, StatusPanel), "Blue's turn")
            await pilot.press("ctrl+c")  # the host saves, says goodbye and closes the app
            await until(pilot, lambda: not worker.is_alive(), "the host loop to end")
        live.finish(worker)

    asyncio.run(main())
    assert live.host.finished
    assert said[-1].startswith("Host: Game saved to ")
    game = saved(tmp_path)
    assert game.to_play.name == "Blue" and game.state.positions == (2, 0)


def test_closing_the_app_saves_the_game(tmp_path: Path) -> None:
    said: list[str] = []
    live = session(tmp_path, said)
    app = live.table_app()

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            worker = live.serve(app)
            await until(pilot, lambda: live.host.timer.running, "the timer")
            await pilot.press("c")
            await until(pilot, lambda: app.model.count == 1, "count 1")
            await pilot.press("ctrl+q")  # the app's own emergency quit
            await pilot.pause()
        live.finish(worker)

    asyncio.run(main())
    assert live.host.finished and said[-1].startswith("Host: Game saved to ")
    assert saved(tmp_path).state.correct == 1
    # textual clears what it drew: the last word is printed after it, as line mode has it
    farewell = live.farewell()
    assert len(farewell) == 1 and farewell[0].startswith("Game saved to ")
    assert "To go on later: voice-host play --resume" in farewell[0]


@pytest.mark.parametrize(
    ("show_card", "shown_at_start"),
    [
        (None, True),  # the board view's default: the card panel is the describer's
        (False, False),  # --no-show-card: hidden until K
    ],
)
def test_the_card_panel_and_the_peek_key(
    tmp_path: Path, show_card: bool | None, shown_at_start: bool
) -> None:
    said: list[str] = []
    live = session(tmp_path, said, show_card=show_card)
    app = live.table_app()

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            worker = live.serve(app)
            await until(pilot, lambda: live.host.timer.running, "the timer")
            # The notice follows the opening: the model drawn now has the card decided.
            await until(pilot, lambda: "Keyboard only" in app.model.message, "the notice")
            await pilot.pause()
            assert app.query_one(CardPanel).display is shown_at_start
            await pilot.press("k")
            await until(pilot, lambda: app.model.card is not None, "the card")
            await until(pilot, lambda: app.query_one(CardPanel).display, "the card panel")
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not worker.is_alive(), "the host loop to end")
        live.finish(worker)

    asyncio.run(main())


@pytest.mark.parametrize(
    ("show_card", "card_printed"),
    [
        (None, False),  # line mode's default: a screen reader would read it to everyone
        (True, True),  # --show-card: a sighted describer reads the terminal
    ],
)
def test_line_mode_prints_the_card_only_when_asked(
    tmp_path: Path, show_card: bool | None, card_printed: bool
) -> None:
    out = io.StringIO()
    code = run_live(
        config(tmp_path, plain=True),
        stdin=io.StringIO("q\ny\n"),
        stdout=out,
        env={},
        show_card=show_card,
    )
    assert code == 0
    assert ("Card: " in out.getvalue()) is card_printed
    assert "Red's turn. Ann describing" in out.getvalue()


def test_line_mode_k_prints_the_card_once(tmp_path: Path) -> None:
    out = io.StringIO()
    run_live(config(tmp_path, plain=True), stdin=io.StringIO("k\nq\ny\n"), stdout=out, env={})
    assert out.getvalue().count("Card: ") == 1


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("plain", "stream", "board"),
    [
        (False, _Tty(), True),  # a terminal: the board view
        (True, _Tty(), False),  # --plain on a terminal: lines
        (False, io.StringIO(), False),  # a pipe or file: lines
    ],
)
def test_which_screen(tmp_path: Path, plain: bool, stream: io.StringIO, board: bool) -> None:
    assert uses_board_view(config(tmp_path, plain=plain), stream) is board


def test_resume_after_a_won_game_finds_no_game(tmp_path: Path) -> None:
    (tmp_path / "game.json").unlink(missing_ok=True)
    with pytest.raises(UsageError, match="no game in progress"):
        run_live(config(tmp_path, resume=True), stdin=io.StringIO(""), stdout=io.StringIO())


class StopCounting(PrintedAnnouncer):
    """A printed announcer that counts the times it is told to stop talking."""

    stops = 0

    def stop(self) -> None:
        self.stops += 1


def test_escape_and_x_hush_the_host_on_the_board_view(tmp_path: Path) -> None:
    said: list[str] = []
    announcer = StopCounting(printer=said.append)
    live = session(tmp_path, said, announcer=announcer)
    app = live.table_app()

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            worker = live.serve(app)
            await until(pilot, lambda: live.host.timer.running, "the timer")
            await pilot.press("escape")  # textual's name for the key: it reaches the host
            await until(pilot, lambda: announcer.stops == 1, "the first hush")
            await pilot.press("x")
            await until(pilot, lambda: announcer.stops == 2, "the second hush")
            assert worker.is_alive() and not live.host.finished  # nothing else happened
            assert not any("does nothing" in line for line in said)
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not worker.is_alive(), "the host loop to end")
        live.finish(worker)

    asyncio.run(main())


@pytest.mark.parametrize("board", [True, False])
def test_options_a_resumed_game_ignores_are_said_when_the_board_view_covers_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, board: bool
) -> None:
    # The line naming them was printed to stderr just before the board view took the
    # whole screen, so nobody saw or heard it until the game ended.  Line mode shows
    # that printed line; the board view has the host say it.
    line = "voice-host: --house does nothing with --resume: the saved game goes on ..."
    queued: list[object] = []

    def run_board(self: LiveSession, stdout: object) -> int:
        while (item := self.inputs.get(0.0)) is not None:
            queued.append(item)
        return 0

    monkeypatch.setattr("voice_host.host.live.uses_board_view", lambda *_: board)
    monkeypatch.setattr(LiveSession, "run_board", run_board)
    monkeypatch.setattr(LiveSession, "run_lines", run_board)
    assert run_live(config(tmp_path), stdout=io.StringIO(), env={}, notice=line) == 0
    notices = [item.text for item in queued if isinstance(item, Notice)]
    assert (line in notices) is board


def test_a_config_file_edited_before_a_resume_is_said_not_silently_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The resumed game keeps its own teams and rules; a config file changed since the
    # game began would otherwise seem to have been read.  The host says it, in either
    # screen (the board view covers stderr).
    from voice_host.rules import HouseRules

    run_live(config(tmp_path), stdin=io.StringIO("q\ny\n"), stdout=io.StringIO(), env={})
    queued: list[object] = []

    def run_lines(self: LiveSession, stdout: object) -> int:
        while (item := self.inputs.get(0.0)) is not None:
            queued.append(item)
        return 0

    monkeypatch.setattr(LiveSession, "run_lines", run_lines)
    edited = config(
        tmp_path,
        resume=True,
        plain=True,
        config_file=tmp_path / "host.toml",
        teams="Gold:Eve,Fay;Teal:Gus,Hal",
        house_rules=HouseRules(passes_per_turn=2),
    )
    assert run_live(edited, stdout=io.StringIO(), env={}) == 0
    notices = [item.text for item in queued if isinstance(item, Notice)]
    assert notices == [
        f"the teams and house rules in {tmp_path / 'host.toml'} differ from the saved "
        "game's: the saved game goes on with its own (start a new game without --resume "
        "to play with them)"
    ]
    assert [t.name for t in saved(tmp_path).teams] == ["Red", "Blue"]
