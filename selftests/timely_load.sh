#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcp_timely: load and unload, registration, parameters (good and bad
# values, at load time and at run time, cross-parameter checks).
. "$(dirname "$0")/lib.sh"
require_root

MOD=tcp_timely
AVAIL=/proc/sys/net/ipv4/tcp_available_congestion_control

check "module loads" load_module $MOD
check "timely is in tcp_available_congestion_control" grep -qw timely $AVAIL
check "modinfo: license GPL" \
	sh -c "modinfo -F license $(ko_path $MOD) | grep -qx GPL"
check "modinfo: version set" \
	sh -c "modinfo -F version $(ko_path $MOD) | grep -q ."
check "modinfo: parameters document units and ranges" \
	sh -c "modinfo -F parm $(ko_path $MOD) | grep -q 't_high_us:.*microseconds.*range 1-1000000'"

# Every parameter is readable and holds a number.
check_params_readable $MOD
check "default variant is the paper's" test "$(get_param $MOD variant)" = 0
check "default T_high is the paper's 500 us" \
	test "$(get_param $MOD t_high_us)" = 500

check "a valid value is accepted" set_param $MOD beta_permille 700
check "and read back" test "$(get_param $MOD beta_permille)" = 700
check "variant=1 (patched) is accepted" set_param $MOD variant 1

check_bad_writes $MOD variant:2 beta_permille:0 beta_permille:1001 beta_permille:-1 \
	  beta_permille:abc ewma_alpha_permille:0 max_dec_permille:1000 \
	  delta_kbps:0 min_rtt_us:0 hai_n:0 line_rate_mbps:0 \
	  segment_bytes:0 cwnd_gain_pct:99 rtt_min_filter:2 \
	  start_rate_permille:0 "t_low_us:1 2"
# Cross-parameter checks (defaults: T 50/500 us, line 10000, min 1000 kbit/s).
check "t_low_us at or above t_high_us is refused" bad_write $MOD t_low_us 500
check "t_high_us at or below t_low_us is refused" bad_write $MOD t_high_us 50
check "max_rate_mbps above line_rate_mbps is refused" \
	bad_write $MOD max_rate_mbps 20000
check "max_rate_mbps below the line rate is accepted" \
	set_param $MOD max_rate_mbps 5000
check "line_rate_mbps below max_rate_mbps is refused" \
	bad_write $MOD line_rate_mbps 4000
check "min_rate_kbps above the ceiling (max_rate_mbps) is refused" \
	bad_write $MOD min_rate_kbps 6000000
check "unload" unload_module $MOD
check "timely is gone from tcp_available_congestion_control" \
	sh -c "! grep -qw timely $AVAIL"

# Load-time parameters in any order; a bad one fails the load.
check "load with parameters (t_low before t_high)" \
	load_module $MOD t_low_us=1000 t_high_us=3000 variant=1
check "load-time parameters applied" \
	test "$(get_param $MOD t_low_us)/$(get_param $MOD t_high_us)" = 1000/3000
unload_module $MOD
# shellcheck disable=SC2086
check "load at the shipped defaults" load_module $MOD
unload_module $MOD
check "load with beta_permille=0 fails" \
	sh -c "! insmod $(ko_path $MOD) beta_permille=0 2>/dev/null"
check "load with t_low_us >= t_high_us fails" \
	sh -c "! insmod $(ko_path $MOD) t_low_us=600 2>/dev/null"
check "load with min_rate above the line rate fails" \
	sh -c "! insmod $(ko_path $MOD) line_rate_mbps=10 min_rate_kbps=20000 2>/dev/null"
check "and leaves nothing loaded" sh -c "! grep -q '^$MOD ' /proc/modules"
check "load with a non-numeric value fails" \
	sh -c "! insmod $(ko_path $MOD) hai_n=many 2>/dev/null"

# Unloading while a socket uses the module is refused; afterwards it works.
check_unload_in_use $MOD timely 5302

finish
