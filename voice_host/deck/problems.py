"""Deck defects: each names the file, the card, the field and what is wrong."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from voice_host.errors import InputFileError


@dataclass(frozen=True)
class DeckProblem:
    """One defect in a deck file."""

    path: str
    """The file, as the user named it."""
    message: str
    """What is wrong, e.g. ``empty entry``."""
    card: int | None = None
    """1-based card number, if the defect belongs to a card."""
    field: str | None = None
    """The card field (``Object`` ... ``Control``) or format field, if any."""
    line: int | None = None
    """1-based line in the file, if known."""

    def __str__(self) -> str:
        where = [self.path]
        if self.card is not None:
            where.append(f"card {self.card}")
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.field is not None:
            where.append(self.field)
        return f"{': '.join(where)}: {self.message}"


class DeckError(InputFileError):
    """A deck with one or more defects; the message lists every one, one per line."""

    def __init__(self, problems: Sequence[DeckProblem]) -> None:
        self.problems: tuple[DeckProblem, ...] = tuple(problems)
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} in deck"
        super().__init__("\n".join([head, *(str(p) for p in self.problems)]))
