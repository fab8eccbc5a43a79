"""What the table hears when no microphone works (none found, busy, unplugged): a few
plain words on the host's voice, and PortAudio's own reason printed (line mode) or
shown (the board view's host line) for whoever reads it."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from voice_host.announce.protocol import AnnounceOptions
from voice_host.announce.recording import RecordingAnnouncer
from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.config import HostConfig
from voice_host.errors import DeviceError
from voice_host.host.clock import WallClock
from voice_host.host.inputs import InputQueue, MicStatus, Stop
from voice_host.host.listening import Listening
from voice_host.host.live import LiveSession, _listen
from voice_host.referee import Referee
from voice_host.screen.model import ScreenModel

from .conftest import HostMaker, ScreenRecorder, Silent, live_config

#: What PortAudio says when the microphone is taken by another program.
PORTAUDIO = "Error opening InputStream: Device unavailable [PaErrorCode -9985]"
#: The line printed or shown: the device's own words.
REASON = f"No microphone: {PORTAUDIO}."
#: What the host says instead.
SAID = "No microphone: I cannot hear the table. Play with the keys; question mark for help."
#: Seconds a test waits for a thread (never reached when passing).
DEADLOCK = 10.0


class _Busy:
    """A microphone another program holds: it never opens."""

    def __init__(self, device: object, on_event: object = None) -> None: ...

    def check(self) -> None:
        raise DeviceError(f"{PORTAUDIO}; play with the keyboard")

    def __iter__(self) -> Iterator[AudioChunk]:
        self.check()
        yield AudioChunk(b"", SAMPLE_RATE, 0.0)  # never reached

    def close(self) -> None: ...


def _run(
    tmp_path: Path, *, board_view: bool, **changes: object
) -> tuple[list[str], str, list[ScreenModel]]:
    """A listening session on the busy microphone, run until its listening thread has
    failed too: what was said, what was printed, and what the screen showed."""
    announcer = RecordingAnnouncer(clock=WallClock().now, options=AnnounceOptions(rate=3000))
    config = live_config(tmp_path, teams="Red:Ann,Bob;Blue:Cat,Dan", keyboard_only=False, **changes)
    out = io.StringIO()
    session = LiveSession.open(
        config,
        stdout=out,
        env={},
        clock=WallClock(),
        board_view=board_view,
        announcer=announcer,
        recognizer=(Silent(), "using silent"),
    )
    screen = ScreenRecorder()
    session.host.screen = screen
    thread = threading.Thread(target=session.host_loop)  # no keyboard thread
    thread.start()
    try:
        for _ in range(int(DEADLOCK / 0.05)):  # the listening thread has failed as well
            if session.host._message:
                break
            threading.Event().wait(0.05)
        threading.Event().wait(0.2)
    finally:
        session.inputs.put(Stop("test"))
        thread.join(DEADLOCK)
        session.close()
    return [e.text for e in announcer.entries], out.getvalue(), screen.models


@pytest.fixture(autouse=True)
def _busy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("voice_host.audio.microphone.MicrophoneSource", _Busy)


def test_no_microphone_is_said_in_plain_words_and_its_reason_printed(tmp_path: Path) -> None:
    # The host said PortAudio's text before the welcome: "No microphone: Error opening
    # InputStream: Device unavailable [PaErrorCode -9985]. Play with the keys; ...".
    said, printed, _ = _run(tmp_path, board_view=False)
    assert said[0] == SAID, said
    assert not any("PaErrorCode" in text for text in said), said
    assert printed.count(REASON) == 1, printed  # the listening thread's failure: not again


def test_the_board_view_shows_the_microphones_reason_where_the_host_says_plain_words(
    tmp_path: Path,
) -> None:
    said, printed, models = _run(tmp_path, board_view=True)
    assert said[0] == SAID, said
    assert not any("PaErrorCode" in text for text in said), said
    assert printed == ""  # the board view owns the terminal
    shown = [m.announcement for m in models]
    assert any(
        a.startswith(f"{REASON} Play with the keys; question mark for help.") for a in shown
    ), shown


def test_with_a_screen_reader_the_microphones_reason_is_not_printed(tmp_path: Path) -> None:
    # The player's screen reader reads every printed line aloud.
    said, printed, _ = _run(tmp_path, board_view=False, screen_reader=True)
    assert said[0] == SAID, said
    assert "PaErrorCode" not in printed, printed


def test_a_microphone_lost_in_the_game_is_told_plainly_with_its_reason_to_show() -> None:
    # The listening thread put PortAudio's text in the news the host says.
    inputs, stopping = InputQueue(), threading.Event()
    reasons: list[str] = []
    thread = threading.Thread(
        target=_listen,
        args=(HostConfig(), Listening(Silent(), Referee(), None), inputs, WallClock(), stopping),
        kwargs={"reason": reasons.append},
    )
    thread.start()
    try:
        news = inputs.get(DEADLOCK)
    finally:
        stopping.set()
        thread.join(DEADLOCK)
    assert news == MicStatus(False, "No microphone: I cannot hear the table.", shown=REASON)
    assert reasons == [REASON]


def test_a_microphone_lost_in_the_game_shows_its_reason_on_the_host_line(
    make_host: HostMaker,
) -> None:
    host, _clock, announcer = make_host(recognizer=Silent())
    screen = ScreenRecorder()
    host.screen = screen
    host.start()
    host.handle(MicStatus(False, "No microphone: I cannot hear the table.", shown=REASON))
    lost = "No microphone: I cannot hear the table. Play on with the keys; question mark for help."
    assert announcer.entries[-1].text == lost
    assert screen.models[-1].announcement == (
        f"{REASON} Play on with the keys; question mark for help."
    )
