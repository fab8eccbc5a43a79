"""The screen for the table: what it shows (:class:`ScreenModel`) and two ways to show it.

- :class:`~voice_host.screen.app.TableApp` (``voice_host.screen.app``, imports
  textual): the board as a track, timer, count, card, what was heard.
- :class:`PlainScreen`: ``--plain``, one short line per change for screen readers.

Both take a new model through ``update_model(model)`` from any thread.  Build
models from the rules engine with :func:`screen_model_from_game`.
"""

from voice_host.screen.adapter import card_text, screen_model_from_game
from voice_host.screen.model import Screen, ScreenModel, TeamView, TimerView
from voice_host.screen.plain import PlainScreen

__all__ = [
    "PlainScreen",
    "Screen",
    "ScreenModel",
    "TeamView",
    "TimerView",
    "card_text",
    "screen_model_from_game",
]
