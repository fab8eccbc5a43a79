"""How loud the table must be: the referee's clean fixtures at many speech levels.

A laptop's microphone hears the table at whatever level its mixer gives:
turned down (or far from the players), speech sinks towards the microphone's
own hiss; turned up (or a guesser shouting into it), the loudest words clip
at full scale.  This benchmark replays the clean fixture clips (guesses,
clues with a foul, commands) with their loudest 100 ms block set to each of
several levels, over a fixed microphone floor (white noise at
``--floor`` dBFS RMS, a laptop's own hiss), clipping at full scale, and
prints what the referee judged at each level, and what the host's level
watch (:class:`voice_host.audio.levels.TableLevelWatch`) makes of the same
audio: whether it would tell the table to move closer or turn the microphone
up ("faint") or down ("overload").

    .venv/bin/python benchmarks/levels.py [--split tune|heldout|all] [--levels=-17,-45]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
from referee import MANIFEST, TEAMS, Entries, clip_phase, coarse, decisive  # noqa: E402

from voice_host.audio.chunk import AudioChunk  # noqa: E402
from voice_host.audio.levels import CLIPPED_AT, TableLevelWatch, block_dbfs  # noqa: E402
from voice_host.audio.wav import WavSource  # noqa: E402
from voice_host.referee import Referee, Situation, default_phone_lookup  # noqa: E402
from voice_host.referee.commands import command_phrases, listened_teams  # noqa: E402
from voice_host.speech.events import ListenContext  # noqa: E402
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer  # noqa: E402
from voice_host.speech.replay import replay  # noqa: E402

#: Loudest-block levels (dBFS RMS) to play the clips at (docs/benchmarks.md's
#: table); the fixtures as made sit near -17, and from -11 up their peaks clip.
LEVELS = (-2, -5, -8, -11, -17, -25, -30, -35, -40, -43, -45, -50, -55)
#: The microphone's own hiss (dBFS RMS): a laptop's built-in microphone.
FLOOR_DBFS = -66.0
#: Silence laid before and after each clip (seconds), hiss only.
PAD_SECONDS = 0.5


def loudest_block(samples: np.ndarray, rate: int) -> float:
    """The clip's loudest 100 ms block (dBFS RMS)."""
    n = rate // 10
    blocks = [samples[i : i + n] for i in range(0, len(samples) - n + 1, n)]
    return max(block_dbfs(b) for b in blocks)


def at_level(
    path: Path, level_db: float, floor_db: float, rng: np.random.Generator
) -> tuple[list[AudioChunk], float]:
    """The clip with its loudest block at ``level_db``, padded, over the floor, clipped
    to 16 bits, in 100 ms chunks; and the share of its samples at full scale."""
    chunks = list(WavSource(path))
    rate = chunks[0].rate
    x = np.concatenate([np.frombuffer(c.samples, dtype="<i2") for c in chunks]).astype(float)
    loudest = loudest_block(x, rate)
    if np.isfinite(loudest):  # digital silence stays silence (under the hiss)
        x *= 10 ** ((level_db - loudest) / 20)
    pad = np.zeros(int(PAD_SECONDS * rate))
    x = np.concatenate([pad, x, pad])
    x += rng.standard_normal(len(x)) * 32768 * 10 ** (floor_db / 20)
    y = np.clip(np.round(x), -32768, 32767).astype("<i2")
    clipped = float(np.mean(np.abs(y.astype(np.int32)) >= CLIPPED_AT))
    n = rate // 10
    out = [AudioChunk(y[i : i + n].tobytes(), rate, i / rate) for i in range(0, len(y), n)]
    return out, clipped


class Tally:
    """Right answers per kind of clip at one level."""

    def __init__(self) -> None:
        self.right: dict[str, int] = {}
        self.of: dict[str, int] = {}
        self.clipped = 0.0
        self.clips = 0

    def _count(self, kind: str, right: bool) -> None:
        self.right[kind] = self.right.get(kind, 0) + right
        self.of[kind] = self.of.get(kind, 0) + 1

    def add(self, expected: str, got: str, clipped: float) -> None:
        """One clip: labelled ``expected``, judged ``got``, ``clipped`` share at full scale."""
        self.clips += 1
        self.clipped += clipped
        kind = coarse(expected)
        if kind == "guess":
            self._count("guess", got == "guess")
        else:
            # false 'correct': a guess heard in a clip that holds none
            self._count("false", got == "guess")
        if kind.startswith("foul"):
            self._count("foul", got.startswith("foul"))
        elif kind in ("command", "team"):
            self._count("command", got == expected)

    def cell(self, kind: str) -> str:
        return f"{self.right.get(kind, 0)}/{self.of.get(kind, 0)}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("tune", "heldout", "all"), default="all")
    ap.add_argument("--levels", default=",".join(f"{v:g}" for v in LEVELS))
    ap.add_argument("--floor", type=float, default=FLOOR_DBFS, help="microphone hiss, dBFS RMS")
    ap.add_argument("--limit", type=int, default=0, help="only the first N clips")
    args = ap.parse_args(argv)
    clips = [
        c
        for c in json.loads(MANIFEST.read_text())["clips"]
        if c["noise"] is None and args.split in ("all", c["split"])
    ]
    if args.limit:
        clips = clips[: args.limit]
    splits = sorted({c["split"] for c in clips}, key=("tune", "heldout").index)
    phones = default_phone_lookup()
    entries = Entries(clips, False, phones)
    referee = Referee.default(phones)
    levels = [float(v) for v in args.levels.split(",")]
    print(
        f"{len(clips)} clean clips, microphone floor {args.floor:g} dBFS; "
        "level: each clip's loudest 100 ms block (the fixtures sit near -17)"
    )
    print(
        f"{'level':>6} {'split':>8} {'clipped':>8} {'guesses':>8} {'fouls':>7} "
        f"{'commands':>9} {'false correct':>14} {'watch says':>12}"
    )
    for level in levels:
        recognizer = PocketSphinxRecognizer()
        rng = np.random.default_rng(11)
        tallies = {split: Tally() for split in splits}
        watches = {split: TableLevelWatch() for split in splits}
        said: dict[str, list[str]] = {split: [] for split in splits}
        for clip in clips:
            entry = entries.get(clip.get("entry"))
            chunks, clipped = at_level(MANIFEST.parent / clip["file"], level, args.floor, rng)
            split = clip["split"]
            said[split] += watches[split].observe_all(chunks, in_play=True)
            phase = clip_phase(clip)
            teams = listened_teams(TEAMS, phase)
            context = ListenContext.for_entry(entry, command_phrases(teams), teams)
            events = replay(recognizer, chunks, context)
            referee.reset()
            situation = Situation(entry=entry, phase=phase, teams=TEAMS)
            got = decisive(referee.observe_all(events, situation))
            tallies[split].add(clip["judgement"], got, clipped)
        for split in splits:
            t = tallies[split]
            news = ",".join(said[split]) or "-"
            print(
                f"{level:6.0f} {split:>8} {100 * t.clipped / max(t.clips, 1):7.2f}% "
                f"{t.cell('guess'):>8} {t.cell('foul'):>7} {t.cell('command'):>9} "
                f"{t.cell('false'):>14} {news:>12}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
