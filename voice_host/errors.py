"""Errors the user sees as one clear line (never a traceback).

Every error that the command line should report as ``voice-host: <message>``
and a non-zero exit derives from :class:`VoiceHostError`.  Subclasses also
derive from the built-in that fits: ``ValueError`` for bad input (a file, an
argument), ``RuntimeError`` for an outside engine or device failing.
"""

from __future__ import annotations

from pathlib import Path


class VoiceHostError(Exception):
    """Base of every error reported to the user as one line."""

    exit_code: int = 2


class InputFileError(VoiceHostError, ValueError):
    """A file the user gave (deck, board, script, audio, config) is malformed."""


class UsageError(VoiceHostError, ValueError):
    """A command-line argument or option is not acceptable."""


class EngineError(VoiceHostError, RuntimeError):
    """An outside engine (recogniser, speech synthesiser) failed or is missing."""


class DeviceError(VoiceHostError, RuntimeError):
    """An audio device (microphone, speaker) is missing or failed."""


class ModelError(VoiceHostError, RuntimeError):
    """A speech model is missing, corrupt, or could not be fetched."""


class SaveError(VoiceHostError, OSError):
    """The game could not be saved (full disk, read-only folder)."""


def file_in_the_way(path: Path) -> Path | None:
    """The file standing where ``path`` needs a folder (``path`` itself or one above
    it, the nearest that exists), or None: said in place of "File exists" or "Not a
    directory" when a save or a deck cannot be written."""
    nearest = next((p for p in (path, *path.parents) if p.exists()), None)
    return nearest if nearest is not None and not nearest.is_dir() else None
