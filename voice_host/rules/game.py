"""The game: a mutable :class:`Game` that applies host inputs under rules R1-R24.

Modelled on python-chess's ``Board``: ``apply()`` validates and pushes an
input, ``undo()`` pops it (restoring an equal state), ``legal_inputs()`` lists
what is allowed now, ``outcome`` says who won.  Every change of state is a new
frozen :class:`GameState`; the undo stack keeps the previous ones.  Randomness
(card order, an engine-spun spinner) comes from the injected
``random.Random``, whose state is part of the game state, so a saved game
replays identically.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from voice_host.rules.board import CONTROL_ENTRY, Board, SegmentKind, board_from_data
from voice_host.rules.errors import (
    IllegalInputError,
    NothingToUndoError,
    RulesError,
    SaveFormatError,
    SetupError,
)
from voice_host.rules.house import HouseRules
from voice_host.rules.inputs import (
    SPINNER_WEIGHTS,
    Choose,
    ControlSimultaneous,
    ControlWon,
    Correct,
    Foul,
    Input,
    Pass,
    Spin,
    SpinResult,
    TimeUp,
    parse_input,
)
from voice_host.rules.state import GameState, Phase
from voice_host.rules.teams import Team, describer_count, team_index, validate_teams

#: Cards in the boxed game's deck.
DEFAULT_DECK_SIZE = 500
#: The seed of the deck order and spinner when the caller gives no ``rng``.
DEFAULT_SEED = 0
#: Identifies a saved game's JSON.
SAVE_FORMAT = "voice-host-game"
#: The saved-game layout version this code writes and reads.
SAVE_VERSION = 1


@dataclass(frozen=True)
class Outcome:
    """How the game ended."""

    winner: str
    """The winning team's name."""


@dataclass
class _Draft:
    """A mutable copy of :class:`GameState` while one input is applied."""

    phase: Phase
    to_play: int
    positions: tuple[int, ...]
    control_retry: tuple[bool, ...]
    rotation: tuple[int, ...]
    describers: tuple[str, ...]
    passes_left: int
    correct: int
    turn: int
    spin_steps: int
    last_spin: SpinResult | None
    resume_after: int | None
    current_card: int | None
    deck_order: tuple[int, ...]
    deck_pos: int
    deck_cycle: int
    winner: int | None
    rng_state: tuple[Any, ...]

    def freeze(self) -> GameState:
        return GameState(**vars(self))


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


class Game:
    """One game of Articulate!: set-up fixed at creation, state changed only by inputs.

    ``teams`` are checked against R1; ``first_team`` (index or name) is the team
    chosen to start (R3).  ``rng`` shuffles the deck and spins the spinner when no
    result is given (the engine makes no randomness of its own: without one, a
    ``random.Random`` seeded 0, as ``voice-host simulate`` plays by default); its
    state is taken into the game state and restored before each use, so the same
    object may be shared safely.
    """

    def __init__(
        self,
        teams: Sequence[Team],
        board: Board,
        rules: HouseRules | None = None,
        *,
        rng: random.Random | None = None,
        deck_size: int = DEFAULT_DECK_SIZE,
        first_team: int | str = 0,
    ) -> None:
        self.teams: tuple[Team, ...] = validate_teams(teams)
        """The teams, in playing order."""
        self.board: Board = board
        """The track."""
        self.rules: HouseRules = rules if rules is not None else HouseRules()
        """House rules fixed for this game."""
        if deck_size < 1:
            raise SetupError(f"the deck needs at least 1 card, got {deck_size}")
        self.deck_size: int = deck_size
        """Cards in the deck; card indices run 0 .. deck_size - 1."""
        self._rng = rng if rng is not None else random.Random(DEFAULT_SEED)
        if isinstance(first_team, str):
            first = team_index(self.teams, first_team)
        elif 0 <= first_team < len(self.teams):
            first = first_team
        else:
            raise SetupError(
                f"first team {first_team} is not a team number 0-{len(self.teams) - 1}"
            )
        self.first_team: int = first
        """Index of the team that started (R3)."""
        order = list(range(deck_size))
        self._rng.shuffle(order)
        n = len(self.teams)
        draft = _Draft(
            phase=Phase.TURN,
            to_play=first,
            positions=(0,) * n,
            control_retry=(False,) * n,
            rotation=(0,) * n,
            describers=(),
            passes_left=0,
            correct=0,
            turn=0,
            spin_steps=0,
            last_spin=None,
            resume_after=None,
            current_card=None,
            deck_order=tuple(order),
            deck_pos=0,
            deck_cycle=0,
            winner=None,
            rng_state=self._rng.getstate(),
        )
        self._begin_turn(draft, first)
        self.state: GameState = draft.freeze()
        """The current state (replaced, never mutated, by each input and undo)."""
        self._initial = self.state
        self._stack: list[tuple[Input, GameState]] = []

    # ----- reading the state -------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """What the game waits for."""
        return self.state.phase

    @property
    def to_play(self) -> Team:
        """The team whose turn or round it is."""
        return self.teams[self.state.to_play]

    @property
    def current_card(self) -> int | None:
        """Index of the card being described, or None."""
        return self.state.current_card

    @property
    def discards(self) -> tuple[int, ...]:
        """Cards drawn since the last shuffle, apart from the one being described."""
        drawn = self.state.deck_order[: self.state.deck_pos]
        return tuple(c for c in drawn if c != self.state.current_card)

    @property
    def inputs(self) -> tuple[Input, ...]:
        """Every input applied so far and not undone, oldest first."""
        return tuple(inp for inp, _ in self._stack)

    @property
    def outcome(self) -> Outcome | None:
        """The result once a team has won, else None."""
        w = self.state.winner
        return None if w is None else Outcome(self.teams[w].name)

    @property
    def winner(self) -> str | None:
        """The winning team's name, or None while the game goes on."""
        w = self.state.winner
        return None if w is None else self.teams[w].name

    def position(self, team: int | str) -> int:
        """A team's segment index (by index or case-insensitive name)."""
        return self.state.positions[self._team(team)]

    def category_for(self, team: int | str) -> str:
        """The category the team describes in a normal turn from where it stands (R6)."""
        pos = self.state.positions[self._team(team)]
        seg = self.board[pos]
        if seg.category is not None:
            return seg.category
        if seg.kind is SegmentKind.START and self.rules.start_category is not None:
            return self.rules.start_category
        if self.rules.special_category == "previous":
            return self.board.previous_category(pos)
        return self.board.next_category(pos)

    @property
    def category(self) -> str | None:
        """What is being described now: a category, ``Control`` in rounds, None otherwise."""
        phase = self.state.phase
        if phase is Phase.TURN:
            return self.category_for(self.state.to_play)
        if phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND):
            return CONTROL_ENTRY
        return None

    def legal_inputs(self) -> list[Input]:
        """Every input allowed now (a green spin's result from ``Spin()`` excepted)."""
        s = self.state
        names = [t.name for t in self.teams]
        if s.phase is Phase.TURN:
            return [Correct(), *([Pass()] if s.passes_left > 0 else []), Foul(), TimeUp()]
        if s.phase is Phase.SPIN:
            return [Spin(r) for r in SpinResult]
        if s.phase is Phase.SPIN_CHOICE:
            pushes = [
                Choose.push(name)
                for i, name in enumerate(names)
                if i != s.to_play and s.positions[i] > 0
            ]
            return [Choose.forward(), *pushes]
        if s.phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND):
            return [*(ControlWon(name) for name in names), ControlSimultaneous(), Foul()]
        return []

    def is_legal(self, inp: Input) -> bool:
        """Whether :meth:`apply` would accept ``inp`` now."""
        try:
            self._step(self._draft(), inp)
        except RulesError:
            return False
        return True

    # ----- changing the state ------------------------------------------------------------

    def apply(self, inp: Input) -> None:
        """Validate and apply one input; raise a :class:`RulesError` subclass if not allowed now.

        On an error the game is unchanged.
        """
        draft = self._draft()
        self._step(draft, inp)
        self._stack.append((inp, self.state))
        self.state = draft.freeze()

    def apply_text(self, text: str) -> Input:
        """Parse one input's text form (the simulate vocabulary), apply it, and return it."""
        inp = parse_input(text)
        self.apply(inp)
        return inp

    def undo(self) -> Input:
        """Take back the latest input, restoring the state before it; return that input."""
        if not self._stack:
            raise NothingToUndoError("nothing to undo: no input has been applied yet")
        inp, previous = self._stack.pop()
        self.state = previous
        return inp

    # ----- saving ------------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        """The whole game, undo history included, as JSON-ready data."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "teams": [{"name": t.name, "players": list(t.players)} for t in self.teams],
            "board": self.board.to_data(),
            "house_rules": self.rules.to_data(),
            "deck_size": self.deck_size,
            "first_team": self.first_team,
            "initial": self._initial.to_data(),
            "inputs": [inp.text() for inp in self.inputs],
            "state": self.state.to_data(),
        }

    def to_json(self) -> str:
        """:meth:`to_data` as JSON text."""
        return json.dumps(self.to_data())

    @classmethod
    def from_data(cls, data: object) -> Game:
        """Rebuild a game saved by :meth:`to_data`, replaying its inputs so undo still works.

        Raises :class:`SaveFormatError` when a field is missing or the history does not
        lead to the saved state.
        """
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveFormatError("not a saved voice-host game")
        if data.get("version") != SAVE_VERSION:
            raise SaveFormatError(
                f"saved game version {data.get('version')!r} is not {SAVE_VERSION}"
            )
        missing = [name for name in _SAVED_FIELDS if name not in data]
        if missing:
            raise SaveFormatError(f"saved game lacks {missing[0]!r}")

        def read(name: str, parse: Callable[[Any], _T]) -> _T:
            try:
                return parse(data[name])
            except SaveFormatError:
                raise
            except RulesError as exc:  # our own words: a bad board or house rule
                raise SaveFormatError(f"saved game's {name!r} is garbled: {exc}") from None
            except (KeyError, TypeError, ValueError):
                raise SaveFormatError(f"saved game's {name!r} is garbled") from None

        teams = read("teams", _saved_teams)
        board = read("board", board_from_data)
        rules = read("house_rules", HouseRules.from_data)
        deck_size = read("deck_size", int)
        first = read("first_team", int)
        initial = read("initial", GameState.from_data)
        saved = read("state", GameState.from_data)
        texts = read("inputs", _saved_inputs)
        for state in (initial, saved):
            _check_fits(state, len(teams), board, deck_size)
        game = cls.__new__(cls)
        game.teams = validate_teams(teams)
        game.board = board
        game.rules = rules
        game.deck_size = deck_size
        game.first_team = first
        game._rng = random.Random(0)  # never read as is: each use restores the saved rng_state
        game.state = initial
        game._initial = initial
        game._stack = []
        for number, text in enumerate(texts, start=1):
            try:
                game.apply_text(text)
            except RulesError as exc:
                raise SaveFormatError(
                    f"saved input {number} {text!r} does not replay: {exc}"
                ) from None
        if game.state != saved:
            raise SaveFormatError("saved state does not match its input history")
        return game

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Rebuild a game from :meth:`to_json` text."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SaveFormatError(f"saved game is not valid JSON: {exc.msg}") from None
        except RecursionError:
            raise SaveFormatError("saved game is not a game: nested far too deeply") from None
        except ValueError:  # a number of thousands of digits, past Python's limit
            raise SaveFormatError("saved game is not valid JSON: a number far too long") from None
        return cls.from_data(data)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_data() == other.to_data()

    __hash__ = None  # type: ignore[assignment]  # mutable, like python-chess's Board

    # ----- the rules ---------------------------------------------------------------------

    def _team(self, team: int | str) -> int:
        return team_index(self.teams, team) if isinstance(team, str) else team

    def _draft(self) -> _Draft:
        return _Draft(**vars(self.state))

    def _not_now(self, inp: Input) -> IllegalInputError:
        s = self.state
        who = self.teams[s.to_play].name
        if s.phase is Phase.GAME_OVER:
            return IllegalInputError(f"{inp.text()!r} is not allowed: the game is over, {who} won")
        allowed = ", ".join(sorted({i.text().split()[0] for i in self.legal_inputs()}))
        return IllegalInputError(
            f"{inp.text()!r} is not allowed now: {who} is in phase {s.phase.value} "
            f"(allowed: {allowed})"
        )

    def _step(self, d: _Draft, inp: Input) -> None:
        phase = d.phase
        if phase is Phase.TURN:
            self._step_turn(d, inp)
        elif phase is Phase.SPIN and isinstance(inp, Spin):
            self._spin(d, inp)
        elif phase is Phase.SPIN_CHOICE and isinstance(inp, Choose):
            self._choose(d, inp)
        elif phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND) and isinstance(inp, Foul):
            # R11 in a round with no count and no timer: whatever the foul penalty,
            # the card is forfeited and another drawn (as after two claims at once, R17)
            self._draw(d)
        elif phase is Phase.CONTROL_ROUND and isinstance(inp, ControlWon | ControlSimultaneous):
            self._control(d, inp)
        elif phase is Phase.FINISH_ROUND and isinstance(inp, ControlWon | ControlSimultaneous):
            self._finish(d, inp)
        else:
            raise self._not_now(inp)

    def _step_turn(self, d: _Draft, inp: Input) -> None:
        if isinstance(inp, Correct):  # R7: same category, next card
            d.correct += 1
            self._draw(d)
        elif isinstance(inp, Pass):  # R10
            if d.passes_left <= 0:
                who = self.teams[d.to_play].name
                raise IllegalInputError(
                    f"'pass' is not allowed: {who} has no pass left this turn "
                    f"({self.rules.passes_per_turn} per turn)"
                )
            d.passes_left -= 1
            self._draw(d)
        elif isinstance(inp, Foul):  # R11, R12
            if self.rules.foul_penalty == "end-turn":
                self._end_turn(d)
                return
            if self.rules.foul_penalty == "lose-one":
                d.correct = max(0, d.correct - 1)
            self._draw(d)
        elif isinstance(inp, TimeUp):  # R8
            self._end_turn(d)
        else:
            raise self._not_now(inp)

    def _end_turn(self, d: _Draft) -> None:
        team = d.to_play
        old = d.positions[team]
        new = min(old + d.correct, self.board.finish)  # R22: stop on FINISH
        d.current_card = None
        if new == old:  # nothing guessed: no landing, play passes (R9)
            self._begin_turn(d, self._next_team(d))
            return
        d.positions = _put(d.positions, team, new)
        d.control_retry = _put(d.control_retry, team, False)
        kind = self.board[new].kind
        if kind is SegmentKind.FINISH:  # R22: the FINISH round follows at once
            d.phase = Phase.FINISH_ROUND
            self._draw(d)
        elif kind is SegmentKind.CONTROL:  # R13: play does not pass
            d.phase = Phase.CONTROL_ROUND
            self._draw(d)
        elif kind is SegmentKind.SPIN:  # R18
            d.phase = Phase.SPIN
            d.last_spin = None
        else:  # R9
            self._begin_turn(d, self._next_team(d))

    def _spin(self, d: _Draft, inp: Spin) -> None:
        result = inp.result
        if result is None:
            self._rng.setstate(d.rng_state)
            results = list(SPINNER_WEIGHTS)
            result = self._rng.choices(results, [SPINNER_WEIGHTS[r] for r in results])[0]
            d.rng_state = self._rng.getstate()
        d.last_spin = result
        if result is SpinResult.LINE:  # spin again
            return
        if result is SpinResult.RED:  # no bonus
            self._after_spin(d, reached_finish=False)
            return
        d.spin_steps = result.steps
        d.phase = Phase.SPIN_CHOICE

    def _choose(self, d: _Draft, inp: Choose) -> None:
        me = d.to_play
        steps = d.spin_steps
        if inp.team is None:
            # R20: a bonus move never triggers CONTROL or SPIN; R22: stop on FINISH.
            new = min(d.positions[me] + steps, self.board.finish)
            d.positions = _put(d.positions, me, new)
            d.control_retry = _put(d.control_retry, me, False)
            self._after_spin(d, reached_finish=new == self.board.finish)
            return
        other = team_index(self.teams, inp.team)
        if other == me:
            raise IllegalInputError(
                f"{self.teams[me].name} cannot push itself back: choose forward or an opponent"
            )
        if d.positions[other] == 0:
            raise IllegalInputError(
                f"{self.teams[other].name} is on START and cannot be pushed back (R19)"
            )
        d.positions = _put(d.positions, other, max(0, d.positions[other] - steps))  # R19
        d.control_retry = _put(d.control_retry, other, False)
        self._after_spin(d, reached_finish=False)

    def _after_spin(self, d: _Draft, *, reached_finish: bool) -> None:
        d.spin_steps = 0
        if reached_finish and self.rules.finish_by_spin == "immediately":
            d.phase = Phase.FINISH_ROUND
            self._draw(d)
        elif self.rules.spin_then_same_team:  # R21
            self._begin_turn(d, d.to_play)
        else:
            self._begin_turn(d, self._next_team(d))

    def _control(self, d: _Draft, inp: ControlWon | ControlSimultaneous) -> None:
        if isinstance(inp, ControlSimultaneous):  # R17: draw another card
            self._draw(d)
            return
        winner = team_index(self.teams, inp.team)
        lander = d.to_play
        d.current_card = None
        # Winning a CONTROL round settles the winner's own pending retry: its turn is the bonus.
        d.control_retry = _put(d.control_retry, winner, False)
        if winner == lander:  # R14, R15: bonus turn with other describers
            self._begin_turn(d, lander, change_describers=True)
            return
        d.control_retry = _put(d.control_retry, lander, True)  # R16
        d.resume_after = lander if self.rules.order_after_control == "from-lander" else None
        self._begin_turn(d, winner)  # R14

    def _finish(self, d: _Draft, inp: ControlWon | ControlSimultaneous) -> None:
        if isinstance(inp, ControlSimultaneous):  # R17 applies to FINISH rounds too
            self._draw(d)
            return
        winner = team_index(self.teams, inp.team)
        d.current_card = None
        if winner == d.to_play:  # R22
            d.winner = winner
            d.phase = Phase.GAME_OVER
            d.describers = ()
            return
        # R23: the team stays on FINISH and tries again at its next turn.
        if self.rules.after_failed_finish == "winner":
            d.resume_after = None
            d.control_retry = _put(d.control_retry, winner, False)
            self._begin_turn(d, winner)
        else:
            self._begin_turn(d, self._next_team(d))

    def _next_team(self, d: _Draft) -> int:
        after = d.to_play if d.resume_after is None else d.resume_after
        d.resume_after = None
        return (after + 1) % len(self.teams)

    def _begin_turn(self, d: _Draft, team: int, *, change_describers: bool = False) -> None:
        players = self.teams[team].players
        k = describer_count(len(players), advanced=self.rules.advanced)
        start = d.rotation[team]
        if change_describers and not self.rules.rotate_describers:
            # R15 changes them even when they do not rotate: the players after the
            # round's describers (after a second CONTROL round won in a row, those
            # after the first bonus turn's, not the first bonus turn's again)
            rounds = d.describers[0] if d.describers else None
            start = players.index(rounds) + k if rounds in players else start + k
        d.describers = tuple(players[(start + i) % len(players)] for i in range(k))
        if self.rules.rotate_describers:  # R4
            d.rotation = _put(d.rotation, team, (start + k) % len(players))
        d.to_play = team
        d.turn += 1
        d.correct = 0
        d.passes_left = self.rules.passes_per_turn
        d.spin_steps = 0
        d.current_card = None
        if d.positions[team] == self.board.finish:  # R23: no normal turn while on FINISH
            d.phase = Phase.FINISH_ROUND
        elif d.control_retry[team]:  # R16
            d.phase = Phase.CONTROL_ROUND
        else:
            d.phase = Phase.TURN
        self._draw(d)

    def _draw(self, d: _Draft) -> None:
        """Discard the card in play (if any) and take the next; reshuffle when the deck is out."""
        if d.deck_pos >= len(d.deck_order):
            order = list(range(self.deck_size))
            self._rng.setstate(d.rng_state)
            self._rng.shuffle(order)
            d.rng_state = self._rng.getstate()
            last = d.deck_order[-1] if d.deck_order else None
            if len(order) > 1 and order[0] == last:
                # the card just described never comes straight back after a reshuffle,
                # not even as the next team's first card (the turn has put it away)
                order.append(order.pop(0))
            d.deck_order = tuple(order)
            d.deck_pos = 0
            d.deck_cycle += 1
        d.current_card = d.deck_order[d.deck_pos]
        d.deck_pos += 1


def _check_fits(state: GameState, teams: int, board: Board, deck_size: int) -> None:
    """:class:`SaveFormatError` unless a saved state's team indices, positions, cards
    and counts fit the saved teams, board and deck (a damaged file must not fail
    later with an IndexError, nor be played as "card 100000" or "-5 right")."""
    cards = [state.current_card] if state.current_card is not None else []
    if not all(0 <= card < deck_size for card in [*cards, *state.deck_order]):
        raise SaveFormatError(f"saved state's cards are not among its deck's {deck_size}")
    if not 0 <= state.deck_pos <= len(state.deck_order):
        raise SaveFormatError("saved state's place in its deck is off the deck")
    counts = ("passes_left", "correct", "turn", "spin_steps", "deck_cycle")
    for name in counts:
        if getattr(state, name) < 0:
            raise SaveFormatError(f"saved state's {name} is below 0")
    if any(r < 0 for r in state.rotation):
        raise SaveFormatError("saved state's rotation is below 0")
    if state.phase is Phase.GAME_OVER and state.winner is None:
        raise SaveFormatError("saved state is over with no winner")
    described = (Phase.TURN, Phase.CONTROL_ROUND, Phase.FINISH_ROUND)
    if state.phase in described and not any(name.strip() for name in state.describers):
        raise SaveFormatError("saved state has a turn with nobody describing")
    for name in ("positions", "control_retry", "rotation"):
        if len(getattr(state, name)) != teams:
            raise SaveFormatError(f"saved state's {name} do not match its {teams} teams")
    for name in ("to_play", "resume_after", "winner"):
        index = getattr(state, name)
        if index is not None and not 0 <= index < teams:
            raise SaveFormatError(f"saved state's {name} {index} is not one of its {teams} teams")
    if not all(0 <= p <= board.finish for p in state.positions):
        raise SaveFormatError("saved state's positions are off the board")


_T = TypeVar("_T")

#: The fields of a saved game (:meth:`Game.to_data`) read back by :meth:`Game.from_data`.
_SAVED_FIELDS = (
    "teams",
    "board",
    "house_rules",
    "deck_size",
    "first_team",
    "initial",
    "inputs",
    "state",
)


def _saved_teams(value: Any) -> list[Team]:
    if not isinstance(value, list):
        raise TypeError("not a list")
    teams = []
    for team in value:
        players = team["players"]
        if not isinstance(players, list):
            raise TypeError("players not a list")
        teams.append(Team(str(team["name"]), tuple(str(p) for p in players)))
    return teams


def _saved_inputs(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise TypeError("not a list")
    return [str(x) for x in value]
