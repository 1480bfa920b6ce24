# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Every parameter of the benchmark (make bench), in one place.  Sourced by
# the host driver (tools/bench/bench.sh), the guest part (scenarios.sh) and
# the report (report.sh); any of them can be overridden from the
# environment (BENCH_RUNS=5 make bench).  The defaults are sized for the
# 2-core software-emulated VM of the development machines (see
# Documentation/results.rst, "Test bed"): a 100 Mbit/s bottleneck, 250 us
# of netem delay (idle RTT 0.27 ms on the virtual clock), runs of a
# few seconds; in virtual time the whole suite takes about 15 minutes of
# wall time a repeat on an idle 2-core host (Documentation/results.rst).
#
# Every module runs at its shipped defaults (only PLB's enabled switch
# is set, per scenario).  The one exception is a row named
# NAME@PARAM=VALUE (cc_use in selftests/lib_modules.sh), which a list
# below may name to measure a variant: its module's PARAM is VALUE for
# that row's runs only, and the report judges no target on it.

# Congestion controls.  Stock ones first; dcqcn is added after dctcp
# when tcp_dcqcn.ko is in the tree (BENCH_OURS lists ours; names as
# lib.sh's cc_use takes them).
BENCH_STOCK=${BENCH_STOCK:-"cubic dctcp vegas nv cdg bbr"}
BENCH_OURS=${BENCH_OURS:-"swift timely timely-patched hpcc"}
BENCH_RUNS=${BENCH_RUNS:-3}		# repeats of every measurement
# Scenarios to run, by number or name (BENCH_SCENARIOS="deep-fifo 3").
BENCH_SCENARIOS=${BENCH_SCENARIOS:-"1 2 3 4 5 6 7 8 9 10 11 12 13"}

# Every scenario's number and short name.  The names are stable (scripts
# and BENCH_SCENARIOS use them) and head the tables; the number names the
# files (raw/sN/, sN.md, sN.tsv, sN_*.png) and the SN_* settings below.
# report.py reads this list.
BENCH_NAMES="1:deep-fifo 2:ecn-queue 3:incast 4:join-leave 5:rpc-load
	6:two-path 7:jitter 8:many-flows 9:rtt-fair 10:shallow-fifo
	11:incast-ecn 12:cc-share 13:parking-lot"

# The emulated network (dumbbell, lib.sh topo_dumbbell / topo_shape).
# BENCH_IP 6: every cc's flows and probes over IPv6, the router filling
# IOAM traces (lib.sh topo_ioam), which hpcc's window needs (without
# them it runs its Reno fallback); 4: the same bed over IPv4.
BENCH_IP=${BENCH_IP:-6}
BENCH_RATE=${BENCH_RATE:-100}		# Mbit/s at the bottleneck
BENCH_DELAY=${BENCH_DELAY:-250}		# us of netem delay on the ACK path
BENCH_PROBE_HZ=${BENCH_PROBE_HZ:-100}	# RTT probe (ping): every 10 ms

# 1. Deep drop-tail FIFO, long flows.
S1_LIMIT=${S1_LIMIT:-1000}		# packets
S1_FLOWS=${S1_FLOWS:-4}
S1_SECS=${S1_SECS:-4}			# per run
S1_WARM=${S1_WARM:-1.5}			# s before the RTT probe starts

# 2. The same with a shallow ECN-marking queue (RED as a step at S2_RED_KB).
S2_LIMIT=${S2_LIMIT:-1000}		# packets (physical buffer)
S2_RED_KB=${S2_RED_KB:-30}		# marking threshold, KB
S2_FLOWS=${S2_FLOWS:-$S1_FLOWS}
S2_SECS=${S2_SECS:-$S1_SECS}
S2_WARM=${S2_WARM:-$S1_WARM}

# 3. Incast N-to-1 through a shallow FIFO; receivers ACK at once
#    (quickack), as swift wants (Documentation/swift.rst, "Receivers").
#    Rounds as N:BYTES (senders : bytes each), issue 16's sizes.
S3_LIMIT=${S3_LIMIT:-100}		# packets
S3_ROUNDS=${S3_ROUNDS:-"16:262144 64:65536 256:65536"}

# 4. Fairness and convergence: flow k runs from S4_START[k] to S4_STOP[k]
#    (in steps of S4_STEP seconds): flows join at 1 and 2, one leaves at 3.
S4_LIMIT=${S4_LIMIT:-1000}		# packets (deep FIFO, as scenario 1)
S4_STEP=${S4_STEP:-1.5}		# s between changes
S4_START=${S4_START:-"0 1 2"}		# steps
S4_STOP=${S4_STOP:-"4 4 3"}		# steps
S4_BIN=${S4_BIN:-0.25}			# s, throughput sampling interval
S4_SETTLE=${S4_SETTLE:-1}		# s after a change before Jain is taken
S4_CONV_JAIN=${S4_CONV_JAIN:-0.9}	# converged: every later bin at least this

# 5. RPC latency under load: closed-loop request-response (rpc.c, one
#    request outstanding) while long flows fill the scenario-1 FIFO.
S5_LIMIT=${S5_LIMIT:-$S1_LIMIT}
S5_FLOWS=${S5_FLOWS:-2}			# long flows
S5_SECS=${S5_SECS:-3.5}			# long flows run this long
S5_WARM=${S5_WARM:-1}			# s before the RPCs start
S5_RPC_BYTES=${S5_RPC_BYTES:-32768}	# request size (answer: 1 byte)
S5_RPC_GAP_US=${S5_RPC_GAP_US:-1000}	# idle between requests

# 6. Two-path IPv6 fabric (lib.sh topo_twopath), path A congested by a
#    cubic IPv4 flow pinned to it; on-off RPC clients with and without PLB.
#    Both timely variants: issue 16 asks the row of each.
S6_CCS=${S6_CCS:-"cubic swift swift+plb timely timely+plb timely-patched timely-patched+plb"}
S6_RATE_A=${S6_RATE_A:-20}		# Mbit/s, path A (congested)
S6_RATE_B=${S6_RATE_B:-50}		# Mbit/s, path B
S6_LIMIT=${S6_LIMIT:-100}		# packets per path
S6_CLIENTS=${S6_CLIENTS:-4}		# RPC clients (connections)
S6_RPCS=${S6_RPCS:-60}			# per client, at most
S6_RPC_BYTES=${S6_RPC_BYTES:-32768}
# 40 ms between RPCs: the 4 clients offer about 25 Mbit/s, half of path B,
# so the quiet path is quiet.  At 10 ms they offered about 95 Mbit/s: B
# was congested by the RPCs themselves (the quiet-path RPC p99 of swift
# 80 ms, not 12), and PLB moved them off B as it should.
S6_RPC_GAP_US=${S6_RPC_GAP_US:-40000}
S6_SECS=${S6_SECS:-4}			# time bound per run
# S6_TRACE=1: the runs of swift and timely also keep their decisions
# (tcp_swift:swift_update, tcp_timely:timely_update) beside PLB's repaths,
# the clients' retransmissions, ACKs, timeouts and loss probes in
# raw/s6/*.cctrace.gz (ftrace's mono clock), each RPC's start and time
# (*.cN.each) and the client's and paths' captures (*.cli.pcap, *.a.pcap,
# *.b.pcap); tools/bench/s6tail.py ties each slow RPC to its cause.  The
# tracing costs the guest some cycles, so its figures are not the
# untraced ones.
S6_TRACE=${S6_TRACE:-0}

# 7. Delay noise: the scenario-1 dumbbell with uniform jitter (+-J us,
#    packets kept in order; lib.sh topo_jitter) on the ACK path and on the
#    data path, 4 long flows at each J.  By default the cells that judge
#    the delay modules (3 jitters x 4 ccs x 2 paths, about 4 minutes of VM
#    time); S7_FULL=1 sweeps the whole curve (6 jitters x 10 ccs x 2 paths,
#    about 18 minutes of VM time, over an hour of wall time on 2 shared
#    cores); swift@tstamp=off is swift without the fabric/endpoint split.
S7_FULL=${S7_FULL:-0}
if [ "$S7_FULL" = 1 ]; then
	S7_CCS=${S7_CCS:-"cubic vegas nv cdg bbr dcqcn swift swift@tstamp=off timely timely-patched"}
	S7_JITTERS=${S7_JITTERS:-"0 20 50 100 200 500"}	# us
else
	S7_CCS=${S7_CCS:-"cubic swift timely timely-patched"}
	S7_JITTERS=${S7_JITTERS:-"0 100 200"}	# us
fi
# S7_PATHS: ack, data; ack-reorder and data-reorder are the same jitter
# without per-flow ordering (netem without its rate: packets overtake).
S7_PATHS=${S7_PATHS:-"ack data"}
S7_LIMIT=${S7_LIMIT:-$S1_LIMIT}
S7_FLOWS=${S7_FLOWS:-$S1_FLOWS}
S7_SECS=${S7_SECS:-$S1_SECS}
S7_WARM=${S7_WARM:-$S1_WARM}
S7_RUNS=${S7_RUNS:-1}			# repeats (the curve has 6 points)
# S7_TRACE=1: swift's runs also keep tcp_swift:swift_update (delay, target,
# base and noise lift of every window change) in raw/s7/*.trace.gz and
# /proc/net/tcp_swift_stat after each run in raw/s7/*.stat; the tracing
# costs the guest some cycles, so its figures are not the untraced ones.
S7_TRACE=${S7_TRACE:-0}

# 8. Many long flows on one bottleneck (windows below one packet: the
#    scenario-1 FIFO's BDP is about 2.3 packets).
S8_LIMIT=${S8_LIMIT:-$S1_LIMIT}
S8_FLOWS=${S8_FLOWS:-100}
S8_SECS=${S8_SECS:-6}
S8_WARM=${S8_WARM:-2}

# 9. RTT fairness: two long flows through the scenario-1 FIFO to two server
#    addresses, the far one with S9_RTT_X times the near one's base RTT
#    (extra netem delay on its ACKs).
S9_LIMIT=${S9_LIMIT:-$S1_LIMIT}
S9_RTT_X=${S9_RTT_X:-4}
S9_SECS=${S9_SECS:-8}
S9_LAST=${S9_LAST:-4}			# s at the end over which Jain is taken
S9_TRACE=${S9_TRACE:-0}			# 1: a traced swift run more (raw/s9/swift.trace)

# 10. Shallow drop-tail FIFO, long flows (issue 17's third row).
S10_LIMIT=${S10_LIMIT:-100}		# packets
S10_FLOWS=${S10_FLOWS:-$S1_FLOWS}
S10_SECS=${S10_SECS:-$S1_SECS}
S10_WARM=${S10_WARM:-$S1_WARM}

# 11. Incast through scenario 2's ECN-marking queue.
S11_LIMIT=${S11_LIMIT:-$S2_LIMIT}
S11_RED_KB=${S11_RED_KB:-$S2_RED_KB}
S11_ROUNDS=${S11_ROUNDS:-"16:262144 64:65536"}

# 12. Two ccs sharing scenario 2's ECN-marking queue: one long flow each,
#     pairs A:B (receivers run their sender's cc).
S12_PAIRS=${S12_PAIRS:-"dcqcn:dctcp swift:cubic swift:dctcp timely-patched:cubic"}
S12_LIMIT=${S12_LIMIT:-$S2_LIMIT}
S12_RED_KB=${S12_RED_KB:-$S2_RED_KB}
S12_SECS=${S12_SECS:-8}
S12_LAST=${S12_LAST:-4}			# s at the end over which shares are taken

# 13. A parking lot: two routers, the second hop the slower (CLI -> RTR,
#     BENCH_RATE -> R2, S13_RATE2 -> SRV; lib.sh topo_twopath's fabric with
#     both first-hop paths at BENCH_RATE), each router filling IOAM traces
#     with its own egress rate: hpcc must find the slower hop.
S13_RATE2=${S13_RATE2:-50}		# Mbit/s of the second (slower) hop
S13_LIMIT=${S13_LIMIT:-$S1_LIMIT}	# packets, each hop's drop-tail FIFO
S13_FLOWS=${S13_FLOWS:-$S1_FLOWS}
S13_SECS=${S13_SECS:-$S1_SECS}
S13_WARM=${S13_WARM:-$S1_WARM}

# Smoke test (make bench BENCH_SMOKE=1, part of make check): one short
# scenario, two congestion controls, one run.
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	BENCH_STOCK=cubic
	BENCH_OURS=swift
	BENCH_RUNS=1
	BENCH_SCENARIOS=1
	S1_SECS=3
	S1_WARM=1
fi

# bench_scenario_number NUMBER|NAME: the scenario's number (status 1 when
# there is no such scenario).
bench_scenario_number() {
	local w
	for w in $BENCH_NAMES; do
		if [ "$1" = "${w%%:*}" ] || [ "$1" = "${w#*:}" ]; then
			echo "${w%%:*}"
			return 0
		fi
	done
	return 1
}

# bench_scenario_name NUMBER: the scenario's name.
bench_scenario_name() {
	local w
	for w in $BENCH_NAMES; do
		[ "$1" = "${w%%:*}" ] && echo "${w#*:}" && return 0
	done
	return 1
}

# BENCH_SCENARIOS as numbers from here on (the guest's dispatch, the
# record in params.env, report.py --check).
_bench_nums=""
for _s in $BENCH_SCENARIOS; do
	if ! _n=$(bench_scenario_number "$_s"); then
		echo "bench: no scenario '$_s' (scenarios:" \
			"$(echo "$BENCH_NAMES" | tr -s '\n\t' '  '))" >&2
		exit 1
	fi
	_bench_nums="$_bench_nums $_n"
done
BENCH_SCENARIOS=${_bench_nums# }
unset _bench_nums _s _n

# bench_vars: every setting above, one NAME=VALUE a line (for the record).
bench_vars() {
	local v
	for v in BENCH_STOCK BENCH_OURS BENCH_RUNS BENCH_SCENARIOS BENCH_IP BENCH_RATE \
		 BENCH_DELAY BENCH_PROBE_HZ \
		 S1_LIMIT S1_FLOWS S1_SECS S1_WARM \
		 S2_LIMIT S2_RED_KB S2_FLOWS S2_SECS S2_WARM \
		 S3_LIMIT S3_ROUNDS \
		 S4_LIMIT S4_STEP S4_START S4_STOP S4_BIN S4_SETTLE S4_CONV_JAIN \
		 S5_LIMIT S5_FLOWS S5_SECS S5_WARM S5_RPC_BYTES S5_RPC_GAP_US \
		 S6_CCS S6_RATE_A S6_RATE_B S6_LIMIT S6_CLIENTS S6_RPCS \
		 S6_RPC_BYTES S6_RPC_GAP_US S6_SECS S6_TRACE \
		 S7_FULL S7_CCS S7_PATHS S7_JITTERS S7_LIMIT S7_FLOWS S7_SECS S7_WARM S7_RUNS \
		 S7_TRACE \
		 S8_LIMIT S8_FLOWS S8_SECS S8_WARM \
		 S9_LIMIT S9_RTT_X S9_SECS S9_LAST S9_TRACE \
		 S10_LIMIT S10_FLOWS S10_SECS S10_WARM \
		 S11_LIMIT S11_RED_KB S11_ROUNDS \
		 S12_PAIRS S12_LIMIT S12_RED_KB S12_SECS S12_LAST \
		 S13_RATE2 S13_LIMIT S13_FLOWS S13_SECS S13_WARM; do
		echo "$v=\"${!v}\""
	done
}
