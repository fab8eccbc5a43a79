"""The microphone path: the gate, the recogniser and the referee, chunk by chunk.

Not hearing itself (speech.md): microphone chunks that touch the announcer's
speech plus its tail are dropped before the recogniser; the utterance in
progress when the gate shuts is flushed first (so speech before the host's
voice is still judged), and the recogniser restarts clean when it opens again.
A new card's listening context is taken while the gate is shut: the host has
just announced the change, and the recogniser is idle.  While the host's voice, or
the describer's private card voice, has something queued that has not started
sounding, the change waits for it (at most :data:`VOICE_WAIT`): building a context
holds Python's lock in pocketsphinx for up to ~0.6 s, and built in the moment
between a "correct" and its announcement it held up that announcement's rendering
as long (``live_room.py``, session 59).  Before it first
listens, the recogniser learns what every context the game may need holds
(:meth:`Listening.prepare`), so that a new card costs it little.
The referee is also told the host's speech intervals and last announcement, a
second line of defence: they are read from the announcer when each batch is
judged (not when the game last changed), so a transcript repeating what the
host has just said, within 3 s of it, is ignored even when the announcement
finished after the last change.  ``gate=False`` turns all of that off (only the
end-to-end test does, to prove the gate is what keeps the host deaf to itself).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterable

from voice_host.announce.protocol import Announcer
from voice_host.audio.chunk import AudioChunk
from voice_host.referee import Referee
from voice_host.referee.values import Judgement, Phase, Situation
from voice_host.speech.events import ListenContext, RecognitionEvent, Recognizer

#: Host speech intervals the referee is told about (the recent ones are all it needs).
SPEECH_HISTORY = 20
#: Judgements kept for the host at most (it takes each batch within a moment).
UNTAKEN = 256
#: Seconds (host's clock) a new context waits for the host's voice to start when the
#: host has something to say: its rendering takes 0.01-0.04 s and the sound system's
#: start a little more; a voice that never starts (a device hanging) waits no longer.
VOICE_WAIT = 1.0


class Listening:
    """Turns microphone chunks into judgements, never judging the host's own voice.

    ``announcer`` is the host's public voice (whose speech closes the gate).
    The host calls :meth:`update` whenever the situation changes; :meth:`feed`
    and :meth:`flush` run on the listening thread (live) or the replay's.
    """

    def __init__(
        self,
        recognizer: Recognizer,
        referee: Referee,
        announcer: Announcer | None,
        *,
        gate: bool = True,
    ) -> None:
        self.recognizer = recognizer
        self.referee = referee
        self.announcer = announcer
        self.gate = gate
        """Whether the microphone gate is on (always, except to prove it works)."""
        self.private: Announcer | None = None
        """The describer's private card voice, if any (set by the host): a new context
        waits for what it has queued to start, as for :attr:`announcer`."""
        self._lock = threading.Lock()
        # One recogniser, used by the listening thread and (at the buzzer) the host's.
        self._engine = threading.Lock()
        self._context = ListenContext()
        self._situation = Situation()
        self._active: ListenContext | None = None
        self._ahead: tuple[ListenContext, ...] = ()
        self._gated = False
        # When (host's clock) a new context first waited for the host's voice.
        self._waiting_since: float | None = None
        self.events: list[RecognitionEvent] = []
        """Recent recogniser events (for logs and tests; the last 200)."""
        # Judgements :meth:`feed` returned that the host has not taken yet (on their way
        # through the input queue), and those :meth:`flush` handed it before their
        # batch arrived (skipped then by :meth:`claim`): each is acted on once.
        self._fresh: list[Judgement] = []
        self._taken: list[Judgement] = []
        self.dropped_seconds = 0.0
        """Seconds of microphone audio dropped by the gate so far."""
        self.fed_until = 0.0
        """The end (host's clock) of the latest audio fed: at the buzzer the host waits
        for the audio up to its grace to be fed before it ends the turn."""

    def update(self, context: ListenContext, situation: Situation) -> None:
        """What to listen for and the situation to judge in (thread-safe)."""
        with self._lock:
            self._context = context
            self._situation = situation

    def update_situation(self, situation: Situation) -> None:
        """The situation to judge in alone, the context unchanged (thread-safe): the
        turn's timer paused or going on moves its buzzer, with no change to the game."""
        with self._lock:
            self._situation = situation

    def prepare(self, contexts: Iterable[ListenContext]) -> None:
        """Contexts the game may listen for later (every card's): the recogniser
        learns them on the listening thread before it next takes a context."""
        ahead = tuple(contexts)
        with self._lock:
            self._ahead = ahead

    def _now(self) -> tuple[ListenContext, Situation]:
        with self._lock:
            return self._context, self._situation

    def in_play(self) -> bool:
        """Whether the game is listening for guesses now (a timed turn under way,
        or a CONTROL round): when the table is sure to be talking."""
        _, situation = self._now()
        return situation.entry is not None and situation.phase in (Phase.TURN, Phase.CONTROL)

    def gated(self, chunk: AudioChunk) -> bool:
        """Whether ``chunk`` falls in the host's own speech (plus tail)."""
        if not self.gate or self.announcer is None:
            return False
        return self.announcer.gate_overlaps(chunk.start_time, chunk.end_time)

    def feed(self, chunk: AudioChunk) -> list[Judgement]:
        """Judge one chunk of microphone audio (times in seconds on the host's clock).

        The judgements returned are also kept until the host takes them, by
        :meth:`claim` as their batch arrives or by :meth:`flush` at the buzzer."""
        with self._engine:
            judged = self._feed(chunk)
            if judged:
                with self._lock:
                    self._fresh = [*self._fresh[-UNTAKEN:], *judged]
            self.fed_until = max(self.fed_until, chunk.end_time)
            return judged

    def claim(self, judgements: Iterable[Judgement]) -> list[Judgement]:
        """The judgements of a batch from :meth:`feed` that the host has not acted on yet
        (host thread): those :meth:`flush` already handed it are left out."""
        out: list[Judgement] = []
        with self._lock:
            for j in judgements:
                if any(j is t for t in self._taken):
                    self._taken = [t for t in self._taken if t is not j]
                    continue
                self._fresh = [f for f in self._fresh if f is not j]
                out.append(j)
        return out

    def _feed(self, chunk: AudioChunk) -> list[Judgement]:
        context, situation = self._now()
        if self.gated(chunk):
            self.dropped_seconds += chunk.duration
            judged: list[Judgement] = []
            if not self._gated:
                self._gated = True
                # Judge what was said before the host started speaking, then drop the rest.
                judged = self._judge(self.recognizer.finish(), situation)
            # Nothing is heard while the host speaks: take the new card's context now,
            # so that building it (about a second of CPU for a card not heard before)
            # happens behind "Correct!" (or the turn's opening) rather than after it,
            # when the guessers are already calling out.
            if not self._voice_coming(context, chunk.start_time):
                self._listen_for(context)
            return judged
        self._gated = False
        if not self._voice_coming(context, chunk.start_time):
            self._listen_for(context)
        return self._judge(self.recognizer.feed(chunk), situation)

    def _voice_coming(self, context: ListenContext, t: float) -> bool:
        """Whether a new context (or contexts to learn) should wait at ``t`` for a
        voice: the host's or the private card voice has queued something that has not
        started sounding, and it has waited less than :data:`VOICE_WAIT`.  The
        recogniser listens meanwhile with the context it has (a new one's first is
        taken at once)."""
        with self._lock:
            learn = bool(self._ahead)
        if self._active is None or (context == self._active and not learn):
            self._waiting_since = None
            return False
        voices = (self.announcer, self.private) if self.gate else ()
        if not any(v is not None and _about_to_sound(v) for v in voices):
            return False
        if self._waiting_since is None:
            self._waiting_since = t
        return t - self._waiting_since < VOICE_WAIT

    def _listen_for(self, context: ListenContext) -> None:
        """Give the recogniser ``context`` if it is not the one it has."""
        self._waiting_since = None
        with self._lock:
            ahead, self._ahead = self._ahead, ()
        if ahead:
            self.recognizer.prepare(ahead)
        if context == self._active:
            return
        if self._active is None:
            self.recognizer.start(context)
        else:
            self.recognizer.set_context(context)
        self._active = context

    def flush(self) -> list[Judgement]:
        """Finish the utterance in progress and judge it (at the buzzer, or at the end),
        after the judgements :meth:`feed` made that the host has not taken yet: a batch
        judged while the host reached the buzzer is still on its way through the input
        queue, and R8 counts a guess by when it was spoken, not when it arrived."""
        _, situation = self._now()
        with self._engine:
            with self._lock:
                early, self._fresh = self._fresh, []
                self._taken = [*self._taken[-UNTAKEN:], *early]
            return [*early, *self._judge(self.recognizer.finish(), situation)]

    def _judge(self, events: list[RecognitionEvent], situation: Situation) -> list[Judgement]:
        if not events:
            return []
        self.events = [*self.events[-200:], *events]
        if self.gate and self.announcer is not None:
            situation = self._with_host_speech(situation, self.announcer)
        if not self.gate:
            situation = Situation(
                entry=situation.entry,
                phase=situation.phase,
                teams=situation.teams,
                wake_word=situation.wake_word,
                turn_start=situation.turn_start,
                buzzer=situation.buzzer,
                grace=situation.grace,
            )
        return self.referee.observe_all(events, situation)

    @staticmethod
    def _with_host_speech(situation: Situation, announcer: Announcer) -> Situation:
        """``situation`` with the host's speech as it is now (its last announcement may
        have finished since the host last updated the situation)."""
        intervals = announcer.speech_intervals()[-SPEECH_HISTORY:]
        if not intervals:
            return situation
        last = intervals[-1]
        return dataclasses.replace(
            situation,
            host_speech=tuple((i.start, i.end) for i in intervals),
            last_announcement=last.text,
            announced_at=last.end,
        )


def _about_to_sound(voice: Announcer) -> bool:
    """Whether ``voice`` has queued something that is not sounding yet (being rendered,
    or waiting for its sound system to start)."""
    return not voice.drain(0.0) and not voice.is_speaking()
