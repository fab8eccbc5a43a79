"""The built-in deck: complete, sound, and its committed build up to date."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.deck.conftest import DATA
from voice_host.deck.build import build_bytes
from voice_host.deck.builtin_source import BUILTIN_CARDS
from voice_host.deck.loader import BUILTIN_PATH, load_builtin
from voice_host.deck.model import CARD_FIELDS


def test_build_is_deterministic() -> None:
    # Two builds of the same source give the same bytes (the up-to-date check relies on it).
    assert build_bytes(DATA / "sample_source", 3) == build_bytes(DATA / "sample_source", 3)


def test_sample_source_overrides_apply(tmp_path: Path) -> None:
    from voice_host.deck.loader import load_deck

    path = tmp_path / "sample.json.gz"
    path.write_bytes(build_bytes(DATA / "sample_source", 3))
    deck = load_deck(path)
    assert "albert" in deck.card(0).entry("Person").answers  # overrides.txt adds it
    assert deck.card(2).entry("Control").text == "Car"
    assert "carpet" not in deck.card(2).entry("Control").forms  # exceptions.txt keeps it out


def test_builtin_deck_is_complete() -> None:
    deck = load_builtin()
    assert len(deck) == BUILTIN_CARDS
    for card in deck.cards:
        for field in CARD_FIELDS:
            assert card.entry(field).text.strip()
    for field in CARD_FIELDS:
        texts = [card.entry(field).text.casefold() for card in deck.cards]
        assert len(set(texts)) == len(texts), f"duplicate {field} entries"


@pytest.mark.skipif(
    shutil.which("espeak-ng") is None,
    reason="espeak-ng is not installed: generated pronunciations would differ from the build",
)
def test_committed_build_is_up_to_date() -> None:
    # Rebuilds all 3,500 entries in memory (about half a minute): the source must match the build.
    assert BUILTIN_PATH.exists(), "run: python -m voice_host.deck.build"
    if build_bytes() != BUILTIN_PATH.read_bytes():
        pytest.fail(
            "voice_host/deck/data/builtin.json.gz is stale: run python -m voice_host.deck.build"
        )
