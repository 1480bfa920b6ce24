#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: our congestion controls against the kernel's own, side by
# side, in one VM boot on one emulated network; tables and plots.
#
#   make bench                  the whole suite (scenarios 1-12, ~30 min)
#   make bench BENCH_SMOKE=1    one short scenario, two ccs, one run; checks
#                               that the tables come out well formed (make
#                               check runs it)
#   BENCH_SCENARIOS="1 3" BENCH_RUNS=5 make bench    and any other setting
#                               of tools/bench/params.sh; scenarios by
#                               number or name (BENCH_SCENARIOS="deep-fifo
#                               incast", BENCH_NAMES in params.sh)
#   make bench-612              the same suite in a VM booting Debian 13's
#                               6.12 (tools/bench/bench-612.sh), modules
#                               built against it
#
# Results: bench-results/<UTC date-time>/ (BENCH_OUT overrides): run.txt
# (command, versions, settings, wall-clock time), guest.txt (kernel, module
# parameters as loaded), raw/ (every measurement), sN.md and sN.tsv (one
# table per scenario), *.png (plots), results.rst (the lot, for
# Documentation/results.rst: tools/bench/publish.sh copies it there).
set -euo pipefail
cd "$(dirname "$0")/../.."
t_start=$(date +%s)
. tools/bench/params.sh

tools/deps.sh --check >/dev/null || tools/deps.sh
# BENCH_PREBUILT=1: the modules in this tree were built for the VM's kernel
# already (bench-612.sh builds them against 6.12); do not rebuild for 6.1.
[ "${BENCH_PREBUILT:-0}" = 1 ] || make -s modules >/dev/null
make -s -C selftests all >/dev/null

suffix=""
[ "${BENCH_SMOKE:-0}" = 1 ] && suffix=-smoke
out=${BENCH_OUT:-bench-results/$(date -u +%Y%m%d-%H%M%S)$suffix}
mkdir -p "$out"
out=$(cd "$out" && pwd)

bench_vars > "$out/params.env"
{
	echo "command: ${BENCH_CMD:-make bench}$(env | grep -E '^(BENCH_[A-Z_]+|S[1-9]_[A-Z_0-9]+)=' |
		grep -v '^BENCH_CMD=' | sort | sed 's/^/ /' | tr -d '\n')"
	echo "started: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "tree: ${BENCH_TREE:-$(git describe --always --dirty 2>/dev/null || echo unknown)}"
	echo "host: $(uname -srm), $(nproc) cpus"
	echo "vm: tools/vm/run, clock ${VM_CLOCK:-virtual}, ${VM_MEM:-2048} MB"
	for m in swift timely plb dcqcn hpcc; do
		[ -f "tcp_$m.ko" ] && echo "module: tcp_$m.ko $(modinfo -F srcversion "tcp_$m.ko")"
	done
	echo "settings:"
	sed 's/^/  /' "$out/params.env"
} > "$out/run.txt"

# The VM time the settings need, with a wide margin (the runner kills it
# after that).
vm_timeout=2400
[ "${BENCH_SMOKE:-0}" = 1 ] && vm_timeout=180
echo "bench: results in $out"
rc=0
tools/vm/run --timeout "$vm_timeout" --rw "$out" -- \
	"$PWD/tools/bench/scenarios.sh" "$out" || rc=$?
t_vm=$(date +%s)

tools/bench/ackcost.sh "$out" || rc=1
tools/bench/report.py "$out" || rc=1
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	tools/bench/report.py --check "$out" || rc=1
fi
t_end=$(date +%s)
{
	echo "vm_and_build_secs: $((t_vm - t_start))"
	echo "wall_secs: $((t_end - t_start))"
	echo "status: $rc"
} >> "$out/run.txt"
echo "bench: done in $((t_end - t_start)) s (status $rc); tables: $out/*.md"
exit $rc
