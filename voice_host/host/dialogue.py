"""What the host says: pure functions from the game (and what was heard) to sentences.

Rules of manner (``shared/design/dialogue.md``): every state change is spoken;
a correct guess is echoed with the running count; a foul says what was heard;
the card's word is never said aloud while it is still being described.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from pathlib import Path

from voice_host.referee.values import Judgement
from voice_host.rules import (
    Choose,
    ControlSimultaneous,
    ControlWon,
    Correct,
    Foul,
    Game,
    GameState,
    HouseRules,
    Input,
    Pass,
    Phase,
    SegmentKind,
    Spin,
    SpinResult,
    TimeUp,
    possessive,
)
from voice_host.screen.model import seconds_words

#: Counts said as words ("Three."), which a listener follows more easily than digits.
_COUNTS = (
    "Zero",
    "One",
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Eleven",
    "Twelve",
)


#: The turn's start (the timer starts once it has been said).
GO = "Go!"
#: Space (pause) pressed while a turn is announced, before its timer starts.
HELD = "Held: the timer waits."
#: A CONTROL or FINISH round's answer heard: which team gave it?  In full the first
#: time in a game; after that the short form, so that the host is quiet again soon,
#: since the microphone is shut while it speaks and a team's name said over it is lost.
WHICH_TEAM = "Correct! Which team? Say your team's name or press your buzzer."
WHICH_TEAM_SHORT = "Correct! Which team?"
#: A turn ran out with no key, no judgement and no talk heard: the next one waits.
NOBODY_PLAYED = "That turn went by with no key and no word heard, so the game waits."
#: A CONTROL or FINISH round's card that nobody can get, passed: the round goes on.
ROUND_PASSED = "Passed: another card, describe again."
#: The host's voice found its output after printing since the start (no sound server yet,
#: a speaker connected late): said once, in the voice now working (dialogue.md 12).
SPEECH_BACK = "Speech output is back."
#: The private card voice (``--card-audio``) found its output after the start.
CARD_AUDIO_BACK = "Card audio is back."
#: Said once when ten seconds are left (dialogue.md 7).
TEN_SECONDS = "Ten seconds."
#: Said before the ten-second chime is played to the table, once, after the welcome.
TEN_SECONDS_CHIME = "Two rising notes mean ten seconds left in a turn."
#: The session's last word.
GOODBYE = "Goodbye."
#: A quit question answered no.
NOT_QUITTING = "Not quitting."
#: Undo with nothing left to undo.
NOTHING_TO_UNDO = "Nothing to undo."
#: A pass when the turn's passes are used up (R10).
NO_PASS_LEFT = "No pass left this turn."
#: Asked for the card when none is out.
NO_CARD = "No card is out."
#: A reopened turn (its end was undone): its time is spent, its count can be fixed.
TIME_SPENT = "Its time is up: C, P and F fix the count, T ends the turn."
#: Status's last words while the host cannot hear commands.
NOT_LISTENING = "I am not listening: keys only."
#: Space pressed when a paused turn has no time left.
TIME_IS_UP = "Time is up: press T to end the turn."


def not_now(exc: Exception) -> str:
    """An input the rules refuse now: ``Not now: <why>.``, without the rule's number
    (the engine's "(R19)" is for scripts; said aloud it is "R nineteen")."""
    why = re.sub(r"\s*\(R\d+(, R\d+)*\)", "", str(exc))
    return f"Not now: {why}."


def key_does_nothing(key: str, *, hint: bool = True) -> str:
    """A key with no meaning at this moment (``hint``: and where the keys are told)."""
    names = {" ": "space", "\x7f": "backspace", "\b": "backspace", "\t": "tab", "\x1b": "escape"}
    shown = names.get(key, key if key.isprintable() else f"code {ord(key[0])}" if key else key)
    said = f"Key {shown} does nothing now."
    return f"{said} Press question mark for the keys." if hint else said


def help_hint(wake: str | None) -> str:
    """The end of the live host's welcome: how to get help. ``wake`` is the wake word
    while the host listens, None when only the keys work (here and below: a spoken
    command is offered only when it would be heard)."""
    if wake is None:
        return "Press question mark for help at any time."
    return f"Press question mark or say {wake} help at any time."


def resume_hint(wake: str | None) -> str:
    """How to start a paused timer again."""
    return "Press space to go on." if wake is None else f"Press space or say {wake} resume."


def paused(seconds_left: float, hint: str) -> str:
    """The timer paused, with the seconds left and ``hint`` (how to go on)."""
    return f"Paused, {seconds_words(seconds_left)} left. {hint}"


def go_on(seconds_left: float) -> str:
    """The timer running again."""
    return f"Go on: {seconds_words(seconds_left)}."


def no_microphone(exc: BaseException) -> str:
    """The microphone failed: the device's own words, minus advice the host gives itself
    (printed or shown for a player who reads them; :data:`NO_MICROPHONE` is said)."""
    why = str(exc).split(";")[0].strip().rstrip(".") or type(exc).__name__
    return f"No microphone: {why}."


#: No microphone opens, or the one in use failed (none found, busy, refused), said
#: aloud: the device's own words (:func:`no_microphone`: ALSA's or PortAudio's text)
#: mean nothing to a table, and may come in the middle of a turn.
NO_MICROPHONE = "No microphone: I cannot hear the table."


def already_counted(card: str) -> str:
    """C pressed just after the host heard ``card`` guessed and counted it."""
    return f"{card} is counted already. Press C again to count this card too."


def card_changed(command: str) -> str:
    """P or F that came for the card before the one now in play."""
    return (
        f"The card had already changed: no {command} for this one. "
        f"Press {command[0].upper()} again if it is meant."
    )


def key_at_turn_end(command: str, ended: str, playing: str, *, wake: str | None) -> str:
    """C, P, F or T pressed (or, with ``wake``, said) just as ``ended``'s turn ended: a
    guess called out at the buzzer, or T pressed twice; not applied to ``playing``'s."""
    key = {"correct": "C", "pass": "P", "foul": "F", "time": "T"}[command]
    what = key if wake is None else f"{wake} {command}"
    again = f"press {key} again" if wake is None else f"say {wake} {command} again"
    if command == "time":
        return (
            f"{possessive(ended)} turn has just ended. To end {possessive(playing)} too, {again}."
        )
    undo = "press U" if wake is None else f"say {wake} undo"
    return (
        f"That {what} came as {possessive(ended)} turn ended, and is not counted. "
        f"For {ended}, {undo} first. For {playing}, {again}."
    )


def listening_failed(exc: BaseException) -> str:
    """The recogniser or the referee failed (an error that is no device's): its own
    words, printed or shown (:data:`LISTENING_STOPPED` is said)."""
    why = str(exc).split(";")[0].strip().rstrip(".") or type(exc).__name__
    return f"Listening stopped: {why}."


#: The recogniser (or the referee) did not start, said aloud: the error's own words
#: ("No speech recogniser (...)": a library, a file, a path) are printed or shown.
NO_RECOGNISER = "No speech recogniser: I cannot hear the table."

#: The recogniser or the referee failed, said aloud: the error's own words
#: (:func:`listening_failed`) are printed or shown.
LISTENING_STOPPED = "Listening stopped: my speech recognition failed."

#: The keyboard's thread failed (the terminal, or the screen reader's hook), said
#: aloud: the error's own words (:func:`keyboard_failed`) are printed or shown.
KEYBOARD_STOPPED = "The keyboard stopped."


def keyboard_failed(exc: BaseException) -> str:
    """The keyboard's thread failed: the error's own words, printed or shown."""
    why = str(exc).split(";")[0].strip().rstrip(".") or type(exc).__name__
    return f"The keyboard stopped: {why}."


#: The microphone delivers only silence: muted by its key, or turned right down.
MIC_SILENT = (
    "I hear nothing at all from the microphone: is it muted, or turned right down? "
    "Play on with the keys; question mark for help."
)
#: ... and then sound again.
MIC_SOUND = "I can hear the microphone now."
#: The table is heard only a little above the microphone's own hiss.
MIC_FAINT = (
    "I can hardly hear the table. Bring the laptop closer to the players, "
    "or turn the microphone up."
)
#: The loudest words clip at full scale.
MIC_OVERLOAD = (
    "The microphone is overloading, so loud words reach me distorted. "
    "Turn the microphone down a little, or move the laptop back."
)


def listening_behind(second_transcriber: bool, written: bool = False) -> str:
    """The listening cannot keep up with the table (``host.keeping_up``): what to do,
    said once after the turn (``written``: the option as typed, for the screen).
    Without the second transcriber there is nothing lighter to choose: the machine
    itself is busy."""
    why = "I am falling behind the table: this computer is slow to listen, so I answer late."
    if not second_transcriber:
        return f"{why} The keys work at once. Close other programs if you can."
    option = "--no-second-transcriber" if written else "the option no second transcriber"
    return f"{why} The keys work at once. Next game, start me with {option}, to listen lighter."


def count_word(n: int) -> str:
    """``3`` -> ``Three``; larger numbers as digits."""
    return _COUNTS[n] if 0 <= n < len(_COUNTS) else str(n)


def names(items: tuple[str, ...] | list[str], last: str = "and") -> str:
    """``Ann, Bob and Cat`` (``last`` "or": ``Ann, Bob or Cat``)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def segment_words(game: Game, index: int) -> str:
    """A segment for the ear: ``START``, ``CONTROL``, ``Nature``."""
    seg = game.board[index]
    if seg.kind is SegmentKind.NORMAL:
        return str(seg.category)
    return seg.kind.value


def spin_words(result: SpinResult) -> str:
    """The spinner's result as said."""
    return {
        SpinResult.WIDE_GREEN: "The spinner says wide green: 2.",
        SpinResult.NARROW_GREEN: "The spinner says narrow green: 3.",
        SpinResult.RED: "The spinner says red: no bonus.",
        SpinResult.LINE: "The spinner stopped on a line: spin again.",
    }[result]


def house_rules(rules: HouseRules) -> str:
    """The house rules that differ from the defaults, in words ("House rules: a foul ends
    the turn; two passes a turn."), or '': a family that set one in a config file long
    ago hears it is in force."""
    said: list[str] = []
    if rules.advanced:
        said.append("one describer a turn")
    if not rules.rotate_describers:
        said.append("the same describers every turn")
    if rules.start_category is not None:
        said.append(f"START plays {rules.start_category}")
    if rules.special_category == "previous":
        said.append("a turn on SPIN or CONTROL plays the category behind it")
    if rules.passes_per_turn != HouseRules.passes_per_turn:
        n = rules.passes_per_turn
        said.append("no passes" if n == 0 else f"{count_word(n).lower()} passes a turn")
    if rules.foul_penalty == "lose-one":
        said.append("a foul also takes one right answer off")
    elif rules.foul_penalty == "end-turn":
        said.append("a foul ends the turn")
    if not rules.spin_then_same_team:
        said.append("after a spin, play passes on")
    if rules.finish_by_spin == "immediately":
        said.append("a spin onto FINISH plays its FINISH round at once")
    if rules.after_failed_finish == "winner":
        said.append("after a failed FINISH round, its winner plays next")
    if rules.order_after_control == "from-lander":
        said.append("after another team wins a CONTROL round, play goes on from the lander")
    return f"House rules: {'; '.join(said)}." if said else ""


def opening(game: Game, hint: str) -> str:
    """The welcome: teams and board, the house rules in force, then ``hint`` (how to get
    help; empty when the players have just been told)."""
    teams = "; ".join(f"{t.name}: {names(t.players)}" for t in game.teams)
    rules = house_rules(game.rules)
    return (
        f"Welcome to Articulate! Teams: {teams}. The board has {game.board.finish} segments "
        f"to FINISH. {rules + ' ' if rules else ''}{hint}"
    ).rstrip()


def resumed(game: Game, time_left: float | None = None) -> str:
    """Said when a saved game is picked up again; ``time_left``: the seconds the turn
    cut short goes on with (None: a full turn; 0: its time had run out, and it was
    given back by undo to fix its count)."""
    where = "; ".join(
        f"{t.name} on {segment_words(game, game.position(i))}" for i, t in enumerate(game.teams)
    )
    said = f"Resuming the saved game. {where}."
    if rules := house_rules(game.rules):
        said += f" {rules}"
    s = game.state
    if s.phase is not Phase.TURN:
        return said
    # a turn cut short: what it had already won carries on (dialogue.md 12), and its time
    spent = time_left is not None and time_left <= 0  # given back by undo to fix its count
    left = "" if time_left is None else f", {seconds_words(time_left)} left"
    if spent:
        left = ", its time up"
    if s.correct or s.passes_left < game.rules.passes_per_turn:
        passes = "" if s.passes_left else ", no pass left"
        said += (
            f" {game.to_play.name} has {count_word(s.correct).lower()} right so far{passes}{left}."
        )
    elif spent:
        said += f" {possessive(game.to_play.name)} turn has its time up."
    elif time_left is not None:
        said += f" {possessive(game.to_play.name)} turn goes on with {seconds_words(time_left)}."
    return said


def turn_intro(game: Game) -> str:
    """Whose turn, who describes and guesses, and the category."""
    s = game.state
    guessers = [p for p in game.to_play.players if p not in s.describers]
    whose = possessive(game.to_play.name)
    return (
        f"{whose} turn. {names(s.describers)} describing, {names(guessers)} "
        f"guessing. Category: {game.category}."
    )


def spin_prompt(game: Game) -> str:
    """A team landed on SPIN: how to spin (keys, the same live and keyboard-only)."""
    return f"{game.to_play.name} on SPIN. Press space to spin, or W, N, R or L for a real spinner."


def pushable(game: Game) -> list[str]:
    """After a green spin: the teams the spinning team may push back (R19: never
    itself, never a team on START), as the rules engine allows them."""
    return [
        inp.team for inp in game.legal_inputs() if isinstance(inp, Choose) and inp.team is not None
    ]


def spin_choice_question(game: Game) -> str:
    """After a green spin: forward, or push back one of the teams that can be pushed
    (R18, R19); with none to push, only forward is offered."""
    n = game.state.spin_steps
    teams = pushable(game)
    if not teams:
        return f"{game.to_play.name}: forward {n}. No team can be pushed back from START."
    return f"{game.to_play.name}: forward {n}, or push {names(teams, 'or')} back {n}?"


def round_intro(game: Game) -> str:
    """A CONTROL or FINISH round: who describes to everyone, and what is at stake."""
    s = game.state
    team = game.to_play.name
    if s.phase is Phase.FINISH_ROUND:
        return (
            f"FINISH round! {names(s.describers)} of {team}, describe to everyone. {team} wins "
            "the game by answering first."
        )
    return f"CONTROL round! {names(s.describers)} of {team}, describe to everyone, no time limit."


def won(game: Game) -> str:
    """The end of the game."""
    return f"{game.winner} wins the game! Congratulations!"


def game_over_keys(wake: str | None) -> str:
    """Said after the winner: the win can still be taken back (a wrong buzzer)."""
    if wake is None:
        return "Press U to undo the win, or Q to end."
    return f"Press U or say {wake} undo to take the win back; Q or {wake} quit ends."


def when_ready(game: Game, wake: str | None) -> str:
    """Said instead of "Go!" when the host waits for the describer (``--ready``)."""
    how = "press space" if wake is None else f"press space or say {wake} resume"
    return f"{names(game.state.describers)}, {how} when ready."


def buzzer_keys(team_names: Sequence[str], among: Sequence[str] | None = None) -> str:
    """The teams' number keys: ``1 for Red, 2 for Blue``; ``among``: only these
    teams' keys (each keeps its number)."""
    return ", ".join(
        f"{i + 1} for {name}" for i, name in enumerate(team_names) if among is None or name in among
    )


def buzzers(game: Game) -> str:
    """The game's teams' buzzer keys (:func:`buzzer_keys`)."""
    return buzzer_keys([t.name for t in game.teams])


def phase_prompt(game: Game, wake: str | None, *, ready: bool = False) -> list[str]:
    """What happens now, said on entering a phase (no card word is ever said);
    ``ready``: a turn waits for its describer instead of "Go!"; ``wake`` None: the
    host cannot hear, so the keys are named instead of what to say."""
    s = game.state
    if s.phase is Phase.TURN:
        return [turn_intro(game), when_ready(game, wake) if ready else GO]
    if s.phase is Phase.SPIN:
        return [spin_prompt(game)]
    if s.phase is Phase.SPIN_CHOICE:
        teams = pushable(game)
        if not teams:
            how = "Press F to move forward." if wake is None else "Say forward, or press F."
        elif wake is None:
            keys = buzzer_keys([t.name for t in game.teams], teams)
            how = f"Press F for forward, or a team's number to push it: {keys}."
        else:
            how = "Say forward, or push and the team's name."
        return [f"{spin_choice_question(game)} {how}"]
    if s.phase is Phase.CONTROL_ROUND:
        if wake is None:
            how = (
                "Everyone: shout the answer; the team that gets it presses its buzzer: "
                f"{buzzers(game)}."
            )
        else:
            how = "Everyone: shout the answer, then your team's name, or press your buzzer."
        return [f"{round_intro(game)} {how}"]
    if s.phase is Phase.FINISH_ROUND:
        if wake is None:
            how = f"The team that gets it presses its buzzer: {buzzers(game)}."
        else:
            how = "Shout your team's name, or press your buzzer."
        return [f"{round_intro(game)} {how}"]
    return [won(game), game_over_keys(wake)]


def moves(game: Game, before: GameState, after: GameState) -> list[str]:
    """Every piece that moved, and the segment it landed on."""
    out = []
    by_spin = before.phase is Phase.SPIN_CHOICE  # a bonus move: lands, triggers nothing
    for i, team in enumerate(game.teams):
        old, new = before.positions[i], after.positions[i]
        where = f"segment {new}, {segment_words(game, new)}"
        kind = game.board[new].kind
        if by_spin and new != old and kind in (SegmentKind.CONTROL, SegmentKind.SPIN):
            where += f", but a spin's move plays no {kind.value} there"  # R20
        if new > old and new == game.board.finish:
            # the move stops there whatever was left of it (R22): "moves 2" after a
            # spinner's 3 is no contradiction said this way
            out.append(f"{team.name} moves {new - old} and reaches FINISH, segment {new}.")
        elif new > old:
            out.append(f"{team.name} moves {new - old} to {where}.")
        elif new < old and new == 0 and by_spin and old - new < before.spin_steps:
            # the push stops at START whatever was left of it (R19): "back 2" after a
            # spinner's 3 is no contradiction said this way
            out.append(f"{team.name} is pushed back {old - new}, as far as START, segment 0.")
        elif new < old:
            out.append(f"{team.name} is pushed back {old - new} to {where}.")
    return out


#: The keys' input ended while the host cannot hear: nothing can play on.
STRANDED = "The keys are closed and I cannot hear you, so the game stops here."

#: Said after a foul whose word ended the utterance (a guess called out as the clue
#: ended sounds the same to one microphone).
GUESSER_UNDO = "If a guesser said it, press U to undo."


#: Said when a CONTROL or FINISH round's card is put away for another (R11, R17).
ANOTHER_CARD = "Another card, describe again."


def foul_words(judgement: Judgement | None, entry_text: str) -> str:
    """``Foul: 'swimmer' is a form of swim.`` (the card is forfeit, so it may be named)."""
    if judgement is None:
        return "Foul: the card is lost."
    heard = judgement.heard
    if judgement.kind == "derivative":
        return f"Foul: '{heard}' is a form of {entry_text}."
    if judgement.kind == "word":
        said = f"Foul: '{heard}' is the word itself, {entry_text}."
        features = judgement.features
        if features.get("target_kind") == "answer" and features.get("after") == 0:
            # The answer ended the utterance: the shape of a describer's slip, but
            # also of a guesser calling out as the clue ends (one microphone hears
            # one utterance).  Say how to take it back.
            return f"{said} {GUESSER_UNDO}"
        return said
    if judgement.kind == "letter":
        return f"Foul: '{heard}' gives letters away."
    return f"Foul: '{heard}' is a sounds-like clue."


def applied(
    game: Game,
    before: GameState,
    inp: Input,
    *,
    entry_text: str = "",
    judgement: Judgement | None = None,
    passed: bool = False,
    together: tuple[str, ...] = (),
) -> list[str]:
    """What is said once ``inp`` has been applied (``game`` holds the new state).

    ``entry_text`` is the card entry that was out before (echoed once it is done with).
    ``passed``: a CONTROL or FINISH round's card nobody could get was passed (P or
    "host pass", applied as the engine's draw of another card).  ``together``: the
    teams whose buzzers the host heard at once (R17), named in place of "Answered".
    """
    after = game.state
    team = game.teams[before.to_play].name
    said: list[str] = []
    if isinstance(inp, Correct):
        said.append(f"{entry_text}, correct. {count_word(after.correct)}.")
    elif isinstance(inp, Pass):
        left = "" if after.passes_left else " No more passes this turn."
        said.append(f"Pass.{left}")
    elif isinstance(inp, Foul):
        said.append(foul_words(judgement, entry_text))
        if before.phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND):
            said.append(ANOTHER_CARD)
        elif game.rules.foul_penalty == "end-turn":  # R11 house rule: the turn is over
            said.append(
                f"That ends the turn: {team} got {count_word(before.correct).lower()} right."
            )
        elif after.correct < before.correct:  # foul-penalty=lose-one
            said.append(f"One off the count: {count_word(after.correct).lower()}.")
    elif isinstance(inp, TimeUp):
        said.append(f"Time! {team} got {count_word(before.correct).lower()} right.")
    elif isinstance(inp, Spin) and after.last_spin is not None:
        said.append(spin_words(after.last_spin))
    elif isinstance(inp, ControlSimultaneous) and passed:
        said.append(ROUND_PASSED)
    elif isinstance(inp, ControlSimultaneous):
        who = names(together) if together else "Answered"  # R17, two teams or more
        said.append(f"{who} at once: another card, describe again.")
    elif isinstance(inp, ControlWon):
        winner = game.teams[game.state.winner] if game.state.winner is not None else None
        if winner is None:
            # the card echoed, as a turn's correct guess is (dialogue.md 2)
            card = f": {entry_text}" if entry_text else ""
            said.append(f"{inp.team.strip().title()} answered first{card}.")
    elif isinstance(inp, Choose) and inp.team is None:
        pass  # the move itself is said below
    said += moves(game, before, after)
    if isinstance(inp, TimeUp) and before.correct == 0:
        said.append(f"{team} stays on segment {before.positions[before.to_play]}.")
    if isinstance(inp, ControlWon) and after.phase is not Phase.GAME_OVER:
        lander = before.to_play
        if before.phase is Phase.FINISH_ROUND:
            said.append(f"{team} stays on FINISH and tries again next turn.")
            in_order = (before.to_play + 1) % len(game.teams)
            if after.phase is Phase.TURN and after.to_play != in_order:
                # after-failed-finish=winner: a team passed over, which a table does
                # not expect: say why
                said.append(f"{game.to_play.name} plays next, for winning the round.")
        elif after.control_retry[lander]:
            said.append(f"{team} stays on CONTROL and plays it again next turn.")
        else:
            said.append(f"{team} wins a bonus turn, with new describers.")
    if (
        after.phase is Phase.TURN
        and after.to_play == before.to_play
        and (
            isinstance(inp, (Spin, Choose))
            or (isinstance(inp, TimeUp) and after.turn != before.turn)
        )
    ):
        # the same team again, which a table does not expect: say why
        if isinstance(inp, TimeUp):  # order-after-control=from-lander
            said.append(f"{team} plays again: its own turn, after the bonus turn.")
        else:  # R21
            said.append(f"{team} plays again after the spin.")
    return said


def undone(game: Game, inp: Input) -> str:
    """``Undone: ...`` naming what was reversed (``game`` holds the restored state)."""
    s = game.state
    team = game.to_play.name
    right = f"{team} has {count_word(s.correct).lower()} right"
    if isinstance(inp, Correct):
        what = f"the last correct guess; {right}"
    elif isinstance(inp, Pass):
        passes = "pass" if s.passes_left == 1 else "passes"
        what = f"the pass; {count_word(s.passes_left).lower()} {passes} left"
    elif isinstance(inp, Foul):
        what = "the foul"
    elif isinstance(inp, TimeUp):
        what = f"the end of {possessive(team)} turn, and its move; {right}"
    elif isinstance(inp, Spin):
        what = "the spin"
    elif isinstance(inp, Choose):
        what = "the spin move"
    elif isinstance(inp, ControlWon):
        winner = inp.team.strip().title()
        # the team on FINISH winning its own FINISH round had won the game (R22)
        won_game = s.phase is Phase.FINISH_ROUND and winner.casefold() == team.casefold()
        what = f"{possessive(winner)} win of the {'game' if won_game else 'round'}"
    else:
        what = "the new card"
    return f"Undone: {what}."


def open_question(action: str, wake: str | None) -> str:
    """What help says first while a yes/no question waits for its answer (``action``:
    ``quit`` or ``undo``)."""
    what = "quit" if action == "quit" else "undo the end of the turn"
    again = "" if wake is None else f", or say {wake} {action} again"
    return f"A question waits: Y to {what}{again}; N says no."


def status(game: Game, time_left: float | None, *, paused: bool = False) -> str:
    """Where everyone is and how far from FINISH, whose turn, who describes, the passes
    and the time left (dialogue.md 4): everything the board view shows but the card.
    ``paused``: the turn's timer is paused."""
    s = game.state
    parts = []
    for i, t in enumerate(game.teams):
        at = game.position(i)
        where = f"{t.name} on segment {at} of {game.board.finish}, {segment_words(game, at)}"
        if s.control_retry[i]:
            where += ", a CONTROL round to play again"  # R16
        elif game.board[at].kind is SegmentKind.FINISH and s.phase is not Phase.GAME_OVER:
            where += ", a FINISH round to win"  # R22: what it plays at its next turn
        elif game.board[at].kind in (SegmentKind.CONTROL, SegmentKind.SPIN):
            where += f", plays {game.category_for(i)}"  # R6: a special segment's category
        parts.append(f"{where}.")
    if s.phase is Phase.GAME_OVER:
        return " ".join([*parts, f"{game.winner} won."])
    describing = f"{names(s.describers)} describing"
    passes = "no pass" if not s.passes_left else f"{s.passes_left} pass"
    passes += "es" if s.passes_left > 1 else ""
    teams = pushable(game)
    push = f", or push {names(teams, 'or')} back {s.spin_steps}" if teams else ""
    what = {
        Phase.TURN: (
            f"turn, {describing}, category {game.category}, {s.correct} right, {passes} left"
        ),
        Phase.SPIN: "SPIN: press space to spin",  # the same key live and keyboard-only
        Phase.SPIN_CHOICE: f"SPIN choice: forward {s.spin_steps}{push}",
        Phase.CONTROL_ROUND: f"CONTROL round, {describing}",
        Phase.FINISH_ROUND: f"FINISH round, {describing}",
    }[s.phase]
    parts.append(f"{possessive(game.to_play.name)} {what}.")
    if time_left is not None and time_left <= 0:
        parts.append("Time is up.")
    elif time_left is not None:
        left = f"{seconds_words(time_left)} left."
        parts.append(f"Paused, {left}" if paused else left.capitalize())
    return " ".join(parts)


def resume_command(path: Path, *, default_path: bool) -> str:
    """The command that resumes the game saved at ``path`` (quoted for a shell where it
    needs to be, so that a path with spaces can be pasted; absolute, so that it works
    from any folder: a relative ``--save`` given was printed as it was typed)."""
    return "voice-host play --resume" + (
        "" if default_path else f" --save {shlex.quote(str(path.absolute()))}"
    )


def previous_kept(path: Path) -> str:
    """Said when a new game starts where a game was saved: where that one is now."""
    return (
        f"The game saved before is kept in {path}. To go back to it later: "
        f"{resume_command(path, default_path=False)}."
    )
