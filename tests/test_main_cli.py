"""The command line as a whole: dispatch, help, and one-line errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from voice_host import cli
from voice_host.errors import UsageError


def test_every_command_is_listed_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for name in cli.COMMANDS:
        assert name in out


def test_python_dash_m_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "voice_host", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout.startswith("voice-host ")


def test_a_voice_host_error_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def fail(_args: object) -> int:
        raise UsageError("the deck file names no cards")

    parser = cli.build_parser()
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    args = parser.parse_args(["devices"])
    monkeypatch.setattr(parser, "parse_known_args", lambda _argv=None: (args, []))
    args._run = fail
    assert cli.main(["devices"]) == 2
    err = capsys.readouterr().err
    assert err == "voice-host: the deck file names no cards\n"


def test_models_verify_with_no_models_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["models", "--dir", str(tmp_path), "verify"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("voice-host: no models in")
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("action", ["list", "verify"])
def test_models_dir_that_is_a_file_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], action: str
) -> None:
    # 'list' said "no models in .../file/" and exited 0 (session 54's audit)
    file = tmp_path / "file"
    file.write_text("not a folder")
    assert cli.main(["models", "--dir", str(file), action]) == 2
    assert capsys.readouterr().err == (
        f"voice-host: {file}: not a folder (--dir names the folder models live in)\n"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "-"],
        ["play", "--keyboard", "--teams", "Red:Ann,Bob;Blue:Cat,Dan"],
        ["play", "--keyboard-only", "--plain", "--teams", "Red:Ann,Bob;Blue:Cat,Dan"],
    ],
)
def test_a_closed_standard_input_reads_as_no_keys(tmp_path: Path, args: list[str]) -> None:
    # started with fd 0 closed (`<&-`, some service managers): sys.stdin is None
    save = ["--save", str(tmp_path / "game.json")] if args[0] == "play" else []
    done = subprocess.run(
        [sys.executable, "-m", "voice_host", *args, *save],
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=lambda: os.close(0),
        timeout=60,
    )
    assert "Traceback" not in done.stderr
    assert done.returncode == 0
    if args[0] == "play":
        assert (tmp_path / "game.json").is_file()  # the keys ran out at once: saved, stopped


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["simulate"], ["deck", "check"]])
def test_output_to_a_full_disk_is_one_line_and_exit_2(tmp_path: Path, args: list[str]) -> None:
    script = tmp_path / "script.txt"
    script.write_text("correct\ntime-up\n", encoding="utf-8")
    deck = tmp_path / "deck.txt"
    fields = ("object", "nature", "random", "person", "action", "world", "control")
    deck.write_text(
        "".join(f"{f}: {w}\n" for f, w in zip(fields, "abcdefg", strict=True)), encoding="utf-8"
    )
    path = script if args[0] == "simulate" else deck
    # a user's shell buffers the output (a short one is written only at exit)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run(
            [sys.executable, "-m", "voice_host", *args, str(path)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=60,
            env=env,
        )
    assert done.returncode == 2
    assert done.stderr == "voice-host: cannot write the output: the disk is full\n"


def test_output_to_a_reader_that_went_away_is_quiet_and_exit_0(tmp_path: Path) -> None:
    # `voice-host deck check deck.txt | head -0`: the pipe is closed before the output
    deck = tmp_path / "deck.txt"
    fields = ("object", "nature", "random", "person", "action", "world", "control")
    deck.write_text(
        "".join(f"{f}: {w}\n" for f, w in zip(fields, "abcdefg", strict=True)), encoding="utf-8"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "voice_host", "deck", "check", str(deck)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=60,
            env=env,
        )
    finally:
        os.close(write_end)
    assert done.stderr == ""
    assert done.returncode == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["play", "--timer", "abc"],
            "voice-host play: argument --timer: invalid float value: 'abc' "
            "(see voice-host play --help)",
        ),
        (
            ["listen", "--audio"],
            "voice-host listen: argument --audio: expected one argument "
            "(see voice-host listen --help)",
        ),
        (
            ["simulate", "script.txt", "--deck-size", "99999999999"],
            "voice-host simulate: argument --deck-size: expected a number of cards from 1 "
            "to 100000, got '99999999999' (see voice-host simulate --help)",
        ),
        (["nonsense"], "voice-host: argument COMMAND: invalid choice: 'nonsense'"),
        # an option of the command given after its sub-command points to the
        # command's own help, which lists it (session 59's audit: "voice-host --help")
        (
            ["models", "list", "--dir", "x"],
            "voice-host: unrecognized arguments: --dir x (see voice-host models --help)",
        ),
    ],
)
def test_a_bad_argument_is_one_line_pointing_to_the_help_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(message)


def test_an_interrupt_while_the_command_line_is_read_is_one_line_and_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    monkeypatch.setattr("sys.unraisablehook", sys.unraisablehook)  # restored after the test
    assert cli.main(["devices"]) == 130
    assert capsys.readouterr().err == "voice-host: interrupted\n"


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_a_terminal_that_cannot_write_a_team_name_still_plays(
    tmp_path: Path, encoding: str
) -> None:
    # a Latin-1 locale (or PYTHONIOENCODING) and an emoji in a team's name: the
    # first line naming the team stopped the game with a UnicodeEncodeError
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    teams = "Röt🎉:Ann,Bob;Blue:Cat,Dan"
    save = str(tmp_path / "game.json")
    args = ["play", "--keyboard", "--teams", teams, "--first", "1", "--save", save]
    done = subprocess.run(
        [sys.executable, "-m", "voice_host", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=False,
        timeout=60,
        env=env,
    )
    assert b"Traceback" not in done.stderr
    assert done.returncode == 0
    assert b"R?t?'s turn" in done.stdout or b"R\xf6t?'s turn" in done.stdout
    assert (tmp_path / "game.json").is_file()
