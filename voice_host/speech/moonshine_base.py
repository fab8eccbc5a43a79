"""A third transcriber for short utterances: Moonshine base-en, run by onnxruntime.

Moonshine base-en (61 M parameters, MIT licence) writes what was said far more
often than tiny-en (27 M) where both pocketsphinx and tiny-en made nothing of a
guess, a command or a team's claim: "host, pass" where tiny-en wrote "toast
pass", "a banana" where it wrote "amen" (``docs/benchmarks.md``, "A third
transcriber").  It costs about six times tiny-en's CPU, so it reads only a
short final utterance that neither of the others made anything of
(:func:`voice_host.speech.second_opinion.pick_transcript`).

The model files come from the ``moonshine-cpp`` wheel, which bundles them (its
own library is not loaded: its transcription leaks about 10 MB a call).  They
are run here with onnxruntime: the encoder once, then the merged decoder one
token at a time with its key/value cache, greedily, as Moonshine's reference
code does.  Its token list is ``tokenizer.bin``: one entry per token id, each
a length (one byte, or two for 128 and more) and that many bytes of UTF-8,
with U+2581 for a space.

The wheel's models keep their weights as 8-bit integers and turn them into
floats on every run (a Cast, Mul and Add before each product): four fifths
of the decoder's time.  So on first use each model is converted once, into
``$XDG_CACHE_HOME/voice-host/moonshine-base-en/`` (about 340 MB), with those
weights worked out ahead (onnxruntime's constant folding; the ``onnx``
package names the decoder's two branches, which onnxruntime's own export
leaves unnamed): a decoder step takes 9 ms instead of 46, the encoder 54 ms
for 2.7 s of speech instead of 126.  The conversion takes a few seconds and is
written to a temporary folder that is renamed into place, so a process
killed in the middle leaves nothing half made.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voice_host.audio.chunk import SAMPLE_RATE
from voice_host.errors import EngineError, ModelError
from voice_host.speech.events import HeardWord
from voice_host.speech.second_opinion import spread_words, words_of_text

#: The model's files, in the ``moonshine-cpp`` wheel's ``models/base-en``.
FILES = ("encoder_model.ort", "decoder_model_merged.ort", "tokenizer.bin")
#: Decoder layers and their attention heads and head width (Moonshine base).
LAYERS = 8
HEADS = 8
HEAD_SIZE = 52
#: Token ids: start of the transcript, its end.
START_TOKEN = 1
END_TOKEN = 2
#: At most this many tokens a second of audio (Moonshine's reference uses 6), so
#: a decoder that repeats itself over noise stops.
TOKENS_PER_SECOND = 6.5

#: A line leaning towards the phrases worth hearing (:meth:`MoonshineBaseTranscriber.text_of`)
#: chooses among the model's this many likeliest tokens at each step ...
LEAN_TOP = 30
#: ... adding this to the log-probability of a token that lies inside such a phrase ...
LEAN_BONUS = 3.0
#: ... and is taken when the model's log-probability of the whole line is at most this
#: far below that of its own line (``docs/benchmarks.md``, "A line that leans").
LEAN_MARGIN = 4.0
#: Words dropped from the front of a phrase to lean towards.
ARTICLES = frozenset(("the", "a", "an"))

_loaded: tuple[Any, Any, tuple[bytes, ...]] | None = None


def model_folder() -> Path:
    """Where the ``moonshine-cpp`` wheel keeps base-en (found without importing the
    package, which would load its own libraries); :class:`EngineError` without it."""
    spec = importlib.util.find_spec("moonshine_cpp")
    if spec is None or not spec.submodule_search_locations:
        raise EngineError("moonshine-cpp (Moonshine base-en's model) is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "models" / "base-en"


def cache_folder(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CACHE_HOME/voice-host/moonshine-base-en``, else under ``~/.cache``."""
    env = os.environ if env is None else env
    base = env.get("XDG_CACHE_HOME", "").strip()
    root = Path(base) if base else Path.home() / ".cache"
    return root / "voice-host" / "moonshine-base-en"


def _stamp(folder: Path) -> str:
    """What the converted models were made from: the wheel's files' names and sizes."""
    text = ";".join(f"{n}:{(folder / n).stat().st_size}" for n in FILES[:2])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _unfold(source: Path, target: Path, work: Path) -> None:
    """Convert one ``.ort`` model into an ONNX model with its weights as floats."""
    import onnx
    import onnxruntime

    plain = work / (source.stem + ".plain.onnx")
    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.optimized_model_filepath = str(plain)
    onnxruntime.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
    model = onnx.load(str(plain))
    for node in model.graph.node:
        for attribute in node.attribute:
            if attribute.type == onnx.AttributeProto.GRAPH and not attribute.g.name:
                attribute.g.name = f"{node.name or node.op_type}_{attribute.name}"
    named = work / (source.stem + ".named.onnx")
    onnx.save(model, str(named))
    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.optimized_model_filepath = str(target)
    onnxruntime.InferenceSession(str(named), options, providers=["CPUExecutionProvider"])
    plain.unlink()
    named.unlink()


def converted_models(folder: Path, cache: Path | None = None) -> tuple[Path, Path]:
    """The encoder and decoder of ``folder`` with their weights worked out ahead,
    converted on first use into ``cache`` (see the module's text).

    Raises :class:`EngineError` when the ``onnx`` package is missing, and
    :class:`ModelError` when the models cannot be converted or the cache folder
    cannot be written."""
    cache = cache_folder() if cache is None else cache
    made = cache / _stamp(folder)
    encoder, decoder = made / "encoder.onnx", made / "decoder.onnx"
    if encoder.is_file() and decoder.is_file():
        return encoder, decoder
    try:
        import onnx  # noqa: F401  (only to say early that the conversion cannot run)
    except ImportError as exc:
        raise EngineError(f"the onnx package is not installed: {exc}") from None
    try:
        cache.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".converting-", dir=cache))
    except OSError as exc:
        raise ModelError(
            f"cannot write Moonshine base-en's converted model to {cache}: {exc}"
        ) from None
    try:
        _unfold(folder / FILES[0], work / "encoder.onnx", work)
        _unfold(folder / FILES[1], work / "decoder.onnx", work)
        for old in cache.iterdir():  # models made from another version of the wheel
            if old.is_dir() and not old.name.startswith("."):
                shutil.rmtree(old, ignore_errors=True)
        work.rename(made)
    except Exception as exc:  # onnx, onnxruntime and the file system raise their own
        raise ModelError(f"cannot convert Moonshine base-en into {cache}: {exc}") from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return encoder, decoder


def read_tokens(data: bytes) -> tuple[bytes, ...]:
    """The token list of ``tokenizer.bin`` (see the module's text);
    :class:`ModelError` when it is cut short."""
    tokens: list[bytes] = []
    i = 0
    while i < len(data):
        size = data[i]
        i += 1
        if size >= 128:
            if i >= len(data):
                raise ModelError("Moonshine's tokenizer.bin is cut short")
            size = (size & 0x7F) | (data[i] << 7)
            i += 1
        if i + size > len(data):
            raise ModelError("Moonshine's tokenizer.bin is cut short")
        tokens.append(data[i : i + size])
        i += size
    return tuple(tokens)


def session_options(onnxruntime: Any) -> Any:
    """The options both models' sessions are made with.

    One thread, as for tiny-en: the spotter and the announcer need the other core.

    No memory patterns: with them onnxruntime plans each run's buffers once for
    every new set of input shapes and keeps that plan for the session's life,
    never dropping one.  The encoder's input is the utterance's audio, so every
    new length in samples kept another plan, about 13 KB: 800 utterances of
    random length grew the heap in use by 10 MB, without levelling off (in play
    the lengths fall on the voice detector's 30 ms frames and repeat, about a
    megabyte in all).  Without them the heap stays flat, the transcripts are
    the same to the letter and the CPU the same or a little less
    (``docs/benchmarks.md``, "What still grows").
    """
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.enable_mem_pattern = False
    return options


def _load() -> tuple[Any, Any, tuple[bytes, ...]]:
    """The encoder and decoder sessions and the token list, loaded once a process."""
    global _loaded
    if _loaded is None:
        folder = model_folder()  # its files checked by the transcriber that asks
        try:
            import onnxruntime
        except (ImportError, OSError) as exc:
            raise EngineError(f"onnxruntime is not usable: {exc}") from None
        encoder_file, decoder_file = converted_models(folder)
        options = session_options(onnxruntime)
        try:
            encoder = onnxruntime.InferenceSession(
                str(encoder_file), options, providers=["CPUExecutionProvider"]
            )
            decoder = onnxruntime.InferenceSession(
                str(decoder_file), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own error types
            # a damaged conversion (a disk that filled up, a file cut short): removed,
            # so that the next start converts it afresh rather than failing for ever
            shutil.rmtree(encoder_file.parent, ignore_errors=True)
            raise ModelError(
                f"cannot load Moonshine base-en's converted model at {encoder_file.parent} "
                f"(removed; it is made again next time): {exc}"
            ) from None
        tokens = read_tokens((folder / FILES[2]).read_bytes())
        _loaded = (encoder, decoder, tokens)
    return _loaded


class MoonshineBaseTranscriber:
    """:class:`voice_host.speech.second_opinion.Transcriber` on Moonshine base-en.

    Made cheaply (the model's files are only found); the model is loaded by
    :meth:`load` (a recogniser's ``prepare``, before a game's first card) or
    else on the first :meth:`transcribe`, about 1.2 s (a few seconds more the first time
    on a machine: the conversion).  Raises :class:`EngineError` when the
    model's wheel or onnxruntime is missing, :class:`ModelError` when the model
    does not load or convert.
    """

    name = "Moonshine base-en"

    def __init__(self) -> None:
        folder = model_folder()
        if not all((folder / n).is_file() for n in FILES):
            raise ModelError(f"Moonshine base-en is incomplete at {folder}")
        for package in ("onnxruntime", "onnx"):
            if importlib.util.find_spec(package) is None:
                raise EngineError(f"{package} is not installed (Moonshine base-en needs it)")
        self._encoder: Any = None
        self._decoder: Any = None
        self._tokens: tuple[bytes, ...] = ()
        self._texts: tuple[str, ...] = ()
        self._outputs: list[str] = []

    def load(self) -> None:
        """Load the model now (converted on first use; see the module's text)."""
        if self._encoder is None:
            self._encoder, self._decoder, self._tokens = _load()
            # each token as a line leaning towards phrases reads it: lower case, a
            # space for the model's mark of a word's start, punctuation dropped (so
            # that "host, pass" follows "host pass")
            self._texts = tuple(
                "".join(
                    c
                    for c in t.decode("utf-8", errors="replace").replace("\u2581", " ").lower()
                    if c.isalpha() or c in " '"
                )
                for t in self._tokens
            )
            self._outputs = [o.name for o in self._decoder.get_outputs()]

    def text_of(self, samples: Any, lean: Sequence[str] = ()) -> str:
        """What Moonshine base-en writes for ``samples`` (float32, 16 kHz mono).

        With ``lean`` (phrases worth hearing now, lower case: the card's answers and
        forms, the commands, the team names) a line that holds none of them is
        written a second time leaning towards them (:class:`Leaning`), and that
        line is taken when it holds one and the model finds it nearly as likely as
        its own (:data:`LEAN_MARGIN`).
        """
        self.load()
        hidden = self._encoder.run(None, {"input_values": samples[None, :]})[0]
        most = int(samples.size / SAMPLE_RATE * TOKENS_PER_SECOND) + 1
        free = self._decode(hidden, most)
        line = self._line(free)
        leaning = Leaning.towards(lean)
        if leaning.targets and not leaning.held_by(line):
            leant = self._decode(hidden, most, leaning, after=free)
            other = self._line(leant)
            if leaning.held_by(other) and leant.score >= free.score - LEAN_MARGIN:
                return other
        return line

    def _decode(
        self, hidden: Any, most: int, leaning: Leaning | None = None, after: _Pass | None = None
    ) -> _Pass:
        """A line for the encoded audio and the model's log-probability of it: greedy,
        or leaning (:meth:`Leaning.token`).

        ``after``: the greedy pass over the same audio.  As long as the leaning line
        chooses the tokens that one chose, its steps are read from it rather than run
        again (the same tokens in give the same probabilities out): the decoder runs
        only from the first token where the two part."""
        import numpy as np

        feeds: dict[str, Any] = {"encoder_hidden_states": hidden}
        empty = np.zeros((1, HEADS, 0, HEAD_SIZE), dtype=np.float32)
        for layer in range(LAYERS):
            for part in ("decoder", "encoder"):
                feeds[f"past_key_values.{layer}.{part}.key"] = empty
                feeds[f"past_key_values.{layer}.{part}.value"] = empty
        done = _Pass()
        token = START_TOKEN
        text = ""
        following = after is not None
        for step in range(most):
            if after is not None and following and step < len(after.tokens):
                log_probs, state = after.log_probs[step], after.states[step]
            else:
                feeds["input_ids"] = np.array([[token]], dtype=np.int64)
                feeds["use_cache_branch"] = np.array([step > 0])
                outputs = self._decoder.run(None, feeds)
                # the decoder's own keys grow each step; the encoder's are made once
                for name, value in zip(self._outputs[1:], outputs[1:], strict=True):
                    if step == 0 or ".decoder." in name:
                        feeds[name.replace("present", "past_key_values")] = value
                logits = outputs[0][0, -1].astype(np.float64)
                top = float(logits.max())
                log_probs = logits - (top + float(np.log(np.exp(logits - top).sum())))
                state = dict(feeds)
            if leaning is not None and not leaning.held_by(text):
                token = leaning.token(log_probs, text, self._texts)
            else:  # once the line holds a phrase it goes on as the model likes
                token = int(log_probs.argmax())
            if after is not None and following and token != after.tokens[step]:
                following = False
                feeds = dict(state)  # the keys after this step, the same for both lines
            done.tokens.append(token)
            done.log_probs.append(log_probs)
            done.states.append(state)
            done.score += float(log_probs[token])
            if token == END_TOKEN:
                break
            if token < len(self._tokens):
                text += self._texts[token]  # its punctuation dropped: see _texts
        return done

    def _line(self, done: _Pass) -> str:
        """The text of a pass's tokens."""
        written = b"".join(
            self._tokens[t] for t in done.tokens if t != END_TOKEN and t < len(self._tokens)
        )
        return written.decode("utf-8", errors="replace").replace("\u2581", " ").strip()

    def transcribe(
        self, audio: bytes, start: float, lean: Sequence[str] = ()
    ) -> tuple[HeardWord, ...]:
        import numpy as np

        if len(audio) < 2 * SAMPLE_RATE // 10:
            return ()
        samples = np.frombuffer(audio, dtype=np.int16).astype(np.float32) / 32768.0
        try:
            line = self.text_of(samples, lean)
        except (EngineError, ModelError):
            raise
        except Exception as exc:  # onnxruntime raises its own error types
            raise EngineError(f"Moonshine base-en failed: {exc}") from None
        return spread_words([(line, 0.0, samples.size / SAMPLE_RATE)], start)


@dataclass
class _Pass:
    """What one pass of the decoder wrote, step by step."""

    tokens: list[int] = field(default_factory=list)
    """The token chosen at each step (the last may be :data:`END_TOKEN`)."""
    log_probs: list[Any] = field(default_factory=list)
    """The model's log-probabilities of every token at each step."""
    states: list[dict[str, Any]] = field(default_factory=list)
    """The decoder's inputs after each step (its keys and values so far)."""
    score: float = 0.0
    """The model's log-probability of the tokens chosen."""


@dataclass(frozen=True)
class Leaning:
    """The phrases a line leans towards (:meth:`MoonshineBaseTranscriber.text_of`).

    Made by :meth:`towards`: as the referee reads words
    (:func:`~voice_host.speech.second_opinion.words_of_text`), a leading article
    dropped ("the telescope" leans as "telescope"), without duplicates.
    """

    targets: tuple[str, ...] = ()
    """The phrases, their words joined by one space."""
    starts: frozenset[str] = frozenset()
    """Every beginning of a phrase after a space (" c", " ca", ... " carpet")."""

    @classmethod
    def towards(cls, phrases: Iterable[str]) -> Leaning:
        seen: dict[str, None] = {}
        for phrase in phrases:
            words = words_of_text(phrase)
            if len(words) > 1 and words[0] in ARTICLES:
                words = words[1:]
            if words:
                seen.setdefault(" ".join(words), None)
        targets = tuple(seen)
        starts = frozenset(f" {t}"[:n] for t in targets for n in range(2, len(t) + 2))
        return cls(targets, starts)

    def held_by(self, line: str) -> bool:
        """Whether ``line`` holds one of the phrases as whole words."""
        said = " " + " ".join(words_of_text(line)) + " "
        return any(f" {t} " in said for t in self.targets)

    def inside(self, text: str, piece: str) -> bool:
        """Whether ``piece``, written after ``text`` (the line so far, lower case, its
        letters, apostrophes and spaces only), lies wholly inside one of the phrases
        begun at a word's start; a piece with any other character never does."""
        if not piece.strip() or not all(c.isalpha() or c in " '" for c in piece):
            return False
        line = text + piece
        longest = min(len(line), max(map(len, self.targets), default=0) + 1)
        return any(line[-n:] in self.starts for n in range(len(piece), longest + 1))

    def token(self, log_probs: Any, text: str, token_texts: Sequence[str]) -> int:
        """The next token: among the model's :data:`LEAN_TOP` likeliest, the one whose
        log-probability, plus :data:`LEAN_BONUS` when it lies :meth:`inside` a phrase,
        is highest.  ``token_texts``: each token's text, lower case, with a space
        where the model marks a word's start."""
        import numpy as np

        top = np.argpartition(-log_probs, min(LEAN_TOP, log_probs.size - 1))[:LEAN_TOP]
        best, best_score = int(log_probs.argmax()), -np.inf
        for candidate in (int(t) for t in top):
            score = float(log_probs[candidate])
            if candidate < len(token_texts) and self.inside(text, token_texts[candidate]):
                score += LEAN_BONUS
            if score > best_score:
                best, best_score = candidate, score
        return best


def default_third_transcriber() -> MoonshineBaseTranscriber | None:
    """Moonshine base-en when it loads, else None (the other two read alone)."""
    try:
        return MoonshineBaseTranscriber()
    except (EngineError, ModelError):
        return None
