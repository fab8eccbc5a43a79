"""The game's whole state as one frozen value, and its JSON form."""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, fields
from typing import Any

from voice_host.rules.errors import SaveFormatError
from voice_host.rules.inputs import SpinResult


class Phase(enum.StrEnum):
    """What the game waits for."""

    TURN = "turn"
    """A timed turn (R5-R12): correct, pass, foul, time-up."""
    SPIN = "spin"
    """The team landed on SPIN and must spin (R18)."""
    SPIN_CHOICE = "spin-choice"
    """A green result: own piece forward, or which opponent back (R18, R19)."""
    CONTROL_ROUND = "control-round"
    """A CONTROL entry described to all teams; waiting for who answered first (R13-R17)."""
    FINISH_ROUND = "finish-round"
    """The team on FINISH describes a CONTROL entry to all teams (R22, R23)."""
    GAME_OVER = "game-over"
    """A team won."""


@dataclass(frozen=True)
class GameState:
    """Everything that changes during a game; equal states mean equal games from here on.

    Team-indexed tuples follow the order of the game's teams.
    """

    phase: Phase
    """What the game waits for."""
    to_play: int
    """Index of the team whose turn or round it is (the winner once the game is over)."""
    positions: tuple[int, ...]
    """Each team's segment index: 0 is START, the board's last segment is FINISH."""
    control_retry: tuple[bool, ...]
    """Teams that failed a CONTROL round and play one again at their next turn (R16)."""
    rotation: tuple[int, ...]
    """Each team's next describer, as an index into its players (R4)."""
    describers: tuple[str, ...]
    """The players describing the current turn or round."""
    passes_left: int
    """PASSes the team may still use this turn (R10)."""
    correct: int
    """Cards guessed correctly this turn (the piece moves this many at time-up, R8)."""
    turn: int
    """Turns begun so far, counting the first as 1 (a new number means a new turn)."""
    spin_steps: int
    """Segments the pending green result moves (SPIN_CHOICE only, else 0)."""
    last_spin: SpinResult | None
    """The latest spinner result, kept until the next landing on SPIN; None before its first
    spin."""
    resume_after: int | None
    """After a stolen CONTROL turn, the team after whom play resumes (house rule), else None."""
    current_card: int | None
    """Index (0-based) of the card being described, None when no card is out."""
    deck_order: tuple[int, ...]
    """The shuffled order of card indices in the current pass through the deck."""
    deck_pos: int
    """How many cards of ``deck_order`` have been drawn; the rest are still to come."""
    deck_cycle: int
    """How many times the discards were reshuffled into a new deck."""
    winner: int | None
    """Index of the winning team, once there is one."""
    rng_state: tuple[Any, ...]
    """The random source's state (``random.Random.getstate()``) after its latest use."""

    def to_data(self) -> dict[str, Any]:
        """JSON-ready data, read back by :meth:`from_data`."""
        data: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = list(value)
            data[f.name] = value
        data["phase"] = self.phase.value
        data["last_spin"] = None if self.last_spin is None else self.last_spin.value
        version, internal, gauss = self.rng_state
        data["rng_state"] = [version, list(internal), gauss]
        return data

    @classmethod
    def from_data(cls, data: object) -> GameState:
        """Build from :meth:`to_data` output; :class:`SaveFormatError` names a bad field."""
        if not isinstance(data, dict):
            raise SaveFormatError("saved state is not an object")
        names = [f.name for f in fields(cls)]
        missing = [n for n in names if n not in data]
        if missing:
            raise SaveFormatError(f"saved state lacks {missing[0]!r}")
        values: dict[str, Any] = {}
        for name, parse in _FIELD_PARSERS.items():
            try:
                values[name] = parse(data[name])
            except (TypeError, ValueError):
                raise SaveFormatError(f"saved state's {name!r} is garbled") from None
        return cls(**values)


def _ints(value: Any) -> tuple[int, ...]:
    return tuple(int(x) for x in value)


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _rng_state(value: Any) -> tuple[int, tuple[int, ...], Any]:
    version, internal, gauss = value
    state = (int(version), _ints(internal), gauss)
    check = random.Random(0)
    check.setstate(state)  # ValueError or TypeError for a state it cannot take
    return state


#: How each saved field of :class:`GameState` is read back (a bad one is named).
_FIELD_PARSERS: dict[str, Any] = {
    "phase": Phase,
    "to_play": int,
    "positions": _ints,
    "control_retry": lambda v: tuple(bool(x) for x in v),
    "rotation": _ints,
    "describers": lambda v: tuple(str(x) for x in v),
    "passes_left": int,
    "correct": int,
    "turn": int,
    "spin_steps": int,
    "last_spin": lambda v: None if v is None else SpinResult(v),
    "resume_after": _optional_int,
    "current_card": _optional_int,
    "deck_order": _ints,
    "deck_pos": int,
    "deck_cycle": int,
    "winner": _optional_int,
    "rng_state": _rng_state,
}
