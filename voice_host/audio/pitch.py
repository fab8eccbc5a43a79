"""The pitch of a voice: the median fundamental frequency of an utterance.

A describer's voice print (``voice_host/referee/voice.py``) is the pitch of
the turn's first utterance; a later short utterance in a clearly different
voice is a guesser's.  Pitch is the one trait of a voice that a second of
speech tells reliably without a trained model: a man's voice sits around
85-155 Hz and a woman's around 165-255 Hz, while the same speaker's
utterances vary by about a fifth (the real recordings in
``fixtures/audio/real/``: one reader's 1.5 s stretches gave 92-124 Hz).

The estimate is the textbook one: on 40 ms frames every 10 ms, the loudest
frames (within :data:`LOUD_SHARE` of the utterance's loud level) whose
normalised autocorrelation (divided by the window's own, as Boersma's method
does) peaks at :data:`MIN_PERIODICITY` or more at a lag
between :data:`MIN_HZ` and :data:`MAX_HZ` are voiced, and the pitch is the
median of their frequencies.  Too few voiced frames (a whisper, noise, a
clipped word) give no pitch rather than a guess.
"""

from __future__ import annotations

import numpy as np

from voice_host.audio.chunk import SAMPLE_RATE

#: Frame length and hop, samples (40 ms and 10 ms at 16 kHz): a frame holds
#: at least two periods of the lowest pitch.
FRAME = 640
HOP = 160
#: The pitch range looked at, Hz: below a deep man's voice, above a child's
#: speaking voice (a higher peak is more often an octave error than a voice).
MIN_HZ = 70.0
MAX_HZ = 400.0
#: A frame is voiced when its normalised autocorrelation peaks this high in the
#: pitch range (1.0: a perfect repeat; unvoiced sounds and noise stay lower).
MIN_PERIODICITY = 0.45
#: A peak at a shorter lag within this share of the highest one is the period
#: (the highest may be at twice the period: the voice read an octave down).
MULTIPLE_SHARE = 0.9
#: Frames quieter than this share of the utterance's loud level (its 90th
#: percentile frame RMS) are not looked at: pauses, breath, the room.
LOUD_SHARE = 0.3
#: Frames below this RMS (16-bit units, about -50 dBFS) are never voiced.
MIN_RMS = 100.0
#: At least this many voiced frames (0.1 s) make a pitch.
MIN_VOICED = 10


_WINDOW = np.hanning(FRAME)
#: The window's own autocorrelation (normalised): dividing by it undoes the
#: window's fall-off with lag, which favours short lags, so that a man's voice
#: is not read an octave up (Boersma 1993; kal16's "a photographer at
#: weddings" read 182 Hz without it, 94 Hz with it).
_WINDOW_AC = np.maximum(
    np.fft.irfft(np.abs(np.fft.rfft(_WINDOW, 2 * FRAME)) ** 2)[:FRAME] / float(np.sum(_WINDOW**2)),
    1e-3,
)


def median_pitch(samples: bytes, rate: int = SAMPLE_RATE) -> float | None:
    """The median pitch (Hz) of the voiced frames of 16-bit mono ``samples``
    at ``rate`` (16 kHz), or None when fewer than :data:`MIN_VOICED` are voiced."""
    if rate != SAMPLE_RATE:
        raise ValueError(f"pitch needs {SAMPLE_RATE} Hz audio, not {rate} Hz")
    x = np.frombuffer(samples[: len(samples) // 2 * 2], dtype="<i2").astype(np.float64)
    if len(x) < FRAME:
        return None
    starts = np.arange(0, len(x) - FRAME + 1, HOP)
    frames = np.stack([x[s : s + FRAME] for s in starts])
    frames -= frames.mean(axis=1, keepdims=True)
    rms = np.sqrt(np.mean(frames**2, axis=1))
    floor = max(float(np.percentile(rms, 90)) * LOUD_SHARE, MIN_RMS)
    loud = frames[rms >= floor]
    if len(loud) < MIN_VOICED:
        return None
    power = np.abs(np.fft.rfft(loud * _WINDOW, 2 * FRAME, axis=1)) ** 2
    ac = np.fft.irfft(power, axis=1)[:, :FRAME]
    energy = ac[:, :1]
    ac = np.divide(ac, energy, out=np.zeros_like(ac), where=energy > 0) / _WINDOW_AC
    lo, hi = int(SAMPLE_RATE / MAX_HZ), int(SAMPLE_RATE / MIN_HZ)
    band = ac[:, lo : hi + 1]
    found = [_period(row) for row in band]
    hz = [SAMPLE_RATE / (lo + lag) for lag, peak in found if peak >= MIN_PERIODICITY]
    if len(hz) < MIN_VOICED:
        return None
    return round(float(np.median(hz)), 1)


def _period(band: np.ndarray) -> tuple[int, float]:
    """The lag (index into ``band``) of a frame's period and its peak: the
    shortest lag whose peak is within :data:`MULTIPLE_SHARE` of the highest
    (the autocorrelation repeats at every multiple of the period, and once
    the window's fall-off is undone a multiple can top the period itself)."""
    best = float(band.max())
    k = int(np.argmax(band >= MULTIPLE_SHARE * best))
    while k + 1 < len(band) and band[k + 1] > band[k]:
        k += 1  # up to the top of that peak
    return k, float(band[k])
