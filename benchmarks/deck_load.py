"""Deck benchmark: load time of the built-in deck, build time, and the foul/innocent table.

Run: ``.venv/bin/python benchmarks/deck_load.py [--no-build]``.  Prints seconds
of wall-clock time (target: loading well under 1 s).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_in_fresh_process() -> float:
    """Seconds for ``load_builtin()`` in a new interpreter (imports included)."""
    code = (
        "import time; t = time.perf_counter(); "
        "from voice_host.deck.loader import load_builtin; d = load_builtin(); "
        "print(time.perf_counter() - t)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip())


def family_table() -> None:
    """Print how many known fouls and innocent look-alikes the rules flag."""
    from voice_host.deck.family import NO_EXCEPTIONS, word_family
    from voice_host.deck.knowledge import builtin_exceptions
    from voice_host.deck.lexicon import get_lexicon

    spec = importlib.util.spec_from_file_location(
        "family_cases", ROOT / "tests" / "deck" / "family_cases.py"
    )
    assert spec is not None and spec.loader is not None
    cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cases)
    lexicon = get_lexicon()
    for label, excs in (("rules only", NO_EXCEPTIONS), ("rules + reviewed", builtin_exceptions())):
        words = {e for e, _, _ in (*cases.FOULS, *cases.INNOCENTS)}
        families = {w: word_family(w, lexicon, excs) for w in words}
        flagged = [s for e, s, _ in cases.INNOCENTS if s in families[e]]
        missed = [s for e, s, _ in cases.FOULS if s not in families[e]]
        print(
            f"{label:<17} fouls caught {len(cases.FOULS) - len(missed)}/{len(cases.FOULS)}, "
            f"innocents flagged {len(flagged)}/{len(cases.INNOCENTS)}"
            f"{'  missed: ' + ', '.join(missed) if missed else ''}"
            f"{'  flagged: ' + ', '.join(flagged) if flagged else ''}"
        )


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--no-build", action="store_true", help="skip the (slow) build timing")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))

    loads = [load_in_fresh_process() for _ in range(3)]
    print(
        f"load built-in deck, fresh process: median {statistics.median(loads):.3f} s "
        f"(runs: {', '.join(f'{t:.3f}' for t in loads)})"
    )

    from voice_host.deck.built_format import parse_built
    from voice_host.deck.loader import BUILTIN_PATH

    data = BUILTIN_PATH.read_bytes()
    warm = []
    for _ in range(3):
        start = time.perf_counter()
        parse_built(data, str(BUILTIN_PATH))
        warm.append(time.perf_counter() - start)
    print(
        f"parse + validate built-in deck (file in memory): median {statistics.median(warm):.3f} s"
    )

    if not args.no_build:
        from voice_host.deck.build import build_bytes
        from voice_host.deck.lexicon import get_lexicon

        start = time.perf_counter()
        get_lexicon()
        lexicon_time = time.perf_counter() - start
        start = time.perf_counter()
        built = build_bytes()
        build_time = time.perf_counter() - start
        print(f"lexicon load (CMU + wordfreq): {lexicon_time:.2f} s")
        print(
            f"build 3,500 entries: {build_time:.1f} s, {len(built):,} bytes gzipped; "
            f"committed build {'up to date' if built == data else 'STALE'}"
        )

    family_table()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
