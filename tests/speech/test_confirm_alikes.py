"""A spotted hit is refused when the transcript wrote a sound-alike over it."""

from __future__ import annotations

import pytest

from voice_host.speech.confirm import written_as_other
from voice_host.speech.events import HeardWord

SINGER = HeardWord("singer", 1.0, 1.5)
PHONES = {
    "singer": ("S", "IH", "NG", "ER"),
    "sinker": ("S", "IH", "NG", "K", "ER"),
    "anger": ("AE", "NG", "G", "ER"),
    "kangaroo": ("K", "AE", "NG", "G", "ER", "UW"),
    "tower": ("T", "AW", "ER"),
    "towel": ("T", "AW", "L"),
}


@pytest.mark.parametrize(
    "free, alikes, refused",
    [
        # "is it a sinker": the decoder had "singer" and chose "sinker" for that audio.
        ([HeardWord("a", 0.8, 0.95), HeardWord("sinker", 1.0, 1.5)], {"sinker"}, True),
        # The card word itself was written: nothing to refuse.
        ([HeardWord("singer", 1.0, 1.5)], {"sinker"}, False),
        # A sound-alike elsewhere in the sentence says nothing about this hit.
        ([HeardWord("singer", 1.0, 1.5), HeardWord("sinker", 2.0, 2.5)], {"sinker"}, False),
        # A garble that is not one of the offered sound-alikes ("canker you" for
        # "kangaroo") is left to the phone similarity.
        ([HeardWord("sing", 1.0, 1.25), HeardWord("her", 1.25, 1.5)], {"sinker"}, False),
        # A sound-alike sharing the hit with another word is a garble ("a anger you"
        # for "kangaroo"): the phone similarity judges it.
        ([HeardWord("anger", 1.0, 1.4), HeardWord("you", 1.3, 1.6)], {"anger"}, False),
        # A sound-alike covering only a sliver of the hit does not speak for it.
        ([HeardWord("sinker", 1.4, 1.9)], {"sinker"}, False),
        # No sound-alikes known (no biased model): never refused.
        ([HeardWord("sinker", 1.0, 1.5)], set(), False),
    ],
)
def test_a_sound_alike_written_over_the_hit_refuses_it(
    free: list[HeardWord], alikes: set[str], refused: bool
) -> None:
    assert written_as_other(PHONES["singer"], SINGER, free, alikes, PHONES.get) is refused


def test_a_word_of_the_phrase_is_never_its_own_sound_alike() -> None:
    hit = HeardWord("eiffel tower", 1.0, 2.0)
    target = ("AY", "F", "AH", "L", "T", "AW", "ER")
    free = [HeardWord("tower", 1.2, 2.0)]
    assert not written_as_other(target, hit, free, {"tower", "towel"}, PHONES.get)


def test_a_piece_of_the_word_is_not_a_substitute_for_it() -> None:
    # "anger" covers most of a spotted "kangaroo" but is two phones short: a garble.
    hit = HeardWord("kangaroo", 2.08, 2.53)
    free = [HeardWord("a", 1.9, 2.08), HeardWord("anger", 2.19, 2.51), HeardWord("you", 2.51, 2.8)]
    assert not written_as_other(PHONES["kangaroo"], hit, free, {"anger"}, PHONES.get)
