"""Building the screen model from the rules engine's Game."""

from __future__ import annotations

import pytest
from screen_helpers import make_game

from voice_host.deck.model import CARD_FIELDS, Card, Deck, Entry
from voice_host.rules import ControlWon, Correct, Phase, SegmentKind, TimeUp
from voice_host.screen import TimerView, card_text, screen_model_from_game
from voice_host.screen.colours import NAMED_TEAM_COLOURS, team_colours, team_marks


def small_deck(cards: int = 20) -> Deck:
    """Cards whose entries say where they are: card 3's Person entry is ``c3 Person``."""
    return Deck(
        "test",
        tuple(Card(n + 1, {f: Entry(f"c{n} {f}", f) for f in CARD_FIELDS}) for n in range(cards)),
    )


def test_a_fresh_game_shows_every_piece_on_START_and_the_first_team_to_play() -> None:
    game = make_game()
    model = screen_model_from_game(game)
    assert model.segments == game.board.segments
    assert [(t.name, t.position) for t in model.teams] == [("Red", 0), ("Blue", 0)]
    assert model.team is not None and model.team.name == "Red"
    assert model.phase is Phase.TURN
    assert model.describers == ("Ann",)
    assert model.category == "Object"  # START describes the next category (R6)
    assert model.timer is None and model.card is None
    assert model.winner is None


def test_guesses_count_and_the_piece_moves_at_time_up() -> None:
    game = make_game()
    game.apply(Correct())
    game.apply(Correct())
    assert screen_model_from_game(game).count == 2
    game.apply(TimeUp())
    model = screen_model_from_game(game)
    assert [t.position for t in model.teams] == [2, 0]
    assert model.team is not None and model.team.name == "Blue"
    assert model.count == 0


def test_landing_on_CONTROL_shows_the_round_with_the_Control_entry() -> None:
    game = make_game()
    for _ in range(5):
        game.apply(Correct())
    game.apply(TimeUp())
    model = screen_model_from_game(game)
    assert model.phase is Phase.CONTROL_ROUND
    assert model.segments[model.teams[0].position].kind is SegmentKind.CONTROL
    assert model.category == "Control"
    assert card_text(game, small_deck()) == f"c{game.current_card} Control"


def test_the_host_texts_and_timer_pass_through_unchanged() -> None:
    timer = TimerView(12.5, 30.0, paused=True)
    model = screen_model_from_game(
        make_game(),
        timer=timer,
        card="Telescope",
        heard="glazier",
        judgement="counted as glacier",
        announcement="Glacier, correct. One.",
        message="Microphone lost: keys only.",
    )
    assert model.timer == timer
    assert (model.card, model.heard, model.judgement) == (
        "Telescope",
        "glazier",
        "counted as glacier",
    )
    assert model.announcement == "Glacier, correct. One."
    assert model.message == "Microphone lost: keys only."


def test_card_text_is_the_entry_of_the_category_being_described() -> None:
    game = make_game()
    assert card_text(game, small_deck()) == f"c{game.current_card} Object"


def test_card_text_refuses_a_deck_smaller_than_the_game_s() -> None:
    game = make_game()
    with pytest.raises(ValueError, match="not in deck"):
        card_text(game, small_deck(cards=0))


def test_the_winner_is_shown_and_no_card() -> None:
    game = make_game()
    for _ in range(9):  # straight to FINISH (segment 9)
        game.apply(Correct())
    game.apply(TimeUp())
    game.apply(ControlWon("Red"))
    model = screen_model_from_game(game)
    assert model.phase is Phase.GAME_OVER
    assert model.winner == "Red"
    assert card_text(game, small_deck()) is None


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        # teams named after colours take those colours
        (["Red", "Blue"], (NAMED_TEAM_COLOURS["red"], NAMED_TEAM_COLOURS["blue"])),
        # case does not matter
        (["GREEN", "yellow"], (NAMED_TEAM_COLOURS["green"], NAMED_TEAM_COLOURS["yellow"])),
    ],
)
def test_team_colours_follow_colour_names(names: list[str], expected: tuple[str, ...]) -> None:
    assert team_colours(names) == expected


def test_other_teams_get_distinct_colours_not_taken_by_a_named_team() -> None:
    colours = team_colours(["Red", "Owls", "Foxes", "Bears"])
    assert colours[0] == NAMED_TEAM_COLOURS["red"]
    assert len(set(colours)) == 4


def test_an_override_beats_the_name() -> None:
    assert team_colours(["Red", "Owls"], {"owls": "#123456"})[1] == "#123456"


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        # initials when they differ
        (["Red", "Blue"], ("R", "B")),
        # a shared initial moves on to the next letter of the name
        (["Red", "Rovers"], ("R", "O")),
        # a name with no letter left falls back to the team's number
        (["A", "A2", "aa"], ("A", "2", "3")),
        # the word that tells a name, not "team" or "the" (was T, E, A: "Team 1" drawn E)
        (["Team 1", "Team 2", "Team 3"], ("1", "2", "3")),
        (["The Lions", "The Tigers"], ("L", "T")),
        # a taken initial moves on to the telling words' letters (was H: "tHe")
        (["Big Red", "The Brainy Bunch"], ("B", "R")),
    ],
)
def test_team_marks_are_distinct(names: list[str], expected: tuple[str, ...]) -> None:
    assert team_marks(names) == expected


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        # a colour among the name's words colours the piece ("Big Red" was green)
        (["Big Red", "Team Blue"], (NAMED_TEAM_COLOURS["red"], NAMED_TEAM_COLOURS["blue"])),
        # ... but two teams never share it: the second takes a free colour
        (["Red", "Big Red"], (NAMED_TEAM_COLOURS["red"], "#5fff5f")),
    ],
)
def test_a_colour_word_in_a_name_colours_its_piece(
    names: list[str], expected: tuple[str, ...]
) -> None:
    assert team_colours(names) == expected


def test_a_team_named_after_a_colour_keeps_it_when_listed_after_one_with_that_word() -> None:
    # "Big Red" listed first took red, and "Red" took red too: two pieces alike
    big_red, red = team_colours(["Big Red", "Red"])
    assert red == NAMED_TEAM_COLOURS["red"] and big_red != red
