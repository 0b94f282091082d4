#!/usr/bin/env bash
# The crash-trial harness: a thousand (or $1) store workers killed with SIGKILL at random moments in the
# middle of saves, batch requests, optimistic-locking increments, lightweight migrations (in place and by
# copying tables) and a migration manager's migration with replacePersistentStore, in WAL and rollback
# journal modes, beside the same saves through SQLite alone (raw-save). Prints, per operation and journal
# mode: trials, saves acknowledged, lost, torn, and stores that failed to open. Exits 1 if any is not 0.
#
#   Benchmarks/crash-trials.sh [TRIALS] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
trials=${1:-1000}
seed=${2:-$(date +%s)}
swift build -c release --product ocd >/dev/null
exec .build/release/ocd selftest crash-trials --trials "$trials" --seed "$seed"
