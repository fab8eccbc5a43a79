"""`voice-host devices`: list the audio input devices (what ``--device`` accepts)
and the outputs (what ``play --card-audio`` accepts), or, with ``--check``, listen
to a microphone for a few seconds and say whether the table will be heard well:
not muted, not too faint, not overloading."""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from voice_host.audio.chunk import AudioChunk

if TYPE_CHECKING:
    from voice_host.audio.devices import InputDevice

HELP = "list the microphones (and the outputs for --card-audio), or check a microphone's level"

#: Seconds ``--check`` listens for by default.
CHECK_SECONDS = 10.0

#: What to do about each verdict of :meth:`voice_host.audio.levels.LevelCheck.verdict`.
ADVICE = {
    "good": "good: the table is heard well.",
    "silent": "silent: the microphone hears nothing at all. Is it muted, or turned right down?",
    "faint": (
        "faint: speech hardly rises above the microphone's hiss. Bring the laptop closer "
        "to the players, or turn the microphone up."
    ),
    "overload": (
        "overloading: loud words clip at full scale and reach the recogniser distorted. "
        "Turn the microphone down a little, or move the laptop back."
    ),
}


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    parser.add_argument(
        "--check",
        action="store_true",
        help="listen to the microphone and say whether its level suits a game",
    )
    parser.add_argument("--device", metavar="DEV", help="microphone index or name substring")
    parser.add_argument(
        "--seconds",
        type=float,
        default=CHECK_SECONDS,
        metavar="S",
        help=f"how long --check listens (default {CHECK_SECONDS:g})",
    )


def run(args: argparse.Namespace) -> int:
    """Print one line per input device: index, name, channels, default rate, then the
    outputs the same way (for ``play --card-audio``); or check one microphone."""
    from voice_host.audio.devices import list_input_devices, list_output_devices
    from voice_host.errors import DeviceError, UsageError

    if args.check:
        if not 1.0 <= args.seconds <= 600.0:
            raise UsageError("--seconds must be between 1 and 600")
        return check(args.device, args.seconds)
    if args.device is not None:
        raise UsageError("--device goes with --check (to list the devices, give neither)")
    devices = list_input_devices()
    if devices:
        print("Microphones (play --device takes an index or part of a name; * the default):")
    for dev in devices:
        _print_device(dev)
    outputs = list_output_devices()
    if outputs:
        # A describer's headphones for --card-audio: listed even with no microphone.
        print("Outputs (play --card-audio takes an index or part of a name):")
        for dev in outputs:
            _print_device(dev)
    if not devices:
        raise DeviceError("no audio input devices found (no microphone); play with the keyboard")
    return 0


def _print_device(dev: InputDevice) -> None:
    star = "*" if dev.is_default else " "
    print(f"{star}{dev.index:3d}  {dev.name}  ({dev.channels} ch, {dev.default_rate:.0f} Hz)")


def _dbfs(level: float) -> str:
    return "digital silence" if level == -math.inf else f"{level:.0f} dBFS"


def _metered(chunks: Iterable[AudioChunk], seconds: float) -> Iterator[AudioChunk]:
    """The first ``seconds`` of ``chunks``, printing each second's loudest block."""
    from voice_host.audio.levels import chunk_dbfs

    loudest = -math.inf
    heard = 0.0
    mark = 1.0
    for chunk in chunks:
        loudest = max(loudest, chunk_dbfs(chunk))
        heard += chunk.duration
        yield chunk
        if heard + 1e-6 >= mark:
            bar = "#" * int((loudest + 70) / 2) if loudest > -70 else ""
            print(f"  {mark:3.0f} s  loudest {_dbfs(loudest):>15}  {bar}", flush=True)
            loudest, mark = -math.inf, mark + 1.0
        if heard + 1e-6 >= seconds:
            return


def check(device: int | str | None, seconds: float) -> int:
    """Listen to ``device`` for ``seconds`` and print the verdict: 0 when good, else 1."""
    from voice_host.audio.devices import resolve_input_device
    from voice_host.audio.levels import LevelCheck
    from voice_host.audio.microphone import MicrophoneSource

    dev = resolve_input_device(device)
    print(
        f"Listening to {dev.name} for {seconds:g} s: talk at the table as you would in a "
        "game, from where the players sit.",
        flush=True,
    )
    source = MicrophoneSource(device)
    try:
        result = LevelCheck.of(_metered(source, seconds))
    finally:
        source.close()
    verdict = result.verdict()
    print(
        f"Between words {_dbfs(result.floor)}, loudest {_dbfs(result.loudest)}, "
        f"{result.overloaded} overloaded block(s): {ADVICE[verdict]}"
    )
    return 0 if verdict == "good" else 1
