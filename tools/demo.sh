#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make demo`: boot the test VM and show an NFS mount over RPC-over-RDMA on
# Soft-RoCE. Until the rdma2 transports exist this uses the in-tree v1
# transport (proto=rdma).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/tools/setup-host.sh"
echo "demo: building/fetching the test kernel (first run: ~10-15 min, cached after)"
"$top/tools/kernel/build.sh" debug > /dev/null
echo "demo: booting the VM (QEMU/TCG; about a minute)"
exec "$top/tools/vm/run" --timeout 600 "$top/tests/demo/nfs-over-rdma.sh"
