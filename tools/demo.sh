#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo (make demo): boot the test VM and run the bundled default
# scenario with swift and with cubic, side by side, then print a table.
#
# Scenario: one sender, one receiver, a 100 Mbit/s bottleneck with a deep
# drop-tail FIFO (1000 packets) and 250 us of delay on the ACK path; a bulk
# flow for SECS seconds with a 50 Hz ping through the same queue.
# Environment: CCS (default "cubic swift"; also timely, timely-patched and
# any congestion control the kernel has), SECS (8), RUNS (1).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" != --guest ]; then
	tools/deps.sh --check >/dev/null || tools/deps.sh
	make -s modules >/dev/null
	make -s -C selftests all >/dev/null
	exec tools/vm/run --timeout 600 --env CCS --env SECS --env RUNS \
		-- "$PWD/tools/demo.sh" --guest
fi

# --- in the guest (lib.sh is written for plain bash, not set -e) ---
set +e
. selftests/lib.sh
CCS=${CCS:-cubic swift}
SECS=${SECS:-8}
RUNS=${RUNS:-1}
load_module tcp_swift >/dev/null
load_module tcp_timely >/dev/null
for cc in $CCS; do
	case $cc in cubic | reno | swift | timely*) ;; *) load_stock_cc "$cc" ;; esac
done
topo_dumbbell
trap topo_cleanup EXIT
topo_shape 100 250 1000
allow_cc swift timely
iperf_server 5201
idle=$(ping_rtts 50 0.01 | percentile 50)

echo "scenario: 100 Mbit/s bottleneck, 1000-packet FIFO, 250 us ACK-path delay"
echo "kernel: $(uname -r); clock: $DCC_VM_CLOCK; idle RTT p50: $idle us"
echo "modules at their shipped defaults; the parameters in force:"
for m in tcp_swift tcp_timely; do
	case " $CCS " in *" ${m#tcp_}"*) echo "  $m: $(module_params "$m")" ;; esac
done
printf '\n%-15s %4s %14s %14s %14s %8s\n' cc run "goodput Mbit/s" "RTT p50 us" "RTT p99 us" retrans
for cc in $CCS; do
	name=$(cc_use "$cc")
	for r in $(seq "$RUNS"); do
		read -r mbps p50 p99 retr <<< "$(measure_bulk "$name" "$SECS")"
		printf '%-15s %4d %14.1f %14d %14d %8d\n' "$cc" "$r" "$mbps" "$p50" "$p99" "$retr"
	done
done
