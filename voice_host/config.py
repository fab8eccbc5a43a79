"""Every option of ``voice-host play``: defaults, a TOML config file, and the command line.

Precedence, lowest first: the defaults here, the config file
(``--config PATH``, else ``$XDG_CONFIG_HOME/voice-host/config.toml`` or
``~/.config/voice-host/config.toml`` when it exists), then the command line.
A bad value in the file is an :class:`InputFileError` naming the file, the key
and what is expected; on the command line it is a :class:`UsageError`.

The file uses the option names with ``_`` (``wake_word``, ``card_audio``), and a
``[house_rules]`` table whose keys are the fields of
:class:`voice_host.rules.HouseRules` (except ``advanced``, a top-level option).
See ``docs/config.example.toml``.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import difflib
import os
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voice_host.announce.protocol import AnnounceOptions
from voice_host.announce.sounds import TIME_CUES
from voice_host.audio.devices import parse_device
from voice_host.errors import InputFileError, SaveError, UsageError, VoiceHostError
from voice_host.persist import default_save_path, save_file
from voice_host.rules import (
    CATEGORIES,
    Board,
    HouseRules,
    RulesError,
    Team,
    default_board,
    load_board,
    parse_teams,
)
from voice_host.rules.house import CHOICES, MAX_PASSES
from voice_host.rules.teams import name_key, name_problem

#: Recognisers ``--backend`` can name.
BACKENDS = ("auto", "pocketsphinx", "vosk")
#: Slowest and fastest speaking rates espeak accepts, in words per minute.
RATE_RANGE = (80, 450)
#: Slowest and fastest screen reader rates taken, words per minute (practised
#: listeners set their readers far faster than a voice engine goes).
READER_RATE_RANGE = (80, 1500)


@dataclass(frozen=True)
class HostConfig:
    """Every play option, validated.  Times are in seconds."""

    teams: str | None = None
    """Teams as ``"Red:Ann,Bob;Blue:Cat,Dan"`` (checked against R1); None to set up at the
    table by voice or keys."""
    timer: float = 30.0
    """Seconds in a turn (R5)."""
    deck: Path | None = None
    """A deck file; None for the packaged deck."""
    board: Path | None = None
    """A board layout file; None for the packaged board."""
    device: int | str | None = None
    """Microphone: PortAudio index or part of its name; None for the default input."""
    card_audio: int | str | None = None
    """A second output (headphones) on which the card is spoken privately; None for none."""
    model: Path | None = None
    """Speech model folder (vosk) or file; None for the default."""
    backend: str = "auto"
    """Recogniser: ``auto``, ``pocketsphinx`` or ``vosk``."""
    second_transcriber: bool = True
    """Behind pocketsphinx, let Moonshine tiny-en write what pocketsphinx cannot follow."""
    voice: str | None = None
    """Announcer voice (``en-us``, ``English (America)``); None for the engine's default."""
    rate: int = 170
    """Speaking rate, words per minute."""
    volume: float = 1.0
    """Announcer volume, 0.0 to 1.0."""
    speech_tail: float = 0.5
    """Seconds after the host stops speaking during which the microphone is still ignored."""
    time_cue: str = "chime"
    """The turn's time cues: ``chime`` (a chime at ten seconds left, shorter than the
    words, and one as the turn ends) or ``words`` ("Ten seconds.")."""
    wake_word: str = "host"
    """Spoken before a command ("host pause"), so that a guesser's "pass" is not one."""
    plain: bool = False
    """Line-by-line screen for screen readers instead of the board view."""
    screen_reader: bool = False
    """The player's screen reader says the host's words: the host's voice is silent, every
    line is printed (implies ``plain``), and the microphone ignores each line for as long
    as a reader takes to say it at ``reader_rate`` (:mod:`voice_host.announce.read_aloud`)."""
    reader_rate: int | None = None
    """The screen reader's rate, words a minute (readers go faster than a voice engine);
    None: ``rate``."""
    keyboard_only: bool = False
    """Do not listen at all: play by keys."""
    first: str | None = None
    """The team that starts (R3); None: the first team listed."""
    show_card: bool | None = None
    """Show the describer's card all the time; None for the screen's default (the board
    view shows it; line mode does not, as a screen reader would read it to the table)."""
    ready: bool = False
    """Wait for each turn's describer to press space or say "host resume" before "Go!"."""
    save: Path | None = None
    """Save file; None for the default (see :func:`voice_host.persist.default_save_path`)."""
    seed: int | None = None
    """Seed for the deck order and spinner (a repeatable game); None for a random one."""
    house_rules: HouseRules = field(default_factory=HouseRules)
    """House rules fixed at game start; ``house_rules.advanced`` is the ``advanced`` option."""
    resume: bool = False
    """Resume the saved game (command line only)."""
    config_file: Path | None = None
    """The config file that was read, if any (for messages)."""
    given: frozenset[str] = frozenset()
    """The options given on the command line (which a resumed game's own do not replace),
    with ``house`` and ``advanced`` when ``--house`` or ``--[no-]advanced`` was."""

    @property
    def advanced(self) -> bool:
        """One describer per turn whatever the team size (R4)."""
        return self.house_rules.advanced

    def save_path(self, env: Mapping[str, str] | None = None) -> Path:
        """The save file to use (through a symbolic link, the file it names);
        :class:`UsageError` when it names a folder, a device or a pipe (every save
        would fail or replace it, so the game must not start on it)."""
        path = self.save if self.save is not None else default_save_path(env)
        try:
            if path.is_dir():
                raise UsageError(
                    f"the save file {path} is a folder: give --save a file in it, e.g. "
                    f"{path / 'game.json'}"
                )
            return save_file(path)
        except SaveError as exc:
            raise UsageError(str(exc)) from None
        except OSError as exc:  # a folder on the way that the player may not look into
            why = exc.strerror or str(exc)
            raise UsageError(f"the save file {path} cannot be reached: {why}") from None

    def announce_options(self) -> AnnounceOptions:
        """Options for the host's voice."""
        return AnnounceOptions(
            voice=self.voice, rate=self.rate, volume=self.volume, tail=self.speech_tail
        )

    def reader_options(self) -> AnnounceOptions:
        """Options for the player's screen reader (``--screen-reader``): its rate."""
        options = self.announce_options()
        return dataclasses.replace(options, rate=self.reader_rate or options.rate)

    def card_announce_options(self) -> AnnounceOptions | None:
        """Options for the private card voice, or None without ``card_audio``."""
        if self.card_audio is None:
            return None
        return AnnounceOptions(
            voice=self.voice,
            rate=self.rate,
            volume=self.volume,
            device=self.card_audio,
            tail=self.speech_tail,
            label="card",
            private=True,
        )

    def resumed(self, saved: Mapping[str, Any]) -> HostConfig:
        """This config for going on with a saved game whose options (``HostConfig.to_data()``
        when it was saved) are ``saved``: the game's own settings (:data:`RESUMED_OPTIONS`:
        its deck, timer, wake word and ready prompt) come back, unless given on the
        command line.  The rest (devices, voice, screen) follows this machine's options.

        Raises :class:`UsageError` when the deck it was played with is gone."""
        values: dict[str, Any] = {}
        for name in RESUMED_OPTIONS:
            if name in self.given or name not in saved:
                continue
            try:
                values[name] = _CHECKS[name](saved[name])
            except _Bad:
                continue  # a garbled option: this machine's stands
        if saved and "deck" not in saved and "deck" not in self.given:
            # played with the built-in deck (a save leaves it out): not the config
            # file's deck, whose cards are other cards
            values["deck"] = None
        deck = values.get("deck")
        if isinstance(deck, Path) and not deck.is_file():
            raise UsageError(
                f"the saved game was played with the deck {deck}, which is not there now: "
                "give --deck with that deck"
            )
        return dataclasses.replace(self, **values)

    def to_data(self) -> dict[str, Any]:
        """JSON-ready options for a save file (the layout of the TOML file), read back by
        :func:`config_from_data`.  ``resume`` and ``config_file`` are not included."""
        data: dict[str, Any] = {}
        for name in OPTION_NAMES:
            value = getattr(self, name)
            if value is not None:
                # a path as the game can find it again from any folder
                data[name] = str(value.absolute()) if isinstance(value, Path) else value
        data["advanced"] = self.advanced
        house = self.house_rules.to_data()
        del house["advanced"]
        data["house_rules"] = {k: v for k, v in house.items() if v is not None}
        return data


# -- checking values ------------------------------------------------------------------------


class _Bad(Exception):
    """A value is wrong; the caller says where (file and key, or option)."""

    def __init__(self, expected: str, value: object) -> None:
        super().__init__(expected)
        self.expected = expected
        self.value = value


def _text(value: object, what: str = "text") -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Bad(what, value)
    return value.strip()


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise _Bad("true or false", value)
    return value


def _int(value: object, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, float):  # 170.0 is shown as 170: say what is wrong with it
        raise _Bad("a whole number, without a decimal point", value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad("a whole number", value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise _Bad(f"a whole number from {low} to {high}", value)
    return value


def _number(value: object, low: float, high: float, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Bad(what, value)
    if not low <= value <= high:
        raise _Bad(what, value)
    return float(value)


def _device(value: object) -> int | str:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str) and value.strip():
        return parse_device(value.strip())
    raise _Bad("a device number or part of its name", value)


def names_a_team(name: str, teams: Sequence[Team]) -> bool:
    """Whether ``name`` is one of ``teams``' names (as names are compared)."""
    return any(name_key(t.name) == name_key(name) for t in teams)


def first_team(first: str | None, teams: Sequence[Team]) -> int | str:
    """``--first`` as the game takes it: a team's name, or its number as the set-up's
    prompts number the teams (1 is the first listed; a team called "2" is still that
    team); None: the first team."""
    if first is None:
        return 0
    text = first.strip()
    named = names_a_team(text, teams)
    if text.isdecimal() and len(text) <= 3 and not named and 1 <= int(text) <= len(teams):
        return int(text) - 1
    return first


#: The most teams a game takes: each team's buzzer (a CONTROL round) and the key
#: that pushes it back (a SPIN choice) is one of the number keys 1-9.
MAX_TEAMS = 9


def too_many_teams(count: int) -> str | None:
    """Why ``count`` teams are too many, or None."""
    if count <= MAX_TEAMS:
        return None
    return f"at most {MAX_TEAMS} teams (each team's buzzer is a number key), got {count}"


def _teams(value: object) -> str:
    if isinstance(value, dict):
        parts = []
        for name, players in value.items():
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise _Bad('a list of player names for each team, as Red = ["Ann", "Bob"]', value)
            # a name holding a separator was read as other teams or players: "Ann, Bob"
            # became two players, "Eve;x" a team x (session 54's audit)
            why = name_problem(name, team=True) or next(
                (w for w in map(name_problem, players) if w), None
            )
            if why is not None:
                raise _Bad(f'names without ";", ":" or "," ({why})', value)
            parts.append(f"{name}:{','.join(players)}")
        value = ";".join(parts)
    spec = _text(value, 'teams as "Red:Ann,Bob;Blue:Cat,Dan"')
    try:
        teams = parse_teams(spec)
    except RulesError as exc:
        raise _Bad(f'teams as "Red:Ann,Bob;Blue:Cat,Dan" ({exc})', value) from None
    if (why := too_many_teams(len(teams))) is not None:
        raise _Bad(f'teams as "Red:Ann,Bob;Blue:Cat,Dan" ({why})', value)
    return ";".join(f"{t.name}:{','.join(t.players)}" for t in teams)


def _wake_word(value: object) -> str:
    word = _text(value, "a word or two of letters")
    if not all(part.isalpha() for part in word.split()) or len(word.split()) > 2:
        raise _Bad("a word or two of letters", value)
    return " ".join(word.lower().split())


def _path(what: str) -> Callable[[object], Path]:
    """A path option's check: text, and no NUL character (a TOML escape can write one,
    and no file name holds it)."""

    def check(value: object) -> Path:
        text = _text(value, what)
        if "\0" in text:
            raise _Bad(f"{what} (without a NUL character)", value)
        return Path(text)

    return check


def _first(value: object) -> str:
    """The team that starts: its name, or its number as ``--first`` takes it (``first = 2``
    in a file, unquoted, as a number is written in TOML)."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return str(value)
    return _text(value, "a team name or its number")


def _backend(value: object) -> str:
    if value not in BACKENDS:
        raise _Bad(f"one of {', '.join(BACKENDS)}", value)
    return str(value)


def _time_cue(value: object) -> str:
    word = value.strip().lower() if isinstance(value, str) else value
    if word not in TIME_CUES:
        raise _Bad(f"one of {', '.join(TIME_CUES)}", value)
    return str(word)


#: Each top-level option: how to check a value from a file (after TOML parsing).
_CHECKS: dict[str, Callable[[object], object]] = {
    "teams": _teams,
    "timer": lambda v: _number(v, 5, 3600, "seconds from 5 to 3600"),
    "deck": _path("a file path"),
    "board": _path("a file path"),
    "device": _device,
    "card_audio": _device,
    "model": _path("a file or folder path"),
    "backend": _backend,
    "second_transcriber": _bool,
    "voice": lambda v: _text(v, "a voice name"),
    "rate": lambda v: _int(v, *RATE_RANGE),
    "volume": lambda v: _number(v, 0.0, 1.0, "a number from 0.0 to 1.0"),
    "speech_tail": lambda v: _number(v, 0.0, 5.0, "seconds from 0 to 5"),
    "time_cue": _time_cue,
    "wake_word": _wake_word,
    "plain": _bool,
    "screen_reader": _bool,
    "reader_rate": lambda v: _int(v, *READER_RATE_RANGE),
    "keyboard_only": _bool,
    "first": _first,
    "show_card": _bool,
    "ready": _bool,
    "save": _path("a file path"),
    "seed": _int,
}
#: Options kept as paths, resolved against the config file's folder.
_PATHS = ("deck", "board", "model", "save")
#: The top-level option names, in the order of :class:`HostConfig`.
OPTION_NAMES: tuple[str, ...] = tuple(_CHECKS)
#: The options a saved game keeps when it is resumed (:meth:`HostConfig.resumed`): they
#: are the game's own (which cards its card numbers mean, how long a turn is, what
#: wakes the host), not this machine's.
RESUMED_OPTIONS: tuple[str, ...] = ("deck", "timer", "wake_word", "ready")
#: House-rule keys allowed in ``[house_rules]``.
HOUSE_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(HouseRules) if f.name != "advanced"
)


def _house_check(name: str, value: object) -> object:
    if name in CHOICES:  # in any case, as the command line takes them
        word = value.strip().lower() if isinstance(value, str) else value
        if word not in CHOICES[name]:
            raise _Bad(f"one of {', '.join(CHOICES[name])}", value)
        return word
    if name == "start_category":
        if isinstance(value, str) and value.strip().lower() == "none":
            return None
        by_key = {c.lower(): c for c in CATEGORIES}
        if not isinstance(value, str) or value.strip().lower() not in by_key:
            raise _Bad(f"none or one of {', '.join(CATEGORIES)}", value)
        return by_key[value.strip().lower()]
    default = getattr(HouseRules(), name)
    if isinstance(default, bool):
        return _bool(value)
    if isinstance(default, int):
        return _int(value, 0, MAX_PASSES)
    return _text(value)


#: Options of ``voice-host play`` that a config file does not hold: each says what
#: to do this time, not how to play every time.
COMMAND_LINE_ONLY = frozenset({"keyboard", "resume", "no_voice_setup", "config"})


def _unknown(key: str, known: tuple[str, ...], where: str) -> str:
    close = difflib.get_close_matches(key, known, n=1) or [k for k in known if k.startswith(key)]
    hint = f" (did you mean {close[0]}?)" if close else ""
    if key == "advanced":
        hint = " (write advanced at the top level, before any table)"
    if key.replace("-", "_") in COMMAND_LINE_ONLY:
        hint = f" (--{key.replace('_', '-')} is only for the command line)"
    return f"{where}unknown key {key!r}{hint}; known keys: {', '.join(known)}"


def _shown(value: object) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))  # "0", as typed, not "0.0" (1e300 stays 1e+300, not 301 digits)
    if isinstance(value, datetime.date | datetime.time):
        return f"the date or time {value.isoformat()}"  # TOML's, not datetime.date(...)
    return repr(value) if not isinstance(value, dict | list) else type(value).__name__


def config_from_data(
    data: Mapping[str, Any], source: Path | str, *, base: Path | None = None
) -> HostConfig:
    """A :class:`HostConfig` from a TOML file's table (or a save file's options).

    ``base`` is the folder relative paths are resolved against (the config file's).
    Raises :class:`InputFileError` naming ``source``, the key and what it expects.
    """
    values: dict[str, Any] = {}
    house: dict[str, Any] = {}
    for raw_key, value in data.items():
        key = raw_key.replace("-", "_")
        try:
            if key == "advanced":
                house["advanced"] = _bool(value)
            elif key == "house_rules":
                if not isinstance(value, dict):
                    raise _Bad("a table of house rules ([house_rules])", value)
                for raw_name, rule in value.items():
                    name = raw_name.replace("-", "_")
                    if name not in HOUSE_NAMES:
                        raise InputFileError(
                            _unknown(raw_name, HOUSE_NAMES, f"{source}: [house_rules]: ")
                        )
                    try:
                        house[name] = _house_check(name, rule)
                    except _Bad as bad:
                        raise InputFileError(
                            f"{source}: house_rules.{raw_name}: expected {bad.expected}, "
                            f"got {_shown(bad.value)}"
                        ) from None
            elif key in _CHECKS:
                checked = _CHECKS[key](value)
                if key in _PATHS and isinstance(checked, Path):
                    checked = checked.expanduser()
                    if base is not None and not checked.is_absolute():
                        checked = base / checked
                values[key] = checked
            else:
                known = (*OPTION_NAMES, "advanced", "house_rules")
                raise InputFileError(_unknown(raw_key, known, f"{source}: "))
        except _Bad as bad:
            raise InputFileError(
                f"{source}: {raw_key}: expected {bad.expected}, got {_shown(bad.value)}"
            ) from None
    try:
        rules = HouseRules(**house)
    except RulesError as exc:
        raise InputFileError(f"{source}: {exc}") from None
    return HostConfig(**values, house_rules=rules)


def default_config_path(env: Mapping[str, str]) -> Path:
    """``$XDG_CONFIG_HOME/voice-host/config.toml``, else ``~/.config/voice-host/config.toml``."""
    config = env.get("XDG_CONFIG_HOME", "").strip()
    if config and Path(config).is_absolute():
        return Path(config) / "voice-host" / "config.toml"
    home = env.get("HOME", "").strip()
    return (Path(home) if home else Path.home()) / ".config" / "voice-host" / "config.toml"


#: The most of a config file or a board layout read, in bytes: either is a few
#: kilobytes.  ``/dev/zero`` or a huge file given by mistake was read whole,
#: the memory growing until the machine gave out.
MAX_SMALL_FILE_BYTES = 1_000_000


def _read_small(path: Path) -> bytes | None:
    """The bytes of ``path``, or None when it holds more than :data:`MAX_SMALL_FILE_BYTES`."""
    with path.open("rb") as file:
        data = file.read(MAX_SMALL_FILE_BYTES + 1)
    return data if len(data) <= MAX_SMALL_FILE_BYTES else None


#: Said of a file over :data:`MAX_SMALL_FILE_BYTES`.
_TOO_BIG = f"over {MAX_SMALL_FILE_BYTES // 1_000_000} MB"


def read_board(path: Path | str | None) -> Board:
    """The board to play on: the default, or the layout file at ``path`` (UTF-8,
    with or without a byte-order mark); :class:`InputFileError` naming it when bad."""
    if path is None:
        return default_board()
    try:
        data = _read_small(Path(path))
    except OSError as exc:
        raise InputFileError(f"cannot read board {path}: {exc.strerror}") from None
    if data is None:
        raise InputFileError(f"board {path}: too big to be a board layout ({_TOO_BIG})")
    try:
        text = data.decode("utf-8-sig")  # Notepad writes a BOM
    except UnicodeDecodeError:
        raise InputFileError(f"board {path} is not UTF-8 text") from None
    try:
        return load_board(text)
    except RulesError as exc:
        # "board x.json: has 2 segments", not "board x.json: board has 2 segments"
        raise InputFileError(f"board {path}: {str(exc).removeprefix('board ')}") from None


def load_config_file(path: Path) -> HostConfig:
    """Read and check a TOML config file; :class:`InputFileError` naming it when it is bad."""
    try:
        raw = _read_small(path)
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such config file") from None
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read the config file ({exc.strerror})") from None
    if raw is None:
        raise InputFileError(f"{path}: too big to be a config file ({_TOO_BIG})")
    try:
        # UTF-8, with or without a byte-order mark (as decks, boards and scripts)
        data = tomllib.loads(raw.decode("utf-8-sig"))
    except tomllib.TOMLDecodeError as exc:
        raise InputFileError(f"{path}: not valid TOML ({exc})") from None
    except UnicodeDecodeError:
        raise InputFileError(f"{path}: not a config file (not UTF-8 text)") from None
    except ValueError as exc:  # an integer of thousands of digits: int() refuses it
        raise InputFileError(f"{path}: not a config file ({str(exc).split(';')[0]})") from None
    except RecursionError:
        raise InputFileError(f"{path}: not a config file (nested far too deeply)") from None
    config = config_from_data(data, path, base=path.parent)
    return dataclasses.replace(config, config_file=path)


# -- the command line -----------------------------------------------------------------------


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """Add every play option to ``parser``.  Each defaults to None ("not given"), so that
    :func:`config_from_args` can tell what overrides the config file."""
    add = parser.add_argument
    on_off = argparse.BooleanOptionalAction
    add(
        "--config",
        metavar="PATH",
        help="TOML config file (default ~/.config/voice-host/config.toml)",
    )
    add("--teams", metavar="SPEC", help='teams and players, as "Red:Ann,Bob;Blue:Cat,Dan"')
    add(
        "--first",
        metavar="TEAM",
        help="the team that starts, by name or number (default: the first listed; --keyboard asks)",
    )
    add("--timer", type=float, metavar="SECONDS", help="seconds in a turn (default 30)")
    add("--advanced", action=on_off, help="one describer per turn, whatever the team size")
    add("--deck", metavar="PATH", help="deck file (default: the packaged deck)")
    add("--board", metavar="PATH", help="board layout file (default: the packaged board)")
    add("--device", metavar="DEVICE", help="microphone: number or part of its name")
    add("--card-audio", metavar="DEVICE", help="speak the card privately on this output")
    add("--model", metavar="PATH", help="speech model (vosk folder or pocketsphinx model)")
    add("--backend", choices=BACKENDS, help="recogniser (default auto)")
    add(
        "--second-transcriber",
        action=on_off,
        help="behind pocketsphinx, Moonshine tiny-en (and base-en for short utterances) writes "
        "what it cannot follow (default on)",
    )
    add("--voice", metavar="NAME", help="announcer voice, e.g. en-us")
    add(
        "--rate",
        type=int,
        metavar="WPM",
        help="speaking rate in words a minute (default 170)",
    )
    add("--volume", type=float, metavar="0-1", help="announcer volume (default 1.0)")
    add(
        "--speech-tail",
        type=float,
        metavar="SECONDS",
        help="microphone ignored this long after the host speaks (default 0.5)",
    )
    add(
        "--time-cue",
        choices=TIME_CUES,
        help='ten seconds left as a chime (it keeps the microphone shut 0.86 s, "Ten '
        'seconds." 1.35 s) or said (default chime; a chime as the turn ends too)',
    )
    add("--wake-word", metavar="WORD", help='word before a spoken command (default "host")')
    add("--plain", action=on_off, help="line-by-line output for screen readers")
    add(
        "--screen-reader",
        action=on_off,
        help="your screen reader says the host's words: the host's voice is silent, every "
        "line is printed (as --plain) and the microphone ignores each one while the reader "
        "says it (see --reader-rate)",
    )
    add(
        "--reader-rate",
        type=int,
        metavar="WPM",
        help="with --screen-reader, your reader's rate in words a minute (default: --rate)",
    )
    add("--keyboard-only", action=on_off, help="do not listen; play by keys")
    add(
        "--show-card",
        action=on_off,
        help="show the describer's card all the time (default: in the board view yes; "
        "with --plain no, as a screen reader would read it out: K shows it once)",
    )
    add(
        "--ready",
        action=on_off,
        help='before each turn, wait for the describer to press space or say "host resume" '
        '(default: "Go!" right after the turn is announced)',
    )
    add("--save", metavar="PATH", help="save file (default ~/.local/state/voice-host/game.json)")
    add("--seed", type=int, metavar="N", help="seed for a repeatable deck order and spinner")
    add(
        "--house",
        "--rule",  # the name `voice-host simulate` uses
        action="append",
        metavar="NAME=VALUE",
        help="a house rule, e.g. --house foul-penalty=lose-one (repeatable; --rule too): "
        + ", ".join(name.replace("_", "-") for name in HOUSE_NAMES)
        + " (the README's Scripted play lists their values)",
    )
    add("--resume", action="store_true", default=None, help="resume the saved game")


def _rule_name(text: str) -> str:
    """The rule a ``--house NAME=VALUE`` names, spelt as the field is."""
    return text.partition("=")[0].strip().replace("-", "_")


def config_from_args(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> HostConfig:
    """The options: defaults, then the config file, then what the command line gave."""
    env = os.environ if env is None else env
    given = getattr(args, "config", None)
    if given is not None:
        config = load_config_file(Path(given).expanduser())
    else:
        default = default_config_path(env)
        # a file there is read; anything else there but nothing (a folder, by mistake)
        # is said, as --config says it, rather than passed over
        config = load_config_file(default) if default.exists() else HostConfig()
    values: dict[str, Any] = {}
    for name in OPTION_NAMES:
        value = getattr(args, name, None)
        if value is None:
            continue
        option = "--" + name.replace("_", "-")
        try:
            checked = _CHECKS[name](value)
        except _Bad as bad:
            raise UsageError(
                f"{option}: expected {bad.expected}, got {_shown(bad.value)}"
            ) from None
        if isinstance(checked, Path):
            checked = checked.expanduser()
        values[name] = checked
    rules = config.house_rules
    for text in getattr(args, "house", None) or ():
        try:
            rules = rules.with_option(text)
        except (RulesError, VoiceHostError) as exc:
            raise UsageError(f"--house: {exc}") from None
    advanced = getattr(args, "advanced", None)
    if advanced is not None:
        said = [t for t in getattr(args, "house", None) or () if _rule_name(t) == "advanced"]
        if said and rules.advanced != bool(advanced):
            flag = "--advanced" if advanced else "--no-advanced"
            raise UsageError(f"{flag} and --house {said[-1].strip()} disagree: give one")
        rules = dataclasses.replace(rules, advanced=bool(advanced))
    if getattr(args, "resume", None):
        values["resume"] = True
    typed = frozenset(name for name in OPTION_NAMES if getattr(args, name, None) is not None)
    if getattr(args, "house", None):
        typed |= {"house"}
    if advanced is not None:
        typed |= {"advanced"}
    return dataclasses.replace(config, **values, house_rules=rules, given=typed)


def check_file_names(config: HostConfig) -> None:
    """Before a game: the config file's ``deck``, ``board`` and ``first`` must name a file
    or a team that is there, else one line naming the file and the key (the error the
    game would give later names neither, and the player never typed the value).  Not
    for a resumed game, which goes on with its own deck, board and teams."""
    source = config.config_file
    if source is None or config.resume:
        return
    for name in ("deck", "board"):
        path = getattr(config, name)
        if name in config.given or not isinstance(path, Path):
            continue
        if not path.exists():
            raise InputFileError(f"{source}: {name}: no such file {path}")
        if path.is_dir():
            raise InputFileError(f"{source}: {name}: {path} is a folder, not a {name} file")
    if "first" in config.given or config.first is None or config.teams is None:
        return
    teams = parse_teams(config.teams)
    first = first_team(config.first, teams)
    if isinstance(first, str) and not names_a_team(first, teams):
        names = ", ".join(t.name for t in teams)
        raise InputFileError(
            f"{source}: first: expected one of the teams ({names}) or its number, got {first!r}"
        )
