#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check what tshark shows, with tools/wireshark/rpcrdma2.lua loaded, for
the packets of a capture against expected records.

Usage: check_pcap.py [--lua FILE] [--label TEXT] [--summary TEXT]
                     [--tshark-arg ARG]... PCAP RECORDS

RECORDS is a text file of records, one per packet checked:

    record N NAME...      the record of frame N; NAME names it in the output
    FIELD V1 V2 ...       FIELD's values in the frame, every occurrence, in
                          tree order (tshark -e FIELD)
    FIELD ~ V1 V2 ...     the same values, in any order
    FIELD + V1 V2 ...     at least these values, in any order
    FIELD *               FIELD occurs
    FIELD -               FIELD does not occur
    PREFIX.* ...          as above, for the list of the fields named
                          PREFIX.<something> that occur, each once
                          (rpcrdma2.ei.* are the dissector's expert infos)

Blank lines and lines starting with # are ignored. Values compare as
integers when both sides read as one (decimal, 0x hex; tshark's booleans
are 0 and 1), else as strings. FIELD may be any field tshark knows, of any
protocol (rpc.xid, nfs.procedure_v3, _ws.malformed ...).

Every frame of the capture, with a record or not, must also be free of Lua
errors. Prints "PASS: LABEL: NAME (frame N)" or "FAIL: LABEL: NAME (frame
N): why" per record, and one line for the Lua errors; exits 1 if any
failed, 2 if tshark could not run. With --summary TEXT, one line for the
whole capture instead: "PASS: LABEL: TEXT (N records, no Lua error)", or
a FAIL line
with the number of records that failed and the first few.

From Python: check(pcap, records) returns [(name, why-or-None), ...];
records as parse_records() returns them. It is known_fields(),
wanted_fields(), decode() (one tshark run) and verdicts(), for a caller
that reads more of the same run (tests/wireshark/trace_pcap.py).
"""

import argparse
import json
import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
DEFAULT_LUA = os.path.join(TOP, "tools", "wireshark", "rpcrdma2.lua")
# Wireshark's own RPC-over-RDMA heuristic (Version 1 only) takes some
# Version 2 headers; it must not compete with the one under test.
DEFAULT_ARGS = ["--disable-heuristic", "rpcrdma_infiniband"]
OPS = ("~", "+", "*", "-")


class Record:
    """What one frame must show."""

    def __init__(self, frame, name):
        self.frame = frame
        self.name = name
        self.checks = []    # (field, op, values); op "=" or one of OPS


def parse_records(path):
    """Read a records file (see the module's doc) into a list of Record."""
    records = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            where = "%s:%d" % (path, lineno)
            if words[0] == "record":
                if len(words) < 2 or not words[1].isdigit():
                    raise ValueError(where + ": record needs a frame number")
                records.append(Record(int(words[1]),
                                      " ".join(words[2:]) or words[1]))
                continue
            if not records:
                raise ValueError(where + ": field before the first record")
            field, rest = words[0], words[1:]
            op = "="
            if rest and rest[0] in OPS:
                op, rest = rest[0], rest[1:]
                if op in ("*", "-") and rest:
                    raise ValueError(where + ": %s takes no values" % op)
            if op == "=" and not rest:
                raise ValueError(where + ": %s needs a value, - or *" % field)
            records[-1].checks.append((field, op, rest))
    return records


def norm(value):
    """A value as compared: an int if it reads as one, else the string."""
    v = value.strip()
    if v in ("True", "False"):
        return int(v == "True")
    for base in (0, 10):
        try:
            return int(v, base)
        except ValueError:
            pass
    return v


def sort_key(v):
    return (isinstance(v, str), str(v) if isinstance(v, str) else v)


def compare(op, got, want):
    """None if the frame's values @got satisfy (@op, @want), else why."""
    g = [norm(v) for v in got]
    w = [norm(v) for v in want]
    if op == "*":
        return None if g else "absent"
    if op == "-":
        return None if not g else "present: %s" % " ".join(got)
    if op == "=":
        ok = g == w
    elif op == "~":
        ok = sorted(g, key=sort_key) == sorted(w, key=sort_key)
    else:
        left = list(g)
        ok = True
        for v in w:
            if v in left:
                left.remove(v)
            else:
                ok = False
    if ok:
        return None
    return "got %s, want %s%s" % (" ".join(got) or "-",
                                  "" if op == "=" else op + " ",
                                  " ".join(want))


def tshark(args):
    return subprocess.run(["tshark"] + args, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True,
                          check=False)


def known_fields(lua):
    """Every field name tshark knows, with the dissector loaded."""
    r = tshark(["-G", "fields", "-X", "lua_script:" + lua])
    if r.returncode:
        raise RuntimeError("tshark -G fields: " + r.stderr.strip())
    names = set()
    for line in r.stdout.splitlines():
        cols = line.split("\t")
        if cols[0] in ("F", "P") and len(cols) > 2:
            names.add(cols[2])
    return names


def wanted_fields(records, fields):
    """The fields tshark must print to check @records, given @fields, the
    names it knows (known_fields()): (wanted, unknown), lists."""
    wanted, unknown, by_prefix = [], [], {}
    for rec in records:
        for field, _, _ in rec.checks:
            if field.endswith(".*"):
                # (each prefix once: tshark knows ~240k fields, and the
                # records of every prefix of a message repeat the same few)
                prefix = field[:-1]
                got = by_prefix.get(prefix)
                if got is None:
                    got = sorted(f for f in fields if f.startswith(prefix))
                    by_prefix[prefix] = got
            else:
                got = [field] if field in fields else []
            if not got:
                unknown.append(field)
            wanted += got
    return list(dict.fromkeys(wanted)), list(dict.fromkeys(unknown))


def decode(pcap, wanted, lua=DEFAULT_LUA, tshark_args=None):
    """One tshark run over @pcap: {frame number: {field: [values]}} with
    the fields @wanted, frame.number and the expert messages."""
    extra = DEFAULT_ARGS if tshark_args is None else tshark_args
    args = ["-n", "-r", pcap, "-X", "lua_script:" + lua] + extra + \
        ["-T", "json"]
    for f in dict.fromkeys(["frame.number", "_ws.expert.message"] + wanted):
        args += ["-e", f]
    r = tshark(args)
    errors = [l for l in r.stderr.splitlines()
              if l.strip() and not l.startswith("Running as user")]
    if r.returncode or errors:
        raise RuntimeError("tshark -r %s: exit %d: %s" %
                           (pcap, r.returncode, " | ".join(errors)))
    frames = {}
    for pkt in json.loads(r.stdout or "[]"):
        layers = pkt["_source"]["layers"]
        frames[int(layers["frame.number"][0])] = layers
    return frames


def verdicts(records, frames, unknown, pcap):
    """Check @records against @frames (decode()); @unknown lists the
    fields tshark does not know. Returns what check() does."""
    results = []
    for rec in records:
        label = "%s (frame %d)" % (rec.name, rec.frame)
        layers = frames.get(rec.frame)
        if layers is None:
            results.append((label, "no such frame in %s" % pcap))
            continue
        why = []
        for field, op, want in rec.checks:
            if field in unknown:
                why.append("%s: no such field" % field)
                continue
            if field.endswith(".*"):
                prefix = field[:-1]
                got = sorted(f for f in layers if f.startswith(prefix))
            else:
                got = layers.get(field, [])
            w = compare(op, got, want)
            if w:
                why.append("%s: %s" % (field, w))
        results.append((label, "; ".join(why) or None))

    lua_errors = sorted(n for n, layers in frames.items()
                        if any(m.startswith("Lua Error")
                               for m in layers.get("_ws.expert.message",
                                                   [])))
    results.append(("no Lua error in %d frames" % len(frames),
                    "Lua errors in frames %s" %
                    " ".join(map(str, lua_errors)) if lua_errors else None))
    return results


def check(pcap, records, lua=DEFAULT_LUA, tshark_args=None):
    """Check @records (a list of Record) against the capture @pcap.

    Returns a list of (name, why) with why None for a record that holds;
    the last entry is the capture-wide check for Lua errors. Raises
    RuntimeError when tshark cannot run.
    """
    wanted, unknown = wanted_fields(records, known_fields(lua))
    return verdicts(records, decode(pcap, wanted, lua, tshark_args),
                    unknown, pcap)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lua", default=DEFAULT_LUA,
                    help="the dissector (default: %(default)s)")
    ap.add_argument("--label", default="wireshark",
                    help="prefix of the PASS/FAIL lines")
    ap.add_argument("--summary", metavar="TEXT",
                    help="one line for all records, named TEXT")
    ap.add_argument("--tshark-arg", action="append", dest="targs",
                    help="pass ARG to tshark instead of "
                    + " ".join(DEFAULT_ARGS) + " (repeat for more)")
    ap.add_argument("pcap")
    ap.add_argument("records")
    a = ap.parse_args()
    try:
        results = check(a.pcap, parse_records(a.records), a.lua, a.targs)
    except (OSError, ValueError, RuntimeError) as e:
        print("FAIL: %s: %s" % (a.label, e))
        return 2
    failed = [(name, why) for name, why in results if why]
    if a.summary:
        if failed:
            print("FAIL: %s: %s: %d of %d records failed: %s" %
                  (a.label, a.summary, len(failed), len(results),
                   " | ".join("%s: %s" % f for f in failed[:3])))
        else:
            print("PASS: %s: %s (%d records, no Lua error)" %
                  (a.label, a.summary, len(results) - 1))
        return 1 if failed else 0
    for name, why in results:
        if why:
            print("FAIL: %s: %s: %s" % (a.label, name, why))
        else:
            print("PASS: %s: %s" % (a.label, name))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
