"""The keyboard game saves after every change, in the live host's slot and format, and resumes."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import random
import re
import shlex
import shutil
import signal
from pathlib import Path
from typing import Any

import pytest

from voice_host import cli
from voice_host.commands import play as play_command
from voice_host.config import HostConfig
from voice_host.host.live import run_live
from voice_host.keyboard import KeyboardController, card_label
from voice_host.persist import SaveClaim, SavedGame, SaveSlot
from voice_host.rules import Correct, Game, Phase, board_from_data, parse_teams

HOST_DATA = Path(__file__).parent / "host" / "data"
TEAMS = "Red:Ann,Bob;Blue:Cat,Dan"


@pytest.fixture(autouse=True)
def _own_state(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Default saves go to this test's folder, and no config file of the user's is read."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def _board(tmp_path: Path) -> Path:
    board = tmp_path / "board.json"
    board.write_text('["START", "Object", "Nature", "FINISH"]')
    return board


def _play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stdin: str,
    *args: str,
    deck: bool = False,
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    if not deck:  # cards by number: no deck to load
        monkeypatch.setattr(
            play_command, "_deck_entries", lambda config, write, env: (card_label, 500)
        )
    code = cli.main(["play", "--keyboard", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _new_args(tmp_path: Path, save: Path) -> list[str]:
    board = str(_board(tmp_path))
    return ["--teams", TEAMS, "--first", "Red", "--board", board, "--save", str(save)]


def _quit_live(save: Path, **options: Any) -> str:
    """What the live host prints when it opens the game in ``save`` (the test deck
    and board, keys only) and is quit at once."""
    config = HostConfig(
        **{
            "deck": HOST_DATA / "deck.txt",
            "board": HOST_DATA / "board.json",
            "keyboard_only": True,
            "plain": True,
            "save": save,
            **options,
        }
    )
    out = io.StringIO()
    assert run_live(config, stdin=io.StringIO("q\ny\n"), stdout=out, env={}) == 0
    return out.getvalue()


def _saved(save: Path) -> Game:
    """The game in a save file, read the way the live host reads it."""
    return Game.from_json(SavedGame.from_json(save.read_text(encoding="utf-8"), save).game)


def test_every_change_is_saved_and_reads_back_to_the_same_game(tmp_path: Path) -> None:
    slot = SaveSlot(tmp_path / "game.json", report=lambda _: None)
    game = Game(
        parse_teams(TEAMS),
        board_from_data(["START", "Object", "SPIN", "Nature", "CONTROL", "FINISH"]),
        rng=random.Random(2),
        deck_size=20,
    )
    changes: list[str] = []

    def save() -> None:
        changes.append(game.to_json())
        slot.autosave(game.to_json())

    ctl = KeyboardController(game, on_change=save)
    # inputs, an undo, a pause (saved held: session 54), and keys that change nothing
    for i, key in enumerate(" ccptuc?i x"):
        count = len(changes)
        ctl.press(key, 0.0)
        assert len(changes) == count + (key in "cptu" or (key == " " and i > 0)), key
        loaded = slot.load()
        if changes:  # the file holds the game as it is now
            assert loaded is not None
            assert Game.from_json(loaded).to_data() == game.to_data()
    assert len(changes) == 7


def test_a_keyboard_game_is_saved_and_resumed_by_keyboard(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    code, out, err = _play(monkeypatch, capsys, " \nc\nc\n", *_new_args(tmp_path, save))
    assert (code, err) == (0, "")
    first = _saved(save)
    assert (first.phase, first.state.correct) == (Phase.TURN, 2)
    lines = out.splitlines()
    assert lines[-2:] == [
        "End of input: the game stops here.",
        f"Saved to {save}; resume with voice-host play --resume --save {save}",
    ]
    # Resumed with no keys at all: the same game, told where it stands.
    code, out, err = _play(monkeypatch, capsys, "", "--resume", "--save", str(save))
    assert (code, err) == (0, "")
    opening = out.splitlines()[:4]
    # the turn goes on with the time its timer had left (30 s, less the moment it ran)
    assert re.fullmatch(
        r"Resuming the saved game\. Red on START; Blue on START\. "
        r"Red has two right so far, (29|30) seconds left\.",
        opening[0],
    ), opening[0]
    assert opening[1:] == [
        "Press ? at any time for the keys.",
        "Red's turn. Ann describing, Bob guessing. Category: Object.",
        f"Press space to start the {opening[0].split()[-3]} second timer.",
    ]
    assert _saved(save).to_data() == first.to_data()
    # Play goes on from the saved count.
    code, out, _ = _play(monkeypatch, capsys, " \nc\n", "--resume", "--save", str(save))
    assert code == 0 and "correct. Three." in out
    assert _saved(save).state.correct == 3


def test_options_a_resumed_game_cannot_take_are_named_not_silently_dropped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    _play(monkeypatch, capsys, " \nc\n", *_new_args(tmp_path, save))
    args = ["--resume", "--save", str(save), "--teams", "Gold:Eve,Fay;Teal:Gus,Hal"]
    code, out, err = _play(monkeypatch, capsys, "", *args, "--house", "passes-per-turn=2")
    assert code == 0
    assert err == (
        "voice-host: --teams and --house do nothing with --resume: the saved game goes on "
        "with its own teams, board and rules (start a new game without --resume to change "
        "them)\n"
    )
    assert "Red on START; Blue on START" in out  # the saved game, as it was


def test_a_config_file_changed_since_the_game_began_is_named_on_resume(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    toml = tmp_path / "host.toml"
    toml.write_text(f'teams = "{TEAMS}"\nfirst = "Red"\nboard = "board.json"\n')
    _board(tmp_path)
    args = ["--config", str(toml), "--save", str(save)]
    assert _play(monkeypatch, capsys, " \nc\n", *args)[0] == 0
    # the same file: nothing to say
    assert _play(monkeypatch, capsys, "", "--resume", *args)[2] == ""
    # edited: the teams and the house rules it now sets are not the game's
    toml.write_text(
        'teams = "Gold:Eve,Fay;Teal:Gus,Hal"\nboard = "board.json"\n'
        "[house_rules]\npasses_per_turn = 2\n"
    )
    code, out, err = _play(monkeypatch, capsys, "", "--resume", *args)
    assert code == 0
    assert err == (
        f"voice-host: the teams and house rules in {toml} differ from the saved game's: "
        "the saved game goes on with its own (start a new game without --resume to play "
        "with them)\n"
    )
    assert "Red on START; Blue on START" in out
    # a board file changed since: named too; the same teams and rules are not
    (tmp_path / "board.json").write_text('["START", "Nature", "Object", "FINISH"]')
    toml.write_text(f'teams = "{TEAMS}"\nboard = "board.json"\n')
    err = _play(monkeypatch, capsys, "", "--resume", *args)[2]
    assert err.startswith(f"voice-host: the board in {toml} differs from the saved game's")


def test_the_resume_command_said_for_a_relative_save_path_works_from_any_folder(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # "--save t2/game.json" was printed back as typed: pasted in another folder, the
    # resume found no game (session 54's audit)
    monkeypatch.chdir(tmp_path)
    args = [
        a if a != str(tmp_path / "game.json") else "t2/game.json"
        for a in _new_args(tmp_path, tmp_path / "game.json")
    ]
    code, out, _ = _play(monkeypatch, capsys, " \nc\n", *args)
    assert code == 0
    command = out.splitlines()[-1].split("; resume with ")[1]
    assert shlex.split(command)[-1] == str(tmp_path / "t2" / "game.json")


def test_the_resume_command_said_for_a_save_path_with_spaces_can_be_pasted(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "our games" / "Ann's game.json"
    code, out, _ = _play(monkeypatch, capsys, " \nc\n", *_new_args(tmp_path, save))
    assert code == 0
    command = out.splitlines()[-1].split("; resume with ")[1]
    assert shlex.split(command) == ["voice-host", "play", "--resume", "--save", str(save)]


def test_winning_removes_the_save_and_undoing_the_win_saves_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    args = _new_args(tmp_path, save)
    code, out, _ = _play(monkeypatch, capsys, " \nccc\nt\n1\n", *args)
    assert code == 0 and "Red wins the game! Congratulations!" in out
    assert not save.exists()
    assert "Saved to" not in out  # nothing left to resume
    code, out, _ = _play(monkeypatch, capsys, " \nccc\nt\n1\nu\n", *args)
    assert _saved(save).phase is Phase.FINISH_ROUND
    assert out.splitlines()[-1].startswith(f"Saved to {save}")


def test_a_failing_save_is_said_once_and_play_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def full(folder: Path, prefix: str) -> tuple[int, str]:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(
        play_command, "SaveSlot", lambda path, **kw: SaveSlot(path, make_temp=full, **kw)
    )
    save = tmp_path / "game.json"
    code, out, err = _play(monkeypatch, capsys, " \nc\nc\nt\n \nc\n", *_new_args(tmp_path, save))
    # the game stopped unsaved: not a clean exit, and said in one line on stderr, as the
    # live host says it
    assert code == 2
    assert err == (
        f"voice-host: cannot save the game to {save}: the disk holding {tmp_path} is full; "
        "none of this game was saved\n"
    )
    failures = [line for line in out.splitlines() if "cannot save the game" in line]
    assert failures == [
        f"cannot save the game to {save}: the disk holding {tmp_path} is full; "
        "play goes on, and nothing of this game is saved yet"  # no "last good save" yet
    ]
    assert "Time! Red got two right." in out  # play went on after the failure
    assert "Blue's turn." in out and "correct. One." in out
    assert not save.exists()
    assert (
        out.splitlines()[-1] == f"Saving failed: this game was never saved (nothing is at {save})"
    )


def test_a_second_game_on_the_save_file_in_play_is_refused_and_the_first_is_kept(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    code, _, _ = _play(monkeypatch, capsys, " \nc\nq\ny\n", *_new_args(tmp_path, save))
    first = save.read_text(encoding="utf-8")
    with SaveClaim(save):  # the first game's process, still playing
        code, out, err = _play(monkeypatch, capsys, "q\ny\n", *_new_args(tmp_path, save))
    assert code == 2 and out == ""
    assert err == (
        f"voice-host: another voice-host game is playing with the save file {save}: "
        "finish or quit that one, or give this one --save with another file\n"
    )
    assert save.read_text(encoding="utf-8") == first  # neither moved aside nor replaced
    assert sorted(p.name for p in tmp_path.glob("game*.json")) == ["game.json"]


#: An earlier game's save, as far as the tests of what happens to it care.
EARLIER = '{"format": "voice-host-save", "an earlier game": true}'


def test_a_game_none_of_whose_saves_worked_does_not_send_the_player_to_an_older_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # A read-only folder holding an earlier game: it cannot be moved aside, and the
    # new game's saves fail.  The farewell must not offer the earlier file as this game.
    save = tmp_path / "game.json"
    save.write_text(EARLIER, encoding="utf-8")

    def read_only(folder: Path, prefix: str) -> tuple[int, str]:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(
        play_command, "SaveSlot", lambda path, **kw: SaveSlot(path, make_temp=read_only, **kw)
    )
    monkeypatch.setattr(SaveSlot, "keep_previous", lambda self: None)  # as in a read-only folder
    code, out, _ = _play(monkeypatch, capsys, " \nc\nq\ny\n", *_new_args(tmp_path, save))
    assert code == 2
    assert out.splitlines()[-1] == (
        f"Saving failed: this game was never saved (the file {save} holds an earlier game)"
    )
    assert save.read_text(encoding="utf-8") == EARLIER


class _Interrupted(io.StringIO):
    """Keys from lines, then Ctrl-C."""

    def readline(self, size: int | None = -1) -> str:
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_keeps_the_save_and_says_how_to_resume(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr("sys.stdin", _Interrupted(" \nc\n"))
    monkeypatch.setattr(play_command, "_deck_entries", lambda config, write, env: (card_label, 500))
    code = cli.main(["play", "--keyboard", "--teams", TEAMS, "--first", "Red"])
    out = capsys.readouterr().out
    save = tmp_path / "state" / "voice-host" / "game.json"  # the default slot
    assert code == 0
    assert out.splitlines()[-2:] == [
        "Interrupted: the game stops here.",
        f"Saved to {save}; resume with voice-host play --resume",
    ]
    assert _saved(save).state.correct == 1


class _Terminated(io.StringIO):
    """Keys from lines, then a signal to this process (SIGTERM: ``kill``, a logout)."""

    def __init__(self, text: str, number: signal.Signals = signal.SIGTERM) -> None:
        super().__init__(text)
        self.number = number

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline()
        if not line:
            signal.raise_signal(self.number)
        return line


@pytest.mark.parametrize(
    "number", [signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT], ids=lambda n: n.name
)
def test_sigterm_sighup_and_sigquit_end_play_as_ctrl_c_does(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    number: signal.Signals,
) -> None:
    """Not a process killed mid-screen (the terminal left raw, the board view's full
    screen left up): saved, and where it is said.  The same for SIGHUP from ``kill``
    while the terminal is still there (its output is kept: tests/test_play_signals.py
    closes the terminal) and for SIGQUIT (Ctrl-\\)."""

    def died(*_: object) -> None:
        raise AssertionError(f"{number.name} was not handled by the game: the process would die")

    before = signal.signal(number, died)
    continued = signal.getsignal(signal.SIGCONT)
    try:
        monkeypatch.setattr("sys.stdin", _Terminated(" \nc\n", number))
        monkeypatch.setattr(
            play_command, "_deck_entries", lambda config, write, env: (card_label, 500)
        )
        code = cli.main(["play", "--keyboard", "--teams", TEAMS, "--first", "Red"])
        assert signal.getsignal(number) is died  # put back as it was
        assert signal.getsignal(signal.SIGCONT) is continued
    finally:
        signal.signal(number, before)
    out = capsys.readouterr().out
    save = tmp_path / "state" / "voice-host" / "game.json"
    assert code == 0
    assert out.splitlines()[-2:] == [
        "Interrupted: the game stops here.",
        f"Saved to {save}; resume with voice-host play --resume",
    ]
    assert _saved(save).state.correct == 1


def _write_save(save: Path, text: str) -> None:
    save.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        # No save file at all.
        (None, "voice-host: no game in progress to resume (no save at {save})"),
        # Not a save file: named, with what to do.
        ("{not json", "voice-host: {save}: not a saved game (broken JSON at line 1)"),
        # A save whose engine state is broken.
        (
            json.dumps({"format": "voice-host-save", "version": 1, "game": "{}"}),
            "voice-host: {save}: ",
        ),
        # A save made with a deck of another size.
        (
            "deck:20",
            "voice-host: the saved game used a deck of 20 cards, this one has 500: resume "
            "with that deck as it was (its cards are numbered), or start a new game\n",
        ),
    ],
)
def test_resume_errors_are_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    content: str | None,
    message: str,
) -> None:
    save = tmp_path / "game.json"
    if content == "deck:20":
        game = Game(
            parse_teams(TEAMS),
            board_from_data(["START", "Object", "FINISH"]),
            rng=random.Random(5),
            deck_size=20,
        )
        SaveSlot(save).save(game.to_json())
    elif content is not None:
        _write_save(save, content)
    before = save.read_bytes() if save.exists() else None
    code, out, err = _play(monkeypatch, capsys, "", "--resume", "--save", str(save))
    assert code == 2
    assert err.startswith(message.format(save=save)) and err.count("\n") == 1
    assert "Traceback" not in err + out
    assert (save.read_bytes() if save.exists() else None) == before  # nothing lost


def test_a_keyboard_save_is_resumed_by_the_live_host_and_back(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    deck = ["--deck", str(HOST_DATA / "deck.txt"), "--board", str(HOST_DATA / "board.json")]
    args = ["--teams", TEAMS, "--first", "Red", "--save", str(save), *deck]
    code, _, err = _play(monkeypatch, capsys, " \nc\nc\n", *args, deck=True)
    assert (code, err) == (0, "")
    by_keys = _saved(save)
    assert by_keys.state.correct == 2

    text = _quit_live(save, resume=True)
    assert "Resuming the saved game. Red on START; Blue on START." in text
    assert "Red's turn. Ann describing, Bob guessing." in text
    assert _saved(save).state.correct == 2  # the live host saved the same game back
    assert _saved(save).inputs == by_keys.inputs

    code, out_text, err = _play(
        monkeypatch, capsys, "", "--resume", "--save", str(save), *deck[:2], deck=True
    )  # the deck only: the board is the saved game's own
    assert (code, err) == (0, "")
    assert out_text.startswith("Resuming the saved game.")
    assert _saved(save).to_data() == by_keys.to_data()


def test_a_new_game_never_loses_the_game_in_progress(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # dialogue.md 2 (a new game is destructive): starting one without --resume where
    # a game is saved keeps that game under a name of its own, and says where
    save = tmp_path / "game.json"
    code, _, _ = _play(monkeypatch, capsys, " \nc\nc\n", *_new_args(tmp_path, save))
    first = _saved(save)
    assert (code, first.state.correct) == (0, 2)
    code, out, err = _play(monkeypatch, capsys, " \nc\n", *_new_args(tmp_path, save))
    assert (code, err) == (0, "")
    kept = list(tmp_path.glob("game.*.json"))
    assert len(kept) == 1
    assert (
        f"The game saved before is kept in {kept[0]}. To go back to it later: "
        f"voice-host play --resume --save {kept[0]}." in out.splitlines()
    )
    assert _saved(kept[0]).to_data() == first.to_data()
    assert _saved(save).state.correct == 1  # the new game in the slot
    # the live host keeps it the same way, and says so before its welcome
    text = _quit_live(save, teams=TEAMS)
    kept_again = sorted(set(tmp_path.glob("game.*.json")) - set(kept))
    assert len(kept_again) == 1
    said = f"The game saved before is kept in {kept_again[0]}."
    assert said in text and text.index(said) < text.index("Welcome to Articulate!")
    assert _saved(kept_again[0]).state.correct == 1
    assert _saved(kept[0]).to_data() == first.to_data()  # the first one untouched


def test_taking_up_the_saved_game_offered_names_the_new_game_options_it_drops(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # yes to "Go on with it?" resumed the saved game and dropped --seed and --house
    # unsaid, where --resume names them (session 54's audit)
    save = tmp_path / "game.json"
    code, _, _ = _play(monkeypatch, capsys, " \nc\n", *_new_args(tmp_path, save))
    assert code == 0 and save.is_file()
    args = ["--save", str(save), "--seed", "9", "--house", "foul-penalty=end-turn"]
    code, out, err = _play(monkeypatch, capsys, "y\n", *args)
    assert code == 0 and "Resuming the saved game." in out
    assert err == (
        "voice-host: --seed and --house do nothing with the saved game taken up: it goes on "
        "with its own teams, board and rules (answer no to start a new game with them)\n"
    )


def test_a_first_team_naming_none_of_the_typed_teams_is_asked_instead(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # --first Green with teams typed at the set-up stopped the game after it, with
    # everything typed lost (session 54's audit): now said, and asked
    save = tmp_path / "game.json"
    keys = "Red\na,b\nBlue\nc,d\n\n2\n"
    code, out, err = _play(monkeypatch, capsys, keys, "--first", "Green", "--save", str(save))
    assert (code, err) == (0, "")
    assert "The first team given, 'Green', is none of these teams." in out
    assert "Blue's turn." in out


def test_a_damaged_save_is_kept_but_not_offered_as_a_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    save.write_text('{"broken', encoding="utf-8")
    code, out, err = _play(monkeypatch, capsys, " \nc\n", *_new_args(tmp_path, save))
    assert (code, err) == (0, "")
    (kept,) = tmp_path.glob("game.*.json")
    assert kept.read_text(encoding="utf-8") == '{"broken'  # kept as it was
    assert f"The damaged save file is kept in {kept} (not a saved game" in out
    assert "--resume --save" not in out.split("Saved to")[0]  # no resume offered for it


def test_resume_with_no_save_names_the_game_kept_when_a_new_one_started(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    for _ in range(2):  # a game, then a new one over it: the first is kept
        assert _play(monkeypatch, capsys, " \nc\n", *_new_args(tmp_path, save))[0] == 0
    (kept,) = tmp_path.glob("game.*.json")
    save.unlink()  # the new game is gone (won, or moved away)
    code, out, err = _play(monkeypatch, capsys, "", "--resume", "--save", str(save))
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in out + err
    assert err.startswith(f"voice-host: no game in progress to resume (no save at {save})")
    assert err.rstrip().endswith(f"voice-host play --resume --save {kept}")


def test_a_plain_resume_goes_on_with_the_games_own_deck_and_timer_from_any_folder(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(HOST_DATA / "deck.txt", elsewhere / "party.txt")  # a 3-card deck
    monkeypatch.chdir(elsewhere)
    args = [*_new_args(tmp_path, save), "--deck", "party.txt", "--timer", "45"]
    assert _play(monkeypatch, capsys, " \nc\n", *args, deck=True)[0] == 0
    monkeypatch.chdir(tmp_path)  # another folder: the relative deck path is not here
    code, out, err = _play(monkeypatch, capsys, "", "--resume", "--save", str(save), deck=True)
    assert (code, err) == (0, ""), err  # before: "the saved game used a deck of 3 cards ..."
    assert "45 second timer" in out
    # the live host the same way
    text = _quit_live(save, resume=True, deck=None)
    # the game's own 45 s timer (its status line may come a second after "Go!")
    assert "Resuming the saved game." in text and re.search(r"\b4[45] seconds left", text)
    # an option given on the command line still wins
    code, out, _ = _play(
        monkeypatch, capsys, "", "--resume", "--save", str(save), "--timer", "20", deck=True
    )
    # (not "45" anywhere: the save's folder, pytest-45, once held it)
    assert code == 0 and "20 second timer" in out and "45 second" not in out
    # the deck gone: one line that says which deck, and nothing lost
    (elsewhere / "party.txt").unlink()
    before = save.read_bytes()
    code, out, err = _play(monkeypatch, capsys, "", "--resume", "--save", str(save), deck=True)
    assert code == 2 and err.count("\n") == 1
    assert err == (
        f"voice-host: the saved game was played with the deck {elsewhere / 'party.txt'}, "
        "which is not there now: give --deck with that deck\n"
    )
    assert save.read_bytes() == before


def test_a_turn_paused_in_the_keyboard_game_is_saved_held(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Paused (space, c, space) then quit: the live host resumes it waiting, not at "Go!".
    save = tmp_path / "game.json"
    code, _, _ = _play(monkeypatch, capsys, " \nc\n \nq\ny\n", *_new_args(tmp_path, save))
    assert code == 0
    saved = SavedGame.from_json(save.read_text(encoding="utf-8"))
    assert saved.held and saved.time_left is not None
    # Going on (space) runs the timer again: no longer held.
    code, _, _ = _play(monkeypatch, capsys, " \nc\n", "--resume", "--save", str(save))
    assert code == 0
    assert not SavedGame.from_json(save.read_text(encoding="utf-8")).held


def test_a_held_turn_saved_by_the_keyboard_game_format_resumes_waiting_in_the_live_host(
    tmp_path: Path,
) -> None:
    # The live host's resume reads "held" from the save: a paused turn waits for its
    # describer instead of running at "Go!".
    save = tmp_path / "game.json"
    slot = SaveSlot(save, report=lambda _: None)
    board = board_from_data(json.loads((HOST_DATA / "board.json").read_text()))
    game = Game(parse_teams(TEAMS), board, deck_size=3)  # the test deck's three cards
    game.apply(Correct())
    slot.save(game.to_json(), {"deck": str(HOST_DATA / "deck.txt")}, time_left=21.0, held=True)
    text = _quit_live(save, resume=True)
    assert "Red has one right so far, 21 seconds left." in text
    assert "press space when ready" in text and "Go!" not in text


@pytest.mark.parametrize(
    ("content", "what"),
    [
        ("object: Teapot\nnature: Kangaroo\n", "not JSON"),  # a deck given to --save
        ('{"segments": ["START", "Object", "FINISH"]}', "JSON of something else"),  # a board
    ],
)
def test_a_file_that_never_was_a_save_is_not_taken_for_one(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    content: str,
    what: str,
) -> None:
    # --save my_deck.txt for --deck: the deck was moved aside as "the damaged save
    # file", listed as a kept game, and deleted by 'voice-host saves clean'
    save = tmp_path / "mine.txt"
    save.write_text(content, encoding="utf-8")
    code, out, err = _play(monkeypatch, capsys, " \nc\n", *_new_args(tmp_path, save))
    assert code == 2
    assert err == (
        f"voice-host: the save file {save} is no saved game ({what}): give --save a new "
        "file name, or move that file away\n"
    )
    assert "Welcome" not in out
    assert save.read_text(encoding="utf-8") == content
    assert not list(tmp_path.glob("mine.*.txt"))  # not moved aside as a kept game


def test_keys_from_a_pipe_leave_the_turns_timer_running_and_saving(tmp_path: Path) -> None:
    # Session 59's audit: with keys from a pipe (an IDE's run console, a script) the
    # game waited in the read: no time went by, the turn never ended, and the save
    # kept the full time, so a crash gave the turn all of it back.
    import os
    import subprocess
    import sys
    import threading
    import time

    save = tmp_path / "game.json"
    argv = [sys.executable, "-m", "voice_host", "play", "--keyboard", "--timer", "5"]
    with subprocess.Popen(
        [*argv, *_new_args(tmp_path, save)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=dict(os.environ),
    ) as game:
        assert game.stdin is not None and game.stdout is not None
        lines: list[str] = []
        reading = threading.Thread(target=lambda: lines.extend(game.stdout or ()), daemon=True)
        reading.start()
        try:
            game.stdin.write("\n")  # space: the timer starts, and no key after it
            game.stdin.flush()
            left: list[float] = []
            deadline = time.monotonic() + 30.0
            while not any(line.startswith("Time!") for line in lines):
                assert time.monotonic() < deadline, f"the turn never ended: {lines}"
                with contextlib.suppress(OSError, ValueError):
                    saved = SavedGame.from_json(save.read_text(encoding="utf-8"))
                    if saved.time_left is not None and not saved.held:
                        left.append(saved.time_left)
                time.sleep(0.2)
            assert left and min(left) <= 3.0  # saved as the seconds went by, with no key
            game.stdin.write("q\ny\n")
            game.stdin.flush()
            assert game.wait(20) == 0
        finally:
            if game.poll() is None:
                game.kill()
            reading.join(5)
