#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make wire-fuzz` guest script (debug kernel): the long wire fuzz of
# svcrdma2. rpcrdma2-wire-fuzz --fuzz COUNT sends headers mutated from the codec's
# fuzz corpus over real connections and checks every answer against the
# codec (as tests/vm/svcrdma2_ping.sh does with a few thousand); then the
# in-tree client must still mount, write and read back through svcrdma2.
# The VM runner fails the run on any KASAN/lockdep/WARN or kmemleak report.
# Usage (in the guest): wire_fuzz.sh COUNT SEED
. "$(dirname "$0")/../vm/lib.sh"

count=${1:-100000}
seed=${2:-$(date +%s)}
PING=$RPCRDMA2_TOP/build/tools/rpcrdma2-wire-fuzz
P_PREFIX=wire-fuzz
[ -x "$PING" ] || die "rpcrdma2-wire-fuzz: $PING not built (run 'make tools' on the host)"

vm_rxe_up
vm_load_svcrdma2
vm_nfsd_up rdma2 "$NFS_V2_PORT"

# about 80 messages a second on the debug kernel under TCG; room for 10
FUZZ_SECS=$((count / 8 + 300))
p_run "fuzz" -p "$NFS_V2_PORT" --fuzz "$count" --seed "$seed" \
	--corpus "$RPCRDMA2_TOP/tests/fuzz/corpus/fuzz_codec" "$GUEST_IP"
p_expect "wire fuzz: $count messages, seed $seed: every answer as the codec says" 0 \
	'^fuzz: 0 failures$' \
	'^fuzz: final NULL call on a fresh connection: answered$'

mnt=/tmp/mnt
mkdir -p "$mnt"
if mount -t nfs -o vers=4.2,proto=rdma,port="$NFS_V2_PORT" "$GUEST_IP:/" "$mnt"; then
	nfs_roundtrip "after the wire fuzz: NFSv4.2 over svcrdma2" "$mnt" 8
	t_check "umount after the wire fuzz" umount "$mnt"
else
	t_fail "after the wire fuzz: NFSv4.2 mount over svcrdma2" "mount failed"
fi
t_check "svcrdma2 stats readable" cat /proc/fs/svcrdma2/stats
vm_nfsd_down
