"""Guesses in a noisy room: one long stream with a continuous noise bed, as a live host hears it.

The fixture clips are short, and their noise starts with the speech.  A real
room makes noise all the time: a fan, music, the other players' chatter.  Here
the clean guess clips of the manifest are laid one after another (4 s apart)
over a noise bed that never stops (-32 dBFS RMS, or ``--level``).  Each guess
is scaled so that its loud part stands ``snr`` dB above the bed.  (Until
session 37 the bed was at -26 dBFS, where a guess 20 dB above it reached
-6 dBFS and 1.4% of its samples were clipped at full scale, which no
microphone with working gain does; the share clipped is printed last.)  The
whole stream goes through one pocketsphinx recogniser and the referee, the card changing half-way
through each gap, as in a game.

Noise beds: ``pink`` (a fan, road noise), ``babble`` (four espeak-ng voices
saying clue sentences, overlapping: chatter, including card words), and
``quiet`` (no bed: the baseline).  Printed per split (tune voices kal16, rms,
slt; held out awb) and bed: guesses counted, guesses judged something else,
judgements in the gaps between guesses (invented), and latency from the end
of the answer word to the judgement (audio time, chunk granularity 0.1 s).

    .venv/bin/python benchmarks/room.py              # level gate on (the default)
    .venv/bin/python benchmarks/room.py --no-gate    # the voice detector alone
    .venv/bin/python benchmarks/room.py --clues      # the describer's side: fouls

``--clues`` plays the describer's clue clips that say the card word or a form
of it instead (a foul), and prints fouls caught and clues judged a correct
guess (a false "correct").
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk  # noqa: E402
from voice_host.audio.wav import read_wav  # noqa: E402
from voice_host.deck.knowledge import make_entry  # noqa: E402
from voice_host.referee import Phase, Referee, Situation  # noqa: E402
from voice_host.referee.commands import command_phrases, listened_teams  # noqa: E402
from voice_host.speech import level_gate  # noqa: E402
from voice_host.speech.events import ListenContext  # noqa: E402
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer  # noqa: E402

FIXTURES = ROOT / "fixtures" / "audio"
TEAMS = ("red", "blue", "green")
#: Every clip here is heard in a turn, where the host listens for no team name.
HEARD_TEAMS = listened_teams(TEAMS, Phase.TURN)
SPLITS = {"tune": ("kal16", "rms", "slt"), "heldout": ("awb",)}
BEDS = (("quiet", None), ("pink", 15.0), ("pink", 10.0), ("babble", 20.0), ("babble", 15.0))
#: Seconds between one guess clip and the next.
GAP = 4.0
#: 100 ms chunks, as the benchmark's clock granularity.
CHUNK = 1600


def samples_of(name: str) -> np.ndarray:
    """A fixture clip's samples as floats."""
    return np.frombuffer(read_wav(FIXTURES / name).samples, dtype="<i2").astype(np.float64)


def noise_bed(kind: str, n: int, clues: list[str], seed: int) -> np.ndarray:
    """``n`` samples of ``pink`` noise or four-voice ``babble``, unit RMS."""
    rng = np.random.default_rng(seed)
    if kind == "pink":
        spectrum = np.fft.rfft(rng.standard_normal(n))
        spectrum /= np.sqrt(np.maximum(np.arange(len(spectrum)), 1))
        bed = np.fft.irfft(spectrum, n)
    else:
        bed = np.zeros(n)
        pick = random.Random(seed)
        for _ in range(4):
            pos = pick.randrange(SAMPLE_RATE)
            while pos < n:
                s = samples_of(pick.choice(clues))
                k = min(len(s), n - pos)
                bed[pos : pos + k] += s[:k]
                pos += k + pick.randrange(1600, 8000)
    unit: np.ndarray = bed / np.sqrt(np.mean(bed**2))
    return unit


def build(
    guesses: list[dict[str, Any]], bed_kind: str, snr: float | None, level: float, clues: list[str]
) -> tuple[np.ndarray, list[float]]:
    """The stream and each guess clip's start time (seconds)."""
    clips = [samples_of(c["file"]) for c in guesses]
    n = int((3.0 + sum(len(c) / SAMPLE_RATE + GAP for c in clips)) * SAMPLE_RATE)
    rms = 10 ** (level / 20) * 32768
    stream = np.zeros(n) if snr is None else noise_bed(bed_kind, n, clues, 7) * rms
    starts: list[float] = []
    pos = 3 * SAMPLE_RATE
    for clip in clips:
        gain = 1.0
        if snr is not None:
            loud = clip[np.abs(clip) > 0.05 * np.abs(clip).max()]
            gain = rms * 10 ** (snr / 20) / np.sqrt(np.mean(loud**2))
        stream[pos : pos + len(clip)] += clip * gain
        starts.append(pos / SAMPLE_RATE)
        pos += len(clip) + int(GAP * SAMPLE_RATE)
    return np.clip(np.round(stream), -32768, 32767).astype("<i2"), starts


def chunks(stream: np.ndarray) -> Iterator[AudioChunk]:
    for i in range(0, len(stream) - CHUNK + 1, CHUNK):
        yield AudioChunk(stream[i : i + CHUNK].tobytes(), SAMPLE_RATE, i / SAMPLE_RATE)


def run(
    guesses: list[dict[str, Any]],
    stream: np.ndarray,
    starts: list[float],
    recognizer: PocketSphinxRecognizer,
    referee: Referee,
    errors: bool = False,
    want: str = "guess",
) -> dict[str, Any]:
    """Play the stream; per clip the judgements made while its card was up.  A clip
    is counted when one of them is of the type ``want`` (``guess``, or ``foul``
    for a describer's clue that says the word); for clues, ``correct`` counts the
    clips judged a correct guess instead (a false "correct")."""
    entries = [make_entry(str(c["entry"]), "Object") for c in guesses]
    switch = [max(0.0, s - GAP / 2) for s in starts]
    found: list[list[tuple[float, Any]]] = [[] for _ in guesses]
    heard: list[list[str]] = [[] for _ in guesses]
    recognizer.start(ListenContext(commands=command_phrases(TEAMS), team_names=TEAMS))
    card = -1
    situation: Situation | None = None
    for chunk in chunks(stream):
        while card + 1 < len(guesses) and chunk.start_time >= switch[card + 1]:
            card += 1
            entry = entries[card]
            recognizer.set_context(
                ListenContext.for_entry(entry, command_phrases(HEARD_TEAMS), HEARD_TEAMS)
            )
            referee.reset()
            situation = Situation(entry=entry, phase=Phase.TURN, teams=TEAMS)
        events = recognizer.feed(chunk)
        if situation is None or not events:
            continue
        heard[card].extend(e.text for e in events if e.kind == "final" and e.source == "free")
        # One batch at a time, as the host judges (``observe_all``: an utterance's
        # free transcript before its spotted hits).
        for j in referee.observe_all(events, situation):
            if j.type != "nothing":
                found[card].append((chunk.end_time, j))
    counted, other, invented, correct, latencies = 0, 0, 0, 0, []
    for clip, start, js, said_there in zip(guesses, starts, found, heard, strict=True):
        end = start + float(clip["duration"])
        word_end = start + max(float(e["end"]) for e in clip["expect"])
        inside = [(t, j) for t, j in js if t <= end + 2.0]
        invented += len(js) - len(inside)
        guess = next(((t, j) for t, j in inside if j.type == want), None)
        if guess is not None:
            counted += 1
            latencies.append(guess[0] - word_end)
        elif inside:
            other += 1
        if want != "guess" and any(j.type == "guess" for _, j in inside):
            correct += 1
        if guess is None and errors:
            said = ", ".join(f"{j.label} '{j.heard}' ({j.evidence})" for _, j in js) or "nothing"
            print(f"    missed {clip['file']}: judged {said}; transcripts {said_there}")
    return {
        "n": len(guesses),
        "counted": counted,
        "other": other,
        "invented": invented,
        "correct": correct,
        "lat": latencies,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-gate", action="store_true", help="voice detector alone")
    parser.add_argument("--level", type=float, default=-32.0, help="noise bed level, dBFS RMS")
    parser.add_argument("--limit", type=int, default=0, help="first N guesses per split")
    parser.add_argument("--errors", action="store_true", help="list the guesses not counted")
    parser.add_argument("--bed", default="", help="only this bed (quiet, pink, babble)")
    parser.add_argument(
        "--clues",
        action="store_true",
        help="the describer's clues that say the card word (a foul) instead of the guesses",
    )
    args = parser.parse_args()
    if args.no_gate:
        level_gate.MARGIN_DB = 0.0
    manifest = json.loads((FIXTURES / "manifest.json").read_text(encoding="utf-8"))
    clips = manifest["clips"]
    clues = [
        c["file"]
        for c in clips
        if c["kind"].startswith("clue") and c["noise"] is None and c["voice"].startswith("espeak")
    ]
    recognizer = PocketSphinxRecognizer()
    referee = Referee.default()
    gate = "off" if args.no_gate else f"on ({level_gate.MARGIN_DB:g} dB)"
    print(f"Room benchmark: noise bed at {args.level:g} dBFS, level gate {gate}\n")
    want = "foul" if args.clues else "guess"
    if args.clues:
        print(
            "| split | bed | SNR | fouls caught | judged 'correct' | judged otherwise "
            "| invented in gaps |"
        )
    else:
        print(
            "| split | bed | SNR | guesses counted | judged otherwise | invented in gaps "
            "| latency p50 / p95 |"
        )
    print("|---|---|---|---|---|---|---|")
    began = time.process_time()
    clipped = 0.0
    for split, voices in SPLITS.items():
        guesses = [
            c
            for c in clips
            if c["noise"] is None
            and c["voice"] in voices
            and (
                c["kind"] in ("clue_word", "clue_derivative")
                if args.clues
                else c["judgement"] == "guess"
            )
        ]
        if args.limit:
            guesses = guesses[: args.limit]
        for bed, snr in BEDS:
            if args.bed and bed != args.bed:
                continue
            stream, starts = build(guesses, bed, snr, args.level, clues)
            clipped = max(clipped, float(np.mean(np.abs(stream.astype(np.int32)) >= 32767)))
            r = run(guesses, stream, starts, recognizer, referee, args.errors, want)
            pct = 100 * r["counted"] / r["n"]
            snr_text = "-" if snr is None else f"{snr:g} dB"
            if args.clues:
                print(
                    f"| {split} | {bed} | {snr_text} | {r['counted']}/{r['n']} ({pct:.0f}%) | "
                    f"{r['correct']} | {r['other']} | {r['invented']} |",
                    flush=True,
                )
                continue
            lat = r["lat"]
            timing = "-"
            if len(lat) >= 2:
                q = statistics.quantiles(lat, n=20, method="inclusive")
                timing = f"{statistics.median(lat):.2f} / {q[18]:.2f} s"
            print(
                f"| {split} | {bed} | {snr_text} | {r['counted']}/{r['n']} ({pct:.0f}%) | "
                f"{r['other']} | {r['invented']} | {timing} |",
                flush=True,
            )
    print(f"\nSamples clipped at full scale: at most {100 * clipped:.3f}% of a stream")
    print(f"CPU {time.process_time() - began:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
