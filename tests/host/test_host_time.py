"""The clocks, the turn timer and the CONTROL claim window, on a hand-moved clock."""

from __future__ import annotations

import pytest

from voice_host.audio.chunk import AudioChunk
from voice_host.host.claims import SIMULTANEOUS_SECONDS, Claim, ClaimWindow
from voice_host.host.clock import AudioClock
from voice_host.host.timer import Cue, TurnTimer


def test_audio_clock_counts_samples_fed_and_never_goes_back() -> None:
    clock = AudioClock()
    clock.feed(AudioChunk(bytes(3200), 16000, 0.0))  # 1600 samples = 0.1 s
    clock.feed(AudioChunk(bytes(3200), 16000, 0.1))
    assert clock.now() == pytest.approx(0.2)
    with pytest.raises(ValueError, match="cannot go back"):
        clock.advance_to(0.1)


def test_timer_cues_come_once_at_ten_seconds_and_at_the_buzzer() -> None:
    timer = TurnTimer(30.0)
    timer.start(100.0)
    assert timer.cues(110.0) == []
    assert [c.cue for c in timer.cues(120.05)] == [Cue.WARNING]
    assert timer.cues(121.0) == []  # each cue once
    end = timer.cues(130.2)
    assert [(c.cue, c.at) for c in end] == [(Cue.END, 130.0)]
    assert timer.left(131.0) == 0.0 and not timer.running


def test_pausing_stops_the_countdown_and_its_cues() -> None:
    timer = TurnTimer(30.0)
    timer.start(0.0)
    assert timer.pause(5.0)
    assert timer.left(500.0) == 25.0 and timer.buzzer is None
    assert timer.cues(500.0) == []
    assert timer.resume(500.0)
    assert timer.buzzer == 525.0


@pytest.mark.parametrize(
    ("claims", "winner"),
    [
        ([(0, 10.0)], 0),  # one claim wins
        ([(1, 10.0), (0, 10.0 + SIMULTANEOUS_SECONDS + 0.1)], 1),  # later claim is too late
        ([(1, 10.0), (0, 10.3)], None),  # within the window: simultaneous (R17)
        ([(0, 10.3), (1, 10.0)], None),  # order of arrival does not matter, time said does
    ],
)
def test_claim_window(claims: list[tuple[int, float]], winner: int | None) -> None:
    window = ClaimWindow()
    for team, t in claims:
        window.claim(Claim(team, t, "key"))
    assert window.decide(10.4, settle=False) is None  # the window is still open
    result = window.decide(20.0, settle=True)
    assert result is not None and result.winner == winner
    assert not window.open
