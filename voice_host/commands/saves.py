"""`voice-host saves`: the saved games a player can go back to, and tidying them away.

Starting a new game where one is saved moves the saved one aside to a name of its
own (:meth:`voice_host.persist.SaveSlot.keep_previous`), so no game is ever lost;
this command lists the game in progress and those kept games (whose turn, where
each team stands, when it was last saved, the command that resumes it), removes
the ones named, or all the kept ones at once.  It reads the same ``--save`` and
``--config`` as ``voice-host play``, so it finds the same files.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from voice_host.config import config_from_args
from voice_host.errors import SaveError, UsageError
from voice_host.host.saved_game import SaveSummary, list_saves
from voice_host.persist import SaveClaim, SaveSlot

HELP = "list the saved games (the one in progress and those kept), or remove them"


def _add_options(parser: argparse.ArgumentParser, *, after_action: bool = False) -> None:
    """The options every action shares; ``after_action``: given after the action, an
    option is still the command's, and not given there it leaves alone what was
    given before the action."""
    unset: Any = argparse.SUPPRESS if after_action else None
    parser.add_argument(
        "--config",
        metavar="PATH",
        default=unset,
        help="TOML config file whose save file to use (default ~/.config/voice-host/config.toml)",
    )
    parser.add_argument(
        "--save",
        metavar="PATH",
        default=unset,
        help="the save file play uses (default ~/.local/state/voice-host/game.json)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        default=argparse.SUPPRESS if after_action else False,
        help="one JSON object per saved game (remove and clean: per file removed)",
    )


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this command's options (before the action or after it, either way)."""
    _add_options(parser)
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    actions = [sub.add_parser("list", help="list the saved games (the default)")]
    remove = sub.add_parser("remove", help="remove the saved games named (as listed)")
    remove.add_argument("paths", nargs="+", metavar="PATH", help="a file the list shows")
    actions.append(remove)
    actions.append(
        sub.add_parser("clean", help="remove every kept game; the game in progress stays")
    )
    for action in actions:
        _add_options(action, after_action=True)


def run(args: argparse.Namespace) -> int:
    """List, remove or clean; one line per file removed."""
    config = config_from_args(args)
    slot = SaveSlot(config.save_path(os.environ))
    default_path = config.save is None
    saves = list_saves(slot)
    if args.action == "remove":
        return _remove(saves, [Path(p).expanduser() for p in args.paths], as_json=args.json)
    if args.action == "clean":
        kept = [s.path for s in saves if s.kept]
        if not kept:
            print(f"No kept games beside {slot.path}.")
            return 0
        return _remove(saves, kept, as_json=args.json)
    if args.json:
        for summary in saves:
            print(json.dumps(summary.to_data(default_path=default_path)))
        return 0
    _print_list(slot, saves, default_path=default_path)
    return 0


def _print_list(slot: SaveSlot, saves: list[SaveSummary], *, default_path: bool) -> None:
    current = [s for s in saves if not s.kept]
    kept = [s for s in saves if s.kept]
    if not saves:
        print(f"No saved games: nothing at {slot.path}.")
        return
    if current:
        print("The game in progress:")
        for line in current[0].lines(default_path=default_path):
            print(f"  {line}")
    else:
        print(f"No game in progress at {slot.path}.")
    if kept:
        print(f"Kept when a new game started ({len(kept)}, newest first):")
        for summary in kept:
            for line in summary.lines(default_path=default_path):
                print(f"  {line}")
        stays = " (the game in progress stays)" if current else ""
        print(f"To remove them: voice-host saves clean{stays}.")


def _remove(saves: list[SaveSummary], paths: list[Path], *, as_json: bool = False) -> int:
    """Remove each of ``paths``, which must be files the list shows; nothing is removed
    when one of them is not (a typo must not cost another file)."""
    listed = {_same(s.path): s for s in saves}
    unknown = [p for p in paths if _same(p) not in listed]
    if unknown:
        raise UsageError(
            f"{unknown[0]} is not a saved game listed by 'voice-host saves' (nothing removed)"
        )
    with ExitStack() as held:
        for path in paths:
            summary = listed[_same(path)]
            # a game playing with this file (the game in progress, or a kept one
            # resumed with --save) holds it: it would write it again at its next
            # change, or quit saying it is saved, and its player would think it safe
            try:
                held.enter_context(SaveClaim(summary.path))
            except SaveError:
                raise SaveError(
                    f"a voice-host game is playing with {summary.path}: quit that game "
                    "first (nothing removed)"
                ) from None
        for path in paths:
            summary = listed[_same(path)]
            try:
                summary.path.unlink(missing_ok=True)
            except OSError as exc:
                raise SaveError(f"cannot remove {summary.path}: {exc.strerror}") from None
            with contextlib.suppress(OSError):  # its lock file, made to hold it, goes too
                SaveClaim.lock_path(summary.path).unlink(missing_ok=True)
            if as_json:
                print(json.dumps({"removed": str(summary.path), "kept": summary.kept}))
                continue
            what = "kept game" if summary.kept else "game in progress"
            print(f"Removed the {what} {summary.path}")
    return 0


def _same(path: Path) -> Path:
    return path.resolve() if path.exists() else path.absolute()
