#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Mount NFS again and again with mount(2), from one process, while a
listener runs: the driver of the client wire fuzz
(tests/fuzz/client_fuzz_lib.sh). A mount(8) per attempt would cost a
process start (~0.5 s under TCG) each time; here an attempt costs only
what the kernel does.

Each attempt is timed; one that takes longer than LIMIT seconds is
reported as hung (it cannot be interrupted: the kernel's hung-task
detector has the last word). One that succeeds is unmounted and counted.
Stops when process PID has exited (or is a zombie). Prints one summary
line and exits 1 if any attempt hung or succeeded.

Usage: client_fuzz_mount.py PID LIMIT SOURCE MOUNTPOINT OPTIONS"""

import ctypes
import errno
import os
import sys
import threading
import time

libc = ctypes.CDLL(None, use_errno=True)


def alive(pid):
    """PID exists and has not exited (a zombie has)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    pid, limit = int(sys.argv[1]), float(sys.argv[2])
    src, mnt, opts = (a.encode() for a in sys.argv[3:6])
    st = {"n": 0, "ok": 0, "longest": 0.0, "t0": None, "errs": {}}
    done = threading.Event()

    def loop():
        while alive(pid):
            st["t0"] = time.monotonic()
            rc = libc.mount(src, mnt, b"nfs", 0, opts)
            e = ctypes.get_errno()
            dt = time.monotonic() - st["t0"]
            st["t0"] = None
            st["n"] += 1
            st["longest"] = max(st["longest"], dt)
            if rc == 0:
                st["ok"] += 1
                libc.umount2(mnt, 0)
            else:
                name = errno.errorcode.get(e, str(e))
                st["errs"][name] = st["errs"].get(name, 0) + 1
        done.set()

    threading.Thread(target=loop, daemon=True).start()
    hung = False
    while not done.wait(1):
        t0 = st["t0"]
        if t0 is not None and time.monotonic() - t0 > limit:
            hung = True
            break
    errs = " ".join(f"{k} {v}" for k, v in sorted(st["errs"].items()))
    print(f"mounts: {st['n']} attempts, {st['ok']} succeeded, failed with: "
          f"{errs or 'nothing'}; longest {st['longest']:.1f} s"
          f"{'; one still hanging after %g s' % limit if hung else ''}",
          flush=True)
    # a hung mount(2) thread cannot be joined: leave without it
    os._exit(1 if hung or st["ok"] else 0)


if __name__ == "__main__":
    main()
