"""The input queue takes a put from a signal handler that interrupts another put.

The board view's SIGTSTP handler (Ctrl-Z, or ``kill -TSTP`` from elsewhere) runs on
textual's main thread and puts :class:`Suspending` on the host's queue; that thread
also puts every key pressed.  A handler runs between two bytecodes of whatever the
thread was doing: inside a put, a second put on a queue whose lock the thread holds
waited for itself for ever (the board view frozen, Ctrl-C too)."""

from __future__ import annotations

import sys
import threading
from types import FrameType
from typing import Any

from voice_host.host.inputs import InputQueue, KeyPress, Suspending


def test_a_put_from_a_handler_in_the_middle_of_a_put_goes_through() -> None:
    inputs = InputQueue()
    handled = threading.Event()

    outer: list[FrameType] = []  # InputQueue.put's frame, for the key

    def holding() -> bool:
        """Whether the queue under InputQueue holds a lock of its own now."""
        state = getattr(inputs._queue, "__dict__", {})  # none in a queue written in C
        locks = [v for v in state.values() if hasattr(v, "locked")]
        return any(lock.locked() for lock in locks)

    def handle() -> None:
        handled.set()
        sys.settrace(None)
        inputs.put(Suspending(1.0))

    def handler_inside_a_put(frame: FrameType, event: str, arg: Any) -> Any:
        # what the signal handler does, run at the first line of Python inside the
        # key's put while the queue holds its lock; where there is none (a queue
        # written in C runs no Python inside), as that put returns
        if handled.is_set():
            return None
        if event == "call" and not outer and frame.f_code is InputQueue.put.__code__:
            outer.append(frame)
        elif outer and (
            (event == "line" and frame is not outer[0] and holding())
            or (event == "return" and frame is outer[0])
        ):
            handle()
            return None
        return handler_inside_a_put

    def main_thread() -> None:
        sys.settrace(handler_inside_a_put)
        try:
            inputs.put(KeyPress("c", 1.0))  # a key from the board view
        finally:
            sys.settrace(None)

    worker = threading.Thread(target=main_thread, daemon=True)
    worker.start()
    worker.join(5.0)
    assert not worker.is_alive(), "the put from the handler waited for itself"
    got = [inputs.get(0.1), inputs.get(0.1)]
    assert {type(x) for x in got} == {KeyPress, Suspending}
