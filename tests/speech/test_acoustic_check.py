"""The acoustic check between two transcripts of one utterance (real audio)."""

from __future__ import annotations

import itertools
import math
import wave
from pathlib import Path

import pytest

from voice_host.speech.acoustic_check import Aligner
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"


def _audio(name: str) -> bytes:
    with wave.open(str(FIXTURES / name), "rb") as f:
        return f.readframes(f.getnframes())


@pytest.fixture(scope="module")
def aligner() -> Aligner:
    hmm, dict_path, _ = PocketSphinxRecognizer._find_model(None)
    return Aligner(str(hmm), str(dict_path))


def test_the_words_said_fit_the_sound_better(aligner: Aligner) -> None:
    # a real speaker: "seven of clubs"; the card Devon's biased model wrote "devon"
    audio = _audio("real/cmu/seven_of_clubs.wav")
    assert aligner.prefers_second(audio, ["devon", "of", "clubs"], ["seven", "of", "clubs"])
    assert not aligner.prefers_second(audio, ["seven", "of", "clubs"], ["devon", "of", "clubs"])
    # a synthetic voice Moonshine garbled: the card word said beats the garble
    audio = _audio("slt/clue_derivative__the_rainbows_were_bright.wav")
    said, garble = (
        ["the", "rainbows", "were", "bright"],
        ["the", "grain", "bills", "were", "bright"],
    )
    assert not aligner.prefers_second(audio, said, garble)


def test_words_that_sound_the_same_tie_and_the_second_wins(aligner: Aligner) -> None:
    audio = _audio("real/librivox/he_was_not_an_ill_disposed_young_man.wav")
    knot = ["he", "was", "knot", "an", "ill", "disposed", "young", "man"]
    not_ = ["he", "was", "not", "an", "ill", "disposed", "young", "man"]
    aligner.score(audio, knot)  # the normalisation settles on this recording
    assert aligner.score(audio, knot) == aligner.score(audio, not_)
    assert aligner.prefers_second(audio, knot, not_)
    assert aligner.prefers_second(audio, not_, knot)


def test_unknown_words_are_spelled_out_and_nothing_is_no_score(aligner: Aligner) -> None:
    audio = _audio("real/cmu/seven_of_clubs.wav")
    assert aligner.score(audio, ["sevvenn", "of", "clubs"]) is not None
    assert aligner.score(audio, []) is None
    assert not aligner.prefers_second(audio, ["seven"], [])


def test_each_segment_is_scored_once(aligner: Aligner) -> None:
    # pocketsphinx gives an alignment's last segment (the sentence end or a
    # trailing silence) the score of the word before it; summing both would
    # count the last word twice
    audio = _audio("real/cmu/seven_of_clubs.wav")
    words = ["seven", "of", "clubs"]
    aligner.score(audio, words)  # settle the feature normalisation first
    segments = aligner.segments(audio, words)
    assert segments is not None and segments[-1].word in ("</s>", "<sil>")
    assert segments[-1].ascore == segments[-2].ascore  # the copy
    own = sum(math.log(float(s.ascore)) for s in segments[:-1])
    assert aligner.score(audio, words) == pytest.approx(own)
    # the last word's score counts once: replacing it moves the score by its own
    # segment's difference, no more
    other = aligner.segments(audio, ["seven", "of", "gloves"])
    assert other is not None
    moved = aligner.score(audio, ["seven", "of", "gloves"])
    assert moved is not None
    assert moved == pytest.approx(sum(math.log(float(s.ascore)) for s in other[:-1]))


def test_the_second_transcribers_words_get_the_times_of_an_alignment() -> None:
    # A clue, 0.4 s of silence, then a guess in another voice: Moonshine's word
    # times are shares of its line and show no pause; the alignment's do.
    from voice_host.referee.text import synthetic_words

    clue = _audio("slt/clue__white_flakes_that_fall_from_the_sky_in_winter.wav")
    guess = _audio("kal16/guess__snow.wav")
    audio = clue + bytes(int(0.4 * 16000) * 2) + guess
    said = "white flakes that fall from the sky in winter snow"
    shared = synthetic_words(said, start=10.0, gap=0.0)  # evenly spread, no pause
    recognizer = PocketSphinxRecognizer(second_opinion=None, pause_detector=None)
    timed = recognizer._timed(shared, audio, 10.0)
    assert [w.text for w in timed] == said.split()
    winter, snow = timed[-2], timed[-1]
    assert snow.start - winter.end >= 0.4  # the silence between the two voices
    clue_seconds = len(clue) / 2 / 16000
    assert winter.end < 10.0 + clue_seconds < snow.start
    assert all(a.end <= b.start for a, b in itertools.pairwise(timed))
    # words the alignment cannot place one by one keep their own times
    assert recognizer._timed(shared[:3], b"", 10.0) == shared[:3]


def _speech_span(audio: bytes) -> tuple[int, int]:
    """First and last+1 sample of the 10 ms frames above -34 dB of the peak."""
    import numpy as np

    x = np.frombuffer(audio, "<i2").astype(float)
    n = len(x) // 160
    rms = np.sqrt(np.mean(x[: n * 160].reshape(n, 160) ** 2, axis=1))
    loud = np.nonzero(rms > 0.02 * np.max(np.abs(x)))[0]
    return int(loud[0]) * 160, (int(loud[-1]) + 1) * 160


def test_words_an_alignment_stops_short_of_are_aligned_after_the_ones_it_placed(
    aligner: Aligner,
) -> None:
    # A guesser (espeak-ng en-us+m3) calls out "mountain" 0.25 s after the
    # describer's (slt) clue ends, and the utterance closes 0.1 s after it, as an
    # early close does.  Aligned whole, pocketsphinx places the clue's words and
    # takes the rest for silence, or (on the audio ending so soon after the word)
    # fails: Moonshine's shares of its line then showed no pause, and the guess
    # was the describer's foul at the end of a 9-word sentence.
    from voice_host.referee.text import synthetic_words

    clue = _audio("slt/clue__a_very_high_hill_you_climb_with_ropes.wav")
    guess = _audio("espeak-en-us+m3/guess__mountain.wav")
    _, clue_end = _speech_span(clue)
    guess_start, guess_end = _speech_span(guess)
    pause = bytes(int(0.25 * 16000) * 2)
    audio = clue[: clue_end * 2] + pause + guess[guess_start * 2 : (guess_end + 1600) * 2]
    said = "a very high hill you climb with ropes mountain"
    words = said.split()
    whole = aligner.segments(audio, words)
    placed = [s.word.split("(")[0] for s in whole or () if not s.word.startswith("<")]
    assert "mountain" not in placed  # the case this is about
    shared = synthetic_words(said, start=10.0, gap=0.0)  # evenly spread, no pause
    recognizer = PocketSphinxRecognizer(second_opinion=None, pause_detector=None)
    timed = recognizer._timed(shared, audio, 10.0)
    assert [w.text for w in timed] == words
    ropes, mountain = timed[-2], timed[-1]
    clue_seconds = clue_end / 16000
    assert ropes.end <= 10.0 + clue_seconds + 0.05
    assert mountain.start >= 10.0 + clue_seconds + 0.2  # the pause between the voices
    assert mountain.end <= 10.0 + len(audio) / 2 / 16000
    assert all(a.end <= b.start for a, b in itertools.pairwise(timed))
