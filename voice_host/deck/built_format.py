"""The built deck file: every entry with its word knowledge, ready to play.

A UTF-8 JSON document, gzip-compressed when the name ends in ``.gz``::

    {
      "format": "voice-host-deck",
      "version": 1,
      "name": "builtin",
      "fields": ["Object", "Nature", "Random", "Person", "Action", "World", "Control"],
      "cards": [                        # one list per card, entries in "fields" order
        [{"text": "Post", "answers": ["post", ...], "forms": ["postman", ...]}, ...],
        ...
      ],
      "pronunciations": {"post": "P OW S T", ...},   # every word of every answer and form
      "methods": {"postbox": "composed", ...}        # words not from the CMU dictionary
    }

Writing is deterministic (sorted keys, gzip time stamp 0): the same deck gives
the same bytes.
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from collections.abc import Mapping
from typing import Any, TypeGuard

from voice_host.deck.lexicon import PHONE_SET
from voice_host.deck.model import CARD_FIELDS, Card, Deck, Entry
from voice_host.deck.problems import NO_WORD, DeckProblem, has_word, too_long, unprintable

FORMAT = "voice-host-deck"
VERSION = 1
_ENTRY_KEYS = frozenset({"text", "answers", "forms"})


def deck_to_json(deck: Deck) -> dict[str, Any]:
    """The JSON document for ``deck``."""
    prons: dict[str, str] = {}
    cards: list[list[dict[str, Any]]] = []
    for card in deck.cards:
        row: list[dict[str, Any]] = []
        for card_field in CARD_FIELDS:
            entry = card.entry(card_field)
            row.append(
                {"text": entry.text, "answers": list(entry.answers), "forms": list(entry.forms)}
            )
            for word, phones in entry.pronunciations.items():
                prons[word] = " ".join(phones)
        cards.append(row)
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": deck.name,
        "fields": list(CARD_FIELDS),
        "cards": cards,
        "pronunciations": dict(sorted(prons.items())),
        "methods": dict(sorted(deck.methods.items())),
    }


def dump_deck(deck: Deck, *, compress: bool) -> bytes:
    """The bytes of a built deck file (deterministic)."""
    text = json.dumps(deck_to_json(deck), ensure_ascii=False, sort_keys=True, indent=0)
    data = text.encode("utf-8") + b"\n"
    if not compress:
        return data
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as gz:
        gz.write(data)
    return buffer.getvalue()


def _strings(value: object) -> TypeGuard[list[str]]:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _lists_problem(answers: object, forms: object) -> str | None:
    """What is wrong with an entry's answers and forms, or None.  The build always
    writes the entry itself as its first answer (a guesser saying the card word is
    right), so no answers at all is a damaged file; forms may be none.  No
    answer or form is empty, nor holds a control character."""
    if not _strings(answers) or not _strings(forms):
        return "answers and forms must be lists of text"
    if not answers:
        return "no answers (a built entry's answers hold at least the entry itself)"
    for kind, items in (("answer", answers), ("form", forms)):
        for item in items:
            if not item.strip():
                return f"empty {kind} in the {kind}s list"
            wrong = unprintable(item)
            if wrong:
                return f"{wrong} in the {kind} {item!r}"
    return None


def deck_from_json(
    doc: object, path: str, name: str | None = None
) -> tuple[Deck | None, list[DeckProblem]]:
    """Validate a parsed built-deck document and turn it into a :class:`Deck`."""
    problems: list[DeckProblem] = []
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        return None, [DeckProblem(path, f'not a built deck (no "format": "{FORMAT}")')]
    if doc.get("version") != VERSION:
        return None, [
            DeckProblem(path, f"deck format version {doc.get('version')!r}, expected {VERSION}")
        ]
    for key in sorted(
        set(doc) - {"format", "version", "name", "fields", "cards", "pronunciations", "methods"}
    ):
        problems.append(DeckProblem(path, f"unknown field {key!r}", field=key))
    fields = doc.get("fields")
    if fields != list(CARD_FIELDS):
        problems.append(
            DeckProblem(path, f"fields must be {list(CARD_FIELDS)}, got {fields!r}", field="fields")
        )
    raw_prons = doc.get("pronunciations")
    prons: dict[str, tuple[str, ...]] = {}
    if not isinstance(raw_prons, dict):
        problems.append(DeckProblem(path, "missing pronunciations", field="pronunciations"))
    else:
        for word, phones in raw_prons.items():
            split = tuple(phones.split()) if isinstance(phones, str) else ()
            if not split or not PHONE_SET.issuperset(split):
                problems.append(
                    DeckProblem(
                        path, f"bad pronunciation for {word!r}: {phones!r}", field="pronunciations"
                    )
                )
            prons[word] = split
    raw_methods = doc.get("methods", {})
    methods: Mapping[str, str] = raw_methods if isinstance(raw_methods, dict) else {}
    method_words = set(methods)
    raw_cards = doc.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        problems.append(DeckProblem(path, "wrong count: the deck has no cards", field="cards"))
        raw_cards = []
    cards: list[Card] = []
    seen: dict[str, dict[str, int]] = {f: {} for f in CARD_FIELDS}
    for index, row in enumerate(raw_cards):
        number = index + 1
        if not isinstance(row, list) or len(row) != len(CARD_FIELDS):
            problems.append(
                DeckProblem(
                    path, f"missing category: a card needs {len(CARD_FIELDS)} entries", card=number
                )
            )
            continue
        entries: dict[str, Entry] = {}
        for card_field, raw in zip(CARD_FIELDS, row, strict=True):
            if not isinstance(raw, dict):
                problems.append(
                    DeckProblem(path, "entry is not an object", card=number, field=card_field)
                )
                continue
            for key in sorted(set(raw) - _ENTRY_KEYS):
                problems.append(
                    DeckProblem(path, f"unknown field {key!r}", card=number, field=card_field)
                )
            text = raw.get("text")
            answers, forms = raw.get("answers", []), raw.get("forms", [])
            if not isinstance(text, str) or not text.strip():
                problems.append(DeckProblem(path, "empty entry", card=number, field=card_field))
                continue
            if not has_word(text):
                problems.append(DeckProblem(path, NO_WORD, card=number, field=card_field))
                continue
            wrong = too_long(text) or unprintable(text) or _lists_problem(answers, forms)
            if wrong:
                problems.append(DeckProblem(path, wrong, card=number, field=card_field))
                continue
            key = text.casefold()
            if key in seen[card_field]:
                first = seen[card_field][key]
                problems.append(
                    DeckProblem(
                        path,
                        f"duplicate: {text!r} is already card {first}'s {card_field}",
                        card=number,
                        field=card_field,
                    )
                )
            seen[card_field].setdefault(key, number)
            words = set(forms)  # forms are single words, save the odd phrase
            for phrase in (*answers, *(f for f in forms if " " in f)):
                words.discard(phrase)
                words.update(phrase.split())
            missing = sorted(w for w in words if w not in prons)
            if missing:
                problems.append(
                    DeckProblem(
                        path,
                        f"no pronunciation for {', '.join(missing)}",
                        card=number,
                        field=card_field,
                    )
                )
            entries[card_field] = Entry(
                text=text,
                category=card_field,
                answers=tuple(answers),
                forms=tuple(forms),
                pronunciations={w: prons[w] for w in words if w in prons},
                generated=tuple(sorted(words & method_words)),
            )
        cards.append(Card(number, entries))
    if problems:
        return None, problems
    deck_name = name if name is not None else str(doc.get("name") or path)
    return Deck(deck_name, tuple(cards), dict(methods)), []


#: The first two bytes of every gzip file.
GZIP_MAGIC = b"\x1f\x8b"
#: The problem of a ``.json.gz`` deck that is neither gzip nor plain JSON.
NOT_GZIP = "not gzip data (a .json.gz deck is gzip-compressed JSON)"


def parse_built(data: bytes, path: str) -> tuple[Deck | None, list[DeckProblem]]:
    """Parse the bytes of a built deck file (gzip or plain JSON).

    A ``.json.gz`` that is plain JSON is read as such (a browser may unpack a
    download and keep its name); one that is neither is said to be no gzip,
    rather than no JSON."""
    gzipped = data[:2] == GZIP_MAGIC
    if gzipped:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            return None, [DeckProblem(path, f"corrupt gzip data ({exc})")]
    named_gzip = path.endswith(".gz") and not gzipped
    try:
        text = data.decode("utf-8-sig")  # with or without a byte-order mark
    except UnicodeDecodeError as exc:
        if named_gzip:
            return None, [DeckProblem(path, NOT_GZIP)]
        line = data[: exc.start].count(b"\n") + 1
        return None, [DeckProblem(path, "bad encoding: not UTF-8", line=line)]
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        if named_gzip and not text.lstrip().startswith(("{", "[")):
            return None, [DeckProblem(path, NOT_GZIP)]
        plain = " (plain JSON, not gzip: the name may end in .json)" if named_gzip else ""
        return None, [DeckProblem(path, f"not valid JSON: {exc.msg}{plain}", line=exc.lineno)]
    except RecursionError:
        return None, [DeckProblem(path, "not a deck: its JSON is nested far too deeply")]
    except ValueError:  # a number of thousands of digits, past Python's limit
        return None, [DeckProblem(path, "not valid JSON: a number far too long")]
    return deck_from_json(doc, path)
