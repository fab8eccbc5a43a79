"""Listening benchmark: replay ``fixtures/audio`` through each available backend.

Prints, per backend: real-time factor, start-up time to the first chunk
accepted, peak memory, detection latency (audio time from the end of a target
word to the first event reporting it, p50/p95), and hit / false-hit rates per
split, voice and noise level, as markdown tables for the README.

What is scored (from the manifest's ``expect`` items and the context the host
would use for the clip's entry):

* a *target* is an expected answer or form of the entry, a cue phrase (letter
  or rhyme talk), a ``host <command>`` phrase or a team name; it is *hit*
  when a ``final`` ``kws`` event names a phrase of the same group within
  0.3 s of the expected place (``spotted``), and also ``confirmed`` when the
  free transcript agreed;
* a *negative* is every other group the context listens for in that clip
  (the entry's words in a clue without them, 11 commands, 3 teams, the cue
  phrases): a final ``kws`` event for it is a false hit.

Spelled-out letters ("t e l") are left to the free transcript (the referee)
and not scored here.  Thresholds may be tuned with ``--split tune`` only.

Usage: ``python benchmarks/listening.py [--split tune|heldout|all] [--limit N]``
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from voice_host.audio.wav import WavSource  # noqa: E402
from voice_host.commands.listen import DEFAULT_COMMANDS  # noqa: E402
from voice_host.speech import biased_lm, confirm, kws, pocketsphinx_backend  # noqa: E402
from voice_host.speech.events import ListenContext, RecognitionEvent, Recognizer  # noqa: E402

#: Peak memory before the recogniser was made (the word knowledge), MB.
BASELINE_MB = 0.0
FIXTURES = ROOT / "fixtures" / "audio"
TEAMS = ("red", "blue", "green")
#: Seconds of slack between an event's phrase and the expected word.
SLACK = 0.3


def entry_categories() -> dict[str, str]:
    """Entry text (lower case) -> category, from the deck's word lists when present."""
    found: dict[str, str] = {}
    words = ROOT / "voice_host" / "deck" / "source" / "words"
    for path in sorted(words.glob("*.txt")) if words.is_dir() else []:
        category = path.stem.capitalize()
        for line in path.read_text(encoding="utf-8").splitlines():
            text = line.split("#", 1)[0].split("|", 1)[0].strip()
            if text:
                found.setdefault(text.lower(), category)
    return found


@dataclass
class Groups:
    """Which phrase belongs to which scoring group."""

    of: dict[str, str] = field(default_factory=dict)

    def group(self, phrase: str) -> str:
        return self.of.get(phrase, "other:" + phrase)


#: Latencies (seconds of audio time) of targets heard only in a free transcript
#: (reported at the utterance's end, not by the spotter).
FREE_LATENCIES: list[float] = []
#: CPU seconds each ``start(context)`` took (a card change: not counted in the RTF).
SWITCHES: list[float] = []
#: CPU seconds ``prepare`` took to learn every context's words before the first clip.
PREPARED: list[float] = []
#: Whether contexts ask for a free transcript (``--no-free-text`` turns it off).
FREE_TEXT = True


def make_context(
    entry_text: str | None, categories: dict[str, str]
) -> tuple[ListenContext, Groups]:
    groups = Groups()
    answers: tuple[str, ...] = ()
    forms: tuple[str, ...] = ()
    prons: dict[str, tuple[str, ...]] = {}
    if entry_text:
        from voice_host.deck.knowledge import make_entry

        category = categories.get(entry_text.lower(), "Object")
        if category == "Control":
            category = "Object"
        entry = make_entry(entry_text, category)
        answers, forms, prons = entry.answers, entry.forms, dict(entry.pronunciations)
        for p in (*answers, *forms):
            groups.of[" ".join(kws.words_of(p))] = "entry"
    for c in DEFAULT_COMMANDS:
        groups.of[c] = "command:" + c.split()[-1]
    for t in TEAMS:
        groups.of[t] = "team:" + t
    for c in kws.CUE_PHRASES:
        groups.of[c] = "cue"
    context = ListenContext(
        answers=answers,
        forms=forms,
        commands=DEFAULT_COMMANDS,
        team_names=TEAMS,
        pronunciations=prons,
        free_text=FREE_TEXT,
    )
    return context, groups


def expected_targets(clip: dict[str, Any]) -> list[tuple[str, float, float]]:
    """(group, start, end) of each scored target in a clip."""
    out = []
    for item in clip["expect"]:
        role, word = item["role"], item["word"]
        if role in ("answer", "form"):
            out.append(("entry", item["start"], item["end"]))
        elif role in ("letter", "rhyme"):
            words = word.split()
            if all(len(w) == 1 for w in words):
                continue  # spelled letters: the free transcript's job
            out.append(("cue", item["start"], item["end"]))
        elif role == "command" and clip["judgement"].startswith("command:"):
            # A command word said without the wake word ("correct!") is no command.
            out.append(("command:" + word, item["start"], item["end"]))
        elif role == "team":
            out.append(("team:" + word, item["start"], item["end"]))
    return out


def noise_level(clip: dict[str, Any]) -> str:
    if clip["noise"] is None:
        return "clean"
    return f"{clip['noise']} {clip['snr_db']} dB" if clip["snr_db"] else f"{clip['noise']} only"


def snr_band(clip: dict[str, Any]) -> str:
    return (
        "clean"
        if clip["noise"] is None
        else (f"{clip['snr_db']} dB" if clip["snr_db"] else "noise")
    )


@dataclass
class Tally:
    targets: int = 0
    spotted: int = 0
    confirmed: int = 0
    negatives: int = 0
    false_spotted: int = 0
    false_confirmed: int = 0
    heard: int = 0
    false_heard: int = 0

    def add(self, other: Tally) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class ClipResult:
    clip: dict[str, Any]
    tally: Tally
    latencies: list[float]
    seconds: float
    wall: float
    misses: list[str]
    false: list[str]


def score(
    clip: dict[str, Any], events: list[RecognitionEvent], groups: Groups, context: ListenContext
) -> tuple[Tally, list[float], list[str], list[str]]:
    tally = Tally()
    targets = expected_targets(clip)
    finals = [e for e in events if e.source == "kws" and e.kind == "final" and e.words]
    firsts = [e for e in events if e.source == "kws" and e.words]
    in_free = free_phrases(events, groups)
    used: set[int] = set()
    latencies: list[float] = []
    misses: list[str] = []
    for group, start, end in targets:
        tally.targets += 1
        near_free = [
            t for g, s, t in in_free if g == group and t > start - SLACK and s < end + SLACK
        ]
        match = None
        for i, e in enumerate(finals):
            w = e.words[0]
            if groups.group(w.text) == group and w.end > start - SLACK and w.start < end + SLACK:
                match = i
                if e.confirmed:
                    break
        if match is None:
            if near_free:
                tally.heard += 1
                FREE_LATENCIES.append(free_emitted(events, min(near_free)) - end)
            else:
                misses.append(group)
            continue
        used.add(match)
        tally.spotted += 1
        if finals[match].confirmed:
            tally.confirmed += 1
        if finals[match].confirmed or near_free:
            tally.heard += 1
        first = min(
            (
                e.emitted_at
                for e in firsts
                if groups.group(e.words[0].text) == group
                and e.words[0].end > start - SLACK
                and e.words[0].start < end + SLACK
            ),
            default=finals[match].emitted_at,
        )
        latencies.append(first - end)
    expected_groups = {g for g, _, _ in targets}
    listened = {groups.group(" ".join(kws.words_of(p))) for p in context.phrases()}
    listened |= {"cue"}
    negatives = listened - expected_groups
    # Entry words said where the manifest expects none of them (lookalikes, clues)
    # count against the entry group; each group counts once per clip.
    tally.negatives = len(negatives)
    false: list[str] = []
    flagged_spot: set[str] = set()
    flagged_conf: set[str] = set()
    for i, e in enumerate(finals):
        g = groups.group(e.words[0].text)
        if i in used or g in expected_groups:
            continue
        false.append(f"{e.words[0].text}{'+' if e.confirmed else ''}")
        flagged_spot.add(g)
        if e.confirmed:
            flagged_conf.add(g)
    tally.false_spotted = len(flagged_spot & negatives)
    tally.false_confirmed = len(flagged_conf & negatives)
    flagged_free = {g for g, _, _ in in_free}
    for g in sorted((flagged_free - flagged_conf) & negatives):
        false.append(f"free:{g}")
    tally.false_heard = len((flagged_conf | flagged_free) & negatives)
    return tally, latencies, misses, false


def free_phrases(events: list[RecognitionEvent], groups: Groups) -> list[tuple[str, float, float]]:
    """(group, start, end) of every listened-for phrase written in a free transcript."""
    out = []
    for e in events:
        if e.source != "free" or e.kind != "final":
            continue
        words = e.words
        for i in range(len(words)):
            for n in (1, 2, 3):
                if i + n > len(words):
                    break
                text = " ".join(w.text for w in words[i : i + n])
                if text in groups.of:
                    out.append((groups.of[text], words[i].start, words[i + n - 1].end))
    return out


def free_emitted(events: list[RecognitionEvent], word_end: float) -> float:
    """When the free transcript holding a word that ends at ``word_end`` was reported."""
    for e in events:
        if e.source == "free" and e.kind == "final" and any(w.end == word_end for w in e.words):
            return e.emitted_at
    return word_end


def replay_clip(
    rec: Recognizer, path: Path, context: ListenContext, *, started: bool = False
) -> list[RecognitionEvent]:
    if not started:
        rec.start(context)
    events: list[RecognitionEvent] = []
    for chunk in WavSource(path):
        events.extend(rec.feed(chunk))
    events.extend(rec.finish())
    return events


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}% ({n}/{d})" if d else "-"


def table(rows: Iterable[tuple[str, Tally]]) -> list[str]:
    lines = [
        "| set | targets | spotted | confirmed | heard | false spotted | false confirmed"
        " | false heard |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, t in rows:
        lines.append(
            f"| {name} | {t.targets} | {pct(t.spotted, t.targets)} | {pct(t.confirmed, t.targets)}"
            f" | {pct(t.heard, t.targets)} | {pct(t.false_spotted, t.negatives)}"
            f" | {pct(t.false_confirmed, t.negatives)} | {pct(t.false_heard, t.negatives)} |"
        )
    return lines


def run_backend(
    name: str, make: Any, clips: list[dict[str, Any]], verbose: bool
) -> tuple[list[ClipResult], float, float]:
    categories = entry_categories()
    contexts: dict[str | None, tuple[ListenContext, Groups]] = {}
    for clip in clips:  # word knowledge first, so its memory is not charged to the recogniser
        if clip["entry"] not in contexts:
            contexts[clip["entry"]] = make_context(clip["entry"], categories)
    global BASELINE_MB
    BASELINE_MB = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    started = time.perf_counter()
    rec = make()
    first_ctx, _ = make_context(None, categories)
    rec.start(first_ctx)
    from voice_host.audio.silence import SilenceSource

    rec.feed(next(iter(SilenceSource(0.1))))
    startup = time.perf_counter() - started
    rec.finish()
    # As the live host does at the start of a game: every context's words at once.
    t = time.process_time()
    rec.prepare(context for context, _ in contexts.values())
    PREPARED.append(time.process_time() - t)
    results = []
    for clip in clips:
        key = clip["entry"]
        if key not in contexts:
            contexts[key] = make_context(key, categories)
        context, groups = contexts[key]
        path = FIXTURES / clip["file"]
        # CPU time, not wall time: the 2-core machine is shared, and a busy
        # neighbour should not count against the recogniser.
        t = time.process_time()
        rec.start(context)
        SWITCHES.append(time.process_time() - t)
        t = time.process_time()
        events = replay_clip(rec, path, context, started=True)
        wall = time.process_time() - t
        tally, lat, misses, false = score(clip, events, groups, context)
        result = ClipResult(clip, tally, lat, WavSource(path).duration, wall, misses, false)
        results.append(result)
        if verbose and (misses or false):
            print(f"  {clip['file']}: missed {misses} false {false}", file=sys.stderr)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return results, startup, peak_mb


def report(name: str, results: list[ClipResult], startup: float, peak_mb: float) -> list[str]:
    audio = sum(r.seconds for r in results)
    wall = sum(r.wall for r in results)
    out = [f"### {name}", ""]
    lat = [x for r in results for x in r.latencies]
    out.append(
        f"- real-time factor: {wall / audio:.3f} ({audio:.0f} s of audio in {wall:.1f} s of CPU)"
        if audio
        else "- no audio"
    )
    out.append(f"- start-up to first chunk accepted: {startup:.2f} s")
    out.append(
        f"- peak memory (max RSS): {peak_mb:.0f} MB for the process; "
        f"{peak_mb - BASELINE_MB:.0f} MB more than before the recogniser loaded"
    )
    out.append(
        f"- detection latency (end of word -> first event): p50 {percentile(lat, 0.5):.2f} s,"
        f" p95 {percentile(lat, 0.95):.2f} s (n={len(lat)}, spotted);"
        f" heard only in the free transcript: p50 {percentile(FREE_LATENCIES, 0.5):.2f} s,"
        f" p95 {percentile(FREE_LATENCIES, 0.95):.2f} s (n={len(FREE_LATENCIES)})"
    )
    out.append(
        "- context switch (start(context), CPU, not in the RTF):"
        f" p50 {percentile(SWITCHES, 0.5):.2f} s,"
        f" max {max(SWITCHES, default=float('nan')):.2f} s;"
        f" every context's words learnt ahead first (prepare, as the host does at the"
        f" start of a game): {sum(PREPARED):.2f} s"
    )
    out.append("")
    for split in ("tune", "heldout"):
        part = [r for r in results if r.clip["split"] == split]
        if not part:
            continue
        rows: dict[str, Tally] = defaultdict(Tally)
        for r in part:
            rows["all"].add(r.tally)
            rows[f"noise: {snr_band(r.clip)}"].add(r.tally)
            if r.clip["noise"] is None:
                rows[f"clean, voice {r.clip['voice']}"].add(r.tally)
        order = sorted(rows, key=lambda k: (k != "all", not k.startswith("noise"), k))
        out.append(f"split={split} ({len(part)} clips)")
        out.append("")
        out.extend(table((k, rows[k]) for k in order))
        out.append("")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("tune", "heldout", "all"), default="all")
    parser.add_argument("--limit", type=int, default=0, help="first N clips only")
    parser.add_argument("--per-phone", type=float, help="override kws.THRESHOLD_PER_PHONE")
    parser.add_argument("--base", type=float, help="override kws.THRESHOLD_BASE")
    parser.add_argument("--confirm", type=float, help="override confirm.CONFIRM_SIMILARITY")
    parser.add_argument("--trust-phones", type=int, help="override confirm.TRUST_PHONES")
    parser.add_argument("--no-free-text", action="store_true", help="spot only; decode on hits")
    parser.add_argument("--free-lm", choices=("biased", "full"), help="free-decode language model")
    parser.add_argument("--context-mass", type=float, help="override biased_lm.CONTEXT_MASS")
    parser.add_argument("--verbose", action="store_true", help="list misses and false hits")
    parser.add_argument("--backend", choices=("pocketsphinx", "vosk", "all"), default="all")
    args = parser.parse_args()
    if args.per_phone is not None:
        kws.THRESHOLD_PER_PHONE = args.per_phone
    if args.base is not None:
        kws.THRESHOLD_BASE = args.base
    global FREE_TEXT
    FREE_TEXT = not args.no_free_text
    if args.confirm is not None:
        confirm.CONFIRM_SIMILARITY = args.confirm
    if args.trust_phones is not None:
        confirm.TRUST_PHONES = args.trust_phones
    if args.context_mass is not None:
        biased_lm.CONTEXT_MASS = args.context_mass
    if args.free_lm is not None:
        pocketsphinx_backend.FREE_LM = args.free_lm
    manifest = json.loads((FIXTURES / "manifest.json").read_text(encoding="utf-8"))
    clips = [c for c in manifest["clips"] if args.split in ("all", c["split"])]
    if args.limit:
        clips = clips[: args.limit]
    backends: list[tuple[str, Any]] = []
    if args.backend in ("pocketsphinx", "all"):
        from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer

        backends.append(("pocketsphinx", PocketSphinxRecognizer))
    if args.backend in ("vosk", "all"):
        vosk = vosk_factory()
        if vosk is not None:
            backends.append(("vosk", vosk))
        else:
            print("vosk: skipped (no English vosk model in models/)", file=sys.stderr)
    print(
        f"Listening benchmark: {len(clips)} clips, threshold 1e-({kws.THRESHOLD_BASE:g} + "
        f"{kws.THRESHOLD_PER_PHONE:g}/phone), confirm >= {confirm.CONFIRM_SIMILARITY:g}"
        f" or >= {confirm.TRUST_PHONES} phones\n"
    )
    for name, make in backends:
        results, startup, peak = run_backend(name, make, clips, args.verbose)
        print("\n".join(report(name, results, startup, peak)))
    return 0


def vosk_factory() -> Any | None:
    """A vosk recogniser factory when the choice logic finds a valid English model."""
    try:
        import importlib.util
        import os

        from voice_host.speech import choose
        from voice_host.speech.models import is_valid_model
    except ImportError:
        return None
    try:
        choice = choose.choose_backend(
            model_arg=None,
            env=os.environ,
            models_dir=ROOT / "models",
            vosk_installed=importlib.util.find_spec("vosk") is not None,
            pocketsphinx_installed=True,
            model_is_valid=is_valid_model,
        )
    except Exception as exc:  # a broken model folder: report and skip
        print(f"vosk: {exc}", file=sys.stderr)
        return None
    if choice.name != "vosk":
        return None
    return lambda: choose.open_recognizer(choice)


if __name__ == "__main__":
    raise SystemExit(main())
