"""Atomic saves, their failures, corrupt files, and resuming after a kill."""

from __future__ import annotations

import errno
import json
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from voice_host.errors import InputFileError, SaveError
from voice_host.persist import (
    SAVE_FORMAT,
    SAVE_VERSION,
    SaveClaim,
    SavedGame,
    SaveSlot,
    default_save_path,
    foreign_content,
    save_atomic,
    save_file,
)
from voice_host.rules import Correct, Game, default_board, parse_teams


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_round_trip_resumes_the_same_game(tmp_path: Path) -> None:
    game = Game(parse_teams("Red:Ann,Bob;Blue:Cat,Dan"), default_board(), rng=random.Random(7))
    game.apply(Correct())
    slot = SaveSlot(tmp_path / "state" / "game.json")  # the folder is made on first save
    options = {"teams": "Red:Ann,Bob;Blue:Cat,Dan", "timer": 30.0}
    slot.save(game.to_json(), options)
    saved = slot.load_game()
    assert saved is not None
    assert saved.options == options
    assert saved.saved_at.endswith("Z")
    resumed = Game.from_json(slot.load() or "")
    assert resumed.state == game.state
    data = json.loads((tmp_path / "state" / "game.json").read_text())
    assert (data["format"], data["version"]) == (SAVE_FORMAT, SAVE_VERSION)
    assert leftovers(tmp_path / "state") == []


@pytest.mark.parametrize("length", [240, 250, 255])
def test_a_save_name_as_long_as_the_folder_takes_is_saved_and_claimed(
    tmp_path: Path, length: int
) -> None:
    # session 61's audit: names of 241-255 characters were never saved ("File name too
    # long; none of this game was saved"): the temporary file's name was longer still
    game = Game(parse_teams("Red:Ann,Bob;Blue:Cat,Dan"), default_board(), rng=random.Random(7))
    path = tmp_path / ("g" * (length - 5) + ".json")
    with SaveClaim(path):
        slot = SaveSlot(path)
        slot.save(game.to_json(), {"timer": 30.0})
        assert Game.from_json(slot.load() or "").state == game.state
    assert leftovers(tmp_path) == []
    assert all(len(p.name.encode()) <= 255 for p in tmp_path.iterdir())


def test_no_save_file_loads_as_none(tmp_path: Path) -> None:
    assert SaveSlot(tmp_path / "game.json").load() is None


def test_a_crash_before_the_rename_leaves_the_old_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    save_atomic(path, "old")

    def crash(src: str, dst: str) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(SaveError, match=r"cannot save the game to .*Input/output error"):
        save_atomic(path, "new")
    assert path.read_text() == "old"
    assert leftovers(tmp_path) == []


def test_a_save_keeps_the_permissions_of_the_file_it_replaces(tmp_path: Path) -> None:
    # every save set a save shared with the family (0644) back to 0600: the temporary
    # file is made owner-only (session 54's review).  A new file stays owner-only.
    path = tmp_path / "game.json"
    save_atomic(path, "first")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    save_atomic(path, "second")
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert path.read_text(encoding="utf-8") == "second"


def test_full_disk_is_one_line_and_keeps_the_old_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    save_atomic(path, "old")
    real_write = os.write
    calls = []

    def full(fd: int, data: bytes | memoryview) -> int:
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd, bytes(data)[:10])  # a first short write, as a disk filling up
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(SaveError) as caught:
        save_atomic(path, "x" * 1000)
    assert (
        str(caught.value) == f"cannot save the game to {path}: the disk holding {tmp_path} is full"
    )
    assert "\n" not in str(caught.value)
    assert path.read_text() == "old"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize(
    ("error", "why"),
    [
        (
            OSError(errno.EROFS, "Read-only file system"),
            "is on a read-only file system",
        ),  # ro mount
        (PermissionError(errno.EACCES, "Permission denied"), "is not writable"),  # chmod 0o500
        (OSError(errno.EDQUOT, "Disk quota exceeded"), "quota"),  # a user's quota
    ],
)
def test_unwritable_folder_is_reported(tmp_path: Path, error: OSError, why: str) -> None:
    path = tmp_path / "game.json"
    save_atomic(path, "old")

    def refuse(folder: Path, prefix: str) -> tuple[int, str]:
        raise error

    with pytest.raises(SaveError, match=why):
        save_atomic(path, "new", make_temp=refuse)
    assert path.read_text() == "old"


@pytest.mark.parametrize("save", ["notes.txt/game.json", "notes.txt/saves/game.json"])
def test_a_file_where_the_save_folder_should_be_is_said_plainly(tmp_path: Path, save: str) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(SaveError) as caught:
        save_atomic(tmp_path / save, "new")
    assert str(caught.value).endswith(f"{tmp_path / 'notes.txt'} is a file, not a folder")
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


#: The ids of an ordinary user ("nobody" on Debian), for what root would do regardless.
NOBODY = 65534

#: Run as root: imports voice_host, drops to NOBODY for good, then reads the save (the
#: folder is reached) and saves over it. Prints the old text and the SaveError.
AS_NOBODY = f"""
import os, sys
from pathlib import Path
from voice_host.errors import SaveError
from voice_host.persist import save_atomic
os.setgroups([])
os.setresgid({NOBODY}, {NOBODY}, {NOBODY})
os.setresuid({NOBODY}, {NOBODY}, {NOBODY})
path = Path(sys.argv[1])
print(path.read_text(encoding="utf-8"))
try:
    save_atomic(path, "new")
except SaveError as exc:
    print(exc)
"""


def test_real_read_only_folder(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        # root ignores folder permissions: an ordinary user's process tries the save
        # not under tmp_path (root's own, closed to others), nor under a TMPDIR that may
        # be: /tmp, which every user can reach
        base = Path(tempfile.mkdtemp(dir="/tmp"))
        try:
            base.chmod(0o711)
            folder = base / "ro"
            folder.mkdir()
            save_atomic(folder / "game.json", "old")
            for mine in (folder, folder / "game.json"):
                os.chown(mine, NOBODY, NOBODY)
            folder.chmod(0o500)
            done = subprocess.run(
                [sys.executable, "-c", AS_NOBODY, str(folder / "game.json")],
                capture_output=True,
                text=True,
                check=False,
                timeout=60,
            )
            assert (done.returncode, done.stderr) == (0, "")
            old, error = done.stdout.splitlines()
            assert old == "old"
            assert "not writable" in error
            assert (folder / "game.json").read_text(encoding="utf-8") == "old"
            assert os.listdir(folder) == ["game.json"]  # no temporary file left
        finally:
            shutil.rmtree(base)
        return
    folder = tmp_path / "ro"
    folder.mkdir()
    save_atomic(folder / "game.json", "old")
    folder.chmod(0o500)
    try:
        with pytest.raises(SaveError, match="not writable"):
            save_atomic(folder / "game.json", "new")
    finally:
        folder.chmod(0o700)
    assert (folder / "game.json").read_text() == "old"


def test_autosave_reports_once_and_again_when_it_recovers(tmp_path: Path) -> None:
    reports: list[str] = []
    broken = [True]

    def maybe(folder: Path, prefix: str) -> tuple[int, str]:
        if broken[0]:
            raise OSError(errno.ENOSPC, "No space left on device")
        return tempfile.mkstemp(dir=folder, prefix=prefix, suffix=".tmp")

    slot = SaveSlot(tmp_path / "game.json", report=reports.append, make_temp=maybe)
    assert not slot.autosave("{}")
    assert not slot.autosave("{}")
    assert len(reports) == 1
    # nothing was saved before: no "last good save" to speak of
    assert reports[0].endswith("is full; play goes on, and nothing of this game is saved yet")
    broken[0] = False
    assert slot.autosave('{"n": 1}')
    assert slot.autosave('{"n": 2}')
    assert reports[1] == f"Saving works again: the game is saved to {tmp_path / 'game.json'}"
    assert len(reports) == 2
    assert slot.load() == '{"n": 2}'
    broken[0] = True
    assert not slot.autosave('{"n": 3}')
    assert reports[2].endswith("is full; play goes on, and the last good save is kept")
    assert slot.load() == '{"n": 2}'


def test_a_failing_first_save_over_an_earlier_game_says_that_file_is_not_this_game(
    tmp_path: Path,
) -> None:
    # A read-only folder holding an earlier game's save: "the last good save is
    # kept" read as if this game were safe in it.
    reports: list[str] = []
    (tmp_path / "game.json").write_text("an earlier game")

    def full(folder: Path, prefix: str) -> tuple[int, str]:
        raise OSError(errno.EACCES, "Permission denied")

    slot = SaveSlot(tmp_path / "game.json", report=reports.append, make_temp=full)
    assert not slot.autosave("{}")
    assert reports[0].endswith(
        f"play goes on, and nothing of this game is saved yet ({tmp_path / 'game.json'} "
        "is an earlier game)"
    )


def test_a_failing_save_of_a_resumed_game_keeps_the_file_it_was_resumed_from(
    tmp_path: Path,
) -> None:
    # --resume from a folder since made read-only: the file holds this very game, but
    # the host said it was "an earlier game" and "this game was never saved", which
    # invites a player to delete the one copy of it
    reports: list[str] = []
    SaveSlot(tmp_path / "game.json").save('{"n": 1}')

    def read_only(folder: Path, prefix: str) -> tuple[int, str]:
        raise OSError(errno.EROFS, "Read-only file system")

    slot = SaveSlot(tmp_path / "game.json", report=reports.append, make_temp=read_only)
    assert slot.load() == '{"n": 1}'
    assert not slot.autosave('{"n": 2}')
    assert reports[0].endswith("play goes on, and the last good save is kept")
    assert slot.saved_any  # the goodbye names the file as the last good save


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"{not json", "broken JSON at line 1"),  # half-written by some other program
        (b"[" * 100_000 + b"]" * 100_000, "nested far too deeply"),  # no RecursionError
        (b'{"version": ' + b"9" * 5000 + b"}", "a number far too long"),  # no ValueError
        (b"[1, 2]", "not a voice-host saved game"),  # JSON, but not ours
        (b'{"format": "other"}', "not a voice-host saved game"),  # someone else's file
        (b'{"format": "voice-host-save", "version": 99, "game": "{}"}', "another version"),
        (b'{"format": "voice-host-save", "version": 1}', "no engine state"),  # no game
        (b'{"format": "voice-host-save", "version": 1, "game": "{}", "options": 3}', "garbled"),
        (b"\xff\xfe\x00binary", "not UTF-8"),  # a binary file at that path
    ],
)
def test_corrupt_save_is_a_clear_error_naming_the_file(
    tmp_path: Path, content: bytes, why: str
) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    with pytest.raises(InputFileError) as caught:
        SaveSlot(path).load()
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    assert why in message
    assert "start afresh" in message


def test_saved_game_text_round_trip() -> None:
    saved = SavedGame('{"phase": "turn"}', {"timer": 30}, "2025-01-01T00:00:00Z")
    assert SavedGame.from_json(saved.to_json()) == saved


def test_stale_temporary_files_are_removed_on_load(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_atomic(path, SavedGame("{}").to_json())
    stale = tmp_path / ".game.json.abc123.tmp"
    fresh = tmp_path / ".game.json.def456.tmp"
    stale.write_text("half")
    fresh.write_text("half")
    os.utime(stale, (0, 0))
    SaveSlot(path).load()
    assert leftovers(tmp_path) == [fresh.name]  # a fresh one may belong to a live save


def test_stale_temporary_files_are_removed_by_a_new_games_first_save(tmp_path: Path) -> None:
    # A game started afresh (--teams) never loads the slot: leftovers of games killed
    # mid-save would pile up there, one per crash.
    path = tmp_path / "game.json"
    stale = tmp_path / ".game.json.abc123.tmp"
    fresh = tmp_path / ".game.json.def456.tmp"
    stale.write_text("half")
    fresh.write_text("half")
    os.utime(stale, (0, 0))
    SaveSlot(path).save("{}")
    assert leftovers(tmp_path) == [fresh.name]  # a fresh one may belong to a live save


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"XDG_STATE_HOME": "/state", "HOME": "/home/ann"}, "/state/voice-host/game.json"),
        ({"HOME": "/home/ann"}, "/home/ann/.local/state/voice-host/game.json"),  # no XDG
        ({"XDG_STATE_HOME": "relative", "HOME": "/h"}, "/h/.local/state/voice-host/game.json"),
    ],
)
def test_default_save_path(env: dict[str, str], expected: str) -> None:
    assert default_save_path(env) == Path(expected)


@pytest.mark.parametrize("home", ["", "relative/home"])
def test_an_empty_or_relative_home_is_not_taken_for_one(home: str) -> None:
    # An empty HOME made the save /.local/state/voice-host/game.json (Python reads
    # it as "/"); the user's home from the system is the one meant.
    import pwd

    system_home = Path(pwd.getpwuid(os.getuid()).pw_dir)
    expected = system_home / ".local" / "state" / "voice-host" / "game.json"
    assert default_save_path({"HOME": home}) == expected


def test_a_save_is_written_through_a_link_and_never_over_a_device(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere" / "game.json"
    target.parent.mkdir()
    link = tmp_path / "game.json"
    link.symlink_to(target)
    real = save_file(link)
    save_atomic(real, "saved")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "saved"
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(SaveError, match=r"pipe is not an ordinary file \(a device or a pipe\)"):
        save_file(pipe)
    with pytest.raises(SaveError, match="not an ordinary file"):
        save_file(Path(os.devnull))


def test_a_second_game_on_the_same_save_file_is_refused_until_the_first_lets_go(
    tmp_path: Path,
) -> None:
    save = tmp_path / "state" / "game.json"
    with SaveClaim(save):
        with pytest.raises(SaveError, match="another voice-host game is playing with the save"):
            SaveClaim(save).claim()
        SaveClaim(tmp_path / "other.json").claim()  # another file is free
    with SaveClaim(save):  # let go: free again
        pass


def test_a_save_file_whose_lock_cannot_be_made_is_played_unclaimed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def read_only(*args: object, **kwargs: object) -> int:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr("voice_host.persist.os.open", read_only)
    with SaveClaim(tmp_path / "game.json"), SaveClaim(tmp_path / "game.json"):
        pass  # nothing to hold: the saves themselves will say they fail


def test_a_slot_knows_whether_any_of_its_saves_worked(tmp_path: Path) -> None:
    def full(folder: Path, prefix: str) -> tuple[int, str]:
        raise OSError(errno.ENOSPC, "No space left on device")

    failing = SaveSlot(tmp_path / "game.json", make_temp=full, report=lambda _: None)
    assert not failing.autosave("{}") and not failing.saved_any
    working = SaveSlot(tmp_path / "game.json")
    working.save("{}")
    assert working.saved_any


CHILD = """
import sys
from pathlib import Path
from voice_host.persist import SaveSlot

slot = SaveSlot(Path(sys.argv[1]))
n = 0
while True:
    n += 1
    slot.save('{"n": %d, "pad": "%s"}' % (n, "x" * 200_000), {"n": n})
    if n == 5:
        print("saving", flush=True)
"""


def test_killed_mid_save_loop_leaves_a_valid_save(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "saving\n"  # it is in the middle of saving, over and over
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        if child.stdout is not None:
            child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    saved = SaveSlot(path).load_game()
    assert saved is not None
    state = json.loads(saved.game)
    assert state["n"] >= 5
    assert saved.options == {"n": state["n"]}  # the options belong to the same save


def test_a_new_game_keeps_the_one_saved_before_under_a_name_of_its_own(tmp_path: Path) -> None:
    slot = SaveSlot(tmp_path / "game.json", report=lambda _: None)
    assert slot.keep_previous() is None  # nothing saved: nothing to keep
    kept: list[Path] = []
    for n in range(3):
        slot.save(f'{{"game": {n}}}')
        path = slot.keep_previous()
        assert path is not None and path.parent == tmp_path
        assert not slot.path.exists()  # the slot is free for the new game
        kept.append(path)
    # three games started over a saved one: three kept, none over another
    assert len(set(kept)) == 3
    for n, path in enumerate(kept):
        assert path.name.startswith("game.") and path.suffix == ".json"
        assert SaveSlot(path).load() == f'{{"game": {n}}}'


def test_a_game_that_cannot_be_kept_stops_the_new_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slot = SaveSlot(tmp_path / "game.json", report=lambda _: None)
    slot.save('{"game": 1}')
    before = slot.path.read_bytes()

    def busy(src: object, dst: object) -> None:
        raise OSError(errno.EBUSY, "Device or resource busy")

    monkeypatch.setattr(os, "replace", busy)
    with pytest.raises(SaveError, match=r"cannot keep the game saved at .*game\.json"):
        slot.keep_previous()
    assert slot.path.read_bytes() == before

    def read_only(src: object, dst: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    # a folder nothing can be written to: the old save stays, and no new save can
    # replace it there (autosave says so), so play may go on
    monkeypatch.setattr(os, "replace", read_only)
    assert slot.keep_previous() is None
    assert slot.path.read_bytes() == before


@pytest.mark.parametrize(
    ("content", "what"),
    [
        (b"", None),  # empty: nothing to lose
        (b"{not json", None),  # JSON cut short: perhaps a save, kept aside as damaged
        (b'{"format": "voice-host-save", "version": 1, "game": "', None),  # ours, cut short
        (b"\xef\xbb\xbf# my deck\nobject: Teapot\n", "not JSON"),
        (b"ID3\x03\x00" + bytes(100), "not JSON"),
        (b'{"segments": ["START", "Object", "FINISH"]}', "JSON of something else"),
        (b"[]", "JSON of something else"),  # valid JSON, no save: not called "not JSON"
        (b"null", "JSON of something else"),
        (b"[1, 2", "not JSON"),  # cut short, but no save ever started so
    ],
)
def test_foreign_content_tells_a_players_own_file_from_a_save(
    tmp_path: Path, content: bytes, what: str | None
) -> None:
    path = tmp_path / "file"
    path.write_bytes(content)
    assert foreign_content(path) == what


def test_the_time_of_turns_ended_early_is_saved_and_read_back() -> None:
    saved = SavedGame("{}", {}, "", 12.0, False, {4: 21.34, 9: 3.0})
    assert SavedGame.from_json(saved.to_json()).ended_early == {4: 21.3, 9: 3.0}
    assert "ended_early" not in SavedGame("{}").to_json()  # none: not written


@pytest.mark.parametrize(
    "garbled",
    [
        [1, 2],  # not a mapping
        {"x": 3.0, "-1": 2.0, "4.5": 1.0, "1" * 12: 5.0},  # not input counts
        {"4": "ten", "5": True, "6": -1.0, "7": 1e9, "8": None},  # not seconds
    ],
)
def test_a_garbled_ended_early_loses_only_those_turns_time_back(garbled: object) -> None:
    data = json.loads(SavedGame("{}", time_left=5.0).to_json())
    data["ended_early"] = garbled
    if isinstance(garbled, dict):
        data["ended_early"]["3"] = 20.0  # a good entry beside them
    saved = SavedGame.from_json(json.dumps(data))
    assert saved.time_left == 5.0  # the game itself is read as before
    assert saved.ended_early == ({3: 20.0} if isinstance(garbled, dict) else {})
