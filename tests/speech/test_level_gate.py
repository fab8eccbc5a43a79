"""The level gate: only frames that stand out from the room's level reach the voice detector."""

from __future__ import annotations

import numpy as np
import pytest

from voice_host.speech.level_gate import LevelGate, frame_level_db

FRAME = 480  # 30 ms at 16 kHz


def noise_frames(level_dbfs: float, count: int, seed: int = 1) -> list[bytes]:
    """Frames of white noise at ``level_dbfs`` RMS."""
    rng = np.random.default_rng(seed)
    rms = 10 ** (level_dbfs / 20) * 32768
    x = rng.standard_normal(FRAME * count) * rms
    data = np.clip(np.round(x), -32768, 32767).astype("<i2")
    return [data[i * FRAME : (i + 1) * FRAME].tobytes() for i in range(count)]


def passed(gate: LevelGate, frames: list[bytes]) -> int:
    return sum(gate.passes(f) for f in frames)


def test_frame_level_of_silence_and_full_scale() -> None:
    assert frame_level_db(bytes(2 * FRAME)) == 0.0
    square = np.tile(np.array([32767, -32767], dtype="<i2"), FRAME // 2).tobytes()
    assert frame_level_db(square) == pytest.approx(90.3, abs=0.1)
    assert frame_level_db(b"") == 0.0


def test_loud_steady_noise_is_gated_and_speech_above_it_passes() -> None:
    # A fan or music at -26 dBFS: the voice detector alone calls that speech.
    gate = LevelGate()
    room = noise_frames(-26, 400)
    # Learning that the room is busy takes up to BUSY_MIN_WINDOW (2 s, 67 frames).
    assert passed(gate, room[:200]) <= 70
    assert passed(gate, room[200:]) == 0
    assert gate.floor_db == pytest.approx(frame_level_db(room[-1]), abs=2.0)
    # Someone 15 dB louder than the room is heard.
    assert passed(gate, noise_frames(-11, 20, seed=2)) == 20


def test_a_quiet_room_lets_ordinary_speech_levels_through() -> None:
    gate = LevelGate()
    passed(gate, noise_frames(-65, 100))
    # Quiet speech (-45 dBFS) is far above a quiet room.
    assert passed(gate, noise_frames(-45, 20, seed=3)) == 20


def test_speech_only_a_little_above_the_room_is_gated() -> None:
    gate = LevelGate()
    passed(gate, noise_frames(-30, 200))
    assert passed(gate, noise_frames(-25, 20, seed=4)) == 0  # 5 dB: the room
    assert passed(gate, noise_frames(-16, 20, seed=5)) == 20  # 14 dB: a player


def test_a_describer_talking_on_without_a_pause_keeps_their_vowels() -> None:
    # Ten seconds of fluent talk in a quiet room, no pause at all: each 150 ms
    # syllable is a consonant (-35 dBFS) and a vowel (-20 dBFS).  The room's level
    # climbs to the consonants, but the vowels still pass, so no 0.3 s stretch is
    # all gated and the endpointer does not end the utterance mid-sentence.
    gate = LevelGate()
    passed(gate, noise_frames(-60, 50))
    decisions = []
    for k in range(66):
        syllable = noise_frames(-35, 2, seed=10 + k) + noise_frames(-20, 3, seed=200 + k)
        decisions += [gate.passes(f) for f in syllable]
    assert all(any(decisions[i : i + 10]) for i in range(len(decisions) - 10))
    assert sum(decisions) >= 3 * 66


def test_a_stream_that_begins_with_speech_learns_the_room_from_its_quiet_frames() -> None:
    gate = LevelGate(busy_min_window=0)  # the floor alone, without the busy wait
    assert passed(gate, noise_frames(-20, 5)) == 0  # nothing quieter heard yet
    passed(gate, noise_frames(-60, 3, seed=6))
    assert passed(gate, noise_frames(-20, 5, seed=7)) == 5


def test_margin_zero_turns_the_gate_off() -> None:
    gate = LevelGate(margin_db=0)
    assert passed(gate, noise_frames(-26, 100)) == 100


def test_gated_frames_become_silence_of_the_same_length() -> None:
    gate = LevelGate()
    room = noise_frames(-26, 100)
    out = [gate.gated(f) for f in room]
    assert all(len(o) == len(f) for o, f in zip(out, room, strict=True))
    assert out[-1] == bytes(2 * FRAME)
    loud = noise_frames(-6, 1, seed=8)[0]
    assert gate.gated(loud) == loud


def test_a_room_the_voice_detector_already_calls_quiet_is_not_gated() -> None:
    # Steady noise the detector hears as non-speech: its own threshold does the work,
    # and a quiet guess is not cut into pieces by the gate as well.
    gate = LevelGate()
    for f in noise_frames(-46, 200):
        gate.passes(f, sounds_like_speech=False)
    assert not gate.busy
    assert passed(gate, noise_frames(-40, 20, seed=9)) == 20  # only 6 dB above the room


def test_the_gate_acts_once_the_room_sounds_like_speech_most_of_the_time() -> None:
    gate = LevelGate()
    room = noise_frames(-26, 300)
    for i, f in enumerate(room[:100]):
        gate.passes(f, sounds_like_speech=i % 3 == 0)  # a third of the time
    assert not gate.busy
    for f in room[100:]:
        gate.passes(f, sounds_like_speech=True)  # chatter: speech all the time
    assert gate.busy
    assert not gate.passes(noise_frames(-26, 1, seed=11)[0], sounds_like_speech=True)


def test_a_quiet_stream_that_opens_with_a_guess_is_not_busy() -> None:
    # One second of speech at the very start is not a noisy room.
    gate = LevelGate()
    for f in noise_frames(-20, 33):
        gate.passes(f, sounds_like_speech=True)
    assert not gate.busy


def test_frames_just_after_a_loud_one_pass_as_the_voice_detectors_hangover() -> None:
    # A short dip inside a word or between two words of one sentence must not end
    # the utterance in a noisy room: 0.15 s (5 frames) after a loud frame pass.
    gate = LevelGate()
    passed(gate, noise_frames(-26, 200))
    assert gate.busy
    assert gate.passes(noise_frames(-6, 1, seed=12)[0])
    after = [gate.passes(f) for f in noise_frames(-26, 8, seed=13)]
    assert after == [True] * 5 + [False] * 3


def test_busy_and_floor_follow_the_window_as_frames_fall_out_of_it() -> None:
    # The gate keeps a running count of speech verdicts and works out the
    # room's level only when asked: both must match the window they stand for
    # (6 s = 200 frames; busy over at least 2 s = 67 frames).
    # Some frames are digital silence: equal levels must leave the window too.
    gate = LevelGate()
    frames = noise_frames(-40, 300)
    frames[50:90] = [bytes(len(frames[0]))] * 40
    rng = np.random.default_rng(7)
    verdicts = [bool(v) for v in rng.random(300) < 0.8]
    all_levels = [frame_level_db(f) for f in frames]
    for i, (frame, voiced) in enumerate(zip(frames, verdicts, strict=True)):
        gate.passes(frame, voiced)
        window = verdicts[max(0, i - 199) : i + 1]
        assert gate.busy == (sum(window) >= 0.8 * max(len(window), 67)), i
        levels = all_levels[max(0, i - 199) : i + 1]
        # warm-up (1 s = 33 frames): the quietest frame; then numpy's percentile, exactly
        expected = min(levels) if len(levels) < 33 else float(np.percentile(levels, 20.0))
        assert gate.floor_db == expected, i
