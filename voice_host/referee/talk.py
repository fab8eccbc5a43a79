"""Letter talk and rhyme talk: describer fouls whatever the card (R11).

Letter talk: "starts with b", "begins with the letter t", "ends in an h", "first letter",
"last letter", "five letters", "letters long", "spelled", "how you spell it",
"the letter t", "letter is t", "initials are h s" (a letter that begins a word of the
card), or three or more spelled letters in a row ("t e l").  Rhyme
talk: "rhymes with", "it rhymes", "sounds like" (and "sounds a bit like", "sounds
similar to", "sounds the same as").
A word about spelling or rhyme that is no talk about the card's own is
innocent: "a magic spell", "the spelling bee", "nursery rhymes" (found on
real speech, where a recogniser also writes "rhymes" into noise).

Precision matters: "it starts with a gun" (a race) is an innocent clue, so
"starts/begins/ends with" counts only when a letter, a word a recogniser
writes for a letter name ("see", "tea", "as"), "letter", or the end of the
utterance follows.  Recognisers drop the short "with": "starts a c" still
counts when a spelled letter (not "a" or "i") follows "starts (a|an|the)".
"has ... letters" counts with up to two (misheard) words between, since the
count itself is often garbled ("it has far letters"); "has ... letter"
(the plural's "s" lost) with exactly one word between that could be a count
("it has fire letter", not "it has a letter").
"a" and "i" are words, so a run of spelled letters needs at least two
letters that are not "a" or "i".  When the card is known, the run must
spell one of the card's words from its start: a describer spells the word
from its first letter, while a recogniser writes single letters for garbled
speech ("at the c side" for "at the seaside", "on p c n" in a clue for
"basil").  So the run starts with the initial of a word of the card (not of
"and" or "of") and at least two thirds of its letters follow the card's
letters from there, in order (:func:`spells_from`).  On clue recordings for
30 cards the benchmarks had never seen, 3 of 120 held such a garbage run, 2
of them with two letters of the card; a real broadcast gave "a n d n s c"
on Bow and arrow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from voice_host.deck.words import STOP_WORDS
from voice_host.referee.text import Token
from voice_host.talk_words import NUMBER_WORDS

#: Letter names as recognisers write them (besides single letters "b", "b."),
#: each with the letter it stands for.  Ordinary words that are also letter
#: names ("see", "you", "are", "why", "oh", "tea", "eye") are left out: they
#: would turn sentences into spelling.
NAME_LETTER = {
    "bee": "b",
    "cee": "c",
    "dee": "d",
    "ee": "e",
    "eff": "f",
    "gee": "g",
    "aitch": "h",
    "jay": "j",
    "kay": "k",
    "el": "l",
    "ell": "l",
    "em": "m",
    "en": "n",
    "pee": "p",
    "cue": "q",
    "ar": "r",
    "ess": "s",
    "tee": "t",
    "vee": "v",
    "ex": "x",
    "zee": "z",
    "zed": "z",
}
#: The letter names alone.
LETTER_NAMES = frozenset(NAME_LETTER)
#: Words a recogniser writes for a letter name that are also ordinary words
#: ("see" for C, "tea" for T, "as" for S).  Alone they are not spelling; right
#: after "starts with (a|an|the)" they are, since no clue goes on that way.
SOUNDS_LIKE_LETTER = frozenset(
    [
        "see",
        "sea",
        "you",
        "are",
        "our",
        "why",
        "oh",
        "owe",
        "tea",
        "eye",
        "pea",
        "be",
        "as",
        "queue",
        "que",
        "she",
        "we",
        "age",
        "ash",
        "eh",
        "hey",
        "ay",
        "aye",
    ]
)
#: "it has [up to two garbled words] letters": the count is often misheard.
_HAS_WORDS = frozenset(["has", "have", "had", "its", "it's"])
_WITH_VERBS = frozenset(
    ["starts", "start", "starting", "begins", "begin", "beginning", "ends", "end", "ending"]
)
_POSITIONS = frozenset(["first", "last", "second", "third", "fourth", "fifth", "next", "final"])
#: Words after "rhymes" that make it rhyme talk ("rhymes with", "rhymes a bit with") ...
_RHYME_NEXT = frozenset(["with", "to", "a", "kind", "sort", "like"])
#: ... and words before it: its subject ("it rhymes", "a word that rhymes"), when the
#: recogniser lost the "with".  "nursery rhymes", "a rhyme", "rhyming slang" are not.
_RHYME_SUBJECTS = frozenset(["it", "that", "which", "this", "word", "one", "they", "almost"])
#: The forms of "rhyme" that such a subject makes a statement of: "it rhymes",
#: "they rhyme"; "is it rhyme?" or "is it rhyming?" is a guesser's question.
_RHYME_STATED = {"rhymes": _RHYME_SUBJECTS, "rhymed": _RHYME_SUBJECTS, "rhyme": {"they"}}
#: Words before "spell"/"spelling" that make it letter talk ("how you spell it",
#: "to spell", "i'm spelling it"); "a magic spell", "spelling bee" are not.
_SPELL_SUBJECTS = frozenset(["you", "to", "i", "we", "i'm", "you're", "it's", "can", "could"])

TalkKind = Literal["letter", "rhyme"]


@dataclass(frozen=True)
class Talk:
    """A stretch of letter or rhyme talk found in an utterance."""

    kind: TalkKind
    """``letter`` or ``rhyme``."""
    first: int
    """Index of its first token."""
    last: int
    """Index of its last token (inclusive)."""
    cue: str
    """What gave it away, for the evidence."""


def letter_of(word: str) -> str:
    """The letter a spelled letter (``is_letter``) stands for."""
    return NAME_LETTER.get(word, word)


def spells_from(run: list[str], card: str) -> bool:
    """Whether spelled letters ``run`` spell (the start of) ``card``.

    A describer spells a word of the card from its first letter, in order,
    while a recogniser writes single letters for garbage: so the run's first
    three letters or more must share, in order, at least two thirds of
    themselves with the card's letters from the start of one of its words
    (one letter more allowed for a letter the recogniser lost: "k n g" for "k
    a n g"); what follows them may be garbage ("s i n n n" for "s i n and").
    Words such as "and" or "of" are nobody's to spell ("a n d" is no spelling
    of Bucket and spade, nor "a n d n s c" of Bow and arrow)."""
    letters = [letter_of(w) for w in run]
    words = [w for w in card.lower().split() if w]
    starts = [i for i, w in enumerate(words) if w not in STOP_WORDS] or list(range(len(words)))
    for i in starts:
        text = "".join(c for c in "".join(words[i:]) if c.isalpha())
        if text[:1] != letters[0]:
            continue
        for k in range(min(3, len(letters)), len(letters) + 1):
            if 3 * _in_order(letters[:k], text[: k + 1]) >= 2 * k:
                return True
    return False


def _in_order(letters: list[str], text: str) -> int:
    """How many of ``letters`` appear in ``text`` in the same order (longest
    common subsequence)."""
    row = [0] * (len(text) + 1)
    for letter in letters:
        prev_diag = 0
        for j, c in enumerate(text, 1):
            keep = row[j]
            row[j] = prev_diag + 1 if letter == c else max(row[j], row[j - 1])
            prev_diag = keep
    return row[-1]


def is_letter(word: str, strong_only: bool = False) -> bool:
    """Whether ``word`` (normalised) is a spelled letter; "a" and "i" only when
    ``strong_only`` is False."""
    if len(word) == 1 and word.isalpha():
        return not (strong_only and word in ("a", "i"))
    return word in LETTER_NAMES


#: A word of a card written in capitals, 2 to 6 letters: an initialism ("DVD",
#: "NASA", "BBC"), which players say letter by letter as often as a word.
_INITIALISM = re.compile(r"(?<![A-Za-z])[A-Z]{2,6}(?![A-Za-z])")


#: A ruler's or a war's number in capitals ("II", "VIII", "XIV"): no initialism.
_ROMAN = re.compile(r"[IVX]+")
#: Words a little before which letters are spelling even when they spell the card's
#: initialism ("it is spelled d v d", "the letters are n a s a").
_SPELLING_CUES = frozenset(
    ["spelled", "spelt", "spell", "spells", "spelling", "letters", "letter", "initials"]
)
#: How many words before the letters a spelling cue is looked for.
_SPELLING_CUE_REACH = 3


def initialisms(text: str) -> frozenset[str]:
    """The words of a card's ``text`` written in capitals, lower case ("dvd" of "DVD
    player", "usa" of "U.S.A."); a word in capitals is read out by its letters.  Not
    a roman numeral ("II" of World War II: a stutter "i i" is no card word)."""
    words = _INITIALISM.findall(text.replace(".", ""))
    return frozenset(w.lower() for w in words if not _ROMAN.fullmatch(w))


def join_initialisms(toks: tuple[Token, ...], words: frozenset[str]) -> tuple[Token, ...]:
    """``toks`` with each run of spelled letters that spells one of ``words`` made one
    token of that word: "is it n a s a" is "is it nasa" on the card NASA, a guess (or,
    in the describer's sentence, the card's word), not spelling.  A card in ordinary
    letters ("c a t" on Cat) stays spelling: only an initialism is said that way."""
    if not words:
        return toks
    longest_first = sorted(words, key=len, reverse=True)
    out: list[Token] = []
    i = 0
    while i < len(toks):
        run: tuple[Token, ...] = ()
        before = toks[max(0, i - _SPELLING_CUE_REACH) : i]
        spelling = any(t.text in _SPELLING_CUES for t in before)  # "the letters are d v d"
        if is_letter(toks[i].text) and not spelling:
            for word in longest_first:
                candidate = toks[i : i + len(word)]
                if (
                    len(candidate) == len(word)
                    and all(is_letter(t.text) for t in candidate)
                    and "".join(letter_of(t.text) for t in candidate) == word
                ):
                    run = candidate
                    break
        if run:
            out.append(Token.merged(run, "".join(letter_of(t.text) for t in run)))
            i += len(run)
        else:
            out.append(toks[i])
            i += 1
    return tuple(out)


#: Words that may come between "sounds" and "like" in rhyme talk ("sounds a bit
#: like", "sounds kind of like", "sounds just like").
_SOUNDS_HEDGES = frozenset(["a", "bit", "little", "lot", "kind", "sort", "of", "just", "quite"])
#: At most this many of them.
_MAX_SOUNDS_HEDGES = 2


#: What "sounds" is said to be like in rhyme talk, and the word that ends it:
#: "sounds like", "sounds similar to", "sounds the same as".
_SOUNDS_AS = {"like": "", "similar": "to", "same": "as"}


def _like_after(words: list[str], i: int) -> int:
    """Where the "like" of "sounds [a bit] like" ("similar to", "the same as") ends,
    after ``words[i]``; 0 if none."""
    for k in range(i + 1, min(i + 2 + _MAX_SOUNDS_HEDGES, len(words))):
        if words[k] in _SOUNDS_AS:
            closing = _SOUNDS_AS[words[k]]
            if not closing:
                return k
            return k + 1 if words[k + 1 : k + 2] == [closing] else 0
        if words[k] not in _SOUNDS_HEDGES and words[k] != "the":
            return 0
    return 0


#: Words that make "has ... letters" about letters in the post, not a count.
_NOT_A_COUNT = frozenset(
    ["lots", "lot", "of", "many", "some", "the", "your", "my", "his", "her", "their", "all", "no"]
)


#: Words that make "has X letter" about one letter, not a (misheard) count.
_NOT_A_SINGLE_COUNT = _NOT_A_COUNT | {"a", "an", "one", "this", "that", "another", "any"}


def _has_count_of_letters(words: list[str], i: int) -> bool:
    """Whether ``words[i]`` ("letters", or "letter" with its "s" lost) closes
    "has [one or two words] letters" whose middle words could be a (misheard)
    count; for "letter" exactly one middle word."""
    plural = words[i] == "letters"
    for k in range(max(0, i - 3), i):
        if words[k] in _HAS_WORDS:
            middle = words[k + 1 : i]
            if not plural:
                return len(middle) == 1 and middle[0] not in _NOT_A_SINGLE_COUNT
            return 1 <= len(middle) <= 2 and not any(m in _NOT_A_COUNT for m in middle)
    return False


#: Words that name a card word's first letter as an initial ("his initials are h s").
_INITIAL_WORDS = frozenset(["initial", "initials", "initial's"])
#: Words that may come between them and the letter ("initials are", "initial is just").
_INITIAL_LINKS = frozenset(["is", "are", "were", "was", "just", "both", "the"])


def _initial_named(words: list[str], i: int, card: str | None) -> int:
    """Where the letters named after the initial word ``words[i]`` end ("initials are
    h s": the index of "s"), or 0 when none follows within two linking words.  The
    first letter ("a" or "i" only with another letter after it: alone they are
    words) must begin one of the card's words when the card is known: "his initials
    are h s" on Harry Styles is letter talk (R11: the first letter), a stray letter
    the recogniser wrote after "initial" on another card is not."""
    k = i + 1
    while k < len(words) and k <= i + 2 and words[k] in _INITIAL_LINKS:
        k += 1
    if k >= len(words) or not is_letter(words[k]):
        return 0
    if not is_letter(words[k], strong_only=True) and not (
        k + 1 < len(words) and is_letter(words[k + 1])
    ):
        return 0  # "a" or "i" alone is a word ("initials are a mystery"); "a e" spells
    letter = letter_of(words[k])
    if card is not None:
        initials = {w[0] for w in card.lower().split() if w and w not in STOP_WORDS}
        if letter not in initials:
            return 0
    end = k
    while end + 1 < len(words) and is_letter(words[end + 1]):
        end += 1
    return end


def _strong_letter_after(words: list[str], k: int) -> int | None:
    """The index of a spelled letter (not "a" or "i") at ``words[k]``, or right
    after an article there ("an h"); None when there is none."""
    if k < len(words) and words[k] in ("a", "an", "the"):
        k += 1
    if k < len(words) and is_letter(words[k], strong_only=True):
        return k
    return None


def find_talk(toks: tuple[Token, ...], card: str | None = None) -> list[Talk]:
    """Letter and rhyme talk in ``toks``, in spoken order, non-overlapping.

    ``card`` is the active entry's text: spelled letters count only when most
    of them are its letters (:func:`spells_from`).  None: any run counts.
    """
    words = [t.text for t in toks]
    n = len(words)
    found: list[Talk] = []
    i = 0
    while i < n:
        w = words[i]
        nxt = words[i + 1] if i + 1 < n else ""
        talk: Talk | None = None
        prev = words[i - 1] if i else ""
        if w.startswith("rhym") and (nxt in _RHYME_NEXT or prev in _RHYME_STATED.get(w, ())):
            talk = Talk("rhyme", i, min(i + 1, n - 1), f"'{w}'")
        elif w in ("sounds", "sound") and (like := _like_after(words, i)):
            # "sounds like", and "sounds a bit like", "sounds kind of like"
            talk = Talk("rhyme", i, like, f"'{' '.join(words[i : like + 1])}'")
        elif w in _WITH_VERBS and nxt == "with":
            rest = words[i + 2 : i + 4]
            if not rest or is_letter(rest[0], strong_only=True) or "letter" in rest:
                talk = Talk("letter", i, min(i + 2, n - 1), f"'{w} with {' '.join(rest)}'".strip())
            elif rest[0] in SOUNDS_LIKE_LETTER:
                # "starts with see": a letter name written as a word
                talk = Talk("letter", i, i + 2, f"'{w} with {rest[0]}'")
            elif rest[0] in ("a", "an", "the") and (
                len(rest) == 1
                or is_letter(rest[1], strong_only=True)
                or rest[1] in SOUNDS_LIKE_LETTER
            ):
                # "starts with a g" (a letter after an article), or the
                # utterance stops right after "starts with a" (cut-off letter)
                talk = Talk("letter", i, i + len(rest) + 1, f"'{w} with {' '.join(rest)}'")
        elif (
            w in _WITH_VERBS
            and nxt == "in"
            and (letter_at := _strong_letter_after(words, i + 2)) is not None
        ):
            # "it ends in an h", "starts in t": a spelled letter only ("it ends
            # in a tie", "ends in the sea" are clues)
            talk = Talk("letter", i, letter_at, f"'{' '.join(words[i : letter_at + 1])}'")
        elif (
            w in _WITH_VERBS
            and nxt in ("a", "an", "the")
            and i + 2 < n
            and is_letter(words[i + 2], strong_only=True)
        ):
            # "starts a c": the recogniser lost the short "with"
            talk = Talk("letter", i, i + 2, f"'{w} {nxt} {words[i + 2]}'")
        elif w in _POSITIONS and nxt in ("letter", "letters"):
            talk = Talk("letter", i, i + 1, f"'{w} {nxt}'")
        elif w == "letter" and is_letter(nxt, strong_only=True):
            # "the letter b", "it's got the letter t in it"
            talk = Talk("letter", i, i + 1, f"'{w} {nxt}'")
        elif (
            (w == "letter's" or (w == "letter" and nxt == "is"))
            and (last := i + 1 if w == "letter's" else i + 2) < n
            and is_letter(words[last], strong_only=True)
        ):
            # "the first letter is u", heard "that like letter is u"; "letter's u"
            talk = Talk("letter", i, last, f"'{' '.join(words[i : last + 1])}'")
        elif w in _INITIAL_WORDS and (found_initial := _initial_named(words, i, card)):
            # "his initials are h s", "her initial is m", "the initials j f k"
            talk = Talk("letter", i, found_initial, f"'{' '.join(words[i : found_initial + 1])}'")
        elif w in ("letters", "letter") and (
            (i > 0 and (words[i - 1] in NUMBER_WORDS or words[i - 1].isdigit())) or nxt == "long"
        ):
            talk = Talk("letter", max(0, i - 1), i, f"'{words[i - 1] if i else ''} {w}'".strip())
        elif w in ("letters", "letter") and _has_count_of_letters(words, i):
            # "it has far letters" (four): a count of letters, however misheard
            start = max(k for k in range(max(0, i - 3), i) if words[k] in _HAS_WORDS)
            talk = Talk("letter", start, i, f"'{' '.join(words[start : i + 1])}'")
        elif w in ("spelled", "spelt") or (
            w in ("spell", "spelling") and (prev in _SPELL_SUBJECTS or nxt in ("it", "out"))
        ):
            talk = Talk("letter", i, i, f"'{w}'")
        elif is_letter(w):
            j = i
            while j < n and is_letter(words[j]):
                j += 1
            run = words[i:j]
            if (
                len(run) >= 3
                and sum(is_letter(x, strong_only=True) for x in run) >= 2
                and (card is None or spells_from(run, card))
            ):
                talk = Talk("letter", i, j - 1, f"spelled letters '{' '.join(run)}'")
        if talk is not None:
            found.append(talk)
            i = talk.last + 1
        else:
            i += 1
    return found
