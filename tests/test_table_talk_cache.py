"""The table-talk benchmark's cache of recogniser events: what it stores comes back
the same, and its key changes with what shapes the hearing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from voice_host.speech.events import HeardWord, RecognitionEvent

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import table_talk


def test_an_event_survives_the_cache_round_trip() -> None:
    event = RecognitionEvent(
        kind="final",
        words=(HeardWord("is", 0.3, 0.42, 0.9), HeardWord("kangaroo", 0.42, 1.01, None)),
        emitted_at=1.3,
        source="free",
        confirmed=True,
        utterance=(0.25, 1.2),
        transcriber="moonshine",
    )
    stored = json.loads(json.dumps(table_talk._event_data(event)))
    assert table_talk._event(stored) == event


def test_the_key_depends_on_the_command_phrases() -> None:
    a = table_talk.hearing_key(("host pass",))
    assert a == table_talk.hearing_key(("host pass",))
    assert a != table_talk.hearing_key(("host pass", "host red"))
