"""Where utterances start and end, in audio time (pocketsphinx's VAD endpointer).

``Decoder.get_in_speech()`` always answers True in pocketsphinx 5, so the
utterance boundaries come from its separate ``Endpointer`` (WebRTC-style
voice activity detection over 30 ms frames).  It marks the end of speech
about ``window`` seconds late: that is the price of not cutting words.

Frames reach the voice detector through a level gate
(:mod:`voice_host.speech.level_gate`): in a noisy room only the frames that
stand out from the room's level count as speech, so utterances end there too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import numpy as np

from voice_host.speech.level_gate import LevelGate

#: Seconds of audio the endpointer looks at to decide a transition.
WINDOW = 0.3
#: Fraction of that window that must agree.
RATIO = 0.9


#: Standard deviation (16-bit steps) of the faint noise that stands in for a
#: frame of digital silence: about -80 dBFS, far below any room.
HUSH_STEPS = 3.0


@lru_cache(maxsize=4)
def _hush(n_bytes: int) -> bytes:
    """A fixed frame of faint noise, ``n_bytes`` long."""
    rng = np.random.default_rng(20261130)
    return np.round(rng.normal(0.0, HUSH_STEPS, n_bytes // 2)).astype("<i2").tobytes()


def _audible(frame: bytes) -> bytes:
    """The frame, or faint noise in place of digital silence, for the voice detectors.

    The WebRTC-style voice detector adapts its model of the background, and after
    a while of exact zeros (a muted microphone, an operating system's noise
    suppression, a file's padding, the level gate's own silence) it can call
    every frame of them speech: an utterance then never ended.  Measured with
    ``benchmarks/room.py`` (guesses 4 s apart in digital silence): 5 of 43
    guesses were lost that way, judged after their card had gone, or not at all
    (33 -> 38 counted with the faint noise).  A real room's
    faint noise never trips it.  Calling zeros silence without asking the
    detector was tried: it cut "host, pause" at the comma of an espeak clip
    (exact zeros for 0.18 s), which no real microphone gives; with faint noise
    the detector hears what it would hear in a quiet room.
    """
    return _hush(len(frame)) if _is_silent(frame) else frame


def _is_silent(frame: bytes) -> bool:
    """Whether the frame is digital silence (every sample zero)."""
    return frame.count(0) == len(frame)


@dataclass(frozen=True)
class SpeechBoundary:
    """Speech started or ended."""

    kind: Literal["start", "end"]
    """``start`` or ``end``."""
    time: float
    """Seconds of audio time of the boundary (not of its detection)."""


class SpeechEndpointer:
    """Feeds fixed frames to pocketsphinx's ``Endpointer``; reports boundaries.

    ``start_time`` is the audio time of the first frame fed.  ``gate`` decides
    which frames are loud enough to be judged at all (None: a default
    :class:`~voice_host.speech.level_gate.LevelGate`).
    """

    def __init__(
        self,
        window: float = WINDOW,
        ratio: float = RATIO,
        start_time: float = 0.0,
        gate: LevelGate | None = None,
    ):
        from pocketsphinx import Endpointer, Vad

        self._ep: Any = Endpointer(window=window, ratio=ratio)
        self.frame_bytes: int = int(self._ep.frame_bytes)
        """Bytes every call to :meth:`feed` must pass."""
        self.start_time = start_time
        self.in_speech = False
        """Whether speech is going on (as of the last frame)."""
        self._vad: Any = Vad(Vad.LOOSE)
        self.gate = LevelGate() if gate is None else gate
        """The level gate in front of the voice detector."""
        self.frame_is_speech = False
        """Whether the last frame alone sounded like speech (the same voice detector
        in the same LOOSE mode, without the window)."""
        self.frame_stands_out = True
        """Whether the last frame passed the level gate (always, in a quiet room)."""

    def feed(self, frame: bytes) -> SpeechBoundary | None:
        """Process one frame of exactly :attr:`frame_bytes`; a boundary if one was crossed."""
        audible = _audible(frame)
        raw_speech = bool(self._vad.is_speech(audible))
        gated = self.gate.gated(frame, raw_speech)
        self._ep.process(audible if gated is frame else _audible(gated))
        self.frame_is_speech = raw_speech if gated is frame else False
        self.frame_stands_out = gated is frame
        now = bool(self._ep.in_speech)
        if now == self.in_speech:
            return None
        self.in_speech = now
        if now:
            return SpeechBoundary("start", self.start_time + float(self._ep.speech_start))
        return SpeechBoundary("end", self.start_time + float(self._ep.speech_end))

    def finish(self, tail: bytes = b"") -> SpeechBoundary | None:
        """End of input: close an utterance in progress (``tail`` = leftover < one frame)."""
        if not self.in_speech:
            return None
        # end_stream refuses an empty buffer: give it a frame of silence instead.
        self._ep.end_stream(tail or bytes(self.frame_bytes))
        self.in_speech = False
        return SpeechBoundary("end", self.start_time + float(self._ep.speech_end))
