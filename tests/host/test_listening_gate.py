"""The microphone gate and the recogniser's context while the host speaks."""

from __future__ import annotations

from collections.abc import Iterable

from voice_host.announce.protocol import SpeechInterval
from voice_host.announce.recording import RecordingAnnouncer
from voice_host.audio.chunk import AudioChunk
from voice_host.deck.model import Deck
from voice_host.host.clock import AudioClock
from voice_host.host.core import Host
from voice_host.host.listening import Listening
from voice_host.referee import Referee
from voice_host.referee.values import Situation
from voice_host.speech.events import ListenContext, RecognitionEvent

from .conftest import new_game

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

    def drain(self, timeout: float | None = None) -> bool:
        return True  # nothing queued that has not started

    def is_speaking(self, t: float | None = None) -> bool:
        return False


class _About(_Speaking):
    """A voice with a text queued from 9.95 s that starts sounding only at
    ``starts`` (its rendering and the sound system's start), until 12 s.  Its clock
    is the end of the last chunk asked about (a chunk is fed once it has ended)."""

    def __init__(self, starts: float) -> None:
        self.starts = starts
        self.now = 0.0

    def gate_overlaps(self, start: float, end: float) -> bool:
        self.now = end
        return end > self.starts and start < 12.0

    def drain(self, timeout: float | None = None) -> bool:
        return not 9.95 <= self.now < 12.0

    def is_speaking(self, t: float | None = None) -> bool:
        return self.starts <= self.now < 12.0


class _Private(_About):
    """The describer's card voice: queued with the host's, it starts at ``starts``
    on its own device (it shuts no microphone gate)."""

    def __init__(self, starts: float, host: _About) -> None:
        super().__init__(starts)
        self.host = host

    def drain(self, timeout: float | None = None) -> bool:
        self.now = self.host.now
        return super().drain(timeout)

    def is_speaking(self, t: float | None = None) -> bool:
        self.now = self.host.now
        return super().is_speaking(t)


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


def _fed_from_nine_point_nine(voice: _About, until: float, private: _Private | None = None) -> _Log:
    """A recogniser that heard "telescope" from 9.9 s, the host having said
    "Correct!" at 9.95 s (the context now "kangaroo"), fed 0.1 s chunks to ``until``."""
    recognizer = _Log()
    listening = Listening(recognizer, Referee(), voice)  # type: ignore[arg-type]
    listening.private = private  # type: ignore[assignment]
    listening.update(ListenContext(answers=("telescope",)), Situation())
    listening.feed(AudioChunk(CHUNK, 16000, 9.9))
    listening.update(ListenContext(answers=("kangaroo",)), Situation())
    t = 10.0
    while t < until - 1e-9:
        listening.feed(AudioChunk(CHUNK, 16000, t))
        t = round(t + 0.1, 1)
    return recognizer


def test_a_new_context_waits_for_the_host_voice_to_start() -> None:
    # Session 59, live_room.py: the new card's context (0.4-0.6 s in pocketsphinx,
    # holding Python's lock) was built on the chunk after the judgement, before the
    # host's "Chocolate, correct. Eight." had been rendered, whose rendering then
    # took 0.47 s instead of 0.015 s.  The recogniser listens on with the old
    # context until the host's voice sounds, and builds the new one behind it.
    recognizer = _fed_from_nine_point_nine(_About(starts=10.25), until=10.4)
    assert recognizer.calls == [
        ("start", ("telescope",)),
        ("feed", 9.9),
        ("feed", 10.0),  # queued, not sounding yet: the old context listens on
        ("feed", 10.1),
        ("finish", None),  # 10.2-10.3 touches the voice
        ("set_context", ("kangaroo",)),
    ]


def test_a_voice_that_never_starts_holds_the_new_context_back_one_second_at_most() -> None:
    # A device that hangs before the first sound must not leave the guessers of the
    # new card listened for with the old card's words.
    recognizer = _fed_from_nine_point_nine(_About(starts=99.0), until=11.3)
    built = [i for i, call in enumerate(recognizer.calls) if call[0] == "set_context"]
    assert len(built) == 1
    assert recognizer.calls[built[0] - 1] == ("feed", 10.9)  # waited from 10.0 to 11.0
    assert recognizer.calls[built[0] + 1] == ("feed", 11.0)


def test_with_nothing_queued_a_new_context_is_taken_at_once() -> None:
    # A printed host (or a change made while the voice says nothing): no voice to wait for.
    recognizer = _Log()
    listening = Listening(recognizer, Referee(), _Speaking())  # type: ignore[arg-type]
    listening.update(ListenContext(answers=("telescope",)), Situation())
    listening.feed(AudioChunk(CHUNK, 16000, 8.0))
    listening.update(ListenContext(answers=("kangaroo",)), Situation())
    listening.feed(AudioChunk(CHUNK, 16000, 8.1))
    assert recognizer.calls[-2:] == [("set_context", ("kangaroo",)), ("feed", 8.1)]


def test_a_new_context_also_waits_for_the_describers_card_voice_to_start() -> None:
    # The private card voice renders on the same engine, after the host's text: a
    # context built as soon as the host's voice sounded held the new card back from
    # the describer's headphones instead.
    host = _About(starts=10.25)
    recognizer = _fed_from_nine_point_nine(host, until=10.4, private=_Private(10.45, host))
    assert recognizer.calls[3:] == [("feed", 10.1), ("finish", None)]  # the host sounds
    host = _About(starts=10.25)
    recognizer = _fed_from_nine_point_nine(host, until=10.5, private=_Private(10.45, host))
    assert recognizer.calls[3:] == [
        ("feed", 10.1),
        ("finish", None),
        ("set_context", ("kangaroo",)),  # 10.4-10.5: the card sounds too
    ]


def test_the_host_tells_listening_of_the_card_voice(deck: Deck) -> None:
    clock = AudioClock()
    voice = RecordingAnnouncer(None, clock=clock.now)
    card_voice = RecordingAnnouncer(None, clock=clock.now)
    listening = Listening(_Log(), Referee(), voice)  # type: ignore[arg-type]
    Host(
        new_game(),
        deck,
        clock=clock,
        announcer=voice,
        listening=listening,
        card_announcer=card_voice,
    )
    assert listening.private is card_voice
