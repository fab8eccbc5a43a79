"""The describer's voice print: who said a short utterance, by its pitch.

One microphone hears describer and guessers alike, and a short utterance
holding the card's word is ambiguous in words alone: "a banana is yellow" is
a describer's slip, and "her prison is vetted" (a guesser's "a prison, is
that it?" as the recogniser wrote it) reads the same.  The voice tells them
apart when the two voices differ enough.

The print is the pitch of the turn's first utterance of at least
:data:`ENROL_SECONDS` that is no guess (the describer speaks first: the
clue), as the recogniser measured it (``RecognitionEvent.pitch``,
:func:`voice_host.audio.pitch.median_pitch`).  A guesser who spoke first
("okay, go on then") would leave the print in the wrong voice for the whole
turn, so the print keeps count: the seconds of the turn's long utterances in
its voice, and those in other voices.  The describer does most of a turn's
talking; when other voices have said :data:`SWITCH_SHARE` times as much and
:data:`SWITCH_SECONDS` more, in :data:`SWITCH_UTTERANCES` utterances or more,
theirs is the describer's (:class:`DescriberVoice`; in a timed turn only: in a
CONTROL round every team calls out).  An utterance the referee took for a
guesser's (a guess, a near miss, or one that opens as a guesser asks, "is it
a wallaby or a rabbit") teaches nothing.  A later short utterance whose
pitch is :data:`OTHER_VOICE_RATIO` times the describer's or more, either way
up, is another voice's: a guesser's (``speaker.attribute``).  The ratio is
set so that one speaker's own utterances stay inside it: the reader of the
LibriVox recordings in ``fixtures/audio/real/`` spans 77-122 Hz over 1.5 s
stretches (1.58 times), the synthetic voices up to 1.43 times (rms); a
man's voice and a woman's usually differ by 1.6 to 2 times (the fixtures'
rms and slt: 88 and 176 Hz), so mostly a man and a woman are told apart,
and two men or two women never.  Only the describer's verdict is ever
overturned, never a guess's: a voice that matches the describer's proves
nothing (a guesser may sound like the describer), while a clearly different
one is good evidence.

The same print hears a guesser cutting in as the clue ends, when one
microphone writes clue and guess as a single utterance ending with the
card's word (the shape of a describer's foul): each heard word carries its
own pitch (``HeardWord.pitch``), and when the answer and every word after
it lie that far from the describer's, on one side, they are another
voice's (:func:`answer_voice`; ``speaker.attribute`` says how near the
end they must be).  On real readings a speaker's single words lie within
1.6 times of their own median 187 of 192 times, and never both a word and
the rest of its utterance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from voice_host.referee.text import Token
from voice_host.referee.values import STEERED_SOURCES, Phase, Situation
from voice_host.speech.events import RecognitionEvent

#: An utterance's pitch at least this many times the describer's, or at most
#: its inverse, is another voice.
OTHER_VOICE_RATIO = 1.6
#: The describer's print comes from the turn's first utterance at least this
#: long (seconds): a clue, not a stray "okay" or a guesser's "go!".
ENROL_SECONDS = 1.0
#: Another voice becomes the print when its long utterances of the turn have
#: lasted this many times as long as the print's ...
SWITCH_SHARE = 2.0
#: ... and at least this many seconds longer ...
SWITCH_SECONDS = 2.0
#: ... in at least this many utterances: one long question after a short first
#: clue does not take the print.
SWITCH_UTTERANCES = 2
#: The phases with a describer to enrol.
DESCRIBED_PHASES = frozenset({Phase.TURN, Phase.CONTROL})


def other_voice(pitch: float | None, describer: float | None) -> str:
    """Why an utterance of ``pitch`` Hz is not in the describer's voice of
    ``describer`` Hz (a phrase for the evidence), or '' when it may be (or
    either is unknown)."""
    if not pitch or not describer:
        return ""
    ratio = max(pitch, describer) / min(pitch, describer)
    if ratio < OTHER_VOICE_RATIO:
        return ""
    return f"another voice (pitch {pitch:.0f} Hz, the describer's {describer:.0f} Hz)"


def answer_voice(toks: Sequence[Token], first: int, last: int, describer: float | None) -> str:
    """Why the answer ``toks[first..last]`` and every word after it are in
    another voice than the describer's of ``describer`` Hz (a phrase for the
    evidence), or '': a guesser cutting in as the clue ends, heard with it as
    one utterance.  Each word's own pitch (``Token.pitch``) counts where it
    was measured; the answer must have one, and all must lie
    :data:`OTHER_VOICE_RATIO` or more away from the describer's on the same
    side (one other voice, not a describer's pitch swinging about)."""
    if not describer or not any(t.pitch for t in toks[first : last + 1]):
        return ""
    pitches = sorted(t.pitch for t in toks[first:] if t.pitch)
    low, high = pitches[0], pitches[-1]
    if not (low >= describer * OTHER_VOICE_RATIO or high * OTHER_VOICE_RATIO <= describer):
        return ""
    pitch = pitches[len(pitches) // 2]
    return (
        f"another voice from the answer on (pitch {pitch:.0f} Hz,"
        f" the describer's {describer:.0f} Hz)"
    )


class DescriberVoice:
    """The describer's pitch for each turn: the voice of its first long utterance,
    until another voice clearly does most of the talking (see the module)."""

    def __init__(self) -> None:
        self._turn: float | None = None
        self._pitch: float | None = None
        # the turn's long utterances so far: (pitch, seconds)
        self._heard: list[tuple[float, float]] = []

    def reset(self) -> None:
        """Forget the print (a new game)."""
        self._turn, self._pitch, self._heard = None, None, []

    def situation(self, situation: Situation) -> Situation:
        """``situation`` with the describer's pitch of its turn, once learnt (a
        pitch the caller gave stands)."""
        if (
            situation.describer_pitch is not None
            or self._pitch is None
            or self._turn != situation.turn_start
            or situation.phase not in DESCRIBED_PHASES
        ):
            return situation
        return replace(situation, describer_pitch=self._pitch)

    def offer(
        self, events: Sequence[RecognitionEvent], situation: Situation, guessed: bool
    ) -> None:
        """Learn from a batch of ``events`` (one utterance's) when its transcript
        lasts at least :data:`ENROL_SECONDS`, within the turn, and no guess or
        near miss was judged in it (``guessed``): a guesser's "is it a wallaby or
        a kangaroo" is not the describer's voice.  The turn's first such
        utterance gives the print; later ones may move it to another voice."""
        if guessed or situation.phase not in DESCRIBED_PHASES:
            return
        if situation.describer_pitch is not None:
            return
        if self._turn != situation.turn_start:
            self._turn, self._pitch, self._heard = situation.turn_start, None, []
        for event in events:
            if event.kind != "final" or event.pitch is None or not event.words:
                continue
            if event.source in STEERED_SOURCES:
                continue  # its free transcript speaks for the utterance
            start, end = event.utterance or (event.start, event.end)
            if situation.turn_start is not None and start < situation.turn_start:
                continue
            if end - start >= ENROL_SECONDS:
                self._heard.append((event.pitch, end - start))
                self._pitch = self._print(situation.phase)
                return

    def _print(self, phase: Phase) -> float:
        """The print after the utterances heard: the current one (or the first
        utterance's pitch), unless the other voices' utterances, taken as one
        voice, outweigh it (:data:`SWITCH_SHARE`, :data:`SWITCH_SECONDS`,
        :data:`SWITCH_UTTERANCES`).  Only in a timed turn: in a CONTROL round
        every team calls out, and the callers may well outtalk the describer."""
        current = self._pitch if self._pitch is not None else self._heard[0][0]
        if phase is not Phase.TURN:
            return current
        mine = [(p, s) for p, s in self._heard if not other_voice(p, current)]
        theirs = [(p, s) for p, s in self._heard if other_voice(p, current)]
        said, other = sum(s for _, s in mine), sum(s for _, s in theirs)
        if (
            len(theirs) >= SWITCH_UTTERANCES
            and other >= SWITCH_SHARE * said
            and other - said >= SWITCH_SECONDS
        ):
            return _weighted_median(theirs)
        return current


def _weighted_median(heard: Sequence[tuple[float, float]]) -> float:
    """The pitch at the middle of ``heard``'s seconds, (pitch, seconds) pairs."""
    ordered = sorted(heard)
    half = sum(s for _, s in ordered) / 2
    so_far = 0.0
    for pitch, seconds in ordered:
        so_far += seconds
        if so_far >= half:
            return pitch
    return ordered[-1][0]
