#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make -C sim scale: how the simulator's cost grows with hosts and link
# rate (Documentation/simulation.rst, "Scaling").  Leaf-spine, 5 leaves
# (senders on 4), one spine per 4 hosts so that the load grows with the
# hosts, one bulk flow per sender, 2 ms simulated; swift and dctcp.
# Minutes of CPU time: not part of make sim.
set -euo pipefail
cd "$(dirname "$0")"
for h in 16 64 128; do
	echo "== $h hosts, 10 Gbit/s"
	build/dccsim -q --topo=leafspine --leaves=5 --spines=$((h / 4)) --hosts=$h \
		--rate=10 --duration=2 --cc=swift,dctcp
done
for r in 25 100; do
	echo "== 16 hosts, $r Gbit/s"
	build/dccsim -q --topo=leafspine --leaves=5 --spines=4 --hosts=16 \
		--rate=$r --duration=2 --cc=swift,dctcp
done
