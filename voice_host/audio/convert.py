"""Format conversion at the boundary: any PCM layout in, 16 kHz mono s16 out.

Uses numpy (imported here, at the audio boundary, not by the game core).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from voice_host.audio.chunk import SAMPLE_RATE

#: A float array of samples in -1..1.
FloatSamples = npt.NDArray[np.float32]


def pcm_to_float(data: bytes, sample_width: int, channels: int) -> FloatSamples:
    """Decode interleaved integer PCM to mono float samples in -1..1.

    ``sample_width`` is bytes per sample: 1 (unsigned 8-bit, as WAV stores
    it), 2, 3 or 4 (signed little-endian).  Channels are averaged.
    """
    if sample_width == 1:
        ints = np.frombuffer(data, dtype=np.uint8).astype(np.float32) - 128.0
        scale = 128.0
    elif sample_width == 2:
        ints = np.frombuffer(data, dtype="<i2").astype(np.float32)
        scale = 32768.0
    elif sample_width == 3:
        raw = np.frombuffer(data, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        # Assemble the 24-bit value in the top of an int32 so the sign comes out right.
        ints = ((raw[:, 0] << 8) | (raw[:, 1] << 16) | (raw[:, 2] << 24)).astype(np.float32)
        ints /= 256.0
        scale = 8388608.0
    elif sample_width == 4:
        ints = np.frombuffer(data, dtype="<i4").astype(np.float32)
        scale = 2147483648.0
    else:
        raise ValueError(f"unsupported sample width: {sample_width} bytes")
    samples = ints / scale
    if channels > 1:
        usable = len(samples) - len(samples) % channels
        samples = samples[:usable].reshape(-1, channels).mean(axis=1)
    return samples.astype(np.float32)


def resample(samples: FloatSamples, rate: int, target: int = SAMPLE_RATE) -> FloatSamples:
    """Resample by linear interpolation (enough for speech recognition at 16 kHz).

    Going down, a moving average first takes off most of what would alias.
    """
    if rate == target or len(samples) == 0:
        return samples
    if rate > target:
        width = round(rate / target)
        if width > 1:
            kernel = np.ones(width, dtype=np.float32) / width
            samples = np.convolve(samples, kernel, mode="same").astype(np.float32)
    n_out = round(len(samples) * target / rate)
    positions = np.arange(n_out, dtype=np.float64) * (rate / target)
    out = np.interp(positions, np.arange(len(samples), dtype=np.float64), samples)
    return out.astype(np.float32)


def float_to_s16(samples: FloatSamples) -> bytes:
    """Encode float samples in -1..1 as signed 16-bit little-endian bytes (clipping)."""
    clipped = np.clip(np.round(samples * 32768.0), -32768, 32767)
    return clipped.astype("<i2").tobytes()


def to_s16_mono_16k(data: bytes, rate: int, sample_width: int, channels: int) -> bytes:
    """Convert any integer PCM to the host's format; a no-op copy when already right."""
    if rate == SAMPLE_RATE and sample_width == 2 and channels == 1:
        return bytes(data[: len(data) - len(data) % 2])
    return float_to_s16(resample(pcm_to_float(data, sample_width, channels), rate))
