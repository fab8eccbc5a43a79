"""A stand-in for ``sounddevice`` on a machine with PortAudio and no audio device at all.

``tests/conftest.py`` puts this folder first on the import path of every test and of
every process a test starts, so that the suite does not depend on the machine's sound
system: on a computer with a sound card or a sound server (a developer's laptop) the
live host would otherwise open them, speak aloud, listen to the room and take real time
doing it.  It answers as PortAudio 19.6 does on a machine with none (measured through
the real ``sounddevice`` 0.5.6): no devices listed, no default device, and every
stream refused with "Error querying device -1".  Tests that need devices bring their
own fakes; tests of the real library ask for it (the ``real_sounddevice`` fixture).
"""

from __future__ import annotations

from typing import Any

__version__ = "0.5.6"


class PortAudioError(Exception):
    """As ``sounddevice.PortAudioError``."""


class CallbackStop(Exception):
    """As ``sounddevice.CallbackStop``."""


class CallbackAbort(Exception):
    """As ``sounddevice.CallbackAbort``."""


class DeviceList(tuple[Any, ...]):
    """As ``sounddevice.DeviceList``: printed as nothing when empty."""

    def __repr__(self) -> str:
        return ""


class _Default:
    device = (-1, -1)
    samplerate = None
    channels = (None, None)
    dtype = ("float32", "float32")
    latency = ("high", "high")


default = _Default()


def query_devices(device: int | str | None = None, kind: str | None = None) -> Any:
    if device is None and kind is None:
        return DeviceList()
    if isinstance(device, str):
        raise ValueError(f"No input/output device matching {device!r}")
    raise PortAudioError(f"Error querying device {-1 if device is None else device}")


def query_hostapis(index: int | None = None) -> Any:
    return () if index is None else {}


def _refused(*_args: Any, **_kwargs: Any) -> Any:
    raise PortAudioError("Error querying device -1")


RawInputStream = RawOutputStream = InputStream = OutputStream = Stream = RawStream = _refused
check_input_settings = check_output_settings = _refused


def _terminate() -> None:
    pass


def _initialize() -> None:
    pass
