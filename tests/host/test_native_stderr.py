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
