"""``--screen-reader``: the player's screen reader says the host's words, and the
microphone ignores what it is reading (its voice reaches the microphone as the host's
would), on audio time."""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path

import pytest

from tests.host.conftest import DATA, live_config, new_game
from voice_host.announce.protocol import AnnounceOptions
from voice_host.announce.read_aloud import ScreenReaderAnnouncer
from voice_host.audio.chunk import AudioChunk
from voice_host.deck.model import Deck
from voice_host.host.clock import AudioClock
from voice_host.host.core import Host, HostOptions
from voice_host.host.inputs import KeyPress
from voice_host.host.listening import Listening
from voice_host.host.live import run_live, uses_board_view
from voice_host.persist import SaveSlot
from voice_host.referee import Referee
from voice_host.screen.plain import PlainScreen
from voice_host.speech.events import HeardWord, ListenContext, RecognitionEvent

LOUD = b"\x01\x00" * 1600  # 0.1 s that the fake recogniser hears as the card's answer
QUIET = b"\x00\x00" * 1600


class CardWordRecognizer:
    """Hears the card's answer in every loud chunk, nothing in quiet ones."""

    name = "fake"

    def __init__(self) -> None:
        self.answer = ""

    def start(self, context: ListenContext) -> None:
        self.set_context(context)

    def prepare(self, contexts: Iterable[ListenContext]) -> None: ...

    def set_context(self, context: ListenContext) -> None:
        self.answer = context.answers[0] if context.answers else ""

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        if chunk.samples[:2] != LOUD[:2] or not self.answer:
            return []
        word = HeardWord(self.answer, chunk.start_time, chunk.end_time)
        return [RecognitionEvent("final", (word,), chunk.end_time, "free")]

    def finish(self) -> list[RecognitionEvent]:
        return []


def _feed(host: Host, clock: AudioClock, until: float, *, loud: bool = False) -> None:
    while clock.now() < until - 1e-9:
        chunk = AudioChunk(LOUD if loud else QUIET, 16000, clock.now())
        clock.advance_to(chunk.end_time)
        host.hear(chunk)


def _host_with_a_reader(
    deck: Deck, tmp_path: Path, *, listen: bool = False
) -> tuple[Host, AudioClock, ScreenReaderAnnouncer, io.StringIO]:
    """A host on audio time whose words a screen reader (at 170 words a minute) reads
    from its terminal, and the terminal; ``listen``: hearing the card's answer in every
    loud chunk."""
    clock = AudioClock()
    out = io.StringIO()
    reader = ScreenReaderAnnouncer(
        AnnounceOptions(rate=170), printer=lambda text: print(text, file=stream), clock=clock.now
    )
    stream = reader.stream(out)
    listening = Listening(CardWordRecognizer(), Referee(), reader) if listen else None  # type: ignore[arg-type]
    host = Host(
        new_game(),
        deck,
        clock=clock,
        announcer=reader,
        listening=listening,
        screen=PlainScreen(stream, show_card=True, card_only=True),
        save=SaveSlot(tmp_path / "game.json", report=lambda _: None),
        options=HostOptions(timer=60.0),
    )
    return host, clock, reader, out


def test_a_guess_said_over_the_screen_reader_is_not_judged_and_one_after_it_is(
    deck: Deck, tmp_path: Path
) -> None:
    host, clock, reader, out = _host_with_a_reader(deck, tmp_path, listen=True)
    host.start()
    go = next(i for i in reader.speech_intervals() if i.text == "Go!")
    while not host.timer.running:
        _feed(host, clock, clock.now() + 0.1)
    # the turn starts once the reader has said "Go!" and what was printed with it
    assert clock.now() >= go.end
    assert not reader.is_speaking(clock.now())
    _feed(host, clock, clock.now() + 1.0)

    host.handle(KeyPress("a", clock.now()))  # "where are we": lines for the reader
    reading = reader.speech_intervals()[-1]
    assert reading.end - clock.now() > 2.0  # seconds of the reader's voice to come
    _feed(host, clock, reading.end, loud=True)  # the card word, said while it reads
    assert host.game.state.correct == 0
    assert not [j for j in host.judgements if j.type == "guess"]

    _feed(host, clock, reading.end + 0.6)  # the reader is done, and the tail
    _feed(host, clock, clock.now() + 0.3, loud=True)  # the card word, said now
    assert host.game.state.correct == 1
    assert "Host:" not in out.getvalue()  # read aloud, "host" is the wake word


def test_a_key_that_stops_the_reader_before_go_has_go_said_again(
    deck: Deck, tmp_path: Path
) -> None:
    # K to check the card while the turn is read out: the reader stops, and the turn's
    # timer must not start unannounced
    host, clock, reader, out = _host_with_a_reader(deck, tmp_path)
    host.start()
    _feed(host, clock, 1.0)
    reader.silenced(clock.now())  # the key, as the keyboard thread reports it
    host.handle(KeyPress("k", clock.now()))
    while not host.timer.running:
        _feed(host, clock, clock.now() + 0.1)
    assert clock.now() >= reader.speech_intervals()[-1].end  # once "Go!" and the card are read
    lines = out.getvalue().splitlines()
    assert lines.count("Go!") == 2  # said again, after the key
    assert lines[-1] == "Go!" or lines[-2] == "Go!"
    assert any(line.startswith("Card: ") for line in lines[-2:])


@pytest.mark.parametrize(("key", "counted"), [("c", 1), ("p", 0)])
def test_a_turn_key_that_stops_the_reader_before_go_starts_the_turn(
    deck: Deck, tmp_path: Path, key: str, counted: int
) -> None:
    # Session 59's audit: "Go!" was on the screen, the team was playing, and C
    # (the reader silenced by it) was refused: "Correct works only during a turn."
    # A turn's own key shows the turn has begun: the timer starts and the key counts.
    host, clock, reader, out = _host_with_a_reader(deck, tmp_path)
    host.start()
    _feed(host, clock, 3.0)
    assert not host.timer.started  # the reader is still reading the welcome
    reader.silenced(clock.now())
    host.handle(KeyPress(key, clock.now()))
    assert host.timer.running
    assert host.game.state.correct == counted
    assert host.game.state.passes_left == counted  # one pass a turn, used by P
    assert "works only during a turn" not in out.getvalue()


def test_screen_reader_mode_prints_the_hosts_words_and_the_card_asked_for(tmp_path: Path) -> None:
    config = live_config(
        tmp_path, screen_reader=True, plain=False, teams="Red:Ann,Bob;Blue:Cat,Dan"
    )
    assert not uses_board_view(config, _Terminal())  # a line screen, terminal or not
    out = io.StringIO()
    assert run_live(config, stdin=io.StringIO("k\n?\nq\ny\n"), stdout=out, env={}) == 0
    lines = out.getvalue().splitlines()
    # help names no X: it cuts the host's voice, and here no voice of the host speaks
    [helped] = [line for line in lines if "question mark for help" in line and "K " in line]
    assert "X stops me talking" not in helped
    assert "Go!" in lines  # the host's words, printed bare: the reader says them
    assert not [line for line in lines if line.startswith("Host:")]
    # the line screen writes only the card K shows: every other line would be the
    # announcements said again, and time the microphone is shut
    assert [line for line in lines if line.startswith("Card: ")] == ["Card: Poster."]
    assert not [line for line in lines if line.startswith(("Turn:", "Count", "Timer"))]
    assert lines[-1].startswith("Game saved to ")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Keys:
    def __init__(self, keys: list[str]) -> None:
        self.keys = keys

    def read_key(self, timeout: float) -> str | None:
        return self.keys.pop(0) if self.keys else None

    def read_line(self, prompt: str) -> str | None:
        return "Red" if self.keys else None


def test_a_key_in_the_team_set_up_stops_the_reader_too() -> None:
    # the set-up reads its own keys: each must end the reading plan, or its prompts
    # queue up behind each other and the first turn waits a minute and more
    from voice_host.terminal_keys import ToldKeys

    clock = AudioClock()
    reader = ScreenReaderAnnouncer(AnnounceOptions(rate=60), clock=clock.now)
    reader.read("How many teams? Press a number key from 2 to 6, or Enter for two.")
    keys = ToldKeys(_Keys(["2"]), reader.silenced, clock.now)
    clock.advance_to(1.0)
    assert reader.is_speaking(1.0)
    assert keys.read_key(0.1) == "2"
    assert not reader.is_speaking(1.0)
    assert keys.read_key(0.1) is None


def test_show_card_with_a_screen_reader_warns_that_the_reader_says_every_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from voice_host import cli

    monkeypatch.setattr("sys.stdin", io.StringIO("q\ny\n"))
    args = ["play", "--screen-reader", "--show-card", "--keyboard-only"]
    args += ["--teams", "Red:Ann,Bob;Blue:Cat,Dan", "--save", str(tmp_path / "g.json")]
    args += ["--deck", str(DATA / "deck.txt"), "--board", str(DATA / "board.json")]
    assert cli.main(args) == 0
    out, err = capsys.readouterr()
    assert err.startswith("voice-host: --show-card with --screen-reader: your screen reader")
    assert "Card: " in out  # shown, as asked
