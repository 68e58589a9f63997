#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A client and a server on two guests (scripts/vm/pair), rxe on each
# side's link0, so that every RoCEv2 packet crosses the link's NICs: our
# client (proto=rdma2) and svcrdma2 on test kernels speak v2; against
# Debian's stock kernel (--server stock or --client stock) ours falls back
# to, or serves, v1 against the in-tree transport. NFSv4.2 and NFSv3 with
# fio verify and a metadata workload, the version each of our sides
# settled on (our client: RDMA2_CONNPROP both ways in v2, one fallback and
# none in v1; no reply discarded), a delegation recalled over the
# backchannel (NFSv4.2: every reverse-direction Call answered, none
# dropped, by our counters), and the NICs' counters moving by at least
# the data fio writes and reads.
. "$(dirname "$0")/../vm/lib.sh"

pair_up
want=$(pair_vers)

server() {
	local v got
	for v in 4.2 3; do
		pair_wait "mounted-$v" 600 || break
		if ! vm_stock; then
			got=$(pair_conn_vers)
			t_check "NFSv$v: svcrdma2 serves the client's connection in v$want${got:+ (v$got)}" \
				[ "$got" = "$want" ]
		fi
		pair_wait "checked-$v"
		[ "$v" = 3 ] || pair_recall "NFSv$v"
		[ "$v" = 3 ] || vm_stock || svc_cb_stats "NFSv$v"
	done
	pair_wait done 1500 || t_fail "the client finished" "it never said so"
	pair_down
}

# client_vers NAME VERS: our client's mount and connection: proto=rdma2,
# version VERS, RDMA2_CONNPROP as VERS says.
client_vers() {
	local name=$1 want=$2
	t_check "$name: the mount is proto=rdma2" \
		grep -Eq " $mnt nfs4? .*proto=rdma2[,\ ]" /proc/mounts
	t_check "$name: our client's connection speaks v$want" \
		[ "$(pair_conn_vers)" = "$want" ]
	xprt_connprop_check "$name" "$want"
}

client() {
	local tx0 rx0 tx1 rx1 v
	for v in 4.2 3; do
		read -r tx0 rx0 <<< "$(link_bytes)"
		if ! pair_mount "$v"; then
			t_fail "NFSv$v $(pair_transport) mount across the link" "mount failed"
			pair_wait "mounted-$v" && pair_wait "checked-$v"
			continue
		fi
		t_pass "NFSv$v $(pair_transport) mount across the link"
		pair_wait "mounted-$v" && pair_wait "checked-$v"
		vm_stock || client_vers "NFSv$v" "$want"
		fio_verify "NFSv$v across the link:" write 64k 2m
		fio_verify "NFSv$v across the link:" randrw 4k 256k
		metadata "NFSv$v across the link:" 100
		[ "$v" = 3 ] || pair_recall "NFSv$v"
		if ! vm_stock; then
			[ "$v" = 3 ] || xprt_bc_stats "NFSv$v"
			t_check "NFSv$v: no reply discarded (bad_replies)" \
				[ "$(xprt_stat bad_replies)" = 0 ]
		fi
		read -r tx1 rx1 <<< "$(link_bytes)"
		t_check "NFSv$v: link0 carried the data ($(((tx1 - tx0) >> 20)) MiB out, $(((rx1 - rx0) >> 20)) MiB in)" \
			[ $((tx1 - tx0)) -gt $((2 << 20)) -a $((rx1 - rx0)) -gt $((2 << 20)) ]
		umount "$mnt"
		t_check "NFSv$v unmounts" bash -c "! grep -q ' $mnt ' /proc/mounts"
	done
	pair_wait done
}

pair_run
