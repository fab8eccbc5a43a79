"""The microphone gate and the recogniser's context while the host speaks."""

from __future__ import annotations

from collections.abc import Iterable

from voice_host.announce.protocol import SpeechInterval
from voice_host.audio.chunk import AudioChunk
from voice_host.host.listening import Listening
from voice_host.referee import Referee
from voice_host.referee.values import Situation
from voice_host.speech.events import ListenContext, RecognitionEvent

CHUNK = b"\x00\x00" * 1600  # 0.1 s


class _Log:
    """A recogniser that only writes down what it was asked, and when."""

    name = "log"

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []

    def start(self, context: ListenContext) -> None:
        self.calls.append(("start", context.answers))

    def prepare(self, contexts: Iterable[ListenContext]) -> None:
        self.calls.append(("prepare", tuple(c.answers for c in contexts)))

    def set_context(self, context: ListenContext) -> None:
        self.calls.append(("set_context", context.answers))

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        self.calls.append(("feed", round(chunk.start_time, 1)))
        return []

    def finish(self) -> list[RecognitionEvent]:
        self.calls.append(("finish", None))
        return []


class _Speaking:
    """The host's voice: it speaks from 10 s to 12 s (gate and tail included)."""

    def gate_overlaps(self, start: float, end: float) -> bool:
        return end > 10.0 and start < 12.0

    def speech_intervals(self) -> tuple[SpeechInterval, ...]:
        return (SpeechInterval(10.0, 11.5, "Correct! One."),)


def test_a_new_cards_context_is_taken_while_the_host_speaks() -> None:
    # Building a new card's context costs about a second of CPU.  Taken when the
    # microphone opens again, it delayed the guessers' next answer by as much;
    # taken while the host announces the change, it costs them nothing.
    recognizer = _Log()
    listening = Listening(recognizer, Referee(), _Speaking())  # type: ignore[arg-type]
    listening.update(ListenContext(answers=("telescope",)), Situation())
    listening.feed(AudioChunk(CHUNK, 16000, 9.9))
    listening.update(ListenContext(answers=("kangaroo",)), Situation())  # "Correct!"
    listening.feed(AudioChunk(CHUNK, 16000, 10.0))
    listening.feed(AudioChunk(CHUNK, 16000, 10.1))
    assert recognizer.calls == [
        ("start", ("telescope",)),
        ("feed", 9.9),
        ("finish", None),
        ("set_context", ("kangaroo",)),
    ]
    listening.feed(AudioChunk(CHUNK, 16000, 12.0))  # the gate opens: just listen
    assert recognizer.calls[-1] == ("feed", 12.0)
    assert [c for c, _ in recognizer.calls].count("set_context") == 1


def test_the_first_cards_context_is_also_taken_while_the_host_speaks() -> None:
    # The game's opening announcement hides the first card's context too.
    recognizer = _Log()
    listening = Listening(recognizer, Referee(), _Speaking())  # type: ignore[arg-type]
    listening.update(ListenContext(answers=("telescope",)), Situation())
    listening.feed(AudioChunk(CHUNK, 16000, 11.0))
    assert recognizer.calls == [("finish", None), ("start", ("telescope",))]
    listening.feed(AudioChunk(CHUNK, 16000, 12.0))
    assert recognizer.calls[-1] == ("feed", 12.0)
    assert len(recognizer.calls) == 3


def test_the_recogniser_learns_every_context_ahead_before_it_first_listens() -> None:
    # A word the recogniser's dictionary lacks costs it a rebuild of every search
    # it holds (up to 0.7 s); learnt before the first card, all at once, it does not.
    recognizer = _Log()
    listening = Listening(recognizer, Referee(), _Speaking())  # type: ignore[arg-type]
    listening.prepare(ListenContext(answers=(w,)) for w in ("telescope", "kangaroo"))
    listening.update(ListenContext(answers=("telescope",)), Situation())
    assert recognizer.calls == []  # learnt on the listening thread, not the caller's
    listening.feed(AudioChunk(CHUNK, 16000, 11.0))
    assert recognizer.calls == [
        ("finish", None),
        ("prepare", (("telescope",), ("kangaroo",))),
        ("start", ("telescope",)),
    ]
    listening.feed(AudioChunk(CHUNK, 16000, 12.0))
    assert [c for c, _ in recognizer.calls].count("prepare") == 1
