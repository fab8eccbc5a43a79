"""Recordings that are no PCM WAV (FLAC, OGG, Opus, MP3, AIFF, mu-law WAV) come
out as 16 kHz mono s16 through libsndfile; what it cannot read is refused in
one line."""

from __future__ import annotations

import itertools
import wave
from pathlib import Path

import numpy as np
import pytest

from voice_host.audio.chunk import SAMPLE_RATE
from voice_host.audio.recording import DecodedSource, open_recording, read_recording
from voice_host.audio.wav import NotPcmWavError, WavSource
from voice_host.errors import InputFileError

sf = pytest.importorskip("soundfile", reason="soundfile (libsndfile) is not installed")

CLIP = (
    Path(__file__).resolve().parents[2]
    / "fixtures"
    / "audio"
    / "slt"
    / "guess__is_it_a_kangaroo.wav"
)


def clip_samples() -> np.ndarray:
    with wave.open(str(CLIP)) as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")


def write(path: Path, rate: int = SAMPLE_RATE, **kwargs: str) -> np.ndarray:
    """Write the fixture clip to ``path`` (in the format its suffix names)."""
    samples = clip_samples().astype(np.float32) / 32768.0
    if rate != SAMPLE_RATE:
        import soxr

        samples = soxr.resample(samples, SAMPLE_RATE, rate)
    sf.write(str(path), samples, rate, **kwargs)
    return samples


def test_flac_is_read_sample_for_sample(tmp_path: Path) -> None:
    # lossless at the host's own rate: the same samples as the WAV
    path = tmp_path / "kangaroo.flac"
    write(path, subtype="PCM_16")
    source = open_recording(path)
    assert isinstance(source, DecodedSource)
    assert source.rate == SAMPLE_RATE
    got = np.frombuffer(read_recording(path).samples, dtype="<i2")
    assert np.array_equal(got, clip_samples())


@pytest.mark.parametrize(
    ("name", "rate", "options"),
    [
        ("kangaroo.ogg", 44100, {"format": "OGG", "subtype": "VORBIS"}),
        ("kangaroo.opus", 48000, {"format": "OGG", "subtype": "OPUS"}),
        ("kangaroo.mp3", 44100, {"format": "MP3"}),
        ("kangaroo.aiff", 22050, {"format": "AIFF", "subtype": "PCM_24"}),
        # the compressed WAVs of telephony: mu-law, A-law
        ("ulaw.wav", 8000, {"format": "WAV", "subtype": "ULAW"}),
        ("alaw.wav", 8000, {"format": "WAV", "subtype": "ALAW"}),
    ],
)
def test_other_formats_come_out_at_16_khz_with_their_speech(
    tmp_path: Path, name: str, rate: int, options: dict[str, str]
) -> None:
    path = tmp_path / name
    write(path, rate, **options)
    source = open_recording(path)
    assert isinstance(source, DecodedSource)
    assert source.rate == rate
    chunks = list(source)
    # about 100 ms a chunk (the resampler hands out a little more or less at
    # times), one after the other on the audio clock
    assert all(0.05 < c.duration < 0.15 for c in chunks[1:-1])
    assert abs(sum(c.duration for c in chunks[1:-1]) / len(chunks[1:-1]) - 0.1) < 0.01
    assert all(c.rate == SAMPLE_RATE for c in chunks)
    assert chunks[0].start_time == 0.0
    assert all(abs(b.start_time - a.end_time) < 1e-9 for a, b in itertools.pairwise(chunks))
    got = np.frombuffer(b"".join(c.samples for c in chunks), dtype="<i2").astype(float)
    want = clip_samples().astype(float)
    # lossy coders pad a little at the start (MP3's encoder delay)
    assert abs(len(got) - len(want)) / SAMPLE_RATE < 0.08
    # the speech is there, as loud as it was (within 1.5 dB)
    ratio = got.std() / want.std()
    assert 0.84 < ratio < 1.19
    # ... and it is the same speech: correlation at the best lag
    n = min(len(got), len(want)) - 2000
    best = max(float(np.corrcoef(got[lag : lag + n], want[:n])[0, 1]) for lag in range(0, 1600, 4))
    assert best > 0.8


def test_a_pcm_wav_stays_with_the_wav_reader() -> None:
    assert isinstance(open_recording(CLIP), WavSource)


def test_a_compressed_wav_is_no_pcm_wav_for_the_wav_reader(tmp_path: Path) -> None:
    path = tmp_path / "ulaw.wav"
    write(path, 8000, format="WAV", subtype="ULAW")
    with pytest.raises(NotPcmWavError, match="compressed"):
        WavSource(path)


@pytest.mark.parametrize("name", ["empty.mp3", "empty.wav", "empty.flac"])
def test_an_empty_file_is_said_to_be_empty(tmp_path: Path, name: str) -> None:
    # not "Format not recognised ... convert it first, e.g. ffmpeg": nothing to convert
    path = tmp_path / name
    path.write_bytes(b"")
    with pytest.raises(InputFileError, match=r"^.*: the file is empty \(0 bytes\)$"):
        open_recording(path)


@pytest.mark.parametrize(
    ("content", "name"),
    [
        (b"not audio at all", "notes.wav"),
        # an m4a (AAC), which libsndfile cannot decode
        (b"\x00\x00\x00\x20ftypM4A \x00\x00\x00\x00isomiso2" + bytes(3000), "memo.m4a"),
        # libsndfile says an MP3 it cannot decode "does not exist": it does
        (b"not audio at all\n" * 40, "notes.mp3"),
        (b"ID3\x03\x00\x00\x00\x00\x00\x00", "tag-only.mp3"),
    ],
)
def test_unreadable_files_are_refused_in_one_line_with_a_way_out(
    tmp_path: Path, content: bytes, name: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputFileError) as caught:
        open_recording(path)
    message = str(caught.value)
    assert "cannot read this recording" in message and "ffmpeg" in message
    assert "\n" not in message
    assert "does not exist" not in message


def test_the_mp3_decoders_own_notes_do_not_come_before_the_one_line_error(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # bytes with no MPEG header in them: libmpg123 writes "Note: Illegal
    # Audio-MPEG-Header ..." lines to the process's standard error as it looks
    path = tmp_path / "noise.mp3"
    path.write_bytes(bytes(range(1, 256)) * 20 + bytes(300))
    with pytest.raises(InputFileError, match="cannot read this recording"):
        open_recording(path)
    assert capfd.readouterr().err == ""


def test_an_mp3_still_opens_with_its_decoder_held_back(tmp_path: Path) -> None:
    path = tmp_path / "kangaroo.mp3"
    write(path, 44100, format="MP3")
    assert abs(open_recording(path).duration - len(clip_samples()) / SAMPLE_RATE) < 0.1


def test_a_damaged_recording_is_an_input_error_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "cut.flac"
    write(path, subtype="PCM_16")
    data = path.read_bytes()
    # a stretch of garbage in the middle of the stream
    middle = len(data) // 2
    path.write_bytes(data[:middle] + bytes(b ^ 0x5A for b in data[middle:]))
    source = open_recording(path)  # its header is fine
    with pytest.raises(InputFileError, match="damaged recording, unreadable after"):
        list(source)


def test_a_missing_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="no such audio file"):
        open_recording(tmp_path / "nope.flac")


def test_a_flac_piped_in_is_said_to_be_a_pipe_not_an_unknown_format(tmp_path: Path) -> None:
    # `cat k.flac | voice-host listen --audio /dev/stdin`: the WAV reader's look at the
    # header took the pipe's first bytes, and libsndfile then said "Format not
    # recognised" (session 54's audit)
    import os

    fifo = tmp_path / "clip.flac"
    os.mkfifo(fifo)
    with pytest.raises(InputFileError, match=r"clip.flac: a pipe, not a file \(a recording"):
        open_recording(fifo)  # refused before anything reads it: no writer needed
