"""An announcer for tests and replays: logs what it says, optionally renders it to WAV files.

It runs on the replay's audio clock and never plays anything.  Each text is
"spoken" from the later of now and the end of the previous one, for as long as
its rendered speech lasts (or an estimate from its length when not rendering), so
the gate and the end-to-end test see the same timing a live host would have: as
the live announcer does, the pause the engine closes a text with is not counted
as speech, and is kept only before a text that follows at once.
The rendered files let a test feed the host's own voice back into the
microphone path.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from voice_host.announce.protocol import DEFAULT_OPTIONS, AnnounceOptions, TimedAnnouncer
from voice_host.announce.render import (
    Pyttsx3Renderer,
    Renderer,
    estimate_duration,
    without_closing_pause,
    write_rendered_wav,
)
from voice_host.announce.sounds import Sound, render_sound
from voice_host.announce.timeline import SpeechInterval


@dataclass(frozen=True)
class Announcement:
    """One text as the recording announcer said it."""

    text: str
    """What was said."""
    start: float
    """Seconds of audio time when it started."""
    end: float
    """Seconds of audio time when it stopped."""
    wav: Path | None = None
    """The rendered speech (22,050 Hz mono 16-bit WAV), when rendering."""
    completed: bool = True
    """False when cut short by ``stop()`` or an interruption."""
    pause: float = 0.0
    """Seconds of silence the engine closed the text with (in the WAV, after ``end``):
    a text planned right after this one starts after it."""
    sound: Sound | None = None
    """The chime played, for a chime (``text`` is then its label); None for speech."""

    def log_line(self) -> str:
        """``start<TAB>end<TAB>text`` (seconds to the millisecond), ``<TAB>[cut]`` if cut."""
        text = " ".join(self.text.split())
        cut = "" if self.completed else "\t[cut]"
        return f"{self.start:.3f}\t{self.end:.3f}\t{text}{cut}"


class RecordingAnnouncer(TimedAnnouncer):
    """Writes each announcement to ``log_path`` with its audio-time start and end.

    With ``render_dir``, each text is also rendered to ``render_dir/NNNN.wav`` (numbered
    from 0001) through ``renderer`` (a new :class:`Pyttsx3Renderer` when none is given;
    :class:`~voice_host.errors.EngineError` when the engine cannot start).  A log line is
    written once its announcement can no longer change (it has ended by the clock, or on
    :meth:`close`).  Listeners hear each interval when it is planned, and again, shortened,
    if it is cut.
    """

    def __init__(
        self,
        log_path: Path | None = None,
        *,
        clock: Callable[[], float],
        options: AnnounceOptions = DEFAULT_OPTIONS,
        render_dir: Path | None = None,
        renderer: Renderer | None = None,
    ) -> None:
        super().__init__(clock, options.tail)
        self.options = options
        """The options it was made with (voice, rate, volume and tail are used)."""
        self.log_path = log_path
        """The text log, or None for none."""
        self.render_dir = render_dir
        """Where rendered WAVs go, or None for no rendering."""
        self._owns_renderer = render_dir is not None and renderer is None
        self._renderer: Renderer | None = renderer
        if render_dir is not None:
            render_dir.mkdir(parents=True, exist_ok=True)
            if self._renderer is None:
                self._renderer = Pyttsx3Renderer()
        self._lock = threading.Lock()
        self._entries: list[Announcement] = []
        self._logged = 0
        self._rendered = 0
        self._closed = False
        if log_path is not None:
            log_path.write_text("", encoding="utf-8")

    @property
    def audible(self) -> bool:
        """Whether texts become sound (rendered to files)."""
        return self.render_dir is not None

    @property
    def entries(self) -> tuple[Announcement, ...]:
        """Everything said so far, in order."""
        with self._lock:
            return tuple(self._entries)

    def say(self, text: str, *, interrupt: bool = False) -> None:
        """Plan ``text`` after what is still being said (or now, cutting it, with ``interrupt``)."""
        if not text.strip():
            return

        def render(wav: Path | None) -> tuple[float, float]:
            if wav is None or self._renderer is None:
                return estimate_duration(text, self.options.rate), 0.0
            audio = self._renderer.render_to_file(text, wav, self.options.settings)
            speech, pause = without_closing_pause(audio)
            return speech.duration, pause

        self._plan(text, render, interrupt=interrupt)

    def sound(self, cue: Sound) -> None:
        """Plan the chime ``cue`` after what is still being said, as the live announcer
        plays it: logged and on the timeline with its label, rendered when rendering."""

        def render(wav: Path | None) -> tuple[float, float]:
            if wav is not None:
                write_rendered_wav(wav, render_sound(cue, volume=self.options.volume))
            return cue.duration, 0.0

        self._plan(cue.label, render, sound=cue)

    def _plan(
        self,
        text: str,
        render: Callable[[Path | None], tuple[float, float]],
        *,
        interrupt: bool = False,
        sound: Sound | None = None,
    ) -> None:
        """Plan ``text`` as :meth:`say` does; ``render`` writes its WAV (when given a
        path) and returns its duration and closing pause."""
        now = self.timeline.clock()
        with self._lock:
            if self._closed:
                raise RuntimeError("the recording announcer is closed")
            if interrupt:
                self._cut_locked(now)
            start = max([now] + [e.end + e.pause for e in self._entries[-1:]])
            wav: Path | None = None
            if self.render_dir is not None:
                self._rendered += 1
                wav = self.render_dir / f"{self._rendered:04d}.wav"
            duration, pause = render(wav)
            entry = Announcement(text, start, start + duration, wav, pause=pause, sound=sound)
            self._entries.append(entry)
            self._write_final_locked(now)
        # Outside the lock: listeners may call back into the announcer.
        if interrupt:
            self.timeline.cut(now)
        self.timeline.add(SpeechInterval(entry.start, entry.end, text))

    def stop(self) -> None:
        """Cut what is sounding now and drop what was planned after it."""
        now = self.timeline.clock()
        with self._lock:
            self._cut_locked(now)
            self._write_final_locked(now)
        self.timeline.cut(now)

    def _cut_locked(self, now: float) -> None:
        while self._entries[self._logged :] and self._entries[-1].start >= now:
            self._entries.pop()
        if self._entries[self._logged :] and self._entries[-1].end > now:
            self._entries[-1] = replace(self._entries[-1], end=now, completed=False, pause=0.0)

    def _write_final_locked(self, now: float | None) -> None:
        lines = []
        while self._logged < len(self._entries) and (
            now is None or self._entries[self._logged].end <= now
        ):
            lines.append(self._entries[self._logged].log_line() + "\n")
            self._logged += 1
        if lines and self.log_path is not None:
            with self.log_path.open("a", encoding="utf-8") as log:
                log.writelines(lines)

    def drain(self, timeout: float | None = None) -> bool:
        """Whether everything planned has been said by now.  On the host's clock in a
        replay nothing can be waited for (the clock moves only as audio is fed), so
        it answers at once, whatever ``timeout``.  A text planned behind another has
        not started yet: between the two (the first one's closing pause) the voice
        is not audible, but there is more to say; the host starts a turn's timer
        only once all of it, "Go!" last, has been said."""
        now = self.timeline.clock()
        with self._lock:
            return all(e.end <= now for e in self._entries[-1:])

    def close(self) -> None:
        """Write the remaining log lines and release the renderer it made (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._write_final_locked(None)
        if self._owns_renderer and self._renderer is not None:
            self._renderer.close()
