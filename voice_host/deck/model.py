"""Cards and entries as data.  Standard library only."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

#: The six board categories, in the order a card lists them.
CATEGORIES: tuple[str, ...] = ("Object", "Nature", "Random", "Person", "Action", "World")
#: The extra entry on each card, described to all teams in CONTROL and FINISH rounds.
CONTROL = "Control"
#: Every entry a card holds.
CARD_FIELDS: tuple[str, ...] = (*CATEGORIES, CONTROL)


@dataclass(frozen=True)
class Entry:
    """One thing to describe, with the word knowledge the referee needs."""

    text: str
    """The entry as printed on the card, e.g. ``Eiffel Tower``."""
    category: str
    """One of :data:`CARD_FIELDS`."""
    answers: tuple[str, ...] = ()
    """What a guesser may say and be right, lower case ("eiffel tower", "the eiffel tower")."""
    forms: tuple[str, ...] = ()
    """Forbidden forms: the word family a describer must not say (lower case).
    The entry's own words are always forbidden too, whether listed or not."""
    pronunciations: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Word -> ARPAbet phones (stress marks removed) for every word of the entry,
    its answers and forms."""
    generated: tuple[str, ...] = ()
    """Words whose pronunciation was generated (not in the CMU dictionary)."""


@dataclass(frozen=True)
class Card:
    """One card: an entry per category plus a CONTROL entry."""

    number: int
    """1-based position in its deck."""
    entries: Mapping[str, Entry]
    """Category name (one of :data:`CARD_FIELDS`) -> entry."""

    def entry(self, category: str) -> Entry:
        """The entry for ``category`` (``Control`` for CONTROL and FINISH rounds)."""
        return self.entries[category]


@dataclass(frozen=True)
class Deck:
    """A whole deck of cards, in deck order (dealing and shuffling are the rules engine's)."""

    name: str
    """Where the deck came from: ``builtin`` or the file name."""
    cards: tuple[Card, ...]
    """Every card; ``cards[i].number == i + 1``."""
    methods: Mapping[str, str] = field(default_factory=dict)
    """Word -> how its pronunciation was made, for words not in the CMU dictionary
    (``composed``, ``espeak`` or ``rules``)."""

    def card(self, index: int) -> Card:
        """The card at 0-based position ``index``."""
        return self.cards[index]

    def __len__(self) -> int:
        return len(self.cards)
