#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of `make demo` (see tools/demo.sh).
. "$RPCRDMA2_TOP/tests/vm/lib.sh"
set -e

say() { printf '\n### %s\n' "$*"; }

say "Soft-RoCE device on eth0"
vm_rxe_up
rdma link show rxe0/1
ibv_devinfo -d rxe0 | grep -E 'hca_id|transport|state|active_mtu'

say "nfsd exporting a tmpfs, RPC-over-RDMA listener on port $NFS_V1_PORT"
vm_nfsd_up rdma "$NFS_V1_PORT"
cat /proc/fs/nfsd/portlist

say "mount -t nfs -o vers=4.2,proto=rdma,port=$NFS_V1_PORT $GUEST_IP:/ /tmp/mnt"
mkdir -p /tmp/mnt
mount -t nfs -o vers=4.2,proto=rdma,port=$NFS_V1_PORT "$GUEST_IP:/" /tmp/mnt
grep " /tmp/mnt " /proc/mounts

say "write 8 MiB, drop the page cache, read it back over RDMA"
dd if=/dev/urandom of=/tmp/src bs=1M count=8 status=none
dd if=/tmp/src of=/tmp/mnt/file bs=1M conv=fsync status=progress 2>&1 | tail -n 1
echo 3 > /proc/sys/vm/drop_caches
dd if=/tmp/mnt/file of=/dev/null bs=1M status=progress 2>&1 | tail -n 1
a=$(sha256sum < /tmp/src) b=$(sha256sum < /tmp/mnt/file)
echo "sha256 written: ${a%% *}"
echo "sha256 read:    ${b%% *}"
[ "$a" = "$b" ]

say "transport statistics (mountstats xprt line: rdma)"
grep -m1 'xprt:' /proc/self/mountstats || true

umount /tmp/mnt
vm_nfsd_down
say "demo done: NFSv4.2 over RPC-over-RDMA on Soft-RoCE, data verified"
