"""The microphone as a source of chunks, with a watchdog that reopens it.

The PortAudio callback only copies each block into a queue; conversion and
recognition happen in the thread that iterates the source.  An unplugged
microphone often raises nothing, so a watchdog treats "no block for
``stall_seconds``" or "stream no longer active" as a stall, reports it, and
reopens the device with backoff.  A reopen counts only once the new stream
delivers sound: one that opens but stays silent (a suspended sound-server
source) is a failed attempt, and the backoff goes on to its next step.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import queue
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.audio.convert import StreamConverter
from voice_host.audio.devices import (
    InputDevice,
    after_rescan,
    closed_stream,
    load_sounddevice,
    opened_stream,
    resolve_input_device,
)
from voice_host.errors import DeviceError

log = logging.getLogger(__name__)

MicrophoneEventKind = Literal["opened", "stalled", "reopened", "reopen_failed", "gave_up"]
#: Seconds of audio per block asked of PortAudio.
#: 0.05 s: a block's wait adds to the time before a guess is judged (half a block
#: on average); benchmarks/host_latency.py models the same block.
BLOCK_SECONDS = 0.05
#: Seconds a newly opened stream may take to deliver its first block before it
#: counts as stalled: a PulseAudio source fed by a null sink (the virtual
#: microphones of noise suppressors and loopbacks) delivers its first block up to 2 s
#: after opening, so the 1 s stall limit alone never heard one.
START_SECONDS = 3.0
#: Blocks kept when the reader falls behind (2.5 s): blocks coming while it is full are
#: dropped, and their time is counted, so the audio after them keeps its place in time.
QUEUE_BLOCKS = 50


@dataclass(frozen=True)
class MicrophoneEvent:
    """Something the host should know about the microphone (say it, log it)."""

    kind: MicrophoneEventKind
    """``opened``, ``stalled``, ``reopened``, ``reopen_failed`` or ``gave_up``."""
    device: str
    """Name of the device concerned."""
    message: str
    """One line for the user."""
    audio_time: float
    """Seconds of microphone audio delivered before the event."""


class MicrophoneSource:
    """Chunks of about 100 ms from an input device, 16 kHz mono s16.

    ``device`` is an index, a name substring or None for the default input.
    ``on_event`` hears about stalls and reopens.  ``start_seconds`` is how long a
    newly opened stream may take to send its first block.  ``sd`` replaces the
    ``sounddevice`` module (tests pass a scripted fake); ``sleep`` and
    ``clock`` replace ``time.sleep``/``time.monotonic`` for the backoff and
    the watchdog.  Iteration raises :class:`DeviceError` when the device
    cannot be opened at all, or once every backoff step has failed.
    Audio time counts samples delivered (and those dropped while the reader was
    behind), so it does not jump over a stall.
    """

    def __init__(
        self,
        device: int | str | None = None,
        *,
        on_event: Callable[[MicrophoneEvent], None] | None = None,
        stall_seconds: float = 1.0,
        start_seconds: float = START_SECONDS,
        backoff: Sequence[float] = (0.5, 1.0, 2.0, 4.0, 8.0),
        sd: Any | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.device = device
        self.on_event = on_event
        self.stall_seconds = stall_seconds
        self.start_seconds = max(start_seconds, stall_seconds)
        self.backoff = tuple(backoff)
        self._sd = sd
        self._sleep = sleep
        self._clock = clock
        # Each block with the frames dropped just before it (the queue was full).
        self._queue: queue.Queue[tuple[bytes, int]] = queue.Queue(maxsize=QUEUE_BLOCKS)
        self._lost = 0  # frames dropped since the last block queued (PortAudio's thread)
        self._stream: Any | None = None
        self._rate = SAMPLE_RATE
        self._channels = 1
        self._delivered = 0  # 16 kHz samples yielded: the audio clock
        self._closed = False
        self.dropped_blocks = 0
        """Blocks lost because the reader fell behind (the queue was full)."""
        self.input_device: InputDevice | None = None
        """The device in use once opened."""

    # -- the PortAudio side --------------------------------------------------

    def _callback(self, indata: Any, frames: int, time_info: Any, status: Any) -> None:
        # Runs on PortAudio's thread: copy and queue, nothing else.
        try:
            self._queue.put_nowait((bytes(indata), self._lost))
        except queue.Full:
            self.dropped_blocks += 1
            self._lost += frames
        else:
            self._lost = 0

    def _open(self) -> None:
        sd = self._sd if self._sd is not None else load_sounddevice()
        self._sd = sd
        # PortAudio's list of devices is the one it made when it started: a microphone
        # plugged in (or a sound server started) since is only found in a fresh one.
        after_rescan(sd, lambda: self._open_on(sd))

    def _open_on(self, sd: Any) -> None:
        dev = resolve_input_device(self.device, sd)
        self.input_device = dev
        error = getattr(sd, "PortAudioError", RuntimeError)
        stream = None
        last: Exception | None = None
        # 16 kHz mono first; if the device refuses it, its own rate (resampled here),
        # then two channels (mixed down here): some devices opened directly (ALSA
        # "hw:", many USB audio interfaces without a sound server) record stereo only.
        rates = dict.fromkeys((SAMPLE_RATE, int(dev.default_rate) or SAMPLE_RATE))
        layouts = [(rate, 1) for rate in rates]
        if dev.channels >= 2:
            layouts += [(rate, 2) for rate in rates]
        self._lost = 0  # a new stream: a stall's time is not counted (see the class)
        for rate, channels in layouts:
            try:
                stream = opened_stream(
                    functools.partial(
                        sd.RawInputStream,
                        samplerate=rate,
                        channels=channels,
                        dtype="int16",
                        blocksize=int(rate * BLOCK_SECONDS),
                        device=dev.index,
                        callback=self._callback,
                    )
                )
            except (error, ValueError) as exc:
                last = exc
                continue
            try:
                stream.start()
            except (error, ValueError) as exc:
                last = exc
                with contextlib.suppress(Exception):
                    closed_stream(stream)
                stream = None
                continue
            self._rate, self._channels = rate, channels
            break
        if stream is None:
            raise DeviceError(f"cannot open microphone {dev.name!r}: {last}")
        self._stream = stream

    def check(self) -> None:
        """Open the device and close it again: :class:`DeviceError` when it cannot be
        opened (none found, busy, refused), as iterating would say.  Lets the host say
        so before the game opens rather than in its first turn."""
        try:
            self._open()
        finally:
            self._close_stream()

    def _close_stream(self) -> None:
        stream, self._stream = self._stream, None
        if stream is None:
            return
        try:
            # Abort, not stop: PortAudio's stop waits for the device, and a stalled one
            # (a suspended PulseAudio source) held it until the source came back, so
            # the watchdog hung instead of reopening (an input has nothing to drain).
            closed_stream(stream, abort=True)
        except Exception as exc:  # a vanished device may fail to close; it is gone anyway
            log.debug("closing the microphone stream failed: %s", exc)

    def _emit(self, kind: MicrophoneEventKind, message: str) -> None:
        name = self.input_device.name if self.input_device else str(self.device or "default")
        event = MicrophoneEvent(kind, name, message, self._delivered / SAMPLE_RATE)
        log.info("microphone %s: %s", kind, message)
        if self.on_event is not None:
            self.on_event(event)

    def _reopen(self, done: int) -> int:
        """Reopen the device, going on from backoff step ``done`` (the attempts already
        failed in this outage); the number of the attempt whose stream opened (0 when
        closed meanwhile).  Whether it works shows when its first block comes."""
        for attempt, delay in enumerate(self.backoff[done:], start=done + 1):
            self._sleep(delay)
            if self._closed:
                return 0
            try:
                self._open()
            except DeviceError as exc:
                self._emit("reopen_failed", f"attempt {attempt} failed: {exc}")
                continue
            return attempt
        self._emit("gave_up", "the microphone did not come back; use the keyboard")
        raise DeviceError("the microphone stopped and could not be reopened")

    # -- the reader side -----------------------------------------------------

    def _stalled(self, last_block: float, limit: float) -> bool:
        stream = self._stream
        inactive = stream is not None and not bool(getattr(stream, "active", True))
        return inactive or self._clock() - last_block > limit

    def __iter__(self) -> Iterator[AudioChunk]:
        self._open()
        self._emit("opened", f"listening on {self.input_device.name if self.input_device else '?'}")
        last_block = self._clock()
        poll = min(0.1, self.stall_seconds / 4)
        converter: StreamConverter | None = None
        starting = True  # the stream has sent no block yet
        attempt = 0  # the reopen attempt whose stream this is (0: not reopened)
        try:
            while not self._closed:
                try:
                    raw, lost = self._queue.get(timeout=poll)
                except queue.Empty:
                    limit = self.start_seconds if starting else self.stall_seconds
                    if self._stalled(last_block, limit):
                        if attempt:
                            self._emit(
                                "reopen_failed",
                                f"attempt {attempt} failed: the microphone opened but "
                                "sent no sound",
                            )
                        else:
                            self._emit("stalled", "no sound from the microphone; reopening it")
                        self._close_stream()
                        attempt = self._reopen(attempt)
                        converter = None  # a new stream: no filter state from the old one
                        starting = True
                        last_block = self._clock()
                    continue
                last_block = self._clock()
                if starting:
                    starting = False
                    if attempt:
                        self._emit("reopened", f"microphone back after {attempt} attempt(s)")
                        attempt = 0
                if lost:
                    # Blocks dropped while the reader was behind: the audio after them
                    # is stamped when it was heard, not as early as they were long.
                    self._delivered += round(lost * SAMPLE_RATE / self._rate)
                    converter = None  # no filter state across the gap
                if converter is None:
                    converter = StreamConverter(self._rate, 2, self._channels)
                samples = converter.convert(raw)
                if not samples:
                    continue
                yield AudioChunk(samples, SAMPLE_RATE, self._delivered / SAMPLE_RATE)
                self._delivered += len(samples) // 2
        finally:
            self._close_stream()

    def close(self) -> None:
        """Stop iterating at the next block and release the device."""
        self._closed = True
