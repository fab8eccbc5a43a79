"""Single keys from a real terminal (a pseudo-terminal): keys that send several bytes
are read whole, so an arrow key never plays the letters of its escape sequence."""

from __future__ import annotations

import io
import os
import termios
from collections.abc import Iterator

import pytest

from voice_host.terminal_keys import TerminalKeys


@pytest.fixture
def terminal() -> Iterator[tuple[TerminalKeys, int]]:
    """A TerminalKeys reading the far side of a pseudo-terminal, and the near side's fd."""
    near, far = os.openpty()
    stream = os.fdopen(far, "r", closefd=True)
    source = TerminalKeys(stream, lambda _text: None)
    try:
        with source.cbreak():  # keys without Enter, as in play
            yield source, near
    finally:
        stream.close()
        os.close(near)


def keys(source: TerminalKeys) -> list[str]:
    out = []
    while (key := source.read_key(0.2)) is not None:
        out.append(key)
    return out


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        # The right arrow sends ESC [ C: before, "c" scored a correct guess.
        (b"\x1b[C", ["right"]),
        (b"\x1b[A\x1b[B\x1b[D", ["up", "down", "left"]),
        (b"\x1bOC", ["right"]),  # the same arrow in application mode
        (b"\x1b[3~", ["delete"]),
        (b"\x1b[15~", ["f5"]),
        (b"\x1b[1;5C", ["function key"]),  # Ctrl+right: no game key either
        (b"c\x1b[Cp", ["c", "right", "p"]),
        (b"\x1b", ["escape"]),  # Escape alone hushes the host
        ("é?".encode(), ["é", "?"]),  # a UTF-8 character is one key
        (b" \x7f", [" ", "\x7f"]),
    ],
)
def test_a_key_is_read_whole(
    terminal: tuple[TerminalKeys, int], typed: bytes, expected: list[str]
) -> None:
    source, near = terminal
    os.write(near, typed)
    assert keys(source) == expected


def test_no_key_is_none(terminal: tuple[TerminalKeys, int]) -> None:
    source, _ = terminal
    assert source.read_key(0.01) is None


def test_single_keys_come_back_after_ctrl_z_and_fg(terminal: tuple[TerminalKeys, int]) -> None:
    """After Ctrl-Z and ``fg`` the shell hands the terminal back in its own mode
    (line by line, echoed): a key must still count at once, without Enter."""
    source, near = terminal
    far = source._fd
    mode = termios.tcgetattr(far)
    mode[3] |= termios.ICANON | termios.ECHO  # what bash leaves after fg
    termios.tcsetattr(far, termios.TCSANOW, mode)
    os.write(near, b"c")
    assert source.read_key(0.3) == "c"
    assert not termios.tcgetattr(far)[3] & (termios.ICANON | termios.ECHO)


def test_a_closed_stream_is_not_a_terminal() -> None:
    with pytest.raises(io.UnsupportedOperation):
        TerminalKeys(io.StringIO(), lambda _text: None)


def test_in_the_background_the_mode_is_left_alone(
    terminal: tuple[TerminalKeys, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """After Ctrl-Z and ``bg`` the terminal belongs to the shell: setting its mode from
    the background would stop the game again (SIGTTOU).  It is put back once in front."""
    source, near = terminal
    far = source._fd
    mode = termios.tcgetattr(far)
    mode[3] |= termios.ICANON | termios.ECHO
    termios.tcsetattr(far, termios.TCSANOW, mode)
    monkeypatch.setattr(os, "tcgetpgrp", lambda fd: os.getpgrp() + 1)  # another group
    source.read_key(0.0)
    assert termios.tcgetattr(far)[3] & termios.ICANON  # untouched
    monkeypatch.setattr(os, "tcgetpgrp", lambda fd: os.getpgrp())  # fg: in front again
    os.write(near, b"c")
    assert source.read_key(0.3) == "c"


def test_keys_from_a_pipe_wait_no_longer_than_asked_and_end_at_its_end() -> None:
    # Session 59's audit: a pipe (an IDE's run console, a script) was read in place,
    # blocking: the keyboard game's timer stood still until the next line came.
    from voice_host.terminal_keys import LineKeys

    reading, writing = os.pipe()
    stream = os.fdopen(reading, "r", encoding="utf-8")
    try:
        source = LineKeys(stream, lambda _text: None)
        assert source.read_key(0.05) is None  # nothing typed: the wait ends
        os.write(writing, b"cp\n\n")
        assert [source.read_key(1.0) for _ in range(3)] == ["c", "p", " "]
        assert source.read_key(0.05) is None
        second = LineKeys(stream, lambda _text: None)  # the game's, after the set-up's
        os.write(writing, b"y\n")
        assert second.read_key(1.0) == "y"  # one reader of the pipe: no line lost to it
        os.close(writing)
        writing = -1
        with pytest.raises(EOFError):
            source.read_key(1.0)
        with pytest.raises(EOFError):
            source.read_key(1.0)  # the end stays the end
    finally:
        if writing >= 0:
            os.close(writing)
        stream.close()


def test_keys_from_a_stream_without_a_descriptor_are_read_in_place() -> None:
    # a script given as a StringIO plays its keys one after another, no wait between
    from voice_host.terminal_keys import LineKeys

    source = LineKeys(io.StringIO("c\n"), lambda _text: None)
    assert source.read_key(0.0) == "c"
    with pytest.raises(EOFError):
        source.read_key(0.0)
