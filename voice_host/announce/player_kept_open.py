"""A player whose output stream stays open between texts, playing silence meanwhile.

Measured through PulseAudio (session 56, `benchmarks/live_room.py` and a null
sink): PortAudio 19.6 has no PulseAudio host API, so it plays through ALSA's
``pulse`` plugin, and a playback stream opened there asked for its first blocks
at once and then for nothing more for 1.4-1.9 s, until PulseAudio gave up waiting
for its start-up buffer to fill.  With a stream per text, as
:class:`~voice_host.announce.player.SounddevicePlayer` plays, every announcement
started that late: "Telescope, correct." about a second and a half after the
guess, and the microphone gate, which opened only when the stream drained, shut
that much longer after the voice.  (It did not happen while another program read
the same output with a short latency, which is why a desktop's sound settings
window makes it go away, and why a room recorded for a benchmark hid it.)

Kept open, the stream pays that wait once, when the child that plays the host's
voice starts (:meth:`KeptOpenPlayer.warm`), and a text then starts at the next
block: the callback copies it in where it was copying silence.  The sound's end
is the moment its last block was handed over plus the stream's output latency.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

from voice_host.announce.player import (
    FIRST_BLOCK_WAIT,
    HANG_MARGIN,
    POLL,
    SounddevicePlayer,
    _NotPlaying,
    resample,
)
from voice_host.announce.render import RenderedAudio
from voice_host.audio.devices import closed_stream
from voice_host.errors import DeviceError

#: Seconds a newly opened stream may ask for nothing after its first blocks (PulseAudio's
#: start-up wait, up to 1.9 s measured) before a text given to it is taken as unplayed.
START_UP_WAIT = 4.0


class _Text:
    """One text being copied into the stream."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.position = 0
        self.asked = threading.Event()  # its first block was asked for
        self.written = threading.Event()  # its last block was handed over
        self.sounded_at = 0.0  # monotonic seconds when its last sample will have sounded


class KeptOpenPlayer(SounddevicePlayer):
    """Plays each text into one output stream kept open (and fed silence) between texts.

    The device handling is :class:`SounddevicePlayer`'s (a device that will not open,
    opens too slowly, or asks for nothing is an error; a refused sample rate is tried at
    the device's own).  A stream that stops asking for blocks, or finishes, is closed
    and opened afresh for the next text."""

    def __init__(self, device: int | str | None, sd: Any) -> None:
        super().__init__(device, sd)
        self._lock = threading.Lock()
        self._open: Any | None = None
        self._open_rate = 0
        self._opened_at = 0.0
        self._finished = threading.Event()
        self._text: _Text | None = None
        self._latency = 0.0
        self._calls = 0  # blocks the open stream has asked for

    # -- the stream's callback (PortAudio's thread) ------------------------------------

    def _callback(self, outdata: Any, frames: int, _time: Any, _status: Any) -> None:
        wanted = frames * 2
        with self._lock:
            self._calls += 1
            text = self._text
            if text is None:
                outdata[:wanted] = b"\x00" * wanted
                return
            chunk = text.data[text.position : text.position + wanted]
            text.position += len(chunk)
            outdata[: len(chunk)] = chunk
            if len(chunk) < wanted:
                outdata[len(chunk) : wanted] = b"\x00" * (wanted - len(chunk))
            text.asked.set()
            if text.position >= len(text.data):
                self._text = None
                text.sounded_at = (
                    time.monotonic() + self._latency + len(chunk) / 2 / self._open_rate
                )
                text.written.set()

    # -- the stream ------------------------------------------------------------------

    def warm(self, rate: int) -> None:
        """Open the stream now at ``rate`` (the speech engine's), so that its start-up
        wait falls before the first text rather than in front of it."""
        self._ensure(rate)

    def _ensure(self, rate: int) -> Any:
        stream = self._open
        if stream is not None and (
            self._open_rate != rate
            or self._finished.is_set()
            or not bool(getattr(stream, "active", True))
        ):
            self._drop()
            stream = None
        if stream is None:
            self._finished = threading.Event()
            self._open_rate = rate
            self._calls = 0
            stream = self._started(RenderedAudio(b"", rate), self._callback, self._finished)
            latency = getattr(stream, "latency", 0.0)
            self._latency = float(latency) if isinstance(latency, int | float) else 0.0
            self._open, self._opened_at = stream, time.monotonic()
        return stream

    def _drop(self) -> None:
        stream, self._open = self._open, None
        with self._lock:
            self._text = None
        if stream is not None:
            with contextlib.suppress(Exception):  # a stream whose device went may not close
                closed_stream(stream, abort=True)

    # -- playing ---------------------------------------------------------------------

    def play(
        self, audio: RenderedAudio, *, on_start: Callable[[], None], cancel: threading.Event
    ) -> bool:
        """See :meth:`Player.play`.  A stream open at the device's own rate (it refused
        the engine's) takes the text resampled to it, rather than being reopened."""
        if self._open is not None and self._open_rate != audio.rate:
            samples = resample(audio.samples, audio.rate, self._open_rate)
            audio = RenderedAudio(samples, self._open_rate)
        return super().play(audio, on_start=on_start, cancel=cancel)

    def _play(
        self, audio: RenderedAudio, on_start: Callable[[], None], cancel: threading.Event
    ) -> bool:
        self._ensure(audio.rate)
        text = _Text(audio.samples)
        with self._lock:
            self._text = text
        young = time.monotonic() - self._opened_at < START_UP_WAIT
        if not text.asked.wait(START_UP_WAIT if young else FIRST_BLOCK_WAIT):
            never = self._calls == 0
            self._drop()
            if never:  # a device that starts and asks for nothing: tried again later
                raise _NotPlaying("audio output started but is not playing")
            raise DeviceError("audio output stopped playing")
        on_start()
        waited = 0.0
        while not text.written.wait(POLL):
            waited += POLL
            if cancel.is_set():
                with self._lock:
                    if self._text is text:
                        self._text = None  # silence from the next block on
                return False
            if waited > audio.duration + HANG_MARGIN:
                self._drop()
                raise DeviceError("audio output stopped playing")
        # the last block is handed over: its sound comes out after the output's latency
        while (left := text.sounded_at - time.monotonic()) > 0:
            if cancel.wait(min(left, POLL)):
                return False
        return True

    def close(self) -> None:
        """Close the stream kept open."""
        self._drop()
