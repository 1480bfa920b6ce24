#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make sim: the scenarios of Documentation/simulation.rst, one table each,
# every cc on the same topology and seed; wall time and events/s per run.
set -euo pipefail
cd "$(dirname "$0")"
SIM=build/dccsim
t0=$(date +%s.%N)
echo "== 10 Gbit/s dumbbell, 8 bulk flows, 50 ms"
$SIM --topo=dumbbell --workload=bulk --hosts=8 --rate=10 --duration=50
echo
echo "== 10 Gbit/s dumbbell, 100:1 incast of 64 KB"
$SIM --topo=dumbbell --workload=incast --hosts=100 --rate=10 --incast-kb=64 --buffer=1000
echo
echo "== 10 Gbit/s leaf-spine (4 leaves, 2 spines), 12 bulk flows, 20 ms"
$SIM --topo=leafspine --leaves=4 --spines=2 --workload=bulk --hosts=12 --rate=10 --duration=20
echo
echo "== kernel agreement: make bench scenario 1 (100 Mbit/s, 1000-packet FIFO, 4 flows, 4 s)"
$SIM --topo=bed --aqm=fifo --rate=0.1 --delay=125 --hosts=4 --buffer=1000 --duration=4000 --ping-hz=100
echo
echo "== ECMP collision: 10 Gbit/s leaf-spine (2 leaves, 4 spines), 4 swift flows, 20 ms, PLB off and on"
for seed in 1 2 3; do
	for plb in off on; do
		echo "# seed $seed, PLB $plb"
		$SIM --topo=leafspine --leaves=2 --spines=4 --hosts=4 --duration=20 --cc=swift \
			--seed=$seed --plb=$plb | grep -v '^#'
	done
done
t1=$(date +%s.%N)
echo
echo "sim: all scenarios in $(echo "$t1 - $t0" | bc) s of wall time"
