#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Feed mount options to a filesystem's parser through the new mount API
(fsopen + fsconfig FSCONFIG_SET_STRING), without mounting, and print what
the kernel says: one line per option, "ok KEY=VALUE" or
"error KEY=VALUE: <errno name>: <messages from the fs_context log>".
NFS logs parser errors only to that log (with mount(2) they go to the
sunrpc debug facility), so this is how a test reads them.

Usage: fsconfig_probe.py FSTYPE KEY=VALUE...   (exit 1 if any failed)"""

import ctypes
import errno
import os
import sys

SYS_FSOPEN = 430        # x86_64
SYS_FSCONFIG = 431
FSCONFIG_SET_STRING = 1

libc = ctypes.CDLL(None, use_errno=True)


def log_messages(fd):
    """Drain the fs_context log: each read returns one message."""
    msgs = []
    while True:
        try:
            msg = os.read(fd, 4096)
        except OSError:
            break
        if not msg:
            break
        msgs.append(msg.decode(errors="replace").strip())
    return msgs


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    fd = libc.syscall(SYS_FSOPEN, sys.argv[1].encode(), 0)
    if fd < 0:
        print(f"fsopen {sys.argv[1]}: {os.strerror(ctypes.get_errno())}")
        return 2
    failed = 0
    for opt in sys.argv[2:]:
        key, _, value = opt.partition("=")
        rc = libc.syscall(SYS_FSCONFIG, fd, FSCONFIG_SET_STRING,
                          key.encode(), value.encode(), 0)
        err = ctypes.get_errno()
        msgs = log_messages(fd)
        if rc == 0:
            print(f"ok {opt}")
        else:
            failed = 1
            print(f"error {opt}: {errno.errorcode.get(err, err)}: {' | '.join(msgs)}")
    os.close(fd)
    return failed


if __name__ == "__main__":
    sys.exit(main())
