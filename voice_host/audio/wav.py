"""WAV files as a source of chunks, converted once to 16 kHz mono s16.

Reads the RIFF chunks itself because the standard ``wave`` module of Python
3.11 refuses WAVE_FORMAT_EXTENSIBLE files, which is how many programs write
24-bit and multichannel integer PCM, and floating-point files, which many
editors export.
"""

from __future__ import annotations

import errno
import io
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.audio.convert import StreamConverter
from voice_host.errors import InputFileError

_PCM = 0x0001
_FLOAT = 0x0003
_EXTENSIBLE = 0xFFFE
#: Seconds of audio per chunk a file source yields.
CHUNK_SECONDS = 0.1
#: Sample rates a WAV may have: from telephony's lowest to the highest an interface records
#: (a rate outside is a header that lies, and would be heard as next to nothing).
MIN_RATE, MAX_RATE = 1000, 768_000
#: The most channels a WAV may have (a studio's multitrack has 64; a header saying 200
#: lies, and its audio, mixed down, would be heard as a moment of noise).
MAX_CHANNELS = 64


@dataclass(frozen=True)
class WavFormat:
    """What a WAV file's ``fmt`` chunk says, and where its samples are."""

    rate: int
    """Samples per second per channel."""
    channels: int
    """Interleaved channels."""
    sample_width: int
    """Bytes per sample (1, 2, 3 or 4; 4 or 8 for floating point)."""
    data_offset: int
    """Byte offset of the first sample in the file."""
    data_size: int
    """Bytes of sample data."""
    floating: bool = False
    """IEEE floating-point samples (32 or 64 bits, full scale at 1.0)."""
    promised_size: int | None = None
    """Bytes of sample data the header promises (None: a streaming writer's 0 or
    0xFFFFFFFF); more than :attr:`data_size` when the file was cut short."""

    @property
    def promised_duration(self) -> float | None:
        """Seconds the header promises, when it is more than the file holds (a
        recording cut short: heard as far as it goes); else None."""
        if self.promised_size is None or self.promised_size <= self.data_size:
            return None
        return self.promised_size / (self.channels * self.sample_width) / self.rate

    @property
    def duration(self) -> float:
        """Length in seconds."""
        frame = self.channels * self.sample_width
        return self.data_size / frame / self.rate


class NotPcmWavError(InputFileError):
    """The file is no WAV at all, or a compressed one: another reader may know it
    (:func:`voice_host.audio.recording.open_recording`)."""


def _refuse(path: Path, why: str) -> InputFileError:
    return InputFileError(f"{path}: {why}")


def read_wav_format(path: Path, handle: BinaryIO) -> WavFormat:
    """Parse the RIFF header of an open file; raise :class:`InputFileError` if unusable."""
    head = handle.read(12)
    if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"WAVE":
        raise NotPcmWavError(f"{path}: not a WAV file (no RIFF/WAVE header)")
    fmt: tuple[int, int, int, int] | None = None
    while True:
        header = handle.read(8)
        if len(header) < 8:
            raise _refuse(path, "WAV file has no data chunk")
        kind, size = header[:4], struct.unpack("<I", header[4:])[0]
        if kind == b"fmt ":
            body = handle.read(size + (size & 1))
            if len(body) < 16:
                raise _refuse(path, "WAV file has a truncated fmt chunk")
            tag, channels, rate, _, _, bits = struct.unpack("<HHIIHH", body[:16])
            if tag == _EXTENSIBLE and len(body) >= 26:
                tag = struct.unpack("<H", body[24:26])[0]
            fmt = (tag, channels, rate, bits)
        elif kind == b"data":
            if fmt is None:
                raise _refuse(path, "WAV file has data before its fmt chunk")
            tag, channels, rate, bits = fmt
            if tag not in (_PCM, _FLOAT):
                raise NotPcmWavError(f"{path}: compressed WAV (format 0x{tag:04x})")
            widths = (32, 64) if tag == _FLOAT else (8, 16, 24, 32)
            if (
                bits not in widths
                or not 1 <= channels <= MAX_CHANNELS
                or not MIN_RATE <= rate <= MAX_RATE
            ):
                sort = "floating-point " if tag == _FLOAT else ""
                raise _refuse(
                    path, f"unsupported {sort}WAV layout: {bits}-bit, {channels} ch, {rate} Hz"
                )
            offset = handle.tell()
            handle.seek(0, 2)
            available = handle.tell() - offset
            handle.seek(offset)
            # Writers that stream (e.g. sox to a pipe) leave the size as 0 or 0xFFFFFFFF.
            data_size = available if size in (0, 0xFFFFFFFF) else min(size, available)
            if data_size < channels * (bits // 8):
                # (a file cut short keeps what it holds: heard as far as it goes)
                raise _refuse(path, "WAV file holds no audio (its data chunk is empty)")
            promised = None if size in (0, 0xFFFFFFFF) else size
            return WavFormat(rate, channels, bits // 8, offset, data_size, tag == _FLOAT, promised)
        else:
            handle.seek(size + (size & 1), 1)


class WavSource:
    """Chunks of a WAV file, converted to 16 kHz mono s16, about 100 ms each.

    Raises :class:`InputFileError` at construction for a missing file, a file
    that is not a WAV, or a compressed WAV (integer and floating-point PCM
    are read; :class:`NotPcmWavError` for the last two, which
    :func:`voice_host.audio.recording.open_recording` hands to libsndfile).
    """

    def __init__(self, path: Path | str, chunk_seconds: float = CHUNK_SECONDS) -> None:
        self.path = Path(path)
        self.chunk_seconds = chunk_seconds
        try:
            with self.path.open("rb") as handle:
                self.format = read_wav_format(self.path, handle)
        except FileNotFoundError:
            raise InputFileError(f"{self.path}: no such audio file") from None
        except IsADirectoryError:
            raise InputFileError(f"{self.path}: is a folder, not an audio file") from None
        except OSError as exc:
            # `--audio <(ffmpeg ...)`: "Illegal seek", or Python's "not seekable"
            if exc.errno == errno.ESPIPE or isinstance(exc, io.UnsupportedOperation):
                raise InputFileError(
                    f"{self.path}: a pipe, not a file (a recording is read from a file: "
                    "save it to one first)"
                ) from None
            raise InputFileError(f"{self.path}: cannot read: {exc.strerror or exc}") from None

    @property
    def duration(self) -> float:
        """Length of the recording in seconds."""
        return self.format.duration

    @property
    def rate(self) -> int:
        """The recording's own sample rate (before conversion)."""
        return self.format.rate

    def __iter__(self) -> Iterator[AudioChunk]:
        fmt = self.format
        frame_bytes = fmt.channels * fmt.sample_width
        frames_per_read = max(1, round(fmt.rate * self.chunk_seconds))
        produced = 0  # 16 kHz samples yielded so far: the audio clock
        remaining = fmt.data_size - fmt.data_size % frame_bytes
        converter = StreamConverter(fmt.rate, fmt.sample_width, fmt.channels, fmt.floating)
        with self.path.open("rb") as handle:
            handle.seek(fmt.data_offset)
            while remaining > 0:
                raw = handle.read(min(remaining, frames_per_read * frame_bytes))
                if not raw:
                    break
                remaining -= len(raw)
                raw = raw[: len(raw) - len(raw) % frame_bytes]
                samples = converter.convert(raw, last=remaining <= 0)
                if not samples:
                    continue
                yield AudioChunk(samples, SAMPLE_RATE, produced / SAMPLE_RATE)
                produced += len(samples) // 2


def read_wav(path: Path | str) -> AudioChunk:
    """The whole file as one 16 kHz mono s16 chunk starting at audio time 0."""
    parts = [chunk.samples for chunk in WavSource(path)]
    return AudioChunk(b"".join(parts), SAMPLE_RATE, 0.0)
