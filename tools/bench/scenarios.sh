#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark's guest part: runs inside the test VM (tools/bench/bench.sh
# boots it once for the whole suite) and records raw measurements under
# OUT/raw/sN/ for the host to turn into tables and plots (report.sh).
# Every congestion control runs in the same VM, on the same emulated
# network; the repeats are interleaved (run 1 of every cc, then run 2...)
# so that a slow spell of the host does not fall on one cc alone.
#
#   tools/bench/scenarios.sh OUT
set +e
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../selftests/lib.sh"

OUT=$1
# The raw results are written to the guest's own tmpfs while a scenario
# runs and copied to OUT (the host's directory, over 9p) after it.  A
# write to the host is I/O the virtual clock does not wait for: while the
# writer blocks on a slow host, an otherwise idle guest jumps from timer
# to timer.  The join-leave sink (the flows' receiver) wrote every
# 0.25 s, and on a loaded host it stalled its flows for 0.5-7 s of
# virtual time (no loss; loss probes fired) in 9 of 12 runs of one
# bench, cubic's and swift's alike; the RPC clients' per-RPC lines
# delayed their next RPC the same way.
R_OUT=$OUT/raw
R=$(mktemp -d /tmp/bench-raw.XXXXXX)
# The settings the host recorded for this run (bench.sh), if any.
[ -f "$OUT/params.env" ] && . "$OUT/params.env"
. "$here/params.sh"
mkdir -p "$R_OUT"
require_root

say() { echo "bench: $*"; }
stamp() { date -u +%H:%M:%S; }

# --- the congestion controls ------------------------------------------
load_module tcp_plb || say "no tcp_plb: scenario 6 runs without PLB"
load_module tcp_swift || exit 1
load_module tcp_timely || exit 1
case " $BENCH_OURS " in
*" hpcc "*) load_module tcp_hpcc || exit 1 ;;
esac
CCS=""
for cc in $BENCH_STOCK; do
	CCS="$CCS $cc"
	# dcqcn, when it is in the tree, next to dctcp (both want ECN marks).
	if [ "$cc" = dctcp ] && [ -f "$DCC_ROOT/tcp_dcqcn.ko" ]; then
		# shellcheck disable=SC2086
		load_module tcp_dcqcn && CCS="$CCS dcqcn"
	fi
done
CCS="${CCS# } $BENCH_OURS"
S12_CCS=$(echo "$S12_PAIRS" | tr ': ' '\n\n' | sort -u | tr '\n' ' ')
# A name may carry +plb and @PARAM=VALUE (cc_use); cc_base is the rest.
for cc in $CCS $S6_CCS $S7_CCS $S12_CCS; do
	cc=$(cc_base "$cc")
	case $cc in
	swift | timely | timely-patched | hpcc) ;;
	dcqcn) [ -d /sys/module/tcp_dcqcn ] || load_module tcp_dcqcn ;;
	*) load_stock_cc "$cc" || say "cannot load tcp_$cc" ;;
	esac
done
# A variant row (NAME@PARAM=VALUE) names a parameter its module has: said
# here, before anything runs, rather than as a shell error mid-scenario.
for cc in $CCS $S6_CCS $S7_CCS $S12_CCS; do
	case $cc in
	*@*=*) ;;
	*) continue ;;
	esac
	m=${cc%%@*}
	m=tcp_${m%-patched}
	p=${cc#*@}
	p=${p%%=*}
	if [ ! -e "/sys/module/$m/parameters/$p" ]; then
		say "$cc: $m has no parameter $p"
		exit 1
	fi
done
# Every congestion control of the run may be a namespace's default (the
# receivers run it too): stock ones such as dctcp are restricted until the
# administrator allows them, and so are ours.
# shellcheck disable=SC2046
allow_cc $(for cc in $CCS $S6_CCS $S7_CCS $S12_CCS; do
	cc=$(cc_base "$cc")
	echo "${cc%-patched}"
done | sort -u)

{
	echo "kernel=$(uname -r)"
	echo "ccs=$CCS"
	echo "s6_ccs=$S6_CCS"
	echo "s7_ccs=$S7_CCS"
	echo "s12_ccs=$S12_PAIRS"
	echo "ip=$BENCH_IP"
	echo "clock=${DCC_VM_CLOCK:-unknown}"
	echo "cpus=$(nproc)"
	for m in tcp_swift tcp_timely tcp_plb tcp_dcqcn tcp_hpcc; do
		[ -d "/sys/module/$m/parameters" ] || continue
		echo "$m=$(module_params "$m")"
	done
} > "$OUT/guest.txt"
say "kernel $(uname -r); congestion controls: $CCS"

trap topo_cleanup EXIT

# The dumbbell's address family (BENCH_IP): with 6, every flow and probe
# of the dumbbell scenarios goes to the receiver's IPv6 address and the
# router fills IOAM traces (hpcc's telemetry; packets without one, every
# other cc's, cross it as before).  SRV_IP4 stays for what must be IPv4
# (scenario 6's competitor pinned to path A).
SRV_IP4=$SRV_IP
SRV_GW=10.0.2.254
if [ "$BENCH_IP" = 6 ]; then
	# shellcheck disable=SC2153 # SRV_IP6: lib_topo.sh
	SRV_IP=$SRV_IP6
	SRV_GW=fd00:2::fe
fi

# bench_cc NAME: cc_use, and the receivers' namespace default too: the
# receivers run the congestion control under test, as a datacenter
# deployment would (DCTCP's and DCQCN's ECN echo is the receiver's).
bench_cc() {
	local name
	name=$(cc_use "$1")
	in_srv sysctl -qw net.ipv4.tcp_congestion_control="$name"
	echo "$name"
}

# Scenarios 1-5 share one dumbbell (building it costs seconds of emulated
# CPU); each sets its own bottleneck queue.  Packets stay in order on the
# veths (topo_keep_order), as a NIC's queue keeps them.
DUMBBELL=0
dumbbell() {	# LIMIT [red KB]
	if [ $DUMBBELL = 0 ]; then
		topo_dumbbell
		topo_keep_order
		[ "$BENCH_IP" = 6 ] && topo_ioam "$NS_RTR" 1 "$BENCH_RATE" rc0
		iperf_server 5201
		DUMBBELL=1
	fi
	in_rtr tc qdisc del dev rs0 root 2>/dev/null
	topo_shape "$BENCH_RATE" "$BENCH_DELAY" "$@"
}

# --- 1, 2: long flows through a deep FIFO / an ECN-marking queue -------
scenario_bulk() {	# TAG LIMIT AQM KB FLOWS SECS WARM
	local tag=$1 limit=$2 aqm=$3 kb=$4 flows=$5 secs=$6 warm=$7
	mkdir -p "$R/$tag"
	dumbbell "$limit" "$aqm" "$kb"
	ping_rtts 100 0.01 2 > "$R/$tag/idle.rtt"
	bulk_rows "$tag" "$flows" "$secs" "$warm" bottleneck_counts
}

# bulk_rows TAG FLOWS SECS WARM COUNTS: every cc's runs of FLOWS long
# flows (bulk_run) into raw/TAG/CC.RUN.*, with the drops and marks that
# COUNTS (a command printing "DROPS MARKS" so far) and the senders' RTOs
# moved during each run.
bulk_rows() {
	local tag=$1 flows=$2 secs=$3 warm=$4 counts=$5
	local r cc name d0 m0 d1 m1 t0 t1
	# Counters between runs (one look at the qdiscs per run).
	read -r d0 m0 <<< "$($counts)"
	for r in $(seq "$BENCH_RUNS"); do
		for cc in $CCS; do
			say "$(stamp) $tag $cc run $r/$BENCH_RUNS"
			name=$(bench_cc "$cc")
			read -r t0 _ <<< "$(_rto_retrans)"
			bulk_run "$name" "$secs" "$flows" "$R/$tag/$cc.$r" \
				"$BENCH_PROBE_HZ" "$warm"
			read -r t1 _ <<< "$(_rto_retrans)"
			read -r d1 m1 <<< "$($counts)"
			echo "drops=$((d1 - d0)) marks=$((m1 - m0)) rtos=$((t1 - t0))" \
				> "$R/$tag/$cc.$r.q"
			d0=$d1 m0=$m1
			sleep 0.3
		done
	done
}

# --- 3, 11: incast -----------------------------------------------------
# The sink is started again for every cc, after the namespace default
# changed, so that the receivers run the cc under test (their ECN echo is
# the notification point for dctcp and dcqcn).
scenario_incast() {	# TAG LIMIT AQM KB ROUNDS
	local tag=$1 limit=$2 aqm=$3 kb=$4 rounds=$5 r cc name sink
	mkdir -p "$R/$tag"
	dumbbell "$limit" "$aqm" "$kb"
	in_srv ip route replace default via "$SRV_GW" quickack 1
	for r in $(seq "$BENCH_RUNS"); do
		for cc in $CCS; do
			say "$(stamp) $tag $cc run $r/$BENCH_RUNS"
			name=$(bench_cc "$cc")
			# Not through in_srv: a backgrounded function is a
			# subshell, and killing it left the sink listening (the
			# next one's bind failed).  ip netns exec execs the sink.
			ip netns exec "$NS_SRV" "$DCC_BIN/incast" -s 6000 &
			sink=$!
			wait_listen 6000
			for nb in $rounds; do
				incast_round "${nb%%:*}" "${nb#*:}" "$name" \
					> "$R/$tag/$cc.${nb%%:*}.$r" 2>&1
				sleep 0.3
			done
			kill $sink 2>/dev/null
			wait $sink 2>/dev/null
			slowwait 5 sh -c "! ip netns exec $NS_SRV ss -Hltn 'sport = :6000' | grep -q ."
		done
	done
	in_srv ip route replace default via "$SRV_GW"
}

# --- 4: flows joining and leaving ---------------------------------------
scenario_fair() {
	local r cc name k pids start stop nstart=() nstop=() sink log
	mkdir -p "$R/s4"
	read -ra nstart <<< "$S4_START"
	read -ra nstop <<< "$S4_STOP"
	dumbbell "$S4_LIMIT"
	# A sink logging every flow's bytes each S4_BIN seconds, into one log
	# where each run starts with a MARK line; started again for every run
	# after the namespace default changed, so that the receivers run the
	# cc under test (hpcc's echo is the receiver's).  The senders are
	# incast -b: they start within tens of ms of their time (iperf3 takes
	# a second and more to start in the emulator) and stop at once.
	log=$R/s4/sink.log
	for r in $(seq "$BENCH_RUNS"); do
		for cc in $CCS; do
			say "$(stamp) s4 $cc run $r/$BENCH_RUNS"
			name=$(bench_cc "$cc")
			ip netns exec "$NS_SRV" "$DCC_BIN/incast" -s 5300 \
				"$(awk -v b="$S4_BIN" 'BEGIN { print int(b * 1000) }')" >> "$log" &
			sink=$!
			wait_listen 5300
			echo "MARK $cc $r" >> "$log"
			pids=""
			for k in "${!nstart[@]}"; do
				start=$(awk -v a="${nstart[$k]}" -v s="$S4_STEP" 'BEGIN { print a * s }')
				stop=$(awk -v a="${nstop[$k]}" -v s="$S4_STEP" 'BEGIN { print a * s }')
				{ sleep "$start"
				  in_cli "$DCC_BIN/incast" -b "$SRV_IP" 5300 \
					"$(awk -v a="$start" -v b="$stop" 'BEGIN { print b - a }')" \
					"$name"; } &
				pids="$pids $!"
			done
			# shellcheck disable=SC2086
			wait $pids
			sleep "$S4_BIN"
			kill $sink 2>/dev/null
			wait $sink 2>/dev/null
			slowwait 5 sh -c "! ip netns exec $NS_SRV ss -Hltn 'sport = :5300' | grep -q ."
		done
	done
}

# --- 5: RPC latency under load ------------------------------------------
scenario_rpc() {
	local r cc name pid srv secs
	mkdir -p "$R/s5"
	dumbbell "$S5_LIMIT"
	# The server is started again for every cc (after the namespace
	# default changed: its connections run the cc under test), not
	# through in_srv (see scenario_incast).
	ip netns exec "$NS_SRV" "$DCC_BIN/rpc" -s 7000 &
	srv=$!
	wait_listen 7000
	secs=$(awk -v s="$S5_SECS" -v w="$S5_WARM" 'BEGIN { x = int(s - w - 0.5); print x < 1 ? 1 : x }')
	in_cli "$DCC_BIN/rpc" -c "$SRV_IP" 7000 1000000 "$S5_RPC_BYTES" \
		"$S5_RPC_GAP_US" cubic 1 > "$R/s5/idle.rpc" 2>&1
	for r in $(seq "$BENCH_RUNS"); do
		for cc in $CCS; do
			say "$(stamp) s5 $cc run $r/$BENCH_RUNS"
			kill $srv 2>/dev/null
			wait $srv 2>/dev/null
			slowwait 5 sh -c "! ip netns exec $NS_SRV ss -Hltn 'sport = :7000' | grep -q ."
			name=$(bench_cc "$cc")
			ip netns exec "$NS_SRV" "$DCC_BIN/rpc" -s 7000 &
			srv=$!
			wait_listen 7000
			iperf_flow "$name" "$S5_SECS" 5201 -P "$S5_FLOWS" \
				> "$R/s5/$cc.$r.json" &
			pid=$!
			sleep "$S5_WARM"
			in_cli "$DCC_BIN/rpc" -c "$SRV_IP" 7000 1000000 \
				"$S5_RPC_BYTES" "$S5_RPC_GAP_US" "$name" "$secs" \
				> "$R/s5/$cc.$r.rpc" 2>&1
			wait $pid
			sleep 0.3
		done
	done
	kill $srv 2>/dev/null
	wait $srv 2>/dev/null
}

# --- 6: two paths, one congested, PLB on and off ------------------------
# S6_CLIENTS RPC clients of cc $1 at once, each writing $2.cN; waits.
s6_clients() {
	local i each pids=""

	for i in $(seq "$S6_CLIENTS"); do
		each=""
		[ "$S6_TRACE" = 1 ] && each=$2.c$i.each
		in_cli env RPC_EACH="$each" "$DCC_BIN/rpc" -c "$SRV_IP6" 7000 \
			"$S6_RPCS" "$S6_RPC_BYTES" "$S6_RPC_GAP_US" "$1" \
			"$S6_SECS" > "$2.c$i" 2>&1 &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086
	wait $pids
}

# s6_counts: the client namespace's PLB counters and TCP's own timeout
# rehashes and loss probes, "Name value" a line.
s6_counts() {
	local c
	for c in PlbRounds PlbCongestedRounds PlbRepathIdle PlbRepathForced \
		 PlbRepathLong PlbRepathPaused PlbRtoPause PlbRtoCongested \
		 PlbRepathBack PlbRepathHeld; do
		echo "$c $(mod_stat "$NS_CLI" tcp_plb_stat "$c")"
	done
	for c in TcpExtTcpTimeoutRehash TcpExtTCPTimeouts TcpExtTCPLossProbes; do
		echo "$c $(nstat_get "$NS_CLI" "$c")"
	done
}

# S6_TRACE=1 (params.sh): swift's and timely's decisions in each run, and
# what tells a slow RPC's cause (Documentation/plb.rst, "Scenario 6: where
# swift's RPC tail comes from"): the client's retransmissions
# (tcp:tcp_retransmit_skb), its ACKs as TCP saw them (tcp:tcp_probe: cwnd,
# srtt, snd_una), its timeouts and loss probes (kprobes on tcp_enter_loss
# and tcp_send_loss_probe, by socket address), all on ftrace's "mono" clock
# (the RPC clients' RPC_EACH lines give both clocks); the client's own
# capture of port 7000 (cli.pcap, both directions) and the paths' captures
# are kept.
s6_trace_start() {	# CC
	local ev f
	[ "$S6_TRACE" = 1 ] || return 0
	case ${1%%@*} in
	swift) ev=tcp_swift/swift_update ;;
	timely) ev=tcp_timely/timely_update ;;
	*) return 0 ;;
	esac
	[ -w "$TRACEFS/events/$ev/enable" ] || return 0
	echo 65536 > "$TRACEFS/buffer_size_kb"
	echo mono > "$TRACEFS/trace_clock" 2>/dev/null
	echo 1 > "$TRACEFS/events/$ev/enable"
	for f in tcp_retransmit_skb tcp_probe; do
		[ -w "$TRACEFS/events/tcp/$f/enable" ] || continue
		echo "dport == 7000" > "$TRACEFS/events/tcp/$f/filter"
		echo 1 > "$TRACEFS/events/tcp/$f/enable"
	done
	if [ -w "$TRACEFS/kprobe_events" ]; then
		{ echo "p:dcc_s6/rto tcp_enter_loss sk=%di:x64"
		  echo "p:dcc_s6/tlp tcp_send_loss_probe sk=%di:x64"
		} >> "$TRACEFS/kprobe_events" 2>/dev/null &&
			echo 1 > "$TRACEFS/events/dcc_s6/enable" 2>/dev/null
	fi
	ns_capture "$NS_CLI" cli0 "$R/s6/cli.pcap" "ip6 and tcp port 7000"
	echo "$CAPTURE_PID" > "$R/s6/cli.pid"
	sleep 0.5
}
s6_trace_save() {	# OUT
	local f
	[ "$S6_TRACE" = 1 ] || return 0
	if [ -f "$R/s6/cli.pid" ]; then
		ns_capture_stop "$(cat "$R/s6/cli.pid")"
		rm -f "$R/s6/cli.pid"
		mv "$R/s6/cli.pcap" "$1.cli.pcap" 2>/dev/null
	fi
	echo 0 > "$TRACEFS/events/tcp_swift/swift_update/enable" 2>/dev/null
	echo 0 > "$TRACEFS/events/tcp_timely/timely_update/enable" 2>/dev/null
	for f in tcp_retransmit_skb tcp_probe; do
		echo 0 > "$TRACEFS/events/tcp/$f/enable" 2>/dev/null
		echo 0 > "$TRACEFS/events/tcp/$f/filter" 2>/dev/null
	done
	grep -E "(swift|timely)_update:|tcp_(retransmit_skb|probe):|plb_repath:|(rto|tlp):" \
		"$TRACEFS/trace" | gzip > "$1.cctrace.gz"
	# Removing a kprobe event empties the trace buffer: after the copy.
	if [ -d "$TRACEFS/events/dcc_s6" ]; then
		echo 0 > "$TRACEFS/events/dcc_s6/enable"
		echo "-:dcc_s6/rto" >> "$TRACEFS/kprobe_events"
		echo "-:dcc_s6/tlp" >> "$TRACEFS/kprobe_events"
	fi
	echo local > "$TRACEFS/trace_clock" 2>/dev/null
	in_cli cat /proc/net/tcp_swift_stat > "$1.swiftstat" 2>/dev/null
}

scenario_plb() {
	local r cc name comp srv a0 b0 quiet
	# shellcheck disable=SC2034 # read by paths_start/paths_stop (lib_topo.sh)
	local PATHS_DIR=$R/s6 PATHS_END_SECS=1
	mkdir -p "$R/s6"
	DUMBBELL=0
	topo_twopath "$S6_RATE_B" "$BENCH_DELAY" "$S6_LIMIT"
	in_rtr tc class replace dev pa0 parent 1: classid 1:1 htb \
		rate "${S6_RATE_A}mbit" ceil "${S6_RATE_A}mbit" burst 30k cburst 30k
	in_srv iperf3 -s -D -p 5201 >/dev/null 2>&1
	in_srv "$DCC_BIN/rpc" -s 7000 &
	srv=$!
	sleep 0.3
	# The quiet path first: each cc's RPC clients (without PLB) all on
	# path B, before the competitor starts: where PLB should bring them,
	# the baseline of the target "p99 <= 2 x the quiet path's".  The
	# clients load the path themselves (4 x 32 KB every 10 ms or so).
	twopath_route6 b
	quiet=""
	for cc in $S6_CCS; do
		case " $quiet " in
		*" ${cc%+plb} "*) ;;
		*) quiet="$quiet ${cc%+plb}" ;;
		esac
	done
	for r in $(seq "$BENCH_RUNS"); do
		for cc in $quiet; do
			say "$(stamp) s6 $cc quiet run $r/$BENCH_RUNS"
			s6_clients "$(bench_cc "$cc")" "$R/s6/quiet.$cc.$r"
			in_cli ss -K dst "[$SRV_IP6]" dport = :7000 >/dev/null 2>&1
			sleep 0.5
		done
	done
	twopath_route6 ab
	in_cli iperf3 -4 -c "$SRV_IP4" -p 5201 -C cubic -t 3600 >/dev/null 2>&1 &
	comp=$!
	sleep 3
	{ echo "path A: $(in_rtr ping -c 10 -i 0.1 fd00:a::2 | tail -n 1)"
	  echo "path B: $(in_rtr ping -c 10 -i 0.1 fd00:b::2 | tail -n 1)"
	} > "$R/s6/paths.txt"
	for r in $(seq "$BENCH_RUNS"); do
		for cc in $S6_CCS; do
			say "$(stamp) s6 $cc run $r/$BENCH_RUNS"
			name=$(bench_cc "$cc")
			a0=$(path_bytes6 pa0)
			b0=$(path_bytes6 pb0)
			s6_counts > "$R/s6/$cc.$r.count0"
			paths_start "$cc.$r" 7000
			trace_start "$TRACEFS/events/tcp_plb/plb_repath"
			s6_trace_start "$name"
			s6_clients "$name" "$R/s6/$cc.$r"
			echo "bytes_a=$(($(path_bytes6 pa0) - a0)) bytes_b=$(($(path_bytes6 pb0) - b0))" \
				> "$R/s6/$cc.$r.paths"
			# A client stopped by its time bound leaves its
			# connection sending on as an orphan: end it before
			# the next cc runs.
			in_cli ss -K dst "[$SRV_IP6]" dport = :7000 >/dev/null 2>&1
			s6_counts > "$R/s6/$cc.$r.count1"
			[ -r "$TRACEFS/trace" ] &&
				grep plb_repath "$TRACEFS/trace" > "$R/s6/$cc.$r.trace"
			s6_trace_save "$R/s6/$cc.$r"
			paths_stop "$cc.$r"
			paths_per_flow "$cc.$r" > /dev/null
			[ "$S6_TRACE" = 1 ] || rm -f "$R/s6/$cc.$r".*.pcap
			sleep 0.5
		done
	done
	kill $comp $srv 2>/dev/null
	topo_cleanup
}

# --- 7: delay noise (jitter on the ACK path / the data path) -------------
# S7_TRACE=1 (params.sh): swift's decisions and counters of each run.
s7_trace_start() {	# CC
	[ "$S7_TRACE" = 1 ] && [ "${1%%@*}" = swift ] || return 0
	trace_start "$TRACEFS/events/tcp_swift/swift_update" &&
		echo 65536 > "$TRACEFS/buffer_size_kb"
}
s7_trace_save() {	# CC OUT
	[ "$S7_TRACE" = 1 ] && [ "${1%%@*}" = swift ] || return 0
	echo 0 > "$TRACEFS/events/tcp_swift/swift_update/enable"
	grep swift_update: "$TRACEFS/trace" | gzip > "$2.trace.gz"
	echo > "$TRACEFS/trace"
	in_cli cat /proc/net/tcp_swift_stat > "$2.stat"
}

scenario_jitter() {
	local path j r cc name
	mkdir -p "$R/s7"
	dumbbell "$S7_LIMIT"
	for path in $S7_PATHS; do
		for j in $S7_JITTERS; do
			topo_jitter "$j" "$path"
			ping_rtts 100 0.01 2 > "$R/s7/$path.$j.idle.rtt"
			for r in $(seq "$S7_RUNS"); do
				for cc in $S7_CCS; do
					say "$(stamp) s7 $path jitter $j us $cc run $r/$S7_RUNS"
					name=$(bench_cc "$cc")
					s7_trace_start "$name"
					bulk_run "$name" "$S7_SECS" "$S7_FLOWS" \
						"$R/s7/$path.$j.$cc.$r" \
						"$BENCH_PROBE_HZ" "$S7_WARM"
					s7_trace_save "$name" "$R/s7/$path.$j.$cc.$r"
					sleep 0.3
				done
			done
		done
	done
	topo_jitter 0
}

# --- 9: RTT fairness ----------------------------------------------------
# Two long flows from the same client to two addresses of the server, the
# second one farther: its ACKs are held (S9_RTT_X - 1) base RTTs longer on
# the ACK path (the ACK path's netem becomes a prio qdisc whose band 2,
# traffic from the far address, has the longer delay).  Two destinations,
# as two paths of different lengths would be.
S9_FAR_IP=10.0.2.2
S9_MATCH="protocol ip prio 1 u32 match ip src $S9_FAR_IP/32"
if [ "$BENCH_IP" = 6 ]; then
	S9_FAR_IP=fd00:2::2
	S9_MATCH="protocol ipv6 prio 1 u32 match ip6 src $S9_FAR_IP/128"
fi
scenario_rttfair() {
	local r cc name base far
	mkdir -p "$R/s9"
	dumbbell "$S9_LIMIT"
	if [ "$BENCH_IP" = 6 ]; then
		in_srv ip addr add "$S9_FAR_IP/64" dev srv0 nodad 2>/dev/null
	else
		in_srv ip addr add "$S9_FAR_IP/24" dev srv0 2>/dev/null
	fi
	iperf_server 5202
	base=$(ping_rtts 50 0.01 2 | percentile 50)
	far=$((BENCH_DELAY + (S9_RTT_X - 1) * base))
	in_rtr tc qdisc del dev rc0 root
	in_rtr tc qdisc add dev rc0 root handle 1: prio bands 3 \
		priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
	in_rtr tc qdisc replace dev rc0 parent 1:2 handle 20: netem \
		delay "${BENCH_DELAY}us" limit 100000
	in_rtr tc qdisc replace dev rc0 parent 1:3 handle 30: netem \
		delay "${far}us" limit 100000
	# shellcheck disable=SC2086
	in_rtr tc filter replace dev rc0 parent 1: $S9_MATCH flowid 1:3
	echo "base_us=$base far_delay_us=$far" \
		"far_base_us=$(in_cli ping -c 20 -i 0.01 -q "$S9_FAR_IP" |
			awk -F/ '/^rtt/ { printf "%d", $5 * 1000 }')" > "$R/s9/setup"
	for r in $(seq "$BENCH_RUNS"); do
		for cc in $CCS; do
			say "$(stamp) s9 $cc run $r/$BENCH_RUNS"
			name=$(bench_cc "$cc")
			iperf_flow "$name" "$S9_SECS" 5201 -i 0.5 \
				--get-server-output > "$R/s9/$cc.$r.near.json" &
			in_cli iperf3 -c "$S9_FAR_IP" -p 5202 -C "$name" \
				-t "$S9_SECS" -J -i 0.5 --get-server-output \
				> "$R/s9/$cc.$r.far.json"
			wait
			sleep 0.3
		done
	done
	# S9_TRACE=1: one more swift run (not measured: tracing costs the
	# senders instructions, that is virtual time) with its tracepoint on,
	# per event: time, destination port (5201 near, 5202 far), reason,
	# fabric window (1/1000 packet) after, delay and target (us).
	if [ "${S9_TRACE:-0}" = 1 ] && trace_start \
		"$TRACEFS/events/tcp_swift/swift_update"; then
		echo 65536 > "$TRACEFS/buffer_size_kb"
		name=$(bench_cc swift)
		iperf_flow "$name" "$S9_SECS" 5201 > /dev/null &
		in_cli iperf3 -c "$S9_FAR_IP" -p 5202 -C "$name" \
			-t "$S9_SECS" > /dev/null
		wait
		echo 0 > "$TRACEFS/events/tcp_swift/swift_update/enable"
		awk '/swift_update:/ { t = $0; sub(/:.*/, "", t);
			n = split(t, w, " "); t = w[n]
			for (i = 1; i <= NF; i++) { split($i, p, "="); v[p[1]] = p[2] }
			split(v["fcwnd"], f, "->")
			if (v["sport"] == 5201 || v["sport"] == 5202) next
			print t, v["dport"], v["reason"], f[2], v["delay_us"],
			      v["target_us"] }' "$TRACEFS/trace" > "$R/s9/swift.trace"
		echo > "$TRACEFS/trace"
	fi
	in_rtr tc qdisc del dev rc0 root
	in_rtr tc qdisc replace dev rc0 root netem delay "${BENCH_DELAY}us" \
		limit 100000
}

# --- 12: sharing a queue with another cc ---------------------------------
# A long flow of each cc of a pair (A:B) through the ECN-marking queue of
# scenario 2; each receiver runs its sender's cc (one server per cc,
# started while that cc is the namespace default: a listener keeps the
# default it was created with).
# iperf3's control connection runs the client namespace's default cc, not
# -C's: as cubic (tcp_ecn=1) its SYN is not ECN-capable (RFC 3168), and
# RED in ECN mode drops a non-ECT packet above its threshold, where the
# flow that got going first holds the queue; each drop costs a SYN timeout
# (1, 2, 4 s), and the second flow started up to 7 s late.  dctcp's SYN is
# ECT (as dcqcn's), so the control connections run dctcp here; the data
# connections run the pair's ccs.  synretrans in raw/s12/*.q counts the
# client's SYN retransmits of each run (0 when both started at once).
scenario_share() {
	local r pair a b k=0 port s0 s1 cli_cc
	declare -A srv_port=()
	mkdir -p "$R/s12"
	dumbbell "$S12_LIMIT" red "$S12_RED_KB"
	cli_cc=$(in_cli sysctl -n net.ipv4.tcp_congestion_control)
	in_cli sysctl -qw net.ipv4.tcp_congestion_control=dctcp ||
		say "s12: no dctcp for the control connections"
	for pair in $S12_PAIRS; do
		for cc in ${pair%%:*} ${pair#*:}; do
			[ -n "${srv_port[$cc]:-}" ] && continue
			port=$((5400 + k))
			k=$((k + 1))
			bench_cc "$cc" > /dev/null
			iperf_server "$port"
			srv_port[$cc]=$port
		done
	done
	for r in $(seq "$BENCH_RUNS"); do
		for pair in $S12_PAIRS; do
			a=${pair%%:*} b=${pair#*:}
			say "$(stamp) s12 $a with $b run $r/$BENCH_RUNS"
			s0=$(nstat_get "$NS_CLI" TcpExtTCPSynRetrans)
			iperf_flow "$(cc_use "$a")" "$S12_SECS" "${srv_port[$a]}" \
				-i 0.5 --get-server-output > "$R/s12/$a:$b.$r.a.json" &
			iperf_flow "$(cc_use "$b")" "$S12_SECS" "${srv_port[$b]}" \
				-i 0.5 --get-server-output > "$R/s12/$a:$b.$r.b.json"
			wait
			s1=$(nstat_get "$NS_CLI" TcpExtTCPSynRetrans)
			echo "synretrans=$((s1 - s0))" > "$R/s12/$a:$b.$r.q"
			sleep 0.3
		done
	done
	in_cli sysctl -qw net.ipv4.tcp_congestion_control="$cli_cc"
}

# --- 13: a parking lot (two routers, the second hop slower) -------------
# Drops at both hops (RTR's paths A and B, R2's egress to SRV), no marks.
# shellcheck disable=SC2317 # called through bulk_rows' COUNTS
parking_counts() {
	{ in_rtr tc -s qdisc show dev pa0; in_rtr tc -s qdisc show dev pb0
	  in_r2 tc -s qdisc show dev rs0; } | qdisc_counts
}

scenario_parking() {
	local name ev
	mkdir -p "$R/s13"
	DUMBBELL=0
	topo_twopath "$BENCH_RATE" "$BENCH_DELAY" "$S13_LIMIT"
	in_r2 tc qdisc replace dev rs0 root handle 1: htb default 1
	in_r2 tc class replace dev rs0 parent 1: classid 1:1 htb \
		rate "${S13_RATE2}mbit" ceil "${S13_RATE2}mbit" burst 30k cburst 30k
	in_r2 tc qdisc replace dev rs0 parent 1:1 handle 10: pfifo \
		limit "$S13_LIMIT"
	topo_ioam "$NS_RTR" 1 "$BENCH_RATE" rc0
	topo_ioam "$NS_R2" 2 "$S13_RATE2" pa1 pb1
	iperf_server 5201
	ping_rtts 100 0.01 2 > "$R/s13/idle.rtt"
	bulk_rows s13 "$S13_FLOWS" "$S13_SECS" "$S13_WARM" parking_counts
	# Which hop hpcc's window follows: its tracepoint over a run of its
	# own (not one of the measured runs: tracing costs the sender
	# instructions, that is virtual time).
	ev=$TRACEFS/events/tcp_hpcc/hpcc_update
	case " $CCS " in
	*" hpcc "*)
		if trace_start "$ev"; then
			name=$(bench_cc hpcc)
			bulk_run "$name" 2 "$S13_FLOWS" "$R/s13/traced" \
				"$BENCH_PROBE_HZ" 1
			echo 0 > "$ev/enable"
			grep -o "hops=[0-9]* hop=[0-9]*" "$TRACEFS/trace" |
				sort | uniq -c > "$R/s13/hpcc.hops"
			echo > "$TRACEFS/trace"
		fi ;;
	esac
	topo_cleanup
}

# BENCH_SCENARIOS: numbers here (params.sh turns names into numbers).
for s in $BENCH_SCENARIOS; do
	t0=$(date +%s)
	say "$(stamp) scenario $s ($(bench_scenario_name "$s"))"
	case $s in
	1) scenario_bulk s1 "$S1_LIMIT" fifo 0 "$S1_FLOWS" "$S1_SECS" "$S1_WARM" ;;
	2) scenario_bulk s2 "$S2_LIMIT" red "$S2_RED_KB" "$S2_FLOWS" "$S2_SECS" "$S2_WARM" ;;
	3) scenario_incast s3 "$S3_LIMIT" fifo 0 "$S3_ROUNDS" ;;
	4) scenario_fair ;;
	5) scenario_rpc ;;
	6) scenario_plb ;;
	7) scenario_jitter ;;
	8) scenario_bulk s8 "$S8_LIMIT" fifo 0 "$S8_FLOWS" "$S8_SECS" "$S8_WARM" ;;
	9) scenario_rttfair ;;
	10) scenario_bulk s10 "$S10_LIMIT" fifo 0 "$S10_FLOWS" "$S10_SECS" "$S10_WARM" ;;
	11) scenario_incast s11 "$S11_LIMIT" red "$S11_RED_KB" "$S11_ROUNDS" ;;
	12) scenario_share ;;
	13) scenario_parking ;;
	*) say "no scenario $s"; continue ;;
	esac
	cp -R "$R/." "$R_OUT/" || say "cannot copy scenario $s's raw results"
	rm -rf "${R:?}"/*
	echo "s${s}_secs=$(($(date +%s) - t0))" >> "$OUT/guest.txt"
	say "$(stamp) scenario $s ($(bench_scenario_name "$s")) took $(($(date +%s) - t0)) s"
done
trap - EXIT
# VM time (since the guest kernel booted), without waiting for the VM lock.
echo "vm_secs=$(cut -d' ' -f1 /proc/uptime)" >> "$OUT/guest.txt"
exit 0
