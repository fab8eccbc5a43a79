"""Colours and piece marks: high contrast on black, and never the only carrier of meaning.

Category segments are drawn as black bold text on a bright background and
always carry the category's name; pieces are drawn as a letter in the team's
colour on black.  Every colour here has a contrast ratio of at least 7:1
against black (WCAG AAA for normal text).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

#: Screen background and the two text colours (white for text, yellow for what matters most).
BACKGROUND = "#000000"
TEXT = "#ffffff"
HIGHLIGHT = "#ffff00"

#: Background of each category's segments (black text on top), close to the boxed board's.
CATEGORY_COLOURS: dict[str, str] = {
    "Object": "#5fafff",  # blue
    "Nature": "#5fd75f",  # green
    "Random": "#ff6b6b",  # red
    "Person": "#ffd700",  # yellow
    "Action": "#ffa500",  # orange
    "World": "#d7a0ff",  # purple
}
#: Background of START, FINISH, CONTROL and SPIN segments (with their word and symbol on top).
SPECIAL_BACKGROUND = "#ffffff"

#: Piece colours a team called by a colour name gets (contrast on black kept high).
NAMED_TEAM_COLOURS: dict[str, str] = {
    "red": "#ff5f5f",
    "blue": "#5fafff",
    "green": "#5fff5f",
    "yellow": "#ffff5f",
    "orange": "#ffaf00",
    "purple": "#d787ff",
    "pink": "#ff87d7",
    "cyan": "#5fffff",
    "white": "#ffffff",
}
#: Colours handed out, in order, to teams whose names are not colours.
TEAM_PALETTE: tuple[str, ...] = (
    "#ff5f5f",
    "#5fafff",
    "#5fff5f",
    "#ffff5f",
    "#d787ff",
    "#ffaf00",
    "#5fffff",
    "#ff87d7",
    "#ffffff",
)


def category_colour(category: str | None) -> str:
    """The background colour of a category's segments (white for None)."""
    if category is None:
        return SPECIAL_BACKGROUND
    return CATEGORY_COLOURS.get(category, SPECIAL_BACKGROUND)


def team_colours(
    names: Sequence[str], overrides: Mapping[str, str] | None = None
) -> tuple[str, ...]:
    """A distinct piece colour for each team, in order.

    A name in ``overrides`` (case-insensitive) takes that colour; a team named
    after a colour ("Red", "blue") takes it; the rest take the first palette
    colours no other team uses (repeating only when the palette runs out).
    """
    lowered = {k.casefold(): v for k, v in (overrides or {}).items()}
    keys = [name.strip().casefold() for name in names]
    # A team named after its colour (or given one) first, wherever it is listed...
    chosen: list[str | None] = [lowered.get(key, NAMED_TEAM_COLOURS.get(key)) for key in keys]
    for i, key in enumerate(keys):
        if chosen[i] is None:
            # ...then a colour among a name's words, the last first: "Big Red", "Team Blue"
            words = reversed(re.findall(r"[^\W\d_]+", key))
            colour = next((NAMED_TEAM_COLOURS[w] for w in words if w in NAMED_TEAM_COLOURS), None)
            if colour not in chosen:  # "Red" and "Big Red": Big Red takes a free colour
                chosen[i] = colour
    used = {c for c in chosen if c is not None}
    free = [c for c in TEAM_PALETTE if c not in used] or list(TEAM_PALETTE)
    result = []
    for i, colour in enumerate(chosen):
        result.append(colour if colour is not None else free[i % len(free)])
    return tuple(result)


#: Words of a team's name that do not tell it from another: no piece's mark.
_PLAIN_NAME_WORDS = frozenset({"the", "team", "a", "an", "of"})


def team_marks(names: Iterable[str]) -> tuple[str, ...]:
    """One distinct character per team to draw as its piece.

    The initial (upper case) of a word that tells the name, when free: not of
    "the" or "team" ("L" for The Lions, "2" for Team 2); else the next unused
    letter of the name; else the team's number (1-based) or a last-resort symbol.
    """
    taken: set[str] = set()
    marks = []
    for number, name in enumerate(names, start=1):
        words = re.findall(r"[^\W_]+", name)
        telling = [w for w in words if w.casefold() not in _PLAIN_NAME_WORDS] or words
        candidates = [w[0].upper() for w in telling]
        candidates += [c.upper() for c in "".join(telling) + name if c.isalnum()]
        candidates += [str(number % 10), *"#@%&+=$*"]
        mark = next(c for c in candidates if c not in taken)
        taken.add(mark)
        marks.append(mark)
    return tuple(marks)


def rgb(colour: str) -> tuple[int, int, int]:
    """``#rrggbb`` as a red, green, blue triple of 0-255 values."""
    value = colour.lstrip("#")
    if len(value) != 6:
        raise ValueError(f"colour {colour!r} is not #rrggbb")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)
