"""The words of the table's talk that both the ears and the referee know.

What tells a guesser's called-out answer from a describer's sentence ("is it a
telescope, right?" against "you look through it"), the letter counts a
describer gives, and the endings a recogniser adds to an answer by itself.
The referee judges with them (:mod:`voice_host.referee.speaker`,
:mod:`voice_host.referee.talk`, :mod:`voice_host.referee.matching`); the
pocketsphinx backend closes a short answer early with them and its language
model lists the numbers (:mod:`voice_host.speech`).  Kept here, outside both,
so that neither package imports the other's code: the referee reads only the
recogniser's event types.  Standard library and the deck's word helpers only.
"""

from __future__ import annotations

from collections.abc import Iterable

from voice_host.deck.words import norm_phrase, number_words

#: What recognisers write for the wake word "host" (pocketsphinx on flite voices:
#: "post pass", "most foul", "coast to pause"; Moonshine on espeak-ng's: "post
#: status").  They stand for it only at the start of a short command utterance.
HOST_SOUND_ALIKES = frozenset({"post", "most", "coast", "toast", "ghost", "boast", "roast"})
#: The same, with their plurals and possessives ("posts pause", "post's pause").
HOST_WRITTEN = HOST_SOUND_ALIKES | {v + end for v in HOST_SOUND_ALIKES for end in ("s", "'s")}
#: Words a recogniser may put between the wake word and a command.
COMMAND_FILLERS = frozenset({"to", "the", "a", "uh", "um", "er", "please", "and"})
#: Words that may come before the wake word at the start of a command ("okay, host").
COMMAND_LEAD = COMMAND_FILLERS | {"ok", "okay", "hey", "oh"}

#: Command -> the spellings recognisers write for it that count for it ("host
#: past", "host paws"): the referee reads a command in them, and so a transcript
#: that holds one matters to the ears.
COMMAND_SPELLINGS: dict[str, frozenset[str]] = {
    "pass": frozenset({"pass", "past", "passed"}),
    "correct": frozenset({"correct", "corrects"}),
    "foul": frozenset({"foul", "fowl", "fouls"}),
    "undo": frozenset({"undo", "undue"}),
    "repeat": frozenset({"repeat", "repeats"}),
    "status": frozenset({"status", "statuses", "score", "scores"}),
    "pause": frozenset({"pause", "paws", "pauses"}),
    "resume": frozenset({"resume", "resumed", "continue"}),
    "help": frozenset({"help", "helped"}),
    "quit": frozenset({"quit", "quits"}),
    "forward": frozenset({"forward", "forwards", "foreword"}),
    "push": frozenset({"push", "pushed", "bush"}),
}
#: The spellings that are a verb's past ("helped", "passed"): after a word written
#: for the wake word they make a sentence ("the ghost helped out", "the post
#: passed"), and count only after the wake word itself.
PAST_SPELLINGS = frozenset(
    sp for spellings in COMMAND_SPELLINGS.values() for sp in spellings if sp.endswith("ed")
)

#: Words that mark a description ("you drive a car", "we have a dog"): before
#: the match, or after it (except a last "you"), they make a short utterance
#: the describer's.
CLUE_WORDS = frozenset(
    [
        "you",
        "your",
        "we",
        "our",
        "they",
        "their",
        "like",
        "use",
        "used",
        "when",
        "where",
        "which",
        "while",
        "because",
        "who",
        "whose",
        # a describer's hint about the card's words: "the first word is red"
        "word",
        "words",
    ]
)
#: Words that may lead into a guess ("is it the", "oh, a", "how about").
GUESS_LEAD = frozenset(
    [
        "is",
        "it",
        "it's",
        "its",
        "isn't",
        "that's",
        "thats",
        "it",
        "a",
        "an",
        "the",
        "some",
        "oh",
        "ah",
        "er",
        "erm",
        "um",
        "uh",
        "hmm",
        "maybe",
        "how",
        "what",
        "about",
        "could",
        "be",
        "would",
        "i",
        "think",
        "know",
        "got",
        "yes",
        "yeah",
        "no",
        "ok",
        "okay",
        "um",
        "er",
        "um",
        "is",
        "was",
        "are",
        "they",
        "those",
        "these",
        "he",
        "she",
        "hes",
        "she's",
        "he's",
    ]
)
#: Words that may follow a guess ("telescope, right?", "telescope yes").
GUESS_TAIL = frozenset(
    [
        "right",
        "yes",
        "yeah",
        "then",
        "maybe",
        "please",
        "again",
        "no",
        "or",
        # "is it a kangaroo, or something?", "... or what?"
        "something",
        "what",
        "is",
        "it",
        "isn't",
        "ok",
    ]
)
#: Letter counts a describer gives ("it has four letters"), in order (the biased
#: language model lists them too, and its text must not depend on set order).
NUMBER_WORDS: tuple[str, ...] = tuple(number_words(n) for n in range(2, 16))

#: Endings a recogniser writes onto an answer by itself; the referee takes such a
#: form for the answer (:class:`voice_host.referee.matching.EntryTargets`).
ANSWER_NOISE_ENDINGS: tuple[str, ...] = ("'s", "d", "ed")


def noisy_answer_forms(answer: str, forms: Iterable[str]) -> list[str]:
    """The forms among ``forms`` that are ``answer`` plus an ending a recogniser
    adds by itself (:data:`ANSWER_NOISE_ENDINGS`): "kangaroo's" sounds as the
    plural does, and slt's "telescope!" comes back as "telescoped".  Only the
    ending the spelling allows: "telescope" + d, "bicycle" + d, "swim" + ed,
    any + 's.  Lower-case phrases, words joined by single spaces."""
    known = {" ".join(norm_phrase(f)) for f in forms}
    out: list[str] = []
    for end in ANSWER_NOISE_ENDINGS:
        if (end == "d") != answer.endswith("e") and end != "'s":
            continue
        if answer + end in known:
            out.append(answer + end)
    return out
