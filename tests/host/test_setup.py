"""The team set-up dialogue (pure): voice words and keys in, sentences and a teams spec out."""

from __future__ import annotations

import random

import pytest

from voice_host.host.setup import (
    MAX_TEAMS,
    TEAM_COLOURS,
    SetupDialogue,
    Step,
    teams_spec,
)
from voice_host.rules import parse_teams

#: An input: ("say", "three teams") is one heard utterance, ("key", "3") one key.
Input = tuple[str, str]
ENTER = "\r"
BACKSPACE = "\x7f"


def play(inputs: list[Input], seed: int = 0) -> tuple[SetupDialogue, list[str]]:
    """Run ``inputs`` through a new dialogue; return it and everything it said."""
    dialogue = SetupDialogue(random.Random(seed))
    said = dialogue.start()
    for how, what in inputs:
        said += dialogue.hear(what.split()) if how == "say" else dialogue.press(what)
    return dialogue, said


def spec(*sizes: int) -> str:
    return teams_spec(sizes)


@pytest.mark.parametrize(
    ("inputs", "teams", "first", "said"),
    [
        # A whole set-up by voice: two teams of three, Blue starts.
        (
            [("say", "two"), ("say", "three"), ("say", "blue"), ("say", "yes")],
            spec(3, 3),
            1,
            "Two teams of three players: Red and Blue. Blue starts.",
        ),
        # A whole set-up by keys: 3 teams of 2, team 1 (Red) starts, Enter confirms.
        (
            [("key", "3"), ("key", "2"), ("key", "1"), ("key", ENTER)],
            spec(2, 2, 2),
            0,
            "Three teams of two players: Red, Blue and Green. Red starts.",
        ),
        # Mixed, with different team sizes: voice, D key, then one team each way.
        (
            [
                ("say", "three teams"),
                ("key", "d"),
                ("key", "2"),
                ("say", "four"),
                ("key", "3"),
                ("say", "green team"),
                ("key", "y"),
            ],
            spec(2, 4, 3),
            2,
            "Players: Red two, Blue four and Green three. Green starts.",
        ),
        # Enter takes the offered two teams; players said in a short phrase.
        (
            [("key", ENTER), ("say", "two players"), ("key", "2"), ("say", "yes")],
            spec(2, 2),
            1,
            "Blue starts.",
        ),
        # A misheard answer is re-prompted; the next one counts.
        (
            [("say", "banana"), ("say", "two"), ("say", "two"), ("say", "red"), ("say", "yes")],
            spec(2, 2),
            0,
            "Sorry, I didn't catch that. How many teams?",
        ),
        # "No" at the read-back starts again; the second set-up is the one kept.
        (
            [
                ("say", "two"),
                ("say", "two"),
                ("say", "red"),
                ("say", "no"),
                ("key", "4"),
                ("key", "2"),
                ("key", "4"),
                ("key", "y"),
            ],
            spec(2, 2, 2, 2),
            3,
            "Starting again. How many teams?",
        ),
        # Backspace undoes the last answer (3 teams becomes 2).
        (
            [
                ("key", "3"),
                ("key", BACKSPACE),
                ("key", "2"),
                ("key", "2"),
                ("key", "2"),
                ("key", "y"),
            ],
            spec(2, 2),
            1,
            "Undone. How many teams?",
        ),
        # R1: a team of one is refused, by key and by voice; two is accepted.
        (
            [
                ("key", "2"),
                ("key", "1"),
                ("say", "one"),
                ("key", "2"),
                ("key", "1"),
                ("key", "y"),
            ],
            spec(2, 2),
            0,
            "Each team needs at least 2 players. How many players in each team?",
        ),
        # R1: one team is refused too.
        (
            [("say", "one"), ("say", "two"), ("say", "two"), ("say", "red"), ("say", "yes")],
            spec(2, 2),
            0,
            "A game needs at least 2 teams.",
        ),
        # "repeat" (and R) say the question again, without changing anything.
        (
            [
                ("say", "repeat"),
                ("key", "r"),
                ("say", "two"),
                ("key", "2"),
                ("key", "1"),
                ("key", "y"),
            ],
            spec(2, 2),
            0,
            "How many teams? Say a number from two to six, or press it. Enter for two.",
        ),
        # A free transcript's homophone: "to" is two, "read" is red, "yeah" is yes.
        (
            [("say", "to"), ("say", "too"), ("say", "read"), ("say", "yeah")],
            spec(2, 2),
            0,
            "Red starts.",
        ),
        # A colour that is not a team is refused with its reason.
        (
            [("say", "two"), ("say", "two"), ("say", "purple"), ("say", "blue"), ("say", "yes")],
            spec(2, 2),
            1,
            "There is no Purple team.",
        ),
    ],
)
def test_set_up_table(inputs: list[Input], teams: str, first: int, said: str) -> None:
    dialogue, lines = play(inputs)
    assert dialogue.finished and not dialogue.wants_typing
    result = dialogue.result
    assert result is not None
    assert (result.teams, result.first) == (teams, first)
    assert any(said in line for line in lines), lines
    parse_teams(result.teams)  # R1 holds for every result


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_R3_random_start_uses_the_injected_rng(seed: int) -> None:
    dialogue, said = play([("key", "3"), ("key", "2"), ("say", "random")], seed)
    expected = random.Random(seed).randrange(3)
    assert dialogue.step is Step.CONFIRM
    assert f"Picked at random: {TEAM_COLOURS[expected]} starts." in said[-1]
    said += dialogue.press("y")
    assert dialogue.result is not None
    assert dialogue.result.first == expected and dialogue.result.random_first
    assert dialogue.result.first_name == TEAM_COLOURS[expected]


def test_misunderstanding_escalates_to_keys_then_stays_quiet() -> None:
    dialogue = SetupDialogue(random.Random(0))
    dialogue.start()
    assert dialogue.hear(["banana"]) == ["Sorry, I didn't catch that. How many teams?"]
    assert dialogue.hear(["hello"]) == ["Sorry. Press a number key from 2 to 6, or Enter for two."]
    assert dialogue.hear(["what"]) == []  # table talk: no loop of re-prompts
    assert dialogue.hear(["repeat"]) == [dialogue.prompt()]
    assert dialogue.hear(["nonsense"]) != []  # repeat reset the count
    assert dialogue.step is Step.TEAMS


def test_too_many_teams_and_unknown_keys_are_refused() -> None:
    dialogue, said = play([("say", "seven"), ("key", "9"), ("key", "x")])
    assert dialogue.step is Step.TEAMS
    assert said[-3:] == [
        "At most 6 teams. How many teams?",
        "At most 6 teams. How many teams?",
        "Press a number key from 2 to 6, or Enter for two.",
    ]


def test_a_superscript_digit_key_is_refused_not_a_crash() -> None:
    # "²" (a French keyboard's key) passed str.isdigit() and stopped int()
    dialogue, _ = play([("key", "\u00b2")])
    assert dialogue.step is Step.TEAMS
    dialogue, _ = play([("key", "2"), ("key", "2"), ("key", "\u00b9")])
    assert dialogue.step is Step.FIRST


def test_a_key_that_is_not_a_team_is_refused_at_who_starts() -> None:
    dialogue, said = play([("key", "2"), ("key", "2"), ("key", "5")])
    assert dialogue.step is Step.FIRST
    assert said[-1].startswith("There is no team 5.")


def test_six_teams_use_every_colour() -> None:
    dialogue, _ = play([("say", "six"), ("say", "two"), ("key", "6"), ("key", ENTER)])
    assert dialogue.result is not None
    names = [t.name for t in parse_teams(dialogue.result.teams)]
    assert names == list(TEAM_COLOURS[:MAX_TEAMS])
    assert dialogue.result.first_name == "Orange"


def test_t_hands_over_to_typing() -> None:
    dialogue, said = play([("key", "2"), ("key", "t")])
    assert dialogue.finished and dialogue.wants_typing and dialogue.result is None
    assert said[-1] == "Type the teams on the keyboard."
    assert dialogue.hear(["two"]) == [] and dialogue.press("2") == []


def test_undo_with_nothing_to_undo_says_so() -> None:
    _, said = play([("say", "undo")])
    assert said[-1].startswith("Nothing to undo. How many teams?")


def test_undo_after_starting_again_returns_to_the_read_back() -> None:
    dialogue, said = play(
        [("key", "2"), ("key", "2"), ("key", "1"), ("key", "n"), ("key", BACKSPACE)]
    )
    assert dialogue.step is Step.CONFIRM
    assert said[-1].startswith("Undone. Two teams of two players")


def test_help_names_the_words_and_keys_of_each_step() -> None:
    dialogue, said = play([("key", "?")])
    assert "Enter for two" in said[-1] and "Backspace" in said[-1]
    said += dialogue.press("2") + dialogue.hear(["help"])
    assert "press D" in said[-1]


@pytest.mark.parametrize(
    ("inputs", "words"),
    [
        # How many teams: two to six.
        ([], ("two", "three", "four", "five", "six")),
        # Players: two to nine, or "different".
        ([("key", "2")], ("two", "nine", "different")),
        # Who starts: the teams' colours and "random" (no colour of a team not playing).
        ([("key", "2"), ("key", "3")], ("red", "blue", "random")),
        # The read-back: yes or no.
        ([("key", "2"), ("key", "3"), ("key", "1")], ("yes", "no")),
    ],
)
def test_expected_words_per_step(inputs: list[Input], words: tuple[str, ...]) -> None:
    dialogue, _ = play(inputs)
    expected = dialogue.expected_words()
    assert set(words) <= set(expected)
    assert {"repeat", "help", "undo"} <= set(expected)
    assert set(expected) <= set(SetupDialogue.vocabulary())
    if dialogue.step is Step.FIRST:
        assert "green" not in expected


def test_the_vocabulary_is_small_and_closed() -> None:
    words = SetupDialogue.vocabulary()
    assert len(words) == len(set(words)) <= 25
    assert {"two", "nine", "red", "orange", "random", "yes", "no", "repeat", "help"} <= set(words)


# ----- a game saved where the new one would go: offered first ------------------------------

SAVED = "Blue's turn 4, Nature; Red on 7 of 47, Blue on 5 of 47; saved today at 21:30"
GLOBAL = ("repeat", "help", "undo")


def offered(inputs: list[Input], *, voice: bool = True) -> tuple[SetupDialogue, list[str]]:
    dialogue = SetupDialogue(random.Random(0), saved=SAVED)
    dialogue.voice = voice
    said = dialogue.start()
    for how, what in inputs:
        said += dialogue.hear(what.split()) if how == "say" else dialogue.press(what)
    return dialogue, said


@pytest.mark.parametrize(
    "answer", [("say", "yes"), ("say", "resume please"), ("key", "y"), ("key", ENTER)]
)
def test_a_saved_game_is_offered_first_and_yes_goes_on_with_it(answer: Input) -> None:
    dialogue, said = offered([answer])
    assert said[0] == (
        f"There is a game in progress: {SAVED}. "
        "Say yes to go on with it, or new for a new game. Or press Y or N."
    )
    assert dialogue.finished and dialogue.resumed and dialogue.result is None
    assert said[-1] == "Going on with the saved game."
    assert dialogue.step is Step.RESUMED


@pytest.mark.parametrize("answer", [("say", "new"), ("say", "knew game"), ("key", "n")])
def test_new_sets_up_a_new_game_and_says_the_saved_one_is_kept(answer: Input) -> None:
    dialogue, said = offered([answer, ("say", "two"), ("say", "two"), ("say", "red")])
    assert said[1] == "A new game, then. The saved one is kept."
    assert said[2].startswith("Let's set up the teams.")
    assert not dialogue.resumed and dialogue.step is Step.CONFIRM
    dialogue.hear(["yes"])
    assert dialogue.result is not None and dialogue.result.teams == spec(2, 2)


def test_undo_after_new_offers_the_saved_game_again() -> None:
    dialogue, said = offered([("key", "n"), ("key", BACKSPACE), ("say", "yes")])
    assert said[-2].startswith("Undone. There is a game in progress:")
    assert dialogue.resumed


def test_the_offer_without_voice_names_the_keys_and_unclear_words_ask_again() -> None:
    dialogue, said = offered([("key", "3"), ("say", "three")], voice=False)
    assert said[0].endswith("Press Y to go on with it, or N for a new game.")
    assert said[1] == "Press Y to go on with the saved game, or N for a new game."
    assert dialogue.step is Step.SAVED and not dialogue.finished
    assert set(dialogue.expected_words()) == {"yes", "no", "new", "resume", *GLOBAL}
    assert "the saved game is kept" in offered([("key", "?")])[1][-1]


def test_without_a_saved_game_nothing_is_offered() -> None:
    dialogue, said = play([])
    assert dialogue.step is Step.TEAMS and said[0].startswith("Let's set up the teams.")


@pytest.mark.parametrize(
    ("step_keys", "saved", "heard", "answered"),
    [
        # A homophone alone is its answer ("know" for no at the read-back) ...
        ("221", "", "know", True),
        # ... but in a sentence it is the sentence's word: "I don't know" at the
        # read-back does not start the set-up again ...
        ("221", "", "i don't know", False),
        # ... nor does it choose a new game over the saved one, nor "I knew it" ...
        ("", "Red's turn 2", "i don't know", False),
        ("", "Red's turn 2", "i knew it", False),
        # ... nor "I want to go first" set two teams, nor "I'll be back" undo.
        ("", "", "i want to go first", False),
        ("2", "", "i'll be back", False),
        # Opening two words, or before a word that ends an answer said as a phrase,
        # it is the answer ("two each" was written "to region").
        ("2", "", "to region", True),
        ("", "", "to teams", True),
        ("2", "", "for players", True),
        # "yeah" and "yep" are yes wherever they are heard.
        ("221", "", "yeah let's go", True),
        ("", "Red's turn 2", "oh yep", True),
    ],
)
def test_a_homophone_answers_only_alone_or_before_an_answers_tail(
    step_keys: str, saved: str, heard: str, answered: bool
) -> None:
    dialogue = SetupDialogue(random.Random(0), saved=saved)
    dialogue.start()
    for key in step_keys:
        dialogue.press(key)
    before = dialogue.step
    replies = dialogue.hear(heard.split())
    assert (dialogue.step is not before) is answered, (replies, dialogue.step)
    assert replies[0].startswith("Sorry") is not answered
