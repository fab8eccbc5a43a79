"""The speaking timeline and the microphone gate it gives the host."""

from __future__ import annotations

import pytest

from voice_host.announce import SpeechInterval, SpeechTimeline
from voice_host.announce.timeline import DEFAULT_TAIL


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def spoke(start: float, end: float, tail: float = 0.5) -> SpeechTimeline:
    clock = Clock()
    timeline = SpeechTimeline(clock, tail=tail)
    timeline.begin("Red team, your turn.", at=start)
    timeline.end(at=end)
    return timeline


def test_default_tail_is_half_a_second() -> None:
    assert DEFAULT_TAIL == 0.5


@pytest.mark.parametrize(
    ("t", "speaking", "gated"),
    [
        (9.99, False, False),  # just before the voice starts: the microphone is judged
        (10.0, True, True),  # first sample of the voice
        (11.0, True, True),  # in the middle
        (12.0, True, True),  # last sample
        (12.3, False, True),  # silent, but within the 0.5 s tail (room echo, recogniser lag)
        (12.5, False, True),  # the tail's last instant
        (12.51, False, False),  # after the tail: judged again
    ],
)
def test_gate_covers_speech_and_tail(t: float, speaking: bool, gated: bool) -> None:
    timeline = spoke(10.0, 12.0)
    assert timeline.is_speaking(t) is speaking
    assert timeline.is_gated(t) is gated


@pytest.mark.parametrize(
    ("start", "end", "gated"),
    [
        (9.0, 9.9, False),  # a microphone block wholly before the voice
        (9.9, 10.1, True),  # a block whose end hears the first of the voice
        (12.4, 12.6, True),  # a block starting inside the tail
        (12.6, 13.0, False),  # a block after the tail
        (8.0, 14.0, True),  # a long utterance spanning the whole announcement
    ],
)
def test_gate_overlaps_spans(start: float, end: float, gated: bool) -> None:
    assert spoke(10.0, 12.0).gate_overlaps(start, end) is gated


def test_open_interval_gates_from_its_start_until_it_ends() -> None:
    clock = Clock()
    timeline = SpeechTimeline(clock, tail=0.5)
    clock.t = 5.0
    timeline.begin("Go!")
    clock.t = 60.0  # however long the sound goes on, it gates while open
    assert timeline.is_speaking() and timeline.is_gated()
    assert timeline.speaking_since() == 5.0
    assert not timeline.is_gated(4.0)
    interval = timeline.end()
    assert interval == SpeechInterval(5.0, 60.0, "Go!", True)
    clock.t = 60.6
    assert not timeline.is_gated()


def test_end_without_begin_is_harmless_and_idempotent() -> None:
    timeline = spoke(1.0, 2.0)
    assert timeline.end() is None
    assert timeline.end(completed=False) is None
    assert timeline.speech_intervals() == (SpeechInterval(1.0, 2.0, "Red team, your turn."),)


def test_listeners_hear_each_interval_and_a_failing_one_is_reported() -> None:
    reports: list[str] = []
    heard: list[tuple[float, float]] = []
    timeline = SpeechTimeline(Clock(), tail=0.5, report=reports.append)

    def broken(start: float, end: float) -> None:
        raise RuntimeError("host bug")

    timeline.add_listener(broken)
    timeline.add_listener(lambda s, e: heard.append((s, e)))
    timeline.begin("One", at=1.0)
    timeline.end(at=2.0)
    assert heard == [(1.0, 2.0)]
    assert reports == ["speech listener failed: host bug"]
    assert timeline.last() == SpeechInterval(1.0, 2.0, "One")


def test_cut_drops_planned_speech_and_shortens_the_sounding_one() -> None:
    timeline = SpeechTimeline(Clock(), tail=0.0)
    timeline.add(SpeechInterval(0.0, 2.0, "first"))
    timeline.add(SpeechInterval(2.0, 3.0, "queued"))
    assert timeline.cut(1.5) == SpeechInterval(0.0, 1.5, "first", False)
    assert timeline.speech_intervals() == (SpeechInterval(0.0, 1.5, "first", False),)
    assert not timeline.is_gated(2.5)
    assert timeline.cut(5.0) is None  # nothing sounding at 5 s


def test_negative_tail_or_backwards_span_is_refused() -> None:
    with pytest.raises(ValueError, match="tail"):
        SpeechTimeline(Clock(), tail=-0.1)
    with pytest.raises(ValueError, match="before it starts"):
        spoke(1.0, 2.0).gate_overlaps(3.0, 2.0)
