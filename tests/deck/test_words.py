"""Turning printed text into spoken words."""

from __future__ import annotations

import pytest

from voice_host.deck.words import number_words, split_words


@pytest.mark.parametrize(
    ("n", "said"),
    [
        (7, "seven"),  # one digit
        (11, "eleven"),  # teens
        (42, "forty two"),  # tens and ones
        (101, "one hundred and one"),  # hundreds, British "and"
        (1984, "nineteen eighty four"),  # a year
        (1905, "nineteen oh five"),  # a year with "oh"
        (2000, "two thousand"),  # round thousands
        (2024, "twenty twenty four"),  # a recent year
    ],
)
def test_number_words(n: int, said: str) -> None:
    assert number_words(n) == said


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Beyoncé", ["beyonce"]),  # accent folded
        # letters Unicode does not decompose, spelt as English spells them (they had
        # split the word: "Ærøskøbing" was "r sk bing", and "sk" a word of the card)
        ("Ærøskøbing", ["aeroskobing"]),
        ("Smørrebrød", ["smorrebrod"]),
        ("Straße", ["strasse"]),
        ("Łódź", ["lodz"]),
        ("St. Paul's", ["st", "paul's"]),  # full stop dropped, inner apostrophe kept
        ("Jack-in-the-box", ["jack", "in", "the", "box"]),  # hyphens split
        ("R2-D2", ["r", "two", "d", "two"]),  # digits inside names
        ("‘Quoted’", ["quoted"]),  # curly quotes stripped
    ],
)
def test_split_words(text: str, words: list[str]) -> None:
    assert split_words(text) == words
