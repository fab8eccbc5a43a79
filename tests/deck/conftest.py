"""Shared fixtures for the deck tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from voice_host.deck.lexicon import Lexicon, get_lexicon

DATA = Path(__file__).with_name("data")


@pytest.fixture(scope="session")
def lexicon() -> Lexicon:
    """The process-wide lexicon (CMU dictionary + wordfreq), loaded once."""
    return get_lexicon()
