"""The second transcriber (Moonshine tiny-en) and the rule that picks a transcript."""

from __future__ import annotations

import threading
import wave
from collections.abc import Callable
from pathlib import Path

import pytest

from voice_host.audio.chunk import AudioChunk
from voice_host.speech.events import HeardWord, ListenContext
from voice_host.speech.pocketsphinx_backend import GUESS_SHAPE_WORDS, PocketSphinxRecognizer
from voice_host.speech.replay import replay
from voice_host.speech.second_opinion import (
    Keys,
    MoonshineTranscriber,
    Reading,
    follows_same_voice,
    letters_only,
    pick_transcript,
    spread_words,
    words_of_text,
    write_ahead,
)
from voice_host.talk_words import CLUE_WORDS

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
    # accents fold as the deck folds them: Moonshine writes "Is it a crème brûlée",
    # which had come out "crme brle", no card's words
    assert words_of_text("Is it a crème brûlée? Beyoncé!") == [
        "is",
        "it",
        "a",
        "creme",
        "brulee",
        "beyonce",
    ]


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
    ["telescope", "the telescope", "telescopic"],
    ["starts with", "rhymes with"],
)


def test_keys_split_card_words_from_commands() -> None:
    assert {"telescope", "telescopic", "red", "blue", "starts"} <= KEYS.card
    assert "the" not in KEYS.card and "with" not in KEYS.card
    assert KEYS.wake == {"host"} and KEYS.command == {"pass", "foul"}
    assert KEYS.entry == {"telescope", "telescopic"}  # the card's own words
    # a command word matters only with the wake word
    assert not KEYS.in_(heard("foul five every minute"))
    assert KEYS.in_(heard("host pass"))
    # a word written for "host" stands for it at a line's start (after one lead word)
    assert KEYS.commands_in(heard("okay post foul"), loose=True) == {"foul"}
    assert KEYS.matters(heard("post pass")) and not KEYS.in_(heard("post pass"))
    assert not KEYS.commands_in(heard("okay post foul"))
    assert not KEYS.matters(heard("the post office"))  # no command word
    assert not KEYS.matters(heard("you lick a post pass"))  # not at the start
    assert KEYS.in_(heard("it starts with t"))


def test_a_spelling_that_counts_for_a_command_word_is_that_command() -> None:
    # Moonshine writes "Post past thanks." for "host pass thanks" and "host paws"
    # for "host pause": the referee reads those commands, so the line matters
    assert KEYS.commands_in(heard("post past thanks"), loose=True) == {"pass"}
    assert KEYS.commands_in(heard("host fowl")) == {"foul"}
    assert KEYS.matters(heard("post past fangs"))
    # only the context's commands: "pause" is none of KEYS'
    assert not KEYS.commands_in(heard("host paws"))
    assert not KEYS.matters(heard("the past is past"))  # no wake word
    # only right after the wake word (or one filler), where the referee reads it
    assert KEYS.commands_in(heard("host the past")) == {"pass"}
    assert not KEYS.matters(heard("a host of past plays"))
    assert KEYS.commands_in(heard("host passed thank you")) == {"pass"}
    assert not KEYS.matters(heard("the host passed the book of the lord"))
    # a verb's past after a word written for the wake word is talk, not a command
    assert KEYS.commands_in(heard("host passed")) == {"pass"}
    assert not KEYS.matters(heard("the post passed out"))
    # a line read for its command: pocketsphinx's held none
    reading = pick_transcript(heard("push it costs"), lambda: heard("post past thanks"), KEYS)
    assert reading.second and reading.words == heard("post past thanks")


def test_a_line_that_spells_the_card_matters() -> None:
    # three letters in a row from the first letter of a word of the card: a
    # describer spelling it, which Moonshine writes and pocketsphinx garbles
    assert KEYS.spells(heard("it's t e l")) and KEYS.matters(heard("t e l"))
    assert not KEYS.spells(heard("t e"))  # two letters are no spelling
    assert not KEYS.spells(heard("b e l"))  # no word of the card starts with "b"
    assert not KEYS.spells(heard("t e and l"))  # not in a row
    reading = pick_transcript(heard("paying the are work"), lambda: heard("t e l"), KEYS)
    assert reading.second and reading.words == heard("t e l")


def test_a_letter_said_alone_is_read_from_the_second_transcript() -> None:
    # Spelled slowly, each letter is an utterance of its own: pocketsphinx writes a
    # word for it ("moved" for "t"), Moonshine the letter, which the referee joins to
    # the letters around it
    assert letters_only(heard("t")) and letters_only(heard("e l")) and letters_only(heard("i"))
    assert not letters_only(heard("e l e")) and not letters_only(heard("tea"))
    assert not letters_only(())
    third_asked: list[str] = []

    def third() -> tuple[HeardWord, ...]:
        third_asked.append("yes")
        return heard("moved")

    reading = pick_transcript(heard("moved"), lambda: heard("t"), KEYS, write_third=third)
    assert reading.second and not reading.third and reading.words == heard("t")
    assert third_asked  # the third is asked first: "tea" or "bee" may be a guess
    # ... and read when it wrote a word that matters
    reading = pick_transcript(
        heard("moved"), lambda: heard("t"), KEYS, write_third=lambda: heard("telescope")
    )
    assert reading.third and reading.words == heard("telescope")
    # pocketsphinx's own letter stands
    assert pick_transcript(heard("t"), lambda: heard("e"), KEYS).words == heard("t")


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
    reading = pick_transcript(heard(sphinx), lambda: heard(second), KEYS)
    assert reading.second == (chosen == "second")
    assert reading.words == heard(second if reading.second else sphinx)
    assert reading.witness is None  # only a final transcript is cross-checked
    assert pick_transcript(heard(sphinx), None, KEYS) == Reading(heard(sphinx))


@pytest.mark.parametrize(
    ("sphinx", "second", "agree"),
    [
        # real speech: both followed the voice; only the biased model wrote the card form
        (
            "telescopic married of more able woman he might have made still",
            "had he married a more amiable woman he might have been made still",
            True,
        ),
        # two words of two is enough (a real speaker: "seven of clubs")
        ("telescopic seven clubs", "seven of clubs", True),
        # function words prove nothing: a recogniser that cannot follow still writes them
        ("the to the telescope tower", "is it the high fall tower", False),
        ("you push have posters of year here", "you could have those tears of your", False),
        # a synthetic voice Moonshine garbles: no agreement, nothing changes
        ("you look through a telescope at night", "you mean those blue by", False),
        # one shared word is not enough, nor is half of many
        ("is it a telescope", "is it a microscope", False),
        ("red green purple orange yellow telescope", "red green pink brown black", False),
        # key words take no part: agreeing on the card word proves nothing
        ("host pass telescope", "host pass telescope", False),
    ],
)
def test_two_transcripts_follow_the_same_voice(sphinx: str, second: str, agree: bool) -> None:
    assert follows_same_voice(heard(sphinx), heard(second), KEYS) == agree


def test_a_final_transcript_with_a_key_word_is_cross_checked() -> None:
    calls: list[str] = []

    def second(text: str):  # type: ignore[no-untyped-def]
        def write() -> tuple[HeardWord, ...]:
            calls.append(text)
            return heard(text)

        return write

    sphinx = heard("unless telescopic be rather cold hearted")
    witness = "unless to be rather cold hearted"
    # the early check at a pause reads pocketsphinx's key word without asking
    assert pick_transcript(sphinx, second(witness), KEYS) == Reading(sphinx)
    assert calls == []
    # the final transcript asks, and returns the agreeing second one as a witness
    assert pick_transcript(sphinx, second(witness), KEYS, cross_check=True) == Reading(
        sphinx, witness=heard(witness)
    )
    # a short answer is not cross-checked: too few other words to agree on
    short = heard("a telescope")
    assert pick_transcript(short, second("a microscope"), KEYS, cross_check=True) == Reading(short)
    assert calls == [witness]
    # a command or a team name is no card word: no check
    command = heard("unless host pass rather cold")
    assert pick_transcript(command, second(witness), KEYS, cross_check=True) == Reading(command)
    team = heard("unless rather cold red team")
    assert pick_transcript(team, second(witness), KEYS, cross_check=True) == Reading(team)
    assert calls == [witness]
    # letter talk is checked as the card's own words are
    talk = heard("unless starts with rather cold red")
    assert pick_transcript(talk, second(witness), KEYS, cross_check=True) == Reading(
        talk, witness=heard(witness)
    )
    assert calls == [witness, witness]
    # the two wrote different talk and only pocketsphinx found a card word in it
    # (real voices in a noisy room): the second transcript is read
    garbled = heard("first in your cancer telescope attack it strong")
    other = "cruise today in new hampshire launching a fresh attack"
    assert pick_transcript(garbled, second(other), KEYS, cross_check=True) == Reading(
        heard(other), second=True
    )
    # ... and when it holds the same card word, the word was said, and its
    # sentence (which decides who said it) is read
    also = "cruise today a telescope launching"
    assert pick_transcript(garbled, second(also), KEYS, cross_check=True) == Reading(
        heard(also), second=True
    )
    # ... but with another word that matters (a form, a command) pocketsphinx's stands
    other_key = "cruise today telescopic launching"
    assert pick_transcript(garbled, second(other_key), KEYS, cross_check=True) == Reading(garbled)
    command = "cruise today host pass"
    assert pick_transcript(garbled, second(command), KEYS, cross_check=True) == Reading(garbled)
    # ... or wrote nothing at all
    assert pick_transcript(garbled, second(""), KEYS, cross_check=True) == Reading(garbled)
    # without a key word, Moonshine is asked anyway; agreeing, it is the witness
    plain = heard("unless to be rather cold")
    reading = pick_transcript(plain, second(witness), KEYS, cross_check=True)
    assert reading == Reading(plain, witness=heard(witness))


SHAPED = Keys.of(
    [
        *("telescope", "the telescope", "telescopic", "red", "starts with", "host pass"),
        *("fairy tale", "fairy", "tale", "fairytales"),
    ],
    ["host pass"],
    ["telescope", "the telescope", "telescopic", "fairy tale", "fairy", "tale", "fairytales"],
    ["starts with"],
    GUESS_SHAPE_WORDS,
    CLUE_WORDS,
    ["telescope", "the telescope", "telescopes", "fairy tale"],
)


@pytest.mark.parametrize(
    ("sphinx", "second", "chosen"),
    [
        # a short utterance whose other word pocketsphinx garbled into a clue's
        # ("is it a riddle?" written "is their riddle" in Piper's neural voice):
        # both wrote the card word, and the second one's sentence is read
        ("is their telescope", "is it a telescope", "second"),
        ("is the telescope when", "is it the telescope", "second"),
        # ... for the early check at a pause too (the guess closes on it)
        ("is up like telescope", "is it the telescope", "second"),
        # the second one did not write the card word: pocketsphinx's stands
        ("is their telescope", "is there a microscope", "sphinx"),
        # ... also when it wrote another word of an answer than pocketsphinx did
        # ("it's jazz's and to" against Moonshine's "it's jazz isn't"): its
        # sentence, pocketsphinx's spelling of the card word
        ("is their telescopic", "is it telescope", "second:is it telescopic"),
        (
            "you telescopic in the sea",
            "you telescope in the sea",
            "second:you telescopic in the sea",
        ),
        # ... but not when the second one wrote another form only: "our condition
        # then" (festival's "air conditioning!") is no better reading
        ("is their telescope", "is it telescopic", "sphinx"),
        ("the telescope our tae", "our telescopic then", "sphinx"),
        # ... nor a word of a longer answer alone: slt's "fairy tales, right?"
        # ("fairytales" and more) came back from Moonshine "fairy tae e e e"
        ("fairytales tae e", "fairy tae e e e", "sphinx"),
        # ... while a whole answer is enough ("is it a guinea pig", where
        # pocketsphinx wrote "is a they guinea paid")
        ("is a they fairy paid", "is it a fairy tale", "second"),
        # ... nor when it adds another word that matters (letter talk, a team)
        ("is their telescope", "telescope starts with", "sphinx"),
        # a question tag garbled after the card word ("it's jazz, isn't it?" written
        # "it's jazz's and to"): the words after it are no guess's
        ("it's telescope's and to", "it's telescope isn't it", "second"),
        # a guess's shape alone ("is it a", "right"): no second look
        ("is it a telescope", "is it a microscope", "sphinx"),
        ("telescope right", "telescope light", "sphinx"),
        # garbage before the card word that makes no clue: the referee takes
        # it for a guess already, and Moonshine may garble a synthetic voice
        # worse ("is effect mouse" against "is it like mouse")
        ("is effect telescope", "is it like telescope", "sphinx"),
        # a long utterance is the cross-check's business, not this rule's
        ("you look through a telescope at the stars", "you look through it", "sphinx"),
    ],
)
def test_a_short_garbled_guess_is_read_from_the_second_transcript(
    sphinx: str, second: str, chosen: str
) -> None:
    asked: list[str] = []

    def write() -> tuple[HeardWord, ...]:
        asked.append(second)
        return heard(second)

    read = chosen.partition(":")[2] or second
    for final in (False, True):
        reading = pick_transcript(heard(sphinx), write, SHAPED, cross_check=final)
        assert reading.second == chosen.startswith("second"), (sphinx, final)
        if reading.second:
            assert reading.words == heard(read)
    # a guess's shape alone never wakes the second transcriber (it costs time)
    if sphinx in ("is it a telescope", "telescope right", "is effect telescope"):
        assert asked == []
    # without the shape words (another recogniser's keys) the rule is off
    assert not pick_transcript(heard("is their telescope"), write, KEYS).second


def test_a_card_word_the_second_did_not_write_in_a_short_utterance_is_left_to_the_sound() -> None:
    # A real voice (a news report): "how did he not know that", which pocketsphinx's
    # model, biased towards the card Bat, wrote "batty not no that" and Moonshine
    # wrote right.  Too few words to tell whether the two followed the same voice,
    # so the second is a witness that did not agree: the sound decides, and the
    # witness must fit it better (the backend's test below)
    for final in (False, True):
        reading = pick_transcript(
            heard("is their telescope"), lambda: heard("is there a microscope"), SHAPED,
            cross_check=final,
        )  # fmt: skip
        assert not reading.second and reading.words == heard("is their telescope")
        assert reading.witness == heard("is there a microscope") and not reading.agrees
    # the second wrote the card word: its sentence is read, no witness
    reading = pick_transcript(
        heard("is their telescope"), lambda: heard("is it a telescope"), SHAPED
    )
    assert reading.second and reading.witness is None
    # a long utterance whose other words the two share: a witness that agrees
    reading = pick_transcript(
        heard("you look through a telescope at the stars at night"),
        lambda: heard("you look through a microscope at the stars at night"),
        SHAPED,
        cross_check=True,
    )
    assert reading.witness is not None and reading.agrees
    # nothing garbled (a guess's shape): no witness, and no second look
    reading = pick_transcript(heard("is it a telescope"), lambda: heard("is it a scope"), SHAPED)
    assert reading.witness is None


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
def test_moonshine_reads_an_utterance_the_same_whatever_it_heard_before() -> None:
    # Its own voice detector carried state from call to call: this clip was "is it a
    # car" on a transcriber's first call and "is it a call" on every later one.
    transcriber = MoonshineTranscriber()
    car = _clip("kal16/guess__is_it_a_car__babble20.wav")
    first = [w.text for w in transcriber.transcribe(car, 0.0)]
    transcriber.transcribe(_clip("kal16/guess__a_telescope.wav"), 0.0)
    again = [w.text for w in transcriber.transcribe(car, 0.0)]
    assert first == again
    assert first == [w.text for w in MoonshineTranscriber().transcribe(car, 0.0)]


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


class _Counting:
    """A transcriber that cannot write ahead: counts its calls."""

    name = "counting"

    def __init__(self) -> None:
        self.calls = 0

    def transcribe(self, audio: bytes, start: float) -> tuple[HeardWord, ...]:
        self.calls += 1
        return heard("is it a car")


def test_a_transcriber_that_cannot_write_ahead_writes_when_first_asked_and_once() -> None:
    transcriber = _Counting()
    words = write_ahead(transcriber, b"\0\0" * 16000, 0.0)
    assert transcriber.calls == 0  # pocketsphinx's transcript may decide alone
    assert words() == heard("is it a car")
    assert words() == heard("is it a car")
    assert transcriber.calls == 1


class _Ahead(_Counting):
    """Writes ahead: records when it began."""

    def __init__(self) -> None:
        super().__init__()
        self.begun = 0

    def begin(self, audio: bytes, start: float) -> Callable[[], tuple[HeardWord, ...]]:
        self.begun += 1
        return lambda: self.transcribe(audio, start)


def test_a_transcriber_writes_ahead_only_with_a_second_processor_to_run_it() -> None:
    transcriber = _Ahead()
    write_ahead(transcriber, b"\0\0" * 16000, 0.0, cores=2)
    assert transcriber.begun == 1
    # on one processor the two transcripts would only take turns
    words = write_ahead(transcriber, b"\0\0" * 16000, 0.0, cores=1)
    assert transcriber.begun == 1 and transcriber.calls == 0
    assert words() == heard("is it a car")


@pytest.mark.slow
def test_moonshine_writes_ahead_on_its_own_thread_the_words_it_writes_when_asked() -> None:
    transcriber = MoonshineTranscriber()
    clips = [
        _clip("espeak-en-us+m3/guess__is_it_an_elephant.wav"),
        _clip("kal16/guess__is_it_a_car__babble20.wav"),
    ]
    # the library's public call, on this thread, as it wrote before writing ahead
    import numpy as np

    public = [
        transcriber._words(
            transcriber._engine.transcribe_without_streaming(
                (np.frombuffer(clip, dtype=np.int16) / 32768.0).tolist(), 16000
            ),
            1.5,
        )
        for clip in clips
    ]
    pending = [write_ahead(transcriber, clip, 1.5, cores=2) for clip in clips]  # both begun
    # begun on the transcriber's own thread (the pinned moonshine-voice still has the
    # call into its C library that lets pocketsphinx decode meanwhile)
    assert any(t.name.startswith("moonshine") for t in threading.enumerate())
    assert [words() for words in pending] == public
    assert "elephant" in [w.text for w in public[0]]
    assert write_ahead(transcriber, b"\0\0" * 800, 0.0, cores=2)() == ()  # 50 ms: too short


@pytest.mark.slow
@pytest.mark.parametrize(
    ("clip", "ahead"),
    [
        # the spotter heard the answer: pocketsphinx's transcript will likely hold it,
        # and a second one begun and not read would run on as the host answers
        ("slt/guess__telescope.wav", False),
        # espeak's voice: the spotter heard nothing that matters, so the second
        # transcript is likely read, and is begun while pocketsphinx decodes
        ("espeak-en-us+m3/guess__is_it_an_elephant.wav", True),
    ],
)
def test_a_second_transcript_is_begun_ahead_where_the_spotter_heard_nothing_that_matters(
    clip: str, ahead: bool
) -> None:
    entry = clip.split("__")[-1].removesuffix(".wav").split("_")[-1]
    context = ListenContext(answers=(entry,), forms=(entry + "s",), free_text=True)
    second = _Ahead()
    recognizer = PocketSphinxRecognizer(second_opinion=second)
    replay(recognizer, iter(_chunks(_clip(clip))), context)
    assert bool(second.begun) == ahead
    if not ahead:
        assert recognizer.second_opinion is second  # and asked, if at all, when needed


@pytest.mark.slow
def test_moonshine_failing_on_its_own_thread_fails_when_its_words_are_asked() -> None:
    transcriber = MoonshineTranscriber()
    transcriber._engine.close()  # the library's transcriber freed under it
    words = write_ahead(transcriber, _clip("kal16/guess__is_it_a_car__babble20.wav"), 0.0, cores=2)
    with pytest.raises(Exception):  # noqa: B017 - whatever the library raises
        words()


class _Broken:
    name = "broken"

    def transcribe(self, audio: bytes, start: float) -> tuple[HeardWord, ...]:
        raise RuntimeError("the model went away")


class _BrokenAhead(_Broken):
    """Fails on its own thread: the call that gives its words raises."""

    def begin(self, audio: bytes, start: float) -> Callable[[], tuple[HeardWord, ...]]:
        return lambda: self.transcribe(audio, start)


@pytest.mark.slow
@pytest.mark.parametrize("broken", [_Broken, _BrokenAhead])
def test_a_failing_second_transcriber_leaves_pocketsphinx_reading_alone(
    broken: type[_Broken], caplog: pytest.LogCaptureFixture
) -> None:
    context = ListenContext(answers=("elephant",), forms=("elephants",), free_text=True)
    chunks = _chunks(_clip("espeak-en-us+m3/guess__is_it_an_elephant.wav"))
    recognizer = PocketSphinxRecognizer(second_opinion=broken())
    events = replay(recognizer, iter(chunks), context)
    assert any(e.source == "free" for e in events)  # the utterance was still transcribed
    assert recognizer.second_opinion is None
    assert "second transcriber failed" in caplog.text


REAL = FIXTURES / "real"


def _fouls(recognizer: PocketSphinxRecognizer, clip: str, word: str) -> list[str]:
    """The words of the fouls the referee judges in a real recording, card ``word``."""
    from voice_host.deck.knowledge import make_entry
    from voice_host.referee import Phase, Referee, Situation, default_phone_lookup

    entry = make_entry(word, "Object")
    context = ListenContext.for_entry(entry)
    chunks = _chunks(_clip(clip))
    replay(recognizer, iter(chunks), context)  # the room heard once (feature normalisation)
    events = replay(recognizer, iter(chunks), context)
    referee = Referee(default_phone_lookup())
    judged = referee.observe_all(events, Situation(entry=entry, phase=Phase.TURN))
    return [j.heard for j in judged if j.type == "foul"]


@pytest.mark.slow
def test_a_witness_keeps_the_card_biased_model_from_inventing_a_foul_in_real_speech() -> None:
    # A LibriVox reader: "unless to be rather cold hearted and rather selfish ...".
    # pocketsphinx's model, biased towards the card Power, writes "powerless" over
    # "unless"; Moonshine, which follows a real voice, is the witness that says no.
    clip = "real/librivox/unless_to_be_rather_cold_hearted.wav"
    alone = PocketSphinxRecognizer(second_opinion=None)
    both = PocketSphinxRecognizer()
    assert _fouls(alone, clip, "Power")  # the fault the witness is there for
    assert _fouls(both, clip, "Power") == []
    # the foul that was committed still counts: "cold hearted" on the card Heart
    assert _fouls(both, clip, "Heart") == ["hearted"]


@pytest.mark.slow
def test_a_witness_that_garbled_the_card_word_loses_to_the_sound() -> None:
    # flite's slt voice: Moonshine writes "the grain bills were bright", agreeing
    # with pocketsphinx on "the ... were bright"; aligned to the audio, "rainbows"
    # fits better than "grain bills", so the foul stands
    clip = "slt/clue_derivative__the_rainbows_were_bright.wav"
    fouls = _fouls(PocketSphinxRecognizer(), clip, "Rainbow")
    assert [f.replace("'", "") for f in fouls] == ["rainbows"]  # "rainbows" or "rainbow's"


def _weigh(witness: str, word: str, clip: str, *, agrees: bool = False) -> bool:
    """Whether ``word`` stands against ``witness`` (its words spread over ``clip``),
    the recogniser's check of a key word against a witness."""
    recognizer = PocketSphinxRecognizer(second_opinion=None)
    audio = _clip(clip)
    seconds = len(audio) / 32000
    words = witness.split()
    recognizer._witness = tuple(
        HeardWord(w, i * seconds / len(words), (i + 1) * seconds / len(words))
        for i, w in enumerate(words)
    )
    recognizer._witness_agrees = agrees
    recognizer._decoded_audio = audio
    phones = recognizer.phones_of(word)
    return recognizer._witnessed(phones, word, 0.0, seconds)


@pytest.mark.slow
def test_a_witness_that_did_not_agree_wins_only_where_the_sound_prefers_it() -> None:
    clip = "kal16/clue_word__the_carpet_covers_the_floor.wav"
    # Moonshine's reading of it in the benchmark: "carpet" in place of its closest
    # words, "powder pit" (not "pit" alone), fits the sound better: the foul stands
    assert _weigh("the powder pit covers the flower", "carpet", clip)
    # a word the aligner cannot say near the card word: the sound cannot judge, and
    # the card word stands ("is it a kenger you" for slt's "is it a kangaroo?")
    assert _weigh("the kenger covers the floor", "carpet", clip)
    # a card word that was not said loses to the witness that wrote what was: "rug"
    # in place of "carpet", "the carpet" or "the" fits the sound worse
    assert not _weigh("the carpet covers the floor", "rug", clip)
    # ... as it does when it agreed with pocketsphinx's other words (its closest
    # run alone, a tie to the witness)
    assert not _weigh("the carpet covers the floor", "rug", clip, agrees=True)


class _Fixed:
    """A second transcriber that writes one line for every utterance."""

    name = "fixed"

    def __init__(self, line: str) -> None:
        self.line = line

    def transcribe(self, audio: bytes, start: float) -> tuple[HeardWord, ...]:
        return tuple(
            HeardWord(w, start + i * 0.3, start + i * 0.3 + 0.25)
            for i, w in enumerate(self.line.split())
        )


@pytest.mark.slow
def test_a_witness_against_the_spotter_alone_leaves_pocketsphinx_line_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # pocketsphinx's line holds a command word without the wake word and no word of
    # the card (as it wrote "saw undo and also employment" for awb's "swampy land
    # also a toilet"), Moonshine's another line with no word that matters, the sound
    # preferring it: Moonshine's is a witness against the spotter's hits only, and
    # pocketsphinx's line is still the one read
    context = ListenContext(answers=("telescope",), commands=("host undo",), free_text=True)
    chunks = _chunks(_clip("awb/clue__colours_in_the_sky_after_the_rain.wav"))
    recognizer = PocketSphinxRecognizer(
        second_opinion=_Fixed("colours in the sky after the rain"), third_opinion=None
    )
    written = ("call", "us", "undo", "starve", "the", "rain")
    monkeypatch.setattr(
        recognizer,
        "_sphinx_decode",
        lambda audio, t0: tuple(
            HeardWord(w, t0 + i * 0.2, t0 + i * 0.2 + 0.15) for i, w in enumerate(written)
        ),
    )
    finals = [
        e
        for e in replay(recognizer, iter(chunks), context)
        if e.source == "free" and e.kind == "final"
    ]
    # (its edge words may fall outside the utterance's voiced stretch: this fake
    # pocketsphinx times its words by count, not by the sound)
    assert finals and all(set(e.text.split()) <= set(written) for e in finals)
    assert any("undo" in e.text.split() for e in finals)
    assert {e.transcriber for e in finals} == {""}
