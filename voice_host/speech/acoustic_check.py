"""Which of two transcripts of one utterance fits its sound better.

When pocketsphinx's card-biased transcript and the witness (Moonshine's
transcript of the same utterance, :mod:`voice_host.speech.second_opinion`)
differ on a key word ("knot" against "not", "rainbows" against "grain
bills"), neither recogniser's word is proof: pocketsphinx's language model
favours the card, and Moonshine garbles voices it cannot follow.  The
acoustic model can judge between them with no language model at all: the
utterance is force-aligned to each transcript, and the one with the higher
acoustic score fits the sound better.  The two texts differ only where the
key word is, so the comparison is local.

A separate pocketsphinx decoder does the alignment (no language model; words
the dictionary lacks take a spelled-out guess, as the spotter's do): the
recogniser's own decoder is streaming the spotter.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from typing import Any

from voice_host.speech import kws

log = logging.getLogger(__name__)


class Aligner:
    """Acoustic scores of an utterance's audio against given transcripts."""

    def __init__(self, hmm: str, dict_path: str) -> None:
        from pocketsphinx import Decoder

        self._decoder: Any = Decoder(hmm=hmm, dict=dict_path, lm=None, loglevel="FATAL")
        self._known: dict[str, bool] = {}

    def _pronounceable(self, word: str) -> bool:
        if word not in self._known:
            ok = bool(self._decoder.lookup_word(word))
            if not ok:
                phones = kws.clean_phones(kws.letter_to_sound(word))
                if phones:
                    self._decoder.add_word(word, " ".join(phones), True)
                    ok = True
            self._known[word] = ok
        return self._known[word]

    def segments(self, audio: bytes, words: Sequence[str]) -> list[Any] | None:
        """pocketsphinx's segments (words, silences and fillers, with frames and
        acoustic scores) of ``audio`` (16 kHz mono s16) aligned to ``words``
        (silences between words allowed), or None when it does not align."""
        text = " ".join(w for w in words if self._pronounceable(w))
        if not text or len(audio) < 2:
            return None
        dec = self._decoder
        try:
            dec.set_align_text(text)
            dec.start_utt()
            dec.process_raw(audio, full_utt=True)
            dec.end_utt()
            segments = list(dec.seg() or ())
        except (RuntimeError, IndexError) as exc:  # IndexError: too little audio to align
            log.debug("alignment failed for %r: %s", text, exc)
            return None
        return segments or None

    def score(self, audio: bytes, words: Sequence[str]) -> float | None:
        """The log acoustic score of ``audio`` aligned to ``words``, or None when
        it does not align (:meth:`segments`)."""
        segments = self.segments(audio, words)
        if segments is None:
            return None
        return sum(math.log(max(float(s.ascore), 1e-300)) for s in _scored(segments))

    def prefers_second(
        self,
        audio: bytes,
        first: Sequence[str],
        second: Sequence[str],
        *,
        strict: bool = False,
    ) -> bool:
        """Whether ``second`` fits ``audio`` at least as well as ``first`` (a tie
        goes to ``second``: words that sound the same, "made" and "maid").

        ``strict``: ``first`` must align too (else ``second`` does not win).

        The decoder's feature normalisation carries from one utterance to the
        next (the same alignment scored 2 points apart right after another
        recording), so ``audio`` is aligned once first, unscored: both
        transcripts are then scored from the same state."""
        self.score(audio, second)
        a = self.score(audio, first)
        b = self.score(audio, second)
        if b is None:
            return False
        if a is None:
            return not strict
        return b >= a


def _scored(segments: list[Any]) -> list[Any]:
    """The segments whose acoustic score is their own.  pocketsphinx reports an
    alignment's last segment (the sentence end, or a trailing silence) with the
    score of the one before it, which would count the last word twice: that
    copy is left out."""
    if (
        len(segments) >= 2
        and segments[-1].word.startswith(("<", "["))
        and segments[-1].ascore == segments[-2].ascore
    ):
        return segments[:-1]
    return segments
