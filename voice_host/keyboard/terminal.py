"""The keyboard game in the terminal: the clock loop that drives the controller.

Keys come from :mod:`voice_host.terminal_keys` (single keys on a terminal, lines
from a pipe); the timer is checked ten times a second.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from voice_host.errors import UsageError
from voice_host.keyboard import texts
from voice_host.keyboard.controller import KeyboardController
from voice_host.rules import RulesError
from voice_host.terminal_keys import KeySource, Suspension, TerminalKeys, key_source, printer

#: How often the loop looks at the timer, in seconds.
POLL_SECONDS = 0.1


def play_loop(
    controller: KeyboardController,
    keys: KeySource,
    write: Callable[[str], None],
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Run the game until the players quit, the keys run out or Ctrl-C; return the exit code.

    Every change is already saved by the controller's ``on_change``, and the turn's
    time left once more on the way out (even when a write fails: the terminal may be
    gone), so stopping early loses nothing: the caller says where the game is kept.
    Ctrl-Z pauses the turn before the process stops (:class:`Suspension`) when the keys
    come from a terminal, read a tenth of a second at a time; keys from a pipe block in
    a read, and there Ctrl-Z stops the process at once, as it always did.
    """
    for line in controller.opening():
        write(line)
    suspension = Suspension()
    try:
        with suspension.taking(isinstance(keys, TerminalKeys)):
            while not controller.finished:
                if suspension.take():
                    controller.suspend(clock())
                    suspension.stop()  # until fg (or bg)
                    said = controller.continued(clock())
                else:
                    try:
                        key = keys.read_key(POLL_SECONDS)
                    except EOFError:
                        write(texts.END_OF_INPUT)
                        break
                    now = clock()
                    said = controller.tick(now) if key is None else controller.press(key, now)
                for line in said:
                    write(line)
    except KeyboardInterrupt:
        write(texts.INTERRUPTED)
    finally:
        controller.leave(clock())  # the turn's time left goes into the save too
    return 0


def run_terminal(
    make_controller: Callable[[KeySource, Callable[[str], None]], KeyboardController],
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Set up (prompts in normal mode) then play (single keys on a terminal)."""
    write = printer(stdout)
    keys = key_source(stdin, write)
    try:
        controller = make_controller(keys, write)
    except RulesError as exc:
        raise UsageError(str(exc)) from None
    if isinstance(keys, TerminalKeys):
        with keys.cbreak():
            return play_loop(controller, keys, write, clock)
    return play_loop(controller, keys, write, clock)
