#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# svcrdma2 under faults: the Soft-RoCE link deleted while a client writes
# (nfsd survives, the connection is torn down and freed, the next client
# is served), and nfsd shut down under a connected client (rpc.nfsd 0
# closes everything; rmmod is clean). The VM runner fails the run on any
# KASAN/lockdep/hung-task report or kmemleak leak.
. "$(dirname "$0")/lib.sh"

vm_rxe_up
vm_load_svcrdma2
vm_nfsd_up rdma2 "$NFS_V2_PORT"

mnt=/tmp/mnt
mkdir -p "$mnt"

# conns: live svcrdma2 connections
conns() { grep -c '^conn ' /proc/fs/svcrdma2/stats; }
# (a function, so wait_for counts again on every try)
no_conns() { [ "$(conns)" -eq 0 ]; }


# 1. The device vanishes mid-I/O. A soft mount lets the writer give up.
t_check "mount NFSv4.2 (soft) on svcrdma2" \
	mount -t nfs -o "vers=4.2,proto=rdma,port=$NFS_V2_PORT,soft,timeo=20,retrans=2" \
		"$GUEST_IP:/" "$mnt"
dd if=/dev/urandom of="$mnt/big" bs=1M count=64 oflag=direct status=none &
writer=$!
sleep 3
t_check "svcrdma2 has a connection while the writer runs" test "$(conns)" -ge 1
t_check "rdma link delete rxe0 mid-I/O" rdma link delete rxe0
t_check "svcrdma2 tore the connection down" wait_for no_conns
wait "$writer"
echo "writer exited $? after the device went away"
t_check "nfsd still listens on rdma2" grep -q "^rdma2 $NFS_V2_PORT\$" /proc/fs/nfsd/portlist
umount -f -l "$mnt"

# 2. The device comes back: a new client is served.
t_check "rdma link add rxe0" rdma link add rxe0 type rxe netdev eth0
t_check "rxe0 active again" wait_for bash -c 'rdma link show rxe0/1 | grep -q ACTIVE'
t_check "mount NFSv4.2 on svcrdma2 after the device came back" \
	mount -t nfs -o "vers=4.2,proto=rdma,port=$NFS_V2_PORT" "$GUEST_IP:/" "$mnt"
nfs_roundtrip "NFSv4.2 after device loss" "$mnt" 4

# 3. nfsd shuts down under a connected client, then comes back: the
# client reconnects to the new listener and unmounts normally.
t_check "rpc.nfsd 0 with a client connected" rpc.nfsd 0
t_check "every svcrdma2 connection closed" wait_for no_conns
t_check "rpc.nfsd restarts with rdma2" \
	bash -c "rpc.nfsd 4 && echo 'rdma2 $NFS_V2_PORT' > /proc/fs/nfsd/portlist"
t_check "the client reconnects and unmounts" timeout 120 umount "$mnt"
t_check "rpc.nfsd 0" rpc.nfsd 0
t_check "rmmod svcrdma2 after nfsd stopped" rmmod svcrdma2
exportfs -ua
pkill rpc.mountd
pkill rpcbind
t_done
