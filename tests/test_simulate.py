"""`voice-host simulate`: scripted games, their JSON lines, and one-line errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from voice_host import cli

SCRIPTS = Path(__file__).parent / "scripts"


def simulate(
    capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, list[dict[str, Any]], str]:
    """Run the command in-process; return exit code, the JSON lines, and stderr."""
    code = cli.main(["simulate", *args])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def write(tmp_path: Path, text: str, name: str = "script.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_whole_game_script_ends_with_a_winner(capsys: pytest.CaptureFixture[str]) -> None:
    script = SCRIPTS / "whole_game.txt"
    code, states, err = simulate(capsys, str(script))
    assert code == 0 and err == ""
    inputs = [
        line.split("#")[0].strip()
        for line in script.read_text().splitlines()
        if line.split("#")[0].strip()
    ]
    assert len(states) == len(inputs)  # one JSON object per input line
    final = states[-1]
    assert final["input"] == "control-won Red"
    assert final["phase"] == "game-over"
    assert final["winner"] == "Red"
    assert [(t["name"], t["segment"], t["kind"]) for t in final["teams"]] == [
        ("Red", 47, "FINISH"),
        ("Blue", 16, "SPIN"),
    ]
    assert final["allowed"] == []


@pytest.mark.parametrize(
    ("line", "phase", "to_play", "describers", "segments"),
    [
        (15, "turn", "Red", ["Bob"], [7, 0]),  # R20, R21: forward onto 7, Red plays on
        (22, "control-round", "Red", ["Bob"], [11, 0]),  # R13: the turn's describer
        (23, "control-round", "Red", ["Bob"], [11, 0]),  # R17: another card, same round
        (24, "turn", "Red", ["Ann"], [11, 0]),  # R15: the bonus turn changes describer
        (33, "turn", "Red", ["Bob"], [16, 0]),  # R18 red: no bonus; R21: Red plays on
        (36, "turn", "Blue", ["Cat", "Dan"], [18, 0]),  # R9: play passes; R4: 2 of 3
        (46, "turn", "Blue", ["Eve", "Cat"], [15, 5]),  # R18: Red pushed back 3
        (54, "turn", "Red", ["Ann"], [15, 11]),  # R14: the winner plays next
        (74, "turn", "Red", ["Ann"], [28, 9]),  # Blue pushed off CONTROL
        (81, "turn", "Blue", ["Dan", "Eve"], [33, 9]),  # R14: Blue steals the turn
        (82, "control-round", "Red", ["Bob"], [33, 9]),  # R16: Red's CONTROL round again
        (100, "finish-round", "Red", ["Bob"], [47, 9]),  # R22: stops on FINISH
        (101, "turn", "Blue", ["Cat", "Dan"], [47, 9]),  # R23: Red stays on FINISH
        (115, "turn", "Blue", ["Dan", "Eve"], [45, 16]),  # R23: pushed off FINISH
        (116, "turn", "Red", ["Ann"], [45, 16]),  # a normal turn from 45
        (121, "finish-round", "Red", ["Ann"], [47, 16]),
    ],
)
def test_the_whole_game_script_says_what_its_comments_say(
    capsys: pytest.CaptureFixture[str],
    line: int,
    phase: str,
    to_play: str,
    describers: list[str],
    segments: list[int],
) -> None:
    _, states, _ = simulate(capsys, str(SCRIPTS / "whole_game.txt"))
    [state] = [s for s in states if s["line"] == line]
    assert (state["phase"], state["to_play"], state["describers"]) == (phase, to_play, describers)
    assert [t["segment"] for t in state["teams"]] == segments


def test_each_line_reports_the_state_keys(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = write(tmp_path, "# comment\n\ncorrect\ntime-up  # Red to 1\n")
    code, states, _ = simulate(capsys, script, "--teams", "Red:Ann,Bob;Blue:Cat,Dan,Eve")
    assert code == 0
    assert [s["line"] for s in states] == [3, 4]
    last = states[-1]
    assert set(last) == {
        "line",
        "input",
        "phase",
        "to_play",
        "turn",
        "describers",
        "category",
        "card",
        "passes_left",
        "correct",
        "spin",
        "spin_steps",
        "teams",
        "allowed",
        "winner",
    }
    assert last["to_play"] == "Blue"
    assert last["describers"] == ["Cat", "Dan"]  # 3 players: 2 describers (R4)
    assert last["teams"][0] == {
        "name": "Red",
        "segment": 1,
        "kind": "NORMAL",
        "category": "Object",
        "plays": "Object",
        "control_retry": False,
    }


@pytest.mark.parametrize(
    ("script", "message"),
    [
        # a line out of turn names its line number and what is allowed
        (
            "correct\nspin red\n",
            "voice-host: line 2: 'spin red' is not allowed now: Red is in phase turn "
            "(allowed: correct, foul, pass, time-up)",
        ),
        # an unknown team in a script
        (
            "correct\n" * 11 + "time-up\ncontrol-won Purple\n",  # 11 is CONTROL
            "voice-host: line 13: unknown team 'Purple' (teams: Red, Blue)",
        ),
        # a word not in the vocabulary
        ("corect\n", "voice-host: line 1: unknown input 'corect'"),
        # undo with nothing to undo
        ("# start\nundo\n", "voice-host: line 2: nothing to undo"),
        # a second pass in a turn
        ("pass\npass\n", "voice-host: line 2: 'pass' is not allowed: Red has no pass left"),
    ],
)
def test_a_bad_line_stops_with_one_line_naming_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, script: str, message: str
) -> None:
    code, _, err = simulate(capsys, write(tmp_path, script), "--teams", "Red:A,B;Blue:C,D")
    assert code == 2
    assert err.startswith(message)
    assert err.count("\n") == 1


def test_a_line_far_too_long_for_an_input_is_not_quoted_back_whole(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # a file of other text without line breaks: its error line was the whole file
    script = write(tmp_path, "correct" * 100_000 + "\n")
    code, _, err = simulate(capsys, script, "--teams", "Red:A,B;Blue:C,D")
    assert code == 2
    assert err == (
        "voice-host: line 1: unknown input 'correctcorrectcorrectcorrectcorrectcorre'..."
        " (700,000 characters, too long to be a host input)\n"
    )
    # a team's name as long as one may be is still an input
    long_name = "B" * 60
    script = write(tmp_path, "correct\n" * 11 + f"time-up\ncontrol-won {long_name}\n")
    code, out, _ = simulate(capsys, script, "--teams", f"Red:A,B;{long_name}:C,D")
    assert code == 0
    assert out[-1]["input"] == f"control-won {long_name}"


def test_a_script_that_never_ends_is_refused_not_read_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `simulate /dev/zero` (or a huge file given by mistake) read until memory ran out
    from voice_host.commands import simulate as simulate_command

    monkeypatch.setattr(simulate_command, "MAX_SCRIPT_BYTES", 2_000_000)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"correct\n" * 300_000)))
    code, out, err = simulate(capsys, "-")
    assert (code, out) == (2, [])
    assert err == "voice-host: script on standard input is too big (over 2 MB)\n"


def test_a_malformed_board_file_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board = write(tmp_path, '["START", "Object", "Moon", "FINISH"]', "board.json")
    code, _, err = simulate(capsys, write(tmp_path, "correct\n"), "--board", board)
    assert code == 2
    assert err == (
        f"voice-host: board {board}: segment 2: unknown segment 'Moon' (expected one of START, "
        "CONTROL, SPIN, FINISH, Object, Nature, Random, Person, Action, World)\n"
    )


def test_another_board_is_played(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = write(tmp_path, '{"segments": ["START", "Person", "FINISH"]}', "board.json")
    code, states, _ = simulate(
        capsys, write(tmp_path, "correct\ncorrect\ntime-up\n"), "--board", board
    )
    assert code == 0
    assert states[0]["category"] == "Person"
    assert states[-1]["phase"] == "finish-round"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--teams", "Red:Ann"], "voice-host: --teams: a game needs at least 2 teams"),
        (["--rule", "tempo=3"], "voice-host: --rule: house rule 'tempo=3'"),
        (  # one rule set two ways is refused, not settled by the order
            ["--advanced", "--rule", "advanced=no"],
            "voice-host: --advanced and --rule advanced=no disagree",
        ),
        (["--first", "Purple"], "voice-host: unknown team 'Purple'"),
        (["--board", "/nonexistent/board.json"], "voice-host: cannot read board"),
    ],
)
def test_bad_options_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    code, _, err = simulate(capsys, write(tmp_path, "correct\n"), *args)
    assert code == 2
    assert err.startswith(message)


def test_a_missing_script_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = simulate(capsys, "/nonexistent/script.txt")
    assert code == 2
    assert err.startswith("voice-host: cannot read script /nonexistent/script.txt")


def test_options_reach_the_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    script = write(tmp_path, "foul\n")
    code, states, _ = simulate(
        capsys,
        script,
        "--teams",
        "Red:A,B,C;Blue:D,E,F",
        "--advanced",
        "--first",
        "blue",
        "--rule",
        "foul-penalty=end-turn",
    )
    assert code == 0
    assert states[0]["to_play"] == "Red"  # Blue started; its foul ended its turn
    assert states[0]["describers"] == ["A"]  # advanced: one describer


def test_simulate_takes_plays_name_for_a_house_rule_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = write(tmp_path, "foul\n")
    code, states, _ = simulate(capsys, script, "--first", "Red", "--house", "foul-penalty=end-turn")
    assert code == 0
    assert states[0]["to_play"] != "Red"  # the foul ended Red's turn


@pytest.mark.parametrize(("first", "starts"), [("1", "Red"), ("2", "Blue"), ("blue", "Blue")])
def test_R3_simulate_takes_the_first_team_by_number_as_play_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, first: str, starts: str
) -> None:
    script = write(tmp_path, "correct\n")
    code, states, _ = simulate(capsys, script, "--first", first)
    assert code == 0 and states[0]["to_play"] == starts


def test_the_same_seed_replays_the_same_cards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = write(tmp_path, "correct\ncorrect\npass\n")
    runs = [
        [s["card"] for s in simulate(capsys, script, "--seed", seed)[1]] for seed in ("4", "4", "5")
    ]
    assert runs[0] == runs[1] != runs[2]


def test_script_lines_are_numbered_as_an_editor_shows_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # A byte-order mark (Windows Notepad) is no part of line 1, a form feed is
    # no line break, and a "#" inside a word is no comment: team R#1 can be named.
    board = write(tmp_path, '["START", "Object", "Nature", "SPIN", "Random", "FINISH"]', "b.json")
    path = tmp_path / "script.txt"
    path.write_bytes(
        "\ufefftime-up\r\ncorrect\x0c\r\ntime-up # R#1 to 1\n".encode()
        + b"correct\ncorrect\ncorrect\ntime-up\nspin wide-green\nchoose push R#1\n"
        + b"choose forward\n"
    )
    code, states, err = simulate(
        capsys, str(path), "--teams", "Blue:Ann,Bob;R#1:Cat,Dan", "--board", board
    )
    assert [s["line"] for s in states] == list(range(1, 10))
    assert states[6]["allowed"][0] == "spin"  # the engine's spinner, then a real one's results
    assert "choose push R#1" in states[7]["allowed"]
    assert [t["segment"] for t in states[8]["teams"]] == [3, 0]
    assert code == 2 and err.startswith("voice-host: line 10: ")


def test_a_script_on_standard_input_that_is_not_utf8_is_named(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Stdin:
        buffer = io.BytesIO(b"correct\n\xff\xfe\n")

    monkeypatch.setattr(sys, "stdin", Stdin())
    code, states, err = simulate(capsys, "-")
    assert (code, states) == (2, [])
    assert err == "voice-host: script on standard input is not UTF-8 text (line 2)\n"


def test_an_illegal_line_gives_no_traceback_from_the_real_command(tmp_path: Path) -> None:
    script = write(tmp_path, "correct\nchoose forward\n")
    done = subprocess.run(
        [sys.executable, "-m", "voice_host", "simulate", script],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("voice-host: line 2: 'choose forward' is not allowed now")
    assert len(done.stdout.splitlines()) == 1  # the good line before it was reported


def test_old_mac_line_endings_are_lines_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "script.txt"
    path.write_bytes(b"correct\rtime-up\r\rpass\r")
    code, states, err = simulate(capsys, str(path))
    assert (code, err) == (0, "")
    assert [(s["line"], s["input"]) for s in states] == [
        (1, "correct"),
        (2, "time-up"),
        (4, "pass"),
    ]


def test_a_board_file_with_a_byte_order_mark_is_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board = tmp_path / "board.json"
    board.write_bytes('\ufeff["START", "Person", "FINISH"]'.encode())
    code, states, err = simulate(capsys, write(tmp_path, "correct\n"), "--board", str(board))
    assert (code, err) == (0, "")
    assert states[0]["category"] == "Person"


@pytest.mark.parametrize(
    ("teams", "message"),
    [
        # A ':' typed for a ',' would make one player of two (and change R4's count).
        (
            "Red:Ann,Bob;Blue:Cat,Dan:Eve",
            "voice-host: --teams: team Blue has a player called 'Dan:Eve': separate players",
        ),
        # A name a script cannot say: " #1" would be read as a comment.
        ("Red #1:Ann,Bob;Blue:Cat,Dan", "voice-host: --teams: team 'Red #1' cannot be named"),
    ],
)
def test_teams_a_script_could_not_name_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, teams: str, message: str
) -> None:
    code, states, err = simulate(capsys, write(tmp_path, "correct\n"), "--teams", teams)
    assert (code, states) == (2, [])
    assert err.startswith(message) and err.count("\n") == 1


def test_plays_tells_a_team_on_finish_or_owing_control_that_it_describes_control(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # R16/R22: a team on FINISH, or owing a CONTROL round, describes a CONTROL entry
    # at its next turn, not its segment's category.
    board = write(
        tmp_path, '["START", "Object", "CONTROL", "Nature", "Person", "FINISH"]', "board.json"
    )
    script = "correct\ncorrect\ntime-up\ncontrol-won Blue\ntime-up\n"
    code, states, _ = simulate(capsys, write(tmp_path, script), "--board", board)
    assert code == 0
    red = states[3]["teams"][0]
    assert (red["kind"], red["control_retry"], red["plays"]) == ("CONTROL", True, "Control")
    blue = states[3]["teams"][1]
    assert blue["plays"] == "Object"  # on START: its normal turn's category
    script = "correct\n" * 5 + "time-up\ncontrol-won Blue\n"
    code, states, _ = simulate(capsys, write(tmp_path, script), "--board", board)
    red = states[-1]["teams"][0]
    assert (red["kind"], red["plays"]) == ("FINISH", "Control")
