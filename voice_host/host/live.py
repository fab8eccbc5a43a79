"""``voice-host play``: wiring the real microphone, recogniser, voice, screen and keys.

Everything concrete is made here (:class:`LiveSession`) and injected into
:class:`~voice_host.host.core.Host`.  Live, every time is on the wall clock:
microphone chunks are re-stamped onto it, so the timer, guesses and claims
share one clock.  Only one thread ever calls the host (the *host loop*); every
other thread puts inputs on one :class:`InputQueue`.

Two screens:

- **Board view** (stdout is a terminal and no ``--plain``): textual's
  :class:`~voice_host.screen.app.TableApp` owns the main thread (it must).  The
  host loop runs in a worker thread and draws through the thread-safe
  ``TableApp.update_model``; the app's ``on_key`` callback puts every key on the
  input queue (ctrl+c is a key there: the host saves and says goodbye, then asks
  the app to exit).  When the app exits for any other reason (ctrl+q), a
  :class:`Stop` goes on the queue, the host saves, and the worker is joined.
  Printed notices (no speech output, saving failed) go to the screen's host
  line instead of stdout, which textual owns.
- **Line mode** (``--plain``, or no terminal): the host loop runs on the main
  thread, a keyboard thread reads single keys (lines from a pipe), and a
  :class:`~voice_host.screen.plain.PlainScreen` writes one line per change.

The listening thread (microphone -> gate -> recogniser -> referee) is the same
in both.

**Teams.**  Without ``--teams`` (and not resuming) :func:`run_live` first sets the
teams up at the table (:mod:`voice_host.host.setup_live`): spoken questions,
answered by voice or keys, before any screen starts.  The announcer and the
recogniser it opens are handed to :class:`LiveSession`, so the speech model is
loaded once.

**The describer's card** (dialogue.md 12; the guessers must neither see nor
hear it).  In the board view the card panel shows it all the time: the screen
faces the describer.  In line mode it is *not* printed by default, because a
screen reader would read it aloud to the whole table and the lines stay on the
screen; ``--show-card`` prints each card, and K shows it once (line mode) or
for :data:`~voice_host.host.core.CARD_PEEK_SECONDS` seconds (board view with
``--no-show-card``).  ``--card-audio DEVICE`` speaks it privately on a second
output (headphones), in either mode.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import random
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from voice_host.announce.factory import open_announcer
from voice_host.announce.printed import is_printed_line
from voice_host.announce.protocol import Announcer, Notify
from voice_host.announce.read_aloud import ScreenReaderAnnouncer
from voice_host.config import HostConfig, first_team, read_board
from voice_host.deck.model import Deck
from voice_host.errors import ModelError, SaveError, UsageError, VoiceHostError
from voice_host.host.clock import Clock, WallClock, restamped
from voice_host.host.core import Host, HostOptions
from voice_host.host.dialogue import (
    KEYBOARD_STOPPED,
    LISTENING_STOPPED,
    MIC_FAINT,
    MIC_OVERLOAD,
    MIC_SILENT,
    MIC_SOUND,
    NO_MICROPHONE,
    NO_RECOGNISER,
    keyboard_failed,
    listening_behind,
    listening_failed,
    no_microphone,
    resume_command,
    won,
)
from voice_host.host.inputs import (
    Continued,
    Heard,
    InputQueue,
    KeyPress,
    KeysClosed,
    MicStatus,
    Notice,
    Stop,
    Suspending,
)
from voice_host.host.keeping_up import ListeningLag
from voice_host.host.listening import Listening
from voice_host.host.saved_game import (
    config_file_unused,
    keep_previous_game,
    resume_config,
    resume_game,
    resumed_time_left,
    saved_offer,
    saved_to_resume,
)
from voice_host.persist import SavedGame, SaveSlot
from voice_host.referee.commands import sound_alike_teams
from voice_host.rules import Game, Phase, RulesError, parse_teams
from voice_host.screen.model import Screen, ScreenModel
from voice_host.screen.plain import PlainScreen
from voice_host.speech.events import Recognizer
from voice_host.terminal_keys import Suspension, hung_up

if TYPE_CHECKING:
    from voice_host.screen.app import TableApp

log = logging.getLogger(__name__)

#: How often the main loop lets time pass when nothing arrives, in seconds.
POLL_SECONDS = 0.05
#: Seconds between attempts to get a lost microphone back.
RETRY_SECONDS = 5.0
#: The longest the board view's Ctrl-Z waits for the host to pause and save the turn
#: before the process stops anyway (a save to a slow disk; a host that has ended).
SUSPEND_WAIT_SECONDS = 2.0


def _deck(config: HostConfig, env: Mapping[str, str], write: Callable[[str], None]) -> Deck:
    from voice_host.deck.loader import load_builtin, load_players_deck

    return load_players_deck(config.deck, env, write) if config.deck else load_builtin()


def _game(config: HostConfig, deck: Deck, saved: SavedGame | None, source: Path) -> Game:
    if saved is not None:
        return resume_game(saved, len(deck), source)
    board = read_board(config.board)
    if config.teams is None:
        raise UsageError('give the teams: --teams "Red:Ann,Bob;Blue:Cat,Dan"')
    try:
        teams = parse_teams(config.teams)
        return Game(
            teams,
            board,
            config.house_rules,
            rng=random.Random(config.seed),
            deck_size=len(deck),
            first_team=first_team(config.first, teams),
        )
    except RulesError as exc:
        raise UsageError(str(exc)) from None


def open_recognizer(
    config: HostConfig,
    env: Mapping[str, str],
    reason: Callable[[str], None] = lambda _line: None,
) -> tuple[Recognizer | None, str]:
    """The recogniser the game (and the team set-up before it) listens with, or None and
    why not.  A model the player named must work: its :class:`ModelError` is raised.
    An error that stops it is given to ``reason`` in its own words (a library, a file),
    and why not is then said plainly (:data:`NO_RECOGNISER`)."""
    if config.keyboard_only:
        return None, "Keyboard only: not listening."
    try:
        from voice_host.speech.choose import open_backend

        model = str(config.model) if config.model is not None else None
        return open_backend(config.backend, model, env, second=config.second_transcriber)
    except ModelError:
        if config.model is not None:
            raise  # a model the player named must work: stop with its error
        return None, "No speech recogniser (no usable speech model)."
    except (VoiceHostError, OSError, ImportError) as exc:
        reason(f"No speech recogniser ({exc}).")
        return None, NO_RECOGNISER


def _open_listening(
    config: HostConfig,
    announcer: Announcer,
    env: Mapping[str, str],
    opened: tuple[Recognizer | None, str] | None = None,
    reason: Callable[[str], None] = lambda _line: None,
) -> tuple[Listening | None, str]:
    """The recogniser (``opened``, else opened now) and the referee, or None and why not
    (an error's own words given to ``reason``, as :func:`open_recognizer` does)."""
    recognizer, why = opened if opened is not None else open_recognizer(config, env, reason)
    if recognizer is None:
        return None, why
    try:
        from voice_host.referee import Referee, default_phone_lookup

        # Read the phone dictionary, the word list and the adjective lexicon now,
        # not on the first guess (about 0.5, 0.3 and 0.1 s).
        referee = Referee.default(default_phone_lookup().warm())
        if referee.frequency is not None:
            referee.frequency("the")
        if referee.adjective is not None:
            referee.adjective("the")
        return Listening(recognizer, referee, announcer), why
    except (VoiceHostError, OSError, ImportError) as exc:
        reason(f"No speech recogniser ({exc}).")
        return None, NO_RECOGNISER


def _listen(
    config: HostConfig,
    listening: Listening,
    inputs: InputQueue,
    clock: Clock,
    stopping: threading.Event,
    missing: bool = False,
    reason: Callable[[str], None] = lambda _line: None,
) -> None:
    """The listening thread: microphone -> judgements, reopening a lost microphone,
    saying once when a microphone hears nothing at all (muted), and advising once
    when the table is heard too faintly or the microphone overloads.  ``missing``: the
    host has already said there is no microphone, so the first sound from one is news
    ("The microphone is back") even if this thread never saw it fail.  ``reason`` is
    given the device's or the error's own words when the microphone or the recogniser
    fails (the host says plain ones)."""
    from voice_host.audio.levels import SilentInputWatch, TableLevelWatch
    from voice_host.audio.microphone import MicrophoneEvent, MicrophoneSource

    reopened = threading.Event()  # chunks from a reopened stream are stamped afresh

    def news(event: MicrophoneEvent) -> None:
        if event.kind == "stalled":
            inputs.put(MicStatus(False, "The microphone stopped."))
        elif event.kind == "reopened":
            reopened.set()
            inputs.put(MicStatus(True, "The microphone is back."))

    lost = False
    back_due = missing
    watch = SilentInputWatch()
    table = TableLevelWatch()
    lag = ListeningLag()
    while not stopping.is_set():
        source = MicrophoneSource(config.device, on_event=news)
        try:
            for chunk in restamped(source, clock, reopened):
                if stopping.is_set():
                    source.close()
                    break
                level = watch.observe(chunk)
                if level is not None:
                    inputs.put(Notice(MIC_SILENT if level == "silent" else MIC_SOUND))
                in_play = listening.in_play() and not listening.gated(chunk)
                advice = table.observe(chunk, in_play)
                if advice is not None:
                    inputs.put(Notice(MIC_FAINT if advice == "faint" else MIC_OVERLOAD, later=True))
                judgements = listening.feed(chunk)
                if lag.observe(
                    clock.now() - chunk.end_time, chunk.duration, in_play, source.dropped_blocks
                ):
                    lighter = config.second_transcriber
                    shown = listening_behind(lighter, written=True)
                    inputs.put(Notice(listening_behind(lighter), later=True, shown=shown))
                # Back once a chunk has been heard *and judged*: a recogniser that fails
                # on every chunk is not "back" at each retry.
                if lost or back_due:
                    lost = back_due = False
                    inputs.put(MicStatus(True, "The microphone is back."))
                if judgements:
                    inputs.put(Heard(tuple(judgements)))
        except (VoiceHostError, OSError) as exc:
            if not lost:
                lost = True
                # The same words as the team set-up's, so the host can tell it is old news.
                why = no_microphone(exc)
                reason(why)
                inputs.put(MicStatus(False, NO_MICROPHONE, shown=why))
        except Exception as exc:  # the recogniser or the referee broke: say so, play on by keys
            log.debug("listening failed", exc_info=True)
            source.close()
            if not lost:
                lost = True
                why = listening_failed(exc)
                reason(why)
                inputs.put(MicStatus(False, LISTENING_STOPPED, shown=why))
        stopping.wait(RETRY_SECONDS)


def _keys(
    stdin: TextIO,
    inputs: InputQueue,
    clock: Clock,
    stopping: threading.Event,
    on_key: Callable[[float], None] | None = None,
    reason: Callable[[str], None] = lambda _line: None,
) -> None:
    """The keyboard thread: one key at a time (lines when stdin is not a terminal).
    ``on_key`` is told each key's time before the host is (a screen reader falls silent
    at a key press: :meth:`ScreenReaderAnnouncer.silenced`).  ``reason`` is given the
    error's own words when the keyboard fails (the host says plain ones)."""
    from voice_host.terminal_keys import KeySource, TerminalKeys, ToldKeys, key_source

    terminal = key_source(stdin, lambda _text: None)
    # Single keys without Enter on a terminal; the terminal is restored when the thread ends.
    mode = terminal.cbreak() if isinstance(terminal, TerminalKeys) else contextlib.nullcontext()
    source: KeySource = terminal if on_key is None else ToldKeys(terminal, on_key, clock.now)
    with mode:
        while not stopping.is_set():
            try:
                key = source.read_key(0.1)
            except EOFError:
                inputs.put(KeysClosed())  # voice plays on; the host stops if it cannot hear
                return
            except Exception as exc:  # the terminal failed, or the reader's hook: say so
                log.debug("the keyboard failed", exc_info=True)
                why = keyboard_failed(exc)
                reason(why)
                inputs.put(Notice(KEYBOARD_STOPPED, shown=why))
                inputs.put(KeysClosed())  # as at the end of input: voice plays on, if it can
                return
            if key is not None:
                inputs.put(KeyPress(key, clock.now()))


class _RoutedPrinter:
    """A printer whose destination can change: the team set-up prints to the terminal,
    the game (in the board view) to the screen's host line.  :meth:`notify` takes a
    voice's news about its output the same way (``told``; None prints the line)."""

    def __init__(self, target: Callable[[str], None]) -> None:
        self.target = target
        self.told: Notify | None = None

    def __call__(self, text: str) -> None:
        self.target(text)

    def notify(self, said: str, printed: str) -> None:
        """See :data:`~voice_host.announce.protocol.Notify`."""
        if self.told is None:
            self.target(printed)
        else:
            self.told(said, printed)


def _told(inputs: InputQueue) -> Notify:
    """Where a voice's news about its output goes when the host says it: the plain words
    said, and the line with the device's reason shown on the board view's host line."""

    def told(said: str, printed: str) -> None:
        inputs.put(Notice(said, shown=printed))

    return told


#: Seconds to wait for the host loop to save and stop after the screen closed.
STOP_WAIT_SECONDS = 10.0


def _notices(
    write: Callable[[str], None], inputs: InputQueue, board_view: bool
) -> Callable[[str], None]:
    """Where printed notices go: the terminal in line mode; in the board view (textual owns
    the terminal) onto the input queue, for the host to say and show once it runs.  The
    printed announcer's own lines (``Host: ...``) are dropped there: the screen's host
    line already shows every announcement."""
    if not board_view:
        return write

    def notice(text: str) -> None:
        if not is_printed_line(text):
            inputs.put(Notice(text))

    return notice


class _LineScreen:
    """Line mode's screen without the host's message line: in line mode every message
    (microphone news) is an announcement too, printed or spoken on the same terminal,
    so writing it again would say it twice."""

    def __init__(self, screen: Screen) -> None:
        self._screen = screen

    def update_model(self, model: ScreenModel) -> None:
        """Show ``model`` with its message left out."""
        self._screen.update_model(dataclasses.replace(model, message=""))


class LiveSession:
    """One game's host with its announcers, listening and input queue, ready to run.

    Made by :meth:`open`; run by :func:`run_live` in line mode (:meth:`run_lines`) or
    with the board view (:meth:`serve` and :meth:`finish` around the app's run).
    """

    def __init__(
        self,
        config: HostConfig,
        host: Host,
        *,
        clock: Clock,
        env: Mapping[str, str],
        card_voice: Announcer | None,
        why: str,
        inputs: InputQueue,
        kept: str = "",
        time_left: float | None = None,
        held: bool = False,
        ended_early: Mapping[int, float] | None = None,
        reason: Callable[[str], None] = lambda _line: None,
        why_shown: str = "",
    ) -> None:
        self.config = config
        self._kept = kept
        """Where the game a new one replaced is kept (said at the start), or ''."""
        self._time_left = time_left
        """A resumed turn's seconds (None: a full turn)."""
        self._held = held
        """Whether the resumed turn was paused or waiting for its describer."""
        self._ended_early = ended_early
        """The resumed game's :attr:`~voice_host.persist.SavedGame.ended_early`."""
        self.host = host
        """The host (touched only by the thread running the host loop)."""
        self.clock = clock
        self.env = env
        self.card_voice = card_voice
        self.inputs = inputs
        """Keys, voice and microphone news for the host loop (any thread may put)."""
        self.stopping = threading.Event()
        """Set when the session ends: the key and listening threads stop."""
        self._why = why
        self._why_shown = why_shown
        """``why`` with the error's own words when the recogniser did not start, or ''."""
        self._threads: list[threading.Thread] = []
        self.error: BaseException | None = None
        """What broke the host loop in a worker thread, re-raised by :meth:`finish`."""
        self._reason = reason
        """Prints the reason, in a device's own words, of news said in plain words."""

    @classmethod
    def open(
        cls,
        config: HostConfig,
        *,
        stdout: TextIO,
        env: Mapping[str, str],
        clock: Clock,
        board_view: bool,
        show_card: bool | None = None,
        announcer: Announcer | None = None,
        recognizer: tuple[Recognizer | None, str] | None = None,
        told: str = "",
        recognizer_reason: str = "",
    ) -> LiveSession:
        """Load or start the game and make everything the host needs.

        ``stdout`` takes the lines of line mode; ``board_view`` routes printed notices to
        the screen instead.  ``show_card`` None means the mode's default (see the module
        docstring).  ``announcer`` replaces the real voice (tests, or the one the team
        set-up already spoke with).  ``recognizer`` is an already opened recogniser and
        why (or None and why not), as :func:`open_recognizer` gives, so the model is not
        loaded twice; None opens one.  ``told`` is the no-voice notice the team set-up
        has already said (the host does not say the same news again), and
        ``recognizer_reason`` the error's own words when that recogniser did not start
        (printed then; shown on the board view's host line).  Set-up errors raise
        :class:`VoiceHostError` subclasses.
        """

        def write(text: str) -> None:
            print(text, file=stdout, flush=True)

        inputs = InputQueue()
        notices = _notices(write, inputs, board_view)

        def said(text: str) -> None:
            inputs.put(Notice(text))  # for the host to say, in either mode

        voice_told = _told(inputs)
        printed_last = [""]

        def reason(printed: str) -> None:
            # News the host says aloud in plain words (as it may come in a turn) has its
            # reason in a device's or the system's own words printed in line mode, for a
            # player who reads it (the board view shows it on the host's line), but not
            # for a screen reader, which would read it aloud all the same.  Once: the
            # microphone found missing before the welcome fails the same way again.
            if not board_view and not config.screen_reader and printed != printed_last[0]:
                write(printed)
            printed_last[0] = printed

        def in_plain_words(words: str, printed: str) -> None:
            reason(printed)
            voice_told(words, printed)

        # A save that fails (and works again) is said: a player listening to the host
        # must hear that the game is not being saved.
        slot = SaveSlot(config.save_path(env), report=said, notify=in_plain_words)
        saved = saved_to_resume(slot) if config.resume else None
        if saved is not None:
            config = resume_config(config, saved)  # the game's own deck, timer, wake word
        deck = _deck(config, env, write)
        game = _game(config, deck, saved, slot.path)
        if saved is not None and (unused := config_file_unused(config, game)) is not None:
            said(unused.removeprefix("voice-host: "))
        kept = "" if saved is not None else keep_previous_game(slot)
        time_left = resumed_time_left(saved, game, config.timer) if saved is not None else None
        if announcer is None:
            announcer = open_announcer(
                config.announce_options(),
                printer=notices,
                clock=clock.now,
                notify=voice_told if board_view else None,  # line mode prints it, as before
            )
        card_options = config.card_announce_options()
        # The card voice prints nothing but its failure, which the host says aloud: a
        # describer who listens for the card must hear that it is silent.
        card_voice = (
            open_announcer(card_options, printer=said, clock=clock.now, notify=in_plain_words)
            if card_options
            else None
        )
        reasons = [recognizer_reason] if recognizer_reason else []

        def no_recognizer(line: str) -> None:
            reasons.append(line)
            reason(line)

        listening, why = _open_listening(config, announcer, env, recognizer, no_recognizer)
        shown = show_card if show_card is not None else board_view
        host = Host(
            game,
            deck,
            clock=clock,
            announcer=announcer,
            listening=listening,
            card_announcer=card_voice,
            screen=None
            if board_view
            else _LineScreen(PlainScreen(stdout, show_card=True, card_only=config.screen_reader)),
            save=slot,
            save_options=config.to_data(),
            options=HostOptions(
                timer=config.timer,
                wake_word=config.wake_word,
                show_card=shown,
                ready=config.ready,
                time_cue=config.time_cue,
                resume_with=resume_command(slot.path, default_path=config.save is None),
            ),
        )
        for first, second in sound_alike_teams([t.name for t in game.teams]):
            if listening is not None:  # only a spoken claim cannot tell them apart
                said(
                    f"{first} and {second} sound the same called out, so a spoken claim "
                    f"goes to {first}: {second}, claim with your buzzer key."
                )
        if told:
            host.told(told)
        return cls(
            config,
            host,
            clock=clock,
            env=env,
            card_voice=card_voice,
            why=why,
            inputs=inputs,
            kept=kept,
            time_left=time_left,
            held=saved is not None and saved.held,  # outside a turn the host holds nothing
            ended_early=saved.ended_early if saved is not None else None,
            reason=reason,
            why_shown=reasons[-1] if listening is None and reasons else "",
        )

    # ----- the threads -----------------------------------------------------------------

    def _start_threads(self, stdin: TextIO | None, *, missing: bool = False) -> None:
        if stdin is not None:
            reader = self.host.announcer
            on_key = reader.silenced if isinstance(reader, ScreenReaderAnnouncer) else None
            self._threads.append(
                threading.Thread(
                    target=_keys,
                    args=(stdin, self.inputs, self.clock, self.stopping, on_key, self._reason),
                    name="keys",
                    daemon=True,
                )
            )
        listening = self.host.listening
        if listening is not None:
            self._threads.append(
                threading.Thread(
                    target=_listen,
                    args=(
                        self.config,
                        listening,
                        self.inputs,
                        self.clock,
                        self.stopping,
                        missing,
                        self._reason,
                    ),
                    name="listening",
                    daemon=True,
                )
            )
        for thread in self._threads:
            thread.start()

    def key(self, key: str) -> None:
        """A key from the screen (any thread): onto the input queue, stamped now."""
        self.inputs.put(KeyPress(key, self.clock.now()))

    def _stopping(self) -> None:
        """The process is about to stop (the board view's Ctrl-Z): the host, on its own
        thread, pauses the turn and saves it; wait for that (a little while at most),
        so that the time spent stopped is not the turn's."""
        asked = Suspending(self.clock.now())
        self.inputs.put(asked)
        asked.done.wait(SUSPEND_WAIT_SECONDS)

    def _continued(self) -> None:
        """Back after the board view's Ctrl-Z (``fg``): the host says the turn is paused."""
        self.inputs.put(Continued(self.clock.now()))

    def _news_before_start(self) -> tuple[str, str]:
        """Why the host cannot listen, if that is known before the game opens: no
        recogniser, or no microphone that opens (the same words as the listening
        thread's, :func:`_listen`, so the host does not say them twice), and the same
        news with the device's own words, or ''."""
        if self.host.listening is None:
            return self._why, self._why_shown
        from voice_host.audio import microphone

        try:
            microphone.MicrophoneSource(self.config.device).check()
        except (VoiceHostError, OSError) as exc:
            why = no_microphone(exc)
            self._reason(why)
            return NO_MICROPHONE, why
        return "", ""

    def host_loop(self, stdin: TextIO | None = None) -> None:
        """Start the host and run it until the session is over (once the game is won,
        until the players quit: the win can still be undone)."""
        host = self.host
        news, shown = self._news_before_start()
        host.start(
            resumed=self.config.resume,
            news=news,
            news_shown=shown,
            kept=self._kept,
            time_left=self._time_left,
            held=self._held,
            ended_early=self._ended_early,
            notices=self.inputs.take_notices(),
        )
        if host.listening is None:
            host.handle(MicStatus(False, self._why, shown=self._why_shown))
        self._start_threads(stdin, missing=bool(news))
        # Ctrl-Z, taken on the main thread in line mode (the board view takes it on its
        # own thread, see _stopping): the turn is paused and saved, then the process
        # stops, and on fg the host says it is paused.
        suspension = Suspension()
        with suspension.taking():
            while not host.finished:
                if suspension.take():
                    host.suspend(self.clock.now())
                    suspension.stop()  # until fg (or bg)
                    host.continued(self.clock.now())
                    continue
                item = self.inputs.get(POLL_SECONDS)
                if item is None:
                    host.tick(self.clock.now())
                else:
                    host.handle(item)

    def close(self) -> None:
        """Stop the other threads, let the voice finish (up to 10 s) and release it."""
        self.stopping.set()
        for thread in self._threads:
            if thread.name == "keys":
                thread.join(1.0)  # restores the terminal mode
        with contextlib.suppress(Exception):
            self.host.announcer.drain(10.0)
        self.host.announcer.close()
        if self.card_voice is not None:
            self.card_voice.close()

    # ----- line mode ---------------------------------------------------------------------

    def run_lines(self, stdin: TextIO) -> int:
        """Line mode: the host loop on this thread, keys from ``stdin``; return 0.

        Raises :class:`SaveError` (after everything is closed) when the game could not
        be saved as the session ended."""
        try:
            self.host_loop(stdin)
        except KeyboardInterrupt:
            self.host.handle(Stop("Ctrl-C"))
        finally:
            self.close()
        self._check_saved()
        return 0

    def _check_saved(self) -> None:
        if self.host.unsaved is not None:
            raise SaveError(self.host.unsaved)

    # ----- the board view ----------------------------------------------------------------

    def table_app(self) -> TableApp:
        """The board view, its keys wired to this session's input queue."""
        from voice_host.screen.adapter import screen_model_from_game
        from voice_host.screen.app import TableApp

        app = TableApp(
            screen_model_from_game(self.host.game),
            on_key=self.key,
            on_suspend=self._stopping,
            on_continued=self._continued,
        )
        self.host.screen = app
        return app

    def serve(self, app: TableApp) -> threading.Thread:
        """Start the host loop in a worker thread; it asks ``app`` to exit when it ends."""

        def work() -> None:
            try:
                self.host_loop()
                if self.host.game.phase is Phase.GAME_OVER:
                    self.host.announcer.drain(10.0)  # the winner is said before the view goes
            except BaseException as exc:  # re-raised on the main thread by finish()
                self.error = exc
            finally:
                app.request_exit()

        worker = threading.Thread(target=work, name="host", daemon=True)
        worker.start()
        return worker

    def finish(self, worker: threading.Thread) -> None:
        """After the app has exited: stop the host (it saves), join it, close everything."""
        self.inputs.put(Stop("the screen was closed"))
        worker.join(STOP_WAIT_SECONDS)
        self.close()
        if self.error is not None:
            raise self.error

    def run_board(self, stdout: TextIO | None = None) -> int:
        """The board view on this (the main) thread until it exits; return 0.

        Once it has closed, the last word is printed to ``stdout`` (the winner, where
        the game is saved and how to go on with it), as line mode leaves it: textual
        clears the screen it drew."""
        app = self.table_app()
        worker = self.serve(app)
        try:
            app.run()
        except KeyboardInterrupt:
            pass  # a SIGINT from outside the terminal: saved by finish()
        finally:
            self.finish(worker)
            if stdout is not None:
                for line in self.farewell():
                    print(line, file=stdout, flush=True)
        self._check_saved()
        return 0

    def farewell(self) -> list[str]:
        """What the session ended with: the winner, if any, and the host's last words."""
        lines = [won(self.host.game)] if self.host.game.phase is Phase.GAME_OVER else []
        last = self.host.said[-1].text if self.host.said else ""
        if last and last not in lines:
            lines.append(last)
        return lines


@contextlib.contextmanager
def native_stderr_dropped(fd: int = 2) -> Iterator[None]:
    """Line mode: what C libraries write straight to the terminal's standard error is
    dropped, and Python's own ``sys.stderr`` (its errors and tracebacks) still reaches it.

    PortAudio and ALSA write their diagnostics to file descriptor 2: "ALSA lib pcm.c:
    ... underrun occurred" after announcements, and dozens of "Expression ... failed in
    pa_linux_alsa.c" lines when the sound server went away, among the host's lines
    that a screen reader reads out.  Nothing changes when ``fd`` is not a terminal (a
    log file or a pipe keeps them).  A terminal that hung up meanwhile (the window
    closed) is not put back: the descriptor stays on ``/dev/null``, as the hang-up's
    handler (:func:`~voice_host.terminal_keys.silence_lost_terminal`) would have left it."""
    try:
        terminal = os.isatty(fd)
    except OSError:
        terminal = False
    if not terminal:
        yield
        return
    saved = os.dup(fd)
    python_stderr = sys.stderr
    try:
        replaced = python_stderr is not None and python_stderr.fileno() == fd
    except (AttributeError, OSError, ValueError):  # pytest's capture, a StringIO
        replaced = False
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        if replaced:
            python_stderr.flush()
            sys.stderr = open(  # noqa: SIM115 (closed below)
                saved,
                "w",
                encoding=python_stderr.encoding,
                errors=python_stderr.errors,
                buffering=1,
                closefd=False,
            )
        os.dup2(devnull, fd)
        yield
    finally:
        if replaced:
            with contextlib.suppress(Exception):
                sys.stderr.flush()
                sys.stderr.close()
            sys.stderr = python_stderr
        if not hung_up(saved):  # a terminal that hung up meanwhile stays /dev/null, as
            os.dup2(saved, fd)  # the hang-up's handler left it (its writes fail: EIO)
        os.close(saved)
        os.close(devnull)


def uses_board_view(config: HostConfig, stdout: TextIO) -> bool:
    """The board view when stdout is a terminal and neither ``--plain`` nor
    ``--screen-reader`` was asked for."""
    isatty = getattr(stdout, "isatty", None)
    return not (config.plain or config.screen_reader) and callable(isatty) and bool(isatty())


def _load_pause_runtime() -> None:
    """Load the neural pause detector's runtime while this is the only thread: it
    reads its thread limit from the environment as it loads
    (:func:`voice_host.speech.reply_pause.load_runtime`).  Without it the
    recogniser finds pauses with its frame detector alone, as it says then."""
    from voice_host.speech import reply_pause

    with contextlib.suppress(ImportError, OSError):
        reply_pause.load_runtime()


def run_live(
    config: HostConfig,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    env: Mapping[str, str] | None = None,
    clock: Clock | None = None,
    show_card: bool | None = None,
    voice_setup: bool = True,
    notice: str = "",
    offer_taken: str = "",
) -> int:
    """Play a game hands-free until it is won, quit or interrupted; return the exit code.

    ``stdin``/``stdout`` default to the process's.  Without teams in ``config`` (and not
    resuming) the teams are first set up at the table, spoken aloud and answered by
    voice or keys (:func:`voice_host.host.setup_live.set_up_teams`), with the same voice
    and recogniser the game then uses; ``voice_setup=False`` asks for ``config.teams``
    instead.  The board view runs when stdout is a terminal and ``config.plain`` is
    off, else line mode (module docstring).  ``show_card`` None shows the describer's
    card in the board view and not in line mode.  ``notice`` is a line the command has
    printed before the game (options a resumed game does not take): the board view,
    which covers the terminal, has the host say it too; ``offer_taken`` the line to
    print (and the board view to say) when the set-up's offer of a saved game is taken
    (the options that make a new game are dropped).  Errors in the set-up raise
    :class:`VoiceHostError` subclasses.  Ctrl-C saves the game and returns 0; resume it
    with ``--resume``.
    """
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    board_view = uses_board_view(config, stdout)
    # The board view is left as it is: no such line showed on it in the audit.
    quiet = contextlib.nullcontext() if board_view else native_stderr_dropped()
    with quiet:
        return _run_live(
            config,
            stdin=stdin,
            stdout=stdout,
            env=env if env is not None else os.environ,
            clock=clock if clock is not None else WallClock(),
            board_view=board_view,
            show_card=show_card,
            voice_setup=voice_setup,
            notice=notice,
            offer_taken=offer_taken,
        )


def _run_live(
    config: HostConfig,
    *,
    stdin: TextIO,
    stdout: TextIO,
    env: Mapping[str, str],
    clock: Clock,
    board_view: bool,
    show_card: bool | None,
    voice_setup: bool,
    notice: str,
    offer_taken: str = "",
) -> int:
    """:func:`run_live` once the terminal is set up."""
    announcer: Announcer | None = None
    opened: tuple[Recognizer | None, str] | None = None
    told: list[str] = []  # the no-voice notice the set-up said, not to be said again
    reasons: list[str] = []  # why the set-up's recogniser did not start, in its own words
    terminal = stdout
    printer = _RoutedPrinter(lambda text: print(text, file=terminal, flush=True))
    if config.screen_reader:
        # The player's screen reader says every line: the host prints its words, and
        # each line written is planned as the reader's speech for the microphone gate.
        reader = ScreenReaderAnnouncer(config.reader_options(), printer=printer, clock=clock.now)
        announcer = reader
        stdout = terminal = reader.stream(stdout)
    _load_pause_runtime()
    if voice_setup and config.teams is None and not config.resume:
        from voice_host.host.setup_live import set_up_teams

        # The set-up runs in line mode before any screen: printed lines go to stdout.
        if announcer is None:
            announcer = open_announcer(
                config.announce_options(), printer=printer, clock=clock.now, notify=printer.notify
            )
        try:

            def no_recognizer(line: str) -> None:
                # the error's own words, for a player who reads them (the set-up says
                # plain ones), but not for a screen reader, which reads every line
                reasons.append(line)
                if not config.screen_reader:
                    printer(line)

            opened = open_recognizer(config, env, no_recognizer)
            config = set_up_teams(
                config,
                announcer=announcer,
                recognizer=opened[0],
                why=opened[1],
                stdin=stdin,
                write=printer,
                clock=clock,
                on_notice=told.append,
                saved=saved_offer(config.save_path(env)),
            )
        except BaseException:
            announcer.close()
            raise
        if config.resume and offer_taken:  # the saved game offered was taken up
            print(offer_taken, file=sys.stderr, flush=True)
            notice = notice or offer_taken
    try:
        session = LiveSession.open(
            config,
            stdout=stdout,
            env=env,
            clock=clock,
            board_view=board_view,
            show_card=show_card,
            announcer=announcer,
            recognizer=opened,
            told=told[-1] if told else "",
            recognizer_reason=reasons[-1] if reasons else "",
        )
    except BaseException:
        if announcer is not None:
            announcer.close()
        raise
    # From now on the set-up voice's printed lines go where the game's notices go.
    printer.target = _notices(printer.target, session.inputs, board_view)
    if board_view:
        printer.told = _told(session.inputs)
    if board_view:
        if notice:
            session.inputs.put(Notice(notice))
        return session.run_board(stdout)
    return session.run_lines(stdin)
