"""Signals to ``voice-host play`` in a real terminal (a pseudo-terminal), for the keyboard
game (``--keyboard``) and the live host in line mode (``--keyboard-only --plain``); a
hang-up in the board view too.

- The terminal hangs up (the window closed, an ssh connection dropped: SIGHUP): the
  game is saved and the process ends cleanly, though the terminal is gone.
- Ctrl-\\ (SIGQUIT) saves and ends as Ctrl-C does, instead of dumping core with the
  terminal left without echo.
- Ctrl-Z (SIGTSTP) pauses the turn and saves it paused before the process stops, so the
  time until ``fg`` is not taken from the turn; back, the host says it is paused.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import pty
import re
import select
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import voice_host
from voice_host.keyboard import KeyboardController
from voice_host.keyboard.terminal import play_loop
from voice_host.rules import Game, default_board, parse_teams
from voice_host.screen.model import seconds_words
from voice_host.terminal_keys import LineKeys

ROOT = Path(voice_host.__file__).resolve().parents[1]
TEAMS = "Red:Ann,Bob;Blue:Cat,Dan"
MODES = {
    "keyboard": ["--keyboard"],
    "live": ["--keyboard-only", "--plain"],
}
#: The live host's board view (textual's full screen, on standard error).
BOARD = ["--keyboard-only"]

#: A job-control shell in miniature (a script): it runs the game as the terminal's
#: foreground job in a process group of its own, whose parent (this shell) is in the
#: same session, so Ctrl-Z really stops it (a process group with no shell above it
#: would not stop).
JOB_SHELL = str(Path(__file__).with_name("job_shell.py"))


class Played:
    """A ``voice-host play`` on a pseudo-terminal: the terminal's near side and what the
    game printed on it."""

    def __init__(self, pid: int, fd: int, game: int) -> None:
        self.pid = pid
        """The process started on the terminal (the game, or the job shell)."""
        self.fd = fd
        self.game = game
        """The game's own process."""
        self.out = ""
        self._seen = 0

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 4096)
        except OSError as exc:  # the terminal's far side is closed: all read
            if exc.errno != errno.EIO:
                raise
            return False
        self.out += data.decode("utf-8", errors="replace").replace("\r\n", "\n")
        return bool(data)

    def expect(self, pattern: str, timeout: float = 10.0) -> str:
        """Read until ``pattern`` is printed (after what earlier calls found); its match."""
        end = time.monotonic() + timeout
        while True:
            found = re.compile(pattern).search(self.out, self._seen)
            if found:
                self._seen = found.end()
                return found.group(0)
            if time.monotonic() > end or not self._read(0.1):
                raise AssertionError(f"{pattern!r} never came; the game printed:\n{self.out}")

    def press(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def wait(self, timeout: float = 10.0) -> int:
        """The exit status of the process started on the terminal (reading what it prints
        meanwhile, so that it is never blocked on a full terminal)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return status
            if self.fd >= 0:
                self._read(0.05)
            else:
                time.sleep(0.05)
        os.kill(self.pid, signal.SIGKILL)
        raise AssertionError(f"the game did not end; it printed:\n{self.out}")

    def hang_up(self) -> None:
        """Close the terminal (as closing its window does): the kernel hangs it up."""
        os.close(self.fd)
        self.fd = -1

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        for pid in {self.game, self.pid}:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


def _play(tmp_path: Path, mode: str, *, job: bool = False) -> Played:
    """``voice-host play`` in ``mode`` (a new game, the built-in deck, a 30 s timer) on a
    new pseudo-terminal, saving to ``tmp_path/game.json``; its standard error goes to
    ``tmp_path/stderr.txt`` (but the board view's, which draws there); ``job``: run as
    a job of :data:`JOB_SHELL`."""
    args = ["--teams", TEAMS, "--first", "Red", "--save", str(tmp_path / "game.json")]
    argv = [sys.executable, "-m", "voice_host", "play", *MODES.get(mode, BOARD), *args]
    pid_file = tmp_path / "game.pid"
    if job:
        argv = [sys.executable, JOB_SHELL, str(pid_file), *argv]
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "TERM": "xterm",
    }
    err = os.open(tmp_path / "stderr.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    pid, fd = pty.fork()
    if pid == 0:  # the child: a session of its own, on the new terminal
        try:
            if mode != "board":
                os.dup2(err, 2)
            os.chdir(tmp_path)
            import resource

            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file, whatever happens
            # A signal ignored when the game starts stays ignored (as under nohup), and
            # a shell without job control starts its background jobs ignoring SIGINT
            # and SIGQUIT: the game plays here as from a terminal, whoever ran pytest.
            for number in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTERM):
                signal.signal(number, signal.SIG_DFL)
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    os.close(err)
    game = pid
    if job:
        end = time.monotonic() + 10
        while not pid_file.exists():
            assert time.monotonic() < end, "the job shell never started the game"
            time.sleep(0.02)
        game = int(pid_file.read_text())
    return Played(pid, fd, game)


Start = Callable[..., Played]
"""``play(mode, job=False)``: :func:`_play` in the test's folder, ended after the test."""


@pytest.fixture
def play(tmp_path: Path) -> Iterator[Start]:
    started: list[Played] = []

    def start(mode: str, *, job: bool = False) -> Played:
        played = _play(tmp_path, mode, job=job)
        started.append(played)
        return played

    yield start
    for played in started:
        played.close()


def _in_turn(played: Played, mode: str) -> None:
    """Wait for the first turn, start its timer (the keyboard game waits for space; the
    live host starts it at "Go!") and score one card."""
    if mode == "keyboard":
        played.expect(r"Press space to start the 30 second timer\.")
        played.press(b" ")
        played.expect(r"Card: .+\n")
    else:
        played.expect(r"Go!")
    time.sleep(0.3)  # the timer runs
    for _ in range(10):  # (a host that speaks aloud starts it once "Go!" is heard)
        played.press(b"c")
        with contextlib.suppress(AssertionError):
            played.expect(r"correct\. One\.", timeout=1.0)
            return
    raise AssertionError(f"C never counted; the game printed:\n{played.out}")


def _save(tmp_path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    return data


def _correct(save: dict[str, object]) -> int:
    """The count of the saved turn."""
    return Game.from_json(str(save["game"])).state.correct


def _stderr(tmp_path: Path) -> str:
    return (tmp_path / "stderr.txt").read_text(encoding="utf-8", errors="replace")


def _saved_correct(tmp_path: Path, count: int, timeout: float = 10.0) -> None:
    """Wait until the save holds ``count`` right in the turn."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with contextlib.suppress(OSError, ValueError, KeyError):
            if _correct(_save(tmp_path)) == count:
                return
        time.sleep(0.05)
    raise AssertionError(f"the save never held {count} right")


@pytest.mark.parametrize("mode", [*MODES, "board"])
def test_a_hang_up_saves_and_ends_cleanly(play: Start, tmp_path: Path, mode: str) -> None:
    """The terminal window closed: SIGHUP (and SIGCONT), and the terminal is gone (writes
    fail with EIO).  The game is saved with its turn's time, nothing tracebacks and the
    exit is clean; the board view too, which must not start its full screen again."""
    played = play(mode)
    if mode == "board":
        played.expect(r"CARD")
        time.sleep(0.5)  # "Go!": the timer runs
        played.press(b"c")
        _saved_correct(tmp_path, 1)
    else:
        _in_turn(played, mode)
    played.hang_up()
    status = played.wait()
    assert os.waitstatus_to_exitcode(status) == 0, _stderr(tmp_path)
    assert "Traceback" not in _stderr(tmp_path)
    save = _save(tmp_path)
    assert _correct(save) == 1
    assert 20 < float(str(save["time_left"])) < 30  # saved on the way out


@pytest.mark.parametrize("mode", MODES)
def test_ctrl_backslash_saves_and_ends_as_ctrl_c_does(
    play: Start, tmp_path: Path, mode: str
) -> None:
    """Ctrl-\\ (SIGQUIT, next to Enter on some keyboards) is no core dump: the game is
    saved and the player told where, as after Ctrl-C."""
    played = play(mode)
    _in_turn(played, mode)
    played.press(b"\x1c")
    played.expect(r"[Ss]aved to .*game\.json")
    status = played.wait()
    assert os.waitstatus_to_exitcode(status) == 0, _stderr(tmp_path)
    assert "Traceback" not in _stderr(tmp_path)
    assert _correct(_save(tmp_path)) == 1
    assert not list(tmp_path.glob("core*"))


def _stopped(pid: int, timeout: float = 5.0, played: Played | None = None) -> bool:
    """Whether process ``pid`` stops within ``timeout``; reading ``played``'s terminal
    meanwhile (the board view redraws as it goes: it must not block on a full one)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        stat = Path(f"/proc/{pid}/stat").read_text()
        if stat.rsplit(")", 1)[1].split()[0] == "T":
            return True
        if played is not None:
            played._read(0.02)
        else:
            time.sleep(0.02)
    return False


@pytest.mark.parametrize("mode", MODES)
def test_ctrl_z_pauses_the_turn_until_fg(play: Start, tmp_path: Path, mode: str) -> None:
    """Ctrl-Z: the turn is paused and saved paused before the process stops; the time it
    stays stopped is not the turn's, and back (``fg``) the host says it is paused."""
    played = play(mode, job=True)
    _in_turn(played, mode)
    played.press(b"\x1a")
    assert _stopped(played.game), "Ctrl-Z did not stop the game"
    save = _save(tmp_path)
    assert save.get("held") is True  # saved paused: lost while stopped, it resumes paused
    left = float(str(save["time_left"]))
    time.sleep(1.0)  # stopped: this time is nobody's
    os.kill(played.game, signal.SIGCONT)  # fg
    said = played.expect(r"Paused, \d+ seconds left\. Press space to go on\.")
    # the save holds the time to a tenth: the whole seconds said are those around it
    shown = {seconds_words(left - 0.05), seconds_words(left + 0.05)}
    assert said in {f"Paused, {words} left. Press space to go on." for words in shown}
    played.press(b"q")
    played.expect(r"Quit")
    played.press(b"y")
    status = played.wait()
    assert os.waitstatus_to_exitcode(status) == 0, _stderr(tmp_path)
    assert float(str(_save(tmp_path)["time_left"])) == left  # not a second went by


@pytest.mark.parametrize("how", ["ctrl-z", "kill"])
def test_the_board_view_pauses_the_turn_before_it_stops(
    play: Start, tmp_path: Path, how: str
) -> None:
    """The board view: Ctrl-Z (a key there, its terminal being raw) and a SIGTSTP sent
    from elsewhere both pause the turn and save it paused before the process stops, so
    the time stopped is not the turn's; back (``fg``) the screen comes back and the host
    says the turn is paused."""
    played = play("board", job=True)
    played.expect(r"CARD")
    time.sleep(0.5)  # "Go!": the timer runs
    played.press(b"c")
    _saved_correct(tmp_path, 1)
    if how == "ctrl-z":
        played.press(b"\x1a")
    else:
        os.kill(played.game, signal.SIGTSTP)
    assert _stopped(played.game, played=played), f"{how} did not stop the game"
    save = _save(tmp_path)
    assert save.get("held") is True  # saved paused
    left = float(str(save["time_left"]))
    assert 20 < left < 30
    time.sleep(1.0)  # stopped: this time is nobody's
    os.kill(played.game, signal.SIGCONT)  # fg
    played.expect(r"Paused,")
    end = time.monotonic() + 1.0
    while time.monotonic() < end:  # paused: the timer stays where it was
        played._read(0.05)
    played.press(b"q")
    played.press(b"y")
    status = played.wait()
    assert os.waitstatus_to_exitcode(status) == 0
    assert _correct(_save(tmp_path)) == 1
    assert float(str(_save(tmp_path)["time_left"])) == left  # not a second went by


def test_keys_from_a_pipe_leave_ctrl_z_to_stop_at_once() -> None:
    """Keys read from a pipe block in a read, where the loop could not act on Ctrl-Z in
    time: there the process stops at once, as it always did (its handler is left alone)."""
    before = signal.getsignal(signal.SIGTSTP)
    seen: list[object] = []

    class Keys(LineKeys):
        def read_key(self, timeout: float) -> str | None:
            seen.append(signal.getsignal(signal.SIGTSTP))
            return super().read_key(timeout)

    game = Game(parse_teams(TEAMS), default_board())
    controller = KeyboardController(game)
    play_loop(controller, Keys(io.StringIO("q\ny\n"), lambda _: None), lambda _: None)
    assert controller.finished
    assert seen and all(handler is before for handler in seen)
