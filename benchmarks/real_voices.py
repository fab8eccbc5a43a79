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

    .venv/bin/python benchmarks/real_voices.py [--errors] [--close N] [--random N]
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from referee import TEAMS, decisive, judge_text  # noqa: E402

from voice_host.audio.chunk import AudioChunk  # noqa: E402
from voice_host.audio.wav import WavSource  # noqa: E402
from voice_host.deck.loader import load_builtin  # noqa: E402
from voice_host.deck.model import Entry  # noqa: E402
from voice_host.referee import Phase, Referee, Situation, default_phone_lookup  # noqa: E402
from voice_host.referee.commands import command_phrases  # noqa: E402
from voice_host.referee.matching import phone_similarity  # noqa: E402
from voice_host.referee.phones import PhoneLookup  # noqa: E402
from voice_host.speech.events import ListenContext  # noqa: E402
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer  # noqa: E402
from voice_host.speech.replay import adapt_to, replay  # noqa: E402

MANIFEST = ROOT / "fixtures" / "audio" / "real" / "manifest.json"
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


def clips() -> list[dict[str, Any]]:
    """The committed clips, then moonshine-voice's readings when installed."""
    out: list[dict[str, Any]] = []
    for c in json.loads(MANIFEST.read_text())["clips"]:
        out.append({**c, "path": MANIFEST.parent / c["file"]})
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
                    "path": path,
                    "speaker": f"moonshine-{name.split('.')[0]}",
                    "text": text,
                    "text_given": given,
                }
            )
    return out


def chunks(path: Path) -> Iterator[AudioChunk]:
    """The clip in the host's format (the moonshine assets, at 24 and 48 kHz, are
    converted as any WAV is)."""
    yield from WavSource(path)


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


def coarse(label: str) -> str:
    if label.startswith("foul"):
        return "foul"
    if label.startswith(("command", "team")):
        return "command"
    return label


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--close", type=int, default=4, help="close-sounding cards per clip")
    ap.add_argument("--random", type=int, default=3, help="random other cards per clip")
    ap.add_argument("--positive", type=int, default=6, help="at most N cards said, per clip")
    ap.add_argument("--errors", action="store_true", help="list the wrong judgements")
    ap.add_argument("--limit", type=int, default=0, help="only the first N clips")
    args = ap.parse_args(argv)
    deck = load_builtin()
    by_name = {e.text: e for card in deck.cards for e in card.entries.values()}
    entries = sorted(by_name.items())
    phones = default_phone_lookup()
    referee = Referee(phones)
    recognizer = PocketSphinxRecognizer()
    todo = clips()[: args.limit or None]
    recs: list[dict[str, Any]] = []
    t0 = time.process_time()
    for n, clip in enumerate(todo):
        text = clip["text"]
        expected = {name: judged_on_text(referee, text, e) for name, e in entries}
        positive = [name for name, lab in expected.items() if lab != "nothing"]
        negative = [name for name, lab in expected.items() if lab == "nothing"]
        text_phones = [p for w in text.split() if (p := phones(w)) and len(p) >= 3]
        ranked = sorted(negative, key=lambda name: -sounds_like(by_name[name], text_phones, phones))
        close = ranked[: args.close]
        rest = [name for name in negative if name not in close]
        rng = random.Random(f"{clip['file']}")
        sample = rng.sample(rest, min(args.random, len(rest)))
        plan = [(name, "close") for name in close] + [(name, "random") for name in sample]
        if clip.get("text_given"):
            rng.shuffle(positive)
            plan += [(name, "positive") for name in sorted(positive[: args.positive])]
        for name, group in plan:
            entry = by_name[name]
            context = ListenContext.for_entry(entry, command_phrases(TEAMS), TEAMS)
            adapt_to(recognizer, chunks(clip["path"]), context)
            events = replay(recognizer, chunks(clip["path"]), context)
            referee.reset()
            situation = Situation(entry=entry, phase=Phase.TURN, teams=TEAMS)
            judged = referee.observe_all(events, situation)
            heard = " | ".join(e.text for e in events if e.kind == "final" and e.source == "free")
            recs.append(
                {
                    "clip": clip["file"],
                    "speaker": clip["speaker"],
                    "entry": name,
                    "group": group,
                    "exp": expected[name],
                    "got": decisive(judged),
                    "heard": heard,
                    "why": "; ".join(j.evidence for j in judged if j.type != "nothing"),
                }
            )
        print(f"  [{n + 1}/{len(todo)}] {clip['file']}: {len(plan)} cards", file=sys.stderr)
    report(recs)
    if args.errors:
        print("\nwrong:")
        for r in recs:
            if coarse(r["exp"]) != coarse(r["got"]):
                print(
                    f"  {r['group']:8} {r['exp']:>15} -> {r['got']:<15} {r['entry']!r} "
                    f"in {r['clip']}: heard [{r['heard'][:120]}] {r['why'][:140]}"
                )
    print(f"\n({time.process_time() - t0:.0f} s CPU)")
    return 0


def report(recs: list[dict[str, Any]]) -> None:
    speakers = len({r["speaker"] for r in recs})
    print(f"\n{len({r['clip'] for r in recs})} clips of real speech, {speakers} speakers")
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
    for group in ("close", "random"):
        rs = groups[group]
        if not rs:
            continue
        ff = sum(coarse(r["got"]) == "foul" for r in rs)
        fc = sum(r["got"] == "guess" for r in rs)
        cmd = sum(coarse(r["got"]) == "command" for r in rs)
        other = sum(r["got"] == "near_miss" for r in rs)
        print(
            f"  {group + ' cards, not said':27} false fouls {ff}/{len(rs)}, false 'correct' "
            f"{fc}/{len(rs)}, commands invented {cmd}, 'close' {other}"
        )


if __name__ == "__main__":
    raise SystemExit(main())
