"""Line mode keeps the C libraries' diagnostics off the terminal (a screen reader reads
every line there) and Python's own errors on it."""

from __future__ import annotations

import os
import select
import sys

import pytest

from voice_host.host.live import native_stderr_dropped


def _read(master: int) -> bytes:
    got = b""
    while select.select([master], [], [], 0.2)[0]:
        chunk = os.read(master, 4096)
        if not chunk:
            break
        got += chunk
    return got


def test_what_c_libraries_write_to_the_terminal_is_dropped_and_python_errors_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # PortAudio and ALSA write to file descriptor 2 themselves: a terminal in line mode
    # showed "ALSA lib pcm.c:8570:(snd_pcm_recover) underrun occurred" after the host's
    # announcements and dozens of "Expression ... failed" lines when the sound server
    # went away, among the lines a screen reader reads out.
    master, slave = os.openpty()
    terminal = os.fdopen(slave, "w", buffering=1, closefd=False)  # sys.stderr is fd "2"
    monkeypatch.setattr(sys, "stderr", terminal)
    try:
        with native_stderr_dropped(slave):
            # what PortAudio's C code does: write to the descriptor itself
            os.write(slave, b"ALSA lib pcm.c:8570:(snd_pcm_recover) underrun occurred\n")
            print("voice-host: something Python says", file=sys.stderr)
        assert sys.stderr is terminal  # put back as it was
        seen = _read(master)
        assert b"underrun" not in seen
        assert b"voice-host: something Python says" in seen
        os.write(slave, b"after the game\n")  # the descriptor is the terminal again
        assert b"after the game" in _read(master)
    finally:
        terminal.close()
        os.close(slave)
        os.close(master)


def test_nothing_changes_when_standard_error_is_no_terminal() -> None:
    read_end, write_end = os.pipe()
    try:
        with native_stderr_dropped(write_end):
            os.write(write_end, b"kept for a log\n")
        assert os.read(read_end, 100) == b"kept for a log\n"
    finally:
        os.close(read_end)
        os.close(write_end)


HUNG_UP_CHILD = """
import signal, sys, time
from voice_host.host.live import native_stderr_dropped
from voice_host.terminal_keys import silence_lost_terminal

def hung_up(signum, frame):  # as voice-host play's SIGHUP handler does
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    silence_lost_terminal()
    raise KeyboardInterrupt

signal.signal(signal.SIGHUP, hung_up)
try:
    with native_stderr_dropped():
        print("READY", flush=True)
        time.sleep(10)
except KeyboardInterrupt:
    pass
# the session's last word (a save that failed): the terminal is gone, /dev/null takes it
print("voice-host: the game could not be saved", file=sys.stderr, flush=True)
sys.exit(2)
"""


def test_a_terminal_that_hung_up_is_not_put_back_as_standard_error() -> None:
    # The window closed in line mode: SIGHUP points the lost terminal's outputs at
    # /dev/null, so that the words written on the way out cannot fail with EIO; the
    # descriptor put back on leaving must not be the hung-up terminal again.
    import pty
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    pid, fd = pty.fork()
    if pid == 0:
        try:
            env = {**os.environ, "PYTHONPATH": str(root)}
            os.execve(sys.executable, [sys.executable, "-c", HUNG_UP_CHILD], env)
        finally:
            os._exit(127)
    try:
        seen = b""
        while b"READY" not in seen:
            assert select.select([fd], [], [], 20)[0], seen
            seen += os.read(fd, 1000)
    finally:
        os.close(fd)  # the window closed: the kernel hangs the terminal up
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 2  # not 1: no EIO, no traceback
