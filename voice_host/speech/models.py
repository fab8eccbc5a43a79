"""Fetching, listing and checking vosk models in ``models/``.

A fetch downloads to ``models/NAME.zip.part`` (resuming with an HTTP Range
request), checks the size and SHA-256, unpacks into a temporary sibling
folder while refusing absolute, ``..`` and symlink paths, checks the model's
required files, and only then renames the folder into place.  Any failure
is a one-line :class:`~voice_host.errors.ModelError` and leaves nothing
half-installed in ``models/`` (a ``.part`` file may stay, to be resumed).
Standard library only.
"""

from __future__ import annotations

import hashlib
import http.client
import os
import shutil
import stat
import sys
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from voice_host.errors import ModelError, file_in_the_way
from voice_host.speech.child_probe import failed_lines


@dataclass(frozen=True)
class ModelSource:
    """Where a model comes from and what it must be."""

    name: str
    """Folder name inside ``models/`` (and inside the zip)."""
    url: str
    """Download address of the zip."""
    size: int
    """Exact size of the zip, in bytes."""
    sha256: str
    """Lower-case hex SHA-256 of the zip."""


#: The default model: the official small US English model (Apache-2.0).
DEFAULT_MODEL = ModelSource(
    name="vosk-model-small-en-us-0.15",
    url="https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.15.zip",
    size=41_205_931,
    sha256="30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498",
)
#: Models known by name.
KNOWN_MODELS: dict[str, ModelSource] = {DEFAULT_MODEL.name: DEFAULT_MODEL}

#: Files a usable vosk model folder holds (the small en-us 0.15 layout; the
#: ``graph/HCLr.fst`` + ``graph/Gr.fst`` pair is what makes runtime grammars work).
REQUIRED_FILES: tuple[str, ...] = (
    "am/final.mdl",
    "conf/mfcc.conf",
    "conf/model.conf",
    "graph/disambig_tid.int",
    "graph/Gr.fst",
    "graph/HCLr.fst",
    "graph/phones/word_boundary.int",
    "ivector/final.dubm",
    "ivector/final.ie",
    "ivector/final.mat",
    "ivector/global_cmvn.stats",
    "ivector/online_cmvn.conf",
    "ivector/splice.conf",
)
#: Bytes read per network or disk block.
BLOCK = 1 << 16
#: Seconds to wait on the network before giving up.
TIMEOUT = 30.0

Progress = Callable[[int, int], None]
"""Called with (bytes so far, total bytes) while downloading."""


def default_models_dir(env: Mapping[str, str], package_dir: Path | None = None) -> Path:
    """Where models live: ``$VOICE_HOST_MODELS``; else the ``models/`` folder of the
    checkout this package runs from (so ``play`` finds a fetched model from any
    folder); else ``models/`` in the current folder."""
    named = env.get("VOICE_HOST_MODELS")
    if named:
        return Path(named).expanduser()
    here = package_dir if package_dir is not None else Path(__file__).resolve().parents[1]
    checkout = here.parent / "models"
    if checkout.is_dir():
        return checkout
    return Path("models")


def missing_files(path: Path) -> list[str]:
    """Required files absent from the model folder ``path`` (empty when complete)."""
    return [f for f in REQUIRED_FILES if not (path / f).is_file()]


def is_valid_model(path: Path) -> bool:
    """Whether ``path`` is a folder holding every required model file."""
    return path.is_dir() and not missing_files(path)


def verify_model(path: Path) -> None:
    """Raise :class:`ModelError` naming what is wrong with the model folder ``path``:
    a required file missing or empty (then :func:`probe_vosk_model` loads it)."""
    if not path.exists():
        raise ModelError(f"{path}: no such model folder")
    if not path.is_dir():
        raise ModelError(f"{path}: not a folder (a model is an unpacked folder)")
    lacking = missing_files(path)
    if lacking:
        more = f" and {len(lacking) - 3} more" if len(lacking) > 3 else ""
        raise ModelError(
            f"{path}: not a complete vosk model (missing {', '.join(lacking[:3])}{more})"
        )
    empty = [f for f in REQUIRED_FILES if (path / f).stat().st_size == 0]
    if empty:
        more = f" and {len(empty) - 3} more" if len(empty) > 3 else ""
        raise ModelError(f"{path}: a damaged vosk model (empty {', '.join(empty[:3])}{more})")


#: A child process loads a model folder with vosk, to prove it loads (a folder of
#: the right file names can hold anything).
_VOSK_PROBE = """
import sys
import vosk
vosk.SetLogLevel(-3)
try:
    vosk.Model(sys.argv[1])
except Exception as exc:
    sys.exit(f"VOSK: {exc}")
"""


def probe_vosk_model(path: Path) -> None:
    """Load the vosk model at ``path`` once in a child process; :class:`ModelError`
    when vosk cannot (the files are damaged, or are no vosk model's).  In a child
    because Kaldi may end a process on a file it cannot read.  Seconds for a real
    model (the small English one: about 1 s)."""
    lines = failed_lines(_VOSK_PROBE, str(path), path=path, engine="vosk", timeout=300)
    if not lines:
        return
    said = next((line.removeprefix("VOSK: ") for line in lines if line.startswith("VOSK: ")), None)
    if said is None and any("No module named 'vosk'" in line for line in lines):
        raise ModelError(f"{path}: the vosk package is not installed, so the model cannot be tried")
    why = said or lines[-1]
    raise ModelError(f"{path}: vosk cannot load this model ({why})")


def list_models(models_dir: Path) -> list[tuple[str, bool]]:
    """(folder name, valid) for every folder in ``models_dir``, sorted by name.

    Temporary folders left by an interrupted unpack (``.*``) are not listed.
    """
    if not models_dir.is_dir():
        return []
    return [
        (p.name, is_valid_model(p))
        for p in sorted(models_dir.iterdir())
        if p.is_dir() and not p.name.startswith(".")
    ]


def sha256_of(path: Path) -> str:
    """Hex SHA-256 of a file."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(BLOCK):
            digest.update(block)
    return digest.hexdigest()


def download(source: ModelSource, part: Path, progress: Progress | None = None) -> None:
    """Download ``source`` into ``part``, resuming from its current size."""
    have = part.stat().st_size if part.exists() else 0
    if have > source.size:
        part.unlink()  # longer than the real file: cannot be a prefix of it
        have = 0
    if have == source.size:
        return
    request = urllib.request.Request(source.url, headers={"User-Agent": "voice-host"})
    if have:
        request.add_header("Range", f"bytes={have}-")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            status = response.status
            if have and status != 206:
                have = 0  # the server ignored the Range request: start again
            with part.open("ab" if have else "wb") as out:
                _copy(response, out, have, source.size, progress)
    except urllib.error.HTTPError as exc:
        raise ModelError(f"download of {source.url} failed: HTTP {exc.code} {exc.reason}") from exc
    except urllib.error.URLError as exc:
        raise ModelError(f"download of {source.url} failed: {exc.reason}") from exc
    except (http.client.HTTPException, OSError) as exc:
        # The bytes already written stay in the .part file for the next attempt.
        raise ModelError(
            f"download of {source.url} was interrupted ({type(exc).__name__});"
            " run fetch again to resume"
        ) from exc


def _copy(
    response: BinaryIO, out: BinaryIO, have: int, total: int, progress: Progress | None
) -> None:
    while block := response.read(BLOCK):
        have += len(block)
        if have > total:
            raise ModelError(f"download is larger than the expected {total} bytes")
        out.write(block)
        if progress:
            progress(have, total)


def check_archive(part: Path, source: ModelSource) -> None:
    """Raise :class:`ModelError` unless ``part`` has the expected size and SHA-256."""
    size = part.stat().st_size
    if size != source.size:
        raise ModelError(
            f"download of {source.name} is incomplete ({size} of {source.size} bytes);"
            " run fetch again to resume"
        )
    digest = sha256_of(part)
    if digest != source.sha256.lower():
        part.unlink()  # complete but wrong: resuming it can never succeed
        raise ModelError(
            f"{source.name}: SHA-256 mismatch"
            f" (got {digest[:12]}..., expected {source.sha256[:12]}...); download deleted"
        )


def safe_extract(archive: Path, dest: Path) -> None:
    """Unpack ``archive`` into the empty folder ``dest``, refusing unsafe entries."""
    try:
        with zipfile.ZipFile(archive) as zf:
            members = zf.infolist()
            for info in members:
                _check_member(info)
            for info in members:
                target = dest.joinpath(*PurePosixPath(info.filename).parts)
                if info.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as src, target.open("wb") as out:
                    shutil.copyfileobj(src, out, BLOCK)
    except zipfile.BadZipFile as exc:
        raise ModelError(f"{archive.name} is not a valid zip file ({exc})") from exc


def _check_member(info: zipfile.ZipInfo) -> None:
    name = info.filename
    path = PurePosixPath(name.replace("\\", "/"))
    if name.startswith(("/", "\\")) or path.is_absolute() or (path.parts and ":" in path.parts[0]):
        raise ModelError(f"unsafe path in model zip: {name!r} is absolute")
    if ".." in path.parts:
        raise ModelError(f"unsafe path in model zip: {name!r} leaves the folder")
    if stat.S_ISLNK(info.external_attr >> 16):
        raise ModelError(f"unsafe entry in model zip: {name!r} is a symbolic link")


def install(archive: Path, name: str, models_dir: Path) -> Path:
    """Unpack ``archive`` and move its model folder to ``models_dir/name`` atomically.

    The zip may hold the model at its top level or inside one folder (the
    official zips hold ``NAME/...``).
    """
    final = models_dir / name
    tmp: Path | None = None
    try:
        try:
            tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=models_dir))
            safe_extract(archive, tmp)
        except OSError as exc:  # a full disk, most likely: the checked download stays
            raise ModelError(
                f"cannot unpack {archive.name} in {models_dir} ({exc.strerror})"
            ) from None
        entries = [p for p in tmp.iterdir() if not p.name.startswith("__MACOSX")]
        root = entries[0] if len(entries) == 1 and entries[0].is_dir() else tmp
        lacking = missing_files(root)
        if lacking:
            raise ModelError(
                f"{archive.name} is not a vosk model (missing {', '.join(lacking[:3])})"
            )
        if final.exists():
            raise ModelError(f"{final} already exists; remove it first to fetch again")
        os.replace(root, final)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return final


def fetch(source: ModelSource, models_dir: Path, progress: Progress | None = None) -> Path:
    """Download, check and install ``source`` into ``models_dir``; return its folder."""
    try:
        models_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = exc.strerror or str(exc)
        if blocking := file_in_the_way(models_dir):  # not "File exists"
            why = f"{blocking} is a file, not a folder"
        raise ModelError(f"cannot make the models folder {models_dir} ({why})") from None
    final = models_dir / source.name
    if is_valid_model(final):
        return final
    if final.exists():
        raise ModelError(f"{final} exists but is not a complete model; remove it first")
    part = models_dir / f"{source.name}.zip.part"
    download(source, part, progress)
    check_archive(part, source)
    installed = install(part, source.name, models_dir)
    part.unlink()
    return installed


def stderr_progress() -> Progress:
    """A progress bar on stderr: rich when stderr is a terminal, else a few plain lines."""
    if sys.stderr.isatty():
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            Progress,
            TransferSpeedColumn,
        )

        bar = Progress(BarColumn(), DownloadColumn(), TransferSpeedColumn(), transient=True)
        task = bar.add_task("download", total=None)
        bar.start()

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)
            if done >= total:
                bar.stop()

        return update

    last = [-1]

    def plain(done: int, total: int) -> None:
        tenth = done * 10 // max(total, 1)
        if tenth != last[0]:
            last[0] = tenth
            print(f"downloaded {done:,} of {total:,} bytes ({tenth * 10}%)", file=sys.stderr)

    return plain
