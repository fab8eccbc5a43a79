"""House rules: every default that rules.md chose where the source is silent, as a named option.

The options are fixed when a game starts.  The turn timer (R5) and the grace
for speech already under way when it runs out (R8) belong to the host, not
here: the engine never counts time.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, get_args

from voice_host.rules.board import CATEGORIES
from voice_host.rules.errors import SetupError

FoulPenalty = Literal["forfeit", "lose-one", "end-turn"]
SpecialCategory = Literal["next", "previous"]
FinishBySpin = Literal["next-turn", "immediately"]
AfterFailedFinish = Literal["next-team", "winner"]
OrderAfterControl = Literal["from-winner", "from-lander"]

#: The allowed words of each option that takes one of a few words.
CHOICES: dict[str, tuple[str, ...]] = {
    "special_category": get_args(SpecialCategory),
    "foul_penalty": get_args(FoulPenalty),
    "finish_by_spin": get_args(FinishBySpin),
    "after_failed_finish": get_args(AfterFailedFinish),
    "order_after_control": get_args(OrderAfterControl),
}


#: Most passes a turn may allow (R10 house rule): more is no rule, and a typo.
MAX_PASSES = 100


@dataclass(frozen=True)
class HouseRules:
    """Options fixed at game start; each field names the rule it settles."""

    advanced: bool = False
    """R4: one describer per turn whatever the team size (default off: 1, 2 or 2 by size)."""
    rotate_describers: bool = True
    """R4: describers rotate through the team's players turn by turn.  Off: the same players
    describe every turn, except that R15 still changes them for a CONTROL bonus turn."""
    start_category: str | None = None
    """R6: the category described on START.  None: that of the first category segment."""
    special_category: SpecialCategory = "next"
    """R6: the category described when a turn starts on a SPIN or CONTROL segment (or START
    with ``start_category`` None): that of the ``next`` category segment ahead, or the
    ``previous`` one behind."""
    passes_per_turn: int = 1
    """R10: how many cards a team may PASS per turn."""
    foul_penalty: FoulPenalty = "forfeit"
    """R11: ``forfeit`` the card only (no count, PASS not used); ``lose-one`` also takes one
    correct guess off this turn's count (never below 0); ``end-turn`` forfeits the card and
    ends the turn at once."""
    spin_then_same_team: bool = True
    """R21: after a SPIN is resolved the same team plays another turn.  Off: play passes."""
    finish_by_spin: FinishBySpin = "next-turn"
    """R23: a team that reaches FINISH by a SPIN forward bonus plays its FINISH round at its
    ``next-turn``, or ``immediately`` (before play passes)."""
    after_failed_finish: AfterFailedFinish = "next-team"
    """R23: after a failed FINISH round play passes to the ``next-team`` in order, or the
    ``winner`` of the round takes the next turn."""
    order_after_control: OrderAfterControl = "from-winner"
    """R14: when another team wins a CONTROL round and takes the next turn, play then goes on
    in order ``from-winner`` (the team after the winner) or ``from-lander`` (the team after
    the one that landed on CONTROL)."""

    def __post_init__(self) -> None:
        for name, choices in CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise SetupError(f"house rule {name}: {value!r} is not one of {', '.join(choices)}")
        for name in ("advanced", "rotate_describers", "spin_then_same_team"):
            if not isinstance(getattr(self, name), bool):
                raise SetupError(f"house rule {name} must be true or false")
        if self.start_category is not None and self.start_category not in CATEGORIES:
            raise SetupError(
                f"house rule start_category: {self.start_category!r} is not one of "
                f"{', '.join(CATEGORIES)}"
            )
        if isinstance(self.passes_per_turn, bool) or not isinstance(self.passes_per_turn, int):
            raise SetupError("house rule passes_per_turn must be a whole number")
        if not 0 <= self.passes_per_turn <= MAX_PASSES:
            raise SetupError(f"house rule passes_per_turn must be 0 to {MAX_PASSES}")

    def to_data(self) -> dict[str, Any]:
        """JSON-ready data, read back by :meth:`from_data`."""
        return dataclasses.asdict(self)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> HouseRules:
        """Build from :meth:`to_data` output; unknown names are an error."""
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise SetupError(
                f"unknown house rule {unknown[0]!r} (known: {', '.join(sorted(names))})"
            )
        return cls(**data)

    def with_option(self, text: str) -> HouseRules:
        """A copy with one option set from ``name=value`` text, as given on the command line.

        Names may use ``-`` or ``_``; booleans take yes/no/true/false/on/off/1/0; ``none``
        clears ``start_category``; categories match case-insensitively.
        """
        name, sep, raw = text.partition("=")
        name = name.strip().replace("-", "_")
        raw = raw.strip()
        fields = {f.name: f for f in dataclasses.fields(self)}
        known = ", ".join(n.replace("_", "-") for n in fields)
        if sep and name not in fields:  # written right, named wrong: say that
            given = text.partition("=")[0].strip()
            raise SetupError(
                f"house rule {text!r}: no rule is called {given!r}; the rules: {known}"
            )
        if not sep or name not in fields:
            raise SetupError(f"house rule {text!r}: write NAME=VALUE with NAME one of {known}")
        spelt = name.replace("_", "-")  # as the command line spells it
        current = getattr(self, name)
        value: object
        if isinstance(current, bool):
            flags = {"yes": True, "true": True, "on": True, "1": True}
            flags |= {"no": False, "false": False, "off": False, "0": False}
            if raw.lower() not in flags:
                raise SetupError(f"house rule {spelt}: {raw!r} is not yes or no")
            value = flags[raw.lower()]
        elif isinstance(current, int):
            try:
                value = int(raw)
            except ValueError:
                raise SetupError(f"house rule {spelt}: {raw!r} is not a whole number") from None
        elif name == "start_category":
            by_key = {c.lower(): c for c in CATEGORIES}
            if raw.lower() == "none":
                value = None
            elif raw.lower() in by_key:
                value = by_key[raw.lower()]
            else:
                choices = ", ".join(CATEGORIES)
                raise SetupError(
                    f"house rule start-category: {raw!r} is not none or one of {choices}"
                )
        else:
            value = raw.lower()
        changes: dict[str, Any] = {name: value}
        try:
            return dataclasses.replace(self, **changes)
        except SetupError as exc:  # said as the command line spells the name
            raise SetupError(
                str(exc).replace(f"house rule {name}", f"house rule {spelt}")
            ) from None
