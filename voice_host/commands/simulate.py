"""`voice-host simulate SCRIPT`: play a scripted game and print the state after each line.

The script holds one host input per line in the vocabulary of
:mod:`voice_host.rules.inputs` (``correct``, ``spin red``, ``control-won Blue``...)
plus ``undo``; blank lines and comments (from a ``#`` that starts the line or
follows a space) are skipped.  After each input one
JSON object (see :func:`voice_host.rules.status`) is printed with ``line`` and
``input`` added.  The first illegal line stops the run with
``voice-host: line N: ...`` and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from voice_host.config import first_team, read_board
from voice_host.errors import InputFileError, UsageError
from voice_host.rules import (
    Game,
    HouseRules,
    RulesError,
    parse_teams,
    status,
)

HELP = "play a scripted game: one host input per line, the game state as JSON after each"

#: Teams used when ``--teams`` is not given.
DEFAULT_TEAMS = "Red:Ann,Bob;Blue:Cat,Dan,Eve"


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """The set-up options shared by ``simulate`` and ``play``."""
    parser.add_argument(
        "--board", metavar="PATH", help="a board layout (JSON) instead of the default board"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="N",
        help="seed the card order and spinner (the same seed replays the same game; "
        "simulate's default is 0, play's is a fresh shuffle)",
    )
    parser.add_argument(
        "--advanced",
        action="store_true",
        help="one describer per turn whatever the team size (rule R4)",
    )
    parser.add_argument(
        "--first",
        metavar="TEAM",
        help="the team that starts, by name or number (default: the first listed)",
    )
    parser.add_argument(
        "--rule",
        "--house",  # the name `voice-host play` uses
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a house rule, e.g. --rule foul-penalty=end-turn (repeatable; --house too)",
    )
    parser.add_argument(
        "--deck-size",
        type=_deck_size,
        default=500,
        metavar="N",
        help=f"cards in the deck, 1 to {MAX_DECK_SIZE} (default 500)",
    )


#: The most cards a simulated deck holds: more than any deck file, and the game
#: shuffles a list of them all.
MAX_DECK_SIZE = 100_000


def _deck_size(text: str) -> int:
    """``--deck-size``: a whole number of cards from 1 to :data:`MAX_DECK_SIZE`."""
    try:
        size = int(text)
    except ValueError:
        size = 0
    if not 1 <= size <= MAX_DECK_SIZE:
        raise argparse.ArgumentTypeError(
            f"expected a number of cards from 1 to {MAX_DECK_SIZE}, got {text!r}"
        )
    return size


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    parser.add_argument("script", metavar="SCRIPT", help="host inputs, one per line ('-': stdin)")
    parser.add_argument(
        "--teams",
        default=DEFAULT_TEAMS,
        metavar="SPEC",
        help=f'teams and players as NAME:PLAYER,PLAYER;... (default "{DEFAULT_TEAMS}")',
    )
    add_game_options(parser)
    parser.set_defaults(seed=0)  # scripts replay identically unless told otherwise


def build_game(args: argparse.Namespace, teams_spec: str, first: str | int | None = None) -> Game:
    """A new game from the shared options; bad options become :class:`UsageError`."""
    board = read_board(args.board)
    try:
        teams = parse_teams(teams_spec)
    except RulesError as exc:
        raise UsageError(f"--teams: {exc}") from None
    try:
        rules = HouseRules(advanced=args.advanced)
        for option in args.rule:
            rules = rules.with_option(option)
    except RulesError as exc:
        raise UsageError(f"--rule: {exc}") from None
    if args.advanced and not rules.advanced:
        raise UsageError("--advanced and --rule advanced=no disagree: give one")
    chosen = first if first is not None else first_team(args.first, teams)
    try:
        return Game(
            teams,
            board,
            rules,
            rng=random.Random(args.seed),  # None: a fresh game each time
            deck_size=args.deck_size,
            first_team=chosen,
        )
    except RulesError as exc:
        raise UsageError(str(exc)) from None


#: The longest script read, in bytes: a million inputs are a few megabytes.
MAX_SCRIPT_BYTES = 50_000_000


def _script_lines(path: str) -> list[str]:
    """The script's lines as an editor numbers them: split at line feeds, carriage
    returns or both (a stray form feed is no new line), a byte-order mark dropped."""
    name = "on standard input" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_SCRIPT_BYTES + 1)
        else:
            with Path(path).open("rb") as file:
                data = file.read(MAX_SCRIPT_BYTES + 1)
    except OSError as exc:
        raise InputFileError(f"cannot read script {path}: {exc.strerror}") from None
    if len(data) > MAX_SCRIPT_BYTES:  # /dev/zero was read until memory ran out
        raise InputFileError(f"script {name} is too big (over {MAX_SCRIPT_BYTES // 1_000_000} MB)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputFileError(f"script {name} is not UTF-8 text (line {line})") from None
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _without_comment(line: str) -> str:
    """``line`` without its comment: from a ``#`` that starts the line or follows a
    space (so a team called "R#1" can be named)."""
    for i, char in enumerate(line):
        if char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def run(args: argparse.Namespace) -> int:
    """Run the script; print one JSON state per input line."""
    game = build_game(args, args.teams)
    for team in game.teams:
        if _without_comment(team.name) != team.name:
            raise UsageError(
                f"--teams: team {team.name!r} cannot be named in a script "
                "(a '#' at the start or after a space begins a comment)"
            )
    # the longest input names a team ("control-won TEAM"): a line far longer is
    # no input (a file of other text), and is not quoted back whole
    longest = len("choose push ") + max(len(team.name) for team in game.teams) + 20
    for number, raw in enumerate(_script_lines(args.script), start=1):
        line = _without_comment(raw).strip()
        if not line:
            continue
        if len(line) > longest:
            raise InputFileError(
                f"line {number}: unknown input {line[:40]!r}... ({len(line):,} characters,"
                " too long to be a host input)"
            )
        try:
            if line.lower() == "undo":
                game.undo()
                text = "undo"
            else:
                text = game.apply_text(line).text()
        except RulesError as exc:
            raise InputFileError(f"line {number}: {exc}") from None
        print(json.dumps({"line": number, "input": text, **status(game)}), flush=True)
    return 0
