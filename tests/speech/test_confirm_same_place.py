"""Spotted phrases the transcript speaks against: longer forms at the place of a refused short
one, and letter talk over no transcript at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from voice_host.speech.confirm import extends
from voice_host.speech.events import HeardWord

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "audio" / "real"
FORK = HeardWord("fork", 0.04, 0.65)  # 3 phones: F AO R K is 4


@pytest.mark.parametrize(
    "longer, phones, same",
    [
        # "forks" 0.02 s longer for one more phone: no time to say the S.
        (HeardWord("forks", 0.04, 0.67), 5, True),
        # "pitchfork" inside the same stretch: "pitch" was never said.
        (HeardWord("pitchfork", 0.13, 0.65), 7, True),
        # "the fork" over the same sound.
        (HeardWord("the fork", 0.02, 0.65), 6, True),
        # "forklift" 0.10 s longer for four more phones: still no time for "lift".
        (HeardWord("forklift", 0.04, 0.75), 8, True),
        # A real "forks": the S took 0.09 s more, time enough for one phone.
        (HeardWord("forks", 0.04, 0.74), 5, False),
        # Said later in the sentence: another place, its own verdict.
        (HeardWord("forks", 1.50, 1.95), 5, False),
        # Overlapping only part of the short form's stretch.
        (HeardWord("forks", 0.45, 0.95), 5, False),
        # A word that does not hold "fork".
        (HeardWord("cork", 0.04, 0.65), 4, False),
        # The same phrase is not an extension of itself.
        (HeardWord("fork", 0.04, 0.65), 4, False),
    ],
)
def test_a_longer_form_without_time_for_its_extra_sound_is_the_short_one(
    longer: HeardWord, phones: int, same: bool
) -> None:
    assert extends(longer, phones, FORK, 4) is same


@pytest.mark.slow
@pytest.mark.parametrize(
    "clip, word",
    [
        # "four queen of clubs": the transcript wrote "for" over the spotted
        # "fork", and the spotter's "forks", "pitchfork", "forklift" at the same
        # place were confirmed by their length and called a foul.
        ("cmu/four_queen_of_clubs.wav", "Fork"),
        # "... seven of hearts": "carts" written over "darts", and "darts's" stood.
        ("cmu/eight_of_spades_four_of_clubs_seven_of_hearts.wav", "Darts"),
    ],
)
def test_real_speech_near_a_card_word_is_no_foul(
    capsys: pytest.CaptureFixture[str], clip: str, word: str
) -> None:
    from voice_host import cli

    argv = ["listen", "--audio", str(REAL / clip), "--word", word, "--json", "--show", "all"]
    assert cli.main(argv) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [x for x in lines if x.get("type") in ("foul", "guess")] == []
    # The spotter did fire on the card's forms: the refusal is what keeps it quiet.
    assert any(x.get("source") == "kws" and x.get("confirmed") is False for x in lines)


@pytest.mark.slow
def test_letter_talk_stands_on_its_length_only_over_a_transcript() -> None:
    # "first letter" (8 phones) is trusted on its length where the transcript
    # garbled it; where neither transcriber wrote a word, the spotter fired on
    # noise (a crowd on a news broadcast: a letter foul on every card).  A card
    # word still stands on its length there: in chatter the transcribers often
    # write nothing while the spotter hears the guess.
    from voice_host.speech.events import ListenContext
    from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer, _Hit

    recognizer = PocketSphinxRecognizer(second_opinion=None, pause_detector=None)
    recognizer.start(ListenContext(answers=("telescope",)))
    letter = _Hit(HeardWord("first letter", 1.0, 1.6), ("F", "ER", "S", "T", "L", "EH", "T", "ER"))
    card = _Hit(HeardWord("telescope", 1.0, 1.6), ("T", "EH", "L", "AH", "S", "K", "OW", "P"))
    garbled = (HeardWord("the", 0.8, 1.0), HeardWord("bus", 1.0, 1.3), HeardWord("go", 1.3, 1.6))
    assert recognizer._confirm_hits([letter], garbled) == [True]
    assert recognizer._confirm_hits([letter], ()) == [False]
    assert recognizer._confirm_hits([card], ()) == [True]


@pytest.mark.slow
def test_a_team_name_written_over_a_spotted_card_word_refuses_it() -> None:
    # "green christmas hater" for The Grinch: the spotter fired "grinch" where
    # the transcript wrote the team name "green"; a team name is another word
    # the model offers (a sound-alike or a common word would have refused it),
    # so the check says no, and there is no describer's foul.
    from voice_host.speech.events import ListenContext
    from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer, _Hit

    recognizer = PocketSphinxRecognizer(second_opinion=None, pause_detector=None)
    recognizer.start(
        ListenContext(
            answers=("the grinch", "grinch"),
            commands=("host pass", "host green", "host red"),
            team_names=("green", "red"),
        )
    )
    grinch = _Hit(HeardWord("grinch", 0.62, 0.89), ("G", "R", "IH", "N", "CH"))
    over_it = (
        HeardWord("green", 0.62, 0.87),
        HeardWord("christmas", 0.87, 1.41),
        HeardWord("paper", 1.41, 1.81),
    )
    assert recognizer._confirm_hits([grinch], over_it) == [False]
    # the card's own word written there confirms it
    said = (HeardWord("the", 0.5, 0.62), HeardWord("grinch", 0.62, 0.89))
    assert recognizer._confirm_hits([grinch], said) == [True]


def test_a_witness_that_refuses_a_card_word_refuses_its_longer_forms_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A real child's "xylophone" on the card Telephone (qabcs, benchmarks/real_words.py):
    # the spotter fired "telephone" and "telephone's" over it, pocketsphinx wrote "is
    # island phone" and both Moonshine models "xylophone".  Aligned to the audio, the
    # witness's "xylophone" fits better than "telephone", but no worse than
    # "telephone's" (one hearing of one word, its added "s" over nothing): the longer
    # form at the same place gets the same verdict, and there is no "correct".
    from voice_host.speech.events import ListenContext
    from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer, _Hit

    recognizer = PocketSphinxRecognizer(second_opinion=None, pause_detector=None)
    recognizer.start(ListenContext(answers=("telephone",), forms=("telephone's",)))
    recognizer._witness = (HeardWord("xylophone", 0.15, 0.95),)
    recognizer._witness_agrees = False
    said = ("T", "EH", "L", "AH", "F", "OW", "N")
    monkeypatch.setattr(
        recognizer,
        "_sound_prefers_witness",
        lambda phones, text, start, end, weak=False: text == "telephone",
    )
    card = _Hit(HeardWord("telephone", 0.24, 1.03), said)
    longer = _Hit(HeardWord("telephone's", 0.24, 1.05), (*said, "Z"))
    free = (
        HeardWord("is", 0.03, 0.15),
        HeardWord("island", 0.15, 0.5),
        HeardWord("phone", 0.5, 0.95),
    )
    assert recognizer._confirm_hits([card, longer], free) == [False, False]
    # said later, another place: its own verdict
    later = _Hit(HeardWord("telephone's", 2.0, 2.8), (*said, "Z"))
    assert recognizer._confirm_hits([card, later], free) == [False, True]
