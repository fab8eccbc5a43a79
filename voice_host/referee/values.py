"""The referee's values: the game situation it judges in and the judgements it returns.

Every time here is in seconds of audio time (the clock of the audio fed to the
recogniser), never wall-clock time.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from voice_host.deck.model import Entry

#: Seconds after the buzzer during which a word already under way at the buzzer
#: still counts (R8).  A word that *started* before the buzzer and *ended* no
#: later than ``buzzer + GRACE_SECONDS`` counts; one that started after the
#: buzzer never does.  0.3 s covers the last syllable of a word being said as the
#: buzzer sounds, and is shorter than any whole new word.
GRACE_SECONDS = 0.3
#: Seconds after each host speech interval during which heard words are still
#: taken to be the host's own voice (its echo and the recogniser's lag).
HOST_TAIL_SECONDS = 0.5
#: Seconds after the last announcement during which a transcript matching it is
#: taken to be the host hearing itself.
ECHO_WINDOW_SECONDS = 3.0

JudgementType = Literal["guess", "foul", "near_miss", "command", "nothing"]
FoulKind = Literal["word", "derivative", "letter", "rhyme"]


class Phase(enum.Enum):
    """What the game is doing while the words are heard."""

    TURN = "turn"
    """A timed describing turn: guesses, near misses and fouls are judged."""
    CONTROL = "control"
    """A CONTROL round: guesses and fouls as in a turn, plus team claims."""
    SPIN_CHOICE = "spin_choice"
    """A team choosing what to do with a SPIN: ``forward`` or ``push <team>``."""
    BETWEEN = "between"
    """Between turns: only commands."""


#: Event sources of a steered search (keyword spotting, a grammar): they hear
#: their targets in everything, so only a free transcript speaks for an utterance.
STEERED_SOURCES = frozenset({"kws", "grammar"})


@dataclass(frozen=True)
class Situation:
    """What the referee needs to know about the game when it judges."""

    entry: Entry | None = None
    """The entry being described, or None when there is none."""
    phase: Phase = Phase.TURN
    """What the game is doing."""
    teams: tuple[str, ...] = ()
    """Team names as spoken (e.g. ``("red", "blue")``); matched case-insensitively."""
    wake_word: str = "host"
    """The word that starts every spoken command."""
    turn_start: float | None = None
    """Seconds of audio time the turn (or CONTROL round) began; words ending
    before it are not judged as guesses or fouls.  None: no lower bound."""
    buzzer: float | None = None
    """Seconds of audio time the timer runs out; None when untimed."""
    grace: float = GRACE_SECONDS
    """Seconds after the buzzer a word already under way still counts (R8)."""
    host_speech: tuple[tuple[float, float], ...] = ()
    """(start, end) seconds of audio time when the host itself was speaking."""
    host_tail: float = HOST_TAIL_SECONDS
    """Seconds after each host speech interval still ignored."""
    last_announcement: str = ""
    """The text the host last said aloud."""
    announced_at: float | None = None
    """Seconds of audio time the last announcement ended."""
    describer_pitch: float | None = None
    """The pitch (Hz) of the describer's voice this turn, when known
    (:mod:`voice_host.referee.voice`: the referee takes it from the turn's
    first utterance when the caller does not give it)."""


@dataclass(frozen=True)
class Judgement:
    """What the referee concluded from one decisive part of an utterance."""

    type: JudgementType
    """``guess``, ``foul``, ``near_miss``, ``command`` or ``nothing``."""
    t: float
    """Seconds of audio time the decisive word was spoken: its end for guesses
    and near misses, its start for fouls and commands."""
    heard: str
    """The words that decided, as the recogniser wrote them."""
    kind: FoulKind | None = None
    """For fouls: ``word``, ``derivative``, ``letter`` or ``rhyme``."""
    command: str | None = None
    """For commands: ``pass``, ``correct``, ``foul``, ``undo``, ``repeat``,
    ``status``, ``pause``, ``resume``, ``help``, ``quit``, ``team`` (a CONTROL
    claim), ``forward`` or ``push``."""
    argument: str | None = None
    """For ``team`` and ``push``: the team name."""
    answer: str | None = None
    """For guesses and near misses: the accepted answer or form matched."""
    evidence: str = ""
    """A short sentence saying what decided."""
    features: Mapping[str, Any] = field(default_factory=dict)
    """The deciding features (scores, word counts, cues) for logs and tuning."""

    @property
    def label(self) -> str:
        """The fixture manifest's spelling of this judgement, e.g. ``foul:word``,
        ``command:push:blue``, ``team:red``."""
        if self.type == "foul":
            return f"foul:{self.kind}"
        if self.type == "command":
            if self.command == "team":
                return f"team:{self.argument}"
            if self.argument:
                return f"command:{self.command}:{self.argument}"
            return f"command:{self.command}"
        return self.type


def judgement_to_json(j: Judgement) -> dict[str, Any]:
    """A JSON-ready dict for ``voice-host listen --json`` (one object per line).

    Always: ``type``, ``t`` (seconds of audio time, 2 decimals), ``heard``,
    ``evidence``, ``features``.  Fouls add ``kind``; commands add ``command``
    and ``argument`` (null when none); guesses and near misses add ``answer``.
    """
    out: dict[str, Any] = {"type": j.type, "t": round(j.t, 2), "heard": j.heard}
    if j.type == "foul":
        out["kind"] = j.kind
    if j.type == "command":
        out["command"] = j.command
        out["argument"] = j.argument
    if j.type in ("guess", "near_miss"):
        out["answer"] = j.answer
    out["evidence"] = j.evidence
    out["features"] = {k: _jsonable(v) for k, v in j.features.items()}
    return out


def _jsonable(value: Any) -> Any:
    """Round floats and turn tuples into lists so ``json.dumps`` accepts them."""
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value
