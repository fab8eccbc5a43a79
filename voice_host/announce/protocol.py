"""What every announcer offers the host, and the options that choose one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from voice_host.announce.render import DEFAULT_RATE, VoiceSettings
from voice_host.announce.sounds import Sound
from voice_host.announce.timeline import (
    DEFAULT_TAIL,
    SpeechInterval,
    SpeechListener,
    SpeechTimeline,
)


@dataclass(frozen=True)
class AnnounceOptions:
    """How and where an announcer speaks."""

    voice: str | None = None
    """Engine voice: an id (``gmw/en-us``), its last part (``en-us``) or its name; None for
    the engine's default."""
    rate: int | None = DEFAULT_RATE
    """Words per minute; None for the engine's default."""
    volume: float = 1.0
    """0.0 (silent) to 1.0 (full)."""
    device: int | str | None = None
    """Output device: PortAudio index or part of its name; None for the default output."""
    tail: float = DEFAULT_TAIL
    """Seconds the microphone gate stays shut after the voice stops."""
    label: str = "host"
    """Who speaks, in printed lines: ``Host: Red team, your turn.``"""
    private: bool = False
    """A private voice (the card word in the describer's headphones): when it cannot speak,
    its texts are NOT printed, since the room could read them."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.volume <= 1.0:
            raise ValueError(f"volume must be between 0 and 1, not {self.volume}")
        if self.rate is not None and self.rate <= 0:
            raise ValueError(f"speaking rate must be positive, not {self.rate}")
        if self.tail < 0:
            raise ValueError(f"gate tail must be 0 seconds or more, not {self.tail}")

    @property
    def settings(self) -> VoiceSettings:
        """The engine settings (voice, rate, volume)."""
        return VoiceSettings(self.voice, self.rate, self.volume)


#: The options of an announcer made without any.
DEFAULT_OPTIONS = AnnounceOptions()

#: Told an announcer's news about its own output (it cannot speak, it failed), in two
#: forms: the plain words to say aloud ("Card audio stopped; press K to see the card."),
#: and the line to print, which gives the device's own reason for a player who reads it
#: (PortAudio's "Error opening OutputStream: Device unavailable [PaErrorCode -9985]"
#: means nothing to a table, and may come in the middle of a turn).
Notify = Callable[[str, str], None]


class Announcer(Protocol):
    """Speaks for the host and knows when its voice is audible (on the host's clock)."""

    @property
    def audible(self) -> bool:
        """Whether texts are spoken aloud (False when they are only printed or logged)."""
        ...

    def say(self, text: str, *, interrupt: bool = False) -> None:
        """Queue ``text``; with ``interrupt`` first cut short what is playing and drop the queue.

        Returns at once; texts are spoken in the order given.
        """
        ...

    def sound(self, cue: Sound) -> None:
        """Queue the chime ``cue`` after the texts queued before it.

        It shuts the microphone while it sounds, as speech does (it is on the timeline,
        with its label for the text): heard over a word, a chime garbles it
        (``benchmarks/time_cues.py``).  An announcer that cannot play it prints or says
        its words instead (:attr:`Sound.words`; nothing for a chime without any).
        """
        ...

    def stop(self) -> None:
        """Cut short what is playing and drop what is queued."""
        ...

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until everything queued has been said; False if ``timeout`` seconds ran out."""
        ...

    def close(self) -> None:
        """Stop speaking and release the engine and device (idempotent)."""
        ...

    def is_speaking(self, t: float | None = None) -> bool:
        """Whether the voice is audible at ``t`` seconds on the host's clock (default: now)."""
        ...

    def is_gated(self, t: float | None = None) -> bool:
        """Whether microphone audio at ``t`` must be ignored: speaking or within the tail."""
        ...

    def gate_overlaps(self, start: float, end: float) -> bool:
        """Whether microphone audio from ``start`` to ``end`` seconds touches the gate."""
        ...

    def speech_intervals(self) -> tuple[SpeechInterval, ...]:
        """Finished speaking intervals, oldest first."""
        ...

    def add_speech_listener(self, listener: SpeechListener) -> None:
        """Call ``listener(start, end)`` when each spoken interval's end is known."""
        ...


class TimedAnnouncer:
    """The queries every announcer answers from its :class:`SpeechTimeline`."""

    def __init__(
        self,
        clock: Callable[[], float],
        tail: float,
        report: Callable[[str], None] | None = None,
        timeline: SpeechTimeline | None = None,
    ) -> None:
        self.timeline = (
            SpeechTimeline(clock, tail=tail, report=report) if timeline is None else timeline
        )
        """When this announcer's voice was audible (``timeline``: one given, which a voice
        taking over from another goes on with)."""

    def is_speaking(self, t: float | None = None) -> bool:
        """See :meth:`Announcer.is_speaking`."""
        return self.timeline.is_speaking(t)

    def is_gated(self, t: float | None = None) -> bool:
        """See :meth:`Announcer.is_gated`."""
        return self.timeline.is_gated(t)

    def gate_overlaps(self, start: float, end: float) -> bool:
        """See :meth:`Announcer.gate_overlaps`."""
        return self.timeline.gate_overlaps(start, end)

    def speech_intervals(self) -> tuple[SpeechInterval, ...]:
        """See :meth:`Announcer.speech_intervals`."""
        return self.timeline.speech_intervals()

    def add_speech_listener(self, listener: SpeechListener) -> None:
        """See :meth:`Announcer.add_speech_listener`."""
        self.timeline.add_listener(listener)
