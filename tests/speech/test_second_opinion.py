"""The second transcriber (Moonshine tiny-en) and the rule that picks a transcript."""

from __future__ import annotations

import wave
from pathlib import Path

import pytest

from voice_host.audio.chunk import AudioChunk
from voice_host.speech.events import HeardWord, ListenContext
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer
from voice_host.speech.replay import replay
from voice_host.speech.second_opinion import (
    Keys,
    MoonshineTranscriber,
    pick_transcript,
    spread_words,
    words_of_text,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"


def heard(text: str) -> tuple[HeardWord, ...]:
    return tuple(HeardWord(w, i * 0.3, i * 0.3 + 0.25) for i, w in enumerate(text.split()))


def test_words_of_text_read_as_the_referee_reads() -> None:
    # punctuation and case go, hyphens split, digits are spelled, apostrophes stay inside
    assert words_of_text("Is it a T-shirt? It's 5 letters, Ann's.") == [
        "is",
        "it",
        "a",
        "t",
        "shirt",
        "it's",
        "five",
        "letters",
        "ann's",
    ]
    assert words_of_text("...  !") == []


def test_spread_words_share_a_line_by_letters_and_drop_the_you_artefact() -> None:
    lines = [("You", 0.0, 0.064), ("Is it a pizza?", 0.064, 1.2)]
    words = spread_words(lines, start=10.0)
    assert [w.text for w in words] == ["is", "it", "a", "pizza"]
    assert words[0].start == pytest.approx(10.064)
    assert words[-1].end == pytest.approx(11.264)
    # "pizza" holds 5 of the 10 letters: half the line
    assert words[-1].end - words[-1].start == pytest.approx(0.6, abs=0.002)
    # the artefact may overlap the real line, and say more than "You"
    overlapping = [("You got", 0.0, 0.22), ("Is it her post?", 0.03, 1.5)]
    assert [w.text for w in spread_words(overlapping, 0.0)] == ["is", "it", "her", "post"]
    assert spread_words([], 1.0) == ()  # Moonshine wrote no line at all
    # a short line alone is kept: it is all there is
    assert [w.text for w in spread_words([("Car.", 0.1, 0.12)], 0.0)] == ["car"]
    # so is a short line well before the next one: a word of its own
    apart = [("Red!", 0.0, 0.3), ("Is it a car?", 0.8, 1.2)]
    assert [w.text for w in spread_words(apart, 0.0)][:2] == ["red", "is"]


KEYS = Keys.of(
    ["telescope", "the telescope", "telescopic", "red", "blue", "starts with", "host pass"],
    ["host pass", "host foul"],
)


def test_keys_split_card_words_from_commands() -> None:
    assert {"telescope", "telescopic", "red", "blue", "starts"} <= KEYS.card
    assert "the" not in KEYS.card and "with" not in KEYS.card
    assert KEYS.wake == {"host"} and KEYS.command == {"pass", "foul"}
    # a command word matters only with the wake word
    assert not KEYS.in_(heard("foul five every minute"))
    assert KEYS.in_(heard("host pass"))
    assert KEYS.in_(heard("it starts with t"))


@pytest.mark.parametrize(
    ("sphinx", "second", "chosen"),
    [
        # pocketsphinx wrote the card word: it stands, whatever the second one says
        ("is it a telescope", "is it a microscope", "sphinx"),
        # pocketsphinx wrote nothing that matters, Moonshine wrote the card word
        ("on really", "is it a telescope", "second"),
        # Moonshine's fluent invention names no card word: pocketsphinx stands
        ("the", "i'm going to have a lot of fun", "sphinx"),
        # a bare command word is no reason to keep pocketsphinx's transcript
        ("foul five every minute", "the telescope arrives every morning", "second"),
        # neither matters: pocketsphinx's (the referee's thresholds were set on it)
        ("is it a", "is it a cat", "sphinx"),
    ],
)
def test_pick_transcript(sphinx: str, second: str, chosen: str) -> None:
    words, is_second = pick_transcript(heard(sphinx), lambda: heard(second), KEYS)
    assert is_second == (chosen == "second")
    assert words == heard(second if is_second else sphinx)
    assert pick_transcript(heard(sphinx), None, KEYS) == (heard(sphinx), False)


def _clip(name: str) -> bytes:
    with wave.open(str(FIXTURES / name), "rb") as f:
        return f.readframes(f.getnframes())


def _chunks(clip: bytes) -> list[AudioChunk]:
    """0.1 s chunks, as the microphone gives them."""
    return [AudioChunk(clip[i : i + 3200], 16000, i / 32000) for i in range(0, len(clip), 3200)]


@pytest.mark.slow
def test_moonshine_writes_an_espeak_guess_pocketsphinx_cannot() -> None:
    # espeak's voice: pocketsphinx's transcript of this clip is "the return that"
    words = MoonshineTranscriber().transcribe(
        _clip("espeak-en-us+m3/guess__is_it_an_elephant.wav"), start=2.0
    )
    texts = [w.text for w in words]
    assert "elephant" in texts
    assert all(2.0 <= w.start < w.end <= 2.0 + 2.5 for w in words)
    assert MoonshineTranscriber().transcribe(b"\0\0" * 800, 0.0) == ()  # 50 ms: too short


@pytest.mark.slow
def test_the_backend_reads_moonshine_only_when_pocketsphinx_misses_the_card() -> None:
    context = ListenContext(answers=("elephant",), forms=("elephants",), free_text=True)
    chunks = _chunks(_clip("espeak-en-us+m3/guess__is_it_an_elephant.wav"))

    alone = PocketSphinxRecognizer(second_opinion=None)
    both = PocketSphinxRecognizer()
    assert both.second_opinion is not None
    free_alone = [e for e in replay(alone, iter(chunks), context) if e.source == "free"]
    free_both = [e for e in replay(both, iter(chunks), context) if e.source == "free"]
    assert not any("elephant" in e.text.split() for e in free_alone)
    assert {e.transcriber for e in free_alone} == {""}
    # the transcript that names the card is Moonshine's, and says so
    assert [e.transcriber for e in free_both if "elephant" in e.text.split()] == [
        "Moonshine tiny-en"
    ]


class _Broken:
    name = "broken"

    def transcribe(self, audio: bytes, start: float) -> tuple[HeardWord, ...]:
        raise RuntimeError("the model went away")


@pytest.mark.slow
def test_a_failing_second_transcriber_leaves_pocketsphinx_reading_alone(
    caplog: pytest.LogCaptureFixture,
) -> None:
    context = ListenContext(answers=("elephant",), forms=("elephants",), free_text=True)
    chunks = _chunks(_clip("espeak-en-us+m3/guess__is_it_an_elephant.wav"))
    recognizer = PocketSphinxRecognizer(second_opinion=_Broken())
    events = replay(recognizer, iter(chunks), context)
    assert any(e.source == "free" for e in events)  # the utterance was still transcribed
    assert recognizer.second_opinion is None
    assert "second transcriber failed" in caplog.text
