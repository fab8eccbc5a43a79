"""Deck defects: each names the file, the card, the field and what is wrong."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from voice_host.deck.words import fold
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


#: The problem of an entry without a letter or digit ("???", "-"): nothing to
#: describe, and nothing a guesser could say; or with letters of another
#: alphabet only ("Ω", "東京"), which the English recogniser cannot listen for.
NO_WORD = "no word in the entry (only punctuation, or no letter of the English alphabet)"
#: The longest entry, answer or form a deck may hold, in characters: a card is a
#: word or a short name (the built-in deck's longest has 23).  A longer one
#: is a mistake (a paragraph pasted in, a file without line breaks), and working
#: out the sounds of one word of a million letters took hours.
MAX_ENTRY_CHARS = 100


def too_long(text: str, what: str = "entry") -> str | None:
    """The problem of an entry (or answer, form) over :data:`MAX_ENTRY_CHARS`, or None."""
    if len(text) <= MAX_ENTRY_CHARS:
        return None
    return f"{what} too long ({len(text):,} characters; at most {MAX_ENTRY_CHARS})"


def has_word(text: str) -> bool:
    """Whether ``text`` holds a letter or digit the host can listen for: one of the
    English alphabet once accents are taken off (``Beyoncé``, ``Øresund``), or a
    digit.  An entry in Greek or Japanese letters alone has none: the answers
    worked out for it would be empty, and no guess could ever count.  Nor has an
    entry of "&" alone, though "Marks & Spencer" is said with "and"."""
    # "&" is read as "and", but an entry of "&" alone would be the card "and":
    # a word of nearly every guess and clue
    return any(c.isascii() and c.isalnum() for c in fold(text.replace("&", " ")))


#: Unicode categories that are no printable text: control characters (NUL,
#: escape, carriage return...) and the line and paragraph separators.
_UNPRINTABLE = frozenset({"Cc", "Zl", "Zp"})
#: Unicode's embedding, override and isolate controls (as team names refuse them,
#: ``voice_host.rules.teams.BIDI_CONTROLS``): a card holding one printed the rest of
#: its line backwards.  A card in a right-to-left alphabet needs none of them.
_DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def unprintable(text: str) -> str | None:
    """The problem of the first control character in ``text`` ("control character
    U+0000 ..."), or None.  A card's text reaches the screen and the speech
    output as it is, where a NUL or an escape would be printed raw; a tab is
    whitespace, as the text format reads it."""
    for char in text:
        if char != "\t" and unicodedata.category(char) in _UNPRINTABLE:
            return f"control character U+{ord(char):04X} (a card holds printable text only)"
        if char in _DIRECTION_CONTROLS:
            return (
                f"text-direction control U+{ord(char):04X} (it would print the rest of "
                "the line backwards)"
            )
    return None


class DeckError(InputFileError):
    """A deck with one or more defects.

    The message is one line (the command line's rule for errors): the first
    defect, and how many more there are, pointing at ``voice-host deck check``,
    which lists them all.  :attr:`problems` holds every one.
    """

    def __init__(self, problems: Sequence[DeckProblem]) -> None:
        self.problems: tuple[DeckProblem, ...] = tuple(problems)
        if not self.problems:
            super().__init__("deck problem")
            return
        first = self.problems[0]
        more = len(self.problems) - 1
        if more:
            tail = f" (and {more} more; 'voice-host deck check {first.path}' lists them all)"
        else:
            tail = ""
        super().__init__(f"{first}{tail}")
