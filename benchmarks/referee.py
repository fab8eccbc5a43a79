"""Benchmark the referee over the fixture manifest: confusion tables and targets.

    .venv/bin/python benchmarks/referee.py            # text level (fast)
    .venv/bin/python benchmarks/referee.py --audio    # also replay WAVs through pocketsphinx
    .venv/bin/python benchmarks/referee.py --errors   # list every wrong clip
    .venv/bin/python benchmarks/referee.py --audio --gain -20   # a quiet microphone
    .venv/bin/python benchmarks/referee.py --audio --reverb 0.5 # a reverberant room
    .venv/bin/python benchmarks/referee.py --audio --pitch 600  # voices like a child's

Text level: each clip's ``text`` becomes a free transcript with synthetic word
timings (``voice_host.referee.text.synthetic_words``): this measures the
referee alone (matching, who said it, talk, commands) with a perfect
recogniser.  Audio level: each WAV is replayed through
``PocketSphinxRecognizer`` and every event goes through ``Referee.observe_all``.

The game phase of a clip follows from what it is: team claims are heard in a
CONTROL round, ``forward``/``push`` in a SPIN choice, everything else in a
timed turn (untimed here: the buzzer is tested in tests/referee).  Teams are
red, blue and green.  Entries come from ``voice_host.deck.make_entry`` (the
real word knowledge) unless ``--manifest-entries``, which builds them from the
manifest's own ``expect`` roles (answers/forms) to separate referee errors
from word-knowledge errors.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from voice_host.audio.chunk import AudioChunk  # noqa: E402
from voice_host.deck.model import Entry  # noqa: E402
from voice_host.referee import Judgement, Phase, Referee, Situation  # noqa: E402
from voice_host.referee.phones import PhoneLookup, default_phone_lookup  # noqa: E402
from voice_host.referee.text import synthetic_words  # noqa: E402
from voice_host.speech.events import RecognitionEvent  # noqa: E402

MANIFEST = ROOT / "fixtures" / "audio" / "manifest.json"
TEAMS = ("red", "blue", "green")
CLASSES = (
    "guess",
    "near_miss",
    "foul:word",
    "foul:derivative",
    "foul:letter",
    "foul:rhyme",
    "command",
    "team",
    "nothing",
)
#: When one clip yields several judgements, the one the host would act on.
PRIORITY = ("command", "foul", "guess", "near_miss", "nothing")


def clip_phase(clip: dict[str, Any]) -> Phase:
    """The game phase a clip is heard in: the manifest's ``phase`` when given,
    else inferred (see the module docstring)."""
    given = {"turn": Phase.TURN, "control": Phase.CONTROL, "spin": Phase.SPIN_CHOICE}
    given |= {"spin_choice": Phase.SPIN_CHOICE, "between": Phase.BETWEEN}
    if clip.get("phase") in given:
        return given[clip["phase"]]
    label = clip["judgement"]
    if clip["kind"] == "team" or label.startswith("team:"):
        return Phase.CONTROL
    if label.startswith(("command:forward", "command:push")):
        return Phase.SPIN_CHOICE
    return Phase.TURN


def coarse(label: str) -> str:
    """A label's row/column in the confusion table."""
    if label.startswith("command:"):
        return "command"
    if label.startswith("team:"):
        return "team"
    return label


def decisive(judgements: list[Judgement]) -> str:
    """The label of the judgement the host would act on."""
    real = [j for j in judgements if j.type != "nothing"]
    if not real:
        return "nothing"
    real.sort(key=lambda j: (PRIORITY.index(j.type), j.t))
    return real[0].label


class Entries:
    """Entry per card text: real word knowledge, or the manifest's roles."""

    def __init__(self, clips: list[dict[str, Any]], from_manifest: bool, phones: PhoneLookup):
        self.phones = phones
        self.cache: dict[str, Entry] = {}
        self.make: Callable[[str, str], Entry] | None = None
        if not from_manifest:
            try:
                from voice_host.deck.knowledge import make_entry

                self.make = make_entry
            except ImportError:
                print("voice_host.deck make_entry missing: using manifest roles", file=sys.stderr)
        self.roles: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        for c in clips:
            if c.get("entry"):
                for e in c.get("expect", []):
                    self.roles[c["entry"]][e.get("role", "")].add(e["word"].lower())

    def get(self, text: str | None) -> Entry | None:
        if not text:
            return None
        if text not in self.cache:
            if self.make is not None:
                self.cache[text] = self.make(text, "Object")
            else:
                roles = self.roles[text]
                answers = tuple(sorted({text.lower(), *roles["answer"]}))
                forms = tuple(sorted(roles["form"] | roles["word"]))
                words = {w for p in (*answers, *forms) for w in p.split()}
                prons = {w: p for w in words if (p := self.phones(w))}
                self.cache[text] = Entry(text, "Object", answers, forms, prons)
        return self.cache[text]


def judge_text(referee: Referee, clip: dict[str, Any], entry: Entry | None) -> list[Judgement]:
    """Judge a clip's text as a perfect free transcript."""
    words = synthetic_words(clip["text"])
    situation = Situation(entry=entry, phase=clip_phase(clip), teams=TEAMS)
    end = words[-1].end if words else 0.0
    event = RecognitionEvent("final", words, end, "free", None, None)
    return referee.judge(event, situation)


def scaled(chunks: Iterable[AudioChunk], factor: float) -> Iterator[AudioChunk]:
    """The chunks with every sample multiplied by ``factor`` (clipped to 16 bits)."""
    import numpy as np

    for chunk in chunks:
        samples = np.frombuffer(chunk.samples, dtype="<i2").astype(np.float64) * factor
        data = np.clip(np.round(samples), -32768, 32767).astype("<i2").tobytes()
        yield AudioChunk(data, chunk.rate, chunk.start_time)


#: Direct-to-reverberant energy ratio of the synthetic room (``--reverb``), dB: a
#: laptop's microphone a metre or two from the players in a living room.
REVERB_DRR_DB = 3.0


def room_response(rt60: float, rate: int, drr_db: float = REVERB_DRR_DB, seed: int = 7) -> Any:
    """A synthetic room impulse response: the direct sound, then after 5 ms a tail
    of noise decaying by 60 dB in ``rt60`` seconds, ``drr_db`` below the direct
    sound in energy (the same seed, the same room)."""
    import numpy as np

    gap = int(0.005 * rate)
    n = int(rt60 * rate)
    t = np.arange(n) / rate
    tail = np.random.default_rng(seed).standard_normal(n) * np.exp(-6.9 * t / rt60)
    tail *= np.sqrt(10 ** (-drr_db / 10) / np.sum(tail**2))
    h = np.zeros(gap + n)
    h[0] = 1.0
    h[gap:] = tail
    return h


def reverberant(chunks: Iterable[AudioChunk], rt60: float) -> Iterator[AudioChunk]:
    """The chunks as heard in a room with reverberation time ``rt60`` (seconds):
    the clip convolved with :func:`room_response`, cut to its own length, its
    level kept (clipped to 16 bits)."""
    import numpy as np

    chunks = list(chunks)
    if not chunks:
        return
    rate = chunks[0].rate
    x = np.concatenate([np.frombuffer(c.samples, dtype="<i2") for c in chunks]).astype(np.float64)
    y = np.convolve(x, room_response(rt60, rate))[: len(x)]
    y *= np.sqrt(np.sum(x**2) / max(np.sum(y**2), 1e-9))
    data = np.clip(np.round(y), -32768, 32767).astype("<i2")
    at = 0
    for c in chunks:
        n = len(c.samples) // 2
        yield AudioChunk(data[at : at + n].tobytes(), rate, c.start_time)
        at += n


def pitched(chunks: Iterable[AudioChunk], cents: str) -> Iterator[AudioChunk]:
    """The chunks with pitch and formants raised by ``cents`` (sox's ``pitch``
    effect, the clip's length kept): with 500-700 cents an adult's voice comes
    near a child's, higher in pitch and with a shorter vocal tract's formants.
    Several shifts one after another, comma-separated ("300,-300"), measure
    what the effect's own artefacts cost."""
    import numpy as np

    chunks = list(chunks)
    if not chunks:
        return
    rate = chunks[0].rate
    raw = ["-t", "raw", "-r", str(rate), "-e", "signed", "-b", "16", "-c", "1"]
    x = b"".join(c.samples for c in chunks)
    done = subprocess.run(
        ["sox", *raw, "-", *raw, "-", *(w for c in cents.split(",") for w in ("pitch", c))],
        input=x,
        capture_output=True,
        check=True,
    )
    y = np.frombuffer(done.stdout, dtype="<i2")
    y = np.pad(y, (0, max(len(x) // 2 - len(y), 0)))
    at = 0
    for c in chunks:
        n = len(c.samples) // 2
        yield AudioChunk(y[at : at + n].tobytes(), rate, c.start_time)
        at += n


def judge_audio(
    referee: Referee,
    recognizer: Any,
    clip: dict[str, Any],
    entry: Entry | None,
    folder: Path = MANIFEST.parent,
    gain_db: float = 0.0,
    reverb: float = 0.0,
    pitch: str = "",
) -> tuple[list[Judgement], str]:
    """Replay a clip through the recogniser; judge its events; also return the transcript.

    ``gain_db`` scales the audio first (-20 is a quiet microphone), clipping at
    full scale; ``reverb`` (seconds, RT60) plays it in a reverberant room;
    ``pitch`` (cents) raises the voice (:func:`pitched`).
    """
    from voice_host.audio.wav import WavSource
    from voice_host.referee.commands import command_phrases, listened_teams
    from voice_host.speech.events import ListenContext
    from voice_host.speech.replay import replay

    teams = listened_teams(TEAMS, clip_phase(clip))  # as the host listens in that phase
    context = ListenContext.for_entry(entry, command_phrases(teams), teams)
    chunks: Iterable[AudioChunk] = WavSource(folder / clip["file"])
    if pitch:
        chunks = pitched(chunks, pitch)
    if reverb:
        chunks = reverberant(chunks, reverb)
    if gain_db:
        chunks = scaled(chunks, 10 ** (gain_db / 20))
    events = replay(recognizer, chunks, context)
    situation = Situation(entry=entry, phase=clip_phase(clip), teams=TEAMS)
    referee.reset()
    out = referee.observe_all(events, situation)
    heard = " | ".join(f"{e.source}:{e.text}" for e in events if e.kind == "final" and e.words)
    return out, heard


#: Print markdown (README-ready) instead of plain text.
MARKDOWN = False


def table(rows: list[tuple[str, str]], title: str) -> None:
    """Print a confusion table (rows expected, columns judged)."""
    counts = Counter((coarse(e), coarse(p)) for e, p in rows)
    cols = [c for c in CLASSES if any(k[1] == c for k in counts)]
    short = {c: c.replace("foul:", "f:").replace("near_miss", "near")[:8] for c in cols}
    lines: list[tuple[str, list[str], str]] = []
    for r in CLASSES:
        n = sum(v for k, v in counts.items() if k[0] == r)
        if not n:
            continue
        ok = sum(1 for e, p in rows if coarse(e) == r and e == p)
        cells = [str(counts.get((r, c), 0) or ".") for c in cols]
        lines.append((r, cells, f"{ok}/{n}"))
    if MARKDOWN:
        print(f"\n**{title}** ({len(rows)} clips; rows expected, columns judged)\n")
        print("| expected | " + " | ".join(short[c] for c in cols) + " | ok |")
        print("|---|" + "---:|" * (len(cols) + 1))
        for r, cells, ok in lines:
            print(f"| {r} | " + " | ".join(cells) + f" | {ok} |")
        return
    print(f"\n{title} ({len(rows)} clips; rows expected, columns judged)")
    print(f"{'':16}" + "".join(f"{short[c]:>9}" for c in cols) + f"{'ok':>9}")
    for r, cells, ok in lines:
        print(f"{r:16}" + "".join(f"{c:>9}" for c in cells) + f"  {ok:>7}")


def targets(recs: list[dict[str, Any]], title: str = "") -> None:
    """Print the issue's targets."""

    def rate(num: int, den: int) -> str:
        return f"{num}/{den} = {100 * num / den:.1f}%" if den else "n/a"

    def pick(f: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        return [r for r in recs if f(r)]

    clean = pick(lambda r: r["exp"] == "guess" and r["noise"] is None)
    noisy = pick(lambda r: r["exp"] == "guess" and r["noise"] is not None)
    neg = pick(lambda r: r["exp"] != "guess")
    fouls = pick(lambda r: r["exp"].startswith("foul"))
    said_foul = pick(lambda r: r["got"].startswith("foul"))
    cmds = pick(lambda r: r["exp"].startswith(("command", "team")))
    not_cmds = pick(lambda r: not r["exp"].startswith(("command", "team")))

    def line(name: str, hits: int, total: int) -> None:
        if MARKDOWN:
            what, _, goal = name.partition("  ")
            print(f"| {what.strip()} | {goal.strip()} | {rate(hits, total)} |")
        else:
            print(f"  {name:33}: {rate(hits, total)}")

    if MARKDOWN:
        print(f"\n**targets{': ' + title if title else ''}**\n")
        print("| measure | target | measured |\n|---|---|---|")
    else:
        print(f"\ntargets{': ' + title if title else ''}")
    line("correct guesses, clean   >= 95%", sum(r["got"] == "guess" for r in clean), len(clean))
    line("correct guesses, noisy   >= 85%", sum(r["got"] == "guess" for r in noisy), len(noisy))
    line("false 'correct'          <=  1%", sum(r["got"] == "guess" for r in neg), len(neg))
    caught = sum(r["got"].startswith("foul") for r in fouls)
    line("foul recall              >= 90%", caught, len(fouls))
    right = sum(r["exp"].startswith("foul") for r in said_foul)
    line("foul precision           >= 95%", right, len(said_foul))
    line("foul kind right (recall)", sum(r["got"] == r["exp"] for r in fouls), len(fouls))
    line("commands recognised      >= 95%", sum(r["got"] == r["exp"] for r in cmds), len(cmds))
    invented = sum(r["got"].startswith(("command", "team")) for r in not_cmds)
    if MARKDOWN:
        print(f"| commands invented | 0 | {invented} of {len(not_cmds)} clips |")
    else:
        print(f"  commands invented        ==  0 : {invented} of {len(not_cmds)} clips")


def report(recs: list[dict[str, Any]], by_voice: bool) -> None:
    """Tables and targets per split; with ``by_voice`` also a confusion table per
    voice and per noise level within each split, and a one-line summary per
    (split, voice, noise)."""
    for split in ("tune", "heldout"):
        part = [r for r in recs if r["split"] == split]
        if not part:
            continue
        table([(r["exp"], r["got"]) for r in part], f"split {split}")
        targets(part, f"split {split}")
        if not by_voice:
            continue
        for voice in sorted({r["voice"] for r in part}):
            mine = [r for r in part if r["voice"] == voice]
            table([(r["exp"], r["got"]) for r in mine], f"split {split}, voice {voice}")
        for noise in sorted({r["noise"] or "clean" for r in part}):
            mine = [r for r in part if (r["noise"] or "clean") == noise]
            table([(r["exp"], r["got"]) for r in mine], f"split {split}, noise {noise}")
    if by_voice:
        summary(recs)


def summary(recs: list[dict[str, Any]]) -> None:
    """One line per (split, voice, noise): clips right, guesses, fouls, commands."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in recs:
        groups[(r["split"], r["voice"], r["noise"] or "clean")].append(r)
    if MARKDOWN:
        print("\n| split | voice | noise | all right | guesses | fouls caught | commands |")
        print("|---|---|---|---:|---:|---:|---:|")
    else:
        print("\nper split / voice / noise: right of clips (guesses, fouls caught, commands)")
    for (split, voice, noise), part in sorted(
        groups.items(), key=lambda kv: (kv[0][0] != "tune", kv[0])
    ):
        ok = sum(r["exp"] == r["got"] for r in part)
        g = [r for r in part if r["exp"] == "guess"]
        f = [r for r in part if r["exp"].startswith("foul")]
        c = [r for r in part if r["exp"].startswith(("command", "team"))]
        cells = (
            f"{ok}/{len(part)}",
            f"{sum(r['got'] == 'guess' for r in g)}/{len(g)}",
            f"{sum(r['got'].startswith('foul') for r in f)}/{len(f)}",
            f"{sum(r['got'] == r['exp'] for r in c)}/{len(c)}",
        )
        if MARKDOWN:
            print(f"| {split} | {voice} | {noise} | " + " | ".join(cells) + " |")
        else:
            print(
                f"  {split:8} {voice:18} {noise:7} all {cells[0]:>7} guess {cells[1]:>5}"
                f" foul {cells[2]:>5} cmd {cells[3]:>5}"
            )


def record(clip: dict[str, Any], js: list[Judgement], heard: str) -> dict[str, Any]:
    """What :func:`report` reads of one judged clip: expected and judged, and why."""
    return {
        "exp": clip["judgement"],
        "got": decisive(js),
        "voice": clip["voice"],
        "noise": clip["noise"],
        "split": clip["split"],
        "text": clip["text"],
        "file": clip["file"],
        "heard": heard,
        "why": "; ".join(j.evidence for j in js),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--manifest", type=Path, default=MANIFEST)
    ap.add_argument("--audio", action="store_true", help="also replay the WAVs (slow)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N clips (audio)")
    ap.add_argument("--errors", action="store_true", help="list wrong clips")
    ap.add_argument("--manifest-entries", action="store_true", help="entries from expect roles")
    ap.add_argument("--markdown", action="store_true", help="README-ready markdown tables")
    ap.add_argument(
        "--gain", type=float, default=0.0, help="scale the audio by this many dB (-20: quiet mic)"
    )
    ap.add_argument(
        "--reverb",
        type=float,
        default=0.0,
        metavar="RT60",
        help="play each clip in a synthetic room with this reverberation time (s, e.g. 0.5)",
    )
    ap.add_argument(
        "--pitch",
        default="",
        metavar="CENTS",
        help="raise each voice's pitch and formants this many cents with sox (600: near a "
        "child's; '300,-300': two shifts, the effect's artefacts alone)",
    )
    args = ap.parse_args(argv)
    global MARKDOWN
    MARKDOWN = args.markdown
    if not args.manifest.is_file():
        print(f"no fixture manifest at {args.manifest}: nothing to measure")
        return 0
    clips = json.loads(args.manifest.read_text())["clips"]
    phones = default_phone_lookup()
    entries = Entries(clips, args.manifest_entries, phones)
    referee = Referee.default(phones)

    # text level: one record per distinct (text, entry, phase): voices say the same text
    seen: dict[tuple[str, str, str], dict[str, Any]] = {}
    for clip in clips:
        key = (clip["text"], clip.get("entry") or "", clip["judgement"])
        if key in seen:
            continue
        js = judge_text(referee, clip, entries.get(clip.get("entry")))
        seen[key] = record(clip, js, clip["text"])
    text_recs = list(seen.values())
    print(f"== text level: {len(text_recs)} distinct labelled texts (perfect transcripts)")
    report(text_recs, by_voice=False)
    if args.errors:
        for r in text_recs:
            if r["exp"] != r["got"]:
                print(f"  WRONG {r['exp']:>16} -> {r['got']:<16} {r['text']!r}: {r['why']}")

    if not args.audio:
        return 0
    try:
        from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer
    except ImportError as exc:
        print(f"\n(audio level skipped: the pocketsphinx listening path is missing: {exc})")
        return 0
    recognizer = PocketSphinxRecognizer()
    audio_recs = []
    todo = clips[: args.limit] if args.limit else clips
    t0 = time.process_time()
    for clip in todo:
        js, heard = judge_audio(
            referee,
            recognizer,
            clip,
            entries.get(clip.get("entry")),
            args.manifest.parent,
            args.gain,
            args.reverb,
            args.pitch,
        )
        audio_recs.append(record(clip, js, heard))
    cpu = time.process_time() - t0
    print(f"\n== audio level: {len(audio_recs)} clips through pocketsphinx ({cpu:.0f} s CPU)")
    report(audio_recs, by_voice=True)
    if args.errors:
        for r in audio_recs:
            if r["exp"] != r["got"]:
                print(
                    f"  WRONG {r['exp']:>16} -> {r['got']:<16} {r['file']}: heard "
                    f"[{r['heard']}] {r['why']}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
