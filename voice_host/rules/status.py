"""A plain, JSON-ready view of a game for people and scripts (``voice-host simulate``)."""

from __future__ import annotations

from typing import Any

from voice_host.rules.board import CONTROL_ENTRY
from voice_host.rules.game import Game
from voice_host.rules.inputs import Spin
from voice_host.rules.state import Phase


def status(game: Game) -> dict[str, Any]:
    """What a player would want to know now, as JSON-ready data.

    Keys: ``phase``; ``to_play`` (team name); ``turn`` (turns begun, from 1);
    ``describers``; ``category`` (what is being described now: a category,
    ``Control`` in CONTROL/FINISH rounds, null otherwise); ``card`` (0-based
    card index or null); ``passes_left`` and ``correct`` (cards guessed this
    turn; between turns, the last turn's until the next begins); ``spin`` (the
    latest spinner result, kept until the next landing on SPIN; null before the
    first spin);
    ``spin_steps`` (segments of a pending green result, else 0); ``teams`` (a
    list in playing order of ``name``, ``segment`` (0 = START), ``kind``
    (START, NORMAL, CONTROL, SPIN, FINISH), ``category`` (the segment's own
    category or null), ``plays`` (what the team describes at its next turn from
    there: its segment's category, or ``Control`` on FINISH or owing a CONTROL round)
    and ``control_retry`` (owes a CONTROL round, R16)); ``allowed`` (the text of
    every input allowed now: in a SPIN, ``spin`` first); ``winner`` (team name or null).
    """
    s = game.state
    teams = []
    for i, team in enumerate(game.teams):
        seg = game.board[s.positions[i]]
        teams.append(
            {
                "name": team.name,
                "segment": s.positions[i],
                "kind": seg.kind.value,
                "category": seg.category,
                "plays": (
                    CONTROL_ENTRY
                    if s.positions[i] == game.board.finish or s.control_retry[i]
                    else game.category_for(i)
                ),
                "control_retry": s.control_retry[i],
            }
        )
    return {
        "phase": s.phase.value,
        "to_play": game.teams[s.to_play].name,
        "turn": s.turn,
        "describers": list(s.describers),
        "category": game.category,
        "card": s.current_card,
        "passes_left": s.passes_left,
        "correct": s.correct,
        "spin": None if s.last_spin is None else s.last_spin.value,
        "spin_steps": s.spin_steps,
        "teams": teams,
        "allowed": allowed_texts(game),
        "winner": game.winner,
    }


def allowed_texts(game: Game) -> list[str]:
    """The text of every input allowed now; in a SPIN, a bare ``spin`` (the
    engine's spinner) before the four results a real spinner may give."""
    texts = [inp.text() for inp in game.legal_inputs()]
    if game.state.phase is Phase.SPIN:
        texts.insert(0, Spin().text())
    return texts
