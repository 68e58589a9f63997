#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# Where a side's rows of cpu_split.py spend their CPU, by leaf function:
# us per RPC of each symbol sampled under the side's entry points, for
# two pairs side by side, over every run of each (`make bench
# BENCH_PARTS=cpu` writes the reports, raw/perf-TAG[-N].leaf.txt, with
# sample counts, so that a function's figure is not rounded to the
# report's 0.01%, about 0.4 us per RPC on the metadata workload).
#   cpu_leaf.py RES SIDE [TAG [REF [LINES]]]
# SIDE is client or server, or one row's entry point; TAG and REF default
# to v2 and ref, LINES to 40. The parallel load's runs (BENCH_PARTS=par)
# are TAG par-v2 and REF par-ref.
import glob, re, sys

from splits import ROWS, TAIL

def load(res, tag, parents):
    """{symbol: us per RPC} over every run of TAG, and the runs"""
    ns, rpcs, runs = {}, 0, 0
    stem = "%s/perf-%s" % (res, tag)
    for leaf in sorted(glob.glob(stem + "*.leaf.txt")):
        sfx = leaf[len(stem):-len(".leaf.txt")]
        if not re.fullmatch(r"(-\d+)?", sfx):
            continue
        try:
            n = int(open(stem + sfx + ".rpcs").read())
        except (OSError, ValueError):
            continue
        total = samples = None
        got = {}
        for line in open(leaf):
            m = re.match(r"# Event count \(approx\.\): (\d+)", line)
            if m:
                total = int(m.group(1))
            m = re.match(r"# Samples: (\d+)(K?)", line)
            if m:
                samples = int(m.group(1)) * (1000 if m.group(2) else 1)
            m = re.match(r"\s+[\d.]+%\s+(\d+)\s+(\S+)\s+\[.\]\s+(\S+)", line)
            if m and m.group(2) in parents:
                got[m.group(3)] = got.get(m.group(3), 0) + int(m.group(1))
        if not total or not samples or not n or not got:
            continue
        # perf's "K" count is rounded: the period from the exact sum is
        # not available, so each sample is the run's mean period
        per = total / samples
        for sym, k in got.items():
            ns[sym] = ns.get(sym, 0) + k * per
        rpcs += n
        runs += 1
    return {s: v / rpcs / 1000 for s, v in ns.items()} if rpcs else {}, runs

def main():
    if len(sys.argv) < 3:
        sys.exit("usage: cpu_leaf.py RES SIDE [TAG [REF [LINES]]]")
    res, side = sys.argv[1], sys.argv[2]
    tag = sys.argv[3] if len(sys.argv) > 3 else "v2"
    ref = sys.argv[4] if len(sys.argv) > 4 else "ref"
    lines = int(sys.argv[5]) if len(sys.argv) > 5 else 40
    parents = {s for _, sd, syms in ROWS for s in syms
               if side == sd or side in syms}
    parents |= {TAIL[s] for s in parents if s in TAIL}
    if not parents:
        sys.exit("cpu_leaf.py: no row of side or entry point %s" % side)
    a, na = load(res, tag, parents)
    b, nb = load(res, ref, parents)
    if not na or not nb:
        sys.exit("cpu_leaf.py: no leaf report of %s or %s in %s" %
                 (tag, ref, res))
    print("%-48s %8s %8s   (us per RPC, %d and %d runs)" %
          ("leaf function under the %s rows" % side, tag, ref, na, nb))
    print("%-48s %8.2f %8.2f" % ("all", sum(a.values()), sum(b.values())))
    for s in sorted(set(a) | set(b),
                    key=lambda s: -(a.get(s, 0) + b.get(s, 0)))[:lines]:
        print("%-48s %8.2f %8.2f" % (s, a.get(s, 0), b.get(s, 0)))

if __name__ == "__main__":
    main()
