"""``--plain``: the table screen as one short line per change, for screen readers.

No cursor movement and no colour unless asked.  Each line says only what
changed since the previous one, in short sentences a screen reader reads well::

    Turn: Red. Describing: Ann. Segment 5 of 47, Person. 30 seconds left. Count 0.
    Count 1. 23 seconds left.
    Heard: glacier. Correct, glacier.
    10 seconds left.

The time left is not repeated every second (dialogue.md item 7): it is said
when the timer starts, pauses or resumes, when it crosses a multiple of
``time_step`` seconds or runs out, and next to every change of the count.

What was heard is written when the referee made something of it (a guess, a
foul, a near miss, a command: what a player may dispute, dialogue.md item 5).
Talk it made nothing of, every clue the describer gives, is not: a screen
reader would read each one back to the table over the game, and into the
microphone.  The board view shows it all.
"""

from __future__ import annotations

import sys
import threading
from typing import TextIO

from voice_host.rules.state import Phase
from voice_host.screen.colours import rgb
from voice_host.screen.model import ScreenModel, TimerView, seconds_words, segment_name, spin_text


class PlainScreen:
    """Writes a line to ``stream`` for each change of the model (thread-safe).

    ``colour`` colours team names with ANSI codes; ``show_card`` writes the
    describer's card entry (turn it off when the screen reader is heard by the
    guessers); ``announcements`` also writes what the host said (off by
    default, as the announcer already speaks or prints it); ``time_step`` is
    the spacing in seconds of the time-left cues.  ``card_only`` writes nothing but
    the card when it is shown (``--screen-reader``: the host's printed announcements
    say the rest, and each line the reader says keeps the microphone shut).
    """

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        colour: bool = False,
        show_card: bool = True,
        announcements: bool = False,
        time_step: int = 10,
        card_only: bool = False,
    ) -> None:
        if time_step < 1:
            raise ValueError(f"time_step must be at least 1 second, got {time_step}")
        self._stream = stream
        self._colour = colour
        self._show_card = show_card
        self._announcements = announcements
        self._time_step = time_step
        self._card_only = card_only
        self._last: ScreenModel | None = None
        self._lock = threading.Lock()

    def update_model(self, model: ScreenModel) -> None:
        """Write the line for ``model`` (nothing when nothing shown has changed)."""
        with self._lock:
            line = self.line_for(model)
            if line is None:
                return
            stream = self._stream if self._stream is not None else sys.stdout
            stream.write(line + "\n")
            stream.flush()

    def line_for(self, model: ScreenModel) -> str | None:
        """The line saying what changed since the last model, and remember ``model``.

        None when nothing worth a line changed.
        """
        before = self._last
        self._last = model
        parts = self._parts(before, model)
        return " ".join(parts) if parts else None

    # ----- the parts of a line, in reading order ------------------------------------------

    def _parts(self, before: ScreenModel | None, now: ScreenModel) -> list[str]:
        parts: list[str] = []
        if self._card_only:
            if now.card is not None and (before is None or before.card != now.card):
                parts.append(f"Card: {now.card}.")
            return parts
        new_turn = (
            before is None
            or before.to_play != now.to_play
            or before.phase != now.phase
            or before.turn_number != now.turn_number
        )
        if new_turn:
            parts.append(self._headline(now))
        if now.phase is not Phase.GAME_OVER:
            if now.describers and (
                new_turn or before is None or before.describers != now.describers
            ):
                parts.append(f"Describing: {', '.join(now.describers)}.")
            mine, others = self._positions(before, now, new_turn)
            parts.extend(mine)
            if _category_news(before, now, new_turn):
                parts.append(f"Category: {now.category}.")
            parts.extend(others)
            spin = spin_text(now)
            if spin and (before is None or spin_text(before) != spin):
                parts.append(f"{spin}.")
        if self._show_card and now.card is not None and (before is None or before.card != now.card):
            parts.append(f"Card: {now.card}.")
        if (
            (now.heard or now.judgement)
            and now.judged != "nothing"  # talk the referee made nothing of
            and (before is None or (before.heard, before.judgement) != (now.heard, now.judgement))
        ):
            if now.heard:
                parts.append(f"Heard: {now.heard}.")
            if now.judgement:
                parts.append(_sentence(now.judgement))
        count_changed = before is None or before.count != now.count
        show_count = now.phase is Phase.TURN and (
            count_changed or (new_turn and now.timer is not None)
        )
        timer = ""
        if now.phase is not Phase.GAME_OVER:
            timer = self._timer(before.timer if before else None, now.timer, force=show_count)
        if timer:
            parts.append(timer)
        if show_count:
            parts.append(f"Count {now.count}.")
        if (
            self._announcements
            and now.announcement
            and (before is None or before.announcement != now.announcement)
        ):
            parts.append(f"Host: {_sentence(now.announcement)}")
        if now.message and (before is None or before.message != now.message):
            parts.append(_sentence(now.message))
        return parts

    def _headline(self, now: ScreenModel) -> str:
        team = now.team
        name = self._name(team.name if team is not None else "?", team.colour if team else None)
        if now.phase is Phase.GAME_OVER:
            winner = now.winner or (team.name if team else "?")
            return f"Game over: {self._name(winner, _colour_of(now, winner))} wins."
        heads = {
            Phase.TURN: f"Turn: {name}.",
            Phase.SPIN: f"Spin: {name}.",
            Phase.SPIN_CHOICE: f"Spin choice: {name}.",
            Phase.CONTROL_ROUND: f"CONTROL round: {name}.",
            Phase.FINISH_ROUND: f"FINISH round: {name}.",
        }
        return heads[now.phase]

    def _positions(
        self, before: ScreenModel | None, now: ScreenModel, new_turn: bool
    ) -> tuple[list[str], list[str]]:
        """The playing team's segment (on a new turn or a move); other pieces that moved."""
        mine: list[str] = []
        others: list[str] = []
        for i, team in enumerate(now.teams):
            moved = (
                before is None
                or i >= len(before.teams)
                or before.teams[i].position != team.position
            )
            if not 0 <= team.position < len(now.segments):
                continue
            # out of the segments to FINISH: how far from the end, in one line
            finish = len(now.segments) - 1
            where = f"{team.position} of {finish}, {segment_name(now.segments[team.position])}"
            if i == now.to_play and (new_turn or moved):
                mine.append(f"Segment {where}.")
            elif moved and before is not None:
                others.append(f"{self._name(team.name, team.colour)}: segment {where}.")
        return mine, others

    def _timer(self, before: TimerView | None, now: TimerView | None, *, force: bool) -> str:
        if now is None:
            return ""
        left = now.whole_seconds
        if before is not None and before.paused != now.paused:
            if left == 0:  # stopped with its time spent (an undone end of turn): not a pause
                return "Time up."
            state = "paused" if now.paused else "running"
            return f"Timer {state}, {seconds_words(left)} left."
        if left == 0 and (before is None or before.whole_seconds > 0):
            return "Time up."
        crossed = (
            before is None
            or before.total != now.total
            or _bucket(before.whole_seconds, self._time_step) != _bucket(left, self._time_step)
        )
        if (crossed or force) and left > 0:
            return f"{seconds_words(left)} left."
        return ""

    def _name(self, name: str, colour: str | None) -> str:
        if not self._colour or colour is None:
            return name
        r, g, b = rgb(colour)
        return f"\x1b[1;38;2;{r};{g};{b}m{name}\x1b[0m"


def _category_news(before: ScreenModel | None, now: ScreenModel, new_turn: bool) -> bool:
    """Whether to say the category: in a turn, when it changed and the segment does not say it."""
    team = now.team
    if now.phase is not Phase.TURN or now.category is None or team is None:
        return False
    if not (new_turn or before is None or before.category != now.category):
        return False
    on_segment = (
        now.segments[team.position].category if 0 <= team.position < len(now.segments) else None
    )
    return on_segment != now.category


def _colour_of(model: ScreenModel, name: str) -> str | None:
    return next((t.colour for t in model.teams if t.name == name), None)


def _bucket(seconds: int, step: int) -> int:
    """Which time-step band ``seconds`` is in: 21-30 -> 2, 11-20 -> 1, 1-10 -> 0 (step 10)."""
    return (seconds - 1) // step if seconds > 0 else -1


def _sentence(text: str) -> str:
    """``text`` stripped and capitalised, ending with a full stop unless it ends a sentence."""
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
