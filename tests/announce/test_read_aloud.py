"""The player's screen reader says the host's words (``--screen-reader``): printed bare,
and each line written planned as the reader's speech for the microphone gate."""

from __future__ import annotations

import io

import pytest

from voice_host.announce.protocol import AnnounceOptions
from voice_host.announce.read_aloud import (
    PAUSE_SECONDS,
    SILENCED_BEFORE_KEY,
    ScreenReaderAnnouncer,
    reading_seconds,
)


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


@pytest.mark.parametrize(
    ("text", "words", "pauses"),
    [
        ("Go", 1, 0),  # one word, no stop after it
        ("Go!", 1, 1),  # a word and the pause at its end
        ("Red's turn. Ann describing", 4, 1),  # "Red's" is one word
        ("Segment 47 of 47, START.", 7, 2),  # "47" is said "forty seven"
        ("Card 2026", 5, 0),  # a long number: at most four words
        ("", 0, 0),  # a blank line: nothing to read
        ("---", 0, 0),  # no words at all
    ],
)
def test_reading_time_counts_words_numbers_and_pauses(text: str, words: int, pauses: int) -> None:
    expected = words * 60.0 / 120 + PAUSE_SECONDS * pauses if words else 0.0
    assert reading_seconds(text, 120) == pytest.approx(expected)


def test_reading_time_needs_a_rate() -> None:
    with pytest.raises(ValueError, match="positive"):
        reading_seconds("Go!", 0)


def test_announcements_are_printed_bare_and_not_by_a_private_voice() -> None:
    printed: list[str] = []
    reader = ScreenReaderAnnouncer(printer=printed.append, clock=Clock())
    reader.say("Pass. No more passes this turn.")  # "Host: Pass" read aloud is a command
    reader.say("   ")
    private = ScreenReaderAnnouncer(AnnounceOptions(private=True), printer=printed.append)
    private.say("Telescope")
    assert printed == ["Pass. No more passes this turn."]
    assert not reader.audible  # the host's own voice is silent
    assert reader.drain(0)


def test_lines_are_planned_one_after_another_and_gate_the_microphone() -> None:
    clock = Clock()
    reader = ScreenReaderAnnouncer(AnnounceOptions(rate=120, tail=0.5), clock=clock)
    first = reader.read("Red's turn.")  # 2 words at 2 a second, and a stop
    assert first is not None and (first.start, first.end) == pytest.approx((0.0, 1.15))
    second = reader.read("Go!")  # printed at once, read after the first
    assert second is not None and (second.start, second.end) == pytest.approx((1.15, 1.8))
    assert reader.read("") is None
    assert reader.is_speaking(1.5) and reader.is_gated(1.5)
    assert not reader.is_speaking(2.0) and reader.is_gated(2.0)  # the tail
    assert not reader.is_gated(2.31)  # read and past the tail: heard again
    clock.t = 10.0
    later = reader.read("Count 1.")  # the reader was quiet: it starts now
    assert later is not None and later.start == 10.0


def test_a_key_silences_the_reader_and_nothing_else_does() -> None:
    clock = Clock()
    reader = ScreenReaderAnnouncer(AnnounceOptions(rate=60, tail=0.5), clock=clock)
    reader.read("one two three four")  # 0 to 4 s
    reader.read("five six")  # 4 to 6 s
    reader.stop()  # the host cannot stop a screen reader
    reader.say("seven", interrupt=True)
    assert reader.is_speaking(5.0)
    clock.t = 2.0
    reader.silenced()  # a key at 2 s: screen readers stop reading at a key press
    assert [round(i.end, 3) for i in reader.speech_intervals()] == [2.0 - SILENCED_BEFORE_KEY]
    assert not reader.is_speaking(2.0)  # the key's own action finds the reader quiet
    assert not reader.is_gated(2.6)
    after = reader.read("eight")  # what the key printed is read from the key on
    assert after is not None and after.start == 2.0


def test_every_line_written_to_the_stream_is_planned() -> None:
    clock = Clock()
    out = io.StringIO()
    reader = ScreenReaderAnnouncer(AnnounceOptions(rate=60), clock=clock)
    stream = reader.stream(out)
    print("Turn: Red.", file=stream, flush=True)  # a line screen's line
    stream.write("Count ")
    assert len(reader.speech_intervals()) == 1  # half a line is not read yet
    stream.write("1.\nTime")
    stream.flush()  # a line left without its end is read once flushed
    assert out.getvalue() == "Turn: Red.\nCount 1.\nTime"
    assert [i.text for i in reader.speech_intervals()] == ["Turn: Red.", "Count 1.", "Time"]
    assert reader.speech_intervals()[-1].end == pytest.approx(2.3 + 3 * 1.0 + PAUSE_SECONDS)


def test_lines_a_key_stopped_are_unread_until_printed_again() -> None:
    clock = Clock()
    reader = ScreenReaderAnnouncer(AnnounceOptions(rate=60), clock=clock)
    reader.read("Red's turn.")  # 0 to 2.15 s
    reader.read("Go!")  # 2.15 to 3.3 s
    clock.t = 1.0
    reader.silenced()  # stopped in "Red's turn.", before "Go!"
    assert reader.unread("Red's turn.") and reader.unread("Go!")
    reader.read("Go!")  # printed again: the reader reads it
    assert not reader.unread("Go!")
    clock.t = 30.0
    reader.silenced()  # nothing was being read: nothing unread
    assert not reader.unread("Go!")
