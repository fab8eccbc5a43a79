"""scripts/constraints.txt pins the whole dependency tree (pyproject.toml pins
only the direct dependencies): every line is an exact `==` pin, each package
once, the direct pins agree with it, and scripts/bootstrap.sh installs with it
and sets up anew when it changes."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ROOT / "scripts" / "constraints.txt"
BOOTSTRAP = ROOT / "scripts" / "bootstrap.sh"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.+!_-]+)$")


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for number, raw in enumerate(CONSTRAINTS.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = PIN.match(line)
        assert match, f"constraints.txt line {number} is no exact name==version pin: {raw!r}"
        name = canonicalize_name(match.group(1))
        assert name not in pins, f"constraints.txt pins {name} twice (line {number})"
        pins[name] = match.group(2)
    return pins


def _direct_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    texts = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        texts.extend(extra)
    return [Requirement(text) for text in texts]


def test_every_constraint_is_an_exact_pin() -> None:
    pins = _pins()
    assert len(pins) > 40  # the tree, not only the direct dependencies
    for name in ("pip", "setuptools", "requests", "protobuf", "regex", "markdown-it-py", "cffi"):
        assert name in pins, f"{name} is not pinned"


def test_direct_pins_agree_with_the_constraints() -> None:
    pins = _pins()
    for requirement in _direct_requirements():
        specifiers = list(requirement.specifier)
        assert len(specifiers) == 1 and specifiers[0].operator == "==", (
            f"pyproject.toml does not pin {requirement} exactly"
        )
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is pinned in pyproject.toml but not in constraints.txt"
        assert pins[name] == specifiers[0].version, (
            f"{name}: pyproject.toml pins {specifiers[0].version}, constraints.txt {pins[name]}"
        )


def test_the_build_backend_pin_satisfies_pyproject() -> None:
    build = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]
    pins = _pins()
    for text in build["requires"]:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"the build requirement {name} is not pinned"
        assert requirement.specifier.contains(pins[name]), f"{name}=={pins[name]} fails {text}"


def test_bootstrap_installs_with_the_constraints() -> None:
    script = BOOTSTRAP.read_text(encoding="utf-8")
    assert "constraints=scripts/constraints.txt" in script
    installs = re.findall(r"-m pip install\b(?:\\\n|[^\n])*", script)
    assert len(installs) == 2, installs
    upgrade, package = installs
    assert "--upgrade pip" in upgrade and '-c "$constraints"' in upgrade
    assert '-c "$constraints"' in package and '--build-constraint "$constraints"' in package
    assert '-e ".$extra"' in package
    # the venv is set up anew when the constraints change, as for pyproject.toml
    assert 'want="$(cat pyproject.toml "$constraints" | sha256sum' in script
