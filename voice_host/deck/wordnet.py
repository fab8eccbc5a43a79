"""Word families from WordNet: look-alike derivations, and a word's kin.

The word-family rules (:mod:`voice_host.deck.family`) take a word spelled and
said as base + suffix for a derivative of the base.  For the plain English
endings (-less, -ful, -man, -ness, -ly ...) that is nearly always right; for
the others a word often only looks derived: "dial" is no die + al, "jackal"
no jack + al, "comic" no coma + ic, "penny" no pen + y, "rummage" no rum +
age, "career" no car + eer.  Describing Die, "turn the dial" is no foul.

WordNet 3.0 (Princeton, Debian's ``wordnet-base``) knows which words are
derived from which: its derivational, pertainym and attribute links (rain ->
rainy, post -> postal, magic -> magician), and its definitions ("kingdom: a
country with a king as head of state").  A pair both words of which WordNet
lists, where no link joins any form of one to any form of the other and
neither definition names the other, is taken for a look-alike, for the
endings in :data:`CHECKED_SUFFIXES`, and for -er where no agent can be
(:data:`AGENT_ENDINGS`: ladder, matter).  WordNet misses true derivatives
too ("sunny", "scary", "basement" are lost this way); the reviewed list
(``source/exceptions.txt``) adds back what the built-in deck needs.

WordNet also gives a word's **kin** (:attr:`WordNetFacts.kin`): the words
derived from or to its commonest sense that begin as it does, which the suffix
rules cannot make: piano -> pianist, music -> musician, invention -> invent,
indonesia -> indonesian.  The family takes them as derivatives.

Both lists are kept in ``data/wordnet_lookalikes.txt.gz`` and
``data/wordnet_kin.txt.gz`` (WordNet's licence notice at their heads), made by
this module from WordNet's files:

    apt-get install wordnet-base      # or: apt-get download + dpkg-deb -x
    python -m voice_host.deck.wordnet /usr/share/wordnet

Nothing reads WordNet at run time; the deck build reads the kept lists.
"""

from __future__ import annotations

import functools
import gzip
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from voice_host.errors import InputFileError

#: The kept look-alike list: ``base: lookalike lookalike`` per line, ``#`` lines are comments.
LOOKALIKES_PATH = Path(__file__).with_name("data") / "wordnet_lookalikes.txt.gz"
#: The kept kin list: ``word: kin kin`` per line (:attr:`WordNetFacts.kin`).
KIN_PATH = Path(__file__).with_name("data") / "wordnet_kin.txt.gz"

#: Endings whose would-be derivatives are checked against WordNet.  Not the
#: inflections, "-able", nor the plain English endings, whose
#: words are nearly always what they look (childless, postman, wonderful), nor
#: "-ation", "-ism", "-ist", "-ize", whose words WordNet often fails to link
#: though they are derived (fixation, journalism, vocalist, modernize).
CHECKED_SUFFIXES: frozenset[str] = frozenset(
    {"y", "ie", "al", "ic", "ical", "age", "let", "ette", "ery", "ess", "ian", "an", "ese",
     "ite", "ise", "ify", "ition", "eer", "ous", "ment", "ible", "ish"}
)  # fmt: skip
#: Endings of an agent noun (or comparative), checked only where no agent noun can
#: be: the base is no verb (lad: ladder; mast: master) or the word is far commoner
#: than the verb's -ing form (mat: matter; sum: summer).
AGENT_ENDINGS: frozenset[str] = frozenset({"er", "ers"})
#: Bases ending so make true derivatives with -al or -ical even where WordNet
#: has no link (optional, additional, periodical, departmental).
LATINATE_BASE_ENDINGS: tuple[str, ...] = ("ion", "ic", "ment")

#: WordNet's pointer symbols that join derived words: derivationally related
#: form, pertainym (or "derived from" for adverbs), attribute, participle.
DERIVATION_POINTERS: frozenset[str] = frozenset({"+", "\\", "=", "<"})

#: How many of a word's senses (WordNet's commonest first) give it kin: the food
#: Butter has no "butt" (a butter is also one who butts, its second noun sense).
KIN_SENSES = 1
#: Kin begins with this many of the word's letters (pianist, piano; not lunar, moon);
#: a shorter word has kin only by :func:`_extends` (act: action, actor).
KIN_PREFIX = 4

DATA_FILES: dict[str, str] = {"n": "data.noun", "v": "data.verb", "a": "data.adj", "r": "data.adv"}

LOOKALIKES_WHAT = "suffixed words it does not relate to the word they look derived from"
KIN_WHAT = "words derived from or to a word's commonest sense that begin as it does"

LICENCE = """\
# WordNet 3.0 Copyright 2006 by Princeton University.  All rights reserved.
# THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO
# REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED.  BY WAY OF EXAMPLE, BUT NOT
# LIMITATION, PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF
# MERCHANTABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE
# LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY
# PATENTS, COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS.  The name of Princeton
# University or Princeton may not be used in advertising or publicity pertaining
# to distribution of the software and/or database.  Title to copyright in this
# software, database and any associated documentation shall at all times remain
# with Princeton University.  (Licence: WordNet 3.0, https://wordnet.princeton.edu/)
"""


@dataclass(frozen=True)
class WordNetFacts:
    """What the look-alike check needs from WordNet: its one-word lemmas,
    the links between derived words, and the words of each lemma's definitions
    and synonyms."""

    words: frozenset[str]
    links: Mapping[str, frozenset[str]]
    definitions: Mapping[str, frozenset[str]]
    kin: Mapping[str, frozenset[str]]
    """Word -> words linked to one of its first :data:`KIN_SENSES` senses that
    begin as it does (piano: pianist; music: musician; invent: inventor)."""


#: Latinate endings of a derivative linked to any sense of its word (erupt:
#: eruption; act: actor; survey: surveyor); not -er, -ard or -al, whose words
#: are often another word's (tow: tower, cow: coward, stand: standard, term:
#: terminal come from rarer senses).
ANY_SENSE_ENDINGS: tuple[str, ...] = (
    "ion", "ive", "or", "ory", "ment", "ance", "ence", "ant", "ent", "ure", "ity", "ist",
    "ism", "ee", "able", "ible", "ous",
)  # fmt: skip


def _extends(longer: str, word: str) -> bool:
    """Whether ``longer`` is ``word`` (less a final "e") with a Latinate ending
    (:data:`ANY_SENSE_ENDINGS`): erupt -> eruption, create -> creation; such a
    link counts from any sense of ``word``."""
    stem = word[:-1] if word.endswith("e") else word
    return (
        len(stem) >= 3
        and len(longer) > len(word)
        and longer.startswith(stem)
        and longer.endswith(ANY_SENSE_ENDINGS)
    )


def parse_index_lines(lines: Iterable[str]) -> set[tuple[str, str, str]]:
    """(lemma, synset offset, part of speech) of each lemma's first
    :data:`KIN_SENSES` senses, from WordNet ``index.*`` lines (senses in order
    of use).  Raises :class:`InputFileError` on a line not in its format."""
    out: set[tuple[str, str, str]] = set()
    for line in lines:
        if line.startswith("  ") or not line.strip():
            continue
        parts = line.split()
        try:
            lemma, pos, count = parts[0].lower(), parts[1], int(parts[2])
            offsets = parts[len(parts) - count :] if count else []
        except (IndexError, ValueError):
            raise InputFileError(f"WordNet index: not a lemma line: {line[:60]!r}") from None
        out |= {(lemma, offset, pos) for offset in offsets[:KIN_SENSES]}
    return out


def parse_data_lines(
    lines: Iterable[tuple[str, str]], first_senses: set[tuple[str, str, str]] | None = None
) -> WordNetFacts:
    """Read WordNet ``data.*`` lines, each given with its file's part of speech
    (``n``, ``v``, ``a``, ``r``).  Licence lines (two leading spaces) are skipped.
    ``first_senses``: from :func:`parse_index_lines`, for :attr:`WordNetFacts.kin`.

    Raises :class:`InputFileError` on a line that is not in WordNet's format.
    """
    synsets: dict[tuple[str, str], list[str]] = {}
    pointers: dict[tuple[str, str], list[str]] = {}
    definitions: defaultdict[str, set[str]] = defaultdict(set)
    for pos, line in lines:
        if line.startswith("  ") or not line.strip():
            continue
        head, _, gloss = line.partition(" | ")
        parts = head.split()
        try:
            offset, kind, count = parts[0], parts[2], int(parts[3], 16)
            lemmas = [parts[4 + 2 * i].lower().split("(")[0] for i in range(count)]
            key = (offset, "a" if kind == "s" else kind)
            synsets[key] = lemmas
            pointers[key] = parts[4 + 2 * count :]
        except (IndexError, ValueError):
            raise InputFileError(
                f"WordNet data ({pos}): not a synset line: {line[:60]!r}"
            ) from None
        # the definition, not the quoted examples after it, and the synset's
        # words: plumage is "feather, plume, plumage", pilgrimage "pilgrim's journey"
        definition = set(re.findall(r"[a-z]+", gloss.split('"')[0].lower()))
        definition |= {w for lemma in lemmas for w in re.findall(r"[a-z]+", lemma)}
        for lemma in lemmas:
            definitions[lemma] |= definition
    links: defaultdict[str, set[str]] = defaultdict(set)
    kin: defaultdict[str, set[str]] = defaultdict(set)
    first = first_senses or set()
    for key, rest in pointers.items():
        try:
            for i in range(int(rest[0])):
                symbol, offset, pos, where = rest[1 + 4 * i : 5 + 4 * i]
                target_key = (offset, "a" if pos == "s" else pos)
                target = synsets.get(target_key)
                if symbol not in DERIVATION_POINTERS or target is None:
                    continue
                source_no, target_no = int(where[:2], 16), int(where[2:], 16)
                sources = synsets[key] if source_no == 0 else [synsets[key][source_no - 1]]
                targets = target if target_no == 0 else [target[target_no - 1]]
                for a in sources:
                    for b in targets:
                        links[a].add(b)
                        links[b].add(a)
                        if a == b:
                            continue
                        alike = len(a) >= KIN_PREFIX and a[:KIN_PREFIX] == b[:KIN_PREFIX]
                        if (alike and (a, *key) in first) or _extends(b, a):
                            kin[a].add(b)
                        if (alike and (b, *target_key) in first) or _extends(a, b):
                            kin[b].add(a)
        except (IndexError, ValueError):
            raise InputFileError(f"WordNet data: bad pointers in synset {key[0]}") from None
    one_word = {w for lemmas in synsets.values() for w in lemmas if re.fullmatch(r"[a-z]+", w)}
    return WordNetFacts(
        frozenset(one_word),
        {w: frozenset(v) for w, v in links.items()},
        {w: frozenset(v) for w, v in definitions.items()},
        {w: frozenset(v) for w, v in kin.items() if re.fullmatch(r"[a-z]+", w)},
    )


def _read_lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="latin-1").splitlines()
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read ({exc.strerror})") from None


def read_wordnet(folder: Path) -> WordNetFacts:
    """Read WordNet's ``data.*`` and ``index.*`` files from ``folder`` (``/usr/share/wordnet``)."""
    lines: list[tuple[str, str]] = []
    first: set[tuple[str, str, str]] = set()
    for pos, name in DATA_FILES.items():
        lines.extend((pos, line) for line in _read_lines(folder / name))
        first |= parse_index_lines(_read_lines(folder / name.replace("data.", "index.")))
    return parse_data_lines(lines, first)


#: British spellings WordNet (American) lists otherwise: metre, armour, defence.
BRITISH_ENDINGS: tuple[tuple[str, str], ...] = (
    ("tre", "ter"),
    ("our", "or"),
    ("ence", "ense"),
    ("ise", "ize"),
    ("iser", "izer"),
    ("isers", "izers"),
)


def _spelling_variants(word: str) -> set[str]:
    """``word`` and its American spelling (spectre -> specter)."""
    out = {word}
    for british, american in BRITISH_ENDINGS:
        if word.endswith(british) and len(word) > len(british) + 1:
            out.add(word[: -len(british)] + american)
    return out


def _forms(word: str) -> set[str]:
    """The word, its American spelling, their inflections and lemmas (lemminflect)."""
    from lemminflect import getAllInflections, getAllLemmas

    out = _spelling_variants(word)
    for variant in sorted(out):
        for forms in (*getAllInflections(variant).values(), *getAllLemmas(variant).values()):
            out |= set(forms)
    return out


def _kin(forms: set[str], facts: WordNetFacts) -> set[str]:
    """Words WordNet links to any of ``forms`` that start with the same three letters."""
    return {
        kin for form in forms for kin in facts.links.get(form, frozenset()) if kin[:3] == form[:3]
    }


def _compound_of(word: str, base: str) -> bool:
    """Whether ``word`` is ``base`` joined to another word (sun + light), not a
    longer word that begins as it does (mast: mastered)."""
    from lemminflect import getAllLemmas

    rest = word[len(base) :]
    return len(base) >= 3 and word.startswith(base) and len(rest) >= 3 and bool(getAllLemmas(rest))


def related(base: str, derived: str, facts: WordNetFacts) -> bool:
    """Whether WordNet relates ``derived`` to ``base``: a derivation link between
    any forms of the two, or a definition of one naming the other (a word of
    ``derived``'s definition may also be a compound of ``base``: sunless
    "without sunlight").  The base's forms include those of the words WordNet derives it
    from or to that start as it does (baker: bake, baked)."""
    base_forms, derived_forms = _forms(base), _forms(derived)
    # and the base's own derivational kin (baker -> bake: a bakery makes "baked goods")
    base_forms |= {f for kin in _kin(base_forms, facts) for f in _forms(kin)}
    if any(facts.links.get(form, frozenset()) & base_forms for form in derived_forms):
        return True
    said = facts.definitions.get(derived, frozenset()) - derived_forms
    # a definition word beginning with the word itself (punish: "punishment") says
    # nothing of the base (pun)
    said = frozenset(w for w in said if not w.startswith(derived))
    if said & base_forms or any(_compound_of(w, base) for w in said):
        return True
    return bool(facts.definitions.get(base, frozenset()) & derived_forms)


def _checked(base: str, derived: str, suffixes: Sequence[str]) -> bool:
    """Whether every way ``derived`` is ``base`` + a suffix is one WordNet is asked about."""
    from voice_host.deck.family import _spellings

    ways = [s for s in suffixes if derived in _spellings(base, s)]
    if ways and set(ways) <= AGENT_ENDINGS:
        return not _may_be_agent(base, derived)
    if not ways or any(s not in CHECKED_SUFFIXES for s in ways):
        return False
    if base.endswith(LATINATE_BASE_ENDINGS) and set(ways) <= {"al", "ical"}:
        return False
    if ways == ["ish"]:
        from voice_host.deck.family import _only_describes

        return not _only_describes(derived)  # greenish, foolish; not vanish, polish
    return True


def _may_be_agent(base: str, derived: str) -> bool:
    """Whether ``derived`` (base + -er) may be one who does ``base``: the base is
    a verb, and ``derived`` is not far commoner than its -ing form (matter is
    no mat-er, summer no sum-er: the family's :data:`AGENT_EXCESS_ZIPF` rule)."""
    from lemminflect import getAllLemmas
    from wordfreq import zipf_frequency

    from voice_host.deck.family import AGENT_EXCESS_ZIPF, _spellings

    if "VERB" not in getAllLemmas(base):
        return False  # ladder, master, pester: no verb "lad", "mast", "pest"
    doing = max((zipf_frequency(w, "en") for w in _spellings(base, "ing")), default=0.0)
    return zipf_frequency(derived, "en") - doing <= AGENT_EXCESS_ZIPF


def unrelated_lookalikes(facts: WordNetFacts) -> dict[str, set[str]]:
    """Base -> words spelled base + a checked suffix that WordNet does not relate to it."""
    from voice_host.deck.family import SUFFIXES, _spellings

    out: dict[str, set[str]] = {}
    for base in sorted(facts.words):
        if len(base) < 3:
            continue
        for suffix in sorted(CHECKED_SUFFIXES | AGENT_ENDINGS):
            for derived in _spellings(base, suffix):
                if (
                    derived != base
                    and derived in facts.words
                    and derived not in _forms(base)  # fresher is fresh's own form
                    and _checked(base, derived, SUFFIXES)
                    and not related(base, derived, facts)
                ):
                    out.setdefault(base, set()).add(derived)
    return out


def write_word_lists(pairs: Mapping[str, Iterable[str]], path: Path, what: str) -> None:
    """Write a kept list (gzip, with WordNet's licence notice; reproducible bytes):
    ``word: word word`` per line under a header saying ``what`` it holds."""
    lines = [f"{base}: {' '.join(sorted(pairs[base]))}\n" for base in sorted(pairs) if pairs[base]]
    header = f"# Derived from WordNet 3.0 by voice_host.deck.wordnet: {what}.\n"
    data = (header + LICENCE + "".join(lines)).encode("utf-8")
    path.write_bytes(gzip.compress(data, mtime=0))


def parse_word_lists(text: str, source: str = "WordNet list") -> dict[str, frozenset[str]]:
    """Parse a kept list's text; raises :class:`InputFileError` on a bad line."""
    out: dict[str, frozenset[str]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        base, colon, rest = line.partition(":")
        if not colon or not re.fullmatch(r"[a-z]+", base) or not rest.split():
            raise InputFileError(f"{source}: line {number}: expected 'word: word word'")
        out[base] = frozenset(rest.split())
    return out


def _read_kept(path: Path) -> Mapping[str, frozenset[str]]:
    try:
        text = gzip.decompress(path.read_bytes()).decode("utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise InputFileError(f"{path}: unreadable ({exc})") from None
    return parse_word_lists(text, str(path))


@functools.cache
def bundled_lookalikes() -> Mapping[str, frozenset[str]]:
    """The kept look-alike list shipped with the package (empty if the file is absent)."""
    return _read_kept(LOOKALIKES_PATH)


@functools.cache
def bundled_kin() -> Mapping[str, frozenset[str]]:
    """The kept kin list shipped with the package (empty if the file is absent)."""
    return _read_kept(KIN_PATH)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m voice_host.deck.wordnet [WORDNET_FOLDER]``: remake the kept lists."""
    args = list(sys.argv[1:] if argv is None else argv)
    folder = Path(args[0]) if args else Path("/usr/share/wordnet")
    try:
        facts = read_wordnet(folder)
    except InputFileError as exc:
        print(f"error: {exc} (apt-get install wordnet-base)", file=sys.stderr)
        return 1
    pairs = unrelated_lookalikes(facts)
    write_word_lists(pairs, LOOKALIKES_PATH, LOOKALIKES_WHAT)
    count = sum(len(v) for v in pairs.values())
    print(f"{LOOKALIKES_PATH}: {count} look-alikes of {len(pairs)} words")
    write_word_lists(facts.kin, KIN_PATH, KIN_WHAT)
    count = sum(len(v) for v in facts.kin.values())
    print(f"{KIN_PATH}: {count} kin of {len(facts.kin)} words")
    return 0


if __name__ == "__main__":
    sys.exit(main())
