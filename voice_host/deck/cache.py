"""Built decks kept for players' text decks, so that a deck's word knowledge is worked
out once, not at every start.

A text deck's forms, answers and pronunciations take about 30 ms a card to work out
(a 500-card deck 15 s, 900 cards 40 s, measured in session 60; the built-in deck is
built ahead).  The first load of a text deck keeps its build under
``$XDG_CACHE_HOME/voice-host/decks/`` (else ``~/.cache``), named by a hash of the
file's bytes and of what builds it (this package's deck code and the word libraries'
versions), so an edited deck, or a newer voice_host, is built afresh.  It is only a
cache: a kept build that cannot be read is built again, and one that cannot be
written (a read-only or full disk) is not kept, without a word; ``voice-host deck
build`` writes one beside the deck for good.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import tempfile
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path

from voice_host.deck.built_format import dump_deck, parse_built
from voice_host.deck.model import Deck

#: The libraries whose versions decide a build, besides this package's deck code.
BUILD_LIBRARIES = ("lemminflect", "wordfreq", "pocketsphinx")


def deck_cache_folder(env: Mapping[str, str] | None = None) -> Path | None:
    """``$XDG_CACHE_HOME/voice-host/decks``, else ``$HOME/.cache/voice-host/decks``; None
    when ``env`` names neither as an absolute path (nothing is kept)."""
    env = os.environ if env is None else env
    for variable, under in (("XDG_CACHE_HOME", ()), ("HOME", (".cache",))):
        base = env.get(variable, "").strip()
        if base and Path(base).is_absolute():
            return Path(base).joinpath(*under, "voice-host", "decks")
    return None


def building_note(cards: int, name: str) -> str:
    """Printed before a text deck's word knowledge is worked out (seconds, once)."""
    return (
        f"Working out the words of the {cards} cards in {name}: "
        "this takes a moment, once (it is kept for next time)."
    )


@functools.cache
def _builder_stamp() -> bytes:
    """What builds a deck: the deck code's bytes, its word lists (the reviewed
    look-alikes, WordNet's) and the word libraries' versions."""
    digest = hashlib.sha256()
    here = Path(__file__).parent
    sources = [*here.glob("*.py"), *here.glob("source/*.txt"), *here.glob("data/*.txt.gz")]
    for source in sorted(sources):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    for name in BUILD_LIBRARIES:
        with contextlib.suppress(metadata.PackageNotFoundError):
            digest.update(f"{name}={metadata.version(name)}".encode())
    return digest.digest()


def cache_path(data: bytes, folder: Path) -> Path:
    """Where the build of a text deck holding ``data`` is kept in ``folder``."""
    key = hashlib.sha256(_builder_stamp() + data).hexdigest()[:32]
    return folder / f"{key}.json.gz"


def kept_deck(data: bytes, name: str, folder: Path) -> Deck | None:
    """The kept build of the text deck ``data`` (named ``name``), or None if there is none
    that reads."""
    path = cache_path(data, folder)
    try:
        kept = path.read_bytes()
    except OSError:
        return None
    deck, _ = parse_built(kept, str(path))
    return None if deck is None else Deck(name, deck.cards, deck.methods)


def keep_deck(data: bytes, deck: Deck, folder: Path) -> None:
    """Keep ``deck``, the build of the text deck ``data``, through a temporary file (a
    process stopped mid-write leaves no half file under the name); failures pass."""
    path = cache_path(data, folder)
    temporary = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=".keep-", suffix=".part")
        with os.fdopen(fd, "wb") as out:
            out.write(dump_deck(deck, compress=True))
        os.replace(temporary, path)
        temporary = None
    except OSError:
        pass
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
