#!/usr/bin/env bash
# Times, back to back in one run, the SQLite pass exactly as scripts/test runs it (serial, with
# coverage), the same pass without coverage, and scripts/test-fast (docs/benchmarks.md).
set -euo pipefail
cd "$(dirname "$0")/.."
export OMP_NUM_THREADS=1
unset VIGIA_TEST_DATABASE_URL
clock() {
  local name=$1
  shift
  local start=$SECONDS
  "$@" -p no:cacheprovider >"build/quick_loop_$name.log" 2>&1
  echo "$name: $((SECONDS - start)) s  ($(tail -n 1 "build/quick_loop_$name.log"))"
}
mkdir -p build
clock sqlite_pass_with_coverage .venv/bin/python -m pytest -q --cov=vigia --cov-report=json
clock sqlite_pass_bare .venv/bin/python -m pytest -q
clock test_fast scripts/test-fast
