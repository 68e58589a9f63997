# SPDX-License-Identifier: GPL-2.0
# What meta_split.py and cpu_split.py share: the pairs' names, a figure
# beside its ratio to the in-tree pair (ref), and the goals line: ours
# (v2) against the in-tree pair, the client's rows and the server's rows
# each at most 0.75x (goal 1, Documentation/results.rst's introduction).

NAMES = {"v2": "rdma2 -> svcrdma2", "fb": "rdma2 -> svcrdma",
         "r2": "rdma -> svcrdma2", "ref": "rdma -> svcrdma"}

def vs_ref(cols, c, v, f, fmt):
    """v (column c's figure) in fmt, with its ratio to f(the ref column)"""
    ref = [x for x in cols if x[0] == "ref"]
    if not ref or c[0] == "ref" or not f(ref[0]):
        return fmt % v
    return (fmt + " (%.2fx)") % (v, v / f(ref[0]))

def print_side_goals(what, cols, rows):
    """cols: (tag, ...) tuples; rows(col, side): the sum of a side's rows"""
    v2 = [c for c in cols if c[0] == "v2"]
    ref = [c for c in cols if c[0] == "ref"]
    if not v2 or not ref:
        return
    out = []
    for side in ("client", "server"):
        r = rows(v2[0], side) / rows(ref[0], side)
        out.append("%s rows : in-tree <= 0.75x: %.2fx %s" %
                   (side, r, "met" if r <= 0.75 else "not met"))
    print()
    print("goals, rdma2 -> svcrdma2, %s: %s" % (what, "; ".join(out)))
