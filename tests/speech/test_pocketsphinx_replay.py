"""The real pocketsphinx backend on the recorded fixtures (replayed on audio time)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.audio.silence import SilenceSource
from voice_host.audio.wav import WavSource, read_wav
from voice_host.speech.events import ListenContext, RecognitionEvent
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer
from voice_host.speech.replay import AudioClock, replay

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
#: Voices the embedded model hears well when clean (espeak voices and awb are
#: measured in the benchmark, not asserted here).
STEADY_VOICES = ("slt", "rms", "kal16")

pytestmark = pytest.mark.slow


def manifest_clips() -> list[dict[str, Any]]:
    clips: list[dict[str, Any]] = json.loads((FIXTURES / "manifest.json").read_text())["clips"]
    return clips


@pytest.fixture(scope="module")
def recognizer() -> Iterator[PocketSphinxRecognizer]:
    yield PocketSphinxRecognizer()


def spotted(events: list[RecognitionEvent], word: str, *, confirmed: bool = False) -> bool:
    return any(
        e.kind == "final"
        and e.source == "kws"
        and any(w.text == word for w in e.words)
        and (e.confirmed or not confirmed)
        for e in events
    )


def answer_context(word: str) -> ListenContext:
    return ListenContext(answers=(word,), free_text=False)


def in_free_text(events: list[RecognitionEvent], word: str) -> bool:
    return any(e.source == "free" and word in e.text for e in events)


def test_guesses_are_heard_and_clues_without_the_word_are_not(
    recognizer: PocketSphinxRecognizer,
) -> None:
    clips = [
        c
        for c in manifest_clips()
        if c["noise"] is None and c["voice"] in STEADY_VOICES and c["kind"] in ("guess", "clue")
    ]
    positives = [c for c in clips if c["judgement"] == "guess"]
    negatives = [c for c in clips if c["kind"] == "clue" and c["judgement"] == "nothing"]
    assert len(positives) >= 20 and len(negatives) >= 8
    missed, unconfirmed, not_written, false, false_written = [], [], [], [], []
    for clip in positives:
        word = clip["expect"][0]["word"]
        context = ListenContext(answers=(word,), free_text=True)
        events = replay(recognizer, WavSource(FIXTURES / clip["file"]), context)
        if not spotted(events, word):
            missed.append(clip["file"])
        elif not spotted(events, word, confirmed=True):
            unconfirmed.append(clip["file"])
        if not in_free_text(events, word):
            not_written.append(clip["file"])
    for clip in negatives:
        word = clip["entry"].lower()
        context = ListenContext(answers=(word,), free_text=True)
        events = replay(recognizer, WavSource(FIXTURES / clip["file"]), context)
        if spotted(events, word, confirmed=True):
            false.append(clip["file"])
        if in_free_text(events, word):
            false_written.append(clip["file"])
    assert len(missed) <= len(positives) // 10, f"missed: {missed}"
    # Measured with the context-biased free decode: 4 of 40 guesses lack a
    # confirmed hit (11 of 40 with the full en-us model); 8 would be a regression.
    assert len(missed) + len(unconfirmed) <= len(positives) // 5, f"unconfirmed: {unconfirmed}"
    # The biased transcript writes the card word in 37 of 40 guesses (the full
    # model wrote "camper", "his surrogate" ...): it may lose a few, not a quarter.
    assert len(not_written) <= len(positives) // 4, f"not in the transcript: {not_written}"
    # Measured: 0 or 1 of 20, depending on the order clips come in (the cepstral
    # mean keeps adapting).  The one: "tomb in" spotted as "pyramid", a 7-phone
    # phrase trusted without the transcript (speech/confirm.py TRUST_PHONES).
    assert len(false) <= 1, f"heard where not said: {false}"
    # Measured: 1 of 20 clues ("using their voice" -> "singer"); the bias must stay moderate.
    assert len(false_written) <= 2, f"written where not said: {false_written}"


def test_a_hit_is_partial_first_then_final_and_confirmed(
    recognizer: PocketSphinxRecognizer,
) -> None:
    clip = FIXTURES / "slt" / "guess__is_it_a_kangaroo.wav"
    events = replay(recognizer, WavSource(clip), answer_context("kangaroo"))
    kinds = [(e.kind, e.source) for e in events if e.words]
    assert kinds[0] == ("partial", "kws")
    final = next(e for e in events if e.kind == "final" and e.source == "kws")
    assert final.confirmed is True
    word = final.words[0]
    # The manifest puts "kangaroo" at about 0.8-1.4 s; the engine's times agree.
    assert 0.5 < word.start < word.end < 1.8
    assert final.utterance is not None and final.utterance[0] <= word.start
    assert events[0].emitted_at >= word.end  # reported after it was said, in audio time


def test_replay_is_deterministic() -> None:
    # Two fresh recognisers: one reused keeps adapting to the room (by design).
    clip = FIXTURES / "slt" / "guess__is_it_a_kangaroo.wav"
    context = ListenContext(answers=("kangaroo",), commands=("host pass",), free_text=True)
    first = replay(PocketSphinxRecognizer(), WavSource(clip), context)
    second = replay(PocketSphinxRecognizer(), WavSource(clip), context)
    assert first == second
    assert spotted(first, "kangaroo")


def test_a_short_false_hit_does_not_cost_the_card_word(
    recognizer: PocketSphinxRecognizer,
) -> None:
    # Team names are short and fire on parts of other words ("red" in "rainbow");
    # the spotter must keep listening for the card word through such a hit.
    context = ListenContext(answers=("rainbow",), team_names=("red", "blue", "green"))
    events = replay(recognizer, WavSource(FIXTURES / "kal16" / "guess__rainbow.wav"), context)
    assert spotted(events, "rainbow", confirmed=True)
    assert not spotted(events, "red", confirmed=True)


def test_context_switch_without_reloading_the_model(recognizer: PocketSphinxRecognizer) -> None:
    clip = FIXTURES / "slt" / "guess__telescope.wav"
    decoder = recognizer._decoder
    recognizer.start(answer_context("kangaroo"))
    recognizer.set_context(answer_context("telescope"))
    events = []
    for chunk in WavSource(clip):
        events.extend(recognizer.feed(chunk))
    events.extend(recognizer.finish())
    assert recognizer._decoder is decoder
    assert spotted(events, "telescope")


def test_a_new_card_after_the_host_spoke_is_heard_on_the_new_streams_clock(
    recognizer: PocketSphinxRecognizer,
) -> None:
    # The live host finishes the stream while it speaks ("Correct!") and gives
    # the next card's context before the microphone is heard again.  The spotter
    # must date its hits on the clock of the stream that follows (here from
    # 60 s), not from zero: a hit dated 0.8 s was judged "said before the turn
    # started", and the card's next guess could be lost.
    recognizer.start(answer_context("kangaroo"))
    for chunk in SilenceSource(seconds=2.0, start_time=50.0):
        recognizer.feed(chunk)
    recognizer.finish()
    recognizer.set_context(answer_context("telescope"))
    events = []
    audio = read_wav(FIXTURES / "slt" / "guess__telescope.wav").samples
    step = 3200  # 0.1 s
    for i in range(0, len(audio), step):
        chunk = AudioChunk(audio[i : i + step], SAMPLE_RATE, 60.0 + i / 2 / SAMPLE_RATE)
        events.extend(recognizer.feed(chunk))
    events.extend(recognizer.finish())
    hits = [w for e in events if e.source == "kws" for w in e.words if w.text == "telescope"]
    assert hits
    assert all(60.0 <= w.start < w.end <= 62.0 for w in hits), hits


def test_out_of_dictionary_words_use_the_contexts_pronunciation(
    recognizer: PocketSphinxRecognizer,
) -> None:
    # "zeltascope" is in no dictionary; given telescope's phones it is heard in a telescope clip.
    context = ListenContext(
        answers=("zeltascope",),
        pronunciations={"zeltascope": ("T", "EH", "L", "AH", "S", "K", "OW", "P")},
        free_text=False,
    )
    events = replay(recognizer, WavSource(FIXTURES / "slt" / "guess__telescope.wav"), context)
    assert spotted(events, "zeltascope")


def test_words_learnt_ahead_are_known_and_change_nothing_heard() -> None:
    # prepare() puts every word the deck's contexts lack into the dictionary at
    # once (each word added later rebuilds every search the decoder holds).  A card
    # heard after it gives the same events as one whose words came with its context.
    clip = FIXTURES / "slt" / "guess__is_it_a_kangaroo.wav"
    card = ListenContext(
        answers=("kangaroo", "zeltaroo"),
        pronunciations={"zeltaroo": ("Z", "EH", "L", "T", "ER", "UW")},
        commands=("host pass",),
        free_text=True,
    )
    other = ListenContext(
        answers=("gnarfle",), pronunciations={"gnarfle": ("N", "AA", "R", "F", "AH", "L")}
    )
    learnt = PocketSphinxRecognizer()
    assert learnt.phones_of("zeltaroo") is None
    learnt.prepare([card, other])
    assert learnt.phones_of("zeltaroo") == ("Z", "EH", "L", "T", "ER", "UW")
    assert learnt.phones_of("gnarfle") == ("N", "AA", "R", "F", "AH", "L")
    assert learnt.phones_of("kangaroo") is not None  # already known: left as it was
    # the aligner that times the second transcriber's words is loaded here too,
    # not in the middle of the first answer it writes
    assert (learnt._aligner is not None) == (learnt.second_opinion is not None)
    ahead = replay(learnt, WavSource(clip), card)
    assert ahead == replay(PocketSphinxRecognizer(), WavSource(clip), card)
    assert spotted(ahead, "kangaroo")


def test_the_biased_transcript_writes_the_card_word_the_full_model_garbled() -> None:
    # The full en-us model wrote "is it a cannery of" for this voice; the
    # context's small model puts the card word where it was said.  (Measured with
    # the shipped settings: at least 12 clean tune guesses are like this, e.g. rms
    # "telescope" -> "atonal but", kal16 "singer" -> "so inept".)
    clip = FIXTURES / "slt" / "guess__is_it_a_kangaroo.wav"
    context = ListenContext(answers=("kangaroo",), free_text=True)
    biased = replay(PocketSphinxRecognizer(), WavSource(clip), context)
    full = replay(PocketSphinxRecognizer(free_lm="full"), WavSource(clip), context)
    assert in_free_text(biased, "kangaroo")
    assert not in_free_text(full, "kangaroo")


def test_free_text_gives_a_transcript_and_foul_cues_are_spotted(
    recognizer: PocketSphinxRecognizer,
) -> None:
    clip = FIXTURES / "slt" / "letter__it_starts_with_a_p.wav"
    events = replay(recognizer, WavSource(clip), ListenContext(answers=("paint",)))
    free = [e for e in events if e.source == "free"]
    assert free and "with" in free[0].text
    assert spotted(events, "starts with")


def test_silence_gives_no_events(recognizer: PocketSphinxRecognizer) -> None:
    assert replay(recognizer, SilenceSource(2.0), answer_context("kangaroo")) == []


def test_audio_clock_counts_samples_fed() -> None:
    clock = AudioClock()
    for chunk in SilenceSource(0.25):
        clock.advance(chunk)
    assert clock.now == pytest.approx(0.25)


class _NoSegments:
    """A decoder whose ``seg()`` answers None, as pocketsphinx's does when it
    decoded nothing; everything else goes to the real decoder."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def seg(self) -> None:
        return None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def test_a_decoder_with_no_segments_gives_an_empty_transcript_not_a_crash() -> None:
    rec = PocketSphinxRecognizer()
    rec.start(ListenContext(answers=("kangaroo",), free_text=True))
    rec._decoder = _NoSegments(rec._decoder)
    clip = next(c for c in manifest_clips() if c["kind"] == "guess" and c["noise"] is None)
    events = replay(rec, WavSource(FIXTURES / clip["file"]), rec._context)
    free = [e for e in events if e.source == "free" and e.kind == "final"]
    # The utterance still ends in a final free event, with no words.
    assert free and all(e.words == () for e in free)


def test_final_events_carry_the_utterances_pitch(recognizer: PocketSphinxRecognizer) -> None:
    # the referee's describer voice print: slt is a woman's voice, rms a man's
    context = ListenContext(answers=("kangaroo", "teacher"))
    high = replay(recognizer, WavSource(FIXTURES / "slt" / "guess__is_it_a_kangaroo.wav"), context)
    low = replay(recognizer, WavSource(FIXTURES / "rms" / "guess__a_teacher.wav"), context)
    pitches = [{e.pitch for e in events if e.kind == "final"} for events in (high, low)]
    [slt], [rms] = pitches  # one utterance each: every final event has its pitch
    assert slt is not None and 150 <= slt <= 210
    assert rms is not None and 70 <= rms <= 120
    assert all(e.pitch is None for e in high if e.kind == "partial")


def _speech(path: Path) -> bytes:
    """The clip's samples from its first to its last sound (10 ms frames
    above 2% of its peak): clips joined so are one stream with no pause."""
    data = read_wav(path).samples
    frame = 2 * SAMPLE_RATE // 100
    levels = [
        max(
            abs(int.from_bytes(data[i : i + 2], "little", signed=True))
            for i in range(a, a + frame, 2)
        )
        for a in range(0, len(data) - frame + 1, frame)
    ]
    loud = [i for i, level in enumerate(levels) if level > 0.02 * max(levels)]
    return data[loud[0] * frame : (loud[-1] + 1) * frame]


def test_a_guess_cutting_in_is_heard_in_its_own_voice(recognizer: PocketSphinxRecognizer) -> None:
    # slt (a woman) describes a teacher and rms (a man) calls "a teacher!" the
    # moment she stops: one utterance to the recogniser, and its words carry
    # their own voices' pitch (the referee's cut-in rule, referee/voice.py)
    from voice_host.deck.knowledge import make_entry
    from voice_host.referee import Phase, Referee, Situation, default_phone_lookup

    clue = _speech(FIXTURES / "slt" / "clue__the_person_at_the_front_of_the_classroom.wav")
    guess = _speech(FIXTURES / "rms" / "guess__a_teacher.wav")
    audio = bytes(SAMPLE_RATE // 2 * 2) + clue + guess + bytes(SAMPLE_RATE // 2 * 2)
    step = SAMPLE_RATE // 10 * 2
    chunks = [
        AudioChunk(audio[i : i + step], SAMPLE_RATE, i / 2 / SAMPLE_RATE)
        for i in range(0, len(audio), step)
    ]
    entry = make_entry("Teacher", "Person")
    events = replay(recognizer, chunks, ListenContext.for_entry(entry))
    free = [e for e in events if e.kind == "final" and e.source == "free" and e.words]
    words = [w for e in free for w in e.words]
    teacher = [w for w in words if w.text == "teacher"]
    assert teacher and all(w.pitch is not None and 70 <= w.pitch <= 120 for w in teacher)
    joined = 0.5 + len(clue) / 2 / SAMPLE_RATE  # where rms takes over
    clue_words = [w for w in words if w.end <= joined and w.pitch is not None]
    assert clue_words and all(150 <= w.pitch <= 210 for w in clue_words if w.pitch)
    referee = Referee(default_phone_lookup())
    for describer, expected in ((None, "foul"), (176.0, "guess")):
        referee.reset()
        situation = Situation(entry=entry, phase=Phase.TURN, describer_pitch=describer)
        labels = [j.label for j in referee.observe_all(events, situation)]
        assert any(label.startswith(expected) for label in labels), (describer, labels)
        assert not any(
            label.startswith("guess" if expected == "foul" else "foul") for label in labels
        )


def test_words_after_missing_audio_are_stamped_when_they_were_heard(
    recognizer: PocketSphinxRecognizer,
) -> None:
    """Chunks after a gap (a microphone reopened after a stall and stamped again on the
    wall clock, blocks dropped while the reader was behind): the stream's clock counted
    the samples fed from its first chunk, so "poster" said 4 s after the gap began was
    stamped 4 s early, whatever the chunks said (the host's card change, buzzer and
    claims compare those times with its own clock).  Chunks stamped back in time (the
    host's clock moving a microphone that ran fast, ``host.clock.restamped``) are
    followed as well: they had been stamped from the count, 0.5 s late."""
    clip = read_wav(FIXTURES / "kal16" / "guess__poster.wav")
    assert clip.rate == SAMPLE_RATE
    step = SAMPLE_RATE // 10
    recognizer.start(ListenContext(answers=("poster",), forms=("poster",)))
    starts = []
    for gap in (0.0, 4.0, -0.5):
        quiet = [AudioChunk(bytes(2 * step), SAMPLE_RATE, i / 10) for i in range(10)]
        audio = clip.samples + bytes(2 * SAMPLE_RATE)
        t = 1.0 + gap
        events: list[RecognitionEvent] = []
        for chunk in quiet:
            events += recognizer.feed(chunk)
        for i in range(0, len(audio), 2 * step):
            chunk = AudioChunk(audio[i : i + 2 * step], SAMPLE_RATE, t)
            events += recognizer.feed(chunk)
            t = chunk.end_time
        events += recognizer.finish()
        heard = [
            w.start for e in events if e.kind == "final" for w in e.words if w.text == "poster"
        ]
        assert heard, events
        starts.append(min(heard))
    assert starts[1] - starts[0] == pytest.approx(4.0, abs=0.02)
    assert starts[2] - starts[0] == pytest.approx(-0.5, abs=0.02)
