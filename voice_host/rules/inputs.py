"""What the host tells the engine: small frozen values, each with its text form.

The text forms are the ``voice-host simulate`` vocabulary: ``correct``,
``pass``, ``foul``, ``time-up``, ``spin [wide-green|narrow-green|red|line]``,
``choose forward``, ``choose push TEAM``, ``control-won TEAM``,
``control-simultaneous`` (or ``control-pass``, the same input said as "nobody can
get it").  ``undo`` is a method of the game, not an input.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from voice_host.rules.errors import InputSyntaxError


class SpinResult(enum.StrEnum):
    """Where the spinner's arrow stops (R18)."""

    WIDE_GREEN = "wide-green"
    """Own piece forward 2, or an opponent back 2."""
    NARROW_GREEN = "narrow-green"
    """Own piece forward 3, or an opponent back 3."""
    RED = "red"
    """No bonus (the orange/red part)."""
    LINE = "line"
    """On a line: spin again."""

    @property
    def steps(self) -> int:
        """Segments a green result moves a piece; 0 for red and line."""
        return {"wide-green": 2, "narrow-green": 3}.get(self.value, 0)


#: Relative chance of each spinner result when the engine spins (``Spin()`` with no result).
#: An estimate of the boxed spinner's areas: broad green and red halves, a narrow green
#: wedge, and the thin lines between them.
SPINNER_WEIGHTS: dict[SpinResult, float] = {
    SpinResult.WIDE_GREEN: 0.40,
    SpinResult.NARROW_GREEN: 0.15,
    SpinResult.RED: 0.40,
    SpinResult.LINE: 0.05,
}


@dataclass(frozen=True)
class Correct:
    """The guessers got the card (R7): count it and draw the next card."""

    def text(self) -> str:
        """The input's text form."""
        return "correct"


@dataclass(frozen=True)
class Pass:
    """Skip the card; it does not count (R10, one per turn by default)."""

    def text(self) -> str:
        """The input's text form."""
        return "pass"


@dataclass(frozen=True)
class Foul:
    """The describer broke a describing rule (R11, R12): the card is forfeited."""

    def text(self) -> str:
        """The input's text form."""
        return "foul"


@dataclass(frozen=True)
class TimeUp:
    """The host's timer ran out: the turn ends and the piece moves (R8)."""

    def text(self) -> str:
        """The input's text form."""
        return "time-up"


@dataclass(frozen=True)
class Spin:
    """Spin the spinner (R18).  ``result`` None: the engine spins with its own random source."""

    result: SpinResult | None = None
    """Where the arrow stopped, when a real spinner was used; None lets the engine spin."""

    def text(self) -> str:
        """The input's text form."""
        return "spin" if self.result is None else f"spin {self.result.value}"


@dataclass(frozen=True)
class Choose:
    """After a green spin: own piece forward (``team`` None) or push ``team`` back (R18)."""

    team: str | None = None
    """The opponent to push back; None moves the spinning team forward."""

    @classmethod
    def forward(cls) -> Choose:
        """Move the spinning team's own piece forward."""
        return cls(None)

    @classmethod
    def push(cls, team: str) -> Choose:
        """Push the named opponent back."""
        return cls(team)

    def text(self) -> str:
        """The input's text form."""
        return "choose forward" if self.team is None else f"choose push {self.team}"


@dataclass(frozen=True)
class ControlWon:
    """``team`` shouted the answer first in a CONTROL or FINISH round (R14, R22)."""

    team: str
    """The team's name, matched case-insensitively."""

    def text(self) -> str:
        """The input's text form."""
        return f"control-won {self.team}"


@dataclass(frozen=True)
class ControlSimultaneous:
    """Two teams answered at once (R17), or nobody can get it: draw another card."""

    def text(self) -> str:
        """The input's text form."""
        return "control-simultaneous"


Input = Correct | Pass | Foul | TimeUp | Spin | Choose | ControlWon | ControlSimultaneous
"""Any input the engine accepts."""

_BARE: dict[str, Input] = {
    "correct": Correct(),
    "pass": Pass(),
    "foul": Foul(),
    "time-up": TimeUp(),
    "control-simultaneous": ControlSimultaneous(),
    # the same input when nobody can get the card (P or "host pass" in a round)
    "control-pass": ControlSimultaneous(),
    "spin": Spin(),
}

VOCABULARY: tuple[str, ...] = (
    "correct",
    "pass",
    "foul",
    "time-up",
    "spin [wide-green|narrow-green|red|line]",
    "choose forward",
    "choose push TEAM",
    "control-won TEAM",
    "control-simultaneous",
    "control-pass",
)
"""Every input's text form, for help and error messages."""


def parse_input(text: str) -> Input:
    """Parse one input's text form (case-insensitive words; team names kept as written)."""
    words = text.split()
    if not words:
        raise InputSyntaxError("empty input")
    head = words[0].lower()
    rest = " ".join(words[1:])
    if head in _BARE and not rest:
        return _BARE[head]
    if head == "spin" and len(words) == 2:
        try:
            return Spin(SpinResult(words[1].lower()))
        except ValueError:
            choices = ", ".join(r.value for r in SpinResult)
            raise InputSyntaxError(
                f"unknown spin result {words[1]!r} (expected {choices})"
            ) from None
    if head == "choose" and rest.lower() == "forward":
        return Choose.forward()
    if head == "choose" and len(words) >= 3 and words[1].lower() == "push":
        return Choose.push(" ".join(words[2:]))
    if head == "control-won" and rest:
        return ControlWon(rest)
    raise InputSyntaxError(
        f"unknown input {text.strip()!r} (expected one of: {'; '.join(VOCABULARY)})"
    )
