"""A guess in a room that is never quiet: the level gate lets the utterance end.

A steady noise bed at -26 dBFS (a fan, music, chatter at a laptop microphone's
gain) sounds like speech to the voice detector.  Without the gate the
utterance runs on until the backend's 10 s cut; with it, a guess 15 dB above
the room ends where the speaker stops.  Audio time throughout (a replay).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.audio.wav import read_wav
from voice_host.deck.knowledge import make_entry
from voice_host.referee import Phase, Referee, Situation, default_phone_lookup
from voice_host.speech import level_gate, pocketsphinx_backend
from voice_host.speech.events import HeardWord, ListenContext, RecognitionEvent
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer
from voice_host.speech.replay import replay

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
LEAD = 6.0  # seconds of room before the guess (the recogniser adapts to it)
pytestmark = pytest.mark.slow


def pink(n: int, seed: int) -> np.ndarray:
    """Unit-RMS pink noise."""
    spectrum = np.fft.rfft(np.random.default_rng(seed).standard_normal(n))
    spectrum /= np.sqrt(np.maximum(np.arange(len(spectrum)), 1))
    bed = np.fft.irfft(spectrum, n)
    return bed / np.sqrt(np.mean(bed**2))


def room_stream(clip: str, snr_db: float, seconds: float = 18.0) -> tuple[np.ndarray, float]:
    """The clip, ``snr_db`` above a -26 dBFS pink bed, at LEAD s; and where the clip ends."""
    speech = np.frombuffer(read_wav(FIXTURES / clip).samples, dtype="<i2").astype(np.float64)
    rms = 10 ** (-26 / 20) * 32768
    stream = pink(int(seconds * SAMPLE_RATE), seed=3) * rms
    loud = speech[np.abs(speech) > 0.05 * np.abs(speech).max()]
    at = int(LEAD * SAMPLE_RATE)
    stream[at : at + len(speech)] += speech * rms * 10 ** (snr_db / 20) / np.sqrt(np.mean(loud**2))
    data = np.clip(np.round(stream), -32768, 32767).astype("<i2")
    return data, LEAD + len(speech) / SAMPLE_RATE


def chunks(data: np.ndarray, block: int = 800) -> Iterator[AudioChunk]:
    for i in range(0, len(data) - block + 1, block):
        yield AudioChunk(data[i : i + block].tobytes(), SAMPLE_RATE, i / SAMPLE_RATE)


def fed(data: np.ndarray) -> PocketSphinxRecognizer:
    """A recogniser with no context that has heard ``data`` (its room, its frames)."""
    recognizer = PocketSphinxRecognizer()
    recognizer.start(ListenContext())
    for chunk in chunks(data):
        recognizer.feed(chunk)
    return recognizer


def finals(events: list[RecognitionEvent]) -> list[RecognitionEvent]:
    return [e for e in events if e.kind == "final" and e.source == "free"]


@pytest.mark.parametrize(
    "clip",
    [
        "kal16/guess__pyramid.wav",  # one word
        "rms/guess__is_it_a_telescope.wav",  # a question
        "slt/guess__is_it_a_kangaroo.wav",  # another voice
    ],
)
def test_a_guess_over_steady_noise_is_an_utterance_of_its_own(clip: str) -> None:
    data, clip_end = room_stream(clip, snr_db=15)
    events = replay(PocketSphinxRecognizer(), chunks(data), ListenContext(free_text=True))
    spans = [e.utterance for e in finals(events) if e.utterance is not None]
    around = [(s, e) for s, e in spans if s < clip_end and e > LEAD]
    assert len(around) == 1, spans
    start, end = around[0]
    assert start >= LEAD - 0.5  # the room before the guess is not part of it
    assert end <= clip_end + 0.5  # nor the room after it


@pytest.mark.parametrize("gate", [True, False])
def test_the_referee_counts_a_guess_over_steady_noise_only_with_the_gate(
    gate: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not gate:
        monkeypatch.setattr(level_gate, "MARGIN_DB", 0.0)
    data, _ = room_stream("rms/guess__is_it_a_telescope.wav", snr_db=15)
    entry = make_entry("Telescope", "Object")
    context = ListenContext(answers=entry.answers, forms=entry.forms, free_text=True)
    events = replay(PocketSphinxRecognizer(), chunks(data), context)
    referee = Referee(default_phone_lookup())
    judged = referee.observe_all(events, Situation(entry=entry, phase=Phase.TURN, teams=()))
    guesses = [j for j in judged if j.type == "guess"]
    # Without the gate the guess is inside ten seconds of "speech": a sentence, not a guess.
    assert bool(guesses) is gate, [(j.label, j.heard) for j in judged]


def test_without_the_gate_the_room_is_one_long_utterance(monkeypatch: pytest.MonkeyPatch) -> None:
    # The proof that the gate is what ends the utterance above.
    monkeypatch.setattr(level_gate, "MARGIN_DB", 0.0)
    data, clip_end = room_stream("kal16/guess__pyramid.wav", snr_db=15)
    context = ListenContext(answers=("pyramid",), free_text=True)
    events = replay(PocketSphinxRecognizer(), chunks(data), context)
    spans = [e.utterance for e in finals(events) if e.utterance is not None]
    around = [(s, e) for s, e in spans if s < clip_end and e > LEAD]
    assert around, spans
    # The guess is inside a stretch cut only at the backend's limit.
    assert all(e - s >= pocketsphinx_backend.MAX_UTTERANCE - 0.5 for s, e in around)
    assert not any(s >= LEAD - 0.5 and e <= clip_end + 0.5 for s, e in around)


def test_words_heard_in_the_room_but_not_from_a_player_are_dropped() -> None:
    # In a busy room a word whose every frame is at the room's level is chatter
    # across the room; a word from the player who stands out is kept.  In a quiet
    # room nothing is dropped.
    data, clip_end = room_stream("kal16/guess__pyramid.wav", snr_db=15)
    recognizer = fed(data[: int((clip_end + 0.2) * SAMPLE_RATE)])
    room_word = HeardWord("chatter", 3.0, 3.4)
    guess_word = HeardWord("pyramid", LEAD + 0.3, clip_end - 0.2)
    assert recognizer._from_the_room(room_word)
    assert not recognizer._from_the_room(guess_word)

    quiet = fed(np.zeros(5 * SAMPLE_RATE, dtype="<i2"))
    assert not quiet._from_the_room(HeardWord("anything", 3.0, 3.4))


def test_the_room_is_remembered_across_streams() -> None:
    # The live host stops listening while it speaks and starts a new stream after.
    # A guess 0.5 s into the new stream is still an utterance of its own: the gate
    # already knows the room is noisy (a fresh one would need 2 s to learn it, and
    # the room before the guess would open the utterance).
    recognizer = PocketSphinxRecognizer()
    replay(
        recognizer,
        chunks((pink(6 * SAMPLE_RATE, seed=5) * 10 ** (-26 / 20) * 32768).astype("<i2")),
        ListenContext(free_text=True),
    )
    data, clip_end = room_stream("kal16/guess__pyramid.wav", snr_db=15)
    after = data[int((LEAD - 0.5) * SAMPLE_RATE) :]  # the new stream starts 0.5 s before the guess
    events = replay(recognizer, chunks(after), ListenContext(free_text=True))
    spans = [e.utterance for e in finals(events) if e.utterance is not None]
    end_of_clip = clip_end - (LEAD - 0.5)
    around = [(s, e) for s, e in spans if s < end_of_clip and e > 0.5]
    assert len(around) == 1, spans
    start, end = around[0]
    assert start >= 0.3
    assert end <= end_of_clip + 0.5
