# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Part of lib.sh (tests source lib.sh, which sources this): observing
# (tracefs, ss, the modules' counters, perf and bpftrace recipes) and
# measuring (iperf3, ping, nstat, incast rounds).

TRACEFS=/sys/kernel/tracing

# trace_start EVENTDIR: clear the trace buffer and enable one event;
# fails if the event is not in tracefs.
trace_start() {
	[ -w "$1/enable" ] || return 1
	echo 0 > "$TRACEFS/tracing_on"
	echo > "$TRACEFS/trace"
	echo 4096 > "$TRACEFS/buffer_size_kb"
	echo 1 > "$1/enable"
	echo 1 > "$TRACEFS/tracing_on"
}

# ss_during_flow CC SECS: run a bulk flow CLI -> SRV (port 5201) and print
# the info line ss shows for it half-way through (the one with bbr:(...)).
ss_during_flow() {
	local cc=$1 secs=$2 pid line
	iperf_flow "$cc" "$secs" 5201 > /dev/null &
	pid=$!
	sleep $((secs / 2))
	line=$(in_cli ss -tine state established dst "$SRV_IP" dport = :5201 |
	       tee "${SS_SAVE:-/dev/null}" |
	       grep -E "^[[:space:]].*$cc.*bbr:\\(" | head -n 1)
	# CCINFO_SAVE=FILE: the same moment through cc_info -s (cc_info.c),
	# which decodes what the BBR layout means for our modules.
	[ -z "${CCINFO_SAVE:-}" ] ||
		in_cli "$DCC_BIN/cc_info" -s "$cc" > "$CCINFO_SAVE" 2>&1
	wait $pid
	echo "$line"
}

# mod_stat NS FILE NAME: a counter from /proc/net/FILE in a namespace
# (-1 if absent).
mod_stat() {
	ip netns exec "$1" cat "/proc/net/$2" |
		awk -v n="$3" '$1 == n { print $2; f = 1 } END { if (!f) print -1 }'
}

# mod_nstat NS FILE HIST ARGS...: iproute2's nstat over a module's counter
# file, as admin-guide.rst tells operators to run it (the file has
# /proc/net/snmp6's "Name value" layout, so PROC_NET_SNMP6 points nstat at
# it; the kernel's own tables are left out; HIST is the history file that
# keeps the deltas apart from the user's default one).
mod_nstat() {
	local ns=$1 file=$2 hist=$3
	shift 3
	ip netns exec "$ns" env NSTAT_HISTORY="$hist" \
		PROC_NET_SNMP6="/proc/net/$file" PROC_NET_NETSTAT=/dev/null \
		PROC_NET_SNMP=/dev/null nstat "$@"
}

# check_perf_event SYSTEM:EVENT CC: perf stat counts the tracepoint during
# a short CC transfer CLI -> SRV (sink on port 6000).  Skipped when perf is
# missing or does not match the running kernel.
check_perf_event() {
	local ev=$1 cc=$2 cnt
	if ! command -v perf >/dev/null ||
	   ! perf stat -e "$ev" -a -x, -o /dev/null true >/dev/null 2>&1; then
		log "perf unavailable or not matching the kernel: perf check skipped"
		return 0
	fi
	cnt=$(perf stat -e "$ev" -a -x, -- \
	      ip netns exec "$NS_CLI" "$DCC_BIN/cc_info" "$cc" \
	      "$SRV_IP" 6000 2000000 2>&1 >/dev/null |
	      awk -F, -v e="${ev#*:}" '$0 ~ e { print $1 + 0 }')
	expect "perf stat counts $ev (${cnt:-none})" "${cnt:-0} > 0"
}

# check_bpftrace_recipe EVENT CC: admin-guide.rst's bpftrace one-liner
# (events per socket cookie) sees EVENT during a short CC flow CLI -> SRV.
check_bpftrace_recipe() {
	local ev=$1 cc=$2 out pid n
	if ! command -v bpftrace >/dev/null; then
		log "SKIP bpftrace recipe: bpftrace not installed"
		return 0
	fi
	out=$(mktemp)
	bpftrace -e "tracepoint:$ev { @events[args->sock_cookie] = count(); }" \
		> "$out" 2>&1 &
	pid=$!
	if ! slowwait 120 grep -q '^Attaching' "$out"; then
		log "bpftrace did not attach: $(head -c 300 "$out")"
		kill -INT $pid 2>/dev/null
		wait $pid
		check "bpftrace attaches to $ev" false
		rm -f "$out"
		return
	fi
	iperf_flow "$cc" 1 5201 > /dev/null
	kill -INT $pid
	wait $pid
	# @events[COOKIE]: COUNT, one line per connection
	n=$(awk -F': ' '/^@events\[/ { s += $2 } END { print s + 0 }' "$out")
	log "bpftrace: $(grep -c '^@events' "$out") sockets, $n events"
	expect "bpftrace one-liner counts $ev per socket cookie ($n)" "$n > 0"
	rm -f "$out"
}

# --- measurements -------------------------------------------------------

# percentile P: print the P-th percentile of numbers on stdin.
percentile() {
	sort -n | awk -v p="$1" '{ v[NR] = $1 }
		END { if (!NR) { print "nan"; exit }
		      i = int(NR * p / 100 + 0.999999); if (i < 1) i = 1
		      if (i > NR) i = NR; print v[i] }'
}

# ping_rtts COUNT INTERVAL [TOS]: RTTs in microseconds, CLI -> SRV, one a
# line.  TOS 2 sends the probes as ECT(0), so that an ECN-marking queue
# marks them as it marks the flows instead of dropping them.  The first
# PING_SKIP (5) probes are sent but not reported: they time the ping
# process's own start-up too.  On the VM's one vCPU, busy with 4 paced
# flows through a jittered sender link (bench scenario 7, data path,
# 200 us), the first 1-3 replies read 6-19 ms while the flows' packets
# through the same FIFO at the same moment read at most 3.2 ms (the timely
# trace of that cell): a p99 of 150 probes is their second highest.
PING_SKIP=${PING_SKIP:-5}
ping_rtts() {
	in_cli ping -n -c "$(($1 + PING_SKIP))" -i "$2" -W 1 ${3:+-Q "$3"} \
		"$SRV_IP" 2>/dev/null |
		awk -F'time=' -v skip="$PING_SKIP" '/time=/ {
			seq = $1; sub(/.*icmp_seq=/, "", seq); sub(/ .*/, "", seq)
			if (seq + 0 <= skip) next
			split($2, a, " "); printf "%d\n", a[1] * 1000 }'
}

# mean_mbps FILE FROM TO: mean goodput (Mbit/s) of the iperf3 intervals
# (iperf3 -J -i ...) in FILE that lie in [FROM, TO) seconds; 0 if none.
mean_mbps() {
	jq -r --argjson a "$2" --argjson b "$3" '[.intervals[].sum
		| select(.start >= $a - 0.01 and .end <= $b + 0.01)
		| .bits_per_second] | if length == 0 then 0
		else add / length / 1e6 end' < "$1"
}

iperf_server() {
	in_srv iperf3 -s -D -p "${1:-5201}" >/dev/null 2>&1
	wait_listen "${1:-5201}"
}

# iperf_flow CC SECONDS [PORT] [extra iperf3 args]: JSON on stdout.
iperf_flow() {
	local cc=$1 secs=$2 port=${3:-5201}
	shift 3 2>/dev/null || shift $#
	in_cli iperf3 -c "$SRV_IP" -p "$port" -C "$cc" -t "$secs" -J "$@"
}

# Receiver goodput (Mbit/s) and sender retransmits from iperf3 JSON.
iperf_mbps() { jq -r '.end.sum_received.bits_per_second / 1e6'; }
iperf_retrans() { jq -r '.end.sum_sent.retransmits // 0'; }

# nstat_get NS COUNTER: absolute value of a TCP MIB counter in a namespace.
nstat_get() {
	ip netns exec "$1" nstat -az "$2" 2>/dev/null |
		awk -v c="$2" '$1 == c { print $2; f = 1 } END { if (!f) print 0 }'
}

# bulk_run CC SECS FLOWS OUT [HZ] [WARM] [PORT]: FLOWS bulk flows (one
# iperf3 -P FLOWS, 0.5 s intervals) CLI -> SRV for SECS seconds, and from
# WARM seconds (default 2) until 1 s before the end an RTT probe through
# the same queue: ping at HZ per second (default 50), ECT(0).  Writes
# OUT.json (iperf3) and OUT.rtt (us, one a line).  Needs iperf_server.
bulk_run() {
	local cc=$1 secs=$2 flows=$3 out=$4 hz=${5:-50} warm=${6:-2}
	local port=${7:-5201} pid n
	iperf_flow "$cc" "$secs" "$port" -P "$flows" -i 0.5 > "$out.json" &
	pid=$!
	sleep "$warm"
	n=$(awk -v s="$secs" -v w="$warm" -v h="$hz" \
		'BEGIN { n = int((s - w - 1) * h); print n < 1 ? 1 : n }')
	ping_rtts "$n" "$(awk -v h="$hz" 'BEGIN { print 1 / h }')" 2 > "$out.rtt"
	wait $pid
}

# measure_bulk CC SECS [PORT]: one bulk flow CLI -> SRV for SECS seconds
# with a 50 Hz ping through the same queue after a 2 s warm-up.  Prints
# "goodput_mbps rtt_p50_us rtt_p99_us retransmits".  Needs iperf_server.
measure_bulk() {
	local cc=$1 secs=$2 port=${3:-5201} tmp p50 p99
	tmp=$(mktemp -d)
	bulk_run "$cc" "$secs" 1 "$tmp/b" 50 2 "$port"
	p50=$(percentile 50 < "$tmp/b.rtt")
	p99=$(percentile 99 < "$tmp/b.rtt")
	echo "$(iperf_mbps < "$tmp/b.json") $p50 $p99 $(iperf_retrans < "$tmp/b.json")"
	rm -rf "$tmp"
}

# incast_round N BYTES CC [PORT]: one N-to-1 incast (BYTES a flow, all
# starting at once, congestion control CC) to the incast sink on SRV
# (PORT, default 6000).  Prints incast's line and, for the round, CLI's
# retransmit timeouts and retransmitted segments and the bottleneck's
# drops: "... rtos=R retrans=X drops=D".  Exit status: incast's.
incast_round() {
	local n=$1 bytes=$2 cc=$3 port=${4:-6000} rto0 rtx0 d0 rto1 rtx1 out rc
	read -r rto0 rtx0 <<< "$(_rto_retrans)"
	d0=$(bottleneck_drops)
	out=$(in_cli timeout 60 "$DCC_BIN/incast" -c "$SRV_IP" "$port" "$n" \
		"$bytes" "$cc")
	rc=$?
	read -r rto1 rtx1 <<< "$(_rto_retrans)"
	echo "$out rtos=$((rto1 - rto0)) retrans=$((rtx1 - rtx0))" \
	     "drops=$(($(bottleneck_drops) - d0))"
	return $rc
}

# _rto_retrans: CLI's "TcpExtTCPTimeouts TcpRetransSegs" (one nstat).
_rto_retrans() {
	in_cli nstat -az TcpExtTCPTimeouts TcpRetransSegs 2>/dev/null | awk '
		$1 == "TcpExtTCPTimeouts" { t = $2 } $1 == "TcpRetransSegs" { r = $2 }
		END { print t + 0, r + 0 }'
}

# iperf_server_log PORT FILE [INTERVAL]: an iperf3 server on SRV (run it
# in the background; topo_cleanup ends it) that reports what it received
# every INTERVAL seconds (default 0.25), each line stamped with the
# guest's clock when it was printed ($EPOCHREALTIME), appended to FILE:
# the flows of several servers can be put on one time line.
iperf_server_log() {
	in_srv iperf3 -s -p "$1" -i "${3:-0.25}" --forceflush 2>&1 |
		while IFS= read -r l; do echo "$EPOCHREALTIME $l"; done >> "$2"
}

# ss_acked_log NS DPORT INTERVAL OUT: until killed, every INTERVAL seconds
# append to OUT one line per established connection of NS to port DPORT
# (or to a port in the range A-B) whose congestion control is not cubic
# (iperf3's control connection is):
# "TIME SPORT BYTES_ACKED", TIME the guest's clock ($EPOCHREALTIME).  What
# the kernel says each flow delivered, where iperf3's client intervals
# count what the application wrote (128 KB at a time).
ss_acked_log() {
	local ns=$1 dport=$2 ival=$3 out=$4 f
	f="dport = :$dport"
	case $dport in
	*-*) f="( dport >= :${dport%-*} and dport <= :${dport#*-} )" ;;
	esac
	while :; do
		ip netns exec "$ns" ss -tinH state established "$f" |
			awk -v t="$EPOCHREALTIME" '
			$1 ~ /^[0-9]+$/ && $3 ~ /:/ { n = split($3, a, ":"); p = a[n]; next }
			/bytes_acked:/ && !/ cubic / {
				for (i = 1; i <= NF; i++)
					if ($i ~ /^bytes_acked:/) {
						sub(/bytes_acked:/, "", $i)
						print t, p, $i
					}
			}' >> "$out"
		sleep "$ival"
	done
}

# fair_figures N LOG [LAST]: from ss_acked_log's LOG of N flows, the
# samples where all N are connected (one time line, the guest's clock, so
# flows started at different times are compared over the same seconds);
# prints "JAIN WORST WORST_AT MBPS X1 ... XN": Jain's index of the bytes
# each flow delivered over the last LAST (default 4) seconds in which all
# were connected, the smallest share (of total / N) any flow got in an
# interval starting 1 s or more after all were connected, when (s), the
# total goodput and each flow's (Mbit/s, in the order the flows appeared)
# over those seconds.  "0 0 0 0" if the N flows were never connected
# together.
fair_figures() {
	awk -v n="$1" -v last_s="${3:-4}" '
		{ if ($1 != t) { t = $1; k++; tm[k] = $1; cnt[k] = 0 }
		  cnt[k]++; b[k, $2] = $3
		  if (!($2 in ports)) { ports[$2] = 1; order[++np] = $2 } }
		END {
			for (i = 1; i <= k; i++)
				if (cnt[i] == n) { if (!first) first = i; last = i }
			if (!first || last == first) { print "0 0 0 0"; exit }
			worst = 1e9
			for (i = first + 1; i <= last; i++) {
				if (tm[i - 1] < tm[first] + 1 || cnt[i - 1] != n ||
				    cnt[i] != n)
					continue
				s = 0; mn = -1
				for (p in ports) {
					if (!((i, p) in b)) continue
					d = b[i, p] - b[i - 1, p]
					s += d
					if (mn < 0 || d < mn) mn = d
				}
				f = s ? mn / (s / n) : 0
				if (f < worst) { worst = f; at = tm[i] - tm[first] }
			}
			if (worst == 1e9) { worst = 0; at = 0 }
			for (r = first; r < last && tm[r] < tm[last] - last_s; r++) ;
			s = 0; s2 = 0; xs = ""
			for (j = 1; j <= np; j++) {
				p = order[j]
				if (!((last, p) in b) || !((r, p) in b)) continue
				x = b[last, p] - b[r, p]; s += x; s2 += x * x
				xs = xs sprintf(" %.1f", x * 8 / 1e6 / (tm[last] - tm[r]))
			}
			printf "%.4f %.2f %.1f %.1f%s\n", s2 ? s * s / (n * s2) : 0,
			       worst, at, s * 8 / 1e6 / (tm[last] - tm[r]), xs
		}' "$2"
}
