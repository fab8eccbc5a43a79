"""The third transcriber: Moonshine base-en, read when the other two made nothing of a
short utterance (``voice_host.speech.moonshine_base``)."""

from __future__ import annotations

import os
import subprocess
import sys
import wave
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from voice_host.audio.chunk import AudioChunk
from voice_host.errors import EngineError, ModelError
from voice_host.speech import moonshine_base
from voice_host.speech.events import HeardWord, ListenContext
from voice_host.speech.pocketsphinx_backend import PocketSphinxRecognizer
from voice_host.speech.replay import replay
from voice_host.speech.second_opinion import Keys, pick_transcript

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio"

KEYS = Keys.of(
    ["telescope", "the telescope", "red", "blue", "host pass", "host foul"],
    ["host pass", "host foul"],
    ["telescope", "the telescope"],
    ["starts with", "rhymes with"],
)


def heard(text: str) -> tuple[HeardWord, ...]:
    return tuple(HeardWord(w, i * 0.3, i * 0.3 + 0.25) for i, w in enumerate(text.split()))


def _clip(name: str) -> bytes:
    with wave.open(str(FIXTURES / name)) as w:
        return w.readframes(w.getnframes())


def _chunks(clip: bytes) -> list[AudioChunk]:
    return [AudioChunk(clip[i : i + 3200], 16000, i / 32000) for i in range(0, len(clip), 3200)]


@pytest.mark.parametrize(
    ("sphinx", "second", "third", "read"),
    [
        # the two wrote different words and nothing that matters: the third's
        # "host pass" is read (slt's "host, pass": tiny-en wrote "ghost pess")
        ("pass pass", "ghost pess", "host pass", "third"),
        # a word written for the wake word at the start, then a command, matters:
        # tiny-en's "toast pass" is read (rms's "host, pass"), no third asked
        ("post pass", "toast pass", None, "second"),
        ("on really", "amen", "a telescope", "third"),
        # the third made nothing of it either: pocketsphinx's stands
        ("on really", "amen", "a banana", "sphinx"),
        # the two agree on the words ("dog"): both followed the voice, no third asked
        ("is it a dog", "is it a dog", None, "sphinx"),
        # ... but a word both wrote for the wake word is no agreement on what followed
        # it (espeak-ng's "host, help": "post delp", "post hell"; base-en "host help")
        ("post delp", "post fell", "host foul", "third"),
        ("post office hours", "post office", None, "sphinx"),
        # one of them wrote a word that matters: the third is not asked
        ("is it a telescope", "is it a microscope", None, "sphinx"),
        ("is it a", "is it a telescope", None, "second"),
    ],
)
def test_the_third_is_asked_only_when_the_two_made_nothing_of_it_and_disagree(
    sphinx: str, second: str, third: str | None, read: str
) -> None:
    asked: list[bool] = []

    def write_third() -> tuple[HeardWord, ...]:
        asked.append(True)
        assert third is not None, "the third transcriber was asked"
        return heard(third)

    reading = pick_transcript(
        heard(sphinx), lambda: heard(second), KEYS, cross_check=True, write_third=write_third
    )
    assert asked == ([True] if third is not None else [])
    expected = {"sphinx": sphinx, "second": second, "third": third or ""}[read]
    assert reading.words == heard(expected)
    assert reading.second == (read != "sphinx") and reading.third == (read == "third")


@pytest.mark.parametrize(
    ("sphinx", "third", "read"),
    [
        # pocketsphinx's model, biased towards every command, wrote "foul" where
        # kal16 said "host, help" ("host foul the"); base-en wrote "host help": a
        # command other than pocketsphinx's, so its line is read (benchmarks/commands.py)
        ("host foul the", "host help", "third"),
        ("ok host pass", "okay host foul", "third"),
        # base-en wrote the same command: pocketsphinx's stands ...
        ("host pass", "host pass", "sphinx"),
        ("host pass", "host pass thank you", "sphinx"),  # ... over base-en's longer line
        # ... but where base-en wrote it in no more words, base-en's are read: the
        # word that closes it is garbled by pocketsphinx's model (kal16's "host,
        # correct please", written "host correct ways")
        ("host foul ways", "host foul please", "third"),
        # base-en wrote no command ("host and do" for "host, undo"): pocketsphinx's stands
        ("host foul", "host and do", "sphinx"),
        # a command word without the wake word is no command of base-en's
        ("host foul", "pass the salt", "sphinx"),
    ],
)
def test_base_en_checks_the_command_pocketsphinx_wrote(sphinx: str, third: str, read: str) -> None:
    commands = ["host pass", "host foul", "host help", "host undo"]
    keys = Keys.of(["telescope", *commands], commands, ["telescope"])
    reading = pick_transcript(
        heard(sphinx), lambda: heard(sphinx), keys, check_command=lambda: heard(third)
    )
    assert reading.words == heard(sphinx if read == "sphinx" else third)
    assert reading.third == (read == "third")


def test_base_en_is_not_asked_about_a_transcript_without_a_command() -> None:
    def check() -> tuple[HeardWord, ...]:
        raise AssertionError("base-en was asked")

    for sphinx in ("is it a telescope", "foul five every minute", "host"):
        assert pick_transcript(heard(sphinx), None, KEYS, check_command=check).words == heard(
            sphinx
        )


def test_the_token_list_reads_short_and_long_entries_and_refuses_a_cut_one() -> None:
    long = "▁".encode() + b"x" * 200  # 203 bytes: a two-byte length
    data = b"\x05<unk>\x03<s>" + bytes([0x80 | (203 & 0x7F), 203 >> 7]) + long
    assert moonshine_base.read_tokens(data) == (b"<unk>", b"<s>", long)
    with pytest.raises(ModelError, match="cut short"):
        moonshine_base.read_tokens(b"\x05<un")


def test_a_conversion_is_made_once_and_renamed_into_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "wheel"
    source.mkdir()
    for name in moonshine_base.FILES:
        (source / name).write_bytes(b"model " + name.encode())
    made: list[str] = []

    def unfold(src: Path, target: Path, work: Path) -> None:
        made.append(src.name)
        target.write_bytes(b"converted")

    monkeypatch.setattr(moonshine_base, "_unfold", unfold)
    cache = tmp_path / "cache"
    encoder, decoder = moonshine_base.converted_models(source, cache)
    assert encoder.read_bytes() == decoder.read_bytes() == b"converted"
    assert made == ["encoder_model.ort", "decoder_model_merged.ort"]
    # the second time it is read from the cache; no temporary folder is left
    assert moonshine_base.converted_models(source, cache) == (encoder, decoder)
    assert len(made) == 2
    assert [p.name for p in cache.iterdir()] == [encoder.parent.name]

    def broken(src: Path, target: Path, work: Path) -> None:
        target.write_bytes(b"half")
        raise OSError("disk full")

    # a new wheel (other sizes) whose conversion fails: an error naming the cache,
    # nothing half made, and the old conversion still there
    (source / moonshine_base.FILES[1]).write_bytes(b"a bigger decoder than before")
    monkeypatch.setattr(moonshine_base, "_unfold", broken)
    with pytest.raises(ModelError, match="cannot convert Moonshine base-en"):
        moonshine_base.converted_models(source, cache)
    assert [p.name for p in cache.iterdir()] == [encoder.parent.name]


def test_an_unwritable_cache_is_a_model_error(tmp_path: Path) -> None:
    source = tmp_path / "wheel"
    source.mkdir()
    for name in moonshine_base.FILES:
        (source / name).write_bytes(b"x")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(ModelError, match="cannot write"):
        moonshine_base.converted_models(source, blocker / "cache")


def test_a_damaged_conversion_is_removed_to_be_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    source = tmp_path / "wheel"
    source.mkdir()
    for name in moonshine_base.FILES:
        (source / name).write_bytes(b"model " + name.encode())
    monkeypatch.setattr(moonshine_base, "model_folder", lambda: source)
    monkeypatch.setattr(moonshine_base, "_loaded", None)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    made = moonshine_base.cache_folder() / moonshine_base._stamp(source)
    made.mkdir(parents=True)
    (made / "encoder.onnx").write_bytes(b"cut short")
    (made / "decoder.onnx").write_bytes(b"cut short")
    with pytest.raises(ModelError, match="made again next time"):
        moonshine_base._load()
    assert not made.exists()


def test_the_sessions_keep_no_plan_per_input_length(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # onnxruntime's memory patterns keep a plan for every new input shape, for the
    # session's life: the encoder's input (the utterance's samples) is a new length
    # nearly every call, and the process grew about 13 KB a call without end
    onnxruntime = pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    source = tmp_path / "wheel"
    source.mkdir()
    for name in moonshine_base.FILES:
        (source / name).write_bytes(b"model " + name.encode())
    (source / "tokenizer.bin").write_bytes(b"\x01a")
    monkeypatch.setattr(moonshine_base, "model_folder", lambda: source)
    monkeypatch.setattr(moonshine_base, "_loaded", None)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    made = moonshine_base.cache_folder() / moonshine_base._stamp(source)
    made.mkdir(parents=True)
    (made / "encoder.onnx").write_bytes(b"encoder")
    (made / "decoder.onnx").write_bytes(b"decoder")
    made_with: list[tuple[str, Any]] = []

    def session(path: str, options: Any, providers: list[str]) -> object:
        made_with.append((Path(path).name, options))
        return object()

    monkeypatch.setattr(onnxruntime, "InferenceSession", session)
    moonshine_base._load()
    assert [name for name, _ in made_with] == ["encoder.onnx", "decoder.onnx"]
    for _, options in made_with:
        assert options.enable_mem_pattern is False
        assert options.intra_op_num_threads == 1
        assert options.inter_op_num_threads == 1


@pytest.fixture
def base() -> moonshine_base.MoonshineBaseTranscriber:
    """Moonshine base-en, loaded; skipped where it is not installed or cannot load
    (its packages are for Linux x86_64 only; its conversion needs a writable cache)."""
    third = moonshine_base.default_third_transcriber()
    if third is None:
        pytest.skip("Moonshine base-en (moonshine-cpp, onnxruntime, onnx) is not installed")
    try:
        third.load()
    except (EngineError, ModelError) as exc:
        pytest.skip(f"Moonshine base-en cannot load here: {exc}")
    return third


@pytest.mark.slow
def test_moonshine_base_writes_what_tiny_garbles(
    base: moonshine_base.MoonshineBaseTranscriber,
) -> None:
    host_pass = base.transcribe(_clip("rms/command__host_pass.wav"), start=1.0)
    assert [w.text for w in host_pass] == ["host", "pass"]  # tiny-en: "toast pass"
    assert all(1.0 <= w.start < w.end <= 1.0 + 2.0 for w in host_pass)
    banana = base.transcribe(_clip("slt/guess__a_banana.wav"), start=0.0)
    assert [w.text for w in banana] == ["a", "banana"]  # tiny-en: "amen"
    assert base.transcribe(b"\0\0" * 800, 0.0) == ()  # 50 ms: too short


def _heard_twice(recognizer: PocketSphinxRecognizer, clip: str, word: str) -> list[tuple[str, str]]:
    """The final free transcripts of ``clip`` under card ``word`` and its transcriber,
    the second time it is heard (the first lets the recogniser adapt to the room)."""
    from voice_host.deck.knowledge import make_entry
    from voice_host.referee.commands import command_phrases

    context = ListenContext.for_entry(make_entry(word, "Object"), command_phrases(()), ())
    chunks = _chunks(_clip(clip))
    replay(recognizer, iter(chunks), context)
    events = replay(recognizer, iter(chunks), context)
    return [(e.text, e.transcriber) for e in events if e.source == "free" and e.kind == "final"]


#: espeak's f2 voice saying "a mountain!" over chatter 15 dB down: pocketsphinx and
#: tiny-en write nothing of it, base-en "hey mountain".
MOUNTAIN = "espeak-en+f2/guess__a_mountain__babble15.wav"


@pytest.mark.slow
def test_the_backend_hears_a_guess_only_the_third_transcriber_follows(
    base: moonshine_base.MoonshineBaseTranscriber,
) -> None:
    two = PocketSphinxRecognizer(third_opinion=None)
    three = PocketSphinxRecognizer()
    assert three.third_opinion is not None
    assert not any(
        "mountain" in text.split() for text, _ in _heard_twice(two, MOUNTAIN, "Mountain")
    )
    assert [
        (text, by)
        for text, by in _heard_twice(three, MOUNTAIN, "Mountain")
        if "mountain" in text.split()
    ] == [("hey mountain", "Moonshine base-en")]


class _Broken(moonshine_base.MoonshineBaseTranscriber):
    def transcribe(
        self, audio: bytes, start: float, lean: Sequence[str] = ()
    ) -> tuple[HeardWord, ...]:
        raise RuntimeError("the model went away")


@pytest.mark.slow
def test_a_failing_third_transcriber_leaves_the_other_two_reading(
    base: moonshine_base.MoonshineBaseTranscriber, caplog: pytest.LogCaptureFixture
) -> None:
    recognizer = PocketSphinxRecognizer(third_opinion=_Broken())
    assert _heard_twice(recognizer, MOUNTAIN, "Mountain")  # still transcribed
    assert recognizer.third_opinion is None and recognizer.second_opinion is not None
    assert "third transcriber failed" in caplog.text


def test_onnxruntime_keeps_no_telemetry(tmp_path: Path) -> None:
    # onnxruntime 1.29+ on Linux keeps a device id and telemetry events under
    # ~/.cache/Microsoft and uploads them; importing voice_host switches that off
    # before onnxruntime loads, even when the environment asked for it
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    script = (
        "import voice_host.speech.moonshine_base\n"
        "import onnx, onnxruntime\n"
        "from onnx import TensorProto, helper\n"
        "x = helper.make_tensor_value_info('x', TensorProto.FLOAT, [1])\n"
        "y = helper.make_tensor_value_info('y', TensorProto.FLOAT, [1])\n"
        "graph = helper.make_graph([helper.make_node('Identity', ['x'], ['y'])], 'g', [x], [y])\n"
        "model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 13)])\n"
        "model.ir_version = 8\n"
        "onnxruntime.InferenceSession(model.SerializeToString(), "
        "providers=['CPUExecutionProvider'])\n"
    )
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("XDG_") and key != "ORT_DISABLE_TELEMETRY"
    }
    env.update(HOME=str(tmp_path), ORT_DISABLE_TELEMETRY="0")
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / ".cache" / "Microsoft").exists()


def test_a_line_leans_towards_phrases_without_their_articles() -> None:
    assert moonshine_base.Leaning.towards(
        ["the telescope", "telescope", "Host Pass", "the", "telescopes"]
    ).targets == ("telescope", "host pass", "the", "telescopes")


@pytest.mark.parametrize(
    ("line", "held"),
    [
        ("Is it a carpet?", True),
        ("Carpet!", True),
        ("is it a carpets", False),  # another word, though it begins with the phrase
        ("is it a car pet", False),
        ("Host, pass.", True),  # punctuation between the phrase's words
        ("host is passing", False),
    ],
)
def test_a_line_holds_a_phrase_only_as_whole_words(line: str, held: bool) -> None:
    assert moonshine_base.Leaning.towards(("carpet", "host pass")).held_by(line) is held


@pytest.mark.parametrize(
    ("text", "piece", "inside"),
    [
        (" is it a", " car", True),  # the start of "carpet" at a word's start
        (" is it a car", "pet", True),  # its end
        (" is it a", " carpet", True),  # all of it
        (" is it a", " carpets", False),  # runs past it
        (" is it a", "pet", False),  # not at a word's start
        (" is it a", " cart", False),  # leaves it
        (" is it a", ",", False),  # punctuation never leans
        (" is it", " a", False),  # not a word of the phrase
        ("", " host", True),  # the line's first word
        (" host", " pass", True),  # a phrase's second word
        (" host", " passes", False),
        (" the", " host", True),  # a phrase's first word after any other
    ],
)
def test_a_token_leans_only_when_it_lies_inside_a_phrase(
    text: str, piece: str, inside: bool
) -> None:
    assert moonshine_base.Leaning.towards(("carpet", "host pass")).inside(text, piece) is inside


def test_the_leaning_token_wins_only_within_the_bonus() -> None:
    import numpy as np

    texts = [" cart", " car", ",", " carp"] + [f" w{i}" for i in range(60)]
    log_probs = np.full(len(texts), -20.0)
    log_probs[:4] = [-0.5, -2.0, -1.0, -9.0]
    carpet = moonshine_base.Leaning.towards(["the carpet"])
    # " car" lies inside "carpet": 2.0 - 0.5 is within the bonus, so it is taken ...
    assert carpet.token(log_probs, " is it a", texts) == 1
    # ... not when the model finds it far less likely ...
    log_probs[1] = -0.5 - moonshine_base.LEAN_BONUS - 0.1
    assert carpet.token(log_probs, " is it a", texts) == 0
    # ... and without a phrase to lean towards, the likeliest token
    kangaroo = moonshine_base.Leaning.towards(["kangaroo"])
    log_probs[1] = -2.0
    assert kangaroo.token(log_probs, " is it a", texts) == 0


#: slt's "is it a carpet?" in white noise 20 dB down: base-en alone writes "is it
#: any cartridge".
CARPET = "slt/guess__is_it_a_carpet__white20.wav"


@pytest.mark.slow
def test_base_en_leaning_towards_the_card_writes_the_card_only_where_it_was_said(
    base: moonshine_base.MoonshineBaseTranscriber,
) -> None:
    def said(clip: str, lean: Sequence[str]) -> list[str]:
        return [w.text for w in base.transcribe(_clip(clip), 0.0, lean)]

    assert said(CARPET, ()) == ["is", "it", "any", "cartridge"]
    assert said(CARPET, ("carpet", "the carpet", "carpets")) == ["is", "it", "any", "carpet"]
    # another card, a word inside the one said, or a command: the model's own line
    for lean in (("kangaroo",), ("telescope",), ("car", "cars"), ("host pass", "host undo")):
        assert said(CARPET, lean) == ["is", "it", "any", "cartridge"], lean
    # a line that holds a phrase already is not written again
    assert said("rms/guess__is_it_a_telescope.wav", ("carpet",)) == ["is", "it", "a", "telescope"]


@pytest.mark.slow
def test_the_backend_hears_a_noisy_guess_through_the_leaning_line(
    base: moonshine_base.MoonshineBaseTranscriber,
) -> None:
    # the card's answers: "carpet", "carpets", "carpeted" ("isn't he carpeted")
    answers = {"carpet", "carpets", "carpeted"}
    assert [
        by
        for text, by in _heard_twice(PocketSphinxRecognizer(), CARPET, "Carpet")
        if answers & set(text.split())
    ] == ["Moonshine base-en"]
    assert not any(
        "kangaroo" in text.split()
        for text, _ in _heard_twice(PocketSphinxRecognizer(), CARPET, "Kangaroo")
    )


def test_lines_that_hold_no_word_that_matters_are_a_witness_against_the_spotter() -> None:
    # A final transcript in which no transcriber wrote a word that matters, the two
    # disagreeing: the third's line (else the second's) is a witness that did not
    # agree, against a long card word the spotter heard there (a child's "xylophone"
    # on the card Telephone: "is island phone", "zylophone", "xylophone")
    reading = pick_transcript(
        heard("is island phone"),
        lambda: heard("zylophone"),
        KEYS,
        cross_check=True,
        write_third=lambda: heard("xylophone"),
    )
    assert reading.words == heard("is island phone") and not reading.second
    assert reading.witness == heard("xylophone") and not reading.agrees and reading.hits_only
    reading = pick_transcript(
        heard("is island phone"), lambda: heard("zylophone"), KEYS, cross_check=True
    )
    assert reading.witness == heard("zylophone") and not reading.agrees
    # not at an early check (no cross-check), and not from an empty line
    early = pick_transcript(heard("is island phone"), lambda: heard("zylophone"), KEYS)
    assert early.witness is None
    empty = pick_transcript(heard("is island phone"), lambda: (), KEYS, cross_check=True)
    assert empty.witness is None
    # where the two agree, the second is a witness that agreed, as before
    line = heard("it barks at the postman")
    agreed = pick_transcript(line, lambda: line, KEYS, cross_check=True)
    assert agreed.witness == line and agreed.agrees
