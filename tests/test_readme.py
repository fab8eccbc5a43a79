"""The README's shape: it opens with the two set-up commands, and no section or
paragraph is pasted twice (session 12's figures once landed two copies of three
benchmark sections)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _text() -> str:
    return README.read_text(encoding="utf-8")


def _outside_code(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def test_readme_opens_with_the_play_and_test_commands() -> None:
    block = re.search(r"```sh\n(.*?)```", _text(), flags=re.S)
    assert block is not None
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    assert commands == ["bash scripts/play.sh", "bash scripts/test.sh"]
    for script in ("play.sh", "test.sh"):
        assert (README.parent / "scripts" / script).is_file()


def test_ci_runs_the_readme_test_command() -> None:
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "scripts/test.sh" in ci


def test_no_heading_appears_twice_under_one_parent() -> None:
    seen: Counter[tuple[str, ...]] = Counter()
    path: list[str] = []
    for line in _outside_code(_text()).splitlines():
        match = re.match(r"(#{1,6}) (.+)", line)
        if not match:
            continue
        level = len(match.group(1))
        path = [*path[: level - 1], match.group(2).strip()]
        seen[tuple(path)] += 1
    assert [key for key, n in seen.items() if n > 1] == []


def test_no_long_paragraph_appears_twice() -> None:
    paragraphs = [
        " ".join(p.split())
        for p in re.split(r"\n\s*\n", _outside_code(_text()))
        if len(p.strip()) > 200 and not p.lstrip().startswith("|")
    ]
    assert [p[:80] for p, n in Counter(paragraphs).items() if n > 1] == []
