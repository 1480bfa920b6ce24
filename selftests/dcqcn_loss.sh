#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DCQCN answers loss (Documentation/dcqcn.rst, "Loss"), at the shipped
# defaults, next to DCTCP in the same run (both ends run the algorithm
# under test, so ECN is negotiated, but the queues below never mark):
#  - deep drop-tail FIFO (1000 packets), 4 flows: no flood; queue drops at
#    most 2 x dctcp's (+ a few), utilization near dctcp's, no RTO storm;
#  - shallow drop-tail FIFO (100 packets), 4 flows: drops bounded the
#    same way, utilization near dctcp's;
#  - a queue that marks some packets and drops others (RED-ECN at 30 KB
#    with room for only 40 packets): drops bounded, utilization kept;
#  - each loss response shows: DcqcnRecoveryCut and the "recovery" trace
#    reason on random loss; DcqcnRtoCut and the "rto" reason after a
#    black-out of the path, and the rate is not restored at once.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq ping

RATE=${RATE:-100}		# Mbit/s
DELAY=${DELAY:-250}		# us, netem on the ACK path
SECS=${SECS:-8}
FLOWS=${FLOWS:-4}
MOD=tcp_dcqcn
EV=$TRACEFS/events/tcp_dcqcn/dcqcn_update

load_module $MOD || exit $KSFT_FAIL
load_stock_cc dctcp
require_virtual_time
topo_dumbbell
trap bed_cleanup EXIT
topo_keep_order
allow_cc dcqcn dctcp
in_srv sysctl -qw net.ipv4.tcp_congestion_control=dcqcn
iperf_server 5201
in_srv sysctl -qw net.ipv4.tcp_congestion_control=dctcp
iperf_server 5301
in_srv sysctl -qw net.ipv4.tcp_congestion_control=cubic

stat_cli() { mod_stat "$NS_CLI" tcp_dcqcn_stat "$1"; }

# run CC PORT: FLOWS flows for SECS s through the current bottleneck;
# prints "goodput_mbps rtt_p99_us drops marks rtos retrans".
run() {
	local cc=$1 port=$2 tmp d0 m0 d1 m1 r0 x0 r1 x1
	tmp=$(mktemp -d)
	read -r d0 m0 <<< "$(bottleneck_counts)"
	read -r r0 x0 <<< "$(_rto_retrans)"
	bulk_run "$cc" "$SECS" "$FLOWS" "$tmp/b" 20 2 "$port"
	read -r d1 m1 <<< "$(bottleneck_counts)"
	read -r r1 x1 <<< "$(_rto_retrans)"
	echo "$(iperf_mbps < "$tmp/b.json") $(percentile 99 < "$tmp/b.rtt")" \
	     "$((d1 - d0)) $((m1 - m0)) $((r1 - r0)) $((x1 - x0))"
	rm -rf "$tmp"
}

# reshape ARGS...: a fresh bottleneck (topo_shape cannot replace one kind
# of queue by another under the same handle).
reshape() {
	in_rtr tc qdisc del dev rs0 root 2>/dev/null
	topo_shape "$@"
}

# compare NAME: dcqcn then dctcp through the bottleneck set up now.
compare() {
	local name=$1 rc0 fr0
	rc0=$(stat_cli DcqcnRecoveryCut)
	fr0=$(stat_cli DcqcnRtoCut)
	read -r q_mbps q_p99 q_drops q_marks q_rtos q_retr <<< "$(run dcqcn 5201)"
	q_cuts=$(($(stat_cli DcqcnRecoveryCut) - rc0))
	q_rtocuts=$(($(stat_cli DcqcnRtoCut) - fr0))
	read -r d_mbps d_p99 d_drops d_marks d_rtos d_retr <<< "$(run dctcp 5301)"
	log "$name: dcqcn ${q_mbps} Mbit/s, RTT p99 ${q_p99} us, drops ${q_drops}, marks ${q_marks}, RTOs ${q_rtos}, retrans ${q_retr}, recovery cuts ${q_cuts}, RTO cuts ${q_rtocuts}"
	log "$name: dctcp ${d_mbps} Mbit/s, RTT p99 ${d_p99} us, drops ${d_drops}, marks ${d_marks}, RTOs ${d_rtos}, retrans ${d_retr}"
	log "summary: $name dcqcn $q_mbps $q_p99 $q_drops $q_rtos"
	log "summary: $name dctcp $d_mbps $d_p99 $d_drops $d_rtos"
}

# --- deep drop-tail FIFO, no marks ------------------------------------------
topo_shape "$RATE" "$DELAY" 1000
compare "deep FIFO 1000 pkts"
expect "deep FIFO: queue drops at most 2 x dctcp's + 20 (no flood)" \
	"$q_drops <= 2 * $d_drops + 20"
expect "deep FIFO: dcqcn answers the drops (recovery cuts > 0)" \
	"$q_drops == 0 || $q_cuts > 0"
expect "deep FIFO: goodput >= 90 % of dctcp's" "$q_mbps >= 0.90 * $d_mbps"
expect "deep FIFO: no RTO storm (<= 2 x dctcp's + 4)" \
	"$q_rtos <= 2 * $d_rtos + 4"

# --- shallow drop-tail FIFO ----------------------------------------------------
reshape "$RATE" "$DELAY" 100
compare "shallow FIFO 100 pkts"
expect "shallow FIFO: queue drops at most 2 x dctcp's + 20" \
	"$q_drops <= 2 * $d_drops + 20"
expect "shallow FIFO: goodput >= 85 % of dctcp's" "$q_mbps >= 0.85 * $d_mbps"

# --- marks some, drops others -------------------------------------------------
reshape "$RATE" "$DELAY" 40 red 30
compare "RED-ECN 30 KB, 40-pkt limit"
target 17 "marks and drops: queue drops at most 2 x dctcp's + 20" \
	"$q_drops <= 2 * $d_drops + 20"
target 17 "marks and drops: goodput >= 85 % of dctcp's" \
	"$q_mbps >= 0.85 * $d_mbps"

# --- each loss response, counted and traced --------------------------------
# Random loss (1 %) on the data path, no queue to speak of: fast recovery.
reshape "$RATE" "$DELAY" 1000
in_rtr tc qdisc replace dev rc0 root netem delay "${DELAY}us" limit 100000
# A fresh receiver on 5211, the namespace default left at dcqcn (iperf3
# may open a new listener between tests, with the default of that time).
in_srv sysctl -qw net.ipv4.tcp_congestion_control=dcqcn
iperf_server 5211
# netem's loss is random: one SYN in a hundred is lost, and TCP then
# retransmits it without ECN (net.ipv4.tcp_ecn_fallback), leaving the
# connection on dcqcn-reno with no dcqcn recovery to see.  The client
# keeps ECN on its retransmitted SYN for this phase.
in_cli sysctl -qw net.ipv4.tcp_ecn_fallback=0
in_cli tc qdisc replace dev cli0 root netem loss 1% limit 100000
have_trace=0
trace_start "$EV" && have_trace=1
rc0=$(stat_cli DcqcnRecoveryCut)
(sleep 1.5; in_cli ss -tin state established dst "$SRV_IP" "dport = :5211" |
	grep -oE '\bdcqcn(-reno)?\b' | sort | uniq -c > "/tmp/dcqcn_cc.$$") &
in_cli timeout 30 iperf3 -c "$SRV_IP" -p 5211 -C dcqcn -t 3 -J > "/tmp/dcqcn_rl.$$"
wait
log "1 % random loss: connections seen: $(tr '\n' ' ' < "/tmp/dcqcn_cc.$$")"
rm -f "/tmp/dcqcn_cc.$$"
log "1 % random loss: $(iperf_mbps < "/tmp/dcqcn_rl.$$") Mbit/s, $(iperf_retrans < "/tmp/dcqcn_rl.$$") retransmits"
rm -f "/tmp/dcqcn_rl.$$"
rc1=$(stat_cli DcqcnRecoveryCut)
ntr=$(grep -c 'reason=recovery' "$TRACEFS/trace")
log "1 % random loss: DcqcnRecoveryCut +$((rc1 - rc0)), trace: ${ntr} recovery updates"
expect "random loss: fast recovery cuts the rate (DcqcnRecoveryCut)" \
	"$rc1 - $rc0 > 0"
[ "$have_trace" = 1 ] &&
	expect "random loss: dcqcn_update shows reason=recovery" "$ntr > 0"

# A black-out of 1 s in the middle of a flow: retransmit timeouts.
in_cli tc qdisc replace dev cli0 root pfifo limit 1000
trace_start "$EV"
to0=$(stat_cli DcqcnRtoCut)
in_cli timeout 40 iperf3 -c "$SRV_IP" -p 5211 -C dcqcn -t 5 -J > "/tmp/dcqcn_rto.$$" &
pid=$!
sleep 2
in_cli tc qdisc replace dev cli0 root netem loss 100% limit 100000
sleep 1
in_cli tc qdisc replace dev cli0 root pfifo limit 1000
wait $pid
rc=$?
to1=$(stat_cli DcqcnRtoCut)
mbps=$(iperf_mbps < "/tmp/dcqcn_rto.$$")
rm -f "/tmp/dcqcn_rto.$$"
ntr=$(grep -c 'reason=rto' "$TRACEFS/trace")
log "1 s black-out: DcqcnRtoCut +$((to1 - to0)), trace: ${ntr} rto updates, ${mbps} Mbit/s"
check "black-out: the transfer completes" test "$rc" -eq 0
expect "black-out: the RTO cuts the rate (DcqcnRtoCut)" "$to1 - $to0 > 0"
[ "$have_trace" = 1 ] &&
	expect "black-out: dcqcn_update shows reason=rto" "$ntr > 0"

bed_cleanup
trap - EXIT
unload_module $MOD
finish
