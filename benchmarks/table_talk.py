"""Table talk written by people who never saw the referee: text level, 480 built-in entries.

Every other text the referee is measured on was written by the people who
wrote the referee, and it shows: the guesses are "is it a kangaroo", the clues
"it hops around australia".  Here four writers who had only the game's rules
and a list of cards (with their answers and forbidden forms) wrote what a
table says, each for 120 entries of the built-in deck chosen at random:

- **tune** (session 16; the referee was changed after reading its errors):
  ``table_talk_tune.jsonl``, 960 lines: one writer wrote 3 clean clues and a
  slip for each of 120 entries, another 3 correct guesses and a wrong guess
  for 120 others;
- **held out** (session 16; read only for these numbers):
  ``table_talk_heldout.jsonl``, 1,200 lines: two writers, one as friends at a
  pub quiz, one as a family at Christmas, each wrote a short and a long clean
  clue, a slip, a correct guess and a wrong guess for 120 entries.

Each line is judged through the real referee (phones and word frequency) as
one utterance with synthetic word times, in a timed turn, as it would be if
the recogniser wrote it word for word.  The first judgement counts, as the
host acts on it.  Printed, per split: clean clues judged nothing (a foul there
is a false foul), slips judged a foul, correct guesses judged a correct guess,
and wrong guesses judged nothing (a guess there is a false "correct").
A few seconds.

With ``--audio`` each line is also said by a synthetic voice (the voices of
``benchmarks/new_cards.py`` in rotation, one per line, its cache shared),
padded over a faint noise floor, and judged through the real listening path
(pocketsphinx with Moonshine), as ``voice-host listen --audio`` does: what
the recogniser's errors add to the referee's.  About 0.7 s a line (25 minutes
for both splits):

    .venv/bin/python benchmarks/table_talk.py [--errors] [--audio [--split heldout] [--limit N]]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from lookalikes import said  # noqa: E402

from voice_host.deck.loader import load_builtin  # noqa: E402
from voice_host.deck.model import Entry  # noqa: E402
from voice_host.referee import (  # noqa: E402
    Referee,
    Situation,
    default_phone_lookup,
    default_word_frequency,
)
from voice_host.referee.values import Judgement  # noqa: E402

DATA = Path(__file__).with_name("data")
SPLITS = {"tune": "table_talk_tune.jsonl", "heldout": "table_talk_heldout.jsonl"}


def kind_of(line: dict[str, str]) -> str:
    """What the line is: ``clean`` (a clue), ``slip``, ``guess`` or ``wrong`` (a guess)."""
    return line["kind"]


def judge_text(referee: Referee, entry: Entry, text: str) -> list[Judgement]:
    """The referee's judgements of ``text`` as a word-for-word transcript."""
    return referee.judge(said(text), Situation(entry=entry))


class AudioJudge:
    """Each line said by a synthetic voice and heard through the listening path."""

    def __init__(self) -> None:
        import new_cards
        from referee import TEAMS

        from voice_host.referee.commands import command_phrases
        from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer

        self.nc = new_cards
        self.teams = TEAMS
        self.commands = command_phrases(TEAMS)
        self.speakers = new_cards.voices()
        self.recognizer = PocketSphinxRecognizer()
        self.n = 0

    def __call__(self, referee: Referee, entry: Entry, text: str) -> tuple[list[Judgement], str]:
        from voice_host.speech.events import ListenContext
        from voice_host.speech.replay import adapt_to, replay

        voice = self.speakers[self.n % len(self.speakers)]
        data = self.nc.recording([self.nc.synth(text, voice)], seed=self.n)
        self.n += 1
        context = ListenContext.for_entry(entry, self.commands, self.teams)
        adapt_to(self.recognizer, self.nc.chunks(data), context)
        events = replay(self.recognizer, self.nc.chunks(data), context)
        referee.reset()
        judged = referee.observe_all(events, Situation(entry=entry, teams=self.teams))
        heard = " | ".join(e.text for e in events if e.kind == "final" and e.source == "free")
        return [j for j in judged if j.type != "nothing"], f"{voice}: heard [{heard}]"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="list every line judged wrong")
    parser.add_argument("--audio", action="store_true", help="say each line, hear it")
    parser.add_argument("--split", choices=("tune", "heldout", "both"), default="both")
    parser.add_argument("--limit", type=int, default=0, help="only the first N lines of a split")
    args = parser.parse_args()
    entries: dict[str, Entry] = {}
    deck = load_builtin()
    for card in deck.cards:
        for entry in card.entries.values():
            entries.setdefault(entry.text, entry)
    referee = Referee(default_phone_lookup(), default_word_frequency())
    audio = AudioJudge() if args.audio else None
    if audio is not None and not audio.speakers:
        print("no speech synthesiser (flite, espeak-ng) on PATH: nothing to measure")
        return 0
    splits = SPLITS if args.split == "both" else {args.split: SPLITS[args.split]}
    t0 = time.process_time()
    for split, name in splits.items():
        total: Counter[str] = Counter()
        right: Counter[str] = Counter()
        errors: list[str] = []
        lines = [json.loads(x) for x in (DATA / name).read_text().splitlines() if x.strip()]
        if args.limit:
            lines = lines[: args.limit]
        for line in lines:
            entry = entries[line["entry"]]
            note = ""
            if audio is None:
                judged = judge_text(referee, entry, line["text"])
            else:
                judged, note = audio(referee, entry, line["text"])
            first = judged[0].label if judged else "nothing"
            kind = kind_of(line)
            ok = first.startswith("foul") if kind == "slip" else first == line["expect"]
            total[kind] += 1
            right[kind] += ok
            if not ok:
                why = judged[0].evidence if judged else ""
                errors.append(
                    f"  {kind:6} {line['entry']!r}: {line['text']!r} -> {first}  {note} {why}"
                )
        n_entries = len({x["entry"] for x in lines})
        how = "heard through pocketsphinx" if audio is not None else "as text"
        print(f"split {split} ({how}): {len(lines)} lines, {n_entries} entries")
        names = {
            "clean": "clean clues judged nothing",
            "wrong": "wrong guesses judged nothing",
            "slip": "slips judged a foul",
            "guess": "correct guesses judged a guess",
        }
        for kind, what in names.items():
            if total[kind]:
                share = 100.0 * right[kind] / total[kind]
                print(f"  {what:34} {right[kind]:4}/{total[kind]:<4} {share:5.1f}%")
        fouls = sum(1 for e in errors if e.split()[0] in ("clean", "wrong") and "-> foul" in e)
        correct = sum(
            1 for e in errors if e.split()[0] in ("clean", "wrong", "slip") and "-> guess" in e
        )
        on_guesses = sum(1 for e in errors if e.split()[0] == "guess" and "-> foul" in e)
        clean = total["clean"] + total["wrong"]
        print(
            f"  false fouls {fouls}/{clean} (and on correct guesses {on_guesses}/{total['guess']})"
            f"   false 'correct' {correct}/{clean + total['slip']}"
        )
        if args.errors:
            print("\n".join(errors))
        print()
    if audio is not None:
        print(f"({time.process_time() - t0:.0f} s CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
