"""Saving and resuming a game in play: the same for the live host and the keyboard game.

Both write the same save file (:class:`~voice_host.persist.SaveSlot`, the engine's
``Game.to_json()`` and the play options inside), so a game started one way can be
resumed the other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from voice_host.errors import InputFileError, SaveError, UsageError
from voice_host.keyboard.texts import previous_kept, resume_command
from voice_host.persist import SaveSlot
from voice_host.rules import Game, Phase, RulesError


def save_or_discard(
    slot: SaveSlot, game: Game, options: Mapping[str, Any], report: Callable[[str], None]
) -> bool:
    """Save ``game`` after a change; once it is won remove the save instead, so that
    ``--resume`` finds no game in progress (an undo of the win saves it again).

    A failing save is reported once by the slot and play goes on; a failing removal is
    reported through ``report``.  True when the slot now holds the game as it is.
    """
    if game.phase is Phase.GAME_OVER:
        try:
            slot.discard()
        except SaveError as exc:
            report(f"{exc}.")
            return False
        return True
    return slot.autosave(game.to_json(), options)


def keep_previous_game(slot: SaveSlot) -> str:
    """Before a new game's first save: move the game saved in ``slot`` aside
    (:meth:`SaveSlot.keep_previous`) and return the sentence that says where it is
    now, or '' when there was none.  Starting a game without ``--resume`` never
    loses the one in progress.  Raises :class:`SaveError` when it cannot be kept."""
    kept = slot.keep_previous()
    return previous_kept(kept) if kept is not None else ""


def resume_game(slot: SaveSlot, deck_size: int) -> Game:
    """The game saved in ``slot``, to be played on with a deck of ``deck_size`` cards.

    Raises :class:`UsageError` when there is no save or the deck's size differs from the
    saved game's, :class:`InputFileError` naming the file when it is not a valid save, and
    :class:`~voice_host.errors.SaveError` when it cannot be read.
    """
    saved = slot.load_game()
    if saved is None:
        kept = slot.kept_games()
        earlier = (
            f"; the game kept when a new one started: {resume_command(kept[0], default_path=False)}"
            if kept
            else ""
        )
        raise UsageError(f"no game in progress to resume (no save at {slot.path}){earlier}")
    try:
        game = Game.from_json(saved.game)
    except RulesError as exc:
        raise InputFileError(f"{slot.path}: {exc}") from None
    if game.deck_size != deck_size:
        raise UsageError(
            f"the saved game used a deck of {game.deck_size} cards, this one has {deck_size}"
        )
    return game
