#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The bed itself, end to end, with the in-tree RPC-over-RDMA v1 transport as
# the known-good peer: Soft-RoCE up, nfsd listening on "rdma 20050", NFSv4.2
# and NFSv3 mounts over proto=rdma, data written and read back by checksum.
. "$(dirname "$0")/lib.sh"

vm_rxe_up
vm_nfsd_up rdma "$NFS_V1_PORT"
t_check "nfsd lists rdma $NFS_V1_PORT" grep -q "^rdma $NFS_V1_PORT\$" /proc/fs/nfsd/portlist

mnt=/tmp/mnt
mkdir -p "$mnt"

# NFSv4.2: the pseudo-root is the fsid=0 export.
t_check "mount NFSv4.2 proto=rdma" \
	mount -t nfs -o vers=4.2,proto=rdma,port=$NFS_V1_PORT "$GUEST_IP:/" "$mnt"
t_check "NFSv4.2 mount is over rdma" \
	grep -Eq "^$GUEST_IP:/ $mnt nfs4 .*proto=rdma" /proc/mounts
nfs_roundtrip "NFSv4.2 rdma" "$mnt" 2
if command -v fio > /dev/null; then
	t_check "NFSv4.2 rdma fio write+verify" \
		fio --name=v42 --directory="$mnt" --rw=randwrite --bs=4k --size=1m \
			--ioengine=psync --verify=crc32c --do_verify=1 --verify_state_save=0 \
			--output=/dev/null
fi
t_check "umount NFSv4.2" umount "$mnt"

# NFSv3: MOUNT goes over TCP; no statd in the guest, so nolock.
t_check "mount NFSv3 proto=rdma" \
	mount -t nfs -o vers=3,proto=rdma,port=$NFS_V1_PORT,mountproto=tcp,nolock \
		"$GUEST_IP:$EXPORT_DIR" "$mnt"
t_check "NFSv3 mount is over rdma" \
	grep -Eq "^$GUEST_IP:$EXPORT_DIR $mnt nfs .*proto=rdma" /proc/mounts
nfs_roundtrip "NFSv3 rdma" "$mnt" 2
t_check "umount NFSv3" umount "$mnt"

vm_nfsd_down
t_done
