"""What only the keyboard game says: its keys and its start-on-space timer.

Everything the keyboard game shares with the live host (the welcome, moves,
spins, counts, phase prompts, status, undo) comes from
:mod:`voice_host.host.dialogue`; this module holds the rest, in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from voice_host.host import dialogue
from voice_host.rules import CONTROL_ENTRY, Game, Phase
from voice_host.screen.model import countdown_seconds, seconds_words

#: The welcome's last sentence: how to get the keys.
HELP_HINT = "Press ? at any time for the keys."
#: A turn key before the timer was started.
START_FIRST = "Press space to start the timer first."
#: How a paused turn goes on.
PAUSE_HINT = "Press space to go on."
#: Asked before quitting.
QUIT_QUESTION = "Quit the game? Press y to quit, any other key to play on."
#: After the winner: what can still be done.
GAME_OVER_KEYS = "Press u to undo or q to quit."
#: The keys ran out (a pipe ended).
END_OF_INPUT = "End of input: the game stops here."
#: Ctrl-C.
INTERRUPTED = "Interrupted: the game stops here."
#: Keys that work in every phase.
ALWAYS_KEYS = (
    "?: these keys",
    "i: where everyone is",
    "a: repeat what was said",
    "u: undo",
    "q: quit",
)


def go(timer_seconds: float) -> str:
    """The timer has started (its seconds as the countdown shows them: whole ones)."""
    return f"Go! {seconds_words(timer_seconds)}."


def start_timer(timer_seconds: float) -> str:
    """A turn waits for its timer to be started."""
    return f"Press space to start the {countdown_seconds(timer_seconds)} second timer."


def team_keys(game: Game, among: Sequence[str] | None = None) -> str:
    """``1 Red, 2 Blue``: each team's number key; ``among``: only these teams' keys
    (each keeps its number)."""
    return ", ".join(
        f"{i + 1} {t.name}" for i, t in enumerate(game.teams) if among is None or t.name in among
    )


def who_answered(game: Game) -> str:
    """A CONTROL or FINISH round's question, by key."""
    return (
        f"Who answered first? Press {team_keys(game)}; s if two at once, p if nobody can, "
        "f if a describer fouled."
    )


def spin_choice_keys(game: Game) -> str:
    """After a green spin: the key to move forward and the key pushing each team back."""
    numbers = {t.name: i + 1 for i, t in enumerate(game.teams)}
    pushes = [f"{numbers[name]} to push {name} back" for name in dialogue.pushable(game)]
    return "Press " + "; ".join(["f to move forward", *pushes]) + "."


def card_line(category: str, text: str) -> str:
    """The card shown to the describer (everyone's card in a CONTROL or FINISH round)."""
    label = "Everyone's card" if category == CONTROL_ENTRY else "Card"
    return f"{label}: {text}"


def _pass_key(game: Game) -> list[str]:
    """The pass key as the house rules allow it (R10): none when passes are off."""
    passes = game.rules.passes_per_turn
    if passes == 0:
        return []  # as the live host's help: no P named when there is no pass
    return [f"p: pass ({dialogue.count_word(passes).lower()} per turn)"]


#: What a foul does in a turn, by the ``foul-penalty`` house rule (R11).
_FOUL_EFFECT = {
    "forfeit": "the card is lost",
    "lose-one": "the card is lost and one right is taken off",
    "end-turn": "the card is lost and the turn ends",
}


def _foul_key(game: Game) -> str:
    """The foul key with what a foul costs under this game's house rules (R11)."""
    return f"f: foul ({_FOUL_EFFECT[game.rules.foul_penalty]})"


def help_lines(game: Game, timer_started: bool) -> list[str]:
    """The keys that work now, then the ones that work everywhere."""
    phase = game.phase
    teams = team_keys(game)
    if phase is Phase.TURN and not timer_started:
        now_keys = ["space: start the timer"]
    elif phase is Phase.TURN:
        now_keys = ["c: correct", *_pass_key(game), _foul_key(game), "t: time is up now"]
        now_keys.append("space: pause or resume the timer")
    elif phase is Phase.SPIN:
        now_keys = [
            "space or s: spin",
            "w, n, r, l: a real spinner's wide green, narrow green, red, line",
        ]
    elif phase is Phase.SPIN_CHOICE:
        now_keys = ["f: move forward"]
        pushable = dialogue.pushable(game)  # R19: never itself, never a team on START
        if pushable:
            now_keys.append(f"a team's number pushes it back ({team_keys(game, pushable)})")
        else:
            now_keys.append("no team can be pushed back from START")
    elif phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND):
        now_keys = [
            f"the number of the team that answered first ({teams})",
            "s: two answered at once, draw another card",
            "p: nobody can get it, pass it for another card",
            "f: the describer fouled, draw another card",
        ]
    else:
        now_keys = []
    first = "Keys now: " + "; ".join(now_keys) + "." if now_keys else "The game is over."
    return [first, "Always: " + "; ".join(ALWAYS_KEYS) + "."]


def saved_at(path: Path, *, default_path: bool, saved: bool, saved_any: bool = True) -> str:
    """Where the game is kept when play stops before the end, and how to resume it;
    ``saved_any`` False: none of this game's saves worked (a file there is another's)."""
    resume = dialogue.resume_command(path, default_path=default_path)
    if saved:
        return f"Saved to {path}; resume with {resume}"
    if not saved_any:
        return f"Saving failed: this game was never saved ({unsaved_note(path)})"
    return f"Saving failed; the last good save is at {path}; resume with {resume}"


def unsaved_note(path: Path) -> str:
    """What is at ``path`` when none of a game's saves worked."""
    return f"the file {path} holds an earlier game" if path.exists() else f"nothing is at {path}"
