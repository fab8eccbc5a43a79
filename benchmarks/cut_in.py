"""A guesser calling out the answer as the describer's clue ends.

At a real table nobody waits for the describer to finish: the answer comes a
moment after the clue, or over its last word.  One microphone then hears a
clue and a guess with little or no pause between them, and may hear them as
one utterance: a sentence that ends with the card's word, which is how a
describer's foul looks.

Each clean clue fixture that does not say its card (``kind: clue``) is
followed by a clean guess of the same card in another voice (up to two per
clue), the guess's first sound placed at the clue's last sound plus an
offset: +0.5 s (a short pause), +0.25 s, 0 (no pause) and -0.25 s (over the
clue's last word).  The mix goes through the host's real listening path
(pocketsphinx, Moonshine, the referee), and the judgement the host would act
on is counted: a guess is right, a foul costs the team its card.  A pair is
held out when either clip is.

With ``--voice-print`` the referee knows the describer's voice (the pitch of
the clue clip alone, as the turn's first utterance would have taught it;
``voice_host/referee/voice.py``): a short utterance in a clearly different
voice is a guesser's.

With ``--enrol`` the referee learns the print itself, as the host does: the
mix comes at the end of a turn whose first utterances are two other clean
clues in the describer's voice (``--enrol describer``), or, first of all, a
line in the guesser's voice (``--enrol chatter``: a guesser who spoke
before the first clue, which the turn's first long utterance would enrol).
All of it is one stream, judged batch by batch as the host judges it; only
the judgements of the mix are counted.

    .venv/bin/python benchmarks/cut_in.py [--errors] [--voice-print | --enrol describer|chatter]

About 3 minutes; about 8 with ``--enrol`` (each mix follows two or three other lines).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from referee import TEAMS, decisive  # noqa: E402

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk  # noqa: E402
from voice_host.audio.pitch import median_pitch  # noqa: E402
from voice_host.audio.wav import read_wav  # noqa: E402
from voice_host.deck.knowledge import make_entry  # noqa: E402
from voice_host.referee import Referee, Situation  # noqa: E402
from voice_host.referee.commands import command_phrases, listened_teams  # noqa: E402
from voice_host.referee.values import Judgement, Phase  # noqa: E402
from voice_host.speech.events import ListenContext, RecognitionEvent  # noqa: E402
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer  # noqa: E402
from voice_host.speech.replay import adapt_to  # noqa: E402

#: Every clip here is heard in a turn, where the host listens for no team name.
HEARD_TEAMS = listened_teams(TEAMS, Phase.TURN)

FIXTURES = ROOT / "fixtures" / "audio"
#: Where the guess's first sound starts, seconds after the clue's last sound.
OFFSETS = (0.5, 0.25, 0.0, -0.25)
#: Guesses (other voices) heard after each clue.
GUESSES_PER_CLUE = 2
#: Seconds of silence after the mix.
TAIL = 0.5


def samples(clip: dict[str, Any]) -> np.ndarray:
    return np.frombuffer(read_wav(FIXTURES / clip["file"]).samples, "<i2").astype(np.int32)


def audible(x: np.ndarray) -> tuple[int, int]:
    """First and last+1 sample of the 10 ms frames above -34 dB of the peak."""
    frame = SAMPLE_RATE // 100
    n = len(x) // frame
    rms = np.sqrt(np.mean(x[: n * frame].reshape(n, frame).astype(float) ** 2, axis=1))
    loud = np.nonzero(rms > 0.02 * np.max(np.abs(x)))[0]
    return int(loud[0]) * frame, (int(loud[-1]) + 1) * frame


def mixed(clue: np.ndarray, guess: np.ndarray, offset: float) -> bytes:
    _, clue_end = audible(clue)
    guess_start, _ = audible(guess)
    at = max(0, clue_end + round(offset * SAMPLE_RATE) - guess_start)
    out = np.zeros(max(len(clue), at + len(guess)) + round(TAIL * SAMPLE_RATE), np.int32)
    out[: len(clue)] += clue
    out[at : at + len(guess)] += guess
    return np.clip(out, -32768, 32767).astype("<i2").tobytes()


def chunks(data: bytes) -> list[AudioChunk]:
    step = SAMPLE_RATE // 10 * 2
    return [
        AudioChunk(data[i : i + step], SAMPLE_RATE, i / 2 / SAMPLE_RATE)
        for i in range(0, len(data), step)
    ]


#: Seconds of silence between the lines of a turn (``--enrol``).
GAP = 0.8


def other_lines(
    clips: list[dict[str, Any]], voice: str, entry: str, n: int
) -> list[dict[str, Any]]:
    """``n`` clean clue clips in ``voice`` about other cards than ``entry`` (lines
    that hold no word of it), the same ones every run."""
    found = sorted(
        (
            c
            for c in clips
            if not c.get("noise")
            and c["kind"] == "clue"
            and c["voice"] == voice
            and c.get("entry")
            and c["entry"] != entry
        ),
        key=lambda c: c["file"],
    )
    return found[:n]


def turn_audio(lines: list[np.ndarray], mix: bytes) -> tuple[bytes, float]:
    """The lines, each followed by :data:`GAP` of silence, then the mix: the audio
    and the second the mix starts at."""
    gap = np.zeros(round(GAP * SAMPLE_RATE), np.int32)
    parts = [p for line in lines for p in (line, gap)]
    lead = np.concatenate(parts) if parts else np.zeros(0, np.int32)
    lead_bytes = np.clip(lead, -32768, 32767).astype("<i2").tobytes()
    return lead_bytes + mix, len(lead) / SAMPLE_RATE


def pairs(clips: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    clean = [c for c in clips if not c.get("noise")]
    guesses = [c for c in clean if c["kind"] == "guess" and c.get("contains_answer")]
    out = []
    for clue in (c for c in clean if c["kind"] == "clue" and c.get("entry")):
        others = sorted(
            (g for g in guesses if g["entry"] == clue["entry"] and g["voice"] != clue["voice"]),
            key=lambda g: (g["voice"], g["file"]),
        )
        out += [(clue, g) for g in others[:GUESSES_PER_CLUE]]
    return out


def heard_in_turn(
    recognizer: PocketSphinxRecognizer,
    referee: Referee,
    audio: list[AudioChunk],
    context: ListenContext,
    situation: Situation,
) -> tuple[list[RecognitionEvent], list[Judgement]]:
    """One stream heard and judged batch by batch, as the host does (so that the
    referee learns the describer's print from the turn's earlier lines)."""
    recognizer.start(context)
    events: list[RecognitionEvent] = []
    judgements: list[Judgement] = []
    for chunk in [*audio, None]:
        batch = recognizer.feed(chunk) if chunk is not None else recognizer.finish()
        if batch:
            events += batch
            judgements += referee.observe_all(batch, situation)
    return events, judgements


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--errors", action="store_true", help="list every judgement that is no guess")
    ap.add_argument(
        "--voice-print",
        action="store_true",
        help="the referee knows the describer's pitch (the clue clip's)",
    )
    ap.add_argument(
        "--enrol",
        choices=("describer", "chatter"),
        default=None,
        help="the referee learns the print in the turn: two other clues in the describer's "
        "voice first ('describer'), after a line in the guesser's voice ('chatter')",
    )
    args = ap.parse_args(argv)
    if args.enrol and args.voice_print:
        ap.error("--voice-print gives the print; --enrol has it learnt: choose one")
    clips = json.loads((FIXTURES / "manifest.json").read_text(encoding="utf-8"))["clips"]
    recognizer = PocketSphinxRecognizer()
    referee = Referee.default()
    counts: collections.Counter[tuple[str, float, str]] = collections.Counter()
    wrong: list[str] = []
    adapted = False
    todo = pairs(clips)
    for clue, guess in todo:
        split = "heldout" if "heldout" in (clue["split"], guess["split"]) else "tune"
        entry = make_entry(clue["entry"], "Object")
        context = ListenContext.for_entry(entry, command_phrases(HEARD_TEAMS), HEARD_TEAMS)
        said, called = samples(clue), samples(guess)
        describer = median_pitch(said.astype("<i2").tobytes()) if args.voice_print else None
        lines: list[np.ndarray] = []
        if args.enrol == "chatter":
            lines += [samples(c) for c in other_lines(clips, guess["voice"], clue["entry"], 1)]
        if args.enrol:
            lines += [samples(c) for c in other_lines(clips, clue["voice"], clue["entry"], 2)]
        for offset in OFFSETS:
            data, mix_at = turn_audio(lines, mixed(said, called, offset))
            audio = chunks(data)
            if not adapted:  # a live host has heard the room before the first card
                adapt_to(recognizer, audio, context)
                adapted = True
            referee.reset()
            situation = Situation(
                entry=entry,
                phase=Phase.TURN,
                teams=TEAMS,
                describer_pitch=describer,
                turn_start=0.0,
            )
            events, judgements = heard_in_turn(recognizer, referee, audio, context, situation)
            of_mix = [j for j in judgements if j.t >= mix_at - 0.1]
            events = [e for e in events if e.end >= mix_at - 0.1]
            judged = decisive(of_mix).split(":")[0]
            counts[(split, offset, judged)] += 1
            if judged != "guess":
                heard = " | ".join(
                    e.text for e in events if e.kind == "final" and e.source != "kws" and e.words
                )
                pair = f"{clue['file']} + {guess['file']}"
                wrong.append(f"  {split:8} {offset:+.2f} {judged:10} {pair}: [{heard}]")
    known = ", the describer's voice print known" if args.voice_print else ""
    if args.enrol == "describer":
        known = ", the print learnt from two earlier clues of the turn"
    elif args.enrol == "chatter":
        known = ", the print learnt in a turn a guesser's line began"
    print(
        f"{len(todo)} clue + guess pairs, {len(OFFSETS)} offsets each"
        f" (the host must judge a guess{known})"
    )
    kinds = ("guess", "foul", "near_miss", "command", "nothing")
    for split in ("tune", "heldout"):
        total = sum(v for k, v in counts.items() if k[0] == split) // len(OFFSETS)
        print(f"\n{split} ({total} pairs)")
        print(f"{'guess starts':>14}" + "".join(f"{k:>11}" for k in kinds))
        for offset in OFFSETS:
            row = "".join(f"{counts[(split, offset, k)]:>11}" for k in kinds)
            print(f"{offset:>+12.2f} s{row}")
    if args.errors:
        print("\nnot judged a guess:")
        print("\n".join(wrong))
    return 0


if __name__ == "__main__":
    sys.exit(main())
