"""Keyboard play as a state machine: keys in, engine inputs applied, announcements out.

No terminal and no clock here: every method takes ``now`` (seconds on any
monotonic clock) and returns the announcements as strings, so the same logic
serves the terminal, tests with a fake clock, and the later voice host.

Keys (one character; the terminal maps Enter to space):

- anywhere: ``?`` help, ``i`` where everyone is, ``u`` undo, ``q`` quit (``y`` confirms);
- a turn: space starts the timer (then pauses and resumes it), ``c`` correct,
  ``p`` pass, ``f`` foul, ``t`` time is up now;
- SPIN: space or ``s`` spins; ``w`` ``n`` ``r`` ``l`` enter a real spinner's
  wide green, narrow green, red or line;
- after a green spin: ``f`` own piece forward, a team's number pushes it back;
- CONTROL and FINISH rounds: the number of the team that answered first,
  ``s`` when two answered at once (another card).
"""

from __future__ import annotations

from collections.abc import Callable

from voice_host.rules import (
    CONTROL_ENTRY,
    Choose,
    ControlSimultaneous,
    ControlWon,
    Correct,
    Foul,
    Game,
    GameState,
    Input,
    NothingToUndoError,
    Pass,
    Phase,
    RulesError,
    SegmentKind,
    Spin,
    SpinResult,
    TimeUp,
)

EntryText = Callable[[int, str], str]
"""``entry_text(card_index, category) -> text``: what the describer sees for a card
(0-based index) and a category (or ``Control``)."""

#: Seconds left at which the host warns once (dialogue.md line 7).
WARNING_AT = 10.0
#: Real spinner results by key.
SPIN_KEYS: dict[str, SpinResult] = {
    "w": SpinResult.WIDE_GREEN,
    "n": SpinResult.NARROW_GREEN,
    "r": SpinResult.RED,
    "l": SpinResult.LINE,
}


def card_label(card_index: int, category: str) -> str:
    """The fallback entry text when no deck is loaded: ``card 18, Object``."""
    return f"card {card_index + 1}, {category}"


def _names(names: list[str] | tuple[str, ...]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class KeyboardController:
    """Maps keys to engine inputs and narrates the game.

    ``timer_seconds``: length of a turn (R5), in seconds of the caller's clock.
    ``entry_text``: how a card is shown to the describer (default :func:`card_label`).
    """

    def __init__(
        self,
        game: Game,
        *,
        timer_seconds: float = 30.0,
        entry_text: EntryText = card_label,
    ) -> None:
        if timer_seconds <= 0:
            raise ValueError(f"the timer must be positive, got {timer_seconds} s")
        self.game = game
        """The game being played."""
        self.timer_seconds = timer_seconds
        """Length of a turn, in seconds."""
        self.entry_text = entry_text
        """How a card entry is shown."""
        self.finished = False
        """True once the players quit."""
        self._confirm_quit = False
        self._turn = game.state.turn
        self._started = False  # the current turn's timer has been started
        self._running_since: float | None = None
        self._time_left = timer_seconds
        self._warned = False

    # ----- public interface ------------------------------------------------------------

    def opening(self) -> list[str]:
        """The welcome, the teams, and what to do first."""
        g = self.game
        teams = "; ".join(f"{i + 1} {t.name} ({_names(t.players)})" for i, t in enumerate(g.teams))
        return [
            f"Articulate! Teams: {teams}.",
            f"Board: {g.board.name}, {g.board.finish} segments from START to FINISH. "
            "Press ? at any time for the keys.",
            *self._situation(),
        ]

    @property
    def timer_running(self) -> bool:
        """Whether the turn timer is counting down."""
        return self._running_since is not None

    def time_left(self, now: float) -> float:
        """Seconds left in the current turn (the full timer before it starts)."""
        if self._running_since is None:
            return self._time_left
        return max(0.0, self._time_left - (now - self._running_since))

    def tick(self, now: float) -> list[str]:
        """Let time pass: the ten-second warning and the end of the turn (R8)."""
        if self._running_since is None:
            return []
        left = self.time_left(now)
        if left <= 0:
            self._stop_timer(now)
            return ["Time's up!", *self._apply(TimeUp())]
        if not self._warned and left <= WARNING_AT < self.timer_seconds:
            self._warned = True
            return ["Ten seconds."]
        return []

    def press(self, key: str, now: float) -> list[str]:
        """Handle one key; return what the host says."""
        out = self.tick(now)
        if self.finished:
            return out
        key = " " if key in ("\n", "\r") else key
        if self._confirm_quit:
            self._confirm_quit = False
            if key.lower() == "y":
                self.finished = True
                return [*out, "Goodbye."]
            return [*out, "Playing on."]
        if key != " ":
            key = key.lower()
        if key == "?":
            return [*out, *self.help_lines()]
        if key == "i":
            return [*out, *self.status_lines(now)]
        if key == "u":
            return [*out, *self._undo(now)]
        if key == "q":
            self._confirm_quit = True
            return [*out, "Quit the game? Press y to quit, any other key to play on."]
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
            shown = "space" if key == " " else repr(key)
            said = [f"Key {shown} does nothing now. Press ? for the keys."]
        return [*out, *said]

    def help_lines(self) -> list[str]:
        """The keys that work now, then the ones that work everywhere."""
        phase = self.game.phase
        teams = ", ".join(f"{i + 1} {t.name}" for i, t in enumerate(self.game.teams))
        if phase is Phase.TURN and not self._started:
            now_keys = ["space: start the timer"]
        elif phase is Phase.TURN:
            now_keys = [
                "c: correct",
                "p: pass (one per turn)",
                "f: foul (the card is lost)",
                "t: time is up now",
                "space: pause or resume the timer",
            ]
        elif phase is Phase.SPIN:
            now_keys = [
                "space or s: spin",
                "w, n, r, l: a real spinner's wide green, narrow green, red, line",
            ]
        elif phase is Phase.SPIN_CHOICE:
            now_keys = ["f: move forward", f"a team's number pushes it back ({teams})"]
        elif phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND):
            now_keys = [f"the number of the team that answered first ({teams})"]
            now_keys.append("s: two answered at once, draw another card")
        else:
            now_keys = []
        always = ["?: these keys", "i: where everyone is", "u: undo", "q: quit"]
        first = "Keys now: " + "; ".join(now_keys) + "." if now_keys else "The game is over."
        return [first, "Always: " + "; ".join(always) + "."]

    def status_lines(self, now: float) -> list[str]:
        """Every team's segment and category, whose turn, and the time left."""
        g = self.game
        lines = [
            f"{t.name}: segment {g.position(i)}, {self._segment_words(g.position(i))}."
            for i, t in enumerate(g.teams)
        ]
        if g.phase is Phase.GAME_OVER:
            return [*lines, f"{g.winner} won the game."]
        lines.append(f"{g.to_play.name} to play ({g.phase.value.replace('-', ' ')}).")
        if g.phase is Phase.TURN and self._started:
            lines.append(f"{self.time_left(now):.0f} seconds left; {g.state.correct} right so far.")
        return lines

    # ----- keys by phase ---------------------------------------------------------------

    def _turn_key(self, key: str, now: float) -> list[str] | None:
        if key == " ":
            if not self._started:
                self._started = True
                self._start_timer(now)
                return [f"Go! {self.timer_seconds:g} seconds.", self._card_line()]
            if self._running_since is not None:
                self._stop_timer(now)
                return [f"Paused, {self._time_left:.0f} seconds left. Press space to go on."]
            if self._time_left <= 0:
                return ["Time is up: press t to end the turn."]
            self._start_timer(now)
            return [f"Go on: {self._time_left:.0f} seconds."]
        if key not in ("c", "p", "f", "t"):
            return None
        if not self._started:
            return ["Press space to start the timer first."]
        if key == "c":
            return self._apply(Correct(), lambda s: f"Correct: {s.correct}.")
        if key == "p":
            if not self.game.is_legal(Pass()):
                return ["No pass left this turn."]
            return self._apply(Pass(), lambda s: f"Pass. {s.passes_left} left.")
        if key == "f":
            return self._apply(Foul(), lambda s: "Foul: the card is lost.")
        self._stop_timer(now)
        return ["Time's up!", *self._apply(TimeUp())]

    def _spin_key(self, key: str) -> list[str] | None:
        if key in (" ", "s"):
            return self._apply(Spin())
        if key in SPIN_KEYS:
            return self._apply(Spin(SPIN_KEYS[key]))
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
            return self._apply(ControlSimultaneous(), lambda s: "Two at once: another card.")
        team = self._team_key(key)
        if team is None:
            return None
        return self._apply(ControlWon(team), lambda s: f"{team} answered first.")

    def _team_key(self, key: str) -> str | None:
        if key.isdigit() and 1 <= int(key) <= len(self.game.teams):
            return self.game.teams[int(key) - 1].name
        return None

    # ----- applying and narrating ------------------------------------------------------

    def _apply(self, inp: Input, lead: Callable[[GameState], str] | None = None) -> list[str]:
        before = self.game.state
        try:
            self.game.apply(inp)
        except RulesError as exc:
            return [f"Not now: {exc}."]
        after = self.game.state
        said = [lead(after)] if lead is not None else []
        said += self._narrate(before, inp, after)
        if after.turn != before.turn or after.phase is not Phase.TURN:
            self._reset_timer()
        self._turn = after.turn
        return said

    def _narrate(self, before: GameState, inp: Input, after: GameState) -> list[str]:
        g = self.game
        said: list[str] = []
        if isinstance(inp, TimeUp) or (isinstance(inp, Foul) and after.turn != before.turn):
            said.append(f"{g.teams[before.to_play].name} got {before.correct} right.")
        if isinstance(inp, Spin) and after.last_spin is not None:
            said.append(self._spin_words(after.last_spin))
        for i, team in enumerate(g.teams):
            old, new = before.positions[i], after.positions[i]
            if new > old:
                said.append(
                    f"{team.name} moves {new - old} to segment {new}, {self._segment_words(new)}."
                )
            elif new < old:
                said.append(
                    f"{team.name} is pushed back {old - new} to segment {new}, "
                    f"{self._segment_words(new)}."
                )
        if isinstance(inp, ControlWon) and after.phase is not Phase.GAME_OVER:
            lander = g.teams[before.to_play].name
            if before.phase is Phase.FINISH_ROUND:
                said.append(f"{lander} stays on FINISH and tries again at its next turn.")
            elif after.control_retry[before.to_play]:
                said.append(f"{lander} stays on CONTROL and plays it again at its next turn.")
        new_situation = after.turn != before.turn or after.phase is not before.phase
        new_situation = new_situation or after.last_spin is SpinResult.LINE  # spin again
        if new_situation or after.current_card != before.current_card:
            said += self._situation(card_only=not new_situation)
        return said

    def _situation(self, *, card_only: bool = False) -> list[str]:
        """What happens now: the prompt for the current phase (and the card, when one is out)."""
        g = self.game
        s = g.state
        team = g.to_play.name
        if card_only:
            return [self._card_line()]
        if s.phase is Phase.TURN:
            guessers = [p for p in g.to_play.players if p not in s.describers]
            return [
                f"{team}'s turn, on segment {g.position(team)}: {g.category}. "
                f"Describing: {_names(s.describers)}. Guessing: {_names(guessers)}.",
                f"Press space to start the {self.timer_seconds:g} second timer.",
            ]
        if s.phase is Phase.SPIN:
            if s.last_spin is SpinResult.LINE:
                return ["Press space to spin again."]
            return [
                f"{team} landed on SPIN. Press space to spin (or w, n, r, l for a real spinner)."
            ]
        if s.phase is Phase.SPIN_CHOICE:
            pushes = [
                f"{i + 1} to push {t.name} back"
                for i, t in enumerate(g.teams)
                if i != s.to_play and s.positions[i] > 0
            ]
            options = "; ".join(["f to move forward", *pushes])
            steps = s.spin_steps
            return [f"{team}, forward {steps} or push an opponent back {steps}: {options}."]
        keys = ", ".join(f"{i + 1} {t.name}" for i, t in enumerate(g.teams))
        if s.phase is Phase.CONTROL_ROUND:
            return [
                f"CONTROL round: {_names(s.describers)} of {team}, describe this to everyone, "
                "no time limit.",
                self._card_line(),
                f"Who answered first? Press {keys}; s if two at once.",
            ]
        if s.phase is Phase.FINISH_ROUND:
            return [
                f"FINISH round: {_names(s.describers)} of {team}, describe this to everyone. "
                f"{team} wins the game by answering first.",
                self._card_line(),
                f"Who answered first? Press {keys}; s if two at once.",
            ]
        return [f"{g.winner} wins the game! Press u to undo or q to quit."]

    def _card_line(self) -> str:
        card = self.game.current_card
        category = self.game.category
        if card is None or category is None:
            return "No card is out."
        label = "Everyone's card" if category == CONTROL_ENTRY else "Card"
        return f"{label}: {self.entry_text(card, category)}"

    def _segment_words(self, index: int) -> str:
        seg = self.game.board[index]
        if seg.kind is SegmentKind.NORMAL:
            return str(seg.category)
        return seg.kind.value

    @staticmethod
    def _spin_words(result: SpinResult) -> str:
        return {
            SpinResult.WIDE_GREEN: "The spinner says wide green: 2.",
            SpinResult.NARROW_GREEN: "The spinner says narrow green: 3.",
            SpinResult.RED: "The spinner says red: no bonus.",
            SpinResult.LINE: "The spinner stopped on a line.",
        }[result]

    # ----- undo and the timer ----------------------------------------------------------

    def _undo(self, now: float) -> list[str]:
        try:
            undone = self.game.undo()
        except NothingToUndoError:
            return ["Nothing to undo."]
        said = [f"Undone: {undone.text()}."]
        s = self.game.state
        if s.phase is Phase.TURN and s.turn == self._turn and self._started:
            said.append(f"{self.game.to_play.name} has {s.correct} right.")
            return said
        self._reset_timer()
        if s.phase is Phase.TURN and s.turn != self._turn:
            # A turn that had ended is open again: its time is spent, its count can be fixed.
            self._started = True
            self._time_left = 0.0
            self._turn = s.turn
            return [
                *said,
                f"{self.game.to_play.name}'s turn is open again with {s.correct} right; the time "
                "is up: c, p, f fix the count, t ends the turn.",
            ]
        self._turn = s.turn
        return [*said, *self._situation()]

    def _start_timer(self, now: float) -> None:
        self._running_since = now

    def _stop_timer(self, now: float) -> None:
        if self._running_since is not None:
            self._time_left = self.time_left(now)
            self._running_since = None

    def _reset_timer(self) -> None:
        self._started = False
        self._running_since = None
        self._time_left = self.timer_seconds
        self._warned = False
