"""Word -> phones from the CMU pronouncing dictionary shipped with pocketsphinx.

The referee core only takes a :data:`PhoneLookup` callable; this module gives
the host one, reading the dictionary lazily (about 135,000 lines, read once on
first use) and caching it.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable

from voice_host.errors import ModelError

#: Word (lower case) -> ARPAbet phones without stress marks, or None if unknown.
PhoneLookup = Callable[[str], tuple[str, ...] | None]

_STRESS = re.compile(r"\d")


def pocketsphinx_dict_path() -> str:
    """Where pocketsphinx's wheel keeps ``cmudict-en-us.dict``."""
    import pocketsphinx  # heavy-ish import, only when asked

    return os.path.join(pocketsphinx.get_model_path(), "en-us", "cmudict-en-us.dict")


def parse_cmudict(lines: list[str]) -> dict[str, tuple[str, ...]]:
    """Parse CMU dictionary lines (``word PH PH ...``; ``word(2) ...`` for
    alternatives).  The first pronunciation of a word wins; stress digits are
    dropped; comment (``;;;``) and malformed lines are skipped."""
    table: dict[str, tuple[str, ...]] = {}
    for line in lines:
        parts = line.split()
        if len(parts) < 2 or line.startswith(";;;"):
            continue
        word = parts[0].lower()
        if word.endswith(")") and "(" in word:
            continue  # an alternative pronunciation: keep the first one only
        phones = tuple(_STRESS.sub("", p).upper() for p in parts[1:] if not p.startswith("#"))
        if phones:
            table.setdefault(word, phones)
    return table


class CmuDict:
    """A lazily loaded, cached phone lookup; call it like a :data:`PhoneLookup`."""

    def __init__(self, path: str | None = None) -> None:
        """``path`` defaults to pocketsphinx's dictionary (resolved on first use)."""
        self._path = path
        self._table: dict[str, tuple[str, ...]] | None = None
        self._lock = threading.Lock()  # the host may look words up from two threads

    def _load(self) -> dict[str, tuple[str, ...]]:
        with self._lock:
            if self._table is None:
                path = self._path or pocketsphinx_dict_path()
                try:
                    with open(path, encoding="utf-8", errors="replace") as f:
                        self._table = parse_cmudict(f.readlines())
                except OSError as exc:
                    raise ModelError(
                        f"cannot read the pronouncing dictionary {path}: {exc}"
                    ) from exc
            return self._table

    @property
    def loaded(self) -> bool:
        """Whether the dictionary has been read."""
        return self._table is not None

    def warm(self) -> CmuDict:
        """Read the dictionary now (about half a second), so that the first
        guess of a game is not judged late; returns ``self``."""
        self._load()
        return self

    def __call__(self, word: str) -> tuple[str, ...] | None:
        """Phones for ``word`` (lower-cased), or None when the dictionary lacks it."""
        w = word.lower()
        table = self._load()
        found = table.get(w)
        if found is None and w.endswith("."):
            found = table.get(w[:-1])
        return found

    def __contains__(self, word: str) -> bool:
        """Whether the dictionary knows ``word``."""
        return word.lower() in self._load()


_default: CmuDict | None = None


def default_phone_lookup() -> CmuDict:
    """The process-wide lookup over pocketsphinx's dictionary (loaded on first call)."""
    global _default
    if _default is None:
        _default = CmuDict()
    return _default
