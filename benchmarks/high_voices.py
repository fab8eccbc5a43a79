"""The referee's audio fixtures said again in a higher voice: how pitch alone moves it.

    .venv/bin/python benchmarks/high_voices.py --f0 280     # about a child's pitch
    .venv/bin/python benchmarks/high_voices.py --f0 0       # the committed clips, for comparison

Every clean clip of the flite voices whose pitch flite can set (slt, a woman's
voice at about 175 Hz; awb and kal16, men's at about 120 and 95 Hz; rms keeps
its own) is synthesised again exactly as ``fixtures/audio/generate.py`` makes
it, but with flite's mean pitch target (``int_f0_target_mean``) at ``--f0`` Hz,
and judged as ``referee.py --audio`` judges the fixtures.  Only the pitch
moves: the voice's formants stay an adult's (a child's are higher too, which
no voice here can make without an effect's artefacts: ``referee.py --pitch``
shifts both with sox, and its ``300,-300`` control shows what the effect alone
costs).  ``--f0 0`` judges the committed clips of the same voices.

Both splits are reported as ``referee.py`` reports them, per voice.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "fixtures" / "audio"))

import generate  # noqa: E402
from referee import MANIFEST, Entries, judge_audio, record, report  # noqa: E402

from voice_host.referee import Referee  # noqa: E402
from voice_host.referee.phones import default_phone_lookup  # noqa: E402

#: The flite voices whose mean pitch flite's ``int_f0_target_mean`` sets.
VOICES = ("slt", "awb", "kal16")


def pitched_synth(f0: float) -> Any:
    """``generate._synth`` with flite's mean pitch at ``f0`` Hz."""

    def synth(voice: str, text: str, out: Path) -> None:
        cmd = ["flite", "-voice", voice, "--setf", f"int_f0_target_mean={f0:g}"]
        generate._run([*cmd, "-t", text, "-o", str(out)])

    return synth


def clips(f0: float, work: Path) -> list[dict[str, Any]]:
    """The clean clips of :data:`VOICES`, made at ``f0`` Hz under ``work`` (0: the
    committed ones), as manifest rows with ``file`` relative to their folder."""
    specs = [s for s in generate.build_specs() if s.voice in VOICES and not s.noise and s.pieces]
    if not f0:
        return [{**row, "folder": MANIFEST.parent} for row in _committed(specs)]
    generate._synth = pitched_synth(f0)
    builder = generate.Builder(work / "scratch")
    (work / "scratch").mkdir(parents=True, exist_ok=True)
    return [{**builder.build(s, work / "clips"), "folder": work / "clips"} for s in specs]


def _committed(specs: list[Any]) -> list[dict[str, Any]]:
    import json

    rows = {c["file"]: c for c in json.loads(MANIFEST.read_text())["clips"]}
    return [rows[s.file] for s in specs if s.file in rows]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--f0", type=float, default=280.0, help="mean pitch, Hz (0: committed)")
    ap.add_argument("--errors", action="store_true", help="list wrong clips")
    args = ap.parse_args(argv)
    from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer

    with tempfile.TemporaryDirectory(prefix="high_voices_") as tmp:
        t0 = time.monotonic()
        rows = clips(args.f0, Path(tmp))
        made = time.monotonic() - t0
        phones = default_phone_lookup()
        entries = Entries(rows, False, phones)
        referee = Referee.default(phones)
        recognizer = PocketSphinxRecognizer()
        recs = []
        for clip in rows:
            js, heard = judge_audio(
                referee, recognizer, clip, entries.get(clip.get("entry")), clip["folder"]
            )
            recs.append(record(clip, js, heard))
    what = f"mean pitch {args.f0:g} Hz" if args.f0 else "the committed clips"
    print(f"== {len(recs)} clean clips of {', '.join(VOICES)}, {what} (made in {made:.0f} s)")
    report(recs, by_voice=True)
    if args.errors:
        for r in recs:
            if r["exp"] != r["got"]:
                print(f"  WRONG {r['exp']:>16} -> {r['got']:<16} {r['file']}: heard [{r['heard']}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
