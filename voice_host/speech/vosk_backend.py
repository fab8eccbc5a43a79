"""The vosk recogniser: a grammar steered to the card, confirmed by a free decoder.

vosk 0.3.45 facts this module is built around (see ``shared/design/speech.md``):

- One ``Model`` is loaded per model folder and shared (:func:`load_model`).
- A runtime grammar needs ``graph/HCLr.fst`` and ``graph/Gr.fst``.  Words not in
  the model's vocabulary are silently dropped by vosk, so every word is looked
  up first (:meth:`VoskRecognizer.missing` tells which were left out).
- A steered grammar hears its targets in everything: the grammar also holds
  ``[unk]`` (when the model has it) and distractors (common words and
  sound-alikes of the targets), and every target hit is checked against a free
  recogniser fed the same audio (``RecognitionEvent.confirmed``).
- Changing the grammar mid-utterance aborts the process: a new context is
  queued and applied only after ``Result``, ``FinalResult`` or ``Reset``.
- The grammar JSON must be written with ``ensure_ascii=False``: vosk's parser
  does not decode ``\\uXXXX`` escapes (non-ASCII words would all be "missing").
- ``SetPartialWords(True)`` leaves every partial empty in 0.3.45: partial
  events carry words without times (start = end = the emission time).
- Word times are seconds of audio fed to that recogniser since it was made;
  :class:`_Clock` turns them into audio time, gaps between chunks included.
"""

from __future__ import annotations

import functools
import json
import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.audio.pitch import median_pitch
from voice_host.errors import ModelError
from voice_host.speech.events import HeardWord, ListenContext, RecognitionEvent

log = logging.getLogger(__name__)

#: What vosk calls "some other word"; only models built with it know it.
UNK = "[unk]"
#: Common words added to every grammar so other speech has somewhere to go.
COMMON_DISTRACTORS: tuple[str, ...] = tuple(
    """a an the is it its it's i you he she we they this that what who yes no not
    and or but of to in on at for with from up down out over about like
    one two three four five big small good bad very really maybe think know
    thing something person place go get make do said says see look time there
    here now then when where why how okay right well oh um so just come call""".split()  # noqa: SIM905 - a word list reads better as text
)
#: How many sound-alikes to add per target word.
SOUND_ALIKES_PER_WORD = 6
#: Spelling similarity (rapidfuzz ratio, 0..100) at or above which a free transcript
#: window confirms a grammar hit when no phones are known.
CONFIRM_RATIO = 75.0
#: Phone similarity (0..1) at or above which a free transcript window confirms a hit.
CONFIRM_PHONES = 0.6
#: Seconds of slack around a hit when looking for the free recogniser's words.
CONFIRM_SLACK = 0.3
#: Seconds a free partial (which has no word times) is taken to cover.
PARTIAL_SPAN = 10.0
#: Seconds of recent audio kept to measure an utterance's pitch (the referee's
#: describer voice print): longer than any utterance a final reports.
RECENT_SECONDS = 15.0
#: Files a model folder needs before this backend will load it.
GRAMMAR_FILES: tuple[str, ...] = ("graph/HCLr.fst", "graph/Gr.fst")

_models: dict[Path, Any] = {}
_models_lock = threading.Lock()


def _vosk() -> Any:
    """Import vosk lazily (tests and keyboard play never need it)."""
    try:
        import vosk
    except ImportError as exc:  # pragma: no cover - vosk is a pinned dependency
        raise ModelError("the vosk package is not installed") from exc
    # We check vocabulary ourselves, and a model vosk cannot load is its exception, said in
    # one line: vosk's logs (to stderr), errors included, stay out of the terminal.
    vosk.SetLogLevel(-3)
    return vosk


def load_model(path: Path) -> Any:
    """The shared ``vosk.Model`` for ``path`` (loaded once per process)."""
    key = Path(path).resolve()
    with _models_lock:
        if key not in _models:
            if not key.is_dir():
                raise ModelError(f"{path}: no such vosk model folder")
            lacking = [f for f in GRAMMAR_FILES if not (key / f).is_file()]
            if lacking:
                raise ModelError(
                    f"{path}: not a vosk model with runtime grammar (missing {', '.join(lacking)})"
                )
            try:
                _models[key] = _vosk().Model(str(key))
            except Exception as exc:  # vosk raises a bare Exception on a bad model
                raise ModelError(f"{path}: vosk could not load the model ({exc})") from exc
        return _models[key]


# --------------------------------------------------------------------- parsing


@dataclass(frozen=True)
class _Span:
    """One stretch of the vosk clock that maps linearly onto audio time."""

    vosk_start: float
    audio_start: float


class _Clock:
    """Converts a recogniser's clock (seconds fed) into audio time, gaps included."""

    def __init__(self) -> None:
        self.fed = 0.0
        self._spans: list[_Span] = []
        self._next_audio: float | None = None

    def advance(self, chunk: AudioChunk) -> None:
        """Account for ``chunk`` being fed."""
        half_sample = 0.5 / chunk.rate
        if self._next_audio is None or abs(chunk.start_time - self._next_audio) > half_sample:
            self._spans.append(_Span(self.fed, chunk.start_time))
        self.fed += chunk.duration
        self._next_audio = chunk.end_time

    def audio_time(self, vosk_time: float) -> float:
        """Seconds of audio time for a vosk time (seconds fed)."""
        span = self._spans[0] if self._spans else _Span(0.0, 0.0)
        for s in self._spans:
            if s.vosk_start <= vosk_time + 1e-9:
                span = s
            else:
                break
        return span.audio_start + (vosk_time - span.vosk_start)

    @property
    def now(self) -> float:
        """Audio time just after the last sample fed."""
        return self._next_audio if self._next_audio is not None else 0.0


def parse_words(
    result_json: str, to_audio: Callable[[float], float], key: str = "result"
) -> tuple[tuple[HeardWord, ...], tuple[float, float] | None]:
    """Words from a vosk result (``key`` is ``result`` or ``partial_result``).

    Returns the words (``[unk]`` left out) and the span of every word the
    engine placed, ``[unk]`` included (the utterance), in audio time.
    """
    try:
        data = json.loads(result_json)
    except json.JSONDecodeError as exc:
        raise ModelError(f"vosk returned unreadable JSON: {exc}") from exc
    words: list[HeardWord] = []
    span: tuple[float, float] | None = None
    for item in data.get(key, []) or []:
        start = to_audio(float(item["start"]))
        end = to_audio(float(item["end"]))
        span = (start, end) if span is None else (span[0], end)
        text = str(item["word"]).lower()
        if text == UNK:
            continue
        conf = item.get("conf")
        words.append(HeardWord(text, start, end, None if conf is None else float(conf)))
    return tuple(words), span


# --------------------------------------------------------------------- grammar


@functools.cache
def _phone_index() -> tuple[dict[str, str], list[str], list[str]]:
    """(word -> phone string, phone strings, their words) over the CMU dictionary.

    Each phone becomes one character so rapidfuzz can compare sequences fast.
    Empty when the dictionary is unavailable.
    """
    try:
        from voice_host.deck.lexicon import get_lexicon

        prons = get_lexicon(use_wordfreq=False).prons
    except (ImportError, OSError):  # pragma: no cover - pocketsphinx ships the dictionary
        return {}, [], []
    alphabet: dict[str, str] = {}
    by_word: dict[str, str] = {}
    for word, variants in prons.items():
        if not word.isalpha():
            continue
        by_word[word] = "".join(
            alphabet.setdefault(p, chr(0x100 + len(alphabet))) for p in variants[0]
        )
    words = sorted(by_word)
    return by_word, [by_word[w] for w in words], words


def _phones(word: str) -> str | None:
    return _phone_index()[0].get(word)


def sound_alikes(word: str, limit: int = SOUND_ALIKES_PER_WORD) -> list[str]:
    """Dictionary words that sound nearly like ``word`` (one or two phones apart)."""
    by_word, strings, words = _phone_index()
    target = by_word.get(word)
    if not target:
        return []
    cutoff = 1 if len(target) <= 4 else 2
    found = process.extract(
        target, strings, scorer=Levenshtein.distance, score_cutoff=cutoff, limit=limit * 4
    )
    out = [words[i] for _, _, i in sorted(found, key=lambda f: (f[1], words[f[2]]))]
    return [w for w in out if w != word][:limit]


@dataclass(frozen=True)
class Grammar:
    """What a context became for vosk."""

    phrases: tuple[str, ...]
    """Phrases passed to vosk (targets, distractors, and ``[unk]`` when known)."""
    targets: tuple[str, ...]
    """Target phrases kept (every word in the model's vocabulary)."""
    missing: tuple[str, ...]
    """Target phrases left out because a word is not in the model's vocabulary."""

    def json(self) -> str:
        """The grammar as vosk wants it (UTF-8 kept: vosk does not decode ``\\u`` escapes)."""
        return json.dumps(list(self.phrases), ensure_ascii=False)


def build_grammar(
    context: ListenContext,
    known: Callable[[str], bool],
    distractors: Iterable[str] = COMMON_DISTRACTORS,
    alikes: Callable[[str], Sequence[str]] = sound_alikes,
) -> Grammar:
    """Turn ``context`` into a grammar of words the model knows.

    ``known(word)`` is the model's vocabulary lookup.  A target phrase with any
    unknown word is left out whole (vosk would drop just that word and listen
    for a different phrase) and reported in ``missing``.
    """
    targets: list[str] = []
    missing: list[str] = []
    for phrase in context.phrases():
        words = phrase.split()
        if words and all(known(w) for w in words):
            targets.append(" ".join(words))
        else:
            missing.append(phrase)
    target_words = {w for t in targets for w in t.split()}
    extra: dict[str, None] = {}
    for word in sorted(target_words):
        for alike in alikes(word):
            if alike not in target_words and known(alike):
                extra.setdefault(alike, None)
    for word in distractors:
        if word not in target_words and known(word):
            extra.setdefault(word, None)
    phrases = [*targets, *extra]
    if known(UNK):
        phrases.append(UNK)
    if missing:
        log.warning("vosk model lacks words, not listening for: %s", ", ".join(missing))
    return Grammar(tuple(phrases), tuple(targets), tuple(missing))


def confirms(target: str, hit: HeardWord, free_words: Sequence[HeardWord]) -> bool:
    """Whether the free transcript near ``hit`` agrees that ``target`` was said.

    Windows of consecutive free words overlapping the hit are compared with
    the target by phones (CMU dictionary) when every word has them, else by
    spelling.
    """
    near = [
        w
        for w in free_words
        if w.end > hit.start - CONFIRM_SLACK and w.start < hit.end + CONFIRM_SLACK
    ]
    target_phones = "".join(_phones(w) or "" for w in target.split()) or None
    if any(_phones(w) is None for w in target.split()):
        target_phones = None
    for i in range(len(near)):
        for j in range(i + 1, min(len(near), i + len(target.split()) + 2) + 1):
            window = near[i:j]
            text = " ".join(w.text for w in window)
            if text == target:
                return True
            phones = [_phones(w.text) for w in window]
            if target_phones is not None and all(p is not None for p in phones):
                got = "".join(p for p in phones if p is not None)
                if Levenshtein.normalized_similarity(target_phones, got) >= CONFIRM_PHONES:
                    return True
            elif fuzz.ratio(target, text) >= CONFIRM_RATIO:
                return True
    return False


# ------------------------------------------------------------------ recogniser


class VoskRecognizer:
    """A :class:`~voice_host.speech.events.Recognizer` on vosk.

    ``grammar`` events carry the steered words (``confirmed`` set for target
    hits); ``free`` finals carry the unsteered transcript (for foul phrases),
    emitted when ``context.free_text`` is set.  One instance belongs to one
    thread; the model is shared.
    """

    name = "vosk"

    def __init__(
        self,
        model_path: Path,
        *,
        distractors: Iterable[str] = COMMON_DISTRACTORS,
        alikes: Callable[[str], Sequence[str]] = sound_alikes,
        rate: int = SAMPLE_RATE,
    ) -> None:
        self._model = load_model(model_path)
        self._vosk = _vosk()
        self._distractors = tuple(distractors)
        self._alikes = alikes
        self._rate = rate
        self._context = ListenContext()
        self._grammar = self._compile(self._context)
        self._pending: ListenContext | None = None
        self._grammar_rec: Any = None
        self._free_rec: Any = None
        self._clock = _Clock()
        self._free_words: list[HeardWord] = []
        self._last_partial = ""
        self._recent: list[AudioChunk] = []  # the last RECENT_SECONDS of audio (pitch)

    # -- public ------------------------------------------------------------------

    def known(self, word: str) -> bool:
        """Whether ``word`` is in the model's vocabulary."""
        return int(self._model.vosk_model_find_word(word)) >= 0

    @property
    def grammar(self) -> Grammar:
        """The grammar in force now (a queued context is not in force yet)."""
        return self._grammar

    @property
    def missing(self) -> tuple[str, ...]:
        """Target phrases of the context in force that the model cannot hear."""
        return self._grammar.missing

    def start(self, context: ListenContext) -> None:
        """Begin listening for ``context`` with fresh recognisers (audio clock restarts)."""
        self._context = context
        self._grammar = self._compile(context)
        self._pending = None
        self._grammar_rec = self._vosk.KaldiRecognizer(
            self._model, float(self._rate), self._grammar.json()
        )
        # Not SetPartialWords(True): in 0.3.45 it leaves every partial empty.
        self._grammar_rec.SetWords(True)
        self._free_rec = self._vosk.KaldiRecognizer(self._model, float(self._rate))
        self._free_rec.SetWords(True)
        self._clock = _Clock()
        self._free_words = []
        self._last_partial = ""

    def prepare(self, contexts: Iterable[ListenContext]) -> None:
        """Nothing to learn ahead: a context's grammar holds only words the
        model already has, and is written when the context comes."""

    def set_context(self, context: ListenContext) -> None:
        """Queue ``context``; it takes effect at the next utterance boundary."""
        if self._grammar_rec is None:
            self.start(context)
            return
        self._pending = context

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        """Feed one chunk (16 kHz mono 16-bit); return the events it completed."""
        if self._grammar_rec is None:
            self.start(self._context)
        if chunk.rate != self._rate:
            raise ValueError(f"vosk recogniser runs at {self._rate} Hz, chunk is {chunk.rate} Hz")
        self._clock.advance(chunk)
        self._recent = [c for c in self._recent if c.end_time > chunk.end_time - RECENT_SECONDS]
        self._recent.append(chunk)
        events: list[RecognitionEvent] = []
        if self._free_rec.AcceptWaveform(chunk.samples):
            events += self._free_final(self._free_rec.Result())
        if self._grammar_rec.AcceptWaveform(chunk.samples):
            events += self._grammar_final(self._grammar_rec.Result())
            self._apply_pending()
        else:
            text = _partial_text(self._grammar_rec.PartialResult())
            if text and text != self._last_partial:
                now = self._clock.now
                words = _untimed(text, now, now)
                events.append(RecognitionEvent("partial", words, now, "grammar", None, None))
            self._last_partial = text
            if self._pending is not None and not text:
                # Nothing decoded since the last boundary: a Reset loses no speech.
                self._grammar_rec.Reset()
                self._apply_pending()
        return events

    def finish(self) -> list[RecognitionEvent]:
        """Flush both recognisers; apply a queued context."""
        if self._grammar_rec is None:
            return []
        events = self._free_final(self._free_rec.FinalResult())
        events += self._grammar_final(self._grammar_rec.FinalResult())
        self._apply_pending()
        return events

    # -- internals -----------------------------------------------------------------

    def _compile(self, context: ListenContext) -> Grammar:
        return build_grammar(context, self.known, self._distractors, self._alikes)

    def _apply_pending(self) -> None:
        """Switch grammar: only ever called right after Result/FinalResult/Reset."""
        if self._pending is None:
            return
        self._context = self._pending
        self._pending = None
        self._grammar = self._compile(self._context)
        self._grammar_rec.SetGrammar(self._grammar.json())

    def _free_final(self, result: str) -> list[RecognitionEvent]:
        words, span = parse_words(result, self._clock.audio_time)
        if not words:
            return []
        self._free_words = [w for w in self._free_words if w.end > self._clock.now - 30.0]
        self._free_words.extend(words)
        if not self._context.free_text:
            return []
        pitch = self._pitch(span)
        words = self._voiced(words)
        return [RecognitionEvent("final", words, self._clock.now, "free", None, span, pitch=pitch)]

    def _grammar_final(self, result: str) -> list[RecognitionEvent]:
        self._last_partial = ""
        words, span = parse_words(result, self._clock.audio_time)
        if not words:
            return []
        confirmed: bool | None = None
        free = [*self._free_words, *self._free_partial()]
        targets = self._grammar.targets
        for hit, target in _target_hits(words, targets):
            ok = confirms(target, hit, free)
            confirmed = ok if confirmed is None else (confirmed and ok)
        pitch = self._pitch(span)
        words = self._voiced(words)
        return [
            RecognitionEvent(
                "final", words, self._clock.now, "grammar", confirmed, span, pitch=pitch
            )
        ]

    def _voiced(self, words: tuple[HeardWord, ...]) -> tuple[HeardWord, ...]:
        """``words`` with the pitch of each one's audio (``HeardWord.pitch``)."""
        return tuple(replace(w, pitch=self._pitch((w.start, w.end))) for w in words)

    def _pitch(self, span: tuple[float, float] | None) -> float | None:
        """The median pitch of the recent audio within ``span`` (audio time)."""
        if span is None or self._rate != SAMPLE_RATE:
            return None
        parts = []
        for c in self._recent:
            a = max(0, round((span[0] - c.start_time) * c.rate))
            b = min(len(c.samples) // 2, round((span[1] - c.start_time) * c.rate))
            if b > a:
                parts.append(c.samples[2 * a : 2 * b])
        return median_pitch(b"".join(parts), self._rate) if parts else None

    def _free_partial(self) -> tuple[HeardWord, ...]:
        """The free recogniser's utterance in progress; vosk gives no times for it, so
        its words are taken to span the last :data:`PARTIAL_SPAN` seconds."""
        now = self._clock.now
        return _untimed(_partial_text(self._free_rec.PartialResult()), now - PARTIAL_SPAN, now)


def _partial_text(result_json: str) -> str:
    try:
        text = json.loads(result_json).get("partial", "")
    except json.JSONDecodeError as exc:
        raise ModelError(f"vosk returned unreadable JSON: {exc}") from exc
    return " ".join(w for w in str(text).lower().split() if w != UNK)


def _untimed(text: str, start: float, end: float) -> tuple[HeardWord, ...]:
    """Partial words: vosk 0.3.45 gives no per-word times for partials."""
    return tuple(HeardWord(w, start, end) for w in text.split())


def _target_hits(words: Sequence[HeardWord], targets: Sequence[str]) -> list[tuple[HeardWord, str]]:
    """Target phrases found in ``words``: (a word spanning the phrase, the phrase)."""
    hits: list[tuple[HeardWord, str]] = []
    texts = [w.text for w in words]
    for target in targets:
        parts = target.split()
        for i in range(len(texts) - len(parts) + 1):
            if texts[i : i + len(parts)] == parts:
                first, last = words[i], words[i + len(parts) - 1]
                hits.append((HeardWord(target, first.start, last.end, first.confidence), target))
    return hits
