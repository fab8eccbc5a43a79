"""`voice-host deck`: check, describe and build card decks.

- ``voice-host deck check PATH``: validate a deck (built ``.json[.gz]`` or a
  player's text deck); prints ``PATH: ok (N cards)`` (``1 card``) or every problem, one per
  line, and exits 2.
- ``voice-host deck stats [--deck PATH]``: counts per field, duplicates, entries
  with forms, familiarity, made-up pronunciations.
- ``voice-host deck show [--deck PATH] [ENTRY ...]``: what the host makes of each
  entry (or of the ones named): the answers it accepts and the forms it forbids, so
  a deck's writer can see them and correct them in the deck.
- ``voice-host deck build``: rebuild the built-in deck from its source.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from voice_host.errors import InputFileError, UsageError

HELP = "check, describe and build card decks"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    sub = parser.add_subparsers(dest="deck_command", metavar="ACTION")
    sub.required = True
    check = sub.add_parser("check", help="validate a deck file and list every problem")
    check.add_argument(
        "path", type=Path, nargs="?", help="a built deck (.json/.json.gz) or a text deck"
    )
    check.add_argument(
        "--deck", type=Path, default=None, help="the same, as stats and show take it"
    )
    check.add_argument(
        "--full",
        action="store_true",
        help="also compute word knowledge for a text deck (slower: proves it loads for play)",
    )
    stats = sub.add_parser("stats", help="counts per category, forms, pronunciations")
    stats.add_argument("--deck", type=Path, default=None, help="a deck file (default: built-in)")
    show = sub.add_parser("show", help="the answers and forbidden forms of each entry")
    show.add_argument("entries", nargs="*", metavar="ENTRY", help="only these entries")
    show.add_argument("--deck", type=Path, default=None, help="a deck file (default: built-in)")
    build = sub.add_parser(
        "build",
        help="build a text deck into a built deck (word knowledge worked out once), or "
        "without one rebuild the built-in deck from voice_host/deck/source",
    )
    build.add_argument(
        "source",
        type=Path,
        nargs="?",
        default=None,
        metavar="TEXT_DECK",
        help="a text deck to build (default: the built-in deck's source)",
    )
    build.add_argument(
        "--output",
        type=Path,
        default=None,
        help="write here: .json.gz is gzip-compressed, .json plain (default: TEXT_DECK's "
        "name ending .json.gz beside it; the built-in deck: the package data)",
    )


def _check(args: argparse.Namespace) -> int:
    from voice_host.deck.loader import check_deck, load_deck

    if (args.path is None) == (args.deck is None):
        raise UsageError("deck check: give one deck file (as PATH or --deck PATH)")
    path: Path = args.path if args.path is not None else args.deck
    count, problems = check_deck(path)
    if problems:
        # Checking is asked for the whole list: every problem, one per line, then
        # the usual one-line error.
        for problem in problems:
            print(problem, file=sys.stderr)
        n = len(problems)
        raise InputFileError(f"{n} problem{'s' if n != 1 else ''} in deck {path}")
    if args.full:
        count = len(load_deck(path))
    print(f"{path}: ok ({count} card{'' if count == 1 else 's'})")
    return 0


def _stats(args: argparse.Namespace) -> int:
    from voice_host.deck.loader import load_builtin, load_deck
    from voice_host.deck.stats import deck_stats, format_stats

    deck = load_builtin() if args.deck is None else load_deck(args.deck)
    print(format_stats(deck_stats(deck)))
    return 0


def _show(args: argparse.Namespace) -> int:
    from voice_host.deck.loader import load_builtin, load_deck

    if any(not entry.strip() for entry in args.entries):  # "no entry  in ..." was said
        raise UsageError("deck show: an entry's name is empty (give its text, e.g. Kangaroo)")
    deck = load_builtin() if args.deck is None else load_deck(args.deck)
    wanted = {" ".join(e.split()).casefold(): e for e in args.entries}
    found: set[str] = set()
    for number, card in enumerate(deck.cards, 1):
        for field, entry in card.entries.items():
            if wanted and entry.text.casefold() not in wanted:
                continue
            found.add(entry.text.casefold())
            print(f"card {number}: {field}: {entry.text}")
            print(f"  answers: {', '.join(entry.answers)}")
            print(f"  forms: {', '.join(entry.forms) if entry.forms else '(none)'}")
    missing = [name for key, name in wanted.items() if key not in found]
    if missing:
        where = args.deck if args.deck is not None else "the built-in deck"
        files = [name for name in missing if Path(name).is_file()]
        hint = (
            f" (a deck file is given as --deck {files[0]})" if files and args.deck is None else ""
        )
        raise InputFileError(f"no entry {', '.join(missing)} in {where}{hint}")
    return 0


def _build(args: argparse.Namespace) -> int:
    from voice_host.deck.build import write_builtin, write_player_deck
    from voice_host.deck.loader import BUILTIN_PATH

    if args.source is not None:
        path, changed = write_player_deck(args.source, args.output)
    else:
        path, changed = write_builtin(args.output if args.output is not None else BUILTIN_PATH)
    print(f"{'wrote' if changed else 'unchanged'} {path}", file=sys.stdout)
    return 0


def run(args: argparse.Namespace) -> int:
    """Run the command."""
    action = {"check": _check, "stats": _stats, "show": _show, "build": _build}[args.deck_command]
    return action(args)
