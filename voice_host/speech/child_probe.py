"""Load a speech model once in a child process, to prove it loads.

Native engines may end the whole process on a model file they cannot read
(pocketsphinx ``FATAL: ...`` and ``exit()``, Kaldi's aborts under vosk): trying it
in a child first lets the host say so in one line instead of ending too.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from voice_host.errors import ModelError


def failed_lines(script: str, *args: str, path: Path, engine: str, timeout: float) -> list[str]:
    """Run ``script`` in a fresh Python with ``args``; the non-empty lines of its
    standard error when it failed, or ``[]`` when it ended well.  :class:`ModelError`
    naming ``path`` when no child could run or it did not end within ``timeout``."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", script, *args],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ModelError(f"{path}: cannot try the {engine} model ({exc})") from None
    if done.returncode == 0:
        return []
    lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
    return lines or [f"exit status {done.returncode}"]
