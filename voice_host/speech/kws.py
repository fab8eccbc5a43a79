"""Keyword-spotting lists for pocketsphinx: phrases, pronunciations, thresholds.

Pure functions (no pocketsphinx import): the backend asks its dictionary
through a ``lookup`` callable, so this logic is testable on its own.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from voice_host.deck.lexicon import CMU_PHONES

log = logging.getLogger(__name__)

#: The 39 ARPAbet phones of pocketsphinx's en-us acoustic model.
PHONES: frozenset[str] = CMU_PHONES

#: Keyword-spotting threshold exponent: a phrase of ``n`` phones is spotted when its
#: score beats the garbage loop by 10**-(BASE + PER_PHONE * n).  Longer phrases
#: accumulate more (log) score, so they get a lower threshold.  Set on split=tune
#: by ``benchmarks/listening.py`` (3.0 beat 2.0 there: 64% vs 62% clean confirmed, same false).
THRESHOLD_BASE = 0.0
THRESHOLD_PER_PHONE = 3.0
#: Never below this (a floor keeps very long phrases from firing on anything).
THRESHOLD_MIN_EXPONENT = 5.0
THRESHOLD_MAX_EXPONENT = 40.0

#: Letter and rhyme talk spotted as key phrases when a context asks for free text
#: (cheaper than full decoding, and a free decoder often mangles them).
CUE_PHRASES: tuple[str, ...] = (
    "starts with",
    "begins with",
    "first letter",
    "letters",
    "rhymes with",
    "sounds like",
)

_WORD = re.compile(r"[a-z']+")


def words_of(phrase: str) -> list[str]:
    """The dictionary words of a phrase: lower case, letters and apostrophes only."""
    return _WORD.findall(phrase.lower().replace("-", " "))


# A deliberately small letter-to-sound table: the deck stores real pronunciations
# for its words, this only rescues a phrase typed at the command line.
_DIGRAPHS: dict[str, tuple[str, ...]] = {
    "tch": ("CH",),
    "sch": ("S", "K"),
    "igh": ("AY",),
    "ch": ("CH",),
    "sh": ("SH",),
    "th": ("TH",),
    "ph": ("F",),
    "wh": ("W",),
    "ck": ("K",),
    "ng": ("NG",),
    "qu": ("K", "W"),
    "ee": ("IY",),
    "ea": ("IY",),
    "oo": ("UW",),
    "ou": ("AW",),
    "ow": ("OW",),
    "oa": ("OW",),
    "ai": ("EY",),
    "ay": ("EY",),
    "oi": ("OY",),
    "oy": ("OY",),
    "au": ("AO",),
    "aw": ("AO",),
    "er": ("ER",),
    "ir": ("ER",),
    "ur": ("ER",),
    "ar": ("AA", "R"),
    "or": ("AO", "R"),
}
_LETTERS: dict[str, tuple[str, ...]] = {
    "a": ("AE",),
    "b": ("B",),
    "c": ("K",),
    "d": ("D",),
    "e": ("EH",),
    "f": ("F",),
    "g": ("G",),
    "h": ("HH",),
    "i": ("IH",),
    "j": ("JH",),
    "k": ("K",),
    "l": ("L",),
    "m": ("M",),
    "n": ("N",),
    "o": ("AA",),
    "p": ("P",),
    "q": ("K",),
    "r": ("R",),
    "s": ("S",),
    "t": ("T",),
    "u": ("AH",),
    "v": ("V",),
    "w": ("W",),
    "x": ("K", "S"),
    "y": ("IY",),
    "z": ("Z",),
    "'": (),
}


def letter_to_sound(word: str) -> tuple[str, ...]:
    """A rough ARPAbet guess for a word no dictionary knows (greedy digraphs first).

    A final silent ``e`` after a consonant is dropped.  Returns () when
    nothing usable is left.
    """
    text = word.lower()
    if len(text) > 2 and text.endswith("e") and text[-2] not in "aeiou":
        text = text[:-1]
    phones: list[str] = []
    i = 0
    while i < len(text):
        for size in (3, 2):
            piece = text[i : i + size]
            if len(piece) == size and piece in _DIGRAPHS:
                phones.extend(_DIGRAPHS[piece])
                i += size
                break
        else:
            phones.extend(_LETTERS.get(text[i], ()))
            i += 1
    # Doubled letters ("ll", "tt") are one sound.
    deduped = [p for k, p in enumerate(phones) if k == 0 or p != phones[k - 1]]
    return tuple(deduped)


@dataclass(frozen=True)
class Keyphrase:
    """One phrase to spot, with the pronunciations it needs."""

    phrase: str
    """Words separated by single spaces, lower case, all pronounceable."""
    phones: tuple[str, ...]
    """The phrase's phones (first pronunciation of each word)."""
    threshold: float
    """Detection threshold (a probability ratio, e.g. 1e-20)."""


def clean_phones(phones: Iterable[str]) -> tuple[str, ...] | None:
    """Strip stress digits; None if any phone is not in the acoustic model."""
    out = tuple(p.upper().rstrip("012") for p in phones)
    return out if out and all(p in PHONES for p in out) else None


def threshold_for(n_phones: int) -> float:
    """The spotting threshold for a phrase of ``n_phones`` phones."""
    exponent = THRESHOLD_BASE + THRESHOLD_PER_PHONE * n_phones
    exponent = min(THRESHOLD_MAX_EXPONENT, max(THRESHOLD_MIN_EXPONENT, exponent))
    return float(10.0 ** (-exponent))


def plan_keyphrases(
    phrases: Iterable[str],
    lookup: Callable[[str], str | None],
    pronunciations: Mapping[str, tuple[str, ...]],
    threshold: Callable[[int], float] = threshold_for,
) -> tuple[list[Keyphrase], dict[str, tuple[str, ...]]]:
    """Decide what to spot and which words the dictionary must learn.

    ``lookup`` returns a word's phones from the decoder's dictionary (or None).
    Unknown words take their pronunciation from ``pronunciations``, else from
    :func:`letter_to_sound`; a phrase with a word that has neither is dropped
    with a logged warning.  Returns the key phrases and the words to add.
    """
    to_add: dict[str, tuple[str, ...]] = {}
    planned: dict[str, Keyphrase] = {}
    for phrase in phrases:
        words = words_of(phrase)
        if not words or _unsayable(phrase):
            continue
        phones: list[str] = []
        for word in words:
            known = lookup(word)
            found = clean_phones(known.split()) if known else None
            if found is None and word in to_add:
                found = to_add[word]
            if found is None:
                given = pronunciations.get(word)
                found = clean_phones(given) if given else None
                if found is None:
                    found = clean_phones(letter_to_sound(word))
                    if found is not None:
                        log.warning("no pronunciation for %r; guessing %s", word, " ".join(found))
                if found is not None:
                    to_add[word] = found
            if found is None:
                log.warning("cannot pronounce %r; not listening for %r", word, phrase)
                break
            phones.extend(found)
        else:
            text = " ".join(words)
            planned.setdefault(text, Keyphrase(text, tuple(phones), threshold(len(phones))))
    return list(planned.values()), to_add


def _unsayable(phrase: str) -> bool:
    """Whether ``phrase`` holds a digit or a letter outside a-z, which :func:`words_of`
    would silently drop ("the 24" would be spotted as "the"): the deck writes such
    answers out too ("the twenty four"), and that form is the one spotted."""
    return any(c.isalnum() and not "a" <= c <= "z" for c in phrase.lower())


def kws_file_text(keyphrases: Iterable[Keyphrase]) -> str:
    """The ``add_kws`` list format: one ``phrase /threshold/`` a line."""
    return "".join(f"{k.phrase} /{k.threshold:.0e}/\n" for k in keyphrases)
