"""The English word list behind the word knowledge: pronunciations and word frequency.

The CMU pronouncing dictionary comes from pocketsphinx's en-us model (always
installed, about 135,000 words); word frequency comes from ``wordfreq`` when it
is installed (a development dependency, always present when the built-in deck
is built).  One :class:`Lexicon` is loaded per process (:func:`get_lexicon`);
loading takes a few tenths of a second, every lookup after that is a dict or
bisect lookup.
"""

from __future__ import annotations

import bisect
import functools
import math
import os
from collections.abc import Iterable, Mapping

#: The 39 CMU phones (ARPAbet, no stress digits) that pocketsphinx's en-us model knows.
CMU_PHONES: frozenset[str] = frozenset(
    [
        "AA",
        "AE",
        "AH",
        "AO",
        "AW",
        "AY",
        "B",
        "CH",
        "D",
        "DH",
        "EH",
        "ER",
        "EY",
        "F",
        "G",
        "HH",
        "IH",
        "IY",
        "JH",
        "K",
        "L",
        "M",
        "N",
        "NG",
        "OW",
        "OY",
        "P",
        "R",
        "S",
        "SH",
        "T",
        "TH",
        "UH",
        "UW",
        "V",
        "W",
        "Y",
        "Z",
        "ZH",
    ]
)
#: Every phone a pronunciation may use: the CMU phones plus silence.
PHONE_SET: frozenset[str] = CMU_PHONES | {"SIL"}
#: Vowel phones.
VOWELS: frozenset[str] = frozenset(
    ["AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW"]
)
#: Vowels that are never the reduced, unstressed vowel of a suffix (schwa AH, IH, ER).
FULL_VOWELS: frozenset[str] = VOWELS - {"AH", "IH", "ER"}

#: wordfreq's Zipf scale: 3 is about once per million words.
COMMON_ZIPF = 3.0
#: A word at least this frequent (Zipf) counts as a real word even if the CMU dictionary lacks it.
RARE_WORD_ZIPF = 1.5


def cmudict_path() -> str:
    """Path of pocketsphinx's copy of the CMU pronouncing dictionary."""
    import pocketsphinx

    return os.path.join(pocketsphinx.get_model_path(), "en-us", "cmudict-en-us.dict")


def read_cmudict(path: str) -> dict[str, list[tuple[str, ...]]]:
    """Read a CMU-format dictionary: word -> pronunciations (``word(2)`` variants in order)."""
    prons: dict[str, list[tuple[str, ...]]] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            head, _, rest = line.partition(" ")
            if not rest:
                continue
            word = head.split("(", 1)[0] if head.endswith(")") else head
            # Stress digits are stripped in case another copy of the dictionary keeps them.
            phones = tuple(p.rstrip("012") for p in rest.split())
            prons.setdefault(word, []).append(phones)
    return prons


class Lexicon:
    """Pronunciations, a real-word test and prefix/suffix search over English words."""

    def __init__(
        self,
        prons: Mapping[str, list[tuple[str, ...]]],
        zipf: Mapping[str, float] | None = None,
    ) -> None:
        """``prons``: CMU dictionary; ``zipf``: word -> Zipf frequency, or None without wordfreq."""
        self.prons = prons
        self.zipf = zipf
        words: set[str] = {w for w in prons if w.isalpha()}
        if zipf is not None:
            words.update(w for w, z in zipf.items() if z >= RARE_WORD_ZIPF)
        self._sorted = sorted(words)
        self._reversed = sorted(w[::-1] for w in words)
        self._by_sound: dict[tuple[str, ...], set[str]] | None = None

    @property
    def has_frequency(self) -> bool:
        """Whether word frequencies (wordfreq) are available."""
        return self.zipf is not None

    def pron(self, word: str) -> tuple[str, ...] | None:
        """The first dictionary pronunciation of ``word`` (lower case), or None."""
        found = self.prons.get(word)
        return found[0] if found else None

    def all_prons(self, word: str) -> list[tuple[str, ...]]:
        """Every dictionary pronunciation of ``word`` (empty if unknown)."""
        return self.prons.get(word, [])

    def frequency(self, word: str) -> float | None:
        """Zipf frequency of ``word`` (0 if unseen), or None without wordfreq."""
        if self.zipf is None:
            return None
        return self.zipf.get(word, 0.0)

    def is_word(self, word: str) -> bool:
        """Whether ``word`` is a real English word (not just a spelling the rules made up).

        With wordfreq: in the CMU dictionary and seen at least once per
        billion words (Zipf >= 1), or seen often (Zipf >= 2.5) even if the CMU
        dictionary lacks it.  Without wordfreq: listed in the CMU dictionary.
        """
        if self.zipf is None:
            return word in self.prons
        zipf = self.zipf.get(word, 0.0)
        return zipf >= 2.5 or (zipf >= 1.0 and word in self.prons)

    def is_rare_word(self, word: str) -> bool:
        """Whether ``word`` appears in real text at all (Zipf >= 1.5; without wordfreq: in CMU)."""
        if self.zipf is None:
            return word in self.prons
        return self.zipf.get(word, 0.0) >= RARE_WORD_ZIPF or (
            word in self.prons and self.zipf.get(word, 0.0) >= 1.0
        )

    def is_common(self, word: str) -> bool:
        """Whether ``word`` is an everyday word (Zipf >= 3; else: in CMU, 3+ letters)."""
        if self.zipf is not None:
            return self.zipf.get(word, 0.0) >= COMMON_ZIPF
        return len(word) >= 3 and word in self.prons

    def homophones(self, word: str) -> set[str]:
        """Other dictionary words said exactly as ``word`` ("go" for "gogh")."""
        if self._by_sound is None:
            self._by_sound = {}
            for spelled, prons in self.prons.items():
                for pron in prons:
                    self._by_sound.setdefault(pron, set()).add(spelled)
        out: set[str] = set()
        for pron in self.all_prons(word):
            out |= self._by_sound.get(pron, set())
        return out - {word}

    def starting_with(self, prefix: str) -> list[str]:
        """Every known word that begins with ``prefix`` (other than ``prefix`` itself)."""
        start = bisect.bisect_right(self._sorted, prefix)
        end = bisect.bisect_left(self._sorted, prefix + "\uffff")
        return self._sorted[start:end]

    def ending_with(self, suffix: str) -> list[str]:
        """Every known word that ends with ``suffix`` (other than ``suffix`` itself)."""
        rev = suffix[::-1]
        start = bisect.bisect_right(self._reversed, rev)
        end = bisect.bisect_left(self._reversed, rev + "\uffff")
        return [w[::-1] for w in self._reversed[start:end]]


def _load_zipf() -> dict[str, float] | None:
    try:
        import wordfreq
    except ImportError:
        return None
    freqs: Mapping[str, float] = wordfreq.get_frequency_dict("en", wordlist="best")
    # Zipf = log10(frequency per billion words), rounded as wordfreq rounds it.
    return {
        w: round(math.log10(f * 1e9), 2)
        for w, f in freqs.items()
        if f > 0 and w.isascii() and w.isalpha()
    }


@functools.cache
def get_lexicon(use_wordfreq: bool = True) -> Lexicon:
    """The process-wide lexicon (CMU dictionary, plus wordfreq when installed and wanted)."""
    zipf = _load_zipf() if use_wordfreq else None
    return Lexicon(read_cmudict(cmudict_path()), zipf)


def syllables(phones: tuple[str, ...]) -> int:
    """How many syllables a pronunciation has (its vowels)."""
    return sum(1 for p in phones if p in VOWELS)


def phones_valid(phones: Iterable[str]) -> bool:
    """Whether every phone is one pocketsphinx's en-us model knows."""
    return all(p in PHONE_SET for p in phones)
