"""What the table hears when the speech recogniser does not start (a library or a
model file missing): a few plain words on the host's voice, and the error's own words
printed (line mode) or shown (the board view's host line) for whoever reads them."""

from __future__ import annotations

import errno
import io
import threading
from pathlib import Path

import pytest

from voice_host.announce.protocol import AnnounceOptions
from voice_host.announce.recording import RecordingAnnouncer
from voice_host.host.clock import WallClock
from voice_host.host.inputs import Stop
from voice_host.host.live import LiveSession, run_live

from .conftest import ScreenRecorder, live_config

#: The error's own words, printed or shown.
REASON = "No speech recogniser ([Errno 2] No such file or directory: '/models/encoder.onnx')."
#: What the host says instead.
PLAIN = "No speech recogniser: I cannot hear the table."
#: Seconds a test waits for a thread (never reached when passing).
DEADLOCK = 10.0


@pytest.fixture(autouse=True)
def _missing_model(monkeypatch: pytest.MonkeyPatch) -> None:
    def fails(*args: object, **kw: object) -> object:
        raise OSError(errno.ENOENT, "No such file or directory", "/models/encoder.onnx")

    monkeypatch.setattr("voice_host.speech.choose.open_backend", fails)


@pytest.mark.parametrize(
    ("board_view", "screen_reader"),
    [(False, False), (True, False), (False, True)],
    ids=["line-mode", "board-view", "screen-reader"],
)
def test_a_recogniser_that_does_not_start_is_said_plainly_and_its_error_printed_or_shown(
    tmp_path: Path, board_view: bool, screen_reader: bool
) -> None:
    # The host said the error before the welcome: "No speech recogniser ([Errno 2] No
    # such file or directory: '/models/encoder.onnx'). Play with the keys; ...".
    announcer = RecordingAnnouncer(clock=WallClock().now, options=AnnounceOptions(rate=3000))
    config = live_config(
        tmp_path,
        teams="Red:Ann,Bob;Blue:Cat,Dan",
        keyboard_only=False,
        screen_reader=screen_reader,
    )
    out = io.StringIO()
    session = LiveSession.open(
        config, stdout=out, env={}, clock=WallClock(), board_view=board_view, announcer=announcer
    )
    screen = ScreenRecorder()
    session.host.screen = screen
    thread = threading.Thread(target=session.host_loop)
    thread.start()
    try:
        threading.Event().wait(0.3)
    finally:
        session.inputs.put(Stop("test"))
        thread.join(DEADLOCK)
        session.close()
    said = [e.text for e in announcer.entries]
    assert said[0] == f"{PLAIN} Play with the keys; question mark for help.", said
    assert not any("Errno" in text or "/models" in text for text in said), said
    printed = out.getvalue()
    assert printed.count(REASON) == (0 if board_view or screen_reader else 1), printed
    if board_view:
        shown = [m.announcement for m in screen.models]
        assert any(a.startswith(f"{REASON} Play with the keys") for a in shown), shown


def test_the_spoken_set_up_says_it_plainly_and_prints_the_error_once(tmp_path: Path) -> None:
    # No teams given: the set-up says it first (the game then does not say it again).
    out = io.StringIO()
    config = live_config(tmp_path, keyboard_only=False)
    assert run_live(config, stdin=io.StringIO("2\n2\n\n\nq\ny\n"), stdout=out, env={}) == 0
    text = out.getvalue()
    assert f"Host: {PLAIN} Answer with the keys." in text, text
    assert text.count(PLAIN) == 1, text
    assert text.count(REASON) == 1, text
    assert "Host: No speech recogniser (" not in text, text
