"""An evening's listening without a break: does the recogniser slow down or grow?

    .venv/bin/python benchmarks/long_evening.py                 # 60 minutes of audio
    .venv/bin/python benchmarks/long_evening.py --minutes 10

The live host feeds one recogniser for the whole game: its spotter runs on the
whole stream and its transcriber on every utterance, with a new card's context
every few seconds.  This replays an hour of table sound the same way, on audio
time: the clean fixture clips one after another in their turn order, with 1 to
4 s of a quiet room between them (pink noise at -60 dBFS), the card changed
every 20 s of audio to the next of the built-in deck's cards, and every event
judged by the referee as the host judges it.  Every ``--every`` minutes of audio
it prints the CPU seconds that stretch took (its real-time factor), the
process's resident memory, and the utterances and judgements so far: a
recogniser that slows down or grows over an evening shows as a rising line.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time
import wave
from collections.abc import Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk  # noqa: E402
from voice_host.deck.loader import load_builtin  # noqa: E402
from voice_host.referee import Phase, Referee, Situation  # noqa: E402
from voice_host.referee.commands import command_phrases, listened_teams  # noqa: E402
from voice_host.referee.phones import default_phone_lookup  # noqa: E402
from voice_host.speech.events import ListenContext  # noqa: E402

MANIFEST = ROOT / "fixtures" / "audio" / "manifest.json"
TEAMS = ("red", "blue", "green")
#: Samples in a chunk: the microphone's 50 ms block.
CHUNK = SAMPLE_RATE // 20
#: Seconds of audio between card changes.
CARD_SECONDS = 20.0


def _clip(path: Path) -> np.ndarray:
    with wave.open(str(path)) as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")


def _room(seconds: float, rng: np.random.Generator) -> np.ndarray:
    """A quiet room: pink noise at -60 dBFS."""
    n = int(seconds * SAMPLE_RATE)
    spec = np.fft.rfft(rng.standard_normal(n))
    f = np.arange(len(spec), dtype=np.float64)
    f[0] = 1.0
    noise = np.fft.irfft(spec / np.sqrt(f), n)
    noise *= 32768 * 10 ** (-60 / 20) / max(float(np.sqrt(np.mean(noise**2))), 1e-9)
    return noise.astype("<i2")


def stream(minutes: float, seed: int = 7) -> Iterator[AudioChunk]:
    """``minutes`` of table sound in 50 ms chunks, on audio time."""
    clips = [
        MANIFEST.parent / c["file"]
        for c in json.loads(MANIFEST.read_text())["clips"]
        if not c["noise"] and c["kind"] != "silence"
    ]
    rng = np.random.default_rng(seed)
    total = int(minutes * 60 * SAMPLE_RATE)
    done = 0
    pending = np.zeros(0, dtype="<i2")
    i = 0
    while done < total:
        while len(pending) < CHUNK:
            gap = _room(float(rng.uniform(1.0, 4.0)), rng)
            pending = np.concatenate([pending, _clip(clips[i % len(clips)]), gap])
            i += 1
        block, pending = pending[:CHUNK], pending[CHUNK:]
        yield AudioChunk(block.tobytes(), SAMPLE_RATE, done / SAMPLE_RATE)
        done += CHUNK


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=60.0, help="audio to replay (minutes)")
    ap.add_argument("--every", type=float, default=5.0, help="report every so many minutes")
    args = ap.parse_args(argv)
    from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer

    deck = load_builtin()
    cards = [c.entries["Object"] for c in deck.cards]
    random.Random(7).shuffle(cards)
    phones = default_phone_lookup()
    referee = Referee.default(phones)
    recognizer = PocketSphinxRecognizer()
    teams = listened_teams(TEAMS, Phase.TURN)
    commands = command_phrases(teams)

    def context(n: int) -> ListenContext:
        return ListenContext.for_entry(cards[n % len(cards)], commands, teams)

    recognizer.prepare(context(n) for n in range(int(args.minutes * 60 / CARD_SECONDS) + 1))
    card = 0
    recognizer.start(context(card))
    situation = Situation(entry=cards[0], teams=TEAMS)
    finals = judged = 0
    block_cpu = time.process_time()
    block_end = args.every * 60
    print(f"{'audio':>8} {'cpu s':>7} {'rtf':>6} {'rss MB':>7} {'utterances':>10} {'judged':>7}")
    for chunk in stream(args.minutes):
        if chunk.start_time >= (card + 1) * CARD_SECONDS:
            card += 1
            recognizer.set_context(context(card))
            situation = Situation(entry=cards[card % len(cards)], teams=TEAMS)
            referee.reset()
        events = recognizer.feed(chunk)
        finals += sum(1 for e in events if e.kind == "final")
        judged += sum(1 for j in referee.observe_all(events, situation) if j.type != "nothing")
        if chunk.end_time >= block_end:
            cpu = time.process_time() - block_cpu
            print(
                f"{chunk.end_time / 60:7.1f}m {cpu:7.1f} {cpu / (args.every * 60):6.3f} "
                f"{_rss_mb():7.0f} {finals:10d} {judged:7d}",
                flush=True,
            )
            block_cpu = time.process_time()
            block_end += args.every * 60
    recognizer.finish()
    return 0


if __name__ == "__main__":
    sys.exit(main())
