#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PLB's names beside the kernel's own PLB (Documentation/plb.rst, "Names"):
# what the module creates is named after the module (tcp_plb: its
# parameters, /proc/net/tcp_plb_stat, the tcp_plb trace events), and what
# lives in a namespace Linux 6.2+'s built-in PLB also uses carries dcc_plb
# (exported symbols, the sysctl folder): on a kernel with the built-in PLB
# both load and neither's settings move the other's.  On 6.1 the built-in
# half is reported absent, not failed.
source "$(dirname "$0")/lib.sh"
require_root

grep -q '^tcp_plb ' /proc/modules || load_module tcp_plb ||
	skip "tcp_plb does not load"

check "module parameters under /sys/module/tcp_plb" \
	test -r /sys/module/tcp_plb/parameters/enabled
check "counters in /proc/net/tcp_plb_stat" \
	grep -q '^PlbRounds ' /proc/net/tcp_plb_stat
check "settings in net.dcc_plb" test -w /proc/sys/net/dcc_plb/enabled
tfs=/sys/kernel/tracing
[ -d $tfs/events ] || tfs=/sys/kernel/debug/tracing
[ -d $tfs/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
check "trace events under tcp_plb:" test -d $tfs/events/tcp_plb
# What the module exports for the congestion controls is dcc_plb_*; no
# symbol of the module is tcp_plb_* (the built-in PLB's prefix).
for sym in dcc_plb_ops dcc_plb_update_state dcc_plb_check_rehash \
	dcc_plb_update_state_upon_rto; do
	check "tcp_plb has $sym" \
		sh -c "awk '\$3 == \"$sym\" && \$4 == \"[tcp_plb]\"' /proc/kallsyms | grep -q ."
done
check "no tcp_plb_* symbol comes from the module" \
	sh -c "! awk '\$4 == \"[tcp_plb]\" && \$3 ~ /^tcp_plb_/' /proc/kallsyms | grep -q ."

if [ ! -e /proc/sys/net/ipv4/tcp_plb_enabled ]; then
	log "$(uname -r) has no built-in PLB (6.2+): nothing to coexist with"
	finish
fi

# Linux 6.2+: the built-in PLB (used by dctcp) is in vmlinux.
check "the built-in PLB's tcp_plb_update_state is the kernel's own" \
	sh -c "awk '\$3 == \"tcp_plb_update_state\" && NF == 3' /proc/kallsyms | grep -q ."
up0=$(sysctl -n net.ipv4.tcp_plb_enabled)
ours0=$(sysctl -n net.dcc_plb.enabled)
sysctl -qw net.dcc_plb.enabled=$((1 - ours0))
check "net.dcc_plb.enabled leaves net.ipv4.tcp_plb_enabled alone" \
	test "$(sysctl -n net.ipv4.tcp_plb_enabled)" = "$up0"
sysctl -qw net.ipv4.tcp_plb_enabled=$((1 - up0))
check "net.ipv4.tcp_plb_enabled leaves net.dcc_plb.enabled alone" \
	test "$(sysctl -n net.dcc_plb.enabled)" = "$((1 - ours0))"
sysctl -qw net.ipv4.tcp_plb_enabled="$up0"
sysctl -qw net.dcc_plb.enabled="$ours0"
check "the built-in PLB's settings are back" \
	test "$(sysctl -n net.ipv4.tcp_plb_enabled)" = "$up0"
finish
