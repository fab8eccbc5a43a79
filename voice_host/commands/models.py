"""`voice-host models`: fetch, list and verify vosk speech models."""

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
    verify = sub.add_parser("verify", help="check a model folder has every required file")
    verify.add_argument(
        "path", nargs="?", type=Path, help="model folder (default: every folder in models/)"
    )


def run(args: argparse.Namespace) -> int:
    """Run the command; output formats are one line per model."""
    models_dir: Path = args.dir
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
            print(f"{name}\t{'ok' if valid else 'incomplete'}")
        return 0
    paths = (
        [args.path] if args.path else [models_dir / n for n, _ in models.list_models(models_dir)]
    )
    if not paths:
        raise ModelError(f"no models in {models_dir}/ to verify (run 'voice-host models fetch')")
    for path in paths:
        models.verify_model(path)
        print(f"{path}\tok")
    return 0


def _source(args: argparse.Namespace) -> ModelSource:
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
