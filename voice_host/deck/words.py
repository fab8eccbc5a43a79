"""Turning printed text into the lower-case words a recogniser writes.  Standard library only."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

#: Words that carry no meaning of their own in an entry: never forbidden on their own.
STOP_WORDS: frozenset[str] = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "and",
        "or",
        "in",
        "on",
        "at",
        "to",
        "for",
        "by",
        "with",
        "from",
        "de",
        "la",
        "le",
        "du",
        "des",
        "von",
        "van",
        "der",
        "da",
        "di",
        # pronouns and possessives: nobody can describe "Cross your fingers"
        # or "Thank you" without "your" or "you"; they are not the card's word
        "i",
        "you",
        "your",
        "my",
        "me",
        "he",
        "his",
        "him",
        "she",
        "her",
        "it",
        "its",
        "we",
        "our",
        "us",
        "they",
        "their",
        "them",
        # relative and question pronouns: a describer of Doctor Who says "a man who ..."
        "who",
        "whom",
        "whose",
        "which",
    ]
)

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def number_words(n: int) -> str:
    """Say a whole number the way people do: 11 -> "eleven", 1984 -> "nineteen eighty four".

    Four-digit numbers from 1100 to 1999 and 2010 to 2099 are read as years.
    """
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + ("" if ones == 0 else " " + _ONES[ones])
    if (1100 <= n <= 1999 or 2010 <= n <= 2099) and n % 100 != 0:
        high, low = divmod(n, 100)
        tail = ("oh " + _ONES[low]) if low < 10 else number_words(low)
        return f"{number_words(high)} {tail}"
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        head = f"{_ONES[hundreds]} hundred"
        return head if rest == 0 else f"{head} and {number_words(rest)}"
    for scale, name in ((1000, "thousand"), (1_000_000, "million")):
        if n < scale * 1000:
            big, rest = divmod(n, scale)
            head = f"{number_words(big)} {name}"
            if rest == 0:
                return head
            return f"{head} {'and ' if rest < 100 else ''}{number_words(rest)}"
    return " ".join(_ONES[int(d)] for d in str(n))


#: Ordinal words for the last word of a number said as a cardinal ("one" -> "first").
_ORDINAL_OF = {
    "one": "first",
    "two": "second",
    "three": "third",
    "five": "fifth",
    "eight": "eighth",
    "nine": "ninth",
    "twelve": "twelfth",
}


def ordinal_words(n: int) -> str:
    """Say an ordinal: 1 -> "first", 21 -> "twenty first", 40 -> "fortieth"."""
    head, _, last = number_words(n).rpartition(" ")
    if last in _ORDINAL_OF:
        last = _ORDINAL_OF[last]
    elif last.endswith("y"):
        last = last[:-1] + "ieth"
    else:
        last += "th"
    return f"{head} {last}".strip()


def decade_words(digits: str) -> str:
    """Say a decade: "1990" -> "nineteen nineties", "80" -> "eighties"; a century's
    first decade by its hundreds: "1900" -> "nineteen hundreds"."""
    n = int(digits)
    if 1100 <= n <= 1900 and n % 100 == 0:
        return f"{number_words(n // 100)} hundreds"
    head, _, last = number_words(n).rpartition(" ")
    last = last[:-1] + "ies" if last.endswith("y") else last + ("es" if last.endswith("x") else "s")
    return f"{head} {last}".strip()


#: A number's other ways of being written, each with how it is said: decimals
#: ("3.14": "three point one four"), ordinals ("21st": "twenty first"), decades
#: ("1990s", "'80s"), "No. 10" ("number ten").
_NUMBER_SAYINGS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (
        re.compile(r"(?<![\d.])(\d+)\.(\d+)(?![\d.])"),
        lambda m: f" {number_words(int(m[1]))} point {' '.join(_ONES[int(d)] for d in m[2])} ",
    ),
    (re.compile(r"\b(\d+)(?:st|nd|rd|th)\b"), lambda m: f" {ordinal_words(int(m[1]))} "),
    (re.compile(r"(?:\b|')(\d0|\d{3}0)'?s\b"), lambda m: f" {decade_words(m[1])} "),
    (re.compile(r"\bno\.?\s*(?=\d)"), lambda m: "number "),
    (re.compile(r"(?<=\d)\s*x\s*(?=\d)"), lambda m: " by "),  # "4x4": "four by four"
)


#: The comma of a thousands separator ("1,000").
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


def say_numbers(text: str) -> str:
    """``text`` (folded) with the numbers written in the ways of :data:`_NUMBER_SAYINGS`
    put into words; plain numbers are left for :func:`split_words`."""
    for pattern, said in _NUMBER_SAYINGS:
        text = pattern.sub(said, text)
    return text


#: Letters that Unicode does not decompose into a base letter and an accent,
#: spelt as English spells them ("Ærøskøbing", "Smørrebrød", "Łódź", "Straße").
_UNDECOMPOSED = str.maketrans(
    {"æ": "ae", "Æ": "Ae", "ø": "o", "Ø": "O", "œ": "oe", "Œ": "Oe", "ß": "ss",
     "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "đ": "d", "Đ": "D", "ł": "l",
     "Ł": "L", "ı": "i"}
)  # fmt: skip


def fold(text: str) -> str:
    """Lower case, accents removed (Beyoncé -> beyonce, Smørrebrød -> smorrebrod),
    ``&`` read as "and"."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_UNDECOMPOSED))
    # no accents, and no invisible format characters (a zero-width space in
    # "Tea\u200bpot" made "pot" a word of the card the screen shows as Teapot)
    plain = "".join(
        c for c in decomposed if not unicodedata.combining(c) and unicodedata.category(c) != "Cf"
    )
    plain = plain.replace("’", "'").replace("‘", "'").replace("&", " and ")
    return plain.lower()


def split_words(text: str, *, spell_numbers: bool = True) -> list[str]:
    """The words of ``text`` as a recogniser writes them (lower case, no punctuation).

    Hyphens and slashes separate words; apostrophes inside a word stay
    ("paul's"); digits become words when ``spell_numbers`` ("apollo 11" ->
    "apollo eleven").
    """
    plain = _THOUSANDS.sub("", fold(text))  # "1,000" is one number
    if spell_numbers:
        plain = say_numbers(plain)
    # "4x4" is "4 x 4"; "21st" and "1990s" in digits stay one word ("21 saint" it is not)
    plain = re.sub(r"(\d)(?!(?:st|nd|rd|th|s)\b)([a-z])|([a-z])(\d)", r"\1\3 \2\4", plain)
    # a full stop goes ("dr." is "dr"), but not a decimal point ("3.14": one number)
    plain = re.sub(r"[^a-z0-9'. ]+", " ", re.sub(r"(?<!\d)\.|\.(?!\d)", "", plain))
    words: list[str] = []
    for raw in plain.split():
        token = raw.strip("'")
        if not token:
            continue
        if token.isdigit() and spell_numbers:
            words.extend(number_words(int(token)).split())
        else:
            words.append(token)
    return words


def normalise(text: str, *, spell_numbers: bool = True) -> str:
    """``text`` as one space-separated lower-case phrase (see :func:`split_words`)."""
    return " ".join(split_words(text, spell_numbers=spell_numbers))


#: The words a round number is counted in: "100" is said "one hundred", "a
#: hundred" and "hundred" alike, so the "one" before them is no word of the card.
ROUND_NUMBER_WORDS = frozenset(["hundred", "thousand", "million"])


#: Abbreviations a card may be written with, and the word said for each (a
#: recogniser writes "doctor who" or "dr who", "mister bean" or "mr bean"): the
#: entry is right either way, and its family is the word's ("doctors", not "drs";
#: St Patrick's Day had "sting" as a form of "st").  "st" is "street" when it
#: ends an entry of two words or more ("Baker St"), else "saint".
ABBREVIATIONS: dict[str, str] = {
    "dr": "doctor",
    "mr": "mister",
    "mrs": "missus",
    "st": "saint",
    "mt": "mount",
    "ft": "fort",
    "jr": "junior",
    "sr": "senior",
    "capt": "captain",
    "prof": "professor",
    "sgt": "sergeant",
    "lt": "lieutenant",
    "ave": "avenue",
    "rd": "road",
    "bros": "brothers",
    "vs": "versus",
}


def spoken_abbreviations(phrase: str) -> str:
    """``phrase`` (normalised) with each abbreviation as it is said ("st paul's
    cathedral" -> "saint paul's cathedral", "baker st" -> "baker street")."""
    words = phrase.split()
    said = []
    for i, word in enumerate(words):
        if word == "st" and i == len(words) - 1 and i > 0:
            said.append("street")
        else:
            said.append(ABBREVIATIONS.get(word, word))
    return " ".join(said)


def significant_words(text: str, *, numbers: bool = True) -> list[str]:
    """The words of ``text`` that mean something on their own: no "the", "of"...,
    nor the "one" of a number spelled "one hundred" ("100 metres": "hundred",
    "metres"; a describer may say "one"); the "No." of "No. 10" is "number".
    ``numbers`` False leaves a number's words out (:func:`number_phrases`)."""
    words: list[str] = []
    tokens = split_words(text, spell_numbers=False)
    for i, token in enumerate(tokens):
        if token == "no" and tokens[i + 1 : i + 2] and tokens[i + 1][:1].isdigit():
            token = "number"
        if token[:1].isdigit():
            if not numbers:
                continue
            said = split_words(token)
        else:
            said = [token]
        if len(said) > 1 and said[0] == "one" and said[1] in ROUND_NUMBER_WORDS:
            said = said[1:]
        words.extend(w for w in said if w not in STOP_WORDS)
    return words


def number_phrases(text: str) -> list[str]:
    """Each number of ``text`` as it is said, whole: "twenty first" (21st), "one
    hundred and one" and "hundred and one" (101), "nineteen nineties" and
    "nineties" (1990s).  A describer must not say the number, but may say its
    words apart: "the first time", "one of the films"."""
    out: list[str] = []
    for token in split_words(text, spell_numbers=False):
        if not token[:1].isdigit():
            continue
        said = normalise(token)
        out.append(said)
        first, _, rest = said.partition(" ")
        if first == "one" and rest.split(" ", 1)[0] in ROUND_NUMBER_WORDS:
            out.append(rest)
        if re.fullmatch(r"19\d0'?s", token):
            out.append(said.rsplit(" ", 1)[-1])  # "nineties"
    return out


#: A roman numeral of two letters or more ("ii", "viii", "xiv"): no word a recogniser
#: writes (it writes "two", or "i i" for a stutter), so no word of a card to forbid.
_ROMAN_NUMERAL = re.compile(r"[ivx]{2,5}")


def is_roman_numeral(word: str) -> bool:
    """Whether ``word`` (normalised) is a roman numeral of two letters or more."""
    return bool(_ROMAN_NUMERAL.fullmatch(word))


def own_words(text: str) -> list[str]:
    """The words of ``text`` a describer must not say, as a recogniser writes them:
    its significant words, each abbreviation also as it is said ("dr" and
    "doctor"), a possessive's name without its "'s" ("noah" of Noah's Ark:
    "Noah built a boat" says the card's word), and each number whole ("twenty
    first" of 21st Century, not "first")."""
    written = [w for w in significant_words(text, numbers=False) if not is_roman_numeral(w)]
    out = dict.fromkeys([*written, *number_phrases(text)])
    out.update(dict.fromkeys(spoken_abbreviations(" ".join(written)).split()))
    for word in list(out):
        if word.endswith("'s") and len(word) > 3:
            out.setdefault(word[:-2], None)
    return list(out)


# -- a recogniser's words, made comparable (the referee's tokens, the answers' forms) --

_ALT = re.compile(r"\(\d+\)$")
_KEEP = re.compile(r"[^a-z0-9']+")


def norm_word(word: str) -> str:
    """Lower-case ``word``, fold its accents as the deck does ("brûlée" ->
    "brulee") and drop what is not a letter, digit or apostrophe."""
    w = _ALT.sub("", fold(word.strip()))
    w = _KEEP.sub("", w).strip("'")
    return w


def norm_phrase(text: str) -> tuple[str, ...]:
    """Split ``text`` into normalised words (``"The Eiffel-Tower!"`` ->
    ``("the", "eiffel", "tower")``)."""
    out = []
    for part in re.split(r"[\s\-_/]+", text.lower()):
        w = norm_word(part)
        if w:
            out.append(w)
    return tuple(out)
