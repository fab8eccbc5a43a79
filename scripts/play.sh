#!/usr/bin/env bash
# Set up (if needed) and start a game. Extra arguments go to `voice-host play`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh play
exec .venv/bin/voice-host play "$@"
