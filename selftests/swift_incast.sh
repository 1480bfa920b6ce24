#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 16-to-1 incast through a shallow buffer: every flow starts at once; swift
# finishes them all without a retransmit timeout.  Then 256-to-1 through
# 100 packets (make bench's largest round): timeouts there are expected,
# but a flow that times out three times in a row (its window reset) must
# not idle for seconds: such flows once finished 20-34 s after the rest,
# paced at one packet every 8-9 s.
. "$(dirname "$0")/lib.sh"
require_root

RATE=${RATE:-100}
DELAY=${DELAY:-250}
LIMIT=${LIMIT:-200}		# packets: shallow next to the 1000 of the bulk test
FLOWS=${FLOWS:-16}
BYTES=${BYTES:-131072}
ROUNDS=${ROUNDS:-3}

load_module tcp_swift || exit $KSFT_FAIL
bed_dumbbell swift
# The receiver ACKs every segment at once.  A window below two packets
# otherwise meets Linux's delayed ACK (40 ms or more): the delay samples
# are then mostly ACK delay.  Operators set the same on receivers' routes
# (Documentation/swift.rst, "Receivers").
in_srv ip route replace default via 10.0.2.254 quickack 1
in_srv "$DCC_BIN/incast" -s 6000 &
sleep 0.3

ideal_us=$((FLOWS * BYTES * 8 / RATE))
for r in $(seq "$ROUNDS"); do
	out=$(incast_round "$FLOWS" "$BYTES" swift)
	rc=$?
	rto=$(echo "$out" | sed -n 's/.*rtos=\([0-9]*\).*/\1/p')
	last=$(echo "$out" | sed -n 's/.*last_us=\([0-9]*\).*/\1/p')
	log "round $r: $out ideal_us=$ideal_us"
	check "round $r: all $FLOWS flows complete" test "$rc" -eq 0 -a -n "$last"
	check "round $r: no retransmit timeouts" test "$rto" -eq 0
	expect "round $r: last flow within 10x ideal (no stalled flow)" "${last:-0} < 10 * $ideal_us"
done

# 256-to-1, 64 KB each, through the bench's 100-packet FIFO.
BIG_FLOWS=${BIG_FLOWS:-256}
BIG_BYTES=${BIG_BYTES:-65536}
topo_shape "$RATE" "$DELAY" "${BIG_LIMIT:-100}"
ideal_us=$((BIG_FLOWS * BIG_BYTES * 8 / RATE))
resets0=$(mod_stat "$NS_CLI" tcp_swift_stat SwiftRtoReset)
out=$(incast_round "$BIG_FLOWS" "$BIG_BYTES" swift)
rc=$?
resets=$(($(mod_stat "$NS_CLI" tcp_swift_stat SwiftRtoReset) - resets0))
last=$(echo "$out" | sed -n 's/.*last_us=\([0-9]*\).*/\1/p')
log "$BIG_FLOWS-to-1: $out ideal_us=$ideal_us SwiftRtoReset=$resets"
check "$BIG_FLOWS-to-1: all flows complete" test "$rc" -eq 0 -a -n "$last"
expect "$BIG_FLOWS-to-1: last flow within 3x ideal ($resets windows reset by timeouts)" \
	"${last:-0} <= 3 * $ideal_us"
target 16 "$BIG_FLOWS-to-1: last flow within 1.3x ideal" "${last:-0} <= 1.3 * $ideal_us"

topo_cleanup
trap - EXIT
unload_module tcp_swift
finish
