#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# The tables of `make bench` from the results tests/bench/nfs_bench.sh
# leaves in RES (also copied to build/bench/vm/raw, so this can be run
# again on the host): report.py RES DATE META_FILES [mem|pairs]
import json, os, re, statistics, sys
res, day, nfiles = sys.argv[1], sys.argv[2], int(sys.argv[3])
TAGS = ("v2", "fb", "r2", "ref", "tcp")
NAMES = {"v2": "rdma2 -> svcrdma2", "fb": "rdma2 -> svcrdma",
         "r2": "rdma -> svcrdma2", "ref": "rdma -> svcrdma",
         "tcp": "TCP"}

def ok(tag, p):
    return os.path.exists("%s/%s-%d.mounted" % (res, tag, p))

# xprt: line of a pass as a list; x[n] is field n as
# Documentation/xprtrdma2.rst numbers them (1 is the netid)
def xprt(tag, p, what):
    f = "%s/%s-%d%s" % (res, tag, p, what)
    try:
        return [None] + open(f).read().split()
    except OSError:
        return None

def fio1(tag, p, job, what):
    try:
        j = json.load(open("%s/%s-%d-%s.json" % (res, tag, p, job)))["jobs"][0]
    except (OSError, ValueError, KeyError, IndexError):
        return None
    side = j["read"] if j["read"]["io_bytes"] else j["write"]
    return side["iops"] if what == "iops" else side["bw"] / 1024.0 * 1.048576

# the parallel load's busy CPU time (both vCPUs) per RPC sent, in us
def par_cpu(tag, p):
    try:
        c = [int(open("%s/%s-%d-par.cpu%d" % (res, tag, p, i)).read())
             for i in (0, 1)]
    except (OSError, ValueError):
        return None
    a, b = xprt(tag, p, "-par.xprt0"), xprt(tag, p, "-par.xprt1")
    if not a or not b or len(a) < 8 or len(b) < 8:
        return None
    n = int(b[7]) - int(a[7])
    return (c[1] - c[0]) * 10000.0 / n if n > 0 else None

def meta1(tag, p):
    try:
        return float(open("%s/%s-%d-meta" % (res, tag, p)).read())
    except (OSError, ValueError):
        return None

# the mean of the passes that produced a figure
def mean(vals):
    vals = [v for v in vals if v is not None]
    return sum(vals) / len(vals) if vals else None

rows = [
    ("4 KiB random read, QD16 (IOPS)",
     lambda t, p: fio1(t, p, "randread", "iops")),
    ("1 MiB sequential read (MB/s)",
     lambda t, p: fio1(t, p, "seqread", "bw")),
    ("1 MiB sequential write (MB/s)",
     lambda t, p: fio1(t, p, "seqwrite", "bw")),
    ("metadata create+stat+unlink (ops/s)", meta1),
    ("4 KiB random read, 4 jobs x QD32 (IOPS)",
     lambda t, p: fio1(t, p, "par", "iops")),
    ("  the same: guest CPU per RPC (us)", par_cpu),
]

# the version each pair settled on: ours from field 12, in-tree is v1
def vers(t):
    if t == "tcp":
        return ""
    if t in ("r2", "ref"):
        return " (v1)"
    vs = sorted({x[12] for x in (xprt(t, p, "-meta.xprt1") for p in (1, 2))
                 if x and len(x) > 12})
    return " (v%s)" % "/".join(vs) if vs else ""

def failed(t):
    n = sum(1 for p in (1, 2) if not ok(t, p))
    return "" if n == 0 else " [mount failed %d/2]" % n

# The wire's ceiling, from perftest's reports: the line after the header
# whose first word is #bytes
def perftest(name, col):
    try:
        lines = open("%s/perftest-%s.txt" % (res, name)).read().splitlines()
    except OSError:
        return None
    for i, l in enumerate(lines):
        w = l.split()
        if w and w[0] == "#bytes" and i + 1 < len(lines):
            # a heading is a word, or one or two words ending in [unit]
            heads = re.findall(r"(?:\S+ )?\S+\[[^]]*\]|\S+", l)
            for h, v in zip(heads, lines[i + 1].split()):
                if h.strip().startswith(col):
                    try:
                        return float(v)
                    except ValueError:
                        return None
    return None

# rpcrdma2-ping's round trips (us), one per reply line: their median and
# mean (the tool's own mean, unrounded, is on its last line). The mean
# alone misled: in one run the first 18 calls, the first after
# perftest's, took 24-87 ms each, where the first calls in a guest of
# their own took 0.2-0.8 ms (why is not known).
def ping_times(name):
    try:
        with open("%s/ping-%s.txt" % (res, name)) as f:
            t = [1000 * float(m.group(1))
                 for m in re.finditer(r" time=([\d.]+) ms", f.read())]
    except (OSError, ValueError):
        return None, None
    if not t:
        return None, None
    return statistics.median(t), statistics.fmean(t)

# rxe0's counters that move when a packet is lost, resent or early, over
# one rpcrdma2-ping run: ping-NAME.rxe0 and .rxe1, `grep -H .` of its
# hw_counters before and after
RXE_TROUBLE = ("completer_retry_err", "duplicate_request",
               "out_of_seq_request", "rcvd_seq_err", "send_rnr_err",
               "rcvd_rnr_err")

def rxe_counters(path):
    c = {}
    try:
        with open(path) as f:
            for line in f:
                m = re.match(r".*/hw_counters/(\w+):(\d+)$", line.strip())
                if m:
                    c[m.group(1)] = int(m.group(2))
    except OSError:
        pass
    return c

def rxe_trouble(name):
    c0 = rxe_counters("%s/ping-%s.rxe0" % (res, name))
    c1 = rxe_counters("%s/ping-%s.rxe1" % (res, name))
    if not c0 or not c1:
        return "-"
    return " / ".join(str(c1.get(k, 0) - c0.get(k, 0)) for k in RXE_TROUBLE)

def cell(v, f="%.1f"):
    return "-" if v is None else f % v

# Memory per connection (nfs_bench.sh's mem_run): each pair with one
# NFSv3 mount and with eight, each to an address of its own; a round's
# growth is its snapshot while mounted less the one before it, and a
# connection's cost the difference of the two rounds' growth over the
# difference of their connections (a connection is a QP on each side:
# QPs / 2). Both sides together, for client and server share the guest;
# the RDMA resources by the module the RDMA core names as their owner.
def meminfo(tag, n, when):
    d = {}
    try:
        for l in open("%s/mem-%s-%d-%s.meminfo" % (res, tag, n, when)):
            k, v = l.split(":", 1)
            d[k] = int(v.split()[0])
    except (OSError, ValueError):
        return None
    return d

def rdma_res(tag, n, when, kind):
    try:
        objs = json.load(open("%s/mem-%s-%d-%s.%s.json" %
                              (res, tag, n, when, kind)))
    except (OSError, ValueError):
        return None
    by = {}
    for o in objs:
        c = str(o.get("comm", "?")).strip("[]")
        by[c] = by.get(c, 0) + 1
    return by

def grown(tag, n, f):
    a, b = f(tag, n, "before"), f(tag, n, "mounted")
    return None if a is None or b is None else (a, b)

def used(m):
    return m["MemTotal"] - m["MemFree"] - m["Buffers"] - m["Cached"]

MEM_N = 8
def mem_conns(tag, n):
    g = grown(tag, n, lambda t, k, w: rdma_res(t, k, w, "qp"))
    return None if g is None else (sum(g[1].values()) - sum(g[0].values())) / 2.0

# per_conn TAG F GROWTH: GROWTH of the (before, mounted) pair F gives, one
# connection's share of it between the two rounds
def per_conn(tag, f, growth):
    c1, c8 = mem_conns(tag, 1), mem_conns(tag, MEM_N)
    g1, g8 = grown(tag, 1, f), grown(tag, MEM_N, f)
    if None in (c1, c8, g1, g8) or c8 <= c1:
        return None
    return (growth(g8) - growth(g1)) / (c8 - c1)

def mem_per_conn(tag, what):
    return per_conn(tag, meminfo, lambda g: what(g[1]) - what(g[0]))

def res_per_conn(tag, kind):
    f = lambda t, k, w: rdma_res(t, k, w, kind)
    g = grown(tag, MEM_N, f)
    if g is None:
        return "-"
    out = []
    for c in sorted(set(g[1]) | set((grown(tag, 1, f) or ({}, {}))[1])):
        d = per_conn(tag, f, lambda g: g[1].get(c, 0) - g[0].get(c, 0))
        if d is None:
            return "-"
        if abs(d) >= 0.05:
            out.append("%s %.1f" % (c, d))
    return ", ".join(out) or "0"

MTAGS = ("v2", "fb", "r2", "ref")
mem_rows = [
    ("kernel memory (KiB)", lambda t: mem_per_conn(t, used)),
    ("  of which slab (KiB)", lambda t: mem_per_conn(t, lambda m: m["Slab"])),
    ("  of which vmalloc (KiB)",
     lambda t: mem_per_conn(t, lambda m: m["VmallocUsed"])),
    # Goal 4's figure: the per-connection objects of every pair are in
    # these two, the transports' kmalloc (large ones are counted as slab
    # too) and rxe's queues (vmalloc). The rest of the kernel memory row
    # moved by up to 1 MiB per connection between runs of the same pair
    # with no change to it, these two by 2%.
    ("  slab and vmalloc (KiB)",
     lambda t: mem_per_conn(t, lambda m: m["Slab"] + m["VmallocUsed"])),
]
# the memory table; returns its cells, mem[row name, tag]
def mem_table():
    mem = {}
    print()
    print("| memory per connection, both sides (1 and %d NFSv3 mounts) | %s |" %
          (MEM_N, " | ".join(NAMES[t] + vers(t) for t in MTAGS)))
    print("|---|" + "---|" * len(MTAGS))
    print("| connections counted (QPs / 2) with 1, %d mounts | %s |" % (MEM_N,
          " | ".join("%s, %s" % (cell(mem_conns(t, 1), "%.0f"),
                                 cell(mem_conns(t, MEM_N), "%.0f"))
                     for t in MTAGS)))
    for name, f in mem_rows:
        cells = []
        for t in MTAGS:
            mem[name, t] = f(t)
            cells.append(cell(mem[name, t], "%.0f"))
        print("| %s | %s |" % (name, " | ".join(cells)))
    for kind in ("qp", "cq", "mr", "pd"):
        print("| %ss by owner | %s |" % (kind.upper(),
              " | ".join(res_per_conn(t, kind) for t in MTAGS)))
    return mem

# the targets of Documentation/results.rst's introduction: against the
# in-tree pair, parallel IOPS at least 1.1x and CPU per RPC at most 0.8x;
# bulk data at 0.9x of the RDMA operation that carries it, at least
def verdict(name, r, want, higher=True):
    met = r >= want if higher else r <= want
    return "%s %s %.1fx: %.2fx %s" % (name, ">=" if higher else "<=", want,
                                      r, "met" if met else "not met")

def goal(name, v, ref, want, higher=True):
    if v is None or not ref:
        return "%s: n/a" % name
    return verdict(name, v / ref, want, higher)

def mem_goal(mem):
    return goal("memory per connection (slab and vmalloc) : in-tree",
                mem[mem_rows[3][0], "v2"], mem[mem_rows[3][0], "ref"], 1.0,
                higher=False)

def median_goal(name, r, want, higher=True):
    if not r:
        return "%s: n/a" % name
    return "%s (%s)" % (verdict(name, statistics.median(r), want, higher),
                        " ".join("%.2fx" % x for x in r))

# the paired rounds of the parallel load (nfs_bench.sh's pairs_part):
# TAG's run in ROUND as (IOPS, the guest's busy CPU per RPC in us), or None
def pair1(tag, r):
    base = "%s/pair-%s-%d" % (res, tag, r)
    try:
        iops = json.load(open(base + ".json"))["jobs"][0]["read"]["iops"]
        c0, c1 = (int(open("%s.cpu%d" % (base, i)).read()) for i in (0, 1))
        x0, x1 = (open("%s.xprt%d" % (base, i)).read().split()
                  for i in (0, 1))
        # the xprt line's sends (the 7th field after "xprt:")
        n = int(x1[6]) - int(x0[6])
    except (OSError, ValueError, KeyError, IndexError):
        return None
    return (iops, (c1 - c0) * 10000.0 / n) if n > 0 else None

# every round, in order, as (ours, in-tree), either None where its run
# failed (a round whose two mounts failed leaves no file, and is shown so)
def pair_runs():
    rounds = [int(m.group(1)) for m in
              (re.search(r"^pair-(?:v2|ref)-(\d+)\.", f)
               for f in os.listdir(res)) if m]
    return [(pair1("v2", r), pair1("ref", r))
            for r in range(1, max(rounds, default=0) + 1)]

# the ratios ours : in-tree of the rounds where both ran: IOPS, CPU per RPC
def pair_ratios():
    got = [(a, b) for a, b in pair_runs() if a and b and all(a) and all(b)]
    return ([a[0] / b[0] for a, b in got], [a[1] / b[1] for a, b in got])

def pair_table():
    runs = pair_runs()
    print("| parallel load, paired rounds | %s | %s | ours : in-tree |"
          % (NAMES["v2"], NAMES["ref"]))
    print("|---|---|---|---|")
    for r, (a, b) in enumerate(runs, 1):
        for i, what in ((0, "IOPS"), (1, "guest CPU per RPC (us)")):
            x = a[i] if a else None
            y = b[i] if b else None
            print("| round %d, %s | %s | %s | %s |" % (
                r, what, cell(x), cell(y),
                "%.2fx" % (x / y) if x and y else "-"))

# report.py RES DATE META_FILES mem: nfs_bench.sh's PARTS "mem", the
# memory table alone
if sys.argv[4:] == ["mem"]:
    print("goals, rdma2 -> svcrdma2: " + mem_goal(mem_table()))
    sys.exit(0)

# report.py RES DATE META_FILES pairs: nfs_bench.sh's PARTS "pairs", goal
# 2 from the paired rounds alone
if sys.argv[4:] == ["pairs"]:
    pair_table()
    iops, cpu_ = pair_ratios()
    print("goals, rdma2 -> svcrdma2: " + "; ".join((
        median_goal("parallel IOPS : in-tree, median of the paired rounds",
                    iops, 1.1),
        median_goal("CPU per RPC : in-tree, the same", cpu_, 0.8,
                    higher=False))))
    sys.exit(0)

# perftest --report_gbits: Gb/s of 125,000,000 bytes; fio's MB/s above
# are of 1,000,000 bytes
gbit = lambda v: None if v is None else v * 125
# the bandwidths before the passes and after (NAME-2), and their mean
def bw_runs(name):
    return [gbit(perftest(n, "BW average")) for n in (name, name + "-2")]

wire = {"lat": perftest("send_lat", "t_typical"),
        "lat_avg": perftest("send_lat", "t_avg"),
        "read_runs": bw_runs("read_bw"),
        "write_runs": bw_runs("write_bw")}
wire["read"] = mean(wire["read_runs"])
wire["write"] = mean(wire["write_runs"])
print("| the wire: rxe0 on its own, %s | |" % day)
print("|---|---|")
# (ib_send_lat reports half the round trip)
dbl = lambda v: None if v is None else 2 * v
print("| ib_send_lat, 2-byte Send round trip, typical and mean (us) | %s / %s |"
      % (cell(dbl(wire["lat"])), cell(dbl(wire["lat_avg"]))))
for k, what in (("read", "ib_read_bw, 1 MiB RDMA Reads"),
                ("write", "ib_write_bw, 1 MiB RDMA Writes")):
    print("| %s (MB/s), before and after the passes; their mean | "
          "%s / %s; %s |" % (what, cell(wire[k + "_runs"][0]),
                             cell(wire[k + "_runs"][1]), cell(wire[k])))
for name, what in (("svcrdma2", "svcrdma2 (v2)"),
                   ("svcrdma", "in-tree svcrdma (v1)")):
    med, avg = ping_times(name)
    print("| rpcrdma2-ping NULL round trip, %s, median and mean (us) | "
          "%s / %s |" % (what, cell(med), cell(avg)))
    print("| rxe0 meanwhile: %s | %s |" % (", ".join(RXE_TROUBLE),
                                          rxe_trouble(name)))
print()

print("| NFSv4.2, %s, mean of 2 passes (x in-tree rdma -> svcrdma) | %s |" %
      (day, " | ".join(NAMES[t] + vers(t) + failed(t) for t in TAGS)))
print("|---|" + "---|" * len(TAGS))
means = {}
for name, f in rows:
    cells = []
    for t in TAGS:
        means[name, t] = mean([f(t, p) for p in (1, 2)])
    ref = means[name, "ref"]
    for t in TAGS:
        v = means[name, t]
        if v is None:
            cells.append("FAILED")
        elif t == "ref" or not ref:
            cells.append("%.1f" % v)
        else:
            cells.append("%.1f (%.2fx)" % (v, v / ref))
    print("| %s | %s |" % (name, " | ".join(cells)))

# RDMA operations per RPC in the metadata run, from the client's
# mountstats diffed across it (both passes summed). Ours: 27 Long Calls,
# 28 Reply chunks, 29 MRs, 30/31 remote invalidations, 32 LOCAL_INV. The
# in-tree xprt: rdma line (xprt_rdma_print_stats): 12/13/14 read/write/
# reply chunk segments (one MR each), 22 NOMSG (Long) Calls, 26 LOCAL_INV.
# RPCs: field 7, sends.
META = ("-meta.xprt0", "-meta.xprt1")
DATA = (".mounted", "-meta.xprt0")	# the lay-out and the three fio jobs
def delta(t, fields, w=META):
    tot, any_ = 0, False
    for p in (1, 2):
        a, b = xprt(t, p, w[0]), xprt(t, p, w[1])
        # a line without the field (an older module) counts as absent
        if not a or not b or len(a) != len(b) or max(fields) >= len(a):
            continue
        any_ = True
        tot += sum(int(b[n]) - int(a[n]) for n in fields)
    return tot if any_ else None

OURS = {"long": (27,), "reply": (28,), "mrs": (29,), "linv": (32,),
        "rinv": (30, 31)}
INTREE = {"long": (22,), "reply": (14,), "mrs": (12, 13, 14), "linv": (26,),
          "rinv": None}
RTAGS = ("v2", "fb", "r2", "ref")
print()
print("| metadata run, client's RDMA operations per RPC | %s |" %
      " | ".join(NAMES[t] + vers(t) for t in RTAGS))
print("|---|" + "---|" * len(RTAGS))
rpcs = {t: delta(t, (7,)) for t in RTAGS}
print("| RPCs sent (xprt sends, 2 passes) | %s |" %
      " | ".join("-" if rpcs[t] is None else str(rpcs[t]) for t in RTAGS))
for key, name in (("long", "Long Calls (NOMSG + Position-Zero Read chunk)"),
                  ("reply", "Reply chunks (in-tree: Reply chunk segments)"),
                  ("mrs", "MRs registered (in-tree: chunk segments)"),
                  ("linv", "LOCAL_INV"),
                  ("rinv", "remote invalidations (in-tree: not counted)")):
    cells = []
    for t in RTAGS:
        fields = (OURS if t in ("v2", "fb") else INTREE)[key]
        d = delta(t, fields) if fields else None
        cells.append("-" if d is None or not rpcs[t]
                     else "%.3f" % (d / rpcs[t]))
    print("| %s | %s |" % (name, " | ".join(cells)))
# the same per file (created, stat'ed, unlinked)
for key, name in (("rpcs", "RPCs per file"),
                  ("reply", "Reply chunks per file (in-tree: segments)")):
    cells = []
    for t in RTAGS:
        d = rpcs[t] if key == "rpcs" else delta(
            t, (OURS if t in ("v2", "fb") else INTREE)[key])
        n = sum(nfiles for p in (1, 2) if xprt(t, p, "-meta.xprt1"))
        cells.append("-" if d is None or not n else "%.2f" % (d / n))
    print("| %s | %s |" % (name, " | ".join(cells)))
# our inline thresholds (fields 13, 14); the in-tree line has none
cells = []
for t in RTAGS:
    x = xprt(t, 1, "-meta.xprt1") or xprt(t, 2, "-meta.xprt1")
    cells.append("%s / %s" % (x[13], x[14]) if t in ("v2", "fb") and x
                 else "-")
print("| inline threshold send / receive (bytes) | %s |" % " | ".join(cells))

# the same counters over the data workloads, for comparison: the in-tree
# client places READ and WRITE payloads directly (Write chunks, Read
# chunks at other positions); ours without DDP moves them in Long Calls
# and Reply chunks
print()
print("| data workloads (lay-out + 3 fio jobs), per RPC | %s |" %
      " | ".join(NAMES[t] + vers(t) for t in RTAGS))
print("|---|" + "---|" * len(RTAGS))
drpcs = {t: delta(t, (7,), DATA) for t in RTAGS}
print("| RPCs sent (xprt sends, 2 passes) | %s |" %
      " | ".join("-" if drpcs[t] is None else str(drpcs[t]) for t in RTAGS))
for name, ours, intree in (
        ("Long Calls", (27,), (22,)),
        ("Reply chunks (in-tree: segments)", (28,), (14,)),
        # ours: fields 34 and 35 where the module has DDP
        ("Read chunks (DDP; in-tree: segments, Long Calls' too)", (34,), (12,)),
        ("Write chunks (in-tree: segments)", (35,), (13,)),
        ("MRs registered (in-tree: chunk segments)", (29,), (12, 13, 14)),
        ("LOCAL_INV", (32,), (26,))):
    cells = []
    for t in RTAGS:
        fields = ours if t in ("v2", "fb") else intree
        d = delta(t, fields, DATA) if fields else None
        cells.append("-" if d is None or not drpcs[t]
                     else "%.3f" % (d / drpcs[t]))
    print("| %s | %s |" % (name, " | ".join(cells)))

mem = mem_table()

print()
# Goal 2 from every run of the parallel load, paired: each pass, each of
# the three rounds under perf (perf_par_run) and each paired round gives
# ours : in-tree of the same pass or round; the goal is the median of
# those ratios. The mean of two passes alone moved 0.97-1.15x between
# runs on one slow pass, while a pair's runs in one VM run moved up to
# 1.9x apart with the host. In a perf round IOPS is the RPCs sent in the
# same BENCH_TIME and CPU the guest's busy ticks over it (perf's own work
# included: the guest is busy throughout, so the two figures are each
# other's inverse).
def par_rounds():
    iops, cpu_ = [], []
    for p in (1, 2):
        a, b = fio1("v2", p, "par", "iops"), fio1("ref", p, "par", "iops")
        if a and b:
            iops.append(a / b)
        a, b = par_cpu("v2", p), par_cpu("ref", p)
        if a and b:
            cpu_.append(a / b)
    for sfx in ("", "-2", "-3"):
        try:
            got = [[int(open("%s/perf-par-%s%s.%s" % (res, t, sfx, k)).read())
                    for k in ("rpcs", "ticks")] for t in ("v2", "ref")]
        except (OSError, ValueError):
            continue
        (n, c), (rn, rc) = got
        if n and rn and rc:
            iops.append(n / rn)
            cpu_.append((c / n) / (rc / rn))
    a, b = pair_ratios()
    return iops + a, cpu_ + b

pair_table()
print()
par_iops, par_cpu_r = par_rounds()
print("goals, rdma2 -> svcrdma2: " + "; ".join((
    median_goal("parallel IOPS : in-tree, median of the passes, perf "
                "rounds and paired rounds", par_iops, 1.1),
    median_goal("CPU per RPC : in-tree, the same", par_cpu_r, 0.8,
                higher=False),
    goal("1 MiB seq read : ib_write_bw", means[rows[1][0], "v2"],
         wire["write"], 0.9),
    goal("1 MiB seq write : ib_read_bw", means[rows[2][0], "v2"],
         wire["read"], 0.9),
    mem_goal(mem))))

# the NFS operations of the metadata run per file, from the per-op
# statistics of mountstats (first figure: operations)
def ops(t, p, what):
    d, on = {}, False
    try:
        lines = open("%s/%s-%d-meta.%s" % (res, t, p, what)).read().splitlines()
    except OSError:
        return None
    for l in lines:
        if "per-op statistics" in l:
            on = True
        elif on and ":" in l:
            k, v = l.split(":", 1)
            d[k.strip()] = int(v.split()[0])
    return d
print()
for t in TAGS:
    tot, n = {}, 0
    for p in (1, 2):
        a, b = ops(t, p, "stats0"), ops(t, p, "stats1")
        if not a or not b:
            continue
        n += nfiles
        for k in b:
            tot[k] = tot.get(k, 0) + b[k] - a.get(k, 0)
    if n:
        print("NFS ops per file, %s: " % NAMES[t] + ", ".join(
            "%s %.2f" % (k, v / n) for k, v in sorted(tot.items())
            if v / n >= 0.005))

# each pass, so the spread shows
print()
def fmt(v):
    return "-" if v is None else "%.1f" % v
for t in TAGS:
    print("passes %s: " % NAMES[t] + "; ".join(
        "%s IOPS, %s/%s MB/s, %s ops/s, %s IOPS parallel at %s us CPU/RPC"
        % tuple(fmt(f(t, p)) for _, f in rows)
        for p in (1, 2)))
