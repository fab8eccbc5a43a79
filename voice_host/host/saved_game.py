"""Saving and resuming a game in play: the same for the live host and the keyboard game.

Both write the same save file (:class:`~voice_host.persist.SaveSlot`, the engine's
``Game.to_json()`` and the play options inside), so a game started one way can be
resumed the other.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voice_host.errors import InputFileError, SaveError, UsageError
from voice_host.host.dialogue import names, previous_kept, resume_command
from voice_host.persist import SavedGame, SaveSlot
from voice_host.rules import Game, Phase, RulesError, parse_teams, possessive
from voice_host.rules.teams import name_key

if TYPE_CHECKING:
    from voice_host.config import HostConfig


#: A resumed turn goes on with at least this many seconds: the describer takes in the
#: card again, and a turn saved just before its buzzer is not over before "Go!" is said.
MIN_RESUMED_SECONDS = 5.0
#: The save of a game just won could not be removed (a folder made read-only), said
#: aloud: the file and the system's reason are printed or shown.
DISCARD_FAILED = "The game is over, but I could not remove its save."


def save_or_discard(
    slot: SaveSlot,
    game: Game,
    options: Mapping[str, Any],
    report: Callable[[str], None],
    *,
    time_left: float | None = None,
    held: bool = False,
    ended_early: Mapping[int, float] | None = None,
) -> bool:
    """Save ``game`` after a change (with ``time_left``, the seconds the turn in progress
    has left once its timer started, ``held``: that turn is paused or waits for its
    describer, and ``ended_early``: :attr:`SavedGame.ended_early`, those of inputs the
    game still has); once it is won remove the save instead, so that
    ``--resume`` finds no game in progress (an undo of the win saves it again).

    A failing save is reported once by the slot and play goes on; a failing removal is
    reported by the slot too (:meth:`SaveSlot.tell`: in plain words where it is told
    them), else through ``report``.  True when the slot now holds the game as it is.
    """
    if game.phase is Phase.GAME_OVER:
        try:
            slot.discard()
        except SaveError as exc:
            if slot.notifies:
                slot.tell(DISCARD_FAILED, f"{exc}.")
            else:
                report(f"{exc}.")
            return False
        return True
    if game.phase is not Phase.TURN:
        time_left, held = None, False
    made = len(game.inputs)
    early = {n: s for n, s in (ended_early or {}).items() if n <= made}
    return slot.autosave(game.to_json(), options, time_left=time_left, held=held, ended_early=early)


def _resumed_seconds(time_left: float) -> float:
    """A saved time left as a resumed turn gets it: rounded up, at least the minimum."""
    return float(max(MIN_RESUMED_SECONDS, math.ceil(time_left)))


def resumed_time_left(saved: SavedGame, game: Game, timer_seconds: float) -> float | None:
    """The seconds the saved turn goes on with: what its timer had left when it was
    last saved, rounded up to a whole second, at least :data:`MIN_RESUMED_SECONDS` and
    at most ``timer_seconds``; 0 when its time had run out (a turn given back by undo,
    whose count C, P and F fix and T ends); None (a full turn) when its timer had not
    started, or the game was saved between turns.  ``game`` is the one :func:`resume_game` made of
    ``saved``."""
    if saved.time_left is None or game.phase is not Phase.TURN:
        return None
    if saved.time_left <= 0:
        return 0.0  # its time had run out (given back by undo to fix its count): still so
    return min(timer_seconds, _resumed_seconds(saved.time_left))


def keep_previous_game(slot: SaveSlot) -> str:
    """Before a new game's first save: move the game saved in ``slot`` aside
    (:meth:`SaveSlot.keep_previous`) and return the sentence that says where it is
    now, or '' when there was none.  Starting a game without ``--resume`` never
    loses the one in progress.  Raises :class:`SaveError` when it cannot be kept."""
    kept = slot.keep_previous()
    if kept is None:
        return ""
    problem = summarise_save(kept, kept=True).problem
    if problem:  # a damaged file: kept, but not offered back as a game
        if problem.startswith("cannot be read"):  # unreadable (its permissions), not damaged
            return f"The save file this game could not read is kept in {kept} ({problem})."
        return f"The damaged save file is kept in {kept} ({problem})."
    return previous_kept(kept)


def saved_to_resume(slot: SaveSlot) -> SavedGame:
    """The game saved in ``slot``, read once for :func:`resume_config`,
    :func:`resume_game` and :func:`resumed_time_left`.

    Raises :class:`UsageError` when there is no save (naming a game kept when a new one
    started, if any), :class:`InputFileError` naming the file when it is not a valid
    save, and :class:`~voice_host.errors.SaveError` when it cannot be read.
    """
    saved = slot.load_game()
    if saved is not None:
        return saved
    kept = slot.kept_games()
    earlier = ""
    if kept:
        command = resume_command(kept[0], default_path=False)
        earlier = (
            f"; the game kept when a new one started: {command}"
            if len(kept) == 1
            else f"; the newest of the {len(kept)} games kept when new ones started: "
            f"{command} ('voice-host saves' lists them all)"
        )
    raise UsageError(f"no game in progress to resume (no save at {slot.path}){earlier}")


def resume_config(config: HostConfig, saved: SavedGame) -> HostConfig:
    """``config`` for going on with the ``saved`` game: with the game's own options back
    (:meth:`HostConfig.resumed`: its deck, timer, wake word), so that a game played
    with ``--deck kids.txt --timer 60`` goes on with them after a plain ``--resume``."""
    return config.resumed(saved.options)


def config_file_unused(config: HostConfig, game: Game) -> str | None:
    """The line that says which of the config file's new-game settings (its teams, house
    rules or board) the resumed ``game`` does not take because they differ from its
    own, or None.  A file edited between the game's start and its resume must not
    seem to have been read when it was not.  What the command line gave is said
    by ``unused_with_resume`` (:mod:`voice_host.commands.play`); the file the game
    was started with, unchanged, says nothing."""
    if config.config_file is None:
        return None
    differ: list[str] = []
    if config.teams is not None and "teams" not in config.given:
        try:
            teams = parse_teams(config.teams)
        except RulesError:
            teams = ()
        if [(name_key(t.name), t.players) for t in teams] != [
            (name_key(t.name), t.players) for t in game.teams
        ]:
            differ.append("teams")
    house = config.house_rules
    if (
        not {"house", "advanced"} & config.given
        and house != type(house)()  # the file sets house rules
        and house != game.rules
    ):
        differ.append("house rules")
    if config.board is not None and "board" not in config.given:
        from voice_host.config import read_board

        try:
            board = read_board(config.board).to_data()
        except InputFileError:
            board = None  # gone or damaged since: not the game's board either
        if board != game.board.to_data():
            differ.append("board")
    if not differ:
        return None
    them = names(differ)
    differs = "differs" if them == "board" else "differ"
    return (
        f"voice-host: the {them} in {config.config_file} {differs} from the saved game's: "
        "the saved game goes on with its own (start a new game without --resume to "
        "play with them)"
    )


def resume_game(saved: SavedGame, deck_size: int, source: Path) -> Game:
    """The ``saved`` game (read from ``source``), to be played on with a deck of
    ``deck_size`` cards.

    Raises :class:`UsageError` when the deck's size differs from the saved game's, and
    :class:`InputFileError` naming ``source`` when the game in it is not valid.
    """
    try:
        game = Game.from_json(saved.game)
    except RulesError as exc:
        raise InputFileError(f"{source}: {exc}") from None
    if game.deck_size != deck_size:
        played = saved.options.get("deck")
        with_deck = f" ({played})" if isinstance(played, str) and played else ""
        raise UsageError(
            f"the saved game used a deck of {game.deck_size} cards{with_deck}, this one has "
            f"{deck_size}: resume with that deck as it was (its cards are numbered), or "
            "start a new game"
        )
    return game


# -- the saved games a player can go back to (`voice-host saves`) ------------------------


@dataclass(frozen=True)
class SaveSummary:
    """What one save file holds, in a player's words: enough to choose which to resume."""

    path: Path
    """The file."""
    kept: bool
    """True for a game moved aside when a new one started; False for the game in progress."""
    saved_at: str = ""
    """When it was last saved, ISO 8601 in UTC ('' when unknown)."""
    where: str = ""
    """Whose turn it is and what the game waits for ("Red's turn 7"), or ''."""
    teams: tuple[tuple[str, int], ...] = ()
    """Each team's name and segment (0 = START), in playing order."""
    finish: int = 0
    """The FINISH segment's number."""
    deck: str = ""
    """The deck file it was played with ('' for the packaged deck)."""
    deck_gone: bool = False
    """Whether that deck file is not there now (the game resumes only with ``--deck``)."""
    problem: str = ""
    """Why it cannot be resumed ('' when it can)."""

    def to_data(self, *, default_path: bool) -> dict[str, Any]:
        """JSON-ready, one object per save (``voice-host saves --json``)."""
        return {
            "path": str(self.path),
            "kept": self.kept,
            "saved_at": self.saved_at or None,
            "where": self.where or None,
            "teams": [{"name": name, "segment": segment} for name, segment in self.teams],
            "finish": self.finish or None,
            "deck": self.deck or None,
            "deck_gone": self.deck_gone,
            "problem": self.problem or None,
            "resume": None if self.problem else self.resume(default_path=default_path),
        }

    def lines(self, *, default_path: bool) -> list[str]:
        """The summary as printed: the file, then indented what it holds and how to go on."""
        lines = [str(self.path)]
        when = local_time(self.saved_at)
        if self.problem:
            lines.append(f"  cannot be resumed: {self.problem}")
            if when:
                lines.append(f"  saved {when}")
            return lines
        first = f"  saved {when}: {self.where}" if when else f"  {self.where}"
        lines.append(first)
        lines.append("  " + ", ".join(self.standing()))
        if self.deck_gone:
            lines.append(f"  deck {self.deck}, which is not there now: resume with --deck DECK")
        elif self.deck:
            lines.append(f"  deck {self.deck}")
        lines.append(f"  resume: {self.resume(default_path=default_path)}")
        return lines

    def resume(self, *, default_path: bool) -> str:
        """The command that resumes it; ``default_path`` says the slot is play's default
        file (a kept game always needs its own ``--save``)."""
        return resume_command(self.path, default_path=default_path and not self.kept)

    def standing(self) -> list[str]:
        """Where each team stands: "Red on 7 of 47", "Blue on START"."""
        return [self._stands(name, at) for name, at in self.teams]

    def _stands(self, team: str, segment: int) -> str:
        if segment == 0:
            return f"{team} on START"
        if segment == self.finish:
            return f"{team} on FINISH"
        return f"{team} on {segment} of {self.finish}"


def saved_offer(path: Path) -> str:
    """What the game saved at ``path`` holds, said when a new game is about to be set
    up there ("Blue's turn 4, Nature; Red on 7 of 47, Blue on START; saved 2026-12-04
    21:30"), or '' when there is none to go on with (no file, or one that cannot be
    resumed: a new game moves it aside and says so)."""
    try:
        if not path.is_file():
            return ""
    except OSError:
        return ""
    summary = summarise_save(path, kept=False)
    if summary.problem:
        return ""
    stands = ", ".join(summary.standing())
    when = spoken_time(summary.saved_at, datetime.now().astimezone())
    return f"{summary.where}; {stands}" + (f"; saved {when}" if when else "")


def spoken_time(stamp: str, now: datetime) -> str:
    """A save's UTC stamp as said aloud, on the local clock of ``now``: "today at 21:30",
    "yesterday at 09:05", "on 1 December at 20:04" (with the year when not this one);
    '' when the stamp is unreadable."""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(now.tzinfo)
    clock = moment.strftime("%H:%M")
    days = (now.date() - moment.date()).days
    if days == 0:
        return f"today at {clock}"
    if days == 1:
        return f"yesterday at {clock}"
    day = f"{moment.day} {moment.strftime('%B')}"
    if moment.year != now.year:
        day += f" {moment.year}"
    return f"on {day} at {clock}"


def local_time(stamp: str) -> str:
    """A save's UTC stamp as the local clock shows it ("2026-12-04 21:30"), or ''."""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def _where(game: Game, time_left: float | None = None) -> str:
    team = game.to_play.name
    turn = game.state.turn
    phase = game.phase
    if phase is Phase.TURN:
        correct = game.state.correct
        so_far = f", {correct} correct so far" if correct else ""
        if time_left is not None and time_left <= 0:  # given back by undo to fix its count
            so_far += ", its time up"
        elif time_left is not None:  # a turn cut short (it goes on with at least 5 s)
            so_far += f", {_resumed_seconds(time_left):g} seconds left"
        return f"{possessive(team)} turn {turn}, {game.category_for(team)}{so_far}"
    if phase is Phase.SPIN:
        return f"{team} to spin (turn {turn})"
    if phase is Phase.SPIN_CHOICE:
        return f"{team} to choose after a spin (turn {turn})"
    if phase is Phase.CONTROL_ROUND:
        return f"a CONTROL round on {possessive(team)} turn {turn}"
    if phase is Phase.FINISH_ROUND:
        return f"{possessive(team)} FINISH round (turn {turn})"
    return f"won by {game.winner}"


def summarise_save(path: Path, *, kept: bool) -> SaveSummary:
    """Read the save at ``path`` and say what it holds; a file that cannot be read or
    resumed gives a summary whose ``problem`` says why (never an exception)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return SaveSummary(path, kept, problem="not a saved game (not UTF-8 text)")
    except OSError as exc:
        return SaveSummary(path, kept, problem=f"cannot be read ({exc.strerror})")
    try:
        saved = SavedGame.from_json(text, path)
    except InputFileError as exc:
        why = str(exc).removeprefix(f"{path}: ").split(";")[0]
        return SaveSummary(path, kept, problem=why)
    try:
        game = Game.from_json(saved.game)
    except RulesError as exc:
        return SaveSummary(path, kept, saved_at=saved.saved_at, problem=str(exc))
    deck = saved.options.get("deck")
    return SaveSummary(
        path,
        kept,
        saved_at=saved.saved_at,
        where=_where(game, saved.time_left),
        teams=tuple((t.name, game.position(i)) for i, t in enumerate(game.teams)),
        finish=len(game.board) - 1,
        deck=deck if isinstance(deck, str) else "",
        deck_gone=isinstance(deck, str) and bool(deck) and not Path(deck).expanduser().is_file(),
    )


def list_saves(slot: SaveSlot) -> list[SaveSummary]:
    """The game in progress in ``slot`` (if any), then the games kept beside it, newest first."""
    try:
        in_progress = slot.path.is_file()
    except OSError as exc:
        raise SaveError(
            f"cannot look for saved games in {slot.path.parent}: {exc.strerror}"
        ) from None
    found = [summarise_save(slot.path, kept=False)] if in_progress else []
    found += [summarise_save(path, kept=True) for path in slot.kept_games()]
    return found
