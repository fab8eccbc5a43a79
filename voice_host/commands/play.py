"""`voice-host play`: a game at the table.

Voice control comes in a later issue; until then ``play`` (with or without
``--keyboard``) runs the keyboard game, which stays as the fallback.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable

from voice_host.commands.simulate import add_game_options, build_game
from voice_host.errors import UsageError, VoiceHostError
from voice_host.keyboard.controller import EntryText, KeyboardController, card_label
from voice_host.keyboard.terminal import KeySource, ask_first, ask_teams, run_terminal
from voice_host.rules import Team

HELP = "play a game at the table (keyboard for now; voice in a later version)"

#: Seconds per turn unless --timer says otherwise (R5).
DEFAULT_TIMER = 30.0


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    parser.add_argument(
        "--keyboard", action="store_true", help="play with single keys and printed announcements"
    )
    parser.add_argument(
        "--teams",
        metavar="SPEC",
        help='teams and players, e.g. "Red:Ann,Bob;Blue:Cat,Dan" (default: asked at the start)',
    )
    parser.add_argument(
        "--timer",
        type=float,
        default=DEFAULT_TIMER,
        metavar="SECONDS",
        help=f"length of a turn in seconds (default {DEFAULT_TIMER:g})",
    )
    add_game_options(parser)


def deck_entry_text(write: Callable[[str], None]) -> tuple[EntryText, int | None]:
    """Card entries from the built-in deck and its size, or card labels when it cannot load."""
    try:
        from voice_host.deck.loader import load_builtin

        deck = load_builtin()
    except (ImportError, VoiceHostError, OSError, ValueError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        write(f"No deck ({first}): cards are shown by number.")
        return card_label, None

    def entry_text(card_index: int, category: str) -> str:
        return deck.card(card_index).entry(category).text

    return entry_text, len(deck)


def _teams_spec(teams: tuple[Team, ...]) -> str:
    return ";".join(f"{t.name}:{','.join(t.players)}" for t in teams)


def run(args: argparse.Namespace) -> int:
    """Set up the teams and play until the players quit."""
    if args.timer <= 0:
        raise UsageError(f"--timer must be more than 0 seconds, got {args.timer:g}")
    if not args.keyboard:
        print("Voice control is not available yet: playing with the keyboard.", flush=True)

    def make_controller(keys: KeySource, write: Callable[[str], None]) -> KeyboardController:
        spec = args.teams if args.teams is not None else _teams_spec(ask_teams(keys, write))
        first: int | str | None = args.first
        if first is None:
            from voice_host.rules import parse_teams

            rng = random.Random(args.seed)
            first = ask_first(parse_teams(spec), keys, write, rng)
        entry_text, deck_size = deck_entry_text(write)
        if deck_size is not None:
            args.deck_size = deck_size
        game = build_game(args, spec, first)
        return KeyboardController(game, timer_seconds=args.timer, entry_text=entry_text)

    return run_terminal(make_controller, sys.stdin, sys.stdout)
