#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# Where a metadata RPC's time goes, per RDMA pair: `make bench` runs the
# metadata workload once more per pair with the tracepoints below on
# (tests/bench/nfs_bench.sh, split_run) and this reads the traces.
#   meta_split.py RES META_FILES TAG...   (meta_split.py --events: the
#   tracepoints, group/name, for tracefs)
# RES/split-TAG.trace and RES/split-TAG-2.trace are the ftrace text of
# TAG's two traced runs (global clock; the second pass goes through the
# pairs in the opposite order), RES/split-TAG-meta and -2-meta their
# ops/s. Each row is the median over every RPC traced whole: a pause of
# the host lands in a few RPCs' rows and moves a mean, not a median. The workload is one process
# doing one RPC at a time, so the events between an RPC's transmit lock
# and its reply lookup are that RPC's, in this order. The in-tree and our
# tracepoints mark the same points, so every pair is cut alike.
import re, statistics, sys

from splits import NAMES, print_side_goals, vs_ref

# event -> the point of the RPC it marks
POINT = {
    "xprt_reserve_cong": "lock",
    "xprtrdma_post_send": "cpost", "xprtrdma2_post_send": "cpost",
    "svcrdma_wc_recv": "srecv", "svcrdma2_wc_recv": "srecv",
    "svc_xprt_dequeue": "deq",
    "svc_process": "proc",
    "svc_stats_latency": "sendto",	# fired just before ->xpo_sendto
    "svcrdma_post_send": "spost", "svcrdma2_post_send": "spost",
    "xprtrdma_wc_receive": "crecv", "xprtrdma2_wc_receive": "crecv",
    "xprt_lookup_rqst": "lookup",
}
ORDER = ["lock", "cpost", "srecv", "deq", "proc", "sendto", "spost",
         "crecv", "lookup"]
# (row, kind): kind t is the transports' own code, w the wire (rxe and
# the CQ's work item), s sunrpc/nfsd
SEGS = [
    ("client: transmit lock -> Send posted (marshal)", "t"),
    ("rxe: Call Send -> server's Receive completion", "w"),
    ("sunrpc: Receive completion -> an nfsd thread has it", "s"),
    ("server: ->xpo_recvfrom and RPC header (dequeue -> svc_process)", "t"),
    ("nfsd: execute and encode (svc_process -> ->xpo_sendto)", "s"),
    ("server: ->xpo_sendto until the Send is posted", "t"),
    ("rxe: Reply Send -> client's Receive completion", "w"),
    ("client: Receive completion -> xprt_lookup_rqst", "t"),
]

# meta_split.py --events: the tracefs events to turn on, group/name
if sys.argv[1:] == ["--events"]:
    for e in sorted(POINT):
        print("%s/%s" % ("sunrpc" if e.startswith(("xprt_", "svc_")) else
                         "rpcrdma2" if "rdma2" in e else "rpcrdma", e))
    sys.exit(0)

res, nfiles, tags = sys.argv[1], int(sys.argv[2]), sys.argv[3:]

# the complete records, and how many replies were looked up in all
def parse_one(path):
    recs, cur, nrpcs = [], None, 0
    try:
        f = open(path)
    except OSError:
        return [], 0
    for line in f:
        m = re.search(r" ([0-9]+\.[0-9]+): (\w+):", line)
        if not m:
            continue
        pt = POINT.get(m.group(2))
        if pt == "lock":
            cur = {"lock": float(m.group(1))}
            continue
        if cur is None or pt is None or pt in cur:
            continue
        if pt == "lookup" and "status=0" not in line:
            continue
        if pt == "lookup":
            nrpcs += 1
        cur[pt] = float(m.group(1))
        if pt == "lookup":
            if all(p in cur for p in ORDER) and \
               all(cur[a] <= cur[b] for a, b in zip(ORDER, ORDER[1:])):
                recs.append(cur)
            cur = None
    return recs, nrpcs

def parse(tag):
    recs, nrpcs, n = [], 0, 0
    for sfx in ("", "-2"):
        r, k = parse_one("%s/split-%s%s.trace" % (res, tag, sfx))
        recs += r
        nrpcs += k
        n += 1 if r else 0
    return recs, nrpcs, n

def ops_per_s(tag):
    rates = []
    for sfx in ("", "-2"):
        try:
            rates.append(float(open("%s/split-%s%s-meta" % (res, tag, sfx)).read()))
        except (OSError, ValueError):
            pass
    return statistics.mean(rates) if rates else None

cols = []
for t in tags:
    (recs, nrpcs, runs), rate = parse(t), ops_per_s(t)
    if not recs or not rate:
        print("bench: split %s: no complete RPC in its trace" % t)
        continue
    segs = [1e6 * statistics.median(r[b] - r[a] for r in recs)
            for a, b in zip(ORDER, ORDER[1:])]
    # (tag, segments, complete records, RPCs per op, us per op)
    cols.append((t, segs, len(recs), nrpcs / (3.0 * nfiles * runs),
                 1e6 / rate))
if not cols:
    sys.exit(0)

print("| metadata RPC, traced runs, median us per RPC | %s |" %
      " | ".join(NAMES[c[0]] for c in cols))
print("|---|" + "---|" * len(cols))
for i, (name, _) in enumerate(SEGS):
    print("| %s | %s |" % (name, " | ".join("%.0f" % c[1][i] for c in cols)))
def kind(c, k):
    return sum(v for v, (_, kk) in zip(c[1], SEGS) if kk == k)
def rows_of(c, side):
    return sum(v for v, (name, _) in zip(c[1], SEGS)
               if name.startswith(side + ":"))
print("| the transports' code (the 4 client:/server: rows) | %s |" %
      " | ".join(vs_ref(cols, c, kind(c, "t"), lambda x: kind(x, "t"), "%.0f")
                 for c in cols))
for side in ("client", "server"):
    print("| of which the %s's 2 rows | %s |" % (side, " | ".join(
        vs_ref(cols, c, rows_of(c, side),
               lambda x, s=side: rows_of(x, s), "%.0f")
        for c in cols)))
print("| rxe and CQ work items (the 2 rxe: rows) | %s |" %
      " | ".join("%.0f" % kind(c, "w") for c in cols))
print("| time per metadata op in this run (us) | %s |" %
      " | ".join("%.0f" % c[4] for c in cols))
print("| RPCs per op; RPCs traced whole | %s |" %
      " | ".join("%.2f; %d" % (c[3], c[2]) for c in cols))
# The bound: the pair's own time per op in this run against the same less
# everything its transports' code took. Generous: the server row holds
# sunrpc's own steps too. (Against the other pairs' traced runs the
# figure would carry their run-to-run noise, several per cent.)
print("| this pair x itself if its transports' code cost nothing (upper bound) | %s |"
      % " | ".join("%.2fx" % (c[4] / (c[4] - kind(c, "t") * c[3])) for c in cols))

print_side_goals("traced split", cols, rows_of)
