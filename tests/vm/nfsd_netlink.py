#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Drive nfsd through its generic netlink family, as nfsdctl does.

Debian 12 ships no nfsdctl (nfs-utils 2.6.2), but its 6.12 kernel has the
"nfsd" family (include/uapi/linux/nfsd_netlink.h) that nfsdctl and
nfs.conf's autostart use. This speaks it with a raw NETLINK_GENERIC socket:

  nfsd_netlink.py listen NAME:ADDR:PORT...   NFSD_CMD_LISTENER_SET (IPv6: [ADDR])
  nfsd_netlink.py listeners                  NFSD_CMD_LISTENER_GET, one
                                             "NAME ADDR PORT" per line
  nfsd_netlink.py threads N                  NFSD_CMD_THREADS_SET

A command the kernel refuses exits 1 and prints its errno by name.
"""
import errno
import ipaddress
import os
import socket
import struct
import sys

NETLINK_GENERIC = 16
NLM_F_REQUEST, NLM_F_ACK = 0x1, 0x4
NLMSG_ERROR = 2
NLA_F_NESTED = 0x8000
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 3, 1, 2

# include/uapi/linux/nfsd_netlink.h
NFSD_CMD_THREADS_SET, NFSD_CMD_LISTENER_SET, NFSD_CMD_LISTENER_GET = 2, 6, 7
NFSD_A_SERVER_THREADS = 1
NFSD_A_SERVER_SOCK_ADDR = 1
NFSD_A_SOCK_ADDR, NFSD_A_SOCK_TRANSPORT_NAME = 1, 2


class NetlinkError(Exception):
    def __init__(self, err):
        super().__init__(f"{errno.errorcode.get(err, err)} ({os.strerror(err)})")


def nla(kind, payload):
    hdr = struct.pack("=HH", 4 + len(payload), kind)
    return hdr + payload + b"\0" * (-len(payload) % 4)


def nla_parse(buf):
    """Yield (type without flags, payload) for each attribute in buf."""
    while len(buf) >= 4:
        length, kind = struct.unpack_from("=HH", buf)
        if length < 4:
            break
        yield kind & ~NLA_F_NESTED, buf[4:length]
        buf = buf[(length + 3) & ~3:]


class Genl:
    def __init__(self, family):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        self.sock.bind((0, 0))
        self.seq = 0
        reply = self.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                             nla(CTRL_ATTR_FAMILY_NAME, family.encode() + b"\0"))
        ids = [p for k, p in nla_parse(reply[0]) if k == CTRL_ATTR_FAMILY_ID]
        if not ids:
            raise NetlinkError(errno.ENOENT)
        self.family = struct.unpack("=H", ids[0][:2])[0]

    def request(self, kind, cmd, attrs=b""):
        """Send one request; return the attributes of each reply message."""
        self.seq += 1
        body = struct.pack("=BBH", cmd, 1, 0) + attrs
        self.sock.send(struct.pack("=IHHII", 16 + len(body), kind,
                                   NLM_F_REQUEST | NLM_F_ACK, self.seq, 0) + body)
        replies = []
        while True:
            data = self.sock.recv(65536)
            while len(data) >= 16:
                length, mtype, _, seq, _ = struct.unpack_from("=IHHII", data)
                msg, data = data[16:length], data[(length + 3) & ~3:]
                if seq != self.seq:
                    continue
                if mtype == NLMSG_ERROR:
                    err = -struct.unpack_from("=i", msg)[0]
                    if err:
                        raise NetlinkError(err)
                    return replies
                replies.append(msg[4:])	# past the genlmsghdr


def sockaddr(addr, port):
    ip = ipaddress.ip_address(addr.strip("[]"))
    if ip.version == 4:
        return struct.pack("=H", socket.AF_INET) + struct.pack(">H", port) + ip.packed + b"\0" * 8
    return (struct.pack("=H", socket.AF_INET6) + struct.pack(">HI", port, 0) +
            ip.packed + struct.pack("=I", 0))


def parse_sockaddr(buf):
    family = struct.unpack_from("=H", buf)[0]
    port = struct.unpack_from(">H", buf, 2)[0]
    if family == socket.AF_INET:
        return str(ipaddress.IPv4Address(buf[4:8])), port
    return str(ipaddress.IPv6Address(buf[8:24])), port


def main(argv):
    nfsd = Genl("nfsd")
    if argv[:1] == ["listen"] and len(argv) > 1:
        attrs = b""
        for spec in argv[1:]:
            name, rest = spec.split(":", 1)
            addr, port = rest.rsplit(":", 1)
            attrs += nla(NFSD_A_SERVER_SOCK_ADDR | NLA_F_NESTED,
                         nla(NFSD_A_SOCK_ADDR, sockaddr(addr, int(port))) +
                         nla(NFSD_A_SOCK_TRANSPORT_NAME, name.encode() + b"\0"))
        nfsd.request(nfsd.family, NFSD_CMD_LISTENER_SET, attrs)
    elif argv == ["listeners"]:
        for reply in nfsd.request(nfsd.family, NFSD_CMD_LISTENER_GET):
            for kind, nested in nla_parse(reply):
                if kind != NFSD_A_SERVER_SOCK_ADDR:
                    continue
                sock = dict(nla_parse(nested))
                name = sock[NFSD_A_SOCK_TRANSPORT_NAME].rstrip(b"\0").decode()
                print(name, *parse_sockaddr(sock[NFSD_A_SOCK_ADDR]))
    elif argv[:1] == ["threads"] and len(argv) == 2:
        nfsd.request(nfsd.family, NFSD_CMD_THREADS_SET,
                     nla(NFSD_A_SERVER_THREADS, struct.pack("=I", int(argv[1]))))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except NetlinkError as e:
        print(f"nfsd_netlink.py {' '.join(sys.argv[1:])}: {e}", file=sys.stderr)
        sys.exit(1)
