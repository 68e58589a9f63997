#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Delete an RDMA device the moment a trace event shows up.

Usage: cb_linkcut.py INSTANCE EVENT DEVINDEX

Reads the trace_pipe of the tracefs instance INSTANCE (which should have
only EVENT enabled) and, at the first line naming EVENT, sends
RDMA_NLDEV_CMD_DELLINK for the RDMA device of index DEVINDEX over rdma
netlink, which is what `rdma link delete` does, but with no process to
start in between: under TCG starting one takes longer than a callback's
round trip. Prints "ready" once it is reading, then the line that fired
and the kernel's answer, which comes when the device is gone. Exit
status 0 when the kernel answered 0.
"""
import os
import socket
import struct
import sys
import time

NETLINK_RDMA = 20
RDMA_NL_NLDEV = 5			# include/uapi/rdma/rdma_netlink.h
RDMA_NLDEV_CMD_DELLINK = 4
RDMA_NLDEV_ATTR_DEV_INDEX = 1		# u32
NLM_F_REQUEST = 0x1
NLM_F_ACK = 0x4
NLMSG_ERROR = 2
TRACEFS = "/sys/kernel/tracing"


def dellink(index):
    """The netlink message: nlmsghdr, then one u32 attribute."""
    attr = struct.pack("=HHI", 8, RDMA_NLDEV_ATTR_DEV_INDEX, index)
    hdr = struct.pack("=IHHII", 16 + len(attr),
                      (RDMA_NL_NLDEV << 10) + RDMA_NLDEV_CMD_DELLINK,
                      NLM_F_REQUEST | NLM_F_ACK, 1, 0)
    return hdr + attr


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    inst, event, index = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3])
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_RDMA)
    sock.bind((0, 0))
    msg = dellink(index)
    fd = os.open(f"{TRACEFS}/instances/{inst}/trace_pipe", os.O_RDONLY)
    print("ready", flush=True)
    seen = b""
    while event + b":" not in seen:
        seen = seen[-4096:] + os.read(fd, 4096)
    t0 = time.monotonic_ns()
    # the kernel unregisters the device in this call: it returns when
    # the device is gone, the answer is queued by then
    sock.send(msg)
    ans = sock.recv(4096)
    t1 = time.monotonic_ns()
    os.close(fd)
    line = next(l for l in seen.split(b"\n") if event + b":" in l)
    print(line.decode(errors="replace").strip())
    err = -1
    if len(ans) >= 20 and struct.unpack_from("=H", ans, 4)[0] == NLMSG_ERROR:
        err = struct.unpack_from("=i", ans, 16)[0]
    print(f"DELLINK of device {index} sent as the event was read; "
          f"answer {err}, the device gone {(t1 - t0) // 1000000} ms later",
          flush=True)
    return 0 if err == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
