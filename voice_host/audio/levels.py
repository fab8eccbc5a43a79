"""How loud the microphone is: one that hears nothing, one that hears the table
too faintly, one that overloads.

A laptop's microphone muted by its key, or turned right down in the mixer,
still delivers blocks on time, all zeros or nearly: no watchdog sees a stall,
and the host would listen to nothing for a whole game while the players
wonder why no guess counts.  At a table the microphone always hears
something: people, the host's own voice from the speaker, the room.  So many
seconds in a row without a block above a level only a dead input stays under
means the input is muted (dialogue.md 10: say so once).

Short of that, a microphone turned down (or a laptop far from the players)
hears speech only a little above its own hiss, and one turned up (or a guesser
shouting into it) clips the loudest words at full scale.  Both wreck what the
recogniser hears without any error to see (``benchmarks/levels.py`` measures
how much), so :class:`TableLevelWatch` follows the level of the audio heard in
play and says, once, when the table should move the laptop or change the gain.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

import numpy as np

from voice_host.audio.chunk import AudioChunk

#: A block whose RMS level stays below this (dBFS) is silence no room makes:
#: a laptop's microphone in a quiet room sits around -60 to -70 dBFS, a muted
#: one at digital zero or within a few steps of it (-90 dBFS and below).
SILENT_BELOW_DBFS = -75.0
#: Seconds of audio without one block above :data:`SILENT_BELOW_DBFS` before
#: the microphone counts as silent (the host speaks every few seconds of a
#: game, and its voice reaches the microphone from the speaker).
SILENT_SECONDS = 15.0

LevelNews = Literal["silent", "sound"]
TableNews = Literal["faint", "overload"]

#: A sample this close to full scale (of 32,767) counts as clipped.
CLIPPED_AT = 32_000
#: A recording with at least this share of its samples at full scale is
#: clipped.  Measured: "is it a kangaroo" turned up 9 dB, so that 3% of its
#: samples clip, was heard as "is n h can area with" (at 6 dB, 0.04%, it was
#: still heard right).
CLIPPED_SHARE = 0.001

#: Audio whose loudest block (about 100 ms) stays below this RMS level (dBFS)
#: is too faint to be heard well.  Measured by ``benchmarks/levels.py`` (the
#: clean fixtures over a laptop's hiss at -66 dBFS): with their loudest block
#: at -17 to -30 dBFS the recogniser and referee count 46-47 of 51 tune
#: guesses and 67-70 of 73 fouls, at -40 still 45 and 61, at -45 only 38 and
#: 47, at -50 29 and 21, with false "correct" rising from 0 to 9 of 138.
#: Speech from a metre or so at a built-in microphone's usual gain peaks far
#: above this (about -30 to -15 dBFS: a common figure, not measured here, as
#: this machine has no microphone).
FAINT_BELOW_DBFS = -42.0
#: The same line for a whole recording (``voice-host listen --audio``).
QUIET_BELOW_DBFS = FAINT_BELOW_DBFS
#: Seconds of audio heard in play (turns and CONTROL rounds, the host's own
#: speech left out) with no block above :data:`FAINT_BELOW_DBFS` before the
#: table counts as faint: more than one turn of the default 30 s, so a quiet
#: describer who is thinking is not told off.  The loudest voice at the table
#: decides: the advice is for a laptop too far from everyone, or turned down.
FAINT_SECONDS = 40.0
#: A block with at least this share of its samples at full scale overloads.
#: Measured by ``benchmarks/levels.py``: the fixtures raised until 0.2% of
#: their samples clip (loudest block -8 dBFS) are heard nearly as well as
#: made (45 of 51 guesses, 64 of 73 fouls), at 0.9% (-5) fouls fall to 63
#: (21 of 29 held out, from 26), at 2.8% (-2) guesses to 38.  Blocks with 5%
#: clipped come by the hundred from -5 up, a few dozen in 14 minutes at -8.
OVERLOAD_BLOCK_SHARE = 0.05
#: Overloaded moments (blocks at least :data:`OVERLOAD_GAP` seconds apart)
#: within :data:`OVERLOAD_WITHIN` seconds of play before the microphone counts
#: as overloading: one clap, cheer or shouted guess is not news, a gain that
#: clips every few words is.
OVERLOAD_MOMENTS = 4
OVERLOAD_GAP = 1.0
OVERLOAD_WITHIN = 60.0


def block_dbfs(values: np.ndarray) -> float:
    """The RMS level of 16-bit ``values`` in dBFS (-inf for digital silence)."""
    if not len(values):
        return -math.inf
    rms = float(np.sqrt(np.mean(values.astype(np.float64) ** 2))) / 32768.0
    return 20.0 * math.log10(rms) if rms > 0 else -math.inf


def chunk_dbfs(chunk: AudioChunk) -> float:
    """The RMS level of ``chunk`` in dBFS (-inf for digital silence)."""
    return block_dbfs(np.frombuffer(chunk.samples, dtype="<i2"))


def clipped_count(chunk: AudioChunk) -> int:
    """How many of ``chunk``'s samples are at full scale (:data:`CLIPPED_AT`)."""
    values = np.frombuffer(chunk.samples, dtype="<i2").astype(np.int32)
    return int(np.count_nonzero(np.abs(values) >= CLIPPED_AT))


def overloaded(chunk: AudioChunk) -> bool:
    """Whether :data:`OVERLOAD_BLOCK_SHARE` or more of ``chunk``'s samples are at full scale."""
    return clipped_count(chunk) >= OVERLOAD_BLOCK_SHARE * (len(chunk.samples) // 2)


class SilentInputWatch:
    """Says when the input has been silent for :data:`SILENT_SECONDS` of audio
    ("silent", once), and when sound comes back after that ("sound", once)."""

    def __init__(self, seconds: float = SILENT_SECONDS, below: float = SILENT_BELOW_DBFS) -> None:
        self.seconds = seconds
        self.below = below
        self._quiet_since: float | None = None
        self.silent = False
        """True from the "silent" news until the "sound" news."""

    def observe(self, chunk: AudioChunk) -> LevelNews | None:
        """Take one block; the news it brings, if any."""
        if chunk_dbfs(chunk) >= self.below:
            self._quiet_since = None
            if self.silent:
                self.silent = False
                return "sound"
            return None
        if self._quiet_since is None:
            self._quiet_since = chunk.start_time
        if not self.silent and chunk.end_time - self._quiet_since >= self.seconds:
            self.silent = True
            return "silent"
        return None


class LevelWatch:
    """Counts the samples at full scale in the chunks passed through it, and
    keeps the loudest chunk's level (for a whole recording)."""

    def __init__(self) -> None:
        self.samples = 0
        self.clipped = 0
        self.loudest = -math.inf
        """The loudest chunk's RMS level in dBFS (-inf for digital silence)."""

    def counting(self, chunks: Iterable[AudioChunk]) -> Iterator[AudioChunk]:
        """``chunks`` unchanged, measured on the way."""
        for chunk in chunks:
            self.samples += len(chunk.samples) // 2
            self.clipped += clipped_count(chunk)
            self.loudest = max(self.loudest, chunk_dbfs(chunk))
            yield chunk

    def share(self) -> float:
        """The share of samples counted that were at full scale."""
        return self.clipped / self.samples if self.samples else 0.0


class TableLevelWatch:
    """Follows the level of the audio heard in play and says, once each, when the
    table is too faint to be heard well ("faint") and when the microphone
    overloads ("overload").

    Only blocks heard in play count (``in_play``: a turn or a CONTROL round,
    the host's own speech left out by the caller): between turns the table is
    allowed to be silent, or to cheer.  Blocks of dead silence (below
    :data:`SILENT_BELOW_DBFS`) are :class:`SilentInputWatch`'s news, not this.
    """

    def __init__(
        self,
        faint_below: float = FAINT_BELOW_DBFS,
        faint_seconds: float = FAINT_SECONDS,
        moments: int = OVERLOAD_MOMENTS,
        within: float = OVERLOAD_WITHIN,
    ) -> None:
        self.faint_below = faint_below
        self.faint_seconds = faint_seconds
        self.moments = moments
        self.within = within
        self._faint_for = 0.0
        self._played = 0.0
        self._overloads: list[float] = []
        self.said: set[TableNews] = set()
        """The news given so far (each is given once)."""

    def observe(self, chunk: AudioChunk, in_play: bool) -> TableNews | None:
        """Take one block; the news it brings, if any."""
        if not in_play:
            return None
        level = chunk_dbfs(chunk)
        if level < SILENT_BELOW_DBFS:
            return None
        self._played += chunk.duration
        if overloaded(chunk):
            if not self._overloads or self._played - self._overloads[-1] >= OVERLOAD_GAP:
                self._overloads.append(self._played)
            self._overloads = [t for t in self._overloads if self._played - t <= self.within]
            if len(self._overloads) >= self.moments:
                return self._news("overload")
        if level >= self.faint_below:
            self._faint_for = 0.0
            return None
        self._faint_for += chunk.duration
        if self._faint_for >= self.faint_seconds:
            return self._news("faint")
        return None

    def observe_all(self, chunks: Iterable[AudioChunk], in_play: bool) -> list[TableNews]:
        """:meth:`observe` every chunk; the news they brought."""
        return [news for chunk in chunks if (news := self.observe(chunk, in_play))]

    def _news(self, news: TableNews) -> TableNews | None:
        if news in self.said:
            return None
        self.said.add(news)
        return news


LevelVerdict = Literal["good", "silent", "faint", "overload"]


@dataclass(frozen=True)
class LevelCheck:
    """What a few seconds of a microphone held up to the table sound like
    (``voice-host devices --check``)."""

    floor: float
    """The quiet between words: the 10th percentile of the blocks' levels (dBFS)."""
    loudest: float
    """The loudest block's level (dBFS RMS)."""
    overloaded: int
    """Blocks with :data:`OVERLOAD_BLOCK_SHARE` or more of their samples at full scale."""

    @classmethod
    def of(cls, chunks: Iterable[AudioChunk]) -> LevelCheck:
        """Measure ``chunks``."""
        levels: list[float] = []
        blocks = 0
        for chunk in chunks:
            levels.append(chunk_dbfs(chunk))
            blocks += overloaded(chunk)
        if not levels:
            return cls(-math.inf, -math.inf, 0)
        return cls(sorted(levels)[len(levels) // 10], max(levels), blocks)

    def verdict(self) -> LevelVerdict:
        """ "silent" (muted or dead), "overload" (clips more than once in a while),
        "faint" (nothing reaches :data:`FAINT_BELOW_DBFS`), else "good"."""
        if self.loudest < SILENT_BELOW_DBFS:
            return "silent"
        if self.overloaded >= 2:
            return "overload"
        if self.loudest < FAINT_BELOW_DBFS:
            return "faint"
        return "good"
