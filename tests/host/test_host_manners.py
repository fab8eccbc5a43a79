"""Dialogue manners (shared/design/dialogue.md): asking before undoing a whole turn, the save
removed once the game is won, never judging an echo of the last announcement, repeat and
status, and the describer's card peek.  On audio time, no engine."""

from __future__ import annotations

import dataclasses
import io
import random
from pathlib import Path

import pytest

from voice_host.announce.timeline import SpeechInterval
from voice_host.audio.chunk import AudioChunk
from voice_host.deck.model import Deck
from voice_host.host import dialogue
from voice_host.host.claims import SETTLE_SECONDS
from voice_host.host.core import CARD_PEEK_SECONDS, CONFIRM_SECONDS, Host
from voice_host.host.inputs import Continued, Heard, KeyPress, MicStatus, Suspending
from voice_host.host.listening import Listening
from voice_host.referee import Referee
from voice_host.referee.values import Judgement, Situation
from voice_host.referee.values import Phase as RefPhase
from voice_host.rules import Correct, Game, HouseRules, Phase, TimeUp, parse_teams
from voice_host.screen.plain import PlainScreen
from voice_host.speech.events import ListenContext

from .conftest import HostMaker, ScreenRecorder, Silent, new_game
from .test_host_dialogue import FakeRecognizer, control_game, quiet, texts


def started(make_host: HostMaker, **kwargs: object) -> tuple[Host, object, float]:
    """A host whose first turn's timer is running, and the audio time now."""
    host, clock, _ = make_host(**kwargs)
    host.start()
    t = quiet(host, clock, 0.0, 20.0)
    while not host.timer.running and t < 60.0:  # a longer welcome (house rules named)
        t = quiet(host, clock, t, 1.0)
    return host, clock, t


def ended_turn(make_host: HostMaker) -> tuple[Host, float]:
    """Red scored one and pressed T: Red moved 1 and Blue's turn has begun."""
    host, _clock, t = started(make_host)
    host.handle(KeyPress("c", t))
    host.handle(KeyPress("t", t + 0.1))
    assert host.game.state.positions == (1, 0) and host.game.to_play.name == "Blue"
    return host, t + 0.2


def test_undoing_a_whole_turn_asks_first_and_n_keeps_it(make_host: HostMaker) -> None:
    host, t = ended_turn(make_host)
    host.handle(KeyPress("u", t))
    assert texts(host)[-1].startswith("Undo the end of Red's turn, and its move? Press Y")
    assert host.game.to_play.name == "Blue"  # nothing undone yet
    host.handle(KeyPress("n", t + 0.1))
    assert texts(host)[-1] == "Nothing undone."
    assert host.game.state.positions == (1, 0) and host.game.to_play.name == "Blue"


def test_y_undoes_the_turn(make_host: HostMaker) -> None:
    host, t = ended_turn(make_host)
    host.handle(KeyPress("u", t))
    host.handle(KeyPress("y", t + 0.1))
    assert host.game.state.positions == (0, 0) and host.game.to_play.name == "Red"
    assert host.game.state.correct == 1
    assert any(x.startswith("Undone: the end of Red's turn") for x in texts(host))


def test_saying_undo_twice_undoes_the_turn(make_host: HostMaker) -> None:
    host, t = ended_turn(make_host)
    undo = Judgement("command", t, "host undo", command="undo")
    host.handle(Heard((undo,)))
    assert host.game.to_play.name == "Blue"
    host.handle(Heard((dataclasses.replace(undo, t=t + 1.0),)))
    assert host.game.to_play.name == "Red"


def test_undoing_a_guess_does_not_ask(make_host: HostMaker) -> None:
    host, _clock, t = started(make_host)
    host.handle(KeyPress("c", t))
    host.handle(KeyPress("u", t + 0.1))
    assert host.game.state.correct == 0
    assert not any("Press Y" in x for x in texts(host))


def test_a_won_game_leaves_no_save(make_host: HostMaker, tmp_path: Path) -> None:
    game = new_game()
    for inp in (Correct(), Correct(), TimeUp()):  # Red to CONTROL
        game.apply(inp)
    game.apply_text("control-won red")  # bonus turn
    for inp in (Correct(), Correct(), TimeUp()):  # Red to SPIN
        game.apply(inp)
    game.apply_text("spin narrow-green")
    game.apply_text("choose forward")  # Red to FINISH (segment 6 of 0..6 is past 4+3)
    assert game.phase is Phase.FINISH_ROUND
    host, clock, _ = make_host(game=game)
    host.start(resumed=True)
    save = tmp_path / "game.json"
    assert save.exists()
    host.handle(KeyPress("1", 5.0))  # Red answers first: Red wins (R22)
    quiet(host, clock, 0.0, 5.0 + SETTLE_SECONDS + 1.0)
    assert host.game.phase is Phase.GAME_OVER
    assert not save.exists()  # --resume: no game in progress
    host.stop()
    assert texts(host)[-1] == "Goodbye."
    assert not save.exists()


class _SpokeAnnouncer:
    """Just what :class:`Listening` asks of the host's voice: it spoke once, 1.0-2.0 s."""

    def gate_overlaps(self, start: float, end: float) -> bool:
        return False  # the gate is not what is tested here

    def speech_intervals(self) -> tuple[SpeechInterval, ...]:
        return (SpeechInterval(1.0, 2.0, "Is it a telescope?"),)


def test_a_transcript_repeating_the_last_announcement_is_not_judged(deck: Deck) -> None:
    entry = deck.card(0).entry("Object")
    assert entry.text == "Telescope"
    listening = Listening(FakeRecognizer(), Referee(), _SpokeAnnouncer())  # type: ignore[arg-type]
    # The situation was set before the host spoke: it knows nothing of the announcement.
    listening.update(ListenContext(), Situation(entry=entry, phase=RefPhase.TURN, turn_start=0))
    loud = b"\x01\x00" * 1600

    echo = listening.feed(AudioChunk(loud, 16000, 2.5))  # "telescope" 0.5 s after it
    assert [j.type for j in echo] == ["nothing"]
    assert "last announcement" in echo[0].evidence
    later = listening.feed(AudioChunk(loud, 16000, 6.0))  # 4 s after: a guesser's guess
    assert [(j.type, j.answer) for j in later] == [("guess", "telescope")]


def test_repeat_twice_repeats_the_announcement_not_itself(make_host: HostMaker) -> None:
    host, _clock, t = started(make_host)
    host.handle(KeyPress("p", t))
    host.handle(KeyPress("a", t + 0.1))
    host.handle(KeyPress("a", t + 0.2))
    assert texts(host)[-2] == texts(host)[-4] == "I said: Pass. No more passes this turn."
    assert texts(host)[-1].startswith("Now: ")


def test_status_gives_positions_categories_turn_and_time(make_host: HostMaker) -> None:
    host, _clock, t = started(make_host, timer=30.0)
    host.handle(KeyPress("c", t))
    host.handle(KeyPress("i", t + 0.1))
    assert texts(host)[-1].startswith(
        "Red on segment 0 of 6, START. Blue on segment 0 of 6, START. "
        "Red's turn, Ann describing, category Object, 1 right, 1 pass left. "
    )
    assert " seconds left. " in texts(host)[-1]  # then: not listening (no recogniser)


def _hidden_card_host(make_host: HostMaker) -> tuple[Host, object, ScreenRecorder, float]:
    """A host that shows the card only on K, started and past its opening."""
    host, clock, _ = make_host()
    host.options = dataclasses.replace(host.options, show_card=False)
    screen = ScreenRecorder()
    host.screen = screen
    host.start()
    return host, clock, screen, quiet(host, clock, 0.0, 20.0)


def test_k_shows_a_hidden_card_for_a_moment(make_host: HostMaker) -> None:
    host, clock, screen, t = _hidden_card_host(make_host)
    assert all(m.card is None for m in screen.models)
    host.handle(KeyPress("k", t))
    assert screen.models[-1].card == host.entry_text()
    t = quiet(host, clock, t, CARD_PEEK_SECONDS + 0.2)
    assert screen.models[-1].card is None


def test_k_shows_only_the_card_in_play_and_again_when_pressed_again(
    make_host: HostMaker,
) -> None:
    # In line mode a screen reader reads the card out: after K, the next card (a
    # correct guess, or the next team's first) must not be shown unasked.
    host, _, screen, t = _hidden_card_host(make_host)
    host.handle(KeyPress("k", t))
    first = host.entry_text()
    assert screen.models[-1].card == first
    host.handle(KeyPress("c", t + 0.5))  # guessed within the moment: a new card
    assert host.entry_text() != first
    assert all(m.card in (None, first) for m in screen.models)
    assert screen.models[-1].card is None
    # K again shows the new card; pressed twice, the card is hidden then shown again,
    # so the line mode prints it a second time
    host.handle(KeyPress("k", t + 1.0))
    host.handle(KeyPress("k", t + 1.5))
    shown = [m.card for m in screen.models[-3:]]
    assert shown == [host.entry_text(), None, host.entry_text()]


def test_k_shows_an_always_shown_card_again(make_host: HostMaker) -> None:
    # --show-card: K did nothing, so the line mode (which prints a card as it comes)
    # gave a describer who missed it no way to see it again (session 54's audit).  The
    # card is hidden for a moment and shown again, which the line mode prints.
    host, clock, _ = make_host()
    host.options = dataclasses.replace(host.options, show_card=True)
    screen = ScreenRecorder()
    host.screen = screen
    host.start()
    t = quiet(host, clock, 0.0, 20.0)
    card = host.entry_text()
    assert screen.models[-1].card == card
    host.handle(KeyPress("k", t))
    assert [m.card for m in screen.models[-2:]] == [None, card]
    plain = PlainScreen(stream=io.StringIO())
    assert plain.line_for(screen.models[-3]) is not None
    plain.line_for(screen.models[-2])
    assert f"Card: {card}." in (plain.line_for(screen.models[-1]) or "")


def test_with_ready_each_turn_waits_for_its_describer(make_host: HostMaker) -> None:
    host, clock, _ = make_host(ready=True, recognizer=Silent())
    host.start()
    t = quiet(host, clock, 0.0, 20.0)
    # announced, but no "Go!" and no timer: the describer is still on the way
    assert not host.timer.started
    assert texts(host)[-1] == "Ann, press space or say host resume when ready."
    assert "Go!" not in texts(host)
    host.handle(KeyPress(" ", t))  # space: ready
    assert texts(host)[-1] == "Go!"
    t = quiet(host, clock, t, 5.0)
    assert host.timer.running and host.timer.left(t) < 12.0
    # a guess now counts; at the end of the turn the next describer is waited for
    host.handle(KeyPress("c", t))
    host.handle(KeyPress("t", t + 0.1))
    t = quiet(host, clock, t + 0.2, 10.0)
    assert host.game.to_play.name == "Blue" and not host.timer.started
    assert texts(host)[-1] == "Cat, press space or say host resume when ready."


def test_without_ready_go_follows_the_turn_announcement(make_host: HostMaker) -> None:
    host, _clock, _t = started(make_host)
    assert "Go!" in texts(host) and host.timer.running


def test_x_cuts_the_host_short_and_drops_what_it_queued(make_host: HostMaker) -> None:
    # The opening (welcome, the turn, "Go!") takes several seconds to say.
    host, clock, announcer = make_host()
    host.start()
    clock.advance_to(1.0)
    assert announcer.is_speaking(1.0)
    state = host.game.to_data()
    host.handle(KeyPress("x", 1.0))
    assert not announcer.is_speaking(1.01)
    assert announcer.drain(0)  # nothing left queued
    said = announcer.entries
    assert said[-1].end == 1.0 and not said[-1].completed
    assert all(a.start < 1.0 for a in said)
    assert host.game.to_data() == state  # the game did not move
    assert not any("does nothing" in x for x in texts(host))


def test_escape_hushes_too_and_a_question_asked_stays_open(make_host: HostMaker) -> None:
    host, clock, t = started(make_host)
    host.handle(KeyPress("q", t))
    assert texts(host)[-1].startswith("Quit? Press Y")
    clock.advance_to(t + 0.5)  # type: ignore[attr-defined]
    host.handle(KeyPress("escape", t + 0.5))
    assert not host.announcer.is_speaking(t + 0.51)
    assert not host.finished
    host.handle(KeyPress("y", t + 1.0))
    assert host.finished  # the hush answered nothing: Y still quits


def test_spoken_commands_are_offered_only_while_the_host_can_hear(make_host: HostMaker) -> None:
    # dialogue.md 10: speech is never required. With the microphone gone every prompt
    # names the keys alone: a spoken command offered then would never be heard.
    host, _clock, t = started(make_host, recognizer=Silent())
    assert "say host help" in texts(host)[0]  # the welcome, while listening
    host.handle(KeyPress("?", t))
    assert "host correct" in texts(host)[-1]
    host.handle(MicStatus(False, "No microphone: the microphone stopped."))
    host.handle(KeyPress("?", t + 0.1))
    help_now = texts(host)[-1]
    assert "Keys: C correct" in help_now and "host" not in help_now
    host.handle(KeyPress(" ", t + 0.2))
    assert texts(host)[-1].endswith("seconds left. Press space to go on.")
    host.handle(KeyPress(" ", t + 0.3))
    host.handle(KeyPress("q", t + 0.4))
    assert texts(host)[-1] == "Quit? Press Y to save and stop."
    host.handle(KeyPress("n", t + 0.5))
    host.handle(MicStatus(True, "The microphone is back."))
    host.handle(KeyPress(" ", t + 0.6))
    assert texts(host)[-1].endswith("seconds left. Press space or say host resume.")
    assert not host.finished


def test_without_a_microphone_spin_and_rounds_name_their_keys() -> None:
    from voice_host.host.dialogue import phase_prompt

    game = control_game()
    assert phase_prompt(game, "host")[0].endswith(  # type: ignore[arg-type]
        "shout the answer, then your team's name, or press your buzzer."
    )
    keys_only = phase_prompt(game, None)[0]  # type: ignore[arg-type]
    assert keys_only.endswith("the team that gets it presses its buzzer: 1 for Red, 2 for Blue.")
    assert "team's name" not in keys_only


def test_help_while_a_turn_waits_says_space_starts_it(make_host: HostMaker) -> None:
    # it named C, which does nothing then, and never the space that starts the turn
    host, clock, _ = make_host(ready=True)
    host.start()
    t = quiet(host, clock, 0.0, 20.0)
    host.handle(KeyPress("?", t))
    said = texts(host)[-1]
    assert said.startswith("The turn waits for its describer: press space to start it")
    assert "C correct" not in said


def test_help_leaves_out_the_pass_when_the_house_allows_none() -> None:
    from voice_host.host.keys import help_text

    none = help_text(Phase.TURN, ("Red", "Blue"), "host", passes=False)
    assert "P pass" not in none and "host pass" not in none
    assert "P pass" in help_text(Phase.TURN, ("Red", "Blue"), "host")


def test_a_turn_key_in_a_round_names_the_buzzers(make_host: HostMaker) -> None:
    host, clock, _ = make_host(game=control_game())
    host.start(resumed=True)
    t = quiet(host, clock, 0.0, 6.0)
    host.handle(KeyPress("c", t))
    assert texts(host)[-1] == (
        "Key c does nothing now. In a round, the team that answers presses its buzzer: "
        "1 for Red, 2 for Blue."
    )


def test_help_names_the_hush_key() -> None:
    from voice_host.host.keys import HUSH, help_text

    assert "X stops me talking" in help_text(Phase.TURN, ("Red", "Blue"), "host")
    assert "x" in HUSH and "escape" in HUSH


def test_an_arrow_key_is_not_its_letters(make_host: HostMaker) -> None:
    # The terminal reader names the right arrow (ESC [ C) "right": it must not score.
    host, _clock, t = started(make_host)
    host.handle(KeyPress("right", t))
    assert host.game.state.correct == 0
    assert texts(host)[-1] == "Key right does nothing now. Press question mark for the keys."


def test_a_foul_on_the_last_word_says_how_to_undo_it(make_host: HostMaker) -> None:
    # "the capital city of england london": a describer's slip, or a guesser calling
    # out as the clue ended (one utterance to one microphone).  The host says so.
    from voice_host.host.dialogue import GUESSER_UNDO
    from voice_host.rules import Foul

    host, _clock, t = started(make_host)
    card = host.entry_text()
    last = {"target_kind": "answer", "after": 0}
    host.handle(Heard((Judgement("foul", t, card.lower(), kind="word", features=last),)))
    assert isinstance(host.game.inputs[-1], Foul)
    assert sum(x.endswith(GUESSER_UNDO) for x in texts(host)) == 1
    host.handle(KeyPress("u", t + 0.5))
    assert not host.game.inputs and host.entry_text() == card  # the card is back
    # a word inside the sentence is no guesser's: no such hint
    inside = {"target_kind": "answer", "after": 3}
    host.handle(Heard((Judgement("foul", t + 1, card.lower(), kind="word", features=inside),)))
    assert sum(GUESSER_UNDO in x for x in texts(host)) == 1  # still only the first


def _card_answer(host: Host) -> str:
    entry = host.entry()
    assert entry is not None
    return entry.answers[0]


def _foul(word: str, start: float, end: float, kind: str = "word") -> Judgement:
    """A word foul about the words said at ``start..end``."""
    return Judgement("foul", start, word, kind=kind, features={"words_at": (start, end)})  # type: ignore[arg-type]


def _guess(answer: str, start: float, end: float) -> Judgement:
    """A correct guess of ``answer`` said at ``start..end``."""
    return Judgement("guess", end, answer, answer=answer, features={"words_at": (start, end)})


def test_a_word_foul_before_a_guess_in_one_batch_stands(make_host: HostMaker) -> None:
    # R11: "a clock is a clock" in one utterance: the describer said the card's
    # word first, so the card is forfeited; the guess after it is for that old card
    from voice_host.rules import Foul

    host, _clock, t = started(make_host)
    answer = _card_answer(host)
    host.handle(Heard((_foul(answer, t, t + 0.4), _guess(answer, t + 1.0, t + 1.4))))
    assert isinstance(host.game.inputs[-1], Foul)
    assert host.game.state.correct == 0


def test_a_word_foul_on_the_guess_words_gives_way_to_the_guess(make_host: HostMaker) -> None:
    # one spoken "telescope" reported as the answer (a guess) and as a form
    # ("telescoped", judged the describer's) at the same place: the guess counts
    host, _clock, t = started(make_host)
    answer = _card_answer(host)
    host.handle(Heard((_foul(answer + "d", t, t + 0.45, "derivative"), _guess(answer, t, t + 0.4))))
    assert host.game.state.correct == 1
    # ... and so does a foul heard after the guess: it would fall on the next card
    answer = _card_answer(host)
    host.handle(Heard((_guess(answer, t + 1.0, t + 1.4), _foul(answer, t + 2.0, t + 2.4))))
    assert host.game.state.correct == 2


def test_a_guess_the_referee_heard_as_a_variant_of_the_answer_counts(
    make_host: HostMaker,
) -> None:
    # R7: the referee takes slt's "telescope!" written "telescoped" (an answer plus a
    # recogniser's stray ending) for the answer, and says so in the judgement's
    # answer; the host counts it though the card's own answers do not list it.
    host, _clock, t = started(make_host, recognizer=Silent())
    entry = host.entry()
    assert entry is not None and host.listening is not None
    variants = [
        target.phrase
        for target in host.listening.referee.targets(entry).answers
        if target.phrase not in entry.answers
    ]
    assert variants, f"{entry.text}: the referee knows no variant of its answers"
    host.handle(Heard((_guess(variants[0], t, t + 0.4),)))
    assert host.game.state.correct == 1
    # a guess naming the last card's answer, judged in the same batch, does not
    # count for the next card
    host.handle(Heard((_guess(entry.answers[0], t + 1.0, t + 1.4),)))
    assert host.game.state.correct == 1


def house_game(penalty: str) -> Game:
    game = new_game()
    return Game(
        game.teams,
        game.board,
        HouseRules(foul_penalty=penalty),
        rng=random.Random(7),
        deck_size=3,
    )


def test_a_foul_says_what_the_house_rule_took(make_host: HostMaker) -> None:
    # dialogue.md 12: every state change is spoken, the penalty too
    host, _clock, t = started(make_host, game=house_game("lose-one"))
    host.handle(KeyPress("c", t))
    host.handle(KeyPress("c", t + 0.1))
    host.handle(KeyPress("f", t + 0.2))
    assert texts(host)[-2:] == ["Foul: the card is lost.", "One off the count: one."]
    host, _clock, t = started(make_host, game=house_game("end-turn"))
    host.handle(KeyPress("c", t))
    host.handle(KeyPress("f", t + 0.1))
    said = texts(host)
    at = said.index("Foul: the card is lost.")
    assert said[at + 1] == "That ends the turn: Red got one right."
    assert host.game.to_play.name == "Blue"


def test_undoing_a_foul_that_ended_the_turn_asks_first(make_host: HostMaker) -> None:
    # dialogue.md 2: undoing a whole turn's end is confirmed, whatever ended it
    host, _clock, t = started(make_host, game=house_game("end-turn"))
    host.handle(KeyPress("c", t))
    host.handle(KeyPress("f", t + 0.1))
    host.handle(KeyPress("u", t + 0.5))
    assert texts(host)[-1].startswith("Undo the end of Red's turn, and its move? Press Y")
    assert host.game.to_play.name == "Blue"
    host.handle(KeyPress("y", t + 1.0))
    assert host.game.to_play.name == "Red" and host.game.state.correct == 1
    # a foul that forfeits the card only is undone at once, as before
    host, _clock, t = started(make_host, game=house_game("forfeit"))
    host.handle(KeyPress("f", t))
    host.handle(KeyPress("u", t + 0.5))
    assert texts(host)[-1] == "Undone: the foul."


def test_undoing_a_foul_that_ended_the_turn_gives_the_turn_back_its_time_paused(
    make_host: HostMaker,
) -> None:
    # dialogue.md 6: undo reverses the last judgement; the turn a mistaken F ended
    # (foul-penalty=end-turn) was given a fresh full timer, not the time it had
    host, clock, t = started(make_host, game=house_game("end-turn"))
    host.handle(KeyPress("c", t))
    t = quiet(host, clock, t, 5.0)
    left = host.timer.left(t)
    assert 0 < left < host.timer.seconds - 4
    host.handle(KeyPress("f", t))
    assert host.game.to_play.name == "Blue"
    host.handle(KeyPress("u", t + 0.5))
    host.handle(KeyPress("y", t + 1.0))
    assert host.game.to_play.name == "Red" and host.game.state.correct == 1
    assert host.timer.paused and host.timer.left(t + 1.0) == pytest.approx(left)
    assert texts(host)[-1] == dialogue.paused(left, "Press space to go on.")
    host.handle(KeyPress(" ", t + 2.0))
    assert texts(host)[-1] == dialogue.go_on(left)
    assert host.timer.running


def test_undoing_a_t_pressed_before_the_buzzer_gives_the_turn_back_its_time_paused(
    make_host: HostMaker,
) -> None:
    # a mistaken T came back "Its time is up": the rest of the turn was lost (session
    # 54's audit); it comes back as an undone foul does, paused with its time
    host, clock, t = started(make_host)
    host.handle(KeyPress("c", t))
    t = quiet(host, clock, t, 5.0)
    left = host.timer.left(t)
    assert 0 < left < host.timer.seconds - 4
    host.handle(KeyPress("t", t))
    assert host.game.to_play.name == "Blue"
    host.handle(KeyPress("u", t + 0.5))
    host.handle(KeyPress("y", t + 1.0))
    assert host.game.to_play.name == "Red" and host.game.state.correct == 1
    assert host.timer.paused and host.timer.left(t + 1.0) == pytest.approx(left)
    assert texts(host)[-1] == dialogue.paused(left, "Press space to go on.")


def test_a_turn_t_ended_gets_its_time_back_by_undo_after_a_resume(
    make_host: HostMaker, tmp_path: Path
) -> None:
    # Session 60's audit: after a crash and --resume, undoing the T that ended a turn
    # gave "Its time is up": the time the turn had then was not saved.
    from voice_host.host.saved_game import resume_game
    from voice_host.persist import SavedGame

    host, clock, t = started(make_host)
    host.handle(KeyPress("c", t))
    t = quiet(host, clock, t, 5.0)
    left = host.timer.left(t)
    host.handle(KeyPress("t", t))
    assert host.game.to_play.name == "Blue"
    # the process dies here; the save is read back as --resume reads it
    saved = SavedGame.from_json((tmp_path / "game.json").read_text(), "game.json")
    assert saved.ended_early == {2: pytest.approx(left, abs=0.05)}
    game = resume_game(saved, host.game.deck_size, tmp_path / "game.json")
    again, clock, _ = make_host(game=game)
    again.start(resumed=True, time_left=None, ended_early=saved.ended_early)
    again.handle(KeyPress("u", clock.now()))
    again.handle(KeyPress("y", clock.now() + 0.5))
    assert again.game.to_play.name == "Red" and again.game.state.correct == 1
    assert again.timer.paused
    assert again.timer.left(clock.now()) == pytest.approx(left, abs=0.05)


def test_repeat_says_the_last_announcement_not_status_help_or_a_refusal(
    make_host: HostMaker,
) -> None:
    # dialogue.md 4: repeat means the last announcement, with its context
    host, _clock, t = started(make_host)
    host.handle(KeyPress("c", t))
    last = texts(host)[-1]
    assert last.endswith("correct. One.")
    for key in ("i", "?", "9"):  # status, help, a key that does nothing
        host.handle(KeyPress(key, t + 0.1))
    host.handle(KeyPress("a", t + 0.2))
    assert texts(host)[-2] == f"I said: {last}"


def test_an_unanswered_question_lapses_aloud(make_host: HostMaker) -> None:
    host, clock, _ = make_host(timer=60.0)
    host.start()
    t = quiet(host, clock, 0.0, 20.0)
    host.handle(KeyPress("q", t))
    assert texts(host)[-1].startswith("Quit?")
    quiet(host, clock, t, CONFIRM_SECONDS + 1.0)
    assert dialogue.NOT_QUITTING in texts(host)[-2:] and not host.finished


def test_a_question_the_game_moves_past_lapses_aloud_too(make_host: HostMaker) -> None:
    # "Quit?" then a correct guess, or "Undo the end of the turn?" then another
    # command: the question closed unsaid, and the Y that came next was "Key y does
    # nothing now" (dialogue.md 12: every change is said)
    host, _clock, t = started(make_host)
    host.handle(KeyPress("q", t))
    host.handle(KeyPress("c", t + 0.1))
    said = texts(host)
    assert said[-3] == dialogue.NOT_QUITTING and said[-2].startswith("Go on: ")
    assert said[-1].endswith("correct. One.")
    host, t = ended_turn(make_host)
    host.handle(KeyPress("u", t))
    host.handle(KeyPress("p", t + 0.1))
    assert "Nothing undone." in texts(host)[-3:]
    assert host.game.state.positions == (1, 0)  # the turn's end stands


def test_a_question_asked_in_a_turn_holds_its_timer_until_answered(
    make_host: HostMaker,
) -> None:
    # dialogue.md 7: precise timing must never be essential.  "Quit?" answered "no"
    # after five seconds cost the describer those five seconds.
    host, clock, t = started(make_host)
    left = host.timer.left(t)
    host.handle(KeyPress("q", t))
    t = quiet(host, clock, t, 5.0)
    assert host.timer.paused and host.timer.left(t) == pytest.approx(left, abs=0.01)
    host.handle(KeyPress("n", t))
    assert texts(host)[-2:] == [dialogue.NOT_QUITTING, dialogue.go_on(left)]
    assert host.timer.running and host.timer.left(t) == pytest.approx(left, abs=0.01)


def test_with_ready_a_turn_key_before_go_says_how_to_start(make_host: HostMaker) -> None:
    host, clock, _ = make_host(ready=True)
    host.start()
    t = quiet(host, clock, 0.0, 20.0)
    host.handle(KeyPress("c", t))
    assert texts(host)[-1] == "Ann, press space when ready."
    assert host.game.state.correct == 0


def test_a_control_key_is_named_when_it_does_nothing() -> None:
    assert dialogue.key_does_nothing("\x7f").startswith("Key backspace does nothing now.")
    assert dialogue.key_does_nothing("\t").startswith("Key tab does nothing now.")


def test_status_says_a_special_segments_category_and_a_control_round_owed() -> None:
    # dialogue.md 4: each team's segment and category, and what it still owes (R16)
    game = control_game()  # Red landed on CONTROL (segment 2)
    game.apply_text("control-won Blue")  # Red failed: it plays CONTROL again next turn
    said = dialogue.status(game, None)
    assert said.startswith("Red on segment 2 of 6, CONTROL, a CONTROL round to play again.")
    game = new_game()
    for inp in (Correct(), Correct(), Correct(), Correct(), TimeUp()):  # Red to SPIN (4)
        game.apply(inp)
    game.apply_text("spin red")
    assert dialogue.status(game, None).startswith("Red on segment 4 of 6, SPIN, plays ")

    # a team on FINISH plays a FINISH round to win (R22): it was said as a plain
    # segment (session 54's audit)
    game.apply(TimeUp())  # Red plays again after the spin (R21), and guesses nothing
    for inp in (Correct(), Correct(), Correct(), Correct(), Correct(), Correct(), TimeUp()):
        game.apply(inp)  # Blue runs to FINISH (6)
    said = dialogue.status(game, None)
    assert "Blue on segment 6 of 6, FINISH, a FINISH round to win." in said, said


def test_a_spins_move_onto_control_says_it_plays_no_control_round() -> None:
    # R20: CONTROL and SPIN count only when landed on by correct guesses
    game = new_game()
    for inp in (Correct(), Correct(), Correct(), Correct(), TimeUp()):  # Red to SPIN (4)
        game.apply(inp)
    game.apply_text("spin red")  # no bonus; Red plays again (R21), guesses nothing
    game.apply(TimeUp())
    for inp in (Correct(), Correct(), Correct(), Correct(), TimeUp()):  # Blue to SPIN (4)
        game.apply(inp)
    game.apply_text("spin wide-green")
    before = game.state
    game.apply_text("choose push Red")  # Red 4 -> 2, CONTROL
    assert dialogue.moves(game, before, game.state) == [
        "Red is pushed back 2 to segment 2, CONTROL, but a spin's move plays no CONTROL there."
    ]


def test_a_finish_round_winner_that_plays_next_out_of_turn_is_said_why() -> None:
    # after-failed-finish=winner with three teams: Green played next and Blue was
    # passed over without a word (session 54's audit)
    board = new_game().board
    teams = parse_teams("Red:Ann,Bob;Blue:Cat,Dan;Green:Eve,Fay")
    game = Game(teams, board, HouseRules(after_failed_finish="winner"), deck_size=3)
    for inp in (Correct(),) * 6 + (TimeUp(),):  # Red to FINISH: its FINISH round
        game.apply(inp)
    before = game.state
    game.apply_text("control-won Green")
    assert dialogue.applied(game, before, game.inputs[-1], entry_text="Kite") == [
        "Green answered first: Kite.",
        "Red stays on FINISH and tries again next turn.",
        "Green plays next, for winning the round.",
    ]
    # by default play goes on in order: nothing to explain
    game = Game(teams, board, deck_size=3)
    for inp in (Correct(),) * 6 + (TimeUp(),):
        game.apply(inp)
    before = game.state
    game.apply_text("control-won Green")
    said = dialogue.applied(game, before, game.inputs[-1], entry_text="Kite")
    assert said[-1] == "Red stays on FINISH and tries again next turn."
    assert game.to_play.name == "Blue"


def test_help_while_a_question_waits_says_its_keys_first(make_host: HostMaker) -> None:
    # "?" during "Quit? Press Y ..." gave the turn's help alone (session 54's audit)
    host, _clock, t = started(make_host)
    host.handle(KeyPress("q", t))
    host.handle(KeyPress("?", t + 0.5))
    said = texts(host)
    assert said[-2] == "A question waits: Y to quit; N says no."
    assert "Keys: C correct" in said[-1], said[-1]  # then the turn's keys
    host.handle(KeyPress("n", t + 1.0))  # help left the question open: N answers it
    assert texts(host)[-2:] == [dialogue.NOT_QUITTING, texts(host)[-1]]
    assert not host.finished


def test_a_push_that_start_stops_says_so() -> None:
    # R19: a push stops at START; "pushed back 1 to segment 0, START" after a spinner's
    # 3 left the table wondering where the other two went (session 54's audit)
    game = new_game()
    for inp in (Correct(), TimeUp()):  # Red to segment 1
        game.apply(inp)
    for inp in (Correct(), Correct(), Correct(), Correct(), TimeUp()):  # Blue to SPIN (4)
        game.apply(inp)
    game.apply_text("spin narrow-green")  # 3
    before = game.state
    game.apply_text("choose push Red")
    assert dialogue.moves(game, before, game.state) == [
        "Red is pushed back 1, as far as START, segment 0."
    ]


def test_the_welcome_and_a_resume_name_the_house_rules_in_force() -> None:
    # A family that set a house rule in a config file months ago had no way to hear
    # it was in force: the welcome names every rule that is not the default.
    game = house_game("end-turn")
    assert "House rules: a foul ends the turn." in dialogue.opening(game, "")
    assert "House rules" not in dialogue.opening(new_game(), "")  # defaults: nothing said
    assert dialogue.resumed(game).endswith("House rules: a foul ends the turn.")
    rules = HouseRules(passes_per_turn=0, advanced=True, order_after_control="from-lander")
    assert dialogue.house_rules(rules) == (
        "House rules: one describer a turn; no passes; after another team wins a "
        "CONTROL round, play goes on from the lander."
    )
    assert dialogue.house_rules(HouseRules(passes_per_turn=2)) == (
        "House rules: two passes a turn."
    )


def test_ctrl_z_pauses_the_turn_and_fg_says_so(make_host: HostMaker) -> None:
    # Ctrl-Z (the live session's loop calls suspend, then continued after fg): the time
    # stopped is not the turn's, the save says paused, and back the host says it is
    host, clock, t = started(make_host)
    left = host.timer.left(t)
    host.suspend(t)
    assert host.timer.paused
    assert host.save_slot is not None
    saved = host.save_slot.load_game()
    assert saved is not None and saved.held
    t = quiet(host, clock, t, 40.0)  # stopped longer than the whole turn
    host.continued(t)
    assert texts(host)[-1] == dialogue.paused(left, dialogue.resume_hint(None))
    assert host.game.phase is Phase.TURN and host.timer.left(t) == pytest.approx(left)
    host.handle(KeyPress(" ", t))  # space goes on, as after the pause key
    assert texts(host)[-1] == dialogue.go_on(left) and host.timer.running


def test_ctrl_z_during_a_question_leaves_the_turn_paused(make_host: HostMaker) -> None:
    # a "Quit?" that lapses while the process is stopped must not set the timer going
    host, clock, t = started(make_host)
    left = host.timer.left(t)
    host.handle(KeyPress("q", t))
    host.suspend(t)
    t = quiet(host, clock, t, CONFIRM_SECONDS + 5.0)  # the question lapses, as on return
    host.continued(t)
    assert texts(host)[-2:] == [
        dialogue.NOT_QUITTING,
        dialogue.paused(left, dialogue.resume_hint(None)),
    ]
    assert host.timer.paused and host.timer.left(t) == pytest.approx(left)


def test_ctrl_z_before_go_holds_the_turn(make_host: HostMaker) -> None:
    # the turn announced, "Go!" said but its timer not started yet: held, as space holds it
    host, clock, _ = make_host()
    host.start()
    host.suspend(0.0)
    t = quiet(host, clock, 0.0, 40.0)
    host.continued(t)
    assert not host.timer.started
    assert texts(host)[-2] == dialogue.HELD
    host.handle(KeyPress(" ", t))
    assert texts(host)[-1] == dialogue.GO


def test_the_board_views_stop_reaches_the_host_through_its_queue(
    make_host: HostMaker,
) -> None:
    # the board view's Ctrl-Z comes as inputs (the host runs on a thread of its own):
    # Suspending pauses and saves, then lets the process stop; Continued says so
    host, clock, t = started(make_host)
    left = host.timer.left(t)
    asked = Suspending(t)
    host.handle(asked)
    assert asked.done.is_set() and host.timer.paused
    assert host.save_slot is not None
    saved = host.save_slot.load_game()
    assert saved is not None and saved.held
    t = quiet(host, clock, t, 40.0)
    host.handle(Continued(t))
    assert texts(host)[-1] == dialogue.paused(left, dialogue.resume_hint(None))
    host.stop()
    late = Suspending(t)
    host.handle(late)  # a host that has ended lets the process stop at once
    assert late.done.is_set()
