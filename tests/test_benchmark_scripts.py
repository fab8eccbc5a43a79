"""The benchmark scripts still fit the code they measure: each imports, and the parts
that call into the host without a recogniser run (a benchmark that breaks is found
here, not in the session that next wants its numbers)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))


@pytest.mark.parametrize("name", sorted(p.stem for p in BENCHMARKS.glob("*.py")))
def test_each_benchmark_imports(name: str) -> None:
    module = importlib.import_module(name)
    assert callable(getattr(module, "main", None)), f"{name} has no main()"


def test_the_barge_in_benchmark_renders_the_hosts_own_texts() -> None:
    barge_in = importlib.import_module("barge_in")
    texts = barge_in.host_texts()
    assert texts[0].startswith("Welcome to Articulate!") and "say host help" in texts[0]
    assert any(t.endswith("Press space or say host resume.") for t in texts)


def test_benchmarks_listen_in_a_turn_as_the_host_does() -> None:
    # The host listens for no team name in a turn; every benchmark heard in a turn
    # must not either, or it measures another recogniser context.
    for name in ("barge_in", "cut_in", "new_cards", "real_voices", "room"):
        assert importlib.import_module(name).HEARD_TEAMS == (), name
