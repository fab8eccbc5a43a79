"""What the table hears when the private card voice (``--card-audio``), or the host's
own, cannot play: a few plain words on the loudspeaker, and PortAudio's own reason
printed (or shown) for whoever reads it.  On fakes for the engine and the output."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from voice_host.announce import factory
from voice_host.announce.player import Player
from voice_host.announce.protocol import AnnounceOptions, Announcer
from voice_host.announce.recording import RecordingAnnouncer
from voice_host.announce.render import RenderedAudio, VoiceSettings
from voice_host.errors import DeviceError
from voice_host.host.clock import WallClock
from voice_host.host.inputs import Stop
from voice_host.host.live import LiveSession

from .conftest import ScreenRecorder, live_config
from .test_speech_output_returns import Renderer

#: What PortAudio says when the headphones are gone.
PORTAUDIO = "Error opening OutputStream: Device unavailable [PaErrorCode -9985]"
#: Seconds a test waits for the host's thread (never reached when passing).
DEADLOCK = 10.0


class _Renderer:
    def render(self, text: str, settings: VoiceSettings) -> RenderedAudio:
        return RenderedAudio(b"\x00\x00" * 10, 1000)

    def render_to_file(self, text: str, path: Path, settings: VoiceSettings) -> RenderedAudio:
        raise NotImplementedError

    def voices(self) -> list[tuple[str, str]]:
        return []

    def close(self) -> None: ...


class _Unplugged:
    """Headphones pulled out: every sound fails with PortAudio's words."""

    def play(
        self, audio: RenderedAudio, *, on_start: Callable[[], None], cancel: threading.Event
    ) -> bool:
        raise DeviceError(PORTAUDIO)

    def close(self) -> None: ...


def _missing(device: int | str | None) -> Player:
    raise DeviceError(PORTAUDIO)


def _card_voice_on_fakes(monkeypatch: pytest.MonkeyPatch, opens: bool) -> None:
    """The card voice's engine is a fake; its output fails at start or at the first card."""
    real = factory.open_announcer

    def opened(options: AnnounceOptions, **kw: Any) -> Announcer:
        player: Callable[[int | str | None], Player] = (
            (lambda device: _Unplugged()) if opens else _missing
        )
        return real(options, renderer=_Renderer(), open_player=player, **kw)

    monkeypatch.setattr("voice_host.host.live.open_announcer", opened)


@pytest.mark.parametrize("opens", [True, False], ids=["fails-in-a-turn", "missing-at-start"])
def test_the_card_voice_failing_is_said_in_plain_words_and_its_reason_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, opens: bool
) -> None:
    # The notice said on the loudspeaker was PortAudio's text, read out during a
    # timed turn: "No private card audio: Error opening OutputStream: Device
    # unavailable [PaErrorCode -9985]; press K to see the card".
    _card_voice_on_fakes(monkeypatch, opens)
    clock = WallClock()
    announcer = RecordingAnnouncer(clock=clock.now, options=AnnounceOptions(rate=3000))
    config = live_config(tmp_path, teams="Red:Ann,Bob;Blue:Cat,Dan", card_audio="phones")
    out = io.StringIO()
    session = LiveSession.open(
        config, stdout=out, env={}, clock=clock, board_view=False, announcer=announcer
    )
    thread = threading.Thread(target=session.host_loop)
    thread.start()
    try:
        for _ in range(int(DEADLOCK / 0.05)):  # the first card has been sent to the headphones
            if session.host.timer.started and any(
                "card audio" in e.text.casefold() for e in announcer.entries
            ):
                break
            threading.Event().wait(0.05)
        threading.Event().wait(0.2)
    finally:
        session.inputs.put(Stop("test"))
        thread.join(DEADLOCK)
        session.close()
    said = [e.text for e in announcer.entries if "card audio" in e.text.casefold()]
    plain = (
        "Card audio stopped; press K to see the card."
        if opens
        else "No card audio; press K to see the card."
    )
    assert said == [plain]
    assert not any("PaErrorCode" in e.text for e in announcer.entries)
    # the reason, for a player who reads the terminal
    printed = out.getvalue()
    assert PORTAUDIO in printed and "press K to see the card" in printed
    card = session.host.entry_text()
    assert card and card not in printed


def test_the_board_view_shows_the_reason_where_the_host_says_the_plain_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In the board view nothing is printed: the host line shows the reason instead.
    _card_voice_on_fakes(monkeypatch, opens=True)
    clock = WallClock()
    announcer = RecordingAnnouncer(clock=clock.now, options=AnnounceOptions(rate=3000))
    config = live_config(tmp_path, teams="Red:Ann,Bob;Blue:Cat,Dan", card_audio="phones")
    session = LiveSession.open(
        config, stdout=io.StringIO(), env={}, clock=clock, board_view=True, announcer=announcer
    )
    screen = ScreenRecorder()
    session.host.screen = screen
    try:
        session.host.start()
        assert session.card_voice is not None
        session.card_voice.say("Object: Telescope")
        assert session.card_voice.drain(DEADLOCK)
        notice = session.inputs.get(DEADLOCK)  # the card voice's notice, for the host
        assert notice is not None
        session.host.handle(notice)
        assert announcer.entries[-1].text == "Card audio stopped; press K to see the card."
        assert screen.models[-1].announcement == (
            f"Private card audio failed: {PORTAUDIO}; press K to see the card"
        )
    finally:
        session.close()


class _Flaky:
    """The host's output: its first sound fails with PortAudio's words, then it plays."""

    def __init__(self) -> None:
        self.played: list[str] = []

    def play(
        self, audio: RenderedAudio, *, on_start: Callable[[], None], cancel: threading.Event
    ) -> bool:
        if not self.played:
            self.played.append("(failed)")
            raise DeviceError(PORTAUDIO)
        on_start()
        self.played.append(getattr(audio, "text", "?"))
        return True

    def close(self) -> None: ...


def test_the_hosts_voice_failing_in_the_board_view_is_said_in_plain_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The board view says the voice's notice through that voice, which tries every
    # text again: once the output worked again, PortAudio's words were said aloud.
    output = _Flaky()
    real = factory.open_announcer

    def opened(options: AnnounceOptions, **kw: Any) -> Announcer:
        return real(options, renderer=Renderer(), open_player=lambda device: output, **kw)

    monkeypatch.setattr("voice_host.host.live.open_announcer", opened)
    config = live_config(tmp_path, teams="Red:Ann,Bob;Blue:Cat,Dan")
    session = LiveSession.open(
        config, stdout=io.StringIO(), env={}, clock=WallClock(), board_view=True
    )
    screen = ScreenRecorder()
    session.host.screen = screen
    try:
        session.host.start()  # the welcome fails on the output
        assert session.host.announcer.drain(DEADLOCK)
        notice = session.inputs.get(DEADLOCK)  # the voice's notice, for the host to say
        assert notice is not None
        session.host.handle(notice)
        assert session.host.announcer.drain(DEADLOCK)
    finally:
        session.close()
    said = "Speech output stopped; announcements are printed until it works again."
    assert output.played[-1] == said
    assert not any("PaErrorCode" in text for text in output.played)
    assert screen.models[-1].announcement.startswith(f"Speech output failed: {PORTAUDIO}")
