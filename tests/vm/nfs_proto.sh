#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# patches/0001: the NFS client's proto= option takes the netid of any
# registered RPC transport. Here, with transports that exist today: tcp and
# rdma still mount (through the kernel's own option parser: mount -i skips
# mount.nfs), and a netid nobody registers fails cleanly with EINVAL and
# "Unrecognized transport protocol" (it used to risk the BUG() in
# nfs_init_timeout_values()). proto=rdma2 itself is tested with the client.
. "$(dirname "$0")/lib.sh"

vm_rxe_up
vm_nfsd_up rdma "$NFS_V1_PORT"
mnt=/tmp/mnt
mkdir -p "$mnt"

# kmount OPTIONS SOURCE: mount(2) straight from util-linux, no helper.
kmount() { mount -i -t nfs -o "$1,addr=$GUEST_IP" "$2" "$mnt"; }

t_check "proto=tcp mounts NFSv4.2" kmount vers=4.2,proto=tcp "$GUEST_IP:/"
t_check "proto=tcp mount uses tcp" grep -Eq " $mnt nfs4 .*proto=tcp[,\ ]" /proc/mounts
nfs_roundtrip "proto=tcp" "$mnt" 1
umount "$mnt"

t_check "proto=rdma mounts NFSv4.2" kmount vers=4.2,proto=rdma,port=$NFS_V1_PORT "$GUEST_IP:/"
t_check "proto=rdma mount uses rdma" grep -Eq " $mnt nfs4 .*proto=rdma[,\ ]" /proc/mounts
nfs_roundtrip "proto=rdma" "$mnt" 1
umount "$mnt"

t_check "proto=tcp mounts NFSv3" \
	kmount vers=3,proto=tcp,mountproto=tcp,nolock "$GUEST_IP:$EXPORT_DIR"
umount "$mnt"

# unknown_netid VERS EXTRA: the mount must fail with EINVAL and the parser's
# message, and leave nothing mounted.
unknown_netid() {
	local name="proto=nosuchnetid NFSv$1 is refused cleanly" err
	dmesg -C
	if err=$(kmount "vers=$1,proto=nosuchnetid$2" "$GUEST_IP:/" 2>&1); then
		umount "$mnt"
		t_fail "$name" "mount succeeded"
	elif ! echo "$err" | grep -q 'Invalid argument'; then
		t_fail "$name" "mount said: $err"
	elif ! dmesg | grep -q 'Unrecognized transport protocol'; then
		t_fail "$name" "no 'Unrecognized transport protocol' in the kernel log"
	elif grep -q " $mnt " /proc/mounts; then
		t_fail "$name" "something is mounted"
	else
		t_pass "$name"
	fi
}
unknown_netid 4.2 ""
unknown_netid 3 ",mountproto=tcp,nolock"

vm_nfsd_down
t_done
