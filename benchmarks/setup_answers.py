"""How well the host hears the answers of the team set-up (and the saved-game offer).

Before a game without ``--teams`` the host asks aloud: a game in progress, go on
with it or a new one? How many teams? How many players? Who starts? Yes to start?
(:mod:`voice_host.host.setup`).  Each answer is a single word or a short phrase
from a small set, said with no wake word, so the room's talk must not answer for
the players either.

Each answer is said at its own question by synthetic voices made on the spot,
heard through the host's whole listening path for the set-up (pocketsphinx
steered to the question's words, Moonshine behind it, ``setup_live.utterance_words``)
and given to the dialogue as the runner does.  A clip is **right** when the
dialogue ends where the true words would have taken it (same question, same
reply), **missed** when the host asks again ("Sorry, I didn't catch that"), and
**wrong** when it took another answer (the worse error: "three" heard as "two"
sets the wrong game up; the read-back catches it, at the cost of starting again).
Table talk said at each question (sentences that answer nothing: "hang on a
second", "I don't know") must be missed: an answer taken from it is **false**.

Held out: the voices awb, espeak-ng en+f2 (and festival's and Piper's when
installed), and the phrasings ("three teams", "yes please"); the bare words
said by the four tune voices are what the set-up words were tried on.  Each
clip is heard clean (over a -72 dBFS floor) and over party babble and pink
noise at 15 dB SNR.

    .venv/bin/python benchmarks/setup_answers.py            # about 10 minutes
    .venv/bin/python benchmarks/setup_answers.py --quick    # clean only, tune voices
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
import wave
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from new_cards import neural_voices, synth, voices  # noqa: E402

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk  # noqa: E402
from voice_host.host.setup import SetupDialogue, Step  # noqa: E402
from voice_host.host.setup_live import listen_context, utterance_words  # noqa: E402
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer  # noqa: E402

TUNE_VOICES = frozenset({"slt", "rms", "kal16", "espeak-en-us+m3"})
#: What the saved-game offer holds, in words (any text will do).
SAVED = "Blue's turn 4, Nature; Red on 7 of 47, Blue on 5 of 47; saved today at 21:30"
#: Keys that take a fresh dialogue to each question (three teams at FIRST).
KEYS_TO = {
    Step.SAVED: "",
    Step.TEAMS: "",
    Step.PLAYERS: "3",
    Step.FIRST: "32",
    Step.CONFIRM: "321",
}
#: (question, what is said, the words it means): bare words (tune) ...
BARE: tuple[tuple[Step, str, str], ...] = (
    (Step.SAVED, "yes", "yes"),
    (Step.SAVED, "no", "no"),
    (Step.SAVED, "new", "new"),
    *((Step.TEAMS, w, w) for w in ("two", "three", "four", "five", "six")),
    *((Step.PLAYERS, w, w) for w in ("two", "three", "four", "five", "seven", "different")),
    *((Step.FIRST, w, w) for w in ("red", "blue", "green", "random")),
    (Step.CONFIRM, "yes", "yes"),
    (Step.CONFIRM, "no", "no"),
    (Step.TEAMS, "repeat", "repeat"),
    (Step.PLAYERS, "help", "help"),
    (Step.FIRST, "undo", "undo"),
)
#: ... and phrasings a table would use (held out).
PHRASED: tuple[tuple[Step, str, str], ...] = (
    (Step.SAVED, "yes please", "yes"),
    (Step.SAVED, "a new game", "new"),
    (Step.TEAMS, "three teams", "three"),
    (Step.TEAMS, "two teams please", "two"),
    (Step.PLAYERS, "four players", "four"),
    (Step.PLAYERS, "two each", "two"),
    (Step.FIRST, "blue team", "blue"),
    (Step.FIRST, "green starts", "green"),
    (Step.CONFIRM, "yes let's go", "yes"),
    (Step.CONFIRM, "no, start again", "no"),
)
#: Table talk at a question, which answers nothing.
TALK: tuple[str, ...] = (
    "hang on a second",
    "I don't know",
    "is this thing on",
    "who wants a drink",
    "where did I put my glasses",
    "okay everyone listen",
    "what did it say",
    "shall we play then",
)
NOISES = ("clean", "babble", "pink")
SNR_DB = 15.0
#: RMS of the floor under every clip, 16-bit units (about -72 dBFS).
FLOOR = 8.0
CHUNK = 0.1
LEAD = 0.5
TAIL = 1.2


@dataclass(frozen=True)
class Clip:
    step: Step
    text: str
    means: str  # the words it answers, "" for talk
    voice: str
    noise: str
    split: str


def at(step: Step) -> SetupDialogue:
    """A fresh dialogue at ``step``, reached by keys."""
    d = SetupDialogue(random.Random(0), saved=SAVED if step is Step.SAVED else "")
    for key in KEYS_TO[step]:
        d.press(key)
    if d.step is not step:
        raise SystemExit(f"setup_answers: keys {KEYS_TO[step]!r} reach {d.step}, not {step}")
    return d


def signature(d: SetupDialogue, replies: list[str]) -> tuple[object, ...]:
    return (d.step, d.prompt(), d.resumed, d.result, tuple(replies))


def answered(replies: list[str]) -> bool:
    """Whether the dialogue took an answer (a miss asks again, or says nothing)."""
    return any(not r.startswith("Sorry") for r in replies)


def noise_bed(kind: str, n: int, seed: int) -> np.ndarray:
    if kind == "babble":
        with wave.open(str(ROOT / "fixtures" / "audio" / "none" / "noise__babble_5s.wav")) as w:
            bed = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64)
        start = seed % len(bed)
        return np.resize(np.roll(bed, -start), n)
    spec = np.fft.rfft(np.random.default_rng(seed).standard_normal(n))
    f = np.arange(len(spec), dtype=np.float64)
    f[0] = 1.0
    return np.fft.irfft(spec / np.sqrt(f), n)


def audio(clip: Clip, seed: int) -> np.ndarray:
    speech = synth(clip.text, clip.voice)
    lead, tail = int(LEAD * SAMPLE_RATE), int(TAIL * SAMPLE_RATE)
    x = np.concatenate([np.zeros(lead), speech, np.zeros(tail)])
    x += np.random.default_rng(seed).standard_normal(len(x)) * FLOOR
    if clip.noise != "clean":
        bed = noise_bed(clip.noise, len(x), seed)
        loud = speech[np.abs(speech) > 0.05 * np.max(np.abs(speech))]
        gain = np.sqrt(np.mean(loud**2)) / np.sqrt(np.mean(bed**2)) / 10 ** (SNR_DB / 20)
        x += bed * gain
    return x


def chunks(x: np.ndarray) -> Iterator[AudioChunk]:
    data = np.clip(np.round(x), -32768, 32767).astype("<i2").tobytes()
    step = int(CHUNK * SAMPLE_RATE) * 2
    for i in range(0, len(data), step):
        yield AudioChunk(data[i : i + step], SAMPLE_RATE, i / 2 / SAMPLE_RATE)


def hear(rec: PocketSphinxRecognizer, clip: Clip, seed: int) -> tuple[str, tuple[str, ...]]:
    """``right``/``missed``/``wrong`` (an answer) or ``quiet``/``false`` (talk), and the words."""
    d = at(clip.step)
    rec.start(listen_context(d))
    events = []
    for chunk in chunks(audio(clip, seed)):
        events += rec.feed(chunk)
    events += rec.finish()
    replies: list[str] = []
    heard: tuple[str, ...] = ()
    for words in utterance_words(events):
        heard += words
        replies += d.hear(words)
        if answered(replies):
            break
    if not clip.means:
        return ("false" if answered(replies) else "quiet"), heard
    truth = at(clip.step)
    if signature(d, replies) == signature(truth, truth.hear(tuple(clip.means.split()))):
        return "right", heard
    return ("wrong" if answered(replies) else "missed"), heard


def clips(voice_names: list[str], noises: tuple[str, ...]) -> list[Clip]:
    out = []
    steps = list(KEYS_TO)
    for v, voice in enumerate(voice_names):
        held = voice not in TUNE_VOICES
        for noise in noises:
            for step, text, means in BARE:
                out.append(Clip(step, text, means, voice, noise, "heldout" if held else "tune"))
            for step, text, means in PHRASED:
                out.append(Clip(step, text, means, voice, noise, "heldout"))
            for i, text in enumerate(TALK):
                step = steps[(i + v) % len(steps)]  # each voice says it at another question
                out.append(Clip(step, text, "", voice, noise, "heldout" if held else "tune"))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="clean clips, tune voices only")
    parser.add_argument("--show", action="store_true", help="print every clip that is not right")
    args = parser.parse_args(argv)
    have = voices() + neural_voices()
    names = [v for v in have if v in TUNE_VOICES] if args.quick else have
    noises = ("clean",) if args.quick else NOISES
    todo = clips(names, noises)
    t0 = time.process_time()
    rec = PocketSphinxRecognizer()
    load = time.process_time() - t0
    tally: dict[tuple[str, ...], collections.Counter[str]] = collections.defaultdict(
        collections.Counter
    )
    for i, clip in enumerate(todo):
        outcome, heard = hear(rec, clip, seed=i)
        kind = "talk" if not clip.means else "answer"
        bare = "phrased" if (clip.step, clip.text, clip.means) in PHRASED else "bare"
        tally[(kind, clip.split, clip.noise)][outcome] += 1
        tally[(kind, "voice", clip.voice, clip.noise)][outcome] += 1
        if kind == "answer":
            tally[(kind, "form", bare, clip.split)][outcome] += 1
            tally[(kind, "step", clip.step.value)][outcome] += 1
        if args.show and outcome not in ("right", "quiet"):
            print(
                f"  {outcome:6} {clip.voice:18} {clip.noise:6} {clip.step.value:8} "
                f"{clip.text!r} heard {' '.join(heard)!r}"
            )
    cpu = time.process_time() - t0 - load

    def line(key: tuple[str, ...], label: str) -> None:
        c = tally[key]
        n = sum(c.values())
        if not n:
            return
        if key[0] == "answer":
            print(
                f"  {label:34} right {c['right']:3}/{n:<3} ({100 * c['right'] / n:5.1f}%)"
                f"  missed {c['missed']:3}  wrong {c['wrong']:3}"
            )
        else:
            print(f"  {label:34} answered falsely {c['false']:3}/{n}")

    print(f"set-up answers: {len(todo)} clips, {len(names)} voices ({', '.join(names)})")
    for split in ("tune", "heldout"):
        print(f"{split}:")
        for noise in noises:
            line(("answer", split, noise), f"answers, {noise}")
        for noise in noises:
            line(("talk", split, noise), f"table talk, {noise}")
    print("answers by form (all noises):")
    for split in ("tune", "heldout"):
        for form in ("bare", "phrased"):
            line(("answer", "form", form, split), f"{form} words, {split}")
    print("answers by question (all voices and noises):")
    for step in KEYS_TO:
        line(("answer", "step", step.value), step.value)
    print("answers by voice:")
    for voice in names:
        for noise in noises:
            line(("answer", "voice", voice, noise), f"{voice}, {noise}")
    print(f"cpu: {cpu:.0f} s for {len(todo)} clips; recogniser load {load:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
