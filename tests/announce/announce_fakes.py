"""Scripted fakes for the announcer tests: a clock, a renderer and a player."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from voice_host.announce import RenderedAudio, VoiceSettings
from voice_host.errors import DeviceError, EngineError

#: Seconds a test waits for a thread before declaring a deadlock (never reached when passing).
DEADLOCK = 10.0


class ManualClock:
    """A clock the test (or a fake) sets by hand, in seconds."""

    def __init__(self, t: float = 0.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@dataclass(frozen=True)
class TaggedAudio(RenderedAudio):
    """Fake audio that remembers its text, so the fake player can say what it played."""

    text: str = ""


class FakeRenderer:
    """Renders each text as silence lasting 0.1 s per character; fails for chosen texts."""

    def __init__(self, fail: set[str] | None = None) -> None:
        self.fail = fail or set()
        self.rendered: list[tuple[str, VoiceSettings]] = []
        self.closed = False

    def render(self, text: str, settings: VoiceSettings) -> RenderedAudio:
        if text in self.fail:
            raise EngineError(f"cannot render {text!r}")
        self.rendered.append((text, settings))
        return TaggedAudio(b"\x00\x00" * (len(text) * 100), 1000, text)

    def render_to_file(self, text: str, path: Path, settings: VoiceSettings) -> RenderedAudio:
        audio = self.render(text, settings)
        path.write_bytes(audio.samples)
        return audio

    def voices(self) -> list[tuple[str, str]]:
        return [("gmw/en-us", "English (America)"), ("gmw/en", "English (Great Britain)")]

    def close(self) -> None:
        self.closed = True


class FakePlayer:
    """Plays on a manual clock: sound starts at the clock's time and lasts the audio's length.

    Texts in ``hold`` block after starting until cancelled or released; texts in ``broken``
    raise :class:`DeviceError` after starting (a device lost mid-sound).
    """

    def __init__(
        self,
        clock: ManualClock,
        *,
        hold: set[str] | None = None,
        broken: set[str] | None = None,
    ) -> None:
        self.clock = clock
        self.hold = hold or set()
        self.broken = broken or set()
        self.played: list[tuple[str, bool]] = []
        self.started = threading.Event()
        self.release = threading.Event()
        self.closed = False

    def play(
        self, audio: RenderedAudio, *, on_start: Callable[[], None], cancel: threading.Event
    ) -> bool:
        text = audio.text if isinstance(audio, TaggedAudio) else "?"
        if cancel.is_set():
            return False
        on_start()
        if text in self.broken:
            self.clock.t += 0.25
            raise DeviceError("output unplugged")
        if text in self.hold:
            self.started.set()
            while not (cancel.is_set() or self.release.is_set()):
                cancel.wait(0.01)
            self.clock.t += 0.3
            completed = not cancel.is_set()
        else:
            self.clock.t += audio.duration
            completed = True
        self.played.append((text, completed))
        return completed

    def close(self) -> None:
        self.closed = True
