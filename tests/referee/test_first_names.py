"""The census first names that tell a namesake ("serena williams") from the card's person."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from voice_host.referee import first_names as module
from voice_host.referee.first_names import first_names, parse_census_lines, write_first_names
from voice_host.referee.wordclass import default_name_lookup


def test_R7_census_lines_give_lower_case_names() -> None:
    lines = ["JAMES          3.318  3.318      1", "", "SERENA         0.010 80.000   900"]
    assert parse_census_lines(lines) == {"james", "serena"}


def test_R7_kept_list_round_trip_is_reproducible(tmp_path: Path) -> None:
    write_first_names(["serena", "david", "serena"], tmp_path / "a.txt.gz")
    write_first_names(["david", "serena"], tmp_path / "b.txt.gz")
    assert (tmp_path / "a.txt.gz").read_bytes() == (tmp_path / "b.txt.gz").read_bytes()
    text = gzip.decompress((tmp_path / "a.txt.gz").read_bytes()).decode()
    assert text.startswith("# First names of the 1990 United States Census")
    assert text.splitlines()[-2:] == ["david", "serena"]


def test_R7_bundled_list_holds_first_names_and_no_surnames() -> None:
    names = first_names()
    assert {"serena", "david", "homer", "victoria", "diana"} <= names
    assert not {"kubrick", "spielberg", "einstein"} & names


def test_R7_name_lookup_tells_first_names_other_names_and_words() -> None:
    kind = default_name_lookup()
    assert kind is not None
    assert kind("serena") == "first" and kind("homer") == "first"
    assert kind("beckham") == "other" and kind("kubrick") == "other"
    # everyday words, common words that are first names too, and fillers are neither
    assert kind("tennis") == "" and kind("will") == "" and kind("um") == ""


def test_R7_remaking_without_the_census_files_is_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert module.main([str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: cannot read ") and err.count("\n") == 1
