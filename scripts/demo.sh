#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make demo`: boot the test VM on the no-debug kernel and show NFSv4.2 over
# RPC-over-RDMA Version 2 on Soft-RoCE, our client (proto=rdma2) to our
# server (svcrdma2), then the same copy over the in-tree Version 1
# transports beside it (tests/demo/nfs-over-rdma.sh). DEMO_SIZE_MB is the
# size of the copy (default 64).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup-host.sh"
echo "demo: building/fetching the no-debug test kernel (first run: ~10-25 min, cached after)"
"$top/scripts/kernel/build.sh" nodebug > /dev/null
echo "demo: booting the VM (QEMU/TCG; about a minute)"
exec "$top/scripts/vm/run" --flavour nodebug --host-clock --timeout 600 \
	"$top/tests/demo/nfs-over-rdma.sh" "${DEMO_SIZE_MB:-64}"
