"""A level gate in front of the voice detector: speech must stand out from the room.

pocketsphinx's voice detector judges each 30 ms frame by its spectrum and an
absolute level.  In a room with steady sound at the level a laptop's
microphone gain gives it (a fan, music, the chatter of the other players),
nearly every frame sounds like speech, so an utterance never ends.  It was
cut only at the backend's ``MAX_UTTERANCE`` (10 s) and judged as one long
"sentence": a guess in it was a clue, and nothing closed early.  Measured
with ``benchmarks/room.py`` (guesses over a continuous noise bed at
-26 dBFS), 0 of 40 guesses were counted in chatter or pink noise at 15 dB SNR.

The gate acts only in such a room: while the voice detector alone has called
at least 80% of the last few seconds speech (:data:`BUSY_SHARE`).  It keeps
the room's level: a low percentile (:data:`FLOOR_PERCENTILE`)
of the frame levels over the last :data:`WINDOW` seconds.  A frame reaches the
voice detector only when it is at least :data:`MARGIN_DB` louder than that;
otherwise the detector gets digital silence, except for :data:`HANGOVER` after a
frame that stood out.  A player talking to the laptop is louder than the room,
and chatter across the room is not.  In a quiet room the gate does nothing.
The gate decides where utterances start and end; the recogniser still hears
every frame as it was.  The pocketsphinx backend keeps one gate for all its
streams (the room outlives the host's pauses to speak), closes nothing early
while it is busy, drops words none of whose frames stood out, and trims an
utterance to its speaker's frames (:func:`speaker_run`): chatter that stood out
here and there kept the voice detector in speech around a guess, and a guess
heard as a long utterance was judged a describer's clue.
"""

from __future__ import annotations

import bisect
import math
from collections import deque
from collections.abc import Sequence

import numpy as np

#: A frame passes when it is this many dB above the room's level.  Set with
#: ``benchmarks/room.py``: 10-15 dB were alike on babble and pink noise; 12 dB
#: lets the vowels of a guess 10 dB above the room through, and stops all but
#: about 1% of the frames of four-voice babble.
MARGIN_DB = 12.0
#: Seconds of frame levels the room's level is taken from.
WINDOW = 6.0
#: The room's level is this percentile of the frame levels in the window: low,
#: so that a describer who talks for several seconds does not raise it to speech
#: level and gate their own quieter syllables.
FLOOR_PERCENTILE = 20.0
#: Until this many seconds have been heard, the room's level is the quietest
#: frame so far (a stream may begin with speech).
WARM_UP = 1.0
#: The gate acts only while the voice detector alone has called at least this
#: share of the last :data:`WINDOW` seconds speech: a room that fools it.  In a
#: quieter room the detector's own level threshold already ends utterances, and
#: gating on top of it broke quiet guesses into pieces (``benchmarks/room.py``,
#: pink noise at -46 dBFS: 45% of guesses counted with the gate always on, 70%
#: with it off).  0.8: a loud bed or chatter keeps it busy 97-98% of the time, and a
#: quiet stream of guesses 4 s apart never (at 0.5 it was, briefly, and those
#: guesses lost the early close).
BUSY_SHARE = 0.8
#: Seconds the busy share is taken over at least (the start of a stream).
BUSY_MIN_WINDOW = 2.0
#: Seconds after a frame that stood out during which frames pass anyway: the
#: gate's own hangover, as the voice detector has one.  Without it a busy room's
#: gate ended utterances at any 0.3 s pause: "the teacher | marks homework" in
#: chatter became the guess "a teacher".
HANGOVER = 0.15
#: Seconds per frame the gate is fed (pocketsphinx's voice detector frame).
FRAME_SECONDS = 0.03


def frame_level_db(frame: bytes) -> float:
    """A frame's level: 10 log10 of its mean squared sample (16-bit samples), in dB.

    Digital silence is 0 dB; a full-scale sine about 87 dB.
    """
    samples = np.frombuffer(frame, dtype="<i2").astype(np.float64)
    if samples.size == 0:
        return 0.0
    return 10.0 * float(np.log10(float(np.mean(samples * samples)) + 1.0))


class LevelGate:
    """Passes the frames that stand out from the room's recent level (see the module).

    ``margin_db`` (None: :data:`MARGIN_DB`) <= 0 turns the gate off (every frame passes).
    """

    def __init__(
        self,
        margin_db: float | None = None,
        window: float = WINDOW,
        percentile: float = FLOOR_PERCENTILE,
        frame_seconds: float = FRAME_SECONDS,
        busy_min_window: float = BUSY_MIN_WINDOW,
    ) -> None:
        self.margin_db = MARGIN_DB if margin_db is None else margin_db
        self.percentile = percentile
        self._levels: deque[float] = deque(maxlen=max(1, round(window / frame_seconds)))
        self._sorted: list[float] = []  # the same levels, in order (for the percentile)
        self._voiced: deque[bool] = deque(maxlen=max(1, round(window / frame_seconds)))
        self._warm_frames = max(1, round(WARM_UP / frame_seconds))
        self._busy_min_frames = max(1, round(busy_min_window / frame_seconds))
        self._hangover_frames = round(HANGOVER / frame_seconds)
        self._since_loud = self._hangover_frames + 1  # frames since one stood out
        self._voiced_count = 0  # how many of ``_voiced`` are True
        self._floor_db: float | None = 0.0  # None: not yet worked out for the last frame

    @property
    def floor_db(self) -> float:
        """The room's level as of the last frame, dB (see :func:`frame_level_db`).

        Worked out when asked for (the gate asks only in a busy room), from the
        window's levels kept in order: numpy's percentile over the window cost
        3% of the recogniser's CPU in a busy room."""
        if self._floor_db is None:
            if len(self._levels) < self._warm_frames:
                self._floor_db = self._sorted[0]
            else:
                self._floor_db = _percentile(self._sorted, self.percentile)
        return self._floor_db

    @property
    def busy(self) -> bool:
        """Whether the voice detector alone called most of the recent window speech
        (so the gate acts)."""
        # Over at least BUSY_MIN_WINDOW: a quiet stream that opens with a guess is not busy.
        span = max(len(self._voiced), self._busy_min_frames)
        return self._voiced_count >= BUSY_SHARE * span

    def recent_levels(self, n: int) -> list[float]:
        """The levels (dB) of the last ``n`` frames taken, newest first (at most the
        last :data:`WINDOW` seconds)."""
        n = min(n, len(self._levels))
        return [self._levels[-i] for i in range(1, n + 1)]

    def passes(self, frame: bytes, sounds_like_speech: bool = True) -> bool:
        """Take the next frame and the voice detector's verdict on it alone; True when
        it may be judged as speech: the room is not busy, or the frame stands out."""
        level = frame_level_db(frame)
        if len(self._levels) == self._levels.maxlen:
            del self._sorted[bisect.bisect_left(self._sorted, self._levels[0])]
        self._levels.append(level)
        bisect.insort(self._sorted, level)
        self._floor_db = None
        if len(self._voiced) == self._voiced.maxlen and self._voiced[0]:
            self._voiced_count -= 1  # the oldest verdict falls out of the window
        self._voiced.append(sounds_like_speech)
        self._voiced_count += sounds_like_speech
        if self.margin_db <= 0 or not self.busy:
            self._since_loud = 0
            return True
        if level >= self.floor_db + self.margin_db:
            self._since_loud = 0
            return True
        self._since_loud += 1
        return self._since_loud <= self._hangover_frames

    def gated(self, frame: bytes, sounds_like_speech: bool = True) -> bytes:
        """The frame itself when it passes, else digital silence of the same length."""
        return frame if self.passes(frame, sounds_like_speech) else bytes(len(frame))


def speaker_run(levels: Sequence[float], margin_db: float) -> tuple[int, int]:
    """The indices (first, last) of an utterance's speaker's frames among its frame
    ``levels`` (dB, in order): the first and the last within ``margin_db`` of the
    loudest.  In a busy room the voice detector hears the chatter around a
    player's words as speech too, and an utterance runs on into it; a player
    talking to the laptop is louder than the chatter by the margin the gate asks
    of a frame to stand out.  (Cutting at a gap in the speaker's frames too cut
    "host, | correct" at its comma.)"""
    floor = max(levels) - margin_db
    loud = [i for i, level in enumerate(levels) if level >= floor]
    return loud[0], loud[-1]


def _percentile(ordered: list[float], q: float) -> float:
    """``numpy.percentile(ordered, q)`` (its default, linear method) of a sorted list."""
    at = q / 100.0 * (len(ordered) - 1)
    lo = math.floor(at)
    hi = min(lo + 1, len(ordered) - 1)
    a, b, t = ordered[lo], ordered[hi], at - lo
    # numpy's own interpolation, so the result is the same to the last bit
    diff = b - a
    return b - diff * (1.0 - t) if t >= 0.5 else a + diff * t
