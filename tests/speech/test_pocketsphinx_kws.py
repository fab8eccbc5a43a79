"""Planning key-phrase lists: pronunciations for unknown words, thresholds, the file format."""

from __future__ import annotations

import logging

import pytest

from voice_host.speech import confirm, kws

DICT = {"telescope": "T EH L AH S K OW P", "host": "HH OW S T", "pass": "P AE S"}


def lookup(word: str) -> str | None:
    return DICT.get(word)


def test_known_words_need_nothing_added() -> None:
    planned, to_add = kws.plan_keyphrases(["Telescope", "host pass"], lookup, {})
    assert [k.phrase for k in planned] == ["telescope", "host pass"]
    assert to_add == {}
    assert planned[1].phones == ("HH", "OW", "S", "T", "P", "AE", "S")


def test_unknown_words_take_the_decks_pronunciation_without_stress_marks() -> None:
    planned, to_add = kws.plan_keyphrases(["zorblax"], lookup, {"zorblax": ("Z", "AO1", "R")})
    assert to_add == {"zorblax": ("Z", "AO", "R")}
    assert planned[0].phones == ("Z", "AO", "R")


def test_words_without_any_pronunciation_get_a_letter_to_sound_guess(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING):
        planned, to_add = kws.plan_keyphrases(["shazzle"], lookup, {})
    assert to_add["shazzle"] == ("SH", "AE", "Z", "L")
    assert planned and "guessing" in caplog.text


def test_a_phrase_with_an_unpronounceable_word_is_dropped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # A deck pronunciation with a phone the model lacks, and nothing a guess can use.
    with caplog.at_level(logging.WARNING):
        planned, _ = kws.plan_keyphrases(["telescope", "'''"], lookup, {})
        planned2, _ = kws.plan_keyphrases(["xq"], lambda w: None, {"xq": ("QQ",)})
    assert [k.phrase for k in planned] == ["telescope"]
    # "xq" falls back to letters: K S K.
    assert planned2[0].phones == ("K", "S", "K")


def test_a_phrase_with_digits_is_spotted_in_words_only() -> None:
    # "Apollo 11" and "24" come with their answers written out; the digits would be
    # dropped from the phrase, and "the 24" spotted in every "the".
    answers = ["twenty four", "24", "the 24", "the twenty four", "apollo 11", "apollo eleven"]
    planned, _ = kws.plan_keyphrases(answers, lookup, {})
    assert [k.phrase for k in planned] == ["twenty four", "the twenty four", "apollo eleven"]


@pytest.mark.parametrize(
    ("n_phones", "exponent"),
    [
        (1, kws.THRESHOLD_MIN_EXPONENT),  # very short: never more permissive than the floor
        (100, kws.THRESHOLD_MAX_EXPONENT),  # very long: capped
    ],
)
def test_thresholds_are_bounded(n_phones: int, exponent: float) -> None:
    assert kws.threshold_for(n_phones) == pytest.approx(10.0**-exponent)


def test_longer_phrases_get_lower_thresholds() -> None:
    assert kws.threshold_for(12) < kws.threshold_for(6)


def test_kws_file_lists_one_phrase_and_threshold_per_line() -> None:
    text = kws.kws_file_text([kws.Keyphrase("host pass", ("HH",), 1e-20)])
    assert text == "host pass /1e-20/\n"


@pytest.mark.parametrize(
    ("word", "phones"),
    [
        ("cat", ("K", "AE", "T")),  # one letter, one sound
        ("shop", ("SH", "AA", "P")),  # a digraph
        ("bike", ("B", "IH", "K")),  # silent final e dropped
        ("ball", ("B", "AE", "L")),  # doubled letter is one sound
    ],
)
def test_letter_to_sound(word: str, phones: tuple[str, ...]) -> None:
    assert kws.letter_to_sound(word) == phones


@pytest.mark.parametrize(
    ("phones", "similarity", "expected"),
    [
        (("R", "EH", "D"), 0.0, False),  # short phrase the free text does not back: rejected
        (("R", "EH", "D"), 1.0, True),  # short phrase the free text agrees with
        (("T", "EH", "L", "AH", "S", "K", "OW", "P"), 0.0, True),  # long phrase: spotting suffices
        (("K", "AA", "R", "P", "AH", "T"), 0.5, False),  # just under both bars
    ],
)
def test_confirmation_needs_the_transcript_or_a_long_phrase(
    phones: tuple[str, ...], similarity: float, expected: bool
) -> None:
    assert confirm.is_confirmed(phones, similarity) is expected


def test_a_leading_article_does_not_make_a_phrase_long_enough_to_trust() -> None:
    the_rainbow = ("DH", "AH", "R", "EY", "N", "B", "OW")  # 7 phones, 2 of them "the"
    # spotted over a transcript "after green" (awb saying "... after the rain")
    assert not confirm.is_confirmed(the_rainbow, 0.3, article=2)
    # the article alone counted would have trusted it
    assert confirm.is_confirmed(the_rainbow, 0.3)
    # the transcript agreeing still confirms it
    assert confirm.is_confirmed(the_rainbow, 0.9, article=2)


def test_a_command_is_never_trusted_on_its_length() -> None:
    host_correct = ("HH", "OW", "S", "T", "K", "ER", "EH", "K", "T")  # 9 phones
    # spotted over "poster!" in a reverberant room, with an empty transcript:
    # a phrase this long would be trusted, a command is not
    assert confirm.is_confirmed(host_correct, 0.0)
    assert not confirm.is_confirmed(host_correct, 0.0, command=True)
    # the transcript agreeing confirms it
    assert confirm.is_confirmed(host_correct, 0.8, command=True)


def test_no_phrase_is_trusted_on_its_length_over_the_second_transcript() -> None:
    paintbrush = ("P", "EY", "N", "T", "B", "R", "AH", "SH")  # 8 phones
    # spotted in a real "i think that america could do it very well", which
    # pocketsphinx garbled and Moonshine wrote: its length no longer vouches
    assert confirm.is_confirmed(paintbrush, 0.2)
    assert not confirm.is_confirmed(paintbrush, 0.2, length_counts=False)
    # the second transcript writing it still confirms it
    assert confirm.is_confirmed(paintbrush, 0.7, length_counts=False)
