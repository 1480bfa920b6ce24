#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# timely can be chosen by sysctl, by setsockopt(TCP_CONGESTION) and per
# route with "ip route ... congctl".
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 ss

# shellcheck disable=SC2086
load_module tcp_timely $TIMELY_VM_PARAMS || exit $KSFT_FAIL
topo_dumbbell
trap topo_cleanup EXIT
allow_cc timely

# cc_of_flow NS: the congestion control ss reports for the flow to SRV.
cc_of_flow() {
	ip netns exec "$1" ss -tin state established dst "$SRV_IP" | awk '
		/^[ \t]/ { for (i = 1; i <= NF; i++)
			if ($i ~ /^(swift|timely|cubic|reno|dctcp)$/) { print $i; exit } }'
}

iperf_server 5201
in_srv "$DCC_BIN/incast" -s 6000 &
# flow_cc: start a 4 s transfer and print the congestion control ss
# reports for it, polling for up to 4 s (starting iperf3 in a namespace can
# take more than a second when the host is busy); then let it finish, so the
# iperf3 server is free for the next one.
flow_cc() {
	in_cli iperf3 -c "$SRV_IP" -p 5201 -t 4 >/dev/null 2>&1 &
	local pid=$! cc=
	for _ in $(seq 20); do
		sleep 0.2
		cc=$(cc_of_flow "$NS_CLI")
		[ -n "$cc" ] && break
	done
	echo "$cc"
	wait "$pid"
	return 0
}

# 1. sysctl: the namespace default.
in_cli sysctl -qw net.ipv4.tcp_congestion_control=timely
check "sysctl net.ipv4.tcp_congestion_control=timely is taken" \
	test "$(in_cli sysctl -n net.ipv4.tcp_congestion_control)" = timely
got=$(flow_cc)
check "a new connection uses the sysctl default (ss says '$got')" \
	test "$got" = timely
in_cli sysctl -qw net.ipv4.tcp_congestion_control=cubic
got=$(flow_cc)
check "back to cubic after the sysctl changes (ss says '$got')" \
	test "$got" = cubic

# 2. setsockopt(TCP_CONGESTION), read back after a transfer.
out=$(in_cli "$DCC_BIN/cc_sockopt" timely $SRV_IP 6000 1000000)
log "$out"
check "setsockopt(TCP_CONGESTION, timely) holds after a transfer" \
	test "${out%% *}" = cc=timely
in_cli "$DCC_BIN/cc_sockopt" no_such_cc >/dev/null 2>&1
check "setsockopt with an unknown name fails with ENOENT" test $? -eq 2

# 3. Per route: congctl on the route to SRV, namespace default cubic.
in_cli ip route add 10.0.2.0/24 via 10.0.1.254 congctl timely
check "route with congctl timely is installed" \
	sh -c "ip -n $NS_CLI route show 10.0.2.0/24 | grep -q 'congctl timely'"
got=$(flow_cc)
check "a connection on that route uses timely (ss says '$got')" \
	test "$got" = timely
in_cli ip route del 10.0.2.0/24
got=$(flow_cc)
check "without the route it is cubic again (ss says '$got')" \
	test "$got" = cubic

topo_cleanup
trap - EXIT
check "module unloads after the test" unload_module tcp_timely
finish
