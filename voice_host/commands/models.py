"""`voice-host models`: fetch, list and verify vosk speech models (verify checks a
pocketsphinx acoustic model folder too: ``--model`` takes either).  ``list`` looks
at the files; ``verify`` also loads each model once, in a child process."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from voice_host.errors import ModelError, UsageError
from voice_host.speech import models
from voice_host.speech.models import (
    DEFAULT_MODEL,
    KNOWN_MODELS,
    ModelSource,
    default_models_dir,
)
from voice_host.speech.sphinx_model import check_acoustic_model, has_mdef

HELP = "fetch, list or verify vosk speech models in models/"

#: Where models live (see :func:`voice_host.speech.models.default_models_dir`).
MODELS_DIR = default_models_dir(os.environ)


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    parser.add_argument(
        "--dir",
        type=Path,
        default=MODELS_DIR,
        help=f"models folder (default: $VOICE_HOST_MODELS or {MODELS_DIR})",
    )
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    fetch = sub.add_parser("fetch", help="download, check and install a model")
    fetch.add_argument(
        "name", nargs="?", default=None, help="model name (default vosk-model-small-en-us-0.15)"
    )
    fetch.add_argument("--url", help="download address (for a model not known by name)")
    fetch.add_argument("--sha256", help="expected SHA-256 of the zip (hex)")
    fetch.add_argument("--size", type=int, help="expected size of the zip in bytes")
    sub.add_parser("list", help="list model folders and whether each is complete")
    verify = sub.add_parser(
        "verify",
        help="check a model folder (vosk, or a pocketsphinx acoustic model) is whole and loads",
    )
    verify.add_argument(
        "name",
        nargs="?",
        metavar="NAME|PATH",
        help="a folder's name in the models folder (as 'list' shows it), or a path to a "
        "folder anywhere: anything with a '/' is a path (./NAME for one in the current "
        "folder); default: every folder in the models folder",
    )


def run(args: argparse.Namespace) -> int:
    """Run the command; output formats are one line per model."""
    models_dir: Path = args.dir
    if models_dir.exists() and not models_dir.is_dir():
        raise ModelError(f"{models_dir}: not a folder (--dir names the folder models live in)")
    if args.action == "fetch":
        source = _source(args)
        path = models.fetch(source, models_dir, models.stderr_progress())
        print(f"installed {path}")
        return 0
    if args.action == "list":
        found = models.list_models(models_dir)
        if not found:
            print(f"no models in {models_dir}/ (run 'voice-host models fetch')")
        for name, valid in found:
            print(f"{name}\t{'ok' if valid else _not_vosk(models_dir / name)}")
        return 0
    if args.name is not None:
        paths = [_named_folder(models_dir, args.name)]
    else:
        paths = [models_dir / n for n, _ in models.list_models(models_dir)]
    if not paths:
        raise ModelError(f"no models in {models_dir}/ to verify (run 'voice-host models fetch')")
    # every folder is checked, each on a line of its own (a damaged one stopped the
    # check of those after it: session 59's audit), then one error line if any failed;
    # one folder's reason is that line
    failed: list[str] = []
    for path in paths:
        try:
            _verify(path)
        except ModelError as exc:
            if len(paths) == 1:
                raise
            failed.append(path.name)
            print(f"{path}\t{str(exc).removeprefix(f'{path}: ')}", flush=True)
        else:
            print(f"{path}\tok", flush=True)
    if failed:
        raise ModelError(
            f"{len(failed)} of {len(paths)} models in {models_dir}/ failed: {', '.join(failed)}"
        )
    return 0


def _named_folder(models_dir: Path, name: str) -> Path:
    """The folder ``verify NAME`` means: a plain name is one in ``models_dir`` (the
    folder ``list`` lists, whatever the current folder); anything with a slash,
    or ``~`` or ``.`` or ``..``, is a path as given."""
    if not name.strip():
        raise UsageError("models verify: the model name is empty")
    if "/" in name or os.sep in name or name.startswith("~") or name in (".", ".."):
        return Path(name).expanduser()
    path = models_dir / name
    if not path.exists():
        raise ModelError(
            f"{path}: no such model folder ('voice-host models list' lists {models_dir}/;"
            f" a path needs a '/', as ./{name})"
        )
    return path


def _check_acoustic_model(path: Path) -> None:
    """A pocketsphinx acoustic model's files read, then the model loaded once in a
    child process: what no reading of its files foresees (a ``feat.params`` it
    cannot use) ends pocketsphinx, and would end a game."""
    check_acoustic_model(path)
    from voice_host.speech.pocketsphinx_backend import probe_model

    probe_model(path, strict=True)


def _not_vosk(path: Path) -> str:
    """What ``list`` says of a folder that is no complete vosk model: a pocketsphinx
    acoustic model (which only ``--model`` chooses), or incomplete."""
    if not has_mdef(path):
        return "incomplete"
    try:
        _check_acoustic_model(path)
    except ModelError:
        return "incomplete (pocketsphinx)"
    return "ok (pocketsphinx: use it with --model)"


def _verify(path: Path) -> None:
    """Check ``path`` as what ``--model`` takes: a pocketsphinx acoustic model
    when it has an ``mdef`` and is no vosk model, else a vosk model."""
    if has_mdef(path) and models.missing_files(path):
        _check_acoustic_model(path)
    else:
        models.verify_model(path)
        models.probe_vosk_model(path)  # its files may be whole and still no model's


def _source(args: argparse.Namespace) -> ModelSource:
    if args.name is not None and not args.name.strip():  # as verify says
        raise UsageError("models fetch: the model name is empty")
    name = args.name or DEFAULT_MODEL.name
    given = (args.url, args.sha256, args.size)
    if all(v is None for v in given):
        if name not in KNOWN_MODELS:
            known = ", ".join(KNOWN_MODELS)
            raise UsageError(
                f"unknown model {name!r}: give --url, --sha256 and --size (known: {known})"
            )
        return KNOWN_MODELS[name]
    if any(v is None for v in given):
        raise UsageError("--url, --sha256 and --size go together")
    sha = args.sha256.lower()
    if len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
        raise UsageError("--sha256 must be 64 hex digits")
    if args.size <= 0:
        raise UsageError("--size must be a positive number of bytes")
    if "/" in name or name.startswith("."):
        raise UsageError(f"model name {name!r} must be a plain folder name")
    return ModelSource(name, args.url, args.size, sha)
