#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Put benchmark shards together into one results directory.

    tools/bench/merge.py OUT SHARD_DIR SHARD_DIR...

A shard is a make bench run of some of the scenarios (BENCH_SCENARIOS)
with otherwise the same settings, tree and modules, typically run side by
side with the others on a host with a core per VM: each VM counts its own
instructions (virtual time), so the figures do not depend on how many
shards share the host.  The shards must not overlap in scenarios and must
agree on everything else (tree, module build ids, guest kernel, clock,
every module's parameters, every bench setting but BENCH_SCENARIOS): the
merge refuses otherwise and says which.  --mixed-trees lets the trees
differ when the modules do not (a scenario added to the bench, run on a
newer tree as a shard of its own); run.txt names each tree's scenarios.  OUT gets the union of the raw
measurements, one params.env, guest.txt and run.txt (recording the
shards), and the report is rebuilt from them (tools/bench/report.py).
"""

import os
import re
import shutil
import subprocess
import sys


def die(msg):
    sys.stderr.write("merge: %s\n" % msg)
    sys.exit(1)


def read_lines(path):
    try:
        with open(path) as f:
            return [line.rstrip("\n") for line in f]
    except OSError as e:
        die("%s: %s" % (path, e.strerror))


def kv(lines, sep):
    d = {}
    for line in lines:
        if sep in line and not line.startswith(" "):
            k, v = line.split(sep, 1)
            d[k.strip()] = v.strip().strip('"')
    return d


def scen_key(k):
    """True for guest.txt keys that belong to one scenario (s7_secs)."""
    return re.match(r"s\d+[a-z]*_", k) is not None


def own_setting(k, p):
    """True for a scenario's setting (S13_RATE2) of a scenario the shard
    with params p ran."""
    m = re.match(r"S(\d+)_", k)
    return m is not None and m.group(1) in p.get("BENCH_SCENARIOS", "").split()


def main(argv):
    mixed = bool(argv) and argv[0] == "--mixed-trees"
    if mixed:
        argv = argv[1:]
    if len(argv) < 3:
        die("usage: tools/bench/merge.py [--mixed-trees] OUT SHARD_DIR "
            "SHARD_DIR...")
    out, shards = argv[0], argv[1:]
    if os.path.exists(out):
        die("%s exists: give a new directory" % out)
    P, G, R = [], [], []
    for d in shards:
        P.append(kv(read_lines(os.path.join(d, "params.env")), "="))
        G.append(kv(read_lines(os.path.join(d, "guest.txt")), "="))
        R.append(kv(read_lines(os.path.join(d, "run.txt")), ": "))
        if R[-1].get("status", "0") != "0":
            die("%s: the run failed (status %s)" % (d, R[-1]["status"]))

    # Everything but the scenario list must agree.
    for i in range(1, len(shards)):
        for name, a, b in (("params.env", P[0], P[i]),
                           ("guest.txt", G[0], G[i])):
            keys = set(a) | set(b)
            for k in sorted(keys):
                if k == "BENCH_SCENARIOS" or k == "vm_secs" or scen_key(k):
                    continue
                # A newer tree's scenario has settings the older lacks.
                if (k not in a and own_setting(k, P[i])) or \
                   (k not in b and own_setting(k, P[0])):
                    continue
                if a.get(k) != b.get(k):
                    die("%s and %s differ in %s %s: %r vs %r" %
                        (shards[0], shards[i], name, k, a.get(k), b.get(k)))
        for k in ("tree", "vm"):
            if R[0].get(k) != R[i].get(k) and not (k == "tree" and mixed):
                die("%s and %s differ in run.txt %s%s" % (
                    shards[0], shards[i], k, " (--mixed-trees allows it when "
                    "the modules are the same)" if k == "tree" else ""))
        m0 = [l for l in read_lines(os.path.join(shards[0], "run.txt"))
              if l.startswith("module: ")]
        mi = [l for l in read_lines(os.path.join(shards[i], "run.txt"))
              if l.startswith("module: ")]
        if m0 != mi:
            die("%s and %s were built from different modules" %
                (shards[0], shards[i]))

    scen, owner = [], {}
    for d, p in zip(shards, P):
        for s in p.get("BENCH_SCENARIOS", "").split():
            if s in owner:
                die("scenario %s is in %s and %s" % (s, owner[s], d))
            owner[s] = d
            scen.append(s)
    scen.sort(key=int)

    os.makedirs(os.path.join(out, "raw"))
    for s in scen:
        src = os.path.join(owner[s], "raw", "s" + s)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(out, "raw", "s" + s))
    for f in ("ackcost.md", "ackcost.tsv"):
        if os.path.exists(os.path.join(shards[0], f)):
            shutil.copy(os.path.join(shards[0], f), out)

    with open(os.path.join(out, "params.env"), "w") as f:
        for line in read_lines(os.path.join(shards[0], "params.env")):
            if line.startswith("BENCH_SCENARIOS="):
                line = 'BENCH_SCENARIOS="%s"' % " ".join(scen)
            f.write(line + "\n")
        for d, p in zip(shards[1:], P[1:]):
            for line in read_lines(os.path.join(d, "params.env")):
                k = line.split("=", 1)[0]
                if k not in P[0] and own_setting(k, p):
                    f.write(line + "\n")

    with open(os.path.join(out, "guest.txt"), "w") as f:
        for line in read_lines(os.path.join(shards[0], "guest.txt")):
            k = line.split("=", 1)[0]
            if k != "vm_secs" and not scen_key(k):
                f.write(line + "\n")
        # A shard's own scenarios' keys only (the guest may write a
        # scenario's settings, s7_ccs, whether or not it ran it).
        for g, p in zip(G, P):
            mine = p.get("BENCH_SCENARIOS", "").split()
            for k, v in g.items():
                if scen_key(k) and re.match(r"s(\d+)", k).group(1) in mine:
                    f.write("%s=%s\n" % (k, v))
        total = sum(float(g.get("vm_secs", "0")) for g in G)
        f.write("vm_secs=%.2f\n" % total)

    walls = [int(r["wall_secs"]) for r in R if "wall_secs" in r]
    with open(os.path.join(out, "run.txt"), "w") as f:
        f.write("command: %s\n" % " ; ".join(
            "%s (%s)" % (r.get("command", "make bench"), os.path.basename(
                os.path.normpath(d)))
            for d, r in zip(shards, R)))
        trees = {}              # tree -> its shards' scenarios, in order
        for r, p in zip(R, P):
            trees.setdefault(r.get("tree", "?"), []).extend(
                p.get("BENCH_SCENARIOS", "").split())
        for k in ("started", "host", "vm"):
            f.write("%s: %s\n" % (k, min(r.get(k, "?") for r in R)))
        if len(trees) == 1:
            f.write("tree: %s\n" % next(iter(trees)))
        else:
            # The same modules (checked above): the trees differ in the
            # bench's own scripts.
            f.write("tree: %s\n" % ", ".join(
                "%s (scenario%s %s)" % (t, "s" if len(sc) > 1 else "",
                                         " ".join(sorted(sc, key=int)))
                for t, sc in trees.items()))
        f.write("shards: %d\n" % len(shards))
        for line in read_lines(os.path.join(shards[0], "run.txt")):
            if line.startswith("module: "):
                f.write(line + "\n")
        settings = False
        for line in read_lines(os.path.join(shards[0], "run.txt")):
            if line == "settings:":
                settings = True
            elif settings and not line.startswith(" "):
                settings = False
            if settings:
                if line.strip().startswith("BENCH_SCENARIOS="):
                    line = '  BENCH_SCENARIOS="%s"' % " ".join(scen)
                f.write(line + "\n")
        if walls:
            f.write("wall_secs: %d\n" % max(walls))
        f.write("status: 0\n")

    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([os.path.join(here, "report.py"), out], check=True,
                   stdout=subprocess.DEVNULL)
    print("merge: %s from %d shards, scenarios %s" %
          (out, len(shards), " ".join(scen)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
