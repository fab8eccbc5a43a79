"""The suite runs as on a machine with no audio device, whatever this machine has
(``tests/noaudio/sounddevice.py``): a sound server or card must not change a result."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

STANDIN = Path(__file__).parent / "noaudio" / "sounddevice.py"
CHILD = [sys.executable, "-c", "import sounddevice; print(sounddevice.__file__)"]


def test_this_process_and_its_children_see_no_audio_device() -> None:
    sd = importlib.import_module("sounddevice")
    assert Path(sd.__file__).resolve() == STANDIN.resolve()
    assert list(sd.query_devices()) == []
    with pytest.raises(sd.PortAudioError, match="Error querying device -1"):
        sd.RawInputStream(samplerate=16000, channels=1, dtype="int16")
    out = subprocess.run(CHILD, capture_output=True, text=True, check=True).stdout
    assert Path(out.strip()).resolve() == STANDIN.resolve()


@pytest.mark.usefixtures("real_sounddevice")
def test_a_test_may_ask_for_the_real_library() -> None:
    out = subprocess.run(CHILD, capture_output=True, text=True, check=True).stdout
    assert Path(out.strip()).resolve() != STANDIN.resolve()
    assert "site-packages" in out
