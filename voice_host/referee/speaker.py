"""Who said it: a guesser calling out an answer, or the describer giving a clue.

One microphone hears everyone, so the referee decides from the shape of the
utterance around the matched words.  Three conventions hold throughout:

* a **stray letter** (a single letter other than "a" and "i":
  :func:`~voice_host.referee.text.is_stray`) before the match is recogniser
  garbage, not a word of the lead-in ("is it a kangaroo" heard as "is n a
  kangaroo you"); spelled letters that mean something are letter talk,
  found elsewhere (:mod:`voice_host.referee.talk`);
* word limits count the matched words as one word and leave stray letters
  out (:data:`SHORT_WORDS` words is "is it the eiffel tower" as much
  as "is it a kangaroo"); the evidence still gives the heard word count.
  Time limits count them as one word's time too (1 / :data:`WORDS_PER_SECOND`):
  "i think it's the leaning tower of pisa" takes no longer to ask than any
  other guess, but for its answer;
* the answer **said again**, joined by what joins a guess to itself
  (:data:`REASK_JOINS`: "kangaroo! is it a kangaroo?"), is no word at all,
  in number or time, and a closing question (:data:`TAIL_PHRASES`: "is that
  it?") is one tail word.

The rules, in the order they decide:

1. **Turn opening.** A match that starts within :data:`OPENING_SECONDS` of the
   turn start is the describer (nobody can guess before a clue; the describer
   reading the card aloud is the classic foul).
2. **Clue frame.** A clue phrase right before the match ("it's like a X",
   "a kind of X", "you use it to", "not a X", "opposite of X", "made of X",
   "full of X", "bigger than a X") makes it a clue, unless a guesser's
   question opens the short utterance and the match ends it ("is it made of
   silver?", "is it in a bottle?": :data:`OPENING_QUESTIONS`).
2a. **A guesser's "ooh".** "who" or "you" (once or twice) right before an
   article or the answer, with at most one word after it, in at most
   :data:`OOH_MAX_WORDS` words, is a recogniser's "ooh!" ("who a magic
   show", "you watermelon"): a guesser, unless the answer may be a verb
   (an action's, or one with -ing or -ed forms: "you swim", "you watch tv"
   are sentences).
3. **Short guess shape.** Every word before the match is a guess lead-in
   ("is it", "it's a", "the", "maybe", "oh", "how about", ...), at most
   :data:`MAX_TAIL_WORDS` guess tail words follow ("right?", "yes"), and the
   utterance has at most :data:`MAX_GUESS_WORDS` words and lasts at most
   :data:`MAX_GUESS_SECONDS`: a guesser.
4. **Short utterance.** An utterance of at most :data:`SHORT_WORDS` words
   and :data:`SHORT_SECONDS` with no clue word ("you", "we", "like", "use"
   ...) before the match or after it (a last "you" excepted), and at most
   :data:`SHORT_ODD_AFTER` word after the match that cannot end a question,
   is a guesser, whatever its other words: pocketsphinx garbles the lead-in
   of a called-out answer ("the to the eiffel tower", "on green get some
   robot") and writes a word for the breath or a misheard "right" after it
   ("kangaroo you", "cake of", "nebraska of right").  The "you" of a
   question ("are you running?") is no clue word.
5. **A list of guesses.** The match ending a list of guesses called out in
   one breath ("is it a cat a dog a kangaroo"): each guess a word or two,
   joined by articles, "or" and the like (:data:`LIST_JOINS`), and no word
   that only sentences have (:data:`SENTENCE_WORDS`: pronouns, prepositions,
   "is/has/can" ...), at most :data:`LIST_MAX_ITEMS` guesses before it.
6. **A guess after a pause.** The match, with at most
   :data:`CUT_IN_LEAD_WORDS` guess lead-ins before it ("is it a", "the",
   "oh"), after a pause of at least :data:`CUT_IN_PAUSE` between the word
   times, and at most :data:`MAX_TAIL_WORDS` question tail words after it,
   however long the utterance: a guesser who called out the answer a moment
   after the describer's sentence ended, which one microphone hears as one
   utterance ("... that fall from the sky in winter | snow").
7. **A question ending the utterance.** The match right after an inverted
   question ("is it a", "is that", "could it be"), a guesser's doubt
   ("maybe", "what about") or a guesser checking what the describer means
   ("you mean", "are you thinking of": :data:`CUT_IN_QUESTIONS`)
   with the same tail, however long the utterance, with or without a pause:
   "hops around australia with a baby in its pouch is it a kangaroo".
8. **Otherwise** (the match inside or at the end of a longer sentence): the
   describer.

Why rules and not a learnt score: the cues are few, they must be explainable
in the evidence ("the answer inside a 9-word sentence"), and the failure that
costs most (a describer's clue counted as a correct guess) is avoided by
requiring a guess to *look* like a guess.  Measured in
``benchmarks/referee.py`` on the fixture texts, and with
``benchmarks/new_cards.py`` on recordings of 30 cards the fixtures do not
hold (rule 4 was written for the garbage around called-out answers those
showed; the other 30 cards were held out).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from voice_host.referee.text import Token, is_stray
from voice_host.referee.voice import answer_voice, other_voice
from voice_host.referee.wordclass import AdjectiveLookup
from voice_host.talk_words import CLUE_WORDS, GUESS_LEAD, GUESS_TAIL

#: A match starting this soon after the turn start (seconds) is the describer's.
OPENING_SECONDS = 1.0
#: Longest guess, in words (including the answer and its lead-in).
MAX_GUESS_WORDS = 6
#: Longest guess, in seconds of audio time (the utterance span when known).
MAX_GUESS_SECONDS = 3.0
#: Speaking rate used to estimate words the recogniser did not report.
WORDS_PER_SECOND = 3.0
#: Guess tail words allowed after the answer ("telescope, right?").
MAX_TAIL_WORDS = 2

#: What a recogniser writes for a guesser's "ooh!" before a called-out answer
#: ("ooh, a magic show!" heard "who a magic show", "ooh ooh watermelon" heard
#: "you watermelon"): clue words otherwise, but no sentence starts "who a"
#: or puts "you" straight before a noun.  One or two of them, then an article
#: or (unless the answer may be a verb: "you swim", "you watch tv") the
#: answer itself, and at most one word after it, in at most
#: :data:`OOH_MAX_WORDS` words.
OOH_WORDS = frozenset(["who", "you", "ooh", "oo", "woo"])
OOH_MAX_WORDS = 4

#: Questions that may end a guess, whole ("kangaroo, is that it?"): each
#: counts as one tail word.
TAIL_PHRASES: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split())
    for p in (
        "is that it",
        "is that right",
        "is it that",
        "am i right",
        "is it right",
        "or not",
    )
)

#: The closing questions a garbled tail is compared with by sound: the
#: recogniser writes "is that it?" after an answer as "is that good", "is
#: knotted", "is voted", "as that it".  Three words each: a shorter phrase
#: sounds like too much of what a describer says next ("is big", "is hot").
SOUNDED_TAILS: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split()) for p in ("is that it", "is that right", "am i right", "is it right")
)
#: How close in sound (phone classes, 0-1) the words after the answer must be
#: to one of :data:`SOUNDED_TAILS`: "is that good" 0.81, "is knotted" 0.79,
#: while a describer's "is a tool" is 0.71 and "is a bird" 0.64.
TAIL_SOUND_MIN = 0.75

#: What may join an answer called out twice ("kangaroo! kangaroo!", "kangaroo?
#: is it kangaroo?", "the hulk, the hulk"), an article after it allowed: the
#: repeat and its join are no words of a sentence.
REASK_JOINS: frozenset[tuple[str, ...]] = frozenset(
    tuple(p.split())
    for p in (
        "",
        "is it",
        "is it not",
        "oh",
        "no",
        "yes",
        "yeah",
        "or",
        "or is it",
        "maybe",
        "um",
        "er",
        "uh",
    )
)

#: The short utterance rule: at most this many words (the match counted as
#: one, stray letters not at all) ...
SHORT_WORDS = 5
#: ... lasting at most this long (seconds of audio time) ...
SHORT_SECONDS = 2.5
#: ... with at most this many words after the match that cannot end a question
#: (:data:`SHORT_TAIL`), none after a derivative (but :data:`BREATH_AFTER`):
#: pocketsphinx often writes one word for the breath,
#: the rising tone or a garbled "right" after a called-out answer ("cake of",
#: "nebraska of right", "basil move"), while a describer saying the word goes
#: on for several ("a car you drive").
SHORT_ODD_AFTER = 1
#: ... except that after a derivative too, the last word may be one of these,
#: which end no sentence: the breath a recogniser writes after a called-out word
#: ("cake of", "host foul to"; a guesser's "zipper" heard "zip of" was a
#: describer's foul on the card Zipper).
BREATH_AFTER = frozenset({"of", "to"})
#: Words that may end a called-out answer: a guess tail word, or "you", which
#: pocketsphinx writes for the breath or rising tone after a question ("is a
#: kangaroo you", "ok test push blue you").  As the last word only: "a car you
#: drive" goes on.
QUESTION_TAIL = GUESS_TAIL | {"you"}
#: The words that may end a short utterance's called-out answer: not "is" or
#: "it", which start a describer's short sentence ("a banana is yellow").
SHORT_TAIL = QUESTION_TAIL - {"is", "it", "isn't"}

#: What a recogniser writes for a question tag after a called-out answer
#: ("isn't it?" as "is did", "this did", "doesn't that"; "is that it?" as
#: "that it", "not it"): in a short utterance up to :data:`MAX_TAIL_WORDS` of
#: them, and nothing else, may follow the answer.  A describer's short clue
#: goes on with words that mean something ("a banana is yellow").
LIGHT_TAIL = frozenset(
    [
        "is",
        "isn't",
        "it",
        "it's",
        "that",
        "this",
        "not",
        "did",
        "didn't",
        "does",
        "doesn't",
        "was",
        "wasn't",
        "innit",
        # the last "it" of "isn't it" or "is that it", its t released: "the rio
        # grande isn't to", "erasing that to" (Piper's neural voice)
        "to",
    ]
)

#: A question about what the players do, right before the answer ("are you
#: running?", "you're polishing"): the "you" of a guess, not of a clue.  Action
#: cards are guessed this way more than any other.
QUESTION_LEADS: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split()) for p in ("are you", "were you", "you are", "you're", "youre", "do you")
)

#: An inverted question right before the match ("... is it a kangaroo?"): how
#: guessers ask, and no describer's sentence puts it before the card's own word.
#: A guesser often cuts in as the describer's sentence ends, and one utterance
#: then holds both ("hops around australia with a baby in its pouch is it a
#: kangaroo"), however long.  "it's a" is not one: "..., it's a kangaroo" is
#: how a describer slips.  Nor does a describer doubt the card ("... maybe
#: albert einstein", "... i think it's a kangaroo").
_INVERTED_QUESTIONS = (
    "is it",
    "is that",
    "is this",
    "isn't it",
    "could it be",
    "would it be",
    "is it not",
)
CUT_IN_QUESTIONS: tuple[tuple[str, ...], ...] = tuple(
    sorted(
        (
            tuple(p.split())
            for p in (
                *_INVERTED_QUESTIONS,
                # the guesser's doubt: the describer knows the card
                "maybe",
                "may be",  # "maybe" as recognisers often write it
                "perhaps",
                "how about",
                "what about",
                "i think it's",
                "i think it is",
                # the guesser checking what the describer means: the describer knows it
                "you mean",
                "do you mean",
                "did you mean",
                "are you thinking of",
            )
        ),
        key=len,
        reverse=True,
    )
)
#: A guesser's question that opens a short utterance and ends with the card's
#: answer asks for that answer whatever frames it ("is it made of silver?",
#: "is it in a bottle?", "is it bigger than a telescope?"): no describer opens
#: a clue by asking the guessers (none of the 1,200 clue and slip lines of the
#: table talk written by others does; 69 of its 720 guess lines do).  Longest
#: first, so that "is it not" is read before "is it".
OPENING_QUESTIONS: tuple[tuple[str, ...], ...] = tuple(
    sorted(
        (
            tuple(p.split())
            for p in (
                *_INVERTED_QUESTIONS,
                "was it",
                "might it be",
                "can it be",
                "are they",
                "were they",
                "are these",
                "are those",
            )
        ),
        key=len,
        reverse=True,
    )
)
#: What may come before such a question ("oh, is it like cheese?"): at most two.
_OPENING_FILLERS = frozenset(
    ["oh", "um", "uh", "er", "erm", "ah", "so", "ok", "okay", "hmm", "well", "wait"]
)
#: Words that may stand between such a question and the match ("is it *a* ...").
_QUESTION_ARTICLES = frozenset(["a", "an", "the", "some"])

#: A pause at least this long (seconds between the word times) before the match
#: and the few words that lead into it ...
CUT_IN_PAUSE = 0.15
#: ... with at most this many words between the pause and the match: what
#: follows the pause is heard as an utterance of its own.
CUT_IN_LEAD_WORDS = 2
#: A guesser's question leading into the answer after such a pause, as the
#: recognisers garble it: the words between the pause and the match may sound
#: like one of these (phone classes, at least :data:`TAIL_SOUND_MIN`: "visit a"
#: 0.83 and "is it eight" 0.83 for "is it a", "irritate" 0.75), up to
#: :data:`SOUNDED_LEAD_WORDS` words.  Not "it's a" nor a lone article: a
#: describer's "..., it's a kangaroo" is a slip, and too many short words sound
#: like "a" or "the".
SOUNDED_LEADS: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split())
    for p in ("is it a", "is it an", "is it the", "is it", "is that", "is that a", "is this")
)
SOUNDED_LEAD_WORDS = 3

#: Words that join called-out guesses ("a cat? a dog? or a kangaroo!").
LIST_JOINS = frozenset(
    [
        "a",
        "an",
        "the",
        "or",
        "no",
        "maybe",
        "is",
        "it",
        "it's",
        "its",
        "oh",
        "ah",
        "um",
        "er",
        "erm",
        "uh",
        "hmm",
        "what",
        "about",
        "yes",
        "yeah",
        "ok",
        "okay",
        "some",
        "isn't",
    ]
)
#: Words no list of guesses holds but nearly every sentence does: pronouns,
#: prepositions, verbs of being and having, conjunctions ("the animal that hops
#: is a kangaroo", "it lives in australia like a kangaroo").  Not the short
#: negations: pocketsphinx writes "can't" and "didn't" for "a cat", "a dog".
SENTENCE_WORDS = CLUE_WORDS | frozenset(
    [
        "i",
        "me",
        "my",
        "he",
        "him",
        "his",
        "she",
        "her",
        "them",
        "us",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "in",
        "on",
        "at",
        "of",
        "for",
        "from",
        "to",
        "by",
        "with",
        "into",
        "over",
        "under",
        "and",
        "but",
        "if",
        "so",
        "than",
        "then",
        "not",
        "can",
        "could",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
        "was",
        "were",
        "are",
        "be",
        "been",
        "will",
        "would",
        "should",
        "must",
        "very",
        "really",
        "what's",
        "thing",
        "something",
        "someone",
        "one",
        "ones",
        "kind",
        "sort",
    ]
)
#: A list of guesses: at most this many words in one guess before the answer ...
LIST_ITEM_WORDS = 2
#: ... at most this many guesses before it ...
LIST_MAX_ITEMS = 4
#: ... all within this long (seconds of audio time).
LIST_MAX_SECONDS = 5.0

#: What a thing is made of, holds or is compared with: phrases a describer
#: says and a guesser calling out an answer does not ("it's made of silver",
#: "full of bottles").  Each also frames the match with an article after it
#: ("made from a bottle").
_MATERIAL_FRAMES = (
    "made out of",
    "made of",
    "made from",
    "made with",
    "full of",
    "filled with",
    "covered in",
    "covered with",
    "similar to",
)

#: Where a thing is, or what stands in for it: prepositions a describer puts
#: before the card word with an article ("you drink out of a bottle", "it
#: goes next to the bed") and a guesser calling out an answer does not.
_PLACE_FRAMES = (
    "out of",
    "from",
    "into",
    "inside",
    "next to",
    "without",
    "instead of",
    "same as",
    "behind",
    "under",
    "part of",
)

#: Phrases that frame the match as part of a clue, checked right before it.
CLUE_FRAMES: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split())
    for p in (
        *(f"{m} {a}" for m in (*_MATERIAL_FRAMES, *_PLACE_FRAMES) for a in ("a", "an", "the")),
        *_MATERIAL_FRAMES,
        # "bigger than a X"; never "than" alone: a recogniser writes "than" for a
        # guesser's "an" ("than invention yes" for "an invention, yes")
        "than a",
        "than an",
        "than the",
        "like a",
        "like an",
        "like the",
        "like",
        "kind of",
        "type of",
        "sort of",
        "not a",
        "not an",
        "not the",
        "opposite of",
        "use a",
        "use an",
        "use the",
        "with a",
        "with an",
        "with the",
        "in a",
        "in the",
        "on a",
        "on the",
        "for a",
        "for the",
        "your",
    )
)

Role = Literal["guesser", "describer"]


@dataclass(frozen=True)
class Attribution:
    """Who the referee thinks said a match, and why."""

    role: Role
    """``guesser`` or ``describer``."""
    reason: str
    """The deciding cue, as a short phrase for the evidence sentence."""
    features: dict[str, Any]
    """The cues measured (word counts, seconds, lead-in, frame)."""


def attribute(
    toks: tuple[Token, ...],
    first: int,
    last: int,
    *,
    span: tuple[float, float] | None = None,
    turn_start: float | None = None,
    answer_like: bool = True,
    repeats: tuple[tuple[int, int], ...] = (),
    tail_sound: str = "",
    pitch: float | None = None,
    describer_pitch: float | None = None,
    adjective: AdjectiveLookup | None = None,
    verbal: bool = False,
    sounded_lead: tuple[int, float, str] | None = None,
) -> Attribution:
    """Decide who said ``toks[first..last]`` within the utterance ``toks``.

    ``span`` is the utterance's (start, end) in seconds of audio time when the
    recogniser reported it (it may be longer than the words it wrote);
    ``turn_start`` is when the turn began.  ``answer_like`` says the match is
    the answer or a word of it; a derivative ("telescopic") is no called-out
    answer, and a word after it is the describer going on ("a telescopic lens").
    ``repeats`` are the places (first, last) of the answer in ``toks``: said
    again, before or after the match, it is no word of a sentence ("kangaroo!
    kangaroo!", "kangaroo? is it kangaroo?").  ``tail_sound`` is the closing
    question (:data:`SOUNDED_TAILS`) that the words after the match sound like,
    or '' (the referee has the phones): after a guess lead-in and the answer,
    they end a short guess.  ``pitch`` is the utterance's, when measured: if
    it is not the describer's voice (:func:`voice_host.referee.voice.other_voice`),
    a short utterance is a guesser's whatever its
    words (the recogniser's "her prison is vetted" for "a prison, is that
    it?"), unless it is said in the turn's first second.  ``describer_pitch``
    is the describer's voice print (Hz) when known: an answer that ends a
    long utterance in another voice than the clue before it, word by word
    (:func:`voice_host.referee.voice.answer_voice`), is a guesser cutting in.
    ``adjective`` tells adjectives (:mod:`voice_host.referee.wordclass`): the
    card word with an 's and one adjective after it is a short sentence ("a
    mouse's tiny"), not a called-out answer with a stray word.  ``verbal``
    says the answer may be a verb ("you swim" is a sentence).  ``sounded_lead``
    is (where the words start, the pause before them, the question they sound
    like) when the few words between a pause and the match sound like a
    guesser's question (:data:`SOUNDED_LEADS`, the referee has the phones).
    """
    repeated = _repeated(toks, first, last, repeats)
    heard_before = [t.text for i, t in enumerate(toks[:first]) if i not in repeated]
    before = [w for w in heard_before if not is_stray(w)]
    after = [t.text for i, t in enumerate(toks[last + 1 :], last + 1) if i not in repeated]
    after, tail_phrase = _strip_tail_phrase(after)
    n = len(toks)
    # the matched words count as one; stray letters not at all; a tail
    # question ("is that it") as one, the answer said again as none
    words = len(before) + 1 + len(after) + (1 if tail_phrase else 0)
    start = toks[0].start if span is None else min(span[0], toks[0].start)
    end = toks[-1].end if span is None else max(span[1], toks[-1].end)
    seconds = max(0.0, end - start)
    # the matched words count as one word in time as in number: "i think it's
    # the leaning tower of pisa" is as much a guess as "i think it's a cat"
    match_seconds = max(0.0, toks[last].end - toks[first].start)
    timed = max(0.0, seconds - max(0.0, match_seconds - 1.0 / WORDS_PER_SECOND))
    # ... and the answer said again takes no time at all
    timed = max(0.0, timed - sum(toks[i].end - toks[i].start for i in repeated))
    feats: dict[str, Any] = {
        "words": n,
        "seconds": round(seconds, 2),
        "before": len(before),
        "after": len(after),
    }
    if timed < seconds:
        feats["counted_seconds"] = round(timed, 2)
    if len(before) < len(heard_before):
        feats["stray_letters"] = len(heard_before) - len(before)
    if repeated:
        feats["repeated"] = len([1 for a, b in repeats if b < first or a > last])
    if tail_phrase:
        feats["tail_phrase"] = tail_phrase
    if words != n:
        feats["counted_words"] = words
    # a guesser cutting in: the answer ends the utterance in another voice
    unheard = round(max(0.0, end - toks[-1].end) * WORDS_PER_SECOND) if span else 0
    cut_in = ""
    if (
        len(after) <= MAX_TAIL_WORDS
        and unheard <= MAX_TAIL_WORDS
        and end - toks[first].start <= MAX_GUESS_SECONDS
    ):
        cut_in = answer_voice(toks, first, last, describer_pitch)
    if span is not None:
        # a steered hit reports only its keyword: estimate the unheard words
        # from the utterance's length (speech runs about 3 words a second)
        estimate = round(seconds * WORDS_PER_SECOND)
        if estimate > n and n <= 2:
            feats["estimated_words"] = estimate
            feats["estimated_after"] = unheard
            if estimate > MAX_GUESS_WORDS and not cut_in:
                why = f"inside a {seconds:.1f} s utterance (about {estimate} words)"
                return Attribution("describer", why, feats)
            if unheard > MAX_TAIL_WORDS:
                why = f"about {unheard} words follow it in the utterance"
                return Attribution("describer", why, feats)
    if turn_start is not None:
        into = toks[first].start - turn_start
        feats["into_turn"] = round(into, 2)
        if 0.0 <= into < OPENING_SECONDS:
            return Attribution("describer", f"said {into:.1f} s into the turn", feats)
    if cut_in:
        feats["answer_voice"] = cut_in
        return Attribution("guesser", f"the answer ends the utterance in {cut_in}", feats)
    # "your mouth?", "is it your thumb?": a guesser calls out a part of the body
    # with its "your"; in a sentence ("you open your mouth") it is a clue frame
    your_lead = before[-1:] == ["your"] and all(w in GUESS_LEAD for w in before[:-1])
    frame = "" if your_lead else _frame(before)
    question_tail = len(after) <= MAX_TAIL_WORDS and all(w in QUESTION_TAIL for w in after)
    asked = _opening_question(heard_before, frame) if frame else ""
    if (
        asked
        and answer_like
        and question_tail
        and words <= MAX_GUESS_WORDS
        and timed <= MAX_GUESS_SECONDS
    ):
        feats["frame"] = frame
        feats["question"] = asked
        why = f"the question '{asked} ... {frame}' asks for it"
        return Attribution("guesser", why, feats)
    # another voice than the describer's, in a short utterance: a guesser's
    elsewise = other_voice(pitch, describer_pitch)
    voiced = bool(elsewise) and words <= MAX_GUESS_WORDS and timed <= MAX_GUESS_SECONDS
    if frame:
        feats["frame"] = frame
        if not voiced:
            return Attribution("describer", f"clue frame '{frame} ...'", feats)
    ooh = _ooh_lead(before, verbal)
    if (
        ooh
        and answer_like
        and len(after) <= 1
        and not any(w in CLUE_WORDS for w in after)
        and words <= OOH_MAX_WORDS
        and timed <= SHORT_SECONDS
    ):
        feats["ooh"] = ooh
        return Attribution("guesser", f"'{ooh} ...' before it is a guesser's 'ooh'", feats)
    if your_lead:
        feats["your_lead"] = True
    lead_ok = all(w in GUESS_LEAD for w in (before[:-1] if your_lead else before))
    tail_ok = len(after) <= MAX_TAIL_WORDS and all(w in GUESS_TAIL for w in after)
    feats["lead_ok"] = lead_ok
    feats["tail_ok"] = tail_ok
    if lead_ok and tail_ok and words <= MAX_GUESS_WORDS and timed <= MAX_GUESS_SECONDS:
        if before:
            return Attribution(
                "guesser", f"short guess '{' '.join(before)} ...' ({_words(n)})", feats
            )
        return Attribution("guesser", f"short utterance ({_words(n)}) ending with it", feats)
    offered = _or_offer(after)
    if offered and answer_like and lead_ok and len(before) + 3 <= MAX_GUESS_WORDS:
        # "spotify or apple music?", "is it a telescope or a microscope?": the answer
        # offered with another guess after it (each guess counted as one word, and
        # "or" as one)
        feats["or_offer"] = offered
        return Attribution("guesser", f"offered with another guess ('or {offered}')", feats)
    if (
        tail_sound
        and answer_like
        and lead_ok
        and len(before) + 2 <= MAX_GUESS_WORDS
        and timed <= MAX_GUESS_SECONDS
    ):
        feats["tail_sound"] = tail_sound
        said = " ".join(after)
        return Attribution("guesser", f"'{said}' after it sounds like '{tail_sound}'", feats)
    # A short utterance: the recogniser's garbage around a called-out answer
    # ("nebraska of right", "cake of", "on green get some robot") is no clue;
    # a describer's sentence shows itself by clue words or by going on.
    odd_after = [w for w in after if w not in SHORT_TAIL]
    if answer_like and len(after) <= MAX_TAIL_WORDS and all(w in LIGHT_TAIL for w in after):
        odd_after = []  # "isn't it" written "is did", "is that it" "that it"
    # A last "you" is a breath or a misheard "right" ("kangaroo you"), unless a
    # word that means something comes before it: then it is the sentence's
    # object ("a policeman arrests you").
    breath = all(w in SHORT_TAIL for w in after[:-1])
    clue_after = [w for w in after[:-1] if w in CLUE_WORDS] + [
        w for w in after[-1:] if w in CLUE_WORDS and (w != "you" or not breath)
    ]
    # "a mouse's tiny": the card word's 's is "is", and the adjective after it
    # the describer's sentence going on, not a recogniser's stray word after a
    # called-out answer ("goodbye's repeat" for "goodbye, is that it?")
    contracted = (
        len(odd_after) == 1
        and toks[last].text.endswith("'s")
        and adjective is not None
        and adjective(odd_after[0])
    )
    if contracted:
        feats["contracted"] = True
    breath_only = bool(odd_after) and odd_after == after[-1:] and after[-1] in BREATH_AFTER
    odd_ok = not contracted and len(odd_after) <= (
        SHORT_ODD_AFTER if answer_like or breath_only else 0
    )
    core = _without_question_lead(before[:-1] if your_lead else before)
    if (
        words <= SHORT_WORDS
        and timed <= SHORT_SECONDS
        and not any(w in CLUE_WORDS for w in core)
        and not clue_after
        and odd_ok
    ):
        feats["short"] = True
        if odd_after:
            feats["odd_after"] = len(odd_after)
            return Attribution(
                "guesser",
                f"short utterance ({_words(n)}), '{' '.join(odd_after)}' after it taken for noise",
                feats,
            )
        return Attribution("guesser", f"short utterance ({_words(n)}) without clue words", feats)
    items = _guess_list(before)
    if items and timed <= LIST_MAX_SECONDS and not clue_after and odd_ok:
        feats["list"] = items
        return Attribution("guesser", f"a list of guesses ({items + 1} called out)", feats)
    # ... and a list that goes on after the answer ("a toucan? a puffin? a pelican? an
    # albatross?"): each guess after it led by an article or "or", as before it
    more = _guess_list(after) if after[:1] and after[0] in LIST_JOINS else 0
    if items and more and items + more <= LIST_MAX_ITEMS and timed <= LIST_MAX_SECONDS:
        feats["list"] = items + more
        why = f"a list of guesses ({items + more + 1} called out, the answer among them)"
        return Attribution("guesser", why, feats)
    # A guesser cutting in as the clue ends: after a pause, or with a question.
    pause = pause_before(toks, first)
    if pause is not None and question_tail:
        k, gap = pause
        # only guess lead-ins between the pause and the match ("is it a", "the",
        # "oh"): a describer's "... films with Clint Eastwood" is no called-out answer
        lead = [t.text for t in toks[k:first] if not is_stray(t.text)]
        if all(w in GUESS_LEAD for w in lead):
            feats["pause"] = round(gap, 2)
            said = f"'{' '.join(lead)} ...'" if lead else "the answer alone"
            why = f"{said} after a {gap:.2f} s pause ends the utterance"
            return Attribution("guesser", why, feats)
    if sounded_lead is not None and question_tail:
        k, gap, sounded = sounded_lead
        feats["pause"] = round(gap, 2)
        feats["lead_sound"] = sounded
        said = " ".join(t.text for t in toks[k:first])
        why = f"'{said} ...' (as '{sounded}') after a {gap:.2f} s pause ends the utterance"
        return Attribution("guesser", why, feats)
    question = _cut_in_question(before)
    if question and question_tail:
        feats["question"] = question
        return Attribution("guesser", f"the question '{question} ...' ends the utterance", feats)
    if voiced:
        feats["other_voice"] = elsewise
        return Attribution("guesser", f"a short utterance ({_words(n)}) in {elsewise}", feats)
    if words > MAX_GUESS_WORDS:
        where = "at the end of" if not after else "inside"
        return Attribution("describer", f"{where} a {n}-word sentence", feats)
    if timed > MAX_GUESS_SECONDS:
        return Attribution("describer", f"inside a {seconds:.1f} s utterance", feats)
    if not lead_ok:
        odd = next(w for w in before if w not in GUESS_LEAD)
        return Attribution("describer", f"clue words before it ('{odd}')", feats)
    odd = next((w for w in after if w not in GUESS_TAIL), after[0] if after else "")
    return Attribution("describer", f"sentence goes on after it ('{odd}')", feats)


def _repeated(
    toks: tuple[Token, ...], first: int, last: int, repeats: tuple[tuple[int, int], ...]
) -> set[int]:
    """The words of the answer said again around ``first..last``, with what
    joins each repeat to the next (:data:`REASK_JOINS`: "kangaroo! is it a
    kangaroo?").  A repeat joined by anything else stays a word of the
    utterance ("a clock is a clock" is a sentence)."""
    places = sorted({(a, b) for a, b in repeats if b < first or a > last} | {(first, last)})
    places = [p for i, p in enumerate(places) if i == 0 or p[0] > places[i - 1][1]]
    at = places.index((first, last)) if (first, last) in places else -1
    if at < 0:
        return set()
    out: set[int] = set()
    for step in (-1, 1):
        k = at
        while 0 <= k + step < len(places):
            left, right = sorted((places[k], places[k + step]))
            join = tuple(t.text for t in toks[left[1] + 1 : right[0]])
            if _without_article(join) not in REASK_JOINS:
                break
            k += step
            lo, hi = places[k]
            out.update(range(lo, hi + 1))
            out.update(range(left[1] + 1, right[0]))
    return out


def _words(n: int) -> str:
    """ "1 word", "3 words"."""
    return f"{n} word" if n == 1 else f"{n} words"


def _without_article(words: tuple[str, ...]) -> tuple[str, ...]:
    """``words`` less the articles that end them."""
    while words and words[-1] in _QUESTION_ARTICLES:
        words = words[:-1]
    return words


def _strip_tail_phrase(after: list[str]) -> tuple[list[str], str]:
    """``after`` less a question (:data:`TAIL_PHRASES`) that ends it, and that question."""
    for phrase in TAIL_PHRASES:
        k = len(phrase)
        if len(after) >= k and tuple(after[-k:]) == phrase:
            return after[:-k], " ".join(phrase)
    return after, ""


def _frame(before: list[str]) -> str:
    """The clue frame ending right before the match, or ''."""
    for frame in CLUE_FRAMES:
        k = len(frame)
        if len(before) >= k and tuple(before[-k:]) == frame:
            # "is it like a" is still a clue; "is it a" is not a frame at all
            return " ".join(frame)
    return ""


def _ooh_lead(before: list[str], verbal: bool) -> str:
    """``before`` when it is a guesser's "ooh" as a recogniser writes it
    (:data:`OOH_WORDS`, once or twice, then an article, or no article unless
    ``verbal``), or ''."""
    words = before[:-1] if before[-1:] and before[-1] in _QUESTION_ARTICLES else before
    if not 1 <= len(words) <= 2 or not all(w in OOH_WORDS for w in words):
        return ""
    if verbal and len(words) == len(before):
        return ""
    return " ".join(before)


def _opening_question(heard: list[str], frame: str) -> str:
    """The guesser's question (:data:`OPENING_QUESTIONS`, after at most two
    fillers: "oh, is it like cheese?") that opens the words ``heard`` before
    the match, ahead of the clue ``frame`` that ends them, or ''.  The
    recogniser often garbles the "it" of "is it" ("is n made of silver", "is
    should covered in honey", "is adieu kind of cheese"), so "is"
    and any one word but an article open the question too: a describer's "it's
    a" may be heard "is a", and "it's made of" "is made of" (the frame's own
    word), but of the 1,200 clue and slip lines of table talk heard through
    the recogniser only one came out opening with "is", a 30-word clue."""
    lead = 0
    while lead < min(2, len(heard)) and heard[lead] in _OPENING_FILLERS:
        lead += 1
    heard = heard[lead:]
    room = len(heard) - len(frame.split())
    for question in OPENING_QUESTIONS:
        k = len(question)
        if k <= room and tuple(heard[:k]) == question:
            return " ".join(question)
    if room >= 2 and heard[0] == "is" and heard[1] not in _QUESTION_ARTICLES:
        return f"is {heard[1]}"
    return ""


def _without_question_lead(before: list[str]) -> list[str]:
    """``before`` less a question lead (:data:`QUESTION_LEADS`) that ends it."""
    for lead in QUESTION_LEADS:
        if tuple(before[-len(lead) :]) == lead:
            return before[: -len(lead)]
    return before


def pause_before(
    toks: tuple[Token, ...], first: int, most: int = CUT_IN_LEAD_WORDS
) -> tuple[int, float] | None:
    """Where the words leading into ``toks[first]`` start after a pause of at
    least :data:`CUT_IN_PAUSE` (the nearest, at most ``most`` words back), and
    the pause in seconds; None when there is no such pause."""
    for k in range(first, max(0, first - most - 1), -1):
        gap = toks[k].start - toks[k - 1].end
        if gap >= CUT_IN_PAUSE:
            return k, gap
    return None


def _cut_in_question(before: list[str]) -> str:
    """The inverted question (:data:`CUT_IN_QUESTIONS`, and an article) that ends
    ``before``, or ''."""
    words = before[:-1] if before[-1:] and before[-1] in _QUESTION_ARTICLES else before
    for lead in CUT_IN_QUESTIONS:
        if len(words) >= len(lead) and tuple(words[-len(lead) :]) == lead:
            return " ".join(before[len(words) - len(lead) :])
    return ""


def _or_offer(after: list[str]) -> str:
    """The other guess in ``after`` when it offers one ("or apple music", "or a
    dog"): "or", then a guess of a word or two (:data:`LIST_ITEM_WORDS`, an
    article not counted) with no word only a sentence has (:data:`SENTENCE_WORDS`:
    "or you can ..." goes on); '' otherwise."""
    if after[:1] != ["or"]:
        return ""
    rest = after[1:]
    guess = rest[1:] if rest[:1] and rest[0] in ("a", "an", "the") else rest
    if not 1 <= len(guess) <= LIST_ITEM_WORDS or any(w in SENTENCE_WORDS for w in guess):
        return ""
    return " ".join(rest)


def _guess_list(before: list[str]) -> int:
    """How many guesses ``before`` calls out when it is a list of them ("is it
    a cat a dog a": 2), or 0 when it is not: each guess a word or two joined
    by :data:`LIST_JOINS`, and no word that only a sentence has
    (:data:`SENTENCE_WORDS`).  The "is" of a list asks ("is it", "is that"):
    any other "is" is a sentence's verb ("cinderella is probably the most
    famous fairy tale" was a list of four guesses)."""
    if before[:2] in (["is", "it"], ["is", "that"]):
        # asked, and the last guess joined by "and" ("is it a lion, a tiger and
        # an elephant", or "... and elephant"): the question makes it a guesser's list
        if before[-2:-1] == ["and"]:
            before = before[:-2] + before[-1:]
        elif before[-1:] == ["and"]:
            before = before[:-1]
    if not before or any(w in SENTENCE_WORDS and w not in LIST_JOINS for w in before):
        return 0
    if any(
        w == "is" and before[i + 1 : i + 2] not in (["it"], ["that"]) for i, w in enumerate(before)
    ):
        return 0  # "is" asks ("is it a cat"), or it is a sentence's verb ("a cat is a pet")
    items = 0
    run = 0
    for w in before:
        if w in LIST_JOINS:
            run = 0
            continue
        run += 1
        if run == 1:
            items += 1
        if run > LIST_ITEM_WORDS:
            return 0
    return items if 1 <= items <= LIST_MAX_ITEMS else 0
