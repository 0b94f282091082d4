#!/bin/sh
# Instructions of one contender's measured work, counted by callgrind (independent of the machine's load):
#   ./callgrind-run.sh [--build .build-NAME] WORKLOAD CONTENDER
# e.g. OCD_BENCH_ROWS=10000 ./callgrind-run.sh fetch OpenCoreData
# Runs workload-driver once under `valgrind --tool=callgrind` and prints the inclusive count of the
# contender's `run` (its protocol witness, into which the optimiser inlines `run`), so the fixture and
# the opening of the file are left out. The callgrind file stays in $CALLGRIND_DIR (default /tmp).
set -eu
build=.build
if [ "${1:-}" = "--build" ]; then build=$2; shift 2; fi
workload=$1; shift
contender="$*"
dir=${CALLGRIND_DIR:-/tmp}
slug=$(printf '%s-%s-%s-%s' "$(basename "$build")" "$workload" "$contender" "${OCD_BENCH_ROWS:-full}" | tr -c 'A-Za-z0-9.-' '_')
out="$dir/callgrind-$slug.out"
cd "$(dirname "$0")"
# Valgrind gives up on the DWARF of Swift 6.3's release binaries ("Possibly corrupted debuginfo file");
# a copy without debug information keeps the symbols callgrind_annotate needs.
driver="$dir/workload-driver-$(basename "$build")-$$"
strip --strip-debug -o "$driver" "$build/release/workload-driver"
valgrind --tool=callgrind --callgrind-out-file="$out" "$driver" "$workload" "$contender" 2>/dev/null
rm -f "$driver"
callgrind_annotate --inclusive=yes "$out" 2>/dev/null | swift demangle --simplified \
    | grep -E 'protocol witness for [A-Za-z]*Contender\.run' | head -1 \
    | awk -v w="$workload" -v c="$contender" '{ gsub(",", "", $1); printf "%s\t%s\t%s instructions\n", w, c, $1 }'
