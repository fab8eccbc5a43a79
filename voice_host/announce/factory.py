"""Choosing the announcer: the real voice when an engine and an output work, else print."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from voice_host.announce.live import Pyttsx3Announcer
from voice_host.announce.player import NoPortAudio, Player
from voice_host.announce.player_process import ProcessPlayer
from voice_host.announce.printed import PrintedAnnouncer
from voice_host.announce.protocol import DEFAULT_OPTIONS, AnnounceOptions, Announcer, Notify
from voice_host.announce.render import Pyttsx3Renderer, Renderer, resolve_voice
from voice_host.announce.returning import ReturningAnnouncer
from voice_host.errors import DeviceError, EngineError

#: Said (rendered, never played) to prove the engine works before the game relies on it.
PROBE_TEXT = "ready"


def unavailable_notice(options: AnnounceOptions, why: str, *, retried: bool = False) -> str:
    """The one line said when an announcer cannot speak at all (``retried``: its output
    is tried again now and then, :class:`ReturningAnnouncer`)."""
    if options.private:
        return f"No private card audio: {why}; press K to see the card"
    until = " until it works" if retried else ""
    return f"No speech output: {why}; announcements are printed{until}"


def unavailable_said(options: AnnounceOptions, *, retried: bool = False) -> str:
    """The news of :func:`unavailable_notice` in plain words, to be said aloud (the
    device's reason is printed, not said)."""
    if options.private:
        return "No card audio; press K to see the card."
    until = " until it works" if retried else ""
    return f"No speech output; announcements are printed{until}."


def open_announcer(
    options: AnnounceOptions = DEFAULT_OPTIONS,
    *,
    printer: Callable[[str], None] = print,
    clock: Callable[[], float] = time.monotonic,
    renderer: Renderer | None = None,
    open_player: Callable[[int | str | None], Player] | None = None,
    reopen_player: Callable[[int | str | None], Player] | None = None,
    retry: bool = True,
    notify: Notify | None = None,
) -> Announcer:
    """A :class:`Pyttsx3Announcer` if the engine renders and the output opens, else printing.

    ``renderer`` lets two announcers (the host's voice and the private card voice) share
    the one pyttsx3 engine a process may have; when None a renderer is made and owned by
    the announcer.  ``open_player`` opens the output (default
    :meth:`ProcessPlayer.open`: the output plays from a child process, whose callbacks
    nothing in this one can hold up).  Falling back prints one line through ``printer``
    saying why; an unknown voice prints one line and uses the default voice.

    When the engine renders but the output does not open (a :class:`DeviceError`: no
    sound server yet, a speaker not connected yet), the announcer prints and tries the
    output again when the host asks (:class:`ReturningAnnouncer`, with ``reopen_player``,
    default ``open_player`` if given, else :meth:`ProcessPlayer.reopen`), unless
    ``retry`` is off or PortAudio itself is missing.  An engine that does not work is
    not tried again.

    ``notify`` is told the announcer's news about its output (this fallback, a failure
    in the game) as words to say and a line to print (:data:`Notify`); when None the
    line is printed through ``printer``.
    """
    own = renderer is None
    opener = ProcessPlayer.open if open_player is None else open_player
    if reopen_player is None:
        reopen_player = ProcessPlayer.reopen if open_player is None else open_player
    rendered = False
    try:
        if renderer is None:
            renderer = Pyttsx3Renderer()
        if options.voice is not None:
            voices = renderer.voices()
            voice_id = resolve_voice(options.voice, voices)
            if voice_id is None:
                english = sorted(i.rsplit("/", 1)[-1] for i, _ in voices if "/en" in i)
                printer(
                    f"Voice {options.voice!r} not found; using the default voice"
                    + (f" (English voices: {', '.join(english)})" if english else "")
                )
            options = replace(options, voice=voice_id)
        renderer.render(PROBE_TEXT, options.settings)
        rendered = True
        player = opener(options.device)
    except (EngineError, DeviceError) as exc:
        retried = rendered and retry and renderer is not None and not isinstance(exc, NoPortAudio)
        printed = unavailable_notice(options, str(exc), retried=retried)
        if notify is None:
            printer(printed)
        else:
            notify(unavailable_said(options, retried=retried), printed)
        if retried and renderer is not None:
            return ReturningAnnouncer(
                renderer,
                reopen_player,
                options,
                clock=clock,
                printer=printer,
                owns_renderer=own,
                notify=notify,
            )
        if own and renderer is not None:
            renderer.close()
        return PrintedAnnouncer(options, printer=printer, clock=clock)
    return Pyttsx3Announcer(
        renderer, player, options, clock=clock, printer=printer, owns_renderer=own, notify=notify
    )
