#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Two guests on a wire (scripts/vm/pair): our client (proto=rdma2) on one
# test kernel and svcrdma2 on the other, rxe on each side's link0, so that
# every RoCEv2 packet crosses the link's NICs. NFSv4.2 and NFSv3 with fio
# verify and a metadata workload, the connection in v2, a delegation
# recalled over the backchannel (NFSv4.2), and the NICs' counters moving
# by at least the 16 MiB that fio writes and reads back.
. "$(dirname "$0")/../vm/lib.sh"

vm_rxe_up link0

server() {
	vm_load_svcrdma2
	vm_nfsd_up rdma2 "$NFS_V2_PORT"
	pair_wait nfsd-up || die "the client never came"
	for v in 4.2 3; do
		pair_wait "mounted-$v" 600 || break
		t_check "NFSv$v: svcrdma2 serves the client's connection in v2" \
			grep -q "^conn $CLIENT_IP.* vers=2 " /proc/fs/svcrdma2/stats
		pair_wait "checked-$v"
		[ "$v" = 3 ] || pair_recall "NFSv$v"
	done
	pair_wait client-done 1500 || t_fail "the client finished" "it never said so"
	vm_nfsd_down
}

client() {
	local tx0 rx0 tx1 rx1 v src
	vm_load_common
	modprobe sunrpc && modprobe rdma_cm || die "modprobe sunrpc rdma_cm"
	insmod "$RPCRDMA2_MODDIR/xprtrdma2/xprtrdma2.ko" || die "insmod xprtrdma2"
	mnt=/tmp/mnt
	mkdir -p "$mnt"
	pair_wait nfsd-up || die "the server never came"
	for v in 4.2 3; do
		src=$SERVER_IP:/
		[ "$v" = 3 ] && src=$SERVER_IP:$EXPORT_DIR
		read -r tx0 rx0 <<< "$(link_bytes)"
		if ! mount -i -t nfs -o "vers=$v,proto=rdma2,port=$NFS_V2_PORT,addr=$SERVER_IP,mountproto=tcp,nolock" \
			"$src" "$mnt"; then
			t_fail "NFSv$v rdma2 mount across the link" "mount failed"
			pair_wait "mounted-$v" && pair_wait "checked-$v"
			continue
		fi
		t_pass "NFSv$v rdma2 mount across the link"
		pair_wait "mounted-$v" && pair_wait "checked-$v"
		t_check "NFSv$v: the connection speaks v2" [ "$(xprt_stat vers)" = 2 ]
		fio_verify "NFSv$v across the link:" write 64k 16m
		fio_verify "NFSv$v across the link:" randrw 4k 4m
		metadata "NFSv$v across the link:" 100
		[ "$v" = 3 ] || pair_recall "NFSv$v"
		read -r tx1 rx1 <<< "$(link_bytes)"
		t_check "NFSv$v: link0 carried the data ($(((tx1 - tx0) >> 20)) MiB out, $(((rx1 - rx0) >> 20)) MiB in)" \
			[ $((tx1 - tx0)) -gt $((16 << 20)) -a $((rx1 - rx0)) -gt $((16 << 20)) ]
		umount "$mnt"
		t_check "NFSv$v unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
	done
	pair_wait client-done
}

case $RPCRDMA2_PAIR_ROLE in
server) server ;;
client) client ;;
*) die "run me with scripts/vm/pair" ;;
esac
t_done
