"""The live announcer's thread: order, stop, interruption, intervals, and failures."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from announce_fakes import DEADLOCK, FakePlayer, FakeRenderer, ManualClock, TaggedAudio

from voice_host.announce import AnnounceOptions, Pyttsx3Announcer, SpeechInterval
from voice_host.announce.render import RenderedAudio, VoiceSettings


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(100.0)


class Rig:
    """An announcer on fakes, with what it printed."""

    def __init__(
        self,
        clock: ManualClock,
        *,
        fail: set[str] | None = None,
        hold: set[str] | None = None,
        broken: set[str] | None = None,
        options: AnnounceOptions | None = None,
    ) -> None:
        self.printed: list[str] = []
        self.renderer = FakeRenderer(fail)
        self.player = FakePlayer(clock, hold=hold, broken=broken)
        self.announcer = Pyttsx3Announcer(
            self.renderer,
            self.player,
            options or AnnounceOptions(tail=0.5),
            clock=clock,
            printer=self.printed.append,
            owns_renderer=True,
        )


@pytest.fixture
def rigs() -> Iterator[list[Rig]]:
    made: list[Rig] = []
    yield made
    for rig in made:
        rig.announcer.close()


def make(rigs: list[Rig], clock: ManualClock, **kwargs: object) -> Rig:
    rig = Rig(clock, **kwargs)  # type: ignore[arg-type]
    rigs.append(rig)
    return rig


def test_texts_are_spoken_in_order_with_their_intervals(
    clock: ManualClock, rigs: list[Rig]
) -> None:
    rig = make(rigs, clock)
    heard: list[tuple[float, float]] = []
    rig.announcer.add_speech_listener(lambda s, e: heard.append((s, e)))
    for text in ("Red team.", "Ann and Bob describe.", "Object.", "Go!"):
        rig.announcer.say(text)
    assert rig.announcer.drain(DEADLOCK)
    assert [t for t, _ in rig.player.played] == [
        "Red team.",
        "Ann and Bob describe.",
        "Object.",
        "Go!",
    ]
    # 0.1 s a character on the fake; each starts where the last ended on the manual clock.
    assert rig.announcer.speech_intervals() == (
        SpeechInterval(100.0, pytest.approx(100.9), "Red team."),
        SpeechInterval(pytest.approx(100.9), pytest.approx(103.0), "Ann and Bob describe."),
        SpeechInterval(pytest.approx(103.0), pytest.approx(103.7), "Object."),
        SpeechInterval(pytest.approx(103.7), pytest.approx(104.0), "Go!"),
    )
    assert heard == [(i.start, i.end) for i in rig.announcer.speech_intervals()]
    assert rig.printed == []
    assert rig.announcer.audible


def test_gate_and_tail_on_the_hosts_clock(clock: ManualClock, rigs: list[Rig]) -> None:
    rig = make(rigs, clock)
    rig.announcer.say("Telescope, correct. Three.")  # 26 characters: 2.6 s
    assert rig.announcer.drain(DEADLOCK)
    assert rig.announcer.is_speaking(101.0)
    assert not rig.announcer.is_speaking(102.7)
    assert rig.announcer.is_gated(103.0)  # 0.4 s into the 0.5 s tail
    assert not rig.announcer.is_gated(103.2)
    assert rig.announcer.gate_overlaps(99.0, 100.1)
    assert not rig.announcer.gate_overlaps(103.2, 104.0)


def test_gate_is_shut_while_the_voice_plays(clock: ManualClock, rigs: list[Rig]) -> None:
    rig = make(rigs, clock, hold={"Ten seconds."})
    rig.announcer.say("Ten seconds.")
    assert rig.player.started.wait(DEADLOCK)
    clock.t = 150.0  # however long the sound lasts, it gates while it lasts
    assert rig.announcer.is_speaking() and rig.announcer.is_gated()
    rig.player.release.set()
    assert rig.announcer.drain(DEADLOCK)
    clock.t += 0.6
    assert not rig.announcer.is_gated()


def test_stop_cuts_playback_short_and_drops_the_queue(clock: ManualClock, rigs: list[Rig]) -> None:
    rig = make(rigs, clock, hold={"A very long rules explanation."})
    rig.announcer.say("A very long rules explanation.")
    rig.announcer.say("Queued after it.")
    assert rig.player.started.wait(DEADLOCK)
    rig.announcer.stop()
    assert rig.announcer.drain(DEADLOCK)
    assert rig.player.played == [("A very long rules explanation.", False)]
    (interval,) = rig.announcer.speech_intervals()
    assert interval.text == "A very long rules explanation."
    assert not interval.completed
    assert interval.end == pytest.approx(100.3)  # the fake stops 0.3 s after starting
    assert not rig.announcer.is_gated(interval.end + 0.51)


def test_interrupt_cuts_the_current_text_and_says_the_new_one(
    clock: ManualClock, rigs: list[Rig]
) -> None:
    rig = make(rigs, clock, hold={"Red team, your turn."})
    rig.announcer.say("Red team, your turn.")
    rig.announcer.say("Dropped.")
    assert rig.player.started.wait(DEADLOCK)
    rig.announcer.say("Paused.", interrupt=True)
    assert rig.announcer.drain(DEADLOCK)
    assert rig.player.played == [("Red team, your turn.", False), ("Paused.", True)]


def test_render_error_prints_the_text_says_why_once_and_never_shuts_the_gate(
    clock: ManualClock, rigs: list[Rig]
) -> None:
    rig = make(rigs, clock, fail={"Bad one.", "Bad two."})
    for text in ("Bad one.", "Bad two.", "Good."):
        rig.announcer.say(text)
    assert rig.announcer.drain(DEADLOCK)
    assert rig.printed == [
        "Speech output failed: cannot render 'Bad one.'; announcements are printed until it "
        "works again",
        "Host: Bad one.",
        "Host: Bad two.",
    ]
    assert rig.player.played == [("Good.", True)]
    assert [i.text for i in rig.announcer.speech_intervals()] == ["Good."]
    assert not rig.announcer.is_gated(clock.t + 0.51)
    assert rig.announcer.audible  # the voice works again


def test_device_lost_mid_sound_opens_the_gate_and_prints_the_text(
    clock: ManualClock, rigs: list[Rig]
) -> None:
    rig = make(rigs, clock, broken={"Unplugged."})
    rig.announcer.say("Unplugged.")
    assert rig.announcer.drain(DEADLOCK)
    assert not rig.announcer.audible
    assert rig.printed[-1] == "Host: Unplugged."
    assert rig.printed[0].startswith("Speech output failed: output unplugged")
    (interval,) = rig.announcer.speech_intervals()
    assert not interval.completed
    assert interval.end == pytest.approx(100.25)
    assert not rig.announcer.is_gated(100.76)
    rig.announcer.say("Back again.")
    assert rig.announcer.drain(DEADLOCK)
    assert rig.player.played == [("Back again.", True)]
    assert rig.announcer.audible


def test_private_voice_never_prints_the_card_word(clock: ManualClock, rigs: list[Rig]) -> None:
    options = AnnounceOptions(label="card", private=True)
    rig = make(rigs, clock, fail={"Telescope"}, options=options)
    rig.announcer.say("Telescope")
    assert rig.announcer.drain(DEADLOCK)
    assert len(rig.printed) == 1
    # the notice is said aloud on the loudspeaker: its reason must not quote the card
    assert "telescope" not in rig.printed[0].casefold()
    assert rig.printed[0].startswith("Private card audio failed:")


def test_private_voice_failure_reason_never_quotes_the_card(
    clock: ManualClock, rigs: list[Rig]
) -> None:
    options = AnnounceOptions(label="card", private=True)
    rig = make(rigs, clock, fail={"Object: Traffic light"}, options=options)
    rig.announcer.say("Object: Traffic light")
    assert rig.announcer.drain(DEADLOCK)
    (notice,) = rig.printed
    assert "traffic" not in notice.casefold() and "light" not in notice.casefold()
    assert notice == (
        "Private card audio failed: the card could not be said; press K to see the card"
    )


def test_private_voice_failure_keeps_a_reason_without_the_card(
    clock: ManualClock, rigs: list[Rig]
) -> None:
    options = AnnounceOptions(label="card", private=True)
    rig = make(rigs, clock, broken={"Object: Kayak"}, options=options)
    rig.announcer.say("Object: Kayak")
    assert rig.announcer.drain(DEADLOCK)
    assert rig.printed == ["Private card audio failed: output unplugged; press K to see the card"]


def test_settings_reach_the_renderer(clock: ManualClock, rigs: list[Rig]) -> None:
    rig = make(rigs, clock, options=AnnounceOptions(voice="gmw/en-us", rate=150, volume=0.7))
    rig.announcer.say("Hello.")
    assert rig.announcer.drain(DEADLOCK)
    (_, settings), *_ = rig.renderer.rendered
    assert (settings.voice, settings.rate, settings.volume) == ("gmw/en-us", 150, 0.7)


def test_close_releases_everything_and_later_texts_are_printed(clock: ManualClock) -> None:
    rig = Rig(clock, hold={"Still talking."})
    rig.announcer.say("Still talking.")
    assert rig.player.started.wait(DEADLOCK)
    rig.announcer.close()
    rig.announcer.close()  # idempotent
    assert rig.player.closed and rig.renderer.closed
    assert not rig.announcer.is_gated(clock.t + 0.51)
    rig.announcer.say("Goodbye.")
    assert rig.printed == ["Host: Goodbye."]


def test_blank_texts_are_ignored(clock: ManualClock, rigs: list[Rig]) -> None:
    rig = make(rigs, clock)
    rig.announcer.say("   ")
    assert rig.announcer.drain(DEADLOCK)
    assert rig.player.played == [] and rig.renderer.rendered == []


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (
            AnnounceOptions(label="card", private=True),
            "Card audio stopped; press K to see the card.",
        ),
        (
            AnnounceOptions(),
            "Speech output stopped; announcements are printed until it works again.",
        ),
    ],
    ids=["card", "host"],
)
def test_a_failure_told_to_notify_is_plain_words_to_say_and_the_reason_to_print(
    clock: ManualClock, options: AnnounceOptions, said: str
) -> None:
    # The failure was one line with the device's own words, said aloud in the turn.
    told: list[tuple[str, str]] = []
    printed: list[str] = []
    announcer = Pyttsx3Announcer(
        FakeRenderer(),
        FakePlayer(clock, broken={"Object: Kayak"}),
        options,
        clock=clock,
        printer=printed.append,
        notify=lambda words, line: told.append((words, line)),
    )
    try:
        announcer.say("Object: Kayak")
        assert announcer.drain(DEADLOCK)
    finally:
        announcer.close()
    ((words, line),) = told
    assert words == said
    assert "output unplugged" in line and "unplugged" not in words
    assert "kayak" not in (words + line).casefold()
    assert all("failed" not in p for p in printed)  # told, not printed as well


# -- the pause a text closes with ---------------------------------------------------------


class PausingRenderer(FakeRenderer):
    """Renders 0.1 s of sound a character, then ``pause`` seconds of exact zeros (as
    espeak-ng closes every text)."""

    def __init__(self, pause: float) -> None:
        super().__init__()
        self.pause = pause

    def render(self, text: str, settings: VoiceSettings) -> RenderedAudio:
        self.rendered.append((text, settings))
        sound = b"\x10\x02" * (len(text) * 100) + b"\x00\x00" * round(self.pause * 1000)
        return TaggedAudio(sound, 1000, text)


class WallTimedPlayer(FakePlayer):
    """A fake player that also notes, in real seconds, when each text started and ended,
    and how long the audio it was given lasted."""

    def __init__(self, clock: ManualClock) -> None:
        super().__init__(clock)
        self.times: list[tuple[str, float, float, float]] = []

    def play(
        self, audio: RenderedAudio, *, on_start: Callable[[], None], cancel: threading.Event
    ) -> bool:
        begun = time.monotonic()
        done = super().play(audio, on_start=on_start, cancel=cancel)
        text = audio.text if isinstance(audio, TaggedAudio) else "?"
        self.times.append((text, begun, time.monotonic(), audio.duration))
        return done


@contextlib.contextmanager
def pausing_announcer(
    clock: ManualClock, pause: float
) -> Iterator[tuple[Pyttsx3Announcer, WallTimedPlayer, PausingRenderer]]:
    """An announcer whose texts close with ``pause`` seconds of zeros; closed after."""
    player = WallTimedPlayer(clock)
    renderer = PausingRenderer(pause)
    announcer = Pyttsx3Announcer(
        renderer, player, AnnounceOptions(tail=0.5), clock=clock, printer=print
    )
    try:
        yield announcer, player, renderer
    finally:
        announcer.close()


def test_the_closing_pause_is_not_played_so_the_gate_opens_after_the_words(
    clock: ManualClock,
) -> None:
    # Dialogue rule 1's gate follows the sound played: espeak-ng's closing third of a
    # second of zeros had kept the microphone shut after every "correct" of a turn.
    with pausing_announcer(clock, pause=0.35) as (announcer, player, _):
        announcer.say("Go!")
        assert announcer.drain(DEADLOCK)
        (interval,) = announcer.speech_intervals()
        assert interval.end - interval.start == pytest.approx(0.3)  # the word, no pause
        assert player.times[0][3] == pytest.approx(0.3)
        assert not announcer.is_gated(interval.end + 0.51)


def test_texts_said_together_keep_the_pause_between_them(clock: ManualClock) -> None:
    with pausing_announcer(clock, pause=0.3) as (announcer, player, _):
        announcer.say("Time! Red got four right.")
        announcer.say("Red moves 4.")
        assert announcer.drain(DEADLOCK)
        (_, _, first_end, _), (_, second_start, _, _) = player.times
        assert second_start - first_end >= 0.29


def test_stop_cuts_the_pause_before_the_next_text(clock: ManualClock) -> None:
    with pausing_announcer(clock, pause=30.0) as (announcer, player, renderer):
        announcer.say("Ten seconds.")
        announcer.say("Never said.")
        deadline = time.monotonic() + DEADLOCK
        # the next text is rendered before its pause: then the thread is waiting
        while len(renderer.rendered) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)
        announcer.stop()
        # without the stop reaching the wait, the next text would wait 30 s
        assert announcer.drain(5.0)
        assert player.played == [("Ten seconds.", True)]
