#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make -C sim scale: how the simulator's cost grows with hosts and link
# rate (Documentation/simulation.rst, "Scaling").  Leaf-spine, 5 leaves
# (senders on 4), one spine per 4 hosts so that the load grows with the
# hosts, one bulk flow per sender; 16, 64 and 128 hosts at 10 Gbit/s
# (2 ms simulated) and at 100 Gbit/s (1 ms); swift and dctcp.  The last
# row is the 128-host, 10 Gbit/s run again with ns-3's global routing.
# Minutes of CPU time: not part of make sim.
set -euo pipefail
cd "$(dirname "$0")"
CCS=${CCS:-swift,dctcp}
for r in 10 100; do
	for h in 16 64 128; do
		echo "== $h hosts, $r Gbit/s"
		build/dccsim -q --topo=leafspine --leaves=5 --spines=$((h / 4)) --hosts=$h \
			--rate=$r --duration=$((r == 100 ? 1 : 2)) --cc="$CCS"
	done
done
echo "== 128 hosts, 10 Gbit/s, ns-3's global routing"
build/dccsim -q --topo=leafspine --leaves=5 --spines=32 --hosts=128 --rate=10 --duration=2 \
	--cc="$CCS" --routing=global
