"""The CMU dictionary loader."""

from __future__ import annotations

from pathlib import Path

import pytest

from voice_host.errors import ModelError
from voice_host.referee.phones import CmuDict, parse_cmudict


def test_parse_keeps_first_pronunciation_and_drops_stress() -> None:
    table = parse_cmudict(
        [";;; comment", "read R IY1 D", "read(2) R EH1 D", "host HH OW1 S T", "broken"]
    )
    assert table == {"read": ("R", "IY", "D"), "host": ("HH", "OW", "S", "T")}


def test_lookup_is_lazy_and_case_insensitive(tmp_path: Path) -> None:
    path = tmp_path / "tiny.dict"
    lookup = CmuDict(str(path))  # nothing read yet: the file does not exist
    path.write_text("b B IY\ntelescope T EH L AH S K OW P\n")
    assert lookup("Telescope") == ("T", "EH", "L", "AH", "S", "K", "OW", "P")
    assert lookup("b.") == ("B", "IY")  # pocketsphinx's spelled letter
    assert lookup("zzz") is None


def test_missing_dictionary_is_a_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError):
        CmuDict(str(tmp_path / "none.dict"))("word")


def test_pocketsphinx_dictionary_knows_host() -> None:
    pytest.importorskip("pocketsphinx", reason="pocketsphinx not installed")
    from voice_host.referee.phones import default_phone_lookup

    assert default_phone_lookup()("host") == ("HH", "OW", "S", "T")


def test_warm_reads_the_dictionary_before_the_first_lookup(tmp_path: Path) -> None:
    dict_file = tmp_path / "tiny.dict"
    dict_file.write_text("host HH OW1 S T\n", encoding="utf-8")
    lookup = CmuDict(str(dict_file))
    assert not lookup.loaded  # lazy until asked
    assert lookup.warm() is lookup
    assert lookup.loaded
    assert lookup("HOST") == ("HH", "OW", "S", "T")
