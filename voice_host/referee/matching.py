"""Finding an entry's answers and forbidden forms among heard words.

Three ways a heard window of words can hit a target phrase:

* exactly, comparing spellings with spaces removed, so that "light house"
  hits "lighthouse" and "post man" hits the form "postman" (joined pairs);
* in spelling: rapidfuzz ``fuzz.ratio`` between the window and the target,
  over windows of k-1..k+2 heard words (k = words in the target);
* in sound: similarity of CMU phone sequences (1 - Levenshtein distance /
  longer length), the target's phones from ``Entry.pronunciations`` (else the
  lookup), the heard words' phones from the injected lookup.

Fuzzy hits are tried for accepted answers only, and never on common words
that do not sound the same (:data:`COMMON_WORD_ZIPF`: "place" is no "palace").
Forbidden forms are word knowledge computed by the deck build ("swimmer" is a form of "swim",
"poster" is not a form of "post"): they are looked up exactly, never guessed
from resemblance, and a window holding an exact form is never a fuzzy answer
hit (otherwise "swimmer" would pass for "swim") - with one exception: a
window of exactly as many words as a multi-word answer, all but one of
them exact, the odd one within :data:`SPELLING_WEAK` of its word (or, for a
word of six phones or more, within :data:`SOUND_MIN` in sound) and the
whole within :data:`SPELLING_MIN` of the answer in spelling or
:data:`SOUND_MIN` in sound, is that answer even when its odd word is a form
("alberts einstein" is "albert einstein" with a stray ending, not the form
"alberts" followed by a word; "crack your buckels" is "crack your knuckles"),
unless the window is exactly another answer ("pop star" is the answer "pop
star", not "pop stars" with an ending lost).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from voice_host.deck.model import Entry
from voice_host.deck.words import norm_phrase, own_words, split_words
from voice_host.referee.frequency import WordFrequency
from voice_host.referee.phones import PhoneLookup
from voice_host.referee.text import Token
from voice_host.talk_words import noisy_answer_forms

#: Spelling alone is enough at or above this ``fuzz.ratio`` (0-100).  Set on the
#: tuning pairs in ``benchmarks/referee.py --pairs``: 85 keeps recogniser
#: misspellings such as "glazier" for "glacier" (85.7) and rejects look-alikes
#: such as "carp"/"carpet" (80), "poster"/"postman", "mice"/"mike" (75).
SPELLING_MIN = 85.0
#: ... and only for targets of at least this many letters: for short words one
#: letter more or changed is another word ("car"/"card" 86, "plane"/"planet" 91).
SPELLING_MIN_LETTERS = 6
#: Sound alone is enough at or above this phone similarity (0-1) ...
SOUND_MIN = 0.8
#: ... provided the target has at least this many phones: with fewer, one
#: changed phone is a different word ("post"/"poster" 0.8 with 5 phones,
#: "car"/"guard", "cat"/"bat").
SOUND_MIN_PHONES = 6
#: Shorter targets need identical phones (homophones: "fowl" for "foul").
#: A weaker spelling score together with a weaker sound score also counts
#: ("tell a scope" for "telescope": 80 and 0.89):
SPELLING_WEAK = 80.0
SOUND_WEAK = 0.75
#: Windows of k-1..k+1 heard words are compared with a k-word target, plus
#: this many more: a recogniser splits a long word into short ones
#: ("tell a scope", "can dare you").
EXTRA_SPLIT_WORDS = 1
#: Looser sound similarity used only to *confirm* a steered (keyword-spotting or
#: grammar) hit against an overlapping free transcript: the free decoder often
#: writes the word slightly wrong, and the steered hit is the other evidence.
#: 0.6 let "toaster" (T OW S T ER) confirm a spotted "post" on the fixtures.
CONFIRM_SOUND_MIN = 0.7
CONFIRM_SPELLING_MIN = 70.0
#: Heard words at least this common (Zipf: :mod:`voice_host.referee.frequency`;
#: 3 is a word seen once per million words, 4 ten times), every
#: word of a window, are those words, not a recogniser's misspelling of the
#: card's: they hit an answer, or confirm a steered hit, only when they sound
#: the same ("night" for the card Knight, "tell a scope" for Telescope).
#: Spelling and near sound had taken "place" for Palace, "water" for Waiter,
#: "island" for Ireland, "money" for Monkey, "saw a turn" for Saturn
#: (``benchmarks/lookalikes.py``: common words judged a card's answer over the
#: built-in deck).  4 until session 46, when real people calling out "camels"
#: and "onions", written right, were judged Castle and Opinion
#: (``benchmarks/real_words.py``).  Rarer words stay fuzzy ("glazier" for
#: "glacier").
COMMON_WORD_ZIPF = 3.0

#: Articles: an answer led by one is left out of fuzzy matching.
ARTICLES = frozenset({"the", "a", "an"})

MatchKind = Literal["answer", "entry_word", "form"]


@dataclass(frozen=True)
class Target:
    """A phrase the referee listens for, prepared for comparison."""

    phrase: str
    """Lower-case words joined by single spaces."""
    words: tuple[str, ...]
    """The phrase's words."""
    compact: str
    """The phrase without spaces ("eiffeltower"), for joined-pair matching."""
    phones: tuple[str, ...] | None
    """Concatenated phones of its words, or None when a word has none."""
    kind: MatchKind
    """``answer`` (a right guess), ``entry_word`` (one of the entry's own
    printed words) or ``form`` (another forbidden form)."""
    own: bool
    """Whether it is the entry's own word(s) as printed ("car", "tower",
    "the eiffel tower"), as opposed to another form ("cars", "towering"): a
    describer saying it is a ``word`` foul rather than a ``derivative`` one."""


@dataclass(frozen=True)
class Match:
    """A target found in a run of heard tokens."""

    target: Target
    """What was found."""
    first: int
    """Index of the first heard token of the match."""
    last: int
    """Index of the last heard token of the match (inclusive)."""
    spelling: float
    """``fuzz.ratio`` (0-100) between heard words and target."""
    sound: float
    """Phone similarity (0-1), 0 when phones were missing."""
    exact: bool
    """Whether the spelling matched exactly (spaces ignored)."""

    @property
    def how(self) -> str:
        """A few words saying how it matched, for evidence."""
        if self.exact:
            return "exact"
        return f"spelling {self.spelling:.0f}, sound {self.sound:.2f}"


def phone_similarity(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    """1 - Levenshtein distance / longer length, over phone sequences (0-1)."""
    if not a or not b:
        return 0.0
    return float(Levenshtein.normalized_similarity(a, b))


#: ARPAbet vowels (stress marks removed), for :func:`phone_class_similarity`.
VOWELS = frozenset(
    ["AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW"]
)
#: Cost of replacing a phone with another of the same class (vowel for vowel,
#: consonant for consonant) in :func:`phone_class_similarity`; any other edit
#: costs 1.
SAME_CLASS_COST = 0.5


def phone_class_similarity(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    """1 - weighted edit distance / longer length, over phone sequences (0-1).

    Like :func:`phone_similarity`, but a vowel heard as another vowel, or a
    consonant as another consonant, costs only :data:`SAME_CLASS_COST`: the
    word keeps its shape ("pass" P AE S against "host" HH OW S T scores 0.5,
    "test" 0.75, "the" DH AH 0.25).  A loose resemblance for short words whose
    spelling the recogniser garbled, never enough on its own.
    """
    if not a or not b:
        return 0.0
    prev = [float(j) for j in range(len(b) + 1)]
    for i, pa in enumerate(a, 1):
        cur = [float(i)]
        for j, pb in enumerate(b, 1):
            if pa == pb:
                sub = 0.0
            elif (pa in VOWELS) == (pb in VOWELS):
                sub = SAME_CLASS_COST
            else:
                sub = 1.0
            cur.append(min(prev[j] + 1.0, cur[j - 1] + 1.0, prev[j - 1] + sub))
        prev = cur
    return 1.0 - prev[-1] / max(len(a), len(b))


def phrase_phones(
    words: tuple[str, ...], known: dict[str, tuple[str, ...]], lookup: PhoneLookup | None
) -> tuple[str, ...] | None:
    """Concatenated phones of ``words``: from ``known`` first, then ``lookup``;
    None when any word has none."""
    out: list[str] = []
    for w in words:
        ph = known.get(w)
        if ph is None and lookup is not None:
            ph = lookup(w)
        if not ph:
            return None
        out.extend(ph)
    return tuple(out)


#: Forms that are another word before these words: the "kind" of "kind of"
#: (a sort of, or a describer's filler: "it's kind of like being nice") is no
#: form of Kindness, whose root is the adjective ("being kind" is a foul).
OTHER_SENSE_BEFORE: dict[str, frozenset[str]] = {
    "kind": frozenset({"of"}),
    "kinds": frozenset({"of"}),
}
#: Forms that are another word after these words: the "bit" of "a bit" and "a
#: little bit" is no past of Bite (Bite your nails: "a bit nervous"), the "wound"
#: of "a wound" none of Wind (Gone with the Wind: "the wounded", "a wound").
OTHER_SENSE_AFTER: dict[str, frozenset[str]] = {
    "bit": frozenset({"a", "little", "tiny", "wee"}),
    "wound": frozenset({"a", "the", "his", "her", "their"}),
}


class EntryTargets:
    """Everything the referee looks for while one entry is being described."""

    def __init__(
        self,
        entry: Entry,
        lookup: PhoneLookup | None,
        frequency: WordFrequency | None = None,
    ) -> None:
        """Prepare ``entry``'s answers, own words and forms for matching;
        ``frequency`` tells common words (:data:`COMMON_WORD_ZIPF`), or None."""
        self.entry = entry
        self._frequency = frequency
        known = {k.lower(): tuple(v) for k, v in entry.pronunciations.items()}
        answers: dict[str, None] = {}
        for a in entry.answers or (entry.text,):
            words = norm_phrase(a)
            if words:
                answers.setdefault(" ".join(words), None)
                # "the eiffel tower" is also right without its article
                if len(words) > 1 and words[0] in ("the", "a", "an"):
                    answers.setdefault(" ".join(words[1:]), None)
        # the entry's own words: as the deck reads them (digits spelled, accents
        # folded), and only those that mean something on their own, the
        # words the deck forbids: not "the", nor the "your" of "Brush your
        # teeth", which no describer can do without
        printed = tuple(split_words(entry.text))
        own = own_words(entry.text)  # "saint" of St Paul's is its own word too
        whole = "".join(printed)
        own_compacts = {whole, "the" + whole, "a" + whole, "an" + whole, *own}
        targets: list[Target] = []
        seen: set[str] = set()

        def add(phrase: str, kind: MatchKind) -> None:
            words = tuple(phrase.split())
            compact = "".join(words)
            if not words or compact in seen:
                return
            seen.add(compact)
            phones = phrase_phones(words, known, lookup)
            targets.append(Target(phrase, words, compact, phones, kind, compact in own_compacts))

        forms = {" ".join(norm_phrase(f)) for f in entry.forms}
        noisy: set[str] = set()  # answer + a recogniser's stray ending: exact only
        for a in answers:
            add(a, "answer")
        for a in list(answers):
            # A recogniser adds or drops these endings on its own: "kangaroo's"
            # sounds as the plural does, and slt's "telescope!" comes back as
            # "telescoped".  No guesser means "telescoped" when they say it, so
            # a form that is an answer plus such an ending counts as the answer.
            # (In a clue it is a foul either way.)
            for variant in noisy_answer_forms(a, forms):
                compact = "".join(variant.split())
                if compact not in seen:
                    add(variant, "answer")
                    noisy.add(compact)
                    if variant.endswith("'s") and (a + "s") not in forms:
                        # ... and so is that possessive without its apostrophe
                        # ("overtimes" for "overtime's", where no plural is a form)
                        bare = "".join((a + "s").split())
                        if bare not in seen:
                            add(a + "s", "answer")
                            noisy.add(bare)
        # A form that sounds exactly like an answer ("buss" for "bus") is the
        # answer to a guesser: no recogniser can tell which was meant.
        answer_sounds = {t.phones for t in targets if t.phones}
        for f in entry.forms:
            words = norm_phrase(f)
            compact = "".join(words)
            if (
                words
                and compact not in seen
                and compact not in own_compacts
                and phrase_phones(words, known, lookup) in answer_sounds
            ):
                add(" ".join(words), "answer")
                noisy.add(compact)
        for w in own:
            add(w, "entry_word")
        for f in entry.forms:
            words = norm_phrase(f)
            if words:
                add(" ".join(words), "form")
        for f in entry.forms:
            # A possessive written without its apostrophe is the same word
            # ("overtimes" for "overtime's": the two sound alike, and neither
            # recogniser's spelling can be trusted with the mark).
            words = norm_phrase(f)
            if words and words[-1].endswith("'s") and "'" not in words[-1][:-2]:
                add(" ".join((*words[:-1], words[-1][:-2] + "s")), "form")
        self.targets: tuple[Target, ...] = tuple(targets)
        self.answers = tuple(t for t in targets if t.kind == "answer")
        # Fuzzy matching leaves out answers with a leading article ("the rain" must
        # not come close to "the rainbow" on the strength of a shared "the") and
        # the stray-ending variants: a near miss of "posted" is an answer twice
        # removed ("toasted" on the card Post was a "correct" guess).
        self.fuzzy_answers = tuple(
            t for t in self.answers if t.words[0] not in ARTICLES and t.compact not in noisy
        )
        self._by_compact = {t.compact: t for t in targets}
        self._max_words = max((len(t.words) for t in targets), default=1)
        self._lookup = lookup
        self._known = known

    def is_common(self, window: tuple[Token, ...], target: Target) -> bool:
        """Whether ``window`` is common words (:data:`COMMON_WORD_ZIPF`), every
        one of them, other than ``target``'s own ("a turn" or "saw a turn" for
        "saturn", "night there" for "nightmare"); False without a frequency lookup."""
        words = [t.text for t in window]
        if self._frequency is None or "".join(words) == target.compact:
            return False
        return all(self._frequency(w) >= COMMON_WORD_ZIPF for w in words)

    def heard_phones(self, toks: tuple[Token, ...]) -> tuple[str, ...] | None:
        """Concatenated phones of heard tokens via the lookup (None if any is unknown)."""
        if self._lookup is None:
            return None
        return phrase_phones(tuple(t.text for t in toks), {}, self._lookup)

    def find(self, toks: tuple[Token, ...]) -> list[Match]:
        """Every non-overlapping hit in ``toks``, in spoken order.

        Exact hits (answers, own words, forms, joined pairs) are taken first,
        longest first; fuzzy answer hits then fill what is left.
        """
        taken = [self.other_sense(toks, i) for i in range(len(toks))]
        found: list[Match] = []
        # exact hits, longest windows first so "eiffel tower" beats "tower";
        # windows opening with an article last, so that "the post man" is the
        # form "postman" and not the answer "the post" followed by "man"
        sizes = range(min(self._max_words + 1, len(toks)), 0, -1)
        for article_first in (False, True):
            self._exact(toks, taken, found, sizes, article_first)
        found = self._whole_answers(toks, taken, found)
        found.extend(self._fuzzy(toks, taken))
        found.sort(key=lambda m: m.first)
        return found

    def _exact(
        self,
        toks: tuple[Token, ...],
        taken: list[bool],
        found: list[Match],
        sizes: range,
        article_first: bool,
    ) -> None:
        for size in sizes:
            for i in range(len(toks) - size + 1):
                if any(taken[i : i + size]) or (toks[i].text in ARTICLES) != article_first:
                    continue
                compact = "".join(t.text for t in toks[i : i + size])
                target = self._by_compact.get(compact)
                if target is None:
                    continue
                found.append(Match(target, i, i + size - 1, 100.0, 1.0, True))
                for j in range(i, i + size):
                    taken[j] = True

    def _whole_answers(
        self, toks: tuple[Token, ...], taken: list[bool], found: list[Match]
    ) -> list[Match]:
        """``found`` with a multi-word answer heard with one garbled word put in
        place of the exact single-word hits inside it (see the module
        docstring): "repeat alberts einstein" holds the answer "albert
        einstein", not the form "alberts" and the answer "einstein"."""
        for target in self.fuzzy_answers:
            k = len(target.words)
            if k < 2:
                continue
            for i in range(len(toks) - k + 1):
                window = toks[i : i + k]
                pairs = [(t.text, w) for t, w in zip(window, target.words, strict=True)]
                odd = [(h, w) for h, w in pairs if h != w]
                if len(odd) != 1 or not self._odd_word_near(*odd[0]):
                    continue  # exact (found already), or more than one word off
                inner = [m for m in found if i <= m.first and m.last < i + k]
                if any(m.exact and m.first == i and m.last == i + k - 1 for m in inner):
                    continue  # another answer, exact: "pop star" is not "pop stars" misheard
                outer = [m for m in found if m not in inner]
                if any(m.first < i + k and m.last >= i for m in outer):
                    continue  # a longer exact hit runs across the window
                m = self._score(target, window, i)
                if m.spelling < SPELLING_MIN and m.sound < SOUND_MIN:
                    continue
                found = [*outer, m]
                for j in range(i, i + k):
                    taken[j] = True
        return found

    def _odd_word_near(self, heard: str, word: str) -> bool:
        """Whether ``heard``, the one word of a multi-word answer heard otherwise, is
        near enough to its ``word``: a stray ending in spelling (:data:`SPELLING_WEAK`),
        or a word of :data:`SOUND_MIN_PHONES` phones or more that sounds the same but
        for one or so (:data:`SOUND_MIN`): "crack your buckels" is "crack your
        knuckles" misheard, not the own word "crack" followed by the describer's next;
        or, for a letter, its name ("ex" for the X of Malcolm X)."""
        if fuzz.ratio(heard, word) >= SPELLING_WEAK:
            return True
        wanted = phrase_phones((word,), self._known, self._lookup)
        if len(word) == 1 and wanted is not None:
            # a letter written as its name: "malcolm ex", "mister tee" (Mr. T)
            return phrase_phones((heard,), {}, self._lookup) == wanted
        if wanted is None or len(wanted) < SOUND_MIN_PHONES:
            return False
        got = phrase_phones((heard,), {}, self._lookup)
        return got is not None and phone_similarity(got, wanted) >= SOUND_MIN

    def _fuzzy(self, toks: tuple[Token, ...], taken: list[bool]) -> list[Match]:
        candidates: list[tuple[float, Match]] = []
        for target in self.fuzzy_answers:
            k = len(target.words)
            for size in range(max(1, k - 1), k + 2 + EXTRA_SPLIT_WORDS):
                for i in range(len(toks) - size + 1):
                    if any(taken[i : i + size]):
                        continue
                    window = toks[i : i + size]
                    m = self._score(target, window, i)
                    heard = "".join(t.text for t in window)
                    # common words need the same sound (looked up only for a hit)
                    if accepts(m, target, heard) and (
                        m.sound >= 1.0 or not self.is_common(window, target)
                    ):
                        # best score first; on ties the shorter window
                        rank = max(m.spelling / 100.0, m.sound) - 0.001 * size
                        candidates.append((rank, m))
        out: list[Match] = []
        for _, m in sorted(candidates, key=lambda c: -c[0]):
            if any(taken[m.first : m.last + 1]):
                continue
            out.append(m)
            for j in range(m.first, m.last + 1):
                taken[j] = True
        return out

    def _score(self, target: Target, window: tuple[Token, ...], i: int) -> Match:
        heard = " ".join(t.text for t in window)
        spelling = max(
            fuzz.ratio(heard, target.phrase),
            fuzz.ratio(heard.replace(" ", ""), target.compact),
        )
        sound = 0.0
        if target.phones is not None:
            hp = self.heard_phones(window)
            if hp is not None:
                sound = phone_similarity(hp, target.phones)
        return Match(target, i, i + len(window) - 1, float(spelling), sound, False)

    def other_sense(self, toks: tuple[Token, ...], i: int) -> bool:
        """Whether ``toks[i]`` is a form said as another word (:data:`OTHER_SENSE_BEFORE`:
        "kind of" on the card Kindness; :data:`OTHER_SENSE_AFTER`: "a bit" on Bite)."""
        word = toks[i].text
        before = OTHER_SENSE_BEFORE.get(word, frozenset())
        after = OTHER_SENSE_AFTER.get(word, frozenset())
        if not (
            (i + 1 < len(toks) and toks[i + 1].text in before)
            or (i > 0 and toks[i - 1].text in after)
        ):
            return False
        target = self._by_compact.get(word)
        return target is not None and target.kind == "form"

    def confirms(self, target: Target, toks: tuple[Token, ...]) -> Match | None:
        """A loose hit of ``target`` in ``toks`` good enough to confirm a
        steered recogniser's hit of the same target (see :data:`CONFIRM_SOUND_MIN`)."""
        best: Match | None = None
        k = len(target.words)
        other = [self.other_sense(toks, j) for j in range(len(toks))]
        for size in range(max(1, k - 1), k + 3):
            for i in range(len(toks) - size + 1):
                window = toks[i : i + size]
                m = self._score(target, window, i)
                if affix_variant("".join(t.text for t in window), target.compact):
                    continue  # "teach" does not confirm a spotted "teacher"
                if any(other[i : i + size]):
                    continue  # "kind of" does not confirm a spotted "kind" on Kindness
                good = m.spelling >= CONFIRM_SPELLING_MIN or m.sound >= CONFIRM_SOUND_MIN
                # "island" does not confirm "ireland": common words need the same sound
                good = good and (m.sound >= 1.0 or not self.is_common(window, target))
                if good and (best is None or _strength(m) > _strength(best)):
                    best = m
        return best


def _strength(m: Match) -> float:
    return max(m.spelling / 100.0, m.sound)


def affix_variant(heard: str, target: str) -> bool:
    """Whether ``heard`` is ``target`` with an ending changed or added (or the
    reverse): "telescopic"/"telescope", "poster"/"post", "rain"/"rainbow".

    Such words are other words of the family or look-alikes, never a
    recogniser's misspelling of the target (those differ inside the word:
    "glazier"/"glacier"), so fuzzy matching must not accept them.
    """
    if heard == target:
        return False
    common = 0
    for a, b in zip(heard, target, strict=False):
        if a != b:
            break
        common += 1
    return common >= min(len(heard), len(target)) - 1


def accepts(m: Match, target: Target, heard: str = "") -> bool:
    """Whether a fuzzy score pair is good enough for ``target`` (see the
    constants); ``heard`` is the window's words without spaces.  (Common words
    need the same sound besides: :meth:`EntryTargets.is_common`.)"""
    if heard and affix_variant(heard, target.compact):
        return False
    n = len(target.phones) if target.phones else 0
    if m.spelling >= SPELLING_MIN and len(target.compact) >= SPELLING_MIN_LETTERS:
        return True
    if n >= SOUND_MIN_PHONES and m.sound >= SOUND_MIN:
        return True
    if 0 < n < SOUND_MIN_PHONES and m.sound >= 1.0:
        return True
    return m.spelling >= SPELLING_WEAK and m.sound >= SOUND_WEAK and n >= SOUND_MIN_PHONES
