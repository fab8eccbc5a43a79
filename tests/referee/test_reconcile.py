"""One utterance, one verdict: judgements of the same spoken words are reconciled.

The events are those pocketsphinx gave for ``slt/guess__is_it_a_kangaroo.wav``
("is it a kangaroo?"): the spotter reported "kangaroo", "the kangaroo",
"kangaroo's" and "kangaroos" for the one spoken word, and the free decoder
wrote "is a kangaroo you".
"""

from __future__ import annotations

import pytest

from tests.referee.conftest import EIFFEL, KANGAROO, TELESCOPE, free, phones
from voice_host.referee import Referee, Situation
from voice_host.speech.events import HeardWord, RecognitionEvent

SIT = Situation(entry=KANGAROO)
SPAN = (0.3, 1.62)


def kws(text: str, start: float, end: float, confirmed: bool | None = True) -> RecognitionEvent:
    """A spotted phrase (one HeardWord, as pocketsphinx reports it) in the utterance."""
    return RecognitionEvent("final", (HeardWord(text, start, end),), 1.74, "kws", confirmed, SPAN)


def heard(*words: tuple[str, float, float]) -> RecognitionEvent:
    """A free transcript of the utterance with the given word timings."""
    hw = tuple(HeardWord(w, s, e) for w, s, e in words)
    return RecognitionEvent("final", hw, 1.74, "free", None, SPAN)


SPOTTED = [
    kws("the kangaroo", 0.64, 1.16),
    kws("kangaroo", 0.7, 1.16),
    kws("kangaroo's", 0.7, 1.19),
    kws("kangaroos", 0.7, 1.19),
]
GARBLED_QUESTION = heard(
    ("is", 0.28, 0.44), ("a", 0.44, 0.71), ("kangaroo", 0.78, 1.16), ("you", 1.16, 1.4)
)
CLUE = heard(
    ("you", 0.28, 0.4),
    ("see", 0.4, 0.55),
    ("a", 0.55, 0.64),
    ("kangaroo's", 0.7, 1.19),
    ("pouch", 1.2, 1.5),
    ("in", 1.5, 1.6),
    ("australia", 1.6, 2.2),
)


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        # the real batch, backend order: one guess (no near miss for the
        # overlapping "kangaroo's", no foul from the free transcript)
        ([*SPOTTED, GARBLED_QUESTION], ["guess"]),
        # the same batch with the free transcript first
        ([GARBLED_QUESTION, *SPOTTED], ["guess"]),
        # no free transcript (--no-free-text): the answer beats the forms
        # spotted at the same place
        (SPOTTED, ["guess"]),
        # the plural answer beats the possessive form spotted at the same place
        ([kws("kangaroo's", 0.7, 1.19), kws("kangaroos", 0.7, 1.19)], ["guess"]),
        # only the possessive spotted there: it sounds exactly as the plural
        # answer does, so it is the answer (a guess), not a near miss
        ([kws("kangaroo's", 0.7, 1.19)], ["guess"]),
        # how slt's "is it a kangaroo?" was also written: "isn't" opens the question
        (
            [
                *SPOTTED,
                heard(
                    ("isn't", 0.28, 0.6),
                    ("a", 0.6, 0.71),
                    ("kangaroo", 0.78, 1.16),
                    ("you", 1.16, 1.4),
                ),
            ],
            ["guess"],
        ),
        # a clue holding the form: the free transcript decides (describer), and
        # the answer spotted at the same place adds no guess
        ([*SPOTTED, CLUE], ["foul:derivative"]),
        # a spotted hit the free transcript contradicts with a long clue around
        # the answer: one foul, never a guess as well
        (
            [
                kws("kangaroo", 0.7, 1.16),
                heard(
                    ("you", 0.28, 0.4),
                    ("see", 0.4, 0.55),
                    ("a", 0.55, 0.64),
                    ("kangaroo", 0.7, 1.16),
                    ("jump", 1.2, 1.5),
                    ("in", 1.5, 1.6),
                    ("australia", 1.6, 2.2),
                ),
            ],
            ["foul:word"],
        ),
    ],
)
def test_one_verdict_per_word_in_a_batch(
    events: list[RecognitionEvent], expected: list[str]
) -> None:
    judged = Referee(phones).observe_all(events, SIT)
    assert [j.label for j in judged if j.type != "nothing"] == expected


def test_events_observed_one_by_one_give_one_verdict() -> None:
    # the order the backend emits them, each through observe(): the first
    # verdict for the word stands and the rest are not reported
    ref = Referee(phones)
    labels = [j.label for e in [*SPOTTED, GARBLED_QUESTION] for j in ref.observe(e, SIT)]
    assert [x for x in labels if x != "nothing"] == ["guess"]


def test_a_guess_already_returned_is_not_followed_by_a_foul_for_the_same_word() -> None:
    # a confirmed partial was acted on at once; the utterance's free
    # transcript later reads like a clue: the word keeps its first verdict
    ref = Referee(phones)
    partial = RecognitionEvent(
        "partial", (HeardWord("kangaroo", 0.7, 1.16),), 1.3, "kws", True, (0.3, 1.3)
    )
    assert [j.label for j in ref.observe(partial, SIT)] == ["guess"]
    assert [j.type for j in ref.observe(CLUE, SIT)] == []


def test_a_clue_and_a_later_guess_in_one_recogniser_utterance_both_stand() -> None:
    # different words at different times: the describer's foul, then after a
    # pause a guesser's shout (the endpointer kept them in one utterance)
    ev = free("it's a big brown kangaroo that hops about", start=0.3)
    shout = free("kangaroo", start=ev.end + 1.0)
    merged = RecognitionEvent(
        "final", ev.words + shout.words, shout.end, "free", None, (0.3, shout.end)
    )
    assert [j.label for j in Referee(phones).observe_all([merged], SIT)] == ["foul:word", "guess"]


def tkws(text: str, start: float, end: float) -> RecognitionEvent:
    """A confirmed spotted word in a short utterance around it."""
    span = (start - 0.1, end + 0.1)
    return RecognitionEvent("final", (HeardWord(text, start, end),), end + 0.3, "kws", True, span)


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        # "telescopic" said: the spotter also finds "telescope" inside it, ending
        # 0.2 s before the form's hit does: the longer form was said
        ([tkws("telescope", 1.0, 1.6), tkws("telescopic", 1.0, 1.8)], ["near_miss"]),
        # "telescope" said: both hits end together, the answer wins
        ([tkws("telescope", 1.0, 1.6), tkws("telescopic", 1.0, 1.62)], ["guess"]),
        # the free transcript wrote the form: its word decides
        ([tkws("telescope", 1.0, 1.6), free("telescopic", start=1.0)], ["near_miss"]),
    ],
)
def test_answer_inside_a_longer_form(events: list[RecognitionEvent], expected: list[str]) -> None:
    judged = Referee(phones).observe_all(events, Situation(entry=TELESCOPE))
    assert [j.label for j in judged if j.type != "nothing"] == expected


def test_a_hit_in_a_gap_of_the_free_transcript_fills_it() -> None:
    # "a bar of chocolate is sweet": the free decoder wrote "and on all ... is
    # sweet", leaving a gap where the spotter heard "telescope"; the gap is
    # no pause between speakers, so the answer sits inside a 6-word clue
    clue = heard(
        ("and", 0.3, 0.45),
        ("on", 0.45, 0.6),
        ("all", 0.6, 0.8),
        ("is", 1.7, 1.85),
        ("sweet", 1.85, 2.2),
    )
    hit = RecognitionEvent(
        "final", (HeardWord("telescope", 0.85, 1.6),), 2.4, "kws", True, (0.3, 2.2)
    )
    judged = Referee(phones).observe_all([hit, clue], Situation(entry=TELESCOPE))
    assert [j.label for j in judged if j.type != "nothing"] == ["foul:word"]


def eiffel(text: str, start: float, end: float, confirmed: bool | None = True) -> RecognitionEvent:
    return RecognitionEvent(
        "final", (HeardWord(text, start, end),), 2.0, "kws", confirmed, (0.3, 1.8)
    )


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        # "is it the Eiffel Tower?": the spotter heard the whole answer, confirmed;
        # the free transcript heard "eiffel" and wrote another word over "tower"
        # ("it eiffel tar"): the answer stands, not a near miss on "eiffel"
        (
            [
                eiffel("eiffel tower", 0.7, 1.5),
                heard(("it", 0.3, 0.6), ("eiffel", 0.7, 1.05), ("tar", 1.05, 1.6)),
            ],
            ["guess"],
        ),
        # "Eiffel?" alone: nothing written after it, so the near miss stands even
        # where the spotter stretched the whole answer over the silence after it
        (
            [
                eiffel("eiffel tower", 0.7, 1.5),
                heard(("it", 0.3, 0.6), ("eiffel", 0.7, 1.05)),
            ],
            ["near_miss"],
        ),
        # the spotter's hit not confirmed by the listening side: the free
        # transcript's near miss stands
        (
            [
                eiffel("eiffel tower", 0.7, 1.5, confirmed=None),
                heard(("it", 0.3, 0.6), ("eiffel", 0.7, 1.05), ("tar", 1.05, 1.6)),
            ],
            ["near_miss"],
        ),
        # a form that is no word of the answer ("towers"): the free transcript decides
        # (a form with a word after it: the describer's), the spotted answer adds nothing
        (
            [
                eiffel("eiffel tower", 0.7, 1.5),
                heard(("the", 0.3, 0.6), ("towers", 0.7, 1.05), ("tar", 1.05, 1.6)),
            ],
            ["foul:derivative"],
        ),
    ],
)
def test_a_confirmed_whole_answer_completes_the_one_word_the_transcript_heard(
    events: list[RecognitionEvent], expected: list[str]
) -> None:
    judged = Referee(phones).observe_all(events, Situation(entry=EIFFEL))
    assert [j.label for j in judged if j.type != "nothing"] == expected
