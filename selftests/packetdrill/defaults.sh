#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by every script here (packetdrill runs it in its own network
# namespace): the TCP settings the scripts' packets assume, as upstream
# packetdrill's gtests/net/common/defaults.sh sets them, and the congestion
# control under test from $CC (tcp_packetdrill.sh sets it).
sysctl -q net.ipv4.tcp_rmem="4096 540000 $((15*1024*1024))"
sysctl -q net.ipv4.tcp_wmem="4096 $((256*1024)) 4194304"
sysctl -q net.ipv4.tcp_timestamps=0
sysctl -q net.ipv4.tcp_sack=1
sysctl -q net.ipv4.tcp_frto=2
sysctl -q net.ipv4.tcp_slow_start_after_idle=0
sysctl -q net.ipv4.tcp_early_retrans=4 net.ipv4.tcp_recovery=1
sysctl -q net.ipv4.tcp_ecn=1
sysctl -q net.ipv4.tcp_congestion_control="${CC:?CC: the congestion control under test}"
tc qdisc add dev tun0 root pfifo
