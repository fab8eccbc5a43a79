#!/usr/bin/env bash
# Set up (if needed) and run every check: lint, format, types, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh test
echo "== ruff check"
.venv/bin/ruff check voice_host tests benchmarks scripts
echo "== ruff format --check"
.venv/bin/ruff format --check voice_host tests benchmarks scripts
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
exec .venv/bin/python -m pytest "$@"
