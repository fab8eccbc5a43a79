"""The host's voice played from a child process (``announce.player_process``).

PortAudio's output callback is a Python function; in the host's own process it
waits for the interpreter lock whenever the listening thread is inside a long C
call (pocketsphinx loading the next card's language model while the host says
"correct": up to 1.2 s, ``benchmarks/held_interpreter.py``), and the host's voice
drops out.  These tests play through a stand-in for ``sounddevice`` that asks for
blocks in real time (``standin/sounddevice.py``) and logs how long its callback was
held up.
"""

from __future__ import annotations

import importlib.util
import threading
import time
from pathlib import Path
from types import ModuleType

import pytest

from voice_host.announce.player import Player, SounddevicePlayer
from voice_host.announce.player_process import ProcessPlayer
from voice_host.announce.render import RenderedAudio
from voice_host.errors import DeviceError

#: The folder of the stand-in ``sounddevice`` the child imports.
STANDIN = (str(Path(__file__).parent / "standin"),)
RATE = 22050


def _audio(seconds: float) -> RenderedAudio:
    return RenderedAudio(b"\x01\x00" * round(RATE * seconds), RATE)


def _hold_the_interpreter(seconds: float) -> float:
    """One C call that keeps the interpreter lock about ``seconds`` (as pocketsphinx's
    calls do): summing a range never lets another thread in.  How long it held it."""
    n = 1_000_000
    began = time.perf_counter()
    sum(range(n))
    per = (time.perf_counter() - began) / n
    began = time.perf_counter()
    sum(range(int(seconds / per)))
    return time.perf_counter() - began


def _standin() -> ModuleType:
    """The stand-in ``sounddevice`` module, for a player in this process."""
    spec = importlib.util.spec_from_file_location(
        "standin_sounddevice", STANDIN[0] + "/sounddevice.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _longest_hold(log: Path) -> float:
    return max(float(x) for x in log.read_text(encoding="utf-8").split())


def test_plays_to_the_end_and_says_when_it_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_SD_LOG", str(tmp_path / "held"))
    player = ProcessPlayer.open(None, module_path=STANDIN)
    try:
        assert isinstance(player, ProcessPlayer)
        started: list[float] = []
        began = time.monotonic()
        assert player.play(
            _audio(0.5), on_start=lambda: started.append(time.monotonic()), cancel=threading.Event()
        )
        ended = time.monotonic()
        assert len(started) == 1 and started[0] - began < 0.5
        assert ended - started[0] >= 0.45  # it played in real time, to the end
        # a second text on the same child
        assert player.play(_audio(0.1), on_start=lambda: None, cancel=threading.Event())
    finally:
        player.close()


def test_a_cancel_stops_the_sound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_SD_LOG", str(tmp_path / "held"))
    player = ProcessPlayer.open(None, module_path=STANDIN)
    try:
        cancel = threading.Event()
        threading.Timer(0.3, cancel.set).start()
        began = time.monotonic()
        assert not player.play(_audio(5.0), on_start=lambda: None, cancel=cancel)
        assert time.monotonic() - began < 1.5
        assert player.play(_audio(0.1), on_start=lambda: None, cancel=threading.Event())
    finally:
        player.close()


def test_a_missing_output_is_a_device_error() -> None:
    with pytest.raises(DeviceError, match="not available"):
        ProcessPlayer.open("missing", module_path=STANDIN)


def test_a_child_that_dies_fails_the_next_text_at_once_then_comes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A child gone (a driver crashing it) fails the texts at once for a while, then is
    started again (before, a crash in PortAudio took the whole host with it)."""
    monkeypatch.setenv("FAKE_SD_LOG", str(tmp_path / "held"))
    player = ProcessPlayer.open(None, module_path=STANDIN)
    assert isinstance(player, ProcessPlayer)
    try:
        assert player._process is not None
        player._process.kill()
        player._process.wait(5.0)
        began = time.monotonic()
        with pytest.raises(DeviceError):
            player.play(_audio(2.0), on_start=lambda: None, cancel=threading.Event())
        assert time.monotonic() - began < 1.0
        monkeypatch.setattr("voice_host.announce.player_process.REVIVE_AFTER", 0.0)
        assert player.play(_audio(0.1), on_start=lambda: None, cancel=threading.Event())
    finally:
        player.close()


def test_the_listening_thread_cannot_hold_up_the_voice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While this process holds the interpreter lock for about 0.5 s, the child's
    callback is not held up by it; the same player in this process is held up most of
    that time."""
    log = tmp_path / "held"
    monkeypatch.setenv("FAKE_SD_LOG", str(log))

    def play_while_held(player: Player) -> tuple[float, float]:
        done = threading.Event()

        def play() -> None:
            player.play(_audio(1.2), on_start=lambda: None, cancel=threading.Event())
            done.set()

        played = threading.Thread(target=play)
        played.start()
        time.sleep(0.3)  # the sound is under way
        held = _hold_the_interpreter(0.5)
        assert done.wait(10.0)
        played.join()
        late = _longest_hold(log)
        log.unlink()
        return late, held

    child = ProcessPlayer.open(None, module_path=STANDIN)
    try:
        late, held = play_while_held(child)
        assert held > 0.2 and late < min(0.1, held / 3)
    finally:
        child.close()
    here = SounddevicePlayer.open(None, sd=_standin())
    late, held = play_while_held(here)
    assert late > held / 2


def test_ctrl_c_is_the_hosts_to_act_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C reaches every process of the terminal's group: the child plays on, so
    the host can say that it saved the game."""
    import signal

    monkeypatch.setenv("FAKE_SD_LOG", str(tmp_path / "held"))
    player = ProcessPlayer.open(None, module_path=STANDIN)
    assert isinstance(player, ProcessPlayer) and player._process is not None
    try:
        player._process.send_signal(signal.SIGINT)
        time.sleep(0.2)
        assert player.play(_audio(0.1), on_start=lambda: None, cancel=threading.Event())
    finally:
        player.close()


def test_the_voice_child_of_a_killed_host_ends_without_a_traceback(tmp_path: Path) -> None:
    # session 61's audit: kill -9 of the live host as its voice child opened the
    # output left two tracebacks (the device error, then a broken pipe telling it)
    import subprocess
    import sys

    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "voice_host.announce.output_child",
            '{"device": "zz-none", "reopen": false}',
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=Path(__file__).parents[2],
    )
    assert child.stdout is not None and child.stdin is not None
    child.stdout.close()  # the parent is gone: nobody reads what the child says
    child.stdin.close()
    assert child.stderr is not None
    with child.stderr:
        err = child.stderr.read()
    assert child.wait(timeout=60) == 0
    assert b"Traceback" not in err
