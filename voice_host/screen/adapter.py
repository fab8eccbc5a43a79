"""Build a :class:`ScreenModel` from the rules engine's :class:`~voice_host.rules.Game`.

The engine knows positions, phases and which card index is out; the host adds
what only it knows (timer, the card's text, what was heard and said).
"""

from __future__ import annotations

from collections.abc import Mapping

from voice_host.deck.model import Deck
from voice_host.rules.game import Game
from voice_host.rules.inputs import Choose
from voice_host.rules.state import Phase
from voice_host.screen.colours import team_colours, team_marks
from voice_host.screen.model import ScreenModel, TeamView, TimerView


def screen_model_from_game(
    game: Game,
    *,
    timer: TimerView | None = None,
    card: str | None = None,
    heard: str = "",
    judgement: str = "",
    judged: str = "",
    announcement: str = "",
    message: str = "",
    colours: Mapping[str, str] | None = None,
) -> ScreenModel:
    """The screen for ``game`` now.

    ``timer`` is the host's turn timer (None hides it); ``card`` is the entry
    text to show the describer (None hides the card panel; see
    :func:`card_text`); ``heard``, ``judgement``, ``announcement`` and
    ``message`` are the host's latest texts, ``judged`` the kind of judgement
    ``judgement`` is; ``colours`` maps team names to
    ``#rrggbb`` piece colours (others are chosen by :func:`team_colours`).
    """
    state = game.state
    names = [t.name for t in game.teams]
    teams = tuple(
        TeamView(name=name, colour=colour, position=pos, mark=mark)
        for name, colour, pos, mark in zip(
            names, team_colours(names, colours), state.positions, team_marks(names), strict=True
        )
    )
    return ScreenModel(
        segments=game.board.segments,
        teams=teams,
        to_play=state.to_play,
        phase=state.phase,
        describers=state.describers,
        category=game.category,
        turn_number=state.turn,
        timer=timer,
        card=card,
        count=state.correct,
        passes_left=state.passes_left,
        spin_result=None if state.last_spin is None else state.last_spin.value,
        spin_steps=state.spin_steps,
        pushable=_pushable(game),
        winner=game.winner,
        heard=heard,
        judgement=judgement,
        judged=judged,
        announcement=announcement,
        message=message,
        board_name=game.board.name,
    )


def _pushable(game: Game) -> tuple[str, ...]:
    """After a green spin, the teams the engine lets the spinning team push back (R19)."""
    if game.state.phase is not Phase.SPIN_CHOICE:
        return ()
    return tuple(
        inp.team for inp in game.legal_inputs() if isinstance(inp, Choose) and inp.team is not None
    )


def card_text(game: Game, deck: Deck) -> str | None:
    """The text of the entry being described now, or None when no card is out.

    In a turn it is the entry of the team's category; in CONTROL and FINISH
    rounds the card's ``Control`` entry.  Raises :class:`ValueError` when the
    game's card index is outside ``deck`` (the game was set up for another deck).
    """
    index = game.current_card
    category = game.category
    if index is None or category is None or game.phase is Phase.GAME_OVER:
        return None
    if not 0 <= index < len(deck):
        raise ValueError(f"card {index} is not in deck {deck.name!r} of {len(deck)} cards")
    return deck.card(index).entry(category).text
