"""The board: a track of segments from START to FINISH (R24), loaded from data.

A layout is JSON: ``{"name": "...", "segments": ["START", "Object", ...,
"SPIN", ..., "CONTROL", ..., "FINISH"]}``.  Each segment is ``START``,
``FINISH``, ``SPIN``, ``CONTROL`` or a category name (a normal segment);
names are matched case-insensitively.  The default layout ships as
``data/default_board.json``; :func:`load_board` parses any other layout from
its text (reading the file is the caller's job).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from voice_host.rules.errors import BoardError

#: The six categories, in card order.  Kept identical to
#: ``voice_host.deck.model.CATEGORIES``; duplicated so the rules stay independent of the deck.
CATEGORIES: tuple[str, ...] = ("Object", "Nature", "Random", "Person", "Action", "World")
#: The card entry described in CONTROL and FINISH rounds (``voice_host.deck.model.CONTROL``).
CONTROL_ENTRY = "Control"


class SegmentKind(enum.StrEnum):
    """What a segment does when a piece lands on it."""

    START = "START"
    NORMAL = "NORMAL"
    CONTROL = "CONTROL"
    SPIN = "SPIN"
    FINISH = "FINISH"


@dataclass(frozen=True)
class Segment:
    """One board segment."""

    kind: SegmentKind
    """START, NORMAL, CONTROL, SPIN or FINISH."""
    category: str | None = None
    """The category described on it (one of :data:`CATEGORIES`); only NORMAL segments have one."""

    def label(self) -> str:
        """The segment as written in a layout file: its category, or its kind."""
        return self.category if self.category is not None else self.kind.value


@dataclass(frozen=True)
class Board:
    """A validated track: exactly one START first, exactly one FINISH last."""

    segments: tuple[Segment, ...]
    """Segment 0 is START; the last is FINISH."""
    name: str = "Custom board"
    """A name to show players."""

    @property
    def finish(self) -> int:
        """The index of the FINISH segment (the number of moves from START to FINISH)."""
        return len(self.segments) - 1

    def __getitem__(self, index: int) -> Segment:
        return self.segments[index]

    def __len__(self) -> int:
        return len(self.segments)

    def next_category(self, index: int) -> str:
        """The category of the first NORMAL segment after ``index``, or the last one before it."""
        for seg in self.segments[index + 1 :]:
            if seg.category is not None:
                return seg.category
        return self.previous_category(index)

    def previous_category(self, index: int) -> str:
        """The category of the last NORMAL segment before ``index``, or the first one after it."""
        for seg in reversed(self.segments[:index]):
            if seg.category is not None:
                return seg.category
        return self.next_category(index) if index < self.finish else CATEGORIES[0]

    def to_data(self) -> dict[str, Any]:
        """The layout as JSON-ready data that :func:`board_from_data` reads back."""
        return {"name": self.name, "segments": [s.label() for s in self.segments]}


_KIND_NAMES = {k.value.lower(): k for k in SegmentKind if k is not SegmentKind.NORMAL}
_CATEGORY_NAMES = {c.lower(): c for c in CATEGORIES}


def _segment(index: int, label: object) -> Segment:
    if not isinstance(label, str):
        raise BoardError(f"segment {index}: expected a name in quotes, got {json.dumps(label)}")
    key = label.strip().lower()
    if key in _CATEGORY_NAMES:
        return Segment(SegmentKind.NORMAL, _CATEGORY_NAMES[key])
    if key in _KIND_NAMES:
        return Segment(_KIND_NAMES[key])
    known = ", ".join([*(k.value for k in _KIND_NAMES.values()), *CATEGORIES])
    raise BoardError(f"segment {index}: unknown segment {label!r} (expected one of {known})")


def board_from_data(data: object) -> Board:
    """Validate a parsed layout (a dict with ``segments``, or a bare list) and build the board."""
    name = "Custom board"
    if isinstance(data, dict):
        if "segments" not in data:
            raise BoardError("board has no 'segments' list")
        raw_name = data.get("name", name)
        if not isinstance(raw_name, str):
            raise BoardError("board 'name' must be a string")
        name = raw_name
        data = data["segments"]
    if not isinstance(data, list):
        raise BoardError("board 'segments' must be a list of segment names")
    segments = tuple(_segment(i, label) for i, label in enumerate(data))
    _validate(segments)
    return Board(segments, name)


#: The longest board a layout may give: a game of an evening has a few dozen
#: segments (the default 47).  A layout of a hundred thousand (a generated file
#: gone wrong) drew nothing in the board view for minutes.
MAX_SEGMENTS = 1000


def _validate(segments: Sequence[Segment]) -> None:
    if len(segments) > MAX_SEGMENTS:
        raise BoardError(f"board has {len(segments):,} segments; at most {MAX_SEGMENTS:,}")
    if len(segments) < 3:
        raise BoardError(
            f"board has {len(segments)} segments; it needs START, at least one more, FINISH"
        )
    starts = [i for i, s in enumerate(segments) if s.kind is SegmentKind.START]
    finishes = [i for i, s in enumerate(segments) if s.kind is SegmentKind.FINISH]
    if starts != [0]:
        where = f"found at {', '.join(map(str, starts))}" if starts else "there is none"
        raise BoardError(f"board needs exactly one START, as segment 0 ({where})")
    last = len(segments) - 1
    if finishes != [last]:
        where = f"found at {', '.join(map(str, finishes))}" if finishes else "there is none"
        raise BoardError(f"board needs exactly one FINISH, as the last segment {last} ({where})")
    if not any(s.kind is SegmentKind.NORMAL for s in segments):
        raise BoardError("board has no category segment to describe on")


def load_board(text: str) -> Board:
    """Parse a layout from JSON text; raise :class:`BoardError` naming the problem."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardError(
            f"board is not valid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise BoardError("board is not a layout: its JSON is nested far too deeply") from None
    except ValueError:  # a number of thousands of digits, past Python's limit
        raise BoardError("board is not valid JSON: a number far too long") from None
    return board_from_data(data)


def default_board() -> Board:
    """The layout that ships with the game (the package's ``data/default_board.json``)."""
    # The one read in this package: its own shipped data, never a user's file.
    text = (
        resources.files("voice_host.rules").joinpath("data/default_board.json").read_text("utf-8")
    )
    return load_board(text)
