#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# swift can be chosen by sysctl, by setsockopt(TCP_CONGESTION) and per
# route with "ip route ... congctl" (check_cc_selection in lib.sh).
. "$(dirname "$0")/lib.sh"
require_root
require_cmd iperf3 ss

trap topo_cleanup EXIT
# shellcheck disable=SC2086
check_cc_selection swift tcp_swift
trap - EXIT
finish
