"""The ``voice-host`` command line.

Each sub-command lives in ``voice_host/commands/<name>.py`` and exposes
``HELP`` (one line), ``configure(parser)`` and ``run(args) -> int``.  Heavy
imports (recognisers, audio, speech) happen inside ``run`` so that ``--help``
and keyboard play never need them.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from voice_host import __version__
from voice_host.errors import VoiceHostError

#: Sub-command names, in the order ``--help`` lists them.
COMMANDS: tuple[str, ...] = (
    "play",
    "simulate",
    "listen",
    "deck",
    "models",
    "devices",
    "saves",
)


def _load(name: str) -> ModuleType:
    return importlib.import_module(f"voice_host.commands.{name}")


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors are one line that points to the help (not the
    usage block first); sub-command parsers are made of the same class."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """Build the full argument parser with every sub-command."""
    parser = _Parser(
        prog="voice-host",
        description="An offline, voice-driven host for the party game Articulate!",
    )
    parser.add_argument("--version", action="version", version=f"voice-host {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        module = _load(name)
        cmd = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.configure(cmd)
        cmd.set_defaults(_run=module.run)
    return parser


def _drop_buffered_output() -> None:
    """What is still buffered for standard output could never be written: drop
    it, so that the interpreter's exit does not report the same failure again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _writable_output() -> None:
    """Standard output and error in an encoding that cannot write every character
    (a Latin-1 locale, ``PYTHONIOENCODING=ascii``) write ``?`` for a character they
    lack, such as a team's emoji, instead of stopping the game with a
    UnicodeEncodeError the first time its name is printed."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            with contextlib.suppress(OSError, ValueError):
                reconfigure(errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit code."""
    _writable_output()
    try:
        parser = build_parser()
        args, extra = parser.parse_known_args(argv)
        if extra:
            # the help that lists a command's options is the command's own
            # ("voice-host models list --dir X": --dir is the models command's)
            command = getattr(args, "command", None)
            where = f"voice-host {command}" if command else "voice-host"
            parser.exit(
                2, f"voice-host: unrecognized arguments: {' '.join(extra)} (see {where} --help)\n"
            )
        if sys.stdin is None:  # started with standard input closed (`<&-`): no keys, at once
            sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - for the whole run
        code: int = args._run(args)
        # a short output still sits in the buffer: write it here, where a full
        # disk is caught below, not in the interpreter's exit (exit 120)
        if sys.stdout is not None:
            sys.stdout.flush()
    except VoiceHostError as exc:
        print(f"voice-host: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("voice-host: interrupted", file=sys.stderr)
        # An engine interrupted while it loaded leaves a half-made object whose
        # finaliser fails as it is collected ("Exception ignored in ..."): noise
        # after the one line that says what happened.
        sys.unraisablehook = lambda _: None
        return 130
    except BrokenPipeError:  # the reader went away (`deck check ... | head -1`)
        _drop_buffered_output()
        return 0
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
            raise
        # the output was sent to a file on a full disk (`simulate ... > out.jsonl`)
        _drop_buffered_output()
        where = exc.filename or "the output"
        print(f"voice-host: cannot write {where}: the disk is full", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
