#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dcqcn can be chosen by sysctl, by setsockopt(TCP_CONGESTION) and per
# route with "ip route ... congctl" (check_cc_selection in lib.sh; the
# receivers run dcqcn too, as both ends of a DCTCP connection run DCTCP),
# and a connection that does not negotiate ECN falls back to Reno
# ("dcqcn-reno", as DCTCP falls back to "dctcp-reno"), carries its
# transfer and is counted in DcqcnFallback.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 ss

MOD=tcp_dcqcn
trap topo_cleanup EXIT
# shellcheck disable=SC2086
SRV_CC=dcqcn check_cc_selection dcqcn $MOD

# --- fallback without ECN -------------------------------------------------
# shellcheck disable=SC2086
load_module $MOD || exit $KSFT_FAIL
topo_dumbbell
allow_cc dcqcn
# The receiver refuses ECN (tcp_ecn=0: neither request nor accept it).
in_srv sysctl -qw net.ipv4.tcp_ecn=0
iperf_server 5201
fb0=$(mod_stat "$NS_CLI" tcp_dcqcn_stat DcqcnFallback)
in_cli iperf3 -c "$SRV_IP" -p 5201 -C dcqcn -t 3 -J > /tmp/dcqcn_fb.$$ &
pid=$!
cc=
for _ in $(seq 20); do
	sleep 0.2
	cc=$(in_cli ss -tin state established dst "$SRV_IP" dport = :5201 |
	     grep -oE 'dcqcn(-reno)?' | sort -u | tail -n 1)
	[ -n "$cc" ] && break
done
wait $pid
rc=$?
mbps=$(iperf_mbps < /tmp/dcqcn_fb.$$)
rm -f /tmp/dcqcn_fb.$$
log "without ECN: ss says '$cc', ${mbps} Mbit/s"
check "without ECN the connection falls back to dcqcn-reno" \
	test "$cc" = dcqcn-reno
check "and carries its transfer" test "$rc" -eq 0
expect "at a useful rate" "${mbps:-0} > 10"
fb1=$(mod_stat "$NS_CLI" tcp_dcqcn_stat DcqcnFallback)
expect "DcqcnFallback counts it ($fb0 -> $fb1)" "$fb1 > $fb0"
topo_cleanup
trap - EXIT
check "module unloads after the test" unload_module $MOD
finish
