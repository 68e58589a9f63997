#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# svcrdma2's module parameters do what they say: out-of-range values are
# refused, and max_requests, buf_size and max_segs change the credits
# granted, the RFC 8797 sizes and RBSIZ advertised, and the segment limit
# the decoder enforces (RDMA2_ERR_SEGMENTS carries it), as seen on the
# wire by rpcrdma2-ping.
. "$(dirname "$0")/lib.sh"

ping=$RPCRDMA2_TOP/build/tools/rpcrdma2-ping
[ -x "$ping" ] || die "build/tools/rpcrdma2-ping is not built (make tools)"

vm_rxe_up
vm_load_svcrdma2 max_requests=16 buf_size=8192 max_segs=4
vm_nfsd_up rdma2 "$NFS_V2_PORT"
par=/sys/module/svcrdma2/parameters

t_check "max_requests=16 buf_size=8192 max_segs=4 at load" \
	test "$(cat $par/max_requests) $(cat $par/buf_size) $(cat $par/max_segs)" = "16 8192 4"
for bad in "max_requests 3" "max_requests 1025" "buf_size 2048" \
	   "buf_size 1048576" "max_segs 0" "max_segs 257"; do
	set -- $bad
	t_check "$1=$2 refused" bash -c "! echo $2 > $par/$1 2>/dev/null"
done
t_check "refused values left the parameters alone" \
	test "$(cat $par/max_requests) $(cat $par/buf_size) $(cat $par/max_segs)" = "16 8192 4"

out=/tmp/ping.out
"$ping" --vers 1 -c 2 "$GUEST_IP" > "$out" 2>&1
cat "$out"
t_check "v1: the grant is max_requests" grep -q "granted 16$" "$out"
t_check "v1: private data advertises buf_size" \
	grep -q "private data received.*send 8192, receive 8192" "$out"

"$ping" --vers 2 -c 2 "$GUEST_IP" > "$out" 2>&1
cat "$out"
t_check "v2: CONNPROP RBSIZ is buf_size" grep -q "connprop: RBSIZ 8192 " "$out"
t_check "v2: the grant is max_requests" grep -q "granted 16$" "$out"

# A v2 RDMA2_MSG whose Write chunk has 5 segments: max_segs is 4.
# xid, vers 2, credits 1, RDMA2_MSG, flags 0, inv_handle 0, no Read list,
# Write list: one chunk of 5 segments (handle, length, offset), end of
# list, no Reply chunk; no RPC message is needed, the decoder stops first.
seg=00000001000010000000000000000000
msg="0000abcd000000020000000100000000000000000000000000000000"
msg+="0000000100000005$seg$seg$seg$seg$seg""0000000000000000"
# RDMA2_ERROR, RESPONSE, RDMA2_ERR_SEGMENTS (6) with rdma_max_segments 4
want="0000abcd000000020000001000000004000000010000000600000004"
t_check "v2: a 5-segment chunk gets RDMA2_ERR_SEGMENTS max 4" \
	"$ping" --send-hex "$msg" --expect-hex "$want" "$GUEST_IP"
t_check "a new connection is still served" "$ping" --vers 1 -c 1 "$GUEST_IP"

vm_nfsd_down
t_check "rmmod svcrdma2" rmmod svcrdma2
t_done
