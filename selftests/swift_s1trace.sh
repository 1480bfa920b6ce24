#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A trace of make bench's scenario 1 (deep FIFO) for swift at its shipped
# defaults, to explain its RTT p99 (Documentation/swift.rst, "Where 4
# flows' RTT p99 comes from"): the bench's bed (dumbbell, IPv6 with the
# router's IOAM traces, 100 Mbit/s htb, 1000-packet drop-tail FIFO,
# 250 us netem on the ACK path, packets kept in order), 4 swift flows for
# 4 s and, from 1.5 s to 3 s, a ping every 10 ms through the queue, as
# tools/bench runs it; meanwhile tracefs records
#  - tcp_swift:swift_update (every window decision: delay, target, base),
#  - tcp:tcp_probe on the senders (every ACK: snd_nxt, snd_una, cwnd),
#  - net:net_dev_queue and net:net_dev_xmit on the bottleneck's egress
#    (rs0): the FIFO's backlog at every packet, the ping's own included.
# Not in the default test list (make -C selftests run_vm
# TESTS=swift_s1trace.sh runs it): a debugging aid, no assertions.  With
# S1T_OUT=DIR (a directory the VM may write: tools/vm/run --rw DIR --env
# S1T_OUT) the raw trace and the ping lines are copied there at the end;
# tools/bench/s1trace.py summarizes them (it runs here too).  S1T_SET
# (--env S1T_SET) sets tcp_swift parameters for a variant.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3

RATE=100 DELAY=250 LIMIT=1000
FLOWS=${FLOWS:-4} SECS=${SECS:-4} WARM=${WARM:-1.5}
tmp=$(mktemp -d)

load_module tcp_swift || exit "$KSFT_FAIL"
# S1T_SET="NAME=VALUE ...": a variant's parameters (the defaults without).
for kv in ${S1T_SET:-}; do
	set_param tcp_swift "${kv%%=*}" "${kv#*=}" || exit "$KSFT_FAIL"
done
topo_dumbbell
trap 'topo_cleanup; rm -rf "$tmp"' EXIT
topo_keep_order
topo_ioam "$NS_RTR" 1 "$RATE" rc0
topo_shape "$RATE" "$DELAY" "$LIMIT"
allow_cc swift
in_srv sysctl -qw net.ipv4.tcp_congestion_control=swift
iperf_server 5201
SRV_IP=$SRV_IP6
log "swift parameters: $(module_params tcp_swift)"
ping_rtts 100 0.01 2 > "$tmp/idle.rtt"
log "idle RTT p50 $(percentile 50 < "$tmp/idle.rtt") us"

T=$TRACEFS
echo 0 > "$T/tracing_on"
echo > "$T/trace"
echo 65536 > "$T/buffer_size_kb"
echo mono > "$T/trace_clock"
echo 'dport == 5201' > "$T/events/tcp/tcp_probe/filter"
echo 'name == "rs0"' > "$T/events/net/net_dev_queue/filter"
echo 'name == "rs0"' > "$T/events/net/net_dev_xmit/filter"
for e in tcp_swift/swift_update tcp/tcp_probe net/net_dev_queue \
	 net/net_dev_xmit; do
	echo 1 > "$T/events/$e/enable"
done
echo 1 > "$T/tracing_on"
echo "s1trace start $EPOCHREALTIME" > "$T/trace_marker"

iperf_flow swift "$SECS" 5201 -P "$FLOWS" -i 0.5 > "$tmp/b.json" &
pid=$!
sleep "$WARM"
echo "s1trace ping $EPOCHREALTIME" > "$T/trace_marker"
n=$(awk -v s="$SECS" -v w="$WARM" 'BEGIN { print int((s - w - 1) * 100) }')
in_cli ping -D -n -c "$((n + PING_SKIP))" -i 0.01 -W 1 -Q 2 "$SRV_IP" \
	> "$tmp/ping.txt" 2>&1
echo "s1trace pingend $EPOCHREALTIME" > "$T/trace_marker"
wait $pid
echo "s1trace end $EPOCHREALTIME" > "$T/trace_marker"
echo 0 > "$T/tracing_on"
for e in tcp_swift/swift_update tcp/tcp_probe net/net_dev_queue \
	 net/net_dev_xmit; do
	echo 0 > "$T/events/$e/enable"
done
echo 0 > "$T/events/tcp/tcp_probe/filter"
echo 0 > "$T/events/net/net_dev_queue/filter"
echo 0 > "$T/events/net/net_dev_xmit/filter"
cat "$T/trace" > "$tmp/trace.txt"
echo > "$T/trace"
echo 1408 > "$T/buffer_size_kb"
echo local > "$T/trace_clock"

log "goodput $(iperf_mbps < "$tmp/b.json") Mbit/s, retransmits $(iperf_retrans < "$tmp/b.json")"
log "trace: $(wc -l < "$tmp/trace.txt") lines; $(grep -c 'LOST EVENTS' "$tmp/trace.txt") lost-event notes"
python3 "$DCC_ROOT/tools/bench/s1trace.py" "$tmp" 2>&1 | sed 's/^/# /'
if [ -n "${S1T_OUT:-}" ] && [ -d "$S1T_OUT" ]; then
	gzip -c "$tmp/trace.txt" > "$S1T_OUT/trace.txt.gz"
	cp "$tmp/ping.txt" "$tmp/idle.rtt" "$tmp/b.json" "$S1T_OUT/"
	log "raw files in $S1T_OUT"
fi
finish
