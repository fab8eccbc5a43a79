"""What the table hears when the listening or the keyboard thread fails: a few plain
words on the host's voice, and the error's own words printed (line mode) or shown (the
board view's host line) for whoever reads them."""

from __future__ import annotations

import errno
import io
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from voice_host.announce.protocol import AnnounceOptions
from voice_host.announce.recording import RecordingAnnouncer
from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.config import HostConfig
from voice_host.host.clock import WallClock
from voice_host.host.inputs import InputQueue, KeysClosed, MicStatus, Notice
from voice_host.host.listening import Listening
from voice_host.host.live import LiveSession, _listen
from voice_host.referee import Referee
from voice_host.speech.events import ListenContext, RecognitionEvent

from .conftest import live_config

#: Seconds a test waits for a thread (never reached when passing).
DEADLOCK = 10.0


class _Broken:
    """A recogniser whose decoder breaks on the first chunk."""

    name = "broken"

    def start(self, context: ListenContext) -> None: ...
    def prepare(self, contexts: object) -> None: ...
    def set_context(self, context: ListenContext) -> None: ...
    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        raise RuntimeError("decoder state corrupted at frame 4312")

    def finish(self) -> list[RecognitionEvent]:
        return []


class _Microphone:
    dropped_blocks = 0

    def __init__(self, device: object, on_event: object = None) -> None: ...

    def __iter__(self) -> Iterator[AudioChunk]:
        yield AudioChunk(bytes(3200), SAMPLE_RATE, 0.0)

    def close(self) -> None: ...


def test_a_recogniser_failing_in_the_game_is_told_plainly_with_its_reason_to_print(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The host said the error's own text: "Listening stopped: decoder state corrupted
    # at frame 4312. Play on with the keys; ...".
    monkeypatch.setattr("voice_host.audio.microphone.MicrophoneSource", _Microphone)
    inputs, stopping = InputQueue(), threading.Event()
    reasons: list[str] = []
    listening = Listening(_Broken(), Referee(), None)  # type: ignore[arg-type]
    thread = threading.Thread(
        target=_listen,
        args=(HostConfig(), listening, inputs, WallClock(), stopping),
        kwargs={"reason": reasons.append},
    )
    thread.start()
    try:
        news = inputs.get(DEADLOCK)
    finally:
        stopping.set()
        thread.join(DEADLOCK)
    shown = "Listening stopped: decoder state corrupted at frame 4312."
    assert news == MicStatus(False, "Listening stopped: my speech recognition failed.", shown=shown)
    assert reasons == [shown]


class _Gone(io.StringIO):
    """Keys from a terminal that went away: every read fails."""

    def readline(self, size: int | None = -1) -> str:
        raise OSError(errno.EIO, "Input/output error")

    def read(self, size: int | None = -1) -> str:
        raise OSError(errno.EIO, "Input/output error")


@pytest.mark.parametrize("screen_reader", [False, True], ids=["line-mode", "screen-reader"])
def test_the_keyboard_failing_is_said_plainly_and_its_reason_printed(
    tmp_path: Path, screen_reader: bool
) -> None:
    # The host said the error's text: "The keyboard stopped: [Errno 5] Input/output error."
    announcer = RecordingAnnouncer(clock=WallClock().now, options=AnnounceOptions(rate=3000))
    config = live_config(tmp_path, teams="Red:Ann,Bob;Blue:Cat,Dan", screen_reader=screen_reader)
    out = io.StringIO()
    session = LiveSession.open(
        config, stdout=out, env={}, clock=WallClock(), board_view=False, announcer=announcer
    )
    thread = threading.Thread(target=session.run_lines, args=(_Gone(),))
    thread.start()
    thread.join(DEADLOCK)  # no keys and no microphone: the host stops, saved
    assert not thread.is_alive()
    said = [e.text for e in announcer.entries]
    assert "The keyboard stopped." in said, said
    assert not any("Errno" in text or "Input/output" in text for text in said), said
    reason = "The keyboard stopped: [Errno 5] Input/output error."
    assert (reason in out.getvalue()) is not screen_reader, out.getvalue()


def test_the_keyboard_thread_tells_plain_words_and_gives_its_reason() -> None:
    from voice_host.host.live import _keys

    inputs, stopping = InputQueue(), threading.Event()
    reasons: list[str] = []
    _keys(_Gone(), inputs, WallClock(), stopping, None, reasons.append)
    news = []
    while (item := inputs.get(0.0)) is not None:
        news.append(item)
    reason = "The keyboard stopped: [Errno 5] Input/output error."
    assert news == [Notice("The keyboard stopped.", shown=reason), KeysClosed()]
    assert reasons == [reason]
