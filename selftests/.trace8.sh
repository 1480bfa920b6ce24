#!/bin/bash
# ad hoc: 8 swift flows with the tracepoint (not a test)
. "$(dirname "$0")/lib.sh"
OUTD=${OUTD:-/tmp/fair/out}; mkdir -p $OUTD
load_module tcp_swift ${SWIFT_ARGS:-} || exit 1
topo_dumbbell
trap 'topo_cleanup' EXIT
topo_shape 100 250 1000
allow_cc swift
iperf_server 5201
EV=$TRACEFS/events/tcp_swift/swift_update
for run in 1 2 3; do
	trace_start "$EV"
	echo 32768 > "$TRACEFS/buffer_size_kb"
	: > $OUTD/ss$run.log
	ss_acked_log "$NS_CLI" 5201 0.5 "$OUTD/ss$run.log" &
	spid=$!
	iperf_flow swift 6 5201 -P ${NFLOWS:-8} > $OUTD/ip$run.json
	kill $spid; wait $spid 2>/dev/null
	echo 0 > "$EV/enable"
	grep 'swift_update:' "$TRACEFS/trace" > $OUTD/tr$run.txt
	echo "run $run: $(wc -l < $OUTD/tr$run.txt) events"
	sleep 1
done
