"""A pocketsphinx model folder is checked before pocketsphinx loads it: the C library
ends the whole process on many a damaged one, so each defect must be one error line."""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from voice_host.errors import ModelError
from voice_host.speech.sphinx_model import check_acoustic_model, has_mdef

ROOT = Path(__file__).resolve().parents[2]
CLIP = ROOT / "fixtures" / "audio" / "slt" / "guess__elephant.wav"

#: A text model definition: the version line, the six counts, a line per phone.
TEXT_MDEF = """# made by hand
0.3
2 n_base
0 n_tri
8 n_state_map
6 n_tied_state
6 n_tied_ci_state
2 n_tied_tmat
#
SIL - - - filler 0 0 1 2 N
AA - - - n/a 1 3 4 5 N
"""


@pytest.fixture(scope="module")
def bundled() -> Path:
    """The acoustic model in the pocketsphinx wheel."""
    pocketsphinx = pytest.importorskip("pocketsphinx")
    return Path(pocketsphinx.get_model_path()) / "en-us" / "en-us"


def copy_of(bundled: Path, folder: Path) -> Path:
    target = folder / "model"
    shutil.copytree(bundled, target)
    return target


def cut_in_half(file: Path) -> None:
    data = file.read_bytes()
    file.write_bytes(data[: len(data) // 2])


def truncate(file: Path, size: int) -> None:
    file.write_bytes(file.read_bytes()[:size])


def flip_a_byte(file: Path) -> None:
    data = bytearray(file.read_bytes())
    data[len(data) // 2] ^= 0xFF
    file.write_bytes(bytes(data))


def test_the_bundled_model_passes(bundled: Path) -> None:
    assert has_mdef(bundled)
    check_acoustic_model(bundled)  # no error


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        # the report's own case: "junk" where the version line should be
        (lambda m: (m / "mdef").write_text("junk\n"), "mdef starts with 'junk', not a text"),
        # a binary mdef cut short (pocketsphinx reads past its end and crashes)
        (lambda m: cut_in_half(m / "mdef"), "mdef is cut short"),
        # parameter files cut short (transition_matrices: pocketsphinx exits)
        (lambda m: cut_in_half(m / "transition_matrices"), "transition_matrices has 1,040 bytes"),
        (lambda m: cut_in_half(m / "means"), "means has 419,366 bytes where its header promises"),
        (lambda m: cut_in_half(m / "variances"), "variances has 419,366 bytes"),
        # one byte changed: pocketsphinx checks the checksum and exits
        (lambda m: flip_a_byte(m / "means"), "means fails its checksum"),
        # not a parameter file at all (pocketsphinx exits looking for an old header's end)
        (lambda m: (m / "means").write_text("junk\n"), "means is not a Sphinx-3 parameter file"),
        # empty files
        (lambda m: (m / "variances").write_bytes(b""), "variances is empty"),
        (lambda m: (m / "sendump").write_bytes(b""), "sendump is empty"),
        # sendump cut short: pocketsphinx maps it unchecked and crashed (segmentation fault)
        (lambda m: cut_in_half(m / "sendump"), "sendump is cut short (984,512 bytes, where its"),
        (lambda m: truncate(m / "sendump", 100), "sendump is cut short in its header"),
        (lambda m: truncate(m / "sendump", 634), "sendump is cut short (634 bytes"),
        # not a sendump at all
        (lambda m: (m / "sendump").write_text("junk\n"), "sendump is not a sendump file"),
        # missing files: no mixture weights in either form
        (lambda m: (m / "sendump").unlink(), "missing mixture_weights or sendump"),
        (lambda m: (m / "means").unlink(), "not a complete pocketsphinx model (missing means)"),
    ],
)
def test_a_damaged_model_is_one_line_naming_the_folder_and_the_defect(
    bundled: Path, tmp_path: Path, damage: Callable[[Path], object], message: str
) -> None:
    model = copy_of(bundled, tmp_path)
    damage(model)
    with pytest.raises(ModelError) as caught:
        check_acoustic_model(model)
    text = str(caught.value)
    assert text.startswith(f"{model}: ")
    assert message in text
    assert "\n" not in text


def test_optional_files_may_be_absent(bundled: Path, tmp_path: Path) -> None:
    model = copy_of(bundled, tmp_path)
    (model / "noisedict").unlink()
    (model / "README").unlink()
    check_acoustic_model(model)  # no error


def test_a_transition_matrix_of_the_wrong_shape_is_refused(bundled: Path, tmp_path: Path) -> None:
    # n_dst must be n_src + 1, or pocketsphinx exits ("Unsupported transition matrix")
    model = copy_of(bundled, tmp_path)
    data = bytearray((model / "transition_matrices").read_bytes())
    at = data.index(b"endhdr\n") + 7 + 4 + 8  # past the mark, n_tmat and n_src: n_dst
    struct.pack_into("<i", data, at, 5)
    (model / "transition_matrices").write_bytes(bytes(data))
    with pytest.raises(ModelError, match="5 target states for 3 source states"):
        check_acoustic_model(model)


def test_a_text_mdef_is_read_as_pocketsphinx_reads_it(bundled: Path, tmp_path: Path) -> None:
    model = copy_of(bundled, tmp_path)
    (model / "mdef").write_text(TEXT_MDEF)
    check_acoustic_model(model)  # the mdef itself is whole (its counts fit no other file)
    (model / "mdef").write_text(TEXT_MDEF.rsplit("AA", 1)[0])
    with pytest.raises(ModelError, match=r"mdef is cut short \(1 of 2 phone lines\)"):
        check_acoustic_model(model)
    (model / "mdef").write_text(TEXT_MDEF.replace("2 n_tied_tmat", "2 n_tmats"))
    with pytest.raises(ModelError, match="mdef has a bad header line '2 n_tmats'"):
        check_acoustic_model(model)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: None, "no such model folder"),
        (lambda p: p.write_text("x"), "not a folder"),
        (lambda p: p.mkdir(), "not a pocketsphinx acoustic model (no mdef file)"),
    ],
)
def test_not_a_model_folder(tmp_path: Path, make: Callable[[Path], object], message: str) -> None:
    path = tmp_path / "m"
    make(path)
    with pytest.raises(ModelError, match=re.escape(f"{path}: {message}")):
        check_acoustic_model(path)


def _run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The command line in a process of its own: pocketsphinx's exit() would end
    the test run itself.  Its saves and config are in ``home``: a ``play --teams``
    moves the game in progress aside, and must not move the user's own."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CONFIG_HOME": str(home / "config"),
    }
    return subprocess.run(
        [sys.executable, "-m", "voice_host", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )


@pytest.mark.parametrize(
    "command",
    [
        ["listen", "--audio", str(CLIP), "--word", "Elephant"],
        ["play", "--plain", "--teams", "Red:Ann,Bob;Blue:Cat,Dan"],
    ],
)
def test_a_junk_model_stops_the_command_with_one_line(tmp_path: Path, command: list[str]) -> None:
    pytest.importorskip("pocketsphinx")
    model = tmp_path / "model"
    model.mkdir()
    (model / "mdef").write_text("junk\n")
    done = _run(tmp_path, *command, "--model", str(model), "--backend", "pocketsphinx")
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("voice-host: ")]
    assert errors == [
        f"voice-host: {model}: not a complete pocketsphinx model (missing means, variances,"
        " transition_matrices, mixture_weights or sendump)"
    ]
    assert "FATAL" not in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def test_a_sendump_with_room_to_spare_and_its_other_byte_order_pass(
    bundled: Path, tmp_path: Path
) -> None:
    # pocketsphinx reads a big-endian dump too, and ignores padding at the end
    model = copy_of(bundled, tmp_path)
    data = (model / "sendump").read_bytes()
    (model / "sendump").write_bytes(data + b"\0" * 64)
    check_acoustic_model(model)
    swapped, at = bytearray(), 0
    while True:  # the header's lengths in the other byte order, its strings as they are
        (size,) = struct.unpack_from("<i", data, at)
        swapped += struct.pack(">i", size) + data[at + 4 : at + 4 + size]
        at += 4 + size
        if size == 0:
            break
    rows, columns = struct.unpack_from("<2i", data, at)
    swapped += struct.pack(">2i", rows, columns) + data[at + 8 :]
    (model / "sendump").write_bytes(bytes(swapped))
    check_acoustic_model(model)
    (model / "sendump").write_bytes(bytes(swapped[:-1]))
    with pytest.raises(ModelError, match="sendump is cut short"):
        check_acoustic_model(model)
