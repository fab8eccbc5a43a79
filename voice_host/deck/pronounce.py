"""Pronunciations (ARPAbet phones, no stress digits) for any word, known or not.

Order of preference, and the name recorded for each method:

1. ``cmudict``: the CMU pronouncing dictionary (first variant);
2. ``composed``: a possessive or plural of a pronounceable word ("einstein's",
   "postboxes"), or two everyday dictionary words joined ("postbox" = post + box);
3. ``espeak``: espeak-ng's American English phonemes (``espeak-ng -v en-us -q --ipa``)
   mapped from IPA to ARPAbet, when the ``espeak-ng`` program exists;
4. ``rules``: a small letter-to-sound fallback in pure Python.

Every result holds only phones in :data:`~voice_host.deck.lexicon.PHONE_SET`, so a
recogniser can add the word to its dictionary.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from collections.abc import Iterable, Sequence

from voice_host.deck.lexicon import CMU_PHONES, VOWELS, Lexicon

#: Pronunciation methods, best first.
METHODS: tuple[str, ...] = ("cmudict", "composed", "espeak", "rules")

# espeak-ng en-us IPA -> ARPAbet, longest symbols first (matched greedily).
_IPA: dict[str, tuple[str, ...]] = {
    "aɪə": ("AY", "ER"),
    "aʊə": ("AW", "ER"),
    "eɪ": ("EY",),
    "aɪ": ("AY",),
    "aʊ": ("AW",),
    "ɔɪ": ("OY",),
    "oʊ": ("OW",),
    "əʊ": ("OW",),
    "ɪɹ": ("IH", "R"),
    "ɛɹ": ("EH", "R"),
    "ʊɹ": ("UH", "R"),
    "ɪə": ("IH", "R"),
    "eə": ("EH", "R"),
    "ʊə": ("UH", "R"),
    "ɜː": ("ER",),
    "ɑː": ("AA",),
    "ɔː": ("AO",),
    "iː": ("IY",),
    "uː": ("UW",),
    "tʃ": ("CH",),
    "dʒ": ("JH",),
    "n̩": ("AH", "N"),
    "l̩": ("AH", "L"),
    "m̩": ("AH", "M"),
    "ə": ("AH",),
    "ɐ": ("AH",),
    "ʌ": ("AH",),
    "ɚ": ("ER",),
    "ɝ": ("ER",),
    "æ": ("AE",),
    "a": ("AE",),
    "ɑ": ("AA",),
    "ɒ": ("AA",),
    "ɔ": ("AO",),
    "o": ("OW",),
    "ɪ": ("IH",),
    "ᵻ": ("IH",),
    "i": ("IY",),
    "ʊ": ("UH",),
    "u": ("UW",),
    "ɛ": ("EH",),
    "e": ("EH",),
    "p": ("P",),
    "b": ("B",),
    "t": ("T",),
    "d": ("D",),
    "k": ("K",),
    "ɡ": ("G",),
    "g": ("G",),
    "f": ("F",),
    "v": ("V",),
    "θ": ("TH",),
    "ð": ("DH",),
    "s": ("S",),
    "z": ("Z",),
    "ʃ": ("SH",),
    "ʒ": ("ZH",),
    "h": ("HH",),
    "x": ("K",),
    "m": ("M",),
    "n": ("N",),
    "ŋ": ("NG",),
    "l": ("L",),
    "ɫ": ("L",),
    "ɹ": ("R",),
    "r": ("R",),
    "ɾ": ("T",),
    "ʔ": ("T",),
    "j": ("Y",),
    "w": ("W",),
}
_IPA_KEYS = sorted(_IPA, key=len, reverse=True)
_IPA_IGNORED = set("ˈˌː.‿-_ ̩|")


def ipa_to_arpabet(ipa: str) -> tuple[str, ...]:
    """Map an espeak-ng IPA string to ARPAbet phones (unknown symbols are dropped)."""
    phones: list[str] = []
    i = 0
    while i < len(ipa):
        for key in _IPA_KEYS:
            if ipa.startswith(key, i):
                phones.extend(_IPA[key])
                i += len(key)
                break
        else:
            i += 1  # stress, length and unknown marks carry no phone
    # A doubled phone from a long-vowel sequence ("ɪɹɹ") is one sound.
    deduped: list[str] = []
    for p in phones:
        if not (deduped and deduped[-1] == p and p in VOWELS):
            deduped.append(p)
    return tuple(deduped)


@functools.cache
def _espeak_program() -> str | None:
    return shutil.which("espeak-ng")


def espeak_prons(words: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """espeak-ng pronunciations for ``words``; empty if espeak-ng is missing or fails."""
    program = _espeak_program()
    if program is None or not words:
        return {}

    def run(text: str) -> list[str]:
        try:
            done = subprocess.run(
                [program, "-v", "en-us", "-q", "--ipa", text],
                capture_output=True,
                text=True,
                timeout=60,
                check=True,
            )
        except (OSError, subprocess.SubprocessError):
            return []
        return done.stdout.split()

    out: dict[str, tuple[str, ...]] = {}
    tokens = run("\n".join(words))
    if len(tokens) != len(words):
        # espeak joined or split something: ask word by word.
        tokens = [" ".join(run(w)) for w in words]
    for word, ipa in zip(words, tokens, strict=True):
        phones = ipa_to_arpabet(ipa)
        if phones and all(p in CMU_PHONES for p in phones):
            out[word] = phones
    return out


# Letter-to-sound fallback: (letters, phones), longest first at each position.
_LTS: list[tuple[str, tuple[str, ...]]] = sorted(
    [
        ("tch", ("CH",)),
        ("igh", ("AY",)),
        ("ough", ("AO",)),
        ("tion", ("SH", "AH", "N")),
        ("sion", ("ZH", "AH", "N")),
        ("ch", ("CH",)),
        ("sh", ("SH",)),
        ("th", ("TH",)),
        ("ph", ("F",)),
        ("wh", ("W",)),
        ("ng", ("NG",)),
        ("ck", ("K",)),
        ("qu", ("K", "W")),
        ("ee", ("IY",)),
        ("ea", ("IY",)),
        ("oo", ("UW",)),
        ("ai", ("EY",)),
        ("ay", ("EY",)),
        ("ei", ("EY",)),
        ("ey", ("IY",)),
        ("oa", ("OW",)),
        ("ou", ("AW",)),
        ("ow", ("OW",)),
        ("oi", ("OY",)),
        ("oy", ("OY",)),
        ("au", ("AO",)),
        ("aw", ("AO",)),
        ("ar", ("AA", "R")),
        ("er", ("ER",)),
        ("ir", ("ER",)),
        ("ur", ("ER",)),
        ("or", ("AO", "R")),
        ("a", ("AE",)),
        ("e", ("EH",)),
        ("i", ("IH",)),
        ("o", ("AA",)),
        ("u", ("AH",)),
        ("y", ("IY",)),
        ("b", ("B",)),
        ("c", ("K",)),
        ("d", ("D",)),
        ("f", ("F",)),
        ("g", ("G",)),
        ("h", ("HH",)),
        ("j", ("JH",)),
        ("k", ("K",)),
        ("l", ("L",)),
        ("m", ("M",)),
        ("n", ("N",)),
        ("p", ("P",)),
        ("q", ("K",)),
        ("r", ("R",)),
        ("s", ("S",)),
        ("t", ("T",)),
        ("v", ("V",)),
        ("w", ("W",)),
        ("x", ("K", "S")),
        ("z", ("Z",)),
    ],
    key=lambda item: -len(item[0]),
)


def letter_to_sound(word: str) -> tuple[str, ...]:
    """A rough pronunciation from spelling alone (the last resort)."""
    letters = "".join(c for c in word.lower() if c.isalpha())
    if len(letters) > 3 and letters.endswith("e") and letters[-2] not in "aeiouy":
        letters = letters[:-1]  # silent final e
    phones: list[str] = []
    i = 0
    while i < len(letters):
        if letters[i] == "c" and letters[i + 1 : i + 2] in ("e", "i", "y"):
            phones.append("S")
            i += 1
            continue
        if letters[i] == "y" and i == 0:
            phones.append("Y")
            i += 1
            continue
        for spelling, sound in _LTS:
            if letters.startswith(spelling, i):
                if not (phones and sound == (phones[-1],) and sound[0] not in VOWELS):
                    phones.extend(sound)  # doubled consonants are one sound
                i += len(spelling)
                break
        else:
            i += 1
    return tuple(phones) or ("AH",)


def _plural_ending(phones: tuple[str, ...]) -> tuple[str, ...]:
    last = phones[-1]
    if last in ("S", "Z", "SH", "ZH", "CH", "JH"):
        return ("IH", "Z")
    if last in ("P", "T", "K", "F", "TH"):
        return ("S",)
    return ("Z",)


def _solid(part: str, lexicon: Lexicon) -> bool:
    """A part safe to build a compound's sound from: an everyday word (Zipf >= 3.5).

    "hoo" + "die" would make "hoodie" rhyme with "die"; espeak-ng does better.
    """
    zipf = lexicon.frequency(part)
    return lexicon.is_common(part) if zipf is None else zipf >= 3.5


def compose(word: str, lexicon: Lexicon) -> tuple[str, ...] | None:
    """A pronunciation built from dictionary parts, or None if none fits."""
    for ending in ("'s", "s'", "es", "s"):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            base = word[: -len(ending)]
            base_phones = lexicon.pron(base) or compose(base, lexicon)
            if base_phones:
                return base_phones + _plural_ending(base_phones)
    best: tuple[str, ...] | None = None
    best_score = -1.0
    for cut in range(3, len(word) - 2):
        head, tail = word[:cut], word[cut:]
        if _solid(head, lexicon) and _solid(tail, lexicon):
            head_phones, tail_phones = lexicon.pron(head), lexicon.pron(tail)
            if head_phones and tail_phones:
                # Prefer the split whose shorter part is longest ("postbox": post|box).
                score = min(len(head), len(tail))
                if score > best_score:
                    best, best_score = head_phones + tail_phones, score
    return best


def pronounce_all(words: Iterable[str], lexicon: Lexicon) -> dict[str, tuple[tuple[str, ...], str]]:
    """Word -> (phones, method) for every word; see :data:`METHODS`."""
    out: dict[str, tuple[tuple[str, ...], str]] = {}
    missing: list[str] = []
    for word in dict.fromkeys(words):
        known = lexicon.pron(word)
        if known is not None and all(p in CMU_PHONES for p in known):
            out[word] = (known, "cmudict")
            continue
        composed = compose(word, lexicon)
        if composed is not None:
            out[word] = (composed, "composed")
        else:
            missing.append(word)
    spoken = espeak_prons(sorted(missing))
    for word in missing:
        if word in spoken:
            out[word] = (spoken[word], "espeak")
        else:
            out[word] = (letter_to_sound(word), "rules")
    return out
