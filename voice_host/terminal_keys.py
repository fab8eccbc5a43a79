"""The terminal: keys one at a time, or lines, and the typed set-up prompts.

On a terminal keys are read one at a time (cbreak mode, restored on exit); an
arrow or function key comes back whole, by name.  When stdin is not a terminal
(a pipe, a test) it is read line by line: every non-blank character of a line
is one key and an empty line is Enter, so a whole game can be scripted; a pipe or
a file is read on a thread, so the game's clock goes on between lines.  The
prompts ask for the teams, the team that starts and whether to go on with a
saved game.  Used by the keyboard game (:mod:`voice_host.keyboard.terminal`),
the live host (:mod:`voice_host.host.live`) and its set-up
(:mod:`voice_host.host.setup_live`).

Job control is the terminal's too: :class:`Suspension` takes Ctrl-Z (SIGTSTP) for a
game's loop, which pauses the turn before the process stops, and
:func:`silence_lost_terminal` points output at ``/dev/null`` once the terminal has hung
up (SIGHUP), so that saving and leaving do not fail on writes nobody can read.
"""

from __future__ import annotations

import errno
import os
import queue
import random
import select
import signal
import termios
import threading
import tty
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Any, Protocol, TextIO

from voice_host.errors import UsageError
from voice_host.rules import MIN_PLAYERS, MIN_TEAMS, Team, validate_teams
from voice_host.rules.teams import name_key, name_problem, tidy_name

#: Seconds to wait for the next byte of a key that sends several (an arrow's escape
#: sequence, a UTF-8 character): a terminal writes them together.
SEQUENCE_WAIT = 0.05
#: Key names of escape sequences (what follows ESC [ or ESC O), as textual names them.
SEQUENCE_NAMES = {
    "A": "up",
    "B": "down",
    "C": "right",
    "D": "left",
    "H": "home",
    "F": "end",
    "1~": "home",
    "2~": "insert",
    "3~": "delete",
    "4~": "end",
    "5~": "pageup",
    "6~": "pagedown",
    "P": "f1",
    "Q": "f2",
    "R": "f3",
    "S": "f4",
    "15~": "f5",
    "17~": "f6",
    "18~": "f7",
    "19~": "f8",
    "20~": "f9",
    "21~": "f10",
    "23~": "f11",
    "24~": "f12",
}


class KeySource(Protocol):
    """Where keys and set-up answers come from."""

    def read_key(self, timeout: float) -> str | None:
        """One key, or None when ``timeout`` seconds pass; :class:`EOFError` at the end."""

    def read_line(self, prompt: str) -> str | None:
        """One answer line (without its newline), or None at the end of input."""


class ToldKeys:
    """Keys (and typed lines) from ``source``, each told to ``on_key`` with the time
    it came (``clock``) before it is returned: a screen reader falls silent at a key
    press (:meth:`voice_host.announce.read_aloud.ScreenReaderAnnouncer.silenced`)."""

    def __init__(
        self, source: KeySource, on_key: Callable[[float], None], clock: Callable[[], float]
    ) -> None:
        self._source = source
        self._on_key = on_key
        self._clock = clock

    def read_key(self, timeout: float) -> str | None:
        """The next key (see :meth:`KeySource.read_key`)."""
        key = self._source.read_key(timeout)
        if key is not None:
            self._on_key(self._clock())
        return key

    def read_line(self, prompt: str) -> str | None:
        """The next typed line (see :meth:`KeySource.read_line`)."""
        line = self._source.read_line(prompt)
        if line is not None:
            self._on_key(self._clock())
        return line


#: Each stream read on a thread (kept, so that its id is not another's) and the queue of
#: its lines, by the stream's id, until its end: the live host's set-up and its keyboard
#: thread read one standard input in turn, and two threads reading it would share its
#: lines out between them.
_READ_LINES: dict[int, tuple[TextIO, queue.Queue[str | Exception]]] = {}
_READ_LINES_LOCK = threading.Lock()


def _lines_of(stream: TextIO) -> queue.Queue[str | Exception] | None:
    """The queue the thread reading ``stream`` fills (started at the first call), or
    None for a stream without a file descriptor, which is read in place."""
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return None
    with _READ_LINES_LOCK:
        if id(stream) in _READ_LINES:
            return _READ_LINES[id(stream)][1]
        lines: queue.Queue[str | Exception] = queue.Queue()
        _READ_LINES[id(stream)] = (stream, lines)
        threading.Thread(
            target=_pump, args=(stream, lines), name="voice-host-lines", daemon=True
        ).start()
        return lines


def _pump(stream: TextIO, lines: queue.Queue[str | Exception]) -> None:
    """The reading thread: every line of ``stream``, then the end ("") or the error
    (after which a new reader of the stream reads it afresh)."""
    while True:
        try:
            line: str | Exception = stream.readline()
        except Exception as exc:  # handed to the reader, as an in-place read raises it
            line = exc
        if not isinstance(line, Exception) and line:
            lines.put(line)
            continue
        with _READ_LINES_LOCK:
            _READ_LINES.pop(id(stream), None)
        lines.put(line)
        return


class LineKeys:
    """Keys from a stream read line by line (not a terminal).

    A stream with a file descriptor (a pipe, a file: standard input in an IDE's run
    console, or a script's) is read on a thread of its own, so that waiting for a key
    times out and the game's clock goes on: the keyboard game's turn ran no timer, said
    no warning, never ended and saved no time left until the next line came (session
    59's audit).  One without (a test's ``StringIO``) is read in place: a script's keys
    then come one after another with no wait between them.
    """

    def __init__(self, stream: TextIO, write: Callable[[str], None]) -> None:
        self._stream = stream
        self._write = write
        self._pending: list[str] = []
        self._lines = _lines_of(stream)

    def _next_line(self, timeout: float | None) -> str | None:
        """The next line ("" at the end of input), or None when ``timeout`` ran out."""
        if self._lines is None:
            return self._stream.readline()
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if isinstance(line, Exception) or not line:
            self._lines.put(line)  # the end, or the failure, stays
        if isinstance(line, Exception):
            raise line
        return line

    def read_key(self, timeout: float) -> str | None:
        """The next key, or None when ``timeout`` seconds pass first (a stream read in
        place blocks); :class:`EOFError` at the end."""
        if not self._pending:
            line = self._next_line(timeout)
            if line is None:
                return None
            if not line:
                raise EOFError
            keys = [ch for ch in line if not ch.isspace()]
            self._pending = keys or [" "]
        return self._pending.pop(0)

    def read_line(self, prompt: str) -> str | None:
        """The next line, after showing ``prompt``."""
        self._write(prompt)
        line = self._next_line(None)
        return None if not line else line.rstrip("\r\n")


class TerminalKeys:
    """Single keys from a terminal in cbreak mode (use inside :meth:`cbreak`)."""

    def __init__(self, stream: TextIO, write: Callable[[str], None]) -> None:
        self._stream = stream
        self._fd = stream.fileno()
        self._write = write
        self._keys_mode: list[Any] | None = None

    @contextmanager
    def cbreak(self) -> Iterator[None]:
        """Keys without Enter and without echo; the terminal is restored however play ends."""
        saved = termios.tcgetattr(self._fd)
        try:
            tty.setcbreak(self._fd)
            self._keys_mode = termios.tcgetattr(self._fd)
            yield
        finally:
            self._keys_mode = None
            # a terminal that hung up (SIGHUP) has no mode left to restore
            with suppress(termios.error, OSError):
                termios.tcsetattr(self._fd, termios.TCSADRAIN, saved)

    def _keep_cbreak(self) -> None:
        """Put single keys back when something else changed the mode: after Ctrl-Z
        and ``fg`` the shell hands the terminal back in its own mode (Enter needed,
        keys echoed), and the game would take no key until Enter."""
        if self._keys_mode is None:
            return
        try:
            foreground = os.tcgetpgrp(self._fd)
        except OSError:
            foreground = None  # not this process's controlling terminal
        if foreground is not None and foreground != os.getpgrp():
            return  # in the background (bg): setting the mode would stop it (SIGTTOU)
        try:
            now = termios.tcgetattr(self._fd)
            if now[3] & (termios.ICANON | termios.ECHO):
                termios.tcsetattr(self._fd, termios.TCSANOW, self._keys_mode)
        except (termios.error, OSError):
            pass  # the terminal is gone: the read says so

    def read_key(self, timeout: float) -> str | None:
        """One key, or None after ``timeout`` seconds.

        A key that sends several bytes is read whole: an arrow or function key's
        escape sequence comes back as its name (``"right"``, ``"f5"``), never as
        the letters in it (the right arrow sends ESC [ C, and ``c`` scores a
        correct guess); Escape alone is ``"escape"``; a UTF-8 character is one key.
        """
        self._keep_cbreak()
        if not self._ready(timeout):
            return None
        data = os.read(self._fd, 1)
        if not data:
            raise EOFError
        if data == b"\x1b":
            return self._escape_sequence()
        lead = data[0]
        more = 3 if lead >= 0xF0 else 2 if lead >= 0xE0 else 1 if lead >= 0xC0 else 0
        while more and self._ready(SEQUENCE_WAIT):
            data += os.read(self._fd, 1)
            more -= 1
        return data.decode("utf-8", errors="replace")

    def _ready(self, timeout: float) -> bool:
        ready, _, _ = select.select([self._fd], [], [], timeout)
        return bool(ready)

    def _escape_sequence(self) -> str:
        """The rest of a key that began with ESC, as the key's name."""
        if not self._ready(SEQUENCE_WAIT):
            return "escape"
        kind = os.read(self._fd, 1)
        if kind not in (b"[", b"O"):
            # Alt and a key (ESC then the key): neither is meant as a game key.
            return "alt+" + kind.decode("utf-8", errors="replace")
        body = b""
        while self._ready(SEQUENCE_WAIT):
            byte = os.read(self._fd, 1)
            if not byte:
                break
            body += byte
            # CSI ends with a byte from @ to ~; SS3 (ESC O) is one byte long.
            if kind == b"O" or 0x40 <= byte[0] <= 0x7E:
                break
        code = body.decode("ascii", errors="replace")
        return SEQUENCE_NAMES.get(code, "function key")

    def read_line(self, prompt: str) -> str | None:
        """One answer line, in the terminal's normal mode."""
        self._write(prompt)
        line = self._stream.readline()
        return None if not line else line.rstrip("\r\n")


def ask_resume(keys: KeySource, write: Callable[[str], None], saved: str) -> bool:
    """Offer the game saved where a new one would start (``saved``: what it holds, in
    words); True to go on with it (y or Enter), False for a new game (n)."""
    write(f"There is a game in progress: {saved}.")
    while True:
        answer = keys.read_line("Go on with it? y or Enter: yes; n: a new game (it is kept): ")
        if answer is None:
            raise UsageError("no answer whether to go on with the saved game (end of input)")
        text = answer.strip().casefold()
        if text in ("", "y", "yes", "r", "resume"):
            return True
        if text in ("n", "no", "new"):
            return False
        write(f"{answer.strip()!r}: answer y or n.")


def ask_teams(keys: KeySource, write: Callable[[str], None], most: int) -> tuple[Team, ...]:
    """Ask for team names and players until at least two valid teams are in (R1), and
    at most ``most``."""
    write(f"Set up the teams: at least {MIN_TEAMS}, each with {MIN_PLAYERS} or more players.")
    teams: list[Team] = []
    while True:
        name = keys.read_line(f"Team {len(teams) + 1} name (Enter when all teams are in): ")
        if name is None:
            raise UsageError("the teams were not all given (end of input)")
        name = tidy_name(name)
        if not name:
            if len(teams) >= MIN_TEAMS:
                return validate_teams(teams)
            write(f"At least {MIN_TEAMS} teams are needed.")
            continue
        if any(name_key(t.name) == name_key(name) for t in teams):
            write(f"There is already a team called {name}.")
            continue
        if (problem := name_problem(name, team=True)) is not None:
            write(f"Not added: {problem}.")
            continue
        players = keys.read_line(f"Players of {name}, separated by commas: ")
        if players is None:
            raise UsageError("the teams were not all given (end of input)")
        names = tuple(tidy_name(p) for p in players.split(",") if p.strip())
        if len(names) < MIN_PLAYERS:
            write(f"A team needs at least {MIN_PLAYERS} players; {name} was not added.")
            continue
        if len({name_key(p) for p in names}) < len(names):
            write(f"Two players of {name} have the same name; {name} was not added.")
            continue
        if (problem := next((p for p in map(name_problem, names) if p), None)) is not None:
            write(f"{name} was not added: {problem}.")
            continue
        teams.append(Team(name, names))
        if len(teams) == most:
            write(f"That makes {most} teams, the most a game takes.")
            return validate_teams(teams)


def ask_first(
    teams: tuple[Team, ...], keys: KeySource, write: Callable[[str], None], rng: random.Random
) -> int:
    """Ask which team starts (R3); Enter picks one at random."""
    choices = ", ".join(f"{i + 1} {t.name}" for i, t in enumerate(teams))
    while True:
        answer = keys.read_line(f"Which team starts? {choices}, or Enter for a random pick: ")
        if answer is None or not answer.strip():
            pick = rng.randrange(len(teams))
            write(f"{teams[pick].name} starts.")
            return pick
        text = answer.strip()
        if text.isdecimal() and len(text) <= 3 and 1 <= int(text) <= len(teams):
            return int(text) - 1
        for i, team in enumerate(teams):
            if team.name.casefold() == text.casefold():
                return i
        write(f"{text!r} is not a team.")


def printer(stream: TextIO) -> Callable[[str], None]:
    """A ``write`` that prints one announcement per line and flushes at once."""

    def write(text: str) -> None:
        print(text, file=stream, flush=True)

    return write


def key_source(stdin: TextIO, write: Callable[[str], None]) -> LineKeys | TerminalKeys:
    """Single keys on a terminal; lines otherwise."""
    return TerminalKeys(stdin, write) if stdin.isatty() else LineKeys(stdin, write)


class Suspension:
    """Ctrl-Z (SIGTSTP) for a game's loop: the handler only notes that it came
    (:attr:`asked`); the loop, which polls many times a second, pauses the turn's
    timer and saves it paused, then calls :meth:`stop`, so that the time the process
    spends stopped (until ``fg`` or ``bg``) is not taken from the turn.

    Use :meth:`taking` around the loop: a Ctrl-Z outside it (a typed prompt, the team
    set-up) stops the process at once, as before, since no loop would act on it.
    """

    def __init__(self) -> None:
        self.asked = False
        """A Ctrl-Z came and the loop has not acted on it yet."""

    def _ask(self, signum: int, frame: FrameType | None) -> None:
        self.asked = True  # all a handler does: the loop pauses, saves and stops

    def take(self) -> bool:
        """Whether a Ctrl-Z came since the last call (it is then the caller's to act on)."""
        asked, self.asked = self.asked, False
        return asked

    @contextmanager
    def taking(self, polls: bool = True) -> Iterator[Suspension]:
        """Take Ctrl-Z for the loop inside, on the main thread (only it may set a
        handler; elsewhere, or where SIGTSTP is ignored, nothing changes).  ``polls``
        False: the loop may block (keys read from a pipe) and could not act on it in
        time, so nothing changes either."""
        if (
            not polls
            or threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTSTP) is signal.SIG_IGN
        ):
            yield self
            return
        previous = signal.signal(signal.SIGTSTP, self._ask)
        try:
            yield self
        finally:
            signal.signal(signal.SIGTSTP, previous)

    @staticmethod
    def stop() -> None:
        """Stop the process as Ctrl-Z would have; returns once it is continued (``fg``
        or ``bg``), or at once where job control would not stop it (a process group
        with no shell left to continue it).  On the main thread (where :meth:`taking`
        takes Ctrl-Z)."""
        previous = signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        try:
            os.kill(os.getpid(), signal.SIGTSTP)
        finally:
            signal.signal(signal.SIGTSTP, previous)


def hung_up(fd: int) -> bool:
    """Whether ``fd`` is a terminal that has hung up (every read and write fails with
    EIO); False for one that answers, and for a pipe, a file or a closed descriptor.
    Safe in a signal handler."""
    try:
        termios.tcgetattr(fd)
    except termios.error as exc:
        return bool(exc.args) and exc.args[0] == errno.EIO
    return False


def silence_lost_terminal() -> None:
    """Point standard output and error at ``/dev/null`` where they are a terminal that
    has hung up (the window closed, an ssh connection dropped: every write would fail
    with EIO).  A terminal that still answers (``kill -HUP`` from elsewhere), a pipe or
    a file is left as it is.  Only file descriptors change (no Python object is
    touched), so this is safe in a signal handler; what is still buffered for them
    then goes to ``/dev/null`` too, instead of failing at exit."""
    for fd in (1, 2):
        if not hung_up(fd):
            continue  # the terminal is still there, or not a terminal: as it was
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, fd)
        finally:
            os.close(null)
