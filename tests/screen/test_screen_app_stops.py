"""The board view's terminal driver takes SIGTSTP and SIGCONT while it runs; once it
has exited (the host still saving and saying goodbye, up to 10 s) a Ctrl-Z and ``fg``
must stop and continue the process plainly, not start the full screen again on an app
that is gone (textual's handler then raised "no running event loop" from wherever the
main thread was, a traceback in the middle of the session's closing)."""

from __future__ import annotations

import os
import pty
import select
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import sys, time
sys.path.insert(0, {helpers!r})
from screen_helpers import base_model
from voice_host.screen.app import TableApp

app = TableApp(base_model(), on_key=lambda k: None, on_suspend=lambda: None,
               on_continued=lambda: None)
app.call_later(lambda: app.set_timer(0.3, app.exit))
app.run()
print("APP-EXITED", flush=True)
time.sleep(2.0)  # the session closing: a Ctrl-Z and fg come now
print("CLOSED", flush=True)
"""


#: A shell's job control (tests/job_shell.py): the app runs in a process group of its
#: own in the terminal's foreground (an orphaned group is never stopped).
JOB_SHELL = str(ROOT / "tests" / "job_shell.py")


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def test_ctrl_z_and_fg_after_the_board_view_has_exited_stop_and_continue_plainly(
    tmp_path: Path,
) -> None:
    code = CHILD.format(helpers=str(Path(__file__).parent))
    pid_file = tmp_path / "app.pid"
    argv = [sys.executable, JOB_SHELL, str(pid_file), sys.executable, "-c", code]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm"}
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    out = b""

    def read(seconds: float) -> None:
        nonlocal out
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.05)[0]:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    return

    try:
        end = time.monotonic() + 30
        while b"APP-EXITED" not in out:
            assert time.monotonic() < end, out.decode(errors="replace")
            read(0.1)
        exited = len(out)
        app = int(pid_file.read_text())
        os.kill(app, signal.SIGTSTP)
        end = time.monotonic() + 5
        while _state(app) != "T":
            assert time.monotonic() < end, "the process did not stop"
            read(0.02)
        os.kill(app, signal.SIGCONT)  # fg
        end = time.monotonic() + 10
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            assert time.monotonic() < end, "the process did not end"
            read(0.05)
        read(0.2)
        after = out[exited:].decode(errors="replace")
        assert "Traceback" not in after, after
        assert "CLOSED" in after
        assert "\x1b[?1049h" not in after  # no full screen again
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        os.close(fd)
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
