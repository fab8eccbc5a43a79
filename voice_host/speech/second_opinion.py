"""A second, unsteered transcriber for each utterance: Moonshine tiny-en.

pocketsphinx's transcript of an utterance comes from a language model biased
towards the card (:mod:`voice_host.speech.biased_lm`): it writes the card's
words where a free decoder would not, but when the acoustic model cannot
follow a voice at all (espeak's voices above all) it writes nothing useful.
Moonshine tiny-en, a small neural recogniser whose English model ships inside
the ``moonshine-voice`` 0.1.0 wheel (MIT licence; later versions download it
instead, hence the exact pin), follows such voices far better but knows nothing
of the card and, like any unsteered recogniser, invents fluent words over
silence and noise ("I'm going to have a lot of fun").

So the two are combined by one rule (:func:`pick_transcript`): pocketsphinx's
transcript stands whenever it holds a word that matters now (an answer, a
forbidden form, a team name, letter or rhyme talk, or the wake word with a
command word); only when it holds none and Moonshine's does is Moonshine's
used.  An invented sentence
of Moonshine's that names no card word changes nothing; a card word that
pocketsphinx missed is heard.  Measured on the fixtures
(``benchmarks/referee.py --audio``): clean guesses counted 44 -> 49 of 51
(22 -> 24 of 28 held out), foul recall 74.7% -> 84.2% (73.7% -> 78.9%), false
"correct" and commands unchanged.  Reading Moonshine's transcript first
whenever it holds a key word was tried and measured worse (48 of 51 and foul
precision 92.9%): pocketsphinx's model, biased towards the card, writes the
card's own words better when it follows the voice at all.

Moonshine is also a witness against pocketsphinx's card-biased model, which
on real voices writes the card into ordinary talk ("powerless" for "unless"
on the card Power; ``benchmarks/real_voices.py``).  When pocketsphinx's final
transcript of an utterance holds a word of the card among other words,
Moonshine writes the audio too, and if the two agree on the other words
(:func:`follows_same_voice`) its transcript is returned as the witness
(:class:`Reading`); the recogniser then keeps the card word only if the
witness wrote it, or if the sound prefers it to the witness's words
(:mod:`voice_host.speech.acoustic_check`).  If the two do not agree and
Moonshine wrote no word that matters, its transcript is read
(:func:`pick_transcript`): in a noisy room pocketsphinx garbles real voices
and its card-biased model fills the garble with card words.

Moonshine gives a line's start and length, not word times: each word gets a
share of its line's span in proportion to its letters.  The referee's
decisions that depend on timing (the buzzer's grace, the host's own voice)
work at the scale of an utterance, which this keeps.
"""

from __future__ import annotations

import ctypes
import dataclasses
import functools
import os
import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from voice_host.audio.chunk import SAMPLE_RATE
from voice_host.deck.words import fold, number_words
from voice_host.errors import EngineError, ModelError
from voice_host.speech.events import HeardWord
from voice_host.talk_words import (
    COMMAND_FILLERS,
    COMMAND_LEAD,
    COMMAND_SPELLINGS,
    HOST_WRITTEN,
    PAST_SPELLINGS,
)

#: Moonshine's own voice detector often makes a separate line of the first
#: tenths of a second of an utterance and writes "You", "So" or "I" for it: a
#: line shorter than this that starts (almost) with the next line is dropped.
ARTEFACT_LINE = 0.35
#: How close the next line's start must be for a short line to be that artefact.
ARTEFACT_OVERLAP = 0.15
#: Words that never decide which transcript stands: articles and the joining
#: words of letter and rhyme talk.
_NOT_KEYS = frozenset({"a", "an", "the", "with", "like"})
_CLEAN = re.compile(r"[^a-z0-9']")


class Transcriber(Protocol):
    """Writes what was said in one utterance's audio."""

    name: str

    def transcribe(self, audio: bytes, start: float) -> tuple[HeardWord, ...]:
        """Words in ``audio`` (16 kHz mono s16) that starts at ``start`` (audio time)."""


@runtime_checkable
class WritesAhead(Protocol):
    """A :class:`Transcriber` that can write an utterance on a thread of its own."""

    def begin(self, audio: bytes, start: float) -> Callable[[], tuple[HeardWord, ...]]:
        """Start writing ``audio``; the call returned waits for the words
        (:meth:`Transcriber.transcribe`'s) and gives them, as often as asked."""


def _cores() -> int:
    """The processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


#: The processors this process may run on, when first imported.
CORES = _cores()


def write_ahead(
    transcriber: Transcriber,
    audio: bytes,
    start: float,
    *,
    ahead: bool = True,
    cores: int = CORES,
) -> Callable[[], tuple[HeardWord, ...]]:
    """The call that gives ``transcriber``'s words for ``audio``: begun now on its
    own thread when ``ahead`` is wanted, it can (:class:`WritesAhead`) and a second
    processor is there to run it, so that it writes while pocketsphinx decodes the
    same audio; otherwise written when first asked.  Its errors come from the call, as
    :meth:`Transcriber.transcribe`'s would.

    Begun ahead, it is written whether or not it is then asked for, on the second
    processor, which the recogniser otherwise leaves idle; the recogniser begins
    one only where it will likely be read (``pocketsphinx_backend``,
    ``_free_decode``).  On one processor the two would take turns, and a
    transcript not needed would only hold up the decode."""
    if ahead and cores >= 2 and isinstance(transcriber, WritesAhead):
        return transcriber.begin(audio, start)
    return functools.cache(lambda: transcriber.transcribe(audio, start))


def words_of_text(text: str) -> list[str]:
    """A transcript line as the referee's words: lower case, accents folded as the
    deck folds them ("crème brûlée" -> "creme brulee"), no punctuation, hyphens
    split, digits spelled out ("5" -> "five")."""
    out: list[str] = []
    for raw in fold(text).replace("-", " ").split():
        word = _CLEAN.sub("", raw).strip("'")
        if not word:
            continue
        if word.isdigit():
            out.extend(number_words(int(word)).split())
        else:
            out.append(word)
    return out


def spread_words(lines: Iterable[tuple[str, float, float]], start: float) -> tuple[HeardWord, ...]:
    """Words with times from ``(text, line start, line length)`` lines, the line
    times in seconds from ``start``: each word gets a share of its line's span in
    proportion to its letters.  The short first-line artefact
    (:data:`ARTEFACT_LINE`) is dropped."""
    ordered = sorted(lines, key=lambda line: line[1])
    kept = [
        line
        for i, line in enumerate(ordered)
        if not (
            i + 1 < len(ordered)
            and line[2] < ARTEFACT_LINE
            and ordered[i + 1][1] - line[1] <= ARTEFACT_OVERLAP
        )
    ]
    out: list[HeardWord] = []
    for text, offset, length in kept:
        words = words_of_text(text)
        letters = sum(len(w) for w in words)
        done = 0
        for word in words:
            a = start + offset + length * done / letters
            done += len(word)
            b = start + offset + length * done / letters
            out.append(HeardWord(word, round(a, 3), round(b, 3)))
    return tuple(out)


#: A command written another way ("host past") counts only with at most this many
#: words from it to the line's end (:meth:`Keys.commands_in`): the referee reads no
#: command in a sentence going on after one.
SPELLED_LAST = 3
#: A line with this many single letters in a row, the first of them the first letter
#: of a word of the card, is a describer spelling it ("t e l" on Telescope): it
#: matters (:meth:`Keys.spells`), and the referee judges whether it is letter talk.
SPELLED_RUN = 3


@dataclass(frozen=True)
class Keys:
    """The words that make a transcript matter now."""

    card: frozenset[str] = frozenset()
    """Words of the answers, forbidden forms, team names and letter or rhyme talk."""
    wake: frozenset[str] = frozenset()
    """The wake word (the first word of every command phrase)."""
    command: frozenset[str] = frozenset()
    """The command words after the wake word: they matter only with it."""
    entry: frozenset[str] = frozenset()
    """The card's own words (of its answers and forbidden forms): the words a
    card-biased model writes into talk that does not hold them."""
    talk: frozenset[str] = frozenset()
    """The words of letter and rhyme talk ("starts", "letters", "rhymes"): the
    same model writes them too."""
    plain: frozenset[str] = frozenset()
    """Words that lead into or close a called-out answer ("is", "it", "a",
    "maybe", "right"): after the card word in a short transcript, any other
    word asks for a second look (:data:`SHORT_READ_WORDS`)."""
    clue: frozenset[str] = frozenset()
    """Words that make a short utterance a describer's ("you", "their",
    "like", "when"): anywhere in a short transcript with the card word, they
    ask for a second look too."""
    answers: frozenset[tuple[str, ...]] = frozenset()
    """The card's accepted answers, as words (a leading article dropped)."""
    wake_loose: frozenset[str] = frozenset()
    """What a transcriber writes for the wake word "host" ("post"): it stands for it
    at the start of a line (:meth:`commands_in`)."""
    spelled: Mapping[str, str] = field(default_factory=dict, hash=False)
    """Each spelling of a command word that counts for it ("past" for "pass",
    :data:`~voice_host.talk_words.COMMAND_SPELLINGS`) -> the command word."""

    @classmethod
    def of(
        cls,
        phrases: Iterable[str],
        commands: Iterable[str],
        entry: Iterable[str] = (),
        talk: Iterable[str] = (),
        plain: Iterable[str] = (),
        clue: Iterable[str] = (),
        answers: Iterable[str] = (),
    ) -> Keys:
        """From the context's phrases to spot, its command phrases, the card's
        answers and forms (``entry``), the letter and rhyme talk phrases, the
        words of a guess's shape (``plain``) and of a clue's (``clue``), and
        the card's answers alone (``answers``)."""
        split = {" ".join(c.lower().split()): c.lower().split() for c in commands}
        wake = frozenset(parts[0] for parts in split.values() if parts)
        command = frozenset(w for parts in split.values() for w in parts[1:])
        card = frozenset(
            w
            for phrase in phrases
            if " ".join(phrase.lower().split()) not in split
            for w in phrase.lower().split()
            if w not in _NOT_KEYS
        )
        own = frozenset(w for p in entry for w in p.lower().split() if w not in _NOT_KEYS)
        said = frozenset(w for p in talk for w in p.lower().split() if w not in _NOT_KEYS)
        right = frozenset(_without_article(tuple(p.lower().split())) for p in answers)
        return cls(
            card,
            wake,
            command,
            own & card,
            said & card,
            frozenset(plain),
            frozenset(clue),
            frozenset(a for a in right if a),
            HOST_WRITTEN if wake == {"host"} else frozenset(),
            {sp: w for w in command for sp in COMMAND_SPELLINGS.get(w, {w})},
        )

    def in_(self, words: Sequence[HeardWord]) -> bool:
        """Whether ``words`` hold a card word, or the wake word and a command word."""
        texts = {w.text for w in words}
        return bool(texts & self.card) or bool(texts & self.wake and texts & self.command)

    def commands_in(self, words: Sequence[HeardWord], *, loose: bool = False) -> frozenset[str]:
        """The command words that come after a wake word in ``words``, or a
        spelling that counts for one right after it (:attr:`spelled`: "host past"
        holds "pass");
        ``loose``: or after a word written for the wake word (:attr:`wake_loose`)
        at the line's start ("post status"; "okay, post pause")."""
        texts = [w.text for w in words]
        woken = next((i for i, t in enumerate(texts) if t in self.wake), None)
        exact = woken is not None
        if woken is None and loose:
            lead = 1 if texts and texts[0] in COMMAND_LEAD else 0
            woken = lead if lead < len(texts) and texts[lead] in self.wake_loose else None
        if woken is None:
            return frozenset()
        found = {t for t in texts[woken + 1 :] if t in self.command}
        # another spelling only where the referee may read a command: right after
        # the wake word, or after one filler, and near the line's end ("a host of
        # past plays", "the host passed the book of the lord" hold none)
        at = woken + 1
        if at < len(texts) and texts[at] in COMMAND_FILLERS:
            at += 1
        said = texts[at] if at < len(texts) else ""
        if (
            said in self.spelled
            and len(texts) - at <= SPELLED_LAST
            and (exact or said not in PAST_SPELLINGS)  # "the ghost helped out": talk
        ):
            found.add(self.spelled[said])
        return frozenset(found)

    def matters(self, words: Sequence[HeardWord]) -> bool:
        """:meth:`in_`, or a command after a word written for the wake word at the
        start (:meth:`commands_in`), or the card spelled (:meth:`spells`): how a
        Moonshine line is read."""
        return self.in_(words) or bool(self.commands_in(words, loose=True)) or self.spells(words)

    def spells(self, words: Sequence[HeardWord]) -> bool:
        """Whether ``words`` hold :data:`SPELLED_RUN` or more single letters in a row
        starting with the first letter of a word of the card.

        A real voice spelling a word slowly ("T... E... L...", a letter to each
        breath) is written as letters by Moonshine and as other words by
        pocketsphinx ("paying the are work"), whose line, holding no key word, had
        stood (``benchmarks/spelling.py``: a real voice's letters, 0.15 s apart)."""
        firsts = {w[0] for w in self.entry}
        run = 0
        for i, word in enumerate(words):
            run = run + 1 if _is_letter(word.text) else 0
            if run >= SPELLED_RUN and words[i - run + 1].text in firsts:
                return True
        return False

    def is_key(self, word: str) -> bool:
        """Whether ``word`` is a card, wake or command word."""
        return word in self.card or word in self.wake or word in self.command


def letters_only(words: Sequence[HeardWord]) -> bool:
    """Whether ``words`` are one or two single letters: a letter of a slow spelling,
    each letter an utterance of its own ("T... E... L..."), which the referee joins
    (and judges: "a" and "i" are words too, and spelling needs two other letters)."""
    texts = [w.text for w in words]
    return 0 < len(texts) <= 2 and all(map(_is_letter, texts))


def _is_letter(text: str) -> bool:
    return len(text) == 1 and text.isalpha()


#: A transcript of at most this many words that holds a word of the card and
#: a clue word (:attr:`Keys.clue`), or after the card word a word that is not
#: :attr:`Keys.plain`, is written by the second transcriber too
#: (:func:`pick_transcript`): pocketsphinx garbles the words around a
#: called-out answer into a clue's ("is it a riddle?" written "is their
#: riddle", "is it curling?" "is the curl when", "it's jazz, isn't it?" "it's
#: jazz's and to").  Garbage that makes no clue ("is date london") the
#: referee already takes for a guess: no second look, which costs time.
SHORT_READ_WORDS = 6
#: A second transcript follows the same voice as pocketsphinx's when it holds at
#: least this many of pocketsphinx's other words (:func:`follows_same_voice`) ...
AGREE_WORDS = 2
#: ... and at least this share of them.
AGREE_SHARE = 0.5
#: Words shorter than this take no part in that comparison ("a", "to", "is") ...
AGREE_LETTERS = 3
#: ... nor do these: a recogniser that cannot follow a voice still writes them
#: ("the to the eiffel tower" against Moonshine's "is it the high fall tower").
FUNCTION_WORDS: frozenset[str] = frozenset((
    "the", "and", "but", "for", "nor", "yet", "are", "was", "were", "been", "has",
    "have", "had", "its", "it's", "his", "her", "hers", "him", "she", "they", "them",
    "their", "our", "you", "your", "who", "what", "how", "not", "with", "from", "that",
    "this", "than", "then", "there", "these", "those", "into", "onto", "can", "did", "does",
))  # fmt: skip


def _other_words(words: Sequence[HeardWord], keys: Keys, *, but_wake: bool = False) -> list[str]:
    """The words of ``words`` that tell whether two transcribers followed one voice
    (:func:`follows_same_voice`); ``but_wake``: not a word written for the wake word
    either (:attr:`Keys.wake_loose`)."""
    return [
        w.text
        for w in words
        if len(w.text) >= AGREE_LETTERS
        and w.text not in FUNCTION_WORDS
        and not keys.is_key(w.text)
        and not (but_wake and w.text in keys.wake_loose)
    ]


def _share_words(
    sphinx: Sequence[HeardWord],
    second: Sequence[HeardWord],
    keys: Keys,
    at_least: int,
    *,
    but_wake: bool = False,
) -> bool:
    """Whether ``second`` holds at least ``at_least`` of pocketsphinx's other words
    (:func:`_other_words`), and :data:`AGREE_SHARE` of them."""
    mine = _other_words(sphinx, keys, but_wake=but_wake)
    theirs = {w.text for w in second}
    shared = sum(word in theirs for word in mine)
    return shared >= at_least and shared >= AGREE_SHARE * len(mine)


def _agree_short(sphinx: Sequence[HeardWord], second: Sequence[HeardWord], keys: Keys) -> bool:
    """Whether the two transcripts share one of pocketsphinx's other words, and half
    of them: both followed the voice, in an utterance too short for
    :func:`follows_same_voice`'s two words ("is it a dog").

    Not a word written for the wake word ("post"): both models write it for
    "host", and what follows it is what was not agreed (espeak-ng's "host, help"
    written "post delp" and "post hell", where base-en writes "post help";
    ``benchmarks/commands.py``)."""
    return _share_words(sphinx, second, keys, 1, but_wake=True)


def follows_same_voice(
    sphinx: Sequence[HeardWord], second: Sequence[HeardWord], keys: Keys
) -> bool:
    """Whether the two transcripts of one utterance agree on its other words.

    pocketsphinx's words of :data:`AGREE_LETTERS` letters or more that are
    neither key words nor :data:`FUNCTION_WORDS` are looked up in the second
    transcript: when at least
    :data:`AGREE_WORDS` of them, and :data:`AGREE_SHARE` of them, are there,
    both recognisers followed the voice, and the second transcript is a
    witness to what was said (:class:`Reading`).  Where one of them could not
    follow (a synthetic voice Moonshine garbles, real speech in a noisy room
    that pocketsphinx garbles) they disagree (:func:`pick_transcript` says what
    follows).
    """
    return _share_words(sphinx, second, keys, AGREE_WORDS)


@dataclass(frozen=True)
class Reading:
    """The transcript the referee reads for one utterance, and its witness."""

    words: tuple[HeardWord, ...]
    second: bool = False
    """Whether ``words`` are the second transcriber's."""
    third: bool = False
    """Whether ``words`` are the third transcriber's (``second`` is then True too)."""
    witness: tuple[HeardWord, ...] | None = None
    """The second transcript, when it follows the same voice as pocketsphinx's
    (:func:`follows_same_voice`): a key word that only pocketsphinx's model,
    biased towards the card, wrote is then not taken as said."""
    agrees: bool = True
    """Whether the witness agreed with pocketsphinx's other words.  One that did
    not (a short utterance, too few words to compare) wins only where all its
    words near the card word are words the aligner can say and the sound prefers
    them to the card word in place of each of their closest-sounding runs."""
    hits_only: bool = False
    """Whether the witness speaks only against the spotter's hits, never for the
    words read: pocketsphinx's line held no word that matters (a command word
    without the wake word is no reason to read another line)."""


def pick_transcript(
    sphinx: tuple[HeardWord, ...],
    write_second: Callable[[], tuple[HeardWord, ...]] | None,
    keys: Keys,
    *,
    cross_check: bool = False,
    write_third: Callable[[], tuple[HeardWord, ...]] | None = None,
    check_command: Callable[[], tuple[HeardWord, ...]] | None = None,
) -> Reading:
    """Which transcript the referee reads, and whether it is the second one.

    pocketsphinx's stands when it holds a word that matters (:meth:`Keys.in_`),
    or when the second one (written by ``write_second``, called only when
    needed) holds none, or there is no second transcriber.  When neither holds
    one and they wrote different words (:func:`_agree_short`), ``write_third``
    (given for a short final utterance: a larger model,
    :mod:`voice_host.speech.moonshine_base`) writes it too, and its transcript
    is read when it holds a word that matters.  When it holds none either, at an
    utterance's final transcript (``cross_check``), its line (or the second's, when
    it was not asked) is returned as a witness that did not agree
    (:attr:`Reading.agrees`): a long phrase the spotter heard there and nobody
    wrote stands only where the sound prefers it (a child's "xylophone" on the card
    Telephone, spotted "telephone", written "is island phone" and "xylophone"; it
    had stood on its length, ``benchmarks/real_words.py``).  A command word
    without the wake word does not matter: pocketsphinx's model, biased towards
    every phrase of the context, writes "pass" or "foul" into clues it cannot
    follow.

    With ``cross_check`` (an utterance's final transcript, not the early check
    at a pause) the second transcript is also written when pocketsphinx's holds
    a word of the card or of letter or rhyme talk (:attr:`Keys.entry`,
    :attr:`Keys.talk`; not a team name or a command) among :data:`AGREE_WORDS`
    or more other words.
    When the two agree (:func:`follows_same_voice`) it is returned as the
    witness.  When they do not, and it holds no word that matters, it is read
    instead: in talk long enough to compare, the two wrote different sentences,
    and only the model biased towards the card found a card word in it.  When
    they do not and it holds the same card word, it is read too: the word was
    said, and the sentence around it, which decides who said it, is the one
    written by the recogniser that followed the voice.  On
    real speech in a noisy room (a broadcast with a crowd and music,
    ``benchmarks/real_voices.py``, held out) pocketsphinx's transcripts are
    garbled and write "cruise", "rhymes" or "arrowhead" into them, while
    Moonshine follows the voice.  On synthetic voices it is often the other
    way round, and there this loses fouls that Moonshine garbled (a trade
    measured and taken for real rooms: README, "Real voices").

    ``check_command`` (given for a short utterance, early check or final) writes
    it with the third transcriber when pocketsphinx's holds a command (a command
    word after the wake word, or after a word written for it at the start:
    :meth:`Keys.commands_in`): pocketsphinx's model, biased towards every command
    phrase, writes one command for another ("host foul" for kal16's "host, help",
    "post to repeat" for espeak-ng's "host, correct").  When the third's line
    holds a command and none of pocketsphinx's, the third's is read; so it is when
    it holds the same one in no more words (pocketsphinx's model garbles the
    word that closes it: "host correct ways" for kal16's "host, correct please").  Where it
    holds none, pocketsphinx's stands: base-en writes a command as other words
    ("host and do", "house to help"), and did for 46 of 148 transcripts in
    which pocketsphinx wrote the command said (tune split, clean and some babble;
    ``benchmarks/commands.py``).

    A Moonshine line matters also when a word written for the wake word ("post",
    "most") starts it, followed by a command word (:meth:`Keys.matters`): both
    models write "post status" for espeak-ng's "host, status".

    A short transcript that holds a word of the card among a clue's words, or
    with odd words after it (:func:`_garbled_short`, :data:`SHORT_READ_WORDS`),
    is written by the second transcriber too, early check or final: when the
    second one holds a word of the card (one pocketsphinx wrote, or a whole
    answer) and no other word that matters, its sentence is read, with
    pocketsphinx's spelling of the card word (:func:`_card_word_of`).  When it
    holds no word of the card, it is a witness that did not agree
    (:attr:`Reading.agrees`): too few words to tell whether the two followed one
    voice, so the sound decides.  On real voices pocketsphinx's model writes
    the card into short talk ("how did he not know that" written "batty not no
    that" on the card Bat), where Moonshine follows the voice; on synthetic
    voices Moonshine garbles the card word ("is it a kenger you"), which the
    sound then keeps (``benchmarks/real_voices.py``, ``referee.py --audio``).
    """
    commanded = keys.commands_in(sphinx, loose=True)
    if commanded and check_command is not None:
        third = check_command()
        heard = keys.commands_in(third, loose=True)
        if heard and not heard & commanded:
            # pocketsphinx's model, biased towards every command, wrote one; the
            # larger model wrote another after the wake word: its line is read
            return Reading(third, second=True, third=True)
        if heard == commanded and len(third) <= len(sphinx) and _texts(third) != _texts(sphinx):
            # Both wrote the same command, the larger model in no more words: its
            # words around the command are read (kal16's "host, correct please",
            # written "host correct ways" and "host correct please")
            return Reading(third, second=True, third=True)
    if write_second is None:
        return Reading(sphinx)
    second: tuple[HeardWord, ...] | None = None
    written = {w.text for w in sphinx}
    if not keys.in_(sphinx):
        second = write_second()
        if keys.matters(second):
            return Reading(second, second=True)
        letter = letters_only(second) and not letters_only(sphinx)
        agree = _agree_short(sphinx, second, keys)
        larger: tuple[HeardWord, ...] = ()  # the third's line, when asked
        if write_third is not None and (letter or not agree):
            # Neither wrote a word that matters, and they wrote different words: the
            # third, larger model reads it (where they agree, both followed the voice).
            # So too where the second wrote a letter alone: "bee" or "tea" may be a
            # guess the third writes whole.
            larger = write_third()
            if keys.matters(larger):
                return Reading(larger, second=True, third=True)
        if letter:
            # A letter said alone, which pocketsphinx wrote as a word ("t" as
            # "moved"): the referee joins it to the letters around it.
            return Reading(second, second=True)
        if cross_check and not agree and (larger or second):
            # No transcript holds a word that matters, and the two did not follow one
            # voice: the Moonshine line (the larger model's when asked) is a witness
            # that did not agree, against a long phrase the spotter heard and no one
            # wrote ("telephone" spotted where all three wrote other words: "is island
            # phone", "zylophone", "xylophone"), which the sound then decides.
            return Reading(sphinx, witness=larger or second, agrees=False, hits_only=True)
    elif (
        cross_check
        and (keys.entry | keys.talk) & written
        and len(_other_words(sphinx, keys)) >= AGREE_WORDS
    ):
        second = write_second()
        if follows_same_voice(sphinx, second, keys):
            return Reading(sphinx, witness=second)
        if second and not keys.in_(second):
            # Talk the two wrote differently, where only pocketsphinx's model,
            # biased towards the card, wrote a word that matters: the second reads.
            return Reading(second, second=True)
        if keys.entry & written & {w.text for w in second}:
            # Both heard the card word, but pocketsphinx garbled the words around
            # it: the second's sentence tells who said it ("is it a lion, a tiger,
            # an elephant", written "the got like on title an elephant": a foul).
            return Reading(second, second=True)
        return Reading(sphinx)
    elif _garbled_short(sphinx, keys):
        second = write_second()
        said = {w.text for w in second}
        card = keys.entry & said
        if (
            card
            and (card <= written or _holds_answer(second, keys))
            and not ((keys.card - keys.entry) & said)
        ):
            # Both wrote a word of the card in a short utterance whose other words
            # pocketsphinx garbled (the second one no other form than pocketsphinx's:
            # "our condition then" is no reading of "air conditioning!"): the
            # sentence of the one that followed the voice tells who said it, and
            # the card-biased model spells the card word.
            return Reading(_card_word_of(sphinx, second, keys), second=True)
        if second and not keys.entry & said:
            # The second wrote no word of the card where pocketsphinx's model, biased
            # towards it, wrote one among other words: a witness, and the sound
            # decides whether the card word stands
            return Reading(sphinx, witness=second, agrees=False)
        return Reading(sphinx)
    if cross_check and second is not None and follows_same_voice(sphinx, second, keys):
        return Reading(sphinx, witness=second)
    return Reading(sphinx)


def _texts(words: Sequence[HeardWord]) -> list[str]:
    return [w.text for w in words]


def _garbled_short(sphinx: Sequence[HeardWord], keys: Keys) -> bool:
    """Whether ``sphinx`` is a short transcript holding a word of the card and a
    clue word (:attr:`Keys.clue`), or after the card word a word that is neither
    the card's nor of a guess's shape (:attr:`Keys.plain`)."""
    if not keys.plain or not 1 < len(sphinx) <= SHORT_READ_WORDS:
        return False
    texts = [w.text for w in sphinx]
    at = [i for i, t in enumerate(texts) if t in keys.entry]
    if not at:
        return False
    others = [t for t in texts if not keys.is_key(t)]
    after = [t for t in texts[at[-1] + 1 :] if not keys.is_key(t)]
    return any(t in keys.clue for t in others) or any(t not in keys.plain for t in after)


def _without_article(words: tuple[str, ...]) -> tuple[str, ...]:
    return words[1:] if words[:1] in (("the",), ("a",), ("an",)) else words


def _holds_answer(words: Sequence[HeardWord], keys: Keys) -> bool:
    """Whether ``words`` hold one of the card's answers whole ("jazz", "guinea
    pig"; not the "fairy" of "fairy tale")."""
    texts = [w.text for w in words]
    return any(
        texts[i : i + len(answer)] == list(answer)
        for answer in keys.answers
        for i in range(len(texts) - len(answer) + 1)
    )


def _card_word_of(
    sphinx: Sequence[HeardWord], second: tuple[HeardWord, ...], keys: Keys
) -> tuple[HeardWord, ...]:
    """``second`` with its one word of the card spelt as pocketsphinx spelt its one
    ("you swam in the sea" read as "you swim in the sea" where pocketsphinx
    wrote "swim": its model, biased towards the card, writes the card's words
    better when it follows the voice at all); unchanged otherwise."""
    mine = {w.text for w in sphinx if w.text in keys.entry}
    theirs = {w.text for w in second if w.text in keys.entry}
    if len(mine) != 1 or len(theirs) != 1 or mine == theirs:
        return second
    (spelt,), (other,) = mine, theirs
    return tuple(dataclasses.replace(w, text=spelt) if w.text == other else w for w in second)


#: Options for Moonshine's engine.  ``vad_threshold`` 0: its own voice detector takes
#: the whole utterance our endpointer cut as one line.  With its default the detector
#: carries state from one call to the next, so the same utterance could be cut (and
#: read) differently after other speech: kal16's "is it a car?" over babble was "is it
#: a car" on a process's first call and "is it a call" on every later one.
#: ``return_audio_data`` off: each line would come back with a copy of its audio as a
#: Python list, unread here (5-8% of Moonshine's CPU on 40 clue clips).
ENGINE_OPTIONS = {"vad_threshold": "0", "return_audio_data": "false"}


class MoonshineTranscriber:
    """:class:`Transcriber` on the Moonshine tiny-en model bundled in moonshine-voice.

    Raises :class:`EngineError` when the library is missing or does not load,
    :class:`ModelError` when the bundled model does not.
    """

    name = "Moonshine tiny-en"

    def __init__(self) -> None:
        # One thread: with its default two, onnxruntime's workers spin between the
        # small model's steps and double the CPU time for the same wall time
        # (measured: 60.7 s against 29.5 s of CPU for 30 s of work on the fixtures),
        # CPU the spotter and the announcer need.  Read when a model is loaded.
        os.environ.setdefault("MOONSHINE_ORT_SINGLE_THREAD", "1")
        try:
            import moonshine_voice
            from moonshine_voice.transcriber import Transcriber as _Transcriber
        except (ImportError, OSError) as exc:
            raise EngineError(f"moonshine-voice is not usable: {exc}") from None
        model = moonshine_voice.get_model_path("tiny-en")
        if not (model / "encoder_model.ort").is_file():
            raise ModelError(
                f"moonshine-voice has no bundled tiny-en model at {model} "
                "(only version 0.1.0 ships it)"
            )
        try:
            self._engine: Any = _Transcriber(
                model_path=str(model),
                model_arch=moonshine_voice.ModelArch.TINY,
                options=ENGINE_OPTIONS,
            )
        except Exception as exc:  # the library raises its own MoonshineError types
            raise ModelError(f"cannot load the Moonshine model at {model}: {exc}") from None
        self._raw = _raw_call(self._engine)
        self._thread: ThreadPoolExecutor | None = None

    def transcribe(self, audio: bytes, start: float) -> tuple[HeardWord, ...]:
        return self.begin(audio, start)()

    def begin(self, audio: bytes, start: float) -> Callable[[], tuple[HeardWord, ...]]:
        """Start writing ``audio`` (:class:`WritesAhead`) on this transcriber's one
        thread, which every transcript of it is written on.

        When this returns, that thread is inside Moonshine's C library, which runs
        without Python's lock: pocketsphinx's decode, which holds the lock
        throughout, can then run on the calling thread at the same time, on the
        other core (``benchmarks/host_latency.py``: a short utterance's two
        transcripts came 0.05-0.2 s sooner).  Had the thread not been inside yet,
        the decode would hold it back until done: the two would take turns, as
        they did before.  Without the library's own call (:func:`_raw_call`), the
        words are written on the calling thread when first asked."""
        import numpy as np

        if len(audio) < 2 * SAMPLE_RATE // 10:
            return lambda: ()
        samples = np.frombuffer(audio, dtype=np.int16).astype(np.float32) / 32768.0
        raw = self._raw
        if raw is None:
            return functools.cache(
                lambda: self._words(
                    self._engine.transcribe_without_streaming(samples.tolist(), SAMPLE_RATE),
                    start,
                )
            )
        buffer = (ctypes.c_float * len(samples)).from_buffer(samples.data)
        inside = threading.Event()

        def write() -> Any:
            inside.set()
            return raw(buffer, len(samples))

        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="moonshine")
        try:
            future = self._thread.submit(write)
        except RuntimeError:  # the interpreter is shutting down: no new threads
            return functools.cache(lambda: self._words(raw(buffer, len(samples)), start))
        # Until it is inside (at once, unless it is still writing the last transcript;
        # never for long: its words would then be asked for and waited for anyway)
        inside.wait(BEGIN_WAIT)
        return functools.cache(lambda: self._words(future.result(), start))

    @staticmethod
    def _words(result: Any, start: float) -> tuple[HeardWord, ...]:
        lines: Sequence[Any] = result.lines or ()
        return spread_words(
            ((line.text, float(line.start_time), float(line.duration)) for line in lines), start
        )


#: Seconds :meth:`MoonshineTranscriber.begin` waits at most for its thread to start
#: writing.
BEGIN_WAIT = 1.0


def _raw_call(engine: Any) -> Callable[[Any, int], Any] | None:
    """moonshine-voice 0.1.0's own call into its C library, given a ctypes buffer of
    float samples and their count, and its reader of the result; None when the
    library has them no longer.

    Its public ``transcribe_without_streaming`` first builds a ctypes array from a
    Python list, holding Python's lock for 8 ms per 3 s of audio, long enough for
    another thread to take the lock before the call gets inside
    (:meth:`MoonshineTranscriber.begin`); the buffer here is the samples' own
    memory, with no copy."""
    try:
        from moonshine_voice.errors import check_error
        from moonshine_voice.moonshine_api import TranscriptC

        function = engine._lib.moonshine_transcribe_without_streaming
        read = engine._parse_transcript
    except (ImportError, AttributeError):
        return None

    def call(buffer: Any, count: int) -> Any:
        out = ctypes.POINTER(TranscriptC)()
        check_error(function(engine._handle, buffer, count, SAMPLE_RATE, 0, ctypes.byref(out)))
        return read(out)

    return call


def default_transcriber() -> Transcriber | None:
    """Moonshine when it loads, else None (pocketsphinx then reads alone)."""
    try:
        return MoonshineTranscriber()
    except (EngineError, ModelError):
        return None
