"""How common an English word is, for the referee's fuzzy matching.

The referee core only takes a :data:`WordFrequency` callable (as it takes the
phone lookup); this module gives the host one over ``wordfreq``'s small English
list (words seen at least once per million, Zipf >= 3; read on first use,
about 0.3 s and 20 MB).
"""

from __future__ import annotations

from collections.abc import Callable

#: Word (lower case) -> Zipf frequency: log10 of its uses per billion words
#: ("the" 7.7, "place" 5.7, "palace" 4.4, "glazier" 2.3); 0 for unseen words.
#: Below 3 the small list does not tell words apart: they all read 0.
WordFrequency = Callable[[str], float]


def default_word_frequency() -> WordFrequency | None:
    """The lookup over wordfreq's small English list, or None without wordfreq."""
    try:
        from wordfreq import zipf_frequency
    except ImportError:  # pragma: no cover - wordfreq is a dependency
        return None

    def frequency(word: str) -> float:
        return float(zipf_frequency(word, "en", wordlist="small"))

    return frequency
