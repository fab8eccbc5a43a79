"""A whole game on audio time: recorded voices through the real pocketsphinx recogniser,
scripted keys, the announcer rendering its speech to files and played back into the
microphone (the gate must keep the host from judging itself)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.host.conftest import FIXTURES, GUESS_CLIPS, HostMaker
from voice_host.announce.protocol import AnnounceOptions
from voice_host.announce.sounds import Sound
from voice_host.host.core import Host
from voice_host.host.script import Announce, Key, Replay, Until, Voice
from voice_host.rules import Phase

pytestmark = pytest.mark.slow


def _recognizer() -> object:
    pytest.importorskip("pocketsphinx", reason="the real recogniser is needed")
    from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer

    return PocketSphinxRecognizer()


def _renderer_works(tmp_path: Path) -> bool:
    try:
        from voice_host.announce.render import Pyttsx3Renderer, VoiceSettings

        r = Pyttsx3Renderer()
        try:
            r.render_to_file("ready", tmp_path / "probe.wav", VoiceSettings())
        finally:
            r.close()
    except Exception:
        return False
    return True


def guess_clip(host: Host) -> Path:
    """The recording of a guesser calling out the card being described."""
    return GUESS_CLIPS[host.entry_text()]


def phase(p: Phase) -> Until:
    return Until(lambda h: h.game.phase is p, f"phase {p.value}")


def turn_over(n: int) -> Until:
    return Until(lambda h: h.game.state.turn > n, f"turn {n} over")


def snapshot(host: Host) -> tuple[str, str, tuple[int, ...], int]:
    s = host.game.state
    return (s.phase.value, host.game.teams[s.to_play].name, s.positions, s.correct)


def test_whole_game_voice_and_keys_with_the_host_voice_fed_back(
    make_host: HostMaker, tmp_path: Path
) -> None:
    if not _renderer_works(tmp_path):
        pytest.skip("pyttsx3/espeak cannot render speech here")
    host, clock, announcer = make_host(recognizer=_recognizer(), render=True, timer=20.0)
    replay = Replay(host, clock, announcer, feedback=True)
    states: list[tuple[str, str, tuple[int, ...], int]] = []

    def mark(h: Host) -> bool:
        states.append(snapshot(h))
        return True

    host.start()
    run_script(replay, mark)
    announcer.close()

    assert states == [
        ("turn", "Red", (0, 0), 0),
        ("turn", "Red", (0, 0), 1),  # a guess by voice
        ("turn", "Red", (0, 0), 2),  # a key; then the host says the card: not judged
        ("control-round", "Red", (2, 0), 2),  # R13
        ("turn", "Blue", (2, 0), 0),  # Blue claimed by voice (R14); Red stays on CONTROL (R16)
        ("control-round", "Red", (2, 1), 0),  # R16: Red's CONTROL round again
        ("turn", "Red", (2, 1), 0),  # Red's buzzer: a bonus turn (R15)
        ("spin", "Red", (4, 1), 2),
        ("spin-choice", "Red", (4, 1), 2),  # wide green
        ("turn", "Red", (4, 0), 0),  # "host push blue" by voice (R19: not past START); R21
        ("finish-round", "Red", (6, 0), 2),  # R22
        ("game-over", "Red", (6, 0), 2),
    ]
    texts = [s.text for s in host.said]
    expected = [
        "Welcome to Articulate!",
        "Red's turn. Ann describing, Bob guessing. Category: Object.",
        "Go!",
        ", correct. One.",
        ", correct. Two.",
        "Time! Red got two right.",
        "Red moves 2 to segment 2, CONTROL.",
        "CONTROL round!",
        "Blue answered first: ",  # the card echoed (dialogue.md 2)
        "Red stays on CONTROL",
        "Pass.",
        "Blue moves 1 to segment 1, Object.",
        "Red answered first: ",
        "Red wins a bonus turn, with new describers.",
        "Red moves 2 to segment 4, SPIN.",
        "The spinner says wide green: 2.",
        "Blue is pushed back 1, as far as START, segment 0.",
        "Red moves 2 and reaches FINISH, segment 6.",
        "FINISH round!",
        "Red wins the game! Congratulations!",
    ]
    at = 0
    for phrase in expected:
        at = next(i for i in range(at, len(texts)) if phrase in texts[i]) + 1
    # the time cues (chimes) fall where the clock puts them among the turn's guesses
    go = texts.index("Go!")
    cue, buzzer, time_up = (
        texts.index(t, go)
        for t in ("(chime: ten seconds)", "(chime: time up)", "Time! Red got two right.")
    )
    assert go < cue < buzzer < time_up
    # ... and the table heard the ten-second chime once before, with what it means
    taught = texts.index("Two rising notes mean ten seconds left in a turn.")
    assert texts[taught + 1] == "(chime: ten seconds)" and taught + 1 < go
    # a chime is played (into the microphone too, with the feedback), gated as speech
    chimes = [e for e in announcer.entries if e.sound is not None]
    assert {e.sound for e in chimes} == set(Sound) and all(e.wav is not None for e in chimes)
    assert all(announcer.is_gated((e.start + e.end) / 2) for e in chimes)
    # The host's own voice went into the microphone and was dropped, never judged.
    assert host.listening is not None and host.listening.dropped_seconds > 60
    assert not any(j.heard.startswith(("welcome", "is it a")) for j in host.judgements)
    log = (tmp_path / "said.log").read_text(encoding="utf-8").splitlines()
    assert len(log) == len(texts) and log[-2].endswith("Red wins the game! Congratulations!")
    # the win can still be taken back (a wrong buzzer): the host says how, and waits
    assert log[-1].endswith("Press U or say host undo to take the win back; Q or host quit ends.")
    assert len(list((tmp_path / "said").glob("*.wav"))) == len(texts)


def run_script(replay: Replay, mark: Callable[[Host], bool]) -> None:
    replay.run(
        [
            Until(mark, "start"),
            Voice(guess_clip),  # Red: a guess by voice
            Until(mark, "after voice guess"),
            Key("c"),
            Until(mark, "after key"),
            # A judgeable phrase in the host's own voice: the gate must keep it out.
            Announce(lambda h: f"Is it a {h.entry_text()}?"),
            phase(Phase.CONTROL_ROUND),
            Until(mark, "control"),
            Voice(FIXTURES / "kal16" / "team__blue.wav"),  # Blue claims by name
            phase(Phase.TURN),
            Until(mark, "blue turn"),
            Key("c"),
            Key("p"),
            phase(Phase.CONTROL_ROUND),
            Until(mark, "red control again"),
            Key("1"),  # Red's buzzer
            phase(Phase.TURN),
            Until(mark, "red bonus"),
            Key("c"),
            Key("c"),
            phase(Phase.SPIN),
            Until(mark, "spin"),
            Key("w"),
            Until(mark, "choice"),
            Voice(FIXTURES / "rms" / "command__host_push_blue.wav"),
            phase(Phase.TURN),
            Until(mark, "red again"),
            Key("c"),
            Key("c"),
            phase(Phase.FINISH_ROUND),
            Until(mark, "finish"),
            Key("1"),
            phase(Phase.GAME_OVER),
            Until(mark, "over"),
        ]
    )


@pytest.mark.parametrize(
    ("gate", "counted"),
    [
        (True, 0),  # gate on: the host saying "Is it a <card>?" is never heard
        (False, 1),  # gate off: the same announcement counts as a guess
    ],
)
def test_the_microphone_gate_keeps_the_host_from_judging_itself(
    make_host: HostMaker, tmp_path: Path, gate: bool, counted: int
) -> None:
    if not _renderer_works(tmp_path):
        pytest.skip("pyttsx3/espeak cannot render speech here")
    # A clear American voice at 130 words a minute: the recogniser must be able to hear the
    # host for this to prove anything (the default espeak voice is mostly misheard).
    voice = AnnounceOptions(voice="gmw/en-us", rate=130)
    host, clock, announcer = make_host(
        recognizer=_recognizer(), render=True, gate=gate, timer=40.0, voice=voice
    )
    replay = Replay(host, clock, announcer, feedback=True)
    host.start()
    replay.run([Until(lambda h: h.timer.running, "the timer")])
    replay.advance(1.5)
    card = host.entry_text()
    replay.run([Announce(lambda h: f"Is it a {h.entry_text()}?", settle=3.0)])
    guesses = [j for j in host.judgements if j.type == "guess" and j.answer == card.lower()]
    assert len(guesses) == counted
    assert host.game.state.correct == counted
