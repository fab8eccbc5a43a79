"""The host's voice when its output was missing at start: found again, and said so."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from voice_host.announce.player import Player
from voice_host.announce.protocol import AnnounceOptions
from voice_host.announce.render import RenderedAudio, VoiceSettings
from voice_host.announce.returning import ReturningAnnouncer
from voice_host.errors import DeviceError
from voice_host.host import dialogue
from voice_host.host.clock import AudioClock
from voice_host.host.core import Host
from voice_host.host.inputs import KeyPress
from voice_host.rules import Phase

from .conftest import HostMaker

#: Seconds a test waits for the voice's thread (never reached when passing).
DEADLOCK = 10.0


class Renderer:
    def render(self, text: str, settings: VoiceSettings) -> RenderedAudio:
        return Audio(b"\x00\x00" * 10, 1000, text)

    def render_to_file(self, text: str, path: Path, settings: VoiceSettings) -> RenderedAudio:
        raise NotImplementedError

    def voices(self) -> list[tuple[str, str]]:
        return []

    def close(self) -> None: ...


class Audio(RenderedAudio):
    def __init__(self, samples: bytes, rate: int, text: str) -> None:
        super().__init__(samples, rate)
        object.__setattr__(self, "text", text)


class Speaker:
    """An output that plays at once (the host's clock does not move) and keeps the texts."""

    def __init__(self) -> None:
        self.played: list[str] = []

    def play(
        self, audio: RenderedAudio, *, on_start: Callable[[], None], cancel: threading.Event
    ) -> bool:
        on_start()
        self.played.append(getattr(audio, "text", "(silence)"))
        return True

    def close(self) -> None: ...


class Output:
    """The sound server: missing until ``up``; ``asked`` says when it was tried."""

    def __init__(self, clock: AudioClock) -> None:
        self.clock = clock
        self.up = False
        self.asked: list[float] = []
        self.speaker = Speaker()

    def __call__(self, device: int | str | None) -> Player:
        self.asked.append(self.clock.now())
        if not self.up:
            raise DeviceError("the default audio output is not available")
        return self.speaker


def _returning(
    clock: AudioClock, output: Output, printed: list[str], options: AnnounceOptions
) -> ReturningAnnouncer:
    return ReturningAnnouncer(
        Renderer(),
        output,
        options,
        clock=clock.now,
        printer=printed.append,
        start=lambda work: work(),  # the attempt at once, not on a thread
    )


def _host(make_host: HostMaker, **kw: object) -> tuple[Host, AudioClock, Output, list[str]]:
    host, clock, _ = make_host(**kw)
    output = Output(clock)
    printed: list[str] = []
    host.announcer = _returning(clock, output, printed, AnnounceOptions())
    return host, clock, output, printed


def _ticks(host: Host, clock: AudioClock, start: float, end: float, step: float = 0.05) -> None:
    t = start
    while t <= end:
        clock.advance_to(t)
        host.tick(t)
        t = round(t + step, 6)


def _said(host: Host, text: str) -> list[float]:
    return [s.at for s in host.said if s.text == text]


def test_the_voice_comes_back_between_turns_and_says_so_once(make_host: HostMaker) -> None:
    # No sound server at start: the evening went on in print, silent, even once the
    # server came up.  Now the output is tried again and the host speaks again.
    host, clock, output, printed = _host(make_host, ready=True)  # the turn waits for space
    host.start()
    assert host.game.phase is Phase.TURN and not host.timer.started
    assert printed[-1] == f"Host: {dialogue.when_ready(host.game, None)}"
    output.up = True  # the sound server comes up
    _ticks(host, clock, 0.05, 4.95)
    assert output.asked == []  # not yet due
    _ticks(host, clock, 5.0, 12.0)
    assert output.asked == [5.0]
    assert _said(host, dialogue.SPEECH_BACK) == [5.0]
    assert printed[-1] == f"Host: {dialogue.SPEECH_BACK}"  # printed too, once
    assert host.announcer.audible
    assert host.announcer.drain(DEADLOCK)
    # what happens now, which the players only saw printed, said aloud
    assert output.speaker.played == [
        "(silence)",
        dialogue.SPEECH_BACK,
        dialogue.turn_intro(host.game),
        dialogue.when_ready(host.game, None),
    ]


def test_the_voice_does_not_take_over_while_the_describer_talks(make_host: HostMaker) -> None:
    host, clock, output, printed = _host(make_host, timer=12.0)
    host.start()
    _ticks(host, clock, 0.05, 0.1)
    assert host.timer.started  # "Go!" printed: the turn runs
    output.up = True
    _ticks(host, clock, 0.15, 3.0)
    host.handle(KeyPress("c", 3.0))  # a card got: the turn is played
    _ticks(host, clock, 3.05, 12.0)
    assert output.asked == [5.0]  # found (silently) in the turn...
    assert _said(host, dialogue.SPEECH_BACK) == []  # ...but not taken over the describer
    assert not host.announcer.audible
    _ticks(host, clock, 12.05, 16.0)
    back = _said(host, dialogue.SPEECH_BACK)
    assert len(back) == 1 and back[0] > 12.0  # as the next turn was about to start
    assert host.announcer.drain(DEADLOCK)
    played = output.speaker.played
    # the next turn said aloud, then its "Go!", and only then its timer
    assert played[1:] == [
        dialogue.SPEECH_BACK,
        dialogue.turn_intro(host.game),
        dialogue.GO,
    ]
    assert not host.timer.started or host._turn_start is not None
    _ticks(host, clock, 16.05, 16.1)  # the voice has said it all: the timer runs
    assert host.timer.started and host._turn_start is not None
    assert host._turn_start >= back[0]
    assert printed.count(f"Host: {dialogue.SPEECH_BACK}") == 1


def test_the_card_voice_comes_back_with_the_card(make_host: HostMaker) -> None:
    host, clock, _ = make_host(ready=True)
    headphones = Output(clock)
    printed: list[str] = []
    options = AnnounceOptions(device="headphones", label="card", private=True)
    host.card_announcer = _returning(clock, headphones, printed, options)
    host.start()
    headphones.up = True
    _ticks(host, clock, 0.05, 40.0)
    # once the host's (recorded) voice has said the turn: not over it
    back = _said(host, dialogue.CARD_AUDIO_BACK)
    assert len(back) == 1 and back[0] >= 5.0
    before = [i for i in host.announcer.speech_intervals() if i.start < back[0]]
    assert before and before[-1].end <= back[0]
    assert host.card_announcer.drain(DEADLOCK)
    card = f"{host.game.category}: {host.entry_text()}"
    assert headphones.speaker.played == ["(silence)", card]  # the card in play, privately
    assert printed == []  # nothing of the card voice printed


def test_the_voice_waits_for_the_answer_to_a_question_before_it_takes_over(
    make_host: HostMaker,
) -> None:
    # "Quit? Press Y to save and stop." was printed; the voice found just then said
    # it was back and then what happens now ("... press space when ready"), as if no
    # question were open, the question itself never heard.  It takes over once the
    # question is answered or has lapsed.
    host, clock, output, _ = _host(make_host, ready=True)
    host.start()
    clock.advance_to(4.9)
    host.handle(KeyPress("q", 4.9))
    assert host.said[-1].text.startswith("Quit?")
    output.up = True
    _ticks(host, clock, 5.0, 9.0)
    assert _said(host, dialogue.SPEECH_BACK) == []  # not over the open question
    clock.advance_to(9.05)
    host.handle(KeyPress("n", 9.05))
    _ticks(host, clock, 9.1, 16.0)
    assert len(_said(host, dialogue.SPEECH_BACK)) == 1
    assert not host.finished
