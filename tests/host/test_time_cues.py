"""The turn's time cues (dialogue.md 7): a chime at ten seconds left and as the turn
ends, or "Ten seconds." said.

"Ten seconds." keeps the microphone shut for 1.35 s (0.85 s of voice and the 0.5 s
tail) in the busiest part of a turn: a guess called out then is lost.  The chime
shuts it too (heard over a word it garbles it), for 0.86 s.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from voice_host.announce.sounds import Sound
from voice_host.audio.chunk import AudioChunk
from voice_host.config import HostConfig, config_from_data
from voice_host.errors import InputFileError
from voice_host.host import dialogue
from voice_host.host.core import HostOptions
from voice_host.host.keys import help_text
from voice_host.host.listening import Listening
from voice_host.referee import Referee
from voice_host.rules import Phase
from voice_host.speech.events import HeardWord, ListenContext, RecognitionEvent

from .conftest import HostMaker, ScreenRecorder, feed_silence, until_running


class _CallsOut:
    """A recogniser that hears ``word`` called out at ``at`` (once the card is up):
    a one-word utterance, reported when the audio after it arrives."""

    name = "calls-out"

    def __init__(self, at: float) -> None:
        self.at = at
        self.answer = ""
        self.heard = False

    def start(self, context: ListenContext) -> None:
        self.set_context(context)

    def prepare(self, contexts: Iterable[ListenContext]) -> None: ...

    def set_context(self, context: ListenContext) -> None:
        if context.answers:
            self.answer = context.answers[0]

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        if self.heard or chunk.start_time < self.at + 0.6:
            return []
        self.heard = True
        word = HeardWord(self.answer, self.at, self.at + 0.5, 0.9)
        return [
            RecognitionEvent(
                "final",
                (word,),
                chunk.end_time,
                source="free",
                utterance=(self.at, self.at + 0.5),
            )
        ]

    def finish(self) -> list[RecognitionEvent]:
        return []


def test_ten_seconds_left_is_a_chime_that_shuts_the_microphone_less_long(
    make_host: HostMaker,
) -> None:
    host, clock, announcer = make_host(timer=30.0)
    host.start()
    go = until_running(host, clock)
    feed_silence(host, clock, go, 31.0)
    chimes = [e for e in announcer.entries if e.sound is not None]
    assert [e.sound for e in chimes] == [Sound.TEN_SECONDS, Sound.TIME_UP]
    warning, ending = chimes
    assert warning.start == pytest.approx(go + 20.0, abs=0.15)
    # as the turn ends, after the buzzer's grace (a last guess may still be ending)
    assert ending.start >= go + 30.0 + host.options.grace
    assert not announcer.gate_overlaps(go + 29.0, go + 30.0 + host.options.grace)
    assert announcer.is_gated(warning.start + 0.1)
    assert not announcer.is_gated(warning.end + announcer.options.tail + 0.05)
    assert warning.end + announcer.options.tail - warning.start < 0.9
    texts = [s.text for s in host.said]
    assert "Ten seconds." not in texts
    # the buzzer's chime comes first, then the words of the turn's end
    assert texts.index("(chime: time up)") < next(
        i for i, t in enumerate(texts) if t.startswith("Time!")
    )
    said = [e.text for e in announcer.entries]
    assert said.index("(chime: time up)") + 1 == next(
        i for i, t in enumerate(said) if t.startswith("Time!")
    )


def test_a_new_game_plays_the_ten_second_chime_once_with_what_it_means(
    make_host: HostMaker,
) -> None:
    host, clock, announcer = make_host(timer=30.0, render=True)  # its voice sounds
    host.start()
    go = until_running(host, clock)
    said = [e.sound or e.text for e in announcer.entries]
    # after the welcome, before the first turn is announced and its timer runs
    at = said.index(dialogue.TEN_SECONDS_CHIME)
    assert said[at - 1].startswith("Welcome to Articulate!")
    assert said[at + 1] is Sound.TEN_SECONDS
    assert said.index(dialogue.GO) > at + 1
    shown = next(e for e in announcer.entries if e.sound is Sound.TEN_SECONDS)
    go_said = next(e for e in announcer.entries if e.text == dialogue.GO)
    assert shown.end < go_said.start and go_said.end <= go  # R5: the timer starts at "Go!"
    # "repeat" says the group's words, not a chime that would sound like the cue
    assert dialogue.TEN_SECONDS_CHIME in host._last_group
    feed_silence(host, clock, go, 31.0)
    in_turn = [e.sound for e in announcer.entries if e.sound is not None and e.start >= go]
    assert in_turn == [Sound.TEN_SECONDS, Sound.TIME_UP]


@pytest.mark.parametrize("how", ["words", "resumed", "silent"])
def test_the_chime_is_not_played_to_the_table_where_it_will_not_sound(
    make_host: HostMaker, how: str
) -> None:
    # words: no chime in the game; resumed: the table heard it when the game began;
    # silent: the host's words do not sound (printed, its chimes print "Ten seconds.")
    host, _, announcer = make_host(
        timer=30.0, time_cue="words" if how == "words" else "chime", render=how != "silent"
    )
    assert announcer.audible == (how != "silent")
    host.start(resumed=how == "resumed")
    assert all(e.sound is None for e in announcer.entries)
    assert dialogue.TEN_SECONDS_CHIME not in [s.text for s in host.said]


def test_the_chimes_words_are_shown_while_it_sounds(make_host: HostMaker) -> None:
    host, clock, _ = make_host(timer=30.0)
    screen = ScreenRecorder()
    host.screen = screen
    host.start()
    go = until_running(host, clock)
    feed_silence(host, clock, go, 20.5)
    assert screen.models[-1].announcement == "Ten seconds."


def test_ten_seconds_said_in_words_shuts_the_microphone_and_has_no_buzzer_chime(
    make_host: HostMaker,
) -> None:
    host, clock, announcer = make_host(timer=30.0, time_cue="words")
    host.start()
    go = until_running(host, clock)
    feed_silence(host, clock, go, 31.0)
    assert all(e.sound is None for e in announcer.entries)
    (cue,) = [e for e in announcer.entries if e.text == "Ten seconds."]
    assert cue.start == pytest.approx(go + 20.0, abs=0.15)
    assert announcer.is_gated(cue.start + 0.2)


@pytest.mark.parametrize(("time_cue", "counted"), [("chime", 1), ("words", 0)])
def test_a_guess_called_out_just_after_the_warning(
    make_host: HostMaker, time_cue: str, counted: int
) -> None:
    # Called out 0.95 s after the ten-second cue begins: the chime's gate has opened
    # (0.36 s and the 0.5 s tail), "Ten seconds." still holds it shut (0.85 s and the
    # tail), and the guess is dropped as the host's own voice.
    recognizer = _CallsOut(at=0.0)
    listening = Listening(recognizer, Referee(), None)  # type: ignore[arg-type]
    host, clock, _ = make_host(timer=30.0, time_cue=time_cue, listening=listening)
    host.start()
    go = until_running(host, clock)
    recognizer.at = go + 20.95
    feed_silence(host, clock, go, 25.0)
    assert host.game.state.correct == counted


def test_time_cue_option_is_checked() -> None:
    assert HostConfig().time_cue == "chime"
    assert config_from_data({"time_cue": "Words"}, "c.toml").time_cue == "words"
    with pytest.raises(InputFileError, match="time_cue: expected one of chime, words"):
        config_from_data({"time_cue": "bell"}, "c.toml")
    with pytest.raises(ValueError, match="time_cue must be one of"):
        HostOptions(time_cue="bell")


def test_a_turns_help_explains_the_chime_when_there_is_one() -> None:
    with_chime = help_text(Phase.TURN, ("Red", "Blue"), "host", chime=True)
    assert "Two rising notes: ten seconds left." in with_chime
    assert "rising" not in help_text(Phase.TURN, ("Red", "Blue"), "host")
    # before the turn starts, or in a CONTROL round, there is no timer to tell
    assert "rising" not in help_text(Phase.CONTROL_ROUND, ("Red", "Blue"), "host", chime=True)


class _LastWord(_CallsOut):
    """A recogniser still hearing ``word`` when the buzzer goes: it reports it only
    when the utterance is finished (the host's flush as the turn ends)."""

    fed_until = 0.0

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        self.fed_until = chunk.end_time
        return []

    def finish(self) -> list[RecognitionEvent]:
        if self.heard or self.at <= 0 or self.fed_until < self.at + 0.5:
            return []  # finished before the word was said (the gate at ten seconds)
        self.heard = True
        word = HeardWord(self.answer, self.at, self.at + 0.5, 0.9)
        return [RecognitionEvent("final", (word,), self.at + 0.6, source="free")]


def test_the_closing_chime_comes_before_a_last_guess_is_echoed(make_host: HostMaker) -> None:
    # A guess ending within the buzzer's grace counts (R8); the chime that ends the
    # turn is played first, then the echo, then "Time!".
    recognizer = _LastWord(at=0.0)
    listening = Listening(recognizer, Referee(), None)  # type: ignore[arg-type]
    host, clock, announcer = make_host(timer=30.0, listening=listening)
    host.start()
    go = until_running(host, clock)
    recognizer.at = go + 29.75  # ends 0.25 s after the buzzer
    feed_silence(host, clock, go, 32.0)
    assert recognizer.heard
    said = [e.text for e in announcer.entries]
    end = said.index("(chime: time up)")
    assert said[end + 1].endswith(", correct. One.")
    assert said[end + 2] == "Time! Red got one right."
