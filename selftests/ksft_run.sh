#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksft_run.sh BASE TEST...: the kernel's kselftest runner (BASE/kselftest/
# runner.sh, as lib.mk calls it) over BASE/dcc/TEST..., with each test's
# guest-clock seconds on a TAP comment line after its result:
#   ok 3 selftests: dcc: swift_fair.sh
#   # swift_fair.sh: 212 s
# In the test VM the clock is virtual, so the figure does not depend on the
# host's load.
#
# DCC_QUEUE=DIR (selftests/vm_run.sh, a directory every VM of a run can
# write): take the tests from a queue the VMs share instead of the list.
# DIR/list holds "N TEST" lines, longest test first; a VM takes the next
# test no VM has taken (mkdir DIR/N.taken, atomic on the host's file
# system), runs it, and writes its TAP result to DIR/N.done.  Each VM
# then runs as many tests as its pace allows, and the plan ("1..N") comes
# last.  DCC_QUEUE_VM names the VM in DIR/N.taken/vm.
base=$1
shift
cd "$base/dcc" || exit 2
# shellcheck disable=SC2034 # read by runner.sh
BASE_DIR=$base
# shellcheck source=/dev/null
. "$base/kselftest/runner.sh" || exit 2
eval "ksft_$(declare -f run_one)"
run_one() {
	local t0 rc

	t0=$(date +%s)
	ksft_run_one "$@"
	rc=$?
	echo "# ${2##*/}: $(($(date +%s) - t0)) s"
	return $rc
}

if [ -z "${DCC_QUEUE:-}" ]; then
	run_many "$@"
	exit
fi

[ -r "$DCC_QUEUE/list" ] || { echo "ksft_run: no queue at $DCC_QUEUE"; exit 2; }
echo "TAP version 13"
DIR="${PWD#"${BASE_DIR}"/}"
test_num=0
out=$(mktemp) || exit 2
while read -r n TEST <&9; do
	mkdir "$DCC_QUEUE/$n.taken" 2>/dev/null || continue
	echo "${DCC_QUEUE_VM:-?}" > "$DCC_QUEUE/$n.taken/vm"
	test_num=$((test_num + 1))
	# Into a file opened to append, not a pipe (the Makefile's run_tests
	# says why), then out; the result line is also kept for the host
	# (vm_run.sh checks that every test of the queue has one).
	: > "$out"
	run_one "$DIR" "$TEST" "$test_num" >> "$out" 2>&1
	cat "$out"
	grep -E "^(not )?ok $test_num " "$out" > "$DCC_QUEUE/$n.done"
done 9< "$DCC_QUEUE/list"
rm -f "$out"
echo "1..$test_num"
