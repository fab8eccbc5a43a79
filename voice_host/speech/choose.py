"""Which recogniser to use: vosk with a valid model, else the bundled pocketsphinx.

:func:`choose_backend` is pure (no engine is imported) so it can be tested
without either engine installed; :func:`open_recognizer` imports the chosen
backend only when called.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from voice_host.errors import ModelError
from voice_host.speech.events import Recognizer

#: Environment variable naming a vosk model folder.
MODEL_ENV = "VOICE_HOST_MODEL"


@dataclass(frozen=True)
class BackendChoice:
    """The recogniser chosen and why (the host says ``reason`` aloud or prints it)."""

    name: Literal["vosk", "pocketsphinx"]
    model_path: Path | None
    """The vosk model folder; None for pocketsphinx (its model ships in the wheel)."""
    reason: str


def choose_backend(
    *,
    model_arg: str | None,
    env: Mapping[str, str],
    models_dir: Path,
    vosk_installed: bool,
    pocketsphinx_installed: bool,
    model_is_valid: Callable[[Path], bool],
) -> BackendChoice:
    """Pick the backend.

    Order: ``--model PATH`` (must be valid, else :class:`ModelError`), then
    ``VOICE_HOST_MODEL`` (an invalid one is reported and skipped), then the
    first valid model folder in ``models_dir`` (by name); vosk needs its
    package.  Otherwise pocketsphinx, with the reason vosk was not used.
    """
    if model_arg:
        path = Path(model_arg)
        if not model_is_valid(path):
            raise ModelError(f"{path}: not a valid vosk model (try 'voice-host models verify')")
        if not vosk_installed:
            raise ModelError("--model needs the vosk package, which is not installed")
        return BackendChoice("vosk", path, f"Using vosk with the model {path.name}")

    notes: list[str] = []
    env_model = env.get(MODEL_ENV, "").strip()
    candidates: list[Path] = []
    if env_model:
        if model_is_valid(Path(env_model)):
            candidates.append(Path(env_model))
        else:
            notes.append(f"{MODEL_ENV}={env_model} is not a valid vosk model")
    if models_dir.is_dir():
        candidates += [
            p
            for p in sorted(models_dir.iterdir())
            if p.is_dir() and not p.name.startswith(".") and model_is_valid(p)
        ]
    if candidates and vosk_installed:
        return BackendChoice(
            "vosk", candidates[0], f"Using vosk with the model {candidates[0].name}"
        )
    if candidates:
        notes.append("the vosk package is not installed")
    elif not env_model:
        notes.append(f"no vosk model in {models_dir}/")
    if not pocketsphinx_installed:
        raise ModelError("no speech recogniser available: " + "; ".join(notes))
    return BackendChoice("pocketsphinx", None, "Using pocketsphinx: " + "; ".join(notes))


def open_recognizer(choice: BackendChoice, *, second: bool = True) -> Recognizer:
    """Create the chosen recogniser (imports its engine now); ``second``: with the
    second transcriber behind pocketsphinx."""
    if choice.name == "vosk":
        if choice.model_path is None:
            raise ModelError("vosk needs a model folder")
        from voice_host.speech.vosk_backend import VoskRecognizer

        return VoskRecognizer(choice.model_path)
    from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer

    return PocketSphinxRecognizer(second_opinion="auto" if second else None)


def installed(module: str) -> bool:
    """Whether ``module`` can be imported (without importing it)."""
    import importlib.util

    return importlib.util.find_spec(module) is not None
