#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Plots of figures.sh's scenarios (matplotlib, Agg backend): one PNG per
scenario in the output folder, from the tables and the --dump files."""
import glob
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "out"
# One colour per cc in every panel, whichever ccs a panel has.
COLOR = {"swift": "C0", "timely": "C1", "timely-patched": "C7", "dcqcn": "C2",
         "dctcp": "C3", "cubic": "C4", "bbr": "C5"}
BUCKETS = [(0, 1e4, "<10K"), (1e4, 1e5, "10K-100K"), (1e5, 1e6, "100K-1M"),
           (1e6, 1e7, "1M-10M"), (1e7, 1e12, ">10M")]


def table(path):
    """The rows of a dccsim table: {cc: {column: value}}."""
    rows, head = {}, None
    for line in open(path):
        if line.startswith("cc "):
            head = line.split()
        elif head and line.strip() and not line.startswith("#") and not line.startswith("=="):
            f = line.split()
            rows[f[0]] = dict(zip(head, f))
    return rows


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p / 100 * len(v)))] if v else float("nan")


def fct():
    loads = sorted({int(m.group(1)) for f in glob.glob(f"{OUT}/fct-*.fct")
                    if (m := re.search(r"fct-(\d+)-", f))})
    if not loads:
        return
    fig, ax = plt.subplots(2, len(loads), figsize=(4.5 * len(loads), 7), squeeze=False)
    for j, load in enumerate(loads):
        for f in sorted(glob.glob(f"{OUT}/fct-{load}-*.fct")):
            cc = f.rsplit("-", 1)[1][:-4]
            sl = [[] for _ in BUCKETS]
            for line in open(f):
                b, t, ideal = map(float, line.split())
                for i, (lo, hi, _) in enumerate(BUCKETS):
                    if lo <= b < hi:
                        sl[i].append(t / ideal)
            for r, p in enumerate((50, 99)):
                ax[r][j].plot(range(len(BUCKETS)), [pct(v, p) for v in sl], "o-", label=cc,
                                 color=COLOR.get(cc))
        for r, p in enumerate((50, 99)):
            a = ax[r][j]
            a.set_yscale("log")
            a.set_xticks(range(len(BUCKETS)), [b[2] for b in BUCKETS])
            a.set_title(f"web search, {load} % load: p{p} slowdown")
            a.set_xlabel("flow size (bytes)")
            a.grid(True, which="both", alpha=0.3)
    for a in ax.flat:
        a.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(f"{OUT}/fct.png", dpi=110)
    print(f"plot: {OUT}/fct.png")


def incast():
    runs = sorted((int(re.search(r"incast-(\d+)", f).group(1)), f)
                  for f in glob.glob(f"{OUT}/incast-*.txt"))
    if not runs:
        return
    data = {}
    for n, f in runs:
        for cc, row in table(f).items():
            data.setdefault(cc, []).append((n, row))
    fig, ax = plt.subplots(1, 4, figsize=(18, 4))
    for cc, pts in data.items():
        ns = [n for n, _ in pts]
        ax[0].plot(ns, [float(r["fct_ms"]) / float(r["ideal"]) for _, r in pts], "o-", label=cc, color=COLOR.get(cc))
        ax[1].plot(ns, [int(r["drops"]) + 0.5 for _, r in pts], "o-", label=cc, color=COLOR.get(cc))
        ax[2].plot(ns, [float(r["q_max"]) for _, r in pts], "o-", label=cc, color=COLOR.get(cc))
        ax[3].plot(ns, [max(float(r["min_cw"]), 1e-3) for _, r in pts], "o-", label=cc, color=COLOR.get(cc))
    for a, t in zip(ax, ["completion / ideal", "drops (+0.5)", "queue peak (us)",
                         "smallest window (packets)"]):
        a.set_xscale("log")
        a.set_yscale("log")
        a.set_xlabel("senders (N:1, 64 KB each, 100 Gbit/s)")
        a.set_title(t)
        a.grid(True, which="both", alpha=0.3)
    ax[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(f"{OUT}/incast.png", dpi=110)
    print(f"plot: {OUT}/incast.png")


def q95():
    rates = sorted({int(m.group(1)) for f in glob.glob(f"{OUT}/q95-*.q")
                    if (m := re.search(r"q95-(\d+)-", f))})
    if not rates:
        return
    fig, ax = plt.subplots(2, len(rates), figsize=(6 * len(rates), 8), squeeze=False)
    for j, rate in enumerate(rates):
        for f in sorted(glob.glob(f"{OUT}/q95-{rate}-*.q")):
            cc = f.rsplit("-", 1)[1][:-2]
            pts = [tuple(map(float, l.split())) for l in open(f)]
            n = sum(c for _, c in pts)
            acc, xs, ys = 0, [], []
            for us, c in pts:
                acc += c
                xs.append(us)
                ys.append(acc / n)
            ax[0][j].step(xs, ys, where="post", label=cc, color=COLOR.get(cc))
            r = [tuple(map(float, l.split())) for l in open(f[:-2] + ".rtt")]
            if r:
                ax[1][j].plot([v for _, v in r], [p / 100 for p, _ in r], label=cc, color=COLOR.get(cc))
        ax[0][j].set_title(f"{rate} Gbit/s, 95 % load: busiest port's queue (us)")
        ax[1][j].set_title(f"{rate} Gbit/s, 95 % load: per-ACK RTT (us)")
        for a in (ax[0][j], ax[1][j]):
            a.set_xscale("symlog", linthresh=1)
            a.set_ylabel("CDF")
            a.grid(True, which="both", alpha=0.3)
    ax[0][0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(f"{OUT}/q95.png", dpi=110)
    print(f"plot: {OUT}/q95.png")


def joinleave():
    files = sorted(glob.glob(f"{OUT}/jl-*.jl"))
    if not files:
        return
    fig, ax = plt.subplots(2, 4, figsize=(18, 7), squeeze=False)
    panels = iter(ax.flat[1:])
    for f in files:
        cc = f[len(f"{OUT}/jl-"):-3]
        rows = [list(map(float, l.split())) for l in open(f)]
        t = [r[0] for r in rows]
        ax[0][0].plot([x for x, r in zip(t, rows) if r[1] >= 0], [r[1] for r in rows if r[1] >= 0],
                      ".-", label=cc, color=COLOR.get(cc))
        a = next(panels, None)
        if a is None:
            continue
        for i in range(3, len(rows[0])):
            a.step(t, [r[i] for r in rows], where="pre", label=f"flow {i - 3}")
        a.set_title(f"{cc}: each flow (Gbit/s per 1 ms)")
        a.set_xlabel("ms")
        a.grid(True, alpha=0.3)
    ax[0][0].set_title("Jain's index per 1 ms (2 flows or more)")
    ax[0][0].set_xlabel("ms")
    ax[0][0].grid(True, alpha=0.3)
    ax[0][0].legend(fontsize=7)
    ax[0][1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(f"{OUT}/joinleave.png", dpi=110)
    print(f"plot: {OUT}/joinleave.png")


def plb():
    """Tables of plb-*.txt: '# seed S PLB off|on' before each run."""
    files = sorted(glob.glob(f"{OUT}/plb-*.txt"))
    if not files:
        return
    fig, ax = plt.subplots(len(files), 3, figsize=(15, 3.6 * len(files)), squeeze=False)
    for j, f in enumerate(files):
        runs, key = {}, None
        head = None
        for line in open(f):
            m = re.match(r"# seed (\d+) PLB (on|off)", line)
            if m:
                key = (int(m.group(1)), m.group(2))
            elif line.startswith("cc "):
                head = line.split()
            elif key and head and line.startswith("swift"):
                runs[key] = dict(zip(head, line.split()))
        seeds = sorted({s for s, _ in runs})
        for c, (col, title) in enumerate([("core_over", "share of time a core port > 25 us"),
                                          ("util", "utilization of the flows' host links"),
                                          ("slowest", "slowest flow / mean")]):
            a = ax[j][c]
            for k, plb_ in enumerate(("off", "on")):
                a.bar([s + (k - 0.5) * 0.38 for s in seeds],
                      [float(runs.get((s, plb_), {}).get(col, "nan")) for s in seeds], 0.38,
                      label=f"PLB {plb_}", color="C3" if plb_ == "off" else "C0")
            a.set_xticks(seeds)
            a.set_xlabel("seed (ECMP hash salt)")
            a.set_title(f"{os.path.basename(f)[:-4]}: {title}", fontsize=9)
            a.set_ylim(0, 1.05)
            a.grid(True, axis="y", alpha=0.3)
        ax[j][0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(f"{OUT}/plb.png", dpi=110)
    print(f"plot: {OUT}/plb.png")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    fct()
    incast()
    q95()
    joinleave()
    plb()
