"""Advice on the microphone's level (a table heard too faintly, a microphone that
overloads) is said once, after the turn it was noticed in, never over the describer."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import numpy as np
import pytest

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.audio.levels import FAINT_BELOW_DBFS, FAINT_SECONDS
from voice_host.config import HostConfig
from voice_host.deck.model import Entry
from voice_host.host.clock import WallClock
from voice_host.host.dialogue import MIC_FAINT, MIC_OVERLOAD
from voice_host.host.inputs import InputQueue, KeyPress, Notice
from voice_host.host.listening import Listening
from voice_host.host.live import _listen
from voice_host.referee import Referee
from voice_host.referee.values import Phase as RefPhase
from voice_host.referee.values import Situation
from voice_host.rules import Phase
from voice_host.speech.events import ListenContext

from .conftest import HostMaker, Silent
from .test_host_dialogue import quiet, texts


def test_advice_noticed_in_a_turn_is_said_when_the_turn_ends(make_host: HostMaker) -> None:
    host, clock, _ = make_host(timer=30.0)
    host.start()
    t = quiet(host, clock, 0.0, 20.0)  # the opening is said, the timer starts
    assert host.timer.running
    host.handle(Notice(MIC_FAINT, later=True))
    t = quiet(host, clock, t, 5.0)
    assert MIC_FAINT not in texts(host)  # not over the describer
    host.handle(KeyPress("c", t))  # the turn goes on: still held
    assert MIC_FAINT not in texts(host)
    quiet(host, clock, t, 40.0)  # the buzzer
    said = texts(host)
    assert host.game.phase is Phase.TURN and host.game.state.to_play == 1  # Blue's turn
    assert said.count(MIC_FAINT) == 1
    # after the turn's result and move, before the next describer is called
    at = said.index(MIC_FAINT)
    assert said[at - 2].startswith("Time! Red") and said[at - 1].startswith("Red moves"), said
    assert said[at + 1].startswith("Blue's turn"), said


def test_advice_between_turns_is_said_at_once(make_host: HostMaker) -> None:
    host, clock, _ = make_host(timer=30.0, ready=True)
    host.start()
    quiet(host, clock, 0.0, 10.0)
    assert not host.timer.started  # waiting for the describer
    host.handle(Notice(MIC_OVERLOAD, later=True))
    assert texts(host)[-1] == MIC_OVERLOAD


def _advice_from(chunks: list[AudioChunk], in_play: bool) -> list[object]:
    """What the real listening thread puts for the host while the (patched) microphone
    delivers ``chunks``, the game in a turn (``in_play``) or between turns."""
    inputs, stopping = InputQueue(), threading.Event()
    listening = Listening(Silent(), Referee(), None)
    entry = Entry("Poster", "Object", ("poster",))
    phase = RefPhase.TURN if in_play else RefPhase.BETWEEN
    listening.update(ListenContext.for_entry(entry, (), ()), Situation(entry=entry, phase=phase))
    thread = threading.Thread(
        target=_listen, args=(HostConfig(), listening, inputs, WallClock(), stopping)
    )
    thread.start()
    try:
        news = []
        while (item := inputs.get(3.0)) is not None:
            news.append(item)
        return news
    finally:
        stopping.set()
        thread.join(10.0)


def _faint_microphone(monkeypatch: pytest.MonkeyPatch) -> list[AudioChunk]:
    n = SAMPLE_RATE // 10
    rng = np.random.default_rng(5)
    level = 32768 * 10 ** ((FAINT_BELOW_DBFS - 8) / 20)
    chunks = [
        AudioChunk((rng.standard_normal(n) * level).astype("<i2").tobytes(), SAMPLE_RATE, i / 10)
        for i in range(int(FAINT_SECONDS * 10) + 50)
    ]

    class FaintMicrophone:
        dropped_blocks = 0

        def __init__(self, device: object, on_event: object = None) -> None: ...

        def __iter__(self) -> Iterator[AudioChunk]:
            yield from chunks
            threading.Event().wait(5.0)  # then nothing, as a stalled device would

        def close(self) -> None: ...

    monkeypatch.setattr("voice_host.audio.microphone.MicrophoneSource", FaintMicrophone)
    return chunks


def test_the_listening_thread_advises_once_on_a_faint_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _faint_microphone(monkeypatch)
    assert _advice_from([], in_play=True) == [Notice(MIC_FAINT, later=True)]


def test_the_listening_thread_gives_no_advice_between_turns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _faint_microphone(monkeypatch)
    assert _advice_from([], in_play=False) == []
