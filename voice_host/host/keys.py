"""The host's keys: the same letters as keyboard play (``voice_host.keyboard``).

Every spoken command has a key, so speech is never required (dialogue.md 10).
Differences from keyboard-only play: the timer starts by itself after "Go", so
space pauses and resumes it; ``a`` says the last announcement again; ``k``
shows the describer the card when it is not always shown; ``y`` and ``n``
answer the host's yes/no questions (quit, undoing a whole turn); ``x`` (or
Escape) cuts the host short, as a screen reader's key does.
"""

from __future__ import annotations

from collections.abc import Sequence

from voice_host.host.dialogue import buzzer_keys
from voice_host.rules import Phase, SpinResult

#: Keys that work in every phase, and the command each stands for.
ALWAYS: dict[str, str] = {
    "?": "help",
    "i": "status",
    "a": "repeat",
    "u": "undo",
    "q": "quit",
}
#: Keys of a timed turn.
TURN: dict[str, str] = {
    "c": "correct",
    "p": "pass",
    "f": "foul",
    "t": "time",
    " ": "pause",
}
#: Keys of a SPIN: space or s spins; w, n, r, l enter a real spinner's result.
SPIN: dict[str, str] = {" ": "spin", "s": "spin"}
#: Real spinner results by key (shared with keyboard play).
SPINNER: dict[str, SpinResult] = {
    "w": SpinResult.WIDE_GREEN,
    "n": SpinResult.NARROW_GREEN,
    "r": SpinResult.RED,
    "l": SpinResult.LINE,
}
#: Cut the host short: stop what it is saying and drop what it queued (a long help or
#: status).  Escape too ("escape" from textual and from the terminal reader, which
#: reads an arrow key's escape sequence whole).  A key only: a spoken "host stop" is
#: not heard over the host's own voice (README, Benchmarks, "Talking over the host").
HUSH = frozenset({"x", "escape", "\x1b"})
#: Shows the card for a moment (handled before the other keys; see the host's ``_peek``).
PEEK = "k"
#: Command word -> the key that does it (for "say it or press ..." escalation).
KEY_FOR: dict[str, str] = {
    "correct": "C",
    "pass": "P",
    "foul": "F",
    "undo": "U",
    "repeat": "A",
    "status": "I",
    "pause": "space",
    "resume": "space",
    "help": "question mark",
    "quit": "Q",
    "forward": "F",
}


def team_for_key(key: str, teams: int) -> int | None:
    """The team index a buzzer key names (``"1"`` is the first team), or None."""
    if key.isdecimal() and 1 <= int(key) <= teams:
        return int(key) - 1
    return None


def help_text(
    phase: Phase,
    team_names: tuple[str, ...],
    wake: str | None,
    pushable: Sequence[str] | None = None,
    *,
    waiting: bool = False,
    passes: bool = True,
    hush: bool = True,
    chime: bool = False,
) -> str:
    """The keys and spoken commands that work now, as one announcement (``wake`` None:
    the host cannot hear, so only the keys).  ``pushable``: in a SPIN choice, the teams
    that may be pushed back (R19), whose number keys alone are named (None: every team).
    ``waiting``: the turn waits for its describer to start it; ``passes``: the house
    rules allow a pass.  ``hush``: name X, which cuts the host's voice short (not
    when its words are printed, for a screen reader or with no speech output).
    ``chime``: ten seconds left is told by a chime, which a turn's help explains.
    """
    buzzers = buzzer_keys(team_names)
    if phase is Phase.TURN and waiting:
        now = "The turn waits for its describer: press space to start it"
        now += "." if wake is None else f", or say {wake} resume."
    elif phase is Phase.TURN:
        keys = f"Keys: C correct,{' P pass,' if passes else ''} F foul, T time is up, space pause."
        if wake is None:
            now = f"Press C for each right answer. {keys}"
        else:
            now = (
                f"Guessers just call out answers. {keys} Or say {wake} correct, "
                f"{f'{wake} pass, ' if passes else ''}{wake} foul, {wake} pause."
            )
        if chime:
            now += " Two rising notes: ten seconds left."
    elif phase is Phase.SPIN:
        now = "Space spins. For a real spinner: W wide green, N narrow green, R red, L line."
    elif phase is Phase.SPIN_CHOICE:
        if pushable is not None and not pushable:
            now = "Key: F forward. No team can be pushed back from START."
            if wake is not None:
                now = "Say forward, or press F. No team can be pushed back from START."
        else:
            teams = buzzer_keys(team_names, pushable)
            now = f"Keys: F forward, or a team's number to push it back: {teams}."
            if wake is not None:
                now = f"Say forward, or push and a team. {now}"
    elif phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND):
        if wake is None:
            now = f"The team that answers presses its buzzer: {buzzers}."
        else:
            now = f"Shout the answer, then your team's name, or press your buzzer: {buzzers}."
        now += " S if two teams answered at once, P if nobody can get it, F for a foul."
    else:
        now = "The game is over."
    if wake is None:
        always = "Always: I status, A repeat, U undo, Q quit"
    else:
        always = (
            f"Always: I or {wake} status, A or {wake} repeat, U or {wake} undo, Q or {wake} quit"
        )
    stop = " X stops me talking," if hush else ""  # not for printed words (a screen reader)
    return f"{now} {always}, K shows the describer the card,{stop} question mark for help."
