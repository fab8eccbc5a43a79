"""WAV files in every common integer layout come out as 16 kHz mono s16; others are refused."""

from __future__ import annotations

import contextlib
import itertools
import math
import struct
import wave
from pathlib import Path

import numpy as np
import pytest

from voice_host.audio.chunk import SAMPLE_RATE
from voice_host.audio.silence import SilenceSource
from voice_host.audio.wav import WavSource, read_wav
from voice_host.errors import InputFileError


def tone(rate: int, seconds: float, freq: float = 440.0, amp: float = 0.5) -> np.ndarray:
    t = np.arange(int(rate * seconds)) / rate
    return amp * np.sin(2 * math.pi * freq * t)


def encode(samples: np.ndarray, width: int) -> bytes:
    if width == 1:
        return (np.round(samples * 127) + 128).astype(np.uint8).tobytes()
    if width == 2:
        return np.round(samples * 32767).astype("<i2").tobytes()
    if width == 3:
        ints = np.round(samples * 8388607).astype("<i4")
        return b"".join(int(v).to_bytes(3, "little", signed=True) for v in ints)
    return np.round(samples * 2147483647).astype("<i4").tobytes()


def write_wav(path: Path, rate: int, width: int, channels: int, seconds: float = 0.5) -> None:
    mono = tone(rate, seconds)
    frames = np.repeat(mono, channels) if channels > 1 else mono
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(encode(frames, width))


def riff(fmt_body: bytes, data: bytes) -> bytes:
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt_body)) + fmt_body
    body += b"data" + struct.pack("<I", len(data)) + data
    return b"RIFF" + struct.pack("<I", len(body)) + body


@pytest.mark.parametrize(
    ("rate", "width", "channels"),
    [
        (16000, 2, 1),  # already the host's format
        (16000, 1, 1),  # 8-bit unsigned
        (44100, 2, 2),  # CD audio, stereo
        (48000, 3, 1),  # 24-bit
        (22050, 4, 2),  # 32-bit integer stereo at pyttsx3's rate
        (8000, 2, 1),  # telephone rate (upsampled)
    ],
)
def test_common_layouts_convert_to_16k_mono(
    tmp_path: Path, rate: int, width: int, channels: int
) -> None:
    path = tmp_path / "tone.wav"
    write_wav(path, rate, width, channels)
    whole = read_wav(path)
    assert whole.rate == SAMPLE_RATE
    assert abs(whole.duration - 0.5) < 0.002
    samples = np.frombuffer(whole.samples, dtype="<i2").astype(float) / 32768
    # The tone keeps its loudness (RMS of a 0.5-amplitude sine is 0.354).
    rms = float(np.sqrt(np.mean(samples[800:-800] ** 2)))
    assert 0.30 < rms < 0.40


def test_chunks_are_about_100_ms_and_stamped_in_audio_time(tmp_path: Path) -> None:
    path = tmp_path / "tone.wav"
    write_wav(path, 44100, 2, 2, seconds=1.05)
    chunks = list(WavSource(path))
    assert chunks[0].start_time == 0.0
    # the resampling filter holds back some milliseconds at the start and gives
    # them back over the next chunks (about 100 ms each); the whole recording
    # comes out, to the sample
    assert all(abs(c.duration - 0.1) < 0.005 for c in chunks[1:-1])
    assert sum(c.frames for c in chunks) == pytest.approx(1.05 * SAMPLE_RATE, abs=1)
    for before, after in itertools.pairwise(chunks):
        assert after.start_time == pytest.approx(before.end_time)


def test_a_44k_recording_read_in_chunks_is_seamless(tmp_path: Path) -> None:
    # Converting each 100 ms block on its own clicked at every block edge; the
    # stream keeps its filter state, so the chunks join into the one-shot result.
    path = tmp_path / "tone.wav"
    write_wav(path, 44100, 2, 1, seconds=1.0)
    joined = b"".join(c.samples for c in WavSource(path))
    whole = read_wav(path).samples
    a = np.frombuffer(joined, dtype="<i2").astype(float)
    b = np.frombuffer(whole, dtype="<i2").astype(float)
    assert len(a) == pytest.approx(len(b), abs=1)
    n = min(len(a), len(b))
    assert np.max(np.abs(a[800 : n - 800] - b[800 : n - 800])) < 100  # of 32768


def test_sound_above_8_khz_does_not_fold_into_the_speech_band(tmp_path: Path) -> None:
    # A 12 kHz whistle in a 48 kHz recording would alias to 4 kHz, in the middle
    # of speech; a band-limited resampler removes it instead.
    rate = 48000
    t = np.arange(rate) / rate
    path = tmp_path / "whistle.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes((0.5 * np.sin(2 * np.pi * 12000 * t) * 32767).astype("<i2").tobytes())
    out = np.frombuffer(b"".join(c.samples for c in WavSource(path)), dtype="<i2") / 32768
    assert float(np.sqrt(np.mean(out**2))) < 0.005  # the whistle was 0.35 RMS


@pytest.mark.parametrize(
    ("dtype", "rate", "channels"),
    [
        ("<f4", 44100, 2),  # 32-bit float, as editors export
        ("<f8", 48000, 1),  # 64-bit float
        ("<f4", 16000, 1),  # float at the host's own rate
    ],
)
def test_floating_point_wav_is_read(tmp_path: Path, dtype: str, rate: int, channels: int) -> None:
    mono = tone(rate, 0.5)
    frames = np.repeat(mono, channels) if channels > 1 else mono
    width = np.dtype(dtype).itemsize
    fmt = struct.pack(
        "<HHIIHH", 3, channels, rate, rate * channels * width, channels * width, 8 * width
    )
    path = tmp_path / "float.wav"
    path.write_bytes(riff(fmt, frames.astype(dtype).tobytes()))
    whole = read_wav(path)
    assert abs(whole.duration - 0.5) < 0.002
    samples = np.frombuffer(whole.samples, dtype="<i2").astype(float) / 32768
    # the tone keeps its loudness (RMS of a 0.5-amplitude sine is 0.354)
    assert 0.30 < float(np.sqrt(np.mean(samples[800:-800] ** 2))) < 0.40


def test_extensible_24_bit_wav_is_read(tmp_path: Path) -> None:
    data = encode(tone(48000, 0.2), 3)
    sub_pcm = b"\x01\x00\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"
    fmt = struct.pack("<HHIIHH", 0xFFFE, 1, 48000, 48000 * 3, 3, 24)
    fmt += struct.pack("<HHI", 22, 24, 4) + sub_pcm
    path = tmp_path / "ext.wav"
    path.write_bytes(riff(fmt, data))
    assert abs(read_wav(path).duration - 0.2) < 0.002


@pytest.mark.parametrize(
    ("make", "message"),
    [
        # IEEE float samples of a width no writer uses (16-bit float)
        (
            lambda: riff(struct.pack("<HHIIHH", 3, 1, 16000, 32000, 2, 16), bytes(400)),
            "unsupported floating-point WAV layout",
        ),
        # mu-law, a compressed format
        (
            lambda: riff(struct.pack("<HHIIHH", 7, 1, 8000, 8000, 1, 8), bytes(400)),
            "compressed",
        ),
        # not a RIFF file at all
        (lambda: b"ID3\x03 this is an mp3, honest" + bytes(100), "not a WAV"),
        # a RIFF header with no data chunk
        (lambda: riff(struct.pack("<HHIIHH", 1, 1, 16000, 32000, 2, 16), b"")[:36], "no data"),
        # a data chunk without a single sample (sox's output for zero seconds)
        (lambda: riff(struct.pack("<HHIIHH", 1, 1, 16000, 32000, 2, 16), b""), "holds no audio"),
        # ... or a header whose data never got written (a recorder that crashed)
        (
            lambda: riff(struct.pack("<HHIIHH", 1, 1, 16000, 32000, 2, 16), bytes(800))[:44],
            "holds no audio",
        ),
        # a header that lies about the rate: a second of audio would be heard as nothing
        (
            lambda: riff(struct.pack("<HHIIHH", 1, 1, 4_000_000_000, 32000, 2, 16), bytes(32000)),
            "unsupported WAV layout: 16-bit, 1 ch, 4000000000 Hz",
        ),
        # ... or about its channels: 200 mixed down are a moment of noise (session 61)
        (
            lambda: riff(struct.pack("<HHIIHH", 1, 200, 16000, 32000, 2, 16), bytes(32000)),
            "unsupported WAV layout: 16-bit, 200 ch, 16000 Hz",
        ),
    ],
)
def test_unusable_files_are_refused_clearly(tmp_path: Path, make: object, message: str) -> None:
    path = tmp_path / "bad.wav"
    assert callable(make)
    path.write_bytes(make())
    with pytest.raises(InputFileError, match=message):
        WavSource(path)


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="no such audio file"):
        WavSource(tmp_path / "nope.wav")


def test_silence_source_yields_zeros_in_order() -> None:
    chunks = list(SilenceSource(0.25))
    assert [c.frames for c in chunks] == [1600, 1600, 800]
    assert [c.start_time for c in chunks] == [0.0, 0.1, 0.2]
    assert all(set(c.samples) == {0} for c in chunks)


@pytest.mark.parametrize(("rate", "offset"), [(16000, 4000), (44100, -3000)])
def test_a_dc_offset_is_taken_off(tmp_path: Path, rate: int, offset: int) -> None:
    # "is it a kangaroo" with 3000 added was heard as nothing at all
    samples = np.round(tone(rate, 3.0) * 8000 + offset).astype("<i2")
    path = tmp_path / "dc.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.tobytes())
    out = np.frombuffer(read_wav(path).samples, dtype="<i2").astype(float)
    assert abs(out[SAMPLE_RATE:].mean()) < 100  # after the first second
    # the tone itself is kept (RMS of a 4000-amplitude sine: 2828)
    assert 2500 < out[SAMPLE_RATE:].std() < 3100


def test_recordings_without_an_offset_pass_untouched() -> None:
    # every fixture clip: the host's own format, byte for byte
    fixtures = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
    for path in sorted(fixtures.glob("*/*.wav")):
        with wave.open(str(path)) as w:
            raw = w.readframes(w.getnframes())
        assert b"".join(c.samples for c in WavSource(path)) == raw, path.name


def test_a_recording_given_through_a_pipe_is_said_to_be_one(tmp_path: Path) -> None:
    # `voice-host listen --audio <(ffmpeg ...)`: "cannot read: Illegal seek"
    import os
    import threading

    fifo = tmp_path / "clip.wav"
    os.mkfifo(fifo)
    header = b"RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00"

    def feed() -> None:
        with contextlib.suppress(OSError), fifo.open("wb") as out:
            out.write(header + bytes(200))

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    with pytest.raises(InputFileError, match=r"clip.wav: a pipe, not a file \(a recording"):
        WavSource(fifo)
    writer.join(5)
