"""How loud the microphone is: a microphone that hears nothing at all.

A laptop's microphone muted by its key, or turned right down in the mixer,
still delivers blocks on time, all zeros or nearly: no watchdog sees a stall,
and the host would listen to nothing for a whole game while the players
wonder why no guess counts.  At a table the microphone always hears
something: people, the host's own voice from the speaker, the room.  So many
seconds in a row without a block above a level only a dead input stays under
means the input is muted (dialogue.md 10: say so once).
"""

from __future__ import annotations

import math
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


def chunk_dbfs(chunk: AudioChunk) -> float:
    """The RMS level of ``chunk`` in dBFS (-inf for digital silence)."""
    values = np.frombuffer(chunk.samples, dtype="<i2").astype(np.float64)
    if not len(values):
        return -math.inf
    rms = float(np.sqrt(np.mean(values**2))) / 32768.0
    return 20.0 * math.log10(rms) if rms > 0 else -math.inf


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
