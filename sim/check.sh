#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The small scenario of make check: a 10 Gbit/s dumbbell, 8 bulk flows,
# 20 ms, every model at the modules' shipped defaults and the baselines.
# Asserts physics; prints "sim: N passed, N failed" (tools/check.sh counts
# it) and exits non-zero on a failure.
set -uo pipefail
cd "$(dirname "$0")" || exit 1
out=$(build/dccsim -q --topo=dumbbell --workload=bulk --hosts=8 --rate=10 \
	--duration=20 --cc=swift,dctcp,cubic,bbr) || {
	echo "sim: dccsim failed"; echo "sim: 0 passed, 1 failed"; exit 1; }
echo "$out"
pass=0
fail=0
# assert CC COLUMN OP VALUE WHAT
assert() {
	local v
	v=$(echo "$out" | awk -v cc="$1" -v col="$2" '
		/^cc /{for (i = 1; i <= NF; i++) h[$i] = i}
		$1 == cc {print $h[col]}')
	if [ -n "$v" ] && awk -v a="$v" -v b="$4" "BEGIN{exit !(a $3 b)}"; then
		echo "ok: $1 $2 = $v ($5)"
		pass=$((pass + 1))
	else
		echo "FAILED: $1 $2 = ${v:-missing}, want $3 $4 ($5)"
		fail=$((fail + 1))
	fi
}
assert swift util '>=' 0.90 "a delay target does not cost throughput"
assert swift drops '==' 0 "swift keeps the queue far below the buffer"
assert swift q_p99 '<' 100 "queue near the target (25 us + hops + flow scaling), not the buffer"
assert swift jain '>=' 0.85 "8 equal flows share"
assert dctcp util '>=' 0.90 "baseline: DCTCP fills the link"
assert dctcp q_p99 '<' 120 "baseline: DCTCP's queue stays near K (65 pkts = 78 us)"
assert cubic q_p99 '>' 300 "baseline: CUBIC fills the buffer (the scenario can fail)"
# 100 Mbit/s, 4 flows through a 1000-packet FIFO: swift's windows are
# near two packets, where the glue's judgements matter (0.70 when the
# receiving sockets fed their handshake RTT into the shared floor).
out=$(build/dccsim -q --topo=dumbbell --workload=bulk --hosts=4 --rate=0.1 \
	--delay=42 --buffer=1000 --duration=1000 --cc=swift,timely) || {
	echo "sim: dccsim failed"; echo "sim: $pass passed, $((fail + 1)) failed"; exit 1; }
echo "$out"
assert swift util '>=' 0.90 "100 Mbit/s, 4 flows: swift fills the link, as the module does in the VM"
assert timely util '>=' 0.90 "100 Mbit/s, 4 flows: timely fills the link, as the module does in the VM"
# TIMELY at 10 Gbit/s: the line-rate ceiling (1.25 x the windowed maximum
# delivery-rate sample) must rise while no queue forms.  A flow paced below
# its RTT's worth of one packet has one packet out at a time: the kernel's
# sample is that packet over the RTT (tcp_rate_skb_sent() restarts the
# clocks when nothing is out), above its pacing rate, a lower bound that
# raises the ceiling.  Read as a pacing gap plus an RTT (ns-3.37's
# ack_elapsed, TcpDccBase::RateIntervalUs()) it was 80 % of the pacing
# rate, taken as the path's: every flow stayed at 185 Mbit/s (util 0.149).
out=$(build/dccsim -q --topo=dumbbell --workload=bulk --hosts=8 --rate=10 \
	--duration=100 --cc=timely,timely-patched,dcqcn) || {
	echo "sim: dccsim failed"; echo "sim: $pass passed, $((fail + 1)) failed"; exit 1; }
echo "$out"
assert timely util '>=' 0.90 "10 Gbit/s, 8 flows, 100 ms: timely's learnt ceiling rises to the link"
assert timely-patched util '>=' 0.90 "10 Gbit/s, 8 flows, 100 ms: so does the patched variant's"
assert timely jain '>=' 0.85 "10 Gbit/s, 8 flows: timely's equal flows share"
assert dcqcn util '>=' 0.90 "10 Gbit/s, 8 flows, 100 ms: dcqcn (the same estimator) fills the link"
# Leaf-spine, 4 flows between the leaves (0.486 is all the hosts' links
# the flows can use: swift and dcqcn reach it).  Timely ramps from its
# start rate by a step scaled by the learnt line (0.27 at 50 ms, 0.43 at
# 100 ms); it was pinned at 0.014.
out=$(build/dccsim -q --topo=leafspine --leaves=2 --spines=4 --hosts=4 --duration=50 \
	--seed=2 --cc=timely) || { echo "sim: dccsim failed"; fail=$((fail + 1)); }
echo "$out"
assert timely util '>=' 0.20 "leaf-spine, 50 ms: timely leaves its start rate"
assert timely slowest '>=' 0.8 "leaf-spine: no timely flow stays behind"
# dcqcn's SYNs and pure ACKs are ECN-capable, as the kernel sends them
# (TCP_CONG_NEEDS_ECN): RED drops a non-ECT packet where it marks, and a
# lost SYN waits out a 3 s connection timeout (37 drops, 68/100 done when
# the model sent them non-ECT).
out=$(build/dccsim -q --topo=dumbbell --workload=incast --hosts=100 --rate=100 --buffer=2000 \
	--cc=dcqcn) || { echo "sim: dccsim failed"; fail=$((fail + 1)); }
echo "$out"
assert dcqcn drops '==' 0 "100 Gbit/s 100:1 incast: RED marks dcqcn's SYNs and ACKs, drops none"
assert dcqcn 'done' '==' 100/100 "100 Gbit/s 100:1 incast: every dcqcn flow connects and completes"
# ECMP collision: 4 swift flows over 4 spines, seed 2 hashes them onto
# two; PLB (tcp_plb's defaults, enabled) must move them apart.
ls="build/dccsim -q --topo=leafspine --leaves=2 --spines=4 --hosts=4 --duration=10 --seed=2 --cc=swift"
out=$($ls --plb=off) || { echo "sim: dccsim failed"; fail=$((fail + 1)); }
echo "$out"
assert swift core_over '>=' 0.9 "PLB off: the hash collides, a core port stays over target (the scenario can fail)"
out=$($ls --plb=on) || { echo "sim: dccsim failed"; fail=$((fail + 1)); }
echo "$out"
assert swift repaths '>=' 1 "PLB on: congested connections repath"
assert swift core_over '<' 0.3 "PLB on: the core ports are over target a fraction of the time"
assert swift util '>=' 0.85 "PLB on: the flows spread over the spines"
# A k=4 fat-tree (16 hosts, 20 switches), 10 Gbit/s, flow-hash ECMP.
# Bulk: each host to the host half the tree away (another pod), 5 ms.
ft="build/dccsim -q --topo=fattree --k=4"
out=$($ft --duration=5 --cc=swift,cubic) || { echo "sim: dccsim failed"; fail=$((fail + 1)); }
echo "$out"
cubic_util=$(echo "$out" | awk '$1 == "cubic" {print $2}')
# The hash puts some flows on shared links: CUBIC, which fills every
# buffer, gets 0.73 of the hosts' links here and swift 0.63 (its slowest
# flow 0.28 of the mean; Documentation/simulation.rst, fat-tree).
assert swift util '>=' "$(awk -v c="${cubic_util:-9}" 'BEGIN{print 0.8 * c}')" \
	"fat-tree: swift fills the paths the hash gave, within 20 % of CUBIC"
assert swift drops '==' 0 "fat-tree: swift drops nothing"
assert swift q_p99 '<' 60 "fat-tree: the busiest port's queue near swift's target (25 us + hops), not the buffer"
assert cubic q_p99 '>' 100 "fat-tree: CUBIC queues far deeper (the scenario can fail)"
# 100:1 incast of 64 KB to host 0 (senders spread over the other 15
# hosts); ports of 1000 packets hold the first round's initial windows
# (100 x 10 packets, less what drains meanwhile).
out=$($ft --workload=incast --hosts=100 --buffer=1000 --cc=swift,cubic) ||
	{ echo "sim: dccsim failed"; fail=$((fail + 1)); }
echo "$out"
assert swift drops '==' 0 "fat-tree 100:1 incast: swift loses nothing"
assert swift rtos '==' 0 "fat-tree 100:1 incast: no retransmit timeout"
assert swift 'done' '==' 100/100 "fat-tree 100:1 incast: every flow completes"
assert cubic drops '>' 0 "fat-tree 100:1 incast: CUBIC overflows the port (the scenario can fail)"
# Bad input: one line on stderr, exit status 2, nothing simulated.
for bad in --cc=reno --topo=ring --rate=0 --buffer=10\ --ecn-k=10 --hosts=x --nope=1 \
	--aqm=wred --ecmp=random --ping-hz=-1 --access-rate=0 --plb=1 --hosts=1.5 \
	--leaves=4 --topo=bed\ --plb=on --incast-kb=8 --workload=incast\ --duration=5 \
	--topo=fattree\ --k=5 --k=4 --workload=open --topo=fattree\ --workload=open\ --load=100 \
	--topo=fattree\ --workload=open\ --cdf=pareto --topo=fattree\ --hosts=5 --load=50 --routing=nix --step=5 --workload=joinleave\ --topo=leafspine \
	--aqm=junos\ --junos-fill=0 --red-pmax=0.5 --aqm=red\ --ecn-k=65\ --red-kmax=60; do
	# shellcheck disable=SC2086
	err=$(build/dccsim $bad 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] &&
	   [[ "$err" == dccsim:* ]]; then
		echo "ok: bad input '$bad' refused: $err"
		pass=$((pass + 1))
	else
		echo "FAILED: bad input '$bad': exit $rc, stderr '$err'"
		fail=$((fail + 1))
	fi
done
echo "sim: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
