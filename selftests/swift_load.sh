#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcp_swift: load and unload, registration, parameters (good and bad
# values, at load time and at run time), unloading while in use.
. "$(dirname "$0")/lib.sh"
require_root

MOD=tcp_swift
AVAIL=/proc/sys/net/ipv4/tcp_available_congestion_control

check "module loads" load_module $MOD
check "swift is in tcp_available_congestion_control" grep -qw swift $AVAIL
check "modinfo: license GPL" \
	sh -c "modinfo -F license $(ko_path $MOD) | grep -qx GPL"
check "modinfo: parameters document units and ranges" \
	sh -c "modinfo -F parm $(ko_path $MOD) | grep -q 'md_beta_permille:.*1/1000.*range 1-1000'"

# Every parameter is readable and holds a number.
check_params_readable $MOD

# Run-time writes: good values are taken, bad ones refused with a message
# and the old value kept.
check "a valid value is accepted" set_param $MOD md_beta_permille 700
check "and read back" test "$(get_param $MOD md_beta_permille)" = 700
check_bad_writes $MOD md_beta_permille:0 md_beta_permille:1001 md_beta_permille:-1 \
	  md_beta_permille:99999999999 md_beta_permille:abc \
	  max_mdf_permille:1000 ai_mpkt:0 min_cwnd_mpkt:0 \
	  target_rel_minrtt:2 retx_reset_threshold:0 \
	  max_cwnd_pkts:70000 pacing_headroom_pct:99 "hops:1 2"
# Cross-parameter checks.
check "min_cwnd above max_cwnd is refused" bad_write $MOD min_cwnd_mpkt 300000
set_param $MOD fs_min_cwnd_mpkt 5000
check "fs_max_cwnd_pkts at or below fs_min_cwnd is refused" \
	bad_write $MOD fs_max_cwnd_pkts 5
set_param $MOD fs_max_cwnd_pkts 8
check "fs_min_cwnd at or above fs_max_cwnd is refused" \
	bad_write $MOD fs_min_cwnd_mpkt 8000
check "unload" unload_module $MOD
check "swift is gone from tcp_available_congestion_control" \
	sh -c "! grep -qw swift $AVAIL"

# Load-time parameters: good ones are applied, a bad one fails the load.
check "load with parameters" load_module $MOD base_target_us=300 hops=4
check "load-time parameter applied" \
	test "$(get_param $MOD base_target_us)" = 300
unload_module $MOD
check "load with md_beta_permille=0 fails" \
	sh -c "! insmod $(ko_path $MOD) md_beta_permille=0 2>/dev/null"
check "and leaves nothing loaded" sh -c "! grep -q '^$MOD ' /proc/modules"
check "load with a non-numeric value fails" \
	sh -c "! insmod $(ko_path $MOD) hops=many 2>/dev/null"

# Unloading while a socket uses the module is refused; afterwards it works.
check_unload_in_use $MOD swift 5301

finish
