"""The recording announcer used by replays and the end-to-end test."""

from __future__ import annotations

import array
import shutil
import wave
from pathlib import Path

import pytest
from announce_fakes import FakeRenderer, ManualClock

from voice_host.announce import (
    AnnounceOptions,
    Pyttsx3Renderer,
    RecordingAnnouncer,
    SpeechInterval,
    estimate_duration,
)
from voice_host.announce.render import VoiceSettings
from voice_host.audio.wav import read_wav
from voice_host.errors import EngineError


def log_rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]


def test_texts_follow_each_other_on_the_audio_clock(tmp_path: Path) -> None:
    clock = ManualClock(3.0)
    log = tmp_path / "said.log"
    announcer = RecordingAnnouncer(log, clock=clock, options=AnnounceOptions(rate=170))
    announcer.say("Red team, your turn.")
    clock.t = 3.5  # the host says the next thing while the first is still sounding
    announcer.say("Object.")
    first, second = announcer.entries
    assert first.start == 3.0
    assert first.end == pytest.approx(3.0 + estimate_duration("Red team, your turn.", 170))
    assert second.start == first.end  # one voice: it waits for the first to finish
    assert announcer.is_speaking(3.4) and announcer.is_gated(second.end + 0.4)
    assert not announcer.is_gated(second.end + 0.6)
    announcer.close()
    assert log_rows(log) == [
        [f"{first.start:.3f}", f"{first.end:.3f}", "Red team, your turn."],
        [f"{second.start:.3f}", f"{second.end:.3f}", "Object."],
    ]


def test_log_lines_are_written_once_final(tmp_path: Path) -> None:
    clock = ManualClock(0.0)
    log = tmp_path / "said.log"
    announcer = RecordingAnnouncer(log, clock=clock)
    announcer.say("One.")
    assert log.read_text() == ""  # still sounding: a stop could still cut it
    clock.t = 10.0
    announcer.say("Two.")
    assert [row[2] for row in log_rows(log)] == ["One."]
    announcer.close()
    assert [row[2] for row in log_rows(log)] == ["One.", "Two."]


def test_stop_cuts_the_sounding_text_and_drops_planned_ones(tmp_path: Path) -> None:
    clock = ManualClock(0.0)
    log = tmp_path / "said.log"
    announcer = RecordingAnnouncer(log, clock=clock)
    announcer.say("A long explanation of the rules of the game.")
    announcer.say("Planned after it.")
    clock.t = 1.0
    announcer.stop()
    assert announcer.speech_intervals() == (
        SpeechInterval(0.0, 1.0, "A long explanation of the rules of the game.", False),
    )
    announcer.say("Paused.")
    assert announcer.entries[-1].start == 1.0
    announcer.close()
    assert log_rows(log)[0] == [
        "0.000",
        "1.000",
        "A long explanation of the rules of the game.",
        "[cut]",
    ]
    assert len(log_rows(log)) == 2


def test_drained_once_everything_planned_has_been_said() -> None:
    # On audio time nothing can be waited for: drain answers at once, True only once
    # the clock has passed the last planned text (not in the pause between two).
    clock = ManualClock(0.0)
    announcer = RecordingAnnouncer(None, clock=clock)
    assert announcer.drain(0)  # nothing planned
    announcer.say("Welcome to the game.")
    announcer.say("Go!")
    first, last = announcer.entries
    for t in (0.0, first.end, last.start, (last.start + last.end) / 2):
        clock.t = t
        assert not announcer.drain(0) and not announcer.drain(None)
    clock.t = last.end
    assert announcer.drain(0)


def test_interrupt_starts_now(tmp_path: Path) -> None:
    clock = ManualClock(0.0)
    announcer = RecordingAnnouncer(None, clock=clock)
    announcer.say("A long explanation of the rules of the game.")
    clock.t = 0.5
    announcer.say("Stop!", interrupt=True)
    first, second = announcer.entries
    assert (first.end, first.completed) == (0.5, False)
    assert second.start == 0.5
    assert [i.text for i in announcer.speech_intervals()] == [first.text, "Stop!"]


def test_rendered_duration_advances_the_clock(tmp_path: Path) -> None:
    clock = ManualClock(1.0)
    announcer = RecordingAnnouncer(
        tmp_path / "said.log", clock=clock, render_dir=tmp_path / "wav", renderer=FakeRenderer()
    )
    announcer.say("Go!")  # the fake renders 0.1 s a character
    (entry,) = announcer.entries
    assert (entry.start, entry.end) == (1.0, pytest.approx(1.3))
    assert entry.wav == tmp_path / "wav" / "0001.wav"
    assert entry.wav.exists()


def test_render_failure_is_loud_in_a_replay(tmp_path: Path) -> None:
    announcer = RecordingAnnouncer(
        None, clock=ManualClock(), render_dir=tmp_path, renderer=FakeRenderer({"Bad."})
    )
    with pytest.raises(EngineError, match="Bad"):
        announcer.say("Bad.")
    assert announcer.entries == ()
    assert not announcer.is_gated(0.0)


def test_closed_recorder_refuses_more() -> None:
    announcer = RecordingAnnouncer(None, clock=ManualClock())
    announcer.close()
    announcer.close()
    with pytest.raises(RuntimeError, match="closed"):
        announcer.say("Late.")


ESPEAK_ABSENT = shutil.which("espeak-ng") is None


@pytest.mark.skipif(ESPEAK_ABSENT, reason="espeak-ng is not installed: pyttsx3 cannot render")
def test_real_pyttsx3_renders_a_wav_without_a_sound_card(tmp_path: Path) -> None:
    clock = ManualClock(2.0)
    renderer = Pyttsx3Renderer()
    try:
        announcer = RecordingAnnouncer(
            tmp_path / "said.log", clock=clock, render_dir=tmp_path / "wav", renderer=renderer
        )
        announcer.say("Telescope, correct. Three.")
        announcer.say("Red team, your turn.")
        announcer.close()
        slow = renderer.render("Telescope, correct. Three.", VoiceSettings(rate=100))
    finally:
        renderer.close()
    first, second = announcer.entries
    assert first.wav is not None and second.wav is not None
    with wave.open(str(first.wav)) as wav:
        assert (wav.getframerate(), wav.getnchannels(), wav.getsampwidth()) == (22050, 1, 2)
        frames = wav.getnframes()
        samples = array.array("h", wav.readframes(frames))
    # The speech, without the pause espeak-ng closes a text with (the WAV keeps it), as
    # the live announcer plays it; the next text follows after that pause.
    closing = len(samples) - max(i for i, s in enumerate(samples) if s != 0) - 1
    assert 0.2 < first.pause < 0.6
    assert first.pause == pytest.approx(closing / 22050)
    assert first.end - first.start == pytest.approx((frames - closing) / 22050)
    assert 0.8 < first.end - first.start < 5.0  # a short sentence, not silence or garbage
    assert max(abs(s) for s in samples) > 1000  # there is a voice in it
    assert second.start == pytest.approx(first.end + first.pause)
    # A lower rate applies at the next run: the same text takes longer.
    assert slow.duration > (first.end - first.start) * 1.3
    # The host's own reader takes it, so the end-to-end test can feed it to the microphone.
    chunk = read_wav(first.wav)
    assert chunk.rate == 16000
    assert chunk.duration == pytest.approx(first.end - first.start + first.pause, abs=0.01)
