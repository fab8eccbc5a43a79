"""The describer's voice print: a short utterance in a clearly other voice is a guesser's."""

from __future__ import annotations

import dataclasses

import pytest

from tests.referee.conftest import KANGAROO, SWIM, free, phones
from voice_host.referee import Phase, Referee, Situation
from voice_host.referee.text import tokens
from voice_host.referee.voice import (
    ENROL_SECONDS,
    OTHER_VOICE_RATIO,
    SWITCH_SECONDS,
    SWITCH_SHARE,
    SWITCH_UTTERANCES,
    DescriberVoice,
    answer_voice,
    other_voice,
)
from voice_host.speech.events import RecognitionEvent

#: A man's voice and a woman's, as the fixtures' voices measure (kal16, slt).
LOW, HIGH = 100.0, 176.0


def said(text: str, pitch: float | None, start: float = 5.0) -> RecognitionEvent:
    """A final free transcript of ``text`` from ``start`` at ``pitch`` Hz."""
    event = free(text, start=start)
    return dataclasses.replace(event, pitch=pitch, utterance=(event.start, event.end))


def first(text: str, pitch: float | None, describer: float | None, **kw: object) -> tuple[str, str]:
    situation = Situation(entry=KANGAROO, describer_pitch=describer, **kw)  # type: ignore[arg-type]
    judged = Referee(phones).judge(said(text, pitch), situation)
    return judged[0].label, judged[0].evidence


def test_other_voice_needs_a_clear_difference() -> None:
    assert other_voice(HIGH, LOW).startswith("another voice (pitch 176 Hz")
    assert other_voice(LOW, HIGH)  # either way up
    # one real speaker's utterances vary by up to about 1.58 times: the same voice
    assert other_voice(LOW * (OTHER_VOICE_RATIO - 0.05), LOW) == ""
    assert other_voice(LOW * OTHER_VOICE_RATIO, LOW) != ""
    # unknown either side: no evidence
    assert other_voice(None, LOW) == other_voice(HIGH, None) == ""


@pytest.mark.parametrize(
    ("text", "pitch", "expected"),
    [
        # the words of a describer's slip; said in the describer's own voice, a foul
        ("a kangaroo is brown", LOW, "foul:word"),
        # ... and in a voice 1.76 times higher: the recogniser's garble of a
        # guesser's "a kangaroo, is that it?"
        ("a kangaroo is brown", HIGH, "guess"),
        # a clue word before the answer: the same
        ("when a kangaroo", LOW, "foul:word"),
        ("when a kangaroo", HIGH, "guess"),
        # a clue frame, short, in another voice: a guesser's
        ("it's like a kangaroo", HIGH, "guess"),
        ("it's like a kangaroo", LOW, "foul:word"),
        # a pitch within the describer's own range: still the describer's
        ("a kangaroo is brown", LOW * 1.55, "foul:word"),
        # a long sentence is a clue whatever the voice
        ("a kangaroo is an animal that jumps around australia", HIGH, "foul:word"),
        # no pitch measured: the words decide
        ("a kangaroo is brown", None, "foul:word"),
    ],
)
def test_a_short_utterance_in_another_voice_is_a_guessers(
    text: str, pitch: float | None, expected: str
) -> None:
    label, evidence = first(text, pitch, LOW)
    assert label == expected, evidence
    if expected == "guess" and pitch == HIGH:
        assert "another voice (pitch 176 Hz, the describer's 100 Hz)" in evidence


def test_a_form_in_another_voice_is_a_near_miss() -> None:
    # "the swimmer is ..." by the describer is a derivative foul; a guesser's
    # garbled "swimmer, is it?" in another voice is a near miss, not a foul
    situation = Situation(entry=SWIM, describer_pitch=LOW)
    [mine] = Referee(phones).judge(said("the swimmer is fast", LOW), situation)
    [theirs] = Referee(phones).judge(said("the swimmer is fast", HIGH), situation)
    assert mine.label == "foul:derivative"
    assert theirs.label == "near_miss"


def test_the_turns_first_second_stays_the_describers() -> None:
    label, _ = first("a kangaroo is brown", HIGH, LOW, turn_start=4.8)
    assert label == "foul:word"


def test_R8_a_guess_by_voice_still_keeps_the_buzzer() -> None:
    # the utterance ends after 5.0 s; the buzzer at 4.5 s (grace 0.3 s) is long past
    label, _ = first("a kangaroo is brown", HIGH, LOW, buzzer=5.2)
    assert label == "nothing"


def test_the_turns_first_long_utterance_is_enrolled() -> None:
    voice = DescriberVoice()
    turn = Situation(entry=KANGAROO, turn_start=1.0)

    def learnt(situation: Situation = turn) -> float | None:
        return voice.situation(situation).describer_pitch

    # too short to enrol (a stray "okay"), then before the turn, then a guess
    voice.offer([said("okay", HIGH, start=2.0)], turn, guessed=False)
    assert learnt() is None
    early = dataclasses.replace(turn, turn_start=9.0)
    voice.offer([said("it jumps around australia", HIGH, 2.0)], early, guessed=False)
    assert learnt(early) is None
    voice.offer([said("is it a kangaroo or a wallaby", HIGH, 2.0)], turn, guessed=True)
    assert learnt() is None
    # the first clue of the turn, at least ENROL_SECONDS long
    clue = said("it jumps around australia with a pouch", LOW, start=3.0)
    assert clue.end - clue.start >= ENROL_SECONDS
    voice.offer([clue], turn, guessed=False)
    assert learnt() == LOW
    # ... and no later utterance changes it in that turn
    voice.offer([said("it lives in australia and it hops", HIGH, 8.0)], turn, guessed=False)
    assert learnt() == LOW
    # a new turn knows nothing yet; a print the caller gives stands
    later = dataclasses.replace(turn, turn_start=40.0)
    assert learnt(later) is None
    given = dataclasses.replace(turn, describer_pitch=150.0)
    assert learnt(given) == 150.0
    # between turns nobody describes
    assert learnt(dataclasses.replace(turn, phase=Phase.BETWEEN)) is None


def test_a_guesser_who_spoke_first_loses_the_print_to_the_describer() -> None:
    # R6: a guesser's "okay go on then" (1.2 s, the turn's first long utterance)
    # enrols the wrong voice; the describer then does the talking, and once the
    # describer's voice has said SWITCH_SHARE times as much, SWITCH_SECONDS more,
    # in SWITCH_UTTERANCES utterances, the print is the describer's
    voice = DescriberVoice()
    turn = Situation(entry=KANGAROO, turn_start=1.0)
    chatter = said("okay go on then", HIGH, start=1.2)
    voice.offer([chatter], turn, guessed=False)
    assert voice.situation(turn).describer_pitch == HIGH
    first_clue = said("it hops around australia with a baby in its pouch", LOW, start=3.0)
    voice.offer([first_clue], turn, guessed=False)
    said_first = first_clue.end - first_clue.start
    chatted = chatter.end - chatter.start
    assert said_first >= SWITCH_SHARE * chatted and said_first - chatted >= SWITCH_SECONDS
    assert SWITCH_UTTERANCES == 2
    assert voice.situation(turn).describer_pitch == HIGH  # one utterance is not enough
    second_clue = said("it has big feet and a long tail", LOW * 1.05, start=first_clue.end + 0.5)
    voice.offer([second_clue], turn, guessed=False)
    # the describer's: the pitch in the middle of the two clues' seconds
    assert voice.situation(turn).describer_pitch == LOW
    # the same turn's later questions in the other voice do not take it back
    question = said("is it a wallaby or a big rabbit", HIGH, start=second_clue.end + 0.5)
    voice.offer([question], turn, guessed=False)
    assert voice.situation(turn).describer_pitch == LOW


def test_one_long_question_does_not_take_the_describers_print() -> None:
    voice = DescriberVoice()
    turn = Situation(entry=KANGAROO, turn_start=1.0)
    voice.offer([said("it hops around australia", LOW, start=1.5)], turn, guessed=False)
    question = said("is it an animal that lives in the outback with a big tail", HIGH, 4.0)
    assert question.end - question.start > 2 * SWITCH_SECONDS  # longer than the clue
    voice.offer([question], turn, guessed=False)
    assert voice.situation(turn).describer_pitch == LOW


def test_an_utterance_with_a_near_miss_teaches_no_print() -> None:
    # "swimmer, is it?" is a guesser's near miss: not the describer's voice
    referee = Referee(phones)
    turn = Situation(entry=SWIM, turn_start=0.0, describer_pitch=None)
    [j] = referee.observe_all([said("is it a swimmer then", HIGH, start=1.5)], turn)
    assert j.label == "near_miss"
    [j] = referee.observe_all([said("the swimmer is fast", LOW, start=6.0)], turn)
    assert j.label == "foul:derivative"  # no print in HIGH: LOW is no "other voice"


def test_the_print_stays_in_a_control_round_whoever_calls_out() -> None:
    # R13: in a CONTROL round every team calls out, and the callers' long
    # utterances may outlast the describer's: the first print stays
    voice = DescriberVoice()
    control = Situation(entry=KANGAROO, turn_start=1.0, phase=Phase.CONTROL)
    voice.offer([said("it hops around australia", LOW, start=1.5)], control, guessed=False)
    t = 4.0
    for _ in range(3):
        shout = said("a big brown animal with a long tail and a pouch", HIGH, start=t)
        voice.offer([shout], control, guessed=False)
        t = shout.end + 0.3
    assert voice.situation(control).describer_pitch == LOW


def test_a_guessers_question_teaches_no_print() -> None:
    # "is it a wallaby or a rabbit" opens as a guesser asks: not the describer's
    # voice, though no guess of the card was judged in it
    referee = Referee(phones)
    turn = Situation(entry=KANGAROO, turn_start=0.0)
    referee.observe_all([said("is it a wallaby or a rabbit then", HIGH, start=1.5)], turn)
    [j] = referee.observe_all([said("a kangaroo is brown", LOW, start=6.0)], turn)
    assert j.label == "foul:word"  # no print in HIGH: LOW is no "other voice"
    # a describer's sentence does teach it
    referee.reset()
    referee.observe_all([said("it hops around australia", HIGH, start=1.5)], turn)
    [j] = referee.observe_all([said("a kangaroo is brown", LOW, start=6.0)], turn)
    assert j.label == "guess"


def test_the_referee_learns_the_describer_from_the_turn() -> None:
    referee = Referee(phones)
    turn = Situation(entry=KANGAROO, turn_start=0.0)
    clue = said("it jumps around australia with a pouch", LOW, start=1.5)
    assert [j.label for j in referee.observe_all([clue], turn)] == ["nothing"]
    [j] = referee.observe_all([said("a kangaroo is brown", HIGH, start=6.0)], turn)
    assert j.label == "guess"
    # a guess as the turn's first utterance teaches nothing
    other = Referee(phones)
    other.observe_all([said("is it a kangaroo", HIGH, start=1.5)], turn)
    [j] = other.observe_all([said("a kangaroo is brown", LOW, start=6.0)], turn)
    assert j.label == "foul:word"
    # after a reset (a new phase) the print is gone: the words decide again
    referee.reset()
    [j] = referee.observe_all([said("a kangaroo is brown", HIGH, start=6.0)], turn)
    assert j.label == "foul:word"


def voiced(text: str, pitches: list[float | None], start: float = 5.0) -> RecognitionEvent:
    """``said(text)`` with each word's own pitch, one per word of ``text``."""
    event = said(text, None, start)
    words = tuple(
        dataclasses.replace(w, pitch=p) for w, p in zip(event.words, pitches, strict=True)
    )
    return dataclasses.replace(event, words=words)


CLUE = "it hops around australia with a baby in its pouch"


def test_answer_voice_is_every_word_from_the_answer_on() -> None:
    toks = tokens(voiced(f"{CLUE} kangaroo right", [LOW] * 10 + [HIGH, HIGH]).words)
    assert answer_voice(toks, 10, 10, LOW).startswith("another voice from the answer on")
    assert "(pitch 176 Hz, the describer's 100 Hz)" in answer_voice(toks, 10, 10, LOW)
    assert answer_voice(toks, 10, 10, None) == ""  # no print: no evidence
    assert answer_voice(toks, 10, 10, HIGH) == ""  # the describer's own voice
    # a word after the answer in the describer's voice: the describer going on
    toks = tokens(voiced(f"{CLUE} kangaroo right", [LOW] * 10 + [HIGH, LOW]).words)
    assert answer_voice(toks, 10, 10, LOW) == ""
    # words without a pitch count for nothing, but the answer must have one
    toks = tokens(voiced(f"{CLUE} kangaroo right", [LOW] * 10 + [HIGH, None]).words)
    assert answer_voice(toks, 10, 10, LOW) != ""
    toks = tokens(voiced(f"{CLUE} kangaroo right", [LOW] * 10 + [None, HIGH]).words)
    assert answer_voice(toks, 10, 10, LOW) == ""
    # one pitch above the describer's and one below: no single other voice
    toks = tokens(voiced(f"{CLUE} kangaroo right", [LOW] * 10 + [HIGH, 60.0]).words)
    assert answer_voice(toks, 10, 10, LOW) == ""


@pytest.mark.parametrize(
    ("guess", "answer", "rest", "expected"),
    [
        # the guesser's "kangaroo!" heard with the clue as one utterance
        ("kangaroo", HIGH, HIGH, "guess"),
        ("a kangaroo", HIGH, HIGH, "guess"),
        ("kangaroo is it", HIGH, HIGH, "guess"),
        # ... in the describer's own voice: the describer's foul
        ("kangaroo", LOW * 1.3, LOW, "foul:word"),
        # the describer going on after a guesser's word
        ("kangaroo is it", HIGH, LOW, "foul:word"),
        # the answer with more words after it: a sentence going on, whatever the voice
        ("kangaroo and it is brown", HIGH, HIGH, "foul:word"),
    ],
)
def test_R6_a_guess_cutting_in_as_the_clue_ends_is_heard_by_its_voice(
    guess: str, answer: float, rest: float, expected: str
) -> None:
    words = guess.split()
    pitches: list[float | None] = [LOW] * len(CLUE.split())
    pitches += [answer if w == "kangaroo" else rest for w in words]
    text = f"{CLUE} {guess}"
    situation = Situation(entry=KANGAROO, describer_pitch=LOW)
    judged = Referee(phones).judge(voiced(text, pitches), situation)
    assert [j.label for j in judged] == [expected], judged[0].evidence
    if expected == "guess":
        assert "the answer ends the utterance in another voice" in judged[0].evidence
    # without a print the words alone decide: a describer's sentence ending with it
    unknown = Referee(phones).judge(voiced(text, pitches), Situation(entry=KANGAROO))
    assert [j.label for j in unknown] == ["foul:word"]
