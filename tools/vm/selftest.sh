#!/bin/bash
# shellcheck disable=SC2016 # the sh -c scripts are expanded in the guest
# Self-test of tools/vm/run: boots the VM a few times and checks output capture,
# exit-status pass-through, --rw, --env, the timeout, the kernel-log check and
# what the guest offers (modules, network namespaces, tracefs).  Prints TAP;
# exits non-zero if any test fails.  Also reachable as "tools/vm/run --check".
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
run=$here/run
work=$(mktemp -d "${TMPDIR:-/tmp}/dccvm-selftest.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

n=0 failed=0
ok() { # ok CONDITION-STATUS DESCRIPTION [DIAGNOSTIC-FILE...]
	local st=$1 desc=$2 f
	shift 2
	n=$((n + 1))
	if [ "$st" -eq 0 ]; then
		echo "ok $n - $desc"
	else
		failed=$((failed + 1))
		echo "not ok $n - $desc"
		for f in "$@"; do sed 's/^/#   /' "$f"; done
	fi
}
# vm OUTFILE ERRFILE ARGS...: run the VM, leaving its exit status in $rc.
vm() {
	local out=$1 err=$2
	shift 2
	rc=0
	"$run" "$@" >"$out" 2>"$err" || rc=$?
}

echo "1..18"

# 1. kver.sh agrees with the kernel the VM boots.
kver=$("$here/kver.sh" --print)
ok $? "kver.sh --print gives $kver"

# 2-4. Output capture and status; timed to report the boot-to-command time.
t0=$(date +%s.%N)
vm out err sh -c 'echo "hello world"; echo "to stderr" >&2; cat /proc/uptime >uptime; exit 7'
t1=$(date +%s.%N)
ok "$([ "$rc" -eq 7 ] && echo 0 || echo 1)" "exit status passed through (exit 7 -> $rc)" err
ok "$([ "$(cat out)" = "hello world" ] && echo 0 || echo 1)" "stdout captured" out err
ok "$(grep -qx 'to stderr' err && echo 0 || echo 1)" "stderr captured separately" err
echo "# whole run (boot, command, power-off): $(awk "BEGIN { print $t1 - $t0 }") s on the host"

# 5. Byte-exact output: no CRLF, trailing partial line kept, large output intact.
vm out err sh -c 'printf "a\r\nb\n"; seq 1 200000; printf "no newline"'
{ printf 'a\r\nb\n'; seq 1 200000; printf 'no newline'; } >expect
cmp -s out expect
ok $? "output byte-exact (CR, 1.3 MB, no final newline; rc=$rc)" err

# 6-9. Guest environment: cwd, --env, uptime, writable overlay, --rw.
mkdir rw
export DCCVM_SELFTEST_VAR='two words $and "quotes"'
vm out err --rw rw --env DCCVM_SELFTEST_VAR sh -c '
	pwd; echo "$DCCVM_SELFTEST_VAR"; cat /proc/uptime >&2
	touch /usr/dccvm-selftest-overlay && echo overlay-writable
	echo not-kept >discarded
	umask 077; echo result >rw/file; mkdir rw/sub && echo nested >rw/sub/f'
ok "$([ "$(sed -n 1p out)" = "$work" ] && echo 0 || echo 1)" "runs in the caller's directory" out err
ok "$([ "$(sed -n 2p out)" = "$DCCVM_SELFTEST_VAR" ] && echo 0 || echo 1)" "--env passes a variable verbatim" out err
ok "$(grep -qx overlay-writable out && ! [ -e /usr/dccvm-selftest-overlay ] && ! [ -e discarded ] && echo 0 || echo 1)" \
	"root is writable in the guest, writes outside --rw are discarded" out err
ok "$([ "$rc" -eq 0 ] && [ "$(cat rw/file)" = result ] && [ "$(cat rw/sub/f)" = nested ] && echo 0 || echo 1)" \
	"--rw directory written by the guest, readable on the host" out err
echo "# guest uptime when the command started: $(awk '{print $1; exit}' err) s"

# 10. Modules and namespaces the tests need.
vm out err sh -c 'modprobe -a veth sch_netem tcp_dctcp &&
	ip netns add x && ip link add veth0 type veth peer name veth1 netns x &&
	tc qdisc add dev veth0 root netem delay 1ms &&
	sysctl -n net.ipv4.tcp_available_congestion_control &&
	test -e /sys/kernel/tracing/trace && test "$(hostname)" = dccvm'
ok "$([ "$rc" -eq 0 ] && grep -qw dctcp out && echo 0 || echo 1)" \
	"modprobe veth sch_netem tcp_dctcp, ip netns, tc netem, tracefs" out err

# 11. Guest-side timeout, even for a command that ignores SIGTERM.
t0=$(date +%s)
vm out err --timeout 3 sh -c 'trap "" TERM; sleep 60'
ok "$([ "$rc" -eq 124 ] && grep -q 'vm: timed out after 3 s' err && echo 0 || echo 1)" \
	"--timeout 3 stops a hanging command: exit $rc after $(($(date +%s) - t0)) s" err

# 12. Host-side limit when the VM itself does not finish (tiny boot margin).
VM_BOOT_MARGIN=1 vm out err --timeout 1 sleep 60
ok "$([ "$rc" -eq 124 ] && grep -q 'vm: timed out' err && echo 0 || echo 1)" \
	"host kills a VM that overruns its limit (exit $rc)" err

# 13-14b. Kernel-log check.
vm out err sh -c 'echo "WARNING: dccvm selftest" >/dev/kmsg'
ok "$([ "$rc" -eq 3 ] && grep -q 'vm: kernel problem:.*WARNING: dccvm selftest' err && echo 0 || echo 1)" \
	"a WARNING in the kernel log fails a successful command (exit $rc)" err
vm out err sh -c 'echo "BUG: dccvm selftest" >/dev/kmsg; exit 5'
ok "$([ "$rc" -eq 5 ] && grep -q 'vm: kernel problem:' err && echo 0 || echo 1)" \
	"...and keeps a failing command's status (exit $rc)" err
vm out err sh -c 'echo "WARNING: dccvm selftest cleared" >/dev/kmsg; dmesg -C'
ok "$([ "$rc" -eq 3 ] && grep -q 'vm: kernel problem:.*WARNING: dccvm selftest cleared' err && echo 0 || echo 1)" \
	"...even when the command cleared the ring buffer (exit $rc)" err

# 15. The check can be disabled.
VM_ALLOW_KERNEL_WARN=1 vm out err sh -c 'echo "WARNING: dccvm selftest" >/dev/kmsg'
ok "$rc" "VM_ALLOW_KERNEL_WARN=1 disables the kernel-log check" err

# 16. A kernel crash ends the VM at once and is reported.
vm out err sh -c 'echo c >/proc/sysrq-trigger; sleep 60'
ok "$([ "$rc" -eq 3 ] && grep -q 'vm: kernel problem:.*Kernel panic' err && echo 0 || echo 1)" \
	"a kernel panic is reported (exit $rc)" err

# 17-18. The clock: virtual by default (one vCPU, named in the log and in
# DCC_VM_CLOCK), the host's on request; a bad name is refused.
vm out err --keep-log log sh -c 'echo "$DCC_VM_CLOCK $(nproc)"'
ok "$([ "$rc" -eq 0 ] && [ "$(cat out)" = "virtual 1" ] && grep -q '^dccvm: clock virtual' log && echo 0 || echo 1)" \
	"default clock is virtual, one vCPU, named in the log ($(cat out))" out err
vm out err --clock host --cpus 2 --keep-log log sh -c 'echo "$DCC_VM_CLOCK $(nproc)"'
vm out2 err2 --clock sundial true
ok "$([ "$rc" -eq 2 ] && [ "$(cat out)" = "host 2" ] && grep -q '^dccvm: clock host' log && grep -q 'clock' err2 && echo 0 || echo 1)" \
	"--clock host runs on the host's clock with --cpus ($(cat out)); --clock sundial is refused" out err err2

[ "$failed" -eq 0 ] || echo "# $failed of $n tests failed"
exit $((failed > 0))
