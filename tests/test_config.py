"""Play options: defaults, the TOML file, the command line, and every kind of bad value."""

from __future__ import annotations

import argparse
import errno
import io
import os
from pathlib import Path

import pytest

from voice_host.config import (
    HostConfig,
    add_play_arguments,
    config_from_args,
    config_from_data,
    default_config_path,
    first_team,
    load_config_file,
    read_board,
)
from voice_host.errors import InputFileError, UsageError
from voice_host.rules import HouseRules, parse_teams

ROOT = Path(__file__).resolve().parent.parent


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="voice-host play")
    add_play_arguments(parser)
    return parser.parse_args(list(argv))


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_any_file(tmp_path: Path) -> None:
    config = config_from_args(parse(), {"HOME": str(tmp_path)})
    assert config == HostConfig()
    assert (config.timer, config.wake_word, config.rate, config.speech_tail) == (
        30.0,
        "host",
        170,
        0.5,
    )
    assert config.save_path({"HOME": "/h"}) == Path("/h/.local/state/voice-host/game.json")


def test_example_config_file_loads_clean() -> None:
    path = ROOT / "docs" / "config.example.toml"
    config = load_config_file(path)
    # copied as it is, the example keeps the team set-up at the table
    assert config.teams is None
    assert config.house_rules == HouseRules()  # the example spells out the defaults
    assert config.config_file == path


def test_example_config_file_teams_line_works_once_uncommented(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "config.example.toml").read_text()
    assert '\n# teams = "Red:Ann,Bob;Blue:Cat,Dan"\n' in text
    mine = tmp_path / "config.toml"
    mine.write_text(text.replace('\n# teams = "', '\nteams = "', 1))
    config = load_config_file(mine)
    assert config.teams is not None
    assert parse_teams(config.teams)[1].players == ("Cat", "Dan")


def test_precedence_defaults_then_file_then_command_line(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'teams = "Red:Ann,Bob;Blue:Cat,Dan"\ntimer = 45\nwake_word = "Quizmaster"\n'
        'advanced = true\nplain = true\n[house_rules]\nfoul_penalty = "lose-one"\n'
        "passes_per_turn = 2\n",
    )
    args = parse(
        "--config", str(path), "--timer", "20", "--no-plain",
        "--house", "passes-per-turn=0", "--no-advanced",
    )  # fmt: skip
    config = config_from_args(args, {})
    assert config.timer == 20.0  # command line beats the file
    assert config.wake_word == "quizmaster"  # from the file (matched in lower case)
    assert config.plain is False  # --no-plain beats plain = true
    assert config.house_rules.foul_penalty == "lose-one"  # from the file
    assert config.house_rules.passes_per_turn == 0  # --house beats the file
    assert config.advanced is False  # --no-advanced beats advanced = true
    agreeing = parse("--config", str(path), "--advanced", "--house", "advanced=yes")
    assert config_from_args(agreeing, {}).advanced is True  # said twice, the same way
    assert config.rate == 170  # neither: the default


def test_default_config_file_is_read_when_present(tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path)}
    assert default_config_path(env) == tmp_path / "voice-host" / "config.toml"
    default_config_path(env).parent.mkdir()
    default_config_path(env).write_text("seed = 7\n")
    assert config_from_args(parse(), env).seed == 7
    assert default_config_path({"HOME": "/home/ann"}) == Path(
        "/home/ann/.config/voice-host/config.toml"
    )


def test_default_config_path_holding_a_folder_is_said_not_passed_over(tmp_path: Path) -> None:
    # made a folder by mistake: its settings were silently not read (session 54's audit)
    env = {"XDG_CONFIG_HOME": str(tmp_path)}
    default_config_path(env).mkdir(parents=True)
    with pytest.raises(InputFileError, match=r"config\.toml: cannot read the config file"):
        config_from_args(parse(), env)
    assert config_from_args(parse(), {"XDG_CONFIG_HOME": str(tmp_path / "none")}).seed is None


def test_relative_paths_in_the_file_are_from_its_folder(tmp_path: Path) -> None:
    path = write(tmp_path, 'deck = "decks/mine.json"\nsave = "/abs/game.json"\n')
    config = config_from_args(parse("--config", str(path), "--board", "b.json"), {})
    assert config.deck == tmp_path / "decks" / "mine.json"
    assert config.save == Path("/abs/game.json")
    assert config.board == Path("b.json")  # the command line's are from the working folder


def test_teams_as_a_table_and_devices(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'device = 2\ncard_audio = "Headphones"\n'
        '[teams]\nRed = ["Ann", "Bob"]\nBlue = ["Cat", "Dan", "Eve"]\n',
    )
    config = load_config_file(path)
    assert config.teams == "Red:Ann,Bob;Blue:Cat,Dan,Eve"
    assert (config.device, config.card_audio) == (2, "Headphones")
    card = config.card_announce_options()
    assert card is not None and card.private and card.device == "Headphones"
    assert config.announce_options().device is None  # the host's voice stays on the default
    assert config_from_args(parse("--device", "3"), {}).device == 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('timer = "30"\n', "timer: expected seconds from 5 to 3600, got '30'"),  # a string
        ("timer = 0\n", "timer: expected seconds from 5 to 3600, got 0"),  # out of range
        # a TOML date, said as typed (was "got datetime.date(1979, 5, 27)")
        (
            "timer = 1979-05-27\n",
            "timer: expected seconds from 5 to 3600, got the date or time 1979-05-27",
        ),
        ("rate = 170.5\n", "rate: expected a whole number, without a decimal point, got 170.5"),
        # was "expected a whole number, got 170": 170.0 is shown as 170
        ("rate = 170.0\n", "rate: expected a whole number, without a decimal point, got 170"),
        (
            "[house_rules]\npasses_per_turn = 1.0\n",
            "house_rules.passes_per_turn: expected a whole number, without a decimal point",
        ),
        ("rate = 1000\n", "rate: expected a whole number from 80 to 450, got 1000"),  # too fast
        ("volume = 2\n", "volume: expected a number from 0.0 to 1.0, got 2"),  # too loud
        ('plain = "yes"\n', "plain: expected true or false, got 'yes'"),  # TOML booleans only
        ('backend = "whisper"\n', "backend: expected one of auto, pocketsphinx, vosk"),
        ('wake_word = "hey 2"\n', "wake_word: expected a word or two of letters"),
        ('teams = "Red:Ann"\n', "teams: expected teams as"),  # R1: 2+ teams of 2+
        # a separator in a name of the [teams] table made other players or teams of it
        # ("Ann, Bob" two players; session 54's audit)
        (
            '[teams]\nRed = ["Ann, Bob", "Cat"]\nBlue = ["Dan", "Eve"]\n',
            'teams: expected names without ";", ":" or "," (the player name \'Ann, Bob\'',
        ),
        ('[teams]\n"Re:d" = ["Ann", "Cat"]\nBlue = ["Dan", "Eve"]\n', "the team name 'Re:d' holds"),
        ("seed = true\n", "seed: expected a whole number, got True"),
        ("deck = 3\n", "deck: expected a file path, got 3"),
        # a TOML escape can put a NUL in a path, which no file name holds (was a traceback)
        ('save = "game\\u0000.json"\n', "save: expected a file path (without a NUL character)"),
        ("timr = 30\n", "unknown key 'timr' (did you mean timer?)"),  # a typo
        # what to do this time is said on the command line, not in the file (was "did
        # you mean board?")
        ("keyboard = true\n", "unknown key 'keyboard' (--keyboard is only for the command line)"),
        (
            '[house_rules]\nfoul_penalty = "death"\n',
            "house_rules.foul_penalty: expected one of forfeit, lose-one, end-turn",
        ),
        (
            "[house_rules]\npasses_per_turn = -1\n",
            "house_rules.passes_per_turn: expected a whole number from 0 to 100",
        ),
        (
            '[house_rules]\nstart_category = "Food"\n',
            "house_rules.start_category: expected none or one of",
        ),
        ("[house_rules]\nadvanced = true\n", "[house_rules]: unknown key 'advanced'"),  # top level
        ("[house_rules]\nfoul = 1\n", "unknown key 'foul' (did you mean foul_penalty?)"),
        ("house_rules = 3\n", "house_rules: expected a table of house rules"),
        ("timer = \n", "not valid TOML"),  # broken syntax
        ("timer = " + "[" * 100_000 + "]" * 100_000, "nested far too deeply"),  # no traceback
    ],
)
def test_bad_file_values_name_the_file_the_key_and_the_expectation(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(InputFileError) as caught:
        config_from_args(parse("--config", str(path)), {})
    assert str(caught.value).startswith(f"{path}: ")
    assert message in str(caught.value)


def test_missing_explicit_config_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="no such config file"):
        config_from_args(parse("--config", str(tmp_path / "nope.toml")), {})


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--timer", "-1"), "--timer: expected seconds from 5 to 3600, got -1"),
        # a huge whole number is shown as typed, not as its 301 digits (session 59)
        (("--timer", "1e300"), "--timer: expected seconds from 5 to 3600, got 1e+300"),
        (("--rate", "20"), "--rate: expected a whole number from 80 to 450, got 20"),
        (("--rate", "700"), "--rate: expected a whole number from 80 to 450, got 700"),
        (("--reader-rate", "2000"), "--reader-rate: expected a whole number from 80 to 1500"),
        (("--volume", "1.5"), "--volume: expected a number from 0.0 to 1.0"),
        (("--teams", "Red:Ann,Bob"), "--teams: expected teams as"),  # one team only
        (("--wake-word", "  "), "--wake-word: expected a word or two of letters"),
        (("--house", "foul-penalty=death"), "--house: house rule foul-penalty"),
        (("--house", "nonsense"), "--house: house rule 'nonsense': write NAME=VALUE"),
        # written as NAME=VALUE, the name wrong: said so, not "write NAME=VALUE"
        (
            ("--house", "foul-penalti=end-turn"),
            "--house: house rule 'foul-penalti=end-turn': no rule is called 'foul-penalti'",
        ),
        # two options that set one rule two ways: an error, not whichever is read last
        (
            ("--advanced", "--house", "advanced=no"),
            "--advanced and --house advanced=no disagree",
        ),
        (
            ("--rule", "advanced = yes", "--no-advanced"),
            "--no-advanced and --house advanced = yes disagree",
        ),
    ],
)
def test_bad_command_line_values_are_usage_errors(
    tmp_path: Path, argv: tuple[str, ...], message: str
) -> None:
    with pytest.raises(UsageError) as caught:
        config_from_args(parse(*argv), {"HOME": str(tmp_path)})
    assert message in str(caught.value)


def test_options_round_trip_through_a_save(tmp_path: Path) -> None:
    args = parse(
        "--teams", "Red:Ann,Bob;Blue:Cat,Dan", "--advanced", "--deck", "d.json",
        "--house", "start-category=object", "--seed", "3", "--resume",
    )  # fmt: skip
    config = config_from_args(args, {"HOME": str(tmp_path)})
    assert config.resume and config.advanced
    assert config.house_rules.start_category == "Object"
    back = config_from_data(config.to_data(), "saved options")
    # saved with its folder, so that the game finds its deck from anywhere
    assert back.deck == Path("d.json").absolute()
    assert back == HostConfig(
        **{**config.__dict__, "resume": False, "given": frozenset(), "deck": back.deck}
    )


def test_help_lists_every_option() -> None:
    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    text = parser.format_help()
    for option in (
        "--teams",
        "--timer",
        "--advanced",
        "--card-audio",
        "--wake-word",
        "--save",
        "--house",
        "--resume",
    ):
        assert option in text


def test_the_second_transcriber_is_on_unless_switched_off(tmp_path: Path) -> None:
    assert config_from_args(parse(), {}).second_transcriber
    path = write(tmp_path, "second_transcriber = false\n")
    assert not config_from_args(parse("--config", str(path)), {}).second_transcriber
    on = parse("--config", str(path), "--second-transcriber")
    assert config_from_args(on, {}).second_transcriber
    with pytest.raises(InputFileError, match="second_transcriber"):
        load_config_file(write(tmp_path, "second_transcriber = 1\n"))


def test_ready_comes_from_the_file_or_the_command_line(tmp_path: Path) -> None:
    assert not config_from_args(parse(), {}).ready  # "Go!" right away by default
    path = write(tmp_path, "ready = true\n")
    assert config_from_args(parse("--config", str(path)), {}).ready
    assert not config_from_args(parse("--config", str(path), "--no-ready"), {}).ready
    with pytest.raises(InputFileError, match="ready"):
        load_config_file(write(tmp_path, 'ready = "soon"\n'))


def test_play_takes_simulates_name_for_a_house_rule_too() -> None:
    # `voice-host simulate` says --rule, `voice-host play` --house: either works in both
    config = config_from_args(parse("--rule", "foul-penalty=end-turn"), {})
    assert config.house_rules.foul_penalty == "end-turn"


def test_a_config_file_that_is_not_text_is_one_line_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xff\xfetimer = 30\n")  # UTF-16 from a Windows editor, say
    with pytest.raises(InputFileError) as caught:
        config_from_args(parse("--config", str(path)), {})
    assert str(caught.value) == f"{path}: not a config file (not UTF-8 text)"


def test_a_config_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    # UTF-8 with a BOM (Notepad's "UTF-8 with BOM"), as decks, boards and scripts allow
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xef\xbb\xbftimer = 45\n")
    assert config_from_args(parse("--config", str(path)), {}).timer == 45


def test_a_save_path_that_is_a_folder_stops_before_the_game_starts(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    config = config_from_args(parse("--save", str(folder)), {})
    with pytest.raises(UsageError) as caught:
        config.save_path({})
    assert str(caught.value) == (
        f"the save file {folder} is a folder: give --save a file in it, e.g. {folder}/game.json"
    )
    assert config_from_args(parse("--save", str(folder / "game.json")), {}).save_path({}) == (
        folder / "game.json"
    )


@pytest.mark.parametrize("save", ["notes.txt/game.json", "notes.txt/saves/game.json"])
def test_a_save_path_under_a_file_stops_before_the_game_starts(tmp_path: Path, save: str) -> None:
    # no save could ever be written there: the game must not be played unsaved
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    config = config_from_args(parse("--save", str(tmp_path / save)), {})
    with pytest.raises(UsageError) as caught:
        config.save_path({})
    assert str(caught.value) == (
        f"the save file {tmp_path / save} cannot be made: "
        f"{tmp_path / 'notes.txt'} is a file, not a folder"
    )
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_a_save_path_the_player_may_not_reach_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a folder on the way without search permission: stat raises EACCES, which
    # Path.is_dir does not swallow (not seen as root, who may look everywhere)
    def refused(self: Path, *args: object, **kwargs: object) -> os.stat_result:
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    save = tmp_path / "locked" / "game.json"
    config = config_from_args(parse("--save", str(save)), {})
    monkeypatch.setattr(Path, "stat", refused)
    with pytest.raises(UsageError) as caught:
        config.save_path({})
    assert str(caught.value) == f"the save file {save} cannot be reached: Permission denied"


def test_at_most_nine_teams_one_number_key_each_for_their_buzzers() -> None:
    nine = ";".join(f"T{i}:A{i},B{i}" for i in range(1, 10))
    assert len(parse_teams(config_from_args(parse("--teams", nine), {}).teams or "")) == 9
    with pytest.raises(
        UsageError, match=r"at most 9 teams \(each team's buzzer is a number key\), got 10"
    ):
        config_from_args(parse("--teams", nine + ";T10:A10,B10"), {})


def test_a_save_file_that_is_a_pipe_is_refused_and_a_link_is_written_through(
    tmp_path: Path,
) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(UsageError, match="is not an ordinary file"):
        config_from_args(parse("--save", str(pipe)), {}).save_path()
    target = tmp_path / "saves" / "real.json"
    link = tmp_path / "game.json"
    link.symlink_to(target)  # dangling until the first save
    assert config_from_args(parse("--save", str(link)), {}).save_path() == Path(
        os.path.realpath(target)
    )


@pytest.mark.parametrize(
    ("first", "teams", "expected"),
    [
        (None, "Red:A,B;Blue:C,D", 0),  # the first listed
        ("Blue", "Red:A,B;Blue:C,D", "Blue"),  # by name, for the game to look up
        ("2", "Red:A,B;Blue:C,D", 1),  # by number, as the prompts number the teams
        ("3", "Red:A,B;Blue:C,D", "3"),  # no third team: the game says so by name
        ("1", "2:A,B;1:C,D", "1"),  # a team called "1" is that team
    ],
)
def test_R3_the_first_team_by_name_or_number(
    first: str | None, teams: str, expected: int | str
) -> None:
    assert first_team(first, parse_teams(teams)) == expected


def test_a_screen_reader_may_read_faster_than_the_voice_engine(tmp_path: Path) -> None:
    # practised screen reader users listen at 500 words a minute and more: the
    # reading plan takes the reader's rate, the voice (and --card-audio) keep --rate
    env = {"HOME": str(tmp_path)}
    config = config_from_args(parse("--screen-reader", "--reader-rate", "700"), env)
    assert config.reader_options().rate == 700
    assert config.announce_options().rate == 170
    assert config_from_args(parse("--rate", "200"), env).reader_options().rate == 200


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('deck = "gone.json"', "deck: no such file "),
        ('board = "gone.json"', "board: no such file "),
        (
            'teams = "Red:Ann,Bob;Blue:Cat,Dan"\nfirst = "Green"',
            "first: expected one of the teams (Red, Blue) or its number, got 'Green'",
        ),
        ('teams = "Red:Ann,Bob;Blue:Cat,Dan"\nfirst = "3"', "first: expected one of the teams"),
    ],
)
def test_a_config_files_deck_board_or_first_team_that_is_not_there_names_the_file_and_key(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    message: str,
) -> None:
    # a deck the file names that is gone was "voice-host: /x/gone.json: cannot read (...)",
    # and a first team the file names that is not playing "unknown team 'Green'": a family
    # that never typed either could not tell where it came from
    from voice_host import cli

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    path = write(tmp_path, text)
    argv = ["play", "--keyboard", "--config", str(path), "--save", str(tmp_path / "g.json")]
    monkeypatch.setattr("sys.stdin", io.StringIO("q\ny\n"))
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"voice-host: {path}: ")
    assert message in err
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "g.json").exists()  # stopped before the game


def test_a_resumed_game_or_the_command_line_is_not_held_to_the_files_deck_and_first(
    tmp_path: Path,
) -> None:
    from voice_host.config import check_file_names

    path = write(tmp_path, 'deck = "gone.json"\nteams = "Red:A,B;Blue:C,D"\nfirst = "Green"')
    check_file_names(config_from_args(parse("--config", str(path), "--resume"), {}))
    deck = tmp_path / "here.json"
    deck.write_text("{}", encoding="utf-8")
    given = ("--config", str(path), "--deck", str(deck), "--first", "Blue")
    check_file_names(config_from_args(parse(*given), {}))


def test_a_files_deck_or_board_that_is_a_folder_is_named_with_the_file_and_key(
    tmp_path: Path,
) -> None:
    # session 61's audit: deck = "." said "voice-host: .: cannot read (Is a directory)"
    from voice_host.config import check_file_names

    for key in ("deck", "board"):
        path = write(tmp_path, f'{key} = "."\n')
        config = config_from_args(parse("--config", str(path)), {})
        with pytest.raises(InputFileError) as caught:
            check_file_names(config)
        assert str(caught.value) == f"{path}: {key}: {tmp_path} is a folder, not a {key} file"


def test_a_game_played_with_the_built_in_deck_resumes_with_it_whatever_the_file_says(
    tmp_path: Path,
) -> None:
    # A config file naming a deck made "--resume" of a built-in-deck game refuse: "the
    # saved game used a deck of 500 cards, this one has 1" (the save leaves out no deck).
    party = tmp_path / "party.txt"
    party.write_text("Object\nKettle\n", encoding="utf-8")
    path = write(tmp_path, f'deck = "{party}"\ntimer = 45\n')
    config = config_from_args(parse("--config", str(path), "--resume"), {})
    assert config.deck == party
    saved = {"timer": 30.0, "advanced": False, "house_rules": {}}  # as to_data() saves it
    assert config.resumed(saved).deck is None
    assert config.resumed({**saved, "deck": str(party)}).deck == party
    # a deck given on the command line still wins
    given = config_from_args(parse("--config", str(path), "--deck", str(party), "--resume"), {})
    assert given.resumed(saved).deck == party


def test_R3_the_first_team_in_a_file_may_be_its_number_unquoted(tmp_path: Path) -> None:
    # first = 2 was "expected a team name, got 2", though --first 2 names the second team
    path = write(tmp_path, 'teams = "Red:Ann,Bob;Blue:Cat,Dan"\nfirst = 2\n')
    config = config_from_args(parse("--config", str(path)), {})
    assert first_team(config.first, parse_teams(config.teams or "")) == 1
    with pytest.raises(InputFileError, match="first: expected a team name or its number"):
        config_from_args(parse("--config", str(write(tmp_path, "first = 0\n"))), {})


def test_a_files_house_rule_words_are_taken_in_any_case_as_on_the_command_line(
    tmp_path: Path,
) -> None:
    # --house foul-penalty=LOSE-ONE worked while foul_penalty = "LOSE-ONE" was refused
    path = write(tmp_path, '[house_rules]\nfoul_penalty = "LOSE-ONE"\nspecial_category = "Next"\n')
    rules = load_config_file(path).house_rules
    assert (rules.foul_penalty, rules.special_category) == ("lose-one", "next")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_config_or_board_that_never_ends_is_refused_not_read_whole() -> None:
    # --config /dev/zero (or a huge file given by mistake) was read until memory ran out
    with pytest.raises(InputFileError, match=r"^/dev/zero: too big to be a config file"):
        load_config_file(Path("/dev/zero"))
    with pytest.raises(InputFileError, match=r"^board /dev/zero: too big to be a board layout"):
        read_board("/dev/zero")


def test_every_command_reads_a_board_file_alike(tmp_path: Path) -> None:
    # the live host read a board itself: a byte-order mark was "not valid JSON" and
    # a file in another encoding a UnicodeDecodeError traceback
    layout = '{"segments": ["START", "Object", "FINISH"]}'
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + layout.encode())
    assert len(read_board(bom).segments) == 3
    utf16 = tmp_path / "utf16.json"
    utf16.write_text(layout, encoding="utf-16")
    with pytest.raises(InputFileError, match=r"^board .*utf16.json is not UTF-8 text$"):
        read_board(utf16)


def test_a_superscript_digit_is_a_name_not_a_number() -> None:
    # "²" passes str.isdigit(), and int() then stopped play with a ValueError traceback
    config = config_from_args(parse("--device", "\u00b2", "--card-audio", "\u00b9"), {})
    assert (config.device, config.card_audio) == ("\u00b2", "\u00b9")
    teams = parse_teams("Red:A,B;Blue:C,D")
    assert first_team("\u00b2", teams) == "\u00b2"  # no team: the game says which there are
    assert first_team("2", teams) == 1
    from voice_host.announce.player import parse_device

    assert parse_device("\u00b2") == "\u00b2" and parse_device(" 3 ") == 3


def test_a_number_of_thousands_of_digits_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    # int() refuses a string of over 4,300 digits (ValueError): --device, --first, and
    # an integer in the config file stopped play with a traceback
    huge = "9" * 5000
    config = config_from_args(parse("--device", huge), {})
    assert config.device == huge  # no such index: a name, which no device has
    assert first_team(huge, parse_teams("Red:A,B;Blue:C,D")) == huge  # "unknown team"
    path = write(tmp_path, f"seed = {huge}\n")
    with pytest.raises(InputFileError, match=r"config.toml: not a config file \(Exceeds the limit"):
        load_config_file(path)
