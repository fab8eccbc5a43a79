"""Keyboard play as a state machine: keys in, engine inputs applied, announcements out.

No terminal and no clock here: every method takes ``now`` (seconds on any
monotonic clock) and returns the announcements as strings, so the same logic
serves the terminal, tests with a fake clock, and the later voice host.

Keys (one character; the terminal maps Enter to space):

- anywhere: ``?`` help, ``i`` where everyone is, ``a`` repeat (the last announcement,
  then where everyone is), ``u`` undo, ``q`` quit (``y`` confirms);
- a turn: space starts the timer (then pauses and resumes it), ``c`` correct,
  ``p`` pass, ``f`` foul, ``t`` time is up now;
- SPIN: space or ``s`` spins; ``w`` ``n`` ``r`` ``l`` enter a real spinner's
  wide green, narrow green, red or line;
- after a green spin: ``f`` own piece forward, a team's number pushes it back;
- CONTROL and FINISH rounds: the number of the team that answered first,
  ``s`` when two answered at once (another card).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from voice_host.host import dialogue
from voice_host.host.keys import SPINNER
from voice_host.host.timer import SAVE_TIMER_EVERY, WARNING_AT
from voice_host.keyboard import texts
from voice_host.rules import (
    Choose,
    ControlSimultaneous,
    ControlWon,
    Correct,
    Foul,
    Game,
    Input,
    NothingToUndoError,
    Pass,
    Phase,
    RulesError,
    Spin,
    TimeUp,
)

EntryText = Callable[[int, str], str]
"""``entry_text(card_index, category) -> text``: what the describer sees for a card
(0-based index) and a category (or ``Control``)."""


def card_label(card_index: int, category: str) -> str:
    """The fallback entry text when no deck is loaded: ``card 18, Object``."""
    return f"card {card_index + 1}, {category}"


def _nothing() -> None:
    return None


class KeyboardController:
    """Maps keys to engine inputs and narrates the game, in the live host's words
    (:mod:`voice_host.host.dialogue`) plus its own key texts (:mod:`voice_host.keyboard.texts`).

    ``timer_seconds``: length of a turn (R5), in seconds of the caller's clock.
    ``entry_text``: how a card is shown to the describer (default :func:`card_label`).
    ``on_change``: called after every change of the game (an input applied, an undo),
    so the caller can save it; the controller itself never touches files.
    ``resumed``: the game was picked up from a save (the opening says so);
    ``time_left``: the seconds its turn goes on with (None: a full turn).
    ``on_change`` is also called every few seconds of a running turn, and by
    :meth:`leave`, so that a save holds the turn's time left (:attr:`saved_time_left`).
    """

    def __init__(
        self,
        game: Game,
        *,
        timer_seconds: float = 30.0,
        entry_text: EntryText = card_label,
        on_change: Callable[[], None] = _nothing,
        resumed: bool = False,
        time_left: float | None = None,
        ended_early: Mapping[int, float] | None = None,
    ) -> None:
        if timer_seconds <= 0:
            raise ValueError(f"the timer must be positive, got {timer_seconds} s")
        self.game = game
        """The game being played."""
        self.timer_seconds = timer_seconds
        """Length of a turn, in seconds."""
        self.entry_text = entry_text
        """How a card entry is shown."""
        self.on_change = on_change
        """Called after every change of the game."""
        self.resumed = resumed
        """Whether the game was resumed from a save."""
        self.finished = False
        """True once the players quit."""
        self._confirm_quit = False
        self._turn = game.state.turn
        self._started = False  # the current turn's timer has been started
        self._running_since: float | None = None
        self._time_left = timer_seconds
        self._warned = False
        self._resumed_left: float | None = None
        if resumed and time_left is not None and game.phase is Phase.TURN:
            self._resumed_left = self._time_left = min(timer_seconds, time_left)
            self._warned = self._time_left <= WARNING_AT
            # a turn given back by undo after its time ran out: still open, its count
            # to fix (C, P, F) and T to end it, as before the save
            self._started = self._time_left <= 0
        self._now: float | None = None  # the caller's clock when last heard from
        self._saved_second: int | None = None
        self._last_said: list[str] = []  # what "a" repeats (dialogue.md 4)
        # the time a turn had left when a foul (foul-penalty=end-turn) or T ended it, by
        # the number of inputs it made: undoing that input gives the turn its time back
        self._ended_early: dict[int, float] = dict(ended_early or {})

    # ----- public interface ------------------------------------------------------------

    def opening(self) -> list[str]:
        """The welcome (or the resume notice with where everyone is) and what to do first."""
        if self.resumed:
            resumed = dialogue.resumed(self.game, self._resumed_left)
            return self._remember([resumed, texts.HELP_HINT, *self._situation()])
        return self._remember([dialogue.opening(self.game, texts.HELP_HINT), *self._situation()])

    @property
    def timer_running(self) -> bool:
        """Whether the turn timer is counting down."""
        return self._running_since is not None

    def time_left(self, now: float) -> float:
        """Seconds left in the current turn (the full timer before it starts)."""
        if self._running_since is None:
            return self._time_left
        return max(0.0, self._time_left - (now - self._running_since))

    @property
    def saved_time_left(self) -> float | None:
        """What a save should hold of the turn's timer: the seconds left once it has
        started (frozen while paused), a resumed turn's own before it goes on, else None."""
        if self.game.phase is not Phase.TURN:
            return None
        if not self._started:
            return self._resumed_left  # a resumed turn keeps its time until it goes on
        if self._running_since is None or self._now is None:
            return self._time_left
        return self.time_left(self._now)

    @property
    def saved_ended_early(self) -> Mapping[int, float]:
        """What a save should hold of the turns ended early (their time back on undo)."""
        return self._ended_early

    @property
    def saved_held(self) -> bool:
        """What a save should hold of whether the turn waits: True in a turn whose timer
        is not running (paused, or waiting for the describer's space), so that the live
        host resumes it waiting too rather than at "Go!"."""
        return self.game.phase is Phase.TURN and self._running_since is None

    def leave(self, now: float) -> None:
        """The players stop here (quit, Ctrl-C, end of input): save the time left too."""
        self._now = now
        if self._started and self.game.phase is Phase.TURN:
            self.on_change()

    def suspend(self, now: float) -> None:
        """The process is about to stop (Ctrl-Z): a running turn's timer is paused, as
        space pauses it, and saved paused, so the time stopped is not the turn's (and a
        game lost while stopped resumes paused).  Nothing is said: see :meth:`continued`."""
        self._now = now
        running = self.game.phase is Phase.TURN and self._running_since is not None
        if running and self.time_left(now) > 0:  # (run out: the next tick ends the turn)
            self._stop_timer(now)
            self.on_change()

    def continued(self, now: float) -> list[str]:
        """Back after Ctrl-Z (``fg``): a turn whose timer had started waits, paused,
        and that is said, with the key that goes on; elsewhere nothing had been
        running and nothing is said."""
        self._now = now
        if self.game.phase is not Phase.TURN or not self._started or self._time_left <= 0:
            return []
        return self._remember([dialogue.paused(self._time_left, texts.PAUSE_HINT)])

    def tick(self, now: float) -> list[str]:
        """Let time pass: the ten-second warning and the end of the turn (R8)."""
        self._now = now
        if self._running_since is None:
            return []
        left = self.time_left(now)
        second = int(left)
        if left > 0 and second != self._saved_second and second % SAVE_TIMER_EVERY == 0:
            self._saved_second = second
            self.on_change()  # the time left, so that a resumed turn goes on with it
        if left <= 0:
            self._stop_timer(now)
            return self._remember(self._apply(TimeUp()))
        if not self._warned and left <= WARNING_AT < self.timer_seconds:
            self._warned = True
            return self._remember([dialogue.TEN_SECONDS])
        return []

    def press(self, key: str, now: float) -> list[str]:
        """Handle one key; return what the host says."""
        self._now = now
        out = self.tick(now)
        if self.finished:
            return out
        key = " " if key in ("\n", "\r") else key
        if self._confirm_quit:
            self._confirm_quit = False
            if key.lower() == "y":
                self.finished = True
                return [*out, dialogue.GOODBYE]
            return [*out, dialogue.NOT_QUITTING]
        if key != " ":
            key = key.lower()
        if key == "?":
            return [*out, *self.help_lines()]
        if key == "i":
            return [*out, *self.status_lines(now)]
        if key == "a":
            return [*out, *self.repeat_lines(now)]
        if key == "u":
            return [*out, *self._remember(self._undo())]
        if key == "q":
            self._confirm_quit = True
            return [*out, texts.QUIT_QUESTION]
        phase = self.game.phase
        if phase is Phase.TURN:
            said = self._turn_key(key, now)
        elif phase is Phase.SPIN:
            said = self._spin_key(key)
        elif phase is Phase.SPIN_CHOICE:
            said = self._choice_key(key)
        elif phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND):
            said = self._round_key(key)
        else:
            said = None
        if said is None:
            said = [dialogue.key_does_nothing(key)]  # a refusal: not what "a" repeats
        else:
            self._remember(said)
        return [*out, *said]

    def help_lines(self) -> list[str]:
        """The keys that work now, then the ones that work everywhere."""
        return texts.help_lines(self.game, self._started)

    def repeat_lines(self, now: float) -> list[str]:
        """``a``: the last announcement, with where everyone is now (dialogue.md 4), as
        the live host says it; help, status and refusals are not announcements."""
        last = " ".join(self._last_said) or "nothing yet"
        return [f"I said: {last}", f"Now: {' '.join(self.status_lines(now))}"]

    def _remember(self, said: list[str]) -> list[str]:
        """Keep ``said`` as what ``a`` repeats (when it says anything), and return it."""
        if said:
            self._last_said = list(said)
        return said

    def status_lines(self, now: float) -> list[str]:
        """Every team's segment and category, whose turn, and the time left (dialogue.md 4)."""
        timed = self.game.phase is Phase.TURN and self._started
        paused = timed and self._running_since is None
        said = dialogue.status(self.game, self.time_left(now) if timed else None, paused=paused)
        if self.game.phase is Phase.TURN and not self._started:
            said += " " + texts.start_timer(self._time_left)  # nothing runs until space
        return [said]

    # ----- keys by phase ---------------------------------------------------------------

    def _turn_key(self, key: str, now: float) -> list[str] | None:
        if key == " ":
            if not self._started:
                self._started = True
                self._start_timer(now)
                return [texts.go(self._time_left), self._card_line()]
            if self._running_since is not None:
                self._stop_timer(now)
                self.on_change()  # saved paused: a crash now resumes it waiting, as it is
                return [dialogue.paused(self._time_left, texts.PAUSE_HINT)]
            if self._time_left <= 0:
                return [dialogue.TIME_IS_UP]
            self._start_timer(now)
            self.on_change()  # no longer held
            return [dialogue.go_on(self._time_left)]
        if key not in ("c", "p", "f", "t"):
            return None
        if not self._started:
            return [texts.START_FIRST]
        if key == "c":
            return self._apply(Correct())
        if key == "p":
            if not self.game.is_legal(Pass()):
                return [dialogue.NO_PASS_LEFT]
            return self._apply(Pass())
        if key == "f":
            return self._apply(Foul())
        self._stop_timer(now)
        return self._apply(TimeUp())

    def _spin_key(self, key: str) -> list[str] | None:
        if key in (" ", "s"):
            return self._apply(Spin())
        if key in SPINNER:
            return self._apply(Spin(SPINNER[key]))
        return None

    def _choice_key(self, key: str) -> list[str] | None:
        if key == "f":
            return self._apply(Choose.forward())
        team = self._team_key(key)
        if team is None:
            return None
        return self._apply(Choose.push(team))

    def _round_key(self, key: str) -> list[str] | None:
        if key == "s":
            return self._apply(ControlSimultaneous())
        if key == "f":  # the describer fouled (R11): another card
            return self._apply(Foul())
        if key == "p":  # nobody can get it: another card, the round goes on
            return self._apply(ControlSimultaneous(), passed=True)
        team = self._team_key(key)
        if team is None:
            return None
        return self._apply(ControlWon(team))

    def _team_key(self, key: str) -> str | None:
        if key.isdecimal() and 1 <= int(key) <= len(self.game.teams):
            return self.game.teams[int(key) - 1].name
        return None

    # ----- applying and narrating ------------------------------------------------------

    def _apply(self, inp: Input, *, passed: bool = False) -> list[str]:
        before = self.game.state
        shown = self._entry()  # echoed once the card is done with (dialogue.md 2)
        try:
            self.game.apply(inp)
        except RulesError as exc:
            return [dialogue.not_now(exc)]
        after = self.game.state
        said = dialogue.applied(self.game, before, inp, entry_text=shown, passed=passed)
        turn_over = after.turn != before.turn or after.phase is not Phase.TURN  # or a landing
        # foul-penalty=end-turn, or T pressed (a mistaken T is undone with its time back)
        ended_early = turn_over and isinstance(inp, Foul | TimeUp) and before.phase is Phase.TURN
        now = self._now
        if ended_early and self._started and now is not None and (left := self.time_left(now)) > 0:
            self._ended_early[len(self.game.inputs)] = left  # the buzzer's own end: none
        if turn_over:
            self._reset_timer()  # first: the next turn's prompt names its full timer
        if after.turn != before.turn or after.phase is not before.phase:
            said += self._situation()
        elif after.current_card != before.current_card:
            said.append(self._card_line())
        self._turn = after.turn
        self.on_change()
        return said

    def _situation(self) -> list[str]:
        """What happens now: the prompt for the current phase (and the card, when one is out)."""
        g = self.game
        phase = g.phase
        if phase is Phase.TURN and self._started and self._time_left <= 0:
            return [dialogue.turn_intro(g), dialogue.TIME_SPENT]  # resumed with its time spent
        if phase is Phase.TURN:
            return [dialogue.turn_intro(g), texts.start_timer(self._time_left)]
        if phase is Phase.SPIN:
            return [dialogue.spin_prompt(g)]
        if phase is Phase.SPIN_CHOICE:
            return [f"{dialogue.spin_choice_question(g)} {texts.spin_choice_keys(g)}"]
        if phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND):
            return [dialogue.round_intro(g), self._card_line(), texts.who_answered(g)]
        return [dialogue.won(g), texts.GAME_OVER_KEYS]

    def _entry(self) -> str:
        card, category = self.game.current_card, self.game.category
        if card is None or category is None:
            return ""
        return self.entry_text(card, category)

    def _card_line(self) -> str:
        category = self.game.category
        text = self._entry()
        if category is None or not text:
            return dialogue.NO_CARD
        return texts.card_line(category, text)

    # ----- undo and the timer ----------------------------------------------------------

    def _undo(self) -> list[str]:
        card = self.game.state.current_card
        try:
            undone = self.game.undo()
        except NothingToUndoError:
            return [dialogue.NOTHING_TO_UNDO]
        said = self._reopen(undone)
        s = self.game.state
        if s.phase is Phase.TURN and s.current_card != card and self._started:
            # the card the undone input put away is back: the describer is told which
            # (every card is printed as it comes, and this one comes again)
            said.append(self._card_line())
        self.on_change()  # after the timer is set as the turn now has it: the save holds that
        return said

    def _reopen(self, undone: Input) -> list[str]:
        """The timer after ``undone`` was taken back, and what is said of it."""
        said = [dialogue.undone(self.game, undone)]
        s = self.game.state
        if s.phase is Phase.TURN and s.turn == self._turn and self._started:
            return said  # the same turn: its timer runs on
        self._reset_timer()
        ended = len(self.game.inputs) + 1
        left = self._ended_early.pop(ended, None) if isinstance(undone, Foul | TimeUp) else None
        if s.phase is Phase.TURN and left is not None and left > 0:
            # the foul or T that ended the turn is undone: the turn is back with the time
            # it had then, paused until the describer goes on
            self._started = True
            self._time_left = left
            self._warned = left <= WARNING_AT
            self._turn = s.turn
            return [*said, dialogue.paused(left, texts.PAUSE_HINT)]
        if s.phase is Phase.TURN and (isinstance(undone, TimeUp) or s.turn != self._turn):
            # A turn that had ended is open again: its time is spent, its count can be fixed.
            self._started = True
            self._time_left = 0.0
            self._turn = s.turn
            return [*said, dialogue.TIME_SPENT]
        self._turn = s.turn
        return [*said, *self._situation()]

    def _start_timer(self, now: float) -> None:
        self._running_since = now
        self._saved_second = int(self._time_left)  # just saved with the change that led here

    def _stop_timer(self, now: float) -> None:
        if self._running_since is not None:
            self._time_left = self.time_left(now)
            self._running_since = None

    def _reset_timer(self) -> None:
        self._started = False
        self._running_since = None
        self._time_left = self.timer_seconds
        self._warned = False
        self._resumed_left = None
        self._saved_second = None
