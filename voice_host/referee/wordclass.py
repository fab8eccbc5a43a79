"""Whether a word is an adjective, for the referee's reading of "a mouse's tiny".

The referee core only takes an :data:`AdjectiveLookup` callable (as it takes the
phone and frequency lookups); this module gives the host one over
``lemminflect``'s lexicon (the deck's word families use it too), read on first
use.  A word counts when the lexicon has it as an adjective: "yellow", "tiny",
"famous", not "repeat", "except" or "now".
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

#: Word (lower case) -> whether it is an adjective.
AdjectiveLookup = Callable[[str], bool]


def default_adjective_lookup() -> AdjectiveLookup | None:
    """The lookup over lemminflect's lexicon, or None without lemminflect."""
    try:
        from lemminflect import getAllLemmas
    except ImportError:  # pragma: no cover - lemminflect is a dependency
        return None

    @lru_cache(maxsize=4096)
    def adjective(word: str) -> bool:
        return bool(word) and "ADJ" in getAllLemmas(word, upos="ADJ")

    return adjective
