#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Retransmit timeouts in a row: a swift bulk flow whose ACK path is
# black-holed for 2.5 s times out again and again (RTO 200 ms or more,
# doubling: timeouts near 0.2, 0.6 and 1.4 s).  TCP raises CA_EVENT_LOSS
# on the first timeout only, but enters TCP_CA_Loss on each: swift counts
# them there, cuts on the first ones (SwiftRtoCut) and resets the window to
# its floor on the retx_reset_threshold-th (3) in a row (SwiftRtoReset).
# Counted by the event, the count stopped at one and never reset.  The
# transfer then recovers and completes.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq
require_virtual_time

RATE=100		# Mbit/s
DELAY=250		# us, netem on the ACK path

LIMIT=1000		# packets of FIFO at the bottleneck

load_module tcp_swift || exit $KSFT_FAIL
bed_dumbbell swift
iperf_server 5201
tmp=$(mktemp -d)

cut0=$(mod_stat "$NS_CLI" tcp_swift_stat SwiftRtoCut)
rst0=$(mod_stat "$NS_CLI" tcp_swift_stat SwiftRtoReset)
karn0=$(mod_stat "$NS_CLI" tcp_swift_stat SwiftRetransSampleSkipped)
to0=$(nstat_get "$NS_CLI" TcpExtTCPTimeouts)
iperf_flow swift 8 5201 > "$tmp/flow" 2>&1 &
pid=$!
sleep 2
log "ACK path black-holed"
in_rtr tc qdisc replace dev rc0 root netem delay "${DELAY}us" loss 100% \
	limit 100000
sleep 2.5
in_rtr tc qdisc replace dev rc0 root netem delay "${DELAY}us" limit 100000
log "ACK path restored"
wait $pid
rc=$?
cuts=$(($(mod_stat "$NS_CLI" tcp_swift_stat SwiftRtoCut) - cut0))
resets=$(($(mod_stat "$NS_CLI" tcp_swift_stat SwiftRtoReset) - rst0))
tos=$(($(nstat_get "$NS_CLI" TcpExtTCPTimeouts) - to0))
karn=$(($(mod_stat "$NS_CLI" tcp_swift_stat SwiftRetransSampleSkipped) - karn0))
mbps=$(iperf_mbps < "$tmp/flow" 2>/dev/null)
log "TCP timeouts $tos, SwiftRtoCut $cuts, SwiftRtoReset $resets, ${mbps} Mbit/s over 8 s"

check "the transfer survived the black hole (iperf3 rc $rc)" test "$rc" -eq 0
expect "TCP timed out at least 3 times in a row" "$tos >= 3"
expect "the first timeouts cut the window (SwiftRtoCut $cuts)" "$cuts >= 1"
expect "the third timeout in a row reset it (SwiftRtoReset $resets)" \
	"$resets >= 1"
expect "every timeout was counted ($cuts + $resets <= $tos)" \
	"$cuts + $resets <= $tos"
# Karn: the ACKs of the retransmissions after the black hole carry the
# timestamp option's RTT, not a delay sample.
expect "ACKs of retransmitted data gave no delay sample (SwiftRetransSampleSkipped $karn)" \
	"$karn >= 1"

rm -rf "$tmp"
topo_cleanup
trap - EXIT
unload_module tcp_swift
finish
