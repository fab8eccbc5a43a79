"""A plain, JSON-ready view of a game for people and scripts (``voice-host simulate``)."""

from __future__ import annotations

from typing import Any

from voice_host.rules.game import Game


def status(game: Game) -> dict[str, Any]:
    """What a player would want to know now, as JSON-ready data.

    Keys: ``phase``; ``to_play`` (team name); ``turn`` (turns begun, from 1);
    ``describers``; ``category`` (what is being described now: a category,
    ``Control`` in CONTROL/FINISH rounds, null otherwise); ``card`` (0-based
    card index or null); ``passes_left``; ``correct`` (cards guessed this
    turn); ``spin`` (latest spinner result of the current SPIN or null);
    ``spin_steps`` (segments of a pending green result, else 0); ``teams`` (a
    list in playing order of ``name``, ``segment`` (0 = START), ``kind``
    (START, NORMAL, CONTROL, SPIN, FINISH), ``category`` (the segment's own
    category or null), ``plays`` (the category the team describes from there)
    and ``control_retry`` (owes a CONTROL round, R16)); ``allowed`` (the text of
    every input allowed now); ``winner`` (team name or null).
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
                "plays": game.category_for(i),
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
        "allowed": [inp.text() for inp in game.legal_inputs()],
        "winner": game.winner,
    }
