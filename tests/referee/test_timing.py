"""R8 buzzer grace, host speech gating, echo of announcements, turn opening, utterance splits."""

from __future__ import annotations

import pytest

from tests.referee.conftest import EIFFEL, TELESCOPE, free, phones
from voice_host.referee import GRACE_SECONDS, Phase, Referee, Situation
from voice_host.referee.text import synthetic_words
from voice_host.speech.events import HeardWord, RecognitionEvent


def one_word(word: str, start: float, end: float) -> RecognitionEvent:
    return RecognitionEvent("final", (HeardWord(word, start, end),), end + 0.3, "free")


def test_grace_is_stated() -> None:
    assert GRACE_SECONDS == 0.3


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        # ended well before the buzzer at 10.0 s
        (8.0, 9.0, "guess"),
        # R8: ended 0.2 s after the buzzer, under way at it: within the 0.3 s grace
        (9.4, 10.2, "guess"),
        # ended exactly at the end of the grace
        (9.5, 10.3, "guess"),
        # ended 0.4 s after the buzzer: too late
        (9.6, 10.4, "nothing"),
        # started after the buzzer, however short: too late
        (10.05, 10.2, "nothing"),
    ],
)
def test_R8_guess_at_the_buzzer(start: float, end: float, expected: str) -> None:
    situation = Situation(entry=TELESCOPE, buzzer=10.0)
    [j] = Referee(phones).judge(one_word("telescope", start, end), situation)
    assert j.type == expected
    if expected == "guess":
        assert j.t == pytest.approx(end)  # judged by when the word ended, not arrival
    else:
        assert "buzzer" in j.evidence


def test_late_event_with_early_word_counts() -> None:
    # the transcript arrives 2 s after the buzzer; the word ended before it
    event = RecognitionEvent("final", (HeardWord("telescope", 9.0, 9.8),), 12.0, "free")
    [j] = Referee(phones).judge(event, Situation(entry=TELESCOPE, buzzer=10.0))
    assert (j.type, j.t) == ("guess", 9.8)


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        # inside the host's speech (5.0-7.0 s)
        (6.0, "nothing"),
        # in the 0.5 s tail after it
        (7.3, "nothing"),
        # after the tail
        (7.6, "guess"),
    ],
)
def test_host_speech_is_not_judged(start: float, expected: str) -> None:
    situation = Situation(entry=TELESCOPE, host_speech=((5.0, 7.0),))
    [j] = Referee(phones).judge(one_word("telescope", start, start + 0.2), situation)
    assert j.type == expected


def test_host_speech_drops_only_its_words() -> None:
    situation = Situation(entry=TELESCOPE, host_speech=((0.0, 0.4),))
    # synthetic words from 0.3 s: "correct" overlaps the host; "telescope" comes after
    js = Referee(phones).judge(free("correct telescope", start=0.3), situation)
    assert [j.type for j in js] == ["guess"]


@pytest.mark.parametrize(
    ("heard_at", "text", "expected"),
    [
        # the host's own announcement heard back 1 s later: ignored
        (11.0, "telescope correct three", "nothing"),
        # part of it
        (11.0, "correct three", "nothing"),
        # the same words 5 s later are a player
        (16.0, "telescope", "guess"),
        # other words right after the announcement are judged
        (11.0, "is it a telescope", "guess"),
    ],
)
def test_echo_of_the_last_announcement(heard_at: float, text: str, expected: str) -> None:
    situation = Situation(
        entry=TELESCOPE, last_announcement="Telescope, correct. Three.", announced_at=10.0
    )
    js = Referee(phones).judge(free(text, start=heard_at), situation)
    assert js[0].type == expected


def test_answer_read_out_at_the_turn_opening_is_a_foul() -> None:
    # the describer reads the card aloud 0.4 s into the turn
    situation = Situation(entry=TELESCOPE, turn_start=20.0)
    [j] = Referee(phones).judge(free("telescope", start=20.4), situation)
    assert (j.type, j.kind) == ("foul", "word")
    assert "into the turn" in j.evidence


def test_words_before_the_turn_are_not_judged() -> None:
    situation = Situation(entry=TELESCOPE, turn_start=20.0)
    [j] = Referee(phones).judge(free("telescope", start=18.0), situation)
    assert j.type == "nothing"


def test_a_pause_splits_clue_and_guess() -> None:
    # a clue, 1 s of silence, then a guesser: two utterances in one transcript
    words = (
        *free("you look through it to see the stars").words,
        HeardWord("telescope", 4.5, 5.2),
    )
    event = RecognitionEvent("final", words, 5.5, "free")
    js = Referee(phones).judge(event, Situation(entry=TELESCOPE))
    assert [j.label for j in js] == ["guess"]


def test_evidence_says_what_decided() -> None:
    [clue] = Referee(phones).judge(
        free("you look through a telescope to see the stars at night"),
        Situation(entry=TELESCOPE),
    )
    assert "describer" in clue.evidence and "sentence" in clue.evidence
    assert clue.features["words"] == 11
    [guess] = Referee(phones).judge(free("is it a telescope"), Situation(entry=TELESCOPE))
    assert "short guess" in guess.evidence and guess.answer == "telescope"


def test_control_phase_accepts_team_claim_and_guess_in_one_batch() -> None:
    ref = Referee(phones)
    situation = Situation(entry=TELESCOPE, phase=Phase.CONTROL, teams=("red", "blue"))
    assert [j.label for j in ref.judge(free("blue"), situation)] == ["team:blue"]


def clue_then(clue: str, pause: float, after: str) -> RecognitionEvent:
    """One utterance: ``clue``, a pause of ``pause`` seconds, then ``after``."""
    first = synthetic_words(clue)
    rest = synthetic_words(after, start=first[-1].end + pause)
    words = (*first, *rest)
    return RecognitionEvent("final", words, words[-1].end + 0.3, "free")


@pytest.mark.parametrize(
    ("clue", "pause", "after", "expected"),
    [
        # a guesser calls out the answer a moment after the clue: heard as one utterance
        ("you look through it to see the stars", 0.25, "telescope", "guess"),
        ("you look through it to see the stars", 0.25, "is it a telescope", "guess"),
        # no pause between the words: the describer's sentence ends with the word
        ("you look through it to see the stars", 0.05, "telescope", "foul"),
        # after the pause the describer goes on with a clue frame
        ("you look through it to see the stars", 0.3, "like a telescope", "foul"),
        # ... or says the word inside the rest of the sentence
        ("it sees far", 0.3, "a telescope is long", "foul"),
        # after the pause words no guesser leads in with ("my dad loves old cowboy
        # films | with Clint Eastwood"): the describer's sentence goes on
        ("it sees far", 0.3, "big old telescope", "foul"),
        # more than a few words between the pause and the word: the describer again
        ("it sees far", 0.3, "and you use a big telescope", "foul"),
        # the guesser's "is it a" garbled by the recogniser, still sounding like it
        # (cut_in.py: "... with hot lava | irritate volcano", "... | is it eight telephone")
        ("you look through it to see the stars", 0.25, "visit a telescope", "guess"),
        ("you look through it to see the stars", 0.25, "is it eight telescope", "guess"),
        ("you look through it to see the stars", 0.25, "irritate telescope", "guess"),
        # ... but not without the pause: then it is the describer's sentence
        ("you look through it to see the stars", 0.05, "visit a telescope", "foul"),
        # ... nor words that sound like no question ("a big" is 0.62 of "is it")
        ("you look through it to see the stars", 0.25, "a big telescope", "foul"),
        # "maybe" written as two words is the guesser's doubt, pause or none
        ("you look through it to see the stars", 0.05, "may be a telescope", "guess"),
    ],
)
def test_a_guess_after_a_pause_at_the_end_of_a_clue(
    clue: str, pause: float, after: str, expected: str
) -> None:
    [j] = Referee(phones).judge(clue_then(clue, pause, after), Situation(entry=TELESCOPE))
    assert j.type == expected


def spoken(*parts: str, pause: float = 0.35) -> RecognitionEvent:
    """One utterance of ``parts`` with a pause of ``pause`` seconds between them."""
    words: list[HeardWord] = []
    for part in parts:
        words += synthetic_words(part, start=words[-1].end + pause if words else 0.3)
    return RecognitionEvent("final", tuple(words), words[-1].end + 0.3, "free")


@pytest.mark.parametrize(
    ("parts", "pause", "expected"),
    [
        # a list called out one guess at a time, the guesses of two words each and
        # nothing but a pause between them: a guesser's list, its last guess right
        (("is it big ben", "buckingham palace", "eiffel tower"), 0.35, "guess"),
        (("is it notre dame", "big ben", "eiffel tower"), 0.25, "guess"),
        # without the pauses the words run together: no list of short guesses
        (("is it big ben", "buckingham palace", "eiffel tower"), 0.05, "foul"),
        # NEGATIVE: a describer pausing in a sentence, the card word running on
        # from the words before it
        (("it's huge", "very tall", "iron eiffel tower"), 0.35, "foul"),
        (("you see it", "over paris", "big eiffel tower"), 0.35, "foul"),
    ],
)
def test_a_list_of_guesses_told_apart_by_pauses(
    parts: tuple[str, ...], pause: float, expected: str
) -> None:
    [j] = Referee(phones).judge(spoken(*parts, pause=pause), Situation(entry=EIFFEL))
    assert j.type == expected
