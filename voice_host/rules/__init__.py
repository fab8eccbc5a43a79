"""The rules of Articulate! (R1-R24 of ``shared/design/rules.md``) as a pure engine.

Standard library only: no I/O (apart from reading the packaged default board),
no clock, no threads.  The host tells the game what happened through small
input values; the game validates each and keeps a full undo history::

    game = Game(parse_teams("Red:Ann,Bob;Blue:Cat,Dan"), default_board(), rng=random.Random(7))
    game.apply(Correct())
    game.apply(TimeUp())
    game.undo()
"""

from voice_host.rules.board import (
    CATEGORIES,
    CONTROL_ENTRY,
    Board,
    Segment,
    SegmentKind,
    board_from_data,
    default_board,
    load_board,
)
from voice_host.rules.errors import (
    BoardError,
    IllegalInputError,
    InputSyntaxError,
    NothingToUndoError,
    RulesError,
    SaveFormatError,
    SetupError,
    UnknownTeamError,
)
from voice_host.rules.game import DEFAULT_DECK_SIZE, Game, Outcome
from voice_host.rules.house import HouseRules
from voice_host.rules.inputs import (
    SPINNER_WEIGHTS,
    VOCABULARY,
    Choose,
    ControlSimultaneous,
    ControlWon,
    Correct,
    Foul,
    Input,
    Pass,
    Spin,
    SpinResult,
    TimeUp,
    parse_input,
)
from voice_host.rules.state import GameState, Phase
from voice_host.rules.status import status
from voice_host.rules.teams import (
    MIN_PLAYERS,
    MIN_TEAMS,
    Team,
    describer_count,
    parse_teams,
    possessive,
    team_index,
    validate_teams,
)

__all__ = [
    "CATEGORIES",
    "CONTROL_ENTRY",
    "DEFAULT_DECK_SIZE",
    "MIN_PLAYERS",
    "MIN_TEAMS",
    "SPINNER_WEIGHTS",
    "VOCABULARY",
    "Board",
    "BoardError",
    "Choose",
    "ControlSimultaneous",
    "ControlWon",
    "Correct",
    "Foul",
    "Game",
    "GameState",
    "HouseRules",
    "IllegalInputError",
    "Input",
    "InputSyntaxError",
    "NothingToUndoError",
    "Outcome",
    "Pass",
    "Phase",
    "RulesError",
    "SaveFormatError",
    "Segment",
    "SegmentKind",
    "SetupError",
    "Spin",
    "SpinResult",
    "Team",
    "TimeUp",
    "UnknownTeamError",
    "board_from_data",
    "default_board",
    "describer_count",
    "load_board",
    "parse_input",
    "parse_teams",
    "possessive",
    "status",
    "team_index",
    "validate_teams",
]
