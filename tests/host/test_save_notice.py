"""What the table hears when the game cannot be saved (a full disk, a read-only
folder): a few plain words on the host's voice, and the file with the system's own
reason printed (line mode) or shown (the board view's host line) for whoever reads it."""

from __future__ import annotations

import errno
import io
import tempfile
from pathlib import Path

import pytest

from voice_host.announce.protocol import AnnounceOptions
from voice_host.announce.recording import RecordingAnnouncer
from voice_host.host.clock import WallClock
from voice_host.host.live import LiveSession
from voice_host.host.saved_game import save_or_discard
from voice_host.persist import SaveSlot
from voice_host.rules import Correct, Game, Phase, TimeUp

from .conftest import ScreenRecorder, disk_full_after_first_save, live_config, new_game

#: Seconds a test waits for the host's thread (never reached when passing).
DEADLOCK = 10.0
#: What the host says when the disk fills after the game's first save.
FULL = (
    "I could not save the game: the disk is full. Play goes on, and the last save is "
    "kept; I will try again at the next change."
)


def _failing_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **changes: object
) -> tuple[LiveSession, RecordingAnnouncer, io.StringIO, ScreenRecorder]:
    """A session whose game opens (its first save works) and whose next save finds the
    disk full, the failure's notice handled by the host as its loop would."""
    disk_full_after_first_save(monkeypatch)
    announcer = RecordingAnnouncer(clock=WallClock().now, options=AnnounceOptions(rate=3000))
    board_view = bool(changes.pop("board_view", False))
    config = live_config(tmp_path, teams="Red:Ann,Bob;Blue:Cat,Dan", **changes)
    out = io.StringIO()
    session = LiveSession.open(
        config, stdout=out, env={}, clock=WallClock(), board_view=board_view, announcer=announcer
    )
    screen = ScreenRecorder()
    session.host.screen = screen
    session.host.start()  # the first save
    slot = session.host.save_slot
    assert slot is not None and slot.failure is None
    assert not slot.autosave(session.host.game.to_json())  # the disk is full now
    notice = session.inputs.get(DEADLOCK)
    assert notice is not None
    session.host.handle(notice)
    return session, announcer, out, screen


@pytest.mark.parametrize("board_view", [False, True], ids=["line-mode", "board-view"])
def test_a_failed_save_is_said_in_plain_words_and_its_reason_printed_or_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, board_view: bool
) -> None:
    # The host said the save's error line aloud, in the middle of a turn: "cannot save
    # the game to /home/.../game.json: the disk holding /home/... is full; play goes
    # on, and the last good save is kept".
    session, announcer, out, screen = _failing_save(tmp_path, monkeypatch, board_view=board_view)
    try:
        said = [e.text for e in announcer.entries]
        assert said[-1] == FULL
        assert not any(str(tmp_path) in text or "cannot save" in text for text in said)
        line = f"cannot save the game to {tmp_path / 'game.json'}: the disk holding"
        assert screen.models[-1].announcement.startswith(line)
        assert screen.models[-1].announcement.endswith(
            "is full; play goes on, and the last good save is kept"
        )
        printed = out.getvalue()
        if board_view:
            assert printed == ""  # the board view owns the terminal
        else:
            assert line in printed and "the last good save is kept" in printed
    finally:
        session.close()


def test_with_a_screen_reader_the_reason_of_a_failed_save_is_not_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The player's screen reader reads every printed line aloud: printing the file and
    # the system's reason would say them all the same.
    session, announcer, out, _ = _failing_save(tmp_path, monkeypatch, screen_reader=True)
    try:
        assert announcer.entries[-1].text == FULL
        assert "cannot save" not in out.getvalue()
        assert str(tmp_path) not in out.getvalue()
    finally:
        session.close()


def test_saving_again_is_said_without_the_file(tmp_path: Path) -> None:
    # "Saving works again: the game is saved to /home/.../game.json" was said aloud.
    told: list[tuple[str, str]] = []
    reports: list[str] = []
    broken = [True]

    def maybe(folder: Path, prefix: str) -> tuple[int, str]:
        if broken[0]:
            raise OSError(errno.EROFS, "Read-only file system")
        return tempfile.mkstemp(dir=folder, prefix=prefix, suffix=".tmp")

    slot = SaveSlot(
        tmp_path / "game.json",
        report=reports.append,
        make_temp=maybe,
        notify=lambda said, line: told.append((said, line)),
    )
    assert not slot.autosave("{}")
    assert not slot.autosave("{}")  # once
    broken[0] = False
    assert slot.autosave("{}")
    assert reports == []  # told, not reported as well
    assert told == [
        (
            "I could not save the game: the disk is read-only. Play goes on, but nothing of "
            "this game is saved yet; I will try again at the next change.",
            f"cannot save the game to {tmp_path / 'game.json'}: the folder {tmp_path} is on a "
            "read-only file system; play goes on, and nothing of this game is saved yet",
        ),
        (
            "Saving works again: the game is saved.",
            f"Saving works again: the game is saved to {tmp_path / 'game.json'}",
        ),
    ]


def test_the_goodbye_of_a_game_that_could_not_be_saved_is_said_in_plain_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The goodbye said the file and the system's reason: "The game could not be saved:
    # cannot save the game to /home/.../game.json: the disk holding ... is full; ...".
    session, announcer, _, screen = _failing_save(tmp_path, monkeypatch)
    try:
        session.host.stop("test")
        assert announcer.entries[-1].text == (
            "I could not save the game: the disk is full. The last save is kept. Goodbye."
        )
        assert screen.models[-1].announcement.startswith(
            f"The game could not be saved: cannot save the game to {tmp_path / 'game.json'}"
        )
        assert session.host.unsaved is not None  # the command's error line, as before
        assert session.host.unsaved.endswith("is full; the last good save is kept")
    finally:
        session.close()


def _won() -> Game:
    game = new_game()
    for inp in (Correct(), Correct(), TimeUp()):  # Red to CONTROL
        game.apply(inp)
    game.apply_text("control-won red")  # bonus turn
    for inp in (Correct(), Correct(), TimeUp()):  # Red to SPIN
        game.apply(inp)
    game.apply_text("spin narrow-green")
    game.apply_text("choose forward")  # Red to FINISH
    game.apply_text("control-won red")  # Red wins
    assert game.phase is Phase.GAME_OVER
    return game


def test_a_won_games_save_that_cannot_be_removed_is_said_in_plain_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The host said the removal's error: "cannot remove the saved game /home/.../game.json:
    # Permission denied."
    told: list[tuple[str, str]] = []
    reports: list[str] = []
    slot = SaveSlot(tmp_path / "game.json", notify=lambda said, line: told.append((said, line)))
    slot.save("{}")

    def refused(path: Path, missing_ok: bool = False) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(type(slot.path), "unlink", refused)  # a folder made read-only
    assert not save_or_discard(slot, _won(), {}, reports.append)
    assert reports == []  # told, not reported as well
    ((said, line),) = told
    assert said == "The game is over, but I could not remove its save."
    assert line == f"cannot remove the saved game {tmp_path / 'game.json'}: Permission denied."


def test_quit_while_saving_fails_says_so_before_the_game_is_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Session 60's audit: with the disk full, Q asked "Quit? Press Y to save and stop.",
    # and only after Y said that nothing could be saved; the question itself now says
    # it, while the players can still free some space and play on.
    session, announcer, _, _ = _failing_save(tmp_path, monkeypatch)
    try:
        from voice_host.host.inputs import KeyPress

        session.host.handle(KeyPress("q", session.host.clock.now()))
        assert announcer.entries[-1].text == (
            "Quit? The game cannot be saved now. The last save is kept. Press Y to stop."
        )
    finally:
        session.close()


def test_a_save_this_game_cannot_read_is_kept_aside_and_not_called_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # session 61's audit: a whole save that could not be read for its permissions was
    # moved aside at the next new game as "The damaged save file is kept in ..."
    from voice_host.host.saved_game import keep_previous_game

    save = tmp_path / "game.json"
    slot = SaveSlot(save)
    slot.save(Game(new_game().teams, new_game().board).to_json(), {})
    real_read = Path.read_text

    def refused(self: Path, *args: object, **kwargs: object) -> str:
        if self.parent == tmp_path and self.name != "game.json":
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_read(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", refused)
    said = keep_previous_game(slot)
    assert said.startswith("The save file this game could not read is kept in ")
    assert "(cannot be read (Permission denied))" in said and "damaged" not in said
