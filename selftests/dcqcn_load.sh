#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcp_dcqcn: load and unload, registration, parameters (good and bad
# values, at load time and at run time, the rate cross-check), unload
# refused while a connection uses it.
. "$(dirname "$0")/lib.sh"
require_root

MOD=tcp_dcqcn
AVAIL=/proc/sys/net/ipv4/tcp_available_congestion_control

check "module loads" load_module $MOD
check "dcqcn is in tcp_available_congestion_control" grep -qw dcqcn $AVAIL
check "modinfo: license GPL" \
	sh -c "modinfo -F license $(ko_path $MOD) | grep -qx GPL"
check "modinfo: parameters document units and ranges" \
	sh -c "modinfo -F parm $(ko_path $MOD) | grep -q 'cnp_interval_us:.*microseconds.*range 1-10000000'"

check_params_readable $MOD
# The defaults (Documentation/dcqcn.rst): the paper's g, timers (floors:
# at least one RTT), F and notification interval; steps, byte counter and
# line rate relative / learnt (0).
for pv in g_q16:4096 alpha_period_us:55 timer_us:55 byte_counter_kb:0 \
	  fr_events:5 ai_rate_kbps:0 hai_rate_kbps:0 ai_rate_ppm:1000 \
	  hai_rate_ppm:10000 cnp_interval_us:50 min_rate_kbps:1000 \
	  line_rate_mbps:0 cwnd_gain_pct:200 loss_share:1; do
	check "default ${pv%%:*} is ${pv#*:}" \
		test "$(get_param $MOD "${pv%%:*}")" = "${pv#*:}"
done

check "a valid value is accepted" set_param $MOD g_q16 256
check "and read back" test "$(get_param $MOD g_q16)" = 256

check_bad_writes $MOD g_q16:0 g_q16:65537 g_q16:-1 g_q16:abc \
	alpha_period_us:0 timer_us:0 byte_counter_kb:4194304 fr_events:0 \
	ai_rate_kbps:1000000001 ai_rate_ppm:0 hai_rate_ppm:1000001 \
	cnp_interval_us:0 min_rate_kbps:0 line_rate_mbps:1000001 \
	cwnd_gain_pct:99 loss_share:2 loss_share:-1 "timer_us:1 2"
check "a line rate override is accepted" set_param $MOD line_rate_mbps 10000
check "min_rate_kbps above the line rate is refused" \
	bad_write $MOD min_rate_kbps 10000001
check "min_rate_kbps below the line rate is accepted" \
	set_param $MOD min_rate_kbps 50000
check "line_rate_mbps below min_rate_kbps is refused" \
	bad_write $MOD line_rate_mbps 40
check "line_rate_mbps kept" test "$(get_param $MOD line_rate_mbps)" = 10000
check "line_rate_mbps 0 (learnt only) is accepted with any floor" \
	set_param $MOD line_rate_mbps 0
check "loss_share 0 is accepted" set_param $MOD loss_share 0
check "loss_share 1 is accepted" set_param $MOD loss_share 1
check "unload" unload_module $MOD
check "dcqcn is gone from tcp_available_congestion_control" \
	sh -c "! grep -qw dcqcn $AVAIL"

# Load-time parameters in any order; a bad one fails the load.
# shellcheck disable=SC2086
check "load at the shipped defaults" load_module $MOD
check "no line rate set at the defaults (learnt)" \
	test "$(get_param $MOD line_rate_mbps)" = 0
unload_module $MOD
check "load with parameters" \
	insmod "$(ko_path $MOD)" line_rate_mbps=100 ai_rate_kbps=1000
check "load-time parameters applied" \
	test "$(get_param $MOD line_rate_mbps)/$(get_param $MOD ai_rate_kbps)" = 100/1000
unload_module $MOD
check "load with g_q16=0 fails" \
	sh -c "! insmod $(ko_path $MOD) g_q16=0 2>/dev/null"
check "load with min_rate above the line rate fails" \
	sh -c "! insmod $(ko_path $MOD) line_rate_mbps=10 min_rate_kbps=20000 2>/dev/null"
check "and leaves nothing loaded" sh -c "! grep -q '^$MOD ' /proc/modules"

# Unloading while a socket uses the module is refused; afterwards it works.
# (Loopback negotiates ECN: the module has ECN and TCP_CONG_NEEDS_ECN.)
check_unload_in_use $MOD dcqcn 5303

finish
