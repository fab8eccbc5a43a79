"""The host's voice played from a process of its own.

PortAudio asks for each block of sound through a callback, and the callback of
:class:`~voice_host.announce.player.SounddevicePlayer` is a Python function: it
must take the interpreter lock before it runs.  The listening thread builds the
next card's context while the host speaks (on purpose: behind "correct", not in
front of the next guess), and pocketsphinx's calls for it keep the lock for
0.1-1.2 s (``benchmarks/held_interpreter.py``), far longer than the sound
system's buffer of a few tens of milliseconds: the host's voice would drop out at
each card change.  A child process has an interpreter of its own, so nothing the
listening thread does can keep its callback waiting.

:class:`ProcessPlayer` is a :class:`~voice_host.announce.player.Player` whose
``SounddevicePlayer`` (with all its handling of devices that fail, stall or refuse
a rate) runs in a child process: a fresh interpreter (never a ``fork``: the host
has threads and a gigabyte of models; nor ``multiprocessing``'s ``spawn``, which
imports the parent's main module again), ``python -m
voice_host.announce.output_child``, talking over its standard input and output.
The child tells when each sound starts and how it ended; a cancel is passed on to
it.  It starts in about a fifth of a second.  A child that cannot be started
leaves the player in this process, as before.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from voice_host.announce.player import (
    HANG_MARGIN,
    OPEN_TIMEOUT,
    POLL,
    NoPortAudio,
    Player,
    SounddevicePlayer,
    load_sounddevice,
)
from voice_host.announce.player_kept_open import KeptOpenPlayer
from voice_host.announce.render import ENGINE_RATE, RenderedAudio
from voice_host.errors import DeviceError

log = logging.getLogger(__name__)

#: Seconds a child may take to start, import ``sounddevice`` and open the output
#: (about half a second on a slow machine; a busy one, at a game's start, more).
START_TIMEOUT = 15.0 + OPEN_TIMEOUT
#: Seconds past a sound's length (and its stream's opening) after which a child that
#: has said nothing is taken as hung, and stopped.
ANSWER_MARGIN = HANG_MARGIN + OPEN_TIMEOUT + 2.0
#: Seconds after a child's start before a dead one is started again.
REVIVE_AFTER = 10.0

#: The errors a child reports, by name (each a :class:`DeviceError`).
_ERRORS: dict[str, type[DeviceError]] = {"NoPortAudio": NoPortAudio, "DeviceError": DeviceError}


class ProcessPlayer:
    """Plays through a :class:`SounddevicePlayer` in a child process (see the module).
    A child that died (a device's driver crashing it) or was stopped (it hung) is
    started again, the device list read afresh, at the first text
    :data:`REVIVE_AFTER` seconds or more after the last start."""

    def __init__(self, device: int | str | None, module_path: tuple[str, ...] = ()) -> None:
        self._device = device
        self._module_path = module_path
        self._process: subprocess.Popen[bytes] | None = None
        self._conn: _Duplex | None = None
        self._started = -math.inf  # when the last child was started (monotonic)
        self._lock = threading.Lock()  # one sound at a time through the pipe

    @classmethod
    def open(
        cls,
        device: int | str | None = None,
        *,
        reopen: bool = False,
        module_path: tuple[str, ...] = (),
    ) -> Player:
        """A player for ``device`` in a child process, or in this one when no child can
        be started; raise :class:`DeviceError` when there is no such output.
        ``reopen``: the device list read afresh first (:meth:`SounddevicePlayer.reopen`).
        ``module_path``: folders the child looks in first for modules (tests put a
        stand-in ``sounddevice`` there)."""
        player = cls(device, module_path)
        try:
            player._launch(reopen)
        except OSError as exc:
            log.warning("audio output stays in this process: no child process (%s)", exc)
            opener = SounddevicePlayer.reopen if reopen else SounddevicePlayer.open
            return opener(device)
        return player

    @classmethod
    def reopen(cls, device: int | str | None = None) -> Player:
        """As :meth:`open`, after a failure (:meth:`SounddevicePlayer.reopen`)."""
        return cls.open(device, reopen=True)

    def _launch(self, reopen: bool) -> None:
        """Start a child and wait until its output is open: :class:`DeviceError` when it
        is not (the child then ends), ``OSError`` when no child can be started."""
        self._started = time.monotonic()
        self._process, self._conn = _start_child(self._device, reopen, self._module_path)
        try:
            reply = self._answer(START_TIMEOUT)
        except DeviceError:
            self.close()
            raise
        if reply[0] != "ready":
            self.close()
            raise DeviceError(f"audio output process said {reply[0]!r}")

    def _alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def _answer(self, timeout: float) -> tuple[Any, ...]:
        """The child's next message within ``timeout`` seconds; its error raised."""
        assert self._conn is not None
        try:
            ready = self._conn.poll(timeout)
            reply: tuple[Any, ...] = self._conn.recv() if ready else ()
        except (EOFError, OSError):
            reply = ()
        if not reply:
            self._stop()
            raise DeviceError("audio output stopped answering")
        if reply[0] == "error":
            raise _ERRORS.get(reply[1], DeviceError)(reply[2])
        return reply

    def play(
        self, audio: RenderedAudio, *, on_start: Callable[[], None], cancel: threading.Event
    ) -> bool:
        """See :meth:`Player.play`."""
        if cancel.is_set():
            return False
        with self._lock:
            if not self._alive():
                if time.monotonic() - self._started < REVIVE_AFTER:
                    raise DeviceError("audio output process is not running")
                try:
                    self._launch(reopen=True)
                except OSError as exc:
                    raise DeviceError(f"audio output process cannot start: {exc}") from None
            assert self._conn is not None
            try:
                self._conn.send(("play", audio.samples, audio.rate))
            except (OSError, ValueError) as exc:
                self._stop()
                raise DeviceError(f"audio output process is gone: {exc}") from None
            deadline = time.monotonic() + audio.duration + ANSWER_MARGIN
            cancelled = False
            while True:
                if cancel.is_set() and not cancelled:
                    cancelled = True
                    self._send(("cancel",))
                wait = min(POLL, max(0.0, deadline - time.monotonic()))
                try:
                    waiting = self._conn.poll(wait)
                    reply = self._conn.recv() if waiting else None
                except (EOFError, OSError):
                    self._stop()
                    raise DeviceError("audio output process stopped") from None
                if reply is None:
                    if time.monotonic() >= deadline or not self._alive():
                        self._stop()
                        raise DeviceError("audio output stopped answering")
                    continue
                if reply[0] == "started":
                    on_start()
                elif reply[0] == "done":
                    return bool(reply[1])
                elif reply[0] == "error":
                    raise _ERRORS.get(reply[1], DeviceError)(reply[2])

    def _send(self, message: tuple[Any, ...]) -> None:
        with contextlib.suppress(OSError, ValueError):  # gone: the wait for its answer says so
            if self._conn is not None:
                self._conn.send(message)

    def _stop(self) -> None:
        """Stop the child for good (it hung or died): later plays fail at once."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(1.0)
        if self._conn is not None:
            self._conn.close()

    def close(self) -> None:
        """Ask the child to release the device and end; stop it if it does not."""
        if self._alive():
            self._send(("close",))
            assert self._process is not None
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(2.0)
        self._stop()


def _serve(conn: _Duplex, device: int | str | None, reopen: bool) -> None:
    """The child: open the output, then play what the parent sends until it closes."""
    try:
        sd = load_sounddevice()
        opener = KeptOpenPlayer.reopen if reopen else KeptOpenPlayer.open
        player = opener(device, sd=sd)
    except DeviceError as exc:
        conn.send(("error", type(exc).__name__, str(exc)))
        return
    except Exception as exc:  # reported to the parent, which says it in one line
        conn.send(("error", "DeviceError", f"audio output failed: {exc}"))
        return
    conn.send(("ready",))
    if isinstance(player, KeptOpenPlayer):
        # the output's start-up wait (PulseAudio: up to 1.9 s) before the first text
        with contextlib.suppress(DeviceError):
            player.warm(ENGINE_RATE)
    try:
        while True:
            message = conn.recv()
            if message[0] == "close":
                return
            if message[0] == "play" and not _play(conn, player, RenderedAudio(*message[1:3])):
                return
    except (EOFError, OSError, KeyboardInterrupt):
        return  # the parent is gone (or interrupted with it): nothing to play for
    finally:
        player.close()


def _play(conn: _Duplex, player: SounddevicePlayer, audio: RenderedAudio) -> bool:
    """Play ``audio`` on a thread, passing a cancel on to it; False when told to close."""
    cancel = threading.Event()
    result: list[tuple[Any, ...]] = []

    def run() -> None:
        try:
            done = player.play(audio, on_start=lambda: conn.send(("started",)), cancel=cancel)
            result.append(("done", done))
        except DeviceError as exc:
            result.append(("error", type(exc).__name__, str(exc)))
        except Exception as exc:
            result.append(("error", "DeviceError", f"audio output failed: {exc}"))

    playing = threading.Thread(target=run, name="audio-out", daemon=True)
    playing.start()
    closing = False
    while playing.is_alive():
        if conn.poll(POLL):
            message = conn.recv()
            if message[0] in ("cancel", "close"):
                cancel.set()
                closing = closing or message[0] == "close"
    playing.join()
    conn.send(result[0] if result else ("done", False))
    return not closing


class _Duplex:
    """Messages both ways over two pipes (the child's standard input and a descriptor
    of its standard output), with the interface of a ``multiprocessing`` connection."""

    def __init__(self, reading: int, writing: int) -> None:
        self._in = Connection(reading, writable=False)
        self._out = Connection(writing, readable=False)
        self._sending = threading.Lock()  # the child sends from two threads

    def send(self, message: tuple[Any, ...]) -> None:
        with self._sending:
            self._out.send(message)

    def recv(self) -> tuple[Any, ...]:
        message: tuple[Any, ...] = self._in.recv()
        return message

    def poll(self, timeout: float) -> bool:
        return self._in.poll(timeout)

    def close(self) -> None:
        for end in (self._in, self._out):
            with contextlib.suppress(OSError):
                end.close()


def _start_child(
    device: int | str | None, reopen: bool, module_path: tuple[str, ...]
) -> tuple[subprocess.Popen[bytes], _Duplex]:
    """The child process and the parent's end of the pipes to it.  It is a fresh
    interpreter (``python -m voice_host.announce.output_child``), not a fork of
    this one, which has threads and a gigabyte of models; it finds the modules this
    process finds."""
    path = os.pathsep.join(p for p in (*module_path, *sys.path) if p)
    env = dict(os.environ, PYTHONPATH=path)
    spec = json.dumps({"device": device, "reopen": reopen})
    process = subprocess.Popen(
        [sys.executable, "-m", "voice_host.announce.output_child", spec],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    conn = _Duplex(os.dup(process.stdout.fileno()), os.dup(process.stdin.fileno()))
    process.stdin.close()
    process.stdout.close()
    return process, conn
