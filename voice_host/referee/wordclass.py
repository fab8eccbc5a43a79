"""Whether a word is an adjective, for the referee's reading of "a mouse's tiny",
or a person's name and no everyday word ("serena" of "serena williams").

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


#: Word (lower case) -> "first" for a person's first name ("serena", "homer"),
#: "other" for another word no everyday word list holds (a surname: "beckham"),
#: "" for an everyday word or a filler.
NameLookup = Callable[[str], str]

#: Sounds a transcriber writes that no word list holds, which are no names.
FILLERS: frozenset[str] = frozenset(
    (
        *("uh", "um", "umm", "er", "erm", "hmm", "mm", "mhm", "ah", "oh", "huh", "yeah"),
        *("yep", "nope", "okay", "ok", "wow", "oops", "gonna", "wanna", "gotta", "kinda"),
        "dunno",
    )
)
#: A first name this common as a word (Zipf) is read as the word: "will", "mark",
#: "rose", "guy" (but "homer" is Homer).
FIRST_NAME_WORD_ZIPF = 4.5


def default_name_lookup() -> NameLookup | None:
    """First names from the census list (:mod:`voice_host.referee.first_names`) that
    are no common word, other names as words of three letters or more that
    lemminflect's lexicon (everyday English, few names) does not hold.  None
    without lemminflect."""
    try:
        from lemminflect import getAllLemmas
    except ImportError:  # pragma: no cover - lemminflect is a dependency
        return None
    from voice_host.referee.first_names import first_names
    from voice_host.referee.frequency import default_word_frequency

    frequency = default_word_frequency()
    known = first_names()

    @lru_cache(maxsize=4096)
    def kind(word: str) -> str:
        if len(word) < 3 or not word.isalpha() or word in FILLERS:
            return ""
        everyday = bool(getAllLemmas(word))
        if word in known and (
            not everyday or frequency is None or frequency(word) < FIRST_NAME_WORD_ZIPF
        ):
            return "first"
        return "" if everyday else "other"

    return kind
