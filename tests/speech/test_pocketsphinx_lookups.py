"""The recogniser asks pocketsphinx's dictionary once a word: each ask leaks its answer.

pocketsphinx 5.1.1's ``Decoder.lookup_word`` never frees the string it returns,
and each new card's biased model looks up its 3,000 common words again: over
an evening, 0.17 MB a card (``benchmarks/long_evening.py``).  The recogniser
keeps the answers (:data:`~voice_host.speech.pocketsphinx_backend.LOOKUP_CACHE`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from voice_host.speech.events import ListenContext

CARDS = (("telescope",), ("kangaroo",), ("albert einstein", "einstein"), ("volcano",))
TEAMS = ("red", "blue")
COMMANDS = ("host pass", "host correct")


class _CountingDecoder:
    """The decoder, with every dictionary look-up counted by word."""

    def __init__(self, decoder: Any) -> None:
        self._decoder = decoder
        self.asked: Counter[str] = Counter()

    def lookup_word(self, word: str) -> str | None:
        self.asked[word] += 1
        found: str | None = self._decoder.lookup_word(word)
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self._decoder, name)


def _context(answers: tuple[str, ...]) -> ListenContext:
    return ListenContext(answers=answers, commands=COMMANDS, team_names=TEAMS)


def _recognizer() -> Any:
    from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer

    recognizer = PocketSphinxRecognizer(
        second_opinion=None, third_opinion=None, pause_detector=None
    )
    counting = _CountingDecoder(recognizer._decoder)
    recognizer._decoder = counting
    return recognizer, counting


@pytest.mark.slow
def test_card_after_card_asks_the_dictionary_each_word_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from voice_host.speech import pocketsphinx_backend

    # One biased model kept: every card change builds a new one, as over an evening.
    monkeypatch.setattr(pocketsphinx_backend, "LM_CACHE", 1)
    recognizer, counting = _recognizer()
    recognizer.start(_context(CARDS[0]))
    for answers in (*CARDS[1:], *CARDS):
        recognizer.set_context(_context(answers))
    assert counting.asked["the"] == 1  # a common word every model holds
    assert counting.asked["host"] == 1  # a command's word every card listens for
    assert max(counting.asked.values()) == 1


@pytest.mark.slow
def test_the_kept_look_ups_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from voice_host.speech import pocketsphinx_backend

    monkeypatch.setattr(pocketsphinx_backend, "LOOKUP_CACHE", 100)
    recognizer, counting = _recognizer()
    recognizer.start(_context(CARDS[0]))
    assert len(counting.asked) > 100  # a card's model asks about thousands of words
    assert len(recognizer._lookups) == 100
    # the last asked are the ones kept: asking one again does not ask pocketsphinx
    last = next(reversed(recognizer._lookups))
    before = counting.asked[last]
    recognizer._lookup(last)
    assert counting.asked[last] == before


@pytest.mark.slow
def test_a_word_learnt_after_it_was_missing_is_found() -> None:
    recognizer, _ = _recognizer()
    assert recognizer._lookup("zorblaxian") is None
    recognizer._learn({"zorblaxian": ("Z", "AO", "R", "B", "L", "AE", "K", "S", "IY", "AH", "N")})
    assert recognizer._lookup("zorblaxian") == "Z AO R B L AE K S IY AH N"
    assert recognizer.phones_of("zorblaxian") == (
        "Z",
        "AO",
        "R",
        "B",
        "L",
        "AE",
        "K",
        "S",
        "IY",
        "AH",
        "N",
    )
