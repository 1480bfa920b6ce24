#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DCQCN at its shipped defaults through a RED-ECN bottleneck (marking from
# K KB on), compared with DCTCP on the same network in the same run (both
# ends run the algorithm under test):
#  - BULK_FLOWS bulk flows: goodput and RTT near dctcp's, no more drops;
#  - several flows started one after the other converge to a fair share
#    (Jain's index over the last seconds);
#  - notification rate limiting is observable: the receiver turns many CE
#    marks into few notifications (DcqcnCeReceived > DcqcnNotifySent), at
#    most one per cnp_interval_us per flow, the sender sees each one once
#    (DcqcnNotifyReceived), and the tcp_dcqcn:dcqcn_notify tracepoint
#    fires once per notification;
#  - ss -tin shows the rate, RTT sample, alpha and target / rate.
# Measured in virtual time from one run; the margins are the algorithm's
# (a rate-based sender paced from ECN is not a window-based one), not the
# emulator's.  See Documentation/dcqcn.rst, "Results", for the figures.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq ping

RATE=${RATE:-100}		# Mbit/s
DELAY=${DELAY:-250}		# us, netem on the ACK path
LIMIT=${LIMIT:-1000}		# packets of buffer at the bottleneck
K=${K:-30}			# KB, RED-ECN marking threshold
SECS=${SECS:-8}			# bulk flow
FSECS=${FSECS:-10}		# fairness: the first flow; others start 1 s apart
NFLOWS=${NFLOWS:-3}
BULK_FLOWS=${BULK_FLOWS:-4}
LAST=${LAST:-4}			# seconds at the end for Jain's index
JAIN_MIN=${JAIN_MIN:-0.8}
MOD=tcp_dcqcn
EV=$TRACEFS/events/tcp_dcqcn/dcqcn_notify

# shellcheck disable=SC2086
load_module $MOD || exit $KSFT_FAIL
load_stock_cc dctcp
require_virtual_time
bed_dumbbell red "$K" dcqcn dctcp
# Paced senders: keep the veths from reordering (lib.sh), or spurious fast
# retransmits, not ECN, set the rate.
topo_keep_order
# Both ends run the algorithm: each receiver's listener takes the
# namespace default when it is created.
in_srv sysctl -qw net.ipv4.tcp_congestion_control=dcqcn
for i in $(seq 0 "$NFLOWS"); do iperf_server $((5201 + i)); done
in_srv sysctl -qw net.ipv4.tcp_congestion_control=dctcp
for i in $(seq 0 "$NFLOWS"); do iperf_server $((5301 + i)); done
in_srv sysctl -qw net.ipv4.tcp_congestion_control=cubic

idle=$(ping_rtts 50 0.01 2 | percentile 50)
# The queueing delay of K KB at the bottleneck, us.
kdelay=$((K * 8000 / RATE))
log "idle RTT p50 ${idle} us; marking threshold ${K} KB = ${kdelay} us of queue"

stat_srv() { mod_stat "$NS_SRV" tcp_dcqcn_stat "$1"; }
stat_cli() { mod_stat "$NS_CLI" tcp_dcqcn_stat "$1"; }

# bulk CC PORT: BULK_FLOWS flows for SECS s (bulk_run: ECT ping at 50 Hz
# after 2 s); prints "goodput_mbps rtt_p50_us rtt_p99_us retransmits drops".
bulk() {
	local tmp d0 d1
	tmp=$(mktemp -d)
	d0=$(bottleneck_drops)
	bulk_run "$1" "$SECS" "$BULK_FLOWS" "$tmp/b" 50 2 "$2"
	d1=$(bottleneck_drops)
	echo "$(iperf_mbps < "$tmp/b.json") $(percentile 50 < "$tmp/b.rtt")" \
	     "$(percentile 99 < "$tmp/b.rtt") $(iperf_retrans < "$tmp/b.json")" \
	     "$((d1 - d0))"
	rm -rf "$tmp"
}

# --- bulk flows --------------------------------------------------------------
ce0=$(stat_srv DcqcnCeReceived)
ns0=$(stat_srv DcqcnNotifySent)
nr0=$(stat_cli DcqcnNotifyReceived)
have_trace=0
trace_start "$EV" && have_trace=1
# ss -tin half-way through the flow (the bbr:(...) part, numeric: bit/s).
sstmp=$(mktemp)
(sleep $((SECS / 2)); in_cli ss -tin state established dst "$SRV_IP" \
	dport = :5201 > "$sstmp") &
read -r q_mbps q_p50 q_p99 q_retr q_drops <<< "$(bulk dcqcn 5201)"
wait
[ "$have_trace" = 1 ] && echo 0 > "$EV/enable"
read -r d_mbps d_p50 d_p99 d_retr d_drops <<< "$(bulk dctcp 5301)"
[ "$have_trace" = 1 ] && echo 0 > "$EV/enable"
ce=$(($(stat_srv DcqcnCeReceived) - ce0))
ns=$(($(stat_srv DcqcnNotifySent) - ns0))
nr=$(($(stat_cli DcqcnNotifyReceived) - nr0))
ntr=$(grep -c 'dcqcn_notify:' "$TRACEFS/trace")
folded=$(grep -o 'folded=[0-9]*' "$TRACEFS/trace" |
	 awk -F= '{ s += $2 } END { print s + 0 }')

log "dcqcn: ${BULK_FLOWS} flows ${q_mbps} Mbit/s, RTT p50 ${q_p50} us p99 ${q_p99} us, ${q_retr} retransmits, ${q_drops} drops"
log "dctcp: ${BULK_FLOWS} flows ${d_mbps} Mbit/s, RTT p50 ${d_p50} us p99 ${d_p99} us, ${d_retr} retransmits, ${d_drops} drops"
log "dcqcn notification point: ${ce} CE marks -> ${ns} notifications (trace: ${ntr} events, ${folded} marks folded); sender saw ${nr}"

target 17 "dcqcn goodput is near dctcp's (>= 90 %)" \
	"$q_mbps >= 0.90 * $d_mbps"
target 17 "dcqcn RTT p50 stays near the marking threshold (< idle + 2 x ${kdelay} us)" \
	"$q_p50 < $idle + 2 * $kdelay"
target 17 "dcqcn RTT p99 is near dctcp's (<= 1.5 x)" \
	"$q_p99 <= 1.5 * $d_p99"
expect "dcqcn drops no more than dctcp (+ 10)" "$q_drops <= $d_drops + 10"
expect "dctcp RTT p50 stays near the marking threshold too (sanity)" \
	"$d_p50 < $idle + 3 * $kdelay"

# Rate limiting: CE marks are folded, at most one notification per
# interval (plus one) and flow, and the sender decodes each notification
# once.  (cnp_interval_us is a floor: the receiver waits at least one RTT.)
interval=$(get_param $MOD cnp_interval_us)
expect "the bottleneck marks CE and the receiver sees it" "$ce > 0"
expect "the receiver sends notifications" "$ns > 0"
expect "several CE marks per notification (rate limited)" "$ce > 2 * $ns"
expect "at most one notification per ${interval} us per flow" \
	"$ns <= $BULK_FLOWS * (($SECS + 2) * 1000000 / $interval + 1)"
expect "the sender counts each notification once (${nr} of ${ns})" \
	"$nr >= 0.8 * $ns && $nr <= $ns + 2"
if [ "$have_trace" = 1 ]; then
	expect "tcp_dcqcn:dcqcn_notify fires per notification" \
		"$ntr >= 0.9 * $ns && $ntr <= $ns"
	expect "its events show folded CE marks" "$folded > 0"
else
	check "tracepoint tcp_dcqcn:dcqcn_notify exists in tracefs" false
fi

# ss: bw = R_C (bit/s), mrtt = newest RTT (ms), pacing_gain = alpha,
# cwnd_gain = R_T / R_C (Documentation/dcqcn.rst, "ss and TCP_CC_INFO").
ssline=$(grep -E '^[[:space:]].*dcqcn.*bbr:\(' "$sstmp" | head -n 1)
rm -f "$sstmp"
log "ss -tin: $ssline"
read -r bw rtt_ms alpha ratio <<< "$(echo "$ssline" | awk '{
	for (i = 1; i <= NF; i++) if ($i ~ /^bbr:\(/) {
		s = $i; gsub(/^bbr:\(|\)$/, "", s); n = split(s, kv, ",")
		for (j = 1; j <= n; j++) { split(kv[j], p, ":"); v[p[1]] = p[2] }
	}
	sub(/bps$/, "", v["bw"])
	printf "%s %s %s %s\n", v["bw"] + 0, v["mrtt"] + 0,
		v["pacing_gain"] + 0, v["cwnd_gain"] + 0 }')"
check "ss -ti shows dcqcn's state (bbr:(...) on a dcqcn socket)" \
	test -n "$ssline"
# The learnt line rate starts at 10 Gbit/s (line_rate_mbps=0: no cap).
expect "ss: rate (bw) within [min_rate, 10 Gbit/s] ($bw bit/s)" \
	"$bw >= $(get_param $MOD min_rate_kbps) * 1000 && $bw <= 10000 * 1000000"
expect "ss: RTT sample (mrtt) in (0, 500] ms ($rtt_ms)" \
	"$rtt_ms > 0 && $rtt_ms <= 500"
expect "ss: alpha (pacing_gain) in [0, 1] ($alpha)" \
	"$alpha >= 0 && $alpha <= 1"
expect "ss: target over current rate (cwnd_gain) >= 1 ($ratio)" \
	"$ratio >= 1"

# --- fair share ------------------------------------------------------------
# flows CC PORT0: NFLOWS flows started 1 s apart, each to its own port
# from PORT0 on, ending together; prints "jain total_mbps x1 x2 ..." over
# the last LAST seconds in which all were connected, from what the kernel
# says each socket delivered on one time line (ss_acked_log, fair_figures):
# each iperf3's own intervals start at its own connect, which a wait on
# the host's 9p root can delay by seconds of virtual time.
flows() {
	local cc=$1 port0=$2 tmp i spid pids=()
	tmp=$(mktemp -d)
	: > "$tmp/acked"
	ss_acked_log "$NS_CLI" "$port0-$((port0 + NFLOWS - 1))" 0.25 \
		"$tmp/acked" &
	spid=$!
	for i in $(seq 0 $((NFLOWS - 1))); do
		iperf_flow "$cc" $((FSECS - i)) $((port0 + i)) > /dev/null &
		pids+=($!)
		sleep 1
	done
	wait "${pids[@]}"
	kill "$spid"
	wait "$spid" 2>/dev/null
	fair_figures "$NFLOWS" "$tmp/acked" "$LAST" |
		awk '{ printf "%.3f %s", $1, $4
		       for (i = 5; i <= NF; i++) printf " %s", $i
		       print "" }'
	rm -rf "$tmp"
}

read -r qj qt qx <<< "$(flows dcqcn 5201)"
log "dcqcn: ${NFLOWS} flows, Jain ${qj} over the last ${LAST} s, total ${qt} Mbit/s, flows ${qx}"
read -r dj dt dx <<< "$(flows dctcp 5301)"
log "dctcp: ${NFLOWS} flows, Jain ${dj} over the last ${LAST} s, total ${dt} Mbit/s, flows ${dx}"
target 17 "dcqcn flows converge to a fair share (Jain > $JAIN_MIN)" \
	"$qj > $JAIN_MIN"
target 17 "dcqcn flows together use the link (>= 90 % of dctcp's)" \
	"$qt >= 0.90 * $dt"

log "summary: cc utilization rtt_p50_us rtt_p99_us jain"
log "summary: dcqcn $(awk -v m="$q_mbps" -v r="$RATE" 'BEGIN { printf "%.2f", m / r }') $q_p50 $q_p99 $qj"
log "summary: dctcp $(awk -v m="$d_mbps" -v r="$RATE" 'BEGIN { printf "%.2f", m / r }') $d_p50 $d_p99 $dj"

bed_cleanup
trap - EXIT
unload_module $MOD
finish
