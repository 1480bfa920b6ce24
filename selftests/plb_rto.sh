#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PLB after a retransmit timeout: a black-holed path.
#
# Four swift bulk flows over the two-path topology; after 3 s path A drops
# everything.  Connections on A time out: TCP itself gives them a new hash
# (tcp_write_timeout) until they land on B, and PLB pauses repathing for
# S..2S seconds, so it does not steer them back onto the failed path (a
# timeout on a path that showed no congestion is a failure; the first one
# on a path PLB judged congested, which two swift flows sharing A can be,
# or right after PLB moved the connection there off congested B, pauses
# nothing, but the second of a run, the retransmission lost too, does:
# Documentation/plb.rst, "Timeouts: failure or congestion").  Then
# a cubic flow pinned to B congests B: PLB would now repath, but every
# connection that timed out stays put (the trace shows no repath of it
# after its pause began, and "paused" decisions are counted), and all the
# transfers complete.
source "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 jq

SUSPEND=20
EV=$TRACEFS/events/tcp_plb/plb_repath

stat() { mod_stat "$NS_CLI" tcp_plb_stat "$1"; }

tmp=$(mktemp -d)
load_module tcp_plb enabled=1 || skip "tcp_plb.ko not built"
load_module tcp_swift
allow_cc swift
topo_twopath 50 250 100
pin6_path fd00:2::99 b
in_cli sysctl -qw net.dcc_plb.suspend_rto_sec=$SUSPEND
in_srv iperf3 -s -D -p 5202 >/dev/null 2>&1
in_srv iperf3 -s -D -p 5203 >/dev/null 2>&1
sleep 0.3
check "tracepoint tcp_plb:plb_repath can be enabled" trace_start "$EV"

in_cli iperf3 -6 -c "$SRV_IP6" -p 5202 -C swift -P 4 -t 14 -J \
	> "$tmp/flows" 2>&1 &
flows=$!
sleep 3
log "path A black-holed"
in_rtr tc qdisc replace dev pa0 root netem loss 100%
sleep 3
log "path B congested by a cubic flow"
in_cli iperf3 -6 -c fd00:2::99 -p 5203 -C cubic -t 8 >/dev/null 2>&1 &
wait $flows
rc=$?
echo 0 > "$EV/enable"
grep -v '^#' "$TRACEFS/trace" > "$tmp/trace"

check "the transfers survived the black hole (iperf3 rc $rc)" \
	test $rc -eq 0 -a \
	"$(jq -r '.end.sum_received.bytes // 0' "$tmp/flows")" -gt 0
pauses=$(stat PlbRtoPause)
paused=$(stat PlbRepathPaused)
log "RTO pauses $pauses, timeouts judged congestion (no pause) $(stat PlbRtoCongested), repaths held by a pause $paused, repaths idle $(stat PlbRepathIdle) forced $(stat PlbRepathForced) long $(stat PlbRepathLong)"
log "TCP's RTO rehashes: $(nstat_get "$NS_CLI" TcpExtTcpTimeoutRehash)"
# Swift's own view of the timeouts: a connection left on A by three
# rehashes in a row resets its window (retx_reset_threshold).  Whether any
# connection is left there that long depends on the hashes: logged.
log "swift: timeout cuts $(mod_stat "$NS_CLI" tcp_swift_stat SwiftRtoCut), resets $(mod_stat "$NS_CLI" tcp_swift_stat SwiftRtoReset)"
expect "timeouts on the black-holed path paused PLB" "$pauses > 0"
expect "repaths fell due during the pause and were held" "$paused > 0"
# Per connection: no PLB repath after its first pause began (the pause,
# 20-40 s, outlasts the test).
late=$(awk '{ p = ""; e = ""
	     for (i = 1; i <= NF; i++) {
		if ($i ~ /^sport=/) p = $i
		if ($i ~ /^event=/) e = $i
	     }
	     if (e == "event=rto_pause") paused[p] = 1
	     else if ((e == "event=idle" || e == "event=forced" ||
		       e == "event=long") && paused[p])
		bad++ }
	   END { print bad + 0 }' "$tmp/trace")
expect "no connection was repathed by PLB after its pause began ($late)" \
	"$late == 0"

# The path comes back before the end: a connection iperf3 has closed may
# still be backing off there (each timeout rehashes it at random, the
# gaps doubling), and its socket holds tcp_swift until it gets through
# or gives up (CI: still in use after 60 s).  Its namespace's links
# go with topo_cleanup: wait for it first (its next try may be tens of
# seconds away).
in_rtr tc qdisc del dev pa0 root 2>/dev/null
# shellcheck disable=SC2317 # called through slowwait
no_conns() { ! in_cli ss -tnH | grep -q .; }
slowwait 60 no_conns ||
	log "connections still open in CLI: $(in_cli ss -tnH | wc -l)"
topo_cleanup
rm -rf "$tmp"
check "tcp_swift unloads" unload_module tcp_swift
check "tcp_plb unloads" unload_module tcp_plb
finish
