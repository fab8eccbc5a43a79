"""Setting up the teams by voice or keys, before a game: a pure state machine.

:class:`SetupDialogue` asks, in order (R1, R3):

1. how many teams (2 to 6; Enter takes the offered two);
2. how many players in each team (2 to 9), or "different" (key D) to be asked
   team by team;
3. who starts: a team's colour, or "random" (resolved at once by the injected
   random generator, so the read-back can say who it picked);
4. a read-back, and "say yes to start, or no to start again".

When a game is saved where this one would be (``saved``: what it holds, in
words), it first offers that game: "yes" (Y, Enter) goes on with it
(:attr:`SetupDialogue.resumed`), "new" (N) sets up a new one, and the saved one
is kept (the host moves it aside).  A player back after a crash runs the same
command as before and is asked, rather than finding a new game.

It only turns inputs into sentences: no I/O, clock or threads.  Inputs are the
words of one heard utterance (already recognised, lower case: ``hear``) or one
key (``press``); both return the texts to say.  When :attr:`finished`,
:attr:`result` holds the teams in the ``--teams`` syntax and the first team.

Why these choices:

- **Team names are colours** (Red, Blue, Green, Yellow, Purple, Orange): later,
  in CONTROL rounds, teams claim by shouting their name, and the recogniser
  must know it.  Typed set-up (key T, :attr:`wants_typing`) allows any names.
- **Players are "Player 1", "Player 2" ...** in each team: the host then says
  "Red's turn. Player 1 describing, Player 2 guessing.", which reads well
  (colour-numbered names would say "Red 1 describing").  The last line of the
  set-up asks each team to decide who is player 1, 2 and so on.
- **No wake word during set-up**: nobody else is talking to the host yet, and
  the answers are a small closed set of words (:meth:`expected_words`), so a
  plain "three" is taken as the answer.
- **Short talk** (dialogue.md): each question is one sentence; "repeat" (R)
  says it again, "help" (?) names the words and keys; "undo" (Backspace)
  takes back the last answer.
- **Never a dead end, never a loop** (dialogue.md 9): a wrong answer gets a
  short re-prompt with the reason; the second miss in a row names the keys;
  after that, unclear speech is ignored (a chatty room) until something valid,
  a key or "repeat" arrives.  Keys always work.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from voice_host.host.dialogue import buzzer_keys
from voice_host.rules import MIN_PLAYERS, MIN_TEAMS

#: Team names for a voice set-up, in order: short, distinct words a recogniser knows.
TEAM_COLOURS: tuple[str, ...] = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange")
#: Most teams a voice set-up offers (one per colour).
MAX_TEAMS = len(TEAM_COLOURS)
#: Most players in a team by voice or key (one digit).
MAX_PLAYERS = 9
#: The number of teams Enter accepts at the first question.
DEFAULT_TEAMS = 2
#: Voice misses in a row that are answered; later ones are ignored (no loop).
MAX_SPOKEN_MISSES = 2

#: Number words heard, with their value.
NUMBER_WORDS: dict[str, int] = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
}
_SAY_NUMBER = {v: k for k, v in NUMBER_WORDS.items()}
#: Words a free transcript writes for a set-up word that sounds the same.  They
#: are everyday words too ("I don't know", "I want to go first", "I knew it"), so
#: one stands for its answer only when it is all that was heard, when it opens an
#: utterance of two words (the transcript of "two each" was "to region", "to
#: begin" and "to h" in ``benchmarks/setup_answers.py``), or when a word of
#: :data:`ANSWER_TAILS` follows it ("to teams"): said in a sentence, it is the
#: sentence's word, not an answer.
SOUNDS_LIKE: dict[str, str] = {
    "to": "two",
    "too": "two",
    "for": "four",
    "fore": "four",
    "ate": "eight",
    "won": "one",
    "read": "red",
    "know": "no",
    "back": "undo",
    "knew": "new",
}
#: Words that may follow an answer said as a phrase ("three teams", "blue team",
#: "two each", "new game", "yes please").
ANSWER_TAILS = frozenset({"teams", "team", "players", "people", "each", "game", "please"})
#: Other ways of saying an answer, taken anywhere in what was heard.
SAME_AS: dict[str, str] = {"nope": "no", "yeah": "yes", "yep": "yes", "yup": "yes"}
#: Words that work at every question.
GLOBAL_WORDS: tuple[str, ...] = ("repeat", "help", "undo")

#: Keys: Enter (a terminal sends CR or LF; a line of a pipe with no key is a space).
ENTER_KEYS = frozenset({"\r", "\n", " "})
#: Keys: Backspace (DEL on most terminals, BS on some).
BACKSPACE_KEYS = frozenset({"\x7f", "\b"})


class Step(enum.Enum):
    """Where the set-up is."""

    SAVED = "saved"
    """A game is saved: go on with it, or a new one?"""
    TEAMS = "teams"
    """How many teams?"""
    PLAYERS = "players"
    """How many players in each team (or "different")?"""
    TEAM_PLAYERS = "team_players"
    """How many players in one team (after "different")?"""
    FIRST = "first"
    """Who starts?"""
    CONFIRM = "confirm"
    """The read-back: yes to start, no to start again."""
    DONE = "done"
    """Finished: :attr:`SetupDialogue.result` is set."""
    TYPED = "typed"
    """The players asked to type the teams instead (:attr:`SetupDialogue.wants_typing`)."""
    RESUMED = "resumed"
    """The players chose to go on with the saved game (:attr:`SetupDialogue.resumed`)."""


@dataclass(frozen=True)
class SetupResult:
    """What the set-up decided."""

    teams: str
    """The teams in the ``--teams`` syntax: ``"Red:Player 1,Player 2;Blue:Player 1,Player 2"``."""
    first: int
    """Index of the team that starts (R3)."""
    random_first: bool
    """Whether the first team was picked at random."""

    @property
    def first_name(self) -> str:
        """The starting team's name."""
        return self.teams.split(";")[self.first].split(":")[0]


@dataclass(frozen=True)
class _State:
    step: Step = Step.TEAMS
    teams: int = 0
    players: tuple[int, ...] = ()
    """Players per team, as answered so far."""
    first: int | None = None
    random_first: bool = False


def player_names(count: int) -> tuple[str, ...]:
    """``Player 1`` .. ``Player count``."""
    return tuple(f"Player {i}" for i in range(1, count + 1))


def teams_spec(players: Sequence[int]) -> str:
    """The ``--teams`` text for teams of these sizes, named by :data:`TEAM_COLOURS`."""
    return ";".join(f"{TEAM_COLOURS[i]}:{','.join(player_names(n))}" for i, n in enumerate(players))


def _names(items: Sequence[str], last: str = "and") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def _number(n: int) -> str:
    return _SAY_NUMBER.get(n, str(n))


@dataclass(frozen=True)
class _Meaning:
    """What one word or key means at a step."""

    kind: str
    """number | colour | random | yes | no | different | repeat | help | undo | enter."""
    value: int = 0


class SetupDialogue:
    """The team set-up conversation (module docstring).

    ``rng`` picks the first team when the players say "random" (a new
    :class:`random.Random` when None).
    """

    def __init__(self, rng: random.Random | None = None, *, saved: str = "") -> None:
        self.rng = rng if rng is not None else random.Random()
        """Picks a random first team."""
        self.saved = saved
        """What the saved game holds, in words ("Blue's turn 4, ..."), or '' for none."""
        self._state = _State(step=Step.SAVED) if saved else _State()
        self._history: list[_State] = []
        self._misses = 0
        self.voice = True
        """Whether answers can be spoken; False (no microphone or recogniser) makes every
        question, read-back and help name the keys alone."""

    # ----- what the runner reads ------------------------------------------------------------

    @property
    def step(self) -> Step:
        """The question being asked (or DONE / TYPED)."""
        return self._state.step

    @property
    def finished(self) -> bool:
        """Whether the set-up is over: done, or handed to typing."""
        return self._state.step in (Step.DONE, Step.TYPED, Step.RESUMED)

    @property
    def resumed(self) -> bool:
        """The players chose to go on with the saved game (no teams are set up)."""
        return self._state.step is Step.RESUMED

    @property
    def wants_typing(self) -> bool:
        """The players pressed T: the runner asks for typed team names instead."""
        return self._state.step is Step.TYPED

    @property
    def result(self) -> SetupResult | None:
        """The teams and the first team once DONE, else None."""
        s = self._state
        if s.step is not Step.DONE or s.first is None:
            return None
        return SetupResult(teams_spec(s.players), s.first, s.random_first)

    @property
    def team_names(self) -> tuple[str, ...]:
        """The teams' names as far as known (their number is answered)."""
        return TEAM_COLOURS[: self._state.teams]

    def expected_words(self) -> tuple[str, ...]:
        """Words worth listening for at this step (lower case), global words included."""
        s = self._state
        if s.step is Step.SAVED:
            words = ["yes", "no", "new", "resume"]
        elif s.step is Step.TEAMS:
            words = [_number(n) for n in range(MIN_TEAMS, MAX_TEAMS + 1)]
        elif s.step is Step.PLAYERS:
            words = [_number(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)] + ["different"]
        elif s.step is Step.TEAM_PLAYERS:
            words = [_number(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
        elif s.step is Step.FIRST:
            words = [c.lower() for c in self.team_names] + ["random"]
        elif s.step is Step.CONFIRM:
            words = ["yes", "no"]
        else:
            return ()
        return (*words, *GLOBAL_WORDS)

    @staticmethod
    def vocabulary() -> tuple[str, ...]:
        """Every word the set-up ever listens for (lower case)."""
        numbers = [_number(n) for n in range(MIN_TEAMS, MAX_PLAYERS + 1)]
        colours = [c.lower() for c in TEAM_COLOURS]
        return (
            *numbers,
            "different",
            *colours,
            "random",
            "yes",
            "no",
            "new",
            "resume",
            *GLOBAL_WORDS,
        )

    # ----- what is said ----------------------------------------------------------------------

    def prompt(self) -> str:
        """The current question, as said first and on "repeat"."""
        s = self._state
        if s.step is Step.SAVED:
            return f"There is a game in progress: {self.saved}. {self._saved_hint()}"
        if not self.voice and s.step in (Step.TEAMS, Step.PLAYERS, Step.FIRST):
            question = "Who starts?" if s.step is Step.FIRST else self._short_question()
            return f"{question} {self._keys_hint()}"
        if s.step is Step.TEAMS:
            return (
                f"How many teams? Say a number from {_number(MIN_TEAMS)} to "
                f"{_number(MAX_TEAMS)}, or press it. Enter for {_number(DEFAULT_TEAMS)}."
            )
        if s.step is Step.PLAYERS:
            return (
                f"How many players in each team? Say {_number(MIN_PLAYERS)} to "
                f"{_number(MAX_PLAYERS)}, or say different if the teams differ."
            )
        if s.step is Step.TEAM_PLAYERS:
            return f"How many players in {TEAM_COLOURS[len(s.players)]}?"
        if s.step is Step.FIRST:
            return (
                f"Who starts? Say {_names(self.team_names, 'or')}, or random. "
                "Or press the team's number, or Enter for random."
            )
        if s.step is Step.CONFIRM:
            return self._read_back()
        if s.step is Step.TYPED:
            return "Type the teams on the keyboard."
        return "The teams are ready."

    def _read_back(self) -> str:
        s = self._state
        names = self.team_names
        if len(set(s.players)) == 1:
            teams = (
                f"{_number(s.teams).capitalize()} teams of {_number(s.players[0])} players: "
                f"{_names(names)}."
            )
        else:
            sizes = [f"{name} {_number(n)}" for name, n in zip(names, s.players, strict=True)]
            teams = f"{_number(s.teams).capitalize()} teams. Players: {_names(sizes)}."
        assert s.first is not None
        first = f"{names[s.first]} starts."
        if s.random_first:
            first = f"Picked at random: {first}"
        return f"{teams} {first} {self._confirm_hint()}"

    def _saved_hint(self) -> str:
        if not self.voice:
            return "Press Y to go on with it, or N for a new game."
        return "Say yes to go on with it, or new for a new game. Or press Y or N."

    def _confirm_hint(self) -> str:
        if not self.voice:
            return "Press Y to start, or N to start again."
        return "Say yes to start, or no to start again."

    def _help(self) -> str:
        s = self._state
        keys = "R repeats, Backspace undoes the last answer, T types team names instead."
        asking = (Step.TEAMS, Step.PLAYERS, Step.TEAM_PLAYERS, Step.FIRST, Step.CONFIRM)
        if s.step is Step.SAVED:
            return (
                "Say yes, or press Y or Enter, to go on with the saved game; say new, or "
                "press N, to set up a new one: the saved game is kept."
            )
        if not self.voice and s.step in asking:
            return f"{self._keys_hint()} {keys}"
        if s.step is Step.TEAMS:
            what = f"Say or press the number of teams, {MIN_TEAMS} to {MAX_TEAMS}; Enter for two."
        elif s.step in (Step.PLAYERS, Step.TEAM_PLAYERS):
            what = f"Say or press the number of players, {MIN_PLAYERS} to {MAX_PLAYERS}."
            if s.step is Step.PLAYERS:
                what += " Say different, or press D, to give each team its own number."
        elif s.step is Step.FIRST:
            what = "Say a team's colour or random; or press the team's number; Enter is random."
        elif s.step is Step.CONFIRM:
            what = "Say yes or press Y to start; say no or press N to start again."
        else:
            return self.prompt()
        return f"{what} {keys}"

    def _keys_hint(self) -> str:
        s = self._state
        if s.step is Step.SAVED:
            return "Press Y to go on with the saved game, or N for a new game."
        if s.step is Step.TEAMS:
            return f"Press a number key from {MIN_TEAMS} to {MAX_TEAMS}, or Enter for two."
        if s.step is Step.PLAYERS:
            return (
                f"Press a number key from {MIN_PLAYERS} to {MAX_PLAYERS}, or D if the teams differ."
            )
        if s.step is Step.TEAM_PLAYERS:
            return f"Press a number key from {MIN_PLAYERS} to {MAX_PLAYERS}."
        if s.step is Step.FIRST:
            return f"Press a team's number, {buzzer_keys(self.team_names)}; or Enter for random."
        if s.step is Step.CONFIRM:
            return "Press Y to start, or N to start again."
        return self.prompt()

    # ----- inputs ----------------------------------------------------------------------------

    def start(self) -> list[str]:
        """The opening lines: what this is, and the first question."""
        if self._state.step is Step.SAVED:
            return [self.prompt()]
        return self._set_up_lines()

    def _set_up_lines(self) -> list[str]:
        how = "Answer by voice or with the keys" if self.voice else "Answer with the keys"
        return [f"Let's set up the teams. {how}; press question mark for help.", self.prompt()]

    def hear(self, words: Sequence[str]) -> list[str]:
        """One heard utterance's words (lower case); the texts to say in reply."""
        if self.finished:
            return []
        meaning = None
        said = [w.lower().strip(".,!?") for w in words]
        for i, word in enumerate(said):
            alone = (
                len(said) == 1
                or (i == 0 and len(said) == 2)
                or (i + 1 < len(said) and said[i + 1] in ANSWER_TAILS)
            )
            if alone:
                word = SOUNDS_LIKE.get(word, word)
            meaning = self._meaning_of_word(SAME_AS.get(word, word))
            if meaning is not None:
                break
        if meaning is None:
            return self._missed(spoken=True, reason="")
        return self._apply(meaning, spoken=True)

    def press(self, key: str) -> list[str]:
        """One key; the texts to say in reply."""
        if self.finished or not key:
            return []
        if key in BACKSPACE_KEYS:
            return self._apply(_Meaning("undo"), spoken=False)
        if key in ENTER_KEYS:
            return self._apply(_Meaning("enter"), spoken=False)
        k = key.lower()
        if k == "t":
            self._history.append(self._state)
            self._state = replace(self._state, step=Step.TYPED)
            return [self.prompt()]
        simple = {"?": "help", "r": "repeat", "y": "yes", "n": "no", "d": "different"}
        if k in simple:
            return self._apply(_Meaning(simple[k]), spoken=False)
        if k.isdecimal():
            n = int(k)
            if self.step is Step.FIRST:
                if 1 <= n <= self._state.teams:
                    return self._apply(_Meaning("colour", n - 1), spoken=False)
                return self._missed(spoken=False, reason=f"There is no team {n}.")
            return self._apply(_Meaning("number", n), spoken=False)
        return self._missed(spoken=False, reason="")

    def _meaning_of_word(self, word: str) -> _Meaning | None:
        if word in NUMBER_WORDS:
            return _Meaning("number", NUMBER_WORDS[word])
        if word.isdecimal():
            return _Meaning("number", int(word))
        colours = [c.lower() for c in TEAM_COLOURS]
        if word in colours:
            return _Meaning("colour", colours.index(word))
        if word in ("random", "yes", "no", "different", *GLOBAL_WORDS):
            return _Meaning(word)
        if self.step is Step.SAVED and word in ("new", "resume"):
            return _Meaning("no" if word == "new" else "yes")
        return None

    def _missed(self, *, spoken: bool, reason: str) -> list[str]:
        """A wrong or unclear answer: say why and ask again, briefly; never loop."""
        if spoken:
            self._misses += 1
            if self._misses > MAX_SPOKEN_MISSES:
                return []
            if self._misses == MAX_SPOKEN_MISSES:
                return [" ".join(p for p in (reason or "Sorry.", self._keys_hint()) if p)]
        else:
            self._misses = 0
        if reason:
            return [f"{reason} {self._short_question()}"]
        if not spoken:
            return [self._keys_hint()]
        return [f"Sorry, I didn't catch that. {self._short_question()}"]

    def _short_question(self) -> str:
        s = self._state
        if s.step is Step.SAVED:
            return f"Go on with the saved game? {self._saved_hint()}"
        if s.step is Step.TEAMS:
            return "How many teams?"
        if s.step is Step.PLAYERS:
            return "How many players in each team?"
        if s.step is Step.FIRST:
            return f"Who starts: {_names(self.team_names, 'or')}, or random?"
        if s.step is Step.CONFIRM:
            return self._confirm_hint()
        return self.prompt()

    def _advance(self, new: _State) -> list[str]:
        self._history.append(self._state)
        self._state = new
        self._misses = 0
        if new.step is Step.DONE:
            return [
                "Let's play! In each team, decide who is player 1, player 2, and so on: "
                "player 1 describes first."
            ]
        return [self.prompt()]

    def _apply(self, m: _Meaning, *, spoken: bool) -> list[str]:
        s = self._state
        if m.kind == "repeat":
            self._misses = 0
            return [self.prompt()]
        if m.kind == "help":
            self._misses = 0
            return [self._help()]
        if m.kind == "undo":
            self._misses = 0
            if not self._history:
                return [f"Nothing to undo. {self.prompt()}"]
            self._state = self._history.pop()
            return [f"Undone. {self.prompt()}"]
        if s.step is Step.SAVED:
            if m.kind in ("yes", "enter"):
                self._history.append(s)
                self._state = replace(s, step=Step.RESUMED)
                return ["Going on with the saved game."]
            if m.kind == "no":
                self._history.append(s)
                self._state = _State()
                self._misses = 0
                return ["A new game, then. The saved one is kept.", *self._set_up_lines()]
            return self._missed(spoken=spoken, reason="")
        if s.step is Step.TEAMS:
            n = DEFAULT_TEAMS if m.kind == "enter" else m.value if m.kind == "number" else None
            if n is None:
                return self._missed(spoken=spoken, reason="")
            if n < MIN_TEAMS:
                return self._missed(
                    spoken=spoken, reason=f"A game needs at least {MIN_TEAMS} teams."
                )
            if n > MAX_TEAMS:
                return self._missed(spoken=spoken, reason=f"At most {MAX_TEAMS} teams.")
            return self._advance(replace(s, step=Step.PLAYERS, teams=n, players=()))
        if s.step in (Step.PLAYERS, Step.TEAM_PLAYERS):
            if s.step is Step.PLAYERS and m.kind == "different":
                return self._advance(replace(s, step=Step.TEAM_PLAYERS, players=()))
            if m.kind != "number":
                return self._missed(spoken=spoken, reason="")
            n = m.value
            if n < MIN_PLAYERS:
                return self._missed(
                    spoken=spoken, reason=f"Each team needs at least {MIN_PLAYERS} players."
                )
            if n > MAX_PLAYERS:
                return self._missed(spoken=spoken, reason=f"At most {MAX_PLAYERS} players.")
            if s.step is Step.PLAYERS:
                return self._advance(replace(s, step=Step.FIRST, players=(n,) * s.teams))
            players = (*s.players, n)
            step = Step.FIRST if len(players) == s.teams else Step.TEAM_PLAYERS
            return self._advance(replace(s, step=step, players=players))
        if s.step is Step.FIRST:
            if m.kind in ("random", "enter"):
                pick = self.rng.randrange(s.teams)
                return self._advance(replace(s, step=Step.CONFIRM, first=pick, random_first=True))
            if m.kind != "colour":
                return self._missed(spoken=spoken, reason="")
            if m.value >= s.teams:
                return self._missed(
                    spoken=spoken, reason=f"There is no {TEAM_COLOURS[m.value]} team."
                )
            return self._advance(replace(s, step=Step.CONFIRM, first=m.value, random_first=False))
        if s.step is Step.CONFIRM:
            if m.kind in ("yes", "enter"):
                return self._advance(replace(s, step=Step.DONE))
            if m.kind == "no":
                self._history.append(s)
                self._state = _State()
                self._misses = 0
                return [f"Starting again. {self.prompt()}"]
            return self._missed(spoken=spoken, reason="")
        return []
