"""The referee: recogniser events + game situation -> judgements with evidence.

Pure code: no audio, no threads, no clock.  Every time comes from the events,
in seconds of audio time.

When it decides
---------------
* ``final`` events are judged; ``partial`` events only when they are a steered
  hit already confirmed (``confirmed is True``): partials change, finals don't.
* :meth:`Referee.judge` is stateless: one event, one answer.
* :meth:`Referee.observe` remembers what it already judged (same judgement
  within :data:`SAME_WORD_SECONDS` of the same time is not repeated, so a
  confirmed partial then its final count once) and recent free transcripts,
  so it can confirm a steered hit afterwards.

Steered hits (``source`` "kws" or "grammar")
--------------------------------------------
A steered recogniser hears its target in everything, so its hit is a guess,
near miss or foul only when independently confirmed: ``confirmed is True``
(the listening side checked it), or - in :meth:`Referee.observe` - a free
transcript overlapping it in time contains the target loosely in spelling or
sound (:data:`~voice_host.referee.matching.CONFIRM_SOUND_MIN`).  Then the free
transcript's words decide who said it.  ``confirmed is False`` always rejects.
If the free transcript itself matched the entry there, its judgement stands
and the steered hit adds nothing (a spotted "albert" inside a heard "albert
einstein" is not a foul).  A spotted command needs ``confirmed is True``, and
in :meth:`Referee.observe` an overlapping free transcript, when there is one,
must hold the command word (precision first: never invent a command).

A wake word on its own
----------------------
People pause after calling the host ("host, ... pause"), and the endpointer
may end an utterance there.  In :meth:`Referee.observe` a free transcript
that is a command word alone (with its tail) is read together with the free
transcript just before it when that one ended at most
:data:`WAKE_PAUSE_SECONDS` earlier and was nothing but a wake word (after at
most an attention word or stray letters, as the command reader allows at the
start of an utterance): "host" | "help" is the command ``help``.

One verdict per spoken word
---------------------------
One utterance has one speaker, and one spoken word gets one verdict.
:meth:`Referee.observe_all` judges a batch's free transcript first, then its
steered hits, and reconciles the judgements of overlapping words: the best
evidence stands (the free transcript's words over a steered hit's length
estimate), then the answer over a form (a spotter reports "kangaroo",
"kangaroos" and "kangaroo's" for one word) - unless the form's hit runs on
past the answer's (:data:`LONGER_FORM_SECONDS`: "telescopic" was said).
A word that already got a verdict in an earlier batch keeps it: a guess the
host acted on is never followed by a foul for the same word.  Steered hits
are not held across batches: pocketsphinx gives an utterance's hits and its
free transcript in the same batch, and the referee has no clock to release a
held hit if no later batch came.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any

from rapidfuzz import fuzz

from voice_host.deck.model import Entry
from voice_host.deck.words import norm_phrase, split_words
from voice_host.referee.commands import (
    LEADING_FILLERS,
    MAX_ATTENTION_WORDS,
    NOT_WAKE,
    TEAM_NAME_PHASES,
    CommandReader,
    is_claim_tail,
)
from voice_host.referee.frequency import WordFrequency, default_word_frequency
from voice_host.referee.matching import (
    EntryTargets,
    Match,
    affix_variant,
    phone_class_similarity,
    phrase_phones,
)
from voice_host.referee.phones import PhoneLookup, default_phone_lookup
from voice_host.referee.speaker import (
    CUT_IN_QUESTIONS,
    SOUNDED_LEAD_WORDS,
    SOUNDED_LEADS,
    SOUNDED_TAILS,
    TAIL_SOUND_MIN,
    attribute,
    pause_before,
)
from voice_host.referee.talk import find_talk, initialisms, is_letter, join_initialisms
from voice_host.referee.text import Token, is_stray, tokens
from voice_host.referee.values import (
    ECHO_WINDOW_SECONDS,
    STEERED_SOURCES,
    FoulKind,
    Judgement,
    Phase,
    Situation,
)
from voice_host.referee.voice import DescriberVoice
from voice_host.referee.wordclass import (
    AdjectiveLookup,
    NameLookup,
    default_adjective_lookup,
    default_name_lookup,
)
from voice_host.speech.events import RecognitionEvent
from voice_host.talk_words import GUESS_LEAD, GUESS_TAIL, noisy_answer_forms

#: A spotted command whose free transcript is longer than this (words) must
#: read as a command in that transcript too: commands are said on their own.
COMMAND_MAX_WORDS = 5
#: ... and in a shorter one its command word comes at most this many words in:
#: an attention word, the wake word and a filler ("okay host to pass"), each
#: of which a recogniser may write as something else.
COMMAND_WORD_AT_MOST = 3
#: ... with at most this many words after it (the breath, "please"): a sentence
#: that goes on is no command ("the postman brings your letters" in a
#: reverberant room was written "post quit review letters").
COMMAND_TAIL_AT_MOST = 1
#: A silence this long (seconds) between two heard words splits an utterance:
#: a guesser's shout right after the describer's clue is its own utterance.
SPLIT_GAP_SECONDS = 0.6
#: Spelled letters with pauses up to this long (seconds) between them are one
#: spelling, across segments and utterances: a describer spells slowly, a letter to
#: each breath ("T... E... L..."), and the voice detector closes an utterance on
#: each of them (a real voice's letters 0.4 s apart, ``benchmarks/spelling.py``).
SPELL_PAUSE_SECONDS = 1.5
#: In such a slow spelling, a word a recogniser writes for a letter's name, said
#: alone (an utterance or a segment of its own), is that letter: "t | are | o" on
#: Troy, "c | are | e" on Creek (``benchmarks/spelling.py``).  Not in a sentence,
#: and not those that stand for several letters ("she", "as", "we").
SOUNDED_LETTER = {
    "are": "r",
    "our": "r",
    "be": "b",
    "see": "c",
    "sea": "c",
    "you": "u",
    "why": "y",
    "oh": "o",
    "owe": "o",
    "tea": "t",
    "eye": "i",
    "pea": "p",
    "queue": "q",
    "he": "e",
}
#: A transcript this similar (``fuzz.partial_ratio``, 0-100) to the last
#: announcement, heard within 3 s of it, is the host hearing itself.
ECHO_MIN = 85.0
#: Two judgements of the same kind this close in time (seconds) are one.
SAME_WORD_SECONDS = 0.5
#: How long (seconds of audio time) free transcripts and unconfirmed steered
#: hits are kept for confirming each other.
MEMORY_SECONDS = 15.0
#: A wake word heard as its own free transcript still starts a command whose
#: command word opens the next free transcript at most this long (seconds of
#: audio time) after it: a pause after calling the host.
WAKE_PAUSE_SECONDS = 1.5


#: A called-out answer word glued to the word beside it, with at most this
#: much silence between them (seconds), makes one word with it when the
#: dictionary has their spelling joined: "water melon" is a guesser's
#: watermelon on the card Water, "angel fish" angelfish on Angel (the
#: card-biased recogniser splits a word it does not expect around the card's;
#: a compound the dictionary lacks, "lunch box" on Boxing's "box", still
#: counts).  Only a neighbour of :data:`COMPOUND_LETTERS` letters or more that
#: is not a guess's own lead or tail word ("a", "it", "please"): "a gain" is no
#: "again".
COMPOUND_GAP_SECONDS = 0.15
COMPOUND_LETTERS = 3


#: Words after a team's name that still leave "<answer> <team>" a guess and a
#: claim in a CONTROL round ("pizza green home" for "pizza! green team!").
CLAIM_CUT_AFTER = 1


#: Words every guess is made of ("is it a ...?", "is that her?"): a card of these
#: alone (the film It, the band The Who, Us, Her) is a guess only where it ends one.
_PRONOUNS = frozenset(
    [
        *("the", "it", "its", "us", "we", "you", "he", "she", "her", "him", "they", "them"),
        *("me", "i", "who", "what", "that", "this", "these", "those", "my", "your", "our"),
        "his",
    ]
)


#: What may come before a card of everyday words for it to be a guess: nothing, or
#: the question of a guess ("is it it?", "it's us!", "is it the who?").
_EVERYDAY_LEADS = frozenset([(), ("is", "it"), ("it's",), ("is", "it", "the"), ("the",)])


def _everyday(m: Match, seg: tuple[Token, ...]) -> bool:
    """Whether ``m`` is an answer of everyday words only ("it" of the card It, "us",
    "her") said as talk: "is it chess?", "is that it?", "got it", "tell us" are no
    guesses.  Such an answer counts only said alone or after "is it" (or "it's"),
    ending the utterance ("it!", "is it it?", "is it us?")."""
    if m.target.kind != "answer" or not all(w in _PRONOUNS for w in m.target.words):
        return False
    lead = tuple(t.text for t in seg[: m.first])
    return m.last < len(seg) - 1 or lead not in _EVERYDAY_LEADS


def _compound(
    seg: tuple[Token, ...],
    first: int,
    last: int,
    phones: PhoneLookup | None,
    own: frozenset[str] = frozenset(),
) -> str:
    """The word that ``seg[first..last]`` (a match) makes with the word glued to
    it on either side, when the dictionary ``phones`` has it ("water melon" ->
    "watermelon"); '' when none does (see :data:`COMPOUND_GAP_SECONDS`).  A
    neighbour among the card's ``own`` words is the answer said again ("ant and
    dec ant and dec" is no "decant")."""
    if phones is None:
        return ""
    # (the neighbour, the silence between it and the match, the two spelled as one)
    sides: list[tuple[Token, float, str]] = []
    if first > 0:
        left = seg[first - 1]
        sides.append((left, seg[first].start - left.end, left.text + seg[first].text))
    if last + 1 < len(seg):
        right = seg[last + 1]
        sides.append((right, right.start - seg[last].end, seg[last].text + right.text))
    for other, gap, joined in sides:
        word = other.text
        if (
            len(word) >= COMPOUND_LETTERS
            and word.isalpha()
            and word not in GUESS_LEAD
            and word not in GUESS_TAIL
            and word not in own
            and gap <= COMPOUND_GAP_SECONDS
            and phones(joined) is not None
        ):
            return joined
    return ""


def _without_claim(
    seg: tuple[Token, ...], span: tuple[float, float] | None, reader: CommandReader
) -> tuple[tuple[Token, ...], tuple[float, float] | None, int | None]:
    """``seg`` (and ``span``) without a team's claim that ends it: a CONTROL round
    asks for the answer, then the team's name, and "pizza green home" ("pizza!
    green team!") is a guess and a claim, not the describer saying "pizza" and
    going on.  The name must come after at least one word, with at most
    :data:`CLAIM_CUT_AFTER` words after it but a claim's tail; the words between
    the answer and the name that a claim's tail allows ("of") go with it.  The
    third value is the name's place in ``seg`` (None: no claim ends it)."""
    words = [t.text for t in seg]
    for k in range(1, len(seg)):
        team = reader.team(words[k])
        if team is None:
            continue
        odd = [w for w in words[k + 1 :] if not (is_claim_tail(w) or reader.team(w) == team)]
        if len(odd) > CLAIM_CUT_AFTER:
            continue
        cut = k
        while cut > 1 and is_claim_tail(words[cut - 1]):
            cut -= 1
        kept = seg[:cut]
        return kept, (span[0], min(span[1], kept[-1].end + 0.3)) if span else None, k
    return seg, span, None


def _answer_phrases(entry: Entry | None) -> list[tuple[str, ...]]:
    """The entry's answers as tuples of words, with the stray endings a recogniser
    adds to one ("telescoped": :func:`noisy_answer_forms`)."""
    if entry is None:
        return []
    out = []
    for answer in entry.answers:
        phrase = " ".join(norm_phrase(answer))
        for said in (phrase, *noisy_answer_forms(phrase, entry.forms)):
            out.append(tuple(said.split()))
    return out


def _verbal(entry: Entry | None, words: tuple[str, ...]) -> bool:
    """Whether the matched ``words`` of ``entry`` may be a verb: the entry is an
    action, or its first word has a verb's -ing or -ed among the entry's
    answers and forms (Watch: watching; Iron: ironed; not Watermelon).  Then
    "you watch" is a sentence, not a guesser's "ooh, watch!"."""
    if entry is None:
        return False
    if entry.category == "Action":
        return True
    content = [w for w in words if w not in ("the", "a", "an")]
    if not content:
        return False
    w = content[0]
    made = {w + "ing", w + "ed", w + "d", w[:-1] + "ing", w + w[-1] + "ing", w + w[-1] + "ed"}
    return bool(made & {*entry.forms, *entry.answers})


def _nothing(t: float, heard: str, why: str, **features: Any) -> Judgement:
    return Judgement("nothing", t, heard, evidence=why, features=features)


def _span_text(toks: tuple[Token, ...], first: int, last: int) -> str:
    return " ".join(t.shown for t in toks[first : last + 1])


@dataclass(frozen=True)
class _Pending:
    event: RecognitionEvent
    situation: Situation


class Referee:
    """Judges recogniser events against the game situation.

    ``phones`` looks up a heard word's CMU phones (wire it to
    :func:`voice_host.referee.phones.default_phone_lookup`); without it the
    referee matches by spelling only.
    """

    def __init__(
        self,
        phones: PhoneLookup | None = None,
        frequency: WordFrequency | None = None,
        adjective: AdjectiveLookup | None = None,
        name_word: NameLookup | None = None,
    ) -> None:
        """Create a referee; ``phones`` is the word -> phones lookup, ``frequency``
        the word -> Zipf frequency lookup that tells common words, ``adjective``
        the lookup that tells adjectives, ``name_word`` the one that tells a
        person's name from an everyday word (any may be None)."""
        self.phones = phones
        self.frequency = frequency
        self.adjective = adjective
        self.name_word = name_word
        self._targets: tuple[Entry, EntryTargets] | None = None
        self._readers: dict[tuple[tuple[str, ...], str], CommandReader] = {}
        self._emitted: list[Judgement] = []
        #: (start, end) seconds of the words each returned match judgement was about
        self._decided: list[tuple[float, float]] = []
        self._free: list[tuple[RecognitionEvent, Situation]] = []
        self._pending: list[_Pending] = []
        #: the phones of each phrase :meth:`_sounded` compares with, looked up once
        self._phrase_phones: dict[tuple[str, ...], tuple[str, ...] | None] = {}
        #: the describer's pitch, learnt from each turn's long utterances
        self._describer = DescriberVoice()

    @classmethod
    def default(cls, phones: PhoneLookup | None = None) -> Referee:
        """A referee with the packaged word knowledge: ``phones`` or else pocketsphinx's
        CMU dictionary, wordfreq's list of how common words are, and lemminflect's
        lexicon of adjectives and of everyday words, which names are not (each read
        on first use)."""
        return cls(
            default_phone_lookup() if phones is None else phones,
            default_word_frequency(),
            default_adjective_lookup(),
            default_name_lookup(),
        )

    # ----- caches -------------------------------------------------------------
    def targets(self, entry: Entry) -> EntryTargets:
        """The prepared answers and forms for ``entry`` (cached for the last entry)."""
        if self._targets is None or self._targets[0] is not entry:
            self._targets = (entry, EntryTargets(entry, self.phones, self.frequency))
        return self._targets[1]

    def _reader(self, situation: Situation) -> CommandReader:
        key = (situation.teams, situation.wake_word)
        if key not in self._readers:
            self._readers[key] = CommandReader(situation.teams, situation.wake_word, self.phones)
        return self._readers[key]

    # ----- stateless ----------------------------------------------------------
    def judge(self, event: RecognitionEvent, situation: Situation) -> list[Judgement]:
        """Judge one event on its own.

        Returns ``[]`` for an event not decided on (a partial that is not a
        confirmed steered hit, or no words); otherwise one or more judgements
        in spoken order, a single ``nothing`` (with the reason as evidence)
        when nothing counts.
        """
        if event.kind == "partial" and event.confirmed is not True:
            return []
        toks = tokens(event.words)
        if not toks:
            return []
        heard = " ".join(t.text for t in toks)
        steered = event.source in STEERED_SOURCES
        if steered and event.confirmed is False:
            return [_nothing(event.end, heard, "steered hit rejected by its independent check")]
        toks, gated = self._gate(toks, situation)
        if not toks:
            return [
                _nothing(event.end, heard, "all words fell while the host was speaking", **gated)
            ]
        echo = self._echo(toks, situation)
        if echo is not None:
            return [echo]
        out: list[Judgement] = []
        segs = _segments(toks)
        for i, seg in enumerate(segs):
            # the endpointer's utterance span belongs to the first and last
            # segments only: a shout after a pause is not as long as the clue
            # before it in the same recogniser utterance
            span = event.utterance
            if span is not None and len(segs) > 1:
                span = (
                    span[0] if i == 0 else seg[0].start,
                    span[1] if i == len(segs) - 1 else seg[-1].end,
                )
            out.extend(self._judge_segment(seg, event, situation, steered, span, len(segs) == 1))
        if not out:
            why = "no answer, forbidden form, foul talk or command heard"
            return [_nothing(toks[-1].end, heard, why, **gated)]
        return out

    def _gate(
        self, toks: tuple[Token, ...], situation: Situation
    ) -> tuple[tuple[Token, ...], dict[str, Any]]:
        """Drop words overlapping host speech plus its tail."""
        if not situation.host_speech:
            return toks, {}
        kept = tuple(
            t
            for t in toks
            if not any(
                t.start < end + situation.host_tail and t.end > start
                for start, end in situation.host_speech
            )
        )
        dropped = len(toks) - len(kept)
        return kept, ({"dropped_host_words": dropped} if dropped else {})

    def _echo(self, toks: tuple[Token, ...], situation: Situation) -> Judgement | None:
        """A ``nothing`` if ``toks`` repeat the last announcement within 3 s of it."""
        said = " ".join(norm_phrase(situation.last_announcement))
        if not said or situation.announced_at is None:
            return None
        if toks[0].start > situation.announced_at + ECHO_WINDOW_SECONDS:
            return None
        heard = " ".join(t.text for t in toks)
        score = fuzz.partial_ratio(heard, said) if len(heard) <= len(said) else 0.0
        if score < ECHO_MIN:
            return None
        why = f"matches the host's last announcement ('{situation.last_announcement}')"
        return _nothing(toks[-1].end, heard, why, echo_score=round(score, 1))

    def _judge_segment(
        self,
        seg: tuple[Token, ...],
        event: RecognitionEvent,
        situation: Situation,
        steered: bool,
        span: tuple[float, float] | None,
        whole: bool,
    ) -> list[Judgement]:
        """Judge one silence-separated segment of an event's words; ``whole``
        when it is all of them (see :meth:`CommandReader.read`)."""
        reader = self._reader(situation)
        answers: list[tuple[str, ...]] = []  # for a team's name, said where one counts
        if situation.phase in TEAM_NAME_PHASES:
            # a team of several words ("big red") is one name, but not in the answer
            answers = _answer_phrases(situation.entry)
            seg = reader.glue(seg, answers)
        if situation.entry is not None:
            seg = join_initialisms(seg, initialisms(situation.entry.text))  # "d v d": DVD
        cmd = reader.read(seg, situation.phase, whole=whole)
        if cmd is not None:
            heard = _span_text(seg, cmd.first, cmd.last)
            if steered and event.confirmed is not True:
                return [_nothing(seg[cmd.last].end, heard, "unconfirmed steered command")]
            feats = {"woken": cmd.woken, "source": event.source or "free"}
            return [
                Judgement(
                    "command",
                    seg[cmd.first].start,
                    heard,
                    command=cmd.name,
                    argument=cmd.argument,
                    evidence=f"command {cmd.name}: {cmd.cue}",
                    features=feats,
                )
            ]
        if situation.phase not in (Phase.TURN, Phase.CONTROL) or situation.entry is None:
            return []
        if steered and event.confirmed is not True:
            return [
                _nothing(seg[-1].end, _span_text(seg, 0, len(seg) - 1), "unconfirmed steered hit")
            ]
        claims: list[Judgement] = []
        if situation.phase is Phase.CONTROL:
            words = [t.text for t in seg]
            kept, kept_span, at = _without_claim(seg, span, reader)
            if at is not None and reader.stands_alone(words, at, answers=answers):
                # "telescope blue", "is it a telescope blue": the guess, and the claim
                claims.append(
                    Judgement(
                        "command",
                        seg[at].start,
                        seg[at].shown,
                        command="team",
                        argument=reader.team(words[at]),
                        evidence=f"command team: '{seg[at].shown}' after the answer",
                        features={"woken": False, "source": event.source or "free"},
                    )
                )
            seg, span = kept, kept_span
        return self._judge_words(seg, seg, None, situation, span, event.pitch) + claims

    def _judge_words(
        self,
        seg: tuple[Token, ...],
        context: tuple[Token, ...],
        where: tuple[int, int] | None,
        situation: Situation,
        span: tuple[float, float] | None,
        pitch: float | None = None,
    ) -> list[Judgement]:
        """Fouls, guesses and near misses in ``seg``.  Who said a match is
        decided from ``context`` (``where`` gives the match's place in it when
        ``context`` is another transcript than ``seg``); ``pitch`` is the
        utterance's, when measured (:mod:`.voice`)."""
        assert situation.entry is not None
        out: list[Judgement] = []
        talks = find_talk(seg, situation.entry.text)
        in_talk = [False] * len(seg)
        for talk in talks:
            for i in range(talk.first, talk.last + 1):
                in_talk[i] = True
            t = seg[talk.first].start
            heard = _span_text(seg, talk.first, talk.last)
            late = self._outside_turn(seg[talk.first], seg[talk.last], situation, guess=False)
            if late:
                out.append(_nothing(t, heard, late))
                continue
            out.append(
                Judgement(
                    "foul",
                    t,
                    heard,
                    kind=talk.kind,
                    evidence=f"{talk.kind} talk: {talk.cue}",
                    features={"cue": talk.cue},
                )
            )
        matches = [m for m in self.targets(situation.entry).find(seg) if not _everyday(m, seg)]
        # the answer said again ("kangaroo! kangaroo!"), as places in ``context``
        repeats = (
            tuple((m.first, m.last) for m in matches if m.target.kind == "answer")
            if where is None
            else ()
        )
        for m in matches:
            if any(in_talk[m.first : m.last + 1]):
                continue  # "rhymes with cat" is already a rhyme foul
            out.append(self._judge_match(seg, m, context, where, situation, span, repeats, pitch))
        return _first_of_each(_wrong_tries_dropped(out))

    def _sounded(self, words: Sequence[str], phrases: Sequence[tuple[str, ...]]) -> str:
        """The first of ``phrases`` that ``words`` sound like (phone classes, at
        least :data:`~voice_host.referee.speaker.TAIL_SOUND_MIN`); '' when none
        does or the phones are unknown."""
        if self.phones is None:
            return ""
        heard = phrase_phones(tuple(words), {}, self.phones)
        if not heard:
            return ""
        for phrase in phrases:
            if phrase not in self._phrase_phones:
                self._phrase_phones[phrase] = phrase_phones(phrase, {}, self.phones)
            said = self._phrase_phones[phrase]
            if said and phone_class_similarity(heard, said) >= TAIL_SOUND_MIN:
                return " ".join(phrase)
        return ""

    def _tail_sound(self, after: tuple[Token, ...]) -> str:
        """The closing question (:data:`~voice_host.referee.speaker.SOUNDED_TAILS`)
        that ``after``, two or three words ending the utterance, sounds like; ''."""
        if not 2 <= len(after) <= 3:
            return ""
        return self._sounded([t.text for t in after], SOUNDED_TAILS)

    def _lead_sound(self, toks: tuple[Token, ...], first: int) -> tuple[int, float, str] | None:
        """(where they start, the pause before them, the question) when the one
        to :data:`~voice_host.referee.speaker.SOUNDED_LEAD_WORDS` words before
        ``toks[first]`` follow the nearest pause
        (:func:`~voice_host.referee.speaker.pause_before`) and sound like a
        guesser's question (:data:`~voice_host.referee.speaker.SOUNDED_LEADS`:
        "visit a" for "is it a"); None otherwise.  (A pause right before the
        match, with no words between, is rule 6's own.)"""
        pause = pause_before(toks, first, SOUNDED_LEAD_WORDS)
        if pause is None or pause[0] == first:
            return None
        k, gap = pause
        sounded = self._sounded([t.text for t in toks[k:first]], SOUNDED_LEADS)
        return (k, gap, sounded) if sounded else None

    def _namesake(self, seg: tuple[Token, ...], m: Match, entry: Entry) -> str:
        """The other person named when a guesser's answer is a part of a person's
        name beside a name the card does not hold: a first name before a surname
        ("serena williams" on Venus Williams, "homer simpson" on Bart Simpson), or
        a name after a first name ("victoria beckham" on Queen Victoria, "diana
        ross" on Princess Diana); those words, or ''.  A surname before it is none
        ("spielberg kubrick hitchcock" is three guesses, the last right)."""
        if self.name_word is None or entry.category != "Person" or len(m.target.words) != 1:
            return ""
        printed = set(split_words(entry.text))
        said = m.target.words[0]
        if len(printed) < 2 or said not in printed:
            return ""
        before, after = m.first - 1, m.last + 1
        name = self.name_word
        if before >= 0 and seg[before].text not in printed and name(seg[before].text) == "first":
            return _span_text(seg, before, m.last)  # "serena williams"
        if (
            after < len(seg)
            and seg[after].text not in printed
            and name(said) == "first"
            and name(seg[after].text)
        ):
            return _span_text(seg, m.first, after)  # "victoria beckham", "diana ross"
        return ""

    def _judge_match(
        self,
        seg: tuple[Token, ...],
        m: Match,
        context: tuple[Token, ...],
        where: tuple[int, int] | None,
        situation: Situation,
        span: tuple[float, float] | None,
        repeats: tuple[tuple[int, int], ...] = (),
        pitch: float | None = None,
    ) -> Judgement:
        first, last = (m.first, m.last) if where is None else where
        who = attribute(
            context,
            first,
            last,
            span=span,
            turn_start=situation.turn_start,
            answer_like=m.target.kind == "answer" or m.target.own,
            repeats=repeats,
            tail_sound=self._tail_sound(context[last + 1 :]),
            pitch=pitch,
            describer_pitch=situation.describer_pitch,
            adjective=self.adjective,
            verbal=_verbal(situation.entry, m.target.words),
            sounded_lead=self._lead_sound(context, first),
        )
        heard = _span_text(seg, m.first, m.last)
        feats: dict[str, Any] = {
            "target": m.target.phrase,
            "target_kind": m.target.kind,
            "match": m.how,
            "spelling": round(m.spelling, 1),
            "sound": round(m.sound, 3),
            "role": who.role,
            "words_at": (round(seg[m.first].start, 3), round(seg[m.last].end, 3)),
            **who.features,
        }
        is_answer = m.target.kind == "answer"
        guessing = who.role == "guesser"
        if guessing and who.features.get("odd_after") and self._sounds_like_wake(heard, situation):
            # "post follows" is "post" called out, or "host, pause" misheard: an
            # answer that is a wake-word variant gets no stray word after it
            why = f"'{heard}' and a stray word after it may be 'host ...' misheard"
            return _nothing(seg[m.last].end, heard, why, **feats)
        late = self._outside_turn(seg[m.first], seg[m.last], situation, guess=guessing)
        if late:
            return _nothing(seg[m.last].end, heard, late, **feats)
        phrase = m.target.phrase
        entry_text = situation.entry.text if situation.entry else ""
        if is_answer and (m.target.own or guessing):
            what = "the answer"
        elif m.target.own:
            what = f"a word of '{entry_text}'"
        else:
            what = f"a form of '{entry_text}'"
        glued = ""
        if guessing and is_answer and situation.entry is not None:
            own = frozenset(w for a in _answer_phrases(situation.entry) for w in a)
            glued = _compound(seg, m.first, m.last, self.phones, own)
        if glued:
            feats["compound"] = glued
            ev = f"near miss: '{heard}' is a part of '{glued}', not the answer; {who.reason}"
            return Judgement(
                "near_miss", seg[m.last].end, heard, answer=phrase, evidence=ev, features=feats
            )
        namesake = (
            self._namesake(seg, m, situation.entry)
            if guessing and is_answer and situation.entry is not None
            else ""
        )
        if namesake:
            feats["namesake"] = namesake
            ev = f"near miss: '{namesake}' is another person than '{entry_text}'; {who.reason}"
            return Judgement(
                "near_miss", seg[m.last].end, heard, answer=phrase, evidence=ev, features=feats
            )
        if guessing and is_answer:
            ev = f"guess: '{heard}' is {phrase} ({m.how}); {who.reason}"
            return Judgement(
                "guess", seg[m.last].end, heard, answer=phrase, evidence=ev, features=feats
            )
        if guessing:
            ev = f"near miss: '{heard}' is {what}, not an answer; {who.reason}"
            return Judgement(
                "near_miss", seg[m.last].end, heard, answer=phrase, evidence=ev, features=feats
            )
        kind: FoulKind = "word" if m.target.own else "derivative"
        ev = f"foul ({kind}): describer said '{heard}' ({what}); {who.reason}"
        return Judgement("foul", seg[m.first].start, heard, kind=kind, evidence=ev, features=feats)

    @staticmethod
    def _outside_turn(first: Token, last: Token, situation: Situation, *, guess: bool) -> str:
        """Why words at ``first..last`` do not count in this turn, or ''."""
        if situation.turn_start is not None and last.end <= situation.turn_start:
            return "said before the turn started"
        if situation.buzzer is None:
            return ""
        if first.start >= situation.buzzer:
            return f"started {first.start - situation.buzzer:.2f} s after the buzzer"
        if guess and last.end > situation.buzzer + situation.grace:
            over = last.end - situation.buzzer
            return f"ended {over:.2f} s after the buzzer (grace {situation.grace:.2f} s)"
        return ""

    # ----- stateful -----------------------------------------------------------
    def reset(self) -> None:
        """Forget what was judged and heard (a new turn or a new game)."""
        self._emitted.clear()
        self._decided.clear()
        self._free.clear()
        self._pending.clear()
        self._describer.reset()

    def observe(self, event: RecognitionEvent, situation: Situation) -> list[Judgement]:
        """Judge ``event`` in the light of earlier ones; return only new judgements.

        A judgement already returned (same label within
        :data:`SAME_WORD_SECONDS`) is not returned again.  A steered hit is
        judged with the words of an overlapping free transcript when one was
        seen (they tell who said it); an unconfirmed one waits for such a
        transcript (up to :data:`MEMORY_SECONDS`).  ``nothing`` judgements are
        returned only when the event gave nothing else.
        """
        self._forget(event.end)
        out = self._commit(self._candidates(event, situation))
        self._describer.offer([event], situation, _a_guessers(out, [event]))
        return out

    def _candidates(self, event: RecognitionEvent, situation: Situation) -> list[Judgement]:
        """:meth:`observe`'s judgements of ``event`` before reconciling them
        with the rest of its batch and with what was already returned.  The
        situation gains the describer's pitch (:class:`DescriberVoice`), which
        the turn's long utterances that are no guesser's teach."""
        situation = self._describer.situation(situation)
        steered = event.source in STEERED_SOURCES
        if not event.words:
            return []
        if steered and event.confirmed is not False:
            if event.kind == "partial" and event.confirmed is not True:
                return []  # a "maybe" cue only: its final (or a free transcript) decides
            out = self.judge(event, situation)
            if any(j.type == "command" for j in out):
                return [j for j in out if self._free_agrees(j, event, situation)]
            if (
                self._overlapping_free(event)
                and (
                    not self.targets_in(event, situation) or self._free_has_target(event, situation)
                )
                and not self._completes_a_word(event, situation)
            ):
                # a spotted cue phrase, or a hit the free transcript itself
                # matched strictly: the free transcript's judgement stands
                return []
            confirmed = self._confirm_with_free(event, situation)
            if confirmed is not None:
                return _decided_from(confirmed, "steered+free")
            if event.confirmed is None:
                self._pending.append(_Pending(event, situation))
                return []
            garbled = self._judge_in_free_context(event, situation)
            if garbled is not None:
                return _decided_from(garbled, "steered+free")
            # no free transcript (yet): the hit's own length estimate decides
            return _decided_from(out, "steered")
        out = _decided_from(self.judge(event, situation), "free")
        if not steered and event.kind == "final":
            woken = self._command_after_wake(event, situation)
            if woken is not None:
                out = [woken]
            spelled = self._spelled_across(event, situation)
            self._free.append((event, situation))
            if spelled is not None:
                out = [j for j in out if j.type != "nothing"] + [spelled]
            out.extend(_decided_from(self._resolve_pending(), "steered+free"))
        return out

    def observe_all(self, events: list[RecognitionEvent], situation: Situation) -> list[Judgement]:
        """:meth:`observe` each event of one batch (e.g. one ``feed()`` result),
        free transcripts first so that steered hits of the same utterance are
        judged with their words."""
        ordered = sorted(events, key=lambda e: e.source in STEERED_SOURCES)
        real: list[Judgement] = []
        nothing: list[Judgement] = []
        for event in ordered:
            self._forget(event.end)
            found = self._candidates(event, situation)
            if any(j.type != "nothing" for j in found):
                real.extend(j for j in found if j.type != "nothing")
            else:
                nothing.extend(found)
        out = sorted([*nothing, *self._commit(real)], key=lambda j: j.t)
        self._describer.offer(events, situation, _a_guessers(out, events))
        return out

    def targets_in(self, event: RecognitionEvent, situation: Situation) -> bool:
        """Whether ``event``'s words hold an answer or form of the active entry."""
        if situation.entry is None:
            return False
        return bool(self.targets(situation.entry).find(tokens(event.words)))

    def _command_after_wake(
        self, event: RecognitionEvent, situation: Situation
    ) -> Judgement | None:
        """The command ``event`` completes when the free transcript just before
        it was a wake word on its own (see the module docstring), or None."""
        toks, _ = self._gate(tokens(event.words), situation)
        if not toks:
            return None
        before = [
            ptoks
            for free, _ in self._free
            if (ptoks := self._gate(tokens(free.words), situation)[0])
            and ptoks[-1].end <= toks[0].start + OVERLAP_SLACK
        ]
        if not before:
            return None
        prev = max(before, key=lambda p: p[-1].end)
        gap = toks[0].start - prev[-1].end
        if gap > WAKE_PAUSE_SECONDS or len(prev) > MAX_ATTENTION_WORDS + 1:
            return None
        if not all(t.text in LEADING_FILLERS or is_stray(t.text) for t in prev[:-1]):
            return None
        joined = (*prev, *toks)
        cmd = self._reader(situation).read(joined, situation.phase, whole=True)
        if cmd is None or cmd.first != len(prev) - 1 or cmd.last < len(prev):
            return None  # no command, or not the earlier wake word and a later command word
        heard = _span_text(joined, cmd.first, cmd.last)
        why = f"command {cmd.name}: {cmd.cue} (after a {max(gap, 0.0):.1f} s pause)"
        feats = {"woken": True, "source": "free", "pause": round(max(gap, 0.0), 2)}
        return Judgement(
            "command",
            joined[cmd.first].start,
            heard,
            command=cmd.name,
            argument=cmd.argument,
            evidence=why,
            features=feats,
        )

    def _judge_in_free_context(
        self, event: RecognitionEvent, situation: Situation
    ) -> list[Judgement] | None:
        """Judge a confirmed steered hit whose free transcript did not match:
        the free words nearest the hit still tell how long the utterance was
        and where the hit sat in it.  None when no free transcript overlaps."""
        if situation.entry is None:
            return None
        hit, _ = self._gate(tokens(event.words), situation)
        ftoks = tuple(self._free_tokens(event, situation))
        if not hit or not ftoks:
            return None
        mid = (hit[0].start + hit[-1].end) / 2
        near = min(ftoks, key=lambda t: abs((t.start + t.end) / 2 - mid))
        spotted = self.targets(situation.entry).find(hit)
        if (
            spotted
            and near.start - 0.5 <= mid <= near.end + 0.5
            and affix_variant(near.text, spotted[0].target.compact)
        ):
            # the free decoder heard another word of the family there
            # ("teach" where "teacher" was spotted): not confirmed
            target = spotted[0].target.phrase
            why = f"free transcript heard '{near.text}', not '{target}'"
            return [_nothing(hit[-1].end, near.text, why)]
        # the hit's words take the place of the free words they overlap: the
        # free decoder often leaves a gap or a garble where the card word was,
        # and that gap is no pause between speakers
        merged = sorted(
            [t for t in ftoks if t.end <= hit[0].start + 0.05 or t.start >= hit[-1].end - 0.05]
            + list(hit),
            key=lambda t: t.start,
        )
        for seg in _segments(tuple(merged)):
            if hit[0] in seg:
                first = next(i for i, t in enumerate(seg) if t is hit[0])
                where = (first, first + len(hit) - 1)
                return self._judge_words(hit, seg, where, situation, event.utterance, event.pitch)
        return None

    def _spelled_across(self, event: RecognitionEvent, situation: Situation) -> Judgement | None:
        """A letter foul for spelled letters that pauses split: the run of letters
        ending ``event``'s words, with earlier free transcripts' letters before it
        (:data:`SPELL_PAUSE_SECONDS` apart at most), when it crosses a pause
        (:data:`SPLIT_GAP_SECONDS`, or another utterance: within one segment the
        segment's own judging sees it) and is letter talk about the card
        (:func:`~voice_host.referee.talk.find_talk`: three letters or more, two of
        them not "a" or "i", spelling one of its words from the start)."""
        entry = situation.entry
        if entry is None or situation.phase not in (Phase.TURN, Phase.CONTROL):
            return None
        toks = self._gate(tokens(event.words), situation)[0]
        mine = _letters_heard(toks)
        if not mine or not is_letter(mine[-1].text):
            return None  # most utterances: the earlier ones are not looked at
        earlier = [
            tok
            for free, seen in self._free
            if seen.entry == entry and free.end <= toks[0].start + SAME_WORD_SECONDS
            for tok in _letters_heard(self._gate(tokens(free.words), situation)[0])
            if tok.end <= toks[0].start + SAME_WORD_SECONDS
        ]
        heard = sorted([*earlier, *mine], key=lambda t: t.start)
        if not is_letter(heard[-1].text) or heard[-1].end != toks[-1].end:
            return None
        run = [heard[-1]]
        for tok in reversed(heard[:-1]):
            if not is_letter(tok.text) or run[0].start - tok.end > SPELL_PAUSE_SECONDS:
                break
            run.insert(0, tok)
        crosses = run[0].start < toks[0].start or any(
            b.start - a.end >= SPLIT_GAP_SECONDS for a, b in pairwise(run)
        )
        genuine = sum(t.said is None and t.text not in ("a", "i") for t in run)
        if len(run) < 3 or not crosses or genuine < 2:
            return None  # at least two letters heard as letters, not "a" or "i"
        letters = join_initialisms(tuple(run), initialisms(entry.text))  # "d v d": DVD
        talks = [t for t in find_talk(letters, entry.text) if t.kind == "letter"]
        if not talks:
            return None
        first, last = letters[talks[0].first], letters[talks[0].last]
        late = self._outside_turn(first, last, situation, guess=False)
        if late:
            return None
        said = _span_text(letters, talks[0].first, talks[0].last)
        return Judgement(
            "foul",
            first.start,
            said,
            kind="letter",
            evidence=f"letter talk: {talks[0].cue}, with pauses between them",
            features={"cue": talks[0].cue, "decided_from": "free"},
        )

    def _free_tokens(self, event: RecognitionEvent, situation: Situation) -> list[Token]:
        """Tokens of remembered free transcripts overlapping ``event`` in time."""
        out: list[Token] = []
        for free, _ in self._free:
            if free.end < event.start - 0.5 or free.start > event.end + 0.5:
                continue
            out.extend(self._gate(tokens(free.words), situation)[0])
        return out

    def _free_has_target(self, event: RecognitionEvent, situation: Situation) -> bool:
        """Whether an overlapping free transcript matched the entry (strictly)
        near ``event``'s words, or wrote a form there as another word ("kind of"
        on Kindness): then its own judgement already covers them."""
        if situation.entry is None:
            return False
        targets = self.targets(situation.entry)
        for seg in _segments(tuple(self._free_tokens(event, situation))):
            for m in targets.find(seg):
                if seg[m.last].end >= event.start - 0.5 and seg[m.first].start <= event.end + 0.5:
                    return True
            for i, tok in enumerate(seg):
                near = tok.end >= event.start - 0.5 and tok.start <= event.end + 0.5
                if near and targets.other_sense(seg, i):
                    return True
        return False

    def _completes_a_word(self, event: RecognitionEvent, situation: Situation) -> bool:
        """Whether ``event`` is a confirmed hit of a whole answer of two words or more
        where the free transcript matched only one of the answer's words and wrote
        another word over the rest ("it noah's talked" for "is it Noah's Ark?",
        "niagara pulled" for "Niagara Falls?"): both heard the first word, the
        spotter the whole answer, so the free transcript's near miss does not
        stand alone.  A free transcript that wrote nothing after the word
        ("niagara" for "Niagara?") keeps its near miss."""
        entry = situation.entry
        if entry is None or event.confirmed is not True:
            return False
        hit, _ = self._gate(tokens(event.words), situation)
        targets = self.targets(entry)
        spotted = targets.find(hit) if hit else []
        if len(spotted) != 1 or spotted[0].target.kind != "answer":
            return False
        answer = spotted[0].target
        if len(answer.words) < 2:
            return False
        ftoks = tuple(self._free_tokens(event, situation))
        matches = [
            (seg, m)
            for seg in _segments(ftoks)
            for m in targets.find(seg)
            if seg[m.last].end >= hit[0].start - 0.5 and seg[m.first].start <= hit[-1].end + 0.5
        ]

        def plain(words: tuple[str, ...]) -> set[str]:
            return {w.replace("'", "") for w in words}

        if not matches or any(
            m.target.kind == "answer" or not plain(m.target.words) < plain(answer.words)
            for _, m in matches
        ):
            return False  # the free transcript heard the answer, or a form of its own
        return any(
            seg[m.last].end < hit[-1].end - 0.1
            and any(t.start < hit[-1].end for t in seg[m.last + 1 :])
            for seg, m in matches
        )

    def _sounds_like_wake(self, heard: str, situation: Situation) -> bool:
        """Whether ``heard`` ends in the wake word or a variant a recogniser writes for it."""
        reader = self._reader(situation)
        last = heard.split()[-1] if heard else ""
        return last in reader.wake_exact or last in reader.wake_loose

    def _free_agrees(self, j: Judgement, event: RecognitionEvent, situation: Situation) -> bool:
        """A spotted command stands unless a free transcript of the same time
        lacks its command word (precision first: "host status" spotted as
        "host undo" while the free decoder wrote "post and sketches"), or holds
        it inside a sentence that no reading makes a command (a clue "... with
        making most undo cash": a command is a short utterance of its own), or
        after more words than a command has before its command word, or
        before more than it has after (:data:`COMMAND_WORD_AT_MOST`,
        :data:`COMMAND_TAIL_AT_MOST`: "he jumped over the fence" in a
        reverberant room was written "it jumped over so status"), or right
        after a word that leads into a command word in talk, where the wake
        word would be (:data:`~voice_host.referee.commands.NOT_WAKE`: "okay
        first, repeat it" was written "ok first repeat it" with "host repeat"
        spotted, ``benchmarks/commands.py`` unseen4)."""
        ftoks = self._free_tokens(event, situation)
        if not ftoks:
            return True
        reader = self._reader(situation)
        if situation.phase in TEAM_NAME_PHASES:
            ftoks = list(reader.glue(tuple(ftoks), _answer_phrases(situation.entry)))
        segments = _segments(tuple(ftoks))
        read = [c for seg in segments if (c := reader.read(seg, situation.phase)) is not None]
        wanted = j.argument if j.command == "team" else j.command
        if any((c.argument if c.name == "team" else c.name) == wanted for c in read):
            return True
        if j.command == "team":
            # where the transcript says the name as a claim, not inside a guess ("a
            # blue whale"); right after the card's answer it may come late in it
            answers = _answer_phrases(situation.entry)
            woken = bool(j.features.get("woken"))
            for seg in segments:
                said = [x.text for x in seg]
                for i, t in enumerate(seg):
                    if reader.team(t.text) == wanted and reader.stands_alone(
                        said, i, woken=woken, answers=answers
                    ):
                        return True
            return False
        if len(ftoks) > COMMAND_MAX_WORDS:
            return False
        # "push" has its team after it
        tail = COMMAND_TAIL_AT_MOST + (j.command == "push")
        for seg in segments:
            for i, t in enumerate(seg[: COMMAND_WORD_AT_MOST + 1]):
                if len(seg) - i - 1 > tail:
                    continue
                if i and seg[i - 1].text in NOT_WAKE:
                    continue  # "okay first, repeat it": talk leads into the word there
                found = reader.command_word(t.text)
                if found is not None and found[0] == wanted:
                    return True
        return False

    def _overlapping_free(self, event: RecognitionEvent) -> bool:
        return any(
            not (free.end < event.start - 0.5 or free.start > event.end + 0.5)
            for free, _ in self._free
        )

    def _forget(self, now: float) -> None:
        horizon = now - MEMORY_SECONDS
        self._free = [(e, s) for e, s in self._free if e.end >= horizon]
        self._pending = [p for p in self._pending if p.event.end >= horizon]
        self._emitted = [j for j in self._emitted if j.t >= horizon]
        self._decided = [d for d in self._decided if d[1] >= horizon]

    def _commit(self, judgements: list[Judgement]) -> list[Judgement]:
        """Reconcile ``judgements`` (one event's or one batch's) and drop what
        was already decided; a ``nothing`` only when they hold nothing else
        (not when their real judgements were repeats).

        One heard word gets one verdict: of several judgements of words at the
        same time (a spotter's "kangaroo", "kangaroos", "kangaroo's" and the
        free transcript's "kangaroo") the best-evidenced stands
        (:func:`_reconcile`), and a later one for words overlapping an
        earlier verdict is dropped, whatever its type (a guess already
        returned is never followed by a foul for the same word).
        """
        real = [j for j in judgements if j.type != "nothing"]
        if not real:
            return judgements
        fresh: list[Judgement] = []
        for j in _reconcile(real):
            at = _words_at(j)
            if at is not None and any(_overlap(at, d) for d in self._decided):
                continue
            if any(
                p.label == j.label and abs(p.t - j.t) <= SAME_WORD_SECONDS for p in self._emitted
            ):
                continue
            self._emitted.append(j)
            if at is not None:
                self._decided.append(at)
            fresh.append(j)
        return fresh

    def _resolve_pending(self) -> list[Judgement]:
        out: list[Judgement] = []
        still: list[_Pending] = []
        for p in self._pending:
            found = self._confirm_with_free(p.event, p.situation)
            if found is None:
                still.append(p)
            else:
                out.extend(found)
        self._pending = still
        return out

    def _confirm_with_free(
        self, event: RecognitionEvent, situation: Situation
    ) -> list[Judgement] | None:
        """Judgements for a steered hit confirmed by an overlapping free
        transcript, or None when no free transcript confirms it."""
        entry = situation.entry
        if entry is None:
            return None
        hit = tokens(event.words)
        hit, _ = self._gate(hit, situation)
        if not hit:
            return None
        targets = self.targets(entry)
        spotted = targets.find(hit)
        if not spotted:
            return None
        target = spotted[0].target
        for free, _free_situation in self._free:
            if free.end < hit[0].start - 0.5 or free.start > hit[-1].end + 0.5:
                continue
            ftoks, _ = self._gate(tokens(free.words), situation)
            for seg in _segments(ftoks):
                m = targets.confirms(target, seg)
                if m is None:
                    continue
                if seg[m.last].end < hit[0].start - 0.5 or seg[m.first].start > hit[-1].end + 0.5:
                    continue  # the free match is elsewhere in time
                pitch = free.pitch or event.pitch
                js = self._judge_words(
                    hit, seg, (m.first, m.last), situation, free.utterance, pitch
                )
                said = _span_text(seg, 0, len(seg) - 1)
                note = f" (steered hit confirmed by free transcript '{said}')"
                return [
                    Judgement(
                        j.type,
                        j.t,
                        j.heard,
                        kind=j.kind,
                        command=j.command,
                        argument=j.argument,
                        answer=j.answer,
                        evidence=j.evidence + note,
                        features={
                            **j.features,
                            "confirmed_by": "free",
                            "free_spelling": m.spelling,
                            "free_sound": round(m.sound, 3),
                        },
                    )
                    for j in js
                ]
        return None


def _a_guessers(judgements: list[Judgement], events: Sequence[RecognitionEvent]) -> bool:
    """Whether one utterance's ``judgements`` and ``events`` say a guesser spoke in
    it (a guess or a near miss judged, or a transcript that opens as a guesser
    asks: "is it a wallaby or a rabbit", "what about a hare"): no utterance to
    learn the describer's voice from."""
    if any(j.type in ("guess", "near_miss") for j in judgements):
        return True
    for event in events:
        if event.kind != "final" or event.source in STEERED_SOURCES:
            continue
        words = tuple(w.text.lower() for w in event.words)
        if any(words[: len(q)] == q for q in CUT_IN_QUESTIONS):
            return True
    return False


def _letters_heard(toks: tuple[Token, ...]) -> list[Token]:
    """``toks`` with each word of :data:`SOUNDED_LETTER` said alone (a segment of
    its own) made its letter, shown as heard."""
    out: list[Token] = []
    for seg in _segments(toks):
        word = seg[0].text
        if len(seg) == 1 and word in SOUNDED_LETTER:
            out.append(replace(seg[0], text=SOUNDED_LETTER[word], said=seg[0].shown))
        else:
            out.extend(seg)
    return out


def _segments(toks: tuple[Token, ...]) -> list[tuple[Token, ...]]:
    """Split at silences of at least :data:`SPLIT_GAP_SECONDS`."""
    out: list[tuple[Token, ...]] = []
    cur: list[Token] = []
    for t in toks:
        if cur and t.start - cur[-1].end >= SPLIT_GAP_SECONDS:
            out.append(tuple(cur))
            cur = []
        cur.append(t)
    if cur:
        out.append(tuple(cur))
    return out


#: Cues that split an utterance between two speakers (the describer's clue,
#: then a guess called out as it ends): what comes before such a guess is
#: still the describer's.
CUT_IN_CUES = ("pause", "question")


def _wrong_tries_dropped(judgements: list[Judgement]) -> list[Judgement]:
    """Without the wrong tries before a guess in a guesser's utterance: "new
    york? new jersey!" holds a word of New Jersey before the answer, and "saucepan,
    wok, frying pan" a form of Frying pan; the utterance is the guesser's (by
    its shape, not by a cut-in cue), so those are no describer's fouls nor near
    misses.  The whole answer said before stays ("a clock is a clock")."""
    starts = [
        at[0]
        for j in judgements
        if j.type == "guess"
        and not any(c in j.features for c in CUT_IN_CUES)
        and (at := _words_at(j)) is not None
    ]
    if not starts:
        return judgements
    begins = min(starts)
    return [
        j
        for j in judgements
        if not (
            j.type in ("foul", "near_miss")
            and j.features.get("target_kind") != "answer"
            and (at := _words_at(j)) is not None
            and at[1] <= begins + OVERLAP_SLACK
        )
    ]


def _first_of_each(judgements: list[Judgement]) -> list[Judgement]:
    """Keep the first judgement of each label, in time order (a clue saying the
    word twice is one foul)."""
    seen: set[str] = set()
    out: list[Judgement] = []
    for j in sorted(judgements, key=lambda j: j.t):
        key = j.label if j.type != "nothing" else f"nothing:{j.evidence}"
        if key in seen:
            continue
        seen.add(key)
        out.append(j)
    return out


#: How much each kind of evidence counts when judgements of the same words
#: disagree: the free transcript's words tell who said it; a steered hit alone
#: only knows the utterance's length.
EVIDENCE_RANK = {"free": 2, "steered+free": 2, "steered": 1}
#: Which target wins at the same place: the answer over one of the entry's own
#: words over another form (a spotter reports "kangaroo", "kangaroos" and
#: "kangaroo's" for one spoken word).
TARGET_RANK = {"answer": 2, "entry_word": 1, "form": 0}
#: A form's hit ending this much later (seconds) than an answer's hit that
#: starts with it means the longer word was said (about one syllable).
LONGER_FORM_SECONDS = 0.1
#: Word spans closer than this (seconds) count as overlapping: engines place
#: the same word a frame or two apart.
OVERLAP_SLACK = 0.05


def _decided_from(judgements: list[Judgement], how: str) -> list[Judgement]:
    """``judgements`` with ``decided_from`` (see :data:`EVIDENCE_RANK`) added
    to the features of those about matched words."""
    return [
        replace(j, features={**j.features, "decided_from": how}) if "words_at" in j.features else j
        for j in judgements
    ]


def _words_at(j: Judgement) -> tuple[float, float] | None:
    """(start, end) seconds of the matched words a judgement is about, or None
    for commands and letter/rhyme talk."""
    at = j.features.get("words_at")
    if j.type == "nothing" or not isinstance(at, tuple):
        return None
    return float(at[0]), float(at[1])


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] < b[1] - OVERLAP_SLACK and b[0] < a[1] - OVERLAP_SLACK


def _strength(j: Judgement) -> tuple[int, int, float, float]:
    """Sort key: better evidence, then the answer over forms, then the
    longer match, then the earlier one."""
    at = _words_at(j) or (j.t, j.t)
    return (
        EVIDENCE_RANK.get(str(j.features.get("decided_from", "")), 0),
        TARGET_RANK.get(str(j.features.get("target_kind", "")), 0),
        at[1] - at[0],
        -at[0],
    )


def _inside_longer_form(j: Judgement, others: list[Judgement]) -> bool:
    """Whether ``j`` matched the answer where a form was heard running on past
    it: a spotter finds "telescope" inside a spoken "telescopic", ending where
    the shorter word would, while the form's hit ends
    :data:`LONGER_FORM_SECONDS` or more later.  (For "kangaroo's" and
    "kangaroo" said as "kangaroo" the ends are within a frame or two.)"""
    at = _words_at(j)
    if at is None or j.features.get("target_kind") != "answer":
        return False
    for k in others:
        kat = _words_at(k)
        if kat is None or k.features.get("target_kind") != "form":
            continue
        if _strength(k)[0] < _strength(j)[0]:
            continue  # weaker evidence never overrules
        if abs(kat[0] - at[0]) <= LONGER_FORM_SECONDS and kat[1] >= at[1] + LONGER_FORM_SECONDS:
            return True
    return False


def _reconcile(judgements: list[Judgement]) -> list[Judgement]:
    """One verdict per spoken word: of judgements about overlapping words, keep
    the strongest (:func:`_strength`); commands and talk fouls pass through."""
    plain = [j for j in judgements if _words_at(j) is None]
    about = [j for j in judgements if _words_at(j) is not None]
    about = [j for j in about if not _inside_longer_form(j, about)]
    about.sort(key=_strength, reverse=True)
    kept: list[Judgement] = []
    for j in about:
        at = _words_at(j)
        assert at is not None
        if not any(_overlap(at, _words_at(k) or at) for k in kept):
            kept.append(j)
    return sorted([*plain, *kept], key=lambda j: j.t)
