#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hpcc on a path of two routers whose second hop is the slower one (a
# parking lot: CLI -> RTR, 100 Mbit/s -> R2, 50 Mbit/s -> SRV), IPv6,
# at the shipped defaults (Documentation/hpcc.rst):
#  - both routers fill a record (each announces its egress rate as its
#    IOAM namespace data), the receiver echoes both, the sender's updates
#    see two hops (tcp_hpcc:hpcc_update hops=2, ss);
#  - the window follows the slower hop: it is the most loaded one in
#    nearly every update;
#  - no trace overflows (2 records pre-allocated), no loss, the queue
#    stays near empty (RTT p50 within 1.5 x the idle bed's).
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq ss ping

SECS=${SECS:-4}
EV=$TRACEFS/events/tcp_hpcc/hpcc_update

load_module tcp_hpcc || exit $KSFT_FAIL
require_virtual_time
tmp=$(mktemp -d)
cleanup() {
	[ -w "$EV/enable" ] && echo 0 > "$EV/enable"
	topo_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
topo_twopath 100 250 1000
in_r2 tc qdisc replace dev rs0 root handle 1: htb default 1
in_r2 tc class replace dev rs0 parent 1: classid 1:1 htb rate 50mbit \
	ceil 50mbit burst 30k cburst 30k
in_r2 tc qdisc replace dev rs0 parent 1:1 handle 10: pfifo limit 1000
topo_ioam "$NS_RTR" 1 100 rc0
topo_ioam "$NS_R2" 2 50 pa1 pb1
allow_cc hpcc
in_srv sysctl -qw net.ipv4.tcp_congestion_control=hpcc
iperf_server 5201
idle=$(ping_rtts 50 0.01 | percentile 50)

st() { mod_stat "$1" tcp_hpcc_stat "$2"; }
of0=$(st "$NS_SRV" HpccTraceOverflow)
fb0=$(st "$NS_CLI" HpccFallback)
trace_start "$EV" || skip "no tcp_hpcc:hpcc_update event in tracefs"
(sleep 2; in_cli ss -tin state established dst "[$SRV_IP6]" > "$tmp/ss") &
(sleep 2.5; ping_rtts 100 0.01 > "$tmp/rtt") &
in_cli iperf3 -6 -c "$SRV_IP6" -C hpcc -t "$SECS" -P 2 -J > "$tmp/j"
wait
echo 0 > "$EV/enable"
grep -o "hops=[0-9]* hop=[0-9]*" "$TRACEFS/trace" | sort | uniq -c > "$tmp/hops"
two=$(awk '$2 == "hops=2" { n += $1 } END { print n + 0 }' "$tmp/hops")
all=$(awk '{ n += $1 } END { print n + 0 }' "$tmp/hops")
slow=$(awk '$2 == "hops=2" && $3 == "hop=1" { n += $1 } END { print n + 0 }' "$tmp/hops")
mbps=$(iperf_mbps < "$tmp/j")
rtx=$(iperf_retrans < "$tmp/j")
p50=$(percentile 50 < "$tmp/rtt")
p99=$(percentile 99 < "$tmp/rtt")
of=$(($(st "$NS_SRV" HpccTraceOverflow) - of0))
fb=$(($(st "$NS_CLI" HpccFallback) - fb0))
log "2 flows: ${mbps} Mbit/s of 50, $rtx retransmits, RTT p50 $p50 us p99 $p99 us (idle p50 $idle us); updates $all, with 2 hops $two, the slower hop the most loaded in $slow; overflows +$of, fallback ACKs +$fb"
log "ss: $(grep -o 'bbr:([^)]*)' "$tmp/ss" | head -1)"
expect "updates come from both routers' records" "$all > 100 && $two == $all"
check "ss shows two hops" grep -q "cwnd_gain:2)" "$tmp/ss"
expect "the slower (second) hop is the most loaded in >= 95 % of updates" \
	"$slow >= 0.95 * $two"
expect "no trace overflowed" "$of == 0"
expect "no loss" "$rtx == 0"
expect "the queue stays near empty: RTT p50 <= 1.5 x idle" \
	"$p50 <= 1.5 * $idle"
# With the ports' transmitted bytes in the records: 42.5 Mbit/s (the
# wire at about eta with the header); derived from the own rate, 39.7.
expect "the flows use the slower link (>= 80 % of 50 Mbit/s)" \
	"$mbps >= 0.80 * 50"
target 18 "parking lot: goodput >= 90 % of the slower link" \
	"$mbps >= 0.90 * 50"
trap - EXIT
cleanup
finish
