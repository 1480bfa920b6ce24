#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Two make bench runs side by side: one Markdown table per scenario the
runs share, one row per congestion control, each chosen metric's median in
run A and in run B.  For a 6.1 run beside a 6.12 run (make bench-612), or a
tree before and after a change.

    tools/bench/compare.py [--labels A,B] [--keys K1,K2] DIR_A DIR_B

DIR_A and DIR_B are bench output folders (the sN.tsv files make bench
writes).  --keys picks metric keys (the tsv heading without "_median");
the default is goodput, RTT p99, Jain's index, slowest flow / mean, drops,
RTOs and the incast columns, where a table has them.  A cc or a scenario
missing from one run shows "-" in that run's column.  Exit 2 on bad input.
"""
import argparse
import os
import re
import sys

DEFAULT_KEYS = re.compile(r"^(util\d*|p99(_\d+)?|jain\d*|slowest|drops\d*|rtos|"
                          r"last\d+|rto\d+|conv|bshare|ashare)$")


def load(d):
    """{scenario: (keys, {cc: {key: median}})} from the sN.tsv files of d."""
    out = {}
    for f in os.listdir(d):
        m = re.match(r"^(s\d+[a-z]?)\.tsv$", f)
        if not m:
            continue
        lines = open(os.path.join(d, f)).read().splitlines()
        if not lines:
            continue
        head = lines[0].split("\t")
        keys = [h[:-len("_median")] for h in head if h.endswith("_median")]
        rows = {}
        for line in lines[1:]:
            cells = line.split("\t")
            rows[cells[0]] = {h[:-len("_median")]: v for h, v in zip(head, cells)
                              if h.endswith("_median")}
        out[m.group(1)] = (keys, rows)
    return out


def order(name):
    m = re.match(r"^s(\d+)(.*)$", name)
    return (int(m.group(1)), m.group(2))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", default="A,B")
    ap.add_argument("--keys", default="")
    ap.add_argument("a")
    ap.add_argument("b")
    args = ap.parse_args()
    labels = args.labels.split(",")
    if len(labels) != 2:
        print("compare: --labels takes two names, A,B", file=sys.stderr)
        return 2
    for d in (args.a, args.b):
        if not os.path.isdir(d):
            print("compare: %s is not a folder" % d, file=sys.stderr)
            return 2
    ra, rb = load(args.a), load(args.b)
    shared = sorted(set(ra) & set(rb), key=order)
    if not shared:
        print("compare: no scenario table (sN.tsv) in both %s and %s" % (args.a, args.b),
              file=sys.stderr)
        return 2
    want = set(args.keys.split(",")) if args.keys else None
    for s in shared:
        keys_a, rows_a = ra[s]
        keys = [k for k in keys_a if (k in want if want else DEFAULT_KEYS.match(k))]
        if not keys:
            continue
        ccs = list(rows_a) + [c for c in rb[s][1] if c not in rows_a]
        print("### %s\n" % s)
        head = ["cc"] + ["%s %s" % (k, l) for k in keys for l in labels]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for cc in ccs:
            cells = [cc]
            for k in keys:
                for rows in (rows_a, rb[s][1]):
                    cells.append(rows.get(cc, {}).get(k, "-"))
            print("| " + " | ".join(cells) + " |")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
