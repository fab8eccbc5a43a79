"""The child process that plays the host's voice (:mod:`voice_host.announce.player_process`).

Run as ``python -m voice_host.announce.output_child SPEC`` by the parent only; the
package imports nothing of it, so running it imports this module once.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys

from voice_host.announce.player_process import _Duplex, _serve


def main() -> None:
    """The child's entry: its messages on descriptors of its own, so that anything a
    library prints goes to standard error, not into the pipe.  Ctrl-C at the terminal
    reaches the child too: it is the parent's to act on (the host saves and says
    goodbye), and the child ends when the parent closes it or goes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    reading = os.dup(0)
    writing = os.dup(1)
    os.dup2(2, 1)
    spec = json.loads(sys.argv[1])
    # the parent gone (killed): nobody to tell, nothing to print
    with contextlib.suppress(ConnectionError, EOFError):
        _serve(_Duplex(reading, writing), spec["device"], spec["reopen"])


if __name__ == "__main__":
    main()
