"""`voice-host listen` and `voice-host devices` from the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from voice_host import cli
from voice_host.audio import devices
from voice_host.speech import pocketsphinx_backend, second_opinion

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "audio"


class NoInputs:
    """A ``sounddevice`` stand-in with PortAudio but no microphone (like this machine)."""

    class PortAudioError(Exception):
        pass

    default: Any = None

    def query_devices(self) -> list[dict[str, Any]]:
        return [{"name": "HDMI", "max_input_channels": 0, "default_samplerate": 48000.0}]


@pytest.mark.slow
def test_listen_json_reports_the_word_with_audio_times(capsys: pytest.CaptureFixture[str]) -> None:
    clip = FIXTURES / "slt" / "guess__is_it_a_kangaroo.wav"
    code = cli.main(
        ["listen", "--audio", str(clip), "--word", "Kangaroo", "--json", "--show", "heard"]
    )
    captured = capsys.readouterr()
    assert code == 0
    assert "pocketsphinx" in captured.err
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert {line["type"] for line in lines} == {"heard"}
    finals = [x for x in lines if x["kind"] == "final" and x["source"] == "kws"]
    assert any(x["words"][0]["word"] == "kangaroo" and x["confirmed"] for x in finals)
    keys = {"type", "kind", "t", "start", "end", "utterance", "words", "source", "confirmed"}
    for line in lines:
        # a final carries the utterance's pitch when it had enough voiced frames
        assert set(line) - {"pitch"} == keys
        assert "pitch" not in line or line["kind"] == "final"
        for word in line["words"]:
            assert word["start"] <= word["end"] <= line["t"]
    pitches = [x["pitch"] for x in finals if "pitch" in x]
    assert pitches and all(150 <= p <= 210 for p in pitches)  # slt: a woman's voice


@pytest.mark.slow
def test_listen_text_prints_one_line_per_event(capsys: pytest.CaptureFixture[str]) -> None:
    clip = FIXTURES / "slt" / "guess__telescope.wav"
    assert cli.main(["listen", "--audio", str(clip), "--word", "telescope"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert any(" final " in line and "telescope" in line for line in out)
    assert all(line.split()[0].endswith("s") for line in out)  # audio time first


@pytest.mark.parametrize(
    ("content", "message"),
    [
        # a text file named .wav
        (b"not audio at all", "cannot read this recording"),
        # an empty file (a recorder that never started): no format to convert, as
        # "Format not recognised ... convert it first, e.g. ffmpeg" had it
        (b"", "bad.wav: the file is empty (0 bytes)"),
        # a WAV with no data chunk
        (
            b"RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x80\x3e\x00\x00"
            b"\x00\x7d\x00\x00\x02\x00\x10\x00",
            "no data chunk",
        ),
        # a WAV whose data chunk is empty
        (
            b"RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x80\x3e\x00\x00"
            b"\x00\x7d\x00\x00\x02\x00\x10\x00data\x00\x00\x00\x00",
            "holds no audio",
        ),
        # (a float or mu-law WAV, FLAC, OGG, MP3 are read: tests/audio/)
    ],
)
def test_listen_refuses_bad_audio_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str
) -> None:
    path = tmp_path / "bad.wav"
    path.write_bytes(content)
    assert cli.main(["listen", "--audio", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("voice-host: ") and message in err and err.count("\n") == 1


@pytest.mark.slow
def test_listen_hears_a_flac_as_it_hears_the_wav(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sf = pytest.importorskip("soundfile", reason="soundfile (libsndfile) is not installed")
    clip = FIXTURES / "slt" / "guess__telescope.wav"
    flac = tmp_path / "telescope.flac"
    data, rate = sf.read(str(clip), dtype="int16")
    sf.write(str(flac), data, rate, subtype="PCM_16")
    said = []
    for path in (clip, flac):
        assert cli.main(["listen", "--audio", str(path), "--word", "telescope", "--json"]) == 0
        said.append([json.loads(line) for line in capsys.readouterr().out.splitlines()])
    assert said[0] == said[1]
    assert any(line["type"] == "guess" for line in said[1])


def test_listen_without_a_microphone_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(devices, "load_sounddevice", lambda: NoInputs())
    assert cli.main(["listen"]) == 2
    assert "no microphone" in capsys.readouterr().err


def test_devices_without_inputs_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(devices, "load_sounddevice", lambda: NoInputs())
    assert cli.main(["devices"]) == 2
    assert "no audio input devices" in capsys.readouterr().err


class Headphones(NoInputs):
    """No microphone, but an output: a describer's headphones for ``--card-audio``."""

    default: Any = None

    def query_devices(self) -> list[dict[str, Any]]:
        return [
            {
                "name": "HDMI",
                "max_input_channels": 0,
                "max_output_channels": 2,
                "default_samplerate": 48000.0,
            },
            {
                "name": "USB Headset",
                "max_input_channels": 1,
                "max_output_channels": 2,
                "default_samplerate": 44100.0,
            },
        ]


def test_devices_lists_the_outputs_card_audio_takes_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README: "--card-audio DEVICE (voice-host devices lists the outputs too)"."""
    monkeypatch.setattr(devices, "load_sounddevice", lambda: Headphones())
    assert cli.main(["devices"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "Microphones (play --device takes an index or part of a name; * the default):",
        "   1  USB Headset  (1 ch, 44100 Hz)",
        "Outputs (play --card-audio takes an index or part of a name):",
        "   0  HDMI  (2 ch, 48000 Hz)",
        "   1  USB Headset  (2 ch, 44100 Hz)",
    ]


def test_devices_lists_the_outputs_even_without_a_microphone(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class OutputOnly(NoInputs):
        def query_devices(self) -> list[dict[str, Any]]:
            return [
                {
                    "name": "Headphones",
                    "max_input_channels": 0,
                    "max_output_channels": 2,
                    "default_samplerate": 48000.0,
                }
            ]

    monkeypatch.setattr(devices, "load_sounddevice", lambda: OutputOnly())
    assert cli.main(["devices"]) == 2
    said = capsys.readouterr()
    assert "Headphones" in said.out and "no audio input devices" in said.err


def _judgements(capsys: pytest.CaptureFixture[str], clip: Path, *args: str) -> list[dict[str, Any]]:
    code = cli.main(["listen", "--audio", str(clip), "--json", "--show", "judgements", *args])
    out = capsys.readouterr().out
    assert code == 0
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("clip", "word", "category", "expected"),
    [
        # a short answer: a correct guess, timed at the word's end
        ("slt/guess__elephant.wav", "Elephant", "Nature", ("guess", None)),
        # the describer says the card word inside a sentence: a foul of kind "word"
        ("slt/clue_word__you_drive_a_car_to_work.wav", "Car", "Object", ("foul", "word")),
        # the category typed in any case
        ("slt/guess__elephant.wav", "Elephant", "nature", ("guess", None)),
    ],
)
def test_listen_prints_the_referees_judgements(
    capsys: pytest.CaptureFixture[str],
    clip: str,
    word: str,
    category: str,
    expected: tuple[str, str | None],
) -> None:
    judged = _judgements(capsys, FIXTURES / clip, "--word", word, "--category", category)
    assert judged, "the referee judged nothing"
    first = judged[0]
    assert (first["type"], first.get("kind")) == expected
    assert {"type", "t", "heard", "evidence"} <= set(first)
    assert word.lower() in first["heard"]
    assert 0.3 <= first["t"] <= 3.0  # audio seconds inside the clip


def test_listen_judges_a_word_no_deck_holds(capsys: pytest.CaptureFixture[str]) -> None:
    # "Zeppelin" is in no deck: its answers and forms are worked out on the spot.
    clip = FIXTURES / "slt" / "guess__is_it_a_kangaroo.wav"
    judged = _judgements(capsys, clip, "--word", "Zeppelin")
    assert all(j["type"] != "guess" for j in judged)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # a category no card has
        (["--word", "Elephant", "--category", "Bogus"], "voice-host: --category: expected one of"),
        # an empty card entry
        (["--word", " "], "voice-host: --word: give the card entry"),
        # punctuation only: nothing to listen for
        (["--word", "?!"], "voice-host: --word '?!': no word in it"),
        # another alphabet: the English recogniser has nothing to listen for
        (["--word", "Ω"], "voice-host: --word 'Ω': no word in it to listen for (letters"),
        # longer than any deck takes (a paragraph pasted in): as a deck says it
        (["--word", "a" * 5000], "voice-host: --word: entry too long (5,000 characters; at most"),
        # vosk asked for, but no model anywhere: say how to get one
        (["--word", "Elephant", "--backend", "vosk"], "voice-host: --backend vosk: no valid vosk"),
        # options that mean nothing without a card (they printed nothing, or were ignored)
        (["--show", "judgements"], "voice-host: --show judgements needs --word"),
        (["--category", "Nature"], "voice-host: --category needs --word"),
        # ... even a deck that is not there was passed over in silence
        (["--deck", "no-such-deck.txt"], "voice-host: --deck needs --word"),
        # team names with an empty one, or none at all: a claim would go unheard in silence
        (["--teams", ","], "voice-host: --teams: expected team names separated by commas"),
        (["--teams", "Red,,Blue"], "voice-host: --teams: expected team names separated by"),
        (["--teams", "Red,!!"], "voice-host: --teams: expected team names separated by commas"),
        # the same team twice (as play refuses it): a claim for one would go to the other
        (["--teams", "Red,red"], "voice-host: --teams: 'red' is said as another team's name"),
        # an empty --model (an unset variable in a script) is no model, as play says
        (["--model", ""], "voice-host: --model: expected a file or folder path, got ''"),
    ],
)
def test_listen_bad_options_are_one_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    args: list[str],
    message: str,
) -> None:
    clip = (FIXTURES / "slt" / "guess__elephant.wav").resolve()
    # an empty models folder, whatever this machine has fetched
    monkeypatch.setenv("VOICE_HOST_MODELS", str(tmp_path))
    monkeypatch.delenv("VOICE_HOST_MODEL", raising=False)
    code = cli.main(["listen", "--audio", str(clip), *args])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(message)
    assert len(err.splitlines()) == 1


def _damaged_model(folder: Path) -> Path:
    """A vosk model folder with every file it needs, none of them readable by vosk
    (an interrupted copy, a disk error)."""
    from voice_host.speech.models import REQUIRED_FILES

    for name in REQUIRED_FILES:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(b"\x00garbage\n" * 50)
    return folder


@pytest.mark.slow
def test_a_model_vosk_cannot_load_leaves_pocketsphinx_listening(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytest.importorskip("vosk")
    model = _damaged_model(tmp_path / "vosk-model-damaged")
    monkeypatch.setenv("VOICE_HOST_MODELS", str(tmp_path))
    monkeypatch.delenv("VOICE_HOST_MODEL", raising=False)
    clip = FIXTURES / "slt" / "guess__elephant.wav"
    args = ["listen", "--audio", str(clip), "--word", "Elephant", "--no-second-transcriber"]
    # found in models/: pocketsphinx listens instead and says why
    assert cli.main(args) == 0
    err = capfd.readouterr().err
    assert "Using pocketsphinx" in err and "could not load the model" in err
    assert "VoskAPI" not in err  # vosk's own log lines (written by C++) stay out of the terminal
    # named with --model: one line, exit 2
    assert cli.main([*args, "--model", str(model)]) == 2
    err = capfd.readouterr().err
    assert err.startswith("voice-host: ") and "could not load the model" in err
    assert len(err.splitlines()) == 1


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "judged"),
    [
        # By default the recording is heard once unreported first: the recogniser's
        # feature normalisation fits it, and "is it a carpet" is a guess.
        ((), "guess"),
        # A fresh recogniser cold writes "is n h r k": no answer, and letters
        # that do not spell "carpet" (once judged a letter foul): nothing at all.
        (("--cold",), None),
    ],
)
def test_listen_adapts_to_a_recording_before_judging_it(
    options: tuple[str, ...],
    judged: str | None,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # pocketsphinx alone: the second transcriber would rescue the cold run (below)
    monkeypatch.setattr(second_opinion, "default_transcriber", lambda: None)
    clip = FIXTURES / "slt" / "guess__is_it_a_carpet.wav"
    args = ["listen", "--audio", str(clip), "--word", "Carpet", "--json", "--show", "judgements"]
    assert cli.main([*args, *options]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["type"] for line in lines] == ([judged] if judged else [])


@pytest.mark.slow
def test_the_second_transcriber_hears_what_cold_pocketsphinx_does_not(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Cold, pocketsphinx writes "is n h r k" (above); Moonshine writes "is it a
    # carpet", and as pocketsphinx's transcript holds no card word, Moonshine's is read.
    clip = FIXTURES / "slt" / "guess__is_it_a_carpet.wav"
    args = ["listen", "--audio", str(clip), "--word", "Carpet", "--json", "--cold"]
    assert cli.main([*args, "--show", "judgements"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(line["type"], line["heard"]) for line in lines] == [("guess", "carpet")]
    # the recogniser events say which transcriber wrote the transcript
    assert cli.main([*args, "--show", "heard"]) == 0
    heard = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    free = [h for h in heard if h["source"] == "free"]
    assert [h.get("transcriber") for h in free] == ["Moonshine tiny-en"]


@pytest.mark.slow
def test_without_a_word_commands_are_judged_as_between_turns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # without --word nothing was judged at all, not even "host, pass" (session 54's
    # audit): a turn's judgements need a card, a command does not
    clip = FIXTURES / "rms" / "command__host_pass.wav"
    code = cli.main(["listen", "--audio", str(clip), "--json"])
    out = capsys.readouterr().out
    assert code == 0
    judged = [j for j in map(json.loads, out.splitlines()) if j["type"] != "heard"]
    assert [(j["type"], j["command"]) for j in judged] == [("command", "pass")]


def test_a_word_in_no_deck_and_no_category_is_judged_as_noun_and_verb() -> None:
    from voice_host.commands.listen import find_entry

    # "Knitting" is on no built-in card: worked out on the spot, both readings
    entry = find_entry("Knitting", None, None)
    assert {"knitting", "knit"} <= set(entry.answers)
    assert "knitted" in entry.forms
    # with a category given, that reading alone
    assert "knit" not in find_entry("Knitting", "Object", None).answers


def test_a_category_given_for_a_deck_word_decides_its_reading() -> None:
    from voice_host.commands.listen import find_entry

    # "Albert Einstein" is a Person on a built-in card: without --category, or with
    # Person, the deck's entry; --category Object was ignored and the deck's Person
    # taken all the same (session 54's audit): now it is worked out as asked
    deck_entry = find_entry("Albert Einstein", None, None)
    assert find_entry("Albert Einstein", "Person", None) == deck_entry
    as_object = find_entry("Albert Einstein", "Object", None)
    assert as_object != deck_entry
    assert set(as_object.answers) != set(deck_entry.answers) or as_object.forms != deck_entry.forms


@pytest.mark.slow
def test_a_telephone_band_recording_is_heard_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import wave

    with wave.open(str(FIXTURES / "slt" / "guess__is_it_a_kangaroo.wav")) as w:
        samples = w.readframes(w.getnframes())
    path = tmp_path / "phone.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"".join(samples[i : i + 2] for i in range(0, len(samples), 4)))
    assert cli.main(["listen", "--audio", str(path), "--word", "Kangaroo", "--json"]) == 0
    err = capsys.readouterr().err
    assert "is 8000 Hz" in err and "telephone-band" in err
    # a wideband recording gets no such note
    clip = FIXTURES / "slt" / "guess__is_it_a_kangaroo.wav"
    assert cli.main(["listen", "--audio", str(clip), "--word", "Kangaroo", "--json"]) == 0
    assert "telephone-band" not in capsys.readouterr().err


@pytest.mark.slow
def test_a_floating_point_recording_is_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import struct
    import wave

    import numpy as np

    # "is it a kangaroo" as an editor exports it: 32-bit float (was refused)
    with wave.open(str(FIXTURES / "slt" / "guess__is_it_a_kangaroo.wav")) as w:
        ints = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    data = (ints.astype("<f4") / 32768).tobytes()
    fmt = struct.pack("<HHIIHH", 3, 1, 16000, 64000, 4, 32)
    body = b"WAVEfmt " + struct.pack("<I", len(fmt)) + fmt + b"data"
    body += struct.pack("<I", len(data)) + data
    path = tmp_path / "float.wav"
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)
    args = ["listen", "--audio", str(path), "--word", "Kangaroo", "--json", "--show", "judgements"]
    assert cli.main(args) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["type"] for line in lines] == ["guess"]


def _kangaroo_at(tmp_path: Path, gain_db: float) -> Path:
    """The fixture "is it a kangaroo" turned up or down by ``gain_db`` (clipped at full scale)."""
    import wave

    import numpy as np

    clip = FIXTURES / "slt" / "guess__is_it_a_kangaroo.wav"
    with wave.open(str(clip)) as w:
        ints = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(float)
    path = tmp_path / f"kangaroo{gain_db:+.0f}dB.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        scaled = np.clip(np.round(ints * 10 ** (gain_db / 20)), -32768, 32767)
        w.writeframes(scaled.astype("<i2").tobytes())
    return path


@pytest.mark.slow
def test_a_clipped_recording_is_heard_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _kangaroo_at(tmp_path, 9.0)
    assert cli.main(["listen", "--audio", str(path), "--word", "Kangaroo", "--json"]) == 0
    assert "is clipped" in capsys.readouterr().err
    # the recording as made: no note at all
    clip = FIXTURES / "slt" / "guess__is_it_a_kangaroo.wav"
    assert cli.main(["listen", "--audio", str(clip), "--word", "Kangaroo", "--json"]) == 0
    assert "note:" not in capsys.readouterr().err


@pytest.mark.slow
def test_a_very_quiet_recording_is_heard_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _kangaroo_at(tmp_path, -45.0)
    assert cli.main(["listen", "--audio", str(path), "--word", "Kangaroo", "--json"]) == 0
    err = capsys.readouterr().err
    assert "is very quiet (at most -5" in err and err.count("note:") == 1


@pytest.mark.slow
def test_a_recording_cut_short_is_heard_as_far_as_it_goes_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A recording whose writing was interrupted: the header promises more than the
    # file holds.  What is there is heard, and the note says what is missing.
    whole = (FIXTURES / "slt" / "guess__is_it_a_kangaroo.wav").read_bytes()
    path = tmp_path / "cut.wav"
    path.write_bytes(whole[: 44 + (len(whole) - 44) * 3 // 4])
    assert cli.main(["listen", "--audio", str(path), "--word", "Kangaroo", "--json"]) == 0
    out, err = capsys.readouterr()
    assert "is cut short: its header promises" in err and "heard as far as it goes" in err
    assert any(json.loads(line).get("type") == "guess" for line in out.splitlines())


@pytest.mark.slow
def test_listen_says_which_recogniser_and_second_transcriber_it_uses(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    clip = FIXTURES / "slt" / "guess__elephant.wav"
    args = ["listen", "--audio", str(clip), "--word", "Elephant", "--backend", "pocketsphinx"]
    assert cli.main(args) == 0
    assert "with Moonshine tiny-en as a second transcriber" in capsys.readouterr().err
    # switched off, it is not named
    assert cli.main([*args, "--no-second-transcriber"]) == 0
    assert "second transcriber" not in capsys.readouterr().err
    # wanted but not usable: pocketsphinx reads alone and the host says so
    monkeypatch.setattr(second_opinion, "default_transcriber", lambda: None)
    assert cli.main(args) == 0
    err = capsys.readouterr().err
    assert "no second transcriber" in err
    assert "pause detector" not in err  # Silero VAD is there
    # without the neural pause detector, the host says so too
    monkeypatch.setattr(pocketsphinx_backend, "default_pause_detector", lambda: None)
    assert cli.main(args) == 0
    assert "no neural pause detector" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize(
    ("clip", "word"),
    [
        # spelled letters: the biased model leans toward the card's own spelling,
        # so "b i c" comes out as letters rather than "be like c m"
        ("rms/letter__b_i_c_and_then_some_more.wav", "Bicycle"),
        # and "p i z" rather than "p r it the"
        ("espeak-en-us+m3/letter__p_i_z_and_then_some_more.wav", "Pizza"),
    ],
)
def test_letter_talk_that_spells_the_card_is_a_letter_foul(
    capsys: pytest.CaptureFixture[str], clip: str, word: str
) -> None:
    judged = _judgements(capsys, FIXTURES / clip, "--word", word)
    assert [(j["type"], j.get("kind")) for j in judged] == [("foul", "letter")]


class OneInput(NoInputs):
    """A ``sounddevice`` stand-in with one microphone."""

    def query_devices(self) -> list[dict[str, Any]]:
        return [{"name": "Laptop mic", "max_input_channels": 1, "default_samplerate": 16000.0}]


def _microphone_at(
    monkeypatch: pytest.MonkeyPatch, dbfs: float | None, clip_every: int = 0
) -> None:
    """The microphone replaced by one that hears talk peaking at ``dbfs`` (None: muted),
    with one block in ``clip_every`` clipping at full scale."""
    import numpy as np

    from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk

    n = SAMPLE_RATE // 10

    class Microphone:
        dropped_blocks = 0

        def __init__(self, device: object, on_event: object = None) -> None: ...

        def __iter__(self) -> Any:
            rng = np.random.default_rng(2)
            for i in range(10_000):
                if dbfs is None:
                    values = np.zeros(n)
                else:
                    level = dbfs if i % 4 == 0 else dbfs - 25.0  # words and the gaps between
                    values = rng.standard_normal(n) * 32768 * 10 ** (level / 20)
                    if clip_every and i % clip_every == 0:
                        values[: n // 20] = 32767
                yield AudioChunk(
                    np.clip(values, -32768, 32767).astype("<i2").tobytes(), SAMPLE_RATE, i / 10
                )

        def close(self) -> None: ...

    monkeypatch.setattr(devices, "load_sounddevice", lambda: OneInput())
    monkeypatch.setattr("voice_host.audio.microphone.MicrophoneSource", Microphone)


@pytest.mark.parametrize(
    ("dbfs", "clip_every", "code", "verdict"),
    [
        (-22.0, 0, 0, "good: the table is heard well"),
        (-52.0, 0, 1, "faint: speech hardly rises"),
        (None, 0, 1, "silent: the microphone hears nothing at all"),
        (-8.0, 7, 1, "overloading: loud words clip"),
    ],
)
def test_devices_check_says_whether_the_microphone_level_suits_a_game(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    dbfs: float | None,
    clip_every: int,
    code: int,
    verdict: str,
) -> None:
    _microphone_at(monkeypatch, dbfs, clip_every)
    assert cli.main(["devices", "--check", "--seconds", "3"]) == code
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Listening to Laptop mic for 3 s")
    assert [line.split()[0] for line in out[1:4]] == ["1", "2", "3"]  # a meter line a second
    assert len(out) == 5 and verdict in out[4], out
    if dbfs is not None and not clip_every:
        assert f"loudest {dbfs:.0f} dBFS" in out[4]


def test_devices_check_without_a_microphone_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(devices, "load_sounddevice", lambda: NoInputs())
    assert cli.main(["devices", "--check"]) == 2
    assert "no microphone" in capsys.readouterr().err


def test_devices_check_refuses_a_silly_duration(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["devices", "--check", "--seconds", "0"]) == 2
    assert "--seconds must be between 1 and 600" in capsys.readouterr().err


def test_listening_to_the_microphone_prints_the_hosts_level_advice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # `voice-host listen` on the microphone gives the advice the game would: a
    # table heard only faintly for 40 s is told so, once, and every block is
    # still passed on to the recogniser.
    import numpy as np

    from voice_host.audio.chunk import SAMPLE_RATE, AudioChunk
    from voice_host.commands.listen import with_level_advice
    from voice_host.host import dialogue

    rng = np.random.default_rng(3)
    n = SAMPLE_RATE // 10
    faint = [
        AudioChunk(
            (rng.standard_normal(n) * 32768 * 10 ** (-52 / 20)).astype("<i2").tobytes(),
            SAMPLE_RATE,
            i / 10,
        )
        for i in range(600)
    ]
    passed = list(with_level_advice(faint[:390]))
    assert len(passed) == 390 and capsys.readouterr().err == ""  # 39 s: no news yet
    assert len(list(with_level_advice(faint))) == 600
    assert capsys.readouterr().err == f"note: {dialogue.MIC_FAINT}\n"  # said once
