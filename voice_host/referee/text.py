"""Turning recogniser words into comparable tokens.

Recognisers write lower-case words, sometimes with marks the referee does not
care about: pocketsphinx writes spelled letters as ``b.``, alternative
pronunciations as ``read(2)``, fillers as ``<sil>``/``[noise]``; vosk writes
``[unk]``.  Fixture text has punctuation ("telescope!").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from voice_host.deck.words import norm_phrase, norm_word
from voice_host.speech.events import HeardWord

#: Recogniser tokens that are not words.
_FILLERS = frozenset({"<s>", "</s>", "<sil>", "[noise]", "[unk]", "<unk>", "[laughter]", "++"})


@dataclass(frozen=True)
class Token:
    """One normalised heard word with its place in audio time (seconds)."""

    text: str
    """Lower case, letters/digits/apostrophes only (``b.`` -> ``b``)."""
    raw: str
    """As the recogniser wrote it."""
    start: float
    """Seconds of audio time where the word starts."""
    end: float
    """Seconds of audio time where the word ends."""
    pitch: float | None = None
    """The pitch (Hz) of the recogniser's word it comes from, when measured."""
    said: str | None = None
    """The words it stands for when it is several made one (a team's name: ``text``
    ``bigred``, ``said`` ``big red``); None for one heard word."""

    @property
    def shown(self) -> str:
        """The word(s) as heard, for what a judgement says was heard."""
        return self.text if self.said is None else self.said

    @staticmethod
    def merged(run: Sequence[Token], text: str) -> Token:
        """The tokens ``run`` made one token ``text`` (a team's name of two words, an
        initialism's letters), spanning them and showing them as heard."""
        said = " ".join(t.shown for t in run)
        return dataclasses.replace(run[0], text=text, said=said, end=run[-1].end)


def is_stray(word: str) -> bool:
    """Whether normalised ``word`` is a stray single letter ("n", "v", "k"),
    which a recogniser writes for a garbled syllable ("is it" -> "is n");
    "a" and "i" are words.  (Three or more spelled letters are letter talk:
    :mod:`voice_host.referee.talk` looks at those first.)"""
    return len(word) == 1 and word.isalpha() and word not in ("a", "i")


def tokens(words: tuple[HeardWord, ...]) -> tuple[Token, ...]:
    """Normalised tokens for ``words``, fillers and empty words dropped.

    A recogniser word with spaces or hyphens ("ice-cream") becomes several
    tokens sharing its time span, so matching sees the same words as text.
    """
    out: list[Token] = []
    for w in words:
        if w.text.strip().lower() in _FILLERS:
            continue
        parts = norm_phrase(w.text)
        if not parts:
            continue
        step = (w.end - w.start) / len(parts)
        for i, p in enumerate(parts):
            out.append(Token(p, w.text, w.start + i * step, w.start + (i + 1) * step, w.pitch))
    return tuple(out)


def synthetic_words(text: str, start: float = 0.3, gap: float = 0.08) -> tuple[HeardWord, ...]:
    """Heard words for ``text`` with made-up but plausible timings.

    Each word lasts 0.12 s plus 0.06 s per letter (about 3 syllables a second),
    separated by ``gap`` seconds, beginning at ``start`` (seconds of audio
    time).  For tests and the text-level benchmark, where no audio exists.
    """
    out: list[HeardWord] = []
    t = start
    for part in text.split():
        w = norm_word(part)
        if not w:
            continue
        d = 0.12 + 0.06 * len(w)
        out.append(HeardWord(w, round(t, 3), round(t + d, 3)))
        t += d + gap
    return tuple(out)
