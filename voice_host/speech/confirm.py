"""Confirming a spotted phrase against an independent free transcript.

A steered recogniser hears its target in everything, so each keyword hit is
checked against what an unsteered decoder wrote for the same stretch of
audio: the words of the free transcript that overlap the hit are compared,
as CMU phone sequences, with the phrase ("canker you" is close to
"kangaroo", "elephant" is far from "telephone ring").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet

from rapidfuzz.distance import Levenshtein

from voice_host.speech.events import HeardWord

#: Phone similarity (0..1, normalised edit distance) at or above which a hit is
#: confirmed.  Set on split=tune by ``benchmarks/listening.py``.
CONFIRM_SIMILARITY = 0.6
#: Seconds of slack around the hit when collecting overlapping free words.
SLACK = 0.15
#: A spotted phrase of at least this many phones is confirmed even when the free
#: transcript garbled it: on split=tune long phrases almost never fire on other
#: speech (2 false of 3834 clean negatives), while the free decoder writes
#: "his surrogate" for "telescope".  Set on split=tune by ``benchmarks/listening.py``.
TRUST_PHONES = 7


def is_confirmed(
    target: Sequence[str],
    similarity: float,
    article: int = 0,
    *,
    command: bool = False,
    length_counts: bool = True,
) -> bool:
    """Whether a hit on ``target`` (its phones) with this free-text similarity stands.

    ``article`` is how many of the phones are a leading article's ("the
    rainbow"): they do not make a phrase long enough to trust, as the spotter
    fits "the" to any syllable ("the rainbow" over a transcript "after green").
    A ``command`` ("host correct") is never trusted on its length: a command
    must never be invented, and in a reverberant room the spotter fired "host
    correct" over "poster!" while the transcript held nothing like it.
    Nor is any phrase when ``length_counts`` is False: the transcript read is
    the second transcriber's, which followed the voice where pocketsphinx did
    not (on real speech the spotter's "paintbrush" and "binning" stood on their
    length over Moonshine's "do it very well" and "made amiable himself"); the
    caller also says False for letter or rhyme talk over no transcript at all
    (a news broadcast's crowd gave "first letter" on every card, and a letter
    foul), while a card word keeps its length there (in chatter the
    transcribers often write nothing where the spotter hears the guess).
    """
    if similarity >= CONFIRM_SIMILARITY:
        return True
    return length_counts and not command and len(target) - article >= TRUST_PHONES


#: Share of a hit's time a single transcript word must cover to speak for it.
COVER = 0.7
#: A transcript word overlapping more than this share of a hit takes part in it.
SHARE = 0.2


def written_as_other(
    target: Sequence[str],
    hit: HeardWord,
    free_words: Sequence[HeardWord],
    alikes: Iterable[str],
    phones_of: Callable[[str], tuple[str, ...] | None],
    whole: AbstractSet[str] = frozenset(),
) -> bool:
    """Whether the transcript wrote one of ``alikes`` over the hit.

    The biased model offered the decoder the card word *and* other words: its
    sound-alikes ("sinker" beside "singer") and common words; when, favouring
    the card word, it still chose another word for the same stretch of audio,
    that is the independent check saying no, however close the two sound ("is
    it a sinker" is not "singer"; a real "seven" is not "devon", measured on
    words cut out of real speech, ``benchmarks/real_voices.py``).
    ``target`` is the hit's phones (without an article before them: "the
    scorpion" written "accordion"); ``phones_of`` looks a word's phones up.
    Words of ``whole`` (the card's near words: "onion" for Opinion) count however
    short: each is a whole word close to the card's, not a piece of it.
    """
    span = hit.end - hit.start
    if span <= 0:
        return False
    others = set(alikes) - set(hit.text.split())
    if not others:
        return False
    # Only a whole-word substitute counts: one sound-alike over most of the hit and
    # no other word over much of it ("a anger you" for "kangaroo" is a garble
    # that the phone similarity judges, not a different word).
    over = [w for w in free_words if min(w.end, hit.end) - max(w.start, hit.start) > SHARE * span]
    if len(over) != 1:
        return False
    w = over[0]
    if w.text not in others or min(w.end, hit.end) - max(w.start, hit.start) < COVER * span:
        return False
    if w.text in whole:
        return True
    # As long as the target, give or take a phone: "anger" is a piece of "kangaroo".
    phones = phones_of(w.text)
    return phones is not None and len(phones) >= len(target) - 1


def names_another(hit: HeardWord, free_words: Sequence[HeardWord], names: Iterable[str]) -> bool:
    """Whether the transcript wrote another of ``names`` (the team names) where the
    spotted phrase has one it did not write: "host push green" written over the
    spotted "host push red".  The two phrases differ by one word only, so the phone
    similarity confirms either; the transcript's choice between the names decides.
    """
    said = f" {hit.text} "
    near = [w.text for w in free_words if w.end > hit.start - SLACK and w.start < hit.end + SLACK]
    written = f" {' '.join(near)} "
    ours = [n for n in names if f" {n} " in said]
    if not ours or any(f" {n} " in written for n in ours):
        return False
    return any(f" {n} " in written for n in names if n not in ours)


#: Seconds a phone takes at the least: a longer phrase spotted where a shorter
#: one was, and hardly longer, did not have time for its extra phones.
MIN_PHONE_SECONDS = 0.05
#: Share of the shorter phrase's stretch the longer one must overlap to be at its place.
SAME_PLACE = 0.8


def extends(longer: HeardWord, longer_phones: int, shorter: HeardWord, shorter_phones: int) -> bool:
    """Whether the spotted ``longer`` phrase is ``shorter`` with more sound added
    that the audio had no time for: its text holds the other's ("forks",
    "pitchfork", "the fork" for "fork"), it overlaps most of the other's
    stretch (:data:`SAME_PLACE`), and it lasts less than
    :data:`MIN_PHONE_SECONDS` longer for each phone it adds.

    The spotter fires all the forms of a card word at once over one word said;
    when the transcript wrote another word over the short form ("for" over
    "fork", measured on real speech: ``benchmarks/real_voices.py``), the long
    forms at the same place are that same sound, not a form that was said.
    """
    if shorter.text == longer.text or shorter.text not in longer.text:
        return False
    overlap = min(longer.end, shorter.end) - max(longer.start, shorter.start)
    if overlap < SAME_PLACE * (shorter.end - shorter.start):
        return False
    added = longer_phones - shorter_phones
    extra = (longer.end - longer.start) - (shorter.end - shorter.start)
    return added > 0 and extra < MIN_PHONE_SECONDS * added


def phone_similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """1 - normalised edit distance between two phone sequences (0..1)."""
    if not a or not b:
        return 0.0
    return float(Levenshtein.normalized_similarity(tuple(a), tuple(b)))


def best_window_similarity(
    target: Sequence[str],
    hit: HeardWord,
    free_words: Sequence[HeardWord],
    phones_of: Callable[[str], tuple[str, ...] | None],
) -> float:
    """Best phone similarity between ``target`` and any run of free words near ``hit``."""
    near = [w for w in free_words if w.end > hit.start - SLACK and w.start < hit.end + SLACK]
    best = 0.0
    for i in range(len(near)):
        seq: list[str] = []
        for j in range(i, len(near)):
            if near[j].text == hit.text:
                return 1.0
            phones = phones_of(near[j].text)
            if phones is None:
                break
            seq.extend(phones)
            best = max(best, phone_similarity(target, seq))
            if len(seq) > 2 * len(target) + 2:
                break
    return best


def closest_run(
    target: Sequence[str],
    words: Sequence[HeardWord],
    phones_of: Callable[[str], tuple[str, ...] | None],
    longest: int = 3,
) -> tuple[int, int] | None:
    """The run ``words[a:b]`` of up to ``longest`` consecutive words that sounds
    most like ``target`` (phones), as ``(a, b)``; None when no word has phones."""
    runs = closest_runs(target, words, phones_of, longest, count=1)
    return runs[0] if runs else None


def closest_runs(
    target: Sequence[str],
    words: Sequence[HeardWord],
    phones_of: Callable[[str], tuple[str, ...] | None],
    longest: int = 3,
    count: int = 3,
) -> list[tuple[int, int]]:
    """The ``count`` runs of up to ``longest`` consecutive words that sound most
    like ``target``, the closest first (ties: the earlier, then the shorter)."""
    scored: list[tuple[float, int, int]] = []
    for i in range(len(words)):
        seq: list[str] = []
        for j in range(i, min(len(words), i + longest)):
            phones = phones_of(words[j].text)
            if phones is None:
                break
            seq.extend(phones)
            scored.append((phone_similarity(target, seq), i, j + 1))
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    return [(a, b) for _, a, b in scored[:count]]
