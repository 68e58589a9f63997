#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Helpers for scripts run inside the test guest by scripts/vm/run.
# Each check prints "PASS: <name>" or "FAIL: <name>: <why>"; t_done exits
# non-zero if any check failed.

T_FAILED=0

# sleep SECS: waits in the shell, forking nothing. Under TCG with the
# debug kernel a process costs ~0.3-0.6 s of CPU (a fork ~0.17 s, an exec
# ~0.3 s; ~10x Debian's stock kernel, and the same from tmpfs as from
# 9p): a loop of "sleep 0.2" kept a guest ~60% busy doing nothing,
# CPU the other guest on the host needed (25 rounds: 7.9 s of CPU; with
# read -t: 0.6 s). read -t times out on a pipe nobody writes to: a
# process substitution opened read-write never reaches end of file.
exec {T_SLEEP_FD}<> <(:)
sleep() {
	case ${1:-} in
	"" | *[!0-9.]*) command sleep "$@" ;;
	*) read -rt "$1" -u "$T_SLEEP_FD" || : ;;
	esac
}

GUEST_IP=10.0.2.15
EXPORT_DIR=/run/export
NFS_V1_PORT=20050	# the in-tree rdma transport; 20049 stays free for rdma2

# Each check's seconds since the one before go to $RESULTS/check-times
# (scripts/vm/run keeps it), to see where a script spends its time.
# (builtins only: a process costs ~0.5 s under TCG)
T_LAST=${EPOCHREALTIME/./}
t_time() {
	local now=${EPOCHREALTIME/./} d
	d=$(((now - T_LAST) / 100000))
	[ -n "${RESULTS:-}" ] &&
		printf '%5d.%d %s\n' $((d / 10)) $((d % 10)) "$1" >> "$RESULTS/check-times"
	T_LAST=$now
}

# In a two-guest run (scripts/vm/pair) each line names its guest.
T_WHO=${RPCRDMA2_PAIR_ROLE:+$RPCRDMA2_PAIR_ROLE: }
t_pass() { t_time "$1"; echo "PASS: $T_WHO$1"; }
t_fail() {
	t_time "$1"
	echo "FAIL: $T_WHO$1: $2"
	# what the tracepoints saw up to the first failure, for the post-mortem
	[ "$T_FAILED" = 1 ] || [ -z "${RESULTS:-}" ] ||
		cat /sys/kernel/tracing/trace > "$RESULTS/trace-at-first-fail" 2>/dev/null
	T_FAILED=1
}

# t_check NAME CMD...: pass when CMD succeeds.
t_check() {
	local name=$1
	shift
	if "$@"; then t_pass "$name"; else t_fail "$name" "'$*' exited $?"; fi
}

t_done() { pair_end; exit $T_FAILED; }

# ff_arm FUNC ERRNO TIMES: fail_function (CONFIG_FAIL_FUNCTION in the
# debug test kernel) makes FUNC return -ERRNO on each call, TIMES times
# (-1: until ff_disarm); fails if FUNC cannot be injected. ff_disarm:
# no function fails any more.
ff_arm() {
	local ff=/sys/kernel/debug/fail_function
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	echo "$1" > "$ff/inject" || return 1
	printf %#x "-$2" > "$ff/$1/retval"
	echo N > "$ff/task-filter"
	echo 100 > "$ff/probability"
	echo 0 > "$ff/interval"
	echo 0 > "$ff/space"
	echo 0 > "$ff/verbose"
	echo "$3" > "$ff/times"
}
ff_disarm() { echo > /sys/kernel/debug/fail_function/inject; }

# rmmod_when_free MODULE: unload MODULE once nothing uses it (an NFS client
# of a dead server lets go of its transport only when it gives up), trying
# for up to 3 minutes.
rmmod_when_free() {
	local i
	for i in $(seq 90); do
		rmmod "$1" 2>/dev/null && return 0
		sleep 2
	done
	return 1
}

# xprt_lifetimes_on: record every xprtrdma2 transport's creation and
# destruction (tracepoints xprtrdma2_setup / xprtrdma2_destroy), and how
# each closed backchannel found its Calls (xprtrdma2_bc_destroy), in a
# trace instance of its own, which the scripts' own tracing leaves alone;
# rpc_leftovers reads it.
XPRT_LIFETIMES=/sys/kernel/tracing/instances/xprt-lifetimes
xprt_lifetimes_on() {
	mountpoint -q /sys/kernel/tracing ||
		mount -t tracefs nodev /sys/kernel/tracing
	mkdir -p "$XPRT_LIFETIMES" &&
		echo 1 > "$XPRT_LIFETIMES/events/rpcrdma2/xprtrdma2_setup/enable" &&
		echo 1 > "$XPRT_LIFETIMES/events/rpcrdma2/xprtrdma2_destroy/enable" &&
		echo 1 > "$XPRT_LIFETIMES/events/rpcrdma2/xprtrdma2_bc_destroy/enable"
}

# rpc_leftovers MODULE: why MODULE cannot be unloaded yet, on one line for
# a FAIL message: its reference count and holders, the NFS servers the
# client still knows, the xprtrdma2 transports created and never
# destroyed (if xprt_lifetimes_on ran; the address's port names the
# test that made it) and the tasks whose kernel stacks are in RPC or
# RDMA code. (The bed's kernel has no CONFIG_SUNRPC_DEBUG, hence no
# sunrpc debugfs listing the transports.)
rpc_leftovers() {
	local d out
	out="refcnt $(cat "/sys/module/$1/refcnt" 2>/dev/null)"
	out+="; holders: $(ls "/sys/module/$1/holders" 2>/dev/null | tr '\n' ' ')"
	out+="; nfs servers: $(tail -n +2 /proc/fs/nfsfs/servers 2>/dev/null | tr '\n' ' ')"
	if [ -e "$XPRT_LIFETIMES/trace" ]; then
		out+="; xprts alive: $(awk '
			/xprtrdma2_setup: / { a[$(NF - 1)] = $NF }
			/xprtrdma2_destroy: / { delete a[$(NF - 1)] }
			END { for (x in a) printf "%s %s, ", x, a[x] }' \
			"$XPRT_LIFETIMES/trace")"
	fi
	for d in /proc/[0-9]*; do
		if grep -qE "$1|rpcrdma2|rpc_|xprt_|rdma_|ib_" "$d/stack" 2>/dev/null; then
			out+="; task $(basename "$d") $(cat "$d/comm") [$(cut -d' ' -f3 "$d/stat")]: $(sed 's/^\[<0>\] //; s/+0x[0-9a-f/x]*//' "$d/stack" | tr '\n' ' ')"
		fi
	done
	echo "$out"
}

# wait_for CMD...: run CMD until it succeeds, for up to 60 s: at once,
# then after 0.1, 0.2, 0.5 s and every second (a CMD that forks costs CPU
# each round; what comes at once is seen at once). The limit only bounds
# a failure: every caller waits for something that must come, and on a
# slow host (guests 1.7x slower from one machine to the next) a callback
# channel or a torn-down connection can take over 30 s.
wait_for() {
	local end=$((EPOCHSECONDS + 60)) d=0.1
	while :; do
		"$@" && return 0
		[ "$EPOCHSECONDS" -lt "$end" ] || return 1
		sleep $d
		case $d in
		0.1) d=0.2 ;;
		0.2) d=0.5 ;;
		*) d=1 ;;
		esac
	done
}

# listening FILE: the rpcrdma2-listen whose output goes to FILE said it
# listens (a builtin read, for wait_for's rounds)
listening() {
	local l
	[ -e "$1" ] || return 1
	while read -r l; do
		[[ $l != "listening on"* ]] || return 0
	done < "$1"
	return 1
}

# Fail the whole script at once (setup steps that later checks depend on).
die() {
	echo "FAIL: $T_WHO$1"
	pair_end
	exit 1
}

# vm_rxe_up [NETDEV]: bring up Soft-RoCE (rxe0) on NETDEV (eth0) and wait
# (up to 30 s) for the port to become ACTIVE. An rxe0 on NETDEV that an
# earlier script of the guest's sequence left up (scripts/vm/sequence
# keeps it: adding one cost ~13 s of a debug guest) is used as it is.
# NETDEV carries jumbo frames first, as RoCE fabrics are usually set up:
# rxe takes its path MTU from the netdev's (4096 at 9000 bytes, 1024 at
# 1500), and a debug kernel pays per packet (an skb whose allocation
# KASAN and kmemleak each record with a stack trace, its completion):
# xprtrdma2_chunks.sh's checks took 0.86x the time at 9000 side by side,
# and scripts that move little data no more (Documentation/results.rst).
vm_rxe_up() {
	local dev=${1:-eth0} n i
	if ! read -r n 2>/dev/null < /sys/class/infiniband/rxe0/ports/1/gid_attrs/ndevs/0 ||
		[ "$n" != "$dev" ]; then
		modprobe rdma_rxe && modprobe ib_uverbs && modprobe rdma_ucm ||
			die "rxe: modprobe"
		ip link set "$dev" mtu 9000 || die "rxe: ip link set $dev mtu 9000"
		rdma link add rxe0 type rxe netdev "$dev" || die "rxe: rdma link add"
	fi
	for ((i = 0; i < 150; i++)); do
		rxe_active && return 0
		sleep 0.2
	done
	die "rxe: rxe0/1 never became ACTIVE"
}

# rxe_active: rxe0's port is ACTIVE.
rxe_active() {
	local s
	read -r s 2>/dev/null < /sys/class/infiniband/rxe0/ports/1/state &&
		[ "$s" = "4: ACTIVE" ]
}

# Start rpcbind, mountd and nfsd exporting a fresh tmpfs at $EXPORT_DIR;
# extra arguments are "<transport> <port>" pairs written to portlist.
# NFSD_MAX_BLKSIZE, if set, is nfsd's largest payload from then on (nfsd
# keeps it until it is unloaded).
vm_nfsd_up() {
	mkdir -p "$EXPORT_DIR"
	mount -t tmpfs -o size=512m tmpfs "$EXPORT_DIR" || die "nfsd: tmpfs"
	chown _rpc /run/rpcbind 2>/dev/null
	rpcbind -w || die "nfsd: rpcbind"
	mount -t nfsd nfsd /proc/fs/nfsd || die "nfsd: mount nfsd fs"
	echo "$EXPORT_DIR *(fsid=0,rw,no_root_squash,insecure,no_subtree_check,sync)" \
		> /etc/exports
	exportfs -ra || die "nfsd: exportfs"
	rpc.mountd || die "nfsd: rpc.mountd"
	# nfsd grants no delegation while any lock manager is in grace, and
	# lockd's (begun as nfsd starts it) lasts 50 s unless told otherwise
	# (nlm_timeout x 5, fs/lockd/svc.c): 10 s.
	# (mounting the nfsd filesystem loaded nfsd, and lockd with it)
	[ -d /sys/module/lockd ] || modprobe lockd || die "nfsd: modprobe lockd"
	echo 10 > /proc/sys/fs/nfs/nlm_grace_period
	# Short grace period, set before nfsd starts, or first OPENs stall 90 s.
	echo 10 > /proc/fs/nfsd/nfsv4gracetime
	echo 10 > /proc/fs/nfsd/nfsv4leasetime
	# nfsd's largest payload, 1 MiB on a server of 4 GiB or more, is a
	# 4096th of memory here (nfsd_get_default_max_blksize(), 256 KiB in
	# a 2 GiB guest) unless set before nfsd starts
	if [ -n "${NFSD_MAX_BLKSIZE:-}" ]; then
		echo "$NFSD_MAX_BLKSIZE" > /proc/fs/nfsd/max_block_size ||
			die "nfsd: max_block_size $NFSD_MAX_BLKSIZE"
	fi
	rpc.nfsd 4 || die "nfsd: rpc.nfsd"
	while [ $# -ge 2 ]; do
		echo "$1 $2" > /proc/fs/nfsd/portlist || die "nfsd: portlist $1 $2"
		shift 2
	done
	vm_nfsd_end_grace
}

# vm_nfsd_end_grace: end nfsd's NFSv4 grace period now, so that the first
# OPEN does not stall (v4_end_grace, fs/nfsd/nfsctl.c). nfsd refuses
# (EBUSY) while its client tracking is not yet active, as right after a
# netlink THREADS_SET; then the 10 s grace runs out by itself.
vm_nfsd_end_grace() {
	echo Y 2>/dev/null > /proc/fs/nfsd/v4_end_grace
	wait_for nfsd_grace_over || die "nfsd: the grace period did not end"
}
nfsd_grace_over() {
	local v
	read -r v < /proc/fs/nfsd/v4_end_grace && [ "$v" = Y ]
}

vm_nfsd_down() {
	rpc.nfsd 0
	exportfs -ua
	pkill rpc.mountd
	pkill rpcbind
	umount /proc/fs/nfsd
	umount "$EXPORT_DIR"
}

# Load the shared rpcrdma2 library module built for this kernel. A guest
# on Debian's stock kernel (--flavour stock) has none of ours.
vm_load_common() {
	[ -n "${RPCRDMA2_MODDIR:-}" ] ||
		die "insmod rpcrdma2_common: no rpcrdma2 modules on this kernel ($(uname -r))"
	insmod "$RPCRDMA2_MODDIR/common/rpcrdma2_common.ko" || die "insmod rpcrdma2_common"
}

# nfs_roundtrip NAME MNT SIZE_MB: write random data through the mount, drop
# the client's page cache so the read-back really comes from the server, and
# compare SHA-256.
nfs_roundtrip() {
	local name=$1 mnt=$2 size=$3 src=/tmp/roundtrip.$$ want got
	dd if=/dev/urandom of="$src" bs=1M count="$size" status=none
	want=$(sha256sum < "$src")
	if ! { cp "$src" "$mnt/data" && sync; }; then
		t_fail "$name ${size} MiB sha256 round trip" "write failed"
		return
	fi
	echo 3 > /proc/sys/vm/drop_caches
	got=$(sha256sum < "$mnt/data")
	if [ "$want" = "$got" ]; then
		t_pass "$name ${size} MiB sha256 round trip"
	else
		t_fail "$name ${size} MiB sha256 round trip" "checksum mismatch"
	fi
	rm -f "$src" "$mnt/data"
}

NFS_V2_PORT=20049	# rdma2, our transport

# kmount OPTIONS SOURCE: mount(2) on $mnt straight from util-linux, no
# helper (mount -i); addr= is added.
kmount() { mount -i -t nfs -o "$1,addr=$GUEST_IP" "$2" "$mnt"; }

# xprt_stat NAME: NAME's value on the newest rdma2 client transport in
# /proc/fs/xprtrdma2/stats (Documentation/xprtrdma2.rst names them). The
# tests mount one rdma2 file system at a time, and the newest transport
# is its own: an earlier mount's may stay listed for a moment after
# umount, until sunrpc's workqueues destroy it.
# (builtins: the checks call it often, and awk costs ~0.4 s under TCG)
xprt_stat() {
	local -a f last
	local w
	while read -ra f; do
		[ "${f[0]}" = xprt ] && last=("${f[@]}")
	done < /proc/fs/xprtrdma2/stats
	for w in "${last[@]:2}"; do
		if [ "${w%%=*}" = "$1" ]; then
			echo "${w#*=}"
			return
		fi
	done
}

# fio_verify NAME RW BS SIZE: fio writes and verifies (crc32c) SIZE in
# $mnt with direct I/O.
fio_verify() {
	local name=$1 rw=$2 bs=$3 size=$4
	t_check "$name fio $rw bs=$bs verify" \
		fio --name="$rw$bs" --directory="$mnt" --rw="$rw" --bs="$bs" \
			--size="$size" --ioengine=psync --direct=1 \
			--verify=crc32c --do_verify=1 --verify_state_save=0 \
			--output=/dev/null
}

# metadata NAME N: create/stat/rename/unlink N files in $mnt, in one
# process (a process per file is minutes under TCG); listing N long names
# after dropping the caches makes READDIR replies that need the Reply
# chunk (the in-tree client offers one past its 4 KiB inline threshold).
metadata() {
	local name=$1 n=$2
	t_check "$name metadata: $n x create/readdir/stat/rename/unlink" \
		python3 - "$mnt/meta" "$n" <<'PY'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
names = ["file-with-a-rather-long-name-to-fill-readdir-%05d" % i for i in range(n)]
os.mkdir(d)
for f in names:
    open(os.path.join(d, f), "w").close()
open("/proc/sys/vm/drop_caches", "w").write("3")
assert sorted(os.listdir(d)) == names, "readdir after create"
for f in names:
    os.stat(os.path.join(d, f))
for i, f in enumerate(names):
    os.rename(os.path.join(d, f), os.path.join(d, "r%05d" % i))
open("/proc/sys/vm/drop_caches", "w").write("3")
assert len(os.listdir(d)) == n, "readdir after rename"
for i in range(n):
    os.unlink(os.path.join(d, "r%05d" % i))
os.rmdir(d)
PY
}

# Load svcrdma2 (after the shared library), so "rdma2" can go in portlist.
vm_load_svcrdma2() {
	vm_load_common
	# insmod resolves no dependencies: load what svcrdma2 links against
	modprobe sunrpc && modprobe rdma_cm || die "modprobe sunrpc rdma_cm"
	insmod "$RPCRDMA2_MODDIR/svcrdma2/svcrdma2.ko" "$@" || die "insmod svcrdma2"
}

# conns: svcrdma2's live connections; no_conns: none (a function, so
# that wait_for counts again on every try).
conns() { grep -c '^conn ' /proc/fs/svcrdma2/stats; }
no_conns() { [ "$(conns)" -eq 0 ]; }

# svc_stat NAME: svcrdma2's global counter NAME (/proc/fs/svcrdma2/stats).
svc_stat() {
	local -a f
	local w
	while read -ra f; do
		[ "${f[0]}" = global ] || continue
		for w in "${f[@]}"; do
			[ "${w%%=*}" = "$1" ] && echo "${w#*=}"
		done
		return
	done < /proc/fs/svcrdma2/stats
}

# xprt_connprop_check NAME VERS: our client's RDMA2_CONNPROP exchange on a
# connection of version VERS: one each way in v2 (draft §5.3.4); in v1 one
# fallback (the server's ERR_VERS) and none.
xprt_connprop_check() {
	if [ "$2" = 2 ]; then
		t_check "$1: RDMA2_CONNPROP received and sent once" \
			[ "$(xprt_stat connprop_recv) $(xprt_stat connprop_sent)" = "1 1" ]
	else
		t_check "$1: one fallback, no RDMA2_CONNPROP" \
			[ "$(xprt_stat fallbacks) $(xprt_stat connprop_recv) $(xprt_stat connprop_sent)" = "1 0 0" ]
	fi
}

# svc_cb_stats NAME: svcrdma2's reverse-direction counters once a recall
# is over (Documentation/svcrdma2.rst): Calls sent (cb_calls), every one
# answered (cb_replies), no reply dropped (cb_bad_replies).
svc_cb_stats() {
	local calls replies
	calls=$(svc_stat cb_calls) replies=$(svc_stat cb_replies)
	t_check "$1: svcrdma2 sent reverse-direction Calls (cb_calls = $calls)" \
		[ "$calls" -gt 0 ]
	t_check "$1: every one answered (cb_replies = $replies)" \
		[ "$replies" = "$calls" ]
	t_check "$1: no reverse-direction reply dropped (cb_bad_replies)" \
		[ "$(svc_stat cb_bad_replies)" = 0 ]
}

# xprt_bc_stats NAME: our client's reverse-direction counters once a
# recall is over (Documentation/xprtrdma2.rst): Calls taken (bc_calls), as
# many replies sent (bc_replies), none dropped (reverse_dropped), no reply
# that could not be sent (bc_reply_errors).
xprt_bc_stats() {
	local calls replies
	calls=$(xprt_stat bc_calls) replies=$(xprt_stat bc_replies)
	t_check "$1: reverse-direction Calls taken (bc_calls = $calls)" \
		[ "$calls" -gt 0 ]
	t_check "$1: as many replies sent (bc_replies = $replies)" \
		[ "$replies" = "$calls" ]
	t_check "$1: none dropped, no reply failed (reverse_dropped, bc_reply_errors)" \
		[ "$(xprt_stat reverse_dropped) $(xprt_stat bc_reply_errors)" = "0 0" ]
}

# Enable the rpcrdma2 tracepoints and clear the trace buffer.
vm_trace_on() {
	mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
	echo 32768 > /sys/kernel/tracing/buffer_size_kb
	echo > /sys/kernel/tracing/trace
	# (none of ours on Debian's stock kernel)
	vm_stock || echo 1 > /sys/kernel/tracing/events/rpcrdma2/enable
}

# trace_count EVENT: how many EVENT lines the trace buffer holds.
trace_count() {
	grep -c " $1:" /sys/kernel/tracing/trace
}

# rpcrdma2-ping (or rpcrdma2-wire-fuzz) in guest scripts: set PING to the
# tool first. p_run keeps each output in $RESULTS/$P_PREFIX-<name>.out
# (P_PREFIX defaults to ping).

# p_run NAME ARGS...: run the tool (never longer than 60 s; FUZZ_SECS for
# --fuzz), keep its output in $out (also shown, indented), its exit status
# in $rc and its wall time in $secs. These helpers start no process but
# the tool: each one costs ~0.5 s under TCG.
p_run() {
	local name=$1 t0=$EPOCHSECONDS limit=60 l
	shift
	case " $* " in *" --fuzz "*) limit=$FUZZ_SECS ;; esac
	out=$(timeout "$limit" "$PING" "$@" 2>&1)
	rc=$?
	secs=$((EPOCHSECONDS - t0))
	echo "-- $name: ${PING##*/} $* (exit $rc, ${secs} s)"
	while IFS= read -r l; do printf '  | %s\n' "$l"; done <<<"$out"
	printf '%s\n' "$out" > "$RESULTS/${P_PREFIX:-ping}-${name//[ \/]/_}.out"
}

# p_lines REGEX: how many lines of the last output match REGEX (extended)
p_lines() {
	local l n=0
	while IFS= read -r l; do
		[[ $l =~ $1 ]] && n=$((n + 1))
	done <<<"$out"
	echo "$n"
}

# p_has REGEX: a line of the last output matches REGEX (extended)
p_has() {
	local l
	while IFS= read -r l; do
		[[ $l =~ $1 ]] && return 0
	done <<<"$out"
	return 1
}

# p_expect NAME WANT_RC LINE-REGEX...: the last p_run exited WANT_RC and
# printed a line matching each (extended) regex.
p_expect() {
	local name=$1 want=$2 re
	shift 2
	if [ "$rc" != "$want" ]; then
		t_fail "$name" "exit $rc, want $want"
		return
	fi
	for re in "$@"; do
		if ! p_has "$re"; then
			t_fail "$name" "no line matching '$re'"
			return
		fi
	done
	t_pass "$name"
}

# p_count NAME N REGEX: exactly N lines of the last output match
p_count() {
	local n
	n=$(p_lines "$3")
	if [ "$n" = "$2" ]; then t_pass "$1"; else t_fail "$1" "$n lines, want $2"; fi
}

# has_deleg [FILE]: nfsd holds a delegation for some client (on the file
# /FILE of the export).
has_deleg() {
	grep -q "type: deleg.*${1:+filename: \"/$1\"}" /proc/fs/nfsd/clients/*/states 2>/dev/null
}

# hold_deleg: open $mnt/deleg for reading on fd 3 until nfsd grants a
# read delegation with the OPEN (for up to 30 s: it grants none while a
# lock manager is in its grace period, and lockd's lasts 10 s)
hold_deleg() {
	local i
	for i in $(seq 30); do
		echo 3 > /proc/sys/vm/drop_caches
		exec 3< "$mnt/deleg"
		has_deleg && return 0
		exec 3<&-
		sleep 1
	done
	return 1
}

# Whether a callback was still unanswered when cb_cut deleted the device,
# for its EVIDENCE argument; each prints what it saw. svcrdma2 counts the
# Calls it sent and the replies it took; nfsd (either transport) traces a
# callback that failed: CB_SEQUENCE's status, or CB_RECALL queued again
# (the caller enables nfsd_cb_seq_status and nfsd_cb_restart).
CB_FAILED='nfsd_cb_seq_status: .* tk_status=-[0-9]+ |nfsd_cb_restart: .*opcode=CB_RECALL'
cut_baseline() {
	CUT_CALLS=$(svc_stat cb_calls) CUT_REPLIES=$(svc_stat cb_replies)
	CUT_FAILED=$(grep -cE "$CB_FAILED" /sys/kernel/tracing/trace)
}
svcrdma2_unanswered() {
	local calls=$(($(svc_stat cb_calls) - CUT_CALLS))
	local replies=$(($(svc_stat cb_replies) - CUT_REPLIES))
	echo "svcrdma2: $calls reverse-direction Calls sent, $replies replies taken since the cut"
	[ "$calls" -gt "$replies" ]
}
nfsd_cb_failed() {
	local n
	n=$(grep -cE "$CB_FAILED" /sys/kernel/tracing/trace)
	echo "nfsd: $((n - CUT_FAILED)) failed callbacks traced since the cut"
	[ "$n" -gt "$CUT_FAILED" ]
}

# cb_cut LABEL EVENT EVIDENCE [KEY=VALUE...]: the connection lost while a
# callback is outstanding, on the NFSv4.1+ mount at $mnt
# with nfsd's callback channel UP (the caller's cb_up says when). The
# client holds a read delegation; a conflicting local open makes nfsd
# send CB_RECALL, and cb_linkcut.py deletes rxe0 the moment the trace
# shows EVENT (a process started then would be too late: under TCG the
# reply takes ~25 ms). Once the link is back and the open has finished,
# EVIDENCE, a function run with the try's name, says whether the Call
# went unanswered; a try where it did not does not count, and after 8
# such tries the case fails as not exercised. (Most runs need one try,
# some two or three: the reply can beat the device's removal, ~600 ms
# under KASAN; see cut_ready.) Each try: the conflicting
# open finishes once the link is back (nfsd's callback failed with the
# connection and was retried or given up), the data are intact, nothing
# hangs. Checks are named "[LABEL ]cut N: ...".
#
# The two backchannel scripts named some checks differently before this
# loop was shared, and check names are compared across runs: KEY=VALUE
# keeps them. deleted= how the link went ("at EVENT"); limit= the limit
# on the open, "S s: why" ("30 s: no hang"); reads= what the client reads
# back ("both writes"); outstanding= a note on the last check; gone= a
# function run with the try's name once the device is gone; hold= a
# reply held back (below).
#
# cb_cut's hold= names a function of our client that sends a callback's
# reply: from before the conflicting open until the link is gone,
# fail_function makes it return -ENOTCONN (ff_arm), as if the reply were
# lost with the connection (sunrpc drops it; nfsd's callback fails with
# the connection and is sent again on the next). The Call is then
# outstanding at the cut in every try, whatever the guest's speed: the
# race below is for servers whose client is not ours.

# cut_ready: wait (up to ~75 s) for cb_linkcut.py's "ready" the way
# wait_for did before lib.sh's sleep stopped forking: a grep and a
# /bin/sleep 0.2 each round, ~0.8 s of a round. The cutter must beat the
# callback's reply, and how long it has sat in its read when the
# conflicting open starts decides the race: looking every 50 ms, it lost
# all 8 tries of a case; with wait_for's backoff, all 4 and 8 of a case
# in two make check runs; with these rounds it wins in one or two, as it
# always has. (Why is not understood: cb_linkcut.py's read of trace_pipe
# and the scheduling of one vCPU.)
cut_ready() {
	local k
	for k in $(seq 90); do
		grep -q '^ready' /tmp/cut && return 0
		command sleep 0.2
	done
	return 1
}

cb_cut() {
	local label=$1 event=$2 evidence=$3 i name idx cutter opener crc t0 ms orc done=0
	# (the open: 4-16 s measured, nfsd's lease and grace are 10 s; 30 s
	# leaves room for a loaded host and still catches a hang)
	local deleted="at $2" limit="30 s: no hang" reads="both writes" outstanding='' gone='' hold=''
	# (since=back: the open's time counts from the link's return, not
	# from the open's start: under TCG the device's deletion and return
	# alone take 5-10 s)
	local since=
	local inst=/sys/kernel/tracing/instances/cbcut
	[ $# -gt 3 ] && local "${@:4}"
	mkdir -p "$inst"
	echo 1 > "$inst/events/rpcrdma2/$event/enable"
	for i in 1 2 3 4 5 6 7 8; do
		name="${label:+$label }cut $i"
		t_check "$name: callback channel UP" wait_for cb_up
		printf 'delegated data\n' > "$EXPORT_DIR/deleg"
		if ! hold_deleg; then
			t_fail "$name: a read delegation" "none granted"
			break
		fi
		idx=$(rdma dev show rxe0 | cut -d: -f1)
		echo > "$inst/trace"
		cut_baseline
		if [ -n "$hold" ]; then
			t_check "$name: $hold held back (fail_function)" \
				ff_arm "$hold" 107 -1
		fi
		timeout 60 python3 "$(dirname "$0")/cb_linkcut.py" cbcut "$event" "$idx" \
			> /tmp/cut 2>&1 &
		cutter=$!
		cut_ready ||
			t_fail "$name: the cutter started" "$(cat /tmp/cut)"
		t0=${EPOCHREALTIME/./}
		timeout 60 bash -c "printf 'server data\n' >> $EXPORT_DIR/deleg" &
		opener=$!
		wait "$cutter"
		crc=$?
		[ -n "$hold" ] && ff_disarm
		cat /tmp/cut
		t_check "$name: the link deleted $deleted" test "$crc" -eq 0
		[ -n "$gone" ] && "$gone" "$name"
		t_check "rdma link add rxe0 ($name)" rdma link add rxe0 type rxe netdev eth0
		t_check "rxe0 active again ($name)" \
			wait_for bash -c 'rdma link show rxe0/1 | grep -q ACTIVE'
		[ -z "$since" ] || t0=${EPOCHREALTIME/./}
		# an RPC, so that the client reconnects and binds the new
		# connection to its session
		timeout 120 touch "$mnt/poke"
		wait "$opener"
		orc=$?
		ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
		t_check "$name: the conflicting open finished in $ms ms${since:+ once the link was back} (< $limit)" \
			test "$orc" -eq 0 -a "$ms" -lt "${limit%% *}000"
		exec 3<&-
		echo 3 > /proc/sys/vm/drop_caches
		t_check "$name: the client reads $reads" \
			[ "$(timeout 120 cat "$mnt/deleg")" = "$(printf 'delegated data\nserver data')" ]
		rm -f "$EXPORT_DIR/deleg" "$mnt/poke"
		if "$evidence" "$name"; then
			done=$i
			break
		fi
		echo "$name: the Call was answered before the device went: again"
	done
	echo 0 > "$inst/events/rpcrdma2/$event/enable"
	rmdir "$inst"
	if [ "$done" -gt 0 ]; then
		t_pass "${label:+$label }cut $done: the connection died with a callback outstanding${outstanding:+ $outstanding}"
	else
		t_fail "${label:+$label: }a callback outstanding at the link loss" \
			"in no try did the link go before the reply: the path was not exercised"
	fi
}

# Two guests (scripts/vm/pair): each runs the same script, with
# RPCRDMA2_PAIR_ROLE server or client, joined by link0.
SERVER_IP=198.18.0.1
CLIENT_IP=198.18.0.2
SERVER_IP6=2001:db8::1
CLIENT_IP6=2001:db8::2
PAIR=/run/pair

pair_peer() {
	if [ "$RPCRDMA2_PAIR_ROLE" = server ]; then echo client; else echo server; fi
}

# pair_wait NAME [SECONDS]: reach barrier NAME and wait (up to SECONDS,
# default 900) until the other guest has reached it too. Fails at once
# when the other guest's copy of this script has ended (t_done, die) or
# its guest has: a barrier never waits for a peer that cannot come.
# Names are the script's own (one guest may run several in sequence).
pair_wait() {
	local b=$PAIR/${0##*/}.$1 peer
	peer=$(pair_peer)
	: > "$b.$RPCRDMA2_PAIR_ROLE"
	pair_poll "$b.$peer" "${2:-900}" "$PAIR/${0##*/}.end.$peer" "$PAIR/exit.$peer"
}

# pair_poll FILE SECONDS [GONE...]: wait until FILE exists (0), any GONE
# file does (1), or SECONDS have passed (1). FILE is looked for once more
# after a GONE file is seen: the peer may have made FILE, passed its own
# barrier and ended between the two looks, and it always makes FILE
# before GONE.
pair_poll() {
	local file=$1 secs=$2 i f
	shift 2
	for ((i = 0; i < secs * 5; i++)); do
		[ -e "$file" ] && return 0
		for f; do
			[ -e "$f" ] || continue
			[ -e "$file" ]
			return
		done
		sleep 0.2
	done
	return 1
}

# pair_end: tell the other guest this script has ended.
pair_end() {
	[ -n "${RPCRDMA2_PAIR_ROLE:-}" ] || return 0
	: > "$PAIR/${0##*/}.end.$RPCRDMA2_PAIR_ROLE"
}

# pair_put KEY VALUE, pair_get KEY: pass a value to the other guest.
pair_put() { echo "$2" > "$PAIR/$1.tmp" && mv "$PAIR/$1.tmp" "$PAIR/$1"; }
pair_get() { cat "$PAIR/$1"; }

# pair_await KEY [SECONDS]: wait (default 600 s) until the other guest has
# put KEY; fails at once if its guest has ended.
pair_await() { pair_poll "$PAIR/$1" "${2:-600}" "$PAIR/exit.$(pair_peer)"; }

# pair_run: run the script's server or client function, as this guest's
# role says, then end the script (t_done).
pair_run() {
	case ${RPCRDMA2_PAIR_ROLE:-} in
	server) server ;;
	client) client ;;
	*) die "run me with scripts/vm/pair" ;;
	esac
	t_done
}

# link_netem [ARGS...]: what link0's netem qdisc (tc-netem(8) ARGS: loss,
# delay, reordering) does to every frame this guest sends from now on;
# nothing without ARGS. guest-init put the qdisc there at boot, and it is
# changed, never swapped or deleted: a qdisc being replaced refuses
# frames for a moment, and rxe moves a QP whose frame the qdisc refused
# to the error state for good (rxe_requester() on rxe_xmit_packet()'s
# error): a data QP, which reconnecting mends, or the CM's GSI QP, after
# which no connection is made again until the device is recreated. A
# real NIC has no qdisc under its RDMA traffic.
link_netem() {
	tc qdisc change dev link0 root netem limit 10000 "$@" ||
		t_fail "tc qdisc change dev link0 root netem $*" "tc failed"
}

# link_bytes: bytes sent and received on link0 so far, "TX RX".
link_bytes() {
	echo "$(cat /sys/class/net/link0/statistics/tx_bytes)" \
		"$(cat /sys/class/net/link0/statistics/rx_bytes)"
}

# pair_recall NAME: a delegation recalled across the link, on the NFSv4.1+
# mount at $mnt (both guests call it at the same point). The client
# writes a file, then opens it for reading until the server's nfsd shows
# it holds a read delegation on it; then a local write on the server
# breaks it: nfsd sends CB_RECALL over the backchannel and the write
# waits until the client returns the delegation, or until the lease break
# time (20 s here) when the callback fails. The write must finish well
# before that, and the client must have traced the recall. The server
# gets here first: the client runs its I/O on the mount before, minutes
# on a slow host, so the first meeting waits pair_wait's default 900 s.
#
# Each try is a new file: nfsd refuses delegations on a file whose
# delegation was recalled in the last 30-60 s, by a 256-bit Bloom filter
# of file handles (delegation_blocked(), fs/nfsd/nfs4state.c) that any
# other recall may also have set for this one. The server traces nfsd's
# OPENs and delegations meanwhile ($RESULTS/recall-trace).
pair_recall() {
	local name=$1 i got=no t0 ms f T=/sys/kernel/tracing
	mountpoint -q $T || mount -t tracefs tracefs $T
	if [ "$RPCRDMA2_PAIR_ROLE" = client ]; then
		echo 1 > $T/events/nfs4/nfs4_cb_recall/enable
		for i in $(seq 20); do
			f=$mnt/$name-deleg$i
			echo "before the recall" > "$f"
			sync
			echo 3 > /proc/sys/vm/drop_caches
			exec 3< "$f"
			pair_wait "$name-try$i" && pair_wait "$name-answer$i" 300 ||
				break
			got=$(pair_get "$name-got$i")
			[ "$got" = yes ] && break
			exec 3<&-
			sleep 1
		done
		pair_wait "$name-recalled" 300
		exec 3<&- 2>/dev/null
		t_check "$name: the client traced CB_RECALL" \
			grep -q 'nfs4_cb_recall:' $T/trace
		t_check "$name: the client reads the server's write" \
			grep -q "after the recall" "$f"
		echo 0 > $T/events/nfs4/nfs4_cb_recall/enable
		return
	fi
	echo 20 > /proc/sys/fs/lease-break-time
	recall_trace 1
	for i in $(seq 20); do
		pair_wait "$name-try$i" || break
		got=no
		has_deleg "$name-deleg$i" && got=yes
		pair_put "$name-got$i" "$got"
		pair_wait "$name-answer$i" 300 || break
		[ "$got" = yes ] && break
	done
	recall_trace 0
	if [ "$got" != yes ]; then
		# what nfsd thinks of the client's callback channel, and what
		# it holds for the client
		sed 's/^/  | /' /proc/fs/nfsd/clients/*/info /proc/fs/nfsd/clients/*/states
	fi
	t_check "$name: nfsd granted the client a read delegation" [ "$got" = yes ]
	t0=${EPOCHREALTIME/./}
	timeout 60 bash -c "echo 'after the recall' > '$EXPORT_DIR/$name-deleg$i'"
	ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
	t_check "$name: a local write broke it in $ms ms (the client returned it)" \
		[ "$got" = yes -a "$ms" -lt 10000 ]
	pair_wait "$name-recalled" 300
}

# recall_trace 1|0: trace nfsd's OPENs, delegations and callback states,
# and whether each OPEN got as far as a lease (kernel_setlease()), or
# stop and keep the trace in $RESULTS/recall-trace.
recall_trace() {
	local T=/sys/kernel/tracing e
	for e in nfsd_open nfsd_deleg_read nfsd_deleg_return nfsd_cb_new_state; do
		[ ! -e $T/events/nfsd/$e ] || echo "$1" > $T/events/nfsd/$e/enable
	done
	if [ "$1" = 1 ]; then
		grep -q rpcrdma2_setlease $T/kprobe_events 2>/dev/null ||
			echo 'r:rpcrdma2_setlease kernel_setlease ret=$retval' \
				>> $T/kprobe_events 2>/dev/null
	else
		grep -E 'nfsd_|setlease' $T/trace > "$RESULTS/recall-trace"
	fi
	[ ! -e $T/events/kprobes/rpcrdma2_setlease ] ||
		echo "$1" > $T/events/kprobes/rpcrdma2_setlease/enable
}

# vm_stock: this guest runs Debian's own kernel (scripts/vm/run --flavour
# stock): the in-tree transports only, none of ours.
vm_stock() {
	local r
	read -r r < /proc/sys/kernel/osrelease
	case $r in
	*-rpcrdma2) return 1 ;;
	esac
	return 0
}

# pair_transport: what this guest serves or mounts with, "rdma2" (ours) or
# "rdma" (the stock kernel's in-tree transport); pair_peer_stock: whether
# the other guest runs the stock kernel. Either way the server listens on
# $NFS_V2_PORT.
pair_transport() { if vm_stock; then echo rdma; else echo rdma2; fi; }
pair_peer_stock() { [ "$(pair_get "transport.$(pair_peer)")" = rdma ]; }

# pair_up: rxe on link0, and the NFS server (server) or our client module
# (client) of this guest's kind; says which transport it is to the other
# guest and waits for it to be ready as well. What an earlier script of
# the same sequence left up (scripts/vm/sequence keeps it between the
# scripts of two guests) is used as it is.
pair_up() {
	local t
	t=$(pair_transport)
	vm_rxe_up link0
	pair_put "transport.$RPCRDMA2_PAIR_ROLE" "$t"
	if [ "$RPCRDMA2_PAIR_ROLE" = server ]; then
		vm_stock || [ -d /sys/module/svcrdma2 ] || vm_load_svcrdma2
		if pair_nfsd_serves "$t"; then
			vm_nfsd_end_grace
		else
			vm_nfsd_up "$t" "$NFS_V2_PORT"
		fi
	else
		mnt=/tmp/mnt
		mkdir -p "$mnt"
		if ! vm_stock && [ ! -d /sys/module/xprtrdma2 ]; then
			vm_load_common
			modprobe sunrpc && modprobe rdma_cm ||
				die "modprobe sunrpc rdma_cm"
			insmod "$RPCRDMA2_MODDIR/xprtrdma2/xprtrdma2.ko" ||
				die "insmod xprtrdma2"
		fi
	fi
	pair_wait up || die "the $(pair_peer) never came up"
}

# pair_nfsd_serves TRANSPORT: nfsd runs and listens on TRANSPORT
# $NFS_V2_PORT (a script before this one in the sequence started it).
pair_nfsd_serves() {
	local n l
	[ -e /proc/fs/nfsd/threads ] && read -r n < /proc/fs/nfsd/threads &&
		[ "$n" -gt 0 ] || return 1
	while read -r l; do
		[ "$l" = "$1 $NFS_V2_PORT" ] && return 0
	done < /proc/fs/nfsd/portlist
	return 1
}

# pair_down: the server's nfsd stops as a script ends, unless another
# script of the sequence follows (scripts/vm/sequence sets
# RPCRDMA2_SEQ_MORE): that one is served by the same nfsd.
pair_down() {
	[ "$RPCRDMA2_PAIR_ROLE" = server ] && [ -z "${RPCRDMA2_SEQ_MORE:-}" ] ||
		return 0
	vm_nfsd_down
}

# pair_vers: the RPC-over-RDMA version the two guests should agree on: 2
# when both run ours, else 1 (our side falls back to, or serves, v1).
pair_vers() {
	if vm_stock || pair_peer_stock; then echo 1; else echo 2; fi
}

# pair_mount NFSVERS [OPTIONS]: mount the server's export on $mnt across
# the link (the client's transport, and NFSv3's export path).
pair_mount() {
	local v=$1 src=$SERVER_IP:/ o=${2:+,$2}
	# (NFSv3 without lockd: no rpc.statd runs in the guests)
	[ "$v" = 3 ] && src=$SERVER_IP:$EXPORT_DIR o+=,nolock
	if vm_stock; then
		mount -t nfs -o "vers=$v,proto=rdma,port=$NFS_V2_PORT$o" "$src" "$mnt"
	else
		# (mount(2) itself: nfs-utils' helper does not know netid rdma2)
		mount -i -t nfs -o "vers=$v,proto=rdma2,port=$NFS_V2_PORT,addr=$SERVER_IP,mountproto=tcp$o" \
			"$src" "$mnt"
	fi
}

# pair_conn_vers: the version of the client's connection as this guest
# sees it (ours: the counters; the stock kernel cannot say).
pair_conn_vers() {
	if vm_stock; then
		echo "?"
	elif [ "$RPCRDMA2_PAIR_ROLE" = server ]; then
		sed -n "s/^conn $CLIENT_IP[^ ]* vers=\([0-9]*\) .*/\1/p" /proc/fs/svcrdma2/stats |
			head -n 1
	else
		xprt_stat vers
	fi
}
