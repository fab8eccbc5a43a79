"""Checking a pocketsphinx acoustic model folder before pocketsphinx loads it.

pocketsphinx's C library ends the whole process (``exit()``, or a crash) on
many defects of a model folder: a text ``mdef`` whose version line is not
``0.3``, a binary ``mdef`` cut short, a parameter file cut short or with a bad
checksum, no mixture weights.  No Python error can be caught then, so a folder
that is not the bundled model is read here first, and what is wrong becomes one
:class:`~voice_host.errors.ModelError` line naming the folder.  Standard
library only (no engine is imported).

What is checked, from pocketsphinx 5's readers (``mdef.c``, ``bin_mdef.c``,
``bio.c``, ``tmat.c``, ``ms_gauden.c``):

- the files: ``mdef``, ``means``, ``variances``, ``transition_matrices`` and
  ``mixture_weights`` or ``sendump``, none empty (``feat.params`` and
  ``noisedict`` are optional);
- ``mdef``: a text one's first line that is not a ``#`` comment is ``0.3``,
  its header names the six counts and as many phone lines follow; a binary
  one starts ``BMDF`` (or ``FDMB``, the other byte order) and holds every
  byte its header promises;
- the Sphinx-3 parameter files: an ``s3`` header, the byte-order mark, a
  value count that matches the dimensions, the size those promise, and the
  checksum when the header has one (pocketsphinx checks it and exits on a
  mismatch; about 0.05 s for the bundled model's means).

- ``sendump`` (the 8-bit mixture weights, ``read_sendump`` in
  ``s2_semi_mgau.c``): its length-prefixed header strings, and the size its
  counts promise.  pocketsphinx maps the file without checking its size, so
  one cut short crashed the process (a segmentation fault).

Defects deeper than these (a malformed phone line of a text ``mdef``, a
``feat.params`` naming a feature type or CMN pocketsphinx does not know) would
still stop pocketsphinx itself: the backend then loads the model once in a child
process first (``pocketsphinx_backend.probe_model``), whose end is one error.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

from voice_host.errors import ModelError

#: Files pocketsphinx needs in every acoustic model folder.
REQUIRED_FILES: tuple[str, ...] = ("mdef", "means", "variances", "transition_matrices")
#: The mixture weights: one of these two (``sendump`` is the compressed form).
MIXTURE_FILES: tuple[str, ...] = ("mixture_weights", "sendump")
#: The first line of a text mdef (``MODEL_DEF_VERSION`` in pocketsphinx).
TEXT_MDEF_VERSION = "0.3"
#: The counts a text mdef's header must give (``mdef_init``).
TEXT_MDEF_COUNTS = frozenset(
    {"n_base", "n_tri", "n_state_map", "n_tied_ci_state", "n_tied_state", "n_tied_tmat"}
)
#: The byte-order marks of a binary mdef, as they read in the file.
BINARY_MDEF_MARKS = {b"BMDF": "<", b"FDMB": ">"}
#: The end of an old-style (pre-1997) parameter file's header, which has no checksum.
OLD_HEADER_END = b"*end_comment*\n"
#: The byte-order mark of a Sphinx-3 parameter file.
S3_MAGIC = 0x11223344


def has_mdef(path: Path) -> bool:
    """Whether ``path`` looks like a pocketsphinx acoustic model (it has an ``mdef``).

    Cheap, for choosing a backend: :func:`check_acoustic_model` says whether
    the model is whole."""
    return (path / "mdef").is_file()


def check_folder(path: Path) -> None:
    """:class:`ModelError` unless ``path`` is a folder (any model is an unpacked one)."""
    if not path.exists():
        raise ModelError(f"{path}: no such model folder")
    if not path.is_dir():
        raise ModelError(f"{path}: not a folder (a model is an unpacked folder)")


def check_acoustic_model(path: Path) -> None:
    """Raise :class:`ModelError` naming ``path`` and what is wrong with it as a
    pocketsphinx acoustic model folder; return when pocketsphinx can load it."""
    check_folder(path)
    if not has_mdef(path):
        raise ModelError(f"{path}: not a pocketsphinx acoustic model (no mdef file)")
    lacking = missing_files(path)
    if lacking:
        raise ModelError(
            f"{path}: not a complete pocketsphinx model (missing {', '.join(lacking)})"
        )
    problem = _empty(path) or _first_problem(path)
    if problem:
        raise ModelError(f"{path}: damaged pocketsphinx model: {problem}")


def missing_files(path: Path) -> list[str]:
    """The files pocketsphinx needs that the model folder ``path`` lacks."""
    lacking = [name for name in REQUIRED_FILES if not (path / name).is_file()]
    if not any((path / name).is_file() for name in MIXTURE_FILES):
        lacking.append(" or ".join(MIXTURE_FILES))
    return lacking


def _empty(path: Path) -> str | None:
    """Which needed file is empty (an empty one makes pocketsphinx exit)."""
    names = (*REQUIRED_FILES, *MIXTURE_FILES, "feat.params")
    present = [n for n in names if (path / n).is_file()]
    empty = [n for n in present if (path / n).stat().st_size == 0]
    return f"{', '.join(empty)} {'is' if len(empty) == 1 else 'are'} empty" if empty else None


def _first_problem(path: Path) -> str | None:
    """The first defect of the model's files that would stop pocketsphinx, or None."""
    checks: list[tuple[str, Callable[[bytes], str | None]]] = [
        ("mdef", _mdef_problem),
        ("means", _gaussian_problem),
        ("variances", _gaussian_problem),
        ("transition_matrices", _tmat_problem),
        ("mixture_weights", _mixw_problem),
    ]
    means: bytes = b""
    for name, check in checks:
        file = path / name
        if not file.is_file():
            continue  # mixture_weights, when sendump stands in for it
        try:
            data = file.read_bytes()
        except OSError as exc:
            return f"cannot read {name} ({exc.strerror or exc})"
        problem = check(data)
        if problem:
            return f"{name} {problem}"
        if name == "means":
            means = data
    sendump = path / "sendump"
    if sendump.is_file() and not (path / "mixture_weights").is_file():
        try:
            data = sendump.read_bytes()
        except OSError as exc:
            return f"cannot read sendump ({exc.strerror or exc})"
        problem = _sendump_problem(data, _gaussian_counts(means))
        if problem:
            return f"sendump {problem}"
    return None


# -- mdef ---------------------------------------------------------------------


def _mdef_problem(data: bytes) -> str | None:
    """What is wrong with an mdef file's bytes (text or binary), or None."""
    first = _first_noncomment_line(data)
    if first[:4] in BINARY_MDEF_MARKS:
        return _binary_mdef_problem(data, BINARY_MDEF_MARKS[first[:4]])
    if not first.startswith(TEXT_MDEF_VERSION.encode()):
        shown = first[:20].decode("latin-1").strip() or "nothing"
        return (
            f"starts with {shown!r}, not a text model definition ('{TEXT_MDEF_VERSION}')"
            " nor a binary one ('BMDF')"
        )
    return _text_mdef_problem(data)


def _first_noncomment_line(data: bytes) -> bytes:
    """The line ``mdef_init`` reads first (comments start with ``#``)."""
    at = 0
    while data.startswith(b"#", at):
        at = data.find(b"\n", at) + 1
        if at == 0:
            return b""
    end = data.find(b"\n", at)
    return data[at:] if end < 0 else data[at:end]


def _text_mdef_problem(data: bytes) -> str | None:
    """A text mdef: the six counts of its header, then a line per phone."""
    lines = [line for line in data.decode("latin-1").split("\n") if not line.startswith("#")]
    counts: dict[str, int] = {}
    at = 1  # past the version line
    while at < len(lines) and not set(counts) >= TEXT_MDEF_COUNTS:
        words = lines[at].split()
        if len(words) < 2 or words[1] not in TEXT_MDEF_COUNTS or not words[0].isdecimal():
            return f"has a bad header line {lines[at].strip()[:40]!r}"
        counts[words[1]] = int(words[0])
        at += 1
    if not set(counts) >= TEXT_MDEF_COUNTS:
        return "is cut short in its header"
    phones = counts["n_base"] + counts["n_tri"]
    given = sum(1 for line in lines[at:] if line.strip())
    if given < phones:
        return f"is cut short ({given} of {phones} phone lines)"
    return None


def _binary_mdef_problem(data: bytes, order: str) -> str | None:
    """A binary mdef holds every byte its counts promise (``bin_mdef_read``
    reads past the end of one cut short, and crashes)."""
    if len(data) < 12:
        return "is cut short in its header"
    (skip,) = struct.unpack_from(order + "i", data, 8)
    start = 12 + skip  # after the mark, the version, the length and the description
    if skip < 0 or len(data) < start + 40:
        return "is cut short in its header"
    n_ciphone, n_phone, n_emit, _, _, _, n_sseq, _, n_cd_tree, _ = struct.unpack_from(
        order + "10i", data, start
    )
    names = start + 40
    at = names
    for _ in range(max(n_ciphone, 0)):
        end = data.find(b"\0", at)
        if end < 0:
            return "is cut short in its phone names"
        at = end + 1
    at = names + ((at - names + 3) & ~3)  # padded to four bytes
    at += 8 * n_cd_tree + 12 * n_phone  # the context tree, the phones
    if len(data) < at + 4:
        return _short(len(data), at + 4)
    (n_sseq_values,) = struct.unpack_from(order + "i", data, at)
    need = at + 4 + 2 * n_sseq_values + (0 if n_emit else n_sseq)
    return _short(len(data), need) if len(data) < need else None


def _short(size: int, need: int) -> str:
    return f"is cut short ({size:,} bytes, where its header promises at least {need:,})"


# -- Sphinx-3 parameter files -------------------------------------------------


def _gaussian_problem(data: bytes) -> str | None:
    """means / variances: n_mgau, n_feat, n_density, a length per feature, then
    n_mgau * n_density * (sum of the lengths) values."""

    def expected(dims: list[int]) -> int:
        n_mgau, _, n_density, *lengths = dims
        return n_mgau * n_density * sum(lengths)

    return _s3_problem(data, lambda first: 3 + max(first[1], 0), expected)


def _tmat_problem(data: bytes) -> str | None:
    """transition_matrices: n_tmat, n_src, n_dst = n_src + 1, then their product."""

    def expected(dims: list[int]) -> int:
        n_tmat, n_src, n_dst = dims
        if n_dst != n_src + 1:
            raise _Bad(f"has {n_dst} target states for {n_src} source states, not one more")
        return n_tmat * n_src * n_dst

    return _s3_problem(data, lambda _first: 3, expected)


def _gaussian_counts(data: bytes) -> tuple[int, int] | None:
    """The feature streams and densities of a means file already checked whole
    (its dimensions ``n_mgau, n_feat, n_density``), or None."""
    header = _s3_header(data)
    if isinstance(header, str):
        return None
    order = _byte_order(data, header[0])
    if order is None or len(data) < header[0] + 16:
        return None
    _, n_feat, n_density = struct.unpack_from(order + "3i", data, header[0] + 4)
    return int(n_feat), int(n_density)


#: The sendump header's counts (``name value`` strings) that set its layout.
_SENDUMP_COUNTS = ("feature_count", "mixture_count", "model_count", "cluster_count", "cluster_bits")


def _sendump_problem(data: bytes, gaussians: tuple[int, int] | None) -> str | None:
    """sendump: strings, each an int32 length then its bytes, up to a zero length
    (the first one's length, 1 to 999, tells the byte order), with counts among
    them; without clusters the rows and columns follow; then a codebook of the
    clusters, if any, and ``features x rows`` rows of ``columns`` bytes (half as
    many with 4-bit weights).  ``gaussians`` (features, densities, from means)
    stand in for counts the header leaves out."""
    order = next(
        (
            o
            for o in ("<", ">")
            if len(data) >= 4 and 1 <= struct.unpack_from(o + "i", data)[0] < 1000
        ),
        None,
    )
    if order is None:
        return "is not a sendump file (its first string's length is out of range)"
    counts: dict[str, int] = {}
    at = 0
    while True:
        if len(data) < at + 4:
            return _short(len(data), at + 4)
        size = struct.unpack_from(order + "i", data, at)[0]
        at += 4
        if size == 0:
            break
        if size < 0 or len(data) < at + size:
            return "is cut short in its header"
        name, _, value = data[at : at + size].rstrip(b"\0").decode("latin-1").partition(" ")
        if name in _SENDUMP_COUNTS and value.strip().isdecimal():
            counts[name] = int(value)
        at += size
    n_feat = counts.get("feature_count", gaussians[0] if gaussians else None)
    rows = counts.get("mixture_count", gaussians[1] if gaussians else None)
    columns = counts.get("model_count")
    clusters = counts.get("cluster_count", 0)
    if clusters not in (0, 15, 16):
        return f"has {clusters} clusters, where pocketsphinx reads 0, 15 or 16"
    bits = counts.get("cluster_bits", 8)
    if bits not in (4, 8):
        return f"has {bits}-bit weights, where pocketsphinx reads 4 or 8"
    if clusters == 0:
        if len(data) < at + 8:
            return _short(len(data), at + 8)
        rows, columns = struct.unpack_from(order + "2i", data, at)
        at += 8
    else:
        at += 16  # the codebook (15 clusters take 16 bytes too)
    if n_feat is None or rows is None or columns is None:
        return None  # a count only the mdef or means would give: not checked here
    if min(n_feat, rows, columns) <= 0:
        return "has negative or no dimensions"
    step = columns if bits == 8 else (columns + 1) // 2
    need = at + n_feat * rows * step
    return _short(len(data), need) if len(data) < need else None


def _mixw_problem(data: bytes) -> str | None:
    """mixture_weights: n_sen, n_feat, n_density, then their product."""
    return _s3_problem(data, lambda _first: 3, lambda dims: dims[0] * dims[1] * dims[2])


class _Bad(Exception):
    """A defect found while reading a parameter file's dimensions."""


#: How many dimensions a file has, from its first two values.
DimCount = Callable[[list[int]], int]


def _s3_problem(data: bytes, n_dims: DimCount, expected: Callable[[list[int]], int]) -> str | None:
    """A Sphinx-3 parameter file: header, byte order, dimensions, a count of
    values that matches them, the size they promise and the checksum."""
    header = _s3_header(data)
    if isinstance(header, str):
        return header
    start, with_checksum = header
    order = _byte_order(data, start)
    if order is None:
        return "has no byte-order mark after its header"
    body = start + 4
    if len(data) < body + 8:
        return "is cut short in its header"
    first = list(struct.unpack_from(order + "2i", data, body))
    count = n_dims(first)
    if len(data) < body + 4 * (count + 1):
        return "is cut short in its header"
    *dims, values = struct.unpack_from(f"{order}{count + 1}i", data, body)
    if min(dims, default=0) < 0 or values <= 0:
        return "has negative or no dimensions"
    try:
        want = expected(dims)
    except _Bad as bad:
        return str(bad)
    if values != want:
        return f"holds {values:,} values where its dimensions make {want:,}"
    end = body + 4 * (count + 1 + values)
    need = end + (4 if with_checksum else 0)
    if len(data) != need:
        return f"has {len(data):,} bytes where its header promises {need:,}"
    if with_checksum and _checksum(data, body, end, order) != _word(data, end, order):
        return "fails its checksum (the file is damaged)"
    return None


def _s3_header(data: bytes) -> tuple[int, bool] | str:
    """Where the byte-order mark is, and whether a checksum ends the file; or what
    is wrong with the header (an old-style or missing one makes pocketsphinx exit)."""
    if not data.startswith(b"s3\n"):
        # the old format: a version line, comment lines up to this marker, no checksum
        end = data.find(b"\n" + OLD_HEADER_END)
        if end < 0:
            return "is not a Sphinx-3 parameter file (no 's3' header)"
        return end + 1 + len(OLD_HEADER_END), False
    at = 3
    with_checksum = False
    while True:
        end = data.find(b"\n", at)
        if end < 0:
            return "is cut short in its header"
        words = data[at:end].split()
        at = end + 1
        if not words:
            return "has a blank line in its header"
        if words[0] == b"endhdr":
            return at, with_checksum
        with_checksum = with_checksum or words[0] == b"chksum0"


def _byte_order(data: bytes, at: int) -> str | None:
    if len(data) < at + 4:
        return None
    for order in ("<", ">"):
        if struct.unpack_from(order + "I", data, at)[0] == S3_MAGIC:
            return order
    return None


def _word(data: bytes, at: int, order: str) -> int:
    return int(struct.unpack_from(order + "I", data, at)[0])


def _checksum(data: bytes, start: int, end: int, order: str) -> int:
    """pocketsphinx's running checksum (``chksum_accum`` in ``bio.c``) over the
    32-bit values from ``start`` to ``end``: rotate left 20 bits, add."""
    total = 0
    for value in struct.unpack_from(f"{order}{(end - start) // 4}I", data, start):
        total = (((total << 20) | (total >> 12)) + value) & 0xFFFFFFFF
    return total
