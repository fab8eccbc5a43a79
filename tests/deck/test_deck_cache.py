"""A text deck's build kept for next time (:mod:`voice_host.deck.cache`): a 900-card
deck took 40 s of silence at every start of a game (session 60's audit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.deck.test_loader import GOOD_CARD, OTHER_CARD, write
from voice_host.deck.cache import cache_path, deck_cache_folder
from voice_host.deck.loader import NOTE_CARDS, load_deck, load_players_deck
from voice_host.deck.model import Deck


def _load(path: Path, keep: Path) -> tuple[Deck, list[int]]:
    built: list[int] = []
    return load_deck(path, keep=keep, building=built.append), built


def test_a_text_deck_is_worked_out_once_and_kept(tmp_path: Path) -> None:
    deck_file = write(tmp_path, GOOD_CARD + "\n" + OTHER_CARD)
    keep = tmp_path / "cache"
    first, built = _load(deck_file, keep)
    assert built == [2]  # told before the work, with the number of cards
    assert [p.suffixes for p in keep.iterdir()] == [[".json", ".gz"]]  # no temporary left
    again, built = _load(deck_file, keep)
    assert built == []  # read from the cache: nothing worked out
    assert again == first == load_deck(deck_file)  # the same deck as a fresh build


def test_an_edited_deck_is_worked_out_again(tmp_path: Path) -> None:
    deck_file = write(tmp_path, GOOD_CARD)
    keep = tmp_path / "cache"
    _load(deck_file, keep)
    write(tmp_path, OTHER_CARD)
    deck, built = _load(deck_file, keep)
    assert built == [1]
    assert deck.cards[0].entry("Object").text == "Kettle"


def test_the_same_deck_under_another_name_has_that_name(tmp_path: Path) -> None:
    keep = tmp_path / "cache"
    _load(write(tmp_path, GOOD_CARD, "party.txt"), keep)
    deck, built = _load(write(tmp_path, GOOD_CARD, "copy.txt"), keep)
    assert built == []
    assert deck.name == "copy.txt"


def test_a_damaged_kept_build_is_worked_out_again_and_replaced(tmp_path: Path) -> None:
    deck_file = write(tmp_path, GOOD_CARD)
    keep = tmp_path / "cache"
    first, _ = _load(deck_file, keep)
    kept = cache_path(deck_file.read_bytes(), keep)
    kept.write_bytes(kept.read_bytes()[:40])  # cut short: a disk error, a killed copy
    deck, built = _load(deck_file, keep)
    assert built == [1] and deck == first
    assert _load(deck_file, keep)[1] == []  # the good build is kept again


def test_a_cache_that_cannot_be_written_still_loads_the_deck(tmp_path: Path) -> None:
    deck_file = write(tmp_path, GOOD_CARD)
    blocked = tmp_path / "file-in-the-way"
    blocked.write_text("not a folder")
    deck, built = _load(deck_file, blocked / "decks")
    assert built == [1] and deck == load_deck(deck_file)


def test_a_built_deck_is_read_as_it_is_never_kept(tmp_path: Path) -> None:
    deck_file = write(tmp_path, GOOD_CARD)
    keep = tmp_path / "cache"
    built_file = tmp_path / "deck.json"
    from voice_host.deck.built_format import dump_deck

    built_file.write_bytes(dump_deck(load_deck(deck_file), compress=False))
    _, built = _load(built_file, keep)
    assert built == [] and not keep.exists()


@pytest.mark.parametrize(
    ("env", "folder"),
    [
        ({"XDG_CACHE_HOME": "/var/c", "HOME": "/home/ann"}, "/var/c/voice-host/decks"),
        ({"XDG_CACHE_HOME": "relative", "HOME": "/home/ann"}, "/home/ann/.cache/voice-host/decks"),
        ({"HOME": "/home/ann"}, "/home/ann/.cache/voice-host/decks"),
        ({}, None),  # nowhere named: nothing is kept
    ],
)
def test_the_cache_folder_follows_xdg(env: dict[str, str], folder: str | None) -> None:
    assert deck_cache_folder(env) == (None if folder is None else Path(folder))


def _cards(count: int) -> str:
    """``count`` cards of made-up words (each entry unique in its field)."""
    fields = ("object", "nature", "random", "person", "action", "world", "control")
    return "\n".join(
        "".join(f"{field}: {field} number {n} zub{n}\n" for field in fields) for n in range(count)
    )


def test_the_players_deck_prints_a_note_only_while_it_is_worked_out(tmp_path: Path) -> None:
    deck_file = write(tmp_path, _cards(NOTE_CARDS), "party.txt")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    notes: list[str] = []
    load_players_deck(deck_file, env, notes.append)
    assert notes == [
        f"Working out the words of the {NOTE_CARDS} cards in party.txt: this takes a moment, "
        "once (it is kept for next time)."
    ]
    load_players_deck(deck_file, env, notes.append)
    assert len(notes) == 1  # kept: nothing to wait for
    small = write(tmp_path, _cards(NOTE_CARDS - 1), "small.txt")
    load_players_deck(small, env, notes.append)
    assert len(notes) == 1  # under a second's work: no note
