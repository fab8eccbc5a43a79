"""Steered (keyword-spotting) hits need independent confirmation; partial then final count once."""

from __future__ import annotations

import json

import pytest

from tests.referee.conftest import EINSTEIN, TELESCOPE, entry, free, phones, spotted
from voice_host.referee import Judgement, Phase, Referee, Situation, judgement_to_json
from voice_host.speech.events import HeardWord, RecognitionEvent

SIT = Situation(entry=TELESCOPE)


def test_unconfirmed_hit_is_not_a_guess() -> None:
    [j] = Referee(phones).judge(spotted("telescope", 1.0, 1.7, None, span=(1.0, 1.8)), SIT)
    assert j.type == "nothing" and "unconfirmed" in j.evidence


def test_rejected_hit_is_nothing() -> None:
    [j] = Referee(phones).judge(spotted("telescope", 1.0, 1.7, False, span=(1.0, 1.8)), SIT)
    assert j.type == "nothing" and "rejected" in j.evidence


def test_confirmed_hit_in_a_short_utterance_is_a_guess() -> None:
    [j] = Referee(phones).judge(spotted("telescope", 1.0, 1.7, True, span=(0.9, 1.8)), SIT)
    assert j.type == "guess"


def test_confirmed_hit_in_a_long_utterance_is_a_foul() -> None:
    # only the keyword is reported, but the utterance lasted 5 s: a clue
    [j] = Referee(phones).judge(spotted("telescope", 3.0, 3.7, True, span=(0.5, 5.5)), SIT)
    assert (j.type, j.kind) == ("foul", "word")


def test_unconfirmed_partial_is_not_decided() -> None:
    assert Referee(phones).judge(spotted("telescope", 1.0, 1.7, None, kind="partial"), SIT) == []


def test_observe_confirms_with_an_overlapping_free_transcript() -> None:
    ref = Referee(phones)
    # the free decoder wrote "tell us cope" (loosely like telescope): too weak alone
    words = (HeardWord("tell", 1.0, 1.2), HeardWord("us", 1.2, 1.4), HeardWord("cope", 1.4, 1.7))
    assert [j.type for j in ref.observe(RecognitionEvent("final", words, 2.0, "free"), SIT)] == [
        "nothing"
    ]
    [j] = ref.observe(spotted("telescope", 1.0, 1.7, None), SIT)
    assert j.type == "guess" and "confirmed by free transcript" in j.evidence


def test_observe_waits_for_the_free_transcript() -> None:
    ref = Referee(phones)
    assert ref.observe(spotted("telescope", 1.0, 1.7, None), SIT) == []
    words = (HeardWord("tell", 1.0, 1.2), HeardWord("us", 1.2, 1.4), HeardWord("cope", 1.4, 1.7))
    js = ref.observe(RecognitionEvent("final", words, 2.0, "free"), SIT)
    assert [j.type for j in js] == ["guess"]


def test_free_transcript_decides_who_said_a_spotted_word() -> None:
    ref = Referee(phones)
    clue = free("you look through a telescope to see the stars", start=0.3)
    hit_word = next(w for w in clue.words if w.text == "telescope")
    hit = spotted("telescope", hit_word.start, hit_word.end, True, span=(0.3, clue.end))
    js = ref.observe_all([hit, clue], SIT)
    assert [j.label for j in js] == ["foul:word"]  # once, not twice


def test_partial_then_final_count_once() -> None:
    ref = Referee(phones)
    first = ref.observe(spotted("telescope", 1.0, 1.7, True, kind="partial"), SIT)
    again = ref.observe(spotted("telescope", 1.0, 1.72, True), SIT)
    free_too = ref.observe(free("telescope", start=1.0), SIT)
    assert [j.type for j in first] == ["guess"]
    assert again == [] and free_too == []


def test_same_guess_later_counts_again() -> None:
    ref = Referee(phones)
    assert [j.type for j in ref.observe(free("telescope", start=1.0), SIT)] == ["guess"]
    assert [j.type for j in ref.observe(free("telescope", start=30.0), SIT)] == ["guess"]


def command_hit(confirmed: bool | None) -> RecognitionEvent:
    words = (HeardWord("host", 1.0, 1.3), HeardWord("undo", 1.3, 1.6))
    return RecognitionEvent("final", words, 1.8, "kws", confirmed, (1.0, 1.6))


def test_spotted_command_needs_confirmation() -> None:
    assert [j.label for j in Referee(phones).judge(command_hit(True), SIT)] == ["command:undo"]
    assert [j.type for j in Referee(phones).judge(command_hit(None), SIT)] == ["nothing"]


def test_spotted_command_contradicted_by_free_transcript_is_dropped() -> None:
    # "host status" spotted as "host undo"; the free decoder wrote "post and sketches"
    ref = Referee(phones)
    ref.observe(free("post and sketches", start=1.0), SIT)
    assert ref.observe(command_hit(True), SIT) == []
    # a free transcript with the command word agrees ("so undo": no wake word
    # of its own, so only the spotted phrase makes it a command)
    ref2 = Referee(phones)
    assert [j.type for j in ref2.observe(free("so undo", start=1.0), SIT)] == ["nothing"]
    assert [j.label for j in ref2.observe(command_hit(True), SIT)] == ["command:undo"]


def test_spotted_command_after_a_word_that_leads_talk_into_it_is_dropped() -> None:
    # "okay first, repeat it" written "ok first repeat it" while the spotter fired
    # "host repeat" (benchmarks/commands.py unseen4): "first", "just", "that's" lead
    # into a command word in talk, and stand in no wake word's place
    for said in ("ok first undo it", "just undo", "first undo"):
        ref = Referee(phones)
        assert [j.type for j in ref.observe(free(said, start=1.0), SIT)] == ["nothing"]
        assert ref.observe(command_hit(True), SIT) == [], said


def test_spotted_command_deep_in_a_short_transcript_is_dropped() -> None:
    # "he jumped over the fence" in a reverberant room: the spotter fired "host
    # undo" and the free decoder wrote the command word as the fifth word; a
    # command has at most an attention word, the wake word and a filler before it
    ref = Referee(phones)
    ref.observe(free("it jumped over so undo", start=1.0), SIT)
    assert ref.observe(command_hit(True), SIT) == []
    # nor one the sentence goes on after ("post undo review letters")
    ref1 = Referee(phones)
    ref1.observe(free("boast undo review letters", start=1.0), SIT)
    assert ref1.observe(command_hit(True), SIT) == []
    # the fourth word still agrees: "okay" and the wake word both garbled
    ref2 = Referee(phones)
    ref2.observe(free("go character coast undo", start=1.0), SIT)
    assert [j.label for j in ref2.observe(command_hit(True), SIT)] == ["command:undo"]
    # ... as does any transcript the command reader reads as that command
    ref3 = Referee(phones)
    ref3.observe(free("well i think we should say host undo", start=1.0), SIT)
    assert "command:undo" in [j.label for j in ref3.observe(command_hit(True), SIT)]


def test_spotted_word_of_a_multi_word_answer_defers_to_free_transcript() -> None:
    # kws reports "albert" alone; the free transcript heard the whole answer
    ref = Referee(phones)
    situation = Situation(entry=EINSTEIN)
    guess = ref.observe(free("albert einstein", start=1.0), situation)
    albert = next(w for w in free("albert einstein", start=1.0).words if w.text == "albert")
    hit = spotted("albert", albert.start, albert.end, True, span=(1.0, 2.5))
    assert [j.label for j in guess] == ["guess"]
    assert ref.observe(hit, situation) == []


def test_judgement_json() -> None:
    j = Judgement(
        "foul",
        2.345678,
        "rhymes with",
        kind="rhyme",
        evidence="rhyme talk",
        features={"x": 0.12345},
    )
    out = judgement_to_json(j)
    assert out == {
        "type": "foul",
        "t": 2.35,
        "heard": "rhymes with",
        "kind": "rhyme",
        "evidence": "rhyme talk",
        "features": {"x": 0.123},
    }
    json.dumps(out)
    cmd = judgement_to_json(
        Judgement("command", 1.0, "host push blue", command="push", argument="blue")
    )
    assert (cmd["command"], cmd["argument"]) == ("push", "blue")
    guess = judgement_to_json(Judgement("guess", 1.0, "telescope", answer="telescope"))
    assert guess["answer"] == "telescope" and "kind" not in guess


def test_a_form_in_the_free_transcript_does_not_confirm_the_answer() -> None:
    # spotted "telescope" while the free decoder wrote the form "telescopic"
    ref = Referee(phones)
    assert [j.type for j in ref.observe(free("telescopic", start=1.0), SIT)] == ["near_miss"]
    hit = spotted("telescope", 1.0, 1.7, None)
    assert ref.observe(hit, SIT) == []


def test_confirmed_hit_inside_a_garbled_long_free_transcript_is_a_foul() -> None:
    # kws heard "telescope"; the free decoder wrote nine unrelated words around it
    ref = Referee(phones)
    ref.observe(free("you can have those tears of their hear us", start=0.3), SIT)
    [j] = ref.observe(spotted("telescope", 1.2, 1.8, True, span=(0.3, 3.4)), SIT)
    assert (j.type, j.kind) == ("foul", "word")


def test_keyword_only_hit_with_words_after_it_is_a_clue() -> None:
    # a 2.4 s utterance whose keyword ends 1.2 s before its end: words follow it
    [j] = Referee(phones).judge(spotted("telescope", 0.5, 1.2, True, span=(0.3, 2.4)), SIT)
    assert j.type == "foul" and "follow" in j.evidence


def test_confirmed_hit_where_free_heard_another_family_word_is_not_a_guess() -> None:
    # the spotter reported "telescope" (confirmed) but the free decoder wrote
    # "telescoped" there: another word of the family, not the answer
    ref = Referee(phones)
    ref.observe(free("telescoped", start=1.0), SIT)
    js = ref.observe(spotted("telescope", 1.0, 1.7, True, span=(1.0, 1.8)), SIT)
    assert all(j.type != "guess" for j in js)


def test_spotted_command_inside_a_clue_sentence_is_dropped() -> None:
    # a clue for Disneyland, "... with making most undo cash l", spotted as
    # "host undo": the free transcript has "undo", but inside a sentence that no
    # reading makes a command (a command is a short utterance of its own)
    ref = Referee(phones)
    ref.observe(free("seem park him california with making most undo cash", start=0.2), SIT)
    assert ref.observe(command_hit(True), SIT) == []
    # ... while a long transcript that does read as a command gives the command
    # once (from the transcript; the spotted phrase is the same words)
    ref2 = Referee(phones)
    transcript = free("okay everybody listen now host undo that please", start=0.2)
    host, undo = transcript.words[4:6]
    spotted_there = RecognitionEvent(
        "final", (host, undo), undo.end + 0.2, "kws", True, (host.start, undo.end)
    )
    said = ref2.observe(transcript, SIT) + ref2.observe(spotted_there, SIT)
    assert [j.label for j in said] == ["command:undo"]


KINDNESS = entry("Kindness", ("kindness",), ("kind", "kinder", "kindest"))


def test_R11_kind_of_is_no_form_of_kindness_even_when_spotted() -> None:
    # "kind of" is another word (a sort of; a describer's filler): neither the
    # free transcript nor a spotted "kind" confirmed by it makes it a foul ...
    sit = Situation(entry=KINDNESS)
    clue = free("it's kind of like being nice to people", start=0.7)
    kind = clue.words[1]
    hit = spotted("kind", kind.start, kind.end, True, span=(0.7, clue.end))
    assert [j.label for j in Referee(phones).observe_all([hit, clue], sit)] == ["nothing"]
    # ... while the adjective, the root of Kindness, stays one
    slip = free("being kind to other people", start=0.7)
    said = slip.words[1]
    hit = spotted("kind", said.start, said.end, True, span=(0.7, slip.end))
    assert [j.label for j in Referee(phones).observe_all([hit, slip], sit)] == ["foul:derivative"]


CONTROL = Situation(entry=TELESCOPE, phase=Phase.CONTROL, teams=("red", "blue", "green"))


@pytest.mark.parametrize(
    "text",
    [
        # a guess that names a colour which is also a team's name
        "a blue whale",
        "is a red apple",
        # "the green one": a filler before the name, but a word after it that is no tail
        "the green one",
        # a clue the recogniser heard as ending with a team name
        "moving to for blue",
        # more of a breath after the name than a claim has ("a silver spoon", held out)
        "blue c q in",
    ],
)
def test_R17_a_spotted_team_name_inside_a_guess_is_no_claim(text: str) -> None:
    ref = Referee(phones)
    said = free(text, start=0.3)
    team = next(w for w in said.words if w.text in CONTROL.teams)
    hit = spotted(team.text, team.start, team.end, True, span=(0.3, said.end))
    assert not [j for j in ref.observe_all([hit, said], CONTROL) if j.type == "command"]


@pytest.mark.parametrize(
    "text, phrase",
    [
        ("blue", "blue"),
        # the wake word, then the name
        ("host red", "host red"),
        # "green team!" with "team" garbled and a breath after it
        ("green to you", "green"),
        # an attention word and a garbled wake word before the name
        ("l k pass blue", "blue"),
        # the spotter heard "host green"; the transcript garbled the wake word
        ("cast to green", "host green"),
    ],
)
def test_R17_a_spotted_team_name_said_as_a_claim_is_one(text: str, phrase: str) -> None:
    ref = Referee(phones)
    said = free(text, start=0.3)
    team = phrase.split()[-1]
    name = next(w for w in said.words if w.text == team)
    woken = phrase != team  # the spotter's "host red" phrase, else the name alone
    hit = spotted(phrase, 0.3 if woken else name.start, name.end, True)
    labels = [j.label for j in ref.observe_all([hit, said], CONTROL) if j.type == "command"]
    assert labels == [f"team:{team}"]


def test_R17_a_bare_spotted_name_after_a_word_that_is_no_wake_word_is_no_claim() -> None:
    # only a spotted "host green" lets a word that does not sound like "host" stand for it
    ref = Referee(phones)
    said = free("moving to green", start=0.3)
    name = said.words[-1]
    hit = spotted("green", name.start, name.end, True)
    assert not [j for j in ref.observe_all([hit, said], CONTROL) if j.type == "command"]


def test_R17_the_answer_then_the_teams_name_in_one_breath_is_a_guess_and_a_claim() -> None:
    # The CONTROL round's prompt asks for it: "shout the answer, then your team's name".
    ref = Referee(phones)
    said = free("telescope blue", start=0.3)
    name = said.words[-1]
    hit = spotted("blue", name.start, name.end, True)
    labels = sorted(j.label for j in ref.observe_all([hit, said], CONTROL) if j.type != "nothing")
    assert labels == ["guess", "team:blue"]


def test_R17_a_question_with_the_answer_then_the_teams_name_is_a_claim_too() -> None:
    ref = Referee(phones)
    said = free("is it a telescope blue", start=0.3)
    name = said.words[-1]
    hit = spotted("blue", name.start, name.end, True)
    labels = [j.label for j in ref.observe_all([hit, said], CONTROL) if j.type == "command"]
    assert labels == ["team:blue"]
