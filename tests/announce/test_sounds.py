"""The time cues' chimes (dialogue.md 7): what they are, and how each announcer gives them.

The live and the recording announcers play a chime in turn with their texts and shut
the microphone while it sounds (a chime heard over a word garbles it); an announcer
that cannot play it prints (or has the screen reader say) its words instead.
"""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest
from announce_fakes import DEADLOCK, FakePlayer, FakeRenderer, ManualClock

from voice_host.announce import AnnounceOptions, Pyttsx3Announcer
from voice_host.announce.printed import PrintedAnnouncer
from voice_host.announce.read_aloud import ScreenReaderAnnouncer
from voice_host.announce.recording import RecordingAnnouncer
from voice_host.announce.render import ENGINE_RATE
from voice_host.announce.returning import ReturningAnnouncer
from voice_host.announce.sounds import CHIME_PEAK, Sound, render_sound, sound_samples
from voice_host.errors import DeviceError
from voice_host.host import dialogue


def test_ten_seconds_rises_and_time_up_falls() -> None:
    # Two chimes a table tells apart: two notes up for the warning, three down at the end.
    warn = [n.frequency for n in Sound.TEN_SECONDS.notes]
    end = [n.frequency for n in Sound.TIME_UP.notes]
    assert len(warn) == 2 and warn == sorted(warn)
    assert len(end) == 3 and end == sorted(end, reverse=True)
    # shorter than "Ten seconds." (0.85 s of espeak-ng at 170 words a minute)
    assert Sound.TEN_SECONDS.duration < 0.4 < Sound.TIME_UP.duration < 0.8


@pytest.mark.parametrize("sound", list(Sound))
def test_a_chime_is_rendered_at_its_length_peak_and_volume(sound: Sound) -> None:
    audio = render_sound(sound)
    assert audio.rate == ENGINE_RATE
    assert audio.duration == pytest.approx(sound.duration, abs=0.001)
    full = np.frombuffer(audio.samples, dtype="<i2")
    assert np.max(np.abs(full)) == pytest.approx(CHIME_PEAK * 32767, rel=0.01)
    half = np.frombuffer(render_sound(sound, volume=0.5).samples, dtype="<i2")
    assert np.max(np.abs(half)) == pytest.approx(CHIME_PEAK * 32767 / 2, rel=0.01)
    assert np.max(np.abs(full[-40:])) < 0.01 * 32767  # faded out: no click at the end


@pytest.mark.parametrize("sound", list(Sound))
def test_a_chime_sounds_above_a_voices_pitch(sound: Sound) -> None:
    # The notes sit at 1-2 kHz: almost nothing of a chime is where a voice's pitch
    # and first formant are (below 900 Hz), so it sounds like no word.
    x = sound_samples(sound, 16000)
    power = np.abs(np.fft.rfft(x)) ** 2
    freqs = np.fft.rfftfreq(len(x), 1 / 16000)
    assert power[freqs < 900].sum() / power.sum() < 0.01


def test_the_warning_chimes_words_are_the_hosts() -> None:
    assert Sound.TEN_SECONDS.words == dialogue.TEN_SECONDS
    assert Sound.TIME_UP.words == ""  # "Time!" follows it at once
    assert Sound.TEN_SECONDS.label == "(chime: ten seconds)"


def _live(clock: ManualClock, printed: list[str], **player: set[str]) -> Pyttsx3Announcer:
    return Pyttsx3Announcer(
        FakeRenderer(),
        FakePlayer(clock, **player),
        AnnounceOptions(tail=0.5),
        clock=clock,
        printer=printed.append,
    )


def test_the_live_announcer_plays_a_chime_in_turn_and_shuts_the_microphone() -> None:
    clock = ManualClock(100.0)
    printed: list[str] = []
    announcer = _live(clock, printed, hold={"?"})  # the fake names untagged audio "?"
    player = announcer._player
    assert isinstance(player, FakePlayer)
    try:
        announcer.say("Go!")  # 0.3 s on the fake
        announcer.sound(Sound.TEN_SECONDS)
        announcer.say("Pass.")
        assert player.started.wait(DEADLOCK)  # the chime is playing, held
        clock.t = 101.0  # past the tail of "Go!"
        assert announcer.is_speaking() and announcer.is_gated()
        player.release.set()
        assert announcer.drain(DEADLOCK)
    finally:
        announcer.close()
    assert [t for t, _ in player.played] == ["Go!", "?", "Pass."]
    texts = [i.text for i in announcer.speech_intervals()]
    assert texts == ["Go!", "(chime: ten seconds)", "Pass."]
    assert printed == []


def test_a_chime_that_cannot_play_prints_its_words_once_with_the_reason() -> None:
    clock = ManualClock(100.0)
    printed: list[str] = []
    announcer = _live(clock, printed, broken={"?"})
    try:
        announcer.sound(Sound.TEN_SECONDS)
        announcer.sound(Sound.TIME_UP)  # no words: nothing more printed
        assert announcer.drain(DEADLOCK)
    finally:
        announcer.close()
    assert len(printed) == 2
    assert printed[0].startswith("Speech output failed: output unplugged")
    assert printed[1] == "Host: Ten seconds."
    assert not announcer.audible
    announcer.sound(Sound.TEN_SECONDS)  # closed: printed
    assert printed[-1] == "Host: Ten seconds."


def test_printed_announcers_give_a_chimes_words() -> None:
    printed: list[str] = []
    PrintedAnnouncer(printer=printed.append).sound(Sound.TEN_SECONDS)
    PrintedAnnouncer(printer=printed.append).sound(Sound.TIME_UP)
    PrintedAnnouncer(AnnounceOptions(private=True), printer=printed.append).sound(Sound.TEN_SECONDS)
    reader: list[str] = []
    ScreenReaderAnnouncer(printer=reader.append).sound(Sound.TEN_SECONDS)
    assert printed == ["Host: Ten seconds."]
    assert reader == ["Ten seconds."]  # a bare line, for the player's screen reader


def test_a_voice_not_back_yet_prints_a_chimes_words_then_plays_it() -> None:
    clock = ManualClock(100.0)
    printed: list[str] = []
    players: list[FakePlayer] = []

    def open_player(device: int | str | None) -> FakePlayer:
        if clock.t < 105.0:
            raise DeviceError("no output")
        players.append(FakePlayer(clock))
        return players[-1]

    announcer = ReturningAnnouncer(
        FakeRenderer(),
        open_player,
        clock=clock,
        printer=printed.append,
        start=lambda work: work(),
    )
    try:
        announcer.sound(Sound.TEN_SECONDS)
        assert printed == ["Host: Ten seconds."]
        clock.t = 200.0
        assert announcer.recover()
        announcer.sound(Sound.TEN_SECONDS)
        assert announcer.drain(DEADLOCK)
    finally:
        announcer.close()
    assert ("?", True) in players[-1].played
    assert printed == ["Host: Ten seconds."]


def test_the_recording_announcer_plans_a_chime_on_the_timeline(tmp_path: Path) -> None:
    clock = ManualClock(10.0)
    announcer = RecordingAnnouncer(
        tmp_path / "said.log",
        clock=clock,
        render_dir=tmp_path / "said",
        renderer=FakeRenderer(),
    )
    announcer.sound(Sound.TIME_UP)
    announcer.say("Time!")  # queued behind the chime, as the live voice plays it
    chime, text = announcer.entries
    assert chime.sound is Sound.TIME_UP and chime.text == "(chime: time up)"
    assert (chime.start, chime.end) == (10.0, pytest.approx(10.0 + Sound.TIME_UP.duration))
    assert text.start == pytest.approx(chime.end)
    assert [i.text for i in announcer.speech_intervals()] == ["(chime: time up)", "Time!"]
    assert announcer.is_gated(10.3)  # the chime shuts the microphone as speech does
    assert chime.wav is not None
    with wave.open(str(chime.wav)) as wav:
        assert wav.getframerate() == ENGINE_RATE
        assert wav.getnframes() / ENGINE_RATE == pytest.approx(Sound.TIME_UP.duration, abs=0.001)
    clock.t = 20.0
    announcer.close()
    log = (tmp_path / "said.log").read_text(encoding="utf-8").splitlines()
    assert log[0].endswith("\t(chime: time up)")


def test_the_recording_announcer_cuts_a_chime_like_a_text(tmp_path: Path) -> None:
    clock = ManualClock(10.0)
    announcer = RecordingAnnouncer(clock=clock)
    announcer.sound(Sound.TIME_UP)
    clock.t = 10.2
    announcer.stop()
    (chime,) = announcer.entries
    assert chime.end == pytest.approx(10.2) and not chime.completed


def test_a_chime_is_given_to_the_player_at_the_engine_rate() -> None:
    # The kept-open output stream runs at the engine's rate: a chime at any other
    # would be resampled on every play.
    got: list[int] = []

    class Rates(FakePlayer):
        def play(self, audio, *, on_start, cancel):  # type: ignore[no-untyped-def,override]
            got.append(audio.rate)
            return super().play(audio, on_start=on_start, cancel=cancel)

    clock = ManualClock(0.0)
    announcer = Pyttsx3Announcer(FakeRenderer(), Rates(clock), clock=clock, printer=print)
    try:
        announcer.sound(Sound.TEN_SECONDS)
        assert announcer.drain(DEADLOCK)
    finally:
        announcer.close()
    assert got == [ENGINE_RATE]
