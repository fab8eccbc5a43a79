"""Concurrency and timing faults of the live host (threads audit): each test replays,
on one thread and in a fixed order, an interleaving the live threads can produce."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator

import pytest

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.config import HostConfig
from voice_host.host.clock import WallClock
from voice_host.host.inputs import InputQueue, MicStatus
from voice_host.host.listening import Listening
from voice_host.host.live import _listen
from voice_host.referee import Referee
from voice_host.speech.events import HeardWord, ListenContext, RecognitionEvent

CHUNK = SAMPLE_RATE // 10  # samples in 0.1 s


class _Caller:
    """A recogniser that hears ``word`` called out in every chunk marked loud."""

    name = "caller"

    def __init__(self) -> None:
        self.word = ""

    def start(self, context: ListenContext) -> None: ...
    def prepare(self, contexts: Iterable[ListenContext]) -> None: ...
    def set_context(self, context: ListenContext) -> None: ...

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        if chunk.samples[:2] != b"\x01\x00":
            return []
        word = HeardWord(self.word, chunk.start_time, chunk.end_time)
        return [RecognitionEvent("final", (word,), chunk.end_time, "free")]

    def finish(self) -> list[RecognitionEvent]:
        return []


class _BrokenRecognizer:
    """A recogniser whose decoder fails (a bug or an engine error that is no OSError)."""

    name = "broken"

    def __init__(self, stopping: threading.Event, fails: int = 1) -> None:
        self._stopping = stopping
        self._fails = fails

    def start(self, context: ListenContext) -> None: ...
    def prepare(self, contexts: Iterable[ListenContext]) -> None: ...
    def set_context(self, context: ListenContext) -> None: ...

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        self._fails -= 1
        if self._fails <= 0:
            self._stopping.set()  # the thread may stop now
        raise RuntimeError("decoder state corrupted")

    def finish(self) -> list[RecognitionEvent]:
        return []


def test_a_recogniser_error_is_told_to_the_host_not_a_silent_deaf_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The listening thread caught only OSError and VoiceHostError: any other error in
    the recogniser or the referee ended the thread silently (a traceback on stderr,
    hidden under the board view), while the host went on offering spoken commands to
    a table it could no longer hear."""

    class Microphone:
        def __init__(self, device: object, on_event: object = None) -> None: ...

        def __iter__(self) -> Iterator[AudioChunk]:
            for i in range(5):
                yield AudioChunk(bytes(2 * CHUNK), SAMPLE_RATE, i / 10)

        def close(self) -> None: ...

    monkeypatch.setattr("voice_host.audio.microphone.MicrophoneSource", Microphone)
    monkeypatch.setattr("voice_host.host.live.RETRY_SECONDS", 0.0)
    inputs, stopping = InputQueue(), threading.Event()
    # It fails again at every retry: said once, never "back" in between.
    listening = Listening(_BrokenRecognizer(stopping, fails=3), Referee(), None)
    _listen(HostConfig(), listening, inputs, WallClock(), stopping)  # returns, no raise
    news = []
    while (item := inputs.get(0.0)) is not None:
        news.append(item)
    assert news == [MicStatus(False, "Listening stopped: decoder state corrupted.")]
