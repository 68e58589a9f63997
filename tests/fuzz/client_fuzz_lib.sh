#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The client wire fuzz, for guest scripts that source tests/vm/lib.sh
# (tests/fuzz/client_fuzz.sh, the long run; tests/vm/xprtrdma2_hostile.sh,
# a short one): rpcrdma2-ping --listen --fuzz answers every Call of our
# client with a burst of mutated messages, while NFSv4.2 mounts through
# it (proto=rdma2, soft, 1 s RPC timeout, one retry) keep the client
# sending Calls: a mount's NULL, and after a NULL that succeeded its
# EXCHANGE_ID. They go one after another from one process
# (client_fuzz_mount.py: mount(2) itself, no process per attempt). None
# can succeed (the listener is no NFS server); each must fail within
# CFUZZ_MOUNT_SECS. Needs $PING, $mnt, xprtrdma2 loaded.

CFUZZ_MOUNT_SECS=${CFUZZ_MOUNT_SECS:-60}

# client_fuzz NAME COUNT SEED PORT: run it until the listener has sent
# COUNT messages; check the listener's exit and summary and that no mount
# hung or succeeded. Leaves the listener's output in /tmp/cfuzz.NAME
# (the mounts' summary in /tmp/cfuzz.NAME.mounts) and the seconds it took
# in $cfuzz_secs.
client_fuzz() {
	local name=$1 count=$2 seed=$3 port=$4 lpid lrc mrc
	local log=/tmp/cfuzz.$name t0=$EPOCHSECONDS
	local opts="vers=4.2,proto=rdma2,port=$port,soft,timeo=10,retrans=1,addr=$GUEST_IP"

	"$PING" --listen --port "$port" --fuzz "$count" --seed "$seed" \
		--corpus "$RPCRDMA2_TOP/fuzz/corpus/fuzz_codec" > "$log" 2>&1 &
	lpid=$!
	if ! wait_for grep -q '^listening on' "$log"; then
		kill "$lpid" 2>/dev/null
		t_fail "client fuzz $name" "the listener did not start: $(head -c 300 "$log")"
		return
	fi
	"$(dirname "${BASH_SOURCE[0]}")/client_fuzz_mount.py" "$lpid" \
		"$CFUZZ_MOUNT_SECS" "$GUEST_IP:/" "$mnt" "$opts" > "$log.mounts"
	mrc=$?
	wait "$lpid"
	lrc=$?
	cfuzz_secs=$((EPOCHSECONDS - t0))
	[ -n "${RESULTS:-}" ] && cp "$log" "$RESULTS/client-fuzz-$name.out"
	grep -E '^(client fuzz|listen): ' "$log" | sed 's/^/  | fuzz: /'
	sed 's/^/  | fuzz: /' "$log.mounts"
	echo "  | fuzz: $cfuzz_secs s"
	if [ "$lrc" != 0 ]; then
		t_fail "client fuzz $name" "the listener exited $lrc: $(grep -v '^conn ' "$log" | tail -n 5)"
	elif ! grep -q "^client fuzz: $count messages delivered over [1-9]" "$log"; then
		t_fail "client fuzz $name" "no summary of $count messages delivered"
	elif [ "$mrc" != 0 ]; then
		t_fail "client fuzz $name" "$(cat "$log.mounts")"
	else
		t_pass "client fuzz $name: $count messages, seed $seed, mounts failed cleanly in $cfuzz_secs s ($(cat "$log.mounts"))"
	fi
}
