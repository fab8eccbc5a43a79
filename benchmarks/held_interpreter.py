"""How long the listening thread keeps other Python threads waiting, above all while
the host speaks.

PortAudio calls the announcer's output callback and the microphone's input
callback on threads of its own, and both callbacks are Python functions: each
must take the interpreter lock before it runs.  Pure Python code hands the lock
over every 5 ms, but a long call into C that does not let go of it (pocketsphinx
decoding an utterance, loading a card's language model, rebuilding its searches
after new words) keeps every other thread waiting until it returns.  A callback
that waits longer than the sound system's buffer (tens of milliseconds by default
on Linux) makes the host's voice drop out, or loses the microphone's audio.

This replays ``host_latency.py --turn`` (turns of five clean guesses, each card
changed while the host announces the last "correct", as in a game) with a thread
beside it that asks for the lock every 5 ms, as a callback would, and prints how
long it waited: over the whole run, and while the listening thread was working on
audio heard during the host's own speech (the gate), when the announcer's
callback needs the lock to keep the host's voice going.  It also names the code
the listening thread was in after each wait of 200 ms or more.

    .venv/bin/python benchmarks/held_interpreter.py            # about 3 minutes
    .venv/bin/python benchmarks/held_interpreter.py --limit 20
"""

from __future__ import annotations

import argparse
import collections
import sys
import threading
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from host_latency import main_turns  # noqa: E402

from voice_host.audio.chunk import AudioChunk  # noqa: E402
from voice_host.host import listening  # noqa: E402
from voice_host.referee import Judgement  # noqa: E402

#: How often the ticking thread asks for the lock (a callback's period, about).
TICK = 0.005
#: A wait this long is reported with the code the listening thread was in.
NAMED = 0.2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="only the first N clips")
    args = parser.parse_args()

    gated: list[tuple[float, float]] = []  # perf_counter spans of work on gated chunks
    feed = listening.Listening.feed

    def timed_feed(self: listening.Listening, chunk: AudioChunk) -> list[Judgement]:
        during_speech = self.gated(chunk)
        began = time.perf_counter()
        try:
            return feed(self, chunk)
        finally:
            if during_speech:
                gated.append((began, time.perf_counter()))

    waits: list[tuple[float, float]] = []
    where: list[tuple[float, tuple[str, ...]]] = []
    stop = threading.Event()
    worker = threading.main_thread().ident

    def tick() -> None:
        last = time.perf_counter()
        while not stop.is_set():
            time.sleep(TICK)
            now = time.perf_counter()
            waits.append((last, now))
            if now - last >= NAMED and worker is not None:
                frame = sys._current_frames().get(worker)
                stack = traceback.extract_stack(frame)[-3:] if frame is not None else []
                names = tuple(f"{Path(f.filename).name}:{f.name}" for f in stack)
                where.append((now - last, names))
            last = now

    listening.Listening.feed = timed_feed  # type: ignore[method-assign]
    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        main_turns(_clips(), args.limit)
    finally:
        stop.set()
        ticker.join()
        listening.Listening.feed = feed  # type: ignore[method-assign]

    overall = sorted(b - a - TICK for a, b in waits)
    spans = sorted(gated)
    in_speech = sorted(b - a - TICK for a, b in waits if _overlaps(a, b, spans))
    print()
    _report("every tick", overall)
    _report("ticks while the listening thread worked during the host's speech", in_speech)
    print(f"  work on audio heard during the host's speech: {len(spans)} chunks")
    if where:
        print(f"  where the listening thread was after waits of {NAMED * 1000:.0f} ms or more:")
        counts = collections.Counter(names for _, names in where)
        for names, n in counts.most_common(6):
            longest = max(w for w, k in where if k == names)
            print(f"    {n:3d} (longest {longest * 1000:.0f} ms)  {' > '.join(names)}")
    return 0


def _clips() -> list[dict[str, object]]:
    import json

    manifest = json.loads((ROOT / "fixtures/audio/manifest.json").read_text(encoding="utf-8"))
    return [c for c in manifest["clips"] if c["judgement"] == "guess" and not c.get("noise")]


def _overlaps(a: float, b: float, spans: list[tuple[float, float]]) -> bool:
    """Whether the wait from ``a`` to ``b`` overlaps one of the sorted ``spans``."""
    import bisect

    i = bisect.bisect_left(spans, (b, b))
    return any(s < b and a < e for s, e in spans[max(0, i - 50) : i])


def _report(name: str, extra: list[float]) -> None:
    """One line: how long the ticks waited beyond their own sleep."""
    if not extra:
        print(f"{name}: none")
        return
    p = [extra[min(len(extra) - 1, int(q * len(extra)))] for q in (0.5, 0.99)]
    over = {ms: sum(x * 1000 > ms for x in extra) for ms in (35, 100, 200)}
    print(
        f"{name}: {len(extra)} ticks, waited beyond the tick p50 {p[0] * 1000:.0f} ms, "
        f"p99 {p[1] * 1000:.0f} ms, max {extra[-1] * 1000:.0f} ms; over 35 ms {over[35]}, "
        f"over 100 ms {over[100]}, over 200 ms {over[200]}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
