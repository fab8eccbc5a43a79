"""The embedded recogniser: pocketsphinx keyword spotting, confirmed by a context-biased decode.

How one stream is handled (all in audio time, 30 ms frames):

* every frame goes to a keyword-spotting search steered to the context's
  phrases (per-phrase thresholds, :mod:`voice_host.speech.kws`); a hit is
  reported at once as a ``partial`` event (``source="kws"``, unconfirmed);
* the same frames go to a voice-activity endpointer
  (:mod:`voice_host.speech.endpoint`); when an utterance ends, the
  utterance's audio is decoded once more with a small n-gram language model
  built for the context (:mod:`voice_host.speech.biased_lm`: the context's
  words, moderately favoured, among a few thousand common words and the
  card words' sound-alikes; same decoder, another search).  Each hit of the
  utterance becomes a ``final`` event whose ``confirmed`` says whether that
  transcript has the phrase, or something that sounds like it
  (:mod:`voice_host.speech.confirm`); the transcript itself becomes a
  ``final`` event with ``source="free"`` when the context asks for free text.
  When that transcript holds no word that matters now, the second
  transcriber (Moonshine tiny-en, :mod:`voice_host.speech.second_opinion`)
  writes the same audio, and its transcript is the one used if it does.
  When it holds a word of the card among other words, Moonshine writes the
  audio too, and if the two agree elsewhere Moonshine's is a witness: a card
  word or spotted phrase it did not write stands only if forced alignment
  (:mod:`voice_host.speech.acoustic_check`) prefers it to the witness's words
  (real voices: the biased model writes "powerless" for "unless").

* a short utterance (at most :data:`EARLY_MAX_UTTERANCE`) closes early, after
  only :data:`EARLY_SILENCE` of non-speech, when a decode of the utterance so
  far (once per pause) holds an answer, command or team name word for word.
  The endpointer's own end comes about 0.3 s after the word; this saves most
  of that wait for the replies the players wait for.  An utterance with letter
  or rhyme talk spotted waits for the endpointer, so a sentence is not cut
  after "rhymes with".  The pause is the frame detector's, or, while a short
  utterance holds a spotted answer and the room is
  loud enough to fool the frame detector, the neural pause detector's
  (:mod:`voice_host.speech.reply_pause`).  In a noisy room (the level gate
  busy, :mod:`voice_host.speech.level_gate`) only the latter counts.

``source="free"`` therefore names the per-utterance transcript, which now
comes from the biased model (``free_lm="biased"``, the default) rather than
the full en-us model (``free_lm="full"``, kept for comparison): it can write
a card word that keyword spotting missed, and the referee judges it as any
free transcript.  The biased model was measured on split=tune to write card
words where they were said far more often than the full model, with false
card words in under 1% of clean negatives (``benchmarks/listening.py``,
column "false heard").

Decoding costs more than spotting, so it runs only on utterances, and only
when the context wants free text or there is a hit to confirm.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import math
import os
import random
import struct
import tempfile
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.audio.pitch import median_pitch
from voice_host.deck.words import STOP_WORDS
from voice_host.errors import EngineError, ModelError
from voice_host.speech import (
    acoustic_check,
    biased_lm,
    confirm,
    kws,
    level_gate,
    moonshine_base,
    sphinx_model,
)
from voice_host.speech import second_opinion as second_opinion_module
from voice_host.speech.child_probe import failed_lines
from voice_host.speech.endpoint import SpeechEndpointer
from voice_host.speech.events import HeardWord, ListenContext, RecognitionEvent
from voice_host.speech.level_gate import LevelGate
from voice_host.speech.reply_pause import PauseDetector, default_pause_detector
from voice_host.speech.second_opinion import Transcriber
from voice_host.talk_words import CLUE_WORDS, GUESS_LEAD, GUESS_TAIL, noisy_answer_forms

#: The words of a called-out answer's shape ("is it a ...", "... right?"): a
#: short transcript holding the card word and another word is written by the
#: second transcriber too (``second_opinion.SHORT_READ_WORDS``).
GUESS_SHAPE_WORDS = GUESS_LEAD | GUESS_TAIL

log = logging.getLogger(__name__)

_K = TypeVar("_K")

#: pocketsphinx's feature frames per second (word times come in frames).
FRAME_RATE = 100
#: Bytes of 16 kHz mono 16-bit audio in one of those frames.
BYTES_PER_FRAME = SAMPLE_RATE * 2 // FRAME_RATE
#: Audio kept before an utterance's detected start, seconds (the VAD starts late).
PRE_ROLL = 0.25
#: Audio kept after the detected end, seconds.
POST_ROLL = 0.15
#: A hit heard outside any utterance is finalised this long after it ends, seconds.
LONE_HIT_WAIT = 0.6
#: A short utterance followed by this much non-speech (seconds, by the frame
#: voice detector in its LOOSE mode) is decoded so far; when the transcript
#: holds an answer, command or team name word for word, the utterance ends
#: there, without waiting for the endpointer's window: the host answers a guess
#: sooner.  Speech that resumes becomes the next utterance.  Measured with
#: ``benchmarks/host_latency.py`` and on the 124 clue clips, whose pauses it must
#: not split, at full level and 20 dB quieter (a quiet microphone): cutting "the
#: penguins | slide on the ice" turns a describer's foul into "correct".  LOOSE
#: at 0.15 s split none at either level (host latency p95 0.54 s); MEDIUM_STRICT
#: split none at full level but 3 when quieter (p95 0.50 s); STRICT split 7 at
#: full level.  A real room was preferred to the last 0.04 s.
EARLY_SILENCE = 0.15
#: How far (seconds) the witness's word times may be from a key word's own
#: (they are estimates: a share of a line by letters).
WITNESS_SLACK = 0.6
#: A witness that did not follow pocketsphinx's other words must fit the sound
#: better than the card word in place of each of this many runs of its words that
#: sound most like it, for the card word to be dropped.
WEAK_RUNS = 3
#: The longest final utterance (seconds, with the endpointer's padding) the third
#: transcriber (:mod:`voice_host.speech.moonshine_base`) reads when neither
#: pocketsphinx nor the second made anything of it: a guess, a command, a claim.
THIRD_OPINION_SECONDS = 3.2
#: Only utterances up to this long (seconds) close early: longer ones are clues
#: to the referee, whose verdict is not urgent.
EARLY_MAX_UTTERANCE = 3.0
#: A pause that only the neural pause detector hears
#: (:mod:`voice_host.speech.reply_pause`) counts only when its frames are at
#: least this loud (dB, :func:`~voice_host.speech.level_gate.frame_level_db`;
#: 40 dB is about -47 dBFS): noise, which the frame detector takes for speech.
#: In a quieter room the frame detector's pauses are the safer ones: the neural
#: detector hears the 0.2 s comma of "host, pause" as a pause, and a spotted
#: "post" before it became a guess (``benchmarks/referee.py --audio``).
NOISY_PAUSE_DB = 40.0
#: A spotted form of the card that its utterance's transcript wrote as other
#: words, sounding only partly like it ("they vow came no derribes with love"
#: for "a volcano erupts with lava"), still stands when the utterance's sound
#: fits the transcript with the form in place of those words better by this
#: much (the difference of log acoustic scores,
#: :meth:`~voice_host.speech.acoustic_check.Aligner.score`).  The card-biased
#: language model already favours the card, so a transcript that wrote other
#: words there usually heard other words: on the fixtures' rejected hits the
#: difference ranged from -440 to +90, the forms truly said scored +10 to +36
#: ("posters" in "those tears", "football" in "fourth ball"), "tower" in "host
#: foul" +5, and "snowboard" +90 over "snow is" in "the snow is cold" (a foul
#: all the same) (``benchmarks/referee.py --audio``).
SOUND_MARGIN = 8.0
#: ... and only for a phrase of at least this many phones (an article before it
#: not counted).  On recordings of people (``benchmarks/real_voices.py``) the
#: sound let short words of the card stand in ordinary talk: "race", "arrow",
#: "ant" (3 phones), "cloaked" (5): false fouls on close cards 21 -> 28 of 140
#: held out, on random cards 0 -> 1 of 60 on tune; with this floor, 21 -> 22
#: ("duelled", spelt out to 6 phones, in a clip where "dueled" was already
#: taken for a false guess).  A longer phrase that fits the sound better is
#: less likely to by chance; the fixture fouls it found are of 6 and 7 phones
#: ("posters", "football", "volcano").
SOUND_PHONES = 6
#: How far (seconds) from a spotted phrase the transcript's words it may stand
#: for are looked for (both come from the same audio: their times agree).
SOUND_SLACK = 0.3
#: Seconds of audio before a spotted answer the pause detector hears first.
DETECTOR_LEAD = 0.5
#: In a busy room (the level gate acting) an utterance is trimmed to its speaker's
#: frames (:func:`~voice_host.speech.level_gate.speaker_run`): the chatter around
#: kept the voice detector in speech, and a guess then looked like a long
#: utterance, a describer's clue ("shakespeare" heard "inside a 2.2 s utterance
#: (about 7 words)", a foul; ``benchmarks/room.py``).  Seconds kept either side of
#: the speaker's frames (a soft first or last sound):
SPEAKER_SLACK = 0.1
#: Only a speaker's stretch this short (seconds) is trimmed to: a reply, a guess.
#: A longer one is a sentence, and real read speech keeps the gate busy too: there
#: the soft words at a sentence's edges are the speaker's, and trimming every
#: utterance lost 2 of 52 fouls on tune and 9 of 162 held out ("to crack a |
#: joke", ``benchmarks/real_voices.py``).  The guesses in chatter are 0.5-1.5 s.
SPEAKER_REPLY = 2.0
#: In a quiet room a reply is trimmed too, to its frames within this many dB of
#: its loudest (:data:`SPEAKER_SLACK` kept either side; a sentence, longer than
#: :data:`SPEAKER_REPLY`, is not).  The voice detector holds an utterance open
#: over a breath, a click or a rustle 30-40 dB below the word, and the referee
#: read the time after the last word heard as words it did not hear: two of
#: KLettres' British words, "dog" and "jet" called out alone, were judged a
#: describer's fouls, "about 3 words follow it" (``benchmarks/real_words.py``:
#: a breath 29-39 dB below the word, 0.7 s long); pocketsphinx may also write
#: words for such a sound ("bicycle move if").  A word's own quiet end (a final
#: "t" 23 dB down) is within it.  Trimming sentences as well dropped real words
#: at their edges ("guys", "that is to" in a lecture; ``real_voices.py``: 5 of
#: 212 fouls lost).
QUIET_EDGE_DB = 28.0
#: Whether short utterances may close early at all (see :data:`EARLY_SILENCE`).
EARLY_CLOSE = True
#: Consecutive speech frames (30 ms) that start a resumed utterance after an early close.
RESUME_FRAMES = 3
#: An utterance longer than this is cut (and free-decoded) here, seconds: keeps
#: the free decoder's pause bounded while someone talks on and on.
MAX_UTTERANCE = 10.0
#: Voice-detector frames (30 ms) whose level-gate verdicts are kept: longer than
#: the longest utterance and its pre-roll.
ROOM_FRAMES_KEPT = int((MAX_UTTERANCE + 2.0) / 0.03)
#: Searches kept for recent contexts (switching between them costs under 1 ms).
SEARCH_CACHE = 32
#: Biased language models kept for recent contexts (each holds about 16 MB and
#: takes about 0.2 s to build).
LM_CACHE = 4
#: Dictionary look-ups kept (word -> phones, or None for a word it lacks), the
#: most recently asked.  pocketsphinx 5.1.1's ``Decoder.lookup_word`` never frees
#: the string it returns (about 32 bytes a call, measured: 1,000,000 calls grew the
#: process by 23 MB), and each new card's biased model asks about 5,400 words (its
#: 3,000 common words among them): 0.17 MB a card, most of the 36 MB an hour
#: ``benchmarks/long_evening.py`` grew (12 MB since).  Asked once and kept, a word
#: costs nothing the next time; the common words, the letter and rhyme talk and a
#: few hundred card words fit many times over.
LOOKUP_CACHE = 8192
#: Free-decoding beams: narrower than pocketsphinx's defaults; measured to halve
#: the time on the fixtures with the same transcripts.  Without the flat second
#: pass (``fwdflat``) the decode at an utterance's end takes half the time again
#: (25.1 -> 13.6 s on the 241 guess and clue clips) and wrote the answer in 80
#: guesses instead of 81, with the same false writes: the host answers sooner.
#: ``maxhmmpf`` 2000 -> 1000 (session 60): the decodes of ``listening.py --split all``
#: 15% quicker (53.8 -> 45.8 s of CPU; real-time factor 0.217 -> 0.198), 18 of 374
#: transcripts written otherwise (noise and garbled talk), every word heard as
#: before, and ``referee.py --audio`` judging every clip as before but one held-out
#: letter foul caught.  ``topn`` 2 (spotting too: clean words heard 140 -> 134) and
#: no ``bestpath`` (135) cost words.
FAST_BEAMS: dict[str, Any] = {
    "beam": 1e-40,
    "wbeam": 1e-30,
    "pbeam": 1e-40,
    "maxhmmpf": 1000,
    "maxwpf": 5,
    "fwdflat": False,
}
_FREE = "free"
_ARTICLES = frozenset({"the", "a", "an"})
#: Which language model the per-utterance free decode uses: ``biased`` (a small
#: model per context, :mod:`voice_host.speech.biased_lm`) or ``full`` (en-us).
FREE_LM = "biased"


@dataclass(frozen=True)
class _Hit:
    word: HeardWord
    phones: tuple[str, ...]


def _bundled_model() -> Path:
    import pocketsphinx

    return Path(pocketsphinx.get_model_path()) / "en-us"


#: Loads an acoustic model (argv[1]) with a one-word dictionary (argv[2]), in a
#: child process.  An error pocketsphinx reports is the parent's to meet again
#: when it loads the model itself: only the process ending counts here, unless
#: argv[3] is "strict" (``voice-host models verify``: a model that cannot load is
#: no "ok"), when that error fails the probe too.
_PROBE = """
import sys
from pocketsphinx import Decoder
try:
    Decoder(hmm=sys.argv[1], dict=sys.argv[2], lm=None, loglevel="FATAL")
except Exception as exc:
    if sys.argv[3] == "strict":
        sys.exit(f"ERROR: {exc}")
"""


def probe_model(hmm: Path, strict: bool = False) -> None:
    """Load a player's acoustic model once in a child process first: pocketsphinx
    ends the whole process (``FATAL: ...``, ``exit()``) on defects no reading of the
    files foresees, a ``feat.params`` naming a feature type, CMN or AGC it does not
    know, or a filterbank it cannot build (``-upperf 0``); then the child ends, and
    the host says so in one line (or, for ``VOICE_HOST_MODEL``, listens with the
    bundled model) instead of ending too.  About half a second, and only for a
    model other than the bundled one.  ``strict``: an error pocketsphinx reports
    ("Failed to initialize PocketSphinx") fails it too."""
    with tempfile.TemporaryDirectory(prefix="voice-host-probe-") as folder:
        words = Path(folder) / "probe.dict"
        words.write_text("a AH\n", encoding="utf-8")
        how = "strict" if strict else "lenient"
        lines = failed_lines(
            _PROBE, str(hmm), str(words), how, path=hmm, engine="pocketsphinx", timeout=120
        )
    if lines:
        said = next((line for line in lines if line.startswith(("FATAL", "ERROR"))), lines[-1])
        said = said.removeprefix("ERROR: ")
        raise ModelError(f"{hmm}: pocketsphinx cannot load this model ({said})")


def _names_one_of(phrase: str, phrases: set[str]) -> bool:
    """Whether ``phrase`` is one of ``phrases``, with or without an article before it."""
    first, _, rest = phrase.partition(" ")
    return phrase in phrases or (first in _ARTICLES and rest in phrases)


def _spelled_words(answers: Iterable[str]) -> tuple[str, ...]:
    """The words of the card's answers a describer might spell (not "the",
    "and", "of": leaning towards "a n d" on Bucket and spade made "a n d n s
    c" of a real broadcast's garble, a letter foul)."""
    out: dict[str, None] = {}
    for answer in answers:
        for word in kws.words_of(answer):
            if word not in STOP_WORDS and len(word) > 2:
                out.setdefault(word.replace("'", ""), None)
    return tuple(out)


def _is_filler(word: str) -> bool:
    return word.startswith(("<", "[", "+")) or word in ("", "<sil>")


def _aligned_words(segments: list[Any] | None, texts: list[str]) -> list[tuple[int, int]] | None:
    """The frames (first, last + 1) of the words of a forced alignment's
    ``segments`` that place ``texts`` in order: all of them, or the first few
    when the alignment stopped short (the rest of the audio taken for silence).
    None when it placed none, or words other than those."""
    if segments is None:
        return None
    spoken = [seg for seg in segments if not _is_filler(seg.word)]
    said = [seg.word.split("(", 1)[0] for seg in spoken]
    if not spoken or said != texts[: len(said)]:
        return None
    return [(seg.start_frame, seg.end_frame + 1) for seg in spoken]


def _faint_noise(seconds: float) -> bytes:
    """Noise far below any voice (standard deviation 3 of 32,768), the same every
    time: pocketsphinx aligns nothing to exact zeros."""
    rng = random.Random(0)
    n = round(seconds * SAMPLE_RATE)
    return struct.pack(f"<{n}h", *(round(rng.gauss(0.0, 3.0)) for _ in range(n)))


#: Appended to an utterance whose alignment fails outright (:func:`_placed_words`).
FAINT_TAIL = _faint_noise(0.2)


def _placed_words(
    aligner: acoustic_check.Aligner, audio: bytes, texts: list[str], again: bool = True
) -> list[tuple[int, int]] | None:
    """:func:`_aligned_words` of ``audio`` aligned to ``texts``.  An alignment
    fails outright when the audio ends right on the last word (an utterance
    closed early, as soon as its answer was heard): with ``again`` it is tried
    again with a moment of faint noise after the audio."""
    placed = _aligned_words(aligner.segments(audio, texts), texts)
    if placed is None and again:
        placed = _aligned_words(aligner.segments(audio + FAINT_TAIL, texts), texts)
    return placed


#: Seconds of audio missing between one chunk and the next (or overlapping) past
#: which the stream starts again at the later chunk (its clock counts the samples fed).
GAP_SECONDS = 0.005


class PocketSphinxRecognizer:
    """The :class:`~voice_host.speech.events.Recognizer` on pocketsphinx 5.

    ``model_path`` is a folder holding the acoustic model (``mdef`` etc.) and
    optionally ``*.dict`` and ``*.lm.bin``; None uses the model bundled in
    the pocketsphinx wheel.  ``cue_phrases`` are spotted too whenever a
    context asks for free text (letter and rhyme talk).  Raises
    :class:`ModelError` when the model cannot be loaded.
    """

    name = "pocketsphinx"

    def __init__(
        self,
        model_path: Path | str | None = None,
        *,
        cue_phrases: Iterable[str] = kws.CUE_PHRASES,
        free_beams: dict[str, Any] | None = None,
        free_lm: str | None = None,
        second_opinion: Transcriber | Literal["auto"] | None = "auto",
        third_opinion: moonshine_base.MoonshineBaseTranscriber | Literal["auto"] | None = "auto",
        pause_detector: PauseDetector | Literal["auto"] | None = "auto",
    ) -> None:
        try:
            from pocketsphinx import Decoder
        except ImportError as exc:  # pragma: no cover - it is a pinned dependency
            raise EngineError(f"pocketsphinx is not installed: {exc}") from None
        free_lm = FREE_LM if free_lm is None else free_lm
        if free_lm not in ("full", "biased"):
            raise ValueError(f"free_lm must be 'full' or 'biased', not {free_lm!r}")
        hmm, dict_path, lm_path = self._find_model(model_path)
        beams = FAST_BEAMS if free_beams is None else free_beams
        try:
            self._decoder: Any = Decoder(
                hmm=str(hmm), dict=str(dict_path), lm=None, loglevel="FATAL", **beams
            )
            if free_lm == "full":
                self._decoder.add_lm_file(_FREE, str(lm_path))
        except (RuntimeError, ValueError) as exc:
            raise ModelError(f"cannot load the pocketsphinx model at {hmm}: {exc}") from None
        self.free_lm = free_lm
        #: The unsteered transcriber read when pocketsphinx's transcript holds no
        #: word that matters (:mod:`voice_host.speech.second_opinion`); None: none.
        self.second_opinion: Transcriber | None = (
            second_opinion_module.default_transcriber()
            if second_opinion == "auto"
            else second_opinion
        )
        #: Read last, on a short final utterance neither of the others made
        #: anything of (:mod:`voice_host.speech.moonshine_base`); None: none.
        if third_opinion == "auto":  # only behind a second one, and off with it
            third_opinion = (
                moonshine_base.default_third_transcriber()
                if self.second_opinion is not None
                else None
            )
        self.third_opinion: moonshine_base.MoonshineBaseTranscriber | None = third_opinion
        #: The neural voice detector that also finds the pause after a short
        #: reply, in noise too (:mod:`voice_host.speech.reply_pause`); None: the
        #: frame detector alone.
        self.pause_detector: PauseDetector | None = (
            default_pause_detector() if pause_detector == "auto" else pause_detector
        )
        self._keys = second_opinion_module.Keys()
        self._lean: tuple[str, ...] = ()
        self._written_by = ""  # the last transcript's second transcriber, if it wrote it
        # The last final transcript's witness (``second_opinion.Reading``), if any.
        self._witness: tuple[HeardWord, ...] | None = None
        self._witness_agrees = True
        #: The audio of the last transcript written (:meth:`_free_decode`; the
        #: witness's too), and the acoustic scores of word sequences aligned to it
        #: (:meth:`_sound_score`).
        self._decoded_audio = b""
        self._scores_of: bytes | None = None
        self._scores: dict[tuple[str, ...], float | None] = {}
        self._hmm = str(hmm)
        # Judges between the two transcripts by sound (made when first needed).
        self._aligner: acoustic_check.Aligner | None = None
        self._dict_path = dict_path
        self._lms: dict[
            tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...]], str
        ] = {}
        # Each biased model's other words that a spotted card word may be written
        # as: its sound-alikes (a near miss) and its common distractor words ("seven"
        # for Devon, "century" for Ace Ventura).  One written over a hit says no.
        # ... and, of those, its near words (biased_lm.near_words), which say no
        # however short: (other words, near words) by model name.
        self._lm_other_words: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        self._lm_name: str = _FREE
        self.cue_phrases = tuple(cue_phrases)
        self._searches: dict[tuple[kws.Keyphrase, ...], str] = {}
        self._serial = 0
        self._lookups: OrderedDict[str, str | None] = OrderedDict()  # see LOOKUP_CACHE
        self._context = ListenContext()
        self._kws_name: str | None = None
        self._kws_phones: dict[str, tuple[str, ...]] = {}
        self._urgent: set[str] = set()  # phrases whose hits close an utterance early
        self._commands: set[str] = set()  # the context's command phrases
        self._answers: set[str] = set()  # the context's answers
        # The room outlives a stream: the host stops listening while it speaks and
        # starts a new stream after, and a fresh gate would need seconds to learn
        # again that the room is noisy (as the cepstral mean, it carries on).
        self._gate = LevelGate()
        self._reset_stream(0.0)
        self._started = False

    # -- model ----------------------------------------------------------------

    @staticmethod
    def _find_model(model_path: Path | str | None) -> tuple[Path, Path, Path]:
        """The acoustic model folder, dictionary and language model to load.  A
        folder the player named is checked first (:mod:`~voice_host.speech.sphinx_model`):
        pocketsphinx ends the process on many a damaged model rather than failing."""
        bundled = _bundled_model()
        hmm = bundled / "en-us" if model_path is None else Path(model_path)
        if hmm != bundled / "en-us":
            sphinx_model.check_acoustic_model(hmm)
            probe_model(hmm)
        dicts = sorted(hmm.glob("*.dict"))
        lms = sorted(hmm.glob("*.lm.bin"))
        dict_path = dicts[0] if dicts else bundled / "cmudict-en-us.dict"
        lm_path = lms[0] if lms else bundled / "en-us.lm.bin"
        return hmm, dict_path, lm_path

    def _lookup(self, word: str) -> str | None:
        """The decoder's dictionary's phones of ``word`` (first pronunciation, spaced),
        or None: asked of the decoder once while it is among the last
        :data:`LOOKUP_CACHE` words asked (each ask of pocketsphinx leaks its answer)."""
        lookups = self._lookups
        if word in lookups:
            lookups.move_to_end(word)
            return lookups[word]
        found: str | None = self._decoder.lookup_word(word)
        lookups[word] = found
        if len(lookups) > LOOKUP_CACHE:
            lookups.popitem(last=False)
        return found

    def phones_of(self, word: str) -> tuple[str, ...] | None:
        """A word's phones from the decoder's dictionary (first pronunciation), or None."""
        found = self._lookup(word)
        return tuple(found.split()) if found else None

    # -- contexts -------------------------------------------------------------

    def prepare(self, contexts: Iterable[ListenContext]) -> None:
        """Put every word ``contexts`` need and the dictionary lacks into it now, at once.

        Adding a word rebuilds every search the decoder holds, each biased
        model about 0.15 s, so a card whose forms the dictionary lacks
        ("giraffe's") cost up to 0.7 s when it came up.  Learnt here, before
        those searches exist, they cost one rebuild in all.
        """
        # Every context shares the commands and cue phrases: plan each phrase once.
        phrases: dict[str, None] = {}
        pronunciations: dict[str, tuple[str, ...]] = {}
        for context in contexts:
            phrases.update(dict.fromkeys(self._phrases_of(context)))
            for word, phones in context.pronunciations.items():
                pronunciations.setdefault(word, phones)
        _, to_add = kws.plan_keyphrases(phrases, self._lookup, pronunciations)
        self._learn(to_add)
        if self.second_opinion is not None:
            # Its transcripts are timed by the aligner (0.1 s to load): load it now,
            # not in the middle of the first answer it writes.
            self._get_aligner()
        if self.third_opinion is not None:
            # About a second (the first time on a machine, a few more to convert it):
            # now, not in the middle of a guess.
            try:
                self.third_opinion.load()
            except (EngineError, ModelError) as exc:
                log.warning("third transcriber unusable, the other two read alone: %s", exc)
                self.third_opinion = None

    def _phrases_of(self, context: ListenContext) -> list[str]:
        phrases = list(context.phrases())
        if context.free_text:
            phrases.extend(self.cue_phrases)
        return phrases

    def _learn(self, words: Mapping[str, tuple[str, ...]]) -> None:
        """Add ``words`` (word -> phones) to the dictionary, rebuilding the searches once."""
        new = [(w, p) for w, p in words.items() if self._lookup(w) is None]
        for i, (word, phones) in enumerate(new):
            self._decoder.add_word(word, " ".join(phones), update=i == len(new) - 1)
            self._lookups.pop(word, None)

    def _search_for(self, context: ListenContext) -> str | None:
        planned, to_add = kws.plan_keyphrases(
            self._phrases_of(context), self._lookup, context.pronunciations
        )
        self._learn(to_add)
        self._kws_phones = {k.phrase: k.phones for k in planned}
        self._commands = {" ".join(kws.words_of(p)) for p in context.commands}
        self._answers = {" ".join(kws.words_of(p)) for p in context.answers}
        # the referee's answers include an answer with a recogniser's stray ending
        # ("telescoped" for slt's "telescope!"): such a transcript is an answer too
        noisy = {v for a in self._answers for v in noisy_answer_forms(a, context.forms)}
        self._urgent = {
            *self._answers,
            *noisy,
            *(" ".join(kws.words_of(p)) for p in (*context.commands, *context.team_names)),
        }
        # the third transcriber leans towards these where it heard none of them
        self._lean = (*context.answers, *context.forms, *context.commands, *context.team_names)
        self._keys = second_opinion_module.Keys.of(
            (k.phrase for k in planned),
            self._commands,
            (*context.answers, *context.forms),
            self.cue_phrases,
            GUESS_SHAPE_WORDS,
            CLUE_WORDS,
            context.answers,
        )
        if self.free_lm == "biased":
            self._lm_name = self._lm_for(
                tuple(tuple(k.phrase.split()) for k in planned),
                _spelled_words(context.answers),
                tuple(dict.fromkeys(w for f in context.forms for w in kws.words_of(f))),
            )
        if not planned:
            return None
        key = tuple(planned)
        name = self._searches.get(key)
        if name is None:
            name = self._add_search(
                "kws", ".kws", kws.kws_file_text(planned), self._decoder.add_kws, "key phrases"
            )
            self._remember(self._searches, key, name, SEARCH_CACHE)
        return name

    def _lm_for(
        self,
        phrases: tuple[tuple[str, ...], ...],
        spell: tuple[str, ...] = (),
        forms: tuple[str, ...] = (),
    ) -> str:
        """The biased language model's search for these phrases, leaning toward
        spelling the words ``spell`` (built once, cached); ``forms`` are the
        card's forbidden forms (the rare ones weigh less)."""
        name = self._lms.get((phrases, spell, forms))
        if name is not None:
            return name
        spec = biased_lm.build_spec(
            phrases, self._lookup, self._dict_path, spell=spell, forms=forms
        )
        name = self._add_search(
            "lm",
            ".arpa",
            biased_lm.arpa_text(spec),
            self._decoder.add_lm_file,
            "biased language model",
        )
        self._remember(self._lms, (phrases, spell, forms), name, LM_CACHE)
        keys = self._keys
        # Every word the model offers besides the card's own: its sound-alikes,
        # common words, and the team names and letter or rhyme talk it listens
        # for too ("green" written over a spotted "grinch" is the team's name)
        near = frozenset(spec.near)
        others = (
            frozenset(spec.sound_alikes)
            | near
            | (
                (frozenset(spec.distractors) | keys.card)
                - keys.entry
                - keys.wake
                - (keys.command - keys.card)
            )
        )
        self._lm_other_words[name] = (others, near)
        for gone in set(self._lm_other_words) - set(self._lms.values()):
            del self._lm_other_words[gone]
        return name

    def _add_search(
        self, prefix: str, suffix: str, text: str, add: Callable[[str, str], object], what: str
    ) -> str:
        """Give the decoder a new search read from ``text`` (via a temporary file,
        which is all pocketsphinx takes); return its name."""
        self._serial += 1
        name = f"{prefix}{self._serial}"
        with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False) as handle:
            handle.write(text)
        try:
            add(name, handle.name)
        except RuntimeError as exc:
            raise EngineError(f"pocketsphinx refused the {what}: {exc}") from None
        finally:
            os.unlink(handle.name)
        return name

    def _remember(self, cache: dict[_K, str], key: _K, name: str, limit: int) -> None:
        """Keep ``name`` under ``key``; past ``limit`` searches, drop the oldest."""
        cache[key] = name
        if len(cache) > limit:
            oldest = next(iter(cache))
            self._decoder.remove_search(cache.pop(oldest))

    def start(self, context: ListenContext) -> None:
        """Begin a stream listening for ``context`` (audio time restarts at the next chunk)."""
        self._end_kws_utt()
        self._context = context
        self._kws_name = self._search_for(context)
        # Noise removal and the cepstral mean keep adapting across start() on
        # purpose: a cold restart (reinit_feat) measurably lost words at the start
        # of the next clip.  So the same input gives the same events from a fresh
        # recogniser; a reused one may differ in confidences.
        self._reset_stream(None)
        self._started = True

    def set_context(self, context: ListenContext) -> None:
        """Listen for ``context`` from now on (hits already made are still reported)."""
        if not self._started:
            self.start(context)
            return
        self._end_kws_utt()
        self._context = context
        self._kws_name = self._search_for(context)
        if self._t0 is not None:
            # Mid-stream: the spotter listens for the new phrases from now on.  Between
            # streams (after finish()) the first chunk opens it: its clock starts there.
            self._start_kws_utt()

    # -- stream state ---------------------------------------------------------

    def _reset_stream(self, t0: float | None) -> None:
        self._t0 = t0
        self._fed = 0  # samples fed to the decoder since t0
        self._leftover = b""
        self._buf = bytearray()  # recent audio, for free decoding
        self._buf_start = 0  # sample index (since t0) of _buf[0]
        self._endpointer: SpeechEndpointer | None = None
        self._utt_start: float | None = None
        self._silent_since: float | None = None  # start of the current non-speech run
        self._speech_run = 0  # consecutive speech frames
        self._early = False  # closed early; the endpointer still thinks speech goes on
        self._tried_pause: float | None = None  # the pause last decoded speculatively
        self._follows_reply = False  # the pause detector is fed this stream's frames
        self._resume_needs_detector = False  # closed early at a pause only it heard
        self._hits: list[_Hit] = []
        # Per voice-detector frame since t0 (the latest ones): whether it stood out
        # from the room (always True in a quiet room).
        self._stands_out: deque[bool] = deque(maxlen=ROOM_FRAMES_KEPT)
        self._frames = 0
        self._kws_open = False
        self._kws_utt_start = 0.0
        self._kws_seen: set[tuple[str, int]] = set()
        self._kws_hypstr = ""

    @property
    def now(self) -> float:
        """Seconds of audio time fed so far (the replay clock)."""
        return (self._t0 or 0.0) + self._fed / SAMPLE_RATE

    def _start_kws_utt(self) -> None:
        if self._kws_name is None or self._kws_open:
            return
        self._decoder.activate_search(self._kws_name)
        self._decoder.start_utt()
        self._kws_open = True
        self._kws_utt_start = self.now
        self._kws_seen = set()
        self._kws_hypstr = ""

    def _take_hits(self) -> list[_Hit]:
        """Detections the spotter made since the last call (oldest first).

        The spotter keeps every detection of the utterance; reading them
        without restarting keeps the other phrases' partial matches alive (a
        restart after a short false hit such as "red" used to lose the card
        word being said at the same moment).
        """
        hyp = self._decoder.hyp()
        if hyp is None or not hyp.hypstr or hyp.hypstr == self._kws_hypstr:
            return []
        self._kws_hypstr = hyp.hypstr
        out: list[_Hit] = []
        for seg in self._decoder.seg() or ():
            phrase = seg.word.strip()
            key = (phrase, int(seg.start_frame))
            if _is_filler(phrase) or key in self._kws_seen:
                continue
            self._kws_seen.add(key)
            prob = float(seg.prob)
            word = HeardWord(
                text=phrase,
                start=round(self._kws_utt_start + seg.start_frame / FRAME_RATE, 3),
                end=round(self._kws_utt_start + (seg.end_frame + 1) / FRAME_RATE, 3),
                confidence=prob if 0.0 <= prob <= 1.0 else None,
            )
            if self._from_the_room(word):
                continue
            phones = self._kws_phones.get(phrase) or self._phrase_phones(phrase)
            out.append(_Hit(word, phones))
        return out

    def _from_the_room(self, word: HeardWord) -> bool:
        """Whether none of the word's frames stood out from a noisy room's level: the
        chatter across the room, not a player talking to the host.  Never in a quiet
        room (every frame stands out there)."""
        if self._endpointer is None:
            return False
        seconds = self._endpointer.frame_bytes / 2 / SAMPLE_RATE
        t0 = self._t0 or 0.0
        first_kept = self._frames - len(self._stands_out)
        a = max(first_kept, int((word.start - t0) / seconds))
        b = min(self._frames, math.ceil((word.end - t0) / seconds))
        if b <= a:
            return False
        return not any(self._stands_out[i - first_kept] for i in range(a, b))

    def _speaker_span(self, start: float, end: float) -> tuple[float, float] | None:
        """The part of the utterance ``start``-``end`` that is its speaker's
        (:func:`~voice_host.speech.level_gate.speaker_run`, with
        :data:`SPEAKER_SLACK` either side) when that is a reply
        (:data:`SPEAKER_REPLY`); None for a sentence.  In a busy room the
        speaker's frames are those within the level gate's margin of the
        loudest (the chatter around is not); in a quiet room those within
        :data:`QUIET_EDGE_DB` (a breath or a rustle after a reply is not)."""
        assert self._endpointer is not None
        gate = self._endpointer.gate
        busy = self._room_busy()
        seconds = self._endpointer.frame_bytes / 2 / SAMPLE_RATE
        levels = self._levels_since(start)[::-1]  # oldest first
        first_t = self.now - len(levels) * seconds
        times = [first_t + i * seconds for i in range(len(levels))]
        inside = [i for i, t in enumerate(times) if start - seconds <= t < end]
        if not inside:
            return None
        margin = gate.margin_db if busy else QUIET_EDGE_DB
        lo, hi = level_gate.speaker_run([levels[i] for i in inside], margin)
        a = times[inside[lo]] - SPEAKER_SLACK
        if lo == 0 and times[0] > start:
            a = start  # the utterance began before the levels kept: not trimmed there
        b = times[inside[hi]] + seconds + SPEAKER_SLACK
        a, b = max(start, a), min(end, b)
        if b - a > SPEAKER_REPLY:
            return None  # a sentence: its soft words at the edges may be the speaker's
        return (a, b) if b > a else None

    def _room_busy(self) -> bool:
        """Whether the level gate is acting: a room that is never quiet."""
        gate = self._endpointer.gate if self._endpointer is not None else None
        return gate is not None and gate.margin_db > 0 and gate.busy

    @staticmethod
    def _within(word: HeardWord, start: float, end: float) -> bool:
        """Whether ``word`` overlaps ``start``-``end``."""
        return word.end > start and word.start < end

    def _phrase_phones(self, phrase: str) -> tuple[str, ...]:
        out: list[str] = []
        for w in phrase.split():
            out.extend(self.phones_of(w) or ())
        return tuple(out)

    def _end_kws_utt(self) -> list[_Hit]:
        if not self._kws_open:
            return []
        self._decoder.end_utt()
        self._kws_open = False
        return self._take_hits()

    # -- feeding ----------------------------------------------------------------

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        """Process one chunk (16 kHz mono s16); return the events it completed."""
        if chunk.rate != SAMPLE_RATE:
            raise ValueError(f"pocketsphinx needs {SAMPLE_RATE} Hz chunks, not {chunk.rate}")
        events: list[RecognitionEvent] = []
        if self._t0 is not None:
            expected = self._t0 + (self._fed + len(self._leftover) // 2) / SAMPLE_RATE
            if abs(chunk.start_time - expected) > GAP_SECONDS:
                # Audio missing before this chunk (a microphone reopened after a stall,
                # blocks dropped while the reader was behind), or the host's clock moving
                # the microphone's time back (``host.clock.restamped``): the stream's clock
                # counts samples fed, so without a new start every word after the step
                # would be stamped off by as much.  The utterance ends with its audio.
                events = self.finish()
        if not self._started:
            self.start(self._context)
        if self._t0 is None:
            self._t0 = chunk.start_time
        if self._endpointer is None:
            self._endpointer = SpeechEndpointer(start_time=self._t0, gate=self._gate)
        data = self._leftover + chunk.samples
        step = self._endpointer.frame_bytes
        usable = len(data) - len(data) % step
        self._leftover = data[usable:]
        for i in range(0, usable, step):
            self._feed_frame(data[i : i + step], events, chunk.end_time)
        return events

    def _feed_frame(self, frame: bytes, events: list[RecognitionEvent], emit_at: float) -> None:
        self._start_kws_utt()
        if self._kws_open:
            self._decoder.process_raw(frame)
        self._buf.extend(frame)
        self._fed += len(frame) // 2
        if self._kws_open:
            for hit in self._take_hits():
                self._add_hit(hit, events, emit_at)
        self._follow_reply(frame)
        assert self._endpointer is not None
        boundary = self._endpointer.feed(frame)
        self._stands_out.append(self._endpointer.frame_stands_out)
        self._frames += 1
        self._track_speech(self._endpointer.frame_is_speech, len(frame) // 2)
        if boundary is not None and boundary.kind == "start":
            self._utt_start = boundary.time
            self._early = False
            self._stop_following()
        elif boundary is not None:
            if not self._early or self._utt_start is not None:
                self._close_utterance(boundary.time, events, emit_at)
            self._early = False
            self._stop_following()
        elif (pause := self._pause_due()) is not None:
            # A short utterance paused: decode what was said so far; if the transcript
            # holds an answer, command or team name word for word, that is the
            # utterance.  A spotted answer alone is not enough: "the pizzas | were
            # hot" would end at "pizzas" (a clue cut into a guess).
            assert self._utt_start is not None
            self._tried_pause = pause
            # One decoder: the spotter's utterance ends here (it restarts on the next
            # frame); a phrase spotted across this pause may be lost, which is why
            # only a short utterance's pause is tried, once.
            for hit in self._end_kws_utt():
                self._add_hit(hit, events, emit_at)
            if not self._has_cue():
                words = self._free_decode(
                    self._utt_start - PRE_ROLL, pause + POST_ROLL, spotted=self._hits
                )
                if self._has_urgent(words):
                    # Heard by the pause detector alone (the frame detector still
                    # hears noise as speech): only it can tell that speech resumed.
                    only_detector = self._follows_reply and self._frame_pause() is None
                    self._close_utterance(pause, events, emit_at, decoded=words)
                    self._early = True
                    self._follows_reply = self._resume_needs_detector = only_detector
        elif self._utt_start is not None and self.now - self._utt_start > MAX_UTTERANCE:
            self._close_utterance(self.now, events, emit_at, cut=True)
        elif self._utt_start is None:
            if self._hits and self.now - self._hits[-1].word.end > LONE_HIT_WAIT:
                start = self._hits[0].word.start
                self._utt_start = start
                self._close_utterance(self._hits[-1].word.end, events, emit_at, lone=True)
            self._trim_buffer()

    def _track_speech(self, speech: bool, samples: int) -> None:
        """Keep the current run of speech or non-speech frames (early closing)."""
        frame_start = self.now - samples / SAMPLE_RATE
        if speech:
            self._speech_run += 1
            self._silent_since = None
            if (
                self._early
                and self._utt_start is None
                and self._speech_run >= RESUME_FRAMES
                and (not self._resume_needs_detector or self._detector_hears_speech())
            ):
                # Speech after an early close: the rest of what was said is a new utterance.
                self._utt_start = round(
                    frame_start - (RESUME_FRAMES - 1) * samples / SAMPLE_RATE, 3
                )
                self._stop_following()
        else:
            self._speech_run = 0
            if self._silent_since is None:
                self._silent_since = frame_start

    def _pause_due(self) -> float | None:
        """The start of a pause to try, if one is due: a short utterance without letter
        or rhyme talk spotted has paused for EARLY_SILENCE after its last spotted
        phrase (tried once per pause), and it would be decoded anyway (free text
        wanted, or an urgent phrase spotted)."""
        if not EARLY_CLOSE or self._utt_start is None:
            return None
        pause = self._pause_start()
        if pause is None or self._tried_pause == pause or self._has_cue():
            return None
        if self._hits and pause < self._hits[-1].word.start:
            return None  # the silence began before the phrase: not its end
        if not self._context.free_text and not self._any_urgent(self._hits):
            return None
        if pause - self._utt_start > EARLY_MAX_UTTERANCE:
            return None
        return pause

    def _pause_start(self) -> float | None:
        """When the pause the stream is in began, once it has lasted EARLY_SILENCE, by
        the frame detector or the pause detector (the earlier); None if neither hears one.

        The frame detector's pause does not count in a noisy room (the level gate
        busy): there it may be a describer's breath between "a bar of chocolate |
        is sweet", and a clue cut there is a false "correct"."""
        frame = self._frame_pause()
        found = [] if frame is None else [frame]
        detector = self.pause_detector
        if self._follows_reply and detector is not None and detector.quiet_since is not None:
            quiet = detector.quiet_since
            if self.now - quiet >= EARLY_SILENCE and self._level_since(quiet) >= NOISY_PAUSE_DB:
                found.append(quiet)
        return min(found) if found else None

    def _level_since(self, t: float) -> float:
        """The mean level (dB) of the frames from audio time ``t`` to now."""
        levels = self._levels_since(t)
        return sum(levels) / len(levels)

    def _levels_since(self, t: float) -> list[float]:
        """The levels (dB) of the frames from audio time ``t`` to now (at least the last;
        at most the level gate's window)."""
        assert self._endpointer is not None
        seconds = self._endpointer.frame_bytes / 2 / SAMPLE_RATE
        n = max(1, math.ceil((self.now - t) / seconds))
        return self._endpointer.gate.recent_levels(n) or [0.0]

    def _frame_pause(self) -> float | None:
        """The frame detector's pause start, once it has lasted EARLY_SILENCE in a room
        that is not noisy; else None."""
        if self._silent_since is None or self.now - self._silent_since < EARLY_SILENCE:
            return None
        if self._endpointer is not None and self._endpointer.gate.busy:
            return None
        return self._silent_since

    def _follow_reply(self, frame: bytes) -> None:
        """Feed the pause detector while a short utterance holds a spotted answer
        (starting it, from :data:`DETECTOR_LEAD` before the answer, when one is
        spotted in a loud enough utterance).

        Not for a command or team name: "host, correct" has a comma's pause after
        the wake word, which the detector hears in noise, and trying the
        utterance there restarts the spotter in the middle of the command (two of
        the noisy command clips were lost so, ``benchmarks/referee.py --audio``)."""
        detector = self.pause_detector
        if detector is None:
            return
        if self._follows_reply:
            if self._utt_start is not None and self.now - self._utt_start > EARLY_MAX_UTTERANCE:
                self._stop_following()
                return
            detector.feed(frame)
            return
        if self._utt_start is None or self.now - self._utt_start > EARLY_MAX_UTTERANCE:
            return
        answers = [h.word for h in self._hits if self._is_answer(h.word.text)]
        if not answers:
            return
        kept_from = (self._t0 or 0.0) + self._buf_start / SAMPLE_RATE
        # From a little before the answer: the detector needs some context, not
        # the whole utterance.
        start = max(answers[0].start - DETECTOR_LEAD, self._utt_start - PRE_ROLL, kept_from)
        levels = sorted(self._levels_since(self._utt_start))
        if levels[len(levels) // 5] < NOISY_PAUSE_DB:
            # A fifth of the utterance's frames are as quiet as a pause that would
            # not count (NOISY_PAUSE_DB): the room is quiet, and the detector's CPU
            # (a fifth of the recogniser's, on the fixtures) is saved.  (Not the
            # quietest frame: the endpointer dates an utterance's start up to 0.3 s
            # before the sound.)
            return
        detector.reset(start)
        detector.feed(self._audio_between(start, self.now))
        self._follows_reply = True

    def _stop_following(self) -> None:
        self._follows_reply = False
        self._resume_needs_detector = False

    def _detector_hears_speech(self) -> bool:
        return self.pause_detector is not None and self.pause_detector.speaking

    def _has_cue(self) -> bool:
        """Whether letter or rhyme talk was spotted in the utterance (it goes on)."""
        return any(h.word.text in self.cue_phrases for h in self._hits)

    def _has_urgent(self, words: tuple[HeardWord, ...]) -> bool:
        """Whether a transcript holds an urgent phrase word for word."""
        texts = [w.text.lower() for w in words]
        for phrase in self._urgent:
            parts = phrase.split()
            n = len(parts)
            if n and any(texts[i : i + n] == parts for i in range(len(texts) - n + 1)):
                return True
        return False

    def _is_answer(self, phrase: str) -> bool:
        """Whether a hit on ``phrase`` is an answer (with or without an article)."""
        return _names_one_of(phrase, self._answers)

    def _any_urgent(self, hits: Iterable[_Hit]) -> bool:
        """Whether any of ``hits`` is on an urgent phrase (:meth:`_is_urgent`)."""
        return any(self._is_urgent(h.word.text) for h in hits)

    def _is_urgent(self, phrase: str) -> bool:
        """Whether a hit on ``phrase`` wants a quick answer: an answer (with or without
        an article), a command or a team name, not letter or rhyme talk or a form."""
        return _names_one_of(phrase, self._urgent)

    def _add_hit(self, hit: _Hit, events: list[RecognitionEvent], emit_at: float) -> None:
        self._hits.append(hit)
        start = self._utt_start if self._utt_start is not None else hit.word.start
        events.append(
            RecognitionEvent(
                kind="partial",
                words=(hit.word,),
                emitted_at=round(emit_at, 3),
                source="kws",
                confirmed=None,
                utterance=(round(min(start, hit.word.start), 3), round(emit_at, 3)),
            )
        )

    def _trim_buffer(self) -> None:
        keep = int((PRE_ROLL + 2 * LONE_HIT_WAIT + 1.0) * SAMPLE_RATE)
        excess = len(self._buf) // 2 - keep
        if excess > 0:
            del self._buf[: 2 * excess]
            self._buf_start += excess

    def _voiced(self, words: tuple[HeardWord, ...]) -> tuple[HeardWord, ...]:
        """``words`` with the pitch of each one's audio (``HeardWord.pitch``)."""
        return tuple(
            dataclasses.replace(w, pitch=median_pitch(self._audio_between(w.start, w.end)))
            for w in words
        )

    def _audio_between(self, start: float, end: float) -> bytes:
        t0 = self._t0 or 0.0
        first = max(self._buf_start, int((start - t0) * SAMPLE_RATE))
        last = min(self._buf_start + len(self._buf) // 2, int((end - t0) * SAMPLE_RATE))
        if last <= first:
            return b""
        a = 2 * (first - self._buf_start)
        return bytes(self._buf[a : a + 2 * (last - first)])

    def _free_decode(
        self, start: float, end: float, *, final: bool = False, spotted: Sequence[_Hit] = ()
    ) -> tuple[HeardWord, ...]:
        """The utterance's transcript: pocketsphinx's, or the second opinion's when
        only that one holds a word that matters now (``second_opinion.pick_transcript``).

        For a ``final`` transcript the second one may also be a witness
        (``second_opinion.Reading``): when a key word of pocketsphinx's does not
        stand against it (:meth:`_witnessed`), pocketsphinx's card-biased model
        wrote that word into the utterance, and the witness is read instead.
        ``self._witness`` keeps it for the spotted hits' check."""
        self._written_by = ""
        self._witness = None
        audio = self._audio_between(start, end)
        if len(audio) < 2 * SAMPLE_RATE // 10:
            return ()
        t0 = max(start, self._t0 or 0.0, (self._t0 or 0.0) + self._buf_start / SAMPLE_RATE)
        opinion = self.second_opinion
        short = len(audio) <= 2 * SAMPLE_RATE * THIRD_OPINION_SECONDS
        # A short utterance in which the spotter heard no answer, command or team name
        # (``spotted``) has its second transcript begun before pocketsphinx decodes:
        # pocketsphinx's transcript of it will likely hold no word that matters, so
        # the second one is read, and a guess it finds waits for both, written at once
        # on the two processors.  Otherwise, and for a long one (a clue's, whose
        # judgement is not awaited), only when asked: a transcript begun and not read
        # runs on as the host starts to answer, and played live through PulseAudio
        # that put off the host's "correct" by about 0.6 s in half the guesses
        # (``benchmarks/live_room.py``, session 58).
        write_second = (
            None
            if opinion is None
            else second_opinion_module.write_ahead(
                opinion, audio, t0, ahead=short and not self._any_urgent(spotted)
            )
        )
        words = self._sphinx_decode(audio, t0)
        self._decoded_audio = audio
        if opinion is None or write_second is None:  # the one with the other
            return words
        # one reading of the third transcriber's for this audio, asked for at most once
        # though both the command check and a missed word may want it
        third = (
            functools.cache(lambda: self._third_reading(audio, t0))
            if self.third_opinion is not None
            else None
        )
        try:
            reading = second_opinion_module.pick_transcript(
                words,
                write_second,
                self._keys,
                cross_check=final,
                write_third=third if final and short else None,
                check_command=third if short else None,
            )
        except Exception as exc:  # its own error types; a game must not stop here
            log.warning("second transcriber failed, pocketsphinx reads alone: %s", exc)
            self.second_opinion = None
            return words
        self._witness = reading.witness
        self._witness_agrees = reading.agrees
        if (
            reading.witness is not None
            and not reading.hits_only
            and any(
                self._keys.is_key(w.text)
                and not self._witnessed(self.phones_of(w.text), w.text, w.start, w.end)
                for w in reading.words
            )
        ):
            self._written_by = opinion.name
            return self._timed(reading.witness, audio, t0)
        by = self.third_opinion if reading.third and self.third_opinion else opinion
        self._written_by = by.name if reading.second else ""
        return self._timed(reading.words, audio, t0) if reading.second else reading.words

    def _third_reading(self, audio: bytes, t0: float) -> tuple[HeardWord, ...]:
        """The third transcriber's words; none, and no third transcriber from now
        on, when it fails (the other two go on reading)."""
        third = self.third_opinion
        if third is None:
            return ()
        try:
            return third.transcribe(audio, t0, self._lean)
        except Exception as exc:  # its own error types; a game must not stop here
            log.warning("third transcriber failed, the other two read alone: %s", exc)
            self.third_opinion = None
            return ()

    def _witnessed(
        self, phones: tuple[str, ...] | None, text: str, start: float, end: float
    ) -> bool:
        """Whether the witness speaks for ``text`` (a key word or a spotted phrase
        heard from ``start`` to ``end``): it wrote it, or a form of the card
        that sounds like it about there; or, where it wrote other words, those
        fit the sound worse than ``text`` in their place
        (:mod:`voice_host.speech.acoustic_check`:
        "rainbows" beats a garbled "grain bills"; "not" and "knot" tie, and the
        witness, which spells by the sentence, wins)."""
        witness = self._witness
        if witness is None:
            return True
        written = {w.text for w in witness}
        if set(text.split()) <= written:
            return True
        if not phones:
            return False
        a, b = self._witness_near(start, end)
        forms = [w for w in witness[a:b] if self._keys.is_key(w.text)]
        around = HeardWord(text, -math.inf, math.inf)
        if forms and (
            confirm.best_window_similarity(phones, around, forms, self.phones_of)
            >= confirm.CONFIRM_SIMILARITY
        ):
            return True
        if self._witness_agrees:
            return not self._sound_prefers_witness(phones, text, start, end)
        # A witness that did not follow pocketsphinx's other words: its words near the
        # card word must all be words the aligner can say, and fit the sound better
        if any(self.phones_of(w.text) is None for w in witness[a:b]):
            return True
        return not self._sound_prefers_witness(phones, text, start, end, weak=True)

    def _witness_near(self, start: float, end: float) -> tuple[int, int]:
        """The witness's words within :data:`WITNESS_SLACK` of ``start``-``end``, as
        the slice ``(a, b)`` of it (``a == b``: none)."""
        near = [
            i
            for i, w in enumerate(self._witness or ())
            if w.end > start - WITNESS_SLACK and w.start < end + WITNESS_SLACK
        ]
        return (near[0], near[-1] + 1) if near else (0, 0)

    def _sound_prefers_witness(
        self,
        phones: tuple[str, ...],
        text: str,
        start: float,
        end: float,
        weak: bool = False,
    ) -> bool:
        """Whether the witness's transcript fits the utterance's sound at least as
        well as it does with ``text`` in place of its closest-sounding words (one
        to three, near ``start``-``end``; its word times are estimates).

        ``weak`` (a witness that did not agree): ``text`` is tried in place of each
        of :data:`WEAK_RUNS` runs, and where the sound cannot be compared the
        witness loses."""
        witness = self._witness or ()
        first, last = self._witness_near(start, end)
        if first == last:  # nothing near: anywhere
            first, last = 0, len(witness)
        runs = confirm.closest_runs(
            phones, witness[first:last], self.phones_of, count=WEAK_RUNS if weak else 1
        )
        aligner = self._get_aligner() if runs else None
        if not runs or aligner is None:
            return not weak
        texts = [w.text for w in witness]
        return all(
            aligner.prefers_second(
                self._decoded_audio,
                [*texts[: a + first], *text.split(), *texts[b + first :]],
                texts,
                strict=weak,
            )
            for a, b in runs
        )

    def _get_aligner(self) -> acoustic_check.Aligner | None:
        """The forced aligner (made when first needed); None if it cannot be made."""
        if self._aligner is None:
            try:
                self._aligner = acoustic_check.Aligner(self._hmm, str(self._dict_path))
            except (RuntimeError, ValueError) as exc:
                log.warning("no acoustic check between transcripts: %s", exc)
                return None
        return self._aligner

    def _timed(
        self, words: tuple[HeardWord, ...], audio: bytes, t0: float
    ) -> tuple[HeardWord, ...]:
        """The second transcriber's ``words`` with the times of a forced alignment
        to ``audio`` (which starts at ``t0``): its own are shares of a line, which
        show no pause between words.  Unchanged when the alignment fails or does
        not give one segment a word."""
        aligner = self._get_aligner() if words else None
        if aligner is None:
            return words
        texts = [w.text for w in words]
        # Where the alignment fails or stops short, it is tried again only in a
        # quiet room: over chatter it places the words it was left in the chatter
        # (a "repeat" put after the speaker's own frames, and dropped with them).
        again = not self._room_busy()
        placed = _placed_words(aligner, audio, texts, again)
        if placed is None:
            return words
        if len(placed) < len(words):
            if not again:
                return words
            # pocketsphinx's alignment can stop short: it places the first words and
            # calls the rest of the audio silence (often the last words are another
            # voice, a guesser's cutting in).  The words it left are aligned again to
            # the audio after the last one it placed.
            done = placed[-1][1]
            rest = _placed_words(
                aligner, audio[done * BYTES_PER_FRAME :], texts[len(placed) :], again
            )
            if rest is None or len(placed) + len(rest) != len(words):
                return words
            placed += [(done + a, done + b) for a, b in rest]
        frames = len(audio) // BYTES_PER_FRAME  # a word placed in the faint tail ends here
        placed = [(min(a, frames), min(b, frames)) for a, b in placed]
        return tuple(
            dataclasses.replace(
                w, start=round(t0 + a / FRAME_RATE, 3), end=round(t0 + b / FRAME_RATE, 3)
            )
            for w, (a, b) in zip(words, placed, strict=True)
        )

    def _sphinx_decode(self, audio: bytes, t0: float) -> tuple[HeardWord, ...]:
        dec = self._decoder
        dec.activate_search(self._lm_name)
        dec.start_utt()
        dec.process_raw(audio, full_utt=True)
        dec.end_utt()
        words = []
        for seg in dec.seg() or ():  # None when the decoder produced no hypothesis
            text = seg.word.split("(", 1)[0].strip()
            if _is_filler(text):
                continue
            prob = float(seg.prob)
            words.append(
                HeardWord(
                    text=text,
                    start=round(t0 + seg.start_frame / FRAME_RATE, 3),
                    end=round(t0 + (seg.end_frame + 1) / FRAME_RATE, 3),
                    confidence=prob if 0.0 <= prob <= 1.0 else None,
                )
            )
        return tuple(words)

    def _close_utterance(
        self,
        end: float,
        events: list[RecognitionEvent],
        emit_at: float,
        *,
        cut: bool = False,
        lone: bool = False,
        decoded: tuple[HeardWord, ...] | None = None,
    ) -> None:
        for last in self._end_kws_utt():
            self._add_hit(last, events, emit_at)
        start = self._utt_start if self._utt_start is not None else end
        hits, self._hits = self._hits, []
        heard_from, heard_to = start, end
        speaker = self._speaker_span(start, end)
        if speaker is not None:
            start, end = speaker
            hits = [h for h in hits if self._within(h.word, start, end)]
        span = (round(start, 3), round(end, 3))
        free: tuple[HeardWord, ...] = ()
        was_decoded = False
        if decoded is not None:
            free, was_decoded = decoded, True
            self._witness = None
        elif self._context.free_text or hits:
            free = self._free_decode(
                heard_from - PRE_ROLL, heard_to + POST_ROLL, final=True, spotted=hits
            )
            was_decoded = True
        # A second transcriber's word times may be shares of its line (when the
        # forced alignment fails): in a quiet room its words are all kept, as
        # the trimmed edges are far quieter than any of them ("is that it"'s
        # last "it" was dropped so).
        keep_all = not self._room_busy() and bool(self._written_by)
        free = tuple(
            w
            for w in free
            if not self._from_the_room(w)
            and (speaker is None or keep_all or self._within(w, start, end))
        )
        ordered = sorted(hits, key=lambda h: h.word.start)
        verdicts = self._confirm_hits(ordered, free) if was_decoded else [None] * len(ordered)
        pitch = median_pitch(self._audio_between(start, end)) if ordered or free else None
        free = self._voiced(free)
        for hit, ok in zip(ordered, verdicts, strict=True):
            events.append(
                RecognitionEvent(
                    "final",
                    self._voiced((hit.word,)),
                    round(emit_at, 3),
                    "kws",
                    ok,
                    span,
                    pitch=pitch,
                )
            )
        if self._context.free_text and was_decoded:
            events.append(
                RecognitionEvent(
                    "final", free, round(emit_at, 3), _FREE, None, span, self._written_by, pitch
                )
            )
        elif not hits:
            events.append(RecognitionEvent("final", (), round(emit_at, 3), "kws", None, span))
        self._utt_start = self.now if cut else None
        self._stop_following()
        if not cut and not lone:
            self._trim_buffer()

    def _confirm_hits(self, hits: list[_Hit], free: tuple[HeardWord, ...]) -> list[bool]:
        """Whether each spotted hit stands against the utterance's transcript ``free``."""
        others, near = self._lm_other_words.get(self._lm_name, (frozenset(), frozenset()))
        teams = [" ".join(kws.words_of(t)) for t in self._context.team_names]
        verdicts: list[bool] = []
        overwritten: list[_Hit] = []  # hits the transcript wrote another word over
        for hit in hits:
            sim = confirm.best_window_similarity(hit.phones, hit.word, free, self.phones_of)
            first, _, rest = hit.word.text.partition(" ")
            article = len(self._phrase_phones(first)) if rest and first in _ARTICLES else 0
            ok = confirm.is_confirmed(
                hit.phones,
                sim,
                article,
                command=hit.word.text in self._commands,
                # Not over the second transcriber's words; for letter or rhyme talk,
                # which the spotter listens for on every card, not over no words at all.
                length_counts=not self._written_by
                and (bool(free) or hit.word.text not in self.cue_phrases),
            )
            if confirm.written_as_other(
                hit.phones[article:], hit.word, free, others, self.phones_of, near
            ):
                overwritten.append(hit)
                ok = False
            elif confirm.names_another(hit.word, free, teams):
                ok = False
            elif (
                not ok
                and len(hit.phones) - article >= SOUND_PHONES
                and hit.word.text not in teams
                and self._sound_stands_for(hit, free)
            ):
                ok = True
            # A transcript that followed the same voice and wrote nothing like
            # the phrase outweighs the phrase's length (``TRUST_PHONES``).
            if ok and not self._witnessed(hit.phones, hit.word.text, hit.word.start, hit.word.end):
                overwritten.append(hit)
                ok = False
            verdicts.append(ok)
        # "forks" and "pitchfork" spotted where the transcript wrote "for" over "fork":
        # the same sound, so the same verdict; so too "telephone's" where the witness
        # stood against "telephone" (the sound fits the witness's "xylophone" better
        # than "telephone", and "telephone's" no worse: one hearing of one word).
        return [
            ok
            and not any(
                confirm.extends(hit.word, len(hit.phones), o.word, len(o.phones))
                for o in overwritten
            )
            for hit, ok in zip(hits, verdicts, strict=True)
        ]

    def _sound_stands_for(self, hit: _Hit, free: tuple[HeardWord, ...]) -> bool:
        """Whether the utterance's sound fits its transcript ``free`` better, by
        :data:`SOUND_MARGIN`, with the spotted ``hit`` in place of the words there
        that sound most like it.  Only for a word of the card (not letter or rhyme
        talk or a command, which have checks of their own; team names are left
        out by the caller)."""
        text = hit.word.text
        if not free or text in self.cue_phrases or text in self._commands:
            return False
        near = [
            i
            for i, w in enumerate(free)
            if w.end > hit.word.start - SOUND_SLACK and w.start < hit.word.end + SOUND_SLACK
        ]
        if not near:
            return False
        found = confirm.closest_run(hit.phones, free[near[0] : near[-1] + 1], self.phones_of)
        aligner = self._get_aligner() if found is not None else None
        if found is None or aligner is None:
            return False
        a, b = found[0] + near[0], found[1] + near[0]
        texts = tuple(w.text for w in free)
        base = self._sound_score(aligner, texts)
        with_hit = self._sound_score(aligner, (*texts[:a], *text.split(), *texts[b:]))
        return base is not None and with_hit is not None and with_hit - base > SOUND_MARGIN

    def _sound_score(self, aligner: acoustic_check.Aligner, words: tuple[str, ...]) -> float | None:
        """The acoustic score of the last transcript's audio aligned to ``words``,
        kept while that audio is the last (the forms of a card spotted in one
        utterance are each tried against the same transcript).  The audio is
        aligned once unscored first, as in
        :meth:`~voice_host.speech.acoustic_check.Aligner.prefers_second`."""
        audio = self._decoded_audio
        if self._scores_of is not audio:
            self._scores_of, self._scores = audio, {}
            aligner.score(audio, words)
        if words not in self._scores:
            self._scores[words] = aligner.score(audio, words)
        return self._scores[words]

    def finish(self) -> list[RecognitionEvent]:
        """End of input: flush the utterance in progress and any lone hits."""
        events: list[RecognitionEvent] = []
        if self._endpointer is None:
            return events
        emit_at = self.now
        boundary = self._endpointer.finish(self._leftover)
        if boundary is not None and (not self._early or self._utt_start is not None):
            self._close_utterance(boundary.time, events, emit_at)
        elif self._hits or self._kws_open:
            for last in self._end_kws_utt():
                self._add_hit(last, events, emit_at)
            if self._hits:
                self._utt_start = self._hits[0].word.start
                self._close_utterance(self._hits[-1].word.end, events, emit_at, lone=True)
        self._end_kws_utt()
        self._reset_stream(None)
        return events
