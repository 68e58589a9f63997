#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# The CPU each pair's transports take per RPC, from perf: `make bench`
# runs the metadata workload three times more per RDMA pair under `perf
# record -a -g -e cpu-clock` (tests/bench/nfs_bench.sh, perf_run), and
# this reads two reports of each run. `perf report --sort parent` puts
# each sample under the first entry point or rxe post it meets going up
# from the leaf: a row's own CPU, where rxe's Sends, which run in the
# caller, are apart. `perf report --children` gives each entry point with
# its callees, rxe included. Shares times the run's total CPU time, over the RPCs the
# client sent. Unlike the traced split, no wait is counted, only CPU: the
# figure that carries over to hardware.
# With --par the runs are of the parallel load (perf_par_run), and the
# table ends with the guest's busy CPU per RPC over the same runs and the
# transports' own share of it, which bounds goal 2 (CPU per RPC at most
# 0.8x the in-tree pair's) on this bed: the line after the table says how.
#   cpu_split.py [--par] RES TAG...
#   cpu_split.py --parents     (the regex for perf report --parent)
# RES/perf-TAG.txt, RES/perf-TAG.own.txt and their twins of each further
# run (-2, -3, or -1, -2, ...) are the reports, RES/perf-TAG.rpcs and the
# twins the RPCs each run sent (the figures are over every run); with
# --par RES/perf-par-TAG.* and .ticks, the guest's busy CPU ticks.
import glob, re, statistics, sys

from splits import IDLE, NAMES, ROWS, RXE, TAIL, print_side_goals, vs_ref

def inclusive(share, sym):
    v = share.get(sym, 0)
    callee = share.get(TAIL.get(sym), 0)
    return v + callee if callee > v else v

def own(share, sym):
    return share.get(sym, 0) + share.get(TAIL.get(sym), 0)

def report(path, line_re):
    """(total CPU ns of the run, {symbol: share of it})"""
    total, share = None, {}
    try:
        f = open(path)
    except OSError:
        return None, {}
    for line in f:
        m = re.match(r"# Event count \(approx\.\): (\d+)", line)
        if m:
            total = int(m.group(1))
            continue
        m = re.match(line_re, line)
        if m:
            share.setdefault(m.group(2), float(m.group(1)) / 100)
    return total, share

def load(tag):
    """us per RPC, over every run of TAG: ({row: its own CPU, "rxe": RXE's,
    with --par "busy" and "sampled": the guest's busy CPU from /proc/stat
    and as perf samples it}, {row: its CPU with callees}), the RPCs
    counted, the runs, and each run's {side: its rows' own CPU, "rest":
    the rest of the CPU perf sampled, not the idle loop}"""
    ns, ns_all, rpcs, runs, each = {}, {}, 0, 0, []
    stem = "%s/perf-%s%s" % (res, prefix, tag)
    for rpcs_file in sorted(glob.glob(stem + "*.rpcs")):
        sfx = rpcs_file[len(stem):-len(".rpcs")]
        if not re.fullmatch(r"(-\d+)?", sfx):
            continue
        base = stem + sfx
        total, share = report(base + ".txt",
                              r"\s+([\d.]+)%\s+[\d.]+%\s+\[k\]\s+(\S+)")
        total_own, share_own = report(base + ".own.txt",
                                      r"\s+([\d.]+)%\s+(\S+)\s*$")
        try:
            n = int(open(base + ".rpcs").read())
        except (OSError, ValueError):
            continue
        if not total or not total_own or not n:
            continue
        rpcs += n
        runs += 1
        each.append({})
        for name, sd, syms in ROWS:
            v = total_own * sum(own(share_own, s) for s in syms)
            ns[name] = ns.get(name, 0) + v
            each[-1][sd] = each[-1].get(sd, 0) + v / n / 1000
            ns_all[name] = ns_all.get(name, 0) + \
                total * sum(inclusive(share, s) for s in syms)
        ns["rxe"] = ns.get("rxe", 0) + total_own * sum(share_own.get(s, 0)
                                                       for s in RXE)
        # the samples that are not the idle loop's halt: the CPU the
        # guest spent, as perf samples it (its own overhead left out)
        idle = report(base + ".txt",
                      r"\s+[\d.]+%\s+([\d.]+)%\s+\[k\]\s+(\S+)")[1]
        smp = total * (1 - sum(idle.get(s, 0) for s in IDLE))
        ns["sampled"] = ns.get("sampled", 0) + smp
        each[-1]["rest"] = smp / n / 1000 - each[-1].get("client", 0) - \
            each[-1].get("server", 0)
        if prefix:
            # /proc/stat's USER_HZ ticks: 10 ms each
            try:
                ticks = int(open(base + ".ticks").read())
            except (OSError, ValueError):
                ticks = 0
            ns["busy"] = ns.get("busy", 0) + ticks * 10 ** 7
    if not rpcs:
        return None
    return ({k: v / rpcs / 1000 for k, v in ns.items()},
            {k: v / rpcs / 1000 for k, v in ns_all.items()}, rpcs, runs,
            each)

if sys.argv[1:] == ["--parents"]:
    syms = [s for _, _, e in ROWS for s in e] + list(TAIL.values()) + RXE
    print("^(%s)$" % "|".join(syms))
    sys.exit(0)

prefix, what = "", "metadata RPC"
if sys.argv[1:2] == ["--par"]:
    prefix, what = "par-", "parallel 4 KiB random read RPC"
    del sys.argv[1]
res, tags = sys.argv[1], sys.argv[2:]
cols = []
for t in tags:
    got = load(t)
    if got is None:
        print("bench: perf %s: no report" % t)
        continue
    cols.append((t,) + got)
if not cols:
    sys.exit(0)

# side(c, s): the sum of side s's rows in column c, own CPU; i=2: with
# callees, rxe's posting included
def side(c, s, i=1):
    return sum(c[i][name] for name, sd, _ in ROWS if sd == s)

print("| %s, CPU per RPC (us, perf; posting to rxe apart) | %s |" %
      (what, " | ".join(NAMES[c[0]] for c in cols)))
print("|---|" + "---|" * len(cols))
for name, _, _ in ROWS:
    print("| %s | %s |" % (name, " | ".join(
        vs_ref(cols, c, c[1][name], lambda x, n=name: x[1][n], "%.1f")
        for c in cols)))
for s in ("client", "server"):
    print("| the %s's rows | %s |" % (s, " | ".join(
        vs_ref(cols, c, side(c, s), lambda x, s=s: side(x, s), "%.1f")
        for c in cols)))
for s in ("client", "server"):
    print("| the %s's rows, each run | %s |" % (s, " | ".join(
        ", ".join("%.1f" % r[s] for r in c[5]) for c in cols)))

# rounds(c, s): for each round, side s of column c's run against the
# in-tree pair's run of the same round (the same suffix), each taken over
# the rest of its run's CPU (nfsd, the VFS, rxe, sunrpc, the scheduler:
# the same work for every pair). The guest's speed drifts: whole runs
# took up to 1.8x the CPU per RPC of others in every function alike, and
# that drift cancels here. None without the in-tree pair's runs.
def rounds(c, s):
    ref = [x for x in cols if x[0] == "ref"]
    if not ref or c[0] == "ref" or len(ref[0][5]) != len(c[5]):
        return None
    return [(a[s] / a["rest"]) / (b[s] / b["rest"])
            for a, b in zip(c[5], ref[0][5]) if b[s] and a["rest"] > 0 and
            b["rest"] > 0]

def round_median(c, s):
    r = rounds(c, s)
    return statistics.median(r) if r else None

def rounds_cell(r):
    return "%s (%.2fx)" % (", ".join("%.2fx" % x for x in r),
                           statistics.median(r)) if r else ""

for s in ("client", "server"):
    print("| the %s's rows : in-tree, each round, over the rest of the CPU (median) | %s |" % (
        s, " | ".join(rounds_cell(rounds(c, s)) for c in cols)))
print("| posting to rxe, under the rows or not (rxe_post_send, rxe_post_recv) | %s |" %
      " | ".join("%.1f" % c[1]["rxe"] for c in cols))
for s in ("client", "server"):
    print("| the %s's rows, rxe's posting included | %s |" % (s, " | ".join(
        vs_ref(cols, c, side(c, s, 2), lambda x, s=s: side(x, s, 2),
               "%.1f") for c in cols)))
print("| RPCs counted (runs) | %s |" % " | ".join("%d (%d)" % (c[3], c[4])
                                                 for c in cols))

if not prefix:
    print_side_goals("CPU per RPC (perf, posting to rxe apart)", cols, side)
    v2 = [c for c in cols if c[0] == "v2"]
    med = {s: round_median(v2[0], s) for s in ("client", "server")} \
        if v2 else {}
    if med and None not in med.values():
        print("the same, the median of the rounds, each over the rest of "
              "its CPU: %s" % "; ".join(
                  "%s rows %.2fx %s" % (s, m, "met" if m <= 0.75
                                        else "not met")
                  for s, m in med.items()))
    sys.exit(0)

# busy(c): the guest's busy CPU per RPC over the perf runs (/proc/stat:
# perf's own work included, alike for every pair); sampled(c): the same
# as perf samples it, without that work; own_cpu(c): the transports' own
# CPU, both sides' rows (rxe's posting stays out: a device does that
# work on hardware, rxe does it in the guest's CPUs)
def busy(c):
    return c[1]["busy"]

def sampled(c):
    return c[1]["sampled"]

def own_cpu(c):
    return side(c, "client") + side(c, "server")

print("| the guest's busy CPU per RPC (/proc/stat, perf's work included) | %s |" %
      " | ".join(vs_ref(cols, c, busy(c), busy, "%.1f") for c in cols))
print("| the same as perf samples it (not the idle loop) | %s |" %
      " | ".join(vs_ref(cols, c, sampled(c), sampled, "%.1f") for c in cols))
print("| of which the transports' own CPU (both sides' rows) | %s |" %
      " | ".join("%.1f (%.1f%%)" % (own_cpu(c), 100 * own_cpu(c) / sampled(c))
                 if sampled(c) else "%.1f" % own_cpu(c) for c in cols))
ref = [c for c in cols if c[0] == "ref" and sampled(c)]
if ref:
    # the rest of the guest (nfsd, VFS, rxe, sunrpc, the scheduler) is
    # what any pair pays for RPCs that carry the same RDMA operations;
    # with the in-tree pair's rest and transports that cost nothing,
    # this is as low as CPU per RPC goes. Fewer operations per RPC (a
    # READ inline, not in a Write chunk) take rxe's work out of the rest.
    r = 1 - own_cpu(ref[0]) / sampled(ref[0])
    print()
    print("bound, parallel load: with the rest of the guest as in the "
          "in-tree pair and transports that cost no CPU, CPU per RPC : "
          "in-tree = %.2fx (goal 2: <= 0.8x: %s)" %
          (r, "within reach" if r <= 0.8 else
           "out of reach without fewer RDMA operations per RPC"))
