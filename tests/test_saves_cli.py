"""`voice-host saves`: the game in progress and the games kept when new ones started,
listed with what each holds and how to resume it; removed by name or all at once."""

from __future__ import annotations

import io
import json
import os
import random
import re
from pathlib import Path

import pytest

from voice_host import cli
from voice_host.commands import play as play_command
from voice_host.keyboard import card_label
from voice_host.persist import SaveClaim, SaveSlot
from voice_host.rules import Game, board_from_data, parse_teams

BOARD = ["START", "Object", "Nature", "Action", "World", "FINISH"]


@pytest.fixture(autouse=True)
def _own_state(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Default saves go to this test's folder, and no config file of the user's is read."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def _game(teams: str, *inputs: str) -> Game:
    game = Game(parse_teams(teams), board_from_data(BOARD), rng=random.Random(1))
    for text in inputs:
        game.apply_text(text)
    return game


def _save(path: Path, game: Game, options: dict[str, object] | None = None) -> None:
    SaveSlot(path).save(game.to_json(), options or {})


def _saves(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(["saves", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_no_saved_games_says_where_it_looked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = _saves(capsys)
    default = tmp_path / "state" / "voice-host" / "game.json"
    assert (code, err) == (0, "")
    assert out == f"No saved games: nothing at {default}.\n"


def test_lists_the_game_in_progress_then_the_kept_ones_with_how_to_resume_each(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    older = tmp_path / "game.2026-12-01-2030.json"
    # Red guessed two and timed out: Red on segment 2 (Nature); Blue to play from START.
    _save(older, _game("Red:Ann,Bob;Blue:Cat,Dan", "correct", "correct", "time-up"))
    os.utime(older, (1_000_000, 1_000_000))
    deck = tmp_path / "kids.txt"
    deck.write_text("a deck", encoding="utf-8")  # only its being there is looked at
    _save(save, _game("Gold:Eve,Fay;Teal:Gus,Hal;Plum:Ivy,Jo"), {"deck": str(deck)})
    code, out, err = _saves(capsys, "--save", str(save))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "The game in progress:"
    assert lines[1] == f"  {save}"
    assert lines[2].endswith(": Gold's turn 1, Object") and lines[2].startswith("    saved 20")
    assert lines[3] == "    Gold on START, Teal on START, Plum on START"
    assert lines[4] == f"    deck {deck}"
    assert lines[5] == f"    resume: voice-host play --resume --save {save}"
    assert lines[6] == "Kept when a new game started (1, newest first):"
    assert lines[7] == f"  {older}"
    assert lines[8].endswith(": Blue's turn 2, Object")
    assert lines[9] == "    Red on 2 of 5, Blue on START"
    assert lines[10] == f"    resume: voice-host play --resume --save {older}"
    assert "voice-host saves clean" in lines[11]


def test_a_game_whose_deck_is_gone_says_so_and_how_to_resume_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    gone = tmp_path / "gone.txt"
    _save(save, _game("Red:Ann,Bob;Blue:Cat,Dan"), {"deck": str(gone)})
    _, out, _ = _saves(capsys, "--save", str(save))
    assert f"    deck {gone}, which is not there now: resume with --deck DECK" in out.splitlines()
    _, out, _ = _saves(capsys, "--save", str(save), "--json")
    assert json.loads(out)["deck_gone"] is True


def test_the_default_slot_resumes_without_save_and_kept_games_always_name_theirs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "state" / "voice-host"
    _save(folder / "game.json", _game("Red:Ann,Bob;Blue:Cat,Dan", "correct"))
    kept = folder / "game.2026-11-30-0900.json"
    _save(kept, _game("Red:Ann,Bob;Blue:Cat,Dan"))
    code, out, _ = _saves(capsys, "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["kept"] for r in rows] == [False, True]
    assert rows[0]["resume"] == "voice-host play --resume"
    assert rows[1]["resume"] == f"voice-host play --resume --save {kept}"
    assert rows[0]["teams"] == [{"name": "Red", "segment": 0}, {"name": "Blue", "segment": 0}]
    assert rows[0]["where"] == "Red's turn 1, Object, 1 correct so far"
    assert rows[0]["finish"] == 5
    assert rows[0]["problem"] is None
    # a turn cut short while its timer ran: the time it goes on with is listed too
    SaveSlot(folder / "game.json").save(
        _game("Red:Ann,Bob;Blue:Cat,Dan", "correct").to_json(), {}, time_left=13.2
    )
    code, out, _ = _saves(capsys, "--json")
    assert (
        json.loads(out.splitlines()[0])["where"]
        == "Red's turn 1, Object, 1 correct so far, 14 seconds left"
    )


def test_a_damaged_kept_file_is_listed_with_why_not_a_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    (tmp_path / "game.2026-01-01-0000.json").write_text("{not json")
    (tmp_path / "game.2026-01-02-0000.json").write_bytes(b"\xff\xfe\x00")
    forged = json.loads(_save_text(_game("Red:Ann,Bob;Blue:Cat,Dan", "correct")))
    inner = json.loads(forged["game"])
    inner["state"]["correct"] = 3  # the history no longer leads to the saved state
    forged["game"] = json.dumps(inner)
    (tmp_path / "game.2026-01-03-0000.json").write_text(json.dumps(forged))
    code, out, err = _saves(capsys, "--save", str(save))
    assert (code, err) == (0, "")
    assert "No game in progress at" in out and "Traceback" not in out
    problems = [line.strip() for line in out.splitlines() if "cannot be resumed" in line]
    assert sorted(problems) == [
        "cannot be resumed: not a saved game (broken JSON at line 1)",
        "cannot be resumed: not a saved game (not UTF-8 text)",
        "cannot be resumed: saved state does not match its input history",
    ]
    assert out.count("resume: voice-host play") == 0


def _save_text(game: Game) -> str:
    from voice_host.persist import SavedGame

    return SavedGame(game.to_json(), {}, "2026-01-03T00:00:00Z").to_json()


def test_remove_takes_only_listed_files_and_removes_nothing_on_a_typo(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    kept = tmp_path / "game.2026-11-30-0900.json"
    _save(save, _game("Red:Ann,Bob;Blue:Cat,Dan"))
    _save(kept, _game("Red:Ann,Bob;Blue:Cat,Dan"))
    other = tmp_path / "notes.json"
    other.write_text("{}")
    code, out, err = _saves(capsys, "--save", str(save), "remove", str(kept), str(other))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err == (
        f"voice-host: {other} is not a saved game listed by 'voice-host saves' (nothing removed)\n"
    )
    assert kept.is_file() and other.is_file() and save.is_file()
    code, out, err = _saves(capsys, "--save", str(save), "remove", str(kept))
    assert (code, err) == (0, "") and out == f"Removed the kept game {kept}\n"
    assert not kept.exists() and save.is_file()
    # --json, which the help offers for remove too, was ignored (session 54's audit)
    _save(kept, _game("Red:Ann,Bob;Blue:Cat,Dan"))
    code, out, err = _saves(capsys, "--save", str(save), "remove", "--json", str(kept))
    assert (code, err) == (0, "")
    assert json.loads(out) == {"removed": str(kept), "kept": True}


def test_remove_refuses_the_save_of_a_game_being_played(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # it deleted a running game's save, which that game wrote again at its next change
    # (session 54's audit): a game playing holds its file, as a second game finds
    save = tmp_path / "game.json"
    kept = tmp_path / "game.2026-11-30-0900.json"
    _save(save, _game("Red:Ann,Bob;Blue:Cat,Dan"))
    _save(kept, _game("Red:Ann,Bob;Blue:Cat,Dan"))
    with SaveClaim(save):  # as a game playing with it holds it
        code, out, err = _saves(capsys, "--save", str(save), "remove", str(kept), str(save))
    assert (code, out) == (2, "")
    assert err == (
        f"voice-host: a voice-host game is playing with {save}: quit that game first "
        "(nothing removed)\n"
    )
    assert save.is_file() and kept.is_file()
    code, out, err = _saves(capsys, "--save", str(save), "remove", str(save))  # it has quit
    assert (code, err) == (0, "") and not save.exists()
    # a kept game resumed with --save is held so too: clean leaves it (and says why)
    with SaveClaim(kept):
        code, out, err = _saves(capsys, "--save", str(save), "clean")
    assert code == 2 and "a voice-host game is playing with" in err and kept.is_file()
    code, out, err = _saves(capsys, "--save", str(save), "clean")
    assert code == 0 and not kept.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no lock file left behind


def test_clean_removes_every_kept_game_and_leaves_the_game_in_progress(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    _save(save, _game("Red:Ann,Bob;Blue:Cat,Dan", "correct"))
    kept = [tmp_path / f"game.2026-11-{day}-0900.json" for day in (28, 29, 30)]
    for path in kept:
        path.write_text("damaged or not, a kept game goes")
    (tmp_path / "game-notes.json").write_text("not ours")
    code, out, _ = _saves(capsys, "--save", str(save), "clean")
    assert code == 0 and out.count("Removed the kept game") == 3
    assert not any(p.exists() for p in kept)
    assert save.is_file() and (tmp_path / "game-notes.json").is_file()
    code, out, _ = _saves(capsys, "--save", str(save), "clean")
    assert (code, out) == (0, f"No kept games beside {save}.\n")


def test_a_config_file_names_the_save_file_as_for_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "elsewhere" / "party.json"
    _save(save, _game("Red:Ann,Bob;Blue:Cat,Dan"))
    config = tmp_path / "host.toml"
    config.write_text(f'save = "{save}"\n')
    code, out, _ = _saves(capsys, "--config", str(config))
    assert code == 0 and out.splitlines()[1] == f"  {save}"


def test_games_a_player_started_over_are_listed_and_resumed_by_the_command_shown(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board = tmp_path / "board.json"
    board.write_text(json.dumps(BOARD))
    monkeypatch.setattr(play_command, "_deck_entries", lambda config, write, env: (card_label, 500))
    new = ["play", "--keyboard", "--teams", "Red:Ann,Bob;Blue:Cat,Dan", "--first", "Red"]
    new += ["--board", str(board)]
    for keys in (" \nc\nc\n", " \nc\n", " \n"):  # three games, each started over the last
        monkeypatch.setattr("sys.stdin", io.StringIO(keys))
        assert cli.main(new) == 0
    capsys.readouterr()
    code, out, _ = _saves(capsys, "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["kept"] for r in rows] == [False, True, True]
    # each stopped in its turn, with the time left on the timer (30 s, less a moment)
    wheres = [re.fullmatch(r"(.*), (30|29) seconds left", r["where"]) for r in rows]
    assert all(wheres), [r["where"] for r in rows]
    assert [m.group(1) for m in wheres if m] == [  # newest first
        "Red's turn 1, Object",
        "Red's turn 1, Object, 1 correct so far",
        "Red's turn 1, Object, 2 correct so far",
    ]
    slot = SaveSlot(Path(rows[0]["path"]))
    oldest = Path(rows[2]["path"])
    assert rows[2]["resume"] == f"voice-host play --resume --save {oldest}"
    monkeypatch.setattr("sys.stdin", io.StringIO("q\ny\n"))
    assert cli.main([*rows[2]["resume"].split()[1:], "--keyboard"]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith("Resuming the saved game.")
    resumed = SaveSlot(oldest).load_game()
    assert resumed is not None and Game.from_json(resumed.game).state.correct == 2
    current = slot.load_game()
    assert current is not None and Game.from_json(current.game).state.correct == 0


def test_resume_with_no_game_in_progress_names_the_newest_kept_and_points_to_the_list(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    kept = [tmp_path / f"game.2026-11-{day}-0900.json" for day in (29, 30)]
    for stamp, path in enumerate(kept, start=1):
        _save(path, _game("Red:Ann,Bob;Blue:Cat,Dan"))
        os.utime(path, (stamp * 1000, stamp * 1000))
    code = cli.main(["play", "--keyboard", "--resume", "--save", str(save)])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1
    assert err.rstrip().endswith(
        f"the newest of the 2 games kept when new ones started: "
        f"voice-host play --resume --save {kept[1]} ('voice-host saves' lists them all)"
    )


def test_when_a_game_was_saved_is_said_as_a_person_would_say_it() -> None:
    from datetime import UTC, datetime

    from voice_host.host.saved_game import spoken_time

    now = datetime(2026, 12, 4, 22, 0, tzinfo=UTC)
    assert spoken_time("2026-12-04T21:30:00Z", now) == "today at 21:30"
    assert spoken_time("2026-12-03T09:05:00Z", now) == "yesterday at 09:05"
    assert spoken_time("2026-12-01T20:04:00Z", now) == "on 1 December at 20:04"
    assert spoken_time("2025-12-01T20:04:00Z", now) == "on 1 December 2025 at 20:04"
    assert spoken_time("", now) == "" and spoken_time("last tuesday", now) == ""


def test_only_a_game_that_can_be_resumed_is_offered(tmp_path: Path) -> None:
    from voice_host.host.saved_game import saved_offer

    save = tmp_path / "game.json"
    assert saved_offer(save) == ""  # nothing saved
    save.write_text("{not json")
    assert saved_offer(save) == ""  # damaged: a new game moves it aside and says so
    _save(save, _game("Red:Ann,Bob;Blue:Cat,Dan", "correct", "correct", "time-up"))
    offer = saved_offer(save)
    assert offer.startswith("Blue's turn 2, Object; Red on 2 of 5, Blue on START; saved today at")


def test_the_save_option_may_come_after_the_action(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    for argv in (["saves", "clean", "--save", str(save)], ["saves", "--save", str(save), "clean"]):
        assert cli.main(argv) == 0
        assert capsys.readouterr().out == f"No kept games beside {save}.\n"
