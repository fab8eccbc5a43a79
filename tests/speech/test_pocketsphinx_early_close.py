"""Early closing: a short utterance holding an answer ends after a short pause.

All times are audio time (the replay clock), so these assert behaviour, not speed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.audio.wav import WavSource
from voice_host.deck.knowledge import make_entry
from voice_host.speech import biased_lm, pocketsphinx_backend
from voice_host.speech.events import ListenContext, RecognitionEvent
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer
from voice_host.speech.replay import replay

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
#: Microphone-sized blocks, so an early close is not hidden by a long chunk.
BLOCK = 0.05

pytestmark = pytest.mark.slow


def chunks(*parts: Path | float) -> Iterator[AudioChunk]:
    """Clips and seconds of silence, one after the other, on one audio clock."""
    t = 0.0
    for part in parts:
        if isinstance(part, Path):
            for chunk in WavSource(part, chunk_seconds=BLOCK):
                yield AudioChunk(chunk.samples, chunk.rate, t)
                t = round(t + chunk.duration, 6)
        else:
            n = int(BLOCK * SAMPLE_RATE)
            for _ in range(round(part / BLOCK)):
                yield AudioChunk(bytes(2 * n), SAMPLE_RATE, t)
                t = round(t + BLOCK, 6)


def first_final(events: list[RecognitionEvent], word: str) -> RecognitionEvent:
    return next(
        e
        for e in events
        if e.kind == "final" and (e.source == "free" or e.confirmed) and word in e.text.split()
    )


def word_end(clip: str) -> float:
    """Where the clip's word ends (seconds into it), from the fixture manifest."""
    manifest = json.loads((FIXTURES / "manifest.json").read_text(encoding="utf-8"))
    found = next(c for c in manifest["clips"] if c["file"] == clip)
    return max(float(e["end"]) for e in found["expect"])


def waited(final: RecognitionEvent) -> float:
    """Seconds from the end of slt's "telescope" (played from audio time 0) to the
    final.  (Not from the utterance's reported end: that is its last loud frame,
    not where the pause was heard.)"""
    return final.emitted_at - word_end("slt/guess__telescope.wav")


#: The wait allowed after the word: EARLY_SILENCE of non-speech, the frame
#: detector's own lag and one block; the endpointer's 0.3 s window and its lag
#: come later.
EARLY_WAIT = pocketsphinx_backend.EARLY_SILENCE + 0.2


def spans(events: list[RecognitionEvent]) -> set[tuple[float, float]]:
    return {e.utterance for e in events if e.kind == "final" and e.utterance is not None}


@pytest.fixture(scope="module")
def recognizer() -> Iterator[PocketSphinxRecognizer]:
    yield PocketSphinxRecognizer()


TELESCOPE = ListenContext(answers=("telescope",), free_text=True)


def test_a_guess_is_final_soon_after_its_pause(recognizer: PocketSphinxRecognizer) -> None:
    events = replay(recognizer, chunks(FIXTURES / "slt" / "guess__telescope.wav", 1.0), TELESCOPE)
    final = first_final(events, "telescope")
    assert final.utterance is not None
    # Closed once EARLY_SILENCE of non-speech followed the word (plus one block and
    # the detector's lag), not after the endpointer's 0.3 s window.
    assert waited(final) <= EARLY_WAIT


def test_an_answer_with_a_stray_ending_closes_early_too(
    recognizer: PocketSphinxRecognizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With the card's forms in its context, each as likely as the answer (as
    # before rare forms weighed less, biased_lm.FORM_SHARE), the transcript of
    # slt's "telescope!" is "telescoped", which the referee counts as the answer
    # (a recogniser's stray ending, referee.matching.noisy_answer_forms): the
    # host must not wait for the endpointer's window to hear it.
    monkeypatch.setattr(biased_lm, "FORM_SHARE", 1.0)
    entry = make_entry("telescope", "Object")
    context = ListenContext.for_entry(entry)
    clip = FIXTURES / "slt" / "guess__telescope.wav"
    events = replay(recognizer, chunks(clip, 1.0), context)
    final = next(e for e in events if e.kind == "final" and e.source == "free")
    assert final.text == "telescoped", "the premise: this clip's transcript has the ending"
    assert final.utterance is not None
    assert waited(final) <= EARLY_WAIT


def test_without_early_closing_the_endpointer_decides_later(
    recognizer: PocketSphinxRecognizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The same clip with early closing off: proof that the rule above is what made
    # the final come sooner.
    monkeypatch.setattr(pocketsphinx_backend, "EARLY_SILENCE", 10.0)
    events = replay(recognizer, chunks(FIXTURES / "slt" / "guess__telescope.wav", 1.0), TELESCOPE)
    final = first_final(events, "telescope")
    assert final.utterance is not None
    assert waited(final) > EARLY_WAIT


def test_speech_after_an_early_close_is_the_next_utterance(
    recognizer: PocketSphinxRecognizer,
) -> None:
    # "telescope", a pause shorter than the endpointer's window, then another guess:
    # the first closes early and the second is its own utterance, also heard.
    context = ListenContext(answers=("telescope", "kangaroo"), free_text=True)
    events = replay(
        recognizer,
        chunks(
            FIXTURES / "slt" / "guess__telescope.wav",
            FIXTURES / "slt" / "guess__is_it_a_kangaroo.wav",
            1.0,
        ),
        context,
    )
    telescope = first_final(events, "telescope")
    kangaroo = first_final(events, "kangaroo")
    assert telescope.utterance is not None and kangaroo.utterance is not None
    assert telescope.utterance[1] <= kangaroo.utterance[0]
    assert "kangaroo" not in telescope.text


def quieter(source: Iterator[AudioChunk], gain: float) -> Iterator[AudioChunk]:
    """The chunks scaled by ``gain`` (0.1 is 20 dB quieter: a distant microphone)."""
    for chunk in source:
        samples = np.frombuffer(chunk.samples, dtype="<i2").astype(np.float64) * gain
        yield AudioChunk(samples.astype("<i2").tobytes(), chunk.rate, chunk.start_time)


@pytest.mark.parametrize(
    "clip, answer, gain",
    [
        # A plural then a short gap: cutting here turned this describer's foul into
        # a "correct" guess ("the rainbows" | "were bright").
        ("slt/clue_derivative__the_rainbows_were_bright.wav", "rainbow", 1.0),
        ("slt/clue_derivative__the_penguins_slide_on_the_ice.wav", "penguin", 1.0),
        # The same 20 dB quieter (a distant microphone): gaps look longer.
        ("slt/clue_derivative__the_penguins_slide_on_the_ice.wav", "penguin", 0.1),
        ("slt/clue_derivative__the_chocolates_were_in_a_box.wav", "chocolate", 0.1),
        # Rhyme talk is never urgent: the sentence stays whole.
        ("slt/rhyme__it_rhymes_with_go.wav", "snow", 1.0),
    ],
)
def test_clues_are_not_cut_at_their_short_pauses(
    recognizer: PocketSphinxRecognizer, clip: str, answer: str, gain: float
) -> None:
    context = ListenContext(answers=(answer,), forms=(answer + "s",), free_text=True)
    events = replay(recognizer, quieter(chunks(FIXTURES / clip, 1.0), gain), context)
    assert len(spans(events)) == 1
