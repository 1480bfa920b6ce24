#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What an operator sees of timely:
#  - "ss -ti" on a live timely socket shows the documented fields (rate,
#    engine RTT, regime, gradient; BBR layout) with sane values, and
#    getsockopt(TCP_CC_INFO) returns the same (selftests/cc_info.c);
#  - the tcp_timely:timely_update tracepoint records rate changes with
#    sane values during a congested transfer (and perf sees it, if present);
#  - /proc/net/tcp_timely_stat moves in the sender's namespace (completions,
#    increases, decreases) and stays at zero in another namespace.
# See Documentation/timely.rst ("Observing it") and
# Documentation/admin-guide.rst.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 ss

RATE=${RATE:-100}		# Mbit/s
DELAY=${DELAY:-250}		# us, netem on the ACK path
LIMIT=${LIMIT:-1000}		# packets of FIFO at the bottleneck
SECS=${SECS:-6}
MOD=tcp_timely
EV=$TRACEFS/events/tcp_timely/timely_update
NS_OTHER=$NS_PREFIX-oth

# shellcheck disable=SC2086
load_module $MOD || exit $KSFT_FAIL
# Rate bounds in bytes per second (max_rate_mbps 0: the line rate).
max_mbps=$(get_param $MOD max_rate_mbps)
[ "$max_mbps" = 0 ] && max_mbps=$(get_param $MOD line_rate_mbps)
max_Bps=$((max_mbps * 125000))
min_Bps=$(($(get_param $MOD min_rate_kbps) * 125))

bed_dumbbell timely
ip netns add "$NS_OTHER"
iperf_server 5201
in_srv "$DCC_BIN/incast" -s 6000 &
disown

# timely_stat NS NAME: a counter of /proc/net/tcp_timely_stat in a namespace.
timely_stat() { mod_stat "$1" tcp_timely_stat "$2"; }
check "/proc/net/tcp_timely_stat exists in a new namespace" \
	ip netns exec "$NS_OTHER" test -r /proc/net/tcp_timely_stat
declare -A c0
for n in TimelyCompletion TimelyIncrease TimelyHyperIncrease \
	 TimelyGradientDecrease TimelyHighRttDecrease; do
	c0[$n]=$(timely_stat "$NS_CLI" $n)
done

# --- a congested transfer: ss and the tracepoint --------------------------

have_trace=0
trace_start "$EV" && have_trace=1
check "tracepoint tcp_timely:timely_update exists in tracefs" \
	test "$have_trace" = 1

ssline=$(ss_during_flow timely "$SECS")
[ "$have_trace" = 1 ] && echo 0 > "$EV/enable"

log "ss -tin: $ssline"
# bbr:(bw:<rate bit/s>bps,mrtt:<engine RTT ms>,pacing_gain:<regime>,
#      cwnd_gain:<1 + gradient>)
read -r bw_bps rtt_ms regime gain <<< "$(echo "$ssline" | awk '{
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^bbr:\(/) {
			s = $i; gsub(/^bbr:\(|\)$/, "", s); n = split(s, kv, ",")
			for (j = 1; j <= n; j++) { split(kv[j], p, ":"); v[p[1]] = p[2] }
		}
	}
	sub(/bps$/, "", v["bw"])
	printf "%s %s %s %s\n", v["bw"] + 0, v["mrtt"] + 0,
		v["pacing_gain"] + 0, v["cwnd_gain"] + 0 }')"
check "ss -ti shows timely's state (bbr:(...) on a timely socket)" \
	test -n "$ssline"
expect "ss: rate (bw, bit/s) within [min_rate, max_rate] ($bw_bps)" \
	"$bw_bps >= $min_Bps * 8 && $bw_bps <= $max_Bps * 8"
expect "ss: engine RTT (mrtt, ms) in (0, 500] ($rtt_ms)" \
	"$rtt_ms > 0 && $rtt_ms <= 500"
expect "ss: regime (pacing_gain) is a rate decision, 1..9 ($regime)" \
	"$regime >= 1 && $regime <= 9 && $regime == int($regime)"
expect "ss: 1 + gradient (cwnd_gain) present and > 0 ($gain)" "$gain > 0"

# TCP_CC_INFO through the example program (the incast sink reads it all).
out=$(in_cli "$DCC_BIN/cc_info" timely "$SRV_IP" 6000 4000000)
log "cc_info: $out"
read -r r t g <<< "$(echo "$out" | awk '{
	for (i = 1; i <= NF; i++) { split($i, p, "="); v[p[1]] = p[2] }
	print v["rate_Bps"] + 0, v["rtt_us"] + 0, v["regime"] }')"
check "TCP_CC_INFO: cc_info decodes timely (20 bytes, BBR layout)" \
	grep -q '^cc=timely len=20 ' <<< "$out"
expect "TCP_CC_INFO: rate within bounds, engine RTT > 0 (regime $g)" \
	"$r >= $min_Bps && $r <= $max_Bps && $t > 0"

if [ "$have_trace" = 1 ]; then
	trace=$(mktemp)
	grep 'timely_update:' "$TRACEFS/trace" > "$trace"
	log "trace: $(wc -l < "$trace") events, e.g.:"
	for re in md_grad md_high ai hai ai_low; do
		grep -m 1 "regime=$re " "$trace" | sed 's/^ */# /'
	done
	# Fields: regime=R rate=A->B rtt_us=T gradient_milli=G
	read -r n bad ninc ndec <<< "$(awk -v lo="$min_Bps" -v hi="$max_Bps" '
		{ for (i = 1; i <= NF; i++) { split($i, p, "="); v[p[1]] = p[2] }
		  split(v["rate"], r, "->"); a = r[1] + 0; b = r[2] + 0
		  g = v["regime"]; n++
		  if (b < lo || b > hi || a == b ||
		      g !~ /^(ai_low|md_high|ai|hai|md_grad|patched|rto|recovery|undo)$/ ||
		      (g ~ /^(ai_low|ai|hai)$/ && b < a) ||
		      (g ~ /^(md_high|md_grad|rto|recovery)$/ && b > a) ||
		      (g ~ /^(ai_low|md_high|ai|hai|md_grad|patched)$/ &&
		       v["rtt_us"] <= 0) ||
		      (g == "md_grad" && v["gradient_milli"] < 0) ||
		      (g ~ /^(ai|hai)$/ && v["gradient_milli"] > 0)) {
			bad++
			if (bad <= 5) print "# bad event: " $0 > "/dev/stderr"
		  }
		  if (g ~ /^(ai_low|ai|hai)$/) ninc++
		  if (g ~ /^(md_high|md_grad)$/) ndec++ }
		END { print n + 0, bad + 0, ninc + 0, ndec + 0 }' "$trace")"
	rm -f "$trace"
	expect "trace: events recorded during the transfer ($n)" "$n > 0"
	expect "trace: increases and decreases recorded (inc $ninc, dec $ndec)" \
		"$ninc > 0 && $ndec > 0"
	# (A gradient below 0.001 is traced as 0 milli: an md_grad cut of
	# 0.07 % showed gradient_milli=0.)
	expect "trace: every event changes the rate in its direction, within bounds ($bad bad)" \
		"$bad == 0"
	# perf sees the same event.
	check_perf_event tcp_timely:timely_update timely
fi

# The counters once the sender's connections are done: a socket closed
# with data unsent still sends it, and a completion counted between the
# reads of TimelyCompletion and TimelyIncrease broke the sum below.
sending() {
	in_cli ss -Htn state established state fin-wait-1 state closing \
		state last-ack | grep -q .
}
slowwait 30 eval '! sending'
d() { echo $(($(timely_stat "$NS_CLI" "$1") - c0[$1])); }
comp=$(d TimelyCompletion)
inc=$(($(d TimelyIncrease) + $(d TimelyHyperIncrease)))
dec=$(($(d TimelyGradientDecrease) + $(d TimelyHighRttDecrease)))
log "counters in the sender's namespace:"
in_cli cat /proc/net/tcp_timely_stat | sed 's/^/#   /'
expect "counters: completions in the sender's namespace ($comp)" "$comp > 0"
expect "counters: increases (additive + hyperactive) ($inc)" "$inc > 0"
expect "counters: decreases (gradient + T_high) ($dec)" "$dec > 0"
expect "counters: updates never exceed completions" \
	"$inc + $dec <= $comp"
other=$(ip netns exec "$NS_OTHER" cat /proc/net/tcp_timely_stat |
	awk '{ s += $2 } END { print s + 0 }')
expect "counters: all zero in another namespace ($other)" "$other == 0"

bed_cleanup
trap - EXIT
check "module unloads after the transfer" unload_module $MOD

finish
