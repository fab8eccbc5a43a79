"""Saving the game so that a crash, Ctrl-C or power loss loses at most the judgement in progress.

Every save is atomic: the text goes to a temporary file in the same folder,
is flushed and synced to the disk, and only then renamed over the old save
(``os.replace`` is atomic on POSIX and Windows), after which the folder itself
is synced so the rename survives a power cut.  Whatever fails on the way (a full
disk, a read-only folder), the previous save is left as it was and the failure
is one :class:`SaveError` line.

A save file is JSON::

    {"format": "voice-host-save", "version": 1, "saved_at": "2025-...Z",
     "options": {...}, "game": "<Game.to_json() text, kept opaque>",
     "time_left": 12.3}

``time_left`` (optional) is what the turn in progress had left on its timer,
saved with every change and every second of a running turn, so that a
resumed turn goes on with its own time rather than a fresh one; ``held``
(optional, true) says that turn was paused or waiting for its describer, so
that it comes back waiting rather than running.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import hashlib
import json
import os
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from voice_host.errors import InputFileError, SaveError, file_in_the_way

#: What the ``format`` field of every save file says.
SAVE_FORMAT = "voice-host-save"
#: The layout version this code writes and reads.
SAVE_VERSION = 1
#: Seconds after which a leftover temporary file (from a process killed mid-save) is removed.
STALE_TEMP_AGE = 60.0

#: Makes the temporary file next to the save: ``(folder, prefix) -> (fd, path)``.
TempMaker = Callable[[Path, str], tuple[int, str]]


def default_save_path(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_STATE_HOME/voice-host/game.json``, else ``~/.local/state/voice-host/game.json``
    (an empty or relative ``HOME`` is not a home: the user's own from the system is)."""
    env = os.environ if env is None else env
    state = env.get("XDG_STATE_HOME", "").strip()
    if state and Path(state).is_absolute():
        base = Path(state)
    else:
        home = env.get("HOME", "").strip()
        base = (Path(home) if Path(home).is_absolute() else _system_home()) / ".local" / "state"
    return base / "voice-host" / "game.json"


def _system_home() -> Path:
    """The user's home folder as the system records it (``HOME`` aside)."""
    try:
        import pwd

        return Path(pwd.getpwuid(os.getuid()).pw_dir)
    except (ImportError, KeyError, AttributeError):
        return Path.home()


def save_file(path: Path) -> Path:
    """The file a save to ``path`` writes: through a symbolic link to the file it
    names (a save replaces the file, and would otherwise replace the link).

    Raises :class:`SaveError` when ``path`` is there but is no ordinary file (a
    device such as ``/dev/null``, a pipe): every save would replace it; when a file
    stands where a folder above it should be (no save could be written); and when it
    holds something that never was a saved game (:func:`foreign_content`).  A
    folder is the caller's to refuse (it says which file in it to give)."""
    real = Path(os.path.realpath(path)) if path.is_symlink() else path
    if (blocking := file_in_the_way(real.parent)) is not None:
        raise SaveError(f"the save file {path} cannot be made: {blocking} is a file, not a folder")
    if real.exists() and not real.is_file() and not real.is_dir():
        raise SaveError(
            f"the save file {path} is not an ordinary file (a device or a pipe): give --save a file"
        )
    what = foreign_content(real) if real.is_file() else None
    if what is not None:
        raise SaveError(
            f"the save file {path} is no saved game ({what}): give --save a new file name, "
            "or move that file away"
        )
    return real


#: How much of a file :func:`foreign_content` reads to tell a save from anything else.
_SNIFF_BYTES = 1_000_000


def foreign_content(path: Path) -> str | None:
    """What the file at ``path`` holds when it never was a saved game (a player's
    deck, board or notes given to ``--save`` by mistake), or None: a save, or what
    may be one damaged (JSON cut short), or an empty file.  A new game would move
    such a file aside as "damaged", and ``voice-host saves clean`` delete it."""
    try:
        with path.open("rb") as file:
            head = file.read(_SNIFF_BYTES + 1)
    except OSError:
        return None  # unreadable: the save itself says why
    text = head.removeprefix(b"\xef\xbb\xbf").strip()
    if not text or f'"{SAVE_FORMAT}"'.encode() in head:
        return None
    if len(head) > _SNIFF_BYTES:
        return "over 1 MB of something else"
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        # JSON cut short: perhaps a save, kept aside as damaged
        return None if text.startswith(b"{") else "not JSON"
    return "JSON of something else"


class SaveClaim:
    """This process's hold on a save file while it plays the game there: a second
    game given the same file is refused rather than let the two overwrite each
    other's saves.  An advisory lock (``flock``) on a hidden file next to the save,
    released when the game ends or the process dies; where none can be taken (a
    read-only folder, a system without ``flock``) the game goes on unclaimed, and its
    saves would fail there anyway."""

    def __init__(self, path: Path) -> None:
        self.path = path
        """The save file claimed."""
        self._fd: int | None = None

    def __enter__(self) -> SaveClaim:
        self.claim()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    @staticmethod
    def lock_path(path: Path) -> Path:
        """The hidden lock file beside the save file ``path``."""
        return path.with_name(_hidden_name(path, ".lock"))

    def claim(self) -> None:
        """Take the hold; :class:`SaveError` when another game holds it."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX
            return
        lock = self.lock_path(self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise SaveError(
                    f"another voice-host game is playing with the save file {self.path}: "
                    "finish or quit that one, or give this one --save with another file"
                ) from None
            return  # a file system without locks: unclaimed
        self._fd = fd

    def release(self) -> None:
        """Let the save file go (closing the lock file releases the lock)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _make_temp(folder: Path, prefix: str) -> tuple[int, str]:
    return tempfile.mkstemp(dir=folder, prefix=prefix, suffix=".tmp")


#: The longest file name most file systems take (bytes).
NAME_MAX = 255


def _hidden_name(path: Path, ending: str, room: int = 0) -> str:
    """``.NAME`` + ``ending`` beside the save file, shortened (with a hash of the
    name) when it and ``room`` more characters would pass :data:`NAME_MAX`: a save
    name of 241-255 characters could never be saved, its temporary file's name
    being too long."""
    name = f".{path.name}{ending}"
    if len(name.encode()) + room <= NAME_MAX:
        return name
    digest = hashlib.sha256(path.name.encode()).hexdigest()[:16]
    keep = path.name.encode()[: NAME_MAX - room - len(ending) - 40].decode(errors="ignore")
    return f".{keep}~{digest}{ending}"


def _temp_prefix(path: Path) -> str:
    # mkstemp adds 8 characters and ".tmp"
    return _hidden_name(path, ".", room=12)


def _why(exc: OSError, path: Path) -> str:
    folder = path.parent
    if exc.errno == errno.ENOSPC:
        return f"the disk holding {folder} is full"
    if exc.errno == errno.EDQUOT:
        return f"the disk quota for {folder} is used up"
    if exc.errno == errno.EROFS:
        return f"the folder {folder} is on a read-only file system"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"the folder {folder} is not writable (permission denied)"
    if exc.errno in (errno.EEXIST, errno.ENOTDIR) and (blocking := file_in_the_way(folder)):
        return f"{blocking} is a file, not a folder"  # rather than "File exists"
    return exc.strerror or str(exc)


def said_why(exc: OSError) -> str:
    """Why a save failed in a few plain words to say to the table ("the disk is full"),
    or '' when there are none: the line of :class:`SaveError` names the file and its
    folder, which mean nothing to players listening to the host."""
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    if exc.errno == errno.EDQUOT:
        return "the space allowed on the disk is used up"
    if exc.errno == errno.EROFS:
        return "the disk is read-only"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "I am not allowed to write there"
    return ""


def unsaved_said(why: str) -> str:
    """A save that failed, said aloud: "I could not save the game: the disk is full."
    (``why`` from :func:`said_why`; '' leaves the reason to the printed line)."""
    return f"I could not save the game: {why}." if why else "I could not save the game."


def _keep_mode(fd: int, path: Path) -> None:
    """Give the new file the permissions of the save it replaces: the temporary file
    is made readable by its owner alone, and every save set a shared save back so
    (session 54's review).  A new save keeps the owner-only mode."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return
    with contextlib.suppress(OSError):
        os.fchmod(fd, mode)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # some systems cannot open a folder; the rename itself is still atomic
    try:
        os.fsync(fd)
    except OSError as exc:
        # Folders on some file systems refuse fsync; that is not a failed save.
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)


def save_atomic(path: Path, data: str, *, make_temp: TempMaker = _make_temp) -> None:
    """Replace ``path`` with ``data`` (UTF-8) atomically and durably.

    Raises :class:`SaveError` (one line: what and why) when the folder cannot be made or
    written, the disk is full, or the sync fails; ``path`` is then left as it was and no
    temporary file remains.
    """
    folder = path.parent
    temp: str | None = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temp = make_temp(folder, _temp_prefix(path))
        try:
            _write_all(fd, data.encode("utf-8"))
            _keep_mode(fd, path)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
        temp = None
        _sync_folder(folder)
    except OSError as exc:
        failed = SaveError(f"cannot save the game to {path}: {_why(exc, path)}")
        failed.errno = exc.errno  # for the reason said aloud (:func:`said_why`)
        raise failed from None
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)


def _seconds(value: object) -> bool:
    """Whether ``value`` reads as a timer's seconds (a number from 0 to under 1e6)."""
    return not isinstance(value, bool) and isinstance(value, int | float) and 0 <= value < 1e6


@dataclass(frozen=True)
class SavedGame:
    """What the host needs to resume: the engine's state and the options it was played with."""

    game: str
    """The engine's ``Game.to_json()`` text, kept as it is (opaque here)."""
    options: dict[str, Any] = field(default_factory=dict)
    """The play options (``HostConfig.to_data()``), JSON-ready."""
    saved_at: str = ""
    """When it was saved, ISO 8601 in UTC (for the player's information only)."""
    time_left: float | None = None
    """Seconds the turn in progress had left on its timer, or None when no turn's timer
    had started (between turns, or before "Go!")."""
    held: bool = False
    """Whether the turn in progress was paused, or waiting for its describer to start
    it: resumed, it waits again rather than running."""
    ended_early: dict[int, float] = field(default_factory=dict)
    """The seconds a turn had left when T or a foul (``foul-penalty=end-turn``) ended it,
    by the number of inputs the game had then: undoing that input after a resume gives
    the turn that time back, as it does without one."""

    def to_json(self) -> str:
        """The save file's text."""
        data: dict[str, Any] = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "saved_at": self.saved_at,
            "options": self.options,
            "game": self.game,
        }
        if self.time_left is not None:
            data["time_left"] = round(self.time_left, 1)
        if self.held:
            data["held"] = True
        if self.ended_early:
            data["ended_early"] = {str(n): round(s, 1) for n, s in self.ended_early.items()}
        return json.dumps(data, indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, text: str, source: Path | str = "save file") -> SavedGame:
        """Parse a save file's text; :class:`InputFileError` naming ``source`` if it is not one."""

        def bad(why: str) -> InputFileError:
            return InputFileError(
                f"{source}: {why}; move it away (or use --save with another file) to start afresh"
            )

        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise bad(f"not a saved game (broken JSON at line {exc.lineno})") from None
        except RecursionError:
            raise bad("not a saved game (JSON nested far too deeply)") from None
        except ValueError:  # a number of thousands of digits, past Python's limit
            raise bad("not a saved game (a number far too long)") from None
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise bad("not a voice-host saved game")
        if data.get("version") != SAVE_VERSION:
            raise bad(
                f"saved by another version (layout {data.get('version')!r}, not {SAVE_VERSION})"
            )
        game, options, saved_at = (
            data.get("game"),
            data.get("options", {}),
            data.get("saved_at", ""),
        )
        if not isinstance(game, str) or not game:
            raise bad("the saved game has no engine state")
        if not isinstance(options, dict) or not isinstance(saved_at, str):
            raise bad("the saved game's options are garbled")
        left = data.get("time_left")
        if not _seconds(left):
            left = None  # a timer reading is not worth losing the game over: the full turn
        held = data.get("held") is True  # anything else: a running turn, as before
        early = data.get("ended_early")
        ended_early = {
            int(n): float(s)
            for n, s in (early.items() if isinstance(early, dict) else ())
            if isinstance(n, str) and n.isdecimal() and len(n) < 10 and _seconds(s)
        }  # a garbled entry only loses that turn's time back, not the game
        return cls(
            game, options, saved_at, None if left is None else float(left), held, ended_early
        )


class SaveSlot:
    """One save file: written atomically after every change, read once to resume.

    ``save`` raises :class:`SaveError`; ``autosave`` reports a failure once through
    ``report`` (and once more when saving works again) and lets play go on.  When
    ``notify`` is given it is told that news instead, as plain words to say aloud
    (:func:`unsaved_said`: no file names, no system error text) and the line that
    ``report`` would have had, to print or show for a player who reads it.
    """

    def __init__(
        self,
        path: Path,
        *,
        report: Callable[[str], None] = print,
        make_temp: TempMaker = _make_temp,
        now: Callable[[], float] = time.time,
        notify: Callable[[str, str], None] | None = None,
    ) -> None:
        self.path = path
        """The save file."""
        self._report = report
        self._notify = notify
        self._make_temp = make_temp
        self._now = now
        self._lock = threading.Lock()
        self._failing = False
        self.failure: str | None = None
        """Why the last :meth:`autosave` failed; None when it saved."""
        self.failure_said = ""
        """That reason in plain words to say (:func:`said_why`), or '' when there are none."""
        self.saved_any = False
        """Whether this slot has saved anything yet, or read the game it resumes
        (when neither, the file there, if any, holds another game)."""

    def save(
        self,
        state_json: str,
        options: Mapping[str, Any] | None = None,
        *,
        time_left: float | None = None,
        held: bool = False,
        ended_early: Mapping[int, float] | None = None,
    ) -> None:
        """Save the engine's JSON, the options and the running turn's time left (and
        whether it is ``held``: paused or waiting; ``ended_early``: see
        :attr:`SavedGame.ended_early`); :class:`SaveError` if it cannot."""
        stamp = datetime.fromtimestamp(self._now(), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        saved = SavedGame(
            state_json, dict(options or {}), stamp, time_left, held, dict(ended_early or {})
        )
        with self._lock:
            if not self.saved_any:  # a new game never loads: its first save tidies up
                self._remove_stale_temps()
            save_atomic(self.path, saved.to_json(), make_temp=self._make_temp)
            self.saved_any = True

    def autosave(
        self,
        state_json: str,
        options: Mapping[str, Any] | None = None,
        *,
        time_left: float | None = None,
        held: bool = False,
        ended_early: Mapping[int, float] | None = None,
    ) -> bool:
        """Like :meth:`save`, but a failure is reported once and play goes on; True if saved."""
        try:
            self.save(state_json, options, time_left=time_left, held=held, ended_early=ended_early)
        except SaveError as exc:
            self.failure = str(exc)
            self.failure_said = said_why(exc)
            if not self._failing:
                self._failing = True
                if self.saved_any:
                    kept = "the last good save is kept"
                    said = "Play goes on, and the last save is kept"
                elif self.path.exists():  # another game's, that could not be moved aside
                    kept = f"nothing of this game is saved yet ({self.path} is an earlier game)"
                    said = "Play goes on, but nothing of this game is saved yet"
                else:
                    kept = "nothing of this game is saved yet"
                    said = "Play goes on, but nothing of this game is saved yet"
                self.tell(
                    f"{unsaved_said(self.failure_said)} {said}; I will try again at the next "
                    "change.",
                    f"{exc}; play goes on, and {kept}",
                )
            return False
        self.failure = None
        self.failure_said = ""
        if self._failing:
            self._failing = False
            self.tell(
                "Saving works again: the game is saved.",
                f"Saving works again: the game is saved to {self.path}",
            )
        return True

    @property
    def notifies(self) -> bool:
        """Whether news of the saves is told in plain words as well (``notify``)."""
        return self._notify is not None

    def tell(self, said: str, line: str) -> None:
        """Report news of the saves: ``line`` to ``report``, or both forms (``said``
        in plain words) to ``notify``."""
        if self._notify is None:
            self._report(line)
        else:
            self._notify(said, line)

    def load_game(self) -> SavedGame | None:
        """The saved game, or None when there is no save file.

        Raises :class:`InputFileError` naming the file when it is not a valid save, and
        :class:`SaveError` when it cannot be read.  Removes temporary files left by a
        process killed in the middle of saving.
        """
        self._remove_stale_temps()
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except UnicodeDecodeError:
            raise InputFileError(
                f"{self.path}: not a saved game (not UTF-8 text); move it away to start afresh"
            ) from None
        except OSError as exc:
            raise SaveError(f"cannot read the saved game {self.path}: {exc.strerror}") from None
        saved = SavedGame.from_json(text, self.path)
        # read to be resumed: the file holds this very game, as of now, so a save
        # that fails from here on keeps it as the last good one (it is no "earlier
        # game" that nothing of this one reached, which a player might delete)
        self.saved_any = True
        return saved

    def load(self) -> str | None:
        """The saved engine JSON, or None when there is no save file (see :meth:`load_game`)."""
        saved = self.load_game()
        return None if saved is None else saved.game

    def previous_path(self) -> Path:
        """A free name next to the save for the game a new one replaces, after when
        that game was last saved: ``game.2026-12-04-0058.json`` for ``game.json``
        (``-2``, ``-3`` ... after it when taken), so no kept game is ever overwritten."""
        try:
            stamp = self.path.stat().st_mtime
        except OSError:
            stamp = self._now()
        when = datetime.fromtimestamp(stamp).strftime("%Y-%m-%d-%H%M")  # the local clock
        base = f"{self.path.stem}.{when}"
        candidate = self.path.with_name(f"{base}{self.path.suffix}")
        number = 2
        while candidate.exists():
            candidate = self.path.with_name(f"{base}-{number}{self.path.suffix}")
            number += 1
        return candidate

    def kept_games(self) -> list[Path]:
        """The games :meth:`keep_previous` kept next to the save, newest first."""
        pattern = (
            f"{glob.escape(self.path.stem)}.[0-9][0-9][0-9][0-9]-*{glob.escape(self.path.suffix)}"
        )
        try:
            found = [(p.stat().st_mtime, p) for p in self.path.parent.glob(pattern) if p.is_file()]
        except OSError:
            return []
        return [p for _, p in sorted(found, key=lambda item: (-item[0], str(item[1])))]

    def keep_previous(self) -> Path | None:
        """Before a new game takes the slot: move what is saved there (a game in
        progress, or a damaged file) to a name of its own (:meth:`previous_path`) and
        return that path; None when the slot is empty.

        In a folder that cannot be written (read-only, no permission) the old save
        stays where it is, and None is returned: no new save can replace it there
        either, and :meth:`autosave` says so once while play goes on.  Any other
        failure raises :class:`SaveError`: the new game must not start and overwrite it.
        """
        with self._lock:
            if not self.path.is_file():
                return None
            kept = self.previous_path()
            try:
                os.replace(self.path, kept)
                _sync_folder(self.path.parent)
            except OSError as exc:
                if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                    return None
                raise SaveError(
                    f"cannot keep the game saved at {self.path} ({_why(exc, kept)}): "
                    "resume it with --resume, or use --save with another file"
                ) from None
            return kept

    def discard(self) -> None:
        """Remove the save (the game is over); a missing file is fine."""
        try:
            self.path.unlink(missing_ok=True)
        except OSError as exc:
            raise SaveError(f"cannot remove the saved game {self.path}: {exc.strerror}") from None

    def _remove_stale_temps(self) -> None:
        prefix = _temp_prefix(self.path)
        cutoff = self._now() - STALE_TEMP_AGE
        try:
            leftovers = [
                p
                for p in self.path.parent.glob(f"{glob.escape(prefix)}*.tmp")
                if p.stat().st_mtime < cutoff
            ]
        except OSError:
            return
        for leftover in leftovers:
            with contextlib.suppress(OSError):
                leftover.unlink()
