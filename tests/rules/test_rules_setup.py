"""Set-up: teams, first team, describers (R1-R4)."""

from __future__ import annotations

import pytest
from rules_helpers import THREE_TEAMS, make_game, turn

from voice_host.rules import (
    Phase,
    SegmentKind,
    SetupError,
    Team,
    UnknownTeamError,
    describer_count,
    parse_teams,
    validate_teams,
)
from voice_host.rules.teams import team_index


@pytest.mark.parametrize(
    "spec",
    [
        "Red:Ann,Bob",  # one team only
        "Red:Ann;Blue:Cat,Dan",  # a team of one
        "Red:Ann,Bob;red:Cat,Dan",  # the same name twice, differing in case
        "Red;Blue:Cat,Dan",  # a team with no player list
        "Red:Ann,ann,Bob;Blue:Cat,Dan",  # R4: describers take turns by name
        "Red:Ann,Bob;Red  :Cat,Dan",  # the same name twice, with a trailing space
    ],
)
def test_R1_teams_need_two_or_more_teams_of_two_or_more(spec: str) -> None:
    with pytest.raises(SetupError):
        parse_teams(spec)


@pytest.mark.parametrize(
    ("teams", "why"),
    [
        # a team named with the spec's separators could not be written back as a spec
        ([Team("Red;X", ("Ann", "Bob")), Team("Blue", ("Cat", "Dan"))], "'Red;X' holds ';'"),
        ([Team("Red:1", ("Ann", "Bob")), Team("Blue", ("Cat", "Dan"))], "'Red:1' holds ':'"),
        ([Team("Red", ("Ann,1", "Bob")), Team("Blue", ("Cat", "Dan"))], "'Ann,1' holds ','"),
        # an escape sequence was printed raw, and turned the terminal red
        (
            [Team("\x1b[31mRed", ("Ann", "Bob")), Team("Blue", ("Cat", "Dan"))],
            r"team name '\\x1b\[31mRed' holds a control character \(U\+001B\)",
        ),
        (
            [Team("Red", ("Ann", "Bob\x00")), Team("Blue", ("Cat", "Dan"))],
            r"player name 'Bob\\x00' holds a control character \(U\+0000\)",
        ),
        # a direction override printed the rest of each line with the name backwards
        (
            [Team("Red\u202e", ("Ann", "Bob")), Team("Blue", ("Cat", "Dan"))],
            r"holds a text-direction control \(U\+202E\)",
        ),
        # a name the host says at every turn: 100,000 letters made a 200 KB welcome
        (
            [Team("R" * 61, ("Ann", "Bob")), Team("Blue", ("Cat", "Dan"))],
            r"team name 'RRRRRRRRRRRRRRRRRRRR'\.\.\. is too long \(61 characters; at most 60\)",
        ),
        (
            [Team("Red", ("Ann", "B" * 5000)), Team("Blue", ("Cat", "Dan"))],
            r"player name .* is too long \(5,000 characters",
        ),
    ],
)
def test_R1_a_name_may_not_hold_the_separators_of_a_teams_spec(teams: list[Team], why: str) -> None:
    with pytest.raises(SetupError, match=why):
        validate_teams(teams)


def test_R1_names_of_sixty_letters_and_right_to_left_alphabets_are_taken() -> None:
    teams = [Team("R" * 60, ("Ann", "ד" * 60)), Team("שלום", ("Cat", "Dan"))]
    assert validate_teams(teams) == tuple(teams)


def test_R1_parse_teams_keeps_names_and_player_order() -> None:
    teams = parse_teams(" Red : Ann, Bob ; Blue:Cat,Dan,Eve ")
    assert teams == (Team("Red", ("Ann", "Bob")), Team("Blue", ("Cat", "Dan", "Eve")))


def test_R1_names_are_tidied_and_matched_ignoring_case_and_spaces() -> None:
    # Runs of spaces become one, so "big  red" in a script or a spoken command
    # finds the team typed as "Big   Red".
    teams = parse_teams("Big   Red:Ann,Bob  Smith;Blue:Cat,Dan")
    assert teams[0] == Team("Big Red", ("Ann", "Bob Smith"))
    assert team_index(teams, "big  red") == 0


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        # a zero-width space or a soft hyphen cannot be seen or heard: two teams (or two
        # players) alike on every screen and in every voice, or a name of nothing
        ("Red:Ann,Bob;Red\u200b:Cat,Dan", "two teams are called"),
        ("Red:Ann,Bob;\uff32\uff45\uff44:Cat,Dan", "two teams are called"),  # full-width
        ("Red:Ann,Ann\u00ad;Blue:Cat,Dan", "two players called Ann"),
        ("\u200b:Ann,Bob;Blue:Cat,Dan", "a team has an empty name"),
        ("Red:Ann,\u2060;Blue:Cat,Dan", "a player with an empty name"),
    ],
)
def test_R1_names_that_look_alike_are_the_same_name(spec: str, why: str) -> None:
    with pytest.raises(SetupError, match=why):
        parse_teams(spec)
    assert team_index(parse_teams("Red\u200b:Ann,Bob;Blue:Cat,Dan"), "red") == 0


def test_R2_every_piece_starts_on_START() -> None:
    game = make_game(THREE_TEAMS)
    assert game.state.positions == (0, 0, 0)
    assert all(game.board[game.position(t.name)].kind is SegmentKind.START for t in game.teams)


@pytest.mark.parametrize(
    ("first", "expected"),
    [
        (0, "Red"),  # by index
        ("blue", "Blue"),  # by name, any case
        (2, "Green"),  # the last team
    ],
)
def test_R3_first_team_is_chosen_at_set_up(first: int | str, expected: str) -> None:
    game = make_game(THREE_TEAMS, first=first)
    assert game.to_play.name == expected
    assert game.phase is Phase.TURN


def test_R3_unknown_first_team_is_a_clear_error() -> None:
    with pytest.raises(UnknownTeamError, match=r"unknown team 'Purple'.*Red, Blue, Green"):
        make_game(THREE_TEAMS, first="Purple")


@pytest.mark.parametrize(
    ("size", "advanced", "expected"),
    [
        (2, False, 1),  # 2 players: 1 describer, 1 guesser
        (3, False, 2),  # 3 players: 2 describers, 1 guesser
        (4, False, 2),  # 4 players: 2 describers, 2 guessers
        (7, False, 2),  # 4+: still 2 describers
        (2, True, 1),  # advanced: always 1
        (3, True, 1),  # advanced: 1 even with 3 players
        (5, True, 1),  # advanced: 1 even with 5 players
    ],
)
def test_R4_describers_by_team_size(size: int, advanced: bool, expected: int) -> None:
    assert describer_count(size, advanced=advanced) == expected


@pytest.mark.parametrize("advanced", [False, True])
def test_R4_advanced_option_sets_describers_in_the_game(advanced: bool) -> None:
    game = make_game("Red:Ann,Bob,Cy;Blue:Dan,Eve", advanced=advanced)
    assert game.state.describers == (("Ann",) if advanced else ("Ann", "Bob"))


def test_R4_describers_rotate_turn_by_turn_by_default() -> None:
    game = make_game("Red:Ann,Bob,Cy;Blue:Dan,Eve")
    seen = []
    for _ in range(3):
        seen.append(game.state.describers)  # Red
        turn(game, 0)
        seen.append(game.state.describers)  # Blue
        turn(game, 0)
    assert seen == [
        ("Ann", "Bob"),
        ("Dan",),
        ("Cy", "Ann"),
        ("Eve",),
        ("Bob", "Cy"),
        ("Dan",),
    ]


def test_R4_describers_stay_when_rotation_is_off() -> None:
    game = make_game("Red:Ann,Bob,Cy;Blue:Dan,Eve", rotate_describers=False)
    for _ in range(3):
        assert game.state.describers == ("Ann", "Bob")
        turn(game, 0)
        assert game.state.describers == ("Dan",)
        turn(game, 0)
