#!/usr/bin/env bash
# Set-up shared by scripts/play.sh and scripts/test.sh: system libraries,
# a virtual environment in .venv and the package with its pinned dependencies.
# Usage: bootstrap.sh play|test
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-play}"

say() { printf 'voice-host setup: %s\n' "$*" >&2; }

# --- system libraries -------------------------------------------------------
# PortAudio for the microphone, espeak-ng for the spoken host; the tests also
# use flite and sox (fixture regeneration checks).
deb_pkgs=(libportaudio2 espeak-ng)
if [ "$mode" = test ]; then deb_pkgs+=(flite sox); fi
# Festival's two voices are only for benchmarks/new_cards.py (left out without
# them): installed when this runs as root, never required.
opt_pkgs=()
if [ "$mode" = test ]; then opt_pkgs+=(festival festvox-kdlpc16k festvox-us-slt-hts); fi

missing=()
for p in "${deb_pkgs[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
optional=()
for p in "${opt_pkgs[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        optional+=("$p")
    fi
done

pybin=""
for cand in python3.11 python3 python; do
    if command -v "$cand" >/dev/null 2>&1 &&
        "$cand" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
        pybin="$(command -v "$cand")"
        break
    fi
done
# A .venv without pip was left half-made (say, by a Python without ensurepip):
# it is made anew below.
venv_ok=0
if [ -x .venv/bin/python ] && .venv/bin/python -c 'import pip' 2>/dev/null; then venv_ok=1; fi
if [ -z "$pybin" ]; then
    # Debian's python3 has no venv or pip without python3-venv.
    missing+=(python3 python3-venv)
elif [ "$venv_ok" = 0 ] && ! "$pybin" -c 'import ensurepip, venv' 2>/dev/null; then
    missing+=(python3-venv)
fi

if [ "${#missing[@]}" -gt 0 ]; then
    if command -v dpkg-query >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "installing ${missing[*]} with apt-get"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >/dev/null
        updated=1
        apt-get install -y -qq "${missing[@]}" >/dev/null
    elif command -v dpkg-query >/dev/null 2>&1; then
        say "missing system packages; run: sudo apt-get install -y ${missing[*]}"
        exit 1
    fi
fi
if [ "${#optional[@]}" -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing ${optional[*]} with apt-get (benchmark voices; optional)"
    export DEBIAN_FRONTEND=noninteractive
    # one package list update a run: the one above, if it ran
    if ! { [ -n "${updated:-}" ] || apt-get update -qq; } >/dev/null 2>&1 ||
        ! apt-get install -y -qq "${optional[@]}" >/dev/null 2>&1; then
        say "could not install ${optional[*]}; benchmarks/new_cards.py will leave those voices out"
    fi
fi
if [ -z "$pybin" ]; then
    for cand in python3.11 python3; do
        if command -v "$cand" >/dev/null 2>&1; then pybin="$(command -v "$cand")"; break; fi
    done
fi
if [ -z "$pybin" ]; then
    say "Python 3.11 or newer is needed; run: sudo apt-get install -y python3 python3-venv"
    exit 1
fi

# --- virtual environment ----------------------------------------------------
if [ "$venv_ok" = 0 ]; then
    say "creating .venv"
    "$pybin" -m venv --clear .venv
fi
extra=""
if [ "$mode" = test ]; then extra="[dev]"; fi
# scripts/constraints.txt pins the whole tree (the indirect dependencies too, pip
# itself and the setuptools that builds): the set-up is made anew when it or
# pyproject.toml changes.  pip comes first, pinned too: the same pip every time,
# and one that knows --build-constraint (Debian 12's venv brings pip 23.0).
constraints=scripts/constraints.txt
stamp=".venv/.installed-$mode"
want="$(cat pyproject.toml "$constraints" | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    say "installing voice_host$extra and its pinned dependencies into .venv"
    log=.venv/install.log
    if ! { .venv/bin/python -m pip install --disable-pip-version-check --upgrade pip -c "$constraints" &&
        .venv/bin/python -m pip install --disable-pip-version-check \
            -c "$constraints" --build-constraint "$constraints" -e ".$extra"; } >"$log" 2>&1; then
        tail -n 20 "$log" >&2
        say "pip install failed; the whole log is in $log"
        exit 1
    fi
    echo "$want" >"$stamp"
fi

# --- Moonshine base-en, converted once ----------------------------------------
# The third transcriber's model is converted on first use into the user's cache
# (a few seconds, 340 MB; voice_host/speech/moonshine_base.py): done here, so that a
# first game or listen does not wait for it.  Where it is not installed (not
# Linux x86_64) or cannot convert, the host reads with the other two.
.venv/bin/python - <<'PY' || say "Moonshine base-en not prepared; the host reads with the other transcribers"
from voice_host.speech.moonshine_base import converted_models, model_folder
from voice_host.errors import VoiceHostError
import importlib.util
if importlib.util.find_spec("moonshine_cpp") is not None:
    try:
        converted_models(model_folder())
    except VoiceHostError as exc:
        raise SystemExit(f"voice-host setup: {exc}")
PY
