"""The turn's time cues: does a chime make a judgement, or spoil a guess or a clue it overlaps?

At ten seconds left the host plays a chime (``Sound.TEN_SECONDS``) instead of
saying "Ten seconds.", and another as the turn ends (``Sound.TIME_UP``:
``voice_host/announce/sounds.py``).  Would a chime that did not shut the
microphone be safe, so that the table could go on calling out over it?  This
measures that (its answer, session 57: a chime alone is, a chime over a word is
not, so the host shuts the microphone for a chime as for its voice).  Two questions:

**Over talk.**  The fixture clips (``fixtures/audio/manifest.json``) whose
expected judgement is a correct guess, a describer's foul (``foul:word``,
``foul:derivative``) or nothing (a clue, ``kind: clue``, that does not say its
card), the clean ones (``--noisy``: the ones with noise too), are each heard
with the clip's entry as the card and judged as ``referee.py --audio`` judges
them (its ``judge_audio``: the pocketsphinx recogniser with its second and
third transcribers, then ``Referee.observe_all`` in a turn; the judgement the
host acts on is its ``decisive``), in several variants:

* ``plain``: the clip alone (the baseline);
* the chime mixed in, starting 0.3 s before the target word starts
  (``before``), at the word's middle (``over``) or at its end (``after``).
  The target word is the manifest's ``expect`` word (the answer, or the
  forbidden form); a clue without its card has none, and a stretch of
  :data:`MIDDLE_SPAN` seconds at the middle of its speech stands for it;
* for each sound, at each ``--level``: the chime's peak that many dB above
  the clip's own peak (0 by default; ``--level 0 6`` adds +6 dB).

All the variants of a clip share one frame: the clip, padded so every chime
fits, then :data:`TAIL` seconds, over a faint white noise floor
(:data:`FLOOR_DBFS` RMS, as ``host_latency.py --floor -60``), clipped to 16
bits; so the chime is the only difference from ``plain``.  The variants of a
clip are heard one after another by one recogniser, which carries its
cepstral mean, noise estimate and level gate over from replay to replay, as
in ``referee.py --audio`` and as a live host's does.  That carry-over alone
changes some judgements: ``plain`` is heard once more after the chimed
variants (the row ``plain again``, the control; ``--no-control`` skips it), so
a variant's changes are to be read against the control's.  (Over the first 50
clean clips, ``plain`` heard twice in a row changed 4 decisive judgements.)

Printed per split (``tune``, ``heldout``: the manifest's own ``split``, as in
``referee.py``) and per variant, against ``plain``:

* ``same``: clips whose decisive judgement is the same;
* ``guess lost``: guess clips ``plain`` judged a correct guess, the variant not;
* ``foul lost``: foul clips ``plain`` judged a foul (of any kind), the variant no foul;
* ``appeared``: the variant's decisive judgement is a wrong one (for a guess
  clip anything but a guess, for a foul clip anything but a foul, for a clue
  anything) of a type ``plain``'s was not: a clue turned into a foul;
* ``extra``: a wrong judgement (type and kind) among all the variant's that
  ``plain`` made nowhere, decisive or not;
* ``fixed``: ``plain`` was wrong, the variant right.

``--errors`` lists, clip by clip, every variant whose decisive judgement
changed or that made an extra, with what the recogniser heard; and what it
wrote most often for the chimes alone.

**Alone.**  Each sound alone, its peak at -20, -10, -6 and 0 dBFS, after
:data:`ALONE_LEAD` s and followed by :data:`ALONE_TAIL` s of a bed: the
floor alone, or pink noise or four-voice babble of the fixtures' clean clues
(``room.py``'s ``noise_bed``) at :data:`BED_DBFS` RMS over the floor.  Heard
in a turn under ``--cards`` cards of the built-in deck (a seeded sample,
their categories in turn) and between turns (no card: only commands are
judged).  Any judgement but ``nothing`` counts (guess, foul, near miss,
command); the bed alone is heard too, as the control.  Target: zero.

The work is shared by ``--jobs`` processes (2 by default), each with its own
recogniser and a fixed share of the clips and cards (whole cards at a time),
so the same ``--jobs`` gives the same numbers every run.  Each recogniser
first hears one clean clue unreported, as a live host has heard the room
before its first card.  Every replay costs 0.4-0.7 s of CPU (pocketsphinx
decodes each utterance, Moonshine reads most), hence the clean clips by
default (167 of them): with ``--noisy`` (245) the run takes about 17 minutes
on 2 cores.

    .venv/bin/python benchmarks/time_cues.py             # about 9 minutes on 2 cores
    .venv/bin/python benchmarks/time_cues.py --errors    # and every changed clip
    .venv/bin/python benchmarks/time_cues.py --noisy --level 0 6 --part clips
    .venv/bin/python benchmarks/time_cues.py --split heldout --limit 20 --part clips
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import wave
import zlib
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from referee import MANIFEST, Entries, decisive, judge_audio  # noqa: E402
from room import noise_bed  # noqa: E402

from voice_host.announce.sounds import Sound, sound_samples  # noqa: E402
from voice_host.audio.chunk import SAMPLE_RATE  # noqa: E402
from voice_host.audio.wav import read_wav  # noqa: E402
from voice_host.deck.loader import load_builtin  # noqa: E402
from voice_host.deck.model import CATEGORIES, Entry  # noqa: E402
from voice_host.referee import Judgement, Referee  # noqa: E402
from voice_host.referee.phones import default_phone_lookup  # noqa: E402
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer  # noqa: E402

FIXTURES = MANIFEST.parent
#: RMS of the room's faint white noise under everything, dBFS.
FLOOR_DBFS = -60.0
#: Seconds of floor after the clip (or the last chime, if later).
TAIL = 0.5
#: Where a chime starts, from the target word's (start, end) in seconds.
PLACES = {
    "before": lambda start, end: start - 0.3,
    "over": lambda start, end: (start + end) / 2,
    "after": lambda start, end: end,
}
#: Seconds at the speech middle of a clip without a target word that stand for one.
MIDDLE_SPAN = 0.4
#: Chime-alone peak levels, dBFS.
ALONE_LEVELS = (-20.0, -10.0, -6.0, 0.0)
#: Chime-alone beds: the floor alone, or pink noise or babble over it.
BEDS = ("floor", "pink", "babble")
#: RMS of the pink and babble beds, dBFS: a fan, or talk across the room.
BED_DBFS = -35.0
#: Seconds of bed before and after a chime heard alone.
ALONE_LEAD = 0.5
ALONE_TAIL = 1.0
#: The clip groups, and the judgement type that is right for each.
RIGHT = {"guess": "guess", "foul": "foul", "clue": "nothing"}
SOUND_NAMES = {Sound.TEN_SECONDS: "ten_seconds", Sound.TIME_UP: "time_up"}
#: Rough CPU seconds of one replay, to share the work between processes.
CLIP_COST = 0.55
ALONE_COST = 0.45


@dataclass(frozen=True)
class Variant:
    """How a clip is heard: plain, or with ``sound`` at ``place`` and ``level`` dB."""

    sound: Sound | None = None
    place: str = ""
    level: float = 0.0
    again: bool = False
    """Plain, heard a second time after the chimed variants (the control)."""

    @property
    def name(self) -> str:
        if self.sound is None:
            return "plain again" if self.again else "plain"
        return f"{SOUND_NAMES[self.sound]} {self.place} {self.level:+g} dB"


PLAIN = Variant()


def group(clip: dict[str, Any]) -> str:
    """``guess``, ``foul`` or ``clue`` (a clue without its card)."""
    if clip["judgement"] == "guess":
        return "guess"
    if clip["judgement"].startswith("foul:"):
        return "foul"
    return "clue"


def type_of(label: str) -> str:
    """``guess``, ``foul``, ``near_miss``, ``command``, ``team`` or ``nothing``."""
    return label.split(":")[0]


def wrong(label: str, clip: dict[str, Any]) -> bool:
    """Whether judging ``clip`` ``label`` is wrong (a foul of another kind is right)."""
    return type_of(label) != RIGHT[group(clip)]


def chosen_clips(split: str, noisy: bool = False) -> list[dict[str, Any]]:
    """The fixture clips this benchmark hears (``noisy``: those with noise too),
    ordered by entry (one card's searches are built once for all its clips)."""
    clips = json.loads(MANIFEST.read_text(encoding="utf-8"))["clips"]
    wanted = [
        c
        for c in clips
        if c["judgement"] in ("guess", "foul:word", "foul:derivative")
        or (c["kind"] == "clue" and c["judgement"] == "nothing" and not c["expect"])
    ]
    if split != "all":
        wanted = [c for c in wanted if c["split"] == split]
    if not noisy:
        wanted = [c for c in wanted if not c["noise"]]
    return sorted(wanted, key=lambda c: (c["entry"] or "", c["file"]))


def target(clip: dict[str, Any], n: int) -> tuple[float, float]:
    """The target word's start and end (seconds): the ``expect`` words, or
    :data:`MIDDLE_SPAN` at the middle of the speech (the fixtures' padding is the
    same at both ends) of a clip ``n`` samples long."""
    if clip["expect"]:
        return min(e["start"] for e in clip["expect"]), max(e["end"] for e in clip["expect"])
    middle = n / SAMPLE_RATE / 2
    return middle - MIDDLE_SPAN / 2, middle + MIDDLE_SPAN / 2


def floor(n: int, seed: int) -> np.ndarray:
    """``n`` samples of the room's faint white noise (:data:`FLOOR_DBFS` RMS)."""
    rms = 10 ** (FLOOR_DBFS / 20) * 32768
    return np.random.default_rng(seed).normal(0.0, rms, n)


def chime(sound: Sound, peak_dbfs: float) -> np.ndarray:
    """``sound`` in 16-bit units, its peak at ``peak_dbfs``."""
    return sound_samples(sound, SAMPLE_RATE, peak=10 ** (peak_dbfs / 20)) * 32768


def seed_of(text: str) -> int:
    return zlib.crc32(text.encode())


def clip_variants(
    clip: dict[str, Any], variants: list[Variant]
) -> list[tuple[Variant, np.ndarray]]:
    """Each variant's audio (16-bit units as floats), all in one frame."""
    x = np.frombuffer(read_wav(FIXTURES / clip["file"]).samples, "<i2").astype(np.float64)
    peak_dbfs = 20 * np.log10(max(float(np.max(np.abs(x))), 1.0) / 32768)
    start, end = target(clip, len(x))
    placed: list[tuple[Variant, int, np.ndarray | None]] = []
    for v in variants:
        if v.sound is None:
            placed.append((v, 0, None))
        else:
            at = round(PLACES[v.place](start, end) * SAMPLE_RATE)
            placed.append((v, at, chime(v.sound, peak_dbfs + v.level)))
    lead = max([0, *(-at for _, at, c in placed if c is not None)])
    last = max([len(x), *(at + len(c) for _, at, c in placed if c is not None)])
    base = floor(lead + last + round(TAIL * SAMPLE_RATE), seed_of(clip["file"]))
    base[lead : lead + len(x)] += x
    out = []
    for v, at, c in placed:
        y = base.copy()
        if c is not None:
            y[lead + at : lead + at + len(c)] += c
        out.append((v, y))
    return out


class Judge:
    """Hears audio as ``referee.py --audio`` does: written to a WAV file and judged by
    its ``judge_audio`` (the same chunks, recogniser, context and referee)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        phones = default_phone_lookup()
        self.referee = Referee.default(phones)
        self.recognizer = PocketSphinxRecognizer()
        self.entries = Entries([], False, phones)
        self.replays = 0
        self.audio_seconds = 0.0

    def __call__(
        self, audio: np.ndarray, entry: Entry | None, phase: str
    ) -> tuple[list[Judgement], str]:
        data = np.clip(np.round(audio), -32768, 32767).astype("<i2")
        with wave.open(str(self.folder / "heard.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(SAMPLE_RATE)
            w.writeframes(data.tobytes())
        self.replays += 1
        self.audio_seconds += len(data) / SAMPLE_RATE
        clip = {"file": "heard.wav", "judgement": "nothing", "kind": "noise", "phase": phase}
        return judge_audio(self.referee, self.recognizer, clip, entry, self.folder)


# -- the work, shared between processes ------------------------------------------------


@dataclass
class Share:
    """One process's share: clips (with the variants) and chime-alone contexts."""

    clips: list[dict[str, Any]] = field(default_factory=list)
    contexts: list[tuple[str, Entry | None, str]] = field(default_factory=list)
    variants: list[Variant] = field(default_factory=list)
    cost: float = 0.0


@dataclass
class Heard:
    """What a share gave: a record per replay, and what it cost."""

    clips: list[dict[str, Any]]
    alone: list[dict[str, Any]]
    replays: int
    audio_seconds: float
    cpu: float


def shares(
    clips: list[dict[str, Any]],
    contexts: list[tuple[str, Entry | None, str]],
    variants: list[Variant],
    jobs: int,
) -> list[Share]:
    """The work in ``jobs`` shares of about equal cost: whole entries of clips (their
    card's searches are built once) and whole contexts, each to the cheapest share so
    far, biggest first; each share keeps the clips' entry order."""
    by_entry: dict[str, list[dict[str, Any]]] = {}
    for c in clips:
        by_entry.setdefault(c["entry"] or "", []).append(c)
    out = [Share(variants=variants) for _ in range(max(jobs, 1))]
    per_clip = CLIP_COST * len(variants)
    per_context = ALONE_COST * len(BEDS) * (1 + len(Sound) * len(ALONE_LEVELS))
    units: list[tuple[float, str, list[dict[str, Any]] | tuple[str, Entry | None, str]]] = [
        (per_clip * len(group_), name, group_) for name, group_ in by_entry.items()
    ]
    units += [(per_context, f"~{i:03d}", ctx) for i, ctx in enumerate(contexts)]
    for cost, _, unit in sorted(units, key=lambda u: (-u[0], u[1])):
        share = min(out, key=lambda s: s.cost)
        share.cost += cost
        if isinstance(unit, list):
            share.clips += unit
        else:
            share.contexts.append(unit)
    for share in out:
        share.clips.sort(key=lambda c: (c["entry"] or "", c["file"]))
    return [s for s in out if s.clips or s.contexts]


def hear_share(share: Share) -> Heard:
    """Hear a share with a recogniser of its own."""
    cpu = time.process_time()
    with tempfile.TemporaryDirectory(prefix="time_cues_") as folder:
        judge = Judge(Path(folder))
        warm_up(judge)
        clip_recs = hear_clips(judge, share.clips, share.variants)
        alone_recs = hear_alone(judge, share.contexts)
    return Heard(
        clip_recs, alone_recs, judge.replays, judge.audio_seconds, time.process_time() - cpu
    )


def warm_up(judge: Judge) -> None:
    """Let a fresh recogniser hear the manifest's first clean clue once, unreported: a
    live host has heard the room before the first card (as in ``cut_in.py``), and a
    cold one loses the first words of the first clip."""
    clips = json.loads(MANIFEST.read_text(encoding="utf-8"))["clips"]
    clip = next(c for c in clips if c["kind"] == "clue" and not c["noise"])
    ((_, audio),) = clip_variants(clip, [PLAIN])
    judge(audio, judge.entries.get(clip["entry"]), "turn")
    judge.replays, judge.audio_seconds = 0, 0.0


# -- over talk --------------------------------------------------------------------


def hear_clips(
    judge: Judge, clips: list[dict[str, Any]], variants: list[Variant]
) -> list[dict[str, Any]]:
    """One record per (clip, variant): the decisive label, every label, what was heard."""
    recs = []
    for clip in clips:
        entry = judge.entries.get(clip["entry"])
        for v, audio in clip_variants(clip, variants):
            js, heard = judge(audio, entry, "turn")
            recs.append(
                {
                    "clip": clip,
                    "variant": v,
                    "got": decisive(js),
                    "all": {j.label for j in js if j.type != "nothing"},
                    "heard": heard,
                }
            )
    return recs


def extras(r: dict[str, Any], was: dict[str, Any]) -> set[str]:
    """The wrong judgements among all of ``r``'s that its ``plain`` (``was``) made nowhere."""
    return {label for label in r["all"] - was["all"] if wrong(label, r["clip"])}


def report_clips(recs: list[dict[str, Any]], variants: list[Variant], errors: bool) -> None:
    plain = {r["clip"]["file"]: r for r in recs if r["variant"] == PLAIN}
    for split in ("tune", "heldout"):
        part = [r for r in recs if r["clip"]["split"] == split]
        if not part:
            continue
        base = [r for r in part if r["variant"] == PLAIN]
        counts = Counter(group(r["clip"]) for r in base)
        right = Counter(group(r["clip"]) for r in base if not wrong(r["got"], r["clip"]))
        said = ", ".join(f"{g} {right[g]}/{counts[g]}" for g in RIGHT)
        print(f"\nsplit {split}: {len(base)} clips; plain judged right: {said}")
        guesses = sum(group(r["clip"]) == "guess" and r["got"] == "guess" for r in base)
        fouls = sum(group(r["clip"]) == "foul" and type_of(r["got"]) == "foul" for r in base)
        print(
            f"  {'variant':26}{'same':>9}{'guess lost':>12}{'foul lost':>11}"
            f"{'appeared':>10}{'extra':>7}{'fixed':>7}"
        )
        for v in variants:
            if v == PLAIN:
                continue
            mine = [r for r in part if r["variant"] == v]
            same = lost_g = lost_f = appeared = extra = fixed = 0
            for r in mine:
                was = plain[r["clip"]["file"]]
                kind, got, before = group(r["clip"]), type_of(r["got"]), type_of(was["got"])
                same += r["got"] == was["got"]
                lost_g += kind == "guess" and before == "guess" and got != "guess"
                lost_f += kind == "foul" and before == "foul" and got != "foul"
                appeared += wrong(r["got"], r["clip"]) and got not in ("nothing", before)
                extra += bool(extras(r, was))
                fixed += wrong(was["got"], r["clip"]) and not wrong(r["got"], r["clip"])
            print(
                f"  {v.name:26}{f'{same}/{len(mine)}':>9}{f'{lost_g}/{guesses}':>12}"
                f"{f'{lost_f}/{fouls}':>11}{appeared:>10}{extra:>7}{fixed:>7}"
            )
    if not errors:
        return
    print(
        "\nclips judged otherwise than plain, clip by clip (split, clip, expected; plain and,"
        " indented, each variant that changed: decisive judgement [what was heard])"
    )
    again = {r["clip"]["file"]: r for r in recs if r["variant"] == Variant(again=True)}
    for file, was in plain.items():
        changed = [
            r
            for r in recs
            if r["clip"]["file"] == file
            and r["variant"] != PLAIN
            and (r["got"] != was["got"] or extras(r, was))
        ]
        if not changed:
            continue
        clip = was["clip"]
        print(f"  {clip['split']} {file} ({clip['judgement']})")
        print(f"    {'plain':26} {was['got']:16} [{was['heard']}]")
        for r in changed:
            more = extras(r, was)
            also = f" (extra: {', '.join(sorted(more))})" if more else ""
            print(f"    {r['variant'].name:26} {r['got']:16} [{r['heard']}]{also}")
        if file in again and again[file] not in changed:
            print("    (plain again: same as plain)")


# -- alone ------------------------------------------------------------------------


def deck_cards(n: int) -> list[Entry]:
    """``n`` entries of the built-in deck: a seeded sample of cards, the categories
    in turn."""
    cards = random.Random(7).sample(list(load_builtin().cards), n)
    return [c.entries[CATEGORIES[i % len(CATEGORIES)]] for i, c in enumerate(cards)]


def bed(kind: str, n: int, seed: int, clues: list[str]) -> np.ndarray:
    """``n`` samples of the floor, and pink noise or babble at :data:`BED_DBFS` RMS."""
    out = floor(n, seed)
    if kind != "floor":
        out += noise_bed(kind, n, clues, seed) * 10 ** (BED_DBFS / 20) * 32768
    return out


def hear_alone(judge: Judge, contexts: list[tuple[str, Entry | None, str]]) -> list[dict[str, Any]]:
    """One record per (context, bed, sound or None for the bed alone, level): the
    judgements made but ``nothing``."""
    clues = [
        c["file"]
        for c in json.loads(MANIFEST.read_text(encoding="utf-8"))["clips"]
        if c["kind"] == "clue" and not c["noise"] and not c["expect"]
    ]
    longest = max(len(chime(s, 0.0)) for s in Sound)
    n = round((ALONE_LEAD + ALONE_TAIL) * SAMPLE_RATE) + longest
    at = round(ALONE_LEAD * SAMPLE_RATE)
    recs = []
    for name, entry, phase in contexts:
        for kind in BEDS:
            quiet = bed(kind, n, seed_of(f"{name}/{kind}"), clues)
            takes: list[tuple[Sound | None, float]] = [(None, 0.0)]
            takes += [(s, level) for s in Sound for level in ALONE_LEVELS]
            for sound, level in takes:
                audio = quiet.copy()
                if sound is not None:
                    c = chime(sound, level)
                    audio[at : at + len(c)] += c
                js, heard = judge(audio, entry, phase)
                recs.append(
                    {
                        "card": name,
                        "phase": phase,
                        "bed": kind,
                        "sound": sound,
                        "level": level,
                        "judged": [(j.label, j.evidence) for j in js if j.type != "nothing"],
                        "heard": heard,
                    }
                )
    return recs


def report_alone(recs: list[dict[str, Any]], n_cards: int, errors: bool) -> None:
    print(
        "\nreplays with any judgement (guess, foul, near miss, command), "
        f"turn: {n_cards} cards, between: no card"
    )
    levels = "".join(f"{f'{lv:+g} dBFS':>10}" for lv in ALONE_LEVELS)
    print(f"  {'phase':8} {'bed':7} {'sound':12}{'bed alone':>10}{levels}")
    for phase in ("turn", "between"):
        for kind in BEDS:
            mine = [r for r in recs if r["phase"] == phase and r["bed"] == kind]
            if not mine:
                continue
            quiet = [r for r in mine if r["sound"] is None]
            hit = sum(bool(r["judged"]) for r in quiet)
            for sound in Sound:
                cells = ""
                for lv in ALONE_LEVELS:
                    these = [r for r in mine if r["sound"] == sound and r["level"] == lv]
                    judged = sum(bool(r["judged"]) for r in these)
                    cells += f"{f'{judged}/{len(these)}':>10}"
                print(
                    f"  {phase:8} {kind:7} {SOUND_NAMES[sound]:12}"
                    f"{f'{hit}/{len(quiet)}':>10}{cells}"
                )
    chimed = [r for r in recs if r["sound"] is not None]
    total = sum(len(r["judged"]) for r in chimed)
    quiet_total = sum(len(r["judged"]) for r in recs if r["sound"] is None)
    print(
        f"  judgements with a chime: {total} in {len(chimed)} replays (target 0); "
        f"with the bed alone: {quiet_total} in {len(recs) - len(chimed)}"
    )
    quiet = [r for r in recs if r["sound"] is None]
    print(
        f"  the recogniser wrote something for {sum(bool(r['heard']) for r in chimed)} of "
        f"{len(chimed)} replays with a chime, for {sum(bool(r['heard']) for r in quiet)} of "
        f"{len(quiet)} of the bed alone"
    )
    if errors:
        for sound in Sound:
            heard = Counter(r["heard"] for r in chimed if r["sound"] == sound and r["heard"])
            common = "; ".join(f"{n} x [{h}]" for h, n in heard.most_common(8))
            print(f"    {SOUND_NAMES[sound]}, most often written: {common or 'nothing'}")
    for r in recs:
        for label, evidence in r["judged"]:
            what = "bed alone" if r["sound"] is None else SOUND_NAMES[r["sound"]]
            level = "" if r["sound"] is None else f" {r['level']:+g} dBFS"
            print(
                f"    {r['phase']} {r['card']!r} {r['bed']} {what}{level}: {label} "
                f"heard [{r['heard']}] {evidence}"
            )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--level",
        type=float,
        nargs="+",
        default=[0.0],
        help="chime peaks over talk, dB above the clip's own peak (e.g. 0 6)",
    )
    ap.add_argument("--split", choices=("tune", "heldout", "all"), default="all")
    ap.add_argument("--limit", type=int, default=0, help="only the first N clips (by entry)")
    ap.add_argument("--cards", type=int, default=20, help="built-in cards for chimes alone")
    ap.add_argument(
        "--part",
        choices=("clips", "alone", "all"),
        default="all",
        help="chimes over the fixture clips, chimes alone, or both",
    )
    ap.add_argument(
        "--noisy", action="store_true", help="the fixture clips with noise too (twice as long)"
    )
    ap.add_argument(
        "--no-control",
        action="store_true",
        help="do not hear each clip plainly once more after its chimed variants",
    )
    ap.add_argument("--jobs", type=int, default=2, help="processes (each its own recogniser)")
    ap.add_argument("--errors", action="store_true", help="list every clip judged otherwise")
    args = ap.parse_args(argv)
    if not MANIFEST.is_file():
        print(f"no fixture manifest at {MANIFEST}: nothing to measure")
        return 0
    wall = time.perf_counter()
    clips: list[dict[str, Any]] = []
    if args.part in ("clips", "all"):
        clips = chosen_clips(args.split, args.noisy)
        if args.limit:
            clips = clips[: args.limit]
    variants = [PLAIN]
    variants += [Variant(s, p, lv) for lv in args.level for s in Sound for p in PLACES]
    if not args.no_control:
        variants.append(Variant(again=True))
    cards: list[Entry] = []
    contexts: list[tuple[str, Entry | None, str]] = []
    if args.part in ("alone", "all"):
        cards = deck_cards(args.cards)
        contexts = [(e.text, e, "turn") for e in cards] + [("(between turns)", None, "between")]
    work = shares(clips, contexts, variants, args.jobs)
    if len(work) > 1:
        with ProcessPoolExecutor(max_workers=len(work)) as pool:
            done = list(pool.map(hear_share, work))
    else:
        done = [hear_share(s) for s in work]
    if clips:
        print(
            f"== chimes over talk: {len(clips)} clips x {len(variants)} variants (chime peak "
            f"{', '.join(f'{lv:+g}' for lv in args.level)} dB from the clip's peak; "
            f"floor {FLOOR_DBFS:g} dBFS RMS)"
        )
        report_clips([r for h in done for r in h.clips], variants, args.errors)
    if contexts:
        print(
            f"\n== chimes alone: {len(cards)} cards + between turns, {len(BEDS)} beds (pink "
            f"and babble {BED_DBFS:g} dBFS RMS over the {FLOOR_DBFS:g} dBFS floor)"
        )
        report_alone([r for h in done for r in h.alone], len(cards), args.errors)
    print(
        f"\n{sum(h.replays for h in done)} replays, "
        f"{sum(h.audio_seconds for h in done):.0f} s of audio, {len(work)} processes: "
        f"{sum(h.cpu for h in done):.0f} s CPU, {time.perf_counter() - wall:.0f} s wall"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
