"""A spotted phrase naming one team, where the transcript wrote another team's name."""

from __future__ import annotations

import pytest

from voice_host.speech.confirm import names_another
from voice_host.speech.events import HeardWord

TEAMS = ("red", "blue", "green")
#: festival's ked saying "host, push green": the spotter fired "host push red" and
#: "host push blue" over it too, and the phone similarity confirmed both.
GREEN = (
    HeardWord("host", 0.60, 1.04),
    HeardWord("push", 1.04, 1.36),
    HeardWord("green", 1.36, 1.72),
)


@pytest.mark.parametrize(
    "hit, refused",
    [
        # the transcript wrote another team's name over the spotted one
        (HeardWord("host push red", 0.59, 1.39), True),
        (HeardWord("host push blue", 0.59, 1.53), True),
        # the spotted name is the one written
        (HeardWord("host push green", 0.59, 1.73), False),
        # a phrase naming no team is not this check's business
        (HeardWord("host pause", 0.59, 1.27), False),
    ],
)
def test_R19_the_transcripts_team_decides_between_spotted_team_phrases(
    hit: HeardWord, refused: bool
) -> None:
    assert names_another(hit, GREEN, TEAMS) is refused


def test_a_transcript_naming_no_team_leaves_the_spotted_one_to_the_phone_check() -> None:
    garbled = (
        HeardWord("host", 0.6, 1.0),
        HeardWord("push", 1.0, 1.3),
        HeardWord("read", 1.3, 1.7),
    )
    assert names_another(HeardWord("host push red", 0.6, 1.7), garbled, TEAMS) is False


def test_a_team_named_elsewhere_in_the_utterance_does_not_count() -> None:
    # "blue" said two seconds later, well outside the hit's stretch
    later = (*GREEN[:2], HeardWord("red", 1.36, 1.7), HeardWord("blue", 3.7, 4.0))
    assert names_another(HeardWord("host push red", 0.59, 1.7), later, TEAMS) is False


def test_multi_word_team_names() -> None:
    words = (HeardWord("host", 0.0, 0.4), HeardWord("the", 0.4, 0.5), HeardWord("owls", 0.5, 0.9))
    teams = ("the owls", "the cats")
    assert names_another(HeardWord("host the cats", 0.0, 0.9), words, teams) is True
    assert names_another(HeardWord("host the owls", 0.0, 0.9), words, teams) is False
