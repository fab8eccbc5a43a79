"""`voice-host play`: a game at the table.

Hands-free by default (the live host in :mod:`voice_host.host.live`: spoken
announcements, the microphone and the keyboard together, with the board view
on a terminal or line mode with ``--plain``).  When ``--teams`` is missing the
teams are set up at the table before the game starts: the host asks aloud and
players answer by voice or keys (T switches to typed names;
:mod:`voice_host.host.setup_live`); ``--no-voice-setup`` asks by typed prompts
instead.  ``--keyboard``
plays the keyboard-only game in the terminal (single keys, printed
announcements, no microphone or speech), the fallback of issue 2; it saves after
every change to the same file as the live host, and ``--keyboard --resume`` (or
the live host's ``--resume``) picks the game up again.  Options
come from the config file and the command line (:mod:`voice_host.config`).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import random
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from types import FrameType
from typing import Any

from voice_host.config import (
    MAX_TEAMS,
    HostConfig,
    add_play_arguments,
    check_file_names,
    config_from_args,
    first_team,
    names_a_team,
    read_board,
)
from voice_host.errors import SaveError, UsageError, VoiceHostError
from voice_host.host import dialogue
from voice_host.host.saved_game import (
    config_file_unused,
    keep_previous_game,
    resume_config,
    resume_game,
    resumed_time_left,
    save_or_discard,
    saved_offer,
    saved_to_resume,
)
from voice_host.keyboard import texts
from voice_host.keyboard.controller import EntryText, KeyboardController, card_label
from voice_host.keyboard.terminal import run_terminal
from voice_host.persist import SaveClaim, SaveSlot
from voice_host.rules import (
    Board,
    Game,
    Phase,
    RulesError,
    Team,
    parse_teams,
)
from voice_host.terminal_keys import (
    KeySource,
    ask_first,
    ask_resume,
    ask_teams,
    key_source,
    printer,
    silence_lost_terminal,
)

HELP = "play a game at the table: by voice and keys, or --keyboard for keys only"

#: Options of the live host that the ``--keyboard`` game (printed text, no sound) has
#: no use for, as the command line spells them.
_LIVE_ONLY = (
    "device",
    "card_audio",
    "model",
    "backend",
    "second_transcriber",
    "voice",
    "rate",
    "volume",
    "speech_tail",
    "wake_word",
    "plain",
    "screen_reader",
    "reader_rate",
    "keyboard_only",
    "show_card",
)


def _unused(args: argparse.Namespace, names: tuple[str, ...], mode: str, why: str) -> str | None:
    """The line that says which of the options ``names`` given on the command line do
    nothing with ``mode``, and ``why``; None when none of them was given."""
    given = [
        "--" + name.replace("_", "-")
        for name in names
        if getattr(args, name, None) not in (None, False, [])
    ]
    if not given:
        return None
    them = dialogue.names(given)
    does = "does" if len(given) == 1 else "do"
    return f"voice-host: {them} {does} nothing with {mode}{why}"


def unused_with_keyboard(args: argparse.Namespace) -> str | None:
    """The line that says which options given on the command line the ``--keyboard``
    game does not use, or None when it uses them all."""
    return _unused(
        args,
        _LIVE_ONLY,
        "--keyboard",
        " (printed text, no sound); --keyboard-only plays by keys with the host's voice, "
        "and --card-audio there speaks the card privately",
    )


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    add_play_arguments(parser)
    parser.add_argument(
        "--keyboard",
        action="store_true",
        help="keyboard-only game in the terminal: single keys, printed announcements",
    )
    parser.add_argument(
        "--no-voice-setup",
        action="store_true",
        help="without --teams, ask for the teams by typed prompts instead of aloud",
    )


def _teams_spec(teams: tuple[Team, ...]) -> str:
    return ";".join(f"{t.name}:{','.join(t.players)}" for t in teams)


def _deck_entries(
    config: HostConfig, write: Callable[[str], None], env: Mapping[str, str]
) -> tuple[EntryText, int]:
    """Card entries from the chosen deck and its size (labels when the built-in fails)."""
    from voice_host.deck.loader import load_builtin, load_players_deck

    if config.deck is not None:
        deck = load_players_deck(config.deck, env, write)  # a bad deck file stops the game
    else:
        try:
            deck = load_builtin()
        except (VoiceHostError, OSError, ValueError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            write(f"No deck ({first}): cards are shown by number.")
            return card_label, 500

    def entry_text(card_index: int, category: str) -> str:
        return deck.card(card_index).entry(category).text

    return entry_text, len(deck)


def _board(config: HostConfig) -> Board:
    return read_board(config.board)


class _KeyboardSaves:
    """The keyboard game's saves: the live host's save slot and format, after every change.

    Called (as the controller's ``on_change``) after each change; :meth:`farewell` says
    where the game is kept when play stops before the end.
    """

    def __init__(self, config: HostConfig, env: Mapping[str, str]) -> None:
        self.config = config
        """The options the game is played (and saved) with."""
        self.path = config.save_path(env)
        """The save file."""
        self.slot = SaveSlot(self.path)
        """The slot (its reports go to the game's printer once :meth:`open` is called)."""
        self.game: Game | None = None
        """The game being saved, once it exists."""
        self.controller: KeyboardController | None = None
        """The controller playing it (its turn's time left is saved too), once it exists."""
        self._report: Callable[[str], None] = print
        self._saved = False

    def open(self, write: Callable[[str], None]) -> None:
        """Report through ``write`` (one printed line a failure)."""
        self._report = write
        self.slot = SaveSlot(self.path, report=write)

    def __call__(self) -> None:
        if self.game is not None:
            left = None if self.controller is None else self.controller.saved_time_left
            held = self.controller is not None and self.controller.saved_held
            early = None if self.controller is None else self.controller.saved_ended_early
            self._saved = save_or_discard(
                self.slot,
                self.game,
                self.config.to_data(),
                self._report,
                time_left=left,
                held=held,
                ended_early=early,
            )

    @property
    def unsaved(self) -> bool:
        """True when a game in progress was left with its last change unsaved."""
        return self.game is not None and self.game.phase is not Phase.GAME_OVER and not self._saved

    def failure(self) -> str:
        """Why the game is left unsaved, in one line (the file and the system's reason)."""
        why = self.slot.failure or f"cannot save the game to {self.path}"
        if self.slot.saved_any:
            return f"{why}; the last good save is kept"
        return f"{why}; none of this game was saved"

    def farewell(self) -> str | None:
        """Where the game is saved and how to resume it; None when there is nothing to
        resume (no game yet, or it was won and its save removed)."""
        if self.game is None or self.game.phase is Phase.GAME_OVER:
            return None
        return texts.saved_at(
            self.path,
            default_path=self.config.save is None,
            saved=self._saved,
            saved_any=self.slot.saved_any,
        )


def _new_game(
    config: HostConfig,
    first_arg: str | None,
    keys: KeySource,
    write: Callable[[str], None],
    env: Mapping[str, str],
) -> tuple[Game, EntryText]:
    """A new game: the board and the deck (a bad file stops before any question), then
    the teams and the first team (asked when not given)."""
    board = _board(config)
    entry_text, deck_size = _deck_entries(config, write, env)
    spec = (
        config.teams if config.teams is not None else _teams_spec(ask_teams(keys, write, MAX_TEAMS))
    )
    try:
        teams = parse_teams(spec)
    except RulesError as exc:
        raise UsageError(f"--teams: {exc}") from None
    first: int | str | None = first_team(first_arg, teams) if first_arg is not None else None
    if isinstance(first, str) and config.teams is None and not names_a_team(first, teams):
        # the teams were typed just now: a --first (or config first) that names none of
        # them stopped the game after the whole set-up, everything typed lost (session
        # 54's audit); it is said, and asked instead
        write(f"The first team given, {first_arg!r}, is none of these teams.")
        first = None
    if first is None:
        first = ask_first(teams, keys, write, random.Random(config.seed))
    try:
        game = Game(
            teams,
            board,
            config.house_rules,
            rng=random.Random(config.seed),
            deck_size=deck_size,
            first_team=first,
        )
    except RulesError as exc:
        raise UsageError(str(exc)) from None
    return game, entry_text


def _keyboard_game(
    config: HostConfig,
    first_arg: str | None,
    env: Mapping[str, str] | None = None,
    *,
    offer_unused: str | None = None,
) -> int:
    """The keyboard-only game, saved after every change like the live host's (same file
    and format: either can resume the other's game); ``env`` finds the save file;
    ``offer_unused``: the line said when the set-up's offer of a saved game is taken
    (:func:`unused_with_offer_taken`)."""
    env = os.environ if env is None else env
    saves = _KeyboardSaves(config, env)

    def make_controller(keys: KeySource, write: Callable[[str], None]) -> KeyboardController:
        saves.open(write)
        played = saves.config
        if not played.resume and played.teams is None:  # a set-up: offer a saved game first
            offer = saved_offer(saves.path)
            if offer and ask_resume(keys, write, offer):
                played = dataclasses.replace(played, resume=True)
                if offer_unused is not None:
                    print(offer_unused, file=sys.stderr, flush=True)
        if played.resume:
            saved = saved_to_resume(saves.slot)
            played = resume_config(played, saved)  # the game's own deck and timer
            saves.config = played
            entry_text, deck_size = _deck_entries(played, write, env)
            game = resume_game(saved, deck_size, saves.slot.path)
            if (unused := config_file_unused(played, game)) is not None:
                print(unused, file=sys.stderr, flush=True)
            time_left = resumed_time_left(saved, game, played.timer)
            ended_early: Mapping[int, float] | None = saved.ended_early
        else:
            game, entry_text = _new_game(played, first_arg, keys, write, env)
            time_left = ended_early = None
            kept = keep_previous_game(saves.slot)
            if kept:
                write(kept)
        saves.game = game
        controller = KeyboardController(
            game,
            timer_seconds=played.timer,
            entry_text=entry_text,
            on_change=saves,
            resumed=played.resume,
            time_left=time_left,
            ended_early=ended_early,
        )
        saves.controller = controller
        saves()  # the game is in the save slot from its first moment
        return controller

    code = run_terminal(make_controller, sys.stdin, sys.stdout)
    line = saves.farewell()
    if line is not None:
        printer(sys.stdout)(line)
    if code == 0 and saves.unsaved:
        # the last change could not be saved: not a clean end, and said on stderr as
        # the live host says it
        raise SaveError(saves.failure())
    return code


#: Options that make a new game, which a resumed game keeps as it was saved with.
_NEW_GAME_ONLY = ("teams", "board", "seed", "first", "advanced", "house")


def unused_with_resume(args: argparse.Namespace) -> str | None:
    """The line that says which options given on the command line a resumed game does
    not take (its teams, board and rules are the saved game's), or None."""
    if not getattr(args, "resume", False):
        return None
    return _unused(
        args,
        _NEW_GAME_ONLY,
        "--resume",
        ": the saved game goes on with its own teams, board and rules (start a new game "
        "without --resume to change them)",
    )


def unused_with_offer_taken(args: argparse.Namespace) -> str | None:
    """As :func:`unused_with_resume`, for a saved game taken up at the set-up's offer
    (its yes resumes it as ``--resume`` would: the options that make a new game were
    dropped unsaid; session 54's audit)."""
    return _unused(
        args,
        _NEW_GAME_ONLY,
        "the saved game taken up",
        ": it goes on with its own teams, board and rules (answer no to start a new "
        "game with them)",
    )


def run(args: argparse.Namespace) -> int:
    """Play until there is a winner or the players quit (holding the save file all
    the while: a second game started on it is refused, :class:`SaveClaim`)."""
    config = config_from_args(args)
    check_file_names(config)
    unused = unused_with_resume(args)
    if unused is not None:
        print(unused, file=sys.stderr, flush=True)
    with SaveClaim(config.save_path()), _terminate_like_ctrl_c():
        return _play(args, config, (unused or "").removeprefix("voice-host: "))


#: A signal's handler, as :func:`signal.signal` returns it.
_Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None
#: Signals that end play as Ctrl-C does.
ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)


def _hung_up(signum: int, frame: FrameType | None) -> None:
    """SIGHUP: the terminal is gone (or going).  Its outputs are pointed at /dev/null
    first, so that the goodbye written on the way out cannot fail (EIO) after the save;
    a second hang-up (the shell passes its own on) does not cut the save short, nor
    does the SIGCONT the kernel sends with a hang-up (the board view's would start its
    full screen again, on no terminal, as it shuts down)."""
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGCONT, _continued_anyway)
    silence_lost_terminal()
    raise KeyboardInterrupt


def _continued_anyway(signum: int, frame: FrameType | None) -> None:
    """SIGCONT after a hang-up: nothing to do (the process goes on by itself)."""


@contextlib.contextmanager
def _terminate_like_ctrl_c() -> Iterator[None]:
    """SIGTERM (``kill``, a logout, a shutdown), SIGHUP (the terminal window closed, an
    ssh connection dropped) and SIGQUIT (Ctrl-\\, next to Enter on some keyboards) end
    play as Ctrl-C does: the turn's time left saved, the terminal put back (the board
    view leaves its full screen) and where the game is kept said, rather than the
    process dying mid-screen (or, for SIGQUIT, dumping core with the terminal left
    without echo).  A signal the process was started ignoring (``nohup``) stays ignored."""
    if threading.current_thread() is not threading.main_thread():  # only it may set one
        yield
        return
    previous: dict[signal.Signals, _Handler] = {}
    for number in ENDING_SIGNALS:
        if signal.getsignal(number) is signal.SIG_IGN:
            continue
        ours = _hung_up if number == signal.SIGHUP else signal.default_int_handler
        previous[number] = signal.signal(number, ours)
    continued = signal.getsignal(signal.SIGCONT)  # a hang-up changes it (see _hung_up)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if continued is not None:
            signal.signal(signal.SIGCONT, continued)


def _play(args: argparse.Namespace, config: HostConfig, unused: str = "") -> int:
    """The game in its mode; ``unused`` is the line already printed about options a
    resumed game does not take (the board view has the host say it too)."""
    if args.keyboard:
        ignored = unused_with_keyboard(args)
        if ignored is not None:
            print(ignored, file=sys.stderr, flush=True)
        return _keyboard_game(config, config.first, offer_unused=unused_with_offer_taken(args))
    from voice_host.host.live import run_live

    if config.teams is None and not config.resume and getattr(args, "no_voice_setup", False):
        write: Callable[[str], None] = lambda text: print(text, flush=True)  # noqa: E731
        keys = key_source(sys.stdin, write)
        offer = saved_offer(config.save_path())
        if offer and ask_resume(keys, write, offer):
            config = dataclasses.replace(config, resume=True)
            if (taken := unused_with_offer_taken(args)) is not None:
                print(taken, file=sys.stderr, flush=True)
        else:
            typed = ask_teams(keys, write, MAX_TEAMS)
            config = dataclasses.replace(config, teams=_teams_spec(typed))
            first = None if config.first is None else first_team(config.first, typed)
            if isinstance(first, str) and not names_a_team(first, typed):
                # as the keyboard game says it: not a stop after the whole set-up
                write(
                    f"The first team given, {config.first!r}, is none of these teams: "
                    f"{typed[0].name} starts."
                )
                config = dataclasses.replace(config, first=None)
    if config.screen_reader and config.show_card:
        print(
            "voice-host: --show-card with --screen-reader: your screen reader reads every "
            "card out, so play this way only with the reader on headphones (--card-audio "
            "says the card privately, and K shows it once)",
            file=sys.stderr,
            flush=True,
        )
    # Otherwise, without teams, run_live sets them up aloud (voice and keys) first.
    return run_live(
        config,
        show_card=config.show_card,
        notice=unused,
        offer_taken=unused_with_offer_taken(args) or "",
    )
