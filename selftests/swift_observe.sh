#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What an operator sees of swift, and the ways it is installed:
#  - "ss -ti" on a live swift socket shows the documented fields (window,
#    target, latest delay, base RTT; BBR layout) with sane values, and
#    getsockopt(TCP_CC_INFO) returns the same (selftests/cc_info.c);
#  - the tcp_swift:swift_update tracepoint records decisions with sane
#    values during a congested transfer (and perf sees it, if present);
#  - /proc/net/tcp_swift_stat moves in the sender's namespace (decreases
#    and increases) and stays at zero in another namespace;
# (Install paths: swift_install.sh.)
# See Documentation/swift.rst ("Observing it") and
# Documentation/admin-guide.rst.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 ss

RATE=${RATE:-100}		# Mbit/s
DELAY=${DELAY:-250}		# us, netem on the ACK path
LIMIT=${LIMIT:-1000}		# packets of FIFO at the bottleneck
SECS=${SECS:-6}
EV=$TRACEFS/events/tcp_swift/swift_update
NS_OTHER=$NS_PREFIX-oth

load_module tcp_swift || exit $KSFT_FAIL
min_mpkt=$(get_param tcp_swift min_cwnd_mpkt)
max_mpkt=$(($(get_param tcp_swift max_cwnd_pkts) * 1000))

bed_dumbbell swift
ip netns add "$NS_OTHER"
iperf_server 5201
in_srv "$DCC_BIN/incast" -s 6000 &
disown

# swift_stat NS NAME: a counter of /proc/net/tcp_swift_stat in a namespace.
swift_stat() { mod_stat "$1" tcp_swift_stat "$2"; }
check "/proc/net/tcp_swift_stat exists in a new namespace" \
	ip netns exec "$NS_OTHER" test -r /proc/net/tcp_swift_stat
dec0=$(swift_stat "$NS_CLI" SwiftDelayDecrease)
inc0=$(swift_stat "$NS_CLI" SwiftIncrease)
# nstat keeps its own history: this reading is its starting point.
nhist=$(mktemp -u /tmp/nstat.XXXXXX)
have_nstat=0
command -v nstat >/dev/null && have_nstat=1
[ $have_nstat = 1 ] && mod_nstat "$NS_CLI" tcp_swift_stat "$nhist" -n

# --- a congested transfer: ss and the tracepoint --------------------------

have_trace=0
trace_start "$EV" && have_trace=1
check "tracepoint tcp_swift:swift_update exists in tracefs" \
	test "$have_trace" = 1

SS_SAVE=$(mktemp)	# ss -tine of the flow: the sockets' cookies (sk:)
CCINFO_SAVE=$(mktemp)	# cc_info -s at the same moment
ssline=$(ss_during_flow swift "$SECS")
[ "$have_trace" = 1 ] && echo 0 > "$EV/enable"

log "ss -tin: $ssline"
# bbr:(bw:<delay ns>bps,mrtt:<base ms>,pacing_gain:<target us>,
#      cwnd_gain:<window mpkt>)
read -r delay_ns base_ms target_us win_mpkt cwnd <<< "$(echo "$ssline" | awk '{
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^cwnd:/) { split($i, c, ":"); cwnd = c[2] }
		if ($i ~ /^bbr:\(/) {
			s = $i; gsub(/^bbr:\(|\)$/, "", s); n = split(s, kv, ",")
			for (j = 1; j <= n; j++) { split(kv[j], p, ":"); v[p[1]] = p[2] }
		}
	}
	sub(/bps$/, "", v["bw"])
	printf "%s %s %s %s %s\n", v["bw"] + 0, v["mrtt"] + 0,
		v["pacing_gain"] + 0, v["cwnd_gain"] + 0, cwnd + 0 }')"
check "ss -ti shows swift's state (bbr:(...) on a swift socket)" \
	test -n "$ssline"
expect "ss: window (cwnd_gain, mpkt) within [min, max]" \
	"$win_mpkt >= $min_mpkt && $win_mpkt <= $max_mpkt && $win_mpkt > 0"
# TCP's cwnd is the window rounded, at least 2 (sampled a moment apart).
expect "ss: window matches TCP's cwnd ($cwnd)" \
	"($win_mpkt < 2500 ? 2 : $win_mpkt / 1000) - $cwnd <= 2 && $cwnd - ($win_mpkt < 2500 ? 2 : $win_mpkt / 1000) <= 2"
expect "ss: target (pacing_gain, us) > 0 and above the base RTT" \
	"$target_us > 0 && $target_us >= $base_ms * 1000"
expect "ss: latest delay (bw, ns) > 0" "$delay_ns > 0"
expect "ss: base RTT (mrtt, ms) in (0, 20]" "$base_ms > 0 && $base_ms <= 20"

# The live sockets through inet_diag, decoded (cc_info -s swift).
log "cc_info -s: $(head -n 2 "$CCINFO_SAVE")"
read -r n_ss <<< "$(grep -c "swift.*bbr:(" "$SS_SAVE")"
read -r n_ci w t b d <<< "$(awk '/dst=[^ ]*:5201 cc=swift /{
	n++; for (i = 1; i <= NF; i++) { split($i, p, "="); v[p[1]] = p[2] } }
	END { print n + 0, v["window_mpkt"] + 0, v["target_us"] + 0,
		    v["base_rtt_us"] + 0, v["delay_us"] + 0 }' "$CCINFO_SAVE")"
expect "cc_info -s: one decoded line per swift socket ss saw ($n_ci, ss $n_ss)" \
	"$n_ci >= 1 && $n_ci == $n_ss"
expect "cc_info -s: window within bounds, target, base and delay > 0" \
	"$w >= $min_mpkt && $w <= $max_mpkt && $t > 0 && $b > 0 && $d > 0"
rm -f "$CCINFO_SAVE"

# TCP_CC_INFO through the example program (the incast sink reads it all).
out=$(in_cli "$DCC_BIN/cc_info" swift "$SRV_IP" 6000 4000000)
log "cc_info: $out"
read -r w t b d <<< "$(echo "$out" | awk '{
	for (i = 1; i <= NF; i++) { split($i, p, "="); v[p[1]] = p[2] }
	print v["window_mpkt"] + 0, v["target_us"] + 0, v["base_rtt_us"] + 0,
	      v["delay_us"] + 0 }')"
check "TCP_CC_INFO: cc_info decodes swift (20 bytes, BBR layout)" \
	grep -q '^cc=swift len=20 ' <<< "$out"
expect "TCP_CC_INFO: window within bounds, target, base and delay > 0" \
	"$w >= $min_mpkt && $w <= $max_mpkt && $t > 0 && $b > 0 && $d > 0"

if [ "$have_trace" = 1 ]; then
	trace=$(mktemp)
	grep 'swift_update:' "$TRACEFS/trace" > "$trace"
	log "trace: $(wc -l < "$trace") events, e.g.:"
	grep -m 2 'reason=md' "$trace" | sed 's/^ */# /'
	grep -m 2 'reason=ai' "$trace" | sed 's/^ */# /'
	# Fields: reason=R fcwnd=A->B ecwnd=C->D delay_us=E target_us=F
	read -r n bad nmd nai <<< "$(awk -v lo="$min_mpkt" -v hi="$max_mpkt" '
		{ for (i = 1; i <= NF; i++) { split($i, p, "="); v[p[1]] = p[2] }
		  split(v["fcwnd"], f, "->"); split(v["ecwnd"], e, "->")
		  n++
		  if (f[2] < lo || f[2] > hi || e[2] < lo || e[2] > hi ||
		      (f[1] == f[2] && e[1] == e[2]) ||
		      (v["reason"] ~ /^(ai|md)$/ &&
		       (v["delay_us"] <= 0 || v["target_us"] <= 0))) bad++
		  if (v["reason"] == "md") nmd++
		  if (v["reason"] == "ai") nai++ }
		END { print n + 0, bad + 0, nmd + 0, nai + 0 }' "$trace")"
	rm -f "$trace"
	expect "trace: events recorded during the transfer ($n)" "$n > 0"
	expect "trace: increases and delay decreases recorded (ai $nai, md $nmd)" \
		"$nai > 0 && $nmd > 0"
	expect "trace: every event changes a window, within bounds, delay > 0 ($bad bad)" \
		"$bad == 0"
	# Each event names its connection as tcp:tcp_probe does: family,
	# addresses and the socket cookie ss -e printed (sk:) for it.
	cookies=$(grep -o 'sk:[0-9a-f]*' "$SS_SAVE" | cut -d: -f2 | sort -u | tr '\n' ' ')
	read -r nid badid <<< "$(grep 'swift_update:' "$TRACEFS/trace" |
		awk -v ck=" $cookies" -v cli="$CLI_IP" -v srv="$SRV_IP" '
		{ for (i = 1; i <= NF; i++) { split($i, p, "="); v[p[1]] = p[2] }
		  if (v["dport"] != 5201) next
		  n++
		  if (v["family"] != "AF_INET" || v["saddr"] != cli ||
		      v["daddr"] != srv || v["daddrv6"] != "::ffff:" srv ||
		      index(ck " ", " " v["sock_cookie"] " ") == 0) bad++ }
		END { print n + 0, bad + 0 }')"
	log "ss -e cookies of the flow's sockets: $cookies"
	expect "trace: events name family, addresses and ss's cookie ($nid events, $badid not)" \
		"$nid > 0 && $badid == 0"
	# perf sees the same event.
	check_perf_event tcp_swift:swift_update swift
	check_bpftrace_recipe tcp_swift:swift_update swift
fi
rm -f "$SS_SAVE"

dec=$(($(swift_stat "$NS_CLI" SwiftDelayDecrease) - dec0))
inc=$(($(swift_stat "$NS_CLI" SwiftIncrease) - inc0))
log "counters in the sender's namespace:"
in_cli cat /proc/net/tcp_swift_stat | sed 's/^/#   /'
expect "counters: delay decreases in the sender's namespace ($dec)" "$dec > 0"
expect "counters: increases in the sender's namespace ($inc)" "$inc > 0"
if [ $have_nstat = 1 ]; then
	# nstat prints the same deltas (the transfer is over: nothing moves).
	nd=$(mod_nstat "$NS_CLI" tcp_swift_stat "$nhist" SwiftDelayDecrease |
		awk '$1 == "SwiftDelayDecrease" { print $2 }')
	expect "nstat: SwiftDelayDecrease delta ${nd:-none} equals the file's ($dec)" \
		"${nd:-0} == $dec"
	rm -f "$nhist"
else
	log "SKIP nstat checks: nstat (iproute2) not installed"
fi
other=$(ip netns exec "$NS_OTHER" cat /proc/net/tcp_swift_stat |
	awk '{ s += $2 } END { print s + 0 }')
expect "counters: all zero in another namespace ($other)" "$other == 0"

bed_cleanup
trap - EXIT
check "module unloads after the transfer" unload_module tcp_swift

finish
