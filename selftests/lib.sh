#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Shared helpers for the selftests and the benchmark.  Tests source this
# file only; it holds the exit codes, reporting and waiting, and sources
# its parts:
#   lib_modules.sh   loading modules, parameters, the kernel log,
#                    choosing a congestion control
#   lib_topo.sh      the emulated network: namespaces, veth, tc; waiting
#                    for sockets
#   lib_measure.sh   tracing, counters, iperf3 / ping measurements
#   lib_robust.sh    every module in the tree, leaks, checked transfers,
#                    bad parameter input
# It expects to run as root inside the test VM (tools/vm/run).

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

# DCC_SELFTESTS: this folder (links resolved: make run_tests runs the
# tests through links).  DCC_ROOT: the source tree around it, whose built
# modules the tests load, and the helpers in build/.  As a kernel tree's
# tools/testing/selftests/dcc or a kselftest install there is no source
# tree: DCC_ROOT is empty, the modules are the installed ones (modinfo)
# and the helpers sit next to the scripts.
DCC_SELFTESTS=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
if [ -f "$DCC_SELFTESTS/../dkms.conf" ] && [ -f "$DCC_SELFTESTS/../Kbuild" ]; then
	DCC_ROOT=$(dirname "$DCC_SELFTESTS")
	DCC_BIN=${DCC_BIN:-$DCC_SELFTESTS/build}
else
	DCC_ROOT=
	DCC_BIN=${DCC_BIN:-$DCC_SELFTESTS}
fi
DCC_FAILS=0
DCC_CHECKS=0

# --- reporting ---------------------------------------------------------

log() { echo "# $*"; }

# check DESC CMD...: run CMD, record and print the outcome.
check() {
	local desc=$1
	shift
	DCC_CHECKS=$((DCC_CHECKS + 1))
	if "$@"; then
		echo "# PASS: $desc"
	else
		echo "# FAIL: $desc"
		DCC_FAILS=$((DCC_FAILS + 1))
	fi
}

# expect DESC EXPR: like check, for an awk expression over numbers,
# e.g. expect "rtt below 2 ms" "$rtt < 2000".
expect() {
	check "$1 [$2]" awk "BEGIN { exit !($2) }"
}

# target ISSUE DESC EXPR: a target an open issue asks for and the module
# does not meet yet: reported as met or missed with its figure, not
# counted as a failure (targets live in make bench; make check asserts
# behaviour).  When it is met for good, make it an expect.
target() {
	if awk "BEGIN { exit !($3) }"; then
		echo "# TARGET met (issue $1): $2 [$3]"
	else
		echo "# TARGET missed (issue $1): $2 [$3]"
	fi
}

skip() {
	echo "# SKIP: $*"
	exit $KSFT_SKIP
}

# End a test: exit status from the checks made.
finish() {
	log "$DCC_CHECKS checks, $DCC_FAILS failed"
	[ "$DCC_FAILS" -eq 0 ] && exit $KSFT_PASS
	exit $KSFT_FAIL
}

require_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (run in the VM: make selftests)"
}

# require_virtual_time: a test that asserts a throughput, delay, fairness,
# incast or PLB figure says which clock it measured with.  In the test VM
# (tools/vm/run) the default is virtual time: deterministic, immune to host
# load.  On a host clock the figures jitter; the test still runs.
require_virtual_time() {
	case ${DCC_VM_CLOCK:-} in
	virtual) log "clock: virtual (QEMU icount), deterministic" ;;
	"") log "clock: this host's (not the test VM): figures may jitter" ;;
	*) log "clock: the VM's host-timed clock: figures may jitter" ;;
	esac
}

require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null || skip "needs $c"
	done
}

# --- waiting -----------------------------------------------------------

# slowwait SECONDS CMD...: until CMD succeeds, polled every 0.1 s, for up
# to SECONDS (upstream kselftests' net/lib.sh has the same name and use).
slowwait() {
	local i n=$(($1 * 10))
	shift
	for ((i = 0; i < n; i++)); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

# The parts, from this file's directory.
for _part in modules topo measure robust; do
	# shellcheck source=/dev/null
	. "$DCC_SELFTESTS/lib_$_part.sh"
done
unset _part
