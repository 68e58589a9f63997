# SPDX-License-Identifier: GPL-2.0
# What meta_split.py, cpu_split.py and cpu_leaf.py share: the pairs'
# names, the rows of the CPU split, a figure beside its ratio to the
# in-tree pair (ref), and the goals line: ours (v2) against the in-tree
# pair, the client's rows and the server's rows each at most 0.75x (goal
# 1, Documentation/results.rst's introduction).

NAMES = {"v2": "rdma2 -> svcrdma2", "fb": "rdma2 -> svcrdma",
         "r2": "rdma -> svcrdma2", "ref": "rdma -> svcrdma",
         "v2b": "rdma2 -> svcrdma2, CPU_AB"}

# row, side, the entry points (ours, the in-tree ones): each is called by
# the RPC layer, a CQ or a work item, never by another of them
ROWS = [
    ("client: ->send_request (marshal, register, post)", "client",
     ["xprt_rdma2_send_request", "xprt_rdma_send_request"]),
    ("client: Receive completion (the reply)", "client",
     ["rpcrdma2_wc_receive", "rpcrdma_wc_receive"]),
    ("client: Send completion", "client",
     ["rpcrdma2_wc_send", "rpcrdma_wc_send"]),
    ("client: LOCAL_INV completions", "client",
     ["frwr2_wc_localinv_done", "frwr2_wc_localinv", "frwr2_wc_localinv_wake",
      "frwr_wc_localinv_done", "frwr_wc_localinv", "frwr_wc_localinv_wake"]),
    ("server: Receive completion", "server",
     ["svc_rdma2_wc_receive", "svc_rdma_wc_receive"]),
    ("server: ->xpo_recvfrom", "server",
     ["svc_rdma2_recvfrom", "svc_rdma_recvfrom"]),
    ("server: ->xpo_sendto", "server",
     ["svc_rdma2_sendto", "svc_rdma_sendto"]),
    ("server: Send completion, and its deferred release", "server",
     ["svc_rdma2_wc_send", "svc_rdma_wc_send",
      "svc_rdma_send_ctxt_put_async"]),
]
# An entry point that ends in a tail call (a jmp: no frame of its own on
# the stack) does not have its callee's samples under it: 6.12's
# rpcrdma_wc_receive ends so with rpcrdma_reply_handler, and `objdump
# -dr` finds no other on these paths that is not an error path or
# sunrpc's (svc_xprt_enqueue, alike in both servers). In the report with
# callees the callee is added when its share is the larger, which a
# callee under a frame cannot be; by parent it is an entry point of its
# own, called from nowhere else.
TAIL = {"rpcrdma_wc_receive": "rpcrdma_reply_handler"}
# inside the rows above: posting to rxe, whose Sends run in the caller
RXE = ["rxe_post_send", "rxe_post_recv"]
# an idle CPU's samples land here, self time (the halt, its loop)
IDLE = ["__cpuidle_text_start", "default_idle", "do_idle"]

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
