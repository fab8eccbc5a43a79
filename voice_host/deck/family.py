"""Word families: the forms of a word a describer must not say (R11 "any derivative").

For one word the family is built by rules, each filtered to real English words
(:meth:`Lexicon.is_word`):

1. inflections of the word and of its lemmas, every part of speech (lemminflect:
   swim -> swims, swam, swum, swimming; mouse -> mice; the possessive "'s");
2. derivations: a suffix (:data:`SUFFIXES`) or the prefix "un", with the usual
   spelling changes (doubled final consonant, dropped "e", "y" -> "i", a final
   "o"/"a" dropped before -ic: volcano -> volcanic), kept only if the derived
   word *sounds* like it starts with the word: exactly for a one-syllable word
   (so "bus" does not give "busy"), consonants only for longer words (so
   "nation" still gives "national"), and only if it is a common word rather
   than a name (lemminflect lists it, or it is frequent: not carly, carmen);
3. compounds: a common word (not a name or brand, see :func:`_known_compound`)
   that is the entry word joined to another everyday dictionary word (Zipf >=
   3.5, listed by lemminflect), where the joined part keeps a full vowel in
   the compound's pronunciation (postman is a suffix form; mailbox, postbox,
   signpost are compounds; carpet is not, because its "pet" is reduced to
   "p@t", nor carrot, whose "car" is not said "car", nor carlos or cargill);
4. an agent noun's verb and its forms (:func:`agent_roots`: teacher -> teach,
   taught; singer -> sing, sang, sung);
5. for a one-word entry that is no name, the root it is made from by a suffix
   and its forms (:func:`suffix_roots`: happiness -> happy; magician -> magic;
   golden -> gold);
6. what WordNet derives from or to the word's commonest sense and begins as
   it does (:func:`~voice_host.deck.wordnet.bundled_kin`: piano -> pianist,
   invent -> inventor, indonesia -> indonesian);
7. suffixed words WordNet does not relate to their would-be base are no
   derivations (:mod:`voice_host.deck.wordnet`: "dial" of die, "jackal" of
   jack, "penny" of pen);
8. then the reviewed exception list (:class:`FormExceptions`) removes innocent
   look-alikes the rules still let through (car: cartoon, cargo; letter: let)
   and adds family members they miss (car: carpool).

The parts of a one-word compound are NOT in its family ("rain" for Rainbow):
the family is the entry word's, and its parts are other words.

Measured on the foul/innocent table in ``tests/deck/family_cases.py``
(``benchmarks/deck_load.py`` prints the figures).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from voice_host.deck.lexicon import VOWELS, Lexicon, syllables
from voice_host.deck.spelling import american_spellings
from voice_host.deck.wordnet import bundled_kin, bundled_lookalikes
from voice_host.deck.words import STOP_WORDS
from voice_host.errors import InputFileError

#: Derivational and inflectional endings tried on every word (spelling changes are automatic).
SUFFIXES: tuple[str, ...] = (
    "s", "es", "ed", "ing", "er", "ers", "est", "age", "man", "men", "woman", "women",
    "ful", "less", "ness", "ly", "y", "ish", "able", "ible", "ation", "ition", "ist",
    "ism", "ment", "al", "ie", "let", "hood", "ship", "dom", "ery", "ess",
    "ette", "ian", "an", "ese", "ite", "ize", "ise", "ify", "ward", "wards", "like",
    "ic", "ical", "eer", "ous",
)  # fmt: skip
#: How common (Zipf) the other part of a compound must be: box 4.7, lamp 4.0, toon 3.0 (no).
COMPOUND_PART_ZIPF = 3.5
#: How common (Zipf) a compound lemminflect knows must be to count (mousetrap 2.3, postbox 1.9).
COMPOUND_ZIPF = 1.8
#: How common (Zipf) a compound lemminflect does NOT know must be: such words are mostly
#: names and brands (carlos 4.1 is caught by its part, carswell 2.6, carplay 2.4), so only
#: frequent ones count (bookshop 3.1); rarer real ones (carpool 2.75) are reviewed additions.
COMPOUND_UNLISTED_ZIPF = 3.0
#: Words that are also suffixes, whose words are derivations of what comes before
#: them (childhood, neighbourhood, kingdom, freedom, forward, toward),
#: never compounds of the word (Hood, Ward).  Not "ship" nor "man", which end true
#: compounds too (battleship, snowman), nor "like" (dislike is one of Like).
SUFFIX_WORDS: frozenset[str] = frozenset({"hood", "dom", "ward", "wards"})
#: Words that are also Latin prefixes: the words that begin with them are that
#: prefix and a stem (contest, conduct, protest, profound, perform, compact),
#: not compounds of the word (Con, Pro, Per, Com).
LATIN_PREFIXES: frozenset[str] = frozenset({"con", "com", "pro", "per"})
#: Prefixes a word may be split after instead of the card's word: mistrust is
#: mis + trust (no Rust), upstart up + start (no Tart), discover dis + cover (no Disc).
SPLIT_PREFIXES: tuple[str, ...] = (
    "dis", "mis", "sub", "pre", "con", "com", "pro", "per", "un", "up", "in", "re",
)  # fmt: skip
#: Endings of English surnames and place names ("new" + "ton" is Newton, "car" +
#: "son" Carson, "black" + "burn" Blackburn): a word lemminflect does not list
#: that ends so is a name, never a compound.  Of the words of Zipf 3 or more that
#: lemminflect does not list and the rules took for compounds, every one ending so
#: was a name or a brand but midfield, outfield, parkland and motorsport, which go.
NAME_ENDINGS: tuple[str, ...] = (
    "ton", "son", "sen", "stein", "berg", "burg", "burgh", "ville", "wood", "ham",
    "ford", "worth", "wick", "shire", "borough", "bury", "burn", "win", "row", "hart",
    "dale", "stock", "mark", "ward", "well", "more", "field", "land", "port",
)  # fmt: skip
#: How common (Zipf) a suffixed form lemminflect does not know must be (carmen 3.6, carly 3.4,
#: carman 2.2 and carlist 1.9 are names; postal, kingly are in lemminflect) ...
DERIVED_UNLISTED_ZIPF = 4.0
#: ... except after these productive endings, which seldom make names: newer words such as
#: blogger (3.9) and blogged (2.8) are missing from lemminflect.
PRODUCTIVE_SUFFIXES: frozenset[str] = frozenset(
    {"s", "es", "ed", "ing", "er", "ers", "est", "able"}
)
#: How common (Zipf) a productive-ending form lemminflect does not know must be
#: (kayakers 2.3 yes; beller 2.0, sipper 1.7, forker 1.1 no).
PRODUCTIVE_UNLISTED_ZIPF = 2.2
#: Endings that need a longer word (>= 2 syllables): "panic" is not pan + ic, "rustic" not rust.
LONG_WORD_SUFFIXES: frozenset[str] = frozenset({"ic", "ical"})
#: Endings of an agent noun whose verb root joins the family (teacher -> teach, actor -> act).
AGENT_SUFFIXES: tuple[str, ...] = ("er", "or")
#: How common (Zipf) an agent noun's verb root must be.
AGENT_ROOT_ZIPF = 3.0
#: An "agent noun" this much more common (Zipf) than its root's -ing form is another
#: word: better (5.8) is not one who bets (betting 4.0), nor matter (5.4) one who
#: mats, nor supper (3.7) one who sups; computer (5.0, computing 4.1) and coaster
#: (3.7, coasting 2.7) are their verbs' agents.
AGENT_EXCESS_ZIPF = 1.2
#: Endings that make a one-word entry from a root that joins its family, with the
#: part of speech the root must have: Happiness -> happy, Kindness -> kind,
#: Magician -> magic, Electricity -> electric, Golden -> gold (:func:`suffix_roots`).
#: Not "y" (party is no part + y, penny no pen + y), "ment" (apartment), "al"
#: (signal), nor "ship", whose one-word compounds (spaceship, battleship) leave
#: their parts free, as Rainbow leaves "rain".
ROOT_SUFFIXES: dict[str, tuple[str, ...]] = {
    "ness": ("ADJ",), "ly": ("ADJ",), "ity": ("ADJ",), "ful": ("NOUN", "VERB"),
    "less": ("NOUN", "VERB"), "ian": ("NOUN",), "ist": ("NOUN",), "ous": ("NOUN",),
    "hood": ("NOUN",), "dom": ("NOUN", "ADJ"), "ism": ("NOUN", "ADJ"), "en": ("NOUN",),
}  # fmt: skip
#: How common (Zipf) a root of :data:`ROOT_SUFFIXES` must be.
ROOT_ZIPF = 3.5
#: How much more common (Zipf) a word may be than its root: a derived word is
#: mostly the rarer (happiness 4.3, happy 5.6), some are not (beautiful 5.2,
#: beauty 4.6; famous 5.1, fame 4.2); a word far commoner than its would-be
#: root is a word of its own.
ROOT_EXCESS_ZIPF = 1.0
#: Endings before which a longer word may change its vowels (nation -> national,
#: photograph -> photographer).
VOWEL_SHIFT_SUFFIXES: frozenset[str] = frozenset(
    {"al", "ian", "an", "ation", "ition", "ify", "ize", "ise", "ist", "ism", "ese", "ite", "ic",
     "ical", "eer", "ity", "er", "ers"}
)  # fmt: skip
#: A compound much more common than its entry word (Zipf difference) is another word:
#: content (5.1) is not a tent (4.2), concrete not Crete; football (5.3) is still a ball (5.0).
COMPOUND_EXCESS_ZIPF = 0.5
#: Comparisons made from another word: "better" and "best" are no forms of
#: Good Friday to players, nor "good" and "well" of Better late than never,
#: "worse" and "worst" of Bad hair day (lemminflect has them as each other's).
SUPPLETIVE: frozenset[str] = frozenset(
    ["good", "well", "better", "best", "bad", "ill", "worse", "worst"]
)
#: A noun's plural (or a name's singular) at least this common (Zipf) ...
HOMOGRAPH_ZIPF = 5.0
#: ... and this much commoner than the word is heard as another word (does, well).
HOMOGRAPH_EXCESS_ZIPF = 1.5
#: Parts of speech whose lemmas join a word's family by default.
ALL_POS: tuple[str, ...] = ("NOUN", "VERB", "ADJ")
#: Prefixes tried on every word ("unlock", "unhappy").
PREFIXES: tuple[str, ...] = ("un",)


@dataclass(frozen=True)
class FormExceptions:
    """The reviewed exception list: per word, forms never forbidden and forms always forbidden."""

    never: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Word -> look-alikes that are NOT its family ("car" -> carpet, cartoon)."""
    always: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Word -> family members the rules miss ("post" -> postbox where no word list has it)."""
    reasons: Mapping[str, str] = field(default_factory=dict)
    """Word -> the reviewer's comment, for reports."""

    @classmethod
    def parse(cls, text: str, source: str = "exceptions") -> FormExceptions:
        """Parse the exception-list format (see ``voice_host/deck/source/exceptions.txt``).

        One line per word: ``word: -lookalike -lookalike +member  # why``.  A
        ``-form`` is never forbidden for that word, a ``+form`` always is.  Every
        line must carry a ``#`` comment: the list is reviewed, so it says why.
        Raises :class:`InputFileError` listing every bad line.
        """
        never: dict[str, set[str]] = {}
        always: dict[str, set[str]] = {}
        reasons: dict[str, str] = {}
        problems: list[str] = []
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            body, hash_mark, comment = stripped.partition("#")
            word, colon, rest = body.partition(":")
            word = word.strip().lower()
            where = f"{source}: line {number}"
            if not colon or not re.fullmatch(r"[a-z']+", word):
                problems.append(f"{where}: expected 'word: -form +form  # reason'")
                continue
            if not hash_mark or not comment.strip():
                problems.append(f"{where}: every exception needs a '# reason' comment")
                continue
            items = rest.split()
            if not items:
                problems.append(f"{where}: no forms listed for {word!r}")
            for item in items:
                sign, form = item[:1], item[1:].lower()
                if sign not in "+-" or not form:
                    problems.append(f"{where}: {item!r} must start with '-' or '+'")
                    continue
                (never if sign == "-" else always).setdefault(word, set()).add(form)
            reasons[word] = comment.strip()
        if problems:
            raise InputFileError("\n".join(problems))
        return cls(
            {w: frozenset(f) for w, f in never.items()},
            {w: frozenset(f) for w, f in always.items()},
            reasons,
        )

    @classmethod
    def read(cls, path: Path) -> FormExceptions:
        """Read and parse an exception-list file (UTF-8)."""
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise InputFileError(f"{path}: not UTF-8 text ({exc.reason})") from None
        except OSError as exc:
            raise InputFileError(f"{path}: cannot read ({exc.strerror})") from None
        return cls.parse(text, str(path))


NO_EXCEPTIONS = FormExceptions()


def _spellings(base: str, suffix: str) -> set[str]:
    """Ways ``base`` + ``suffix`` may be spelled (swim+er: swimer, swimmer)."""
    if suffix in ("an", "ian"):
        # Only after a vowel (africa -> african, italy -> italian): "germ" + an is not "german".
        if len(base) < 4:
            return set()  # "leo" + an is not "lean"
        if base.endswith("a") and suffix == "an":
            return {base + "n"}
        return {base[:-1] + suffix} if base.endswith(("a", "o", "y")) else set()
    out = {base + suffix}
    if suffix == "es" and not base.endswith(("s", "x", "z", "ch", "sh", "o")):
        out = set()  # oak + es is no "oakes" (a surname), hay + es no "hayes"
    vowel_start = suffix[0] in "aeiouy"
    if suffix in LONG_WORD_SUFFIXES and base.endswith(("a", "o")):
        out.add(base[:-1] + suffix)  # volcano -> volcanic
    if vowel_start and base.endswith("e") and not base.endswith("ee"):
        out.add(base[:-1] + suffix)  # bake -> baker
    if vowel_start and suffix != "es" and re.search(r"[^aeiou][aeiou][bdfgklmnprstvz]$", base):
        out.add(base + base[-1] + suffix)  # swim -> swimmer
    if base.endswith("y") and len(base) > 2 and base[-2] not in "aeiou" and suffix[0] != "i":
        out.add(base[:-1] + "i" + suffix)  # happy -> happiness
    if suffix == "ese" and base.endswith(("a", "o")):
        out.add(base[:-1] + suffix)  # burma -> burmese, bologna -> bolognese
    return out


def _long_word(word: str, lexicon: Lexicon) -> bool:
    """Whether ``word`` has two or more syllables (by its first pronunciation, else spelling)."""
    pron = lexicon.pron(word)
    if pron is not None:
        return syllables(pron) >= 2
    return len(re.findall(r"[aeiouy]+", word)) >= 2


def _consonants(phones: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(p for p in phones if p not in VOWELS)


def _sounds_derived(base: str, derived: str, suffix: str, lexicon: Lexicon) -> bool:
    """Whether ``derived`` sounds like it starts with ``base`` (true when either is unknown),
    and, for -ly, ends as -ly is said ("imply" is no imp + ly)."""
    base_prons = lexicon.all_prons(base)
    derived_prons = lexicon.all_prons(derived)
    if not base_prons or not derived_prons:
        return True
    if suffix == "ly" and not any(dp[-2:] == ("L", "IY") for dp in derived_prons):
        return False
    for bp in base_prons:
        for dp in derived_prons:
            if dp[: len(bp)] == bp:
                return True
            # Longer words shift vowels before Latinate endings (nation -> national).
            if (
                suffix in VOWEL_SHIFT_SUFFIXES
                and syllables(bp) >= 2
                and _consonants(dp)[: len(_consonants(bp))] == _consonants(bp)
            ):
                return True
    return False


def _same_part(part: tuple[str, ...], pron: tuple[str, ...]) -> bool:
    """Whether ``part`` of a compound is ``pron`` said in full (a reduced vowel may differ)."""
    if len(part) != len(pron) or not any(p in VOWELS for p in part):
        return False
    full = False
    for heard, said in zip(part, pron, strict=True):
        if heard == said:
            full = full or heard in VOWELS
        elif not (heard in ("AH", "IH", "ER") and said in VOWELS):
            return False
    # "carpet": pet's vowel reduced to schwa -> not heard as "pet" at all.
    return full or part == pron


def _compound_ok(compound: str, base: str, other: str, base_first: bool, lexicon: Lexicon) -> bool:
    """Whether ``compound`` = base + other (or other + base) is a real compound of ``base``."""
    if not base_first and base in SUFFIX_WORDS:
        return False  # childhood, kingdom, forward: a suffix, no Hood, Dom or Ward
    if (base if base_first else other) in LATIN_PREFIXES:
        # contest, context, protest, perform: a Latin prefix, no Con or Pro; and
        # console, profile: no Sole, no File
        return False
    if (
        len(other) < 3
        or other in STOP_WORDS
        or not _everyday(other, lexicon)
        or not lexicon.all_prons(other)
    ):
        return False
    if not _dictionary_word(other):
        return False  # carlos, carmichael: the other part is a name, so the whole is one
    if other == "did" if base_first else _only_a_verb_form(other):
        # ransack is no ran + sack, saturn no sat + urn (no compound begins with a
        # verb's irregular past), candid no can + did
        return False
    if not _known_compound(compound, lexicon, other if base_first else base):
        return False
    lemmas = _lemmas(compound, lexicon)
    if lemmas and compound not in lemmas:
        return False  # an inflection (carding = card + ing); real compounds' ones come later
    compound_prons = lexicon.all_prons(compound)
    if not compound_prons:
        # Only frequency data knows it (postbox): trust the spelling of two everyday words,
        # but not at the end, where Latin endings look like words ("react-ant").
        return base_first
    if not _lemma_keeps(compound, base, lexicon):
        return False
    compound_zipf, base_zipf = lexicon.frequency(compound), lexicon.frequency(base)
    if (
        compound_zipf is not None
        and base_zipf is not None
        and compound_zipf > base_zipf + COMPOUND_EXCESS_ZIPF
    ):
        return False
    if _split_elsewhere(compound, base, base_first, lexicon):
        return False
    for bp in lexicon.all_prons(base):
        for cp in compound_prons:
            if base_first and cp[: len(bp)] == bp:
                split = len(bp)
            elif not base_first and len(cp) > len(bp) and cp[-len(bp) :] == bp:
                split = len(cp) - len(bp)
            else:
                continue
            part = cp[split:] if base_first else cp[:split]
            if any(_same_part(part, op) for op in lexicon.all_prons(other)):
                return True
    return False


def _split_elsewhere(compound: str, base: str, base_first: bool, lexicon: Lexicon) -> bool:
    """Whether ``compound`` is rather two other everyday words, one holding ``base``
    inside it: lipstick is lip + stick, not lips + tick; pinkeye is pink + eye, not
    pin + keye (but pinstripe, pins + tripe, is pin + stripe: an inflection of the
    base is the base)."""
    other = compound[len(base) :] if base_first else compound[: -len(base)]
    splits: list[tuple[str, str]] = []  # (first part, second part), one holding base
    for cut in range(1, len(other)):
        if base_first:
            holder, rest = base + other[:cut], other[cut:]
            if len(rest) >= 3 and base not in _lemmas(holder, lexicon):
                splits.append((holder, rest))
        elif len(other) - cut >= 3 or other[:-cut] in SPLIT_PREFIXES:
            splits.append((other[:-cut], other[-cut:] + base))
    if base_first:
        # a prefix shorter than the word: discover is dis + cover, no Disc + over
        splits += [(p, compound[len(p) :]) for p in SPLIT_PREFIXES if len(p) < len(base)]
    for first, second in splits:
        if not compound.startswith(first) or not _split_word(second, lexicon):
            continue
        if first in SPLIT_PREFIXES:
            # mistrust is mis + trust, upstart up + start: the prefix's own sound
            if any(
                len(cp) > len(sp) and cp[-len(sp) :] == sp
                for cp in lexicon.all_prons(compound)
                for sp in lexicon.all_prons(second)
            ):
                return True
        elif _split_word(first, lexicon) and any(
            cp[: len(fp)] == fp and cp[len(fp) :] in lexicon.all_prons(second)
            for cp in lexicon.all_prons(compound)
            for fp in lexicon.all_prons(first)
        ):
            return True
    return False


def _only_a_verb_form(word: str) -> bool:
    """Whether ``word`` is only a verb's irregular past ("ran", "sat", "dug"), which no
    compound begins with ("left" is an adjective and a noun too: leftover)."""
    from lemminflect import getAllLemmas

    if word.endswith(("ing", "ed", "s")):
        return False  # mockingbird, thanksgiving
    lemmas = getAllLemmas(word)
    verbs = lemmas.get("VERB", ())
    return bool(verbs) and word not in verbs and all(p == "VERB" for p in lemmas)


def _split_word(word: str, lexicon: Lexicon) -> bool:
    """An everyday dictionary word, such as a compound's part may be."""
    return _everyday(word, lexicon) and _dictionary_word(word)


def _everyday(word: str, lexicon: Lexicon) -> bool:
    """A word common enough to be heard inside a compound (Zipf >= 3.5 with wordfreq)."""
    zipf = lexicon.frequency(word)
    return lexicon.is_common(word) if zipf is None else zipf >= COMPOUND_PART_ZIPF


def _dictionary_word(word: str) -> bool:
    """Whether lemminflect's lexicon (common English words, few names) lists ``word``."""
    from lemminflect import getAllLemmas

    return bool(getAllLemmas(word))


def _known_compound(word: str, lexicon: Lexicon, last: str = "") -> bool:
    """A compound players would say, not a name or brand (carlos, carfax, carplay).

    With wordfreq: Zipf >= :data:`COMPOUND_ZIPF` when lemminflect lists the word,
    >= :data:`COMPOUND_UNLISTED_ZIPF` when it does not.  Without: in the CMU dictionary.
    Never a word lemminflect does not list that ends as English surnames and
    places do (:data:`NAME_ENDINGS`: newton, jackson, bloomberg, hollywood), unless
    that ending is the end of ``last``, the compound's last part, a longer word
    (preseason: "season").
    """
    listed = _dictionary_word(word)
    ending = next((e for e in NAME_ENDINGS if word.endswith(e)), "")
    if ending and not listed and not (last.endswith(ending) and last != ending):
        # newton, princeton, jackson, blackburn, hollywood: names, no compounds
        # (but preseason ends in the word "season", not the name ending "son")
        return False
    zipf = lexicon.frequency(word)
    if zipf is None:
        return word in lexicon.prons
    return zipf >= (COMPOUND_ZIPF if listed else COMPOUND_UNLISTED_ZIPF)


def _derived_ok(word: str, suffix: str, lexicon: Lexicon, name: bool = False) -> bool:
    """A suffixed form that is a real common word, not a name (carly, carman, carlist).

    ``name``: the base is a name's word, whose endings make the words of its
    people and language (persian 3.9, iberian 2.6, bolognese 3.3): these need
    only be said as often as a productive ending's form."""
    zipf = lexicon.frequency(word)
    if zipf is None or _dictionary_word(word):
        return True
    productive = suffix in PRODUCTIVE_SUFFIXES or name
    return zipf >= (PRODUCTIVE_UNLISTED_ZIPF if productive else DERIVED_UNLISTED_ZIPF)


def agent_roots(word: str, lexicon: Lexicon) -> set[str]:
    """The verb an agent noun is made from (teacher -> teach, singer -> sing, actor -> act).

    A root counts when lemminflect knows it as a verb of its own (not "bit",
    a form of bite: bitter; nor "hung": hunger), it is common (Zipf >=
    :data:`AGENT_ROOT_ZIPF`), the usual spelling rules make ``word`` from it
    (dancer = danc(e) + er, swimmer = swim + m + er), ``word`` sounds like it
    starts with it, and ``word`` is not far more common than the root's -ing
    form (:data:`AGENT_EXCESS_ZIPF`: better, matter, supper, mister).
    Words outside the deck are built by these rules alone, so they must hold
    for any word; nouns of the deck that still slip through (letter, corner)
    are caught by the reviewed exception list.
    """
    from lemminflect import getAllLemmas

    roots: set[str] = set()
    for suffix in AGENT_SUFFIXES:
        if not word.endswith(suffix) or len(word) < len(suffix) + 3:
            continue
        stem = word[: -len(suffix)]
        for root in {stem, stem + "e", stem[:-1]}:
            if (
                len(root) >= 3
                and word in _spellings(root, suffix)
                and root in getAllLemmas(root, upos="VERB").get("VERB", ())
                and (lexicon.frequency(root) or 0.0) >= AGENT_ROOT_ZIPF
                and _sounds_derived(root, word, suffix, lexicon)
                and _agent_not_rarer(word, root, lexicon)
            ):
                roots.add(root)
    return roots


def suffix_roots(word: str, lexicon: Lexicon) -> set[str]:
    """The root a one-word entry is made from by a suffix of :data:`ROOT_SUFFIXES`
    (happiness -> happy, magician -> magic, electricity -> electric, golden -> gold).

    As for an agent noun's verb (:func:`agent_roots`), the rules must hold for any
    word: the root is a lemma of the part of speech the suffix needs (so "kit" is
    no root of kitten, a noun, and "busy" none of business, which does not sound
    like it), common (:data:`ROOT_ZIPF`), the usual spellings make ``word`` from it,
    ``word`` sounds like it starts with it (a final "c" may soften: magic ->
    magician), and ``word`` is not far more common (:data:`ROOT_EXCESS_ZIPF`).
    """
    from lemminflect import getAllLemmas

    roots: set[str] = set()
    if not getAllLemmas(word):
        return roots  # a name (marian, damian, killian) is made from no root
    for suffix, parts in ROOT_SUFFIXES.items():
        if not word.endswith(suffix) or len(word) < len(suffix) + 3:
            continue
        if suffix == "en" and "ADJ" not in getAllLemmas(word):
            continue  # golden and wooden are adjectives; kitten and garden are not
        stem = word[: -len(suffix)]
        for root in {stem, stem + "e", stem + "y", stem[:-1], stem[:-1] + "y"}:
            lemmas = getAllLemmas(root)
            if (
                len(root) >= (4 if suffix == "dom" else 3)  # king-dom, not con-dom
                and root != word
                and word in _root_spellings(root, suffix)
                and any(root in lemmas.get(part, ()) for part in parts)
                and (lexicon.frequency(root) or 0.0) >= ROOT_ZIPF
                and (lexicon.frequency(word) or 0.0) - (lexicon.frequency(root) or 0.0)
                <= ROOT_EXCESS_ZIPF
                and _sounds_rooted(root, word, suffix, lexicon)
            ):
                roots.add(root)
    return roots


def _root_spellings(root: str, suffix: str) -> set[str]:
    """Ways ``root`` + ``suffix`` of :data:`ROOT_SUFFIXES` may be spelled."""
    if suffix == "ian":  # magic -> magician, comedy -> comedian, library -> librarian
        return {root[:-1] + suffix if root.endswith(("a", "e", "o", "y")) else root + suffix}
    if suffix == "ity":  # electric -> electricity, secure -> security
        return {root + suffix, *([root[:-1] + suffix] if root.endswith("e") else [])}
    if suffix == "en":  # gold -> golden, wool -> woollen
        return {root + suffix, root + root[-1] + suffix}
    return _spellings(root, suffix)


#: Endings before which a root's final "y" may lose its sound (beautiful, penniless,
#: easily); not "ness", which keeps it (happiness), so busy is no root of business.
_Y_REDUCING = frozenset({"ful", "less", "ly"})


def _sounds_rooted(root: str, word: str, suffix: str, lexicon: Lexicon) -> bool:
    """:func:`_sounds_derived`, or a root's final "c" softened before the suffix
    (magic M AE JH IH K -> magician M AH JH IH SH AH N; electric -> electricity),
    or its final "y" reduced (beauty B Y UW T IY -> beautiful B Y UW T AH F AH L)."""
    if _sounds_derived(root, word, suffix, lexicon):
        return True
    word_prons = lexicon.all_prons(word)
    for pron in lexicon.all_prons(root):
        if root.endswith("c"):
            head = _consonants(pron[:-1])
            if head and any(_consonants(w)[: len(head)] == head for w in word_prons):
                return True
        elif (
            root.endswith("y")
            and suffix in _Y_REDUCING
            and pron[-1:]
            and pron[-1] in VOWELS
            and any(w[: len(pron) - 1] == pron[:-1] for w in word_prons)
        ):
            return True
    return False


def _agent_not_rarer(word: str, root: str, lexicon: Lexicon) -> bool:
    """Whether the root's -ing form is common enough for ``word`` to be its agent
    (:data:`AGENT_EXCESS_ZIPF`)."""
    zipf = lexicon.frequency(word)
    if zipf is None:
        return True
    doing = max((lexicon.frequency(w) or 0.0 for w in _spellings(root, "ing")), default=0.0)
    return zipf - doing <= AGENT_EXCESS_ZIPF


def _lemma_keeps(compound: str, base: str, lexicon: Lexicon) -> bool:
    """False when ``compound`` only contains ``base`` by inflection ("parking" = park + ing)."""
    lemmas = _lemmas(compound, lexicon)
    return all(base in lemma for lemma in lemmas)


def far_commoner(form: str, word: str, lexicon: Lexicon) -> bool:
    """Whether ``form`` is among the commonest words and far commoner than ``word``
    (:data:`HOMOGRAPH_ZIPF`, :data:`HOMOGRAPH_EXCESS_ZIPF`)."""
    form_zipf, word_zipf = lexicon.frequency(form), lexicon.frequency(word)
    return (
        form_zipf is not None
        and word_zipf is not None
        and form_zipf >= HOMOGRAPH_ZIPF
        and form_zipf - word_zipf >= HOMOGRAPH_EXCESS_ZIPF
    )


def other_number_words(word: str, lexicon: Lexicon) -> set[str]:
    """The plurals of the noun ``word`` heard as other, far commoner words
    (:func:`far_commoner`): "does" is no plural of Doe to a table but the verb (a
    guesser's "does it fly?" is no answer, a describer's "it does" no foul)."""
    from lemminflect import getAllInflections

    plurals = {p.lower() for p in getAllInflections(word, upos="NOUN").get("NNS", ())}
    return {p for p in plurals - {word} if far_commoner(p, word, lexicon)}


def _inflections(word: str, lexicon: Lexicon, pos: Sequence[str] = ()) -> set[str]:
    """Inflections of ``word`` (as any part of speech, or only as those of ``pos``)."""
    from lemminflect import getAllInflections, getAllInflectionsOOV

    found: set[str] = set()
    by_tag: dict[str, tuple[str, ...]] = {}
    for upos in pos or (None,):
        by_tag.update(getAllInflections(word, upos=upos))
    for forms in by_tag.values():
        # The first spelling per tag is lemminflect's choice; others only if real words.
        found.update(f.lower() for i, f in enumerate(forms) if i == 0 or lexicon.is_word(f.lower()))
    if not found:
        for oov_pos in [p for p in ("NOUN", "VERB") if not pos or p in pos]:
            for forms in getAllInflectionsOOV(word, oov_pos).values():
                found.update(f.lower() for f in forms if lexicon.is_word(f.lower()))
    return {f for f in found if re.fullmatch(r"[a-z]+", f)}


def _lemmas(word: str, lexicon: Lexicon, pos: Sequence[str] | None = None) -> set[str]:
    """Lemmas of ``word`` (for the parts of speech ``pos``; None: all)."""
    from lemminflect import getAllLemmas

    found: set[str] = set()
    for upos in pos if pos is not None else (None,):
        lemmas_by_pos = getAllLemmas(word) if upos is None else getAllLemmas(word, upos=upos)
        for lemmas in lemmas_by_pos.values():
            found.update(lem.lower() for lem in lemmas if lexicon.is_word(lem.lower()))
    return found


def _unlisted_stems(word: str, lexicon: Lexicon) -> set[str]:
    """The verb an -ing word is made from when the lemmatiser knows no lemma of it
    at all (texting -> text, googling -> google): a dictionary word that spells and
    sounds like the start of ``word``, is common (:data:`ROOT_ZIPF`: no "golde" of
    Golding) and is not far rarer (:data:`ROOT_EXCESS_ZIPF`: "vike" is no verb of Viking).
    Not a word the lemmatiser knows only as an adjective or adverb: a noun is made a
    verb and takes -ing (text, google, blog), an adjective hardly ("hard" is no verb of
    the surname Harding; the adjectives that are verbs, warming or greening, the
    lemmatiser knows)."""
    from lemminflect import getAllLemmas

    if not word.endswith("ing") or len(word) < 6 or getAllLemmas(word):
        return set()
    stem = word[:-3]
    rarest = (lexicon.frequency(word) or 0.0) - ROOT_EXCESS_ZIPF
    return {
        base
        for base in (stem, stem + "e", stem[:-1])
        if len(base) >= 3
        and word in _spellings(base, "ing")
        and lexicon.is_word(base)
        and (lexicon.frequency(base) or 0.0) >= max(rarest, ROOT_ZIPF)
        and _sounds_derived(base, word, "ing", lexicon)
        and not _only_describes(base)
    }


def _rare_stem_agents(word: str, lexicon: Lexicon) -> set[str]:
    """The verb an -ing word the lemmatiser does not know is made from, with its
    agent noun, when the verb is too rare for :func:`_unlisted_stems` but the
    dictionary has both the verb and its agent noun spelt and said as ``word``
    begins: Sightseeing gives sightsee and sightseer(s) ("the sightseers look at
    the monuments" says the card).  Both words must exist, the agent noun in the
    singular and the plural (the dictionary's surnames have no plural: "durer" is
    no agent of During, "schiller" none of Schilling), so a name's look-alike stem
    ("vike" of Viking) stays out; each comes with its inflections."""
    from lemminflect import getAllLemmas

    if not word.endswith("ing") or len(word) < 6 or getAllLemmas(word):
        return set()
    stem = word[:-3]
    found: set[str] = set()
    for base in (stem, stem + "e", stem[:-1]):
        if len(base) < 3 or word not in _spellings(base, "ing") or not lexicon.is_word(base):
            continue
        if _only_describes(base):
            continue  # "hard" is no verb of Harding, nor "harder" one who hards
        if not _sounds_derived(base, word, "ing", lexicon):
            continue
        agents = {
            a
            for a in _spellings(base, "er") | ({base + "r"} if base.endswith("e") else set())
            if lexicon.is_word(a)
            and lexicon.is_word(a + "s")  # a noun in both numbers, no surname ("durer")
            and _sounds_derived(base, a, "er", lexicon)
            and base not in getAllLemmas(a).get("ADJ", ())  # a comparative is no agent
        }
        if agents:
            found |= {base, *agents}
            for w in (base, *agents):
                found |= {f for f in _inflections(w, lexicon) if lexicon.is_word(f)}
    return found


def compound_verb_forms(word: str, lexicon: Lexicon, agents: bool = False) -> set[str]:
    """The verb forms of an -ing word the lemmatiser knows as no verb that is an
    everyday word joined to a verb's -ing form (moonwalking: moonwalk, moonwalks,
    moonwalked; breakdancing: breakdance; windsurfing: windsurf; stargazing:
    stargaze), the verb's forms with the first word before them; with ``agents``
    its agent nouns too (moonwalker, breakdancers, beekeeper, birdwatcher).  The
    recogniser may write them in two words ("moon walk"), which the referee joins."""
    from lemminflect import getAllInflections, getAllLemmas

    if not word.endswith("ing") or len(word) < 8 or "VERB" in getAllLemmas(word):
        return set()  # (known as a noun only, it is the activity: beekeeping)
    found: set[str] = set()
    for cut in range(3, len(word) - 5):
        head, doing = word[:cut], word[cut:]
        if not _split_word(head, lexicon):
            continue
        for verb in getAllLemmas(doing, upos="VERB").get("VERB", ()):
            if doing not in getAllInflections(verb, upos="VERB").get("VBG", ()):
                continue
            forms = {verb} | {f for fs in getAllInflections(verb, upos="VERB").values() for f in fs}
            if agents:
                forms |= {
                    a + s
                    for a in _spellings(verb, "er")
                    | ({verb + "r"} if verb.endswith("e") else set())
                    if lexicon.is_word(a)
                    for s in ("", "s")
                }
            found |= {head + f for f in forms if f.isalpha()}
    return found - {word}


def _only_describes(word: str) -> bool:
    """Whether the lemmatiser knows ``word`` and only as an adjective or adverb."""
    from lemminflect import getAllLemmas

    kinds = set(getAllLemmas(word))
    return bool(kinds) and kinds <= {"ADJ", "ADV"}


def word_family(
    word: str,
    lexicon: Lexicon,
    exceptions: FormExceptions = NO_EXCEPTIONS,
    *,
    lemma_pos: Sequence[str] = ALL_POS,
    compounds: bool = True,
    suffixes: Sequence[str] = SUFFIXES,
    inflect_pos: Sequence[str] = (),
    roots: bool = False,
    lookalikes: Mapping[str, frozenset[str]] | None = None,
    kin: Mapping[str, frozenset[str]] | None = None,
    name: bool = False,
) -> set[str]:
    """The forbidden forms of one lower-case ``word`` (the word itself included).

    ``lemma_pos``: also take the family of the word's lemmas for these parts of
    speech ("swimming" -> swim -> swam); a noun entry uses NOUN only, so the bird
    "dove" does not become "dive"; empty for names ("james" is not "jame").
    ``compounds``: also look for compounds and prefixes (off for names: "newcastle"
    is not a form of "new" in "New York").  ``suffixes``: endings to try.
    ``inflect_pos``: inflect the word only as these parts of speech (a name is a
    noun or an adjective, never a verb: "Will" Smith is no "would", William
    "Tell" no "told", Mount Everest no "mounted"); empty: as any.
    ``roots``: also the root ``word`` is made from by a suffix (:func:`suffix_roots`:
    "happy" for Happiness), for a one-word entry that is no name.
    ``lookalikes``: base -> suffixed words that only look derived from it
    (default: WordNet's, :func:`~voice_host.deck.wordnet.bundled_lookalikes`:
    "dial" is no die + al); they are not taken as derivations.
    ``kin``: word -> words derived from or to it (default: WordNet's,
    :func:`~voice_host.deck.wordnet.bundled_kin`: "pianist" for Piano,
    "musician" for Music, "indonesian" for Indonesia); those of the word and
    its lemmas join the family with their inflections.
    ``name``: the word is a name's (its endings' words need be less common).
    """
    if lookalikes is None:
        lookalikes = bundled_lookalikes()
    if kin is None:
        kin = bundled_kin()
    family = {word}
    if not re.fullmatch(r"[a-z]+", word):
        return family | exceptions.always.get(word, frozenset())
    bases = {word} | {
        # "better" is no form of "good" and "well" to players, "worse" none of "bad"
        lemma
        for lemma in (_lemmas(word, lexicon, lemma_pos) if lemma_pos else ())
        if lemma not in SUPPLETIVE
    }
    if lemma_pos and bases == {word}:
        bases |= _unlisted_stems(word, lexicon)
        if bases == {word} and compounds:
            family |= _rare_stem_agents(word, lexicon)
            if family == {word} and lemma_pos[0] == "VERB":
                # an action only: "thanks give" is no form of Thanksgiving
                family |= compound_verb_forms(word, lexicon, agents=True)
    family |= bases
    # Doe: no "does"; Good Friday: no "better", "best"; Bad hair day: no "worst"
    unsaid = other_number_words(word, lexicon) | (SUPPLETIVE - {word})
    for base in bases:
        family |= _inflections(base, lexicon, inflect_pos) - unsaid
    derived: set[str] = set()
    if len(word) >= 3:
        # a base of one or two letters ("go" for gone, "do" for doing) makes no
        # words: go+al is no "goal", car+go no "cargo"
        for base in (b for b in bases if len(b) >= 3):
            for suffix in suffixes:
                if suffix in LONG_WORD_SUFFIXES and not _long_word(base, lexicon):
                    continue
                for candidate in _spellings(base, suffix):
                    if (
                        candidate not in family
                        and lexicon.is_word(candidate)
                        and _derived_ok(candidate, suffix, lexicon, name)
                        and _sounds_derived(base, candidate, suffix, lexicon)
                    ):
                        derived.add(candidate)
            for prefix in PREFIXES if compounds else ():
                candidate = prefix + base
                if lexicon.is_word(candidate):
                    derived.add(candidate)
            if not compounds or (base != word and _very_common(base, lexicon)):
                continue  # Canning's lemma "can" is no part of candid, canteen, canton
            for compound in lexicon.starting_with(base):
                other = compound[len(base) :]
                if _compound_ok(compound, base, other, True, lexicon):
                    derived.add(compound)
            for compound in lexicon.ending_with(base):
                other = compound[: -len(base)]
                if _compound_ok(compound, base, other, False, lexicon):
                    derived.add(compound)
    # the reviewed look-alikes of the word and of its lemmas: "can" keeps
    # "could" and "canal" out of Canning's family as out of Watering can's;
    # but a lemma's list never takes the word's own forms ("well: -best"
    # keeps "bests" in Best friend)
    never = _lookalikes(exceptions.never.get(word, frozenset()), lexicon)
    own = {word} | _inflections(word, lexicon, inflect_pos)
    for base in sorted(bases - {word}):
        never |= _lookalikes(exceptions.never.get(base, frozenset()), lexicon) - own
    # and WordNet's, with their inflections, however made ("damages" is dam + ages
    # as well as damage + s), unless the reviewed list wants them
    wanted = set().union(*(exceptions.always.get(b, frozenset()) for b in bases))
    for base in sorted(bases):
        never |= _lookalikes(lookalikes.get(base, frozenset()), lexicon) - own - wanted
    derived -= never
    for form in sorted(derived):
        family.add(form)
        # Inflections of a real word are real even when rare in text (postman -> postmen).
        family |= {f for f in _inflections(form, lexicon) if lexicon.is_rare_word(f)} - never
    if lemma_pos and compounds:
        # An agent noun's verb gives it away: "teach" for Teacher, "sang" for Singer.
        for root in agent_roots(word, lexicon) - never:
            family.add(root)
            family |= {f for f in _inflections(root, lexicon) if lexicon.is_word(f)} - never
    if roots and lemma_pos:
        # The root a derived entry is made from gives it away: "happy" for Happiness.
        for root in suffix_roots(word, lexicon) - never:
            family.add(root)
            family |= {f for f in _inflections(root, lexicon) if lexicon.is_word(f)} - never
    # What WordNet derives from or to the word: "pianist" for Piano, "invent" for Invention.
    for relative in sorted(set().union(*(kin.get(b, frozenset()) for b in bases)) - never):
        if relative not in family and lexicon.is_word(relative):
            family.add(relative)
            family |= {f for f in _inflections(relative, lexicon) if lexicon.is_word(f)} - never
    family.add(word + "'s")
    for base in bases:
        family |= exceptions.always.get(base, frozenset())
    family -= never
    # the recogniser writes American: "honor" for a describer's "honour"
    family |= {a for f in sorted(family) for a in american_spellings(f, lexicon)} - never
    return family


#: The parts of speech a name's words are inflected as: "greater" is still a
#: form of the Great Wall, but "would" no form of Will Smith.
NAME_POS: tuple[str, ...] = ("NOUN", "ADJ")
#: Endings that make words from names ("Japan" -> japanese, "Italy" -> italian).
NAME_SUFFIXES: tuple[str, ...] = ("s", "es", "an", "ian", "ese", "ish", "ite")
#: In a multi-word entry, words this common (Zipf) get no compounds: "out" in
#: "Take out the bins" does not forbid "outside".
COMMON_WORD_ZIPF = 5.5


def _lookalikes(never: frozenset[str], lexicon: Lexicon) -> set[str]:
    """Reviewed look-alikes with their inflections ("-poster" also keeps "posters" out)."""
    out = set(never)
    for lookalike in never:
        out |= _inflections(lookalike, lexicon)
    return out


def _very_common(word: str, lexicon: Lexicon) -> bool:
    """Whether ``word`` is among the commonest words (:data:`COMMON_WORD_ZIPF`)."""
    zipf = lexicon.frequency(word)
    return zipf is not None and zipf >= COMMON_WORD_ZIPF


def _takes_kin(word: str, words: Sequence[str], names: bool, very_common: bool) -> bool:
    """Whether WordNet's kin joins ``word``'s family: not for a very common word of a
    longer entry; for a name's word only when it is no everyday word or the name is
    one word (Pensioner: pension; Senator: senate)."""
    if names:
        return len(words) == 1 or not _dictionary_word(word)
    return not very_common


def families(
    words: Sequence[str],
    lexicon: Lexicon,
    exceptions: FormExceptions = NO_EXCEPTIONS,
    *,
    lemma_pos: Sequence[str] = ALL_POS,
    names: bool = False,
    lookalikes: Mapping[str, frozenset[str]] | None = None,
    kin: Mapping[str, frozenset[str]] | None = None,
    places: bool = False,
) -> set[str]:
    """The union of the families of ``words`` (the significant words of one entry).

    ``places``: the words name a place, whose plural words are their singulars'
    too ("island" for the Falkland Islands; not for people: Tiger Woods is no "wood").

    ``names``: the words name a person or place: no compounds, only name endings,
    and WordNet's kin only for a word that is no everyday word too or a name of
    one word (Newton: newtonian, Kenya: kenyan, Senator: senate; but Harry Styles
    no "harrier", Taylor Swift no "swiftly").  A very common word of a longer
    entry gets no kin either.
    """
    kin_of = bundled_kin() if kin is None else kin
    out: set[str] = set()
    for word in words:
        # the word or its lemma: "ups" in Press-ups is "up", which gives no
        # compounds (update, startup, makeup ...)
        zipfs = [lexicon.frequency(w) for w in {word} | _lemmas(word, lexicon)]
        very_common = len(words) > 1 and any(z is not None and z >= COMMON_WORD_ZIPF for z in zipfs)
        # a name's plural word is its singular's too ("island" for the Falkland
        # Islands, "king" for the Valley of the Kings), unless that is another,
        # far commoner word ("well" for Wells, "down" for the South Downs)
        singulars = _name_singulars(word, lexicon) if places else set()
        for said in sorted({word} | singulars):
            out |= word_family(
                said,
                lexicon,
                exceptions,
                lemma_pos=lemma_pos,
                compounds=not names and not very_common,
                suffixes=NAME_SUFFIXES if names else SUFFIXES,
                inflect_pos=NAME_POS if names else (),
                roots=not names and len(words) == 1,
                lookalikes=lookalikes,
                kin=kin_of if _takes_kin(said, words, names, very_common) else {},
                name=names,
            )
    return out


def _name_singulars(word: str, lexicon: Lexicon) -> set[str]:
    """The singular of a name's plural word ("islands" -> "island"), unless it is far
    commoner (:func:`far_commoner`: "wells" -> no "well")."""
    from lemminflect import getAllLemmas

    lemmas = {lemma.lower() for lemma in getAllLemmas(word, upos="NOUN").get("NOUN", ())}
    if word in lemmas:
        return set()  # a word of its own too: "opera" is no plural of opus here
    return {
        lemma
        for lemma in lemmas
        if lemma[:1] == word[:1]
        and lexicon.is_common(lemma)  # not "wale" for Wales
        and not far_commoner(lemma, word, lexicon)
    }
