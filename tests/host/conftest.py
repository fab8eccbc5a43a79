"""Fixtures for the host's tests: a short board, a small deck, a host on audio time."""

from __future__ import annotations

import errno
import random
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from voice_host.announce.protocol import AnnounceOptions
from voice_host.announce.recording import RecordingAnnouncer
from voice_host.audio.chunk import AudioChunk
from voice_host.config import HostConfig
from voice_host.deck.loader import load_deck
from voice_host.deck.model import Deck
from voice_host.host.clock import AudioClock
from voice_host.host.core import Host, HostOptions
from voice_host.host.listening import Listening
from voice_host.persist import SaveSlot
from voice_host.rules import Game, load_board, parse_teams
from voice_host.screen.model import ScreenModel
from voice_host.speech.events import ListenContext, RecognitionEvent

DATA = Path(__file__).with_name("data")
FIXTURES = Path(__file__).parents[2] / "fixtures" / "audio"
#: Recordings the real recogniser and referee judge as the guess, by entry.
GUESS_CLIPS = {
    "Telescope": FIXTURES / "kal16" / "guess__a_telescope.wav",
    "Car": FIXTURES / "kal16" / "guess__is_it_a_car.wav",
    "Poster": FIXTURES / "kal16" / "guess__poster.wav",
}


@pytest.fixture(scope="session")
def deck() -> Deck:
    """The three-card test deck (word knowledge computed once)."""
    return load_deck(DATA / "deck.txt")


def new_game(seed: int = 7) -> Game:
    """Red:Ann,Bob against Blue:Cat,Dan on the 7-segment test board."""
    board = load_board((DATA / "board.json").read_text(encoding="utf-8"))
    teams = parse_teams("Red:Ann,Bob;Blue:Cat,Dan")
    return Game(teams, board, rng=random.Random(seed), deck_size=3)


HostMaker = Callable[..., tuple[Host, AudioClock, RecordingAnnouncer]]


@pytest.fixture
def make_host(deck: Deck, tmp_path: Path) -> HostMaker:
    """Builds a host on audio time with a recording announcer and a save slot in tmp_path."""

    def make(
        *,
        listening: Listening | None = None,
        recognizer: object | None = None,
        timer: float = 12.0,
        render: bool = False,
        gate: bool = True,
        game: Game | None = None,
        voice: AnnounceOptions | None = None,
        ready: bool = False,
        time_cue: str = "chime",
    ) -> tuple[Host, AudioClock, RecordingAnnouncer]:
        clock = AudioClock()
        announcer = RecordingAnnouncer(
            tmp_path / "said.log",
            clock=clock.now,
            options=voice or AnnounceOptions(),
            render_dir=tmp_path / "said" if render else None,
        )
        if listening is None and recognizer is not None:
            from voice_host.referee import Referee, default_phone_lookup

            listening = Listening(
                recognizer,  # type: ignore[arg-type]
                Referee(default_phone_lookup()),
                announcer,
                gate=gate,
            )
        elif listening is not None:
            listening.announcer = announcer
        host = Host(
            game or new_game(),
            deck,
            clock=clock,
            announcer=announcer,
            listening=listening,
            save=SaveSlot(tmp_path / "game.json", report=lambda _: None),
            options=HostOptions(timer=timer, mic_gate=gate, ready=ready, time_cue=time_cue),
        )
        return host, clock, announcer

    return make


def feed_silence(host: Host, clock: object, start: float, seconds: float) -> float:
    """Feed ``seconds`` of silence from ``start``, in 0.1 s chunks; the time reached."""
    t = start
    while t < start + seconds - 1e-9:
        chunk = AudioChunk(b"\x00\x00" * 1600, 16000, t)
        clock.advance_to(chunk.end_time)  # type: ignore[attr-defined]
        host.hear(chunk)
        t = chunk.end_time
    return t


def until_running(host: Host, clock: object) -> float:
    """Feed silence until the opening announcements are over and the timer runs."""
    t = 0.0
    while not host.timer.running:
        assert t < 120.0, "the timer never started"
        t = feed_silence(host, clock, t, 0.1)
    return t


class Silent:
    """A recogniser that hears nothing (for tests about everything but hearing)."""

    name = "silent"

    def start(self, context: ListenContext) -> None: ...
    def prepare(self, contexts: Iterable[ListenContext]) -> None: ...
    def set_context(self, context: ListenContext) -> None: ...
    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        return []

    def finish(self) -> list[RecognitionEvent]:
        return []


class ScreenRecorder:
    """A screen that keeps every model the host shows it, for tests of what it shows."""

    def __init__(self) -> None:
        self.models: list[ScreenModel] = []

    def update_model(self, model: ScreenModel) -> None:
        self.models.append(model)


def live_config(tmp_path: Path, **changes: object) -> HostConfig:
    """A keys-only, line-mode configuration on the small test deck and board."""
    values: dict[str, object] = {
        "deck": DATA / "deck.txt",
        "board": DATA / "board.json",
        "keyboard_only": True,
        "plain": True,
        "save": tmp_path / "game.json",
        "seed": 7,
    }
    values.update(changes)
    return HostConfig(**values)  # type: ignore[arg-type]


def disk_full_after_first_save(monkeypatch: pytest.MonkeyPatch) -> None:
    """The live host's save slot finds the disk full after its first save."""
    calls = 0

    def fills_up(folder: Path, prefix: str) -> tuple[int, str]:
        nonlocal calls
        calls += 1
        if calls > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return tempfile.mkstemp(dir=folder, prefix=prefix, suffix=".tmp")

    monkeypatch.setattr(
        "voice_host.host.live.SaveSlot", lambda path, **kw: SaveSlot(path, make_temp=fills_up, **kw)
    )
