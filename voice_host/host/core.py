"""The host: the dialogue of a whole game, keys and voice in, announcements out.

Everything is injected (clock, announcers, listening, deck, save slot, screen)
and everything happens in :meth:`Host.handle` and :meth:`Host.tick`, called by
one thread: the live loop (:mod:`voice_host.host.live`) or a replay
(:mod:`voice_host.host.script`).  R-ids name the rules each step follows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from voice_host.announce.protocol import Announcer
from voice_host.announce.returning import ReturningAnnouncer
from voice_host.announce.sounds import TIME_CUES, Sound
from voice_host.audio.chunk import AudioChunk
from voice_host.deck.model import Deck, Entry
from voice_host.deck.words import norm_word
from voice_host.host import dialogue, keys
from voice_host.host.claims import ASK_AFTER_SECONDS, Claim, ClaimWindow
from voice_host.host.clock import Clock
from voice_host.host.inputs import (
    Continued,
    Heard,
    HostInput,
    KeyPress,
    KeysClosed,
    MicStatus,
    Notice,
    Stop,
    Suspending,
)
from voice_host.host.listening import Listening
from voice_host.host.saved_game import save_or_discard
from voice_host.host.timer import SAVE_TIMER_EVERY, Cue, TurnTimer
from voice_host.persist import SaveSlot, unsaved_said
from voice_host.referee.commands import command_phrases, listened_teams, spoken_team
from voice_host.referee.values import GRACE_SECONDS, Judgement, Situation
from voice_host.referee.values import Phase as RefPhase
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
    possessive,
)
from voice_host.screen.adapter import screen_model_from_game
from voice_host.screen.model import Screen, TimerView
from voice_host.speech.events import ListenContext

#: Seconds a destructive command (quit, undoing a whole turn) waits for its confirmation.
CONFIRM_SECONDS = 10.0
#: A buzzer pressed this long (seconds) after a round was decided is told who won
#: it (a team a moment late), rather than that its key does nothing.
LATE_BUZZER_SECONDS = 3.0
#: Kept for callers of the old name.
QUIT_CONFIRM_SECONDS = CONFIRM_SECONDS
#: Seconds the card stays on the screen after the describer's peek key (K) when it is hidden.
CARD_PEEK_SECONDS = 5.0
#: Seconds past the buzzer's grace the host waits, at most, for the listening thread to
#: have fed the audio up to it (a thread still transcribing the utterance before is
#: 0.1-0.3 s behind; a stalled microphone must not hold the turn's end for long).
LISTEN_LAG_MAX = 1.0
#: Misunderstood spoken commands in a row before the host names the key (dialogue.md 9).
ESCALATE_AFTER = 2
#: Host speech intervals the referee is told about (the recent ones are all it needs).
SPEECH_HISTORY = 20
#: Spoken commands about the card in play: said before it came, they were about another.
CARD_COMMANDS = frozenset({"correct", "pass", "foul", "team"})
#: C (or "host correct") this soon after the host heard a card guessed is the describer
#: confirming that card, not scoring the next, which nobody has described yet (the host
#: is still saying "Telescope, correct. One.").  A second C in that time counts.
ALREADY_COUNTED_SECONDS = 1.5
#: C, P, F or T (a key, or a command said) this soon after a turn ended (the buzzer,
#: T, a foul that ends it) is about that turn, not the next, which nobody has
#: described yet: a guess called out at the buzzer, T pressed twice.  It is not
#: applied; the host says how to count it for either turn (pressed again, it counts
#: for the new one).  The new turn's "Go!" alone takes longer than this to say.
TURN_ENDED_SECONDS = 2.0
#: The commands a turn ended too soon before refuses (:data:`TURN_ENDED_SECONDS`).
TURN_KEYS = frozenset({"correct", "pass", "foul", "time"})


@dataclass(frozen=True)
class HostOptions:
    """How the host behaves; times in seconds on the host's clock."""

    timer: float = 30.0
    """Seconds in a turn (R5)."""
    wake_word: str = "host"
    """Spoken before every command."""
    grace: float = GRACE_SECONDS
    """A guess already under way at the buzzer counts if it ends this soon after (R8)."""
    mic_gate: bool = True
    """Never judge the host's own voice (off only to prove the gate works)."""
    show_card: bool = True
    """Show the card entry on the screen all the time; when False it is shown only for
    :data:`CARD_PEEK_SECONDS` after the describer presses K (the guessers can see or hear
    the screen: a screen reader reads it aloud)."""
    ready: bool = False
    """Wait for the describer before each turn: the turn is announced, then the host asks
    them to press space or say "<wake> resume" when ready, and only then says "Go!" and
    starts the timer (time to reach the screen or put the headphones on)."""
    resume_with: str = ""
    """The command that resumes this game, said with the goodbye of a game left saved."""
    time_cue: str = "chime"
    """How the turn's time cues sound (dialogue.md 7): ``chime`` (a chime at ten seconds
    left, which shuts the microphone 0.86 s with the gate's tail, and another as the
    turn ends) or ``words`` ("Ten seconds.", which shuts it 1.35 s)."""

    def __post_init__(self) -> None:
        if self.time_cue not in TIME_CUES:
            raise ValueError(
                f"time_cue must be one of {', '.join(TIME_CUES)}, not {self.time_cue!r}"
            )


@dataclass(frozen=True)
class Said:
    """One announcement as the host made it (for logs and tests)."""

    text: str
    """What was said."""
    at: float
    """Seconds on the host's clock when it was queued."""


def _team_key(name: str) -> str:
    return name.strip().casefold()


#: A word foul must end this long (seconds) before a guess in the same batch
#: begins to stand before it: engines place one word a frame or two apart.
WORDS_APART_SECONDS = 0.05


def _words_start(j: Judgement) -> float:
    """When the words a judgement is about began (its time when not known)."""
    at = j.features.get("words_at")
    return float(at[0]) if isinstance(at, tuple) else j.t


def _words_end(j: Judgement) -> float:
    """When the words a judgement is about ended (its time when not known)."""
    at = j.features.get("words_at")
    return float(at[1]) if isinstance(at, tuple) else j.t


class Host:
    """Runs one game: see the module docstring.  ``save_options`` go into every save."""

    def __init__(
        self,
        game: Game,
        deck: Deck | None,
        *,
        clock: Clock,
        announcer: Announcer,
        listening: Listening | None = None,
        card_announcer: Announcer | None = None,
        screen: Screen | None = None,
        save: SaveSlot | None = None,
        save_options: Mapping[str, Any] | None = None,
        options: HostOptions | None = None,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.game = game
        self.deck = deck
        self.clock = clock
        self.announcer = announcer
        self.listening = listening
        self.card_announcer = card_announcer
        if listening is not None:
            listening.private = card_announcer  # its new card waits on no context either
        self.screen = screen
        self.save_slot = save
        self.save_options = dict(save_options or {})
        self.options = options or HostOptions()
        self._log = log
        self.timer = TurnTimer(self.options.timer)
        self.claims = ClaimWindow()
        self.said: list[Said] = []
        """Everything announced, in order."""
        self.judgements: list[Judgement] = []
        """Every judgement of the referee acted on (or ignored), in order."""
        self.finished = False
        """True once the session is over (quit, Ctrl-C, or the game won and closed)."""
        self.mic_live = listening is not None
        """Whether voice is being listened to now."""
        self._keys_closed = False  # the keyboard input ended (KeysClosed)
        # Keys that came while a CONTROL claim was being decided, for after the decision.
        self._typed_ahead: list[KeyPress] = []
        self.unsaved: str | None = None
        """Why the game could not be saved as the session ended; None when it was."""
        self.last_heard = ""
        self.last_judgement = ""
        self.last_judged = ""  # the kind of the last judgement
        self._message = ""
        self._told = ""  # the last microphone news said to the players
        self._last_group = ""  # what "repeat" repeats
        self._last_said = ""  # what the host said last, whatever it was
        self._go_pending = False
        self._waiting = False  # a turn announced, waiting for its describer (options.ready)
        self._stirred = False  # a key or words heard since the turn's timer started
        # the time a turn had left when a foul (foul-penalty=end-turn) or T ended it, by
        # the number of inputs it made: undoing that input gives the turn its time back
        self._ended_early: dict[int, float] = {}
        self._idle = False  # the last turn went by with nobody playing: the next one waits
        # when the last turn ended, by whom, and the turn number that followed it; and a
        # turn's key refused just after it (the same again counts: TURN_ENDED_SECONDS)
        self._turn_ended: tuple[float, int, int] | None = None
        self._late_key: tuple[str, int] | None = None
        self._turn_start: float | None = None
        self._ending_at: float | None = None
        self._buzzer: float | None = None
        self._held_for_question = False  # a yes/no question paused the turn's timer
        # The last round's winner by the buzzers, and when: a late buzzer is told so
        self._round_won: tuple[str, float] | None = None
        self._confirm: str | None = None
        self._confirm_until: float | None = None
        self._peek_until: float | None = None
        self._peek_card: int | None = None  # the card K showed: only that one is shown
        self._misheard = 0
        self._shown_second: int | None = None
        self._card_said: tuple[int | None, str | None] | None = None
        self._held: list[str] = []  # advice to say when the turn in progress ends
        self._asked_which_team = False  # the full question has been said this game
        # An answer heard in a round, waiting for a team's name: (card, when to ask).
        self._ask_which_team: tuple[int | None, float] | None = None
        self._resumed_left: float | None = None  # the resumed turn's time, until it starts
        self._card_hidden = False  # K with --show-card: the card off the screen for a moment
        self._told_situation: Situation | None = None  # the referee's, as last told
        # The card in play (card, category, turn) and when it came: words said before then
        # were about an earlier card, whenever their judgement arrives.
        self._card_key: tuple[object, ...] | None = None
        self._card_at = float("-inf")
        # The card a heard guess just scored, when, and the card that came after it (see
        # ALREADY_COUNTED_SECONDS): an undo or a pass since then leaves nothing to confirm.
        self._heard_correct: tuple[str, float, tuple[object, ...] | None] | None = None

    # ----- starting and the loop ----------------------------------------------------------

    def start(
        self,
        *,
        resumed: bool = False,
        news: str = "",
        news_shown: str = "",
        kept: str = "",
        time_left: float | None = None,
        held: bool = False,
        ended_early: Mapping[int, float] | None = None,
        notices: Sequence[str | Notice] = (),
    ) -> None:
        """Open the game: the welcome (or the resume notice) and the first prompt.

        ``news`` is microphone news known before the game opens (no recogniser, no
        microphone): said first, so that it does not fall into the first turn after
        "Go!", and not said again when the listening thread reports the same;
        ``news_shown`` is that news with the device's reason, shown instead of it.
        ``kept`` says where the game saved before this new one was moved, or ''.
        ``time_left``: a resumed turn's seconds (:func:`resumed_time_left`), or None
        for a full turn; ``held``: that turn was paused or waiting for its describer,
        and waits for them again (as with ``--ready``) rather than running at "Go!".
        ``ended_early``: the saved :attr:`~voice_host.persist.SavedGame.ended_early`.
        ``notices``: news from opening the game's devices (a card voice that cannot
        speak), said before the welcome rather than after "Go!"; a :class:`Notice`'s
        ``shown`` form is shown instead of its words."""
        now = self.clock.now()
        self._ended_early = dict(ended_early or {})
        if news:
            self.mic_live = False  # the prompts name keys, not words it cannot hear
        hint = dialogue.help_hint(self._wake())
        lines = [kept] if kept else []
        shown = list(lines)  # the host line: a notice with a device's reason shows it
        for n in notices:
            lines.append(n.text if isinstance(n, Notice) else n)
            shown.append((n.shown or n.text) if isinstance(n, Notice) else n)
        if news and news != self._told:
            self._told = news
            keys_only = "Play with the keys; question mark for help."
            lines.append(f"{news} {keys_only}")
            shown.append(f"{news_shown} {keys_only}" if news_shown else lines[-1])
            hint = ""  # said just now
        first = (
            dialogue.resumed(self.game, time_left) if resumed else dialogue.opening(self.game, hint)
        )
        if self.listening is not None:
            self.listening.prepare(self.contexts_ahead())
        prompt = self._enter_phase(now, hold=resumed and held)
        if resumed and self.game.phase is Phase.TURN and time_left is not None and time_left <= 0:
            # a turn given back by undo after its time ran out: still open, its count to
            # fix and T to end it, as before the save
            self.timer.expire()
            self._go_pending = self._waiting = False
            prompt = [dialogue.turn_intro(self.game), dialogue.TIME_SPENT]
        elif resumed and self.game.phase is Phase.TURN:
            self._resumed_left = time_left  # shown, and the timer's start, until it goes on
        # A new game played aloud with chimes: the table hears the ten-second chime
        # once before any turn, with what it means (two notes with no words would be a
        # riddle the first time they sound, in the busiest part of a turn).
        taught: list[str | Sound] = []
        if not resumed and self.options.time_cue == "chime" and self.announcer.audible:
            taught = [dialogue.TEN_SECONDS_CHIME, Sound.TEN_SECONDS]
        # One group, so the screen (in line mode, a printed status line) follows it all.
        said = [*lines, first, *taught, *prompt]
        shown = [i for i in (*shown, first, *taught, *prompt) if isinstance(i, str) and i.strip()]
        self._say(said, shown=" ".join(shown))
        self._changed(now, save=True)

    def handle(self, item: HostInput) -> None:
        """Take one input from the queue."""
        if self.finished:
            if isinstance(item, Suspending):
                item.done.set()  # nothing to pause: the process may stop at once
            return
        if isinstance(item, KeyPress):
            self.tick(item.t)
            self._stirred = True
            if self._waits_for_claim(item.key):
                self._typed_ahead.append(item)
            else:
                self._key(item.key, item.t)
        elif isinstance(item, Heard):
            judged = item.judgements
            if self.listening is not None:
                judged = tuple(self.listening.claim(judged))  # not those flushed at the buzzer
            self._heard(judged)
        elif isinstance(item, MicStatus):
            self._mic(item)
        elif isinstance(item, Notice):
            if item.later and self._turn_running():
                self._held.append(item.text)
            else:
                self._say([item.text], shown=item.shown)
        elif isinstance(item, Stop):
            self.stop(item.reason)
        elif isinstance(item, KeysClosed):
            self._keys_closed = True
        elif isinstance(item, Suspending):
            try:
                self.suspend(item.t)
            finally:
                item.done.set()
        elif isinstance(item, Continued):
            self.continued(item.t)
        self._stop_if_stranded()
        if not self.finished:
            self._refresh_situation()  # a pause or a question moved the buzzer

    def _heard(self, judgements: Sequence[Judgement]) -> None:
        # words heard, judged or not: the table is talking (a team that got nothing)
        self._stirred |= any(j.type != "nothing" or j.heard.strip() for j in judgements)
        for j in self._prefer(tuple(judgements)):
            self._voice(j)

    def _start_if_said(self, now: float) -> None:
        """Start the turn's timer once "Go!" has been said (R5: the turn starts when the
        timer starts; a resumed one goes on with its own time)."""
        if self._go_pending and self._quiet(now):
            if self._unread(dialogue.GO):
                self._say([dialogue.GO])  # a key stopped the player's reader before it
                return
            self._start_turn(now)

    def _start_turn(self, now: float) -> None:
        """Start the turn's timer ("Go!" is out) from ``now``."""
        self._go_pending = False
        self.timer.start(now, self._resumed_left)
        self._resumed_left = None
        self._stirred = False
        self._turn_start = now
        self._changed(now)

    def _stop_if_stranded(self) -> None:
        """No keys and no ears: nothing could move the game on, so save and leave rather
        than run turns out forever (once a claim being decided, and the keys typed after
        it, have been played)."""
        if (
            self._keys_closed
            and self._wake() is None
            and not self.finished
            and not self.claims.open
            and not self._typed_ahead
        ):
            self._say([dialogue.STRANDED])
            self.stop("no keys and no microphone")

    def hear(self, chunk: AudioChunk) -> None:
        """Replay helper: judge one microphone chunk and act on it, then let time pass."""
        if self.listening is not None and self.mic_live and not self.finished:
            judgements = self.listening.feed(chunk)
            if judgements:
                self.handle(Heard(tuple(judgements)))
        self.tick(chunk.end_time)

    def tick(self, now: float) -> None:
        """Let time pass: start the timer after "Go", timer cues, claim decisions, quit expiry."""
        if self.finished:
            return
        if self._confirm_until is not None and now > self._confirm_until:
            self._drop_question(now)  # unanswered: a "no"
        if self._peek_until is not None and now >= self._peek_until:
            self._peek_until = None
            self._show(now)
        self._voices_back(now)  # before "Go!" starts a turn's timer
        self._start_if_said(now)
        for cue in self.timer.cues(now):
            if cue.cue is Cue.WARNING:
                self._time_cue(Sound.TEN_SECONDS, now)
            else:
                self._buzzer = cue.at
                self._ending_at = cue.at + self.options.grace
        if (
            self._ending_at is not None
            and now >= self._ending_at
            and self._heard_up_to(self._ending_at, now)
        ):
            self._end_turn(now)
        if self._ask_which_team is not None and now >= self._ask_which_team[1]:
            card, _ = self._ask_which_team
            self._ask_which_team = None
            in_round = self.game.phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND)
            if in_round and card == self.game.current_card and not self.claims.open:
                self._say(
                    [dialogue.WHICH_TEAM_SHORT if self._asked_which_team else dialogue.WHICH_TEAM]
                )
                self._asked_which_team = True
        if self.claims.open:
            result = self.claims.decide(now, settle=self.mic_live)
            if result is not None:
                if result.winner is None:
                    who = tuple(self.game.teams[c.team].name for c in result.claims)
                    self._apply(ControlSimultaneous(), now, together=who)  # R17
                else:
                    winner = self.game.teams[result.winner].name
                    self._apply(ControlWon(winner), now, entry_text=self.entry_text())
                    self._round_won = (winner, now)
                self._stop_if_stranded()  # keys that ran out during the claim
        self._play_typed_ahead(now)
        if self.timer.running:
            second = int(self.timer.left(now))
            if second != self._shown_second:
                self._shown_second = second
                if second % SAVE_TIMER_EVERY == 0:
                    self._save()  # the time left, so that a resumed turn goes on with it
                self._show(now)
        self._refresh_situation()

    def _heard_up_to(self, t: float, now: float) -> bool:
        """Whether the listening thread has fed the microphone's audio up to ``t`` (or
        cannot: no microphone, or it lags :data:`LISTEN_LAG_MAX` behind).  A guess said
        just before the buzzer whose audio still waited in the microphone's queue (the
        thread busy transcribing the utterance before it: 0.1-0.3 s) was judged after
        the turn had ended, and lost (R8; session 54's review)."""
        if self.listening is None or not self.mic_live:
            return True
        return self.listening.fed_until >= t or now >= t + LISTEN_LAG_MAX

    def _refresh_situation(self) -> None:
        """Tell the referee the situation when it moved without a change to the game: a
        pause, a question holding the timer or Ctrl-Z, and going on after them, move
        the buzzer (the referee kept the one before the pause, and judged every guess
        after it "after the buzzer" for the rest of the card: session 54's review)."""
        if self.listening is None:
            return
        situation = self.situation()
        if situation != self._told_situation:
            self._told_situation = situation
            self.listening.update_situation(situation)

    def suspend(self, now: float) -> None:
        """The process is about to stop (Ctrl-Z): a running turn's timer is paused, as
        the pause key pauses it, and a turn about to start ("Go!" said) is held, as
        space holds it; both are saved so, and the time stopped is not the turn's.
        Nothing is said (the process stops mid-word): see :meth:`continued`."""
        if self.finished:
            return
        self.tick(now)
        if self.game.phase is Phase.TURN:
            if self._go_pending:
                self._go_pending = False
                self._waiting = True
            elif self.timer.running:
                self.timer.pause(now)
            # a question that lapses while stopped must not set the timer going again
            self._held_for_question = False
        self._save()
        self._show(now)

    def continued(self, now: float) -> None:
        """Back after Ctrl-Z (``fg``): a turn stays paused (or waiting for its describer)
        and the host says so, with how to go on; elsewhere nothing had been running."""
        if self.finished:
            return
        self.tick(now)  # a question left open while stopped lapses first
        if self.game.phase is not Phase.TURN:
            return
        if self._waiting:
            self._say([dialogue.HELD, dialogue.when_ready(self.game, self._wake())])
        elif self.timer.started and self.timer.paused and self.timer.left(now) > 0:
            left = self.timer.left(now)
            self._say([dialogue.paused(left, dialogue.resume_hint(self._wake()))])
        self._show(now)

    def stop(self, reason: str = "interrupted") -> None:
        """Save and end the session (Ctrl-C)."""
        if self.finished:
            return
        saved = self._save()
        if self.game.phase is Phase.GAME_OVER:
            self._say([dialogue.GOODBYE])
        elif self.save_slot is None:
            self._say(["Game saved. Goodbye."])  # a replay's host (nothing to save to)
        elif saved:
            later = (
                f" To go on later: {self.options.resume_with}." if self.options.resume_with else ""
            )
            self._say([f"Game saved to {self.save_slot.path}.{later} Goodbye."])
        else:
            slot = self.save_slot
            why = slot.failure or f"cannot save the game to {slot.path}"
            if slot.saved_any:
                self.unsaved = f"{why}; the last good save is kept"
            else:  # a file there is another game's (one that could not be moved aside)
                self.unsaved = f"{why}; none of this game was saved"
                if slot.path.exists():
                    self.unsaved += f", and {slot.path} holds an earlier game"
            # Said in plain words; the file and the system's reason are shown (and, once
            # the session is closed, the command's error line prints them).
            kept = "The last save is kept." if slot.saved_any else "None of this game was saved."
            self._say(
                [f"{unsaved_said(slot.failure_said)} {kept} Goodbye."],
                shown=f"The game could not be saved: {self.unsaved}. Goodbye.",
            )
        self.finished = True

    # ----- the situation for listening ----------------------------------------------------

    def entry(self) -> Entry | None:
        """The card entry being described now, or None."""
        card, category = self.game.current_card, self.game.category
        if self.deck is None or card is None or category is None:
            return None
        if self.game.phase is Phase.GAME_OVER or not 0 <= card < len(self.deck):
            return None
        return self.deck.card(card).entry(category)

    def entry_text(self) -> str:
        """The entry's text, or ``card N`` without a deck."""
        entry = self.entry()
        if entry is not None:
            return entry.text
        card = self.game.current_card
        return "" if card is None else f"card {card + 1}"

    @staticmethod
    def _ref_phase(phase: Phase) -> RefPhase:
        """The referee's name for a game phase."""
        return {
            Phase.TURN: RefPhase.TURN,
            Phase.CONTROL_ROUND: RefPhase.CONTROL,
            Phase.FINISH_ROUND: RefPhase.CONTROL,
            Phase.SPIN_CHOICE: RefPhase.SPIN_CHOICE,
        }.get(phase, RefPhase.BETWEEN)

    def situation(self) -> Situation:
        """What the referee needs now (times on the host's clock)."""
        phase = self.game.phase
        ref_phase = self._ref_phase(phase)
        if phase is Phase.TURN and not self.timer.started:
            ref_phase = RefPhase.BETWEEN  # no guessing before "Go"
        intervals = self.announcer.speech_intervals()[-SPEECH_HISTORY:]
        last = intervals[-1] if intervals else None
        buzzer = self.timer.buzzer if self.timer.running else self._buzzer
        return Situation(
            entry=self.entry() if ref_phase in (RefPhase.TURN, RefPhase.CONTROL) else None,
            phase=ref_phase,
            teams=tuple(t.name.lower() for t in self.game.teams),
            wake_word=self.options.wake_word,
            turn_start=self._turn_start,
            buzzer=buzzer if phase is Phase.TURN else None,
            grace=self.options.grace,
            host_speech=tuple((i.start, i.end) for i in intervals),
            last_announcement=last.text if last else "",
            announced_at=last.end if last else None,
        )

    def context(self) -> ListenContext:
        """What the recogniser should listen for now (team names as they are said:
        "team one" for Team 1)."""
        names = tuple(spoken_team(t.name) for t in self.game.teams)
        teams = listened_teams(names, self._ref_phase(self.game.phase))
        commands = command_phrases(teams, self.options.wake_word)
        return ListenContext.for_entry(self.entry(), commands, teams)

    def contexts_ahead(self) -> Iterator[ListenContext]:
        """A context for every entry of the deck (the words the game may listen for)."""
        if self.deck is None:
            return
        teams = tuple(spoken_team(t.name) for t in self.game.teams)
        commands = command_phrases(teams, self.options.wake_word)
        for card in self.deck.cards:
            for entry in card.entries.values():
                yield ListenContext.for_entry(entry, commands, teams)

    # ----- keys ----------------------------------------------------------------------------

    def _waits_for_claim(self, key: str) -> bool:
        """Whether ``key`` waits for the CONTROL claim being decided (the half second of
        R17's window, :mod:`voice_host.host.claims`): keys typed ahead, or piped in at
        once, are meant for after the decision (a status, an undo of the win, the next
        turn's keys).  The round's own keys (a buzzer, S, P, F) and the answer to a yes/no
        question act at once unless keys already wait (order is kept); the hush key and
        Ctrl-C always do."""
        if not self.claims.open:
            return False
        lower = key if key in (" ", "\n", "\r") else key.lower()
        if lower in ("ctrl+c", "\x03") or lower in keys.HUSH:
            return False
        if self._typed_ahead:
            return True
        if self._confirm is not None and lower in ("y", "n"):
            return False
        round_key = lower in ("s", "p", "f") or (
            keys.team_for_key(lower, len(self.game.teams)) is not None
        )
        return not (round_key and self.game.phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND))

    def _play_typed_ahead(self, now: float) -> None:
        """Act on the keys that waited for a claim's decision, in order, once it is made
        (a held buzzer can open another claim: the rest wait for that one)."""
        if not self._typed_ahead:
            return
        while self._typed_ahead and not self.claims.open and not self.finished:
            self._start_if_said(now)  # as for a key pressed now: after "Go!" the turn runs
            self._key(self._typed_ahead.pop(0).key, now)
        if not self._typed_ahead:
            self._stop_if_stranded()

    def _key(self, key: str, now: float) -> None:
        key = " " if key in ("\n", "\r", "enter", "space") else key
        if key in ("ctrl+c", "\x03"):
            self.stop()
            return
        lower = key if key == " " else key.lower()
        if lower in keys.HUSH:
            self._hush()
            return
        if self._confirm is not None and lower in ("y", "n"):
            if lower == "y":
                action, self._confirm, self._confirm_until = self._confirm, None, None
                self._confirmed(action, now)
            else:
                self._drop_question(now)
            return
        if lower == keys.PEEK:
            self._peek(now)
            return
        if lower in keys.ALWAYS:
            self._command(keys.ALWAYS[lower], now)
            return
        phase = self.game.phase
        if phase is Phase.TURN and lower in keys.TURN:
            self._command(keys.TURN[lower], now)
        elif phase is Phase.SPIN and lower in keys.SPIN:
            self._apply(Spin(), now)
        elif phase is Phase.SPIN and lower in keys.SPINNER:
            self._apply(Spin(keys.SPINNER[lower]), now)
        elif phase is Phase.SPIN_CHOICE and lower == "f":
            self._apply(Choose.forward(), now)
        elif (
            phase is Phase.SPIN_CHOICE
            and (team := keys.team_for_key(lower, len(self.game.teams))) is not None
        ):
            self._push(self.game.teams[team].name, now)  # key 1 is team 0
        elif phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND) and lower == "s":
            self.claims.clear()
            self._apply(ControlSimultaneous(), now)
        elif phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND) and lower == "p":
            self._pass_round(now)
        elif phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND) and lower == "f":
            self.claims.clear()  # the describer fouled (R11): another card
            self._apply(Foul(), now, entry_text=self.entry_text())
        elif phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND) and (
            keys.team_for_key(lower, len(self.game.teams)) is not None
        ):
            team = keys.team_for_key(lower, len(self.game.teams))
            assert team is not None
            self.claims.claim(Claim(team, now, "key"))
            self.tick(now)
        elif (late := self._late_buzzer(lower, now)) is not None:
            self._say([late], remember=False)
        elif phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND):
            # "C" is the natural key for a right answer: name the round's own keys
            how = f"the team that answers presses its buzzer: {dialogue.buzzers(self.game)}"
            said = f"{dialogue.key_does_nothing(key, hint=False)} In a round, {how}."
            self._say([said], remember=False)
        else:
            self._say([dialogue.key_does_nothing(key)], remember=False)

    def _late_buzzer(self, key: str, now: float) -> str | None:
        """What a buzzer pressed just after a round was decided is told ("Red was
        first."), rather than "Key 2 does nothing now"; None for any other key."""
        if self._round_won is None or keys.team_for_key(key, len(self.game.teams)) is None:
            return None
        winner, at = self._round_won
        if now - at > LATE_BUZZER_SECONDS:
            return None
        return f"{winner} was first."

    # ----- voice ---------------------------------------------------------------------------

    @staticmethod
    def _prefer(judgements: tuple[Judgement, ...]) -> list[Judgement]:
        """A guess in a batch outranks near misses and the word fouls of the same
        words or later ones: the recogniser often also reports a form of the answer
        ("telescoped") for one word, and a foul after the guess would fall on the
        next card.  A word foul that ended before the guess began stands, first: the
        describer said the word, then someone called it out ("a clock is a clock")."""
        guesses = [j for j in judgements if j.type == "guess"]
        if not guesses:
            return list(judgements)
        begins = min(_words_start(g) for g in guesses)
        return [
            j
            for j in judgements
            if j.type not in ("near_miss", "nothing")
            and not (
                j.type == "foul"
                and j.kind in ("word", "derivative")
                and _words_end(j) > begins - WORDS_APART_SECONDS
            )
        ]

    def _voice(self, j: Judgement) -> None:
        now = max(self.clock.now(), j.t)
        self.judgements.append(j)
        self.last_heard = j.heard
        self.last_judgement = j.evidence
        self.last_judged = j.type
        if j.type not in ("guess", "foul") and self._gives_card_away(j.heard, j.evidence):
            # a near miss's evidence names the card, a steered hit nobody confirmed is
            # the card word: not for a screen the guessers read or hear (a guess or
            # foul acted on ends the card, so it may be named)
            self.last_heard = self.last_judgement = ""
        phase = self.game.phase
        wake = self.options.wake_word
        if j.type == "command":
            self._misheard = 0
            name = j.command or ""
            if name in CARD_COMMANDS and j.t < self._card_at:
                # "host correct" (or a team's claim) said of an earlier card: a key moved
                # on before its judgement arrived; it must not score the card after it.
                self._show(now)
                return
            if name == "team":
                if phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND) and j.argument:
                    idx = self._team_index(j.argument)
                    if idx is not None:
                        self.claims.claim(Claim(idx, j.t, "voice"))
                return
            if name == "forward" and phase is Phase.SPIN_CHOICE:
                self._apply(Choose.forward(), now)
            elif name == "push" and phase is Phase.SPIN_CHOICE and j.argument:
                self._push(j.argument, now)
            else:
                self._command(name, now, said=j.t)
            return
        if j.type == "guess" and phase is Phase.TURN and self.timer.started:
            entry = self.entry()
            if entry is not None and j.answer in self._answers_of(entry):
                self._apply(Correct(), now, entry_text=entry.text)
                self._heard_correct = (entry.text, now, self._card_key)
            return
        if j.type == "guess" and phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND):
            # Quiet for now: the host asks which team only after a breath, in which
            # the name often comes, and not at all once a claim is in (with the
            # answer or after it): that is decided, and said, when its window
            # closes, and another team's claim in the window must not fall under
            # the host's voice (R17).
            self._ask_which_team = (self.game.current_card, now + ASK_AFTER_SECONDS)
            return
        if j.type == "foul" and j.t < self._card_at:
            # Said while an earlier card was in play (a key or a guess moved on before
            # this judgement arrived, 0.4-1 s after the words): not this card's foul.
            self._show(now)
            return
        if j.type == "foul" and phase is Phase.TURN and self.timer.started:
            self._apply(Foul(), now, entry_text=self.entry_text(), judgement=j)
            return
        if j.type == "foul" and phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND):
            self.claims.clear()  # R11: the card is forfeited, another drawn
            self._apply(Foul(), now, entry_text=self.entry_text(), judgement=j)
            return
        if j.type == "near_miss" and phase is Phase.TURN:
            self._say([f"Close: {j.heard}."])
            return
        if j.type == "nothing" and j.heard.split()[:1] == [wake]:
            self._misheard += 1
            if self._misheard >= ESCALATE_AFTER:
                self._misheard = 0
                self._say(
                    [
                        "Sorry, I still did not understand. Use the keys: C correct, P pass, "
                        "F foul, U undo, A repeat, I status, question mark for help."
                    ]
                )
            else:
                self._say([f"Sorry? Say {wake}, then the command."])
        self._show(now)

    def _gives_card_away(self, *texts: str) -> bool:
        """Whether ``texts`` name the card in play (its entry, an answer or a forbidden
        form, as whole words) while the screen hides it from the table."""
        entry = self.entry()
        if self.options.show_card or entry is None:
            return False
        said = " ".join(texts).casefold()
        words = {entry.text.casefold(), *entry.answers, *entry.forms}
        return any(re.search(rf"\b{re.escape(w)}\b", said) for w in words if w)

    def _answers_of(self, entry: Entry) -> set[str]:
        """The answers a guess judgement may name for ``entry``: the card's own, and
        the referee's variants of them (the answer without its article, or with a
        recogniser's stray ending: slt's "telescope!" written "telescoped").  A guess
        naming none of them was judged for another card (a batch that held two)."""
        out = set(entry.answers)
        if self.listening is not None:
            out.update(t.phrase for t in self.listening.referee.targets(entry).answers)
        return out

    def _team_index(self, name: str) -> int | None:
        """The team ``name`` names: as typed, or as the referee keys a heard name
        (``bigred`` for Big Red: :func:`voice_host.deck.words.norm_word`)."""
        for i, t in enumerate(self.game.teams):
            if _team_key(t.name) == _team_key(name):
                return i
        heard = norm_word(name)
        for i, t in enumerate(self.game.teams):
            if heard and norm_word(t.name) == heard:
                return i
        return None

    # ----- commands (both keys and voice) ------------------------------------------------

    def _command(self, name: str, now: float, *, said: float | None = None) -> None:
        """Act on command ``name`` (a key's, or one spoken: ``said``, when its words began,
        some time before its judgement arrived at ``now``)."""
        when = now if said is None else said  # when the key was pressed or the words began
        phase = self.game.phase
        wake = self._wake()
        if name in ("quit", "undo") and self._confirm == name:
            self._confirm = self._confirm_until = None
            self._confirmed(name, now)
            return
        if name not in ("help", "repeat", "status"):
            self._drop_question(now)  # any other command answers "no"
        if name == "quit" and phase is Phase.GAME_OVER:
            self.stop("quit")  # the game is won: nothing to save, nothing to confirm
            return
        if name == "quit":
            how = "Press Y" if wake is None else f"Press Y, or say {wake} quit again,"
            slot = self.save_slot
            if slot is not None and slot.failure is not None:
                # saving fails now: said before the game is lost, not after (space freed,
                # a folder made writable, and the next change saves it)
                kept = (
                    "The last save is kept" if slot.saved_any else "Nothing of this game is saved"
                )
                self._ask(
                    "quit", f"Quit? The game cannot be saved now. {kept}. {how} to stop.", now
                )
            else:
                self._ask("quit", f"Quit? {how} to save and stop.", now)
            return
        if name == "undo" and self._last_ended_a_turn():
            team = possessive(self.game.teams[self._undo_team()].name)
            how = "Press Y" if wake is None else f"Press Y, or say {wake} undo again"
            self._ask("undo", f"Undo the end of {team} turn, and its move? {how}; N keeps it.", now)
            return
        if name == "help":
            names = tuple(t.name for t in self.game.teams)
            pushable = dialogue.pushable(self.game) if phase is Phase.SPIN_CHOICE else None
            waiting = self._waiting and phase is Phase.TURN
            passes = self.game.rules.passes_per_turn > 0
            lines = [
                keys.help_text(
                    phase,
                    names,
                    wake,
                    pushable,
                    waiting=waiting,
                    passes=passes,
                    hush=self.announcer.audible,
                    chime=self.announcer.audible and self.options.time_cue == "chime",
                )
            ]
            if self._confirm is not None:
                # a question is open: its keys first (help left it unmentioned)
                lines.insert(0, dialogue.open_question(self._confirm, wake))
            self._say(lines, remember=False)
        elif name == "repeat":
            last = self._last_group or "nothing yet"
            self._say([f"I said: {last}", f"Now: {self._status(now)}"], remember=False)
        elif name == "status":
            self._say([self._status(now)], remember=False)
        elif name == "undo":
            self._undo(now)
        elif name in ("pause", "resume"):
            self._pause(name, now)
        elif name == "foul" and phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND):
            self.claims.clear()  # R11: the card is forfeited, another drawn
            self._apply(Foul(), now, entry_text=self.entry_text())
        elif name == "pass" and phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND):
            self._pass_round(now)
        elif phase is Phase.TURN and self._waiting:
            self._say([dialogue.when_ready(self.game, wake)], remember=False)  # --ready
        elif (
            phase is Phase.TURN and name in TURN_KEYS and (ended := self._as_turn_ended(name, when))
        ):
            line = dialogue.key_at_turn_end(
                name, ended, self.game.to_play.name, wake=None if said is None else wake
            )
            self._say([line], remember=False)
        elif phase is Phase.TURN and self._go_pending and name in ("correct", "pass", "foul"):
            # "Go!" is out (shown at once, still being said, or unread by a screen reader
            # this key has just stopped): a turn's own key shows the turn has begun, and
            # was refused as "only during a turn" (session 59's audit)
            self._start_turn(now)
            self._command(name, now, said=said)
        elif phase is not Phase.TURN or not self.timer.started:
            self._say([f"{name.title()} works only during a turn."])
        elif name == "correct":
            if self._heard_correct is not None:
                scored, at, card = self._heard_correct
                self._heard_correct = None
                # (a key pressed before it but handled after it was for that card too;
                # once that card is undone or another has come, C is for the card shown;
                # "host correct" by when it was said, not when its judgement came)
                if when - at <= ALREADY_COUNTED_SECONDS and card == self._card_key:
                    self._say([dialogue.already_counted(scored)], remember=False)
                    return
            self._apply(Correct(), now, entry_text=self.entry_text())
        elif name in ("pass", "foul") and when < self._card_at:
            # pressed (or said) before the card in play came, handled after: it was
            # about the card before, which has gone; this one must not pay for it
            self._say([dialogue.card_changed(name)], remember=False)
        elif name == "pass":
            if not self.game.is_legal(Pass()):
                self._say([dialogue.NO_PASS_LEFT])
            else:
                self._apply(Pass(), now)
        elif name == "foul":
            self._apply(Foul(), now, entry_text=self.entry_text())
        elif name == "time":
            self.timer.pause(now)
            self._buzzer = now
            self._end_turn(now)
        else:
            self._say([f"{name.title()} does nothing now."])

    def _as_turn_ended(self, name: str, when: float) -> str:
        """The name of the team whose turn had just ended when turn key ``name`` was
        pressed (or begun to be said) at ``when`` (:data:`TURN_ENDED_SECONDS`): the key
        is refused; '' when it is the new turn's (so is the same again after it was
        refused)."""
        ended = self._turn_ended
        turn = self.game.state.turn
        if ended is None or ended[2] != turn or when > ended[0] + TURN_ENDED_SECONDS:
            return ""
        if self._late_key == (name, turn):
            return ""  # told once: this one, and any more, are the new turn's
        self._late_key = (name, turn)
        return self.game.teams[ended[1]].name

    def _status(self, now: float) -> str:
        """Status (dialogue.md 4), what a turn waits for (``--ready``), and while the host
        cannot hear, why: the board view's message line, said once when it happened, for
        a player who cannot see it."""
        said = dialogue.status(self.game, self._time_left(now), paused=self.timer.paused)
        if self._waiting and self.game.phase is Phase.TURN:
            said += " " + dialogue.when_ready(self.game, self._wake())  # nothing runs yet
        if self._wake() is None:
            said = f"{said} {self._message or dialogue.NOT_LISTENING}"
        return said

    def _pass_round(self, now: float) -> None:
        """A round's card nobody can get: another is drawn, the round goes on (the rules
        are silent; the engine's draw of another card, as for two teams at once)."""
        self.claims.clear()
        self._apply(ControlSimultaneous(), now, entry_text=self.entry_text(), passed=True)

    def _ask(self, action: str, question: str, now: float) -> None:
        """Ask yes/no before something destructive (dialogue.md 2).  A running turn's
        timer waits for the answer: a "no" must not have cost the describer seconds
        (dialogue.md 7), and a "yes" to quitting saves the turn paused."""
        self._confirm = action
        self._confirm_until = now + CONFIRM_SECONDS
        if self.game.phase is Phase.TURN and self.timer.pause(now):
            self._held_for_question = True
        self._say([question])

    def _drop_question(self, now: float) -> None:
        """Close a yes/no question left open, saying it is a "no" (dialogue.md 12: a
        question that lapses unsaid leaves a late Y a mystery, "Key y does nothing"),
        and let the turn's timer go on if the question held it."""
        if self._confirm is None:
            return
        lapsed, self._confirm, self._confirm_until = self._confirm, None, None
        said = [dialogue.NOT_QUITTING if lapsed == "quit" else "Nothing undone."]
        if self._held_for_question:
            self._held_for_question = False
            if self.timer.resume(now):
                said.append(dialogue.go_on(self.timer.left(now)))
        self._say(said)

    def _confirmed(self, action: str, now: float) -> None:
        self._held_for_question = False  # quitting saves it paused; an undo ends the turn
        if action == "quit":
            self.stop("quit")
        elif self._last_ended_a_turn():
            self._undo(now)
        else:
            self._say(["Nothing undone: the game has moved on."])

    def _last_ended_a_turn(self) -> bool:
        """Whether the last input ended a timed turn: time up, or a foul under
        ``foul-penalty=end-turn`` (undoing it asks first, dialogue.md 2)."""
        if not self.game.inputs or not isinstance(self.game.inputs[-1], TimeUp | Foul):
            return False
        probe = Game.from_data(self.game.to_data())
        probe.undo()
        now = self.game.state
        return probe.state.phase is Phase.TURN and (
            probe.state.turn != now.turn or now.phase is not Phase.TURN
        )

    def _undo_team(self) -> int:
        """The team whose turn the last input ended (the one before the current state)."""
        inputs = self.game.inputs
        probe = Game.from_data(self.game.to_data())
        if inputs:
            probe.undo()
        return probe.state.to_play

    def _hush(self) -> None:
        """X: stop talking now and drop what is queued.  Nothing else changes: a question
        asked stays open, the screen keeps showing everything, and ``a`` says it again."""
        self.announcer.stop()

    def _peek(self, now: float) -> None:
        """K: the describer sees the card for a moment when it is not always shown; with
        a private card voice (``--card-audio``) K says it again there instead.

        Only the card in play when K was pressed: the next one (after a correct guess,
        or the next team's) is not shown unasked, since in line mode a screen reader
        reads it to the table; K again shows it again."""
        if not self.entry_text():
            self._say([dialogue.NO_CARD])
            return
        if self.card_announcer is not None and self.card_announcer.audible:
            # the describer has a private voice: the card again, there and only there
            self._card_said = None
            self._say_card()
            if not self.options.show_card:
                return
        if not self.options.show_card:
            if self._peek_until is not None:
                self._peek_until = None
                self._show(now)  # hidden first, so that the line mode says it again
            self._peek_until = now + CARD_PEEK_SECONDS
            self._peek_card = self.game.current_card
        else:
            # always shown: hidden for a moment, so that the line mode prints it again
            # (K did nothing there, and a describer who missed the card had no way back)
            self._card_hidden = True
            self._show(now)
            self._card_hidden = False
        self._show(now)

    def _time_left(self, now: float) -> float | None:
        if self.game.phase is Phase.TURN and self.timer.started:
            return self.timer.left(now)
        return None

    def _pause(self, name: str, now: float) -> None:
        self._pause_or_go_on(name, now)
        self._save()  # paused or waiting is saved as such (a resumed turn waits again)

    def _pause_or_go_on(self, name: str, now: float) -> None:
        if self._waiting and self.game.phase is Phase.TURN:
            # the describer is ready: space or "resume" starts the turn
            self._waiting = False
            self._go_pending = True
            self._say([dialogue.GO])
            return
        if self._go_pending and name == "pause" and self.game.phase is Phase.TURN:
            # space while the turn is announced, before its timer starts: the turn
            # waits for its describer (as with --ready) instead of starting anyway
            self._go_pending = False
            self._waiting = True
            self._say([dialogue.HELD, dialogue.when_ready(self.game, self._wake())])
            self._show(now)
            return
        if self.game.phase is not Phase.TURN or not self.timer.started:
            self._say(["The timer is not running."])
            return
        if name == "pause" and self.timer.running:
            self.timer.pause(now)
            self._say([dialogue.paused(self.timer.left(now), dialogue.resume_hint(self._wake()))])
        elif self.timer.resume(now):
            self._say([dialogue.go_on(self.timer.left(now))])
        elif self.timer.left(now) <= 0:
            self._say([dialogue.TIME_IS_UP])
        else:
            self._say(["The timer is running."])
        self._show(now)

    def _push(self, team: str, now: float) -> None:
        idx = self._team_index(team)
        if idx is None:
            self._say([f"There is no team {team}."])
            return
        self._apply(Choose.push(self.game.teams[idx].name), now)

    # ----- changing the game ---------------------------------------------------------------

    def _end_turn(self, now: float) -> None:
        """The buzzer (plus the grace) has passed: judge speech still in the recogniser,
        then end the turn (R8)."""
        self._ending_at = None
        if self.game.phase is Phase.TURN:
            # after the grace, not at the buzzer: the chime shuts the microphone, and a
            # guess may still be ending (R8); before what the last words were judged,
            # which it no longer hides ("Garden, correct. Ten." after it, then "Time!")
            self._time_cue(Sound.TIME_UP, now)
        if self.listening is not None and self.mic_live:
            # Batches judged but not yet taken from the queue come with it (R8).
            judgements = self.listening.flush()
            if judgements:
                self._heard(judgements)
        if self.game.phase is Phase.TURN:
            self._idle = not self._played()
            self._apply(TimeUp(), now)
            self._idle = False
        self._buzzer = None

    def _played(self) -> bool:
        """Whether anybody played the turn now ending: since its timer started, a key,
        or words the recogniser wrote, judged or not (a table that has got up from the
        game is silent; a team that got nothing still talked)."""
        return self._stirred or self.game.state.correct > 0

    def _apply(
        self,
        inp: Input,
        now: float,
        *,
        entry_text: str = "",
        judgement: Judgement | None = None,
        quiet: bool = False,
        passed: bool = False,
        together: tuple[str, ...] = (),
    ) -> None:
        before = self.game.state
        self._drop_question(now)  # the game moved on: a question lapses
        try:
            self.game.apply(inp)
        except RulesError as exc:
            self._say([dialogue.not_now(exc)], remember=False)
            return
        after = self.game.state
        turn_over = after.turn != before.turn or after.phase is not Phase.TURN  # or a landing
        # foul-penalty=end-turn, or T pressed (a mistaken T is undone with its time back)
        ended_early = turn_over and isinstance(inp, Foul | TimeUp) and before.phase is Phase.TURN
        if ended_early and self.timer.started and (left := self.timer.left(now)) > 0:
            self._ended_early[len(self.game.inputs)] = left  # the buzzer's own end: none
        if before.phase is Phase.TURN and after.turn != before.turn:
            self._turn_ended, self._late_key = (now, before.to_play, after.turn), None
        said = (
            []
            if quiet
            else dialogue.applied(
                self.game,
                before,
                inp,
                entry_text=entry_text,
                judgement=judgement,
                passed=passed,
                together=together,
            )
        )
        if after.turn != before.turn or after.phase is not before.phase:
            if not quiet:  # advice kept back until the turn ended
                said, self._held = [*said, *self._held], []
            said += self._enter_phase(now)
        elif after.current_card != before.current_card:
            self.claims.clear()
        self._say(said)
        self._changed(now, save=True)

    def _undo(self, now: float) -> None:
        before = self.game.state
        try:
            inp = self.game.undo()
        except NothingToUndoError:
            self._say([dialogue.NOTHING_TO_UNDO])
            return
        said = [dialogue.undone(self.game, inp)]
        after = self.game.state
        self.claims.clear()
        ended = len(self.game.inputs) + 1
        left = self._ended_early.pop(ended, None) if isinstance(inp, Foul | TimeUp) else None
        if after.phase is Phase.TURN and after.turn == before.turn and self.timer.started:
            pass  # same turn, the timer runs on
        elif after.phase is Phase.TURN and left is not None and left > 0:
            # the foul or T that ended the turn is undone: the turn is back with the time
            # it had then, paused until the describer goes on (not a fresh full timer)
            self.timer.start(now, left)
            self.timer.pause(now)
            self._go_pending = self._waiting = False
            said.append(dialogue.paused(left, dialogue.resume_hint(self._wake())))
        elif after.phase is Phase.TURN and isinstance(inp, TimeUp):
            self.timer.expire()  # its time is spent; its count can still be fixed
            self._go_pending = self._waiting = False
            said.append(dialogue.TIME_SPENT)
        else:
            said += self._enter_phase(now)
        self._say(said)
        self._changed(now, save=True)

    def _enter_phase(self, now: float, *, hold: bool = False) -> list[str]:
        """Reset per-turn state for the phase just entered; return its prompt (``hold``:
        a turn waits for its describer whatever the options)."""
        self.claims.clear()
        self.timer.reset()
        self._resumed_left = None
        self._turn_start = None
        self._buzzer = None
        self._ending_at = None
        turn = self.game.phase is Phase.TURN
        wait = hold or self.options.ready or self._idle  # idle: nobody played the last turn
        self._waiting = turn and wait
        self._go_pending = turn and not wait
        if self.game.phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND):
            self._turn_start = now
        if self.listening is not None:
            self.listening.referee.reset()
        prompt = dialogue.phase_prompt(self.game, self._wake(), ready=self._waiting)
        if turn and self._idle and not self.options.ready:
            prompt.insert(0, dialogue.NOBODY_PLAYED)
        return prompt

    def _turn_running(self) -> bool:
        """A timed turn or a CONTROL round is under way (advice waits for its end)."""
        if self.game.phase is Phase.TURN:
            return self.timer.started
        return self.game.phase in (Phase.CONTROL_ROUND, Phase.FINISH_ROUND)

    def _wake(self) -> str | None:
        """The wake word while the host can hear commands; None while only keys work."""
        return self.options.wake_word if self.listening is not None and self.mic_live else None

    # ----- output --------------------------------------------------------------------------

    def _unread(self, line: str) -> bool:
        """Whether the player's screen reader was stopped by a key before it read
        ``line`` (:meth:`ScreenReaderAnnouncer.unread`); False for any other voice."""
        unread = getattr(self.announcer, "unread", None)
        return bool(unread is not None and unread(line))

    def _quiet(self, now: float) -> bool:
        return self.announcer.drain(0) and not self.announcer.is_speaking(now)

    def _voices_back(self, now: float) -> None:
        """A voice whose output did not open at start (:class:`ReturningAnnouncer`) is
        tried again now and then while nothing is said, and takes over only outside a
        timed turn or round (never over the describer, when the microphone gate would
        drop guesses), nor while a yes/no question is open (what happens now would be
        said over it): at the latest as the next turn is about to start.  The host says
        once that it is back, and what happens now, which was only printed."""
        voice, card = self.announcer, self.card_announcer
        waiting = [
            v for v in (voice, card) if isinstance(v, ReturningAnnouncer) and not v.recovered
        ]
        if not waiting or not self._quiet(now) or not all(v.drain(0) for v in waiting):
            return
        take = not self._turn_running() and self._confirm is None
        if isinstance(voice, ReturningAnnouncer) and voice.recover(dialogue.SPEECH_BACK, take=take):
            lines = [dialogue.SPEECH_BACK]  # printed by the voice too
            if self.game.phase is not Phase.TURN or self._go_pending or self._waiting:
                lines += dialogue.phase_prompt(self.game, self._wake(), ready=self._waiting)
            self._say(lines, remember=False)
        if isinstance(card, ReturningAnnouncer) and card.recover(take=take):
            self._say([dialogue.CARD_AUDIO_BACK], remember=False)
            self._card_said = None  # the card in play, to the describer's voice now
            self._say_card()

    def say(self, text: str) -> None:
        """Announce ``text`` (notices from the wiring, e.g. the recogniser chosen)."""
        self._say([text])

    def _say(self, items: Sequence[str | Sound], *, remember: bool = True, shown: str = "") -> None:
        """Announce ``items``, texts and chimes in turn; ``remember`` False keeps them
        out of what "repeat" repeats (which says the texts); ``shown`` is shown as the
        host's line instead of the texts (the same news with a device's reason, which
        is not said)."""
        items = [i for i in items if isinstance(i, Sound) or i.strip()]
        lines = [i for i in items if isinstance(i, str)]
        if not lines:
            return
        now = self.clock.now()
        for item in items:
            self._utter(item, now)
        if remember:
            self._last_group = " ".join(lines)
        self._last_said = shown or " ".join(lines)  # the screen's host line: help, status too
        self._show(now)

    def _utter(self, item: str | Sound, now: float) -> None:
        """Queue a text or a chime, and keep it (a chime by its label) with the
        transcript of what was said and the log."""
        if isinstance(item, Sound):
            self.announcer.sound(item)
        else:
            self.announcer.say(item)
        said = item.label if isinstance(item, Sound) else item
        self.said.append(Said(said, now))
        if self._log is not None:
            self._log(said)

    def _time_cue(self, cue: Sound, now: float) -> None:
        """A time cue: its chime (shown in words on the screen), or its words alone."""
        if self.options.time_cue == "words":
            self._say([cue.words], remember=False)
            return
        self._utter(cue, now)
        if cue.words:
            self._last_said = cue.words
            self._show(now)

    def told(self, message: str) -> None:
        """``message`` (a microphone notice) has already been said to the players, by the
        team set-up before the game: the same news is not said again until the state of
        the microphone changes (dialogue.md 10: say so once)."""
        self._told = message

    def _mic(self, item: MicStatus) -> None:
        now = self.clock.now()
        # Once per change of state: news the players have just heard is shown, not said.
        fresh = item.message != self._told
        if item.listening and not self.mic_live and self.listening is not None:
            self.mic_live = True
            self._tell(item, "Listening again.")
        elif not item.listening and self.mic_live:
            self.mic_live = False
            if fresh:
                self._tell(item, "Play on with the keys; question mark for help.")
        elif not item.listening and self.listening is None and not self._message and fresh:
            self._tell(item, "Play with the keys; question mark for help.")
        self._message = item.message
        self._show(now)

    def _tell(self, item: MicStatus, then: str) -> None:
        """Say ``item``'s message and ``then``; its ``shown`` form is shown instead."""
        self._told = item.message
        said = f"{item.message} {then}"
        self._say([said], shown=f"{item.shown} {then}" if item.shown else "")

    def _changed(self, now: float, *, save: bool = False) -> None:
        state = self.game.state
        card = (state.current_card, state.deck_cycle, state.deck_pos, state.turn, state.phase)
        if card != self._card_key:
            self._card_key, self._card_at = card, now
        if self.listening is not None:
            self._told_situation = self.situation()
            self.listening.update(self.context(), self._told_situation)
        self._say_card()
        if save:
            self._save()
        self._show(now)

    def _say_card(self) -> None:
        """The new card to the describer's private voice, once per card."""
        key = (self.game.current_card, self.game.category)
        if key == self._card_said:
            return
        self._card_said = key
        text = self.entry_text()
        if self.card_announcer is not None and text and self.game.category is not None:
            self.card_announcer.say(f"{self.game.category}: {text}", interrupt=True)

    def _save(self) -> bool:
        """Save after every change; once the game is won the save is removed, so that
        ``--resume`` finds no game in progress (an undo of the win saves it again).
        True when the slot (if any) now holds the game as it is."""
        if self.save_slot is None:
            return True
        now = self.clock.now()
        left = self._time_left(now)
        if left is None and self.game.phase is Phase.TURN:
            left = self._resumed_left  # a resumed turn keeps its time until it goes on
        # paused, or waiting for its describer: resumed, the turn waits again
        held = self._waiting or (self.timer.paused and self.timer.left(now) > 0)
        return save_or_discard(
            self.save_slot,
            self.game,
            self.save_options,
            self.say,
            time_left=left,
            held=held,
            ended_early=self._ended_early,
        )

    def _show(self, now: float) -> None:
        if self.screen is None:
            return
        timer = None
        if self.game.phase is Phase.TURN:
            left = self.timer.left(now)
            if not self.timer.started and self._resumed_left is not None:
                left = min(self.timer.seconds, self._resumed_left)  # a resumed turn's own
            # stopped at the buzzer (or re-opened by undo with its time spent) is time up,
            # not a pause
            paused = self.timer.paused and left > 0
            timer = TimerView(left, self.timer.seconds, paused=paused)
        if self._peek_until is not None and self.game.current_card != self._peek_card:
            self._peek_until = None  # the card K showed is gone: the next is not shown
        shown = (self.options.show_card and not self._card_hidden) or self._peek_until is not None
        card = (self.entry_text() or None) if shown else None
        self.screen.update_model(
            screen_model_from_game(
                self.game,
                timer=timer,
                card=card,
                heard=self.last_heard,
                judgement=self.last_judgement,
                judged=self.last_judged,
                announcement=self._last_said,
                message=self._message,
            )
        )
