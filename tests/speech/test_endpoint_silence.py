"""Digital silence ends an utterance, however long the stream has run."""

from __future__ import annotations

import json
import wave
from pathlib import Path

from pocketsphinx import Vad

from voice_host.speech.endpoint import SpeechEndpointer

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
FRAME_BYTES = 960  # 30 ms at 16 kHz, 16-bit
GAP = 4.0  # seconds of digital silence after each clip


def _guess_stream() -> tuple[bytes, list[float]]:
    """The clean guess clips of three voices, each followed by GAP seconds of exact
    zeros (a muted or noise-suppressed microphone between replies); and the time
    2 s into each gap."""
    manifest = json.loads((FIXTURES / "manifest.json").read_text(encoding="utf-8"))
    stream = bytearray(3 * 32000)
    checks = []
    for clip in manifest["clips"]:
        if clip["judgement"] != "guess" or clip["noise"] is not None:
            continue
        if clip["voice"] not in ("kal16", "rms", "slt"):
            continue
        with wave.open(str(FIXTURES / clip["file"]), "rb") as f:
            stream += f.readframes(f.getnframes())
        checks.append(len(stream) / 32000 + 2.0)
        stream += bytes(int(GAP * 32000))
    return bytes(stream), checks


def test_the_endpointer_hears_every_gap_of_digital_silence() -> None:
    stream, checks = _guess_stream()
    frames = [stream[i : i + FRAME_BYTES] for i in range(0, len(stream) - 959, FRAME_BYTES)]
    # pocketsphinx's voice detector fed the exact zeros calls some of these gaps
    # speech throughout, once it has heard enough of the stream: the fault.
    vad = Vad(Vad.LOOSE)
    raw = [bool(vad.is_speech(f)) for f in frames]
    assert any(raw[round(t / 0.03)] for t in checks)
    # The endpointer gives it faint noise in place of digital silence: every gap
    # ends the utterance.
    endpointer = SpeechEndpointer()
    in_speech = []
    for frame in frames:
        endpointer.feed(frame)
        in_speech.append(endpointer.in_speech)
    assert not any(in_speech[round(t / 0.03)] for t in checks)
    assert sum(in_speech) > 0.1 * len(frames)  # and the clips themselves are speech
