#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make client-fuzz` guest script (debug kernel): the long wire fuzz of
# xprtrdma2. rpcrdma2-listen-fuzz --fuzz COUNT answers the Calls of
# NFSv4.2 mounts (proto=rdma2) with messages mutated from the codec's
# fuzz corpus and from the Calls' own chunks (tests/fuzz/client_fuzz_lib.sh);
# then a mount of svcrdma2 must still work, write and read back, and the
# module unload once its clients are gone. The VM runner fails the run on
# any KASAN/lockdep/WARN, hung-task or kmemleak report.
# Usage (in the guest): client_fuzz.sh COUNT SEED
. "$(dirname "$0")/../vm/lib.sh"
. "$(dirname "$0")/client_fuzz_lib.sh"

count=${1:-100000}
seed=${2:-$(date +%s)}
LISTEN_FUZZ=$RPCRDMA2_TOP/build/tools/rpcrdma2-listen-fuzz
[ -x "$LISTEN_FUZZ" ] || die "rpcrdma2-listen-fuzz: $LISTEN_FUZZ not built (run 'make tools' on the host)"

vm_rxe_up
vm_load_svcrdma2
insmod "$RPCRDMA2_MODDIR/xprtrdma2/xprtrdma2.ko" || die "insmod xprtrdma2"
xprt_lifetimes_on || die "tracing: xprt lifetimes"
vm_nfsd_up rdma2 "$NFS_V2_PORT"
mnt=/tmp/mnt
mkdir -p "$mnt"

client_fuzz long "$count" "$seed" 20070

if mount -i -t nfs -o "vers=4.2,proto=rdma2,port=$NFS_V2_PORT,addr=$GUEST_IP" \
	"$GUEST_IP:/" "$mnt"; then
	nfs_roundtrip "after the client fuzz: NFSv4.2 over xprtrdma2 to svcrdma2" "$mnt" 8
	t_check "umount after the client fuzz" umount "$mnt"
else
	t_fail "after the client fuzz: NFSv4.2 mount over xprtrdma2" "mount failed"
fi
if rmmod_when_free xprtrdma2; then
	t_pass "rmmod xprtrdma2 after the client fuzz"
else
	t_fail "rmmod xprtrdma2 after the client fuzz" \
		"still in use after 3 min: $(rpc_leftovers xprtrdma2)"
fi
vm_nfsd_down
t_done
