#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run selftests in the test VM (make -C selftests run_vm):
#   vm_run.sh "VIRTUAL-CLOCK TESTS" "HOST-CLOCK TESTS"
# The virtual-clock tests are dealt to VM_SHARDS VMs (default: the host's
# CPU count, balanced by selftests/durations) that run at once: a virtual-time guest's figures do
# not depend on the host's load, so parallel VMs change the wall time, not
# the results.  The host-clock tests (the packaging tests, make run_vm_pkg)
# then run in one VM of their own.  Each VM runs make run_tests (the
# kernel's kselftest runner) and prints its TAP output and its own
# "selftests: N passed, ..." line (one after the other, not interleaved).
# Exit status 1 if any VM failed.
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
		--env ROBUST_LONG --env KSFT_TIMEOUT --env LOAD_CONNS \
		--env LOAD_SECS -- make -s -C selftests run_tests TESTS="$*"
}

# Deal the tests to the shards longest first, each to the shard with the
# least virtual time so far (selftests/durations: each test's virtual
# seconds; 30 for one not listed); a shard runs its tests in the order
# given.  Round-robin left one shard 150 s of virtual time (ten minutes
# of wall time) behind the other.
shard_of=()
load=()
secs=()
for ((i = 0; i < shards; i++)); do load[i]=0; done
for ((j = 0; j < ${#virt[@]}; j++)); do secs[j]=$(test_secs "${virt[j]}"); done
while read -r j; do
	best=0
	for ((i = 1; i < shards; i++)); do
		[ "${load[i]}" -lt "${load[best]}" ] && best=$i
	done
	shard_of[j]=$best
	load[best]=$((load[best] + secs[j]))
done < <(for ((j = 0; j < ${#virt[@]}; j++)); do echo "${secs[j]} $j"; done |
	 sort -k1,1nr -k2,2n | cut -d' ' -f2)

rc=0
pids=()
for ((i = 0; i < shards; i++)); do
	list=()
	for ((j = 0; j < ${#virt[@]}; j++)); do
		[ "${shard_of[j]}" = "$i" ] && list+=("${virt[$j]}")
	done
	echo "# VM $((i + 1)) of $shards (virtual time, about ${load[i]} s): ${list[*]}"
	vm virtual "${list[@]}" > "$tmp/$i.out" 2>&1 &
	pids+=($!)
done
for ((i = 0; i < ${#pids[@]}; i++)); do
	wait "${pids[$i]}" || rc=1
	cat "$tmp/$i.out"
done
if [ ${#host[@]} -gt 0 ]; then
	# They compile modules on emulated CPUs in real time: give each test
	# 15 minutes (swift_install.sh took 340 s on a busy host).
	echo "# VM on the host's clock: ${host[*]}"
	KSFT_TIMEOUT=${KSFT_TIMEOUT:-900} vm host "${host[@]}" || rc=1
fi
exit $rc
