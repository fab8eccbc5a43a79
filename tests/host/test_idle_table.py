"""A table that has got up from the game: after a turn nobody played, the next one waits.

Without ``--ready`` the host says "Go!" after each turn's announcement.  A turn
that runs out with no key, no judgement and no talk heard means nobody is
playing (gone for a drink): the host does not go on running turn after turn for
an empty room, moving the turn order and the describers on; it waits for space
or "host go".  A team that got nothing still talked, so its turn is no sign.
"""

from __future__ import annotations

from collections.abc import Iterable

from voice_host.audio.chunk import AudioChunk
from voice_host.host import dialogue
from voice_host.host.core import Host
from voice_host.host.inputs import Heard, KeyPress
from voice_host.referee.values import Judgement
from voice_host.rules import Phase
from voice_host.speech.events import HeardWord, ListenContext, RecognitionEvent

from .conftest import HostMaker


class Chatter:
    """A recogniser that writes "the weather is nice" (no answer, no command) for
    each chunk marked loud: the table talking, judged as nothing."""

    name = "chatter"

    def start(self, context: ListenContext) -> None: ...
    def prepare(self, contexts: Iterable[ListenContext]) -> None: ...
    def set_context(self, context: ListenContext) -> None: ...

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        if chunk.samples[:2] != b"\x01\x00":
            return []
        t0, t1 = chunk.start_time, chunk.end_time
        words = tuple(HeardWord(w, t0, t1) for w in ("the", "weather", "is", "nice"))
        return [RecognitionEvent("final", words, t1, "free")]

    def finish(self) -> list[RecognitionEvent]:
        return []


def _run(host: Host, clock: object, start: float, seconds: float, loud_at: float = -1) -> float:
    """Feed ``seconds`` of audio from ``start``; the chunk at ``loud_at`` is talk."""
    t = start
    while t < start + seconds - 1e-9:
        loud = abs(t - loud_at) < 0.05
        chunk = AudioChunk((b"\x01\x00" if loud else b"\x00\x00") * 1600, 16000, t)
        clock.advance_to(chunk.end_time)  # type: ignore[attr-defined]
        host.hear(chunk)
        t = chunk.end_time
    return t


def _until(host: Host, clock: object, t: float, done: object, loud_at: float = -1) -> float:
    while not done():  # type: ignore[operator]
        assert t < 300.0, "never happened"
        t = _run(host, clock, t, 0.1, loud_at)
    return t


def _texts(host: Host) -> list[str]:
    return [s.text for s in host.said]


def test_after_a_turn_nobody_played_the_next_waits_for_space(make_host: HostMaker) -> None:
    host, clock, _ = make_host(recognizer=Chatter(), timer=12.0)
    host.start()
    t = _until(host, clock, 0.0, lambda: host.timer.running)
    t = _until(host, clock, t, lambda: host.game.to_play.name == "Blue")  # Red's turn ran out
    said = _texts(host)
    assert dialogue.NOBODY_PLAYED in said
    assert said[-1] == "Cat, press space or say host resume when ready."
    t = _run(host, clock, t, 40.0)
    assert not host.timer.started and host.game.to_play.name == "Blue"  # it waits
    host.handle(KeyPress(" ", t))
    t = _until(host, clock, t, lambda: host.timer.running)
    assert _texts(host)[-1] == "Go!"
    # Blue plays this one (a key): the turn after it goes on by itself again
    host.handle(KeyPress("c", t + 1.0))
    _until(host, clock, t + 1.0, lambda: host.game.to_play.name == "Red" and host.timer.running)
    assert _texts(host).count(dialogue.NOBODY_PLAYED) == 1


def test_talk_heard_in_a_turn_that_won_nothing_is_playing(make_host: HostMaker) -> None:
    host, clock, _ = make_host(recognizer=Chatter(), timer=12.0)
    host.start()
    t = _until(host, clock, 0.0, lambda: host.timer.running)
    talk = t + 5.0  # the describer talks (after "Ten seconds."); nothing judged or pressed
    t = _until(host, clock, t, lambda: host.game.to_play.name == "Blue", loud_at=talk)
    assert host.game.state.correct == 0
    _until(host, clock, t, lambda: host.timer.running)  # Blue's turn starts by itself
    assert dialogue.NOBODY_PLAYED not in _texts(host)


def test_a_judgement_is_playing_too(make_host: HostMaker) -> None:
    host, clock, _ = make_host(recognizer=Chatter(), timer=12.0)
    host.start()
    t = _until(host, clock, 0.0, lambda: host.timer.running)
    slip = Judgement("foul", t + 2.0, "telescope", kind="word")
    host.handle(Heard((slip,)))
    t = _until(host, clock, t, lambda: host.game.to_play.name == "Blue")
    assert host.game.phase is Phase.TURN
    _until(host, clock, t, lambda: host.timer.running)
    assert dialogue.NOBODY_PLAYED not in _texts(host)


def test_with_ready_every_turn_waits_and_nothing_more_is_said(make_host: HostMaker) -> None:
    host, clock, _ = make_host(recognizer=Chatter(), timer=12.0, ready=True)
    host.start()
    host.handle(KeyPress(" ", 0.0))
    t = _until(host, clock, 0.0, lambda: host.timer.running)
    _until(host, clock, t, lambda: host.game.to_play.name == "Blue")
    assert dialogue.NOBODY_PLAYED not in _texts(host)
    assert _texts(host)[-1] == "Cat, press space or say host resume when ready."
