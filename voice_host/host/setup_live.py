"""Running the team set-up aloud: the announcer speaks, the microphone and the keys answer.

:class:`SetupRunner` drives a :class:`~voice_host.host.setup.SetupDialogue`
with injected sources, so a test runs it on fixture audio in audio time with a
recording announcer and scripted keys, and ``voice-host play`` runs it on the
microphone and the terminal (:func:`set_up_teams`).

One thread does everything, chunk by chunk: the keys waiting are read first
(without waiting), then the chunk goes to the recogniser, unless it touches the
host's own speech plus its tail (``Announcer.gate_overlaps``), which is dropped
with the utterance in progress (speech overlapping the host's voice is never
taken as an answer; anything said before a key answer is stale).  The
recogniser restarts on the next question's words when the gate opens again.

What counts as heard: per utterance, the ``final`` key-phrase hits that the
transcript confirmed (``confirmed`` True), else the ``source="free"``
transcript when it is short (at most :data:`MAX_ANSWER_WORDS` words: longer
talk is the room chatting, not an answer).  An utterance with no words (a
cough) is ignored.  No wake word is needed during set-up (see
:mod:`voice_host.host.setup`).

Without a microphone or recogniser (or when the microphone fails) the host says
so once and the set-up goes on by keys alone.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import random
import select
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from voice_host.announce.protocol import Announcer
from voice_host.announce.read_aloud import ScreenReaderAnnouncer
from voice_host.announce.returning import ReturningAnnouncer
from voice_host.audio.chunk import AudioChunk
from voice_host.errors import UsageError, VoiceHostError
from voice_host.host.clock import AudioClock, Clock, restamped
from voice_host.host.dialogue import NO_MICROPHONE, SPEECH_BACK, no_microphone
from voice_host.host.keys import HUSH
from voice_host.host.setup import GLOBAL_WORDS, SetupDialogue, SetupResult
from voice_host.rules import Team
from voice_host.speech.events import HeardWord, ListenContext, RecognitionEvent, Recognizer

if TYPE_CHECKING:
    from voice_host.config import HostConfig
    from voice_host.terminal_keys import KeySource

#: A key reader: one key within ``timeout`` seconds, or None; :class:`EOFError` at the end.
KeyReader = Callable[[float], str | None]
#: Longest transcript (in words) taken as an answer; longer is table talk.
MAX_ANSWER_WORDS = 4
#: Seconds a key reader waits per poll when there is no microphone.
KEY_POLL_SECONDS = 0.1


@dataclass(frozen=True)
class SetupOutcome:
    """How the set-up ended."""

    result: SetupResult | None
    """The teams and first team; None when the players chose to type the teams."""
    typed: bool
    """The players pressed T: ask for typed team names (outside this module)."""
    heard: tuple[tuple[str, ...], ...] = ()
    """Each utterance's words as given to the dialogue, in order (logs and tests)."""
    voice: bool = False
    """Whether the microphone and recogniser were used (False: keys alone)."""
    resumed: bool = False
    """The players chose to go on with the saved game instead (no teams set up)."""


def listen_context(dialogue: SetupDialogue) -> ListenContext:
    """What to listen for at the dialogue's current question (answers and global words)."""
    words = dialogue.expected_words()
    answers = tuple(w for w in words if w not in GLOBAL_WORDS)
    commands = tuple(w for w in words if w in GLOBAL_WORDS)
    return ListenContext(answers=answers, commands=commands, free_text=True)


#: Answers heard only in an utterance of at most :data:`SHORT_UTTERANCE`
#: transcript words, as a player who means one says it alone.  "undo" takes an
#: answer back and sounds like "and do", "a new" and "and two": the spotter fired
#: it over "a new game", "two" and table talk ("hang on a second") in
#: ``benchmarks/setup_answers.py`` (Backspace does it too).  "resume", which the
#: saved-game offer takes for "yes" though it asks for "yes", ended table talk
#: ("okay everyone listen", written "ok everyone resume") and went on with the
#: saved game.
CAREFUL_WORDS = frozenset({"undo", "resume"})
#: The longest utterance (transcript words) a careful word is heard in.
SHORT_UTTERANCE = 2


def _overlaps(a: HeardWord, b: HeardWord) -> bool:
    """Whether two spotted words cover mostly the same stretch of audio."""
    shared = min(a.end, b.end) - max(a.start, b.start)
    return shared > 0.5 * min(a.end - a.start, b.end - b.start)


def _spotted(finals: Sequence[RecognitionEvent], written: set[str]) -> list[HeardWord]:
    """The confirmed key-phrase hits, in spoken order, one per stretch of audio.

    The spotter fires several of a question's words over one word said ("undo" and
    "new" over "a new game"); of two different words at one place, the one the
    transcript wrote stands.
    """
    hits = sorted(
        (w for e in finals if e.source != "free" and e.confirmed for w in e.words),
        key=lambda w: w.start,
    )
    kept: list[HeardWord] = []
    for hit in hits:
        rival = next((k for k in kept if k.text != hit.text and _overlaps(k, hit)), None)
        if rival is None:
            kept.append(hit)
        elif hit.text in written and rival.text not in written:
            kept[kept.index(rival)] = hit
    return kept


def utterance_words(events: Sequence[RecognitionEvent]) -> list[tuple[str, ...]]:
    """The words of each finished utterance in ``events`` worth giving to the dialogue.

    Final events are grouped by their utterance span.  Confirmed key-phrase hits
    come first (in spoken order; of two at one place, the one the transcript
    wrote), then, only when there are none, a short free transcript.  A careful
    word (:data:`CAREFUL_WORDS`) counts only in a short utterance.  Utterances
    with none of these are left out.
    """
    groups: dict[tuple[float, float] | None, list[RecognitionEvent]] = {}
    for event in events:
        if event.kind == "final":
            groups.setdefault(event.utterance, []).append(event)
    out: list[tuple[str, ...]] = []
    for finals in groups.values():
        free = tuple(w.text for e in finals if e.source == "free" for w in e.words)
        short = len(free) <= SHORT_UTTERANCE

        def heard(word: str, short: bool = short) -> bool:
            return short or word not in CAREFUL_WORDS

        hits = [w.text for w in _spotted(finals, set(free)) if heard(w.text)]
        if hits:
            out.append(tuple(hits))
        elif 0 < len(free) <= MAX_ANSWER_WORDS and any(heard(w) for w in free):
            out.append(tuple(w for w in free if heard(w)))
    return out


class SetupRunner:
    """Speaks the set-up's questions and feeds it keys and heard answers until it is done.

    ``keys`` reads one key (``keys(timeout)``; None when none came; :class:`EOFError`
    when there will be no more).  ``chunks`` and ``recognizer`` are the microphone path
    (None for keys alone; ``no_voice`` then says why, once).  ``reason`` is given the
    device's own words when the microphone fails (the runner says plain ones).  When
    ``clock`` is an
    :class:`~voice_host.host.clock.AudioClock` it is moved to the end of each chunk
    (replays and tests run on audio time); otherwise chunks must already be stamped on
    ``clock`` (see :func:`restamped`).
    """

    def __init__(
        self,
        dialogue: SetupDialogue,
        *,
        announcer: Announcer,
        clock: Clock,
        keys: KeyReader,
        recognizer: Recognizer | None = None,
        chunks: Iterable[AudioChunk] | None = None,
        no_voice: str = "",
        reason: Callable[[str], None] = lambda _line: None,
    ) -> None:
        self.dialogue = dialogue
        self.announcer = announcer
        self.clock = clock
        self.keys = keys
        self.recognizer = recognizer
        self.chunks = chunks
        self.no_voice = no_voice
        self.reason = reason
        self.notice = ""
        """The no-voice notice said (``No microphone: ...``), or empty: the game does not
        say the same news again (see :meth:`voice_host.host.core.Host.told`)."""
        self._heard: list[tuple[str, ...]] = []
        self._active: ListenContext | None = None
        self._gated = False

    def _say(self, texts: Iterable[str]) -> None:
        for text in texts:
            self.announcer.say(text)

    def _notice(self, notice: str) -> None:
        """Say why there is no voice (once), and remember it for the game after."""
        self.notice = notice
        self.dialogue.voice = False  # from now on the questions name the keys
        self.announcer.say(f"{notice} Answer with the keys.")

    def _key(self, key: str) -> None:
        if key.lower() in HUSH:
            self.announcer.stop()  # X or Escape: stop talking (the question stays open)
            return
        asked = self.dialogue.prompt()
        self._reply(self.dialogue.press(key), asked)

    def _hear(self, events: Sequence[RecognitionEvent]) -> None:
        for words in utterance_words(events):
            if self.dialogue.finished:
                return
            self._heard.append(words)
            asked = self.dialogue.prompt()
            self._reply(self.dialogue.hear(words), asked)

    def _reply(self, lines: list[str], asked: str) -> None:
        """Say the dialogue's reply to an answer given while ``asked`` was the question.

        A voice whose output did not open at start (:class:`ReturningAnnouncer`) takes
        over here once it has found its output, and only when the answer moved the
        set-up on (another question, or the end): the reply then asks the next question
        in the voice, after "Speech output is back.".  Never while a question is open,
        waiting for its answer (a yes/no question too): a repeat, help or a miss leaves
        it printing, as the game's host does not speak over a question."""
        voice = self.announcer
        moved = self.dialogue.finished or self.dialogue.prompt() != asked
        if isinstance(voice, ReturningAnnouncer) and voice.recover(SPEECH_BACK, take=moved):
            lines = [SPEECH_BACK, *lines]  # printed by the voice too
        self._say(lines)

    def _voice_wanted(self) -> None:
        """Start another attempt at a missing output when one is due (what it finds is
        taken only by :meth:`_reply`): called for every chunk and every key poll, as
        the game's host calls it at every tick."""
        voice = self.announcer
        if isinstance(voice, ReturningAnnouncer):
            voice.recover(take=False)

    def _keys_waiting(self) -> None:
        """Every key already pressed (none is waited for)."""
        while not self.dialogue.finished:
            key = self.keys(0.0)
            if key is None:
                return
            self._key(key)

    def _feed(self, recognizer: Recognizer, chunk: AudioChunk) -> None:
        if self.announcer.gate_overlaps(chunk.start_time, chunk.end_time):
            if not self._gated:
                self._gated = True
                recognizer.finish()  # speech under the host's voice, or stale: dropped
                self._active = None
            return
        self._gated = False
        context = listen_context(self.dialogue)
        if context != self._active:
            if self._active is not None:
                recognizer.finish()  # answered by key meanwhile: that speech is stale
            recognizer.start(context)
            self._active = context
        self._hear(recognizer.feed(chunk))

    def _listen(self, recognizer: Recognizer, chunks: Iterable[AudioChunk]) -> bool:
        """Run on the microphone until done or the audio ends; False if it failed."""
        try:
            for chunk in chunks:
                if isinstance(self.clock, AudioClock):
                    self.clock.feed(chunk)
                self._voice_wanted()
                self._keys_waiting()
                if self.dialogue.finished:
                    return True
                self._feed(recognizer, chunk)
                if self.dialogue.finished:
                    return True
            if self._active is not None:
                self._hear(recognizer.finish())
        except (VoiceHostError, OSError) as exc:
            self.reason(no_microphone(exc))
            self._notice(NO_MICROPHONE)
            # The question again: the notice came after it (or cut into the set-up).
            self.announcer.say(self.dialogue.prompt())
            return False
        return True

    def run(self) -> SetupOutcome:
        """Ask until the teams are set (or typing was chosen); return the outcome.

        Raises :class:`~voice_host.errors.UsageError` when the keys run out first.
        """
        voice = self.recognizer is not None and self.chunks is not None
        if not voice and self.no_voice:
            self._notice(self.no_voice)
        self._say(self.dialogue.start())
        if self.recognizer is not None and self.chunks is not None:
            voice = self._listen(self.recognizer, self.chunks)
        while not self.dialogue.finished:
            self._voice_wanted()
            try:
                key = self.keys(KEY_POLL_SECONDS)
            except EOFError:
                raise UsageError("the teams were not all set up (end of input)") from None
            if key is not None:
                self._key(key)
        return SetupOutcome(
            self.dialogue.result,
            self.dialogue.wants_typing,
            tuple(self._heard),
            voice,
            self.dialogue.resumed,
        )


# ----- the terminal ------------------------------------------------------------------------


class _FdKeys:
    """Keys from a pipe or file read by its descriptor: each non-blank character of a
    line is a key, an empty line is Enter (a space, as for the game's line keys).

    Bytes are read with ``os.read`` so the stream's own buffer stays empty for whoever
    reads it next (the game's key thread).
    """

    def __init__(self, fd: int, write: Callable[[str], None]) -> None:
        self._fd = fd
        self._write = write
        self._pending: list[str] = []

    def _line(self) -> str | None:
        data = bytearray()
        while True:
            byte = os.read(self._fd, 1)
            if not byte:
                return data.decode("utf-8", errors="replace") if data else None
            if byte == b"\n":
                return data.decode("utf-8", errors="replace").rstrip("\r")
            data += byte

    def read_key(self, timeout: float) -> str | None:
        """The next key, or None when nothing arrives within ``timeout`` seconds."""
        if not self._pending:
            ready, _, _ = select.select([self._fd], [], [], timeout)
            if not ready:
                return None
            line = self._line()
            if line is None:
                raise EOFError
            self._pending = [ch for ch in line if not ch.isspace()] or [" "]
        return self._pending.pop(0)

    def read_line(self, prompt: str) -> str | None:
        """One answer line, after showing ``prompt``."""
        self._write(prompt)
        return self._line()


def _fileno(stream: TextIO) -> int | None:
    try:
        return stream.fileno()
    except (OSError, ValueError, io.UnsupportedOperation, AttributeError):
        return None


def _teams_spec_of(teams: Sequence[Team]) -> str:
    return ";".join(f"{t.name}:{','.join(t.players)}" for t in teams)


def set_up_teams(
    config: HostConfig,
    *,
    announcer: Announcer,
    recognizer: Recognizer | None,
    why: str,
    stdin: TextIO,
    write: Callable[[str], None],
    clock: Clock,
    on_notice: Callable[[str], None] | None = None,
    saved: str = "",
) -> HostConfig:
    """Set the teams up at the table (voice and keys; T for typed names); return ``config``
    with ``teams`` and ``first`` filled in.  ``saved`` (what a saved game holds, in words:
    :func:`~voice_host.host.saved_game.saved_offer`) first offers to go on with that game
    instead; if the players do, ``config`` comes back with ``resume`` set.

    ``recognizer`` None (``why`` says why) sets up by keys alone.  The microphone is
    opened here and closed before returning (the game opens its own).  ``on_notice``
    is told the no-voice notice the set-up said (``No microphone: ...``, or ``why``), if
    any, so the game does not say it again.
    """
    from voice_host.config import MAX_TEAMS
    from voice_host.terminal_keys import (
        LineKeys,
        TerminalKeys,
        ToldKeys,
        ask_first,
        ask_teams,
    )

    def spoken(text: str) -> None:
        """The typed prompts (after T): printed, and said by a voice that can be heard,
        so that a player listening to the host is not left in silence."""
        write(text)
        if announcer.audible:
            announcer.say(text.strip())

    source: KeySource
    fd = _fileno(stdin)
    mode: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
    if stdin.isatty():
        terminal = TerminalKeys(stdin, spoken)
        source = terminal
        mode = terminal.cbreak()
    elif fd is not None:
        source = _FdKeys(fd, spoken)
    else:
        source = LineKeys(stdin, spoken)
    dialogue = SetupDialogue(random.Random(config.seed), saved=saved)
    microphone = None
    chunks: Iterable[AudioChunk] | None = None
    no_voice = why

    def reason(line: str) -> None:
        # the device's own words, for a player who reads them: said plainly, and not
        # printed for a screen reader, which would read them aloud all the same
        if not config.screen_reader:
            write(line)

    if recognizer is not None:
        from voice_host.audio.microphone import MicrophoneSource

        microphone = MicrophoneSource(config.device)
        try:
            microphone.check()  # no microphone: said before the first question, not after
        except (VoiceHostError, OSError) as exc:
            reason(no_microphone(exc))
            no_voice, recognizer, microphone = NO_MICROPHONE, None, None
        else:
            chunks = restamped(microphone, clock)
            no_voice = ""
    if isinstance(announcer, ScreenReaderAnnouncer):
        source = ToldKeys(source, announcer.silenced, clock.now)  # a key stops the reader
    runner = SetupRunner(
        dialogue,
        announcer=announcer,
        clock=clock,
        keys=source.read_key,
        recognizer=recognizer,
        chunks=chunks,
        no_voice=no_voice,
        reason=reason,
    )
    try:
        with mode:
            outcome = runner.run()
    finally:
        if microphone is not None:
            microphone.close()
        if on_notice is not None and runner.notice:
            on_notice(runner.notice)
    if outcome.resumed:
        return dataclasses.replace(config, resume=True)
    if outcome.result is not None:
        result = outcome.result
        return dataclasses.replace(config, teams=result.teams, first=result.first_name)
    teams = ask_teams(source, spoken, MAX_TEAMS)
    first = ask_first(teams, source, spoken, random.Random(config.seed))
    return dataclasses.replace(config, teams=_teams_spec_of(teams), first=teams[first].name)
