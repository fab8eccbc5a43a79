"""Latency from the end of a spoken guess to the start of the host's "correct" announcement.

For every guess recording in ``fixtures/audio/manifest.json`` (judgement
``guess``), a host on audio time with the real pocketsphinx recogniser and
referee plays a turn whose card is that entry; the clip is played into the
microphone 1.5 s after the timer starts.  Latency = (audio time the "correct"
announcement starts - audio time the answer word ends, from the manifest) +
wall-clock seconds spent processing the chunk that produced the judgement (the
decoding a live host does after the audio arrives).  Clips the referee did not
count are reported as misses.  Target: p95 <= 0.5 s.  Printed over all guess
clips, then for the clean and the noisy ones apart (the fixtures' noise stops
0.3 s after the word, so the voice detector hears the end of a noisy guess
late).  The clean clips are padded with digital silence, which the voice
detector calls silence at once; ``--floor -60`` plays everything over a real
room's faint noise instead.

    .venv/bin/python benchmarks/host_latency.py [--limit N] [--each] [--noisy] [--floor DBFS]

``--each`` prints every clip's latency with, in brackets, the part spent
processing the chunk that produced the judgement.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from voice_host.announce.printed import PrintedAnnouncer  # noqa: E402
from voice_host.announce.recording import Announcement, RecordingAnnouncer  # noqa: E402
from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk  # noqa: E402
from voice_host.audio.wav import read_wav  # noqa: E402
from voice_host.deck.knowledge import make_entry  # noqa: E402
from voice_host.deck.model import CARD_FIELDS, Card, Deck  # noqa: E402
from voice_host.host.clock import AudioClock  # noqa: E402
from voice_host.host.core import Host, HostOptions  # noqa: E402
from voice_host.host.listening import Listening  # noqa: E402
from voice_host.referee import Referee  # noqa: E402
from voice_host.referee.phones import default_phone_lookup  # noqa: E402
from voice_host.rules import Game, load_board, parse_teams  # noqa: E402
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer  # noqa: E402

FIXTURES = ROOT / "fixtures" / "audio"
BOARD = '{"name": "bench", "segments": ["START", "Object", "Object", "FINISH"]}'
#: Samples per microphone block: the live microphone's block
#: (voice_host.audio.microphone.BLOCK_SECONDS, 0.05 s), so the wait for a block is modelled.
CHUNK = 800
#: Cards per turn in ``--turn`` mode.
TURN_CARDS = 5


class PrintedLog(PrintedAnnouncer):
    """The host's printed voice (no speech engine): it shuts the microphone for
    nothing, so a new card's context is built while the guessers go on.  Keeps
    what it printed, and when, as :attr:`entries`."""

    def __init__(self, clock: Callable[[], float]) -> None:
        super().__init__(clock=clock)
        self.entries: list[Announcement] = []

    def say(self, text: str, *, interrupt: bool = False) -> None:
        now = self.timeline.clock()
        self.entries.append(Announcement(text, now, now, None))


def started_host(
    entries: list[str],
    recognizer: PocketSphinxRecognizer,
    referee: Referee,
    timer: float,
    printed: bool = False,
) -> tuple[Host, AudioClock, RecordingAnnouncer | PrintedLog]:
    """A host on audio time with the real recogniser and referee, its deck one card
    per entry (the game deals them in its own order), started; ``printed``: its
    announcer prints (:class:`PrintedLog`)."""
    cards = tuple(
        Card(i + 1, {f: make_entry(text, f) for f in CARD_FIELDS}) for i, text in enumerate(entries)
    )
    game = Game(
        parse_teams("Red:Ann,Bob;Blue:Cat,Dan"),
        load_board(BOARD),
        rng=random.Random(1),
        deck_size=len(cards),
    )
    clock = AudioClock()
    announcer: RecordingAnnouncer | PrintedLog = (
        PrintedLog(clock.now) if printed else RecordingAnnouncer(None, clock=clock.now)
    )
    listening = Listening(recognizer, referee, announcer)
    referee.reset()
    host = Host(
        game,
        Deck("bench", cards),
        clock=clock,
        announcer=announcer,
        listening=listening,
        options=HostOptions(timer=timer),
    )
    host.start()
    return host, clock, announcer


def one(
    clip: dict[str, object],
    recognizer: PocketSphinxRecognizer,
    referee: Referee,
    floor_dbfs: float | None = None,
) -> tuple[float, float] | None:
    """The clip's latency and the part of it spent processing the judging chunk
    (wall clock), or None when the guess was not counted."""
    host, clock, announcer = started_host([str(clip["entry"])], recognizer, referee, 30.0)
    t = 0.0
    room = np.random.default_rng(7)  # the room's own faint noise, if any
    floor_rms = 0.0 if floor_dbfs is None else 10 ** (floor_dbfs / 20) * 32768
    samples = np.frombuffer(read_wav(FIXTURES / str(clip["file"])).samples, dtype=np.int16)
    clip_at: float | None = None
    word_end = max(float(e["end"]) for e in clip["expect"] if e["role"] == "answer")  # type: ignore[index, union-attr]
    while t < 60.0:
        if clip_at is None and host.timer.running and t - (host._turn_start or t) >= 1.5:
            clip_at = t
        block = np.zeros(CHUNK, dtype=np.int32)
        if floor_dbfs is not None:
            block += np.round(room.normal(0.0, floor_rms, CHUNK)).astype(np.int32)
        if clip_at is not None:
            first = round((t - clip_at) * SAMPLE_RATE)
            part = samples[first : first + CHUNK]
            block[: len(part)] += part
        block = np.clip(block, -32768, 32767)
        chunk = AudioChunk(block.astype("<i2").tobytes(), SAMPLE_RATE, t)
        clock.advance_to(chunk.end_time)
        began = time.perf_counter()
        host.hear(chunk)
        spent = time.perf_counter() - began
        t = chunk.end_time
        if host.game.state.correct:
            said = next(e for e in announcer.entries if "correct" in e.text)
            assert clip_at is not None
            return said.start - (clip_at + word_end) + spent, spent
        if clip_at is not None and t > clip_at + len(samples) / SAMPLE_RATE + 3.0:
            return None
    return None


def turn(
    clips: list[dict[str, object]],
    recognizer: PocketSphinxRecognizer,
    referee: Referee,
    gap: float,
    printed: bool = False,
) -> list[float | None]:
    """One long turn whose cards are the clips' entries: each clip is played
    ``gap`` seconds after the host finished announcing the last card's
    "correct" (a describer moving straight on), so every guess but the first
    follows a card change made while the host spoke.  Per clip: its latency, or
    None when its card was not counted (the turn then stops).  Latency here
    counts the backlog a live host works through: a chunk is processed once it
    has arrived and the chunk before it is done, so a second of CPU spent on a
    new card's context delays the guess after it."""
    entries = [str(c["entry"]) for c in clips]
    host, clock, announcer = started_host(entries, recognizer, referee, 60.0 * len(clips), printed)
    out: list[float | None] = []
    todo = list(clips)
    t = done_at = 0.0
    playing: np.ndarray | None = None
    clip_at = 0.0
    word_end = 0.0
    ready_at: float | None = None  # when the next clip may start
    while len(out) < len(clips) and t < 60.0 * len(clips):
        i = len(out)
        if playing is None and host.timer.running:
            if ready_at is None:
                ready_at = max(t, (host._turn_start or t) + 1.5)
            if announcer.gate_overlaps(t, t + CHUNK / SAMPLE_RATE):
                ready_at = None  # still speaking: wait for the end, then the gap
            elif t >= ready_at:
                # the game deals the cards in its own order: play the clip for this one
                clip = next(c for c in todo if str(c["entry"]) == host.entry_text())
                todo.remove(clip)
                playing = np.frombuffer(
                    read_wav(FIXTURES / str(clip["file"])).samples, dtype=np.int16
                )
                clip_at = t
                expect = clip["expect"]
                word_end = max(float(e["end"]) for e in expect if e["role"] == "answer")  # type: ignore[index, union-attr]
        block = np.zeros(CHUNK, dtype=np.int32)
        if playing is not None:
            first = round((t - clip_at) * SAMPLE_RATE)
            part = playing[first : first + CHUNK]
            block[: len(part)] += part
        chunk = AudioChunk(block.astype("<i2").tobytes(), SAMPLE_RATE, t)
        clock.advance_to(chunk.end_time)
        began = time.perf_counter()
        host.hear(chunk)
        # A live host works through a backlog: a chunk is processed when it has
        # arrived and the one before it is done.
        done_at = max(chunk.end_time, done_at) + time.perf_counter() - began
        t = chunk.end_time
        if playing is not None and host.game.state.correct > i:
            said = [e for e in announcer.entries if "correct" in e.text.lower()][i]
            out.append(said.start - chunk.end_time + done_at - (clip_at + word_end))
            playing, ready_at = None, t + gap
        elif playing is not None and t > clip_at + len(playing) / SAMPLE_RATE + 3.0:
            out.append(None)
            break
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="only the first N clips")
    parser.add_argument("--each", action="store_true", help="print every clip's latency")
    parser.add_argument("--noisy", action="store_true", help="only the clips with noise")
    parser.add_argument(
        "--floor",
        type=float,
        default=None,
        help="a room's faint white noise under everything, dBFS RMS (e.g. -60); "
        "by default the stream is digital silence between and around the clips",
    )
    parser.add_argument(
        "--turn",
        action="store_true",
        help="the clean guesses in turns of 5 cards, each clip 1 s after the host's "
        "'correct' for the last (the card changes while the host speaks)",
    )
    parser.add_argument(
        "--printed",
        action="store_true",
        help="with --turn: the host prints instead of speaking (no speech engine), so "
        "nothing it says shuts the microphone",
    )
    args = parser.parse_args()
    manifest = json.loads((FIXTURES / "manifest.json").read_text(encoding="utf-8"))
    clips = [c for c in manifest["clips"] if c["judgement"] == "guess"]
    if args.turn:
        return main_turns([c for c in clips if not c.get("noise")], args.limit, args.printed)
    if args.noisy:
        clips = [c for c in clips if c.get("noise")]
    if args.limit:
        clips = clips[: args.limit]
    recognizer = PocketSphinxRecognizer()
    # As the live host makes it (voice_host/host/live.py): the pronouncing
    # dictionary read before the game, not in the middle of its first guess.
    referee = Referee.default(default_phone_lookup().warm())
    latencies: list[float] = []
    processing: list[float] = []
    by_noise: dict[str, list[float]] = {"clean": [], "noisy": []}
    misses = 0
    for clip in clips:
        measured = one(clip, recognizer, referee, args.floor)
        if args.each:
            shown = "missed" if measured is None else "{:.3f} ({:.3f})".format(*measured)
            print(f"{shown:>15}  {clip['file']}")
        if measured is None:
            misses += 1
        else:
            latency, spent = measured
            processing.append(spent)
            latencies.append(latency)
            by_noise["noisy" if clip.get("noise") else "clean"].append(latency)
    print(f"guess clips: {len(clips)}  counted: {len(latencies)}  missed: {misses}")
    if latencies:
        q = statistics.quantiles(latencies, n=100, method="inclusive")
        print(
            f"latency end of word -> 'correct' starts (s): p50 {statistics.median(latencies):.3f}  "
            f"p95 {q[94]:.3f}  max {max(latencies):.3f}  (target p95 <= 0.5)"
        )
        for name, values in by_noise.items():
            print_group(name, values)
        print_group("of which processing the judging chunk", processing)
    return 0


def print_group(name: str, values: list[float]) -> None:
    """One indented line: how many were counted, p50, p95 and max (two or more)."""
    if len(values) >= 2:
        q = statistics.quantiles(values, n=100, method="inclusive")
        print(
            f"  {name}: {len(values)} counted, p50 {statistics.median(values):.3f}  "
            f"p95 {q[94]:.3f}  max {max(values):.3f}"
        )


def main_turns(clips: list[dict[str, object]], limit: int, printed: bool = False) -> int:
    """``--turn``: latency of the first guess of a turn against the guesses after
    it (whose card changed while the host announced the last "correct", or, with
    ``printed``, as it printed it)."""
    if limit:
        clips = clips[:limit]
    recognizer = PocketSphinxRecognizer()
    # As the live host makes it (voice_host/host/live.py): the pronouncing
    # dictionary read before the game, not in the middle of its first guess.
    referee = Referee.default(default_phone_lookup().warm())
    first: list[float] = []
    later: list[float] = []
    missed = unplayed = 0
    for k in range(0, len(clips), TURN_CARDS):
        group = clips[k : k + TURN_CARDS]
        got = turn(group, recognizer, referee, gap=1.0, printed=printed)
        missed += sum(x is None for x in got)
        unplayed += len(group) - len(got)
        for j, latency in enumerate(got):
            if latency is not None:
                (first if j == 0 else later).append(latency)
    print(
        f"turns of {TURN_CARDS} cards, {len(clips)} clean guess clips: "
        f"{len(first) + len(later)} counted, {missed} missed, {unplayed} not played "
        "(a turn stops at its first miss)"
    )
    print_group("first guess of a turn", first)
    print_group("guesses after a card change", later)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
