"""Concurrency and timing faults of the live host (threads audit): each test replays,
on one thread and in a fixed order, an interleaving the live threads can produce."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.config import HostConfig
from voice_host.host.clock import WallClock
from voice_host.host.core import LISTEN_LAG_MAX
from voice_host.host.inputs import Heard, InputQueue, KeyPress, MicStatus
from voice_host.host.listening import Listening
from voice_host.host.live import _listen
from voice_host.referee import Referee
from voice_host.referee.values import Judgement
from voice_host.rules import Correct, Foul, TimeUp
from voice_host.speech.events import HeardWord, ListenContext, RecognitionEvent

from .conftest import HostMaker

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


def _until_go(host: Any, clock: Any) -> float:
    """Feed quiet chunks until the turn's timer runs ("Go!" said); the audio time then."""
    t = 0.0
    while not host.timer.running:
        chunk = AudioChunk(bytes(2 * CHUNK), SAMPLE_RATE, t)
        clock.advance_to(chunk.end_time)
        host.hear(chunk)
        t = chunk.end_time
    return t


def _heard_at(host: Any, clock: Any, said: float, judged: float) -> None:
    """The caller's word said in the chunk from ``said``, its judgement taken at ``judged``."""
    loud = AudioChunk(b"\x01\x00" * CHUNK, SAMPLE_RATE, said)
    clock.advance_to(judged)
    assert host.listening is not None
    host.handle(Heard(tuple(host.listening.feed(loud))))


def _guess_counted(make_host: HostMaker) -> tuple[Any, Any, float, str]:
    """A turn whose first card a guesser calls at ``t`` + 4.9 and the host counts at
    ``t`` + 5.5: the host, its clock, ``t`` (when "Go!" ended) and that card."""
    caller = _Caller()
    host, clock, _ = make_host(recognizer=caller, timer=30.0)
    host.start()
    caller.word = host.entry_text().lower()
    t = _until_go(host, clock)
    first = host.entry_text()
    _heard_at(host, clock, t + 4.9, t + 5.5)
    return host, clock, t, first


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
        dropped_blocks = 0

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
    said, shown = "Listening stopped: my speech recognition failed.", "decoder state corrupted"
    assert news == [MicStatus(False, said, shown=f"Listening stopped: {shown}.")]


class _Stream:
    """An input stream that delivers ``blocks`` blocks as it starts, then goes quiet
    (an unplugged USB microphone raises nothing)."""

    def __init__(self, blocks: int, callback: Callable[..., None]) -> None:
        self.blocks, self.callback, self.active = blocks, callback, False

    def start(self) -> None:
        self.active = True
        for _ in range(self.blocks):
            self.callback(bytes(2 * 800), 800, None, None)

    def stop(self) -> None:
        self.active = False

    def close(self) -> None: ...


class _SoundDevice:
    """The parts of ``sounddevice`` the microphone uses: one stream per plan."""

    PortAudioError = RuntimeError

    def __init__(self, plans: list[int], opened: Callable[[], None]) -> None:
        self.plans, self.opened = plans, opened
        self.default = SimpleNamespace(device=[0, 0])

    def query_devices(self) -> list[dict[str, object]]:
        return [{"name": "USB Mic", "max_input_channels": 1, "default_samplerate": 16000.0}]

    def RawInputStream(self, **kwargs: Any) -> _Stream:
        if not self.plans:
            raise RuntimeError("device unavailable")
        self.opened()
        return _Stream(self.plans.pop(0), kwargs["callback"])


def test_after_a_stall_and_reopen_chunks_are_stamped_when_they_were_heard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The microphone's audio time counts samples delivered and does not run on over a
    stall; the listening thread fixed its offset to the wall clock once per source, so
    after a stall and reopen (1 s watchdog + 0.5 s backoff at least) every chunk was
    stamped that much early: the host's own voice slipped past the gate, a guess after
    the buzzer counted, a spoken CONTROL claim beat an earlier buzzer key."""
    from voice_host.audio import microphone

    class Wall:
        t = 100.0

        def now(self) -> float:
            return self.t

        def look(self) -> float:
            self.t += 0.25  # every look of the watchdog passes some time
            return self.t

        def sleep(self, seconds: float) -> None:
            self.t += seconds

    wall = Wall()
    opened_at: list[float] = []
    # Four blocks, silence (a stall), then five blocks from the reopened stream.
    sd = _SoundDevice([4, 5], lambda: opened_at.append(wall.t))
    real_source = microphone.MicrophoneSource

    def source(
        device: object, on_event: Callable[[microphone.MicrophoneEvent], None] | None = None
    ) -> microphone.MicrophoneSource:
        return real_source(
            None,
            on_event=on_event,
            sd=sd,
            sleep=wall.sleep,
            clock=wall.look,
            stall_seconds=1.0,
            backoff=(0.5,),
        )

    monkeypatch.setattr(microphone, "MicrophoneSource", source)
    inputs, stopping = InputQueue(), threading.Event()
    heard: list[AudioChunk] = []

    class Counting(_Caller):
        def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
            heard.append(chunk)
            if len(heard) == 8:
                stopping.set()  # the 9th chunk ends the thread
            return []

    _listen(HostConfig(), Listening(Counting(), Referee(), None), inputs, wall, stopping)
    assert len(heard) == 8 and len(opened_at) == 2
    # The first block of the reopened stream came as it opened, not 2.35 s before.
    assert heard[4].start_time >= opened_at[1] - 0.1, (heard[4].start_time, opened_at[1])


def test_a_spoken_foul_of_a_card_scored_by_key_does_not_forfeit_the_next(
    make_host: HostMaker,
) -> None:
    """A key and a spoken judgement for the same card: the describer says the card's
    word at 5.0 as a guesser gets it and C is pressed at 5.2; the foul's judgement
    arrives 0.8 s later (endpointing and decoding) and fell on the next card ("Foul:
    'poster' is the word itself, Telescope."), forfeiting it."""
    host, clock, _ = make_host(recognizer=_Caller(), timer=30.0)
    host.start()
    t = _until_go(host, clock)
    first = host.entry_text()
    clock.advance_to(t + 5.2)
    host.handle(KeyPress("c", t + 5.2))
    second = host.entry_text()
    assert second != first
    foul = Judgement("foul", t + 5.0, first.lower(), kind="word", evidence="said the word")
    clock.advance_to(t + 6.0)
    host.handle(Heard((foul,)))
    assert [type(i) for i in host.game.inputs] == [Correct]
    assert host.entry_text() == second
    # A foul said while the new card is in play still counts.
    late = Judgement("foul", t + 6.5, second.lower(), kind="word", evidence="said the word")
    clock.advance_to(t + 7.0)
    host.handle(Heard((late,)))
    assert [type(i) for i in host.game.inputs] == [Correct, Foul]


def test_a_guess_said_before_the_buzzer_counts_when_its_judgement_lands_after_time_up(
    make_host: HostMaker,
) -> None:
    """R8: a guess counts by when it was spoken.  The listening thread judges the last
    words before the buzzer; before it puts them on the queue, the host loop (its
    queue empty) ticks past the buzzer and its grace, flushes the recogniser (nothing
    left in it) and applies TimeUp.  The guess then arrives for the next turn."""
    caller = _Caller()
    host, clock, _ = make_host(recognizer=caller, timer=12.0)
    assert host.listening is not None
    host.start()
    caller.word = host.entry_text().lower()
    t = _until_go(host, clock)
    buzzer = host.timer.buzzer
    assert buzzer is not None
    while t + 0.1 < buzzer - 0.2:
        chunk = AudioChunk(bytes(2 * CHUNK), SAMPLE_RATE, t)
        clock.advance_to(chunk.end_time)
        host.hear(chunk)
        t = chunk.end_time
    # "Telescope!" ends 0.15 s before the buzzer; the listening thread judges it...
    loud = AudioChunk(b"\x01\x00" * CHUNK, SAMPLE_RATE, buzzer - 0.25)
    clock.advance_to(loud.end_time)
    judged = host.listening.feed(loud)
    assert [j.type for j in judged] == ["guess"]
    # ...and the audio after it, to the end of the grace (the host waits for that)...
    host.listening.feed(AudioChunk(bytes(10 * CHUNK), SAMPLE_RATE, loud.end_time))
    # ...while the host loop, its queue empty, reaches the end of the grace...
    clock.advance_to(buzzer + host.options.grace + 0.05)
    host.tick(clock.now())
    # ...and only then takes the judgement from the queue: counted once, before TimeUp.
    host.handle(Heard(tuple(judged)))
    kinds = [type(i) for i in host.game.inputs]
    assert kinds == [Correct, TimeUp], kinds
    assert sum("correct" in s.text.casefold() for s in host.said) == 1


def test_a_failing_keyboard_thread_tells_the_host_rather_than_dying_silently() -> None:
    """The keyboard thread caught only EOFError: an OSError from the terminal, a byte
    that is not UTF-8 in piped keys or a failing screen-reader hook ended it with a
    traceback, and the host was never told, so with no microphone either it was not
    "stranded" and ran turns out forever, deaf to every key."""
    import io

    from voice_host.host.inputs import KeysClosed, Notice
    from voice_host.host.live import _keys

    def hook(_t: float) -> None:
        raise RuntimeError("reader gone")

    inputs, stopping = InputQueue(), threading.Event()
    _keys(io.StringIO("c\n"), inputs, WallClock(), stopping, hook)  # returns, no raise
    news = []
    while (item := inputs.get(0.0)) is not None:
        news.append(item)
    assert news == [
        Notice("The keyboard stopped.", shown="The keyboard stopped: reader gone."),
        KeysClosed(),
    ]


@pytest.mark.parametrize(("key", "command"), [("c", "correct"), ("f", "foul")])
def test_a_spoken_command_for_a_card_already_moved_on_by_key_does_not_act_on_the_next(
    make_host: HostMaker, key: str, command: str
) -> None:
    """ "Host correct" said at 5.0 while the describer presses C at 5.2: the key scored
    the card, then the spoken command (judged at the end of its utterance) scored the
    next card too, one nobody had described: a doubled point (a foul: a lost card)."""
    host, clock, _ = make_host(recognizer=_Caller(), timer=30.0)
    host.start()
    t = _until_go(host, clock)
    clock.advance_to(t + 5.2)
    host.handle(KeyPress(key, t + 5.2))
    assert len(host.game.inputs) == 1
    said = Judgement("command", t + 5.0, f"host {command}", command=command, evidence="")
    clock.advance_to(t + 6.0)
    host.handle(Heard((said,)))
    assert len(host.game.inputs) == 1, host.game.inputs
    # The same command said once the new card is in play acts on it.
    again = Judgement("command", t + 6.5, f"host {command}", command=command, evidence="")
    clock.advance_to(t + 7.0)
    host.handle(Heard((again,)))
    assert len(host.game.inputs) == 2, host.game.inputs


def test_a_spoken_claim_for_a_round_card_passed_by_key_is_not_a_claim_on_the_next(
    make_host: HostMaker,
) -> None:
    """A CONTROL round: "Blue!" called at 5.0 for the card in play while P (nobody can
    get it: another card) is pressed at 5.2; the claim arrived after the new card was
    drawn and won Blue the round on a card nobody had described."""
    from voice_host.rules import Phase, TimeUp

    from .conftest import new_game

    game = new_game()
    for inp in (Correct(), Correct(), TimeUp()):  # Red lands on CONTROL (R13)
        game.apply(inp)
    assert game.phase is Phase.CONTROL_ROUND
    host, clock, _ = make_host(recognizer=_Caller(), game=game)
    host.start()
    clock.advance_to(5.2)
    host.handle(KeyPress("p", 5.2))
    claim = Judgement("command", 5.0, "blue", command="team", argument="Blue", evidence="")
    clock.advance_to(6.0)
    host.handle(Heard((claim,)))
    assert not host.claims.open


def test_c_pressed_as_the_host_counts_a_heard_guess_does_not_score_the_next_card(
    make_host: HostMaker,
) -> None:
    """The guesser calls the answer at 5.0, the host counts it at 5.5 and says so; the
    describer, hearing it right, presses C at 5.6 as always.  That scored the next
    card too, which nobody had described ("Poster, correct. One." then "Telescope,
    correct. Two.").  C that soon is taken as confirming the card; a second C counts."""
    host, clock, t, first = _guess_counted(make_host)
    assert [type(i) for i in host.game.inputs] == [Correct]
    clock.advance_to(t + 5.6)
    host.handle(KeyPress("c", t + 5.6))
    assert [type(i) for i in host.game.inputs] == [Correct]
    assert f"{first} is counted already." in host.said[-1].text
    # a second C, meant for the new card, counts
    clock.advance_to(t + 6.2)
    host.handle(KeyPress("c", t + 6.2))
    assert [type(i) for i in host.game.inputs] == [Correct, Correct]


def test_c_long_after_a_heard_guess_scores_the_next_card(make_host: HostMaker) -> None:
    host, clock, t, _ = _guess_counted(make_host)
    clock.advance_to(t + 12.0)
    host.handle(KeyPress("c", t + 12.0))
    assert [type(i) for i in host.game.inputs] == [Correct, Correct]


def test_c_pressed_before_the_heard_guess_was_counted_but_handled_after_it_scores_once(
    make_host: HostMaker,
) -> None:
    """The key at 5.45 waited in the queue behind the guess the host counted at 5.5:
    it was pressed for the same card."""
    host, _clock, t, _ = _guess_counted(make_host)
    host.handle(KeyPress("c", t + 5.45))
    assert [type(i) for i in host.game.inputs] == [Correct]


def test_c_after_an_undo_of_a_heard_guess_counts_the_card_again(make_host: HostMaker) -> None:
    """The host counts a heard guess at 5.5 (misheard, or said too soon); the describer
    undoes it at 5.9 and, the card got right at last, presses C at 6.6.  That C was
    taken as confirming the undone count ("Poster is counted already.") and counted
    nothing: a card the table got, lost unless C was pressed again."""
    host, clock, t, first = _guess_counted(make_host)
    assert [type(i) for i in host.game.inputs] == [Correct]
    clock.advance_to(t + 5.9)
    host.handle(KeyPress("u", t + 5.9))
    assert not host.game.inputs and host.entry_text() == first
    clock.advance_to(t + 6.6)
    host.handle(KeyPress("c", t + 6.6))
    assert [type(i) for i in host.game.inputs] == [Correct]
    assert "counted already" not in host.said[-1].text


def test_host_correct_said_as_the_host_counts_a_heard_guess_is_timed_by_when_it_was_said(
    make_host: HostMaker,
) -> None:
    """The host counts a heard guess at 5.5; the describer says "host correct" from 5.8,
    confirming it.  Its judgement arrives at 7.2 (the words, the pause that ends them,
    decoding): timed by its arrival it was 1.7 s after the count, past
    ALREADY_COUNTED_SECONDS, and scored the next card, which nobody had described."""
    host, clock, t, first = _guess_counted(make_host)
    assert [type(i) for i in host.game.inputs] == [Correct]
    said = Judgement("command", t + 5.8, "host correct", command="correct", evidence="")
    clock.advance_to(t + 7.2)
    host.handle(Heard((said,)))
    assert [type(i) for i in host.game.inputs] == [Correct]
    assert f"{first} is counted already." in host.said[-1].text


@pytest.mark.parametrize(("key", "kind"), [("f", "foul"), ("p", "pass")])
def test_p_or_f_pressed_before_a_heard_guess_moved_the_card_on_does_not_hit_the_next(
    make_host: HostMaker, key: str, kind: str
) -> None:
    """F pressed at 5.45 waited in the queue behind the guess the host counted at 5.5:
    it forfeited the next card, which nobody had described.  It is told, not applied;
    pressed again, it counts."""
    host, clock, t, _ = _guess_counted(make_host)
    host.handle(KeyPress(key, t + 5.45))
    assert [type(i) for i in host.game.inputs] == [Correct]
    assert f"no {kind} for this one" in host.said[-1].text
    clock.advance_to(t + 6.0)
    host.handle(KeyPress(key, t + 6.0))
    assert len(host.game.inputs) == 2


def _quiet_until(host: Any, clock: Any, t: float, until: float) -> float:
    while t + 0.1 <= until:
        chunk = AudioChunk(bytes(2 * CHUNK), SAMPLE_RATE, t)
        clock.advance_to(chunk.end_time)
        host.hear(chunk)
        t = chunk.end_time
    return t


@pytest.mark.parametrize("how", ["space", "question"])
def test_a_guess_after_a_pause_counts_past_the_buzzer_of_before_the_pause(
    make_host: HostMaker, how: str
) -> None:
    # The referee was told the situation only when the game changed: after a pause
    # (space, or a question holding the timer: "host quit" answered N) it kept the
    # buzzer of before the pause, and a guess after that moment, with 15 s still on the
    # clock, was judged "after the buzzer" and lost (session 54's review).
    caller = _Caller()
    host, clock, _ = make_host(recognizer=caller, timer=30.0)
    host.start()
    caller.word = host.entry_text().lower()
    t = _until_go(host, clock)
    old_buzzer = host.timer.buzzer
    t = _quiet_until(host, clock, t, t + 2.0)
    host.handle(KeyPress(" " if how == "space" else "q", t))
    # paused 20 s; a question lapses at 10 s, so it is answered at 9
    t = _quiet_until(host, clock, t, t + (20.0 if how == "space" else 9.0))
    host.handle(KeyPress(" " if how == "space" else "n", t))
    t = _quiet_until(host, clock, t, old_buzzer + 2.0)
    assert host.timer.running and host.timer.left(t) > 5
    _heard_at(host, clock, t, t + 0.5)
    assert [type(i).__name__ for i in host.game.inputs] == ["Correct"]


def test_a_guess_before_the_buzzer_still_waiting_to_be_fed_counts(make_host: HostMaker) -> None:
    # R8: the word ended before the buzzer, but its audio still waited in the
    # microphone's queue (the listening thread busy with the utterance before it) when
    # the host reached the buzzer's grace: the turn ended, and the guess was judged
    # against the next one (session 54's review).  The host waits for the audio.
    caller = _Caller()
    host, clock, _ = make_host(recognizer=caller, timer=12.0)
    host.start()
    caller.word = host.entry_text().lower()
    t = _until_go(host, clock)
    buzzer = host.timer.buzzer
    t = _quiet_until(host, clock, t, buzzer - 0.3)
    late = t  # the guess's chunk, spoken before the buzzer, still queued
    clock.advance_to(buzzer + host.options.grace + 0.05)
    host.tick(clock.now())
    assert host.game.inputs == ()  # not ended: its audio is not all heard yet
    assert host.listening is not None
    loud = AudioChunk(b"\x01\x00" * CHUNK, SAMPLE_RATE, late)
    host.handle(Heard(tuple(host.listening.feed(loud))))
    host.listening.feed(AudioChunk(bytes(20 * CHUNK), SAMPLE_RATE, loud.end_time))  # caught up
    host.tick(clock.now())
    assert [type(i).__name__ for i in host.game.inputs] == ["Correct", "TimeUp"]


def test_the_buzzer_waits_for_a_stalled_microphone_a_second_at_most(make_host: HostMaker) -> None:
    caller = _Caller()
    host, clock, _ = make_host(recognizer=caller, timer=12.0)
    host.start()
    t = _until_go(host, clock)
    buzzer = host.timer.buzzer
    _quiet_until(host, clock, t, buzzer - 2.0)  # then nothing more comes
    ending = buzzer + host.options.grace
    clock.advance_to(ending + LISTEN_LAG_MAX - 0.05)
    host.tick(clock.now())
    assert host.game.inputs == ()
    clock.advance_to(ending + LISTEN_LAG_MAX + 0.05)
    host.tick(clock.now())
    assert [type(i).__name__ for i in host.game.inputs] == ["TimeUp"]
