"""Build the built-in deck: ``python -m voice_host.deck.build`` (same as ``voice-host deck build``).

Reads ``voice_host/deck/source/`` (the seven word lists, ``exceptions.txt``,
``overrides.txt``), computes every entry's word knowledge and writes
``voice_host/deck/data/builtin.json.gz``.  Deterministic: the same source, the
same pinned libraries (lemminflect, wordfreq, pocketsphinx's dictionary) and the
same espeak-ng give byte-identical output.
"""

from __future__ import annotations

import contextlib
import gzip
import sys
from pathlib import Path

from voice_host.deck.built_format import dump_deck
from voice_host.deck.builtin_source import BUILTIN_CARDS, SOURCE_DIR, read_builtin_source
from voice_host.deck.family import FormExceptions
from voice_host.deck.loader import BUILTIN_PATH, deck_from_sources, is_built_file
from voice_host.deck.model import Deck
from voice_host.deck.problems import DeckError
from voice_host.errors import VoiceHostError, file_in_the_way


def build_builtin(
    source_dir: Path = SOURCE_DIR, expected_cards: int | None = BUILTIN_CARDS
) -> Deck:
    """Build the deck from ``source_dir``; raise :class:`DeckError` listing every source problem."""
    from voice_host.deck.lexicon import get_lexicon

    if not get_lexicon().has_frequency:
        # Without word frequencies the families differ: the build would not be reproducible.
        raise VoiceHostError("building the deck needs wordfreq==3.1.1 (a dependency of voice_host)")
    sources, problems = read_builtin_source(source_dir, expected_cards)
    exceptions_path = source_dir / "exceptions.txt"
    exceptions = FormExceptions.read(exceptions_path) if exceptions_path.exists() else None
    if problems:
        raise DeckError(problems)
    return deck_from_sources("builtin", sources, exceptions or FormExceptions())


def build_bytes(source_dir: Path = SOURCE_DIR, expected_cards: int | None = BUILTIN_CARDS) -> bytes:
    """The bytes the built-in deck file should hold."""
    return dump_deck(build_builtin(source_dir, expected_cards), compress=True)


def write_builtin(output: Path = BUILTIN_PATH, source_dir: Path = SOURCE_DIR) -> tuple[Path, bool]:
    """Build and write the built-in deck; return the path and whether the file changed.

    A ``.json.gz`` is written gzip-compressed, a plain ``.json`` as plain JSON; any
    other name is refused (it would be read as a text deck).  A place it cannot write
    is one :class:`VoiceHostError` line (a folder, a device or a pipe before the build).
    """
    _check_output(output)
    data = build_bytes(source_dir)
    if not _gzipped(output):
        data = gzip.decompress(data)  # a plain .json: the same deck, as plain JSON
    return output, _write(output, data)


def write_player_deck(source: Path, output: Path | None = None) -> tuple[Path, bool]:
    """Build a player's text deck (``my_deck.txt``) into a built deck, its word knowledge
    worked out once (loading it for play then takes milliseconds, not seconds); by
    default next to it as ``my_deck.json.gz``.  :class:`DeckError` lists its problems."""
    from voice_host.deck.loader import load_deck

    if output is None:
        output = source.with_name(source.name.rsplit(".", 1)[0] + ".json.gz")
    _check_output(output)
    if output.exists() and output.resolve() == source.resolve():
        raise VoiceHostError(f"cannot write the deck to {output}: it is the deck being built")
    deck = load_deck(source)
    return output, _write(output, dump_deck(deck, compress=_gzipped(output)))


def _gzipped(output: Path) -> bool:
    return output.name.endswith(".gz")


def _check_output(output: Path) -> None:
    if output.is_dir():
        raise VoiceHostError(f"cannot write the deck to {output}: it is a folder")
    if output.exists() and not output.is_file():
        # /dev/full, /dev/null, a pipe: the comparison below read /dev/full's zeros
        # until memory ran out, and the write would have replaced the device itself
        raise VoiceHostError(
            f"cannot write the deck to {output}: not an ordinary file (a device or a pipe)"
        )
    if not is_built_file(output):
        # written all the same, it was read back as a text deck: one problem a line
        raise VoiceHostError(
            f"cannot write the deck to {output}: a built deck's name ends .json or "
            ".json.gz (a file named otherwise is read as a text deck)"
        )


def _write(output: Path, data: bytes) -> bool:
    """Write ``data`` to ``output`` through a temporary file; whether it changed."""
    temporary = output.with_name(output.name + ".part")
    try:
        changed = not output.exists() or output.read_bytes() != data
        if changed:
            output.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(data)
            temporary.replace(output)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)  # a full disk's half-written part
        why = exc.strerror or str(exc)
        if blocking := file_in_the_way(output.parent):
            why = f"{blocking} is a file, not a folder"
        raise VoiceHostError(f"cannot write the deck to {output}: {why}") from None
    return changed


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point: ``voice-host deck build``'s, options and all."""
    from voice_host.cli import main as cli_main

    return cli_main(["deck", "build", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
