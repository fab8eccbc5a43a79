"""Spoken commands: the wake word, then a command word (and a team for some).

Precision first: a command the players did not give is worse than one missed
(a key does the same thing).  So:

* the wake word is "host" or a spelling a recogniser was seen to write for it
  (:data:`WAKE_VARIANTS`, measured with pocketsphinx on flite voices: "post
  pass", "most foul", "coast to pause", "a toast to quit");
* a variant other than "host"/"hosts" (or its plural: "posts pause") counts
  only at the start of a short command utterance (so "the post office" in a
  clue never wakes the host); so does its possessive ("post's pause");
* any other word counts as the wake word only by sound, and only in the shape
  of a spoken command and nothing else (:meth:`CommandReader.read`,
  ``whole=True``: the recogniser's whole utterance): the word sounds like the
  wake word (:func:`~voice_host.referee.matching.phone_class_similarity` at
  least :data:`SOUND_WAKE_MIN`: "pass", "test", "phone" for "host"); the
  command word comes right after it, followed by at most one
  :data:`SOUND_WAKE_TAIL` word; and before it come only up to
  :data:`MAX_ATTENTION_WORDS` attention words ("okay", "hey") or stray
  letters (the recogniser's "l k" for "okay") - at least one of them, except
  in a SPIN choice, where no describer is talking.  The word is not one that
  leads into a command word in ordinary talk (:data:`NOT_WAKE`: "that's
  correct", "let's pass"), nor a clue word.  So "okay host status" heard as
  "l k pass status" is a command, while a clue ending "... a bus pass", or
  "bus pass" alone, or "you need their help" is not;
* at most one filler word ("to", "the", "a") may sit between wake word and
  command, as recognisers insert them;
* the command word must be one of the command's spellings
  (:data:`COMMAND_WORDS`), or sound the same (identical phones) when a phone
  lookup is available; no fuzzy spelling.  Right after the wake word itself
  (not a variant or sound-alike), the other words players use for a command
  count too (:data:`COMMAND_SYNONYMS`: "host stop" pauses);
* after the command word come only words that may follow or close a command
  (:data:`COMMAND_TAIL`; a last word that sounds like "please", "thanks" or
  "now", :data:`POLITE`; the breath a recogniser writes, :data:`COMMAND_BREATH`)
  - after a variant, at most one (:data:`MAX_AFTER_LOOSE`) or a thanks of two
  ("thank you", :data:`THANKS_CLOSE`; not after "most", :data:`NOT_THANKED_WAKE`:
  "most correct, thank you" is talk), and the command
  word not a verb's past (:data:`PAST_SPELLINGS`: "the ghost helped out");
* without a wake word there is no command, except a bare team name in a
  CONTROL round (a claim: "blue!") and ``forward``/``push <team>`` in a SPIN
  choice, when the utterance is that short phrase alone (but for the breath
  or garbled "team" a recogniser writes after it: :data:`CLAIM_TAIL`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from voice_host.deck.words import norm_word, normalise, split_words
from voice_host.referee.matching import phone_class_similarity
from voice_host.referee.phones import PhoneLookup
from voice_host.referee.text import Token, is_stray
from voice_host.referee.values import Phase
from voice_host.talk_words import (
    COMMAND_FILLERS,
    COMMAND_LEAD,
    COMMAND_SPELLINGS,
    HOST_SOUND_ALIKES,
    HOST_WRITTEN,
    PAST_SPELLINGS,
)

#: What recognisers write for "host" (exact "host"/"hosts" count anywhere in an
#: utterance; the rest only when the utterance starts with them).
WAKE_EXACT = frozenset({"host", "hosts", "host's"})
WAKE_VARIANTS = HOST_SOUND_ALIKES
#: Words a recogniser may put between wake word and command.
FILLERS = COMMAND_FILLERS
#: Words that may come before a loose wake word at the start ("okay post pass").
LEADING_FILLERS = COMMAND_LEAD
#: Command -> the spellings that count for it.
COMMAND_WORDS: dict[str, frozenset[str]] = COMMAND_SPELLINGS
#: Other words players use for a command.  They count only right after the
#: wake word itself ("host stop", "host wait"), never after a word a
#: recogniser wrote for it or one that sounds like it: "okay, bus stop?" is a
#: guess (Bus stop is a card), and so is "post stop".  "stop" pauses (undone
#: by "host resume") rather than quitting.  Only each command's own name goes
#: into the recogniser's context (:func:`command_phrases`): these count when
#: the recogniser writes them, which pocketsphinx does for common words
#: ("stop", "wait") but not for rarer ones ("skip": never, in five voices,
#: so it is not offered).
COMMAND_SYNONYMS: dict[str, frozenset[str]] = {
    "pause": frozenset({"stop", "wait"}),
    # "host go" starts a turn that waits for its describer (--ready) or a paused timer
    "resume": frozenset({"go", "start"}),
}
#: A sound-alike wake word is at least this similar in sound to the wake word
#: (:func:`~voice_host.referee.matching.phone_class_similarity`; "pass" 0.5,
#: "test" 0.75, "the" 0.25 against "host").  Loose on its own (about a fifth
#: of common English words reach it), so the utterance shape carries the rest.
SOUND_WAKE_MIN = 0.5
#: Words that may come before a sound-alike wake word: a player getting the
#: host's attention.  Stray single letters count too (a garbled "okay") ...
ATTENTION_WORDS = frozenset({"ok", "okay", "hey", "oh"})
#: ... at most this many of them.
MAX_ATTENTION_WORDS = 2
#: The one word that may follow a command after a sound-alike wake word
#: (pocketsphinx writes "you" for the breath after a phrase).
SOUND_WAKE_TAIL = frozenset({"you", "please", "now", "thanks"})
#: Words that lead into a command word in ordinary talk ("that's correct",
#: "let's pass", "just pass", "can't help", "first pass"): never a
#: sound-alike wake word, however they sound.
NOT_WAKE = frozenset(
    {
        "that's",
        "thats",
        "that",
        "this",
        "it's",
        "its",
        "is",
        "isn't",
        "let's",
        "lets",
        "what's",
        "just",
        "must",
        "not",
        "yes",
        "yeah",
        "don't",
        "can't",
        "won't",
        "cannot",
        "i'll",
        "we'll",
        "you'll",
        "first",
        "last",
        "next",
        "best",
        "almost",
    }
)
#: Clue words: a sentence, not a wake word ("you help", "we pass").
CLUE_LEADS = frozenset(
    {"you", "your", "we", "our", "they", "their", "he", "she", "his", "her", "i", "my", "it"}
)
#: Words allowed after a command woken by a loose wake word ("post pass you").
#: Not two, but for a thanks (:data:`THANKS_CLOSE`).
MAX_AFTER_LOOSE = 1
#: The two words that may close a command after a loose wake word as one does:
#: "thank you" (or a word that sounds like "thank", at least
#: :data:`POLITE_SOUND_MIN`) and the "and you" recognisers write for it ("post
#: pass thank you", "coast repeat and you": ``benchmarks/commands.py``, unseen2).
THANKS_CLOSE = ("thank", "you")
#: Words written for the wake word that lead into a command word in ordinary
#: talk ("most correct, thank you", "most helpful"): after them a command ends
#: with one word at most, never with a thanks of two (session 45 tried two words
#: after every loose wake word and invented commands in that line of talk).
NOT_THANKED_WAKE = frozenset({"most", "mosts", "most's"})
#: Words that may follow a command ("host undo that please"); any other word
#: after it means the words were a sentence that happened to contain "host"
#: and a command word (babble heard as "host undo commercial"): no command.
COMMAND_TAIL = frozenset(
    {"please", "now", "thanks", "thank", "you", "that", "it", "again", "this", "one", "last"}
)
#: What players say to close a command ("host, pass please", "okay host, pass
#: now"): a last word that sounds like one of them (phone classes, at least
#: :data:`POLITE_SOUND_MIN`) does not stop a command being one, as recognisers
#: garble it ("host foul police", "host pause leave", "post quit hanks", "ok host
#: correct how").  Nor do up to :data:`MAX_CLAIM_TAIL` :data:`COMMAND_BREATH`
#: words around it, the breath a recogniser writes after a phrase ("host repeat
#: of", "host help and").
POLITE = ("please", "thanks", "now")
POLITE_SOUND_MIN = 0.6
#: "now" also comes back as a word of its vowel alone, or with one consonant
#: ("out", "our", "how"): a word of at most this many phones, one of them AW.
NOW_PHONES = 2
#: Words of the game itself that may follow a command after the wake word "host"
#: itself (not a variant or sound-alike), at most :data:`MAX_GAME_TAIL` of them:
#: "host, pause the game", "host, pass this card".  A clue's object is not one
#: of them ("host passed the food" is no command), nor "for" ("host, wait for it").
GAME_TAIL = frozenset({"the", "game", "card", "word", "round", "turn", "timer", "clock"})
MAX_GAME_TAIL = 4
#: What may ask for a command after the wake word "host" itself (longest first):
#: "host, what's the score?", "host, what is the status?".
ASKING: tuple[tuple[str, ...], ...] = (
    ("what", "is", "the"),
    ("what's", "the"),
    ("whats", "the"),
    ("what", "is"),
    ("what's",),
    ("whats",),
)
#: Commands that need a team after them.
TEAM_COMMANDS = frozenset({"push"})
#: Words that may go with "push" in a bare SPIN choice, anywhere after it: R18 moves
#: an opponent's piece "back", and that is how a table says it.
PUSH_BACK = frozenset({"back"})
#: Commands only meaningful in a SPIN choice.
SPIN_COMMANDS = frozenset({"forward", "push"})
#: A bare (no wake word) claim or spin choice is at most this many words.
MAX_BARE_WORDS = 3
#: Words around a bare team claim that do not stop it being one ("blue team!").
#: Not "it's": "it's purple" is a clue or a guess in a CONTROL round where a team is
#: called Purple, not the team claiming (session 33, ``benchmarks/claims.py``).
CLAIM_FILLERS = frozenset(
    {"team", "the", "us", "we", "yes", "go", "move", "me", "oh", "ok", "okay", "so"}
)
#: Words a recogniser writes after a bare claim or choice for the breath that ends
#: it, or for a garbled "team" ("lions to you", "lions d u", "blue you who",
#: "tigers of", "push blue who"; stray letters count too): at most
#: :data:`MAX_CLAIM_TAIL` of them at the end of the utterance do not stop the
#: words before them being a claim.  Only at the end: "is it blue?" stays a guess.
#: Not "and", which recognisers also write for a breath: espeak's "okay host, red"
#: came back "o q e host blue and", and a claim there is Blue's (benchmarks/claims.py).
CLAIM_TAIL = frozenset({"you", "who", "to", "of", "in", "is", "he", "she", "him", "if"})
MAX_CLAIM_TAIL = 2
#: The breath a recogniser writes after a command: as after a team's claim
#: (:data:`CLAIM_TAIL`; stray letters too), and "and" ("host correct and" for
#: "host correct thanks"), which is not one after a claim.
COMMAND_BREATH = CLAIM_TAIL | {"and"}


def _is_breath(word: str) -> bool:
    """Whether ``word`` is the breath a recogniser writes after a command
    (:data:`COMMAND_BREATH`), or a stray letter, as after a claim: "the host
    pause o" for "hey host, pause now"."""
    return word in COMMAND_BREATH or is_stray(word)


def is_claim_tail(word: str) -> bool:
    """Whether ``word`` may follow a team's name in a claim: a claim filler
    ("team"), a :data:`CLAIM_TAIL` word or a stray letter."""
    return word in CLAIM_FILLERS or word in CLAIM_TAIL or is_stray(word)


#: The phases in which a team's name is an answer (a CONTROL or FINISH claim, the team
#: pushed back after a green spin): only then does the recogniser listen for the names.
TEAM_NAME_PHASES = frozenset({Phase.CONTROL, Phase.SPIN_CHOICE})


def listened_teams(teams: Sequence[str], phase: Phase) -> tuple[str, ...]:
    """The team names the recogniser listens for in ``phase`` (none in a turn, where a
    name is no command and would only pull the decoder towards "red" and "blue")."""
    return tuple(teams) if phase in TEAM_NAME_PHASES else ()


def spoken_team(name: str) -> str:
    """A team's name as players say it and a recogniser writes it: lower case, accents
    off, numbers in words ("Team 1" -> "team one", "Big Red" -> "big red")."""
    return normalise(name)


def sound_alike_teams(teams: Sequence[str]) -> list[tuple[str, str]]:
    """Pairs of ``teams`` whose names are said alike ("Team 2" and "Team Two"): a
    claim called out is always taken for the first of them."""
    first: dict[str, str] = {}
    pairs: list[tuple[str, str]] = []
    for team in teams:
        said = spoken_team(team)
        if said in first:
            pairs.append((first[said], team))
        else:
            first.setdefault(said, team)
    return pairs


def _is_command_word(word: str) -> bool:
    return any(word in spellings for spellings in COMMAND_WORDS.values())


def team_sayings(teams: Sequence[str]) -> dict[tuple[str, ...], str]:
    """The runs of words that name a team of more than one word, or with a digit,
    mapped to the team's key (:func:`norm_word`, as :meth:`CommandReader.team` knows
    it): "big red" for Big Red, "team one" and "team 1" for Team 1, and a name
    without its "the" ("lions" for The Lions), unless that is another team's name."""
    keys = {norm_word(t) for t in teams} - {""}
    out: dict[tuple[str, ...], str] = {}
    for team in teams:
        key = norm_word(team)
        if not key:
            continue
        for spelled in (True, False):
            words = tuple(split_words(team, spell_numbers=spelled))
            variants = [words]
            rest = words[1:]
            if (
                len(words) > 1
                and words[0] == "the"
                and "".join(rest) not in keys
                and not (len(rest) == 1 and _is_command_word(rest[0]))  # "The Help": "help"
            ):
                variants.append(rest)
            for said in variants:
                if said and said != (key,):
                    out.setdefault(said, key)
    return out


def command_phrases(teams: Sequence[str] = (), wake_word: str = "host") -> tuple[str, ...]:
    """Every spoken command as a phrase for the recogniser's context.

    The one list the live host, ``voice-host listen`` and the benchmarks give
    the recogniser: "<wake> <command>" for each command word, and per team
    "<wake> push <team>" (a SPIN choice) and "<wake> <team>" (a CONTROL
    claim), so that the biased language model holds each whole command
    together.  Without teams, "<wake> push" stands in for the push commands.
    """
    wake = norm_word(wake_word) or "host"
    names = tuple(t for t in (spoken_team(t) for t in teams) if t)
    out = [f"{wake} {name}" for name in COMMAND_WORDS if not (names and name in TEAM_COMMANDS)]
    for team in names:
        out += [f"{wake} {name} {team}" for name in COMMAND_WORDS if name in TEAM_COMMANDS]
        out.append(f"{wake} {team}")
    return tuple(dict.fromkeys(out))


@dataclass(frozen=True)
class Command:
    """A command found in an utterance."""

    name: str
    """Command name (``team`` for a CONTROL claim)."""
    argument: str | None
    """Team name for ``team`` and ``push``."""
    first: int
    """Index of the first token (the wake word, if any)."""
    last: int
    """Index of the last token."""
    woken: bool
    """Whether a wake word started it."""
    cue: str
    """How it was recognised, for the evidence."""


class CommandReader:
    """Reads commands from tokens for one set of team names and wake word."""

    def __init__(self, teams: tuple[str, ...], wake_word: str, phones: PhoneLookup | None) -> None:
        """``teams`` as spoken; ``wake_word`` replaces "host" when not "host"."""
        self.teams = tuple(norm_word(t) for t in teams if norm_word(t))
        self._sayings = team_sayings(teams)
        self._longest = max((len(words) for words in self._sayings), default=0)
        wake = norm_word(wake_word) or "host"
        if wake == "host":
            self.wake_exact: frozenset[str] = WAKE_EXACT
            self.wake_loose: frozenset[str] = HOST_WRITTEN
        else:
            self.wake_exact = frozenset({wake, wake + "s"})
            self.wake_loose = frozenset()
        self.wake = wake
        self.phones = phones
        self._wake_phones = phones(wake) if phones is not None else None
        self._sounds = self._sounds_of(COMMAND_WORDS)
        self._synonym_sounds = self._sounds_of(COMMAND_SYNONYMS)

    def _sounds_of(self, words: dict[str, frozenset[str]]) -> dict[tuple[str, ...], str]:
        sounds: dict[tuple[str, ...], str] = {}
        if self.phones is not None:
            for name, spellings in words.items():
                for sp in spellings:
                    ph = self.phones(sp)
                    if ph:
                        sounds.setdefault(tuple(ph), name)
        return sounds

    def command_word(self, word: str, *, synonyms: bool = False) -> tuple[str, str] | None:
        """(command, how) for ``word``, or None; ``synonyms``: a
        :data:`COMMAND_SYNONYMS` word counts too (right after the wake word)."""
        tables = [(COMMAND_WORDS, self._sounds, "")]
        if synonyms:
            tables.append((COMMAND_SYNONYMS, self._synonym_sounds, ", said for it"))
        sound: tuple[str, ...] | None = None  # looked up only past the first spelling check
        for words, sounds, note in tables:
            for name, spellings in words.items():
                if word in spellings:
                    return name, "spelling" + note
            if sound is None and self.phones is not None:
                sound = tuple(self.phones(word) or ())
            if sound and sound in sounds:
                return sounds[sound], "same sound" + note
        return None

    def glue(
        self, toks: tuple[Token, ...], answers: Sequence[tuple[str, ...]] = ()
    ) -> tuple[Token, ...]:
        """``toks`` with each run of words that names a team of several words (or
        with a digit) made one token holding the team's key ("big", "red" -> one
        "bigred" for Big Red), so that :meth:`team` and every reading of a claim
        take it as one name.  Not a run inside a longer one of the card's
        ``answers`` (tuples of words) said there: "mountain lions" stays the answer
        for the card Mountain lion when a team is The Lions ("lions" alone names it)."""
        if not self._sayings:
            return toks
        words = [t.text for t in toks]
        said_answers = [
            (start, start + len(a))
            for a in answers
            if len(a) > 1
            for start in range(len(words) - len(a) + 1)
            if tuple(words[start : start + len(a)]) == a
        ]
        out: list[Token] = []
        i = 0
        while i < len(toks):
            for n in range(min(self._longest, len(toks) - i), 0, -1):
                key = self._sayings.get(tuple(words[i : i + n]))
                if key is not None and any(
                    s <= i and i + n <= e and e - s > n for s, e in said_answers
                ):
                    key = None  # the team's words are part of the answer said
                if key is not None:
                    out.append(Token.merged(toks[i : i + n], key))
                    i += n
                    break
            else:
                out.append(toks[i])
                i += 1
        return tuple(out)

    def team(self, word: str) -> str | None:
        """The team ``word`` names (exactly, or a plural "blues"), or None."""
        for t in self.teams:
            if word == t or word == t + "s":
                return t
        if self.phones is not None:
            ph = self.phones(word)
            if ph:
                for t in self.teams:
                    if self.phones(t) == ph:
                        return t
        return None

    def read(self, toks: tuple[Token, ...], phase: Phase, *, whole: bool = False) -> Command | None:
        """The command in ``toks`` (the first one), or None.

        ``whole`` says that ``toks`` are the recogniser's whole utterance (no
        silence split it): only then may a word that merely sounds like the
        wake word start a command (see the module docstring).
        """
        words = [t.text for t in toks]
        for i, w in enumerate(words):
            exact = w in self.wake_exact
            at_start = i == 0 or (i == 1 and words[0] in LEADING_FILLERS)  # "a toast to quit"
            if not exact and not (at_start and w in self.wake_loose):
                continue
            cmd = self._after_wake(words, i, phase, exact)
            if cmd is not None:
                return cmd
        if whole:
            cmd = self._sound_wake(words, phase)
            if cmd is not None:
                return cmd
        return self._bare(words, phase)

    def stands_alone(
        self,
        words: Sequence[str],
        i: int,
        *,
        woken: bool = False,
        answers: Sequence[tuple[str, ...]] = (),
    ) -> bool:
        """Whether the team name at ``words[i]`` is said as a claim.

        Every word after it is the name again, or a claim filler, a
        :data:`CLAIM_TAIL` word or a stray letter, at most :data:`MAX_CLAIM_TAIL`
        of them, as after a bare claim: "a blue whale", "the green one" or "is a
        red apple" name a team inside a guess, and a spotted team name there is
        no claim.  Every
        word before it is a filler, an attention word, a stray letter or the wake
        word (or a word that sounds like it); when the spotter heard the wake
        word with the name (``woken``: "host green" spotted over the transcript
        "cast to green"), one other word stands for the wake word too, but not a
        word that leads into talk (:data:`NOT_WAKE`, :data:`CLUE_LEADS`).  Or
        the name comes right after one of the card's ``answers`` (each a tuple of
        words), whatever comes before that: a CONTROL round asks for the answer,
        then the team's name ("telescope! blue!", "is it a volcano? blue!").
        """
        team = self.team(words[i])
        after = [w for w in words[i + 1 :] if self.team(w) != team]
        if len(after) > MAX_CLAIM_TAIL or not all(is_claim_tail(w) for w in after):
            return False
        end = i  # the answer may end a breath word or two before the name ("of")
        while end > 0 and i - end < MAX_CLAIM_TAIL and is_claim_tail(words[end - 1]):
            end -= 1
        if any(a and tuple(words[max(0, end - len(a)) : end]) == a for a in answers):
            return True
        standing_for_wake = 0
        for w in words[:i]:
            if (
                w in CLAIM_FILLERS
                or w in FILLERS
                or w in ATTENTION_WORDS
                or is_stray(w)
                or w in self.wake_exact
                or w in self.wake_loose
            ):
                continue
            if w in NOT_WAKE or w in CLUE_LEADS:
                return False
            if not woken and self.wake_sound(w) < SOUND_WAKE_MIN:
                return False
            standing_for_wake += 1
        return standing_for_wake <= 1

    def wake_sound(self, word: str) -> float:
        """How much ``word`` sounds like the wake word (0-1; 0 without phones)."""
        if self.phones is None or not self._wake_phones:
            return 0.0
        ph = self.phones(word)
        return phone_class_similarity(tuple(ph), tuple(self._wake_phones)) if ph else 0.0

    def _sound_wake(self, words: list[str], phase: Phase) -> Command | None:
        """A command whose wake word the recogniser wrote as a sound-alike
        ("l k pass status" for "okay host status"); ``words`` are the whole
        utterance, which must be nothing but: up to
        :data:`MAX_ATTENTION_WORDS` attention words or stray letters, the
        sound-alike, the command (with its team for ``push``) and at most one
        :data:`SOUND_WAKE_TAIL` word."""
        lead = 0
        while lead < len(words) and (words[lead] in ATTENTION_WORDS or is_stray(words[lead])):
            lead += 1
        if lead > MAX_ATTENTION_WORDS or (lead == 0 and phase != Phase.SPIN_CHOICE):
            return None  # "bus pass" is a clue; "okay bus pass" is someone calling the host
        if lead + 1 >= len(words):
            return None
        w = words[lead]
        if w in NOT_WAKE or w in CLUE_LEADS or w in FILLERS:
            return None
        similarity = self.wake_sound(w)
        if similarity < SOUND_WAKE_MIN or words[lead + 1] in FILLERS:
            return None
        cmd = self._after_wake(words, lead, phase, exact=False)
        if cmd is None:
            return None
        tail = words[cmd.last + 1 :]
        if len(tail) > 1 or any(x not in SOUND_WAKE_TAIL for x in tail):
            return None  # "okay test pass it on": a sentence going on
        said = " ".join(words[lead + 1 : cmd.last + 1])
        cue = f"'{w}' sounds like the wake word '{self.wake}' ({similarity:.2f}), then '{said}'"
        return Command(cmd.name, cmd.argument, lead, cmd.last, True, cue)

    def _after_wake(self, words: list[str], i: int, phase: Phase, exact: bool) -> Command | None:
        j = i + 1
        asked = next((len(a) for a in ASKING if exact and tuple(words[j : j + len(a)]) == a), 0)
        j += asked  # "host, what's the score?": asked, after the wake word itself
        if not asked and j < len(words) and words[j] in FILLERS and j + 1 < len(words):
            j += 1  # "coast to pause": one inserted filler
        if j >= len(words):
            return None
        w = words[j]
        wake = words[i]
        if not exact and len(words) - j > 3:
            return None  # a loose wake word only starts a short command utterance
        if phase == Phase.CONTROL:
            team = self.team(w)
            if team is not None:
                if not all(
                    is_claim_tail(x) or x in COMMAND_TAIL or self.team(x) == team
                    for x in words[j + 1 :]
                ):
                    return None  # "host green also": babble, not a claim
                return Command("team", team, i, j, True, f"'{wake} {w}' in a CONTROL round")
        found = self.command_word(w, synonyms=exact)
        if found is None or (not exact and w in PAST_SPELLINGS):
            return None  # "the ghost helped out": a sentence
        name, how = found
        if name in SPIN_COMMANDS and phase != Phase.SPIN_CHOICE:
            return None
        if name in TEAM_COMMANDS:
            for k in range(j + 1, min(j + 3, len(words))):
                team = self.team(words[k])
                if team is not None:
                    return Command(name, team, i, k, True, f"'{wake} {w} {words[k]}'")
            return None  # "push" without a team is not a choice
        if not exact and len(words) - j > MAX_AFTER_LOOSE + 1 and not self._thanks(words, i, j):
            return None  # "post repeat your letters" is a clue, not "host repeat"
        tail = self._without_close(words[j + 1 :])
        game_tail = exact and len(tail) <= MAX_GAME_TAIL
        if any(x not in COMMAND_TAIL and not (game_tail and x in GAME_TAIL) for x in tail):
            return None  # "host undo commercial": a sentence, not a command
        cue = f"wake word '{wake}' then '{w}'" + (f" ({how})" if how != "spelling" else "")
        return Command(name, None, i, j, True, cue)

    def _thanks(self, words: list[str], i: int, j: int) -> bool:
        """Whether the words after the command at ``words[j]`` are a thanks of two
        words (:data:`THANKS_CLOSE`), after the loose wake word ``words[i]``."""
        tail = words[j + 1 :]
        if len(tail) != len(THANKS_CLOSE) or words[i] in NOT_THANKED_WAKE:
            return False
        first, last = tail
        return last == THANKS_CLOSE[1] and (
            first in (THANKS_CLOSE[0], "and") or self._sounds_like(first, THANKS_CLOSE[0])
        )

    def _without_close(self, tail: list[str]) -> list[str]:
        """``tail`` (the words after a command) without the breath and the word
        that may close it (:data:`POLITE`): up to :data:`MAX_CLAIM_TAIL` breath
        words, before or after the closing word."""
        rest = list(tail)
        breath = 0
        while rest and breath < MAX_CLAIM_TAIL and _is_breath(rest[-1]):
            rest.pop()
            breath += 1
        if rest and rest[-1] not in COMMAND_TAIL and self.sounds_polite(rest[-1]):
            rest.pop()
            while rest and breath < MAX_CLAIM_TAIL and _is_breath(rest[-1]):
                rest.pop()
                breath += 1
        return rest

    def sounds_polite(self, word: str) -> bool:
        """Whether ``word`` sounds like a word that closes a command (:data:`POLITE`,
        :data:`NOW_PHONES`)."""
        if word in POLITE:
            return True
        lookup = self.phones
        ph = lookup(word) if lookup is not None else None
        if lookup is None or not ph:
            return False
        if len(ph) <= NOW_PHONES and "AW" in ph:
            return True  # "out", "our", "how" for "now"
        return any(self._sounds_like(word, p) for p in POLITE)

    def _sounds_like(self, word: str, target: str) -> bool:
        """Whether ``word`` sounds like ``target`` (phone classes, at least
        :data:`POLITE_SOUND_MIN`); False when either has no phones."""
        lookup = self.phones
        if lookup is None:
            return False
        ph, want = lookup(word), lookup(target)
        return bool(ph and want) and (
            phone_class_similarity(tuple(ph or ()), tuple(want or ())) >= POLITE_SOUND_MIN
        )

    def _bare(self, words: list[str], phase: Phase) -> Command | None:
        tail = 0
        while (
            tail < MAX_CLAIM_TAIL
            and len(words) - tail > 1
            and (words[-1 - tail] in CLAIM_TAIL or is_stray(words[-1 - tail]))
        ):
            tail += 1
        words = words[: len(words) - tail]
        content = [w for w in words if w not in CLAIM_FILLERS]
        back = PUSH_BACK if phase == Phase.SPIN_CHOICE else frozenset()
        if not words or len([w for w in words if w not in back]) > MAX_BARE_WORDS or not content:
            return None
        if phase == Phase.CONTROL:
            # the name once, or shouted again ("purple, purple!")
            team = self.team(content[0])
            if team is not None and all(self.team(w) == team for w in content[1:]):
                k = words.index(content[0])
                return Command(
                    "team", team, k, k, False, f"bare team name '{content[0]}' in CONTROL"
                )
        if phase == Phase.SPIN_CHOICE:
            found = self.command_word(content[0])
            if found is not None and found[0] == "forward" and len(content) == 1:
                k = words.index(content[0])
                return Command("forward", None, k, k, False, f"'{content[0]}' in a SPIN choice")
            if found is not None and found[0] == "push":
                # the rules' own words: "push back the owls", "push the owls back"
                content = content[:1] + [w for w in content[1:] if w not in PUSH_BACK]
            between = content[1:-1]
            if (
                found is not None
                and found[0] == "push"
                and len(content) in (2, 3)
                and all(self._slight(w) for w in between)
            ):
                team = self.team(content[-1])
                if team is not None:
                    k = words.index(content[0])
                    return Command(
                        "push", team, k, len(words) - 1, False, f"'push {team}' in a SPIN choice"
                    )
        return None

    def _slight(self, word: str) -> bool:
        """Whether ``word`` is no more than a garbled "the" between "push" and a team
        ("push they eagles", "push a bears", "push by eagles"): a filler, a stray
        letter, or a word of at most two phones."""
        if word in FILLERS or is_stray(word):
            return True
        if self.phones is None:
            return False
        phones = self.phones(word)
        return phones is not None and len(phones) <= 2
