#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-612: the benchmark suite (tools/bench/bench.sh, same settings,
# same scenarios) in a VM booting Debian 13's 6.12 instead of the host's
# 6.1, with the modules built against 6.12 in the trixie tree of
# tools/kernel-612.sh.  Needs root (the build runs in a chroot).
#
#   make bench-612                          every scenario
#   BENCH_SCENARIOS="1" BENCH_RUNS=1 make bench-612
#
# Results: bench-results/<UTC date-time>-6.12/ (BENCH_OUT overrides), the
# same files as make bench; tools/bench/compare.py puts a 6.1 run and a
# 6.12 run side by side.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd -P)
cd "$src"
[ "$(id -u)" -eq 0 ] || { echo "bench-612: needs root (the 6.12 build runs in a chroot)" >&2; exit 2; }

tools/kernel-612.sh provision
kver=$(tools/kernel-612.sh kver)
kroot=$(tools/kernel-612.sh env | sed -n 's/^VM_KROOT=\([^ ]*\) .*/\1/p')
# A copy of the sources, built against 6.12 (W=1, as check-612 builds it);
# the copy carries the bench and the selftest helpers too.
# Its own copy, not check-612's build-k612/: a check-612 run rebuilds that
# one and would delete the modules under a running bench.
copy=${K612_BENCH_COPY:-$src/build-k612-bench}
echo "bench-612: building the modules against $kver in $copy"
tools/kernel-612.sh build "$copy" >"$copy.log" 2>&1 || {
	echo "bench-612: the 6.12 build failed (log: $copy.log)" >&2
	tail -20 "$copy.log" >&2
	exit 1
}
out=${BENCH_OUT:-$src/bench-results/$(date -u +%Y%m%d-%H%M%S)-6.12}
mkdir -p "$out"
cd "$copy"
BENCH_PREBUILT=1 BENCH_OUT="$out" BENCH_CMD="make bench-612" \
	BENCH_TREE="$(git -C "$src" describe --always --dirty 2>/dev/null || echo unknown)" \
	VM_KROOT="$kroot" KVER="$kver" tools/bench/bench.sh
