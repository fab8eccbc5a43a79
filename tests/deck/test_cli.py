"""`voice-host deck check|stats|build` as a user runs them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.deck.conftest import DATA
from voice_host.cli import main
from voice_host.deck.loader import load_deck


def test_check_good_text_deck(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "check", str(DATA / "good_deck.txt")]) == 0
    assert capsys.readouterr().out.strip().endswith("good_deck.txt: ok (2 cards)")


def bad_deck(folder: Path) -> Path:
    """The good deck with three problems: an empty entry, a missing category, a duplicate."""
    text = (DATA / "good_deck.txt").read_text(encoding="utf-8")
    bad = text.replace("Banana", "").replace("world: Japan\n", "").replace("Umbrella", "Teapot")
    path = folder / "bad.txt"
    path.write_text(bad, encoding="utf-8")
    return path


def test_check_bad_deck_lists_every_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = bad_deck(tmp_path)
    assert main(["deck", "check", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    # Every problem on its own line, then the one-line error.
    assert len(err) == 4
    assert err[-1] == f"voice-host: 3 problems in deck {path}"
    assert any("card 1: line 8: Control: empty entry" in line for line in err)
    assert any("card 2" in line and "World: missing category" in line for line in err)
    assert any("card 2" in line and "Object: duplicate" in line for line in err)
    assert "Traceback" not in "\n".join(err)


def test_stats_of_a_text_deck(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "stats", "--deck", str(DATA / "good_deck.txt")]) == 0
    out = capsys.readouterr().out
    assert "cards: 2" in out
    assert out.count(" 2     0     0 ") == 7  # 2 entries, none empty, no duplicates per field
    assert "made-up pronunciations" in out


def test_build_writes_where_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import voice_host.deck.build as build

    source = DATA / "sample_source"
    original = build.build_bytes
    monkeypatch.setattr(build, "build_bytes", lambda source_dir=source: original(source, 3))
    output = tmp_path / "deck.json.gz"
    assert main(["deck", "build", "--output", str(output)]) == 0
    assert "wrote" in capsys.readouterr().out
    assert main(["deck", "build", "--output", str(output)]) == 0
    assert "unchanged" in capsys.readouterr().out
    assert main(["deck", "check", str(output)]) == 0


def test_build_makes_a_built_deck_of_a_players_text_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the README offered "a built my_deck.json.gz", but nothing built one from a text
    # deck: deck build only rebuilt the built-in deck (session 54's audit)
    source = tmp_path / "my_deck.txt"
    source.write_bytes((DATA / "good_deck.txt").read_bytes())
    assert main(["deck", "build", str(source)]) == 0
    built = tmp_path / "my_deck.json.gz"
    assert capsys.readouterr().out == f"wrote {built}\n"
    assert built.read_bytes()[:2] == b"\x1f\x8b"  # gzip
    assert load_deck(built) == load_deck(source)  # the same cards, word knowledge and all
    plain = tmp_path / "plain.json"
    assert main(["deck", "build", str(source), "--output", str(plain)]) == 0
    assert plain.read_text(encoding="utf-8").lstrip().startswith("{")  # .json: plain JSON
    assert load_deck(plain) == load_deck(source)
    capsys.readouterr()
    source.write_text("object: Teapot\n", encoding="utf-8")  # a defect: listed, nothing written
    assert main(["deck", "build", str(source), "--output", str(tmp_path / "bad.json.gz")]) == 2
    assert not (tmp_path / "bad.json.gz").exists()


def test_a_plain_json_output_of_the_built_in_build_is_plain_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # --output b.json held gzip data (session 54's audit)
    import voice_host.deck.build as build

    source = DATA / "sample_source"
    original = build.build_bytes
    monkeypatch.setattr(build, "build_bytes", lambda source_dir=source: original(source, 3))
    output = tmp_path / "deck.json"
    assert main(["deck", "build", "--output", str(output)]) == 0
    assert output.read_bytes().lstrip().startswith(b"{")
    assert main(["deck", "check", "--deck", str(output)]) == 0  # --deck, as stats takes it


def test_the_module_entry_point_takes_the_commands_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # python -m voice_host.deck.build --help ran the build (and could overwrite the
    # package data) instead of printing help
    import voice_host.deck.build as build

    with pytest.raises(SystemExit) as done:
        build.main(["--help"])
    assert done.value.code == 0
    assert "--output" in capsys.readouterr().out


def test_show_with_a_deck_file_for_an_entry_says_how_to_give_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = tmp_path / "my_deck.txt"
    deck.write_bytes((DATA / "good_deck.txt").read_bytes())
    assert main(["deck", "show", str(deck)]) == 2
    err = capsys.readouterr().err
    assert err.endswith(f"(a deck file is given as --deck {deck})\n")


@pytest.mark.parametrize("where", ["folder", "in_a_file"])
def test_build_to_a_place_it_cannot_write_is_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    where: str,
) -> None:
    import voice_host.deck.build as build

    built: list[Path] = []
    monkeypatch.setattr(build, "build_bytes", lambda source_dir: built.append(source_dir) or b"x")
    (tmp_path / "file").write_text("", encoding="utf-8")
    output = tmp_path if where == "folder" else tmp_path / "file" / "deck.json.gz"
    assert main(["deck", "build", "--output", str(output)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0].startswith(f"voice-host: cannot write the deck to {output}")
    if where == "folder":
        assert err[0].endswith("it is a folder")
        assert built == []  # refused before the long build
    else:
        assert err[0].endswith(f"{tmp_path / 'file'} is a file, not a folder")


@pytest.mark.parametrize("name", ["out.txt", "out.deck", "out.gz"])
def test_build_to_a_name_read_as_a_text_deck_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    # session 59's audit: "wrote out.txt", then 'deck check' and 'play --deck' read
    # its JSON as a text deck, one problem a line
    deck = tmp_path / "my_deck.txt"
    deck.write_bytes((DATA / "good_deck.txt").read_bytes())
    assert main(["deck", "build", str(deck), "--output", str(tmp_path / name)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert "a built deck's name ends .json or .json.gz" in err[0]
    assert not (tmp_path / name).exists()
    assert main(["deck", "build", str(deck), "--output", str(tmp_path / "out.json")]) == 0
    assert main(["deck", "check", str(tmp_path / "out.json")]) == 0


def test_build_to_a_device_or_a_pipe_is_refused_before_the_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # --output /dev/full read the device's zeros until the machine ran out of memory
    # (24 GB, killed), and the write would have replaced the device with a file
    import os
    import threading

    import voice_host.deck.build as build

    monkeypatch.setattr(build, "build_bytes", lambda source_dir: b"x")
    pipe = tmp_path / "deck.json.gz"
    os.mkfifo(pipe)

    def feed() -> None:  # lets an unguarded read of the pipe end, not hang the test
        with open(pipe, "wb") as out:
            out.write(b"y")

    threading.Thread(target=feed, daemon=True).start()
    assert main(["deck", "build", "--output", str(pipe)]) == 2
    assert capsys.readouterr().err == (
        f"voice-host: cannot write the deck to {pipe}: not an ordinary file (a device or a pipe)\n"
    )
    assert not pipe.is_file()  # still the pipe
    with open(pipe, "rb") as drained:  # let the feeding thread finish
        drained.read()


def test_playing_a_bad_deck_is_one_line_naming_the_first_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = bad_deck(tmp_path)
    assert main(["deck", "stats", "--deck", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0].startswith(f"voice-host: {path}")
    assert f"(and 2 more; 'voice-host deck check {path}' lists them all)" in err[0]


def test_check_counts_one_card_in_the_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (DATA / "good_deck.txt").read_text(encoding="utf-8")
    one = tmp_path / "one.txt"
    one.write_text(text.split("\n\n")[0] + "\n", encoding="utf-8")
    assert main(["deck", "check", str(one)]) == 0
    assert capsys.readouterr().out == f"{one}: ok (1 card)\n"


def test_show_prints_what_the_host_makes_of_an_entry(capsys: pytest.CaptureFixture[str]) -> None:
    # a deck's writer sees the answers and forms, to correct them in the deck
    assert main(["deck", "show", "--deck", str(DATA / "good_deck.txt"), "kangaroo"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "card 1: Nature: Kangaroo"
    assert lines[1].startswith("  answers: kangaroo, ") and "kangaroos" in lines[1]
    assert lines[2].startswith("  forms: ") and "kangaroo's" in lines[2]
    assert len(lines) == 3
    # an entry the deck lacks is an error, not an empty list
    assert main(["deck", "show", "--deck", str(DATA / "good_deck.txt"), "Wombat"]) == 2
    assert capsys.readouterr().err.startswith("voice-host: no entry Wombat in ")


@pytest.mark.parametrize("name", ["", "  "])
def test_show_refuses_an_empty_entry_name(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    # it said "no entry  in the built-in deck", after loading the deck
    assert main(["deck", "show", "Kangaroo", name]) == 2
    assert capsys.readouterr().err == (
        "voice-host: deck show: an entry's name is empty (give its text, e.g. Kangaroo)\n"
    )


def test_show_names_the_entries_it_did_not_find(capsys: pytest.CaptureFixture[str]) -> None:
    deck = str(DATA / "good_deck.txt")
    assert main(["deck", "show", "--deck", deck, "Kangaroo", "Wombat"]) == 2
    out, err = capsys.readouterr()
    assert out.startswith("card 1: Nature: Kangaroo")  # what was found is shown
    assert err.startswith("voice-host: no entry Wombat in ")


def test_a_deck_build_that_fills_the_disk_leaves_no_part_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # session 61's audit: "deck build --output" on a full disk said so, and left a
    # 0-byte out.json.part behind
    import errno

    from voice_host.deck import build
    from voice_host.errors import VoiceHostError

    real_write = Path.write_bytes

    def full(self: Path, data: bytes) -> int:
        real_write(self, data[:10])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(VoiceHostError, match="No space left on device"):
        build._write(tmp_path / "out.json", b"{}" * 100)
    assert list(tmp_path.iterdir()) == []
