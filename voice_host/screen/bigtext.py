"""Big block digits (five rows high) for the timer and the count.

A terminal cannot change its font size, so numbers that must be read from
across a table are drawn with full blocks instead.
"""

from __future__ import annotations

#: Rows in every glyph.
HEIGHT = 5

_GLYPHS: dict[str, tuple[str, ...]] = {
    "0": ("███", "█ █", "█ █", "█ █", "███"),
    "1": (" ██", "  █", "  █", "  █", "  █"),
    "2": ("███", "  █", "███", "█  ", "███"),
    "3": ("███", "  █", "███", "  █", "███"),
    "4": ("█ █", "█ █", "███", "  █", "  █"),
    "5": ("███", "█  ", "███", "  █", "███"),
    "6": ("███", "█  ", "███", "█ █", "███"),
    "7": ("███", "  █", "  █", "  █", "  █"),
    "8": ("███", "█ █", "███", "█ █", "███"),
    "9": ("███", "█ █", "███", "  █", "███"),
    ":": (" ", "█", " ", "█", " "),
    " ": ("  ", "  ", "  ", "  ", "  "),
    "-": ("   ", "   ", "███", "   ", "   "),
}


def big_digits(text: str, *, stretch: int = 2) -> tuple[str, ...]:
    """``text`` (digits, ``:``, ``-`` and spaces) as :data:`HEIGHT` rows of block characters.

    Each glyph column is ``stretch`` characters wide (terminal cells are about
    twice as tall as wide, so 2 gives square "pixels"); glyphs are separated by
    one blank column.  Raises :class:`ValueError` for any other character.
    """
    if stretch < 1:
        raise ValueError(f"stretch must be at least 1, got {stretch}")
    unknown = sorted({c for c in text if c not in _GLYPHS})
    if unknown:
        raise ValueError(f"no big glyph for {''.join(unknown)!r} (digits, ':', '-' and space only)")
    rows = []
    for row in range(HEIGHT):
        rows.append(" ".join("".join(ch * stretch for ch in _GLYPHS[c][row]) for c in text))
    return tuple(rows)
