"""Loading and validating decks: every defect gets one clear error naming file, card and field."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from tests.deck.conftest import DATA
from voice_host.deck.built_format import dump_deck
from voice_host.deck.loader import check_deck, load_deck
from voice_host.deck.model import CARD_FIELDS
from voice_host.deck.problems import DeckError
from voice_host.errors import InputFileError

GOOD_CARD = """object: Teapot
nature: Kangaroo
random: Birthday
person: Albert Einstein
action: Swimming
world: Eiffel Tower
control: Banana
"""
OTHER_CARD = (
    GOOD_CARD.replace("Teapot", "Kettle")
    .replace("Kangaroo", "Koala")
    .replace("Birthday", "Picnic")
    .replace("Albert Einstein", "Isaac Newton")
    .replace("Swimming", "Skiing")
    .replace("Eiffel Tower", "Big Ben")
    .replace("Banana", "Wobble")
)


def write(tmp_path: Path, data: bytes | str, name: str = "deck.txt") -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def test_good_text_deck_loads_with_word_knowledge() -> None:
    deck = load_deck(DATA / "good_deck.txt")
    assert len(deck) == 2
    assert deck.card(0).number == 1
    assert deck.card(1).entry("Object").text == "Umbrella"
    assert "brolly" in deck.card(1).entry("Object").answers
    assert "holmes" not in deck.card(1).entry("Person").answers
    assert "kangaroos" in deck.card(0).entry("Nature").forms


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        # duplicate within a category: named at the second card
        (
            GOOD_CARD
            + "\n"
            + GOOD_CARD.replace("Teapot", "Kettle")
            .replace("Kangaroo", "Koala")
            .replace("Birthday", "Picnic")
            .replace("Albert Einstein", "Isaac Newton")
            .replace("Swimming", "Skiing")
            .replace("Banana", "Wobble"),
            [("card 2", "World", "duplicate: 'Eiffel Tower' is already card 1's World")],
        ),
        # missing category
        (GOOD_CARD.replace("world: Eiffel Tower\n", ""), [("card 1", "World", "missing category")]),
        # empty entry
        (GOOD_CARD.replace("Banana", ""), [("card 1", "Control", "empty entry")]),
        # an entry of punctuation only: nothing to describe or guess
        (GOOD_CARD.replace("Banana", "???"), [("card 1", "Control", "no word in the entry")]),
        # "&" alone: its answer was "and", which nearly every guess and clue holds
        (GOOD_CARD.replace("Banana", "& &"), [("card 1", "Control", "no word in the entry")]),
        # letters of another alphabet only: the answers would be empty, no guess could count
        (GOOD_CARD.replace("Banana", "Ω"), [("card 1", "Control", "no word in the entry")]),
        (GOOD_CARD.replace("Teapot", "東京"), [("card 1", "Object", "no letter of the English")]),
        # unknown field
        (GOOD_CARD + "colour: red\n", [("card 1", "colour", "unknown field 'colour'")]),
        # unknown correction key
        (GOOD_CARD + "object.hints: tea\n", [("card 1", "object.hints", "unknown field")]),
        # a line with no field name
        (GOOD_CARD + "just some words\n", [("card 1", "line 8", "expected 'field: entry'")]),
        # the same field twice in a card
        (GOOD_CARD + "object: Kettle\n", [("card 1", "Object", "field given twice")]),
        # the same correction twice: the second used to replace the first unsaid
        (
            GOOD_CARD + "object.answers: tea pot\nobject.answers: pot\n",
            [("card 1", "line 9: object.answers", "correction given twice (first on line 8)")],
        ),
        # no cards at all
        ("# only a comment\n", [("deck.txt", "", "wrong count: the deck has no cards")]),
        # corrections that cannot take effect are said, not silently ignored
        (
            GOOD_CARD + "person.not-answers: albert einstein\n",
            [("card 1", "line 8: person.not-answers", "'albert einstein' is the entry itself")],
        ),
        (
            GOOD_CARD + "world.not-forms: tower\n",
            [("card 1", "line 8: world.not-forms", "'tower' is a word of the entry")],
        ),
        (
            GOOD_CARD + "object.answers: kettle\nobject.not-answers: Kettle\n",
            [("card 1", "line 9: object.not-answers", "'kettle' is also in answers")],
        ),
        # a NUL inside an entry (it would be printed raw): the line and field are named
        (
            GOOD_CARD.replace("Teapot", "Tea\x00pot"),
            [("card 1", "line 1: Object", "control character U+0000")],
        ),
        # ... an escape in a correction, and a lone carriage return in an entry
        (
            GOOD_CARD + "object.answers: tea\x1b[31mpot\n",
            [("card 1", "line 8: object.answers", "control character U+001B")],
        ),
        (
            GOOD_CARD.replace("Banana", "Ban\rana"),
            [("card 1", "line 7: Control", "control character U+000D")],
        ),
        # a direction override printed the rest of the card's line backwards
        (
            GOOD_CARD.replace("Teapot", "Tea\u202epot"),
            [("card 1", "line 1: Object", "text-direction control U+202E")],
        ),
        # a correction list of only commas, or empty: no answer is no correction
        (
            GOOD_CARD + "object.answers: ,,,\n",
            [("card 1", "object.answers", "empty answers list")],
        ),
        (GOOD_CARD + "object.forms:\n", [("card 1", "object.forms", "empty forms list")]),
        # ... an empty item among others, and an item of punctuation only
        (
            GOOD_CARD + "nature.answers: roo,,joey\n",
            [("card 1", "line 8: nature.answers", "empty item in the answers list")],
        ),
        (
            GOOD_CARD + "person.not-answers: ??\n",
            [("card 1", "person.not-answers", "no word in '??'")],
        ),
        # an entry or correction far longer than a card's word (a file without line
        # breaks): working out the sounds of a word of millions of letters took hours
        (
            GOOD_CARD.replace("Teapot", "a" * 101),
            [("card 1", "line 1: Object", "entry too long (101 characters; at most 100)")],
        ),
        (
            GOOD_CARD + "object.answers: pot, " + "b" * 200 + "\n",
            [("card 1", "object.answers", "item of the answers list too long (200 characters")],
        ),
        # two defects in one file: two errors
        (
            GOOD_CARD.replace("Banana", "") + "\n" + OTHER_CARD.replace("nature: Koala\n", ""),
            [("card 1", "Control", "empty entry"), ("card 2", "Nature", "missing category")],
        ),
    ],
)
def test_each_defect_gives_one_clear_error(
    tmp_path: Path, content: str, expected: list[tuple[str, str, str]]
) -> None:
    path = write(tmp_path, content)
    with pytest.raises(DeckError) as caught:
        load_deck(path)
    problems = [str(p) for p in caught.value.problems]
    assert len(problems) == len(expected), problems
    for text, (card, field, message) in zip(problems, expected, strict=True):
        assert text.startswith(str(path))
        assert card in text and field in text and message in text
    assert isinstance(caught.value, InputFileError)


def test_bad_encoding_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD_CARD.encode("utf-8").replace(b"Teapot", b"Tea\xffpot"))
    _count, problems = check_deck(path)
    assert [str(p) for p in problems] == [
        f"{path}: line 1: bad encoding: not UTF-8 (byte 0xff at column 12)"
    ]


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="cannot read"):
        load_deck(tmp_path / "nope.txt")


def test_built_deck_round_trip(tmp_path: Path) -> None:
    deck = load_deck(DATA / "good_deck.txt")
    path = write(tmp_path, dump_deck(deck, compress=True), "deck.json.gz")
    again = load_deck(path)
    for a, b in zip(deck.cards, again.cards, strict=True):
        for field in CARD_FIELDS:
            assert a.entry(field).answers == b.entry(field).answers
            assert a.entry(field).forms == b.entry(field).forms
            assert a.entry(field).pronunciations == b.entry(field).pronunciations
            assert a.entry(field).generated == b.entry(field).generated


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        # an entry's text emptied
        (lambda s: s.replace('"text": "Teapot"', '"text": ""'), "card 1: Object: empty entry"),
        # ... or punctuation only
        (
            lambda s: s.replace('"text": "Teapot"', '"text": "--"'),
            "card 1: Object: no word in the entry",
        ),
        # ... or far longer than a card (as a text deck's entry may not be)
        (
            lambda s: s.replace('"text": "Teapot"', '"text": "' + "a" * 101 + '"'),
            "card 1: Object: entry too long (101 characters; at most 100)",
        ),
        # a card field renamed to an unknown one
        (
            lambda s: s.replace('"answers": [\n"teapot"', '"hints": [],\n"answers": [\n"teapot"'),
            "card 1: Object: unknown field 'hints'",
        ),
        # a second card's entry copies the first
        (
            lambda s: s.replace('"text": "Umbrella"', '"text": "Teapot"'),
            "card 2: Object: duplicate",
        ),
        # an empty answer or form: no word to listen for
        (
            lambda s: s.replace('"answers": [\n"teapot"', '"answers": [\n"",\n"teapot"'),
            "card 1: Object: empty answer in the answers list",
        ),
        (
            lambda s: s.replace('"forms": [\n"teapot"', '"forms": [\n" ",\n"teapot"'),
            "card 1: Object: empty form in the forms list",
        ),
        # no answers at all: the build always writes the entry itself, so this is
        # said, not "must be lists of text"
        (
            lambda s: re.sub(r'"answers": \[\n"teapot"[^\]]*\]', '"answers": []', s),
            "card 1: Object: no answers (a built entry's answers hold at least the entry itself)",
        ),
        # a control character in the text or an answer
        (
            lambda s: s.replace('"text": "Teapot"', '"text": "Tea\\u0000pot"'),
            "card 1: Object: control character U+0000",
        ),
        (
            lambda s: s.replace('"answers": [\n"teapot"', '"answers": [\n"tea\\u001bpot"'),
            "card 1: Object: control character U+001B (a card holds printable text only)"
            " in the answer 'tea\\x1bpot'",
        ),
        # broken JSON: the line is named
        (lambda s: s.replace('"cards": [', '"cards": [[', 1), "not valid JSON"),
        # nested beyond Python's recursion limit: a problem, not a traceback
        (lambda s: "[" * 100_000 + "]" * 100_000, "nested far too deeply"),
        # a number past Python's 4,300-digit limit on reading one: a problem, not a
        # traceback (session 54's audit)
        (
            lambda s: s.replace('"cards": [', '"size": ' + "9" * 5000 + ', "cards": [', 1),
            "not valid JSON: a number far too long",
        ),
        # a phone the recogniser does not know
        (lambda s: s.replace('"T IY P AA T"', '"T IY P Q T"'), "bad pronunciation for 'teapot'"),
    ],
)
def test_built_deck_defects(tmp_path: Path, mangle: object, message: str) -> None:
    deck = load_deck(DATA / "good_deck.txt")
    text = dump_deck(deck, compress=False).decode("utf-8")
    assert callable(mangle)
    changed = mangle(text)
    assert changed != text
    path = write(tmp_path, changed, "deck.json")
    _, problems = check_deck(path)
    assert any(message in str(p) for p in problems), problems


def test_gzip_and_plain_built_files_are_equivalent(tmp_path: Path) -> None:
    deck = load_deck(DATA / "good_deck.txt")
    plain = dump_deck(deck, compress=False)
    assert gzip.decompress(dump_deck(deck, compress=True)) == plain


def test_a_json_gz_that_is_not_gzip_says_so(tmp_path: Path) -> None:
    path = write(tmp_path, b"\x00\x01 not a deck at all", "deck.json.gz")
    _, problems = check_deck(path)
    assert [str(p) for p in problems] == [
        f"{path}: not gzip data (a .json.gz deck is gzip-compressed JSON)"
    ]
    # plain JSON, hand edited, under its .json.gz name: its JSON error, and what it is
    path = write(tmp_path, "{ not json", "other.json.gz")
    _, problems = check_deck(path)
    assert [str(p) for p in problems] == [
        f"{path}: line 1: not valid JSON: Expecting property name enclosed in double quotes"
        " (plain JSON, not gzip: the name may end in .json)"
    ]
    # plain JSON named .json.gz (a browser unpacked the download) still loads
    plain = dump_deck(load_deck(DATA / "good_deck.txt"), compress=False)
    assert len(load_deck(write(tmp_path, plain, "unpacked.json.gz"))) == 2
    # and a broken plain .json is still said to be no JSON
    _, problems = check_deck(write(tmp_path, "{ not json", "deck.json"))
    assert "not valid JSON" in str(problems[0])


def test_problems_are_listed_in_the_files_order(tmp_path: Path) -> None:
    # checks made in passes listed line 14 before line 10 (session 54's audit)
    text = (
        GOOD_CARD
        + "object.answers: ,,\nrandom.not-answers: birthday\ncolour: red\n\n"
        + GOOD_CARD.replace("Teapot", "Kettle").replace("person: Albert Einstein\n", "")
    )
    _, problems = check_deck(write(tmp_path, text, "d.txt"))
    lines = [p.line for p in problems]
    assert len(lines) >= 4 and lines == sorted(lines), [str(p) for p in problems]


def test_a_tab_or_a_run_of_spaces_in_an_entry_is_one_space(tmp_path: Path) -> None:
    # "object:\tTea\tpot" kept its tab: the card read "Tea<tab>pot", and no typed or
    # spoken name found it (session 54's audit)
    path = write(tmp_path, GOOD_CARD.replace("object: Teapot", "object:\tTea\tpot"), "d.txt")
    deck = load_deck(path)
    assert deck.cards[0].entries["Object"].text == "Tea pot"
    path = write(tmp_path, GOOD_CARD.replace("object: Teapot", "object: Tea   pot "), "e.txt")
    assert load_deck(path).cards[0].entries["Object"].text == "Tea pot"


def test_a_json_gz_with_damaged_compressed_data_says_so(tmp_path: Path) -> None:
    # gzip's header intact, its deflate blocks garbled: zlib's own error, which
    # gzip does not turn into an OSError (it was a traceback; session 54's audit)
    packed = bytearray(dump_deck(load_deck(DATA / "good_deck.txt"), compress=True))
    packed[10:40] = bytes(range(30))
    path = write(tmp_path, bytes(packed), "deck.json.gz")
    _, problems = check_deck(path)
    assert len(problems) == 1
    assert str(problems[0]).startswith(f"{path}: corrupt gzip data (")


def test_the_built_in_deck_passes_the_checks() -> None:
    from voice_host.deck.loader import BUILTIN_PATH

    count, problems = check_deck(BUILTIN_PATH)
    assert (count, problems) == (500, [])


@pytest.mark.parametrize(
    ("text", "sayable"),
    [
        ("Beyoncé", True),  # accents come off: "beyonce"
        ("Øresund", True),  # a letter Unicode does not decompose, spelt as English does
        ("Apollo 11", True),
        ("24", True),  # a number is said
        ("Ω", False),  # Greek only
        ("東京", False),  # Japanese only
        ("?!", False),
    ],
)
def test_an_entry_needs_a_letter_of_the_english_alphabet_or_a_digit(
    text: str, sayable: bool
) -> None:
    from voice_host.deck.problems import has_word

    assert has_word(text) is sayable


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        # Notepad's "Unicode": one line saying so, not a problem per line with NULs in it
        (
            "object: Teapot\n".encode("utf-16"),
            "deck.txt",
            "UTF-16 or UTF-32 text (Notepad's 'Unicode'): save it as UTF-8",
        ),
        # ... with no byte-order mark, and UTF-32
        (
            "object: Teapot\nnature: Koala\n".encode("utf-16-le"),
            "deck.txt",
            "UTF-16 or UTF-32 text (Notepad's 'Unicode'): save it as UTF-8",
        ),
        (
            "object: Teapot\n".encode("utf-32"),
            "deck.txt",
            "UTF-16 or UTF-32 text (Notepad's 'Unicode'): save it as UTF-8",
        ),
        # a built deck under a text deck's name
        (gzip.compress(b"{}"), "deck.txt", "gzip data: a built deck's name ends in .json.gz"),
        # bytes that are no text, without NULs: one line, not one per line
        ((bytes(range(128, 256)) + b"\n") * 21, "deck.txt", "not a text file (21 lines"),
        # a program, an image: one line, not a million
        (b"\x7fELF\x02\x01\x00\x00" * 1000, "deck.txt", "not a text file (it holds NUL bytes)"),
        # a program's first 300 bytes: its NULs in every lane were taken for UTF-16
        # (session 54's audit)
        (
            b"\x7fELF\x02\x01\x01\x00" + bytes(8) + b"\x03\x00\x3e\x00\x01\x00\x00\x00" * 18,
            "deck.txt",
            "not a text file (it holds NUL bytes)",
        ),
        # every byte value once: 21 problems, one a line (session 54's audit)
        (bytes(range(256)), "deck.txt", "not a text file (it holds control bytes)"),
    ],
)
def test_a_file_that_is_no_text_is_one_problem(
    tmp_path: Path, data: bytes, name: str, message: str
) -> None:
    path = write(tmp_path, data, name)
    _, problems = check_deck(path)
    assert len(problems) == 1 and str(problems[0]).startswith(f"{path}: {message}")


def test_a_pipe_or_device_is_refused_before_it_is_read(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "deck.txt"
    os.mkfifo(fifo)  # reading it would wait for a writer for ever
    _, problems = check_deck(fifo)
    assert [str(p) for p in problems] == [f"{fifo}: not a file (a pipe or a device)"]
    _, problems = check_deck(Path("/dev/zero"))  # it would never end
    assert [str(p) for p in problems] == ["/dev/zero: not a file (a pipe or a device)"]


def test_byte_order_marks_in_a_json_deck_and_in_joined_text_decks(tmp_path: Path) -> None:
    plain = dump_deck(load_deck(DATA / "good_deck.txt"), compress=False)
    assert len(load_deck(write(tmp_path, b"\xef\xbb\xbf" + plain, "bom.json"))) == 2
    text = (DATA / "good_deck.txt").read_bytes()
    first, second = text.split(b"\n\n", 1)
    joined = b"\xef\xbb\xbf" + first + b"\n\n\xef\xbb\xbf" + second  # two files joined
    assert len(load_deck(write(tmp_path, joined, "joined.txt"))) == 2


def test_a_correction_of_a_word_that_is_not_forbidden_is_no_problem(tmp_path: Path) -> None:
    # "you" of Thank you and "no" of No. 10 are not forbidden (a pronoun; "No." is said
    # "number"): allowing them is harmless, not "a word of the entry, always forbidden"
    text = GOOD_CARD.replace("Swimming", "Thank you").replace("Eiffel Tower", "No. 10 Downing St")
    path = write(tmp_path, text + "action.not-forms: you\nworld.not-forms: no\n")
    assert check_deck(path) == (1, [])


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Beyoncé", "Beyonce"),  # accents are not heard
        ("Marks & Spencer", "Marks and Spencer"),  # nor is "&" told from "and"
        ("101 Dalmatians", "One Hundred and One Dalmatians"),
    ],
)
def test_entries_said_alike_are_duplicates(tmp_path: Path, first: str, second: str) -> None:
    text = GOOD_CARD.replace("Albert Einstein", first) + "\n"
    text += OTHER_CARD.replace("Isaac Newton", second)
    _, problems = check_deck(write(tmp_path, text))
    assert [p.message for p in problems] == [f"duplicate: {second!r} is already card 1's Person"]


def test_an_invisible_character_is_no_word_break() -> None:
    # a zero-width space pasted into "Tea\u200bpot" shows as Teapot on the screen
    from voice_host.deck.knowledge import make_entry

    entry = make_entry("Tea\u200bpot", "Object")
    assert entry.answers[0] == "teapot" and "pot" not in entry.forms


def test_an_unknown_field_of_a_paragraph_is_named_by_its_start(tmp_path: Path) -> None:
    # the text before a colon on a line of some other file: it was printed whole, twice
    path = write(tmp_path, "x" * 100_000 + ": y\n" + GOOD_CARD)
    _count, problems = check_deck(path)
    assert [str(p) for p in problems] == [
        f"{path}: card 1: line 1: {'x' * 40}...: unknown field '{'x' * 40}...' (fields: "
        "object, nature, random, person, action, world, control; "
        "corrections: FIELD.answers/not-answers/forms/not-forms)"
    ]
