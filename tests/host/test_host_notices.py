"""Microphone notices are said once per change of state: not twice in line mode, and not
again by the game after the team set-up has said them."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from voice_host.announce.recording import RecordingAnnouncer
from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
from voice_host.config import HostConfig
from voice_host.errors import DeviceError, SaveError
from voice_host.host import dialogue
from voice_host.host.clock import AudioClock, WallClock
from voice_host.host.inputs import InputQueue, KeyPress, KeysClosed, MicStatus, Notice, Stop
from voice_host.host.listening import Listening
from voice_host.host.live import LiveSession, _listen, run_live
from voice_host.host.setup import SetupDialogue
from voice_host.host.setup_live import SetupRunner
from voice_host.persist import SaveSlot
from voice_host.referee import Referee
from voice_host.rules import Game, Phase

from .conftest import HostMaker, Silent, disk_full_after_first_save, live_config

KEYBOARD_ONLY = "Keyboard only: not listening."
LOST = dialogue.NO_MICROPHONE


def _first_news(n: int) -> list[object]:
    """The first ``n`` inputs the real listening thread puts for the host (with the
    microphone class patched by the test), then the thread stopped."""
    inputs, stopping = InputQueue(), threading.Event()
    listening = Listening(Silent(), Referee(), None)
    thread = threading.Thread(
        target=_listen, args=(HostConfig(), listening, inputs, WallClock(), stopping)
    )
    thread.start()
    try:
        return [inputs.get(10.0) for _ in range(n)]
    finally:
        stopping.set()
        thread.join(10.0)


def _said(texts: list[str], part: str) -> int:
    return sum(part in text for text in texts)


def test_without_listening_the_notice_is_said_once(make_host: HostMaker) -> None:
    host, _, _ = make_host()
    host.start()
    host.handle(MicStatus(False, KEYBOARD_ONLY))
    host.handle(MicStatus(False, KEYBOARD_ONLY))
    texts = [s.text for s in host.said]
    assert _said(texts, KEYBOARD_ONLY) == 1
    assert f"{KEYBOARD_ONLY} Play with the keys; question mark for help." in texts


def test_news_the_set_up_already_said_is_shown_not_said(make_host: HostMaker) -> None:
    host, _, _ = make_host()
    host.told(KEYBOARD_ONLY)
    host.start()
    host.handle(MicStatus(False, KEYBOARD_ONLY))
    assert _said([s.text for s in host.said], "not listening") == 0
    assert host._message == KEYBOARD_ONLY  # still on the screen


def test_a_lost_microphone_is_said_again_only_after_it_came_back(make_host: HostMaker) -> None:
    host, _, _ = make_host(listening=Listening(Silent(), Referee(), None))
    host.told(LOST)  # the set-up lost the microphone and said so
    host.start()
    host.handle(MicStatus(False, LOST))  # the game's own try fails the same way
    assert not host.mic_live
    assert _said([s.text for s in host.said], LOST) == 0
    host.handle(MicStatus(True, "The microphone is back."))
    assert host.said[-1].text == "The microphone is back. Listening again."
    host.handle(MicStatus(False, LOST))  # a new loss: said
    host.handle(MicStatus(False, LOST))
    assert _said([s.text for s in host.said], LOST) == 1


def test_the_set_up_and_the_game_word_a_lost_microphone_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The set-up's notice is recognised by the game only if both say the same words."""
    clock = AudioClock()

    def failing() -> Iterator[AudioChunk]:
        yield AudioChunk(bytes(3200), SAMPLE_RATE, 0.0)
        raise DeviceError("the microphone stopped; check the cable")

    announcer = RecordingAnnouncer(clock=clock.now)
    keys = iter("222y")

    def later(_timeout: float) -> str | None:
        # The players reach for the keys once the host says the microphone is gone.
        if not any(e.text.startswith("No microphone") for e in announcer.entries):
            return None
        return next(keys, None)

    runner = SetupRunner(
        SetupDialogue(),
        announcer=announcer,
        clock=clock,
        keys=later,
        recognizer=Silent(),
        chunks=failing(),
    )
    runner.run()
    assert runner.notice == LOST

    class DeadMicrophone:
        dropped_blocks = 0

        def __init__(self, device: object, on_event: object = None) -> None: ...

        def __iter__(self) -> Iterator[AudioChunk]:
            raise DeviceError("the microphone stopped; check the cable")

        def close(self) -> None: ...

    monkeypatch.setattr("voice_host.audio.microphone.MicrophoneSource", DeadMicrophone)
    shown = "No microphone: the microphone stopped."  # the device's words, not said
    assert _first_news(1) == [MicStatus(False, runner.notice, shown=shown)]


_config = live_config


@pytest.mark.parametrize(
    ("teams", "stdin"),
    [
        ("Red:Ann,Bob;Blue:Cat,Dan", "q\ny\n"),  # teams given: the game says it
        (None, "2\n2\n\n\nq\ny\n"),  # set up aloud first: the set-up says it, the game not
    ],
)
def test_line_mode_says_the_notice_once(tmp_path: Path, teams: str | None, stdin: str) -> None:
    out = io.StringIO()
    code = run_live(_config(tmp_path, teams=teams), stdin=io.StringIO(stdin), stdout=out, env={})
    assert code == 0
    text = out.getvalue()
    assert "Game saved to" in text  # the game ran to the quit
    save = tmp_path / "game.json"
    assert f"To go on later: voice-host play --resume --save {save}. Goodbye." in text
    assert text.count(KEYBOARD_ONLY) == 1, text
    # Said before the game opens, not in the first turn after "Go!".
    assert text.index(KEYBOARD_ONLY) < text.index("Welcome"), text
    # The first status line follows the opening, not the notice before it.
    assert text.index("Go!") < text.index("Turn: "), text


def _listening_session(tmp_path: Path) -> tuple[LiveSession, RecordingAnnouncer]:
    """A line-mode session with teams and a recogniser (one that hears nothing), on
    whatever microphone class the test patched in; and the announcer it speaks to."""
    clock = WallClock()
    announcer = RecordingAnnouncer(clock=clock.now)
    config = _config(tmp_path, teams="Red:Ann,Bob;Blue:Cat,Dan", keyboard_only=False)
    session = LiveSession.open(
        config,
        stdout=io.StringIO(),
        env={},
        clock=clock,
        board_view=False,
        announcer=announcer,
        recognizer=(Silent(), "using silent"),
    )
    return session, announcer


def test_a_missing_microphone_is_said_before_the_welcome_and_only_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a recogniser but no microphone at all, the news comes before the game opens,
    and the listening thread's own report of the same failure is not said again."""

    def no_device(device: object, sd: object = None) -> object:
        raise DeviceError("no microphone found (no audio input device); play with the keyboard")

    class NoMicrophone:
        dropped_blocks = 0

        def __init__(self, device: object, on_event: object = None) -> None: ...

        def check(self) -> None:
            no_device(None)

        def __iter__(self) -> Iterator[AudioChunk]:
            no_device(None)
            yield AudioChunk(b"", SAMPLE_RATE, 0.0)  # never reached

        def close(self) -> None: ...

    monkeypatch.setattr("voice_host.audio.microphone.MicrophoneSource", NoMicrophone)
    session, announcer = _listening_session(tmp_path)
    keys = io.StringIO()
    thread = threading.Thread(target=session.run_lines, args=(keys,))
    thread.start()
    try:
        for _ in range(100):  # the listening thread has tried the microphone
            if not session.host.mic_live:
                break
            threading.Event().wait(0.05)
    finally:
        session.inputs.put(Stop("test"))
        thread.join(10.0)
    texts = [e.text for e in announcer.entries]
    news = "No microphone: I cannot hear the table."
    assert texts[0] == f"{news} Play with the keys; question mark for help.", texts
    assert texts[1].startswith("Welcome"), texts
    assert "host help" not in texts[1]  # no voice to say it with; the keys were just named
    assert _said(texts, news) == 1, texts
    assert not session.host.mic_live  # the thread's report still counted


def test_a_microphone_found_after_the_notice_brings_listening_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check before the welcome found no microphone, but by the time the listening
    thread opens one it works (plugged in just then): the host, which said it cannot
    hear, says it listens again, instead of ignoring a working microphone."""

    def no_device(device: object, sd: object = None) -> object:
        raise DeviceError("no microphone found (no audio input device); play with the keyboard")

    class LateMicrophone:
        dropped_blocks = 0

        def __init__(self, device: object, on_event: object = None) -> None: ...

        def check(self) -> None:
            no_device(None)  # not there yet when the host checks

        def __iter__(self) -> Iterator[AudioChunk]:
            t = 0.0
            while True:
                yield AudioChunk(b"\x00\x00" * 1600, SAMPLE_RATE, t)
                t += 0.1
                threading.Event().wait(0.02)

        def close(self) -> None: ...

    monkeypatch.setattr("voice_host.audio.microphone.MicrophoneSource", LateMicrophone)
    session, announcer = _listening_session(tmp_path)
    thread = threading.Thread(target=session.host_loop)  # no keyboard thread
    thread.start()
    try:
        for _ in range(200):
            if session.host.mic_live:
                break
            threading.Event().wait(0.05)
    finally:
        session.stopping.set()
        session.inputs.put(Stop("test"))
        thread.join(10.0)
    texts = [e.text for e in announcer.entries]
    assert texts[0].startswith("No microphone: I cannot hear the table."), texts
    assert session.host.mic_live
    assert "The microphone is back. Listening again." in texts, texts


def test_the_ready_option_reaches_the_live_host(tmp_path: Path) -> None:
    out = io.StringIO()
    config = _config(tmp_path, teams="Red:Ann,Bob;Blue:Cat,Dan", ready=True)
    assert run_live(config, stdin=io.StringIO("q\ny\n"), stdout=out, env={}) == 0
    text = out.getvalue()
    # keys only (the test config does not listen): no spoken command is offered
    assert "Ann, press space when ready." in text
    assert "Go!" not in text


def test_the_pause_detectors_runtime_loads_before_any_thread_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # It sets an environment variable while it loads (reply_pause.load_runtime):
    # only safe while nothing else runs, so before the announcer's thread.
    from voice_host.host import live
    from voice_host.speech import reply_pause

    events: list[str] = []
    monkeypatch.setattr(
        reply_pause, "load_runtime", lambda: events.append(f"load {threading.active_count()}")
    )
    opened = live.open_announcer

    def open_announcer(*args, **kwargs):  # type: ignore[no-untyped-def]
        events.append("announcer")
        return opened(*args, **kwargs)

    monkeypatch.setattr(live, "open_announcer", open_announcer)
    out = io.StringIO()
    config = _config(tmp_path, teams="Red:Ann,Bob;Blue:Cat,Dan")
    threads_before = threading.active_count()
    assert run_live(config, stdin=io.StringIO("q\ny\n"), stdout=out, env={}) == 0
    assert events[:2] == [f"load {threads_before}", "announcer"]  # no thread of its own yet


def test_a_muted_microphone_is_said_once_and_so_is_its_return(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """dialogue.md 10: blocks of digital zeros (a laptop's mute key) are no stall, but
    the host says once that it hears nothing, and once that it hears again."""
    import numpy as np

    from voice_host.audio.levels import SILENT_SECONDS
    from voice_host.host.dialogue import MIC_SILENT, MIC_SOUND
    from voice_host.host.inputs import Notice

    n = SAMPLE_RATE // 10
    loud = (np.random.default_rng(1).standard_normal(n) * 1000).astype("<i2").tobytes()

    class MutedMicrophone:
        dropped_blocks = 0

        def __init__(self, device: object, on_event: object = None) -> None: ...

        def __iter__(self) -> Iterator[AudioChunk]:
            blocks = int(SILENT_SECONDS * 10) + 20
            for i in range(blocks):
                yield AudioChunk(bytes(2 * n), SAMPLE_RATE, i / 10)
            for i in range(blocks, blocks + 5):  # unmuted
                yield AudioChunk(loud, SAMPLE_RATE, i / 10)

        def close(self) -> None: ...

    monkeypatch.setattr("voice_host.audio.microphone.MicrophoneSource", MutedMicrophone)
    assert _first_news(2) == [Notice(MIC_SILENT), Notice(MIC_SOUND)]


def test_keys_closing_while_the_host_cannot_hear_saves_and_stops(make_host: HostMaker) -> None:
    # Nothing could move the game on: no keys, no ears. Save and leave, do not run
    # turns out forever.
    host, _, _ = make_host()
    host.start()
    host.handle(KeyPress("c", 1.0))
    host.handle(KeysClosed())
    assert host.finished
    assert host.said[-2].text == dialogue.STRANDED
    assert host.save_slot is not None and host.save_slot.path.exists()


def test_keys_closing_while_listening_plays_on_until_the_microphone_goes(
    make_host: HostMaker,
) -> None:
    host, _, _ = make_host(listening=Listening(Silent(), Referee(), None))
    host.start()
    host.handle(KeysClosed())
    assert not host.finished  # voice still plays the game
    host.handle(MicStatus(False, LOST))
    assert host.finished and dialogue.STRANDED in [s.text for s in host.said]


def test_a_keys_only_game_whose_input_runs_out_ends_with_the_game_saved(tmp_path: Path) -> None:
    out = io.StringIO()
    config = _config(tmp_path, teams="Red:Ann,Bob;Blue:Cat,Dan")
    codes: list[int] = []
    runner = threading.Thread(
        target=lambda: codes.append(run_live(config, stdin=io.StringIO("c\n"), stdout=out, env={})),
        daemon=True,
    )
    runner.start()
    runner.join(60.0)
    assert codes == [0], out.getvalue()  # before, it ran turns out with nobody to play
    saved = SaveSlot(tmp_path / "game.json").load_game()
    assert saved is not None
    game = Game.from_json(saved.game)
    assert game.phase is Phase.TURN and game.state.correct == 1  # nothing was lost
    assert dialogue.STRANDED in out.getvalue()


def test_keys_piped_through_a_control_round_are_played_in_order(tmp_path: Path) -> None:
    # Red lands on CONTROL (two right, then time), Blue's buzzer wins the round, and the
    # status asked for after it is Blue's turn. Before, the keys behind the buzzer were
    # taken as the round's ("Key i ...", a status of the round) and the input's end
    # stopped the game before the buzzer's half second was up: Blue's win was lost.
    out = io.StringIO()
    config = _config(tmp_path, teams="Red:Ann,Bob;Blue:Cat,Dan")
    stdin = io.StringIO("c\nc\nt\n2\ni\n")
    codes: list[int] = []
    runner = threading.Thread(
        target=lambda: codes.append(run_live(config, stdin=stdin, stdout=out, env={})),
        daemon=True,
    )
    runner.start()
    runner.join(60.0)
    printed = out.getvalue()
    assert codes == [0], printed
    assert "Blue answered first: " in printed
    status = [line for line in printed.splitlines() if "describing, category" in line]
    assert len(status) == 1 and "Blue's turn" in status[0], printed
    saved = SaveSlot(tmp_path / "game.json").load_game()
    assert saved is not None
    game = Game.from_json(saved.game)
    assert game.phase is Phase.TURN and game.to_play.name == "Blue"


def test_a_resume_reads_the_save_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The options, the game and the turn's time left all come from one reading of the
    # save file (it was read three times, and could have changed in between).
    config = _config(tmp_path, teams="Red:Ann,Bob;Blue:Cat,Dan")
    assert run_live(config, stdin=io.StringIO("c\n"), stdout=io.StringIO(), env={}) == 0
    reads: list[Path] = []
    load_game = SaveSlot.load_game

    def counted(slot: SaveSlot) -> object:
        reads.append(slot.path)
        return load_game(slot)

    monkeypatch.setattr(SaveSlot, "load_game", counted)
    out = io.StringIO()
    resumed = _config(tmp_path, resume=True)
    assert run_live(resumed, stdin=io.StringIO("c\n"), stdout=out, env={}) == 0
    assert reads == [tmp_path / "game.json"], out.getvalue()
    assert "Red has one right so far" in out.getvalue()


def test_a_game_that_cannot_be_saved_does_not_say_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The disk fills after the first save: play goes on (said once), and the goodbye
    # says the game could not be saved, then the command ends with one line, non-zero.
    disk_full_after_first_save(monkeypatch)
    out = io.StringIO()
    config = _config(tmp_path, teams="Red:Ann,Bob;Blue:Cat,Dan")
    with pytest.raises(SaveError, match="is full; the last good save is kept"):
        run_live(config, stdin=io.StringIO("c\nq\ny\n"), stdout=out, env={})
    text = out.getvalue()
    assert "Game saved" not in text
    assert "Host: I could not save the game: the disk is full. The last save is kept." in text
    saved = SaveSlot(tmp_path / "game.json").load_game()
    assert saved is not None  # the first save is still there, whole
    assert Game.from_json(saved.game).state.correct == 0


def test_notices_waiting_before_the_game_opens_are_taken_and_the_rest_kept_in_order() -> None:
    queue = InputQueue()
    queue.put(Notice("No card audio; press K to see the card.", shown="No private card audio: ..."))
    queue.put(KeyPress("i", 0.0))
    queue.put(Notice("The save failed."))
    queue.put(KeyPress("c", 0.1))
    assert queue.take_notices() == [
        Notice("No card audio; press K to see the card.", shown="No private card audio: ..."),
        Notice("The save failed."),
    ]
    assert [queue.get(0), queue.get(0), queue.get(0)] == [
        KeyPress("i", 0.0),
        KeyPress("c", 0.1),
        None,
    ]


def test_team_names_said_alike_are_told_when_the_host_listens(tmp_path: Path) -> None:
    # a spoken "team two" is always taken for the first of them: the other is told
    # to claim with its buzzer (keys alone: nothing to tell)
    teams = "Team 2:Ann,Bob;Team Two:Cat,Dan"
    heard = LiveSession.open(
        _config(tmp_path, teams=teams, keyboard_only=False),
        stdout=io.StringIO(),
        env={},
        clock=WallClock(),
        board_view=False,
        announcer=RecordingAnnouncer(clock=WallClock().now),
        recognizer=(Silent(), "using silent"),
    )
    notices = [n.text for n in heard.inputs.take_notices()]
    assert any("Team 2 and Team Two sound the same" in n and "buzzer" in n for n in notices)
    keys_only = LiveSession.open(
        _config(tmp_path / "k", teams=teams),
        stdout=io.StringIO(),
        env={},
        clock=WallClock(),
        board_view=False,
        announcer=RecordingAnnouncer(clock=WallClock().now),
    )
    assert not [n for n in keys_only.inputs.take_notices() if "sound the same" in n.text]


def test_the_saved_game_taken_up_at_the_spoken_set_up_names_the_options_it_drops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Session 60's audit: "yes" to the set-up's offer (spoken, or its keys) went on with
    # the saved game and dropped --seed, --house and --advanced unsaid, where the keyboard
    # game and --no-voice-setup name them.
    import dataclasses

    import voice_host.host.live as live
    import voice_host.host.setup_live as setup_live

    class Opened(Exception):
        """The game would open now."""

    def taken(config: HostConfig, **_: object) -> HostConfig:
        return dataclasses.replace(config, resume=True)  # "yes" to the offer

    def opened(*_: object, **__: object) -> None:
        raise Opened

    monkeypatch.setattr(setup_live, "set_up_teams", taken)
    monkeypatch.setattr(live, "open_recognizer", lambda *_: (None, "no recogniser here"))
    monkeypatch.setattr(live.LiveSession, "open", opened)
    monkeypatch.setattr(
        live, "open_announcer", lambda *_, **__: RecordingAnnouncer(clock=lambda: 0.0)
    )
    line = "voice-host: --seed and --house do nothing with the saved game taken up: ..."
    config = live_config(tmp_path, keyboard_only=False)
    with pytest.raises(Opened):
        live.run_live(config, stdin=io.StringIO(), stdout=io.StringIO(), env={}, offer_taken=line)
    assert capsys.readouterr().err == line + "\n"
    # a new game set up instead: nothing is dropped, nothing said
    monkeypatch.setattr(setup_live, "set_up_teams", lambda config, **_: config)
    with pytest.raises(Opened):
        live.run_live(config, stdin=io.StringIO(), stdout=io.StringIO(), env={}, offer_taken=line)
    assert capsys.readouterr().err == ""
