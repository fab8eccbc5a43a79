"""The host's dialogue on audio time with scripted keys and referee judgements (no engine)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest

from voice_host.audio.chunk import AudioChunk
from voice_host.deck.model import Deck
from voice_host.host import dialogue
from voice_host.host.claims import ASK_AFTER_SECONDS, SETTLE_SECONDS
from voice_host.host.core import Host
from voice_host.host.inputs import Heard, HostInput, KeyPress, KeysClosed, MicStatus
from voice_host.host.listening import Listening
from voice_host.keyboard.texts import help_lines
from voice_host.referee import Referee
from voice_host.referee.values import Judgement
from voice_host.rules import (
    ControlWon,
    Correct,
    Game,
    Pass,
    Phase,
    TimeUp,
    board_from_data,
    default_board,
    load_board,
    parse_teams,
)
from voice_host.speech.events import HeardWord, ListenContext, RecognitionEvent

from .conftest import DATA, HostMaker, new_game


class FakeRecognizer:
    """Counts the audio it is fed; hears "telescope" in any chunk marked loud."""

    name = "fake"

    def __init__(self) -> None:
        self.fed = 0
        self.contexts: list[ListenContext] = []
        self.prepared: tuple[ListenContext, ...] = ()

    def start(self, context: ListenContext) -> None:
        self.contexts.append(context)

    def prepare(self, contexts: Iterable[ListenContext]) -> None:
        self.prepared = tuple(contexts)

    def set_context(self, context: ListenContext) -> None:
        self.contexts.append(context)

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        self.fed += 1
        if chunk.samples[:2] != b"\x01\x00":
            return []
        word = HeardWord("telescope", chunk.start_time, chunk.end_time)
        return [RecognitionEvent("final", (word,), chunk.end_time, "free")]

    def finish(self) -> list[RecognitionEvent]:
        return []


def quiet(host: Host, clock: object, start: float, seconds: float, loud: bool = False) -> float:
    t = start
    while t < start + seconds - 1e-9:
        samples = (b"\x01\x00" if loud else b"\x00\x00") * 1600
        chunk = AudioChunk(samples, 16000, t)
        clock.advance_to(chunk.end_time)  # type: ignore[attr-defined]
        host.hear(chunk)
        t = chunk.end_time
    return t


def texts(host: Host) -> list[str]:
    return [s.text for s in host.said]


def control_game() -> object:
    game = new_game()
    for inp in (Correct(), Correct(), TimeUp()):  # Red lands on CONTROL (R13)
        game.apply(inp)
    assert game.phase is Phase.CONTROL_ROUND
    return game


def test_control_round_won_by_a_team_buzzer(make_host: HostMaker) -> None:
    host, clock, _ = make_host(game=control_game())
    host.start(resumed=True)
    card = host.entry_text()
    host.handle(KeyPress("2", 5.0))  # Blue's buzzer
    quiet(host, clock, 0.0, 6.0)
    assert host.game.phase is Phase.TURN and host.game.to_play.name == "Blue"  # R14
    assert host.game.state.control_retry == (True, False)  # R16
    assert f"Blue answered first: {card}." in texts(host)  # the card echoed (dialogue.md 2)
    # Red's buzzer a moment after the round was decided: told, not "does nothing"
    host.handle(KeyPress("1", 6.5))
    assert texts(host)[-1] == "Blue was first."
    t = quiet(host, clock, 6.0, 4.0)
    host.handle(KeyPress("1", t))  # long after: an ordinary key again
    assert texts(host)[-1].startswith("Key 1 does nothing now.")


@pytest.mark.parametrize(
    "blue",
    [
        Heard((Judgement("command", 5.3, "blue", command="team", argument="blue"),)),
        # by key too: nothing waits before Blue's buzzer, so it is a claim in the window
        KeyPress("2", 5.3),
    ],
    ids=["name", "buzzer"],
)
def test_simultaneous_claims_draw_another_card(make_host: HostMaker, blue: HostInput) -> None:
    host, clock, _ = make_host(game=control_game())
    host.start(resumed=True)
    card = host.game.current_card
    host.handle(KeyPress("1", 5.0))
    host.handle(blue)  # Blue's claim 0.3 s after Red's buzzer
    quiet(host, clock, 0.0, 5.0 + 0.5 + SETTLE_SECONDS + 0.2)
    assert host.game.phase is Phase.CONTROL_ROUND  # R17: nobody wins
    assert host.game.current_card != card
    assert "Red and Blue at once: another card, describe again." in texts(host)


def test_a_foul_in_a_control_round_by_voice_or_key_draws_another_card(
    make_host: HostMaker,
) -> None:
    # R11 in a CONTROL round: the card is forfeited and another follows; a claim made
    # for the forfeited card does not carry over to the next one.
    host, clock, _ = make_host(game=control_game())
    host.start(resumed=True)
    card = host.game.current_card
    host.handle(KeyPress("2", 4.0))  # Blue buzzes for the fouled card
    slip = Judgement("foul", 4.1, "telescope", kind="word")
    host.handle(Heard((slip,)))
    assert host.game.phase is Phase.CONTROL_ROUND and host.game.current_card != card
    assert "Another card, describe again." in texts(host)
    quiet(host, clock, 0.0, 4.1 + SETTLE_SECONDS + 1.0)
    assert host.game.phase is Phase.CONTROL_ROUND  # Blue's claim went with the card
    card = host.game.current_card
    host.handle(KeyPress("f", 7.0))
    assert host.game.current_card != card
    assert texts(host)[-2:] == ["Foul: the card is lost.", "Another card, describe again."]


def test_keys_typed_after_a_buzzer_wait_for_its_decision(make_host: HostMaker) -> None:
    # Keys piped in at once (or typed ahead) after a buzzer are meant for after the
    # round: the status asked for describes Blue's turn, not the round still being
    # decided, and a buzzer behind them is not a second claim at once (R17).
    host, clock, _ = make_host(game=control_game())
    host.start(resumed=True)
    for key in ("2", "i", "1"):
        host.handle(KeyPress(key, 5.0))
    assert host.game.phase is Phase.CONTROL_ROUND  # the claim's window is still open
    quiet(host, clock, 0.0, 6.0)
    assert host.game.phase is Phase.TURN and host.game.to_play.name == "Blue"  # R14
    said = texts(host)
    first = next(line for line in said if line.startswith("Blue answered first: "))
    status = [line for line in said if "segment" in line and "describing" in line]
    assert len(status) == 1 and "Blue's turn" in status[0], said
    assert said.index(first) < said.index(status[0])
    assert "Blue was first." in said  # Red's buzzer came after the round: told so


def test_keys_running_out_during_a_claim_let_the_claim_be_decided_first(
    make_host: HostMaker,
) -> None:
    # A keys-only host whose piped keys end stops (nothing could move the game on), but
    # not before the buzzer pressed last has won its round: the save holds Blue's turn.
    host, clock, _ = make_host(game=control_game())
    host.start(resumed=True)
    host.handle(KeyPress("2", 5.0))
    host.handle(KeysClosed())
    assert not host.finished
    quiet(host, clock, 0.0, 6.0)
    assert host.finished
    assert any(t.startswith("Blue answered first: ") for t in texts(host))
    assert dialogue.STRANDED in texts(host)
    assert host.save_slot is not None
    saved = host.save_slot.load_game()
    assert saved is not None
    resumed = Game.from_json(saved.game)
    assert resumed.phase is Phase.TURN and resumed.to_play.name == "Blue"


def test_a_round_card_nobody_can_get_is_passed_by_key_or_voice(make_host: HostMaker) -> None:
    # The rules give a CONTROL round no time limit and no pass; a card nobody can get
    # is passed (P or "host pass") for another, as the engine draws one for R17.
    host, clock, _ = make_host(game=control_game())
    host.start(resumed=True)
    card = host.game.current_card
    host.handle(KeyPress("p", 4.0))
    assert host.game.phase is Phase.CONTROL_ROUND and host.game.current_card != card
    assert texts(host)[-1] == "Passed: another card, describe again."
    card = host.game.current_card
    spoken = Judgement("command", 6.0, "host pass", command="pass")
    host.handle(Heard((spoken,)))
    assert host.game.current_card != card and host.game.to_play.name == "Red"
    assert texts(host)[-1] == "Passed: another card, describe again."
    quiet(host, clock, 0.0, 8.0)
    assert host.game.phase is Phase.CONTROL_ROUND  # nobody won: the round goes on


def test_spin_choice_by_voice(make_host: HostMaker) -> None:
    game = new_game()
    game.apply(TimeUp())  # Red nothing; Blue to play
    for inp in (Correct(), TimeUp()):  # Blue to segment 1
        game.apply(inp)
    for inp in (Correct(), Correct(), TimeUp()):  # Red to CONTROL, wins it, bonus turn
        game.apply(inp)
    game.apply_text("control-won red")
    for inp in (Correct(), Correct(), TimeUp()):  # Red to SPIN
        game.apply(inp)
    game.apply_text("spin narrow-green")
    host, _clock, _ = make_host(game=game)
    host.start(resumed=True)
    push = Judgement("command", 3.0, "host push blue", command="push", argument="blue")
    host.handle(Heard((push,)))
    assert host.game.state.positions == (4, 0)  # R19: not pushed past START
    assert "Blue is pushed back 1, as far as START, segment 0." in texts(host)  # R19


def test_key_1_pushes_the_first_team_back_after_a_green_spin(make_host: HostMaker) -> None:
    # R18: the host names "1 for Red"; key 1 is team 0 (it was refused as "does nothing")
    game = new_game()
    for inp in (Correct(), TimeUp()):  # Red to segment 1
        game.apply(inp)
    for inp in (Correct(), Correct(), Correct(), Correct(), TimeUp()):  # Blue to SPIN (4)
        game.apply(inp)
    game.apply_text("spin wide-green")
    assert game.phase is Phase.SPIN_CHOICE
    host, _clock, _ = make_host(game=game)
    host.start(resumed=True)
    host.handle(KeyPress("1", 3.0))
    assert host.game.state.positions[0] == 0  # R19: pushed back to START, not past it
    assert "Red is pushed back 1, as far as START, segment 0." in texts(host)  # R19


def finish_round_game() -> Game:
    """Red on FINISH, its FINISH round under way (R22)."""
    game = new_game()
    for _ in range(6):
        game.apply(Correct())
    game.apply(TimeUp())
    assert game.phase is Phase.FINISH_ROUND
    return game


def test_a_won_game_waits_and_a_wrong_buzzer_win_can_be_undone(make_host: HostMaker) -> None:
    # dialogue.md 6: undo reverses the last judgement, the win too (a wrong buzzer
    # key); the session waits for it instead of ending with the winner
    host, clock, _ = make_host(game=finish_round_game())
    host.start(resumed=True)
    host.handle(KeyPress("1", 3.0))  # Red's buzzer, pressed by mistake
    quiet(host, clock, 0.0, 3.0 + SETTLE_SECONDS + 0.5)
    assert host.game.phase is Phase.GAME_OVER and not host.finished
    assert texts(host)[-2:] == [
        "Red wins the game! Congratulations!",
        "Press U to undo the win, or Q to end.",
    ]
    assert not host.save_slot.path.exists()  # type: ignore[union-attr]  # won: no game to resume
    host.handle(KeyPress("u", 6.0))
    assert host.game.phase is Phase.FINISH_ROUND and not host.finished
    assert any(t.startswith("Undone") for t in texts(host)[-3:])
    assert host.save_slot.path.exists()  # type: ignore[union-attr]  # the undo saved it again
    host.handle(KeyPress("2", 7.0))  # Blue really answered first: Red stays on FINISH
    quiet(host, clock, 6.0, 1.0 + SETTLE_SECONDS + 0.5)
    assert host.game.phase is Phase.TURN and host.game.to_play.name == "Blue"


def test_q_after_the_win_ends_at_once(make_host: HostMaker) -> None:
    host, clock, _ = make_host(game=finish_round_game())
    host.start(resumed=True)
    host.handle(KeyPress("1", 3.0))
    quiet(host, clock, 0.0, 3.0 + SETTLE_SECONDS + 0.5)
    host.handle(KeyPress("q", 5.0))
    assert host.finished  # nothing to save, nothing to confirm
    assert texts(host)[-1] == "Goodbye."


def test_the_game_start_has_the_recogniser_learn_every_card_of_the_deck(
    make_host: HostMaker, deck: Deck
) -> None:
    recognizer = FakeRecognizer()
    host, clock, _ = make_host(listening=Listening(recognizer, Referee(), None))
    host.start()
    quiet(host, clock, 0.0, 1.0)
    answers = {c.answers for c in recognizer.prepared}
    assert answers == {e.answers for card in deck.cards for e in card.entries.values()}
    assert len(recognizer.prepared) == sum(len(card.entries) for card in deck.cards)
    teams = {t.name.lower() for t in host.game.teams}
    assert all(f"host {t}" in c.commands for c in recognizer.prepared for t in teams)


def test_losing_the_microphone_mid_turn_keeps_the_game_and_the_keys(
    make_host: HostMaker,
) -> None:
    recognizer = FakeRecognizer()
    listening = Listening(recognizer, Referee(), None)
    host, clock, _ = make_host(listening=listening, timer=30.0)
    host.start()
    t = quiet(host, clock, 0.0, 20.0)  # the opening is said, the timer starts
    assert host.timer.running
    t = quiet(host, clock, t, 2.0, loud=True)  # "telescope" heard: no, the card is Poster
    fed = recognizer.fed
    host.handle(MicStatus(False, "The microphone stopped."))
    t = quiet(host, clock, t, 1.0, loud=True)
    assert recognizer.fed == fed  # nothing is listened to while the microphone is lost
    host.handle(KeyPress("c", t))
    assert host.game.state.correct == 1 and host.game.phase is Phase.TURN
    lost = [x for x in texts(host) if "microphone stopped" in x]
    assert len(lost) == 1 and "keys" in lost[0]
    host.handle(MicStatus(False, "The microphone stopped."))
    assert len([x for x in texts(host) if "microphone stopped" in x]) == 1  # said once
    host.handle(MicStatus(True, "The microphone is back."))
    assert "Listening again" in texts(host)[-1]
    quiet(host, clock, t, 15.0)  # once the host has said so, the microphone is heard again
    assert recognizer.fed > fed


def test_undo_says_what_it_reversed_and_repeat_gives_context(make_host: HostMaker) -> None:
    host, clock, _ = make_host()
    host.start()
    t = quiet(host, clock, 0.0, 20.0)
    host.handle(KeyPress("c", t))
    host.handle(KeyPress("u", t + 0.1))
    assert host.game.state.correct == 0
    assert "Undone: the last correct guess; Red has zero right." in texts(host)
    host.handle(KeyPress("a", t + 0.2))
    assert texts(host)[-2].startswith("I said: Undone:")
    assert texts(host)[-1].startswith("Now: Red on segment 0 of 6, START.")


def test_a_misunderstood_command_twice_names_the_keys(make_host: HostMaker) -> None:
    host, clock, _ = make_host()
    host.start()
    quiet(host, clock, 0.0, 20.0)
    unclear = Judgement("nothing", 21.0, "host blah", evidence="no command")
    host.handle(Heard((unclear,)))
    assert texts(host)[-1] == "Sorry? Say host, then the command."
    host.handle(Heard((unclear,)))
    assert "Use the keys: C correct, P pass" in texts(host)[-1]


def test_pause_stops_the_timer_and_status_tells_time_left(make_host: HostMaker) -> None:
    host, clock, _ = make_host(timer=30.0)
    host.start()
    t = quiet(host, clock, 0.0, 20.0)
    host.handle(KeyPress(" ", t))
    assert host.timer.paused
    t = quiet(host, clock, t, 60.0)
    assert host.game.phase is Phase.TURN  # no time-up while paused
    host.handle(KeyPress("i", t))
    assert "seconds left." in texts(host)[-1]
    assert host.game.state.positions == (0, 0)


def test_team_names_are_listened_for_only_where_they_are_answers(make_host: HostMaker) -> None:
    # In a turn a team's name is no command: listening for it only pulls the decoder
    # towards "red" and "blue" when a guesser says "rip". In a CONTROL round it is a claim.
    host, _clock, _ = make_host()
    host.start()
    turn = host.context()
    assert turn.team_names == () and not any("red" in c for c in turn.commands)
    control, _clock, _ = make_host(game=control_game())
    control.start(resumed=True)
    claim = control.context()
    assert claim.team_names == ("red", "blue") and "host push red" in claim.commands


def three_team_spin(*before: str) -> Game:
    """Red, Blue and Green on a short track; ``before`` played, then Red lands on
    SPIN (segment 3) and spins wide green."""
    track = ["START", "Object", "Nature", "SPIN", "Random", "CONTROL", "Person", "FINISH"]
    game = Game(
        parse_teams("Red:Ann,Bob;Blue:Cat,Dan;Green:Eve,Fay"),
        board_from_data(track),
        rng=random.Random(1),
        deck_size=20,
    )
    for line in (*before, "correct", "correct", "correct", "time-up", "spin wide-green"):
        game.apply_text(line)
    assert game.phase is Phase.SPIN_CHOICE and game.to_play.name == "Red"
    return game


def test_R19_the_spin_choice_offers_only_teams_that_can_be_pushed_back() -> None:
    # R19: no team is pushed back past START, and a team never pushes itself, so
    # the host offers neither (the keys keep the teams' numbers).
    alone = three_team_spin()
    assert dialogue.phase_prompt(alone, None) == [
        "Red: forward 2. No team can be pushed back from START. Press F to move forward."
    ]
    assert dialogue.phase_prompt(alone, "host")[0].endswith("Say forward, or press F.")
    game = three_team_spin("time-up", "time-up", "correct", "time-up")  # Green to 1
    assert dialogue.phase_prompt(game, None) == [
        "Red: forward 2, or push Green back 2? Press F for forward, or a team's number "
        "to push it: 3 for Green."
    ]
    game = three_team_spin("time-up", "correct", "time-up", "correct", "time-up")
    assert dialogue.spin_choice_question(game) == "Red: forward 2, or push Blue or Green back 2?"


def test_R19_help_in_the_spin_choice_names_only_the_teams_that_can_be_pushed(
    make_host: HostMaker,
) -> None:
    # the help listed every team's number ("1 for Red, 2 for Blue, 3 for Green"), a team
    # on START and the spinning team too, which a player who cannot see the track tries
    alone = three_team_spin()
    host, _clock, _ = make_host(game=alone)
    host.start(resumed=True)
    host.handle(KeyPress("?", 3.0))
    said = texts(host)[-1]
    assert "No team can be pushed back from START" in said and "for Blue" not in said
    game = three_team_spin("time-up", "time-up", "correct", "time-up")  # Green on 1
    host, _clock, _ = make_host(game=game)
    host.start(resumed=True)
    host.handle(KeyPress("?", 3.0))
    said = texts(host)[-1]
    assert "3 for Green" in said and "for Red" not in said and "for Blue" not in said


def test_R19_the_keyboard_games_help_names_only_the_teams_that_can_be_pushed() -> None:
    assert help_lines(three_team_spin(), timer_started=False)[0] == (
        "Keys now: f: move forward; no team can be pushed back from START."
    )
    game = three_team_spin("time-up", "time-up", "correct", "time-up")  # Green on 1
    assert help_lines(game, timer_started=False)[0] == (
        "Keys now: f: move forward; a team's number pushes it back (3 Green)."
    )


def test_space_while_the_turn_is_announced_holds_it_for_the_describer(
    make_host: HostMaker,
) -> None:
    # dialogue.md 7 (the timer can be paused: precise timing must never be essential):
    # space pressed while "Go!" was still being said was "The timer is not running",
    # and the timer then started anyway
    host, clock, _ = make_host()
    host.start()
    assert not host.timer.started  # the opening and "Go!" are still being said
    host.handle(KeyPress(" ", 0.1))
    assert texts(host)[-2:] == [dialogue.HELD, "Ann, press space when ready."]
    t = quiet(host, clock, 0.1, 20.0)
    assert not host.timer.started  # held, however long the table takes
    host.handle(KeyPress(" ", t))
    assert texts(host)[-1] == dialogue.GO
    quiet(host, clock, t, 3.0)
    assert host.timer.started and host.timer.running


def test_a_refusal_is_said_without_the_rules_numbers() -> None:
    # the engine's "(R19)" is for scripts and tests; spoken it is "R nineteen"
    refused = ValueError("Blue is on START and cannot be pushed back (R19)")
    assert dialogue.not_now(refused) == "Not now: Blue is on START and cannot be pushed back."


def round_under_way(make_host: HostMaker) -> tuple[Host, Any, float]:
    """A host 3 s into a CONTROL round (the clock, and the time now)."""
    host, clock, _ = make_host(game=control_game())
    host.start(resumed=True)
    return host, clock, quiet(host, clock, 0.0, 3.0)


def answer(t: float) -> Heard:
    return Heard((Judgement("guess", t, "telescope", answer="telescope"),))


def claim(team: str, t: float) -> Judgement:
    return Judgement("command", t, team, command="team", argument=team)


def test_R17_an_answer_in_a_round_asks_which_team_after_a_breath_in_full_once_then_briefly(
    make_host: HostMaker,
) -> None:
    # The microphone is shut while the host speaks, so a team's name called over a
    # long question is lost: the host waits a breath for the name, then asks, the full
    # question once a game and the short one after.
    host, clock, t = round_under_way(make_host)
    host.handle(answer(t))
    t = quiet(host, clock, t, ASK_AFTER_SECONDS - 0.2)
    assert dialogue.WHICH_TEAM not in texts(host)  # not yet: the name may be coming
    t = quiet(host, clock, t, 0.4)
    assert texts(host)[-1] == dialogue.WHICH_TEAM
    host.handle(answer(t))
    quiet(host, clock, t, ASK_AFTER_SECONDS + 0.2)
    assert texts(host)[-1] == dialogue.WHICH_TEAM_SHORT == "Correct! Which team?"


def test_R17_a_name_said_a_breath_after_the_answer_is_not_asked_for(
    make_host: HostMaker,
) -> None:
    # "Telescope! ... Blue!": the name came before the question would have been asked.
    host, clock, t = round_under_way(make_host)
    card = host.entry_text()
    host.handle(answer(t))
    t = quiet(host, clock, t, 0.5)
    host.handle(Heard((claim("blue", t),)))
    quiet(host, clock, t, 0.5 + SETTLE_SECONDS + 0.5)
    assert dialogue.WHICH_TEAM not in texts(host)
    assert host.game.phase is Phase.TURN and host.game.to_play.name == "Blue"  # R14
    assert f"Blue answered first: {card}." in texts(host)  # the card echoed (dialogue.md 2)


def test_R17_the_answer_with_the_teams_name_leaves_the_host_quiet_for_a_second_claim(
    make_host: HostMaker,
) -> None:
    # "Telescope! Blue!" in one breath, as the round's prompt asks: the host says
    # nothing until the claim window closes, so Red's "Red!" 0.3 s later is heard (R17).
    host, clock, t = round_under_way(make_host)
    said = len(host.said)
    host.handle(Heard((*answer(t).judgements, claim("blue", t + 0.6))))
    assert len(host.said) == said  # nothing said over the other teams
    host.handle(Heard((claim("red", t + 0.9),)))
    quiet(host, clock, t, 0.9 + 0.5 + SETTLE_SECONDS + 0.5)
    said = texts(host)
    assert any(
        f"{pair} at once: another card, describe again." in said
        for pair in ("Red and Blue", "Blue and Red")
    )
    assert not any(line.startswith("Answered at once") for line in said)  # said once, not twice
    assert host.game.phase is Phase.CONTROL_ROUND  # R17: another card


def test_undo_names_a_game_win_as_such_and_says_the_passes_left() -> None:
    teams = parse_teams("Red:Ann,Bob;Blue:Cat,Dan")
    board = board_from_data(["START", "Object", "FINISH"])
    game = Game(teams, board, rng=random.Random(1), deck_size=20)
    game.apply(Pass())
    assert dialogue.undone(game, game.undo()) == "Undone: the pass; one pass left."
    for step in (Correct(), Correct(), TimeUp()):  # R22: Red lands on FINISH, its round
        game.apply(step)
    assert game.phase is Phase.FINISH_ROUND
    game.apply(ControlWon("Red"))
    assert game.phase is Phase.GAME_OVER
    # "Red's win of the round" was said for taking back the win of the game
    assert dialogue.undone(game, game.undo()) == "Undone: Red's win of the game."
    game.apply(ControlWon("Blue"))  # another team answers: Red stays on FINISH
    assert dialogue.undone(game, game.undo()) == "Undone: Blue's win of the round."


def test_a_team_of_two_words_wins_a_control_round_by_voice(make_host: HostMaker) -> None:
    # The referee keys a heard "big red" as one name, "bigred"; the host finds the team.
    board = load_board((DATA / "board.json").read_text(encoding="utf-8"))
    game = Game(
        parse_teams("Big Red:Ann,Bob;Team 2:Cat,Dan"), board, rng=random.Random(7), deck_size=3
    )
    for inp in (Correct(), Correct(), TimeUp()):  # Big Red lands on CONTROL (R13)
        game.apply(inp)
    host, clock, _ = make_host(game=game)
    assert "host team two" in host.context().commands  # listened for as it is said
    host.start(resumed=True)
    claim = Judgement("command", 5.0, "team two", command="team", argument="team2")
    host.handle(Heard((claim,)))
    quiet(host, clock, 0.0, 6.0)
    assert host.game.phase is Phase.TURN and host.game.to_play.name == "Team 2"
    assert any(t.startswith("Team 2 answered first: ") for t in texts(host))


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Red", "Red's turn."),  # the usual possessive
        ("Team 2", "Team 2's turn."),
        ("The Lions", "The Lions' turn."),  # a plural name: not "Lions's", said "lionses"
        ("Boys", "Boys' turn."),
        ("Boss", "Boss's turn."),  # a double s is a singular noun's
    ],
)
def test_turn_intro_says_a_team_name_ending_in_s_as_a_plural_possessive(
    name: str, said: str
) -> None:
    game = Game(parse_teams(f"{name}:Ann,Bob;Other:Cat,Dan"), default_board(), rng=random.Random(0))
    assert dialogue.turn_intro(game).startswith(said)
