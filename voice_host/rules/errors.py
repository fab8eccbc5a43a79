"""Errors raised by the rules engine.

Every one derives from :class:`RulesError`, itself a :class:`ValueError`: each
says which input, team, board segment or saved field is wrong, in words a
player can read.  The command line turns them into one-line messages.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error the rules engine raises."""


class IllegalInputError(RulesError):
    """An input that is not allowed in the game's current phase or position."""


class UnknownTeamError(RulesError):
    """An input or option names a team that is not in the game."""


class NothingToUndoError(RulesError):
    """``undo()`` was asked for with no input left to undo."""


class SetupError(RulesError):
    """Teams, players, house rules or deck size break the set-up rules (R1)."""


class BoardError(RulesError):
    """A board layout is malformed; the message names the segment and the problem."""


class SaveFormatError(RulesError):
    """A saved game cannot be loaded: bad JSON, a missing field, or an inconsistent history."""


class InputSyntaxError(RulesError):
    """Text that does not spell any input of the vocabulary (``correct``, ``spin red``...)."""
