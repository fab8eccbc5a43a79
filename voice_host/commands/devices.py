"""`voice-host devices`: placeholder until its issue lands (replaced whole by its owner)."""

from __future__ import annotations

import argparse

from voice_host.errors import UsageError

HELP = "devices (not built yet)"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""


def run(args: argparse.Namespace) -> int:
    """Run the command."""
    raise UsageError("'voice-host devices' is not built yet")
