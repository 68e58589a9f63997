#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Match every RPC-over-RDMA message of a capture with what the rpcrdma2
tracepoints of its sender and its receiver recorded.

Usage: trace_pcap.py [--lua FILE] [--client IP] [--server IP]
                     [--want KIND,...] [--records FILE] [--self-test]
                     PCAP CLIENT_TRACE SERVER_TRACE

PCAP is a capture of the RoCEv2 traffic between an xprtrdma2 client and
an svcrdma2 server (tests/pair/capture.sh); CLIENT_TRACE and SERVER_TRACE
are the text of /sys/kernel/tracing/trace on each, with the rpcrdma2
events enabled for the whole time the capture ran, in the order the
events happened (trace_clock counter: a coarse clock may give events on
two CPUs the same time, and the file puts them in either order). The
messages are decoded by tools/wireshark/rpcrdma2.lua under tshark and
paired, by direction and XID, in order, with

  client to server: xprtrdma2_hdr_send (as encoded) and
                    svcrdma2_hdr_recv (as decoded);
  server to client: svcrdma2_hdr_send, or svcrdma2_send_error /
                    svcrdma2_reject for an error, and xprtrdma2_hdr_recv.

Each trace record becomes a record of tests/wireshark/check_pcap.py for
its frame: version, credits, header type, rdma_flags and RESPONSE,
rdma_inv_handle, the Read segments, Write chunks and their segments, the
Reply chunk's segments, an error's code, and none of the dissector's
expert information for a broken rule. The Send With Invalidate rkey in
the frame's IETH must be what svcrdma2_reply says the server invalidated
(0: none) for that Send, what xprtrdma2_wc_receive says the client's
Receive saw invalidated, and the rdma_inv_handle of the Call with the
same XID; a client's Send invalidates nothing, and svcrdma2_wc_recv must
say so.

A packet the sender's RNIC sent again (the same destination QP and PSN
as an earlier one: an RC retransmission, IBA 9.7.4.1, which the
responder acknowledges as a duplicate) is the earlier message, counted
but not matched again. A message on the wire that either side did not
trace, or a traced send or receive not on the wire, is a mismatch too,
as is a trace buffer that lost events. --want names kinds of message the capture must hold: msg,
nomsg, connprop, error (header types), read, write, reply (chunks), swi
(Send With Invalidate). --records writes the records, to run
check_pcap.py on by hand. --self-test then changes one field of a copy
of a trace record, a reply's credits and an invalidated rkey in turn,
and each must fail its frame on that field alone.

Prints one "mismatch: ..." line per difference, naming the frame, the
trace event and the field, a "missing: KIND" line per kind wanted and
absent, "self-test passed: ..." or "self-test failed: ...", then
"messages: ..." with what the capture holds. Exits 0 when
everything matches, 1 if not, 2 if the inputs cannot be read.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_pcap  # noqa: E402  (beside this file)

# include/rpcrdma2/codec_names.h, as the tracepoints print them
VERSIONS = {"v1": 1, "v2": 2}
HTYPES = {
    1: {"RDMA_MSG": 0, "RDMA_NOMSG": 1, "RDMA_MSGP": 2, "RDMA_DONE": 3,
        "RDMA_ERROR": 4},
    2: {"RDMA2_MSG": 0, "RDMA2_NOMSG": 1, "RDMA2_ERROR": 4,
        "RDMA2_CONNPROP": 5},
}
ERRCODES = {
    1: {"ERR_VERS": 1, "ERR_CHUNK": 2},
    2: {"RDMA2_ERR_VERS": 1, "RDMA2_ERR_BAD_XDR": 2,
        "RDMA2_ERR_INVAL_HTYPE": 3, "RDMA2_ERR_READ_CHUNKS": 4,
        "RDMA2_ERR_WRITE_CHUNKS": 5, "RDMA2_ERR_SEGMENTS": 6,
        "RDMA2_ERR_WRITE_RESOURCE": 7, "RDMA2_ERR_REPLY_RESOURCE": 8,
        "RDMA2_ERR_SYSTEM": 9},
}
MSG, NOMSG, ERROR, CONNPROP = 0, 1, 4, 5
F_RESPONSE = 1
IB_WC_WITH_INVALIDATE = 1 << 2
# the dissector's expert information for a rule of the specs broken, or
# a header it could not read: none may show on traffic between our two
# transports (rpc_external and rpc_malformed only say what the dissector
# does not reassemble; Documentation/wireshark.rst, Limits)
BROKEN_RULES = (
    "truncated", "short", "unaligned", "bad_discriminator",
    "reserved_flags", "bad_position", "inv_handle_unmatched",
    "nomsg_empty", "nomsg_no_payload_chunk", "reply_reads", "no_payload",
    "xid_mismatch", "msg_type_mismatch", "error_not_response", "bad_error",
    "bad_property_value", "unknown_htype", "internal",
)
KINDS = ("msg", "nomsg", "connprop", "error", "read", "write", "reply",
         "swi")

# the timestamp (seconds, or a count with trace_clock counter), the event
LINE = re.compile(r"\s(\d+(?:\.\d+)?): (\w+): (.*)$")
ENTRIES = re.compile(r"^# entries-in-buffer/entries-written: (\d+)/(\d+)")


class Event:
    """One trace line: its event name, fields and place in the file."""

    def __init__(self, seq, name, text):
        self.seq = seq
        self.name = name
        self.text = text
        self.f = {}
        prefix = ""
        for tok in text.split():
            if "=" not in tok:
                # svcrdma2_reply: "cq.id=.. cid=.. send cq.id=.. cid=.."
                prefix = tok + "_"
                continue
            k, v = tok.split("=", 1)
            self.f[prefix + k if k in self.f else k] = v

    def int(self, key):
        return int(self.f[key], 0)

    def cid(self, prefix=""):
        return (self.f[prefix + "cq.id"], self.f[prefix + "cid"])


def read_trace(path, problems):
    """The events of a trace file, in order; a lost event is a problem."""
    events = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = ENTRIES.match(line)
            if m and m.group(1) != m.group(2):
                problems.append("%s: the trace buffer lost events (%s of %s "
                                "kept)" % (path, m.group(1), m.group(2)))
            if "buffer started ####" in line:
                problems.append("%s: the trace buffer overran: %s" %
                                (path, line.strip()))
            m = LINE.search(line)
            if m:
                events.append(Event(len(events), m.group(2), m.group(3)))
    return events


class Header:
    """A header as one trace event recorded it."""

    def __init__(self, ev, side):
        self.ev = ev
        self.side = side        # "client" or "server"
        self.xid = ev.int("xid")
        self.vers = VERSIONS.get(ev.f["vers"])
        if self.vers is None:
            self.vers = int(ev.f["vers"], 0)
        self.inv = None         # Send With Invalidate rkey, 0 for none
        self.inv_from = None    # the event that said so
        if "htype" not in ev.f:
            # svcrdma2_send_error / svcrdma2_reject: an error
            self.htype = ERROR
            return
        self.htype = HTYPES.get(self.vers, {}).get(ev.f["htype"])
        if self.htype is None:
            self.htype = int(ev.f["htype"], 0)

    def label(self):
        return "%s's %s" % (self.side, self.ev.name)

    def checks(self):
        """(field, op, values) of check_pcap.py for this header."""
        ev, c = self.ev, []

        def want(field, value):
            c.append((field, "=", [str(value)]))

        def absent(field):
            c.append((field, "-", []))

        want("rpcrdma2.xid", "0x%08x" % self.xid)
        want("rpcrdma2.vers", self.vers)
        want("rpcrdma2.htype", self.htype)
        if "credits" in ev.f:
            want("rpcrdma2.credits", ev.int("credits"))
        if "err" in ev.f:
            code = ERRCODES.get(self.vers, {}).get(ev.f["err"])
            want("rpcrdma2.err",
                 code if code is not None else int(ev.f["err"], 0))
        if "flags" in ev.f:
            flags = ev.int("flags")
            if self.vers == 2:
                want("rpcrdma2.flags", flags)
                want("rpcrdma2.flags.response", flags & F_RESPONSE)
            elif flags:
                want("rpcrdma2.flags", flags)
            else:
                absent("rpcrdma2.flags")
        if "read_segs" in ev.f:
            lists = self.htype in (MSG, NOMSG)
            if self.vers == 2 and lists:
                want("rpcrdma2.inv_handle", ev.int("inv_handle"))
            elif ev.int("inv_handle"):
                want("rpcrdma2.inv_handle", ev.int("inv_handle"))
            else:
                absent("rpcrdma2.inv_handle")
            counts = (ev.int("read_segs"), ev.int("write_chunks"),
                      ev.int("reply_chunk"))
            if lists or any(counts):
                want("rpcrdma2.reads.count", counts[0])
                want("rpcrdma2.writes.count", counts[1])
            else:
                absent("rpcrdma2.reads.count")
                absent("rpcrdma2.writes.count")
            if counts[1] == 0:
                absent("rpcrdma2.write.segcount")
            elif counts[1] == 1:
                want("rpcrdma2.write.segcount", ev.int("write_segs"))
            else:
                # the event has the sum only
                c.append(("rpcrdma2.write.segcount", "*", []))
            if counts[2]:
                want("rpcrdma2.reply.segcount", ev.int("reply_segs"))
            else:
                absent("rpcrdma2.reply.segcount")
        for rule in BROKEN_RULES:
            absent("rpcrdma2.ei." + rule)
        return c


def last_before(index, key, seq):
    """The last event in @index[key] (events in order) before @seq."""
    best = None
    for ev in index.get(key, []):
        if ev.seq > seq:
            break
        best = ev
    return best


def first_after(index, key, seq):
    for ev in index.get(key, []):
        if ev.seq > seq:
            return ev
    return None


def by_cid(events, name, prefix=""):
    index = {}
    for ev in events:
        if ev.name == name:
            index.setdefault(ev.cid(prefix), []).append(ev)
    return index


def traced(client_ev, server_ev):
    """The headers each side traced, with the SWI rkey of each."""
    sends = {"c2s": [], "s2c": []}
    recvs = {"c2s": [], "s2c": []}
    wc_receive = by_cid(client_ev, "xprtrdma2_wc_receive")
    wc_recv = by_cid(server_ev, "svcrdma2_wc_recv")
    # a server's Send contexts are reused: svcrdma2_reply follows the
    # svcrdma2_hdr_send of its reply before the context's next one
    posts = by_cid(server_ev, "svcrdma2_hdr_send")
    for key, evs in by_cid(server_ev, "svcrdma2_reply", "send_").items():
        posts[key] = sorted(posts.get(key, []) + evs, key=lambda e: e.seq)
    for ev in client_ev:
        if ev.name == "xprtrdma2_hdr_send":
            h = Header(ev, "client")
            h.inv, h.inv_from = 0, "a client's Send"
            sends["c2s"].append(h)
        elif ev.name == "xprtrdma2_hdr_recv":
            h = Header(ev, "client")
            wc = last_before(wc_receive, ev.cid(), ev.seq)
            if wc:
                h.inv, h.inv_from = wc.int("inv_rkey"), wc
            recvs["s2c"].append(h)
    for ev in server_ev:
        if ev.name in ("svcrdma2_hdr_send", "svcrdma2_send_error",
                       "svcrdma2_reject"):
            h = Header(ev, "server")
            h.inv, h.inv_from = 0, "no svcrdma2_reply"
            if ev.name == "svcrdma2_hdr_send":
                r = first_after(posts, ev.cid(), ev.seq)
                if r and r.name == "svcrdma2_reply":
                    h.inv, h.inv_from = int(r.f["inv"], 0), r
            sends["s2c"].append(h)
        elif ev.name == "svcrdma2_hdr_recv":
            h = Header(ev, "server")
            wc = last_before(wc_recv, ev.cid(), ev.seq)
            if wc:
                flags = wc.int("flags")
                h.inv = 1 if flags & IB_WC_WITH_INVALIDATE else 0
                h.inv_from = wc
            recvs["c2s"].append(h)
    return sends, recvs


# what wire_messages() reads of each frame, and every field a record of
# Header.checks() may name
WIRE_FIELDS = ["ip.src", "ip.dst", "rpcrdma2.xid", "rpcrdma2.vers",
               "rpcrdma2.htype", "rpcrdma2.reads.count",
               "rpcrdma2.writes.count", "rpcrdma2.reply.segcount",
               "infiniband.bth.opcode", "infiniband.bth.destqp",
               "infiniband.bth.psn", "infiniband.ieth"]
RECORD_FIELDS = ["rpcrdma2.xid", "rpcrdma2.vers", "rpcrdma2.htype",
                 "rpcrdma2.credits", "rpcrdma2.err", "rpcrdma2.flags",
                 "rpcrdma2.flags.response", "rpcrdma2.inv_handle",
                 "rpcrdma2.reads.count", "rpcrdma2.writes.count",
                 "rpcrdma2.write.segcount", "rpcrdma2.reply.segcount"] + \
    ["rpcrdma2.ei." + r for r in BROKEN_RULES]


def wire_messages(frames, client, server):
    """The decoded messages in @frames (check_pcap.decode()), in frame
    order, as dicts, and how many were retransmissions of an earlier
    packet (left out)."""
    msgs, seen, resent = [], set(), 0
    for num in sorted(frames):
        l = frames[num]

        def one(name, default=None):
            v = l.get(name)
            return v[-1] if v else default

        if "rpcrdma2.xid" not in l:
            continue
        src, dst = one("ip.src"), one("ip.dst")
        if (src, dst) == (client, server):
            d = "c2s"
        elif (src, dst) == (server, client):
            d = "s2c"
        else:
            continue
        key = (d, one("infiniband.bth.destqp"), one("infiniband.bth.psn"))
        if key in seen:
            resent += 1
            continue
        seen.add(key)
        ieth = one("infiniband.ieth")
        msgs.append({
            "frame": num, "dir": d,
            "xid": int(one("rpcrdma2.xid"), 0),
            "vers": int(one("rpcrdma2.vers", "0"), 0),
            "htype": int(one("rpcrdma2.htype", "-1"), 0),
            "reads": int(one("rpcrdma2.reads.count", "0"), 0),
            "writes": int(one("rpcrdma2.writes.count", "0"), 0),
            "reply": "rpcrdma2.reply.segcount" in l,
            "inv": int(ieth.replace(":", ""), 16) if ieth else 0,
        })
    return msgs, resent


NAMES = {"c2s": "client > server", "s2c": "server > client"}


def describe(m):
    names = HTYPES.get(m["vers"], {})
    htype = next((k for k, v in names.items() if v == m["htype"]),
                 "htype %d" % m["htype"])
    return "frame %d (%s %s xid 0x%08x)" % (m["frame"], NAMES[m["dir"]],
                                            htype, m["xid"])


def pair_up(msgs, sends, recvs, problems):
    """[(message, sender's Header, receiver's Header)]: by direction and
    XID, in order; what is left over on any side is a problem."""
    out = []
    for d in ("c2s", "s2c"):
        wire, snd, rcv = {}, {}, {}
        for m in msgs:
            if m["dir"] == d:
                wire.setdefault(m["xid"], []).append(m)
        for h in sends[d]:
            snd.setdefault(h.xid, []).append(h)
        for h in recvs[d]:
            rcv.setdefault(h.xid, []).append(h)
        for xid in sorted(set(wire) | set(snd) | set(rcv)):
            w, s, r = wire.get(xid, []), snd.get(xid, []), rcv.get(xid, [])
            for i in range(max(len(w), len(s), len(r))):
                if i >= len(w):
                    for h in (s[i:i + 1] + r[i:i + 1]):
                        problems.append(
                            "%s: %s xid 0x%08x (#%d of that XID) is not on "
                            "the wire: %s" % (h.label(), NAMES[d], xid,
                                              i + 1, h.ev.text))
                    continue
                if i >= len(s):
                    problems.append("%s: the sender traced no such send" %
                                    describe(w[i]))
                if i >= len(r):
                    problems.append("%s: the receiver traced no such "
                                    "receive" % describe(w[i]))
                if i < len(s) and i < len(r):
                    out.append((w[i], s[i], r[i]))
    return sorted(out, key=lambda p: p[0]["frame"])


def check_swi(m, snd, rcv, calls, problems):
    """The IETH of a message against both sides and the Call."""
    for h in (snd, rcv):
        if h.inv is None:
            problems.append("%s: no completion traced for %s's %s" %
                            (describe(m), h.side, h.ev.name))
        elif h.side == "server" and m["dir"] == "c2s":
            if h.inv:
                problems.append("%s: %s says the Receive invalidated an "
                                "rkey; the wire has no IETH" %
                                (describe(m), h.inv_from.name))
        elif h.inv != m["inv"]:
            src = h.inv_from if isinstance(h.inv_from, str) else \
                h.inv_from.name
            problems.append("%s: Send With Invalidate rkey: wire 0x%08x, "
                            "%s's %s 0x%08x" % (describe(m), m["inv"],
                                                h.side, src, h.inv))
    if m["dir"] == "s2c" and m["inv"]:
        call = calls.get(m["xid"])
        asked = call[1].ev.int("inv_handle") if call else None
        if asked != m["inv"]:
            problems.append("%s: invalidates 0x%08x, the Call %s asked "
                            "for %s" % (describe(m), m["inv"],
                                        "(frame %d)" % call[0]["frame"]
                                        if call else "(none on the wire)",
                                        "0x%08x" % asked if call else "-"))


def self_test(pairs, frames, unknown, pcap, calls, client, server):
    """Whether the check catches a wrong field: the credits of the
    server's first traced reply, then the rkey the client's Receive saw
    invalidated, each changed in a copy, must fail their frame on that
    field alone. And whether it tells a retransmission from a message:
    that reply's packet once more is left out, once more with another
    PSN is a message of its own. Returns what it did, or why it failed,
    and a verdict."""
    done = []
    reply = next(((m, s) for m, s, _ in pairs
                  if s.ev.name == "svcrdma2_hdr_send" and
                  s.htype in (MSG, NOMSG)), None)
    swi = next(((m, s, r) for m, s, r in pairs if m["inv"]), None)
    if not reply or not swi:
        return "nothing to change: no reply, or none With Invalidate", False
    m, h = reply
    was = h.ev.f["credits"]
    h.ev.f["credits"] = str(int(was) + 1)
    rec = check_pcap.Record(m["frame"], describe(m))
    rec.checks = h.checks()
    h.ev.f["credits"] = was
    why = check_pcap.verdicts([rec], frames, unknown, pcap)[0][1] or ""
    if not why.startswith("rpcrdma2.credits: got") or "; " in why:
        return "credits %s+1 in %s: %s" % (was, describe(m),
                                             why or "passed"), False
    done.append("credits +1 fails %s on rpcrdma2.credits alone" %
                describe(m))
    m, s, r = swi
    r.inv ^= 1
    why = []
    check_swi(m, s, r, calls, why)
    r.inv ^= 1
    if len(why) != 1 or "Send With Invalidate rkey" not in why[0]:
        return "an invalidated rkey changed in %s: %s" % (
            describe(m), " | ".join(why) or "passed"), False
    done.append("an invalidated rkey changed fails %s on it alone" %
                describe(m))
    m = reply[0]
    msgs, resent = wire_messages(frames, client, server)
    again = dict(frames)
    again[max(frames) + 1] = frames[m["frame"]]
    got = wire_messages(again, client, server)
    if (len(got[0]), got[1]) != (len(msgs), resent + 1):
        return "%s sent again: %d messages, %d retransmitted" % (
            describe(m), len(got[0]), got[1]), False
    other = dict(frames[m["frame"]])
    psn = int(other["infiniband.bth.psn"][-1], 0)
    other["infiniband.bth.psn"] = [str((psn + 0x800000) & 0xffffff)]
    again[max(frames) + 1] = other
    got = wire_messages(again, client, server)
    if (len(got[0]), got[1]) != (len(msgs) + 1, resent):
        return "%s again with another PSN: %d messages, %d retransmitted" % (
            describe(m), len(got[0]), got[1]), False
    done.append("%s sent again is a retransmission, with another PSN a "
                "message" % describe(m))
    return "; ".join(done), True


def kinds_of(msgs):
    k = dict.fromkeys(KINDS, 0)
    for m in msgs:
        k["msg"] += m["htype"] == MSG
        k["nomsg"] += m["htype"] == NOMSG
        k["connprop"] += m["vers"] == 2 and m["htype"] == CONNPROP
        k["error"] += m["htype"] == ERROR
        k["read"] += m["reads"] > 0
        k["write"] += m["writes"] > 0
        k["reply"] += m["reply"]
        k["swi"] += m["inv"] != 0
    return k


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lua", default=check_pcap.DEFAULT_LUA)
    ap.add_argument("--client", default="198.18.0.2")
    ap.add_argument("--server", default="198.18.0.1")
    ap.add_argument("--want", default="",
                    help="kinds the capture must hold: " + ",".join(KINDS))
    ap.add_argument("--records", help="write the records to this file")
    ap.add_argument("--self-test", action="store_true",
                    help="then check that a wrong field in a trace fails")
    ap.add_argument("pcap")
    ap.add_argument("client_trace")
    ap.add_argument("server_trace")
    a = ap.parse_args()
    want = [k for k in a.want.split(",") if k]
    bad = [k for k in want if k not in KINDS]
    if bad:
        ap.error("unknown kind %s" % ",".join(bad))

    problems = []
    try:
        client_ev = read_trace(a.client_trace, problems)
        server_ev = read_trace(a.server_trace, problems)
        # one tshark run for it all (each costs ~30 s in a TCG guest)
        template = check_pcap.Record(0, "every field")
        template.checks = [(f, "*", []) for f in RECORD_FIELDS]
        wanted, unknown = check_pcap.wanted_fields(
            [template], check_pcap.known_fields(a.lua))
        frames = check_pcap.decode(a.pcap, WIRE_FIELDS + wanted, a.lua)
    except (OSError, ValueError, RuntimeError) as e:
        print("error: %s" % e)
        return 2
    msgs, resent = wire_messages(frames, a.client, a.server)
    sends, recvs = traced(client_ev, server_ev)
    pairs = pair_up(msgs, sends, recvs, problems)

    calls = {m["xid"]: (m, s) for m, s, _ in pairs
             if m["dir"] == "c2s" and m["htype"] in (MSG, NOMSG)}
    records = []
    for m, snd, rcv in pairs:
        check_swi(m, snd, rcv, calls, problems)
        for h in (snd, rcv):
            rec = check_pcap.Record(m["frame"], "%s: as the %s" %
                                    (describe(m), h.label()))
            rec.checks = h.checks()
            records.append(rec)
    if a.records:
        with open(a.records, "w", encoding="utf-8") as f:
            for rec in records:
                f.write("record %d %s\n" % (rec.frame, rec.name))
                for field, op, vals in rec.checks:
                    f.write(" ".join([field] + ([op] if op != "=" else [])
                                     + vals) + "\n")
    for name, why in check_pcap.verdicts(records, frames, unknown, a.pcap):
        if why:
            problems.append("%s: %s" % (name, why))

    for p in problems:
        print("mismatch: " + p)
    tested = True
    if a.self_test:
        what, tested = self_test(pairs, frames, unknown, a.pcap, calls,
                                 a.client, a.server)
        print("self-test %s: %s" % ("passed" if tested else "failed", what))
    k = kinds_of(msgs)
    missing = [x for x in want if not k[x]]
    for x in missing:
        print("missing: " + x)
    n = {d: sum(m["dir"] == d for m in msgs) for d in NAMES}
    print("messages: %d (%d client > server, %d server > client), %d "
          "matched with both traces (%d records), %d retransmitted by the "
          "RNIC; %s" %
          (len(msgs), n["c2s"], n["s2c"], len(pairs), len(records), resent,
           " ".join("%s=%d" % kv for kv in k.items())))
    return 1 if problems or missing or not msgs or not tested else 0


if __name__ == "__main__":
    sys.exit(main())
