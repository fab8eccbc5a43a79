"""A describer spelling the card letter by letter, with pauses: is it heard as letter talk?

"It's spelled T... E... L..." is a foul (R11: letters).  Said fast, the three
letters are one utterance, and the recogniser writes them as letters or not.
Said slowly, a letter to each breath, each letter is an utterance of its own,
and the referee must join them (``SPELL_PAUSE_SECONDS``).  Here the first three
letters of a card's first long word are said one by one, each recorded alone,
with a pause of 0.15, 0.4 or 0.8 s between them (over a microphone's -60 dBFS
floor), and heard in a turn:

* under **that card**: a letter foul must be judged (any foul counts);
* under **another card**, one none of whose words starts with the first letter:
  nothing must be judged (a foul there is false: the letters spell no word of it).

Voices, in two splits:

* **tune**: a real voice, Allison Smith's letters from the Asterisk telephone
  prompts (``asterisk-core-sounds-en-wav``, Debian 13, CC-BY-SA-3.0; 8 kHz,
  fetched once into ``~/.cache/voice_host/`` and checked, as ``real_words.py``
  does; skipped with a message when it cannot be had).  Session 50 wrote the
  rule on a few of its spellings, so it is tuning data.
* **held out**: synthetic letters, never listened to while writing the rule:
  flite's slt, rms, awb and kal16, espeak-ng's en-us+m3 and en+f2.

Printed per split, voice and pause: spellings judged a foul on their card,
and false fouls on the other card; ``--errors`` lists every wrong one with
what was heard.  About 5 minutes.

    .venv/bin/python benchmarks/spelling.py [--split tune|heldout|all] [--cards N] [--errors]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from real_voices import Bench, coarse, stable_pick  # noqa: E402
from real_words import DATA, fetch_package, read_members, with_floor  # noqa: E402

from voice_host.audio.chunk import SAMPLE_RATE  # noqa: E402
from voice_host.audio.recording import read_recording  # noqa: E402
from voice_host.deck.words import STOP_WORDS  # noqa: E402

PAUSES = (0.15, 0.4, 0.8)
SYNTHETIC = {
    "slt": ["flite", "-voice", "slt"],
    "rms": ["flite", "-voice", "rms"],
    "awb": ["flite", "-voice", "awb"],
    "kal16": ["flite", "-voice", "kal16"],
    "espeak-en-us+m3": ["espeak-ng", "-v", "en-us+m3"],
    "espeak-en+f2": ["espeak-ng", "-v", "en+f2"],
}
ASTERISK = "asterisk-core-sounds-en-wav"
LETTERS = "./usr/share/asterisk/sounds/en_US_f_Allison/letters/{}.wav"
#: Silence around a spelling (seconds) and a microphone's floor under it (dBFS).
EDGE = 0.5
FLOOR_DBFS = -60.0


def trimmed(samples: np.ndarray) -> np.ndarray:
    """A letter's loud part (above 5% of its peak), 0.05 s kept either side."""
    loud = np.flatnonzero(np.abs(samples) > 0.05 * np.abs(samples).max())
    pad = int(0.05 * SAMPLE_RATE)
    return samples[max(0, loud[0] - pad) : loud[-1] + 1 + pad]


def as_16k(path: Path) -> np.ndarray:
    return np.frombuffer(read_recording(path).samples, dtype="<i2").astype(np.float64)


def real_letters() -> dict[str, np.ndarray] | None:
    """Allison's 26 letters (16 kHz), or None when the package cannot be had."""
    source = json.loads(DATA.read_text())["sources"][ASTERISK]
    names = {LETTERS.format(c): c for c in "abcdefghijklmnopqrstuvwxyz"}
    try:
        files = read_members(fetch_package(source), set(names))
    except (OSError, ValueError) as exc:
        print(f"{ASTERISK} unavailable, the tune split skipped: {exc}", file=sys.stderr)
        return None
    out: dict[str, np.ndarray] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for member, data in files.items():
            path = Path(tmp) / Path(member).name
            path.write_bytes(data)
            out[names[member]] = trimmed(as_16k(path))
    return out


def synthetic_letters(command: list[str], letters: set[str]) -> dict[str, np.ndarray]:
    """Each letter said alone by a synthetic voice (16 kHz)."""
    out: dict[str, np.ndarray] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for c in sorted(letters):
            path = Path(tmp) / f"{c}.wav"
            if command[0] == "flite":
                subprocess.run([*command, "-t", c.upper(), "-o", str(path)], check=True)
            else:
                subprocess.run([*command, "-w", str(path), c.upper()], check=True)
            out[c] = trimmed(as_16k(path))
    return out


def spelling(letters: dict[str, np.ndarray], word: str, pause: float, salt: str) -> bytes:
    """``word``'s letters said one by one, ``pause`` apart, framed in silence over a floor."""
    gap = np.zeros(int(pause * SAMPLE_RATE))
    edge = np.zeros(int(EDGE * SAMPLE_RATE))
    parts = [edge]
    for i, c in enumerate(word):
        parts += [gap] if i else []
        parts.append(letters[c])
    parts.append(edge)
    audio = np.clip(np.round(np.concatenate(parts)), -32768, 32767).astype("<i2").tobytes()
    seed = int(hashlib.sha256(salt.encode()).hexdigest()[:8], 16)
    return with_floor(audio, FLOOR_DBFS, seed)


def spelled_word(text: str) -> str:
    """The first word of a card's text to spell: its first word of four letters or
    more that is no stop word, lower case; '' when none."""
    for word in text.lower().split():
        if len(word) >= 4 and word.isalpha() and word not in STOP_WORDS:
            return word
    return ""


def plan(bench: Bench, n: int) -> list[tuple[str, str, str]]:
    """(card, the letters spelled, another card none of whose words starts with them)."""
    names = [name for name, _ in bench.entries if spelled_word(name)]
    out = []
    for name in stable_pick(names, n, "spelling"):
        word = spelled_word(name)[:3]
        other = next(
            o
            for o in stable_pick(names, len(names), name)
            if not any(w.startswith(word[0]) for w in o.lower().split())
        )
        out.append((name, word, other))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("tune", "heldout", "all"), default="all")
    ap.add_argument("--cards", type=int, default=12, help="cards spelled per voice and pause")
    ap.add_argument("--errors", action="store_true", help="list the wrong judgements")
    args = ap.parse_args(argv)
    bench = Bench()
    todo = plan(bench, args.cards)
    needed = {c for _, word, _ in todo for c in word}
    voices: list[tuple[str, str, dict[str, np.ndarray]]] = []
    if args.split in ("tune", "all") and (real := real_letters()) is not None:
        voices.append(("tune", "asterisk", real))
    if args.split in ("heldout", "all"):
        voices += [("heldout", v, synthetic_letters(cmd, needed)) for v, cmd in SYNTHETIC.items()]
    t0 = time.process_time()
    for split, voice, letters in voices:
        for pause in PAUSES:
            for name, word, other in todo:
                clip: dict[str, Any] = {"file": f"{voice}/{word}@{pause}", "speaker": voice}
                audio = spelling(letters, word, pause, clip["file"])
                bench.hear(clip, audio, name, bench.by_name[name], "own", "foul", split)
                bench.recs[-1]["pause"] = pause
                bench.hear(clip, audio, other, bench.by_name[other], "other", "nothing", split)
                bench.recs[-1]["pause"] = pause
            print(f"  {voice} {pause} s done", file=sys.stderr)
    report(bench.recs)
    if args.errors:
        print("\nwrong:")
        for r in bench.recs:
            if coarse(r["got"]) != r["exp"]:
                print(
                    f"  {r['group']:5} {r['exp']:>7} -> {r['got']:<15} {r['entry']!r} "
                    f"({r['clip']}): heard [{r['heard'][:80]}] {r['why'][:100]}"
                )
    print(f"\n({time.process_time() - t0:.0f} s CPU)")
    return 0


def report(recs: list[dict[str, Any]]) -> None:
    for split in ("tune", "heldout"):
        mine = [r for r in recs if r["split"] == split]
        if not mine:
            continue
        title = "tune (a real voice)" if split == "tune" else "held out (synthetic voices)"
        print(f"\n{title}: spellings judged a foul on their card | false fouls on another card")
        print(f"  {'voice':16}" + "".join(f"{f'{p} s pause':>22}" for p in PAUSES))
        voices = sorted({r["speaker"] for r in mine})
        for voice in [*voices, "all"]:
            cells = []
            for pause in PAUSES:
                here = [r for r in mine if voice in ("all", r["speaker"]) and r["pause"] == pause]
                own = [r for r in here if r["group"] == "own"]
                other = [r for r in here if r["group"] == "other"]
                fouls = sum(coarse(r["got"]) == "foul" for r in own)
                false = sum(coarse(r["got"]) != "nothing" for r in other)
                cells.append(f"{fouls:>5}/{len(own):<3} | {false:>3}/{len(other):<3}")
            print(f"  {voice:16}" + "".join(f"{c:>22}" for c in cells))


if __name__ == "__main__":
    raise SystemExit(main())
