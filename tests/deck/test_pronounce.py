"""Pronunciations: CMU dictionary, composed, espeak-ng, letter-to-sound; phones always valid."""

from __future__ import annotations

import shutil

import pytest

from voice_host.deck import pronounce
from voice_host.deck.knowledge import make_entry
from voice_host.deck.lexicon import PHONE_SET, Lexicon


@pytest.mark.parametrize(
    ("word", "phones", "method"),
    [
        ("post", ("P", "OW", "S", "T"), "cmudict"),  # straight from the dictionary
        ("postbox", ("P", "OW", "S", "T", "B", "AA", "K", "S"), "composed"),  # post + box
        (
            "postboxes",
            ("P", "OW", "S", "T", "B", "AA", "K", "S", "IH", "Z"),
            "composed",
        ),  # plural of a composed word
    ],
)
def test_known_and_composed(
    lexicon: Lexicon, word: str, phones: tuple[str, ...], method: str
) -> None:
    assert pronounce.pronounce_all([word], lexicon)[word] == (phones, method)


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_espeak_for_unknown_word(lexicon: Lexicon) -> None:
    phones, method = pronounce.pronounce_all(["zorblax"], lexicon)["zorblax"]
    assert method == "espeak"
    assert phones[0] == "Z" and "B" in phones and phones[-1] == "S"


def test_rules_when_espeak_missing(lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pronounce, "_espeak_program", lambda: None)
    phones, method = pronounce.pronounce_all(["zorblax"], lexicon)["zorblax"]
    assert method == "rules"
    assert phones == ("Z", "AO", "R", "B", "L", "AE", "K", "S")


@pytest.mark.parametrize(
    ("ipa", "phones"),
    [
        ("kˈæŋɡɚɹˌuː", ("K", "AE", "NG", "G", "ER", "R", "UW")),  # stress and length marks dropped
        ("tʃˈɜːtʃ", ("CH", "ER", "CH")),  # affricates are one phone
        ("bˈʌʔn̩", ("B", "AH", "T", "AH", "N")),  # glottal stop and syllabic n
    ],
)
def test_ipa_to_arpabet(ipa: str, phones: tuple[str, ...]) -> None:
    assert pronounce.ipa_to_arpabet(ipa) == phones


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Zelenskyy", "Person"),  # not in the dictionary: generated
        ("Eiffel Tower", "World"),  # dictionary words and a possessive
        ("Apollo 11", "Random"),  # digits
    ],
)
def test_every_word_has_valid_phones(text: str, category: str) -> None:
    entry = make_entry(text, category)
    words = {w for phrase in (*entry.answers, *entry.forms) for w in phrase.split()}
    assert words == set(entry.pronunciations)
    for phones in entry.pronunciations.values():
        assert phones and set(phones) <= PHONE_SET


def test_generated_words_are_recorded() -> None:
    entry = make_entry("Zelenskyy", "Person")
    assert "zelenskyy" in entry.generated
    assert "post" not in make_entry("Post", "Object").generated
