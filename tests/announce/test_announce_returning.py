"""A voice whose output was missing at start: printing, tried again, and back."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from announce_fakes import DEADLOCK, FakePlayer, FakeRenderer, ManualClock

from voice_host.announce import (
    AnnounceOptions,
    PrintedAnnouncer,
    ReturningAnnouncer,
    SounddevicePlayer,
    open_announcer,
)
from voice_host.announce.player import NoPortAudio, Player
from voice_host.audio import devices
from voice_host.errors import DeviceError


class Output:
    """An output device that is missing until ``up`` is set."""

    def __init__(self, clock: ManualClock, **player: Any) -> None:
        self.clock = clock
        self.up = False
        self.asked: list[float] = []
        self.players: list[FakePlayer] = []
        self.player = player

    def __call__(self, device: int | str | None) -> Player:
        self.asked.append(self.clock.t)
        if not self.up:
            raise DeviceError(
                "the default audio output is not available (Error querying device -1)"
            )
        player = FakePlayer(self.clock, **self.player)
        self.players.append(player)
        return player


def at_once(work: Callable[[], None]) -> None:
    work()


def returning(
    clock: ManualClock,
    output: Output,
    printed: list[str],
    options: AnnounceOptions | None = None,
    **kw: Any,
) -> ReturningAnnouncer:
    return ReturningAnnouncer(
        FakeRenderer(),
        output,
        options or AnnounceOptions(),
        clock=clock,
        printer=printed.append,
        start=kw.pop("start", at_once),
        **kw,
    )


def test_an_output_missing_at_start_is_retried_and_the_voice_comes_back() -> None:
    clock = ManualClock()
    output = Output(clock)
    printed: list[str] = []
    renderer = FakeRenderer()
    voice = open_announcer(
        AnnounceOptions(),
        printer=printed.append,
        clock=clock,
        renderer=renderer,
        open_player=output,
    )
    try:
        # printed, as before, but not for the whole evening
        assert isinstance(voice, ReturningAnnouncer)
        assert printed == [
            "No speech output: the default audio output is not available (Error querying "
            "device -1); announcements are printed until it works"
        ]
        assert not voice.audible
        voice.say("Red team, your turn.")
        assert printed[-1] == "Host: Red team, your turn."
        assert not voice.recover("Speech output is back.")  # not due yet
        assert output.asked == [0.0]  # only the opening at start
        output.up = True
        clock.t = 5.0
        # (the default start runs the attempt on a thread of its own: taken at a later call)
        for _ in range(int(DEADLOCK / 0.01)):
            if voice.recover("Speech output is back."):
                break
            threading.Event().wait(0.01)
        assert voice.recovered and voice.audible
        assert printed[-1] == "Host: Speech output is back."
        assert output.players[0].played == [("?", True)]  # the silence that proved it
        voice.say("Go!")
        assert voice.drain(DEADLOCK)
        assert output.players[0].played[-1] == ("Go!", True)
        assert printed[-1] == "Host: Speech output is back."  # spoken now, not printed
        assert not voice.recover("Speech output is back.")  # said once
    finally:
        voice.close()
    assert renderer.closed is False  # a renderer given belongs to the caller


def test_attempts_back_off_and_are_made_only_when_asked() -> None:
    clock = ManualClock()
    output = Output(clock)
    printed: list[str] = []
    voice = returning(clock, output, printed)
    try:
        for t in (4.9, 5.0, 14.9, 15.0, 34.9, 35.0, 64.9, 65.0, 94.0, 95.0):
            clock.t = t
            assert not voice.recover("Back.")
        assert output.asked == [5.0, 15.0, 35.0, 65.0, 95.0]  # after 5, 10, 20, then 30 s
        assert voice.attempts == 5
        output.up = True
        clock.t = 124.0
        assert not voice.recover("Back.")
        clock.t = 125.0
        assert voice.recover("Back.")
        assert printed == ["Host: Back."]
    finally:
        voice.close()


def test_the_gate_reads_one_timeline_across_the_swap() -> None:
    # The listening thread asks the announcer whether the microphone is gated: after
    # the swap it must see the real voice's speech, not a replaced voice's silence.
    clock = ManualClock()
    output = Output(clock, hold={"Red team, your turn."})
    printed: list[str] = []
    voice = returning(clock, output, printed)
    told: list[tuple[float, float]] = []
    voice.add_speech_listener(lambda start, end: told.append((start, end)))  # the host's
    timeline = voice.timeline
    try:
        output.up = True
        clock.t = 5.0
        assert voice.recover()
        clock.t = 6.0
        voice.say("Red team, your turn.")
        assert output.players[0].started.wait(DEADLOCK)
        assert voice.is_speaking() and voice.is_gated()
        assert voice.gate_overlaps(6.0, 6.1)
        assert voice.timeline is timeline
        output.players[0].release.set()
        assert voice.drain(DEADLOCK)
        assert not voice.is_speaking(clock.t + 0.01)
        assert voice.is_gated(clock.t + 0.4)  # the tail, as ever
        assert [i.text for i in voice.speech_intervals()] == ["Red team, your turn."]
        assert told == [(6.0, 6.3)]  # a listener added before the swap is still told
    finally:
        voice.close()
    assert not voice.is_gated(clock.t + 1.0)


def test_a_private_card_voice_stays_silent_in_print_and_comes_back() -> None:
    clock = ManualClock()
    output = Output(clock)
    printed: list[str] = []
    options = AnnounceOptions(device="headphones", label="card", private=True)
    card = returning(clock, output, printed, options)
    try:
        card.say("Nature: Telescope")
        output.up = True
        clock.t = 5.0
        assert card.recover("Card audio is back.")
        assert printed == []  # the room could read it: nothing printed, ever
        card.say("Nature: Telescope")
        assert card.drain(DEADLOCK)
        assert output.players[0].played[-1] == ("Nature: Telescope", True)
    finally:
        card.close()


def test_closing_while_an_attempt_is_under_way_drops_its_player() -> None:
    clock = ManualClock()
    output = Output(clock)
    output.up = True
    works: list[Callable[[], None]] = []
    renderer = FakeRenderer()
    voice = ReturningAnnouncer(
        renderer,
        output,
        clock=clock,
        printer=lambda _: None,
        owns_renderer=True,
        start=works.append,
    )
    clock.t = 5.0
    assert not voice.recover()
    assert len(works) == 1
    assert not voice.recover()  # one attempt at a time
    voice.close()
    works[0]()  # the attempt ends after the session did
    assert output.players[0].closed
    assert not voice.recover()
    assert renderer.closed


def test_an_output_that_opens_but_does_not_play_is_not_taken() -> None:
    clock = ManualClock()
    output = Output(clock, broken={"?"})  # the proving silence fails to play
    output.up = True
    voice = returning(clock, output, [])
    try:
        clock.t = 5.0
        assert not voice.recover()
        assert not voice.recovered and output.players[0].closed
        clock.t = 15.25  # 10 s after that attempt ended (the silence failed 0.25 s in)
        output.player = {}
        assert voice.recover()
    finally:
        voice.close()


def test_no_portaudio_or_retry_off_prints_for_good() -> None:
    def no_library(device: int | str | None) -> Player:
        raise NoPortAudio("the PortAudio library for audio output is not available")

    printed: list[str] = []
    announcer = open_announcer(
        AnnounceOptions(), printer=printed.append, renderer=FakeRenderer(), open_player=no_library
    )
    assert isinstance(announcer, PrintedAnnouncer)
    assert printed[-1].endswith("; announcements are printed")
    output = Output(ManualClock())
    announcer = open_announcer(
        AnnounceOptions(), renderer=FakeRenderer(), open_player=output, retry=False
    )
    assert isinstance(announcer, PrintedAnnouncer)


class RescanSd:
    """``sounddevice`` whose device list is the one made when PortAudio started."""

    def __init__(self) -> None:
        self.server_up = False
        self.listed = False  # the sound server's output, as PortAudio listed it
        self.rescans = 0

    def query_devices(self, device: Any, kind: str) -> dict[str, Any]:
        if not self.listed:
            raise ValueError("Error querying device -1")
        return {"default_samplerate": 48000.0}

    def _terminate(self) -> None:
        self.rescans += 1

    def _initialize(self) -> None:
        self.listed = self.server_up


def test_reopening_lists_the_devices_afresh_when_no_stream_is_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sd = RescanSd()
    with pytest.raises(DeviceError):
        SounddevicePlayer.reopen(None, sd=sd)
    sd.server_up = True
    monkeypatch.setattr(devices, "_streams_open", 1)  # the microphone's stream is open
    with pytest.raises(DeviceError):
        SounddevicePlayer.reopen(None, sd=sd)
    assert sd.rescans == 1  # not under an open stream
    monkeypatch.setattr(devices, "_streams_open", 0)
    assert SounddevicePlayer.reopen(None, sd=sd).device is None
    assert sd.rescans == 2
