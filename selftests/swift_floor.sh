#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The RTT floor is per destination.  A swift bulk flow over the dumbbell
# (100 Mbit/s, 250 us of netem: a "cross-pod" path) runs alone, then
# beside a light swift flow over loopback in the same namespace (10
# Mbit/s, an RTT of tens of us: a "same-host" path).  With one floor for
# the whole host the loopback flow's RTT became the dumbbell flow's base:
# its target fell below its path's base RTT, every sample was "congested"
# and it was cut to its floor.  Per destination, the loopback flow does
# not move the dumbbell flow's base (ss mrtt) nor its goodput.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq ss
require_virtual_time

RATE=100		# Mbit/s
DELAY=250		# us, netem on the ACK path
SECS=6

LIMIT=1000		# packets of FIFO at the bottleneck

load_module tcp_swift || exit $KSFT_FAIL
bed_dumbbell swift
iperf_server 5201
in_cli iperf3 -s -D -B 127.0.0.1 -p 5301 >/dev/null 2>&1
sleep 0.3
tmp=$(mktemp -d)

# mrtt (ms) of the dumbbell flow half-way through, and its goodput.
run() {
	local pid line
	iperf_flow swift "$SECS" 5201 > "$tmp/flow" &
	pid=$!
	sleep $((SECS / 2))
	line=$(in_cli ss -tin state established dst "$SRV_IP" dport = :5201 |
	       grep -o 'mrtt:[0-9.]*' | head -n 1)
	wait $pid
	echo "$(iperf_mbps < "$tmp/flow") ${line#mrtt:}"
}

read -r alone_mbps alone_mrtt <<< "$(run)"
log "dumbbell flow alone: ${alone_mbps} Mbit/s, mrtt ${alone_mrtt} ms"
in_cli iperf3 -c 127.0.0.1 -p 5301 -C swift -b 10M -t $((SECS + 4)) \
	>/dev/null 2>&1 &
lo=$!
sleep 1
lo_mrtt=$(in_cli ss -tin state established dst 127.0.0.1 dport = :5301 |
	  grep -o 'mrtt:[0-9.]*' | head -n 1)
log "loopback flow: mrtt ${lo_mrtt#mrtt:} ms"
read -r both_mbps both_mrtt <<< "$(run)"
wait $lo
log "dumbbell flow beside it: ${both_mbps} Mbit/s, mrtt ${both_mrtt} ms"

expect "the dumbbell flow alone fills the link" "$alone_mbps >= 85"
expect "the loopback flow does not lower its base (mrtt $both_mrtt >= 0.8 * $alone_mrtt ms)" \
	"$both_mrtt >= 0.8 * $alone_mrtt"
expect "nor its goodput (>= 90 % of alone)" \
	"$both_mbps >= 0.9 * $alone_mbps"

rm -rf "$tmp"
topo_cleanup
trap - EXIT
unload_module tcp_swift
finish
