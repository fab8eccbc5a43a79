"""A spotted form of the card that the transcript wrote as other words: the sound
decides (``PocketSphinxRecognizer._sound_stands_for``, real audio)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from voice_host.audio.recording import open_recording
from voice_host.audio.silence import SilenceSource
from voice_host.deck.knowledge import make_entry
from voice_host.speech import pocketsphinx_backend
from voice_host.speech.events import ListenContext, RecognitionEvent
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer
from voice_host.speech.replay import replay

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"


def _finals(name: str, entry: str, commands: tuple[str, ...] = ()) -> list[RecognitionEvent]:
    clip = list(open_recording(FIXTURES / name, chunk_seconds=0.05))  # the microphone's blocks
    after = SilenceSource(1.0, chunk_seconds=0.05, start_time=clip[-1].end_time)
    context = ListenContext.for_entry(make_entry(entry, "Object"), commands, ())
    events = replay(PocketSphinxRecognizer(), [*clip, *after], context)
    return [e for e in events if e.kind == "final"]


def _confirmed(finals: list[RecognitionEvent], stem: str) -> list[str]:
    return [e.text for e in finals if e.source == "kws" and stem in e.text and e.confirmed]


@pytest.mark.slow
def test_a_form_written_as_other_words_stands_when_the_sound_fits_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # rms: "a volcano erupts with lava", written "they vow came no derribes with
    # love": "volcano" sounds only partly like "vow came no", but the recording
    # fits "they volcano derribes ..." far better than the transcript itself.
    clip = "rms/clue_word__a_volcano_erupts_with_lava.wav"
    finals = _finals(clip, "Volcano")
    free = [e.text for e in finals if e.source == "free"]
    assert not any("volcano" in text for text in free)
    assert "volcano" in _confirmed(finals, "volcano")
    # The sound check is what let it stand ...
    with monkeypatch.context() as m:
        m.setattr(pocketsphinx_backend, "SOUND_MARGIN", math.inf)
        assert _confirmed(_finals(clip, "Volcano"), "volcano") == []
    # ... and only a phrase of SOUND_PHONES or more gets it ("volcano": 7).
    monkeypatch.setattr(pocketsphinx_backend, "SOUND_PHONES", 8)
    assert _confirmed(_finals(clip, "Volcano"), "volcano") == []


@pytest.mark.slow
def test_a_card_word_spotted_in_a_command_does_not_stand() -> None:
    # "host, foul" in pink noise on the card Eiffel Tower: "tower" is spotted over
    # "foul", and the sound does not prefer it there.
    finals = _finals("espeak-en+f2/command__host_foul__pink15.wav", "Eiffel Tower", ("host foul",))
    assert any(e.source == "kws" and e.text == "tower" for e in finals)
    assert _confirmed(finals, "tower") == []
    # (base-en's "host foul" is read at the pause; what follows is a breath, no words)
    assert [e.text.split()[-1] for e in finals if e.source == "free" and e.text] == ["foul"]
