"""A few judgements through the real word knowledge (``voice_host.deck.knowledge.make_entry``)."""

from __future__ import annotations

import pytest

from tests.referee.conftest import free
from voice_host.referee import Referee, Situation, default_phone_lookup

knowledge = pytest.importorskip("voice_host.deck.knowledge", reason="deck word knowledge absent")


@pytest.mark.parametrize(
    ("entry", "text", "expected"),
    [
        # a guess of a card word
        ("Telescope", "is it a telescope", "guess"),
        # the word inside a clue
        ("Car", "you drive a car to work", "foul:word"),
        # a plural in a clue is a derivative foul
        ("Car", "the cars are stuck in traffic", "foul:derivative"),
        # "carpet" for "car": nothing
        ("Car", "is it a carpet", "nothing"),
        # a multi-word answer with its article
        ("Eiffel Tower", "is it the eiffel tower", "guess"),
        # a form as a short guess
        ("Swim", "swimmer", "near_miss"),
    ],
)
def test_with_make_entry(entry: str, text: str, expected: str) -> None:
    e = knowledge.make_entry(entry, "Object")
    js = Referee(default_phone_lookup()).judge(free(text), Situation(entry=e))
    assert [j.label for j in js] == [expected]
