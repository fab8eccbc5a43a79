"""The speech renderer's temporary files: one a render, none left behind.

Each renderer made a folder (``voice-host-speech-*``) that only ``close`` removed: a
killed process, or a test that replaced what closes the host, left it behind (299 of
them in /tmp after a day of test runs).  On a fake engine, in a temporary folder of
the test's own."""

from __future__ import annotations

import tempfile
import threading
import wave
from pathlib import Path
from typing import Any

import pytest

from voice_host.announce.render import Pyttsx3Renderer, VoiceSettings
from voice_host.errors import EngineError


class _Engine:
    """pyttsx3's engine as the renderer drives it: ``save_to_file`` then
    ``runAndWait`` writes a WAV and announces it; ``hold`` keeps it in the run."""

    def __init__(self, folder: Path, hold: threading.Event | None = None) -> None:
        self.folder = folder
        self.hold = hold
        self.seen: list[list[str]] = []  # the folder's files while each render ran
        self._path = ""
        self._done: Any = None
        self.finished = threading.Event()

    def connect(self, topic: str, callback: Any) -> int:
        self._done = callback
        return 1

    def disconnect(self, token: int) -> None: ...

    def setProperty(self, name: str, value: object) -> None: ...

    def save_to_file(self, text: str, path: str) -> None:
        self._path = path

    def runAndWait(self) -> None:
        if self.hold is not None:
            self.hold.wait(10.0)
        with wave.open(self._path, "wb") as wav:
            wav.setnchannels(1)
            wav.setsampwidth(2)
            wav.setframerate(22050)
            wav.writeframes(b"\x01\x00" * 100)
        self.seen.append(sorted(p.name for p in self.folder.iterdir()))
        self._done()
        self.finished.set()


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The temporary folder, the test's own (others' runs use /tmp at the same time)."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_a_renderer_never_closed_leaves_nothing_and_a_render_one_file(folder: Path) -> None:
    engine = _Engine(folder)
    renderer = Pyttsx3Renderer(init=lambda: engine, espeak=True)
    assert list(folder.iterdir()) == []  # made: nothing yet
    for text in ("Red team, your turn.", "Go!"):
        assert renderer.render(text, VoiceSettings()).duration > 0
        assert list(folder.iterdir()) == []  # rendered: nothing kept
    # while a render ran, its one file was all there was: a kill leaves at most that
    assert [len(files) for files in engine.seen] == [1, 1]
    assert all(f.startswith("voice-host-speech-") for files in engine.seen for f in files)
    renderer.close()  # or not: nothing changes in the folder
    assert list(folder.iterdir()) == []


def test_an_engine_answering_after_the_render_gave_up_leaves_nothing(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    engine = _Engine(folder, hold=release)
    renderer = Pyttsx3Renderer(init=lambda: engine, espeak=True)
    monkeypatch.setattr(Pyttsx3Renderer._call, "__defaults__", (0.2,))  # 0.2 s, not 20
    try:
        with pytest.raises(EngineError, match="did not answer"):
            renderer.render("Telescope, correct.", VoiceSettings())
        release.set()  # the engine writes its file after the caller removed it
        assert engine.finished.wait(10.0)
    finally:
        renderer.close()
    assert list(folder.iterdir()) == []
