"""The host's voice, missing at start, found during the spoken team set-up: it takes
over between questions, never over a question waiting for its answer."""

from __future__ import annotations

import random

import pytest

from voice_host.announce.protocol import AnnounceOptions
from voice_host.errors import UsageError
from voice_host.host import dialogue
from voice_host.host.clock import AudioClock
from voice_host.host.setup import SetupDialogue, Step
from voice_host.host.setup_live import KeyReader, SetupRunner

from .test_speech_output_returns import DEADLOCK, Output, _returning


def _keys(clock: AudioClock, script: list[str | float]) -> KeyReader:
    """Keys in order; a number instead of a key is a wait until then on the clock (the
    table thinking), each key poll that finds no key moving the clock 0.1 s."""
    pending = list(script)

    def read(timeout: float) -> str | None:
        if not pending:
            raise EOFError
        step = pending[0]
        if isinstance(step, float):
            if clock.now() >= step:
                pending.pop(0)
            else:
                clock.advance_to(round(clock.now() + 0.1, 6))
            return None
        pending.pop(0)
        return step

    return read


def test_the_voice_found_during_the_set_up_takes_over_at_the_next_question() -> None:
    # The set-up never asked the voice to try its output again: every question was
    # printed until the game began, however long the set-up took.
    clock = AudioClock()
    output = Output(clock)
    printed: list[str] = []
    voice = _returning(clock, output, printed, AnnounceOptions())
    setup = SetupDialogue(random.Random(0))
    asked: list[tuple[Step, list[str]]] = []  # what was played, as each key came

    script: list[str | float] = ["3", 6.0, "r", "?", "2"]
    keys = _keys(clock, script)

    def key(timeout: float) -> str | None:
        got = keys(timeout)
        if got is not None:
            asked.append((setup.step, list(output.speaker.played)))
        if clock.now() >= 1.0:
            output.up = True  # the sound server comes up during the second question
        return got

    runner = SetupRunner(setup, announcer=voice, clock=clock, keys=key, no_voice="No mic.")
    try:
        with pytest.raises(UsageError):  # the keys ran out before the set-up ended
            runner.run()
        assert output.asked, "the output was never tried again"
        # found while "how many players" was open: not said over it, nor at its repeat
        # or its help, which leave the question open
        assert [step for step, _ in asked] == [Step.TEAMS, Step.PLAYERS, Step.PLAYERS, Step.PLAYERS]
        # found (its silence played) before the repeat: nothing said until the answer
        assert [played for _, played in asked] == [[], ["(silence)"], ["(silence)"], ["(silence)"]]
        assert voice.recovered and voice.drain(DEADLOCK)
        played = output.speaker.played
        assert played[0] == "(silence)"  # the attempt's proof, on no timeline
        assert played[1] == dialogue.SPEECH_BACK
        assert played[2].startswith("Who starts?")  # the next question, in the voice
        assert f"Host: {dialogue.SPEECH_BACK}" in printed
    finally:
        voice.close()


def test_a_yes_or_no_question_open_keeps_the_found_voice_waiting() -> None:
    clock = AudioClock()
    output = Output(clock)
    printed: list[str] = []
    voice = _returning(clock, output, printed, AnnounceOptions())
    setup = SetupDialogue(random.Random(0))
    keys = _keys(clock, ["3", "2", "\r", 7.0, "?", "r", "n"])

    def key(timeout: float) -> str | None:
        output.up = clock.now() >= 1.0  # up while the read-back waits for yes or no
        return keys(timeout)

    runner = SetupRunner(setup, announcer=voice, clock=clock, keys=key, no_voice="No mic.")
    try:
        with pytest.raises(UsageError):
            runner.run()
        assert output.asked == [5.0]  # found then, while the read-back was open
        assert voice.drain(DEADLOCK)
        played = output.speaker.played
        # nothing at the read-back's help and repeat; at "no" the set-up starts again,
        # and its first question is asked in the voice
        assert played[1:] == [dialogue.SPEECH_BACK, played[2]]
        assert played[2].startswith("Starting again. How many teams?")
    finally:
        voice.close()
