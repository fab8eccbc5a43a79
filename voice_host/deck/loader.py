"""Loading decks: the built-in one, a built deck file, or a player's deck source.

``load_deck(path)`` accepts either a built deck (``.json`` / ``.json.gz``,
see :mod:`voice_host.deck.built_format`) or a player's text deck (any other
name, see :mod:`voice_host.deck.text_format`), whose word knowledge is
computed on the spot.  Every defect is collected and raised together as one
:class:`~voice_host.deck.problems.DeckError` (an ``InputFileError``), one
problem per line, each naming the file, the card and the field.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from voice_host.deck.built_format import parse_built
from voice_host.deck.cache import building_note, deck_cache_folder, keep_deck, kept_deck
from voice_host.deck.model import CARD_FIELDS, Card, Deck
from voice_host.deck.problems import DeckError, DeckProblem
from voice_host.deck.text_format import CardSource, parse_player_deck, read_bytes

if TYPE_CHECKING:
    from voice_host.deck.family import FormExceptions

#: The committed build of the built-in deck.
BUILTIN_PATH = Path(__file__).with_name("data") / "builtin.json.gz"


#: A text deck of this many cards or more takes a second or more to work out (about
#: 30 ms a card): the player is told why the game has not started.
NOTE_CARDS = 30


def is_built_file(path: Path) -> bool:
    """Whether ``path`` names a built deck file rather than a text source."""
    return path.name.endswith((".json", ".json.gz"))


def deck_from_sources(
    name: str, sources: Sequence[CardSource], exceptions: FormExceptions | None = None
) -> Deck:
    """Compute word knowledge for validated card sources and make the deck.

    ``exceptions``: the look-alike list (default: the built-in deck's).
    """
    from voice_host.deck.knowledge import make_entries

    specs = [card.entries[f] for card in sources for f in CARD_FIELDS]
    entries, methods = make_entries(specs, exceptions=exceptions)
    cards = tuple(
        Card(
            number=index + 1,
            entries=dict(
                zip(
                    CARD_FIELDS,
                    entries[index * len(CARD_FIELDS) : (index + 1) * len(CARD_FIELDS)],
                    strict=True,
                )
            ),
        )
        for index in range(len(sources))
    )
    return Deck(name, cards, methods)


def check_deck(path: Path) -> tuple[int, list[DeckProblem]]:
    """How many cards the deck at ``path`` has, and every problem in it.

    No word knowledge is computed (a text deck is only parsed), so this is fast.
    """
    data, problems = read_bytes(path)
    if data is None:
        return 0, problems
    if is_built_file(path):
        deck, problems = parse_built(data, str(path))
        return (len(deck) if deck is not None else 0), problems
    sources, problems = parse_player_deck(data, str(path))
    return len(sources), _in_order(problems)


def _in_order(problems: list[DeckProblem]) -> list[DeckProblem]:
    """``problems`` in the file's order, as an editor shows it (checks made in passes
    listed a later line first); those of no line (the file) keep their place first."""
    return sorted(problems, key=lambda p: p.line or 0)


def load_deck(
    path: Path | str,
    *,
    keep: Path | None = None,
    building: Callable[[int], None] | None = None,
) -> Deck:
    """Load and validate a built deck or a player's text deck.

    ``keep``: a folder where a text deck's build is kept and looked for
    (:mod:`voice_host.deck.cache`); ``building`` is told the number of cards before a
    text deck's word knowledge is worked out (it takes seconds).  Raises
    :class:`DeckError` listing every problem.
    """
    path = Path(path)
    data, problems = read_bytes(path)
    if data is None:
        raise DeckError(problems)
    if is_built_file(path):
        deck, problems = parse_built(data, str(path))
        if deck is None:
            raise DeckError(problems)
        return deck
    sources, problems = parse_player_deck(data, str(path))
    if problems:
        raise DeckError(_in_order(problems))
    if keep is not None and (kept := kept_deck(data, path.name, keep)) is not None:
        return kept
    if building is not None:
        building(len(sources))
    deck = deck_from_sources(path.name, sources)
    if keep is not None:
        keep_deck(data, deck, keep)
    return deck


def load_players_deck(
    path: Path | str, env: Mapping[str, str], note: Callable[[str], None] | None = None
) -> Deck:
    """The deck a player named: a text deck's build is kept in the cache folder ``env``
    names (:mod:`voice_host.deck.cache`), and ``note`` told when it is worked out."""
    name = Path(path).name

    def building(cards: int) -> None:
        if note is not None and cards >= NOTE_CARDS:
            note(building_note(cards, name))

    return load_deck(path, keep=deck_cache_folder(env), building=building)


@functools.cache
def load_builtin() -> Deck:
    """The built-in deck (cached: loaded once per process)."""
    if not BUILTIN_PATH.exists():
        raise DeckError(
            [
                DeckProblem(
                    str(BUILTIN_PATH), "the built-in deck is not built: run 'voice-host deck build'"
                )
            ]
        )
    deck = load_deck(BUILTIN_PATH)
    return Deck("builtin", deck.cards, deck.methods)
