"""A player who cannot see the screen (shared/design/dialogue.md 12): what the line mode
writes and what the host says must carry what the board view shows, and must never
give the hidden card away.  On audio time, no engine."""

from __future__ import annotations

import dataclasses
import io
import threading
from pathlib import Path

import pytest

from voice_host.announce.printed import PrintedAnnouncer
from voice_host.announce.protocol import AnnounceOptions
from voice_host.announce.recording import RecordingAnnouncer
from voice_host.host import dialogue
from voice_host.host.clock import WallClock
from voice_host.host.core import Host
from voice_host.host.inputs import Heard, KeyPress, MicStatus, Stop
from voice_host.host.live import LiveSession
from voice_host.referee.values import Judgement
from voice_host.rules import Correct, Pass, Phase, TimeUp
from voice_host.screen.model import ScreenModel
from voice_host.screen.plain import PlainScreen

from .conftest import HostMaker, ScreenRecorder, disk_full_after_first_save, live_config, new_game
from .test_host_dialogue import FakeRecognizer, quiet


def _watched(make_host: HostMaker, **kwargs: object) -> tuple[Host, object, ScreenRecorder]:
    """A host whose screen models are kept, with the card hidden as in line mode."""
    host, clock, _ = make_host(**kwargs)
    host.options = dataclasses.replace(host.options, show_card=False)
    screen = ScreenRecorder()
    host.screen = screen
    return host, clock, screen


def _lines(models: list[ScreenModel]) -> list[str]:
    """What ``--plain`` writes for these models."""
    plain = PlainScreen(show_card=True)
    return [line for m in models if (line := plain.line_for(m)) is not None]


def test_the_buzzer_is_time_up_not_a_pause(make_host: HostMaker) -> None:
    # Between the buzzer and the end of the turn (the grace for a guess under way)
    # the timer stands at 0: the line mode said "Timer paused, 0 seconds left" and
    # the board view showed PAUSED, though nobody paused anything.
    host, clock, screen = _watched(make_host, timer=12.0)
    host.start()
    t = quiet(host, clock, 0.0, 5.0)
    while not (host.timer.started and not host.timer.running):
        t = quiet(host, clock, t, 0.1)
    host.handle(KeyPress("i", t))  # a key in the grace after the buzzer
    t = quiet(host, clock, t, 5.0)
    assert host.game.to_play.name == "Blue"
    timed = [m.timer for m in screen.models if m.timer is not None]
    assert not any(t.paused for t in timed if t.whole_seconds == 0)
    lines = _lines(screen.models)
    assert not any("paused" in line.casefold() for line in lines), lines
    assert any("Time up." in line for line in lines), lines


def test_status_says_how_far_each_team_is_from_the_end_and_what_the_turn_has_left() -> None:
    # dialogue.md 4: the board view shows the track (how far each piece is from FINISH),
    # the describers and the passes left; status is a blind player's only way to them.
    game = new_game()
    game.apply(Correct())
    said = dialogue.status(game, 20.0)
    assert said == (
        "Red on segment 0 of 6, START. Blue on segment 0 of 6, START. "
        "Red's turn, Ann describing, category Object, 1 right, 1 pass left. "
        "20 seconds left."
    )
    game.apply(Pass())
    assert "1 right, no pass left." in dialogue.status(game, 20.0)


def test_status_says_a_paused_timer_and_a_spent_one() -> None:
    game = new_game()
    assert dialogue.status(game, 14.2, paused=True).endswith("Paused, 15 seconds left.")
    assert dialogue.status(game, 0.0).endswith("Time is up.")


def test_status_of_a_spin_choice_says_the_choice() -> None:
    game = new_game()
    for inp in (Correct(), Correct(), Correct(), Correct(), TimeUp()):  # Red to SPIN (4)
        game.apply(inp)
    assert dialogue.status(game, None).endswith("Red's SPIN: press space to spin.")
    game.apply_text("spin wide-green")
    assert dialogue.status(game, None).endswith("Red's SPIN choice: forward 2.")
    game.apply_text("choose forward")  # Red on 6, FINISH: its turn after the spin
    assert game.phase is Phase.FINISH_ROUND
    said = dialogue.status(game, None)
    assert "Red on segment 6 of 6, FINISH, a FINISH round to win." in said  # R22
    assert said.endswith("Red's FINISH round, Bob describing.")


def test_status_says_when_the_host_is_not_listening(make_host: HostMaker) -> None:
    # The message line ("!" in the board view) says the microphone is gone; it is said
    # once, so status says it again for a player who cannot see it.
    host, clock, _ = make_host(recognizer=FakeRecognizer())
    host.start()
    t = quiet(host, clock, 0.0, 20.0)
    host.handle(KeyPress("i", t))
    assert "listening" not in host.said[-1].text.casefold()
    host.handle(MicStatus(False, "The microphone stopped."))
    host.handle(KeyPress("i", t + 0.1))
    assert host.said[-1].text.endswith("seconds left. The microphone stopped.")
    keys_only, clock, _ = make_host()
    keys_only.start()
    keys_only.handle(KeyPress("i", 1.0))
    assert keys_only.said[-1].text.endswith("I am not listening: keys only.")


def test_the_line_mode_never_writes_the_hidden_card_in_what_was_heard(
    make_host: HostMaker,
) -> None:
    # In line mode the card is hidden because a screen reader reads every line to the
    # table; the "Heard:" line must not give it away either.  A near miss's evidence
    # names the card, and a steered hit the transcript did not confirm (words the
    # recogniser wrote as the card word, which nobody said) names it in what was heard.
    host, clock, screen = _watched(make_host)
    host.start()
    t = quiet(host, clock, 0.0, 20.0)
    entry = host.entry()
    assert entry is not None
    card = entry.text
    answer = entry.answers[0]
    heard = [
        Judgement(
            "near_miss",
            t,
            f"{answer}s",
            answer=f"{answer}s",
            evidence=f"near miss: '{answer}s' is a form of '{card}', not an answer; a guesser",
        ),
        Judgement("nothing", t + 1, answer, evidence="unconfirmed steered hit"),
        Judgement(
            "nothing",
            t + 2,
            "tell a scope",
            evidence=f"free transcript heard 'tell a scope', not '{answer}'",
        ),
    ]
    for j in heard:
        host.handle(Heard((j,)))
    assert host.entry() == entry  # still being described
    lines = _lines(screen.models)
    assert not any(card.casefold() in line.casefold() for line in lines), lines
    assert host.screen is screen
    assert screen.models[-1].heard == "" and screen.models[-1].judgement == ""
    # shown the card (the board view's default), the words are shown as heard
    host.options = dataclasses.replace(host.options, show_card=True)
    host.handle(Heard((heard[1],)))
    assert screen.models[-1].heard == answer


def test_the_line_mode_writes_what_was_heard_only_when_it_was_judged_something(
    make_host: HostMaker,
) -> None:
    # A describer's clues are judged nothing: in line mode a screen reader read every
    # one back to the table ("Heard: you look at the stars with it. No answer, ...").
    # A guess, a foul, a near miss or a command may be disputed: those are written.
    host, clock, screen = _watched(make_host)
    host.start()
    t = quiet(host, clock, 0.0, 20.0)
    entry = host.entry()
    assert entry is not None
    clue = Judgement("nothing", t, "you look at the stars with it", evidence="no answer heard")
    host.handle(Heard((clue,)))
    assert screen.models[-1].heard == clue.heard  # the board view still shows it
    assert not any("stars" in line for line in _lines(screen.models))
    guess = Judgement(
        "guess", t + 1, entry.answers[0], answer=entry.answers[0], evidence="a guesser"
    )
    host.handle(Heard((guess,)))
    assert any(line.startswith(f"Heard: {entry.answers[0]}.") for line in _lines(screen.models))


class _Headphones:
    """A private card voice that can be heard (``--card-audio`` on a working output)."""

    audible = True

    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, text: str, *, interrupt: bool = False) -> None:
        self.said.append(text)

    def close(self) -> None: ...


def test_k_says_the_card_again_in_the_describers_headphones(make_host: HostMaker) -> None:
    # With --card-audio each card is said once, privately.  A describer who cannot
    # see the screen and missed it (or forgot it) had no way to hear it again: K
    # printed it in line mode, where a screen reader reads it to the whole table.
    host, clock, screen = _watched(make_host)
    private = _Headphones()
    host.card_announcer = private  # type: ignore[assignment]
    host.start()
    t = quiet(host, clock, 0.0, 20.0)
    card = f"Object: {host.entry_text()}"
    assert private.said == [card]
    host.handle(KeyPress("k", t))
    assert private.said == [card, card]
    assert all(m.card is None for m in screen.models)  # not written for the table
    assert not any(host.entry_text() in s.text for s in host.said)


def test_k_shows_the_card_when_the_card_voice_could_not_open(
    make_host: HostMaker, tmp_path: Path
) -> None:
    # --card-audio on an output that is not there falls back to a voice that says
    # nothing (it must not print the card): K shows the card, as without one.
    host, clock, screen = _watched(make_host)
    host.card_announcer = PrintedAnnouncer(AnnounceOptions(private=True), printer=print)
    host.start()
    t = quiet(host, clock, 0.0, 20.0)
    host.handle(KeyPress("k", t))
    assert screen.models[-1].card == host.entry_text()


def test_a_card_voice_that_cannot_open_is_said_aloud_in_line_mode(tmp_path: Path) -> None:
    # Line mode printed "No private card audio: ...; the card is only shown on the
    # screen" and said nothing: a describer listening to the host's voice never heard
    # that the headphones were silent, and in line mode the card is not shown at all.
    clock = WallClock()
    announcer = RecordingAnnouncer(clock=clock.now)
    config = live_config(tmp_path, teams="Red:Ann,Bob;Blue:Cat,Dan", card_audio="no such output")
    out = io.StringIO()
    session = LiveSession.open(
        config, stdout=out, env={}, clock=clock, board_view=False, announcer=announcer
    )
    assert session.run_lines(io.StringIO("q\ny\n")) == 0
    texts = [e.text for e in announcer.entries]
    said = [t for t in texts if "card audio" in t]
    assert len(said) == 1, texts
    assert "press K to see the card" in said[0], said
    # before the welcome, not after "Go!" when the describer is already describing
    assert texts.index(said[0]) < next(i for i, t in enumerate(texts) if "Welcome" in t), texts
    assert "only shown on the screen" not in out.getvalue()


def test_a_save_that_fails_is_said_aloud_in_line_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The board view says a failing save on the host's voice; line mode only printed
    # it, so a player listening to the host never heard that the game was not saved.
    disk_full_after_first_save(monkeypatch)
    clock = WallClock()
    announcer = RecordingAnnouncer(clock=clock.now, options=AnnounceOptions(rate=3000))
    config = live_config(tmp_path, teams="Red:Ann,Bob;Blue:Cat,Dan")
    session = LiveSession.open(
        config, stdout=io.StringIO(), env={}, clock=clock, board_view=False, announcer=announcer
    )
    thread = threading.Thread(target=session.host_loop)
    thread.start()
    try:
        slot = session.host.save_slot
        assert slot is not None
        for _ in range(400):  # the turn's timer has started, and its save has failed
            if session.host.timer.started and slot.failure is not None:
                break
            threading.Event().wait(0.05)
        threading.Event().wait(0.3)
    finally:
        session.inputs.put(Stop("test"))
        thread.join(10.0)
        session.close()
    said = [e.text for e in announcer.entries]
    assert sum("Play goes on, and the last save is kept" in s for s in said) == 1, said


def test_the_board_view_shows_what_was_said_last_help_and_status_too(
    make_host: HostMaker,
) -> None:
    # With no speech output the printed announcements go to the board view's host line;
    # help, status and refusals were left off it (they are not what "repeat" repeats),
    # so there ? and I showed nothing at all.
    host, clock, screen = _watched(make_host, timer=30.0)
    host.start()
    t = quiet(host, clock, 0.0, 20.0)
    host.handle(KeyPress("?", t))
    assert screen.models[-1].announcement == host.said[-1].text
    assert "C correct" in screen.models[-1].announcement
    host.handle(KeyPress("i", t + 0.1))
    assert screen.models[-1].announcement == host.said[-1].text
    host.handle(KeyPress("a", t + 0.2))  # repeat still repeats the last announcement
    assert host.said[-2].text.startswith("I said: Welcome")


def test_a_resumed_turn_shows_the_time_it_goes_on_with(make_host: HostMaker) -> None:
    # The host said "Red has one right so far, 14 seconds left." and the line mode
    # wrote "30 seconds left." under it: a full timer, until the turn went on.
    host, _clock, screen = _watched(make_host, timer=30.0)
    host.game.apply(Correct())
    host.start(resumed=True, time_left=14.0)
    assert "14 seconds left." in host.said[0].text
    timed = [m.timer for m in screen.models if m.timer is not None]
    assert timed and all(t.whole_seconds == 14 for t in timed)
    lines = _lines(screen.models)
    assert "14 seconds left." in lines[0] and "30 seconds" not in lines[0], lines


def test_status_says_the_turn_waits_for_its_describer(make_host: HostMaker) -> None:
    # Under --ready (or after a turn nobody played) the game waits for space; status
    # said the turn and the count but not that nothing runs until the describer is ready.
    host, _clock, _ = make_host(ready=True)
    host.start()
    host.handle(KeyPress("i", 1.0))
    assert "1 pass left. Ann, press space when ready. " in host.said[-1].text
