"""A machine too slow to listen is told once, after the turn (``host.keeping_up``):
before, guesses were answered later and later, and words were lost once the
microphone's queue filled, with nothing to tell the players why."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator

import pytest

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.config import HostConfig
from voice_host.deck.model import Entry
from voice_host.host.dialogue import listening_behind
from voice_host.host.inputs import InputQueue, Notice
from voice_host.host.keeping_up import BEHIND_FOR, BEHIND_SECONDS, ListeningLag
from voice_host.host.listening import Listening
from voice_host.host.live import _listen
from voice_host.referee import Referee
from voice_host.referee.values import Phase as RefPhase
from voice_host.referee.values import Situation
from voice_host.speech.events import ListenContext, RecognitionEvent

BLOCK = 0.1


def test_behind_for_long_enough_in_play_is_news_once() -> None:
    lag = ListeningLag()
    n = round(BEHIND_FOR / BLOCK)
    assert not any(lag.observe(BEHIND_SECONDS + 1, BLOCK, True) for _ in range(n - 1))
    # the fifth second of audio (give or take a rounding of the sum)
    assert lag.observe(BEHIND_SECONDS + 1, BLOCK, True) or lag.observe(BEHIND_SECONDS, BLOCK, True)
    assert not any(lag.observe(BEHIND_SECONDS + 1, BLOCK, True) for _ in range(3 * n))


def test_catching_up_starts_the_count_again() -> None:
    """One long transcription puts the thread behind for a while; it catches up."""
    lag = ListeningLag()
    n = round(BEHIND_FOR / BLOCK)
    for _ in range(5):
        assert not any(lag.observe(BEHIND_SECONDS + 1, BLOCK, True) for _ in range(n - 2))
        assert not lag.observe(0.05, BLOCK, True)


def test_between_turns_the_host_may_take_its_time() -> None:
    lag = ListeningLag()
    n = round(BEHIND_FOR / BLOCK)
    assert not any(lag.observe(BEHIND_SECONDS + 5, BLOCK, False, dropped=3) for _ in range(3 * n))
    # the blocks dropped between turns are old news in play
    assert not lag.observe(0.05, BLOCK, True, dropped=3)
    assert lag.observe(0.05, BLOCK, True, dropped=4)


def test_the_advice_names_what_to_do() -> None:
    spoken = listening_behind(True)
    assert "no second transcriber" in spoken and "--" not in spoken
    assert "--no-second-transcriber" in listening_behind(True, written=True)
    # already without it: nothing lighter to choose
    assert "transcriber" not in listening_behind(False)


class _Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t


class _Recogniser:
    """Takes ``cost(i)`` seconds of the (fake) clock to hear chunk ``i``."""

    name = "slow"

    def __init__(self, clock: _Clock, cost: dict[int, float], default: float) -> None:
        self.clock, self.cost, self.default, self.fed = clock, cost, default, 0

    def start(self, context: ListenContext) -> None: ...
    def prepare(self, contexts: Iterable[ListenContext]) -> None: ...
    def set_context(self, context: ListenContext) -> None: ...

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        self.clock.t += self.cost.get(self.fed, self.default)
        self.fed += 1
        return []

    def finish(self) -> list[RecognitionEvent]:
        return []


def _news(
    monkeypatch: pytest.MonkeyPatch, cost: dict[int, float], default: float, seconds: float
) -> list[object]:
    """What the real listening thread puts for the host while a microphone delivers
    ``seconds`` of audio in real time (on a fake clock) in a turn, and the recogniser
    spends ``cost`` on each chunk."""
    clock = _Clock()
    n = round(BLOCK * SAMPLE_RATE)

    class Microphone:
        dropped_blocks = 0

        def __init__(self, device: object, on_event: object = None) -> None: ...

        def __iter__(self) -> Iterator[AudioChunk]:
            for i in range(round(seconds / BLOCK)):
                chunk = AudioChunk(bytes(2 * n), SAMPLE_RATE, i * BLOCK)
                clock.t = max(clock.t, chunk.end_time)  # heard, then read when the reader comes
                yield chunk
            threading.Event().wait(5.0)  # then nothing, as a stalled device would

        def close(self) -> None: ...

    monkeypatch.setattr("voice_host.audio.microphone.MicrophoneSource", Microphone)
    inputs, stopping = InputQueue(), threading.Event()
    listening = Listening(_Recogniser(clock, cost, default), Referee(), None)
    entry = Entry("Poster", "Object", ("poster",))
    listening.update(
        ListenContext.for_entry(entry, (), ()), Situation(entry=entry, phase=RefPhase.TURN)
    )
    thread = threading.Thread(
        target=_listen, args=(HostConfig(), listening, inputs, clock, stopping)
    )
    thread.start()
    try:
        news = []
        while (item := inputs.get(3.0)) is not None:
            news.append(item)
        # the microphone's silence is other news (test_host_notices.py)
        return [x for x in news if not (isinstance(x, Notice) and "microphone" in x.text)]
    finally:
        stopping.set()
        thread.join(10.0)


def test_a_recogniser_slower_than_the_room_is_told(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three times slower than the room: 2 s behind after 10 chunks, told 5 s later."""
    news = _news(monkeypatch, {}, 3 * BLOCK, 30.0)
    text = listening_behind(True)
    assert news == [Notice(text, later=True, shown=listening_behind(True, written=True))]


def test_one_long_transcription_is_not_news(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 4 s stall on one utterance's end, then the thread catches up."""
    assert _news(monkeypatch, {50: 4.0}, 0.01, 30.0) == []
