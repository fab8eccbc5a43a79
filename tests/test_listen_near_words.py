"""A guess of a word near the card's sound is not the card (the near words of the
biased model, ``voice_host.speech.biased_lm.near_words``), through the real
pocketsphinx path and the referee, as ``voice-host listen`` hears a recording."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from voice_host import cli

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "audio"


def _types(capsys: pytest.CaptureFixture[str], clip: str, word: str) -> list[str]:
    args = ["--audio", str(FIXTURES / clip), "--json", "--show", "judgements", "--word", word]
    code = cli.main(["listen", *args])
    out = capsys.readouterr().out
    assert code == 0
    return [json.loads(line)["type"] for line in out.splitlines()]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("clip", "card", "near_card"),
    [
        # "is it paint" on the card Faint was written "is a faint" and scored
        ("slt/guess__is_it_paint.wav", "Paint", "Faint"),
        # "is it a car" on the card Card was written "is n h card"
        ("slt/guess__is_it_a_car.wav", "Car", "Card"),
        # "bicycle" on the card Icicle was written "icicle"
        ("slt/guess__bicycle.wav", "Bicycle", "Icicle"),
    ],
)
def test_a_guess_near_the_cards_sound_scores_only_on_its_own_card(
    capsys: pytest.CaptureFixture[str], clip: str, card: str, near_card: str
) -> None:
    assert "guess" not in _types(capsys, clip, near_card)
    assert _types(capsys, clip, card)[:1] == ["guess"]
