#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The modules on Debian 13's 6.12 (make check-612; part of make check):
#   1. provision the trixie build tree and the 6.12 image, cached
#      (tools/kernel-612.sh provision: downloads only the first time),
#   2. the build at W=1 in that tree, every object even if one fails
#      (make -k): a warning or an error fails it; sparse (C=2) likewise,
#   3. the smoke selftests in a VM booting 6.12, virtual time, from a copy
#      of the tree that holds the 6.12 modules ($K612_OUT, default
#      build-k612/): selection, bulk, timestamps (the tcp_probe hook
#      attaches), PLB (repathing, and its names beside the built-in PLB).
# Ends with "k612: N passed, N failed" (provisioning, build and sparse one
# check each, plus every selftest); exit status 0 only when nothing failed.
#
#   K612_TESTS="a.sh b.sh"   another list of selftests
#   K612_OUT=DIR             where the 6.12 copy is built
#   SKIP_VM=1                provisioning and build only
set -uo pipefail
# One { ...; } block: bash parses it whole before running it, so editing
# or checking out this file during a run is safe.
{
cd "$(dirname "$0")/.." || exit 1
src=$(pwd -P)

out=${K612_OUT:-$src/build-k612}
tests=${K612_TESTS:-swift_select.sh timely_select.sh dcqcn_select.sh swift_bulk.sh \
timely_bulk.sh swift_tstamp.sh plb_twopath.sh plb_names.sh}
logdir=${CHECK_LOGDIR:-$(mktemp -d /tmp/dcc-k612.XXXXXX)}
mkdir -p "$logdir" || exit 1
# pass, fail, count, step, warning_free
. tools/check-lib.sh

summary() {
	echo "k612: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

t0=$SECONDS
echo "== Debian 13's 6.12: provisioning (tools/kernel-612.sh)"
if tools/kernel-612.sh provision 2>&1 | tee "$logdir/k612-provision.log"; then
	echo "ok: k612-provision ($((SECONDS - t0)) s)"
	pass=$((pass + 1))
else
	echo "FAILED: k612-provision"
	fail=$((fail + 1))
	summary
fi
kver=$(tools/kernel-612.sh kver)
kroot=$(tools/kernel-612.sh env | sed -n 's/^VM_KROOT=\([^ ]*\) .*/\1/p')

echo "== build against $kver at W=1 (trixie tree, make -k), sparse"
step k612-build-W1 warning_free tools/kernel-612.sh build "$out" || summary
step k612-sparse warning_free tools/kernel-612.sh sparse "$out"

[ "${SKIP_VM:-0}" != 1 ] || summary
t0=$SECONDS
echo "== selftests in a VM booting $kver: $tests"
# The helpers (selftests/build/) are built on the host, as for 6.1.
VM_KROOT=$kroot KVER=$kver make -s -C "$out/selftests" run_vm TESTS="$tests" \
	2>&1 | tee "$logdir/k612-selftests.log"
rc=${PIPESTATUS[0]}
count "$logdir/k612-selftests.log" selftests
if [ "$rc" -ne 0 ] && grep -q "^vm: " "$logdir/k612-selftests.log"; then
	echo "check: the VM runner reported a problem on 6.12 (exit $rc)"
	fail=$((fail + 1))
fi
echo "k612: selftests took $((SECONDS - t0)) s"
summary
}
