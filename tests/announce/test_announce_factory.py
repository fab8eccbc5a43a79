"""Choosing the announcer, the fallback to print, and the pieces around pyttsx3/sounddevice."""

from __future__ import annotations

import io
import shutil
import threading
from types import SimpleNamespace
from typing import Any

import pytest
from announce_fakes import DEADLOCK, FakePlayer, FakeRenderer, ManualClock

from voice_host.announce import (
    AnnounceOptions,
    PrintedAnnouncer,
    Pyttsx3Announcer,
    RenderedAudio,
    ReturningAnnouncer,
    SounddevicePlayer,
    open_announcer,
)
from voice_host.announce import player as player_module
from voice_host.announce.player import Player, parse_device, resample
from voice_host.announce.render import (
    Pyttsx3Renderer,
    VoiceSettings,
    _DropSavedMessage,
    espeak_prefix,
    resolve_voice,
    without_closing_pause,
)
from voice_host.audio.devices import streams_open
from voice_host.errors import DeviceError, EngineError


def no_output(device: int | str | None) -> Player:
    raise DeviceError("the default audio output is not available (Error querying device -1)")


def test_no_output_device_falls_back_to_print_and_says_why_once() -> None:
    printed: list[str] = []
    renderer = FakeRenderer()
    announcer = open_announcer(
        AnnounceOptions(), printer=printed.append, renderer=renderer, open_player=no_output
    )
    # printing, and the output is tried again (test_announce_returning.py)
    assert isinstance(announcer, ReturningAnnouncer)
    assert not announcer.audible
    announcer.say("Red team, your turn.")
    announcer.say("Go!")
    assert printed == [
        "No speech output: the default audio output is not available (Error querying device "
        "-1); announcements are printed until it works",
        "Host: Red team, your turn.",
        "Host: Go!",
    ]
    assert not announcer.is_gated()  # printing never shuts the microphone
    assert not renderer.closed  # a shared renderer belongs to the caller


def test_engine_that_cannot_start_falls_back_to_print() -> None:
    printed: list[str] = []

    def missing() -> Any:
        raise OSError("libespeak-ng.so.1: cannot open shared object file")

    renderer = Pyttsx3Renderer(init=missing)
    try:
        announcer = open_announcer(
            AnnounceOptions(), printer=printed.append, renderer=renderer, open_player=no_output
        )
    finally:
        renderer.close()
    assert isinstance(announcer, PrintedAnnouncer)
    assert printed == [
        "No speech output: speech engine could not start (libespeak-ng.so.1: cannot open "
        "shared object file); announcements are printed"
    ]


def test_private_card_voice_falls_back_silently_apart_from_the_notice() -> None:
    printed: list[str] = []
    options = AnnounceOptions(device="headphones", label="card", private=True)
    card = open_announcer(
        options, printer=printed.append, renderer=FakeRenderer(), open_player=no_output
    )
    card.say("Telescope")
    assert len(printed) == 1
    assert printed[0].startswith("No private card audio:")
    assert printed[0].endswith("press K to see the card")


def test_working_engine_and_output_give_the_live_announcer() -> None:
    clock = ManualClock()
    players: list[int | str | None] = []

    def open_player(device: int | str | None) -> Player:
        players.append(device)
        return FakePlayer(clock)

    renderer = FakeRenderer()
    announcer = open_announcer(
        AnnounceOptions(device="3", voice="en-us"),
        clock=clock,
        renderer=renderer,
        open_player=open_player,
    )
    try:
        assert isinstance(announcer, Pyttsx3Announcer)
        assert players == ["3"]
        assert announcer.options.voice == "gmw/en-us"  # resolved to the engine's id
        assert renderer.rendered[0][0] == "ready"  # the probe proved the engine renders
    finally:
        announcer.close()
    assert not renderer.closed


def test_unknown_voice_says_so_and_uses_the_default() -> None:
    printed: list[str] = []
    announcer = open_announcer(
        AnnounceOptions(voice="martian"),
        printer=printed.append,
        renderer=FakeRenderer(),
        open_player=lambda device: FakePlayer(ManualClock()),
    )
    try:
        assert printed == [
            "Voice 'martian' not found; using the default voice (English voices: en, en-us)"
        ]
        assert isinstance(announcer, Pyttsx3Announcer)
        assert announcer.options.voice is None
    finally:
        announcer.close()


@pytest.mark.usefixtures("real_sounddevice")
def test_real_fallback_on_a_missing_output_device() -> None:
    """Real pyttsx3 (if any) and real sounddevice: no output is called this on any machine."""
    printed: list[str] = []
    announcer = open_announcer(
        AnnounceOptions(device="no such output device xyzzy"), printer=printed.append
    )
    announcer.close()
    # printing: for good without an engine, else until the output is found
    assert isinstance(announcer, PrintedAnnouncer | ReturningAnnouncer)
    assert not announcer.audible
    assert printed[0].startswith("No speech output: ")
    assert "; announcements are printed" in printed[0]


@pytest.mark.parametrize(
    ("wanted", "found"),
    [
        ("gmw/en-us", "gmw/en-us"),  # the full id
        ("en-us", "gmw/en-us"),  # the file part, as espeak-ng --voices lists it
        ("english (america)", "gmw/en-us"),  # the name, any case
        ("EN", "gmw/en"),  # a short id is not a prefix match for a longer one
        ("en-u", None),  # no prefix guessing
    ],
)
def test_resolve_voice(wanted: str, found: str | None) -> None:
    voices = [("gmw/en", "English (Great Britain)"), ("gmw/en-us", "English (America)")]
    assert resolve_voice(wanted, voices) == found


@pytest.mark.parametrize(
    ("settings", "prefix"),
    [
        (VoiceSettings(rate=170, volume=1.0), "\x01170S\x01100A "),  # the defaults
        (VoiceSettings(rate=None, volume=0.5), "\x01175S\x0150A "),  # espeak's own speed
        (VoiceSettings(rate=20, volume=0.0), "\x0180S\x010A "),  # clamped to espeak's 80
    ],
)
def test_espeak_prefix(settings: VoiceSettings, prefix: str) -> None:
    assert espeak_prefix(settings) == prefix


def test_saved_message_is_dropped_and_other_output_kept() -> None:
    out = io.StringIO()
    proxy = _DropSavedMessage(out)
    print("Audio saved to /tmp/x.wav", file=proxy)
    print("Host: Go!", file=proxy)
    assert out.getvalue() == "Host: Go!\n"


def test_parse_device() -> None:
    assert parse_device("3") == 3
    assert parse_device("USB headset") == "USB headset"
    assert parse_device(None) is None


def test_resample_keeps_duration() -> None:
    audio = RenderedAudio(b"\x10\x00" * 22050, 22050)
    converted = resample(audio.samples, 22050, 48000)
    assert len(converted) == 2 * 48000
    assert set(converted[:8]) == {0x10, 0x00}


class FakeStream:
    """A PortAudio stream stand-in: a thread calls back with 100-frame blocks."""

    def __init__(self, callback: Any, finished_callback: Any, fail: bool, **_: Any) -> None:
        self.callback = callback
        self.finished = finished_callback
        self.blocks = 0
        self.aborted = threading.Event()
        self.go_on = threading.Event()
        self.thread = threading.Thread(target=self.run)
        self.fail = fail

    def start(self) -> None:
        if self.fail:
            raise RuntimeError("Invalid sample rate")
        self.thread.start()

    def run(self) -> None:
        while not self.aborted.is_set():
            out = bytearray(200)
            try:
                self.callback(out, 100, None, None)
            except FakeSd.CallbackStop:
                break
            self.blocks += 1
            if self.blocks == 2:
                self.go_on.wait(DEADLOCK)
        self.finished()

    def abort(self) -> None:
        self.aborted.set()
        self.go_on.set()

    def close(self) -> None:
        if self.thread.is_alive():
            self.thread.join(DEADLOCK)


class FakeSd:
    """Just enough of the ``sounddevice`` module."""

    class CallbackStop(Exception):
        pass

    def __init__(self, *, fail_rates: set[int] | None = None) -> None:
        self.streams: list[FakeStream] = []
        self.fail_rates = fail_rates or set()

    def query_devices(self, device: Any, kind: str) -> dict[str, Any]:
        if device == "missing":
            raise ValueError("No output device matching 'missing'")
        return {"default_samplerate": 48000.0}

    def RawOutputStream(self, **kwargs: Any) -> FakeStream:
        stream = FakeStream(fail=kwargs["samplerate"] in self.fail_rates, **kwargs)
        self.streams.append(stream)
        return stream


def test_sounddevice_player_plays_to_the_end() -> None:
    sd = FakeSd()
    player = SounddevicePlayer.open(None, sd=sd)
    started = []
    sd_audio = RenderedAudio(b"\x01\x00" * 250, 1000)  # 2.5 blocks of 100 frames
    play = threading.Thread(
        target=lambda: started.append(
            player.play(
                sd_audio, on_start=lambda: started.append("start"), cancel=threading.Event()
            )
        )
    )
    play.start()
    while not sd.streams:
        threading.Event().wait(0.001)
    sd.streams[0].go_on.set()
    play.join(DEADLOCK)
    assert started == ["start", True]
    assert sd.streams[0].blocks == 2  # the third, partial block ended the stream


def test_sounddevice_player_stops_when_cancelled() -> None:
    sd = FakeSd()
    player = SounddevicePlayer.open(None, sd=sd)
    cancel = threading.Event()
    result: list[bool] = []
    audio = RenderedAudio(b"\x01\x00" * 10_000, 1000)
    play = threading.Thread(
        target=lambda: result.append(player.play(audio, on_start=lambda: None, cancel=cancel))
    )
    play.start()
    cancel.set()
    play.join(DEADLOCK)
    assert result == [False]
    assert not sd.streams or sd.streams[0].blocks <= 2


def test_sounddevice_player_retries_at_the_devices_rate() -> None:
    sd = FakeSd(fail_rates={22050})
    player = SounddevicePlayer.open(None, sd=sd)
    audio = RenderedAudio(b"\x01\x00" * 22, 22050)
    assert player.play(audio, on_start=lambda: None, cancel=threading.Event())
    assert len(sd.streams) == 2


def test_a_playing_stream_counts_as_open_and_no_longer_once_closed() -> None:
    # The microphone restarts PortAudio to find a device plugged in later, which
    # would close the host's voice mid-word: it may only when no stream is open.
    sd = FakeSd(fail_rates={22050})  # the first stream fails to start, the second plays
    player = SounddevicePlayer.open(None, sd=sd)
    before = streams_open()
    during: list[int] = []
    audio = RenderedAudio(b"\x01\x00" * 22, 22050)
    assert player.play(
        audio, on_start=lambda: during.append(streams_open()), cancel=threading.Event()
    )
    assert len(sd.streams) == 2
    assert during == [before + 1]
    assert streams_open() == before


def test_an_output_that_never_starts_fails_in_time_and_is_not_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A sound server that does not answer held PortAudio's start for good, and the
    # announcer with it: "Go!" never ended, so the turn's timer never started.
    monkeypatch.setattr(player_module, "OPEN_TIMEOUT", 0.05)
    answer = threading.Event()

    class StuckSd(FakeSd):
        def RawOutputStream(self, **kwargs: Any) -> FakeStream:
            stream = super().RawOutputStream(**kwargs)
            start = stream.start

            def stuck_start() -> None:
                answer.wait(DEADLOCK)
                start()

            stream.start = stuck_start  # type: ignore[method-assign]
            return stream

    sd = StuckSd()
    player = SounddevicePlayer.open(None, sd=sd)
    audio = RenderedAudio(b"\x01\x00" * 22, 48000)
    started: list[str] = []
    with pytest.raises(DeviceError, match="did not start within"):
        player.play(audio, on_start=lambda: started.append("a"), cancel=threading.Event())
    # while the first still hangs, the next text fails at once, asking nothing more
    with pytest.raises(DeviceError, match="not answering"):
        player.play(audio, on_start=lambda: started.append("b"), cancel=threading.Event())
    assert len(sd.streams) == 1 and started == []
    answer.set()  # the device answers at last: its late stream is stopped unheard
    assert sd.streams[0].aborted.wait(DEADLOCK)


def test_a_stream_that_starts_just_as_the_wait_for_it_ends_is_stopped_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The device answers between the announcer finding the opening thread still busy
    # and marking it late: the thread saw no mark, so its stream played on (the text
    # printed and said, over the next one) and was never closed.
    monkeypatch.setattr(player_module, "OPEN_TIMEOUT", 0.05)
    answer = threading.Event()

    class RacedThread(threading.Thread):
        raced = False

        def is_alive(self) -> bool:
            alive = super().is_alive()
            if alive and not RacedThread.raced:
                RacedThread.raced = True
                answer.set()  # the device answers now...
                super().join(DEADLOCK)  # ...and the opening thread is done before the mark
            return alive

    # (the player's threads only)
    threads = SimpleNamespace(Thread=RacedThread, Event=threading.Event, Lock=threading.Lock)
    monkeypatch.setattr(player_module, "threading", threads)

    class LateSd(FakeSd):
        def RawOutputStream(self, **kwargs: Any) -> FakeStream:
            stream = super().RawOutputStream(**kwargs)
            start = stream.start

            def late_start() -> None:
                answer.wait(DEADLOCK)
                start()

            stream.start = late_start  # type: ignore[method-assign]
            return stream

    sd = LateSd()
    player = SounddevicePlayer.open(None, sd=sd)
    audio = RenderedAudio(b"\x01\x00" * 22, 48000)
    with pytest.raises(DeviceError, match="did not start within"):
        player.play(audio, on_start=lambda: None, cancel=threading.Event())
    answer.set()  # (an announcer that does not look as above: the device answers now)
    assert sd.streams[0].aborted.wait(1.0)


def test_sounddevice_player_names_a_missing_device() -> None:
    with pytest.raises(DeviceError, match="audio output 'missing' is not available"):
        SounddevicePlayer.open("missing", sd=FakeSd())


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_real_engine_volume_and_render_error() -> None:
    renderer = Pyttsx3Renderer()
    try:
        loud = renderer.render("Telescope", VoiceSettings(volume=1.0))
        quiet = renderer.render("Telescope", VoiceSettings(volume=0.2))
    finally:
        renderer.close()
    peak = max(
        abs(int.from_bytes(loud.samples[i : i + 2], "little", signed=True))
        for i in range(0, len(loud.samples), 2)
    )
    low = max(
        abs(int.from_bytes(quiet.samples[i : i + 2], "little", signed=True))
        for i in range(0, len(quiet.samples), 2)
    )
    assert low < peak / 2
    with pytest.raises(EngineError, match="closed"):
        renderer.render("late", VoiceSettings())


class SilentStream(FakeStream):
    """Opens and starts, and never asks for a block (a speaker that dropped out)."""

    def start(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_an_output_that_starts_silent_is_given_up_at_once_and_tried_later(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each text waited its length and 5 s with the microphone shut, on a stream that
    # started and never called back: voice play was dead (session 54's review).
    monkeypatch.setattr(player_module, "FIRST_BLOCK_WAIT", 0.05)

    class SilentSd(FakeSd):
        def RawOutputStream(self, **kwargs: Any) -> FakeStream:
            stream = SilentStream(fail=False, **kwargs)
            self.streams.append(stream)
            return stream

    sd = SilentSd()
    player = SounddevicePlayer.open(None, sd=sd)
    audio = RenderedAudio(b"\x01\x00" * 22050, 22050)  # a second of sound
    started: list[str] = []
    with pytest.raises(DeviceError, match="started but is not playing"):
        player.play(audio, on_start=lambda: started.append("start"), cancel=threading.Event())
    assert started == []  # the gate never shut: nothing was heard of it
    assert len(sd.streams) == 1  # and no second try at the device's own rate
    # the next texts are printed at once, the device left alone for a while ...
    with pytest.raises(DeviceError, match="not playing"):
        player.play(audio, on_start=lambda: started.append("start"), cancel=threading.Event())
    assert len(sd.streams) == 1
    # ... and then tried again
    monkeypatch.setattr(player, "_silent_until", 0.0)
    with pytest.raises(DeviceError):
        player.play(audio, on_start=lambda: started.append("start"), cancel=threading.Event())
    assert len(sd.streams) == 2


def test_without_closing_pause_takes_only_the_zeros_after_the_sound() -> None:
    # samples 5, 256 (bytes 00 01: its low byte is zero), 1, then three zeros, at 1 kHz
    sound = b"\x05\x00" + b"\x00\x01" + b"\x01\x00"
    trimmed, pause = without_closing_pause(RenderedAudio(sound + b"\x00\x00" * 3, 1000))
    assert trimmed.samples == sound
    assert pause == pytest.approx(0.003)
    ends_high = b"\x05\x00\x00\x01"  # the last sample's low byte is zero
    trimmed, pause = without_closing_pause(RenderedAudio(ends_high + b"\x00\x00", 1000))
    assert trimmed.samples == ends_high and pause == pytest.approx(0.001)
    same = RenderedAudio(sound, 1000)
    assert without_closing_pause(same) == (same, 0.0)
    silence = RenderedAudio(b"\x00\x00" * 50, 1000)  # nothing said: left whole
    assert without_closing_pause(silence) == (silence, 0.0)


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_real_engine_closes_each_text_with_a_pause_that_is_taken_off() -> None:
    renderer = Pyttsx3Renderer()
    try:
        audio = renderer.render("Telescope, correct. Three.", VoiceSettings())
    finally:
        renderer.close()
    trimmed, pause = without_closing_pause(audio)
    assert 0.2 < pause < 0.6  # espeak-ng's closing pause at 170 words a minute
    assert trimmed.samples[-2:] != b"\x00\x00"
    assert trimmed.duration == pytest.approx(audio.duration - pause)
