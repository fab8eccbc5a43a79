"""A small n-gram language model biased toward the current context.

The free decode of each utterance used to run on pocketsphinx's full en-us
language model: slow (tens of thousands of words) and blind to the card, so
it garbled card words into common ones ("kangaroo" -> "camper").  This module
writes, per context, a tiny ARPA model instead:

* the context's words (answers, forms, commands with the wake word, team
  names, letter/rhyme cue phrases, spelled letters) share
  :data:`CONTEXT_MASS` of the unigram probability;
* a few thousand common English words (:data:`DISTRACTORS`, from
  ``wordfreq``) and the dictionary's sound-alikes of the context words take
  the rest, so speech that is *not* a card word has somewhere to go
  ("something else");
* every multi-word phrase gets bigrams (and trigrams) that hold it together
  ("host pass", "starts with", "albert einstein");
* whatever the context, the describer's letter and rhyme talk
  (:func:`talk_phrases`: "starts with a t", "the first letter is c", "it has
  four letters", spelled letters in a row) shares :data:`TALK_MASS` and is held
  together more loosely (:data:`TALK_HOLD`), so a foul comes out as words the
  referee recognises rather than as "starts with up he".

Pure functions apart from :func:`common_words` and :func:`sound_alikes`,
which read ``wordfreq`` and a CMU dictionary file (both cached).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from voice_host.speech.kws import PHONES
from voice_host.talk_words import NUMBER_WORDS

#: Common English words that stand for "something else" in the biased model.
DISTRACTORS = 3000
#: Unigram probability shared by the context's words (the bias).  Set on
#: split=tune by ``benchmarks/listening.py``.
CONTEXT_MASS = 0.6
#: Unigram probability shared by the sound-alikes of the context words.
SOUND_ALIKE_MASS = 0.05
#: Unigram probability of the end of the sentence.
END_PROB = 0.05
#: Probability that a phrase goes on with its next word once its previous
#: word(s) were said (shared when several phrases start alike, e.g. "host ...").
PHRASE_HOLD = 0.7
#: Sound-alikes kept per context word, and how close (phone similarity 0..1) they must be.
SOUND_ALIKES_PER_WORD = 6
SOUND_ALIKE_MIN = 0.6
#: Near words: common words that sound close to a word of the card's answers
#: ("glove" for Love, "paint" for Faint, "fog" for Frog) weigh
#: :data:`NEAR_SHARE` of a context word, not the sound-alikes' crumbs, so that
#: the sound, more than the bias, tells a guesser's "glove" from the card (set
#: on real_words.py's tune split, qABCs' words; at 1.0 synthetic fixture voices
#: lost more of their own card words to near words).  A near word is a word of
#: English's lexicon, at least :data:`NEAR_MIN` alike in phones (one phone of
#: three changed), seen at least :data:`NEAR_ZIPF` (wordfreq's Zipf scale: once
#: per million words is 3), and not pronounced as the answer word but for phones
#: the sound hardly tells apart; :data:`NEAR_PER_WORD` at most, closest first.
NEAR_SHARE = 0.3
NEAR_MIN = 0.66
NEAR_ZIPF = 3.0
NEAR_PER_WORD = 8
#: The card's rare forbidden forms (less common than Zipf :data:`FORM_ZIPF`,
#: "dogging", "jugging", "pigpen") weigh :data:`FORM_SHARE` of another context
#: word: a describer hardly ever says them, and at full weight a guesser's "dog"
#: with a breath after it was written "dogging", a near miss.
FORM_ZIPF = 3.0
FORM_SHARE = 0.2
#: Spelled letters (a "b" said alone) as the CMU dictionary spells them.
LETTERS: tuple[str, ...] = tuple("abcdefghijklmnopqrstuvwxyz")
#: Relative frequency given to each spelled letter (wordfreq's scale: "the" is 0.05).
LETTER_FREQUENCY = 1e-4
#: Unigram probability shared by the letter/rhyme talk words that are not context words.
TALK_MASS = 0.05
#: Like :data:`PHRASE_HOLD` for histories only letter/rhyme talk continues:
#: lower, because "with a" and "has" start innocent clues far more often.
TALK_HOLD = 0.3

#: The card's own spelling: a describer who spells or names letters spells the
#: card ("p o s ...", "it starts with a p").  Its first :data:`SPELL_LETTERS`
#: letters, and its initial after "starts with", count :data:`SPELL_WEIGHT`
#: times as much as any other letter that could follow; and after a letter the
#: spelling goes on to another letter with :data:`SPELL_HOLD` rather than
#: :data:`TALK_HOLD`.  Set on split=tune by ``benchmarks/referee.py --audio``.
SPELL_LETTERS = 4
SPELL_WEIGHT = 30
SPELL_HOLD = 0.7

#: Letters that are also words or parts of common ones: not linked as spelling.
_WORD_LETTERS = frozenset({"a", "i", "o"})

_LOG_FLOOR = -99.0


@dataclass(frozen=True)
class LmSpec:
    """What goes into one biased model (words are lower case, in the dictionary)."""

    phrases: tuple[tuple[str, ...], ...]
    """Context phrases as word tuples (single words included)."""
    distractors: Mapping[str, float]
    """Common word -> relative frequency (any positive scale)."""
    sound_alikes: tuple[str, ...] = ()
    """Words that sound like a context word (a place for near misses to go)."""
    context_mass: float = CONTEXT_MASS
    """Unigram probability shared by the context words."""
    talk: tuple[tuple[str, ...], ...] = ()
    """Letter/rhyme talk phrases (:func:`talk_phrases`), held by :data:`TALK_HOLD`."""
    talk_mass: float = TALK_MASS
    """Unigram probability shared by talk words that are not context words."""
    spelling: tuple[tuple[str, ...], ...] = ()
    """The card's own letter talk (:func:`spelling_phrases`), weighted by :data:`SPELL_WEIGHT`."""
    near: tuple[str, ...] = ()
    """Near words of the answers (:func:`near_words`), each as likely as a context word."""
    rare: tuple[str, ...] = ()
    """Context words that weigh :data:`FORM_SHARE` of the others (the card's rare forms)."""


def talk_phrases(letters: Sequence[str] = LETTERS) -> tuple[tuple[str, ...], ...]:
    """Letter and rhyme talk as word tuples, with ``letters`` as the dictionary spells them.

    Covers "(it) starts/begins with (a) <letter>", "the first/last letter is
    <letter>", "it has <number> letters", "rhymes with", "sounds like" and
    spelling: a letter after a letter, leaving out "a", "i" and "o" (words, and
    "o k" is how "okay" came out when they were in).
    """
    out: list[tuple[str, ...]] = [("rhymes", "with"), ("sounds", "like"), ("letters", "long")]
    for verb in ("starts", "begins"):
        for letter in letters:
            out.append(("it", verb, "with", "a", letter))
            out.append((verb, "with", letter))
    for pos in ("first", "last"):
        for letter in letters:
            out.append(("the", pos, "letter", "is", letter))
    for number in NUMBER_WORDS:
        out.append(("it", "has", number, "letters"))
    spelled = [x for x in letters if x not in _WORD_LETTERS]
    for first in spelled:
        out.extend((first, second) for second in spelled)
    return tuple(out)


def spelling_phrases(
    words: Iterable[str], letters: Sequence[str] = LETTERS
) -> tuple[tuple[str, ...], ...]:
    """The letter talk that spells ``words`` (the card's): each word's first
    :data:`SPELL_LETTERS` letters spelled out, and its initial after "starts
    with (a)" and "the first letter is"."""
    out: dict[tuple[str, ...], None] = {}
    for word in words:
        spelled = [c for c in word.lower() if c in letters]
        if len(spelled) < 2:
            continue
        out.setdefault(tuple(spelled[:SPELL_LETTERS]), None)
        first = spelled[0]
        for phrase in (
            ("it", "starts", "with", "a", first),
            ("starts", "with", first),
            ("the", "first", "letter", "is", first),
        ):
            out.setdefault(phrase, None)
    return tuple(out)


def _log10(p: float) -> float:
    return math.log10(p) if p > 0 else _LOG_FLOOR


def arpa_text(spec: LmSpec) -> str:
    """The ARPA text of the model described by ``spec``.

    Backoff weights are set so each history's probabilities sum to one
    (pocketsphinx does not check, but a sound model keeps scores comparable).
    """
    context_words: dict[str, None] = {}
    for phrase in spec.phrases:
        for w in phrase:
            context_words.setdefault(w, None)
    uni: dict[str, float] = {}
    other_mass = max(0.0, 1.0 - spec.context_mass - SOUND_ALIKE_MASS - END_PROB)
    total = sum(f for w, f in spec.distractors.items() if w not in context_words)
    for w, f in spec.distractors.items():
        if w not in context_words and total > 0:
            uni[w] = other_mass * f / total
    alikes = [w for w in spec.sound_alikes if w not in context_words]
    for w in alikes:
        uni[w] = uni.get(w, 0.0) + SOUND_ALIKE_MASS / len(alikes)
    rare = set(spec.rare) & set(context_words)
    shares = {w: FORM_SHARE if w in rare else 1.0 for w in context_words}
    total_weight = sum(shares.values())
    for w in context_words:
        uni[w] = uni.get(w, 0.0) + spec.context_mass * shares[w] / total_weight
    if context_words:
        share = NEAR_SHARE * spec.context_mass / total_weight
        for w in spec.near:
            if w not in context_words:
                uni[w] = max(uni.get(w, 0.0), share)
    talk_words = list(dict.fromkeys(w for p in spec.talk for w in p if w not in context_words))
    for w in talk_words:
        uni[w] = uni.get(w, 0.0) + spec.talk_mass / len(talk_words)
    norm = sum(uni.values()) + END_PROB
    uni = {w: p / norm for w, p in uni.items()}
    uni["</s>"] = END_PROB / norm

    # n-grams inside phrases: history (1 or 2 words) -> next word -> count
    follow: dict[tuple[str, ...], dict[str, int]] = {}
    held: set[tuple[str, ...]] = set()  # histories a context phrase continues
    spelling: set[tuple[str, ...]] = set()  # histories of letters the card's spelling continues
    weighted = [(p, 1) for p in (*spec.phrases, *spec.talk)]
    weighted += [(p, SPELL_WEIGHT) for p in spec.spelling]
    for phrase, weight in weighted:
        for i in range(1, len(phrase)):
            hist = tuple(phrase[max(0, i - 2) : i])
            follow.setdefault(hist, {}).setdefault(phrase[i], 0)
            follow[hist][phrase[i]] += weight
            if len(hist) == 2:  # the trigram needs its bigram too
                follow.setdefault(hist[1:], {}).setdefault(phrase[i], 0)
    for phrase in spec.phrases:
        for i in range(1, len(phrase)):
            held.add(tuple(phrase[max(0, i - 2) : i]))
    for phrase in spec.spelling:
        for i in range(1, len(phrase)):
            hist = tuple(phrase[max(0, i - 2) : i])
            if all(len(w) == 1 for w in hist):
                spelling.add(hist)
    bigrams: dict[tuple[str, str], float] = {}
    trigrams: dict[tuple[str, str, str], float] = {}
    bow: dict[tuple[str, ...], float] = {}
    for hist, nexts in follow.items():
        n = sum(max(c, 1) for c in nexts.values())
        hold = PHRASE_HOLD if hist in held else SPELL_HOLD if hist in spelling else TALK_HOLD
        probs = {w: hold * max(c, 1) / n for w, c in nexts.items()}
        lower = sum(
            bigrams.get((hist[-1], w), uni.get(w, 0.0)) if len(hist) == 2 else uni.get(w, 0.0)
            for w in probs
        )
        bow[hist] = (1.0 - sum(probs.values())) / max(1e-9, 1.0 - lower)
        for w, p in probs.items():
            if len(hist) == 1:
                bigrams[(hist[0], w)] = p
            else:
                trigrams[(hist[0], hist[1], w)] = p
    # Trigram histories need the bigram's backoff, computed after all bigrams exist.
    for hist in [h for h in follow if len(h) == 2]:
        tri_next = {w: p for (a, b, w), p in trigrams.items() if (a, b) == hist}
        lower = sum(bigrams.get((hist[1], w), uni.get(w, 0.0)) for w in tri_next)
        bow[hist] = (1.0 - sum(tri_next.values())) / max(1e-9, 1.0 - lower)

    lines = ["\\data\\", f"ngram 1={len(uni) + 1}"]
    if bigrams:
        lines.append(f"ngram 2={len(bigrams)}")
    if trigrams:
        lines.append(f"ngram 3={len(trigrams)}")
    lines += ["", "\\1-grams:", f"{_LOG_FLOOR:.4f} <s> 0.0000"]
    for w, p in uni.items():
        b = bow.get((w,))
        lines.append(f"{_log10(p):.4f} {w}" + (f" {_log10(b):.4f}" if b is not None else ""))
    if bigrams:
        lines += ["", "\\2-grams:"]
        for (a, w), p in bigrams.items():
            b = bow.get((a, w))
            lines.append(
                f"{_log10(p):.4f} {a} {w}" + (f" {_log10(b):.4f}" if b is not None else "")
            )
    if trigrams:
        lines += ["", "\\3-grams:"]
        for (a, b2, w), p in trigrams.items():
            lines.append(f"{_log10(p):.4f} {a} {b2} {w}")
    lines += ["", "\\end\\", ""]
    return "\n".join(lines)


@lru_cache(maxsize=4)
def common_words(n: int = DISTRACTORS) -> tuple[tuple[str, float], ...]:
    """The ``n`` most frequent English words (alphabetic) with their frequencies."""
    import wordfreq

    out = []
    for w in wordfreq.top_n_list("en", n):
        if w.isalpha() or "'" in w:
            out.append((w, float(wordfreq.word_frequency(w, "en"))))
    return tuple(out)


# Each ARPAbet phone as one character, so rapidfuzz compares whole pronunciations fast.
_PHONE_CHARS: dict[str, str] = {}


def phone_string(phones: Iterable[str]) -> str:
    """A pronunciation as a string with one character per phone."""
    out = []
    for p in phones:
        p = p.rstrip("012").upper()
        if p not in _PHONE_CHARS:
            _PHONE_CHARS[p] = chr(0x100 + len(_PHONE_CHARS))
        out.append(_PHONE_CHARS[p])
    return "".join(out)


@lru_cache(maxsize=2)
def _dictionary(path: str) -> tuple[list[str], list[str]]:
    phone_string(sorted(PHONES))  # every phone has its character before the loop
    table = dict(_PHONE_CHARS)
    no_stress = str.maketrans("", "", "012")
    words: list[str] = []
    prons: list[str] = []
    with Path(path).open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            word, _, pron = line.partition(" ")
            if not pron or "(" in word:
                continue  # alternative pronunciations add nothing here
            try:
                prons.append("".join([table[p] for p in pron.translate(no_stress).split()]))
            except KeyError:
                continue  # a phone the acoustic model lacks
            words.append(word)
    return words, prons


def sound_alikes(
    dict_path: str | Path,
    targets: Mapping[str, Sequence[str]],
    per_word: int = SOUND_ALIKES_PER_WORD,
    minimum: float = SOUND_ALIKE_MIN,
) -> tuple[str, ...]:
    """Dictionary words that sound close to each target (word -> phones), closest first."""
    found: dict[str, None] = {}
    for target, phones in targets.items():
        query = phone_string(phones)
        if len(query) < 3:
            continue  # short words have hundreds of neighbours: distractors cover them
        kept = 0
        for w, _ in _within(str(dict_path), query, minimum, per_word + 4):
            if w != target and w not in found:
                found[w] = None
                kept += 1
                if kept >= per_word:
                    break
    return tuple(found)


@lru_cache(maxsize=8192)
def _zipf(word: str) -> float:
    import wordfreq

    return float(wordfreq.zipf_frequency(word, "en"))


def near_words(
    dict_path: str | Path,
    targets: Mapping[str, Sequence[str]],
    per_word: int | None = None,
    minimum: float | None = None,
    zipf: float | None = None,
) -> tuple[str, ...]:
    """Common dictionary words that sound close to each target (word -> phones)
    but not the same: what a guesser says near the card ("glove" for Love).
    The closest first, and among those as close, the most common.  Only words
    of English's lexicon (lemminflect's): not names ("dan" for "dance"), not the
    target's own inflections ("kangaroos"), not a run of its phones ("anger" in
    "kangaroo": a garble, not another word).
    Defaults: :data:`NEAR_PER_WORD`, :data:`NEAR_MIN`, :data:`NEAR_ZIPF`."""
    per_word = NEAR_PER_WORD if per_word is None else per_word
    minimum = NEAR_MIN if minimum is None else minimum
    zipf = NEAR_ZIPF if zipf is None else zipf
    found: dict[str, None] = {}
    for target, phones in targets.items():
        query = phone_string(phones)
        near = [
            (score, _zipf(w), w)
            for w, score in _within(str(dict_path), query, minimum)
            if w != target
            and _zipf(w) >= zipf
            and _in_lexicon(w)
            and target not in _lemmas(w)
            and not _sounds_same(pron := _pronounced(str(dict_path), w), query)
            and not _piece(pron, query)
        ]
        for _, _, w in sorted(near, reverse=True)[:per_word]:
            found.setdefault(w, None)
    return tuple(found)


#: Phones the acoustic model hardly tells apart, written as the first of their
#: group when two pronunciations are compared (:func:`_sounds_same`): kal16's
#: clear "singer" was written "sinner" as soon as "sinner" was a near word.
_BLURRED = {"N": "M", "NG": "M"}


#: Every vowel is one to :func:`_blur` too: the acoustic model hears vowels
#: least well, and accents move them (Piper's "lily" was written "lowly", a
#: guesser's "clam" "climb", as soon as those were near words).
_VOWELS = ("AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW")


@lru_cache(maxsize=1)
def _blur_table() -> dict[int, str]:
    table = {phone_string([a]): phone_string([b]) for a, b in _BLURRED.items()}
    table.update({phone_string([v]): phone_string(["AH"]) for v in _VOWELS})
    return str.maketrans(table)


def _blur(pron: str) -> str:
    return pron.translate(_blur_table())


def _pronounced(dict_path: str, word: str) -> str:
    """``word``'s pronunciation as a phone string ("" when the dictionary lacks it)."""
    index = _index(dict_path).get(word)
    return "" if index is None else _dictionary(dict_path)[1][index]


def _sounds_same(pron: str, query: str) -> bool:
    """Whether the pronunciation ``pron`` is ``query`` (phone strings) but for phones
    the sound cannot tell apart: a homophone, "sinner" for "singer", "lowly" for "lily"."""
    return bool(pron) and _blur(pron) == _blur(query)


def _piece(pron: str, query: str) -> bool:
    """Whether one pronunciation is a run of the other's, two phones or more
    shorter: "anger" in "kangaroo" is a garble of the card, not another word."""
    short, long = sorted((pron, query), key=len)
    return len(long) - len(short) >= 2 and short in long


@lru_cache(maxsize=2)
def _index(dict_path: str) -> dict[str, int]:
    return {w: i for i, w in enumerate(_dictionary(dict_path)[0])}


@lru_cache(maxsize=8192)
def _lemmas(word: str) -> frozenset[str]:
    """``word``'s lemmas in English's lexicon (lemminflect's; empty for a name)."""
    from lemminflect import getAllLemmas

    return frozenset(lemma for found in getAllLemmas(word).values() for lemma in found)


def _in_lexicon(word: str) -> bool:
    return bool(_lemmas(word))


@lru_cache(maxsize=1024)
def _within(
    dict_path: str, query: str, minimum: float, limit: int | None = None
) -> tuple[tuple[str, float], ...]:
    """Each (alphabetic) dictionary word at least ``minimum`` alike to ``query``,
    and its score, closest first (the ``limit`` closest, or all).

    Cached: every context holds the same command words and team names, and a
    search of the whole dictionary costs about 10 ms a word.
    """
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    words, prons = _dictionary(dict_path)
    hits = process.extract(
        query, prons, scorer=Levenshtein.normalized_similarity, score_cutoff=minimum, limit=limit
    )
    return tuple((words[i], float(score)) for _, score, i in hits if words[i].isalpha())


def build_spec(
    phrases: Iterable[Sequence[str]],
    lookup: Callable[[str], str | None],
    dict_path: str | Path | None,
    *,
    distractors: int = DISTRACTORS,
    context_mass: float | None = None,
    talk: bool = True,
    spell: Iterable[str] = (),
    forms: Iterable[str] = (),
) -> LmSpec:
    """The model for these context phrases (word lists); ``lookup`` is the decoder's dictionary.

    Words the dictionary lacks are left out (the caller adds the context's
    own words to the dictionary first).  With ``talk``, the model also holds
    letter/rhyme talk (:func:`talk_phrases`), weighted toward spelling the
    words ``spell`` (the card's, :func:`spelling_phrases`), and the near words
    of ``spell`` (:func:`near_words`) are as likely as a context word; words of
    ``forms`` (the card's forbidden forms) that are not of ``spell`` and rarer
    than :data:`FORM_ZIPF` weigh less (:data:`FORM_SHARE`).
    """
    spell = tuple(spell)
    rare = tuple(w for w in forms if w not in spell and _zipf(w) < FORM_ZIPF)
    kept: list[tuple[str, ...]] = []
    for phrase in phrases:
        words = tuple(w for w in phrase if w)
        if words and all(lookup(w) is not None for w in words):
            kept.append(words)
    common = {w: f for w, f in common_words(distractors) if lookup(w) is not None}
    # Spelled letters ("t e l") are ordinary words here, as likely as a common one.
    for letter in LETTERS:
        if lookup(letter) is not None:
            common[letter] = max(common.get(letter, 0.0), LETTER_FREQUENCY)
    alikes: tuple[str, ...] = ()
    near: tuple[str, ...] = ()
    if dict_path is not None:
        targets: dict[str, list[str]] = {}
        for phrase in kept:
            for w in phrase:
                pron = lookup(w)
                if pron and len(w) > 2:
                    targets[w] = pron.split()
        alikes = tuple(w for w in sound_alikes(dict_path, targets) if lookup(w) is not None)
        spelled = {w: targets[w] for w in spell if w in targets}
        near = tuple(w for w in near_words(dict_path, spelled) if lookup(w) is not None)
    mass = CONTEXT_MASS if context_mass is None else context_mass
    said = tuple(
        p for p in (talk_phrases() if talk else ()) if all(lookup(w) is not None for w in p)
    )
    spelling = tuple(
        p
        for p in (spelling_phrases(spell) if talk else ())
        if all(lookup(w) is not None for w in p)
    )
    return LmSpec(tuple(kept), common, alikes, mass, said, spelling=spelling, near=near, rare=rare)
