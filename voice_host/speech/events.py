"""What recognisers are told (a context) and what they report (events).

This is the contract between the listening side (``voice_host.speech``
backends) and the referee (``voice_host.referee``).  Keep it small and stable.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, Protocol

from voice_host.audio.chunk import AudioChunk

EventKind = Literal["partial", "final"]


@dataclass(frozen=True)
class HeardWord:
    """One recognised word with its place in audio time."""

    text: str
    """The word as the recogniser spelled it, lower case."""
    start: float
    """Seconds of audio time where the word starts."""
    end: float
    """Seconds of audio time where the word ends."""
    confidence: float | None = None
    """Engine confidence in 0..1 where the engine gives one, else None."""
    pitch: float | None = None
    """In a final event, the median pitch (Hz) of the word's own audio when it
    had enough voiced frames: the referee hears a guesser cutting in at the
    end of the describer's utterance by the voice of the card's word."""


@dataclass(frozen=True)
class RecognitionEvent:
    """A partial or final result: the words heard in one utterance so far."""

    kind: EventKind
    """``partial`` (may still change) or ``final`` (the utterance is over)."""
    words: tuple[HeardWord, ...]
    """Words in spoken order."""
    emitted_at: float
    """Seconds of audio time fed when the event was produced (for latency)."""
    source: str = ""
    """Which search produced it, e.g. ``kws`` (keyword spotting), ``free``, ``grammar``."""
    confirmed: bool | None = None
    """For a steered hit: True if an independent check agreed, False if it
    disagreed, None when no check was made."""
    utterance: tuple[float, float] | None = None
    """Start and end (seconds of audio time) of the whole utterance this event
    belongs to, from the engine's endpointer, when known.  Lets the referee
    judge an utterance's length even when only a keyword was reported."""
    transcriber: str = ""
    """For a free transcript written by a second transcriber rather than the
    backend's own decoder, its name (e.g. ``Moonshine tiny-en``); else empty."""
    pitch: float | None = None
    """For a final event, the median pitch (Hz) of the utterance's voiced
    frames (:func:`voice_host.audio.pitch.median_pitch`), when there were
    enough: the referee compares it with the describer's."""

    @property
    def text(self) -> str:
        """The words joined by spaces."""
        return " ".join(w.text for w in self.words)

    @property
    def start(self) -> float:
        """Start of the first word (or ``emitted_at`` when empty)."""
        return self.words[0].start if self.words else self.emitted_at

    @property
    def end(self) -> float:
        """End of the last word (or ``emitted_at`` when empty)."""
        return self.words[-1].end if self.words else self.emitted_at


class CardWords(Protocol):
    """What a context takes from a card entry (``voice_host.deck.model.Entry``)."""

    @property
    def answers(self) -> tuple[str, ...]: ...
    @property
    def forms(self) -> tuple[str, ...]: ...
    @property
    def pronunciations(self) -> Mapping[str, tuple[str, ...]]: ...


@dataclass(frozen=True)
class ListenContext:
    """The words worth listening for right now."""

    answers: tuple[str, ...] = ()
    """Accepted answers for the active card entry (phrases, lower case)."""
    forms: tuple[str, ...] = ()
    """Forbidden forms of the active entry (its word family, lower case)."""
    commands: tuple[str, ...] = ()
    """Command phrases, wake word included, e.g. ``host pass``."""
    team_names: tuple[str, ...] = ()
    """Team names, lower case (CONTROL rounds, SPIN pushes)."""
    pronunciations: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Word -> ARPAbet phones (no stress marks) for words a dictionary may lack."""
    free_text: bool = True
    """Also run free decoding (needed for foul phrases such as 'starts with')."""

    @classmethod
    def for_entry(
        cls,
        entry: CardWords | None,
        commands: tuple[str, ...] = (),
        team_names: tuple[str, ...] = (),
        free_text: bool = True,
    ) -> ListenContext:
        """The context while ``entry`` is being described (None: no card up)."""
        return cls(
            answers=entry.answers if entry else (),
            forms=entry.forms if entry else (),
            commands=commands,
            team_names=team_names,
            pronunciations=entry.pronunciations if entry else {},
            free_text=free_text,
        )

    def phrases(self) -> tuple[str, ...]:
        """Every phrase to spot, without duplicates, in a stable order."""
        seen: dict[str, None] = {}
        for group in (self.answers, self.forms, self.commands, self.team_names):
            for phrase in group:
                seen.setdefault(phrase.lower(), None)
        return tuple(seen)


class Recognizer(Protocol):
    """A streaming recogniser.  One instance belongs to one thread."""

    name: str
    """Backend name, e.g. ``pocketsphinx`` or ``vosk``."""

    def start(self, context: ListenContext) -> None:
        """Begin listening for ``context``; resets any utterance in progress."""

    def prepare(self, contexts: Iterable[ListenContext]) -> None:
        """Learn ahead what listening for ``contexts`` will need (the words a
        dictionary lacks), so that switching to one later is quick.  Called
        before listening starts; changes nothing that is heard."""

    def set_context(self, context: ListenContext) -> None:
        """Change what to listen for without reloading the model.  Takes
        effect at the next utterance boundary where the engine requires it."""

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        """Process one chunk; return the events it completed."""

    def finish(self) -> list[RecognitionEvent]:
        """Flush the utterance in progress; return its final events."""
