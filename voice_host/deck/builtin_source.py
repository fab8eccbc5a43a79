"""The built-in deck's source: ``voice_host/deck/source/``.

- ``words/<field>.txt`` for each of object, nature, random, person, action,
  world, control: UTF-8, one entry per line, ``#`` comment lines and blank
  lines ignored; card N takes the Nth entry line of every file, so each file
  holds exactly :data:`BUILTIN_CARDS` entries.
- ``exceptions.txt``: the reviewed look-alike list (see
  :meth:`~voice_host.deck.family.FormExceptions.parse`).
- ``overrides.txt`` (optional): per-entry corrections, one per line:
  ``Field | Entry text | key | value, value  # reason`` where key is one of
  answers, not-answers, forms, not-forms.
"""

from __future__ import annotations

from pathlib import Path

from voice_host.deck.knowledge import EntryOverrides, EntrySpec
from voice_host.deck.model import CARD_FIELDS
from voice_host.deck.problems import DeckProblem
from voice_host.deck.text_format import (
    OVERRIDE_KEYS,
    CardSource,
    decode_lines,
    duplicate_problems,
    read_bytes,
)

#: Where the built-in deck's source lives.
SOURCE_DIR = Path(__file__).with_name("source")
#: How many cards the built-in deck has (as the boxed game).
BUILTIN_CARDS = 500


def words_path(source_dir: Path, card_field: str) -> Path:
    """The word list file of one card field."""
    return source_dir / "words" / f"{card_field.lower()}.txt"


def _read_overrides(
    path: Path,
) -> tuple[dict[tuple[str, str], dict[str, tuple[str, ...]]], list[DeckProblem]]:
    out: dict[tuple[str, str], dict[str, tuple[str, ...]]] = {}
    if not path.exists():
        return out, []
    data, problems = read_bytes(path)
    if data is None:
        return out, problems
    lines, problems = decode_lines(data, str(path))
    by_name = {f.lower(): f for f in CARD_FIELDS}
    for number, line in enumerate(lines, start=1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        parts = [p.strip() for p in body.split("|")]
        if (
            len(parts) != 4
            or parts[0].lower() not in by_name
            or parts[2].lower() not in OVERRIDE_KEYS
            or "#" not in line
        ):
            problems.append(
                DeckProblem(
                    str(path),
                    "expected 'Field | Entry text | answers/not-answers/forms/not-forms | "
                    "a, b  # reason'",
                    line=number,
                )
            )
            continue
        key = (by_name[parts[0].lower()], parts[1].casefold())
        values = tuple(v.strip() for v in parts[3].split(",") if v.strip())
        out.setdefault(key, {})[parts[2].lower()] = values
    return out, problems


def read_builtin_source(
    source_dir: Path = SOURCE_DIR, expected_cards: int | None = BUILTIN_CARDS
) -> tuple[list[CardSource], list[DeckProblem]]:
    """Read the seven word lists (and overrides) into cards, with every problem found."""
    problems: list[DeckProblem] = []
    columns: dict[str, list[tuple[int, str]]] = {}
    for card_field in CARD_FIELDS:
        path = words_path(source_dir, card_field)
        data, _read_problems = read_bytes(path)
        if data is None:
            problems.append(
                DeckProblem(str(path), "missing category: no word list", field=card_field)
            )
            continue
        lines, decode_problems = decode_lines(data, str(path))
        problems.extend(decode_problems)
        entries = [
            (number, line.strip())
            for number, line in enumerate(lines, start=1)
            if line.strip() and not line.lstrip().startswith("#")
        ]
        if expected_cards is not None and len(entries) != expected_cards:
            problems.append(
                DeckProblem(
                    str(path),
                    f"wrong count: {len(entries)} entries, expected {expected_cards}",
                    field=card_field,
                )
            )
        columns[card_field] = entries
    overrides, override_problems = _read_overrides(source_dir / "overrides.txt")
    problems.extend(override_problems)
    count = max((len(c) for c in columns.values()), default=0)
    cards: list[CardSource] = []
    for index in range(count):
        specs: dict[str, EntrySpec] = {}
        where: dict[str, int] = {}
        for card_field, entries in columns.items():
            if index >= len(entries):
                continue
            number, text = entries[index]
            opts = overrides.get((card_field, text.casefold()), {})
            specs[card_field] = EntrySpec(
                text,
                card_field,
                EntryOverrides(
                    answers=opts.get("answers", ()),
                    not_answers=opts.get("not-answers", ()),
                    forms=opts.get("forms", ()),
                    not_forms=opts.get("not-forms", ()),
                ),
            )
            where[card_field] = number
        cards.append(CardSource(index + 1, specs, where))
    # A duplicate names the word list it is in, not the folder.
    for card_field in CARD_FIELDS:
        column = [
            CardSource(c.number, {card_field: c.entries[card_field]}, c.lines)
            for c in cards
            if card_field in c.entries
        ]
        problems.extend(duplicate_problems(column, str(words_path(source_dir, card_field))))
    return cards, problems
