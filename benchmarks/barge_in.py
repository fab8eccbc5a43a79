"""Can a player stop the host by voice while it speaks ("host stop" over its own voice)?

dialogue.md 1 allows a tiny always-on vocabulary to interrupt the host.  This
measures whether one would work here, before any is built.  The host's real
announcements (its dialogue texts, rendered by the announcer's engine,
pyttsx3 with espeak-ng) play into the microphone as a laptop's loudspeaker
would, with no echo cancellation; a player says "host stop", "host pause"
or "host wait" (4 flite and 4 espeak-ng voices, made on the spot) over
them, at a speech level 12, 6 or 0 dB above the host's (and alone, as the
baseline).  Two listeners:

* **spotter**: a pocketsphinx keyword spotter for just those phrases, at two
  thresholds (what a cheap always-on listener would be);
* **host path**: the host's whole listening path (pocketsphinx, Moonshine,
  the referee) with a card up, as if the gate stayed open.

Printed: commands heard per level, and false ones over the host's voice
alone (each announcement, then 0.5 s of silence).

    .venv/bin/python benchmarks/barge_in.py        # about 3 minutes
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import wave
from pathlib import Path
from typing import Any

import numpy as np
import soxr

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from voice_host.announce.render import Pyttsx3Renderer, VoiceSettings  # noqa: E402
from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk  # noqa: E402
from voice_host.deck.knowledge import make_entry  # noqa: E402
from voice_host.host import dialogue  # noqa: E402
from voice_host.host.keys import help_text  # noqa: E402
from voice_host.referee import Referee, Situation  # noqa: E402
from voice_host.referee.commands import command_phrases, listened_teams  # noqa: E402
from voice_host.referee.values import Phase as RefPhase  # noqa: E402
from voice_host.rules import Correct, Game, Phase, TimeUp, default_board  # noqa: E402
from voice_host.rules.teams import parse_teams  # noqa: E402
from voice_host.speech.events import ListenContext  # noqa: E402
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer  # noqa: E402
from voice_host.speech.replay import replay  # noqa: E402

PHRASES = ("host stop", "host pause", "host wait")
FLITE = ("slt", "rms", "awb", "kal16")
ESPEAK = ("en-us+m3", "en+f2", "en-us+f4", "en-gb")
#: Player speech level over the host's voice, dB (None: the player alone).
LEVELS: tuple[int | None, ...] = (None, 12, 6, 0)
THRESHOLDS = (20, 40)
TEAMS = ("Red", "Blue")
#: Every clip here is heard in a turn, where the host listens for no team name.
HEARD_TEAMS = listened_teams(TEAMS, RefPhase.TURN)


def host_texts() -> list[str]:
    """What the host says in a game: its own dialogue texts."""
    game = Game(parse_teams("Red:Ann,Bob;Blue:Cat,Dan"), default_board(), rng=random.Random(7))
    texts = [
        dialogue.opening(game, dialogue.help_hint("host")),
        dialogue.turn_intro(game),
        dialogue.GO,
    ]
    texts += ["Telescope, correct. One.", dialogue.TEN_SECONDS]
    texts += [dialogue.paused(17, dialogue.resume_hint("host")), dialogue.go_on(17)]
    texts += [dialogue.status(game, 12.0)]
    before = game.state
    game.apply(Correct())
    game.apply(TimeUp())
    texts += dialogue.moves(game, before, game.state)
    texts += [dialogue.status(game, None), "Sorry? Say host, then the command."]
    texts += [help_text(p, TEAMS, "host") for p in (Phase.TURN, Phase.SPIN, Phase.CONTROL_ROUND)]
    return [t for t in texts if t.strip()]


def render(texts: list[str]) -> list[np.ndarray]:
    renderer = Pyttsx3Renderer()
    try:
        out = []
        for text in texts:
            audio = renderer.render(text, VoiceSettings())
            x = np.frombuffer(audio.samples, "<i2").astype(np.float32)
            out.append(soxr.resample(x, audio.rate, SAMPLE_RATE))
        return out
    finally:
        renderer.close()


def read16(path: Path) -> np.ndarray:
    with wave.open(str(path)) as w:
        return np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float32)


def say_commands(folder: Path) -> list[tuple[str, np.ndarray]]:
    """(phrase, 16 kHz samples) for each voice and phrase."""
    out = []
    for phrase in PHRASES:
        for voice in FLITE + ESPEAK:
            raw, wav = folder / "raw.wav", folder / "cmd.wav"
            if voice in FLITE:
                subprocess.run(["flite", "-voice", voice, "-t", phrase, "-o", str(raw)], check=True)
            else:
                subprocess.run(["espeak-ng", "-v", voice, "-w", str(raw), phrase], check=True)
            sox = ["sox", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(wav)]
            subprocess.run(sox, check=True)
            out.append((phrase, read16(wav)))
    return out


def speech_rms(x: np.ndarray) -> float:
    loud = x[np.abs(x) > 300]
    return float(np.sqrt(np.mean(loud**2))) if loud.size else 1.0


def mixed(cmd: np.ndarray, echo: np.ndarray, level: int | None, at: int) -> np.ndarray:
    """``cmd`` 0.5 s into a stretch of the host's voice, ``level`` dB above it."""
    pad = SAMPLE_RATE // 2
    out = np.zeros(len(cmd) + 2 * pad, np.float32)
    out[pad : pad + len(cmd)] += cmd
    if level is not None:
        e = echo[at : at + len(out)]
        out[: len(e)] += e * (speech_rms(cmd) / speech_rms(echo) / 10 ** (level / 20))
    return np.clip(out, -32768, 32767)


class Spotter:
    """A keyword spotter for PHRASES alone."""

    def __init__(self, exponent: int, folder: Path) -> None:
        from pocketsphinx import Decoder

        hmm, dictionary, _ = PocketSphinxRecognizer._find_model(None)  # the bundled model
        self.decoder: Any = Decoder(hmm=str(hmm), dict=str(dictionary), lm=None, loglevel="FATAL")
        kws = folder / "barge.kws"
        kws.write_text("".join(f"{p} /1e-{exponent}/\n" for p in PHRASES))
        self.decoder.add_kws("barge", str(kws))
        self.decoder.activate_search("barge")

    def heard(self, x: np.ndarray) -> list[str]:
        d, data, hits = self.decoder, x.astype("<i2").tobytes(), []
        d.start_utt()
        for i in range(0, len(data), 3200):
            d.process_raw(data[i : i + 3200])
            if d.hyp() is not None:
                hits.append(" ".join(d.hyp().hypstr.split()))
                d.end_utt()
                d.start_utt()
        d.end_utt()
        return hits


class HostPath:
    """The host's listening path with a card up; what commands it judges."""

    def __init__(self) -> None:
        self.recognizer = PocketSphinxRecognizer()
        self.referee = Referee.default()
        self.entry = make_entry("Telescope", "Object")
        self.context = ListenContext.for_entry(
            self.entry, command_phrases(HEARD_TEAMS), HEARD_TEAMS
        )

    def heard(self, x: np.ndarray) -> list[str]:
        data = x.astype("<i2").tobytes()
        step = SAMPLE_RATE // 10 * 2
        chunks = [
            AudioChunk(data[i : i + step], SAMPLE_RATE, i / 2 / SAMPLE_RATE)
            for i in range(0, len(data), step)
        ]
        events = replay(self.recognizer, chunks, self.context)
        self.referee.reset()
        situation = Situation(entry=self.entry, teams=TEAMS)
        return [
            str(j.command)
            for j in self.referee.observe_all(events, situation)
            if j.type == "command"
        ]


def spotted(phrase: str, got: list[str]) -> bool:
    """Whether the spotter's hits name ``phrase``."""
    return any(phrase in g for g in got)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.parse_args(argv)  # no options: --help says what it measures, and runs nothing
    for tool in ("flite", "espeak-ng", "sox"):
        if shutil.which(tool) is None:
            print(f"barge_in: {tool} is not installed (bash scripts/test.sh installs it)")
            return 1
    texts = host_texts()
    echo = render(texts)
    long_echo = np.concatenate(echo)
    print(f"host voice: {len(texts)} announcements, {len(long_echo) / SAMPLE_RATE:.0f} s")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        commands = say_commands(folder)
        listeners: list[tuple[str, Any, Any]] = [
            (f"spotter 1e-{e}", Spotter(e, folder), spotted) for e in THRESHOLDS
        ]
        # "host stop" and "host wait" are the host's words for pause.
        listeners.append(("host path", HostPath(), lambda _phrase, got: "pause" in got))
        print(f"{len(commands)} commands: {', '.join(PHRASES)} by {len(FLITE + ESPEAK)} voices")
        header = "".join(f"{'alone' if v is None else f'+{v} dB':>10}" for v in LEVELS)
        print(f"{'listener':16}{header}{'false over host':>18}")
        for name, listener, right in listeners:
            cells = []
            for level in LEVELS:
                ok = 0
                for i, (phrase, cmd) in enumerate(commands):
                    at = (i * 3 * SAMPLE_RATE) % (len(long_echo) - 4 * SAMPLE_RATE)
                    ok += bool(right(phrase, listener.heard(mixed(cmd, long_echo, level, at))))
                cells.append(f"{ok}/{len(commands)}")
            silence = np.zeros(SAMPLE_RATE // 2, np.float32)
            false = sum(bool(listener.heard(np.concatenate([e, silence]))) for e in echo)
            row = "".join(f"{c:>10}" for c in cells)
            print(f"{name:16}{row}{f'{false}/{len(echo)}':>18}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
