"""A stand-in for the ``sounddevice`` module that plays in real time, for players run
in a child process (``tests/announce/test_player_process.py``, which puts this folder first on the
child's module path): its stream's thread
asks the callback for a block every few milliseconds, as PortAudio does, and writes
to the file named by ``FAKE_SD_LOG`` how late, at worst, a block came back after
the moment it was due (a callback held up by the interpreter lock)."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

#: Frames a block (about 12 ms at 22,050 Hz).
FRAMES = 256


class CallbackStop(Exception):
    pass


class PortAudioError(Exception):
    pass


#: The one device: an output, no input.
DEVICE = {
    "name": "stand-in output",
    "max_output_channels": 2,
    "max_input_channels": 0,
    "default_samplerate": 22050.0,
}


class _Default:
    device = (-1, 0)


default = _Default()


def query_devices(device: Any = None, kind: str | None = None) -> Any:
    if device is None and kind is None:
        return [DEVICE]
    if device == "missing":
        raise ValueError("No output device matching 'missing'")
    return DEVICE


class RawOutputStream:
    def __init__(
        self, *, samplerate: float, callback: Any, finished_callback: Any, **_: Any
    ) -> None:
        self.rate = samplerate
        self.callback = callback
        self.finished = finished_callback
        self.aborted = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.active = True

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        period = FRAMES / self.rate
        due = time.monotonic()
        held = 0.0
        self._note(held)
        while not self.aborted.is_set():
            out = bytearray(2 * FRAMES)
            try:
                self.callback(out, FRAMES, None, None)
            except CallbackStop:
                break
            finally:
                # PortAudio's own thread needs the block by ``due``: how late it came
                late = time.monotonic() - due
                if late > held + 0.001:  # noted as it grows: a stream may stay open
                    held = late
                    self._note(held)
            due += period
            time.sleep(max(0.0, due - time.monotonic()))
        self.finished()

    @staticmethod
    def _note(held: float) -> None:
        log = os.environ.get("FAKE_SD_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as f:
                f.write(f"{held}\n")

    def abort(self) -> None:
        self.aborted.set()

    def stop(self) -> None:
        self.aborted.set()

    def close(self) -> None:
        if self.thread.is_alive() and threading.current_thread() is not self.thread:
            self.thread.join(5.0)
