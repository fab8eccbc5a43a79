"""Replaying recorded audio through a recogniser on audio time.

The clock of a replay is the number of samples fed divided by the rate, not
the wall clock: a replay runs as fast as the recogniser can go, and the same
input always gives the same events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from voice_host.audio.chunk import AudioChunk
from voice_host.speech.events import ListenContext, RecognitionEvent, Recognizer


class AudioClock:
    """Audio time: samples fed so far divided by the sample rate."""

    def __init__(self, start: float = 0.0) -> None:
        self.start = start
        self._seconds = 0.0
        self._samples = 0
        self._rate = 0

    def advance(self, chunk: AudioChunk) -> None:
        """Count ``chunk`` as fed."""
        if chunk.rate != self._rate and self._samples:
            # Keep earlier audio at its own rate when the rate changes.
            self._seconds += self._samples / self._rate
            self._samples = 0
        self._rate = chunk.rate
        self._samples += chunk.frames

    @property
    def now(self) -> float:
        """Seconds of audio time fed so far."""
        extra = self._samples / self._rate if self._rate else 0.0
        return self.start + self._seconds + extra


def replay(
    recognizer: Recognizer,
    chunks: Iterable[AudioChunk],
    context: ListenContext,
    on_event: Callable[[RecognitionEvent], None] | None = None,
) -> list[RecognitionEvent]:
    """Feed every chunk to ``recognizer`` listening for ``context``; return all events.

    ``on_event`` sees each event as soon as the recogniser reports it (so a
    caller can print while a long file is still being replayed).
    """
    recognizer.start(context)
    events: list[RecognitionEvent] = []

    def take(new: list[RecognitionEvent]) -> None:
        for event in new:
            events.append(event)
            if on_event is not None:
                on_event(event)

    for chunk in chunks:
        take(recognizer.feed(chunk))
    take(recognizer.finish())
    return events
