"""A guess in a room full of chatter: the utterance is the speaker's, not the room's.

Four other voices talk on at -26 dBFS (the other players at a party, at a laptop
microphone's gain) while a guesser calls out the answer 20 dB louder.  The
level gate (:mod:`voice_host.speech.level_gate`) ends utterances in such a
room, but chatter that stands out here and there kept the voice detector in
speech for a second or two after the guess, and the referee, which judges who
spoke by an utterance's length, heard a long utterance: a describer's clue, a
foul.  In a busy room an utterance is trimmed to its speaker's frames, those
within the gate's margin of its loudest (:func:`level_gate.speaker_run`).
Audio time throughout (a replay).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.audio.wav import read_wav
from voice_host.deck.knowledge import make_entry
from voice_host.speech import level_gate, pocketsphinx_backend
from voice_host.speech.events import ListenContext, RecognitionEvent
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer
from voice_host.speech.replay import replay

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
LEAD = 8.0  # seconds of chatter before the guess (the gate learns the room is busy)
pytestmark = pytest.mark.slow


def samples(name: str) -> np.ndarray:
    return np.frombuffer(read_wav(FIXTURES / name).samples, dtype="<i2").astype(np.float64)


def chatter(n: int, seed: int) -> np.ndarray:
    """Unit-RMS chatter: four espeak voices saying clue sentences, overlapping."""
    manifest = json.loads((FIXTURES / "manifest.json").read_text(encoding="utf-8"))
    clues = [
        c["file"]
        for c in manifest["clips"]
        if c["kind"] == "clue" and c["noise"] is None and c["voice"].startswith("espeak")
    ]
    pick = random.Random(seed)
    bed = np.zeros(n)
    for _ in range(4):
        pos = pick.randrange(SAMPLE_RATE)
        while pos < n:
            s = samples(pick.choice(clues))
            k = min(len(s), n - pos)
            bed[pos : pos + k] += s[:k]
            pos += k + pick.randrange(1600, 8000)
    unit: np.ndarray = bed / np.sqrt(np.mean(bed**2))
    return unit


def room_stream(clip: str, snr_db: float, seconds: float = 14.0) -> tuple[np.ndarray, float]:
    """The clip ``snr_db`` above -26 dBFS chatter, at LEAD s; and where the clip ends."""
    speech = samples(clip)
    rms = 10 ** (-26 / 20) * 32768
    stream = chatter(int(seconds * SAMPLE_RATE), seed=7) * rms
    loud = speech[np.abs(speech) > 0.05 * np.abs(speech).max()]
    at = int(LEAD * SAMPLE_RATE)
    stream[at : at + len(speech)] += speech * rms * 10 ** (snr_db / 20) / np.sqrt(np.mean(loud**2))
    return np.clip(np.round(stream), -32768, 32767).astype("<i2"), LEAD + len(speech) / SAMPLE_RATE


def chunks(data: np.ndarray, block: int = 800) -> Iterator[AudioChunk]:
    for i in range(0, len(data) - block + 1, block):
        yield AudioChunk(data[i : i + block].tobytes(), SAMPLE_RATE, i / SAMPLE_RATE)


def heard(clip: str, entry_text: str) -> tuple[list[RecognitionEvent], float]:
    """The recogniser's events for the clip heard in chatter, and where it ends."""
    data, clip_end = room_stream(clip, snr_db=20)
    entry = make_entry(entry_text, "Object")
    context = ListenContext(answers=entry.answers, forms=entry.forms, free_text=True)
    return replay(PocketSphinxRecognizer(), chunks(data), context), clip_end


def around_the_guess(events: list[RecognitionEvent], clip_end: float) -> list[tuple[float, float]]:
    spans = {e.utterance for e in events if e.kind == "final" and e.utterance is not None}
    return sorted((s, e) for s, e in spans if s < clip_end and e > LEAD)


CASES = [
    ("awb/guess__shakespeare.wav", "Shakespeare"),  # one word
    ("slt/guess__bicycle.wav", "Bicycle"),
    ("kal16/guess__is_it_a_mouse.wav", "Mouse"),  # a question
    ("rms/guess__a_teacher.wav", "Teacher"),
]


@pytest.mark.parametrize(("clip", "entry_text"), CASES)
def test_a_guess_in_chatter_is_an_utterance_of_the_guessers_length(
    clip: str, entry_text: str
) -> None:
    events, clip_end = heard(clip, entry_text)
    around = around_the_guess(events, clip_end)
    assert len(around) == 1, around
    start, end = around[0]
    # The clips hold 0.3 s of silence either side of the speech.
    assert start >= LEAD and end <= clip_end, around
    # Nothing heard outside it is reported as part of it.
    for e in events:
        if e.utterance == (start, end):
            assert all(w.end > start and w.start < end for w in e.words), e


@pytest.mark.parametrize(("clip", "entry_text"), CASES[:2])
def test_without_trimming_the_chatter_makes_it_a_long_utterance(
    clip: str, entry_text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The proof that trimming is what shortens the utterance above: the chatter
    # before the guess opened it, and the referee heard a clue's length.
    monkeypatch.setattr(PocketSphinxRecognizer, "_speaker_span", lambda self, a, b: None)
    events, clip_end = heard(clip, entry_text)
    around = around_the_guess(events, clip_end)
    assert around and all(s < LEAD - 1.0 for s, _ in around), around


def test_a_describers_sentence_in_chatter_is_not_trimmed(monkeypatch: pytest.MonkeyPatch) -> None:
    # Longer than a reply (SPEAKER_REPLY): a sentence, whose soft words at its
    # edges may be the speaker's.  Real read speech keeps the gate busy too, and
    # trimming it dropped words ("to crack a | joke") and fouls with them
    # (benchmarks/real_voices.py).  So the utterance is as it is untrimmed.
    clip = "rms/clue_word__we_climbed_a_mountain_last_summer.wav"
    events, clip_end = heard(clip, "Mountain")
    with monkeypatch.context() as m:
        m.setattr(PocketSphinxRecognizer, "_speaker_span", lambda self, a, b: None)
        untrimmed, _ = heard(clip, "Mountain")
    around = around_the_guess(events, clip_end)
    assert around == around_the_guess(untrimmed, clip_end)
    assert all(e - s > pocketsphinx_backend.SPEAKER_REPLY for s, e in around), around


def test_a_quiet_room_trims_only_what_is_far_below_the_reply() -> None:
    # In a quiet room the margin is QUIET_EDGE_DB, not the gate's 12 dB: every
    # word of the guess stays, its softest ("is it a" before "mouse") too, and
    # only the silence either side goes (the clip holds 0.3 s of it each side;
    # "mouse" ends 1.31 s in).
    recognizer = PocketSphinxRecognizer()
    recognizer.start(ListenContext(free_text=True))
    data = (samples("kal16/guess__is_it_a_mouse.wav")).astype("<i2")
    for chunk in chunks(np.concatenate([np.zeros(SAMPLE_RATE, dtype="<i2"), data])):
        recognizer.feed(chunk)
    clip_end = 1.0 + len(data) / SAMPLE_RATE
    found = recognizer._speaker_span(1.0, clip_end)
    assert found is not None
    start, end = found
    assert 1.0 < start <= 1.0 + 0.3
    assert 1.0 + 1.31 <= end < clip_end


def test_the_speakers_frames_are_those_within_the_margin_of_the_loudest() -> None:
    # chatter at 60-66 dB around a guesser at 78-85 dB (a 12 dB margin): the guesser's
    # quieter syllable (74 dB) inside is kept, the chatter either side is not
    levels = [62, 66, 60, 78, 85, 74, 83, 64, 70, 61]
    assert level_gate.speaker_run(levels, 12.0) == (3, 6)
    # a pause inside the speaker's words is not a cut ("host, | correct")
    assert level_gate.speaker_run([80, 84, 40, 41, 40, 83, 79], 12.0) == (0, 6)
    # chatter as loud as the speaker cannot be told apart: nothing is trimmed
    assert level_gate.speaker_run([80, 62, 84, 63, 81], 12.0) == (0, 4)
