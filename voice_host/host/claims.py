"""CONTROL and FINISH rounds: which team answered first (R14, R17).

One microphone cannot tell teams apart, so teams claim by name (voice) or by
their buzzer key.  Claims from different teams less than
:data:`SIMULTANEOUS_SECONDS` apart are simultaneous (R17: another card).  A
decision waits :data:`SETTLE_SECONDS` after the window closes when voice is
live, because a spoken name reaches the host later than the moment it was
said (the recogniser's endpointing and decoding).
"""

from __future__ import annotations

from dataclasses import dataclass

#: Two claims from different teams this close (seconds) are simultaneous (R17).
SIMULTANEOUS_SECONDS = 0.5
#: How long (seconds) after the window the host waits for a spoken claim still in the
#: recogniser; measured end-of-word to judgement on the fixtures is 0.4-1.0 s.
SETTLE_SECONDS = 1.0
#: How long (seconds) after an answer heard in a round the host waits for a team's
#: name before it asks which team: the name often follows the answer after a breath
#: ("Telescope! ... Blue!"), and the host hears nothing while it speaks.
ASK_AFTER_SECONDS = 1.0


@dataclass(frozen=True)
class Claim:
    """One team's claim."""

    team: int
    """Team index."""
    t: float
    """Seconds on the host's clock when it was made (a spoken name: when it was said)."""
    by: str
    """``key`` or ``voice``."""


@dataclass(frozen=True)
class ClaimResult:
    """The decision: a winner, or simultaneous claims."""

    winner: int | None
    """The first team, or None when two teams claimed at once."""
    claims: tuple[Claim, ...]
    """The claims that decided, earliest first."""


class ClaimWindow:
    """Collects claims and decides once the window (plus the settle time) has passed."""

    def __init__(
        self, window: float = SIMULTANEOUS_SECONDS, settle: float = SETTLE_SECONDS
    ) -> None:
        self.window = window
        self.settle = settle
        self._claims: list[Claim] = []

    @property
    def open(self) -> bool:
        """Whether a claim is waiting for its decision."""
        return bool(self._claims)

    def clear(self) -> None:
        """Forget every claim (a new round or card)."""
        self._claims.clear()

    def claim(self, claim: Claim) -> None:
        """Add a claim (a team's repeated claim is ignored)."""
        if any(c.team == claim.team for c in self._claims):
            return
        self._claims.append(claim)

    def due(self, settle: bool) -> float | None:
        """The clock time at which to decide, or None with no claim."""
        if not self._claims:
            return None
        first = min(c.t for c in self._claims)
        return first + self.window + (self.settle if settle else 0.0)

    def decide(self, now: float, *, settle: bool = True) -> ClaimResult | None:
        """The decision once due at ``now`` (and the window cleared), else None."""
        due = self.due(settle)
        if due is None or now < due:
            return None
        ordered = sorted(self._claims, key=lambda c: c.t)
        first = ordered[0]
        rivals = [c for c in ordered[1:] if c.t - first.t <= self.window]
        self._claims.clear()
        if rivals:
            return ClaimResult(None, (first, *rivals))
        return ClaimResult(first.team, (first,))
