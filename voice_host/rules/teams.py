"""Teams, players and how many of them describe each turn (R1, R4)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from voice_host.rules.errors import SetupError, UnknownTeamError

#: Fewest teams in a game (R1).
MIN_TEAMS = 2
#: Fewest players in a team (R1).
MIN_PLAYERS = 2


@dataclass(frozen=True)
class Team:
    """A team: its name and its players, in the order they take turns to describe."""

    name: str
    """Shown and spoken; matched case-insensitively in inputs."""
    players: tuple[str, ...]
    """Player names, in describing order (R4 rotation)."""


def possessive(name: str) -> str:
    """``name``'s possessive as players write and say it: "Red's", "Team 2's", but
    "The Lions'" and "Boys'" (a name ending in s, as most plural names do)."""
    name = name.strip()
    if name[-1:] in ("s", "S") and name[-2:-1] not in ("s", "S", "'"):
        return f"{name}'"
    return f"{name}'s"


def describer_count(team_size: int, *, advanced: bool) -> int:
    """How many describers a team of ``team_size`` players has per turn (R4).

    2 players -> 1; 3 -> 2; 4 or more -> 2; the "advanced" option -> always 1.
    """
    if advanced or team_size <= 2:
        return 1
    return 2


def validate_teams(teams: Sequence[Team]) -> tuple[Team, ...]:
    """Check R1 (2+ teams of 2+ players) and that names are unique; return the teams as a tuple."""
    if len(teams) < MIN_TEAMS:
        raise SetupError(f"a game needs at least {MIN_TEAMS} teams, got {len(teams)}")
    seen: set[str] = set()
    for team in teams:
        if not name_key(team.name):
            raise SetupError("a team has an empty name")
        problem = name_problem(team.name, team=True) or next(
            (p for p in map(name_problem, team.players) if p), None
        )
        if problem:
            raise SetupError(problem)
        key = name_key(team.name)
        if key in seen:
            raise SetupError(f"two teams are called {team.name!r}")
        seen.add(key)
        if len(team.players) < MIN_PLAYERS:
            raise SetupError(
                f"team {team.name} has {len(team.players)} player(s); each team needs at least "
                f"{MIN_PLAYERS}"
            )
        if any(not name_key(p) for p in team.players):
            raise SetupError(f"team {team.name} has a player with an empty name")
        players = [name_key(p) for p in team.players]
        if len(set(players)) < len(players):
            twice = next(p for p in team.players if players.count(name_key(p)) > 1)
            raise SetupError(
                f"team {team.name} has two players called {twice}: give each a different name "
                "(R4: describers take turns by name)"
            )
    return tuple(teams)


#: The longest team or player name, in characters: the host says it at every turn
#: (a name of 100,000 letters made one welcome line of 200 KB; session 54's audit).
MAX_NAME_CHARS = 60
#: Unicode's embedding, override and isolate controls, which turn the direction of
#: the text after them: a name holding one printed the rest of its line reversed.
#: (A name in a right-to-left alphabet needs none of them.)
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

#: What separates teams, a team from its players, and players in a teams spec
#: ("Red:Ann,Bob;Blue:Cat,Dan"): no name may hold them.
TEAM_SEPARATORS = ";:"
PLAYER_SEPARATORS = ";:,"


def name_problem(name: str, *, team: bool = False) -> str | None:
    """Why ``name`` cannot be a team's (``team``) or a player's name, or None.

    The separators of a teams spec: a name holding one would not survive being
    written as the spec (a save's options, the config file); and a control
    character (escape, NUL), which the screen would print raw."""
    who = "team" if team else "player"
    for c in TEAM_SEPARATORS if team else PLAYER_SEPARATORS:
        if c in name:
            return f"the {who} name {name.strip()!r} holds {c!r}, which separates teams and players"
    # an escape sequence in a name was printed raw: the terminal's colours changed
    control = next((c for c in name if unicodedata.category(c) == "Cc" and not c.isspace()), None)
    if control is not None:
        return f"the {who} name {name.strip()!r} holds a control character (U+{ord(control):04X})"
    # a direction override turns the rest of every line it is printed in backwards
    turn = next((c for c in name if c in BIDI_CONTROLS), None)
    if turn is not None:
        return f"the {who} name {name.strip()!r} holds a text-direction control (U+{ord(turn):04X})"
    if len(tidy_name(name)) > MAX_NAME_CHARS:
        return (
            f"the {who} name {tidy_name(name)[:20]!r}... is too long "
            f"({len(tidy_name(name)):,} characters; at most {MAX_NAME_CHARS})"
        )
    return None


def name_key(name: str) -> str:
    """How a team or player name is compared: case, runs of spaces and what cannot be
    seen ignored.  Compatibility forms are read as the letters they show (NFKC: a
    full-width "Ｒｅｄ" is "red"), and format characters dropped (a zero-width space,
    a soft hyphen: "Red\u200b" would look like "Red" on every screen and in every
    voice, and must not be a second team of that name)."""
    shown = unicodedata.normalize("NFKC", name)
    visible = "".join(c for c in shown if unicodedata.category(c) != "Cf")
    return " ".join(visible.split()).casefold()


def tidy_name(name: str) -> str:
    """A name as typed, with runs of spaces made one ("Big  Red" -> "Big Red")."""
    return " ".join(name.split())


def parse_teams(spec: str) -> tuple[Team, ...]:
    """Parse ``"Red:Ann,Bob;Blue:Cat,Dan,Eve"`` into validated teams."""
    teams = []
    for part in spec.split(";"):
        if not part.strip():
            continue
        name, sep, players = part.partition(":")
        if not sep:
            raise SetupError(
                f"team {part.strip()!r} has no players: write it as Name:Player,Player"
            )
        names = tuple(tidy_name(p) for p in players.split(",") if p.strip())
        for player in names:
            if ":" in player:
                raise SetupError(
                    f"team {tidy_name(name)} has a player called {player!r}: separate "
                    "players with ',' and teams with ';'"
                )
        teams.append(Team(tidy_name(name), names))
    return validate_teams(teams)


def team_index(teams: Sequence[Team], name: str) -> int:
    """The index of the team called ``name`` (case-insensitive).

    Raises :class:`UnknownTeamError` naming the known teams when there is none.
    """
    key = name_key(name)
    for i, team in enumerate(teams):
        if name_key(team.name) == key:
            return i
    known = ", ".join(t.name for t in teams)
    raise UnknownTeamError(f"unknown team {name.strip()!r} (teams: {known})")
