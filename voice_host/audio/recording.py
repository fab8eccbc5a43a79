"""Recordings of any common format as a source of chunks.

A PCM WAV is read by :mod:`voice_host.audio.wav` (byte for byte when it is
already 16 kHz mono s16).  Everything else a player is likely to have, FLAC,
OGG Vorbis, Opus, MP3, AIFF, CAF and the compressed WAVs of telephony (mu-law,
A-law, ADPCM), is decoded by libsndfile through the ``soundfile`` package,
whose wheels bundle the library: public speech sets come as FLAC (LibriSpeech)
and MP3 (Common Voice), and a phone's recorder app often writes one of them.
Formats libsndfile cannot read (m4a/AAC above all) are refused in one line
that says how to convert them.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.audio.convert import StreamConverter
from voice_host.audio.wav import CHUNK_SECONDS, MAX_CHANNELS, NotPcmWavError, WavSource
from voice_host.errors import InputFileError

#: What the host reads, for messages.
READABLE = "WAV, FLAC, OGG (Vorbis, Opus), MP3 or AIFF"
#: How to make a WAV of anything else, for messages.
CONVERT_HINT = "convert it first, e.g. ffmpeg -i FILE -ac 1 -ar 16000 out.wav"


def _soundfile(path: Path) -> Any:
    """The ``soundfile`` module, or an input error saying it is missing."""
    try:
        import soundfile
    except (ImportError, OSError) as exc:  # OSError: the package without libsndfile
        raise InputFileError(
            f"{path}: not a PCM WAV, and reading other formats needs the soundfile package "
            f"with libsndfile ({exc}); {CONVERT_HINT}"
        ) from None
    return soundfile


class _NativeStderr:
    """What the C libraries write to file descriptor 2 while a file is opened.

    libsndfile's MP3 decoder (libmpg123) prints its own notes ("Note: Illegal
    Audio-MPEG-Header ...") straight to the process's standard error when it looks
    for audio in a file.  Opening a recording holds them back: they are dropped when
    the file is refused (the host's one-line error says it all) and passed on when
    it opens.  Only the opening is wrapped, before any listening thread runs.
    """

    def __init__(self) -> None:
        self.held = b""

    @contextlib.contextmanager
    def held_back(self) -> Iterator[None]:
        try:
            saved = os.dup(2)
        except OSError:  # no standard error to hold back
            yield
            return
        with tempfile.TemporaryFile() as sink:
            os.dup2(sink.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
                os.close(saved)
                sink.seek(0)
                self.held = sink.read()

    def pass_on(self) -> None:
        if self.held:
            with contextlib.suppress(OSError):
                os.write(2, self.held)


def _reason(exc: Exception) -> str:
    """libsndfile's complaint, on one line, without a trailing full stop."""
    text = " ".join(str(getattr(exc, "error_string", "") or exc).split())
    return text.rstrip(".") or type(exc).__name__


class DecodedSource:
    """Chunks of a recording libsndfile decodes, converted to 16 kHz mono s16
    about 100 ms at a time, as :class:`~voice_host.audio.wav.WavSource` does.

    Raises :class:`InputFileError` at construction when libsndfile cannot read
    the file, and while iterating when the file turns out damaged part way.
    """

    def __init__(self, path: Path | str, chunk_seconds: float = CHUNK_SECONDS) -> None:
        self.path = Path(path)
        self.chunk_seconds = chunk_seconds
        sf = _soundfile(self.path)
        native = _NativeStderr()
        try:
            with native.held_back():
                info = sf.info(str(self.path))
        except FileNotFoundError:
            raise InputFileError(f"{self.path}: no such audio file") from None
        except (sf.LibsndfileError, RuntimeError, TypeError, OSError) as exc:
            if self.path.is_file() and self.path.stat().st_size == 0:
                # no format to recognise, nothing to convert: a recording that never began
                raise InputFileError(f"{self.path}: the file is empty (0 bytes)") from None
            reason = _reason(exc)
            if self.path.is_file() and "does not exist" in reason:
                # what libsndfile says of a file its MP3 decoder finds no audio in
                reason = "no audio it can decode"
            raise InputFileError(
                f"{self.path}: cannot read this recording ({reason}); the host reads "
                f"{READABLE}: {CONVERT_HINT}"
            ) from None
        native.pass_on()
        self.rate = int(info.samplerate)
        self.channels = int(info.channels)
        self.frames = max(0, int(info.frames))
        if self.rate < 1000 or not 1 <= self.channels <= MAX_CHANNELS:
            raise InputFileError(
                f"{self.path}: unsupported recording: {self.channels} ch, {self.rate} Hz"
            )

    @property
    def duration(self) -> float:
        """Length of the recording in seconds (as its header gives it)."""
        return self.frames / self.rate

    def __iter__(self) -> Iterator[AudioChunk]:
        sf = _soundfile(self.path)
        frames_per_read = max(1, round(self.rate * self.chunk_seconds))
        converter = StreamConverter(self.rate, 4, self.channels, floating=True)
        produced = 0  # 16 kHz samples yielded so far: the audio clock
        try:
            with sf.SoundFile(str(self.path)) as handle:
                block = handle.read(frames_per_read, dtype="float32", always_2d=True)
                while len(block):
                    following = handle.read(frames_per_read, dtype="float32", always_2d=True)
                    raw = np.ascontiguousarray(block, dtype="<f4").tobytes()
                    samples = converter.convert(raw, last=not len(following))
                    block = following
                    if not samples:
                        continue
                    yield AudioChunk(samples, SAMPLE_RATE, produced / SAMPLE_RATE)
                    produced += len(samples) // 2
        except (sf.LibsndfileError, RuntimeError, OSError) as exc:
            raise InputFileError(
                f"{self.path}: damaged recording, unreadable after "
                f"{produced / SAMPLE_RATE:.1f} s ({_reason(exc)})"
            ) from None


#: A source of chunks from a file: the two kinds answer the same questions.
RecordingSource = WavSource | DecodedSource


def open_recording(path: Path | str, chunk_seconds: float = CHUNK_SECONDS) -> RecordingSource:
    """The recording at ``path`` as a source of 16 kHz mono s16 chunks.

    A PCM WAV is read directly; any other file, a compressed WAV included, is
    handed to libsndfile.  A WAV that is damaged (no data, a truncated header)
    is refused as such.
    """
    try:
        piped = stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        piped = False  # missing or unreadable: the source says which
    if piped:
        # the WAV reader's look at its header consumed the pipe's first bytes, and a
        # FLAC or OGG piped in was then "Format not recognised"; a WAV was refused so
        raise InputFileError(
            f"{path}: a pipe, not a file (a recording is read from a file: save it to one "
            "first, or give it as --audio /dev/stdin < FILE)"
        )
    try:
        return WavSource(path, chunk_seconds)
    except NotPcmWavError:
        return DecodedSource(path, chunk_seconds)


def read_recording(path: Path | str) -> AudioChunk:
    """The whole recording as one 16 kHz mono s16 chunk starting at audio time 0."""
    parts = [chunk.samples for chunk in open_recording(path)]
    return AudioChunk(b"".join(parts), SAMPLE_RATE, 0.0)
