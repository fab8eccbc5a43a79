"""A turn cut short by a crash or Ctrl-C goes on with the time its timer had left.

The save holds the running turn's time left (with every change, every second of
the timer, and on the way out), and a resumed turn starts its timer with that,
at least five seconds, rather than a fresh full turn that would favour the team
whose game stopped.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from voice_host.host.core import Host
from voice_host.host.inputs import KeyPress
from voice_host.host.saved_game import MIN_RESUMED_SECONDS, resumed_time_left, saved_to_resume
from voice_host.host.timer import Cue, TurnTimer
from voice_host.keyboard import KeyboardController
from voice_host.persist import SavedGame, SaveSlot
from voice_host.rules import Correct, Phase, TimeUp

from .conftest import HostMaker, feed_silence, new_game, until_running


def _saved_left(path: Path) -> float | None:
    return SavedGame.from_json(path.read_text(encoding="utf-8")).time_left


def _texts(host: Host) -> list[str]:
    return [s.text for s in host.said]


def test_a_timer_started_with_time_left_runs_that_long_and_warns_only_if_it_can() -> None:
    timer = TurnTimer(30.0)
    timer.start(100.0, 17.0)
    assert timer.left(100.0) == 17.0 and timer.buzzer == 117.0
    assert [c.cue for c in timer.cues(107.5)] == [Cue.WARNING]  # 10 s before its own end
    timer.start(0.0, 8.0)  # fewer than ten seconds: no "ten seconds" at once
    assert [c.cue for c in timer.cues(1.0)] == []
    assert [c.cue for c in timer.cues(8.0)] == [Cue.END]
    timer.start(0.0, 45.0)  # never more than a turn
    assert timer.left(0.0) == 30.0


def test_the_save_holds_the_running_turns_time_left(make_host: HostMaker, tmp_path: Path) -> None:
    host, clock, _ = make_host(timer=30.0)
    host.start()
    save = tmp_path / "game.json"
    assert _saved_left(save) is None  # "Go!" not said yet: no timer
    t = until_running(host, clock)
    t = feed_silence(host, clock, t, 2.0)
    host.handle(KeyPress("c", t))  # a change saves the time left with it
    at_change = _saved_left(save)
    assert at_change is not None
    assert at_change == pytest.approx(host.timer.left(t), abs=0.06)
    # no change for a while: every second of the timer is saved all the same, so a
    # power cut now would give the turn back at most a second
    for _ in range(12):
        t = feed_silence(host, clock, t, 1.0)
        left = _saved_left(save)
        assert left is not None and 0 <= left - host.timer.left(t) <= 1.01
    assert left < at_change - 11.5
    host.stop()  # Ctrl-C: the moment it stopped
    assert _saved_left(save) == pytest.approx(host.timer.left(t), abs=0.06)


def test_a_resumed_turn_goes_on_with_its_time_and_says_so(make_host: HostMaker) -> None:
    game = new_game()
    game.apply(Correct())
    host, clock, _ = make_host(game=game, timer=30.0)
    host.start(resumed=True, time_left=12.0)
    assert _texts(host)[0].endswith("Red has one right so far, 12 seconds left.")
    t = until_running(host, clock)
    assert host.timer.left(t) == pytest.approx(12.0, abs=0.11)
    t = feed_silence(host, clock, t, 12.5)
    # it ran out after its own 12 s, not after a fresh 30
    assert host.game.phase is not Phase.TURN or host.game.to_play.name != "Red"
    assert "Time! Red got one right." in _texts(host)


def test_a_paused_turn_is_saved_held_and_resumed_waiting_for_its_describer(
    make_host: HostMaker, tmp_path: Path
) -> None:
    # a turn paused (accessibility, dialogue.md 7) and then lost to a crash came
    # back running at "Go!": it now comes back waiting, as it was
    host, clock, _ = make_host(timer=30.0)
    host.start()
    save = tmp_path / "game.json"
    t = until_running(host, clock)
    host.handle(KeyPress("c", t))
    host.handle(KeyPress(" ", t + 0.1))  # pause
    assert host.timer.paused
    saved = SavedGame.from_json(save.read_text(encoding="utf-8"))
    assert saved.held and saved.time_left == pytest.approx(host.timer.left(t + 0.1), abs=0.2)
    host.handle(KeyPress(" ", t + 0.2))  # going on: no longer held
    assert not SavedGame.from_json(save.read_text(encoding="utf-8")).held

    game = new_game()
    game.apply(Correct())
    resumed, clock2, _ = make_host(game=game, timer=30.0)
    resumed.start(resumed=True, time_left=28.0, held=True)
    said = _texts(resumed)
    assert said[0].endswith("Red has one right so far, 28 seconds left.")
    assert "Go!" not in said and said[-1].endswith("press space when ready.")
    t = feed_silence(resumed, clock2, 0.0, 10.0)
    assert not resumed.timer.started  # it waits for the describer
    resumed.handle(KeyPress(" ", t))
    while not resumed.timer.running:  # "Go!", then the turn's own time
        assert t < 30.0, "the timer never started"
        t = feed_silence(resumed, clock2, t, 0.1)
    assert resumed.timer.left(t) == pytest.approx(28.0, abs=0.2)


def test_a_resumed_turn_with_nothing_won_yet_says_its_time(make_host: HostMaker) -> None:
    host, clock, _ = make_host(game=new_game(), timer=30.0)
    host.start(resumed=True, time_left=21.0)
    assert _texts(host)[0].endswith("Red's turn goes on with 21 seconds.")
    t = until_running(host, clock)
    assert host.timer.left(t) == pytest.approx(21.0, abs=0.11)


def test_a_resumed_turn_keeps_its_time_in_the_save_until_it_goes_on(
    make_host: HostMaker, tmp_path: Path
) -> None:
    host, _, _ = make_host(game=new_game(), timer=30.0, ready=True)
    host.start(resumed=True, time_left=9.0)
    assert not host.timer.started  # waiting for the describer (--ready)
    assert _saved_left(tmp_path / "game.json") == 9.0  # a second crash loses no more


def test_a_turn_given_back_with_its_time_spent_resumes_so(
    make_host: HostMaker, tmp_path: Path
) -> None:
    # Its time ran out, undo gave it back to fix its count, Ctrl-C: it was resumed
    # running with 5 s, and "Go!" (session 54's audit).  It comes back as it was.
    host, clock, _ = make_host(timer=30.0)
    host.start()
    save = tmp_path / "game.json"
    t = until_running(host, clock)
    host.handle(KeyPress("c", t))
    t = feed_silence(host, clock, t, 31.0)  # the buzzer, and the grace after it
    assert host.game.to_play.name != "Red" or host.game.phase is not Phase.TURN
    host.handle(KeyPress("u", t))
    host.handle(KeyPress("y", t + 0.1))  # undoing the end of a turn is asked first
    assert host.game.to_play.name == "Red" and host.game.phase is Phase.TURN
    host.stop()
    saved = SavedGame.from_json(save.read_text(encoding="utf-8"))
    assert saved.time_left == 0.0 and not saved.held

    game = new_game()
    game.apply(Correct())
    resumed, clock2, _ = make_host(game=game, timer=30.0)
    left = resumed_time_left(saved, game, 30.0)
    assert left == 0.0
    resumed.start(resumed=True, time_left=left)
    said = _texts(resumed)
    assert said[0].endswith("Red has one right so far, its time up.")
    assert said[-1] == "Its time is up: C, P and F fix the count, T ends the turn."
    t = feed_silence(resumed, clock2, 0.0, 10.0)
    assert resumed.game.phase is Phase.TURN and not resumed.timer.running  # no "Go!"
    resumed.handle(KeyPress("c", t))  # the count is fixed ...
    resumed.handle(KeyPress("t", t + 0.1))  # ... and T ends the turn
    assert resumed.game.position("Red") == 2


def test_the_keyboard_game_resumes_a_turn_with_its_time_spent_so() -> None:
    game = new_game()
    game.apply(Correct())
    ctl = KeyboardController(game, timer_seconds=30.0, resumed=True, time_left=0.0)
    said = ctl.opening()
    assert said[0].endswith("Red has one right so far, its time up.")
    assert said[-1] == "Its time is up: C, P and F fix the count, T ends the turn."
    assert ctl.press(" ", 1.0) == ["Time is up: press T to end the turn."]
    ctl.press("c", 2.0)
    ctl.press("t", 3.0)
    assert game.position("Red") == 2


def test_resumed_time_left_is_rounded_up_and_kept_within_a_turn(tmp_path: Path) -> None:
    slot = SaveSlot(tmp_path / "game.json", report=lambda _: None)
    game = new_game()
    # 0.0: a turn given back by undo after its time ran out comes back so (not with 5 s)
    cases = ((12.3, 13.0), (0.2, MIN_RESUMED_SECONDS), (29.5, 30.0), (None, None), (0.0, 0.0))
    for saved, resumed in cases:
        slot.save(game.to_json(), time_left=saved)
        assert resumed_time_left(saved_to_resume(slot), game, 30.0) == resumed, saved
    slot.save(game.to_json(), time_left=12.0)
    assert (
        resumed_time_left(saved_to_resume(slot), game, 10.0) == 10.0
    )  # the game's own (shorter) timer
    for inp in (Correct(), Correct(), TimeUp()):
        game.apply(inp)
    assert game.phase is Phase.CONTROL_ROUND
    slot.save(game.to_json(), time_left=12.0)
    assert (
        resumed_time_left(saved_to_resume(slot), game, 30.0) is None
    )  # no timed turn to go on with


def test_a_garbled_time_left_costs_the_turns_time_not_the_game(tmp_path: Path) -> None:
    slot = SaveSlot(tmp_path / "game.json", report=lambda _: None)
    game = new_game()
    slot.save(game.to_json(), time_left=12.0)
    data = json.loads(slot.path.read_text(encoding="utf-8"))
    assert data["time_left"] == 12.0
    for bad in ("soon", -3, True, [1], 1e9):
        data["time_left"] = bad
        slot.path.write_text(json.dumps(data), encoding="utf-8")
        saved = slot.load_game()
        assert saved is not None and saved.time_left is None, bad
        assert saved.game == game.to_json()


def test_the_keyboard_game_saves_and_resumes_the_time_left() -> None:
    saved: list[float | None] = []
    game = new_game()
    ctl: KeyboardController

    def on_change() -> None:
        saved.append(ctl.saved_time_left)

    ctl = KeyboardController(game, timer_seconds=30.0, on_change=on_change)
    ctl.press(" ", 0.0)
    ctl.press("c", 3.0)
    assert saved[-1] == 27.0
    for t in range(4, 16):
        ctl.tick(float(t))
    assert saved[-1] == 15.0  # five-second marks of the timer, without a change
    ctl.leave(16.5)  # quit or Ctrl-C: the moment it stopped
    assert saved[-1] == 13.5

    again = KeyboardController(game, timer_seconds=30.0, resumed=True, time_left=14.0)
    opening = again.opening()
    assert opening[0].endswith("Red has one right so far, 14 seconds left.")
    assert opening[-1] == "Press space to start the 14 second timer."
    assert again.saved_time_left == 14.0  # kept in the save until space
    assert again.press(" ", 100.0)[0] == "Go! 14 seconds."
    assert again.tick(103.5) == []  # no "ten seconds" until ten are left
    assert again.tick(104.1) == ["Ten seconds."]
    said = again.tick(114.0)
    assert game.to_play.name == "Blue" and any("Time" in line for line in said)
