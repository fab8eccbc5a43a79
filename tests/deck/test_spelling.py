"""American spellings of British card words: what the recogniser writes (R11, answers)."""

from __future__ import annotations

import pytest

from voice_host.deck.lexicon import Lexicon
from voice_host.deck.spelling import american_spellings


@pytest.mark.parametrize(
    ("british", "american"),
    [
        ("colour", "color"),  # -our
        ("colourful", "colorful"),  # ... before an ending
        ("favourite", "favorite"),
        ("neighbourhood", "neighborhood"),
        ("centre", "center"),  # -tre
        ("centred", "centered"),
        ("theatres", "theaters"),
        ("organised", "organized"),  # -ise
        ("organising", "organizing"),
        ("analyse", "analyze"),  # -yse
        ("defence", "defense"),  # -ence
        ("catalogue", "catalog"),  # -ogue
        ("travelled", "traveled"),  # a doubled l before an ending
        ("jewellery", "jewelry"),  # whole words
        ("tyre", "tire"),  # listed: said T AY R in the dictionary, tire T AY ER
        ("pyjamas", "pajamas"),
        ("mould", "mold"),
    ],
)
def test_R11_british_spelling_has_its_american_one(
    lexicon: Lexicon, british: str, american: str
) -> None:
    assert american in american_spellings(british, lexicon)


@pytest.mark.parametrize(
    "word",
    [
        "four",  # -our of one syllable: no "for"
        "hour",
        "tour",  # "tor" is a word, said otherwise
        "flour",
        "filled",  # "filed" is said otherwise
        "fence",  # no -ence word: "fense"
        "pence",
        "rise",  # no -ise word: "rize"
        "riser",
        "boulder",  # "bolder" is another word
        "michael",
        "color",  # already American
    ],
)
def test_R11_no_american_spelling_where_there_is_none(lexicon: Lexicon, word: str) -> None:
    assert american_spellings(word, lexicon) == set()
