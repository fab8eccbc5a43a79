"""Finding input (and output) devices through ``sounddevice``, imported only when asked for.

``sounddevice`` needs the PortAudio library: importing it without PortAudio
raises ``OSError``, so nothing imports it at module level and every failure
becomes a one-line :class:`DeviceError`.
"""

from __future__ import annotations

import contextlib
import importlib
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, overload

from voice_host.errors import DeviceError

#: Held while PortAudio is rescanned, and to count the streams open.
_PORTAUDIO = threading.Lock()
#: PortAudio streams this process holds open (the microphone's, the players').
_streams_open = 0
#: Seconds :func:`rescan` waits for another thread's rescan before giving up.
RESCAN_WAIT = 1.0
#: Times :func:`rescan` has had PortAudio list (and number) the devices afresh.
_rescans = 0
#: The name each device index the player gave (``--device 3``) had when it was first
#: found in this process, by kind ("input" or "output"): see :func:`follow_index`.
_chosen_names: dict[tuple[str, int], str] = {}


def opened_stream(open_stream: Callable[[], Any]) -> Any:
    """``open_stream()``'s stream, counted as open until :func:`closed_stream`:
    :func:`rescan` must not pull PortAudio from under it."""
    global _streams_open
    with _PORTAUDIO:  # waits only for a rescan under way, not for another opening
        _streams_open += 1  # counted from before it opens: a rescan now would break it
    try:
        return open_stream()
    except BaseException:
        with _PORTAUDIO:
            _streams_open = max(0, _streams_open - 1)
        raise


def closed_stream(stream: Any, *, abort: bool = False) -> None:
    """Close a stream from :func:`opened_stream` (aborting it first when asked: a
    stream whose abort fails, its device gone, is closed all the same, and the abort's
    error raised after); it no longer counts as open even when closing fails."""
    global _streams_open
    try:
        try:
            if abort:
                halt = getattr(stream, "abort", None) or stream.stop
                halt()
        finally:
            stream.close()
    finally:
        with _PORTAUDIO:
            _streams_open = max(0, _streams_open - 1)


@contextlib.contextmanager
def listing() -> Iterator[None]:
    """Held while PortAudio's list of devices is read (``query_devices``, the default
    device): :func:`rescan` frees that list, so a restart under way on another thread
    (the microphone's retry, the speech output's) is waited for, and none starts
    until the reading is done."""
    with _PORTAUDIO:
        yield


def streams_open() -> int:
    """How many streams of this process :func:`opened_stream` counts as open."""
    with _PORTAUDIO:
        return _streams_open


def rescans() -> int:
    """How many times :func:`rescan` has had PortAudio list the devices afresh in this
    process: an index read from one list holds only until the next."""
    with _PORTAUDIO:
        return _rescans


def rescan(sd: Any) -> bool:
    """Have PortAudio list the devices afresh; True when it did.

    PortAudio lists the devices once, when it starts: a microphone plugged in, or a
    sound server started, after that was never found, and a reopen after a stall
    looked only at the old list.  Restarting PortAudio closes every stream of the
    process, so it is done only while none is open (else False: try again later)."""
    terminate = getattr(sd, "_terminate", None)
    initialize = getattr(sd, "_initialize", None)
    if terminate is None or initialize is None:
        return False
    if not _PORTAUDIO.acquire(timeout=RESCAN_WAIT):
        return False
    global _rescans
    try:
        if _streams_open:
            return False
        try:
            terminate()
        finally:
            _rescans += 1  # the list may be another from here on, whatever follows
            initialize()
        return True
    except Exception:  # PortAudioError: the list stays as it was
        return False
    finally:
        _PORTAUDIO.release()


_T = TypeVar("_T")


def after_rescan(sd: Any, attempt: Callable[[], _T]) -> _T:
    """``attempt()`` (opening a device); when it raises :class:`DeviceError`, once more
    after a :func:`rescan`, which finds a device plugged in (or a sound server started)
    since PortAudio listed them.  The first error stands when no rescan can be made."""
    try:
        return attempt()
    except DeviceError:
        if not rescan(sd):
            raise
    return attempt()


@dataclass(frozen=True)
class InputDevice:
    """One device that can record (or, from :func:`list_output_devices`, play)."""

    index: int
    """PortAudio device index (what ``--device N`` takes)."""
    name: str
    """Device name as PortAudio reports it."""
    channels: int
    """Maximum input channels (output channels for an output)."""
    default_rate: float
    """Default sample rate in samples per second."""
    is_default: bool
    """Whether this is the system's default input (default output for an output)."""


def follow_index(kind: str, index: int, devices: Sequence[InputDevice]) -> InputDevice:
    """The device the player meant by ``index`` among ``devices`` (the ``kind`` devices,
    "input" or "output", listed now).

    An index is PortAudio's number for a device in the list it made when it started,
    and :func:`rescan` makes that list afresh: a device plugged in or out before it
    moves it, and the index then names another device.  So the name the index had when
    it was first found is kept, and from then on the device is found by that name (at
    its old index if several have it).  When no device has that name the choice is
    refused (:class:`DeviceError`), not taken by its index: what holds the index now is
    a device the player did not choose, for ``--card-audio`` perhaps the loudspeaker
    that must never say the card, for ``--device`` a microphone that may hear the
    wrong room; a player who chose a device expects to be told it is gone (the host
    says so, and its retries find the device when it comes back)."""
    name = _chosen_names.get((kind, index))
    if name is None:
        for dev in devices:
            if dev.index == index:
                _chosen_names[(kind, index)] = dev.name
                return dev
        raise DeviceError(f"no {kind} device with index {index} (see 'voice-host devices')")
    named = [dev for dev in devices if dev.name == name]
    if not named:
        raise DeviceError(
            f"{kind} device {index} ({name!r}) is not there now; "
            "the devices were listed afresh (see 'voice-host devices')"
        )
    return next((dev for dev in named if dev.index == index), named[0])


#: The most digits a device index is written with: a longer run is a name part
#: (and ``int()`` refuses a number of thousands of digits).
MAX_INDEX_DIGITS = 9


@overload
def parse_device(device: int | str) -> int | str: ...
@overload
def parse_device(device: int | str | None) -> int | str | None: ...
def parse_device(device: int | str | None) -> int | str | None:
    """A device given as text: digits (ASCII or another script's, not a superscript
    "²") become a PortAudio index, anything else a name part."""
    if isinstance(device, str):
        text = device.strip()
        if text.isdecimal() and len(text) <= MAX_INDEX_DIGITS:
            return int(text)
    return device


def load_sounddevice() -> Any:
    """Import ``sounddevice``; raise :class:`DeviceError` when PortAudio is missing."""
    try:
        return importlib.import_module("sounddevice")
    except (OSError, ImportError) as exc:
        raise DeviceError(
            f"no audio input: the PortAudio library is not available ({exc}); "
            "install libportaudio2 or play with the keyboard"
        ) from None


def _default_index(sd: Any, which: int) -> int | None:
    """The default input (``which`` 0) or output (1) device's index, if any."""
    try:
        default = sd.default.device
        # sounddevice's own pair (``_InputOutputPair``) is no list or tuple, but is
        # indexed the same way; a bare int is one device for both directions.
        index = default if isinstance(default, int) else default[which]
    except (AttributeError, IndexError, KeyError, TypeError):
        return None
    return int(index) if isinstance(index, int) and index >= 0 else None


def list_input_devices(sd: Any | None = None) -> list[InputDevice]:
    """Every device with at least one input channel (possibly none)."""
    return _list_devices("input", sd)


def list_output_devices(sd: Any | None = None) -> list[InputDevice]:
    """Every device with at least one output channel (possibly none): what
    ``--card-audio`` takes.  ``channels`` is then the output channels."""
    return _list_devices("output", sd)


def _list_devices(kind: str, sd: Any | None) -> list[InputDevice]:
    sd = load_sounddevice() if sd is None else sd
    with listing():  # not while another thread restarts PortAudio
        try:
            devices = sd.query_devices()
        except Exception as exc:  # PortAudioError is sounddevice's own; any failure is fatal here
            raise DeviceError(f"cannot list audio devices: {exc}") from None
        default = _default_index(sd, 0 if kind == "input" else 1)
    found = []
    for index, info in enumerate(devices):
        channels = int(info.get(f"max_{kind}_channels", 0))
        if channels > 0:
            found.append(
                InputDevice(
                    index=index,
                    name=str(info.get("name", f"device {index}")),
                    channels=channels,
                    default_rate=float(info.get("default_samplerate", 0.0)),
                    is_default=index == default,
                )
            )
    return found


def resolve_input_device(device: int | str | None, sd: Any | None = None) -> InputDevice:
    """The input device for ``--device``: an index, a name substring, or the default.

    Raises :class:`DeviceError` when there is no input device or none matches.
    """
    devices = list_input_devices(sd)
    if not devices:
        raise DeviceError("no microphone found (no audio input device); play with the keyboard")
    if device is None:
        for dev in devices:
            if dev.is_default:
                return dev
        return devices[0]
    device = parse_device(device)
    if isinstance(device, int):
        return follow_index("input", device, devices)
    matches = [dev for dev in devices if device.lower() in dev.name.lower()]
    if not matches:
        raise DeviceError(f"no input device named like {device!r} (see 'voice-host devices')")
    if len(matches) > 1:
        names = ", ".join(f"{d.index}: {d.name}" for d in matches)
        raise DeviceError(f"{device!r} matches several input devices ({names}); give an index")
    return matches[0]
