"""Reading deck sources: a player's deck file and the built-in deck's word lists.

Player deck format (UTF-8 text, ``.txt``)::

    # Lines starting with # are comments.  One card per block of lines;
    # blank lines separate cards.  Field names are not case-sensitive.
    object: Teapot
    nature: Kangaroo
    random: Birthday
    person: Albert Einstein
    action: Swimming
    world: Eiffel Tower
    control: Banana
    # Optional per-entry corrections, comma-separated:
    person.not-answers: einstein        # do not accept the surname alone
    object.answers: tea pot             # also accept this
    object.forms: teabag                # also forbid this
    object.not-forms: teammate          # never forbid this

Every card needs all seven fields, each non-empty, and no entry may repeat
within a category.  A correction's list names at least one item, and no item
is empty.  No line holds a control character (a tab is whitespace).  An entry,
and each item of a correction, is at most 100 characters.  Card N is
the Nth block.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from voice_host.deck.knowledge import EntryOverrides, EntrySpec, always_forbidden
from voice_host.deck.model import CARD_FIELDS
from voice_host.deck.problems import (
    MAX_ENTRY_CHARS,
    NO_WORD,
    DeckProblem,
    has_word,
    too_long,
    unprintable,
)
from voice_host.deck.words import normalise

#: Override keys, as written after the field name and a dot.
OVERRIDE_KEYS: tuple[str, ...] = ("answers", "not-answers", "forms", "not-forms")
_FIELD_BY_NAME = {f.lower(): f for f in CARD_FIELDS}


@dataclass(frozen=True)
class CardSource:
    """One card as read from a source, before word knowledge: field -> entry spec."""

    number: int
    entries: Mapping[str, EntrySpec]
    lines: Mapping[str, int] = field(default_factory=dict)
    """Field -> 1-based line it came from (0 if not from a line)."""


#: Unicode text in another encoding than UTF-8 (Notepad's "Unicode" is UTF-16).
_NOT_UTF8 = "UTF-16 or UTF-32 text (Notepad's 'Unicode')"
#: More lines than this that are not UTF-8: the file is no text at all.
MAX_ENCODING_PROBLEMS = 5


#: Bytes no text file holds (a tab, line ends and a form feed aside).
_CONTROL_BYTES = (*range(0, 9), 11, *range(14, 32), 127)


def _wide_text(data: bytes) -> bool:
    """Whether ``data`` looks like UTF-16 or UTF-32 without a byte-order mark: one lane
    of its bytes nearly all zeros where the others hold letters (English text in
    UTF-16 is every other byte zero; a program's NULs fall in every lane)."""
    for width in (2, 4):
        lanes = [data[i::width] for i in range(width)]
        n = len(lanes[-1])
        if n <= 4:
            continue
        zero = sorted(lane.count(0) / max(1, len(lane)) for lane in lanes)
        if zero[-(width - 1)] > 0.8 and zero[0] < 0.1:
            return True
    return False


def decode_lines(data: bytes, path: str) -> tuple[list[str], list[DeckProblem]]:
    """Split ``data`` into text lines; every line that is not UTF-8 is one problem."""
    problems: list[DeckProblem] = []
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or _wide_text(data):
        return [], [DeckProblem(path, f"{_NOT_UTF8}: save it as UTF-8")]
    if data.startswith(b"\x1f\x8b"):
        return [], [DeckProblem(path, "gzip data: a built deck's name ends in .json.gz")]
    if data.count(b"\0") > max(8, len(data) // 100):  # one stray NUL is named on its line
        return [], [DeckProblem(path, "not a text file (it holds NUL bytes)")]
    if sum(data.count(bytes([c])) for c in _CONTROL_BYTES) > max(8, len(data) // 100):
        # a binary file with few NULs was one problem a line, 21 for 256 bytes
        return [], [DeckProblem(path, "not a text file (it holds control bytes)")]
    data = data.replace(b"\xef\xbb\xbf", b"")  # a byte-order mark, or two in joined files
    lines: list[str] = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            lines.append(raw.decode("utf-8").rstrip("\r"))
        except UnicodeDecodeError as exc:
            bad = raw[exc.start : exc.start + 1].hex()
            problems.append(
                DeckProblem(
                    path,
                    f"bad encoding: not UTF-8 (byte 0x{bad} at column {exc.start + 1})",
                    line=number,
                )
            )
            lines.append(raw.decode("utf-8", errors="replace").rstrip("\r"))
    if len(problems) > MAX_ENCODING_PROBLEMS:  # an image, a program: one line says it
        return [], [DeckProblem(path, f"not a text file ({len(problems)} lines are not UTF-8)")]
    return lines, problems


#: The largest deck file read, bytes: the built-in deck's 3,500 entries take 0.25 MB
#: built and a text deck of them about 0.2 MB; a bigger file is no deck.
MAX_DECK_BYTES = 50_000_000


def read_bytes(path: Path) -> tuple[bytes | None, list[DeckProblem]]:
    """The file's bytes, or a problem saying why it cannot be read (also a pipe or a
    device, which would hang or never end, and a file too big to be a deck)."""
    try:
        if path.exists() and not path.is_dir() and not path.is_file():
            return None, [DeckProblem(str(path), "not a file (a pipe or a device)")]
        with path.open("rb") as file:
            data = file.read(MAX_DECK_BYTES + 1)
    except OSError as exc:
        return None, [DeckProblem(str(path), f"cannot read ({exc.strerror or exc})")]
    if len(data) > MAX_DECK_BYTES:
        size = f"over {MAX_DECK_BYTES // 1_000_000} MB"
        return None, [DeckProblem(str(path), f"too big to be a deck ({size})")]
    return data, []


def _strip_comment(line: str) -> str:
    # A comment starts a line, or follows whitespace ("teapot  # why"), so "C#" survives.
    if line.lstrip().startswith("#"):
        return ""
    return re.split(r"\s#", line, maxsplit=1)[0].strip()


def _split_list(value: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in value.split(",") if v.strip())


def list_problem(option: str, value: str) -> str | None:
    """What is wrong with a correction's comma-separated list, or None.  An empty
    answer or form is no correction (``answers: ,,`` once passed as none at
    all): each item holds a word; to correct nothing, leave the line out."""
    items = [v.strip() for v in value.split(",")]
    if not any(items):
        return f"empty {option} list (name at least one, or leave the line out)"
    if not all(items):
        return f"empty item in the {option} list (a comma too many?)"
    wordless = next((item for item in items if not has_word(item)), None)
    if wordless is not None:
        return f"no word in {wordless!r} (only punctuation, or no letter of the English alphabet)"
    longest = max(items, key=len)
    return too_long(longest, f"item of the {option} list")


def _field_named(name: str, card_field: str | None, dot: str) -> str:
    """The field a line names, as a problem shows it: the card field
    (``Object``), or the correction or unknown field as written."""
    return card_field if card_field is not None and not dot else _shown(name)


def _shown(name: str, limit: int = 40) -> str:
    """A field's name as written, cut to ``limit`` characters: the text before a
    colon on a line of some other file can be a whole paragraph."""
    name = name.strip()
    return name if len(name) <= limit else f"{name[:limit]}..."


def parse_player_deck(data: bytes, path: str) -> tuple[list[CardSource], list[DeckProblem]]:
    """Parse a player's deck file; return its cards and every problem found."""
    lines, problems = decode_lines(data, path)
    if problems and not lines:
        return [], problems  # no text at all (UTF-16, binary): the one problem says it
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            if current:
                blocks.append(current)
                current = []
            continue
        text = _strip_comment(line)
        if text:
            current.append((number, text))
    if current:
        blocks.append(current)
    if not blocks:
        problems.append(DeckProblem(path, "wrong count: the deck has no cards"))
    cards: list[CardSource] = []
    for card_number, block in enumerate(blocks, start=1):
        texts: dict[str, str] = {}
        where: dict[str, int] = {}
        extra: dict[str, dict[str, tuple[str, ...]]] = {}
        for number, text in block:
            name, colon, value = text.partition(":")
            key = name.strip().lower()
            # a tab counts as a space, and a run of spaces as one ("Tea<tab>pot" was kept
            # with its tab, and no typed name found it)
            value = " ".join(value.split())
            base, dot, option = key.partition(".")
            card_field = _FIELD_BY_NAME.get(base)
            raw_text = unprintable(text)
            if raw_text:
                problems.append(
                    DeckProblem(
                        path,
                        raw_text,
                        card=card_number,
                        field=_field_named(name, card_field, dot) if colon else None,
                        line=number,
                    )
                )
            if not colon:
                problems.append(
                    DeckProblem(path, "expected 'field: entry'", card=card_number, line=number)
                )
            elif card_field is None or (dot and option not in OVERRIDE_KEYS):
                known = ", ".join(f.lower() for f in CARD_FIELDS)
                problems.append(
                    DeckProblem(
                        path,
                        f"unknown field {_shown(name)!r} (fields: {known}; "
                        f"corrections: FIELD.{'/'.join(OVERRIDE_KEYS)})",
                        card=card_number,
                        field=_shown(name),
                        line=number,
                    )
                )
            elif dot:
                first = where.get(f"{card_field}.{option}")
                if first is not None:  # the second would silently replace the first
                    problems.append(
                        DeckProblem(
                            path,
                            f"correction given twice (first on line {first}): "
                            "put every item on one line",
                            card=card_number,
                            field=_shown(name),
                            line=number,
                        )
                    )
                where[f"{card_field}.{option}"] = number
                extra.setdefault(card_field, {})[option] = _split_list(value)
                wrong = list_problem(option, value)
                if wrong:
                    problems.append(
                        DeckProblem(path, wrong, card=card_number, field=_shown(name), line=number)
                    )
            elif card_field in texts:
                problems.append(
                    DeckProblem(
                        path,
                        f"field given twice (first on line {where[card_field]})",
                        card=card_number,
                        field=card_field,
                        line=number,
                    )
                )
            else:
                texts[card_field] = value
                where[card_field] = number
                if not value:
                    problems.append(
                        DeckProblem(
                            path, "empty entry", card=card_number, field=card_field, line=number
                        )
                    )
                elif wrong := too_long(value):
                    problems.append(
                        DeckProblem(path, wrong, card=card_number, field=card_field, line=number)
                    )
                    # the deck is refused: the checks after this need no million letters
                    texts[card_field] = value[:MAX_ENTRY_CHARS]
                elif not has_word(value):
                    problems.append(
                        DeckProblem(path, NO_WORD, card=card_number, field=card_field, line=number)
                    )
        for card_field in CARD_FIELDS:
            if card_field not in texts:
                problems.append(
                    DeckProblem(
                        path,
                        f"missing category (no '{card_field.lower()}:' line)",
                        card=card_number,
                        field=card_field,
                        line=block[0][0],
                    )
                )
        specs: dict[str, EntrySpec] = {}
        for card_field, value in texts.items():
            opts = extra.get(card_field, {})
            overrides = EntryOverrides(
                answers=opts.get("answers", ()),
                not_answers=opts.get("not-answers", ()),
                forms=opts.get("forms", ()),
                not_forms=opts.get("not-forms", ()),
            )
            specs[card_field] = EntrySpec(value, card_field, overrides)
            for option, problem in correction_conflicts(value, overrides):
                problems.append(
                    DeckProblem(
                        path,
                        problem,
                        card=card_number,
                        field=f"{card_field.lower()}.{option}",
                        line=where.get(f"{card_field}.{option}"),
                    )
                )
        cards.append(CardSource(card_number, specs, where))
    problems.extend(duplicate_problems(cards, path))
    return cards, problems


def correction_conflicts(text: str, overrides: EntryOverrides) -> list[tuple[str, str]]:
    """The corrections of the entry ``text`` that could not take effect, each as
    (the correction's key, the problem): one that refuses the entry itself as an
    answer, or one of its own printed words as a form (R11 forbids them always), and
    one item both added and refused."""
    out: list[tuple[str, str]] = []
    entry = normalise(text)
    for item in overrides.not_answers:
        if normalise(item) == entry:
            out.append(("not-answers", f"{item!r} is the entry itself, always an answer"))
    forced = always_forbidden(text)
    for item in overrides.not_forms:
        if normalise(item, spell_numbers=False) in forced:
            out.append(("not-forms", f"{item!r} is a word of the entry, always forbidden (R11)"))
    for kind, added, refused in (
        ("answers", overrides.answers, overrides.not_answers),
        ("forms", overrides.forms, overrides.not_forms),
    ):
        both = {normalise(a) for a in added} & {normalise(r) for r in refused}
        out.extend((f"not-{kind}", f"{w!r} is also in {kind}") for w in sorted(both))
    return out


def _key(text: str) -> str:
    """How entries are compared for duplicates: as the host hears them ("Beyoncé" and
    "Beyonce", "Marks & Spencer" and "Marks and Spencer" are one entry)."""
    return normalise(text) or " ".join(re.sub(r"[^\w\s]", " ", text.casefold()).split())


def duplicate_problems(cards: Sequence[CardSource], path: str) -> list[DeckProblem]:
    """One problem per entry that repeats an earlier entry of the same category."""
    problems: list[DeckProblem] = []
    for card_field in CARD_FIELDS:
        seen: dict[str, int] = {}
        for card in cards:
            spec = card.entries.get(card_field)
            if spec is None or not has_word(spec.text):
                continue
            key = _key(spec.text)
            if key in seen:
                problems.append(
                    DeckProblem(
                        path,
                        f"duplicate: {spec.text!r} is already card {seen[key]}'s {card_field}",
                        card=card.number,
                        field=card_field,
                        line=card.lines.get(card_field) or None,
                    )
                )
            else:
                seen[key] = card.number
    return problems
