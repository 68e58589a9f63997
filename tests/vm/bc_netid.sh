#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# patches/0002: with rpcrdma.ko loaded first, its backchannel class
# xprt_rdma_bc sits on sunrpc's transport list; a netid lookup that walks
# past it (any netid registered after it, or none) read beyond the object
# until the class got a terminated .netid list. The lookups here come from
# the NFS client's proto= parser; scripts/vm/run fails the test on any KASAN
# report in the kernel log.
. "$(dirname "$0")/lib.sh"

t_check "modprobe rpcrdma" modprobe rpcrdma
t_check "rpcrdma is loaded" grep -q '^rpcrdma ' /proc/modules
mnt=/tmp/mnt
mkdir -p "$mnt"
for netid in nosuchnetid rdma2; do
	# rdma2 is not registered in this test (no rpcrdma2 client loaded), so
	# the lookup walks the whole list, as a first proto=rdma2 mount would.
	dmesg -C
	if mount -i -t nfs -o "vers=4.2,proto=$netid,port=1,addr=127.0.0.1,retry=0,soft,timeo=10,retrans=1" \
		127.0.0.1:/ "$mnt" 2>/dev/null; then
		umount "$mnt"
	fi
	if dmesg | grep -q 'KASAN'; then
		t_fail "netid lookup '$netid' past xprt_rdma_bc" "KASAN report"
	else
		t_pass "netid lookup '$netid' past xprt_rdma_bc stays in bounds"
	fi
done
t_check "rmmod rpcrdma" modprobe -r rpcrdma
t_done
