#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run selftests in the test VM (make -C selftests run_vm):
#   vm_run.sh "VIRTUAL-CLOCK TESTS" "HOST-CLOCK TESTS"
# The virtual-clock tests run in VM_SHARDS VMs at once (default: the
# host's CPU count), which take them from one queue, longest first (see
# below): a virtual-time guest's figures do not depend on the host's load,
# so parallel VMs change the wall time, not the results.  The host-clock
# tests (the packaging tests, make run_vm_pkg) then run in one VM of their
# own.  Each VM runs make run_tests (the kernel's kselftest runner) and
# prints its TAP output and its own "selftests: N passed, ..." line (one
# after the other, not interleaved).
# After the virtual-clock VMs, the host's wall time of each test.  Exit
# status 1 if any VM failed or a test of the queue has no result.
set -u
cd "$(dirname "$0")/.." || exit 1

read -r -a virt <<< "${1:-}"
read -r -a host <<< "${2:-}"
shards=${VM_SHARDS:-$(nproc)}
[[ $shards =~ ^[1-9][0-9]*$ ]] || shards=1
[ "$shards" -le "${#virt[@]}" ] || shards=${#virt[@]}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dcc-vmrun.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT

# test_secs NAME: the virtual seconds NAME takes (selftests/durations).
test_secs() {
	local s
	s=$(awk -v t="$1" '$1 == t { print $2; exit }' selftests/durations \
		2>/dev/null)
	[[ $s =~ ^[0-9]+$ ]] && echo "$s" || echo 30
}

vm() {	# vm CLOCK TESTS...
	local clock=$1
	shift
	tools/vm/run --clock "$clock" --timeout "${VM_TIMEOUT:-6000}" \
		"${vm_args[@]}" \
		--env ROBUST_LONG --env KSFT_TIMEOUT --env LOAD_CONNS \
		--env LOAD_SECS -- make -s -C selftests run_tests TESTS="$*"
}

# The virtual-clock tests go to the shards through a queue they share
# (selftests/ksft_run.sh, DCC_QUEUE): longest first by selftests/durations
# (each test's virtual seconds; 30 for one not listed), and each VM takes
# the next test when it has finished one.  A static deal by the same
# figures left one VM minutes idle: a test's virtual seconds move by tens
# of seconds from run to run (not traced; the guest's clock runs on while
# it waits for the host's 9p reads, whose pace the host's load sets),
# more than a plan made beforehand absorbs.  Which VM
# runs which test, and after which, then depends on the host's pace; the
# tests do not depend on one another (each sets up its own namespaces).
rc=0
vm_args=()
if [ "${#virt[@]}" -gt 0 ]; then
	queue=$tmp/queue
	mkdir "$queue"
	total=0
	for ((j = 0; j < ${#virt[@]}; j++)); do
		secs[j]=$(test_secs "${virt[j]}")
		total=$((total + secs[j]))
	done
	for ((j = 0; j < ${#virt[@]}; j++)); do
		echo "${secs[j]} $j ${virt[j]}"
	done | sort -k1,1nr -k2,2n |
		awk '{ printf "%03d %s\n", NR, $3 }' > "$queue/list"
	echo "# $shards VMs in virtual time share a queue of ${#virt[@]} tests (about $total virtual s in all): $(cut -d' ' -f2 "$queue/list" | tr '\n' ' ')"
	pids=()
	vm_args=(--rw "$queue" --env DCC_QUEUE --env DCC_QUEUE_VM)
	for ((i = 0; i < shards; i++)); do
		(
			export DCC_QUEUE=$queue DCC_QUEUE_VM=$((i + 1))
			vm virtual "${virt[@]}"
		) > "$tmp/$i.out" 2>&1 &
		pids+=($!)
	done
	vm_args=()
	for ((i = 0; i < ${#pids[@]}; i++)); do
		wait "${pids[$i]}" || rc=1
		echo "# VM $((i + 1)) of $shards:"
		cat "$tmp/$i.out"
	done
	# Every test of the queue has a result; the host's wall time of each
	# (the queue's files carry the host's clock), for the CI's budget.
	missing=0
	echo "# wall time per test (host clock, VM):"
	while read -r n t; do
		if ! [ -s "$queue/$n.done" ]; then
			echo "not ok $t: no result (its VM stopped before it ended, or never took it)"
			missing=$((missing + 1))
			continue
		fi
		echo "#   $t: $(($(stat -c %Y "$queue/$n.done") - $(stat -c %Y "$queue/$n.taken/vm"))) s (VM $(cat "$queue/$n.taken/vm" 2>/dev/null))"
	done < "$queue/list"
	if [ "$missing" -gt 0 ]; then
		echo "selftests: 0 passed, $missing failed, 0 skipped"
		rc=1
	fi
fi
if [ ${#host[@]} -gt 0 ]; then
	# They compile modules on emulated CPUs in real time: give each test
	# 15 minutes (swift_install.sh took 340 s on a busy host).
	echo "# VM on the host's clock: ${host[*]}"
	KSFT_TIMEOUT=${KSFT_TIMEOUT:-900} vm host "${host[@]}" || rc=1
fi
exit $rc
