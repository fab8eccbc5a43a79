"""Wake words the recogniser garbled or split off: "l k pass status" for "okay
host status" (accepted by sound only in the shape of a spoken command, never in
a clue), and "host," then a pause, then "help" as two transcripts."""

from __future__ import annotations

import pytest

from tests.referee.conftest import PHONES, POST, TELESCOPE, free
from voice_host.deck.model import Entry
from voice_host.referee import Phase, Referee, Situation
from voice_host.referee.matching import phone_class_similarity
from voice_host.referee.text import synthetic_words
from voice_host.speech.events import HeardWord, RecognitionEvent

#: CMU phones (stress removed) of the words these rows hear, besides conftest's.
MORE_PHONES: dict[str, tuple[str, ...]] = {
    w: tuple(p.split())
    for w, p in {
        "test": "T EH S T",
        "phone": "F OW N",
        "posts": "P OW S T S",
        "bus": "B AH S",
        "that's": "DH AE T S",
        "let's": "L EH T S",
        "their": "DH EH R",
        "help": "HH EH L P",
        "status": "S T AE T AH S",
        "resume": "R IH Z UW M",
        "forward": "F AO R W ER D",
        "push": "P UH SH",
        "need": "N IY D",
        "banana": "B AH N AE N AH",
        "last": "L AE S T",
        "the": "DH AH",
        "you": "Y UW",
        "pause": "P AO Z",
        "correct": "K ER EH K T",
        "stop": "S T AA P",
        "wait": "W EY T",
        "weight": "W EY T",
    }.items()
}


def lookup(word: str) -> tuple[str, ...] | None:
    """conftest's phones plus :data:`MORE_PHONES`."""
    return MORE_PHONES.get(word) or PHONES.get(word)


def labels(text: str, phase: Phase) -> list[str]:
    situation = Situation(entry=TELESCOPE, phase=phase, teams=("red", "blue"))
    words = synthetic_words(text)
    event = RecognitionEvent("final", words, words[-1].end, "free")
    return [j.label for j in Referee(lookup).judge(event, situation)]


@pytest.mark.parametrize(
    ("text", "phase", "expected"),
    [
        # "okay host status" as pocketsphinx wrote it: stray letters, then "pass"
        ("l k pass status", Phase.TURN, ["command:status"]),
        # an attention word, then a closer sound-alike ("test" 0.75)
        ("okay test pause", Phase.TURN, ["command:pause"]),
        # "hey" gets the host's attention too
        ("hey pass correct", Phase.TURN, ["command:correct"]),
        # in a SPIN choice nobody is describing: no attention word needed
        ("phone forward", Phase.SPIN_CHOICE, ["command:forward"]),
        # push with its team, and the one "you" pocketsphinx adds for a breath
        ("l k pass push blue you", Phase.SPIN_CHOICE, ["command:push:blue"]),
        # a team claim in a CONTROL round, woken by a sound-alike
        ("okay test blue", Phase.CONTROL, ["team:blue"]),
        # the plural of a known variant at the start ("host, pause" -> "posts pause")
        ("posts pause", Phase.TURN, ["command:pause"]),
        # ... and its possessive, as pocketsphinx wrote it for espeak's "host, pause"
        ("post's pause", Phase.TURN, ["command:pause"]),
        # NEGATIVE: a two-word clue ending in a command word, no attention word
        ("bus pass", Phase.TURN, ["nothing"]),
        # NEGATIVE: a describer's sentence ending in "help"
        ("you need their help", Phase.TURN, ["nothing"]),
        # NEGATIVE: a clue ending "... a bus pass"
        ("it is a bus pass", Phase.TURN, ["nothing"]),
        # NEGATIVE: "that's" sounds like "host" (0.5) but leads into "correct" in ordinary talk
        ("okay that's correct", Phase.TURN, ["nothing"]),
        # NEGATIVE: likewise "let's pass"
        ("okay let's pass", Phase.TURN, ["nothing"]),
        # NEGATIVE: "last pass" is a phrase, not a garbled "host pass"
        ("okay last pass", Phase.TURN, ["nothing"]),
        # NEGATIVE: a filler is never a wake word
        ("okay the pass", Phase.TURN, ["nothing"]),
        # NEGATIVE: the sentence goes on after the command word
        ("okay bus pass it on", Phase.TURN, ["nothing"]),
        # NEGATIVE: a word that does not sound like "host"
        ("okay banana pass", Phase.TURN, ["nothing"]),
        # NEGATIVE: "forward" is no command outside a SPIN choice
        ("okay phone forward", Phase.TURN, ["nothing"]),
        # NEGATIVE: a clue word before the sound-alike: a sentence
        ("you test pause", Phase.TURN, ["nothing"]),
        # NEGATIVE: a sound-alike right after a filler is no wake word either
        ("okay the test pause", Phase.TURN, ["nothing"]),
        # the words players use for a command, after the wake word itself
        ("host stop", Phase.TURN, ["command:pause"]),
        ("okay host wait please", Phase.TURN, ["command:pause"]),
        # ... or a word that sounds the same as one
        ("host weight", Phase.TURN, ["command:pause"]),
        # "host go" and "host start" start a waiting turn or a paused timer
        ("host go", Phase.TURN, ["command:resume"]),
        ("okay host start please", Phase.TURN, ["command:resume"]),
        # NEGATIVE: not after a sound-alike ("go" is a word of many clues), nor going on
        ("okay test go", Phase.TURN, ["nothing"]),
        ("the host will go home", Phase.TURN, ["nothing"]),
        ("host start the car", Phase.TURN, ["nothing"]),
        # NEGATIVE: never after a sound-alike of the wake word: "okay, bus stop?"
        # is a guess (Bus stop is a card), not a pause
        ("okay bus stop", Phase.TURN, ["nothing"]),
        ("okay test stop", Phase.TURN, ["nothing"]),
        # NEGATIVE: nor after a word a recogniser writes for it ("post" is a card too)
        ("post stop", Phase.TURN, ["nothing"]),
        # NEGATIVE: a sentence with "host" in it that goes on
        ("the host had to wait", Phase.TURN, ["nothing"]),
        ("host wait for it", Phase.TURN, ["nothing"]),
    ],
)
def test_sound_alike_wake_word_table(text: str, phase: Phase, expected: list[str]) -> None:
    assert labels(text, phase) == expected


def test_sound_alike_needs_the_whole_utterance() -> None:
    # a clue, a pause, then "okay bus pass": the recogniser's utterance is the
    # clue and the short phrase together, so no sound-alike wakes the host
    words = (
        *synthetic_words("you ride it to school"),
        HeardWord("okay", 3.0, 3.3),
        HeardWord("bus", 3.35, 3.6),
        HeardWord("pass", 3.65, 3.9),
    )
    event = RecognitionEvent("final", words, 3.9, "free")
    out = Referee(lookup).judge(event, Situation(entry=TELESCOPE, phase=Phase.TURN))
    assert [j.label for j in out] == ["nothing"]
    # ... while the same phrase heard alone is someone calling the host
    alone = RecognitionEvent("final", words[-3:], 3.9, "free")
    out = Referee(lookup).judge(alone, Situation(entry=TELESCOPE, phase=Phase.TURN))
    assert [j.label for j in out] == ["command:pass"]
    assert "sounds like the wake word 'host'" in out[0].evidence


def test_no_sound_alike_without_a_phone_lookup() -> None:
    words = synthetic_words("l k pass status")
    event = RecognitionEvent("final", words, words[-1].end, "free")
    out = Referee(None).judge(event, Situation(entry=None, phase=Phase.BETWEEN))
    assert [j.label for j in out] == ["nothing"]


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        # identical phones
        ("HH OW S T", "HH OW S T", 1.0),
        # two same-class replacements (P for HH, AE for OW) and a lost T: 2 of 4
        ("P AE S", "HH OW S T", 0.5),
        # one consonant and one vowel replaced: 1 of 4
        ("T EH S T", "HH OW S T", 0.75),
        # "the": two replacements and two lost phones: 3 of 4
        ("DH AH", "HH OW S T", 0.25),
        # a vowel for a consonant costs a whole edit
        ("AH OW S T", "HH OW S T", 0.75),
        # nothing to compare
        ("", "HH OW S T", 0.0),
    ],
)
def test_phone_class_similarity(a: str, b: str, expected: float) -> None:
    assert phone_class_similarity(tuple(a.split()), tuple(b.split())) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("first", "second", "start", "entry", "expected"),
    [
        # "host," a pause, "help": the endpointer split the command in two
        ("host", "help", 1.2, TELESCOPE, ["command:help"]),
        # an attention word before the wake word in the first transcript
        ("okay host", "pause", 1.5, TELESCOPE, ["command:pause"]),
        # a known variant's plural as the first transcript (a guess of "posts" on its own)
        ("posts", "pause", 1.2, POST, ["command:pause"]),
        # politeness after the command word still counts
        ("host", "undo that please", 1.2, TELESCOPE, ["command:undo"]),
        # NEGATIVE: too long a pause: "help" alone is someone talking
        ("host", "help", 3.0, TELESCOPE, ["nothing"]),
        # NEGATIVE: the first transcript was a sentence ending in "host"
        ("you give it to the host", "pass", 2.8, TELESCOPE, ["nothing"]),
        # NEGATIVE: the second transcript goes on after the command word
        ("host", "pass it to your friend", 1.2, TELESCOPE, ["nothing"]),
        # NEGATIVE: a guess after "host" is still a guess, not a command
        ("host", "telescope", 1.2, TELESCOPE, ["guess"]),
        # NEGATIVE: a complete command before does not wake the next word
        ("host pass", "pause", 1.5, TELESCOPE, ["nothing"]),
    ],
)
def test_wake_word_then_a_pause(
    first: str, second: str, start: float, entry: Entry, expected: list[str]
) -> None:
    referee = Referee(lookup)
    situation = Situation(entry=entry, phase=Phase.TURN, teams=("red", "blue"))
    referee.observe(free(first), situation)
    assert [j.label for j in referee.observe(free(second, start=start), situation)] == expected
