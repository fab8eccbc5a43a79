"""Word knowledge for one entry: accepted answers, forbidden forms, pronunciations.

:func:`make_entry` is what the deck builder, the referee and ``voice-host
listen --word`` call; it works for any text, in or out of a deck, offline.  The
first call loads the lexicon (about 1 s); later calls take milliseconds.

Accepted-answer policy (what a guesser may say and be right)
------------------------------------------------------------
Answers are lower case, without punctuation, accents folded ("Beyoncé" ->
"beyonce"), "&" read as "and", hyphens read as spaces; a guess counts when one
of them is said as a phrase inside what the guesser says ("it's a kangaroo"
contains "kangaroo"), so "a"/"an" need no variants.

1. The entry itself; with digits spelled out ("Apollo 11" -> "apollo eleven")
   and as written; with abbreviations said and as written ("mister bean" and
   "mr bean", :data:`ABBREVIATIONS`); with and without apostrophes ("st paul's" / "st pauls");
   a hyphenated word also joined when that is a real word ("x-ray" -> "xray").
2. With and without a leading "the" (not for people or actions).
3. Object, Nature, Random and CONTROL: singular and plural of the last word
   (:func:`unlisted_plurals` for nouns lemminflect lacks)
   ("mouse" -> "mice", "glasses" -> "glass").
4. Action: the first word in every verb form ("swim" -> swims, swam, swum,
   swimming; "Brushing teeth" -> "brush teeth").
5. Person with two or more words: the surname alone ("albert einstein" ->
   "einstein", "leonardo da vinci" -> "da vinci", "olivia newton-john" ->
   "newton john"), unless the surname is also an everyday English word
   (lemminflect knows it: "king", "bolt", "potter", "rabbit") because guessers
   say such words in passing; no surname for pairs and epithets ("Tom and
   Jerry", "Alexander the Great", "Joan of Arc").  A leading title may be
   dropped, under the same everyday-word rule ("queen victoria" -> "victoria",
   but not "who" for "Doctor Who"); trailing "jr"/"sr"/roman numerals are
   optional.
6. World: a place's name without the word for its kind of place ("mount
   everest" -> "everest", "niagara falls" -> "niagara"), when that name is no
   everyday word and not very common (:func:`_place_variants`).
7. Person or World of one word that is also a common noun
   (:func:`common_noun_reading`: "Teacher", "Pirate", "Desert"): an Object's
   answers too ("pirates", "the desert").
8. A deck may add answers or refuse any of the above per entry
   (:class:`EntryOverrides`: ``answers`` / ``not-answers``).

Forbidden forms are the word families (:mod:`voice_host.deck.family`) of every
significant word of the entry (not "the", "of"...), plus ``forms`` and minus
``not-forms`` overrides.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from voice_host.deck.family import (
    FormExceptions,
    compound_verb_forms,
    families,
    far_commoner,
    other_number_words,
)
from voice_host.deck.lexicon import PHONE_SET, Lexicon, get_lexicon, syllables
from voice_host.deck.model import CATEGORIES, CONTROL, Entry
from voice_host.deck.pronounce import pronounce_all
from voice_host.deck.spelling import american_spellings
from voice_host.deck.words import (
    ABBREVIATIONS,
    ROUND_NUMBER_WORDS,
    STOP_WORDS,
    is_roman_numeral,
    normalise,
    number_phrases,
    number_words,
    ordinal_words,
    significant_words,
    split_words,
    spoken_abbreviations,
)
from voice_host.errors import InputFileError

#: The reviewed exception list of the built-in deck.
EXCEPTIONS_PATH = Path(__file__).with_name("source") / "exceptions.txt"

#: Titles a person's name may be said without ("Queen Victoria" -> "victoria").
TITLES: frozenset[str] = frozenset(
    [
        "king",
        "queen",
        "prince",
        "princess",
        "saint",
        "st",
        "sir",
        "dame",
        "lady",
        "lord",
        "pope",
        "captain",
        "doctor",
        "dr",
        "mr",
        "mister",
        "mrs",
        "missus",
        "miss",
        "ms",
        "president",
        "emperor",
        "empress",
        "general",
        "admiral",
        "professor",
        "uncle",
        "aunt",
    ]
)
#: Words that say what kind of place a name is: "Everest" is Mount Everest and
#: "Niagara" Niagara Falls at any table, as a surname is its person.  Not
#: "island" (Rhode Island, Ellis Island and Coney Island are said whole) nor
#: "loch" ("Loch Ness").
PLACE_HEADS: frozenset[str] = frozenset(["mount", "lake", "river"])
PLACE_TAILS: frozenset[str] = frozenset(["falls", "desert", "sea", "ocean", "canyon"])
#: A place's name this common (Zipf) is said for other things too ("indian",
#: "irish", "pacific"): not an answer alone.
PLACE_NAME_MAX_ZIPF = 4.5

#: Roman numerals after a name, with the ordinal they are said as ("Henry VIII":
#: "henry the eighth").  One letter only for "I" ("Elizabeth I"): "Malcolm X" and
#: "Henry V" cannot be told apart, and X is a name.
REGNAL_NUMERALS: dict[str, int] = {
    numeral: value
    for value, numeral in enumerate(
        (
            *("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"),
            *("xi", "xii", "xiii", "xiv", "xv", "xvi", "xvii", "xviii", "xix", "xx"),
        ),
        1,
    )
    if len(numeral) > 1 or numeral == "i"
}
#: The regnal numbers as said ("first" to "twentieth").
_SAID_REGNAL = frozenset(ordinal_words(n) for n in range(1, 21))
#: First names that kings, queens and popes share: after one of them a lone "V" or
#: "X" is a ruler's number ("Henry V", "Pius X"); after any other name it stays a
#: letter ("Malcolm X").
RULER_NAMES: frozenset[str] = frozenset(
    (
        *("alexander", "alfonso", "benedict", "boniface", "charles", "christian"),
        *("clement", "constantine", "edward", "ferdinand", "frederick", "george"),
        *("gregory", "gustav", "henry", "innocent", "ivan", "james", "john", "leo"),
        *("louis", "ludwig", "nicholas", "olaf", "otto", "paul", "peter", "philip"),
        *("pius", "richard", "sixtus", "stephen", "urban", "william"),
    )
)
#: Name endings a guesser may leave out ("Martin Luther King Jr" -> "martin luther king").
#: Not a ruler's number: "henry" alone for Henry VIII made "henry ford" right.
NAME_ENDINGS: frozenset[str] = frozenset(["jr", "junior", "sr", "senior"])
#: The decades as said, for a decade's name without its century ("the nineties").
_DECADES = (
    *("twenties", "thirties", "forties", "fifties"),
    *("sixties", "seventies", "eighties", "nineties"),
)

#: Words that open a nickname, not a first name or a title: "Little John" is no
#: John ("elton john!" is no guess of him), "Father Christmas" no Christmas
#: ("christmas tree!"), "Uncle Sam" no Sam, "Old King Cole" no Cole: such a name
#: is said whole.
EPITHETS: frozenset[str] = frozenset(
    (
        *("little", "old", "big", "simple", "young", "tiny", "wee", "mad", "jolly"),
        *("good", "bad", "lazy", "baby", "father", "mother", "uncle", "aunt"),
        *("auntie", "sister", "brother", "grandma", "grandpa", "granny", "cousin"),
    )
)
#: Particles that belong to a surname ("da Vinci", "van Gogh").
NAME_PARTICLES: frozenset[str] = frozenset(
    ["da", "de", "di", "du", "van", "von", "der", "del", "le", "la", "st"]
)
#: Words that make a name a phrase with no surname ("Alexander the Great", "Joan of Arc").
PHRASE_WORDS: frozenset[str] = frozenset(["the", "of", "in", "and", "on"])

#: Which lemmas join an entry's family: a noun card's word is read as a noun ("Dove":
#: not "dive"), an action's as a verb, names not at all.
LEMMA_POS: dict[str, tuple[str, ...]] = {
    "Object": ("NOUN",),
    "Nature": ("NOUN",),
    "Random": ("NOUN", "VERB", "ADJ"),
    "Person": (),
    "Action": ("VERB", "NOUN"),
    "World": (),
    CONTROL: ("NOUN", "VERB", "ADJ"),
}

#: The category whose reading a Person or World entry that is also a common noun
#: takes as well (:func:`common_noun_reading`).
NOUN_READING = "Object"

_PLURAL_CATEGORIES = frozenset({"Object", "Nature", "Random", CONTROL})
_THE_CATEGORIES = frozenset({"Object", "Nature", "Random", "World", CONTROL})


@dataclass(frozen=True)
class EntryOverrides:
    """Per-entry corrections a deck may give (all lower-case phrases)."""

    answers: tuple[str, ...] = ()
    """Extra accepted answers ("santa" for "Father Christmas")."""
    not_answers: tuple[str, ...] = ()
    """Answers the policy would add but this entry refuses ("christmas")."""
    forms: tuple[str, ...] = ()
    """Extra forbidden forms."""
    not_forms: tuple[str, ...] = ()
    """Forms the rules would forbid but this entry allows."""

    def __bool__(self) -> bool:
        return bool(self.answers or self.not_answers or self.forms or self.not_forms)


NO_OVERRIDES = EntryOverrides()


#: British and American names of one thing, each an answer for the other's card.
SYNONYMS_PATH = Path(__file__).with_name("source") / "synonyms.txt"


def parse_synonyms(text: str, source: str = "synonyms") -> dict[str, frozenset[str]]:
    """Read the synonym list (``name, name  # reason`` per line): name -> the other
    names of its group.  Raises :class:`InputFileError` for a line with fewer than two
    names or no reason."""
    out: dict[str, set[str]] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line, hash_, reason = raw.partition("#")
        if not line.strip():
            continue
        names = [normalise(n) for n in line.split(",")]
        if len(names) < 2 or not all(names) or not hash_ or not reason.strip():
            raise InputFileError(
                f"{source}: line {number}: expected 'name, name  # reason', got {raw.strip()!r}"
            )
        for name in names:
            out.setdefault(name, set()).update(n for n in names if n != name)
    return {name: frozenset(others) for name, others in out.items()}


@functools.cache
def builtin_synonyms() -> dict[str, frozenset[str]]:
    """The reviewed synonym list (empty if the source file is absent)."""
    try:
        text = SYNONYMS_PATH.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFileError(f"{SYNONYMS_PATH}: cannot read ({exc})") from None
    return parse_synonyms(text, str(SYNONYMS_PATH))


@functools.cache
def builtin_exceptions() -> FormExceptions:
    """The built-in reviewed exception list (empty if the source file is absent)."""
    if not EXCEPTIONS_PATH.exists():
        return FormExceptions()
    return FormExceptions.read(EXCEPTIONS_PATH)


def _the_variants(phrase: str) -> set[str]:
    words = phrase.split()
    if words and words[0] == "the" and len(words) > 1:
        return {phrase, " ".join(words[1:])}
    return {phrase, "the " + phrase}


def _plausible(forms: Iterable[str], lexicon: Lexicon) -> set[str]:
    """lemminflect's first spelling for a tag, other spellings only if real words."""
    out: set[str] = set()
    for index, form in enumerate(forms):
        form = form.lower()
        if not re.fullmatch(r"[a-z]+", form):
            continue  # "baby-sat", "ski'd": spellings no recogniser writes
        if index == 0 or lexicon.is_word(form):
            out.add(form)
    return out


#: Plurals lemminflect lacks or spells otherwise ("oxes", "persons"), said by a table.
IRREGULAR_PLURALS: dict[str, str] = {"ox": "oxen", "person": "people"}


def _noun_numbers(word: str, lexicon: Lexicon) -> set[str]:
    from lemminflect import getAllInflections, getAllLemmas

    found = {word}
    found |= _plausible(getAllLemmas(word, upos="NOUN").get("NOUN", ()), lexicon)
    for base in list(found):
        found |= _plausible(getAllInflections(base, upos="NOUN").get("NNS", ()), lexicon)
    # "does!" is no guess of Doe, nor "well" of Wells: far commoner words
    found -= other_number_words(word, lexicon)
    return found | unlisted_plurals(word, lexicon)


#: The least Zipf frequency of a plural made by rule for a noun lemminflect does not
#: know: "fridges" (2.7), "igloos" (2.0) are said; "rugbies", "easters" (1.6) and
#: "frenches" (1.1) are nobody's plural.
UNLISTED_PLURAL_ZIPF = 2.0


def unlisted_plurals(word: str, lexicon: Lexicon) -> set[str]:
    """The plural of a noun lemminflect does not know (or knows only as a verb: "pans"),
    by its rules for unknown words,
    where it is a word said often enough (:data:`UNLISTED_PLURAL_ZIPF`: "fridges",
    "selfies", "igloos"), or one it gets wrong ("oxen", "people"); empty for the rest.
    Without it "fridges!" was no guess of Fridge, "oxen!" none of Ox, nor "a team of
    oxen" a foul (session 60's audit: 57 entries of the built-in deck had no plural
    among their answers)."""
    from lemminflect import getAllInflections, getAllInflectionsOOV, getAllLemmas

    if word in IRREGULAR_PLURALS:
        return {IRREGULAR_PLURALS[word]}
    if not re.fullmatch(r"[a-z]{2,}[^s]", word):
        # no word at all, or one that ends as a plural would ("olympics", "hummus":
        # "olympicses" is said by nobody)
        return set()
    known = getAllLemmas(word)
    if getAllInflections(word, upos="NOUN") or any(pos != "VERB" for pos in known):
        return set()  # a noun it knows (its plurals come from it), or an adjective: "new"
    # a word it does not know, or knows only as a verb, which is a noun on a card
    # ("pans", "tins", "logs", "pips": session 62's audit)
    made = getAllInflectionsOOV(word, upos="NOUN").get("NNS", ())
    return {p for p in made if p != word and _said_enough(p, lexicon)}


def _said_enough(word: str, lexicon: Lexicon) -> bool:
    """Whether ``word`` is seen often enough to be a plural people say."""
    zipf = lexicon.frequency(word)
    return lexicon.is_word(word) if zipf is None else zipf >= UNLISTED_PLURAL_ZIPF


#: Words that end a phrasal verb ("get up", "take off"): no verb of their own.
_PARTICLES = frozenset(
    ["up", "down", "off", "on", "out", "in", "over", "away", "back", "around", "about", "by"]
)


def _compound_verb(words: list[str]) -> str:
    """The last of an action's two ``words`` when the action is a noun and then the
    verb, a compound verb ("belly flop", "doggy paddle", "horse riding", "scuba
    diving"), so that the verb is inflected where it stands ("belly flopping", "horse
    ride"); '' otherwise.  The verb is a verb's base or -ing form (not "play cards",
    "hold hands"), no particle ("get up"), and the word before it is a noun (or a
    word the lemmatiser does not know: "scuba")."""
    from lemminflect import getAllLemmas

    if len(words) != 2 or any(w in STOP_WORDS or w in _PARTICLES for w in words):
        return ""
    first, last = words
    verbs = getAllLemmas(last, upos="VERB").get("VERB", ())
    if not verbs or not (last in verbs or last.endswith("ing")):
        return ""
    known = getAllLemmas(first)  # "scuba" the lemmatiser knows not at all: a noun
    return last if "NOUN" in known or not known else ""


def _verb_forms(word: str, lexicon: Lexicon) -> set[str]:
    from lemminflect import getAllInflections, getAllLemmas

    found = {word}
    found |= _plausible(getAllLemmas(word, upos="VERB").get("VERB", ()), lexicon)
    for base in list(found):
        for forms in getAllInflections(base, upos="VERB").values():
            found |= _plausible(forms, lexicon)
    # "moonwalk" for Moonwalking, "breakdance" for Breakdancing
    return found | compound_verb_forms(word, lexicon)


def _everyday_word(word: str) -> bool:
    """Whether a name is also an everyday English word ("king", "bolt", "who")."""
    from lemminflect import getAllLemmas

    return bool(getAllLemmas(word))


#: How common (Zipf) the noun must be for a Person or World entry to be read as
#: one too: "pyramid" (3.75) for Pyramids, but not "wale" (2.67) for Wales.
COMMON_NOUN_ZIPF = 3.0


def common_noun_reading(text: str, category: str, lexicon: Lexicon) -> bool:
    """Whether a Person or World entry is one word English also has as a common
    noun ("Teacher", "Pirate", "The Joker", "Desert", "Turkey"; not "Madonna" nor
    "Jordan", nor "Wales" for the rare "wale"): such an entry is read as a name
    *and* as a noun (an Object), so it gets a noun's family too ("teach" for
    Teacher, "joke" for The Joker) and its plural as an answer ("pirates")."""
    from lemminflect import getAllLemmas

    if category not in ("Person", "World"):
        return False
    # one word but for an article: Doctor Who is two words though "who" means little
    words = [w for w in split_words(text, spell_numbers=False) if w not in ("the", "a", "an")]
    if len(words) != 1:
        return False
    nouns = getAllLemmas(words[0], upos="NOUN").get("NOUN", ())
    if words[0] not in nouns and any(far_commoner(n, words[0], lexicon) for n in nouns):
        return False  # Wells, the Downs: no "well" (a filler) nor "down"
    return any((lexicon.frequency(n) or 0.0) >= COMMON_NOUN_ZIPF for n in nouns)


def _ruler_number(numeral: str, names: list[str]) -> int | None:
    """The number a ruler's ``numeral`` (written in capitals, ending a person's
    name ``names``) stands for, or None: "viii" -> 8; "v" -> 5 only after a
    ruler's first name ("Henry V", "King George V", not "Malcolm X")."""
    if numeral in REGNAL_NUMERALS:
        return REGNAL_NUMERALS[numeral]
    while len(names) > 2 and names[0] in TITLES:
        names = names[1:]  # "King George V", "Pope Pius X"
    if numeral in ("v", "x") and len(names) == 2 and names[0] in RULER_NAMES:
        return 5 if numeral == "v" else 10
    return None


def _regnal_variants(phrase: str, numeral: str, number: int) -> set[str]:
    """A ruler's number as it is said: "henry viii" -> "henry the eighth" and "henry
    eighth" ("elizabeth ii" -> "elizabeth the second")."""
    head, _, last = phrase.rpartition(" ")
    if not head or last != numeral:
        return set()
    said = ordinal_words(number)
    return {f"{head} the {said}", f"{head} {said}"}


def _bare_surname(word: str, lexicon: Lexicon) -> bool:
    """Whether the last word of a surname with a particle may be said alone
    ("beethoven" for Ludwig van Beethoven): no everyday word, two syllables or
    more, and said as no common word ("gogh" is said "go", "gaulle" "goal")."""
    prons = lexicon.all_prons(word)
    if _everyday_word(word) or not prons or any(syllables(p) < 2 for p in prons):
        return False
    return not any(lexicon.is_common(other) for other in lexicon.homophones(word))


def _name_variants(phrase: str, text: str, lexicon: Lexicon) -> set[str]:
    """Short forms of a person's name (policy rule 5)."""
    out: set[str] = set()
    names = phrase.split()
    if names and (names[-1] in _SAID_REGNAL or names[-1] in REGNAL_NUMERALS):
        return out  # a ruler is named with the number: no first name alone, no "viii"
    while len(names) > 1 and names[-1] in NAME_ENDINGS:
        names = names[:-1]
        out.add(" ".join(names))
    if names and names[0] in EPITHETS:
        return out  # "Little John", "Father Christmas": said whole
    if len(names) > 1 and names[0] in TITLES:
        rest = names[1:]
        if len(rest) > 1 or not (_everyday_word(rest[0]) or len(rest[0]) == 1):
            out.add(" ".join(rest))  # "victoria", but not "who" for Doctor Who, "t" for Mr T
    if len(names) < 2 or any(w in PHRASE_WORDS for w in names):
        return out  # "Tom and Jerry", "Alexander the Great": no surname to take
    last_printed = text.split()[-1]
    if "-" in last_printed:
        # A double-barrelled surname is said whole ("Newton-John").
        surname = names[-len(split_words(last_printed)) :]
    else:
        surname = names[-1:]
        if len(names) > 2 and names[-2] in NAME_PARTICLES:
            surname = names[-2:]  # "da vinci", "van gogh"
            if _bare_surname(names[-1], lexicon):
                out.add(names[-1])  # "beethoven!", but not "go" for Van Gogh
    alone = surname[0] if len(surname) == 1 else ""
    if len(surname) < len(names) and not (
        alone and (_everyday_word(alone) or len(alone) == 1 or alone.isdigit())
    ):
        out.add(" ".join(surname))  # not "t" of Mr T, "x" of Malcolm X, "22" of Catch 22
    return out


def _place_variants(phrase: str, lexicon: Lexicon) -> set[str]:
    """A place's name without the word that says what kind of place it is, when
    what is left is one word and no everyday word ("mount everest" -> "everest",
    "pacific ocean" -> "pacific", "niagara falls" -> "niagara"; not "dead" for the
    Dead Sea, "grand" for the Grand Canyon, nor "indian" for the Indian Ocean)."""
    words = phrase.split()
    if words[:1] == ["the"]:
        words = words[1:]
    if len(words) != 2:
        return set()
    if words[0] in PLACE_HEADS:
        name = words[1]
    elif words[1] in PLACE_TAILS:
        name = words[0]
    else:
        return set()
    plain = name.replace("'", "")
    common = (lexicon.frequency(plain) or 0.0) >= PLACE_NAME_MAX_ZIPF
    return set() if common or _everyday_word(plain) else {name}


def accepted_answers(
    text: str,
    category: str,
    lexicon: Lexicon,
    overrides: EntryOverrides = NO_OVERRIDES,
    *,
    synonyms: bool = True,
) -> tuple[str, ...]:
    """The accepted answers for an entry (policy in this module's docstring), entry
    first; ``synonyms``: with the other names the reviewed synonym list gives it."""
    main = normalise(text)
    phrases = {main, normalise(text, spell_numbers=False)}
    for phrase in list(phrases):
        phrases.add(spoken_abbreviations(phrase))  # "mister bean" for Mr Bean
    for phrase in list(phrases):
        if "'" in phrase:
            phrases.add(phrase.replace("'", ""))
    for phrase in list(phrases):
        if " n " in f" {phrase} ":
            # "Rock 'n' roll", "Guns N' Roses": said, and written, with "and"
            phrases.add(re.sub(r"\bn\b", "and", phrase))
    if any(t.isdigit() for t in split_words(text, spell_numbers=False)):
        # "100 metres": "a hundred metres", "the hundred metres" and "one
        # hundred metres" all hold "hundred metres"; "two thousand one" is said
        # as often as "two thousand and one"
        for phrase in list(phrases):
            for word in ROUND_NUMBER_WORDS:
                phrases.add(re.sub(rf"\bone {word}\b", word, phrase))
                phrases.add(re.sub(rf"\b{word} and\b", word, phrase))
    # a numeral in capitals ending the entry: a war's or a sequel's, or a ruler's ("VIII")
    last_written = text.split()[-1] if text.split() else ""
    numeral = last_written.lower() if last_written.isupper() else ""
    if category != "Person" and numeral in REGNAL_NUMERALS:
        # "World War II": "world war two" ("Rocky IV": "rocky four")
        said = number_words(REGNAL_NUMERALS[numeral])
        for phrase in list(phrases):
            head, _, last = phrase.rpartition(" ")
            if head and last == numeral:
                phrases.add(f"{head} {said}")
    if "-" in text:
        joined = normalise(text.replace("-", ""))
        if all(lexicon.is_word(w) for w in joined.split()):
            phrases.add(joined)
    words = main.split()
    if category in _PLURAL_CATEGORIES and words:
        for phrase in list(phrases):
            head, _, last = phrase.rpartition(" ")
            if last in _DECADES or last == "hundreds" or re.fullmatch(r"\d+'?s", last):
                continue  # "sixties" is no plural of "sixty" (the year)
            for variant in _noun_numbers(last, lexicon):
                phrases.add(f"{head} {variant}".strip())
    if category == "Action" and words:
        last_verb = _compound_verb(words)
        for phrase in list(phrases):
            first, _, rest = phrase.partition(" ")
            for variant in _verb_forms(first, lexicon):
                phrases.add(f"{variant} {rest}".strip())
            head, _, last = phrase.rpartition(" ")
            if last_verb and last == last_verb:
                # "belly flopping", "horse ride": the verb of a noun-verb compound
                for variant in _verb_forms(last, lexicon):
                    phrases.add(f"{head} {variant}")
    if category == "Person":
        number = _ruler_number(numeral, main.split()) if numeral else None
        if number is not None:  # a ruler's "VIII"; not "Xi", nor Malcolm X's
            for phrase in list(phrases):
                phrases |= _regnal_variants(phrase, numeral, number)
        for phrase in list(phrases):
            phrases |= _name_variants(phrase, text, lexicon)
    if re.search(r"\b19\d0'?s\b", text):
        # "1990s": "the nineties" as often as "the nineteen nineties" (not for the
        # 1890s or 2020s: "the nineties" and "the twenties" are this century's)
        decade = re.compile(rf"\b\w+ (?=(?:{'|'.join(_DECADES)})\b)")
        for phrase in list(phrases):
            phrases.add(decade.sub("", phrase))
    if category == "World":
        for phrase in list(phrases):
            phrases |= _place_variants(phrase, lexicon)
    if category in _THE_CATEGORIES:
        for phrase in list(phrases):
            phrases |= _the_variants(phrase)
    if common_noun_reading(text, category, lexicon):
        phrases.update(accepted_answers(text, NOUN_READING, lexicon))
    if category == "Action":
        for phrase in list(phrases):
            phrases |= _determiner_variants(phrase)
    if synonyms:
        # "zucchini" for Courgette, "sneakers" for Trainers, with their own variants
        for other in sorted(builtin_synonyms().get(main, ())):
            phrases.update(accepted_answers(other, category, lexicon, synonyms=False))
    for phrase in list(phrases):
        phrases |= _american_variants(phrase, lexicon)
    phrases.update(normalise(a) for a in overrides.answers)
    refused = {normalise(a) for a in overrides.not_answers}
    # with its article too: the referee takes "the glass" as "glass" (a guesser's "a glass")
    phrases -= refused | {f"{article} {a}" for a in refused for article in ("the", "a", "an")}
    phrases.discard("")
    phrases.add(main)  # the entry itself is always right
    return (main, *sorted(phrases - {main}))


#: Words a guesser swaps for one another in an action, with what they are swapped
#: for (or left out: "feeding ducks"): "roll a dice" for Roll the dice, "tie my
#: shoelaces" for Tie your shoelaces.
DETERMINERS: dict[str, tuple[str, ...]] = {
    **{article: ("the", "a") for article in ("a", "an", "the")},
    **{own: ("my", "your", "the") for own in ("your", "my", "his", "her", "their", "our")},
}


def _determiner_variants(phrase: str) -> set[str]:
    """An action said with another article or possessive, or none, where the card
    has one after its verb: "roll a dice", "roll dice" for "roll the dice";
    "tie my shoelaces" for "tie your shoelaces"."""
    words = phrase.split()
    out: set[str] = set()
    for i, word in enumerate(words):
        if i == 0 or word not in DETERMINERS or i == len(words) - 1:
            continue
        for other in ("", *DETERMINERS[word]):
            out.add(" ".join([*words[:i], *([other] if other else []), *words[i + 1 :]]))
    return out - {phrase}


def _american_variants(phrase: str, lexicon: Lexicon) -> set[str]:
    """A phrase with its British spellings written as the recogniser writes them
    ("honour" -> "honor", "the theatre" -> "the theater")."""
    words = phrase.split()
    spelt = [min(american_spellings(w, lexicon), default=w) for w in words]
    return {" ".join(spelt)} - {phrase}


def _significant(text: str) -> tuple[list[str], list[str]]:
    """An entry's significant words but its numbers, as written and as said with its
    abbreviations spelled out ("dr" -> "doctor"); a word of one letter is no form in a
    longer entry ("T" of T-shirt)."""
    written = significant_words(text, numbers=False)
    said = spoken_abbreviations(" ".join(written)).split()
    if len(said) > 1:  # "ii" of World War II is only ever heard as a stutter "i i"
        said = [w for w in said if not is_roman_numeral(w)]
    return written, [w for w in said if len(w) > 1 or len(said) == 1]


def always_forbidden(text: str) -> set[str]:
    """The forms no deck correction can allow: the entry's own words and the
    abbreviations among them (R11); not its numbers' words, nor "the" or "your"."""
    written, significant = _significant(text)
    return {*significant, *(w for w in written if w in ABBREVIATIONS)}


def forbidden_forms(
    text: str,
    category: str,
    lexicon: Lexicon,
    exceptions: FormExceptions,
    overrides: EntryOverrides = NO_OVERRIDES,
) -> tuple[str, ...]:
    """The sorted forbidden forms of an entry: families of its significant words.

    An abbreviation's family is its word's ("doctor", "doctors" for Dr Who), the
    abbreviation itself a form too; a word of one letter in a longer entry ("T" of
    T-shirt, "X" of X-ray) is no form: it is a letter, and a recogniser writes
    letters for many a sound.  A possessive's name is a form without its "'s"
    too ("noah" of Noah's Ark), with no family of its own.
    """
    written, significant = _significant(text)
    forms = families(
        significant,
        lexicon,
        exceptions,
        lemma_pos=LEMMA_POS[category],
        names=category in ("Person", "World"),
        places=category == "World",
    )
    if common_noun_reading(text, category, lexicon):
        forms |= families(significant, lexicon, exceptions, lemma_pos=LEMMA_POS[NOUN_READING])
    forms.update(normalise(f) for f in overrides.forms)
    refused = {normalise(f) for f in overrides.not_forms}
    forms -= refused
    forms.update(significant)  # the entry's own words are always forbidden
    if category in _PLURAL_CATEGORIES:  # not a name's ("madonnas", "perths")
        for word in significant:
            forms.update(unlisted_plurals(word, lexicon) - refused)
    # a number whole ("twenty first" of 21st Century, not "first"; a deck may allow it)
    forms.update(p for p in number_phrases(text) if p not in refused)
    forms.update(w for w in written if w in ABBREVIATIONS)
    bases = {w[:-2] for w in significant if w.endswith("'s") and len(w) > 3}
    forms.update(bases - {normalise(f) for f in overrides.not_forms})
    if bases and category not in ("Person", "World"):
        # a possessive's word is the card's word with its family ("write" and "wrote"
        # on Writer's block, "begin" on Beginner's luck); a name's is the name alone
        # ("noah" of Noah's Ark)
        named = {b for b in bases if not _everyday_word(b)}
        forms |= families(sorted(bases - named), lexicon, exceptions, lemma_pos=LEMMA_POS[category])
        forms -= refused
    return tuple(sorted(f for f in forms if f))


def _words_of(phrases: Iterable[str]) -> list[str]:
    return [w for phrase in phrases for w in phrase.split()]


@dataclass(frozen=True)
class EntrySpec:
    """What a deck source says about one entry, before word knowledge is added."""

    text: str
    category: str
    overrides: EntryOverrides = NO_OVERRIDES


def make_entries(
    specs: Iterable[EntrySpec],
    *,
    exceptions: FormExceptions | None = None,
    lexicon: Lexicon | None = None,
) -> tuple[list[Entry], dict[str, str]]:
    """Entries for many specs at once, and word -> pronunciation method for made-up ones.

    Pronunciations are made for all words together, so espeak-ng runs once.
    """
    lex = lexicon if lexicon is not None else get_lexicon()
    excs = exceptions if exceptions is not None else builtin_exceptions()
    drafts: list[tuple[EntrySpec, tuple[str, ...], tuple[str, ...]]] = []
    for spec in specs:
        if spec.category not in (*CATEGORIES, CONTROL):
            raise ValueError(f"unknown category {spec.category!r}")
        answers = accepted_answers(spec.text, spec.category, lex, spec.overrides)
        forms = forbidden_forms(spec.text, spec.category, lex, excs, spec.overrides)
        drafts.append((spec, answers, forms))
    all_words = sorted({w for _, a, f in drafts for w in _words_of((*a, *f))})
    spoken = pronounce_all(all_words, lex)
    methods = {w: m for w, (_, m) in sorted(spoken.items()) if m != "cmudict"}
    for word, (phones, _) in spoken.items():
        bad = [p for p in phones if p not in PHONE_SET]
        if bad or not phones:
            raise ValueError(f"pronunciation of {word!r} has unknown phones {bad}")
    entries: list[Entry] = []
    for spec, answers, forms in drafts:
        words = sorted(set(_words_of((*answers, *forms))))
        entries.append(
            Entry(
                text=spec.text.strip(),
                category=spec.category,
                answers=answers,
                forms=forms,
                pronunciations={w: spoken[w][0] for w in words},
                generated=tuple(w for w in words if w in methods),
            )
        )
    return entries, methods


def make_entry(
    text: str,
    category: str,
    *,
    exceptions: FormExceptions | None = None,
    overrides: EntryOverrides = NO_OVERRIDES,
    lexicon: Lexicon | None = None,
) -> Entry:
    """An :class:`Entry` for ``text`` with its answers, forms and pronunciations.

    ``category``: one of :data:`~voice_host.deck.model.CARD_FIELDS`.
    ``exceptions``: the reviewed look-alike list (default: the built-in deck's).
    ``overrides``: per-entry corrections.  ``lexicon``: default the process-wide one.
    ``Entry.generated`` lists the words whose pronunciation is not from the CMU
    dictionary (composed from parts, espeak-ng, or letter-to-sound rules).
    """
    entries, _ = make_entries(
        [EntrySpec(text, category, overrides)], exceptions=exceptions, lexicon=lexicon
    )
    return entries[0]


def looks_like_a_name(text: str) -> bool:
    """Whether ``text`` as typed is a proper name: two or more significant words,
    each capitalised, one of them no dictionary word ("Will Ferrell", "Lake
    Geneva", "Hadrian's Wall"; not "Toy Story" nor "Brush Your Teeth")."""
    from lemminflect import getAllLemmas

    typed = [t for t in re.split(r"[\s-]+", text.strip()) if t]
    meaningful = [t for t in typed if t.casefold() not in STOP_WORDS]
    if len(significant_words(text)) < 2 or not all(t[:1].isupper() for t in meaningful):
        return False
    return any(not getAllLemmas(w) for w in significant_words(text))


def make_entry_any_category(text: str) -> Entry:
    """An :class:`Entry` for ``text`` when its card category is not known.

    A word typed on the command line ("--word swim") may be a noun card or an
    action card: the entry takes both readings, the answers and forms of
    ``text`` as an Object and as an Action together.  So "swimming" is a
    correct guess for "swim" (as on an Action card) and "swims" too (as on an
    Object card), and a describer saying "juggle" for "juggling" is caught
    (an Object reading alone has no verb family).

    A proper name (:func:`looks_like_a_name`: "Will Ferrell", "Lake Geneva")
    is read as a Person and a World entry together instead: its words are
    inflected as names are ("would" is no form of Will Ferrell, "bedrock"
    none of Chris Rock's), and a surname alone is an answer ("ferrell").
    """
    readings = ("Person", "World") if looks_like_a_name(text) else ("Object", "Action")
    entries, _ = make_entries([EntrySpec(text, reading) for reading in readings])
    first, second = entries
    return Entry(
        text=first.text,
        category=first.category,
        answers=tuple(dict.fromkeys((*first.answers, *second.answers))),
        forms=tuple(sorted(set(first.forms) | set(second.forms))),
        pronunciations={**second.pronunciations, **first.pronunciations},
        generated=tuple(dict.fromkeys((*first.generated, *second.generated))),
    )
