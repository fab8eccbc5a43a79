"""Turning text into speech samples with pyttsx3, on one thread that owns the engine.

pyttsx3 2.99 caches one engine per driver in the whole process, raises if its
run loop is re-entered, and applies property changes at the next run.  So one
:class:`Pyttsx3Renderer` (one daemon thread) serves every announcer of the host,
the main voice and the private card voice alike: each request carries its own
voice, rate and volume, set just before that request's run.

The espeak driver renders with ``save_to_file`` to a 22,050 Hz mono 16-bit WAV,
which we read back and play ourselves (the driver's own playback shells out to
``aplay`` and fails silently).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import queue
import sys
import tempfile
import threading
import wave
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, TextIO, TypeVar

from voice_host.errors import EngineError

_T = TypeVar("_T")

#: Seconds a render may take before the engine is given up as hung (espeak renders a
#: sentence in about 10 ms on this kind of machine; the margin is for a loaded machine).
RENDER_TIMEOUT = 20.0
#: Samples a second of what espeak-ng renders (the rate a kept-open output opens at).
ENGINE_RATE = 22050
#: Speaking rate in words per minute when none is chosen: a little slower than espeak's
#: 175, because a room is noisy and players are busy.
DEFAULT_RATE = 170
#: espeak's own default speed, used when none is chosen, in words per minute.
ESPEAK_RATE = 175
#: Characters a second spoken per word-per-minute of rate, measured on espeak-ng's English
#: voices with punctuation pauses (about 14 characters a second at 200 words a minute).
CHARS_PER_SECOND_PER_WPM = 0.07


@dataclass(frozen=True)
class RenderedAudio:
    """Speech ready to play: mono signed 16-bit little-endian samples."""

    samples: bytes
    """Raw PCM, two bytes a sample."""
    rate: int
    """Samples per second (22,050 from espeak)."""

    @property
    def duration(self) -> float:
        """Length in seconds."""
        return len(self.samples) / 2 / self.rate


def without_closing_pause(audio: RenderedAudio) -> tuple[RenderedAudio, float]:
    """``audio`` without the digital silence it ends with, and that silence's length.

    espeak-ng closes every text with a pause of exact zeros (0.31-0.37 s at 170 words
    a minute, 0.55 s at 120).  Played, it keeps the host "speaking", so the microphone
    gate stayed shut that much longer after each announcement (after every "Telescope,
    correct. Three." of a turn, while the guessers already call out the next card).
    The announcer plays the speech alone and keeps the pause only between two texts.
    Only exact zeros are taken, and only after a sound: audio that is silence
    throughout is left as it is.
    """
    data = audio.samples
    kept = len(data.rstrip(b"\x00"))
    kept += kept % 2  # the low byte of a sample whose high byte was not zero
    if kept == 0 or kept >= len(data):
        return audio, 0.0
    pause = (len(data) - kept) / 2 / audio.rate
    return replace(audio, samples=data[:kept]), pause


@dataclass(frozen=True)
class VoiceSettings:
    """How a text is spoken."""

    voice: str | None = None
    """Engine voice id (``gmw/en-us``) or None for the engine's default."""
    rate: int | None = DEFAULT_RATE
    """Words per minute, or None for the engine's default."""
    volume: float = 1.0
    """0.0 (silent) to 1.0 (full)."""


def espeak_prefix(settings: VoiceSettings) -> str:
    """espeak's embedded commands setting speed (words a minute) and amplitude (0-200).

    pyttsx3's ``setProperty`` for rate and volume goes to espeak asynchronously, and the
    driver's own ``Cancel`` at the end of each run can discard it: measured, a second rate
    change was silently lost.  Commands inside the text always apply, to that text.
    """
    rate = min(max(settings.rate or ESPEAK_RATE, 80), 450)
    return f"\x01{rate}S\x01{round(settings.volume * 100)}A "


def _printable(text: str) -> str:
    # A control character in a name (a team called "\x01...") would be read as a command.
    return "".join(ch if ch.isprintable() else " " for ch in text)


def estimate_duration(text: str, rate: int | None = DEFAULT_RATE) -> float:
    """Seconds ``text`` would take to say at ``rate`` words per minute, without rendering it."""
    wpm = DEFAULT_RATE if rate is None else rate
    return 0.1 + len(text.strip()) / (wpm * CHARS_PER_SECOND_PER_WPM)


#: Times a text is rendered before its empty file counts as a failure.  With
#: the CPU busy, a render now and then came back empty ("speech engine produced
#: no audio": 3 of 25 runs of a test, and once in a CI run); rendering again
#: gave the samples (0 of 50 runs).  The likely cause: pyttsx3's espeak driver
#: writes the file at espeak's "message terminated" event and adds the samples
#: that came with that same callback only after writing.
RENDER_ATTEMPTS = 3


def _save(engine: Any, spoken: str, path: Path) -> None:
    """Have ``engine`` write ``spoken`` to the WAV ``path`` (replacing what it held)."""
    # Emptied, not removed: a file made by mkstemp stays this process's own (in a
    # shared /tmp another user could put a link where a removed one was), and an
    # attempt that writes nothing reads as empty, not as the attempt before.
    path.write_bytes(b"")
    # espeak may still be writing the file when runAndWait returns (its synthesis is
    # asynchronous); the driver announces the end once the file is written.
    written = threading.Event()
    token = engine.connect("finished-utterance", lambda **_: written.set())
    try:
        with _quiet_saved_message():
            engine.save_to_file(spoken, str(path))
            engine.runAndWait()
        written.wait(RENDER_TIMEOUT / 2)
    finally:
        engine.disconnect(token)


def read_rendered_wav(path: Path) -> RenderedAudio:
    """Read a mono 16-bit WAV written by the engine; raise :class:`EngineError` if unusable."""
    try:
        with wave.open(str(path), "rb") as wav:
            if wav.getnchannels() != 1 or wav.getsampwidth() != 2:
                raise EngineError(f"speech engine wrote {path} in an unexpected format")
            samples = wav.readframes(wav.getnframes())
            rate = wav.getframerate()
    except (OSError, EOFError, wave.Error) as exc:
        raise EngineError(f"speech engine output {path} is unreadable: {exc}") from None
    if not samples:
        raise EngineError("speech engine produced no audio")
    return RenderedAudio(samples, rate)


def write_rendered_wav(path: Path, audio: RenderedAudio) -> None:
    """Write ``audio`` as a mono 16-bit WAV at ``path`` (as the engine writes its own)."""
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(audio.rate)
        wav.writeframes(audio.samples)


def resolve_voice(wanted: str, voices: list[tuple[str, str]]) -> str | None:
    """The id of the voice called ``wanted``, or None when there is none.

    ``voices`` holds ``(id, name)`` pairs.  ``wanted`` matches an id (``gmw/en-us``), the
    last part of an id (``en-us``) or a name (``English (America)``), ignoring case.
    """
    key = wanted.strip().casefold()
    for voice_id, name in voices:
        if key in (voice_id.casefold(), voice_id.rsplit("/", 1)[-1].casefold(), name.casefold()):
            return voice_id
    return None


class Renderer(Protocol):
    """Turns text into speech samples; safe to call from any thread."""

    def render(self, text: str, settings: VoiceSettings) -> RenderedAudio:
        """Samples of ``text`` spoken with ``settings``; :class:`EngineError` on failure."""
        ...

    def render_to_file(self, text: str, path: Path, settings: VoiceSettings) -> RenderedAudio:
        """Like :meth:`render`, also leaving the WAV at ``path``."""
        ...

    def voices(self) -> list[tuple[str, str]]:
        """``(id, name)`` of every voice."""
        ...

    def close(self) -> None:
        """Release the engine."""
        ...


class _DropSavedMessage:
    """A stdout stand-in that drops pyttsx3's "Audio saved to ..." line and passes the rest.

    The espeak driver prints that line on every ``save_to_file``; on the live screen it
    would land in the middle of the board.
    """

    def __init__(self, inner: TextIO) -> None:
        self.inner = inner
        self._skip_newline = False

    def write(self, text: str) -> int:
        if text.startswith("Audio saved to "):
            self._skip_newline = True
            return len(text)
        if self._skip_newline and text == "\n":
            self._skip_newline = False
            return len(text)
        self._skip_newline = False
        return self.inner.write(text)

    def flush(self) -> None:
        self.inner.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@contextlib.contextmanager
def _quiet_saved_message() -> Iterator[None]:
    original = sys.stdout
    proxy = _DropSavedMessage(original)
    sys.stdout = proxy
    try:
        yield
    finally:
        # Someone else (a screen) may have replaced stdout meanwhile: keep theirs.
        if sys.stdout is proxy:
            sys.stdout = original


#: The process's one pyttsx3 engine, kept alive for good: when pyttsx3's cached engine is
#: garbage-collected its driver clears espeak's one global synth callback, and if a newer
#: engine has set its callback by then, that one renders empty WAVs from then on.
_shared_engine: Any = None
#: Held while the engine runs: two renderers must never run it at once (re-entry raises).
_ENGINE_LOCK = threading.Lock()


def _pyttsx3_engine() -> Any:
    global _shared_engine
    if _shared_engine is None:
        _shared_engine = importlib.import_module("pyttsx3").init()
    return _shared_engine


class Pyttsx3Renderer:
    """One daemon thread owning the pyttsx3 engine; :meth:`render` is safe from any thread.

    ``init`` makes the engine (default ``pyttsx3.init``); tests inject their own.  A daemon
    thread, so that an engine hung inside its native library cannot keep the process alive.
    """

    def __init__(
        self, *, init: Callable[[], Any] | None = None, espeak: bool | None = None
    ) -> None:
        self._init = init
        # pyttsx3 drives espeak on Linux and only there (nsss on macOS, sapi5 on Windows).
        self._espeak = sys.platform.startswith("linux") if espeak is None else espeak
        self._jobs: queue.Queue[tuple[Callable[[], Any], Future[Any]] | None] = queue.Queue()
        self._engine: Any = None
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name="voice-host-tts", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            job, future = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                with _ENGINE_LOCK:
                    result = job()
                future.set_result(result)
            except BaseException as exc:  # handed to the caller, who turns it into one line
                future.set_exception(exc)

    def _call(self, job: Callable[[], _T], timeout: float = RENDER_TIMEOUT) -> _T:
        if self._closed:
            raise EngineError("speech engine is closed")
        future: Future[_T] = Future()
        self._jobs.put((job, future))
        try:
            return future.result(timeout=timeout)
        except FutureTimeout:
            raise EngineError(f"speech engine did not answer within {timeout:g} s") from None

    def _engine_now(self) -> Any:
        if self._engine is None:
            try:
                if self._init is None:
                    self._engine = _pyttsx3_engine()
                else:
                    self._engine = self._init()
            except Exception as exc:  # espeak-ng missing shows up as OSError/RuntimeError/...
                raise EngineError(f"speech engine could not start ({exc})") from None
        return self._engine

    def start(self) -> None:
        """Start the engine now; raise :class:`EngineError` if it cannot start."""
        self._call(self._engine_now)

    def voices(self) -> list[tuple[str, str]]:
        """``(id, name)`` of every voice the engine offers."""

        def job() -> list[tuple[str, str]]:
            engine = self._engine_now()
            return [(str(v.id), str(v.name)) for v in engine.getProperty("voices")]

        try:
            return self._call(job)
        except EngineError:
            raise
        except Exception as exc:
            raise EngineError(f"speech engine cannot list voices ({exc})") from None

    def _rendering(
        self, text: str, path: Path, settings: VoiceSettings
    ) -> Callable[[], RenderedAudio]:
        """The engine thread's job: render ``text`` into a WAV at ``path`` and read it."""

        def job() -> RenderedAudio:
            engine = self._engine_now()
            # Set the voice each time: the engine is shared by differently-set announcers.
            if settings.voice is not None:
                engine.setProperty("voice", settings.voice)
            spoken = _printable(text)
            if self._espeak:
                spoken = espeak_prefix(settings) + spoken
            else:
                engine.setProperty("rate", settings.rate or ESPEAK_RATE)
                engine.setProperty("volume", settings.volume)
            for attempt in range(1, RENDER_ATTEMPTS + 1):
                _save(engine, spoken, path)
                try:
                    return read_rendered_wav(path)
                except EngineError:
                    if attempt == RENDER_ATTEMPTS:
                        raise
            raise AssertionError("unreachable")  # pragma: no cover

        return job

    def _rendered(self, text: str, job: Callable[[], RenderedAudio]) -> RenderedAudio:
        try:
            return self._call(job)
        except EngineError:
            raise
        except Exception as exc:
            raise EngineError(f"speech engine failed to render {text[:40]!r} ({exc})") from None

    def render_to_file(self, text: str, path: Path, settings: VoiceSettings) -> RenderedAudio:
        """Render ``text`` into a WAV at ``path`` and return its samples."""
        return self._rendered(text, self._rendering(text, path, settings))

    def render(self, text: str, settings: VoiceSettings) -> RenderedAudio:
        """Render ``text`` to samples through a temporary WAV that is removed afterwards.

        One file a render (``voice-host-speech-*.wav`` in the temporary folder), made
        just before and removed once read: nothing is kept between renders, so a
        renderer never closed (a killed process, a test that replaced what closes it)
        leaves nothing behind, and a killed render at most its one file.  (Each renderer
        used to make a folder that only :meth:`close` removed.)"""
        handle, name = tempfile.mkstemp(prefix="voice-host-speech-", suffix=".wav")
        os.close(handle)
        path = Path(name)
        rendering = self._rendering(text, path, settings)

        def job() -> RenderedAudio:
            try:
                return rendering()
            finally:
                # here too: an engine that answers after the caller gave up on it
                # (RENDER_TIMEOUT) writes the file after the caller removed it
                path.unlink(missing_ok=True)

        try:
            return self._rendered(text, job)
        finally:
            path.unlink(missing_ok=True)  # a job never run (the renderer closed)

    def close(self) -> None:
        """Stop the thread (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self._jobs.put(None)
        self._thread.join(timeout=RENDER_TIMEOUT)
