"""``voice-host play``: wiring the real microphone, recogniser, voice, screen and keys.

Everything concrete is made here and injected into :class:`~voice_host.host.core.Host`.
Threads: the keyboard thread and the listening thread (microphone -> gate ->
recogniser -> referee) put inputs on one :class:`InputQueue`; the main thread
runs the host.  Live, every time is on the wall clock: microphone chunks are
re-stamped onto it, so the timer, guesses and claims share one clock.
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import TextIO

from voice_host.announce.factory import open_announcer
from voice_host.announce.protocol import Announcer
from voice_host.audio.chunk import AudioChunk
from voice_host.config import HostConfig
from voice_host.deck.model import Deck
from voice_host.errors import InputFileError, UsageError, VoiceHostError
from voice_host.host.clock import Clock, WallClock
from voice_host.host.core import Host, HostOptions
from voice_host.host.inputs import Heard, InputQueue, KeyPress, MicStatus, Stop
from voice_host.host.listening import Listening
from voice_host.persist import SaveSlot
from voice_host.rules import Game, Phase, RulesError, default_board, load_board, parse_teams
from voice_host.screen.plain import PlainScreen

#: How often the main loop lets time pass when nothing arrives, in seconds.
POLL_SECONDS = 0.05
#: Seconds between attempts to get a lost microphone back.
RETRY_SECONDS = 5.0


def _deck(config: HostConfig) -> Deck:
    from voice_host.deck.loader import load_builtin, load_deck

    return load_deck(config.deck) if config.deck is not None else load_builtin()


def _game(config: HostConfig, deck: Deck, slot: SaveSlot, write: Callable[[str], None]) -> Game:
    if config.resume:
        saved = slot.load_game()
        if saved is None:
            raise UsageError(f"no saved game to resume at {slot.path}")
        try:
            game = Game.from_json(saved.game)
        except RulesError as exc:
            raise InputFileError(f"{slot.path}: {exc}") from None
        if game.deck_size != len(deck):
            raise UsageError(
                f"the saved game used a deck of {game.deck_size} cards, this one has {len(deck)}"
            )
        return game
    if config.board is not None:
        try:
            board = load_board(config.board.read_text(encoding="utf-8"))
        except OSError as exc:
            raise InputFileError(f"{config.board}: cannot read: {exc.strerror}") from None
        except RulesError as exc:
            raise InputFileError(f"{config.board}: {exc}") from None
    else:
        board = default_board()
    if config.teams is None:
        raise UsageError('give the teams: --teams "Red:Ann,Bob;Blue:Cat,Dan"')
    try:
        return Game(
            parse_teams(config.teams),
            board,
            config.house_rules,
            rng=random.Random(config.seed),
            deck_size=len(deck),
        )
    except RulesError as exc:
        raise UsageError(str(exc)) from None


def _open_listening(
    config: HostConfig, announcer: Announcer, env: Mapping[str, str]
) -> tuple[Listening | None, str]:
    """The recogniser and referee, or None and why not."""
    if config.keyboard_only:
        return None, "Keyboard only: not listening."
    try:
        from voice_host.commands.listen import open_backend
        from voice_host.referee import Referee, default_phone_lookup

        model = str(config.model) if config.model is not None else None
        recognizer, why = open_backend(config.backend, model, env)
        return Listening(recognizer, Referee(default_phone_lookup()), announcer), why
    except (VoiceHostError, OSError, ImportError) as exc:
        return None, f"No speech recogniser ({exc})."


def _restamped(chunks: Iterator[AudioChunk], clock: Clock) -> Iterator[AudioChunk]:
    """Microphone chunks moved onto the host's clock (offset fixed at the first chunk)."""
    offset: float | None = None
    for chunk in chunks:
        if offset is None:
            offset = clock.now() - chunk.end_time
        yield AudioChunk(chunk.samples, chunk.rate, chunk.start_time + offset)


def _listen(
    config: HostConfig,
    listening: Listening,
    inputs: InputQueue,
    clock: Clock,
    stopping: threading.Event,
) -> None:
    """The listening thread: microphone -> judgements, reopening a lost microphone."""
    from voice_host.audio.microphone import MicrophoneEvent, MicrophoneSource

    def news(event: MicrophoneEvent) -> None:
        if event.kind == "stalled":
            inputs.put(MicStatus(False, "The microphone stopped."))
        elif event.kind == "reopened":
            inputs.put(MicStatus(True, "The microphone is back."))

    lost = False
    while not stopping.is_set():
        source = MicrophoneSource(config.device, on_event=news)
        try:
            for chunk in _restamped(iter(source), clock):
                if lost:
                    lost = False
                    inputs.put(MicStatus(True, "The microphone is back."))
                if stopping.is_set():
                    source.close()
                    break
                judgements = listening.feed(chunk)
                if judgements:
                    inputs.put(Heard(tuple(judgements)))
        except (VoiceHostError, OSError) as exc:
            if not lost:
                lost = True
                inputs.put(MicStatus(False, f"No microphone ({exc})."))
        stopping.wait(RETRY_SECONDS)


def _keys(stdin: TextIO, inputs: InputQueue, clock: Clock, stopping: threading.Event) -> None:
    """The keyboard thread: one key at a time (lines when stdin is not a terminal)."""
    from voice_host.keyboard.terminal import key_source

    source = key_source(stdin, lambda _text: None)
    while not stopping.is_set():
        try:
            key = source.read_key(0.1)
        except EOFError:
            return  # a pipe ran out: voice and the timer go on
        if key is not None:
            inputs.put(KeyPress(key, clock.now()))


def run_live(
    config: HostConfig,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    env: Mapping[str, str] | None = None,
    clock: Clock | None = None,
) -> int:
    """Play a game hands-free until it is won, quit or interrupted; return the exit code.

    Needs ``config`` (teams unless ``resume``); ``stdin``/``stdout`` default to the
    process's.  Errors in the set-up raise :class:`VoiceHostError` subclasses.
    Ctrl-C saves the game and returns 0; resume it with ``--resume``.
    """
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    env = env if env is not None else os.environ
    clock = clock if clock is not None else WallClock()

    def write(text: str) -> None:
        print(text, file=stdout, flush=True)

    slot = SaveSlot(config.save_path(env), report=write)
    deck = _deck(config)
    game = _game(config, deck, slot, write)
    announcer = open_announcer(config.announce_options(), printer=write, clock=clock.now)
    card_options = config.card_announce_options()
    card_voice = (
        open_announcer(card_options, printer=write, clock=clock.now) if card_options else None
    )
    listening, why = _open_listening(config, announcer, env)
    screen = PlainScreen(stdout, show_card=True)
    host = Host(
        game,
        deck,
        clock=clock,
        announcer=announcer,
        listening=listening,
        card_announcer=card_voice,
        screen=screen,
        save=slot,
        save_options=config.to_data(),
        options=HostOptions(timer=config.timer, wake_word=config.wake_word),
    )
    inputs = InputQueue()
    stopping = threading.Event()
    threads = [threading.Thread(target=_keys, args=(stdin, inputs, clock, stopping), daemon=True)]
    if listening is not None:
        threads.append(
            threading.Thread(
                target=_listen, args=(config, listening, inputs, clock, stopping), daemon=True
            )
        )
    try:
        host.start(resumed=config.resume)
        if listening is None:
            host.handle(MicStatus(False, why))
        for thread in threads:
            thread.start()
        while not host.finished:
            item = inputs.get(POLL_SECONDS)
            if item is None:
                host.tick(clock.now())
            else:
                host.handle(item)
            if game.phase is Phase.GAME_OVER:
                break
    except KeyboardInterrupt:
        host.handle(Stop("Ctrl-C"))
    finally:
        stopping.set()
        with contextlib.suppress(Exception):
            announcer.drain(10.0)
        announcer.close()
        if card_voice is not None:
            card_voice.close()
    return 0
