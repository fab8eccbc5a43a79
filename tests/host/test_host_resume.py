"""Resuming after the process is killed mid-turn (SIGKILL): the saved game is intact."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from voice_host.rules import Game

ROOT = Path(__file__).parents[2]
RUNNER = """
import sys
from pathlib import Path
from voice_host.config import HostConfig
from voice_host.host.live import run_live
d = Path(sys.argv[1])
config = HostConfig(
    teams="Red:Ann,Bob;Blue:Cat,Dan", timer=60.0, deck=d / "deck.txt", board=d / "board.json",
    keyboard_only=True, save=Path(sys.argv[2]), seed=7, resume=sys.argv[3] == "resume",
)
sys.exit(run_live(config))
"""


def _start(save: Path, mode: str) -> subprocess.Popen[str]:
    data = Path(__file__).with_name("data")
    return subprocess.Popen(
        [sys.executable, "-c", RUNNER, str(data), str(save), mode],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _saved_correct(save: Path) -> int | None:
    try:
        outer = json.loads(save.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return int(Game.from_json(outer["game"]).state.correct)


def test_killed_mid_turn_then_resumed(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    proc = _start(save, "new")
    assert proc.stdin is not None
    proc.stdin.write("c\nc\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while _saved_correct(save) != 2:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the two correct guesses were never saved"
        time.sleep(0.1)
    proc.send_signal(signal.SIGKILL)  # mid-turn: the 60 s timer is still running
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL

    again = _start(save, "resume")
    out, err = again.communicate("c\nq\ny\n", timeout=60)
    assert again.returncode == 0, err
    assert "Resuming the saved game." in out
    # What the cut turn had won is said, and the time its timer had left (the 60 s
    # timer ran for a moment before the kill): it goes on with that, not a fresh turn.
    said = re.search(r"Red has two right so far, (\d+) seconds left\.", out)
    assert said is not None, out
    assert 50 <= int(said.group(1)) <= 60
    assert "Red's turn. Ann describing" in out
    # The count of the killed turn survived, and play went on from it.
    assert ", correct. Three." in out
    assert _saved_correct(save) == 3
