"""A breath after a called-out answer is no part of the utterance (a quiet room).

A real microphone hears more than words: a breath, a click, a rustle after
the guess, 30-40 dB below it.  The voice detector holds the utterance open
over it, and the referee, which judges who spoke by an utterance's length,
read the time after the answer as words it did not hear ("about 3 words
follow it": a describer's foul; two of KLettres' British words in
``benchmarks/real_words.py``), or pocketsphinx wrote words for the breath.
A reply (up to ``SPEAKER_REPLY``) is trimmed to its frames within
``QUIET_EDGE_DB`` of its loudest, as a reply in a busy room is to the gate's
margin, and words written wholly outside that are dropped; a sentence is
not trimmed.  Audio time throughout (a replay).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.audio.wav import read_wav
from voice_host.deck.knowledge import make_entry
from voice_host.referee import Phase, Referee, Situation
from voice_host.speech import pocketsphinx_backend
from voice_host.speech.events import HeardWord, ListenContext, RecognitionEvent
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer
from voice_host.speech.replay import replay

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
CLIP = "slt/guess__bicycle.wav"
#: A describer's sentence, longer than a reply.
SENTENCE = "rms/clue_word__we_climbed_a_mountain_last_summer.wav"
#: Where the clip starts in the stream (seconds).
AT = 1.0
#: The breath: this long, starting this long after the word.
BREATH_SECONDS = 0.7
BREATH_AFTER = 0.2
pytestmark = pytest.mark.slow


def word_end() -> float:
    """Audio time the guess's word ends (the clip played at AT), from the manifest."""
    manifest = json.loads((FIXTURES / "manifest.json").read_text(encoding="utf-8"))
    found = next(c for c in manifest["clips"] if c["file"] == CLIP)
    return AT + max(float(e["end"]) for e in found["expect"])


def speech_end(clip: str) -> float:
    """Audio time the clip's last loud sample is played (the clip played at AT)."""
    speech = np.frombuffer(read_wav(FIXTURES / clip).samples, dtype="<i2").astype(np.float64)
    loud = np.flatnonzero(np.abs(speech) > 0.05 * np.abs(speech).max())
    return AT + (int(loud[-1]) + 1) / SAMPLE_RATE


def stream(breath_db: float | None, clip: str = CLIP) -> np.ndarray:
    """The clip over a microphone's -60 dBFS floor, then (``breath_db`` below the
    clip's loud part) a breath BREATH_AFTER its speech ends: pink noise, seeded."""
    rng = np.random.default_rng(3)
    speech = np.frombuffer(read_wav(FIXTURES / clip).samples, dtype="<i2").astype(np.float64)
    n = int((AT + len(speech) / SAMPLE_RATE + 2.0) * SAMPLE_RATE)
    out = rng.normal(0.0, 10 ** (-60 / 20) * 32768, n)
    at = int(AT * SAMPLE_RATE)
    out[at : at + len(speech)] += speech
    if breath_db is not None:
        loud = speech[np.abs(speech) > 0.05 * np.abs(speech).max()]
        level = np.sqrt(np.mean(loud**2)) / 10 ** (breath_db / 20)
        b0 = int((speech_end(clip) + BREATH_AFTER) * SAMPLE_RATE)
        b1 = b0 + int(BREATH_SECONDS * SAMPLE_RATE)
        spectrum = np.fft.rfft(rng.standard_normal(b1 - b0))
        spectrum /= np.sqrt(np.maximum(np.arange(len(spectrum)), 1))
        breath = np.fft.irfft(spectrum, b1 - b0)
        out[b0:b1] += breath / np.sqrt(np.mean(breath**2)) * level
    return np.clip(np.round(out), -32768, 32767).astype("<i2")


def chunks(data: np.ndarray, block: int = 800) -> Iterator[AudioChunk]:
    for i in range(0, len(data) - block + 1, block):
        yield AudioChunk(data[i : i + block].tobytes(), SAMPLE_RATE, i / SAMPLE_RATE)


ENTRY = make_entry("Bicycle", "Object")


def heard(breath_db: float | None) -> list[RecognitionEvent]:
    context = ListenContext.for_entry(ENTRY)
    return replay(PocketSphinxRecognizer(), chunks(stream(breath_db)), context)


def judged(events: list[RecognitionEvent]) -> list[str]:
    situation = Situation(entry=ENTRY, phase=Phase.TURN)
    judgements = Referee.default().observe_all(events, situation)
    return [j.label for j in judgements if j.type != "nothing"]


def final_spans(events: list[RecognitionEvent]) -> set[tuple[float, float]]:
    return {e.utterance for e in events if e.kind == "final" and e.utterance is not None}


def test_a_breath_33_db_down_is_left_out_and_the_guess_counts() -> None:
    events = heard(33.0)
    spans = final_spans(events)
    assert len(spans) == 1, spans
    (start, end) = spans.pop()
    # ends with the word (and the slack kept after its last loud frame), not the breath
    assert end <= word_end() + 0.25, (end, word_end())
    assert start < word_end() - 0.5
    assert judged(events) == ["guess"]


def test_without_the_quiet_edge_rule_the_breath_made_it_a_foul(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The proof that the rule above is what made the guess count: with every frame
    # kept, the utterance runs over the breath, pocketsphinx writes words for it
    # ("bicycle move if"), and the referee hears the describer going on.
    monkeypatch.setattr(pocketsphinx_backend, "QUIET_EDGE_DB", 200.0)
    events = heard(33.0)
    (_, end) = final_spans(events).pop()
    assert end >= speech_end(CLIP) + BREATH_AFTER + BREATH_SECONDS - 0.1
    assert judged(events) == ["foul:word"]


@pytest.mark.parametrize(("breath_db", "kept"), [(15.0, True), (33.0, False)])
def test_only_sound_beyond_the_margin_is_an_edge(breath_db: float, kept: bool) -> None:
    # The span the recogniser would report for the guess and the breath as one
    # utterance: 15 dB down is as loud as a word said softly, and stays in it;
    # 33 dB down is not (QUIET_EDGE_DB is 28).
    recognizer = PocketSphinxRecognizer()
    recognizer.start(ListenContext(free_text=True))
    for chunk in chunks(stream(breath_db)):
        recognizer.feed(chunk)
    breath_end = speech_end(CLIP) + BREATH_AFTER + BREATH_SECONDS
    found = recognizer._speaker_span(AT, breath_end + 0.3)
    assert found is not None
    _, end = found
    if kept:
        assert end >= breath_end - 0.05, (end, breath_end)
    else:
        assert end <= word_end() + 0.25, (end, word_end())


def test_the_guess_alone_ends_where_it_did() -> None:
    # No breath: the span of the guess alone, as before the rule.
    events = heard(None)
    spans = final_spans(events)
    assert len(spans) == 1
    (_, end) = spans.pop()
    assert word_end() - 0.1 <= end <= word_end() + 0.25
    assert judged(events) == ["guess"]


def test_a_sentence_is_not_trimmed() -> None:
    # Longer than a reply: its soft words at the edges may be the speaker's (in a
    # lecture, trimming sentences dropped "guys" and "that is to").
    recognizer = PocketSphinxRecognizer()
    recognizer.start(ListenContext(free_text=True))
    for chunk in chunks(stream(33.0, SENTENCE)):
        recognizer.feed(chunk)
    breath_end = speech_end(SENTENCE) + BREATH_AFTER + BREATH_SECONDS
    assert recognizer._speaker_span(AT, breath_end + 0.3) is None


class _SharesOfALine:
    """A second transcriber whose word times are even shares of the audio it was
    given, as Moonshine's are when the forced alignment fails: "is it a kettle"
    over the guess and the breath after it."""

    name = "shares"

    def transcribe(self, audio: bytes, start: float) -> tuple[HeardWord, ...]:
        words = ("is", "it", "a", "kettle")
        step = len(audio) / 2 / SAMPLE_RATE / len(words)
        return tuple(
            HeardWord(w, round(start + i * step, 3), round(start + (i + 1) * step, 3))
            for i, w in enumerate(words)
        )


def second_read(monkeypatch: pytest.MonkeyPatch) -> list[RecognitionEvent]:
    recognizer = PocketSphinxRecognizer(second_opinion=_SharesOfALine(), third_opinion=None)
    # the alignment failed: the line's own shares stand
    monkeypatch.setattr(recognizer, "_timed", lambda words, audio, t0: words)
    context = ListenContext.for_entry(make_entry("Kettle", "Object"))
    return replay(recognizer, chunks(stream(33.0)), context)


def test_the_second_transcribers_words_are_kept_past_a_quiet_edge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Its times are shares of its line, not where the words were said: the last
    # word's share falls on the breath, past the trimmed span, and is kept there.
    (line,) = [e for e in second_read(monkeypatch) if e.transcriber == "shares"]
    assert line.utterance is not None and line.utterance[1] <= word_end() + 0.25
    assert [w.text for w in line.words] == ["is", "it", "a", "kettle"]
    assert line.words[-1].start > line.utterance[1]


def test_in_a_busy_room_the_second_transcribers_words_past_the_speaker_go(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # There the speaker's frames are found against the room's level, and words
    # outside them are the room's chatter, whoever wrote them.
    monkeypatch.setattr(PocketSphinxRecognizer, "_room_busy", lambda self: True)
    (line,) = [e for e in second_read(monkeypatch) if e.transcriber == "shares"]
    assert "kettle" not in [w.text for w in line.words]
