"""R11 (letters): a describer who spells the card slowly, a letter to each breath.

Said slowly, each letter is an utterance of its own (the voice detector closes
on the pause), or a segment of its own (a pause of SPLIT_GAP_SECONDS or more).
The referee joins letters that follow each other within SPELL_PAUSE_SECONDS
and judges the run as it judges letters said in one breath.  From text and
timings alone.
"""

from __future__ import annotations

from tests.referee.conftest import KANGAROO, TELESCOPE, entry, free
from voice_host.deck.model import Entry
from voice_host.referee import Phase, Referee, Situation
from voice_host.referee.referee import SPELL_PAUSE_SECONDS, SPLIT_GAP_SECONDS
from voice_host.speech.events import HeardWord, RecognitionEvent

DVD = entry("DVD", ("dvd", "a dvd"), ("dvds",))


def letter(text: str, start: float) -> RecognitionEvent:
    """One utterance of ``text`` (letters), 0.3 s a word, from ``start``."""
    words = tuple(
        HeardWord(w, round(start + 0.4 * i, 2), round(start + 0.4 * i + 0.3, 2))
        for i, w in enumerate(text.split())
    )
    end = words[-1].end
    return RecognitionEvent("final", words, end + 0.3, "free", None, (start, end))


def judged(events: list[RecognitionEvent], card: Entry, **situation: object) -> list[str]:
    referee = Referee.default()
    place = Situation(entry=card, phase=Phase.TURN, **situation)  # type: ignore[arg-type]
    out: list[str] = []
    for event in events:  # one batch per utterance, as the host feeds them
        out += [j.label for j in referee.observe_all([event], place) if j.type != "nothing"]
    return out


def spelled(text: str, pause: float, start: float = 1.0) -> list[RecognitionEvent]:
    """Each letter of ``text`` an utterance of its own, ``pause`` s of silence apart."""
    events = []
    for w in text.split():
        events.append(letter(w, start))
        start = events[-1].words[-1].end + pause
    return events


def test_letters_said_one_utterance_each_are_one_spelling() -> None:
    assert judged(spelled("t e l", 0.8), TELESCOPE) == ["foul:letter"]
    # judged when the third letter is heard, and once however many follow
    assert judged(spelled("t e l e s", 0.8), TELESCOPE) == ["foul:letter"]
    assert judged(spelled("k a n", 1.2), KANGAROO) == ["foul:letter"]


def test_a_pause_longer_than_a_spelling_has_parts_them() -> None:
    long = SPELL_PAUSE_SECONDS + 0.3
    assert judged(spelled("t e l", long), TELESCOPE) == []
    # two letters, a long pause, then one: no run of three
    events = [*spelled("t e", 0.8), *spelled("l", 0.0, start=1.0 + 0.3 + 0.8 + 0.3 + long)]
    assert judged(events, TELESCOPE) == []


def test_letters_that_spell_no_word_of_the_card_are_no_foul() -> None:
    # the recogniser writes single letters for garbled speech: only a spelling of
    # the card from a word's start counts, as within one utterance
    assert judged(spelled("b e l", 0.8), TELESCOPE) == []
    assert judged(spelled("a i", 0.8), TELESCOPE) == []  # two words, not letters


def test_letters_in_one_utterance_split_by_a_long_pause_are_joined_too() -> None:
    # "t e", a pause the referee splits segments at, "l": one utterance
    words = (
        HeardWord("t", 1.0, 1.3),
        HeardWord("e", 1.5, 1.8),
        HeardWord("l", 1.8 + SPLIT_GAP_SECONDS + 0.1, 2.8 + SPLIT_GAP_SECONDS),
    )
    event = RecognitionEvent("final", words, 3.5, "free", None, (1.0, 3.2))
    assert judged([event], TELESCOPE) == ["foul:letter"]


def test_a_word_between_the_letters_parts_them() -> None:
    events = [letter("t", 1.0), free("it is", start=2.0), letter("e", 3.0), letter("l", 4.0)]
    assert judged(events, TELESCOPE) == []


def test_an_initialism_said_slowly_is_the_card_not_spelling() -> None:
    # "d... v... d" on the card DVD is its name, said as it is written
    assert judged(spelled("d v d", 0.8), DVD) == []


def test_a_spelling_begun_after_the_buzzer_is_no_foul() -> None:
    # as any foul: judged by when it was begun (the first letter at 1.0 s)
    assert judged(spelled("t e l", 0.8), TELESCOPE, buzzer=0.9) == []
    assert judged(spelled("t e l", 0.8), TELESCOPE, buzzer=2.0) == ["foul:letter"]


def test_no_letter_foul_between_turns() -> None:
    referee = Referee.default()
    place = Situation(entry=TELESCOPE, phase=Phase.BETWEEN)
    heard = [j for e in spelled("t e l", 0.8) for j in referee.observe_all([e], place)]
    assert not [j for j in heard if j.type == "foul"]


def test_a_word_for_a_letter_said_alone_is_that_letter_in_a_slow_spelling() -> None:
    # "T... R... O..." written "t | are | o": "are" said alone is the letter R
    assert judged(spelled("t are o", 0.8), entry("Troy", ("troy",))) == ["foul:letter"]
    assert judged(spelled("c are e", 0.8), entry("Creek", ("creek",))) == ["foul:letter"]
    # not in a sentence: "t", "you are o" is no spelling
    events = [letter("t", 1.0), free("you are o", start=2.0)]
    assert judged(events, entry("Troy", ("troy",))) == []
    # and two letters at least must be heard as letters
    assert judged(spelled("you are t", 0.8), entry("Urt", ("urt",))) == []
    assert judged(spelled("tea are o", 0.8), entry("Troy", ("troy",))) == []
