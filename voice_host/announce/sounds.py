"""The host's sounds that are not speech: the turn's time cues (dialogue.md 7).

At ten seconds left the host plays a short chime instead of saying "Ten seconds.", and
another as the turn ends, before "Time!".  The chime shuts the microphone while it
sounds, as the host's voice does, but for less time: 0.36 s and the gate's 0.5 s tail
against 0.85 s of "Ten seconds." and the tail, in the busiest part of a turn, when a
guess said over the cue is lost.

Why gated, measured by ``benchmarks/time_cues.py``: heard alone a chime never made a
judgement (0 of 504 replays, over silence, pink noise and chatter, at -20 to 0 dBFS),
but heard over a word (at the word's own level) it garbled it: 15 of 47 guesses lost
against 3 without it, and 7 of 111 clips judged anew, a guess taken for the describer's
foul (which ends the turn) or a foul for a guess.  The buzzer's chime comes after the
grace (R8), when the turn ends, not at the buzzer: a last guess may still be ending.

The sounds are made here from a few sine partials with a bell's soft attack and
exponential decay, at 1-2 kHz fundamentals, so there is no sound file to ship or
lose.  numpy is imported lazily.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from voice_host.announce.render import ENGINE_RATE, RenderedAudio

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

#: The ways a turn's time cues can sound: its chimes, or "Ten seconds." said.
TIME_CUES = ("chime", "words")
#: Peak level of a chime, as a fraction of full scale: about as loud as espeak-ng's
#: speech at full volume (its peaks reach 0.5-0.6), so the cue carries across the table.
CHIME_PEAK = 0.45
#: Seconds a note rises to its peak (a bell's strike without a click).
ATTACK = 0.004
#: Seconds over which a note is faded out where it is cut (no click).
RELEASE = 0.01
#: How fast a note dies away, per second (its level falls by e every 1/DECAY seconds).
DECAY = 9.0
#: The partials of a note: (multiple of the fundamental, relative level).
PARTIALS = ((1.0, 1.0), (2.0, 0.35), (3.0, 0.12))


@dataclass(frozen=True)
class Note:
    """One struck note of a chime."""

    frequency: float
    """Fundamental, in hertz."""
    start: float
    """Seconds from the chime's start."""
    length: float
    """Seconds it sounds before it is cut (it has died away by then)."""


class Sound(enum.Enum):
    """A cue the host plays: its notes, and the words that stand for it where no sound
    can play (printed, or said by a screen reader)."""

    TEN_SECONDS = "ten seconds"
    """Ten seconds of the turn left: two rising notes (E6, A6)."""
    TIME_UP = "time up"
    """The turn is over (after the buzzer's grace): three falling notes (A6, E6, C6)."""

    @property
    def words(self) -> str:
        """What stands for it where it cannot sound ("" for nothing: the buzzer's chime
        is followed at once by "Time!")."""
        return _WORDS[self]

    @property
    def label(self) -> str:
        """How it shows in the host's logs: ``(chime: ten seconds)``."""
        return f"(chime: {self.value})"

    @property
    def notes(self) -> tuple[Note, ...]:
        """The notes it is made of."""
        return _NOTES[self]

    @property
    def duration(self) -> float:
        """Seconds it lasts."""
        return max(n.start + n.length for n in self.notes)


_WORDS: dict[Sound, str] = {Sound.TEN_SECONDS: "Ten seconds.", Sound.TIME_UP: ""}

_NOTES: dict[Sound, tuple[Note, ...]] = {
    Sound.TEN_SECONDS: (Note(1318.5, 0.0, 0.13), Note(1760.0, 0.13, 0.23)),
    Sound.TIME_UP: (
        Note(1760.0, 0.0, 0.15),
        Note(1318.5, 0.15, 0.15),
        Note(1046.5, 0.30, 0.36),
    ),
}


def sound_samples(sound: Sound, rate: int, peak: float = CHIME_PEAK) -> NDArray[np.float64]:
    """``sound`` as float samples at ``rate`` (-1 to 1, peaking at ``peak``)."""
    import numpy as np

    total = np.zeros(round(sound.duration * rate) + 1)
    for note in sound.notes:
        t = np.arange(round(note.length * rate)) / rate
        fade = np.minimum(1.0, (note.length - t) / RELEASE)
        envelope = np.minimum(1.0, t / ATTACK) * np.exp(-t * DECAY) * fade
        wave = sum(level * np.sin(2 * np.pi * note.frequency * k * t) for k, level in PARTIALS)
        begin = round(note.start * rate)
        total[begin : begin + len(t)] += envelope * wave
    top = float(np.max(np.abs(total)))
    return total * (peak / top) if top > 0 else total


def render_sound(sound: Sound, rate: int = ENGINE_RATE, volume: float = 1.0) -> RenderedAudio:
    """``sound`` ready to play, 16-bit mono at ``rate``, scaled by ``volume`` (0 to 1) as
    the host's speech is."""
    import numpy as np

    samples = sound_samples(sound, rate) * volume
    pcm = np.round(np.clip(samples, -1.0, 1.0) * 32767).astype("<i2")
    return RenderedAudio(pcm.tobytes(), rate)
