"""Playing rendered speech on an output device, knowing when it starts and ends.

``sounddevice`` is imported only when a real player is opened: it needs the
PortAudio library, and a machine without a sound card raises ``PortAudioError``
as soon as a device is asked for.  Each player has its own output stream
(never ``sounddevice.play``, whose one global stream would make the host's voice
and the private card voice cut each other off).
"""

from __future__ import annotations

import contextlib
import importlib
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from voice_host.announce.render import RenderedAudio
from voice_host.audio.devices import (
    InputDevice,
    after_rescan,
    closed_stream,
    follow_index,
    list_output_devices,
    listing,
    opened_stream,
    parse_device,
    rescans,
)
from voice_host.errors import DeviceError

#: Seconds between checks for a stop request while a sound plays.
POLL = 0.02
#: Seconds past a sound's length after which a silent output is taken as lost.
HANG_MARGIN = 5.0
#: Seconds a started output stream may take to ask for its first block.  A stream that
#: opens and starts but never calls back (a Bluetooth speaker that dropped out) held
#: each text its length and :data:`HANG_MARGIN`, the microphone shut all the while: the
#: guesses after each "correct" went unheard (session 54's review).  A working device
#: asks within milliseconds.
FIRST_BLOCK_WAIT = 1.0
#: Seconds after such a silent start during which every text is printed at once rather
#: than tried on the device again; then the device is tried again.
SILENT_RETRY = 30.0


class _NotPlaying(DeviceError):
    """The output stream started and asked for nothing (tried again only later)."""


#: Seconds an output stream may take to open and start.  A sound server that does not
#: answer can hold PortAudio there for good, and with it "Go!" and the turn's timer:
#: past this the text is printed instead, and until the device answers every later
#: text is printed at once.
OPEN_TIMEOUT = 3.0


class Player(Protocol):
    """Plays one rendered text at a time on one output."""

    def play(
        self, audio: RenderedAudio, *, on_start: Callable[[], None], cancel: threading.Event
    ) -> bool:
        """Play ``audio``, calling ``on_start`` as sound begins; block until it ends.

        Returns True when it played to the end, False when ``cancel`` was set (before or
        during playback).  Raises :class:`DeviceError` when the output fails.
        """
        ...

    def close(self) -> None:
        """Release the device."""
        ...


class NoPortAudio(DeviceError):
    """The PortAudio library is missing: no output will come later in this session."""


def load_sounddevice() -> Any:
    """Import ``sounddevice``; raise :class:`NoPortAudio` when PortAudio is missing."""
    try:
        return importlib.import_module("sounddevice")
    except (OSError, ImportError) as exc:
        raise NoPortAudio(
            f"the PortAudio library for audio output is not available ({exc})"
        ) from None


def resample(samples: bytes, rate: int, target: int) -> bytes:
    """Linear resampling of mono 16-bit samples from ``rate`` to ``target`` samples a second."""
    import numpy as np

    source = np.frombuffer(samples, dtype="<i2").astype(np.float64)
    count = max(1, round(len(source) * target / rate))
    positions = np.arange(count) * (rate / target)
    result = np.interp(positions, np.arange(len(source)), source)
    return bytes(np.clip(np.round(result), -32768, 32767).astype("<i2").tobytes())


class SounddevicePlayer:
    """Plays through a PortAudio output stream of its own."""

    def __init__(self, device: int | str | None, sd: Any) -> None:
        self.device = device
        """PortAudio device index or name part; None for the default output."""
        self._sd = sd
        self._given = device  # an index given: followed to the device it named
        self._listed = rescans()  # the device list ``device`` was read from
        self._rate: float | None = None
        # A stream still opening past OPEN_TIMEOUT: the device is not answering.
        self._stuck: threading.Thread | None = None
        # Until when (monotonic seconds) a device that started silent is not tried again.
        self._silent_until = 0.0

    @classmethod
    def open(cls, device: int | str | None = None, *, sd: Any | None = None) -> SounddevicePlayer:
        """A player for ``device``; raise :class:`DeviceError` when there is no such output."""
        sd = load_sounddevice() if sd is None else sd
        device = parse_device(device)
        player = cls(device, sd)
        if isinstance(device, int):  # the device the index named, after a rescan too
            player._rate = player._followed(device).default_rate or None
            return player
        try:
            with listing():  # not while another thread restarts PortAudio
                info = sd.query_devices(device, "output")
        except Exception as exc:  # PortAudioError (no sound card) or ValueError (no match)
            what = "the default audio output" if device is None else f"audio output {device!r}"
            raise DeviceError(f"{what} is not available ({exc})") from None
        player._rate = float(info.get("default_samplerate", 0.0)) or None
        return player

    def _followed(self, index: int) -> InputDevice:
        """The output the ``index`` given names now (:func:`follow_index`), read afresh."""
        listed = rescans()  # before listing: a rescan in between is followed next time
        dev = follow_index("output", index, list_output_devices(self._sd))
        self.device, self._listed = dev.index, listed
        return dev

    @classmethod
    def reopen(cls, device: int | str | None = None, *, sd: Any | None = None) -> SounddevicePlayer:
        """As :meth:`open`, after a failure: PortAudio's list of devices is the one it made
        when it started, so a sound server started (or a speaker connected) since is only
        found in a fresh one, made when no stream of the process is open
        (:func:`~voice_host.audio.devices.rescan`, as the microphone does)."""
        sd = load_sounddevice() if sd is None else sd
        return after_rescan(sd, lambda: cls.open(device, sd=sd))

    def _stream(self, audio: RenderedAudio, callback: Any, finished: threading.Event) -> Any:
        sd = self._sd
        if isinstance(self._given, int) and rescans() != self._listed:
            # the microphone's retry listed the devices afresh since this player
            # opened: its index may name another output now (the loudspeaker)
            self._followed(self._given)
        try:
            # counted as open, so that the microphone does not restart PortAudio under it
            return opened_stream(
                lambda: sd.RawOutputStream(
                    samplerate=audio.rate,
                    channels=1,
                    dtype="int16",
                    device=self.device,
                    callback=callback,
                    finished_callback=finished.set,
                )
            )
        except Exception as exc:
            raise DeviceError(f"audio output failed: {exc}") from None

    def play(
        self, audio: RenderedAudio, *, on_start: Callable[[], None], cancel: threading.Event
    ) -> bool:
        """See :meth:`Player.play`."""
        if cancel.is_set():
            return False
        if time.monotonic() < self._silent_until:
            raise DeviceError("audio output is not playing")  # printed at once, for now
        try:
            return self._play(audio, on_start, cancel)
        except _NotPlaying:
            self._silent_until = time.monotonic() + SILENT_RETRY
            raise  # not the sample rate: no second try at another
        except DeviceError as exc:
            # Some devices refuse 22,050 Hz: try once more at the device's own rate.
            if self._rate is None or round(self._rate) == audio.rate:
                raise
            target = round(self._rate)
            converted = RenderedAudio(resample(audio.samples, audio.rate, target), target)
            try:
                return self._play(converted, on_start, cancel)
            except DeviceError:
                raise exc from None

    def _started(self, audio: RenderedAudio, callback: Any, finished: threading.Event) -> Any:
        """A stream for ``audio``, opened and started within :data:`OPEN_TIMEOUT`, or
        :class:`DeviceError`.  The opening runs on a thread of its own, so that a device
        that never answers holds that thread, not the announcer; a stream it opens too
        late is closed unheard."""
        if self._stuck is not None and self._stuck.is_alive():
            raise DeviceError("audio output is not answering")
        box: dict[str, Any] = {}
        late = threading.Event()
        # Whether the opening is done and whether it is late are settled under one lock:
        # a stream that starts just as the wait for it ends is stopped too, not left
        # playing (and open) by a thread that looked before the announcer gave up on it.
        settled = threading.Lock()

        def opening() -> None:
            try:
                stream = self._stream(audio, callback, finished)
                box["stream"] = stream
                stream.start()
                box["started"] = True
            except BaseException as exc:  # handed to the announcer's thread below
                box["error"] = exc
            with settled:
                box["done"] = True
            if late.is_set() and "stream" in box:
                with contextlib.suppress(Exception):
                    closed_stream(box["stream"], abort=True)

        worker = threading.Thread(target=opening, name="audio-output-open", daemon=True)
        worker.start()
        worker.join(OPEN_TIMEOUT)
        with settled:
            if "done" not in box:
                late.set()
        if late.is_set():
            self._stuck = worker
            raise DeviceError(f"audio output did not start within {OPEN_TIMEOUT:g} s")
        if "error" in box:
            if "stream" in box:
                with contextlib.suppress(Exception):
                    closed_stream(box["stream"])
            error = box["error"]
            if isinstance(error, DeviceError):
                raise error
            raise DeviceError(f"audio output failed: {error}") from None
        return box["stream"]

    def _play(
        self, audio: RenderedAudio, on_start: Callable[[], None], cancel: threading.Event
    ) -> bool:
        sd = self._sd
        data = audio.samples
        position = 0
        finished = threading.Event()

        asked = threading.Event()

        def callback(outdata: Any, frames: int, time: Any, status: Any) -> None:
            nonlocal position
            asked.set()
            wanted = frames * 2
            chunk = data[position : position + wanted]
            position += len(chunk)
            outdata[: len(chunk)] = chunk
            if len(chunk) < wanted:
                outdata[len(chunk) :] = b"\x00" * (wanted - len(chunk))
                raise sd.CallbackStop

        stream = self._started(audio, callback, finished)
        try:
            if not asked.wait(FIRST_BLOCK_WAIT) and not finished.is_set():
                raise _NotPlaying("audio output started but is not playing")
            on_start()
            # finished_callback fires once the last buffer has been played, not just queued.
            # A device unplugged mid-sound may just stop calling back: give up after a margin.
            waited = 0.0
            while not finished.wait(POLL):
                waited += POLL
                if cancel.is_set():
                    stream.abort()
                    return False
                if waited > audio.duration + HANG_MARGIN:
                    raise DeviceError("audio output stopped playing")
            return True
        except DeviceError:
            raise
        except Exception as exc:
            raise DeviceError(f"audio output failed: {exc}") from None
        finally:
            # Closing a failed stream may fail again; there is nothing more to do then.
            with contextlib.suppress(Exception):
                closed_stream(stream)

    def close(self) -> None:
        """Nothing to release: each play opens and closes its own stream."""
