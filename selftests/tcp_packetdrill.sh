#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# TCP's state machine by script, with packetdrill (the netdev tool: packets
# injected through a tun device, the kernel's answers and tcp_info
# asserted): every script in packetdrill/ runs once per congestion control,
# cubic first as the control, then swift, timely (paper and patched
# variants) and dcqcn at their defaults, each in its own network namespace.
#   initial-window.pkt  the connection starts from TCP's initial window
#   rto-restart.pkt     after a retransmit timeout the window grows from
#                       one segment by what is delivered
# Skips with a message where packetdrill is not built (selftests/Makefile
# builds it from ../shared/tools/packetdrill when that exists; PACKETDRILL
# names another binary).
source "$(dirname "$0")/lib.sh"
require_root

PD=${PACKETDRILL:-$DCC_BIN/packetdrill}
[ -x "$PD" ] || PD=$(command -v packetdrill) ||
	skip "packetdrill not built (make -C selftests build/packetdrill, or PACKETDRILL=path)"
modprobe tun 2>/dev/null || skip "no tun device"
for m in tcp_swift tcp_timely tcp_dcqcn; do
	grep -q "^$m " /proc/modules || load_module "$m" || skip "$m does not load"
done
# The scripts select the cc as their namespace's default, which a
# namespace other than the first may do only for an allowed one.
allowed=$(sysctl -n net.ipv4.tcp_allowed_congestion_control)
variant=$(get_param tcp_timely variant)
trap 'sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed";
      set_param tcp_timely variant "$variant"' EXIT
allow_cc swift timely dcqcn

# run_pkt CC SCRIPT: packetdrill in a new network namespace, killed after
# 60 s by a watchdog (under timeout(1) it sometimes hung in the emulated
# VM: ../shared/tools/packetdrill/README.md).  The watchdog follows the
# run with tail --pid and ends with it: no process outlives the test.
run_pkt() {
	local out pid dog rc
	out=$(mktemp)
	(cd "$DCC_SELFTESTS/packetdrill" && CC=$1 exec unshare -n "$PD" "$2") \
		>"$out" 2>&1 &
	pid=$!
	(timeout 60 tail --pid=$pid -f /dev/null || kill -9 $pid 2>/dev/null) &
	dog=$!
	wait $pid
	rc=$?
	wait $dog 2>/dev/null
	[ $rc -eq 0 ] || sed 's/^/#   /' "$out" | tail -n 6
	rm -f "$out"
	return $rc
}

for cc in cubic swift timely timely-patched dcqcn; do
	name=$cc
	if [ "$cc" = timely-patched ]; then
		name=timely
		set_param tcp_timely variant 1
	fi
	for pkt in "$DCC_SELFTESTS"/packetdrill/*.pkt; do
		check "$cc: $(basename "$pkt")" run_pkt "$name" "$(basename "$pkt")"
	done
	set_param tcp_timely variant "$variant"
done
finish
