"""Scripted sessions on audio time: keys and recorded voices, for tests and the benchmark.

A :class:`Replay` feeds the host 100 ms chunks of "microphone" audio on an
:class:`~voice_host.host.clock.AudioClock`.  The microphone hears the clips the
script places, and, with ``feedback``, the announcer's own rendered speech
(:class:`~voice_host.announce.RecordingAnnouncer` with a render folder) at the
times it is spoken, as a loudspeaker next to the microphone would.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from voice_host.announce.recording import RecordingAnnouncer
from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.audio.recording import read_recording
from voice_host.host.clock import AudioClock
from voice_host.host.core import Host
from voice_host.host.inputs import KeyPress, MicStatus

#: Seconds of audio per chunk fed to the host.
CHUNK_SECONDS = 0.1


@dataclass(frozen=True)
class Key:
    """Press ``key`` once the host has been quiet for ``wait`` seconds."""

    key: str
    wait: float = 0.5


@dataclass(frozen=True)
class Voice:
    """Play a recording into the microphone after ``wait`` quiet seconds, then let ``settle``
    seconds pass after it.  ``clip`` may depend on the game (the card being described)."""

    clip: Path | Callable[[Host], Path]
    wait: float = 1.5
    settle: float = 1.5


@dataclass(frozen=True)
class Announce:
    """Make the host announce ``text`` (only to prove the microphone gate); ``text`` may
    depend on the game (e.g. say the card being described)."""

    text: str | Callable[[Host], str]
    settle: float = 2.5
    """Seconds of audio let pass after the announcement has ended."""


@dataclass(frozen=True)
class Until:
    """Let audio time pass until ``done(host)``; fail after ``limit`` seconds."""

    done: Callable[[Host], bool]
    label: str
    limit: float = 120.0


@dataclass(frozen=True)
class Mic:
    """The microphone stops (``listening`` False) or comes back."""

    listening: bool
    message: str = "The microphone stopped."


Step = Key | Voice | Announce | Until | Mic


class ScriptError(AssertionError):
    """A scripted wait ran out: the game did not get where the script expected."""


@dataclass
class _Placed:
    start: float
    samples: np.ndarray[tuple[int], np.dtype[np.int16]]


@dataclass
class Replay:
    """Runs steps against ``host`` on ``clock``; ``feedback`` plays the host's voice into the
    microphone (needs a rendering :class:`RecordingAnnouncer` as ``announcer``)."""

    host: Host
    clock: AudioClock
    announcer: RecordingAnnouncer | None = None
    feedback: bool = False
    placed: list[_Placed] = field(default_factory=list)
    voice_ends: list[tuple[Path, float]] = field(default_factory=list)
    """Each voice clip played and the audio time it ended."""
    _cache: dict[Path, np.ndarray[tuple[int], np.dtype[np.int16]]] = field(default_factory=dict)
    _fed_announcements: int = 0
    _quiet_since: float = 0.0

    def run(self, steps: list[Step]) -> None:
        """Play every step in order."""
        for step in steps:
            if isinstance(step, Key):
                self._wait_quiet(step.wait)
                self.host.handle(KeyPress(step.key, self.clock.now()))
            elif isinstance(step, Voice):
                self._wait_quiet(step.wait)
                path = step.clip(self.host) if callable(step.clip) else step.clip
                samples = self._load(path)
                start = self.clock.now()
                self.placed.append(_Placed(start, samples))
                end = start + len(samples) / SAMPLE_RATE
                self.voice_ends.append((path, end))
                self._advance_until(end + step.settle)
            elif isinstance(step, Announce):
                self.host.say(step.text(self.host) if callable(step.text) else step.text)
                # from the end of the announcement, which may be queued behind others
                self._advance_until(self._planned_until() + step.settle)
            elif isinstance(step, Mic):
                self.host.handle(MicStatus(step.listening, step.message))
            else:
                limit = self.clock.now() + step.limit
                while not step.done(self.host):
                    if self.clock.now() > limit:
                        raise ScriptError(f"timed out waiting for {step.label}")
                    self._chunk()

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` of audio time pass."""
        self._advance_until(self.clock.now() + seconds)

    def _wait_quiet(self, wait: float) -> None:
        limit = self.clock.now() + 60.0
        while True:
            now = self.clock.now()
            if self.host.announcer.is_gated(now) or self._planned_until() > now:
                self._quiet_since = now
            elif now - self._quiet_since >= wait:
                return
            if now > limit:
                raise ScriptError("the host never fell quiet")
            self._chunk()

    def _planned_until(self) -> float:
        """When what the recording announcer has planned ends (now, if nothing is): texts
        queued behind another have not started yet, and do not gate until they do."""
        said = self.announcer.entries[-1:] if self.announcer is not None else ()
        return max([self.clock.now()] + [e.end for e in said])

    def _advance_until(self, t: float) -> None:
        while self.clock.now() < t - 1e-9:
            self._chunk()

    def _load(self, path: Path) -> np.ndarray[tuple[int], np.dtype[np.int16]]:
        if path not in self._cache:
            self._cache[path] = np.frombuffer(read_recording(path).samples, dtype=np.int16)
        return self._cache[path]

    def _chunk(self) -> None:
        start = self.clock.now()
        n = round(CHUNK_SECONDS * SAMPLE_RATE)
        if self.feedback and self.announcer is not None:
            entries = self.announcer.entries
            for entry in entries[self._fed_announcements :]:
                if entry.wav is not None:
                    self.placed.append(_Placed(entry.start, self._load(entry.wav)))
            self._fed_announcements = len(entries)
        mix = np.zeros(n, dtype=np.int32)
        first = round(start * SAMPLE_RATE)
        keep: list[_Placed] = []
        for sound in self.placed:
            offset = first - round(sound.start * SAMPLE_RATE)
            if offset >= len(sound.samples):
                continue
            keep.append(sound)
            if offset + n <= 0:
                continue
            lo, hi = max(0, offset), min(len(sound.samples), offset + n)
            mix[lo - offset : hi - offset] += sound.samples[lo:hi]
        self.placed = keep
        samples = np.clip(mix, -32768, 32767).astype("<i2").tobytes()
        chunk = AudioChunk(samples, SAMPLE_RATE, start)
        self.clock.advance_to(chunk.end_time)
        self.host.hear(chunk)
