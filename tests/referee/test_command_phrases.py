"""The one list of command phrases the recogniser is given, and that the referee reads them back."""

from __future__ import annotations

import pytest

from voice_host.referee import Phase, Referee, Situation
from voice_host.referee.commands import COMMAND_WORDS, command_phrases
from voice_host.referee.text import synthetic_words
from voice_host.speech.events import RecognitionEvent


def test_every_command_word_has_its_phrase_with_the_wake_word() -> None:
    phrases = command_phrases()
    assert phrases[0] == "host pass"
    assert {p.split()[1] for p in phrases} == set(COMMAND_WORDS)
    assert all(p.startswith("host ") for p in phrases)


def test_teams_give_push_and_claim_phrases_instead_of_a_bare_push() -> None:
    phrases = command_phrases(("Red", "blue"), wake_word="Quizmaster")
    assert "quizmaster push red" in phrases and "quizmaster push blue" in phrases
    assert "quizmaster red" in phrases and "quizmaster blue" in phrases
    assert "quizmaster push" not in phrases
    assert len(phrases) == len(set(phrases))


@pytest.mark.parametrize(
    ("phrase", "phase"),
    [
        # each plain command, in a timed turn
        *[(p, Phase.TURN) for p in command_phrases() if p.split()[1] not in ("forward", "push")],
        # forward and push <team> in a SPIN choice
        ("host forward", Phase.SPIN_CHOICE),
        ("host push red", Phase.SPIN_CHOICE),
        # a team claim in a CONTROL round
        ("host blue", Phase.CONTROL),
    ],
)
def test_the_referee_reads_every_phrase_back_as_a_command(phrase: str, phase: Phase) -> None:
    words = synthetic_words(phrase)
    event = RecognitionEvent("final", words, words[-1].end, "free", None, None)
    out = Referee(None).judge(event, Situation(entry=None, phase=phase, teams=("red", "blue")))
    assert [j.type for j in out] == ["command"]


def test_team_names_are_listened_for_as_they_are_said() -> None:
    # a name of two words is two words to the recogniser; a number is said in words
    phrases = command_phrases(("Big Red", "Team 2"))
    assert "host big red" in phrases and "host push big red" in phrases
    assert "host team two" in phrases
    assert not [p for p in phrases if "bigred" in p or "2" in p]


@pytest.mark.parametrize(
    ("teams", "phrase", "phase", "label"),
    [
        # a team of two words, claimed with the wake word and bare
        (("Big Red", "Small Blue"), "host big red", Phase.CONTROL, "team:bigred"),
        (("Big Red", "Small Blue"), "small blue", Phase.CONTROL, "team:smallblue"),
        # a number in the name, said in words or written in digits by a transcriber
        (("Team 1", "Team 2"), "host team two", Phase.CONTROL, "team:team2"),
        (("Team 1", "Team 2"), "team 1", Phase.CONTROL, "team:team1"),
        # "The Lions" is shouted "Lions!" too
        (("The Lions", "The Tigers"), "lions", Phase.CONTROL, "team:thelions"),
        (
            ("The Lions", "The Tigers"),
            "host push the tigers",
            Phase.SPIN_CHOICE,
            "command:push:thetigers",
        ),
        # one word of a two-word name is no team's
        (("Big Red", "Small Blue"), "host red", Phase.CONTROL, None),
        # "The Help" is not called "help": that is the command
        (("The Help", "Blue"), "host help", Phase.SPIN_CHOICE, "command:help"),
        (("The Help", "Blue"), "host the help", Phase.CONTROL, "team:thehelp"),
    ],
)
def test_a_team_name_of_several_words_is_one_claim(
    teams: tuple[str, ...], phrase: str, phase: Phase, label: str | None
) -> None:
    words = synthetic_words(phrase)
    event = RecognitionEvent("final", words, words[-1].end, "free", None, None)
    situation = Situation(entry=None, phase=phase, teams=tuple(t.lower() for t in teams))
    out = [j for j in Referee(None).judge(event, situation) if j.type == "command"]
    assert [j.label for j in out] == ([label] if label else [])
    if label:
        assert out[0].heard == phrase  # heard as said, not as the key


def test_team_names_said_alike_are_found() -> None:
    from voice_host.referee.commands import sound_alike_teams

    assert sound_alike_teams(["Team 2", "Red", "Team Two"]) == [("Team 2", "Team Two")]
    assert sound_alike_teams(["Équipe 1", "Equipe 1"]) == [("Équipe 1", "Equipe 1")]
    assert sound_alike_teams(["Red", "Blue", "Big Red"]) == []


@pytest.mark.parametrize(
    ("card", "teams", "phrase", "labels"),
    [
        # the card's answer holds a team's name: it stays the answer (a CONTROL guess)
        ("Mountain lion", ("The Lions", "Red"), "mountain lions", ["guess"]),
        # ... and the name after it is the claim
        (
            "Mountain lion",
            ("The Lions", "Red"),
            "mountain lions the lions",
            ["guess", "team:thelions"],
        ),
        ("Big red bus", ("Big Red", "Blue"), "a big red bus", ["guess"]),
        ("Big red bus", ("Big Red", "Blue"), "big red bus big red", ["guess", "team:bigred"]),
        # the name alone is still the claim
        ("Mountain lion", ("The Lions", "Red"), "lions", ["team:thelions"]),
        ("Big red bus", ("Big Red", "Blue"), "big red", ["team:bigred"]),
    ],
)
def test_a_team_name_inside_the_cards_answer_leaves_the_answer_whole(
    card: str, teams: tuple[str, ...], phrase: str, labels: list[str]
) -> None:
    from voice_host.deck.knowledge import make_entry

    words = synthetic_words(phrase)
    event = RecognitionEvent("final", words, words[-1].end, "free", None, None)
    situation = Situation(entry=make_entry(card, "Nature"), phase=Phase.CONTROL, teams=teams)
    assert [j.label for j in Referee(None).judge(event, situation)] == labels
