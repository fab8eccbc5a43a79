"""`voice-host devices`: list the audio input devices (what ``--device`` accepts)."""

from __future__ import annotations

import argparse

HELP = "list the microphones (audio input devices)"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add this command's options (none)."""


def run(args: argparse.Namespace) -> int:
    """Print one line per input device: index, name, channels, default rate."""
    from voice_host.audio.devices import list_input_devices
    from voice_host.errors import DeviceError

    devices = list_input_devices()
    if not devices:
        raise DeviceError("no audio input devices found (no microphone); play with the keyboard")
    for dev in devices:
        star = "*" if dev.is_default else " "
        print(f"{star}{dev.index:3d}  {dev.name}  ({dev.channels} ch, {dev.default_rate:.0f} Hz)")
    return 0
