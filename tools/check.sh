#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's test command (make check): install what is missing, then
#   1. userspace unit tests of the algorithm cores (ASan + UBSan),
#   2. a short libFuzzer run of every core (tests/fuzz, ~70 s in all),
#   3. the build at W=1 (a warning fails it), checkpatch --strict, sparse,
#      the kernel patches (make patch-check), the bench report's
#      reading of a sink log (tools/bench/report-test.py),
#   3b. the ns-3 models of the cores: build, and the small scenario's
#      physics (sim/check.sh, "sim: N passed, N failed"),
#   4. the kselftest suite in the VM through the kernel's runner (a kernel
#      WARNING/BUG/Oops in the guest fails the run), the packaging tests
#      (install, dkms) in a VM of their own, and the suite as a kernel
#      tree's kselftest target (tools/ksft_tree.sh: "ksft-tree: N passed").
# Ends with "N passed, N failed" counting unit test cases, fuzz targets,
# build/lint checks and selftests.  Exit status 0 only when nothing failed.
#
#   5. on Debian 13's 6.12 (tools/check-612.sh): the W=1 build and the
#      smoke selftests in a VM booting 6.12 ("k612: N passed, N failed").
# SKIP_SIM=1 skips step 3b;
# SKIP_612=1 skips step 5;
# SKIP_VM=1 skips step 4 (for a quick loop on a machine without QEMU);
# SKIP_FUZZ=1 skips step 2.
set -uo pipefail
cd "$(dirname "$0")/.."

logdir=${CHECK_LOGDIR:-$(mktemp -d /tmp/dcc-check.XXXXXX)}
# pass, fail, count, step, warning_free
. tools/check-lib.sh

if ! tools/deps.sh --check >/dev/null; then
	tools/deps.sh || { echo "check: dependencies missing"; echo "0 passed, 1 failed"; exit 1; }
fi

# Wall time per stage, for the CI budget (90 minutes at most, 45 the aim).
stage_name="" stage_t0=$SECONDS
stage() {	# stage TITLE: end the stage before, start this one
	if [ -n "$stage_name" ]; then
		echo "time: $stage_name took $((SECONDS - stage_t0)) s"
	fi
	stage_name=$1 stage_t0=$SECONDS
	if [ -n "$1" ]; then
		echo "== $1"
	fi
}

stage "unit tests"
make -s -C tests run 2>&1 | tee "$logdir/unit.log"
count "$logdir/unit.log" unit

if [ "${SKIP_FUZZ:-0}" != 1 ]; then
	stage "fuzzing the cores (short run; make fuzz-long for more)"
	make -s -C tests/fuzz run 2>&1 | tee "$logdir/fuzz.log"
	count "$logdir/fuzz.log" fuzz
fi

stage "build and lint"
no_warnings() {
	make -s clean >/dev/null 2>&1
	warning_free make modules
}
step build-W1 no_warnings
step checkpatch make -s checkpatch
step sparse warning_free make sparse
# The kernel patch (patches/): checkpatch, applies to linux-source-6.1,
# the modules build against the patched headers.
step patch-check make -s patch-check
# The bench report's reading of scenario 4's sink log, on synthetic logs.
step bench-report tools/bench/report-test.py
# Documentation/*.rst parse without a docutils warning.
step docs-check make -s docs-check

if [ "${SKIP_SIM:-0}" != 1 ]; then
	stage "ns-3 models of the cores (small scenario)"
	make -s -C sim check 2>&1 | tee "$logdir/sim.log"
	count "$logdir/sim.log" sim
fi

if [ "${SKIP_VM:-0}" != 1 ]; then
	stage "selftests in the VM"
	make -s modules >/dev/null 2>&1
	# VM_SHARDS VMs in virtual time at once (selftests/vm_run.sh), then
	# one on the host's clock for the packaging tests: a summary each.
	make -s -C selftests run_vm 2>&1 | tee "$logdir/selftests.log"
	rc=${PIPESTATUS[0]}
	count "$logdir/selftests.log" selftests "${VM_SHARDS:-$(nproc)}"
	make -s -C selftests run_vm_pkg 2>&1 | tee "$logdir/selftests-pkg.log"
	rc_pkg=${PIPESTATUS[0]}
	count "$logdir/selftests-pkg.log" selftests
	if grep -q "^vm: " "$logdir/selftests.log" "$logdir/selftests-pkg.log"; then
		echo "check: the VM runner reported a problem (exit $rc, $rc_pkg)"
		fail=$((fail + 1))
	fi

	# The same folder in a kernel tree's kselftest layout, run with
	# make TARGETS=dcc run_tests and from a kselftest install.
	stage "selftests as a kernel tree's kselftest target, in the VM"
	tools/ksft_tree.sh 2>&1 | tee "$logdir/ksft-tree.log"
	count "$logdir/ksft-tree.log" ksft-tree

	# The benchmark's smoke test: one short scenario, two congestion
	# controls, one VM boot (25 s of VM time, 55 s with the host's cores
	# busy); the tables must come out well formed.  Its figures are not
	# judged.
	stage "benchmark smoke test in the VM"
	bench_smoke() {
		BENCH_SMOKE=1 BENCH_OUT="$logdir/bench-smoke" tools/bench/bench.sh &&
			! grep -q "^vm: " "$logdir/bench-smoke.log"
	}
	step bench-smoke bench_smoke
	# Shards of a run put together (tools/bench/merge.py), on the smoke
	# run: the tables unchanged, overlaps and mixed trees refused.
	step bench-merge tools/bench/merge-test.sh "$logdir/bench-smoke"
fi

# Debian 13's 6.12: provisioning (cached), the W=1 build in a trixie tree
# and the smoke selftests in a VM booting 6.12 (tools/check-612.sh; the
# VM part follows SKIP_VM).
if [ "${SKIP_612:-0}" != 1 ]; then
	stage "Debian 13's 6.12"
	CHECK_LOGDIR=$logdir tools/check-612.sh 2>&1 | tee "$logdir/k612.log"
	count "$logdir/k612.log" k612
fi

stage ""
echo "time: all $SECONDS s"
echo "logs: $logdir"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
