"""The committed screenshot (docs/make_screenshot.py) tells the truth about the keys."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from voice_host.host.keys import ALWAYS, TURN

DOCS = Path(__file__).resolve().parents[2] / "docs"


def load_make_screenshot() -> ModuleType:
    """docs/make_screenshot.py as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("make_screenshot", DOCS / "make_screenshot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_screenshot_names_the_keys_a_turn_really_has() -> None:
    # The screenshot's message line said "space correct, p pass, f foul, ? help":
    # in a turn space pauses the timer and C counts a card.
    message = load_make_screenshot().example_model().message
    assert message.startswith("Keys: "), message
    pairs = [item.split(" ", 1) for item in message.removeprefix("Keys: ").split(", ")]
    keys = {**ALWAYS, **TURN}
    for key, words in pairs:
        pressed = " " if key == "space" else key.lower()
        assert pressed in keys, (key, message)
        assert keys[pressed] == words.split()[0], (key, words, message)
