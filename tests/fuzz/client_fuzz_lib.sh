#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The client wire fuzz, for guest scripts that source tests/vm/lib.sh
# (tests/fuzz/client_fuzz.sh, the long run; tests/vm/xprtrdma2_hostile.sh,
# a short one): rpcrdma2-listen-fuzz answers every Call of our
# client with a burst of mutated messages, while NFSv4.2 mounts through
# it (proto=rdma2, soft, 1 s RPC timeout, one retry) keep the client
# sending Calls: a mount's NULL, and after a NULL that succeeded its
# EXCHANGE_ID. They go one after another from one process
# (client_fuzz_mount.py: mount(2) itself, no process per attempt). None
# can succeed (the listener is no NFS server); each must fail within
# CFUZZ_MOUNT_SECS.
#
# A mount spends most of its time waiting out RPC timeouts, not on the
# CPU, so CFUZZ_JOBS listeners (on consecutive ports, seeds SEED,
# SEED+1, ...) each get their own stream of mounts at once: one client
# module then also handles that many broken transports side by side.
# Needs $LISTEN_FUZZ, $mnt, xprtrdma2 loaded.

CFUZZ_MOUNT_SECS=${CFUZZ_MOUNT_SECS:-60}
CFUZZ_JOBS=${CFUZZ_JOBS:-4}

# client_fuzz NAME COUNT SEED PORT: run it until the listeners have sent
# COUNT messages between them; check each listener's exit and summary and
# that no mount hung or succeeded. Leaves listener J's output in
# /tmp/cfuzz.NAME.J (its mounts' summary in /tmp/cfuzz.NAME.J.mounts) and
# the seconds it took in $cfuzz_secs.
client_fuzz() {
	local name=$1 count=$2 seed=$3 port=$4 t0=$EPOCHSECONDS
	local j n log lrc mrc bad=0 sum=0 seeds
	local -a lpid mpid want

	for ((j = 0; j < CFUZZ_JOBS; j++)); do
		# the first listeners take the remainder
		want[j]=$((count / CFUZZ_JOBS + (j < count % CFUZZ_JOBS)))
		log=/tmp/cfuzz.$name.$j
		"$LISTEN_FUZZ" --port $((port + j)) --fuzz "${want[j]}" \
			--seed $((seed + j)) \
			--corpus "$RPCRDMA2_TOP/tests/fuzz/corpus/fuzz_codec" > "$log" 2>&1 &
		lpid[j]=$!
	done
	for ((j = 0; j < CFUZZ_JOBS; j++)); do
		log=/tmp/cfuzz.$name.$j
		if ! wait_for listening "$log"; then
			kill "${lpid[@]}" 2>/dev/null
			wait "${lpid[@]}" 2>/dev/null
			t_fail "client fuzz $name" "listener $j did not start: $(head -c 300 "$log")"
			return
		fi
	done
	for ((j = 0; j < CFUZZ_JOBS; j++)); do
		mkdir -p "$mnt.$j"
		"$(dirname "${BASH_SOURCE[0]}")/client_fuzz_mount.py" "${lpid[j]}" \
			"$CFUZZ_MOUNT_SECS" "$GUEST_IP:/" "$mnt.$j" \
			"vers=4.2,proto=rdma2,port=$((port + j)),soft,timeo=10,retrans=1,addr=$GUEST_IP" \
			> "/tmp/cfuzz.$name.$j.mounts" &
		mpid[j]=$!
	done
	for ((j = 0; j < CFUZZ_JOBS; j++)); do
		log=/tmp/cfuzz.$name.$j
		wait "${mpid[j]}"
		mrc=$?
		wait "${lpid[j]}"
		lrc=$?
		[ -n "${RESULTS:-}" ] && cp "$log" "$RESULTS/client-fuzz-$name.$j.out"
		grep -E '^(client fuzz|listen): ' "$log" | sed "s/^/  | fuzz $j: /"
		sed "s/^/  | fuzz $j: /" "$log.mounts"
		if [ "$lrc" != 0 ]; then
			t_fail "client fuzz $name.$j" "the listener exited $lrc: $(grep -v '^conn ' "$log" | tail -n 5)"
			bad=1
		elif ! grep -q "^client fuzz: ${want[j]} messages delivered over [1-9]" "$log"; then
			t_fail "client fuzz $name.$j" "no summary of ${want[j]} messages delivered"
			bad=1
		elif [ "$mrc" != 0 ]; then
			t_fail "client fuzz $name.$j" "$(cat "$log.mounts")"
			bad=1
		fi
		n=$(sed -n 's/^mounts: \([0-9]*\) attempts.*/\1/p' "$log.mounts")
		sum=$((sum + ${n:-0}))
	done
	cfuzz_secs=$((EPOCHSECONDS - t0))
	echo "  | fuzz: $count messages, listeners: $CFUZZ_JOBS, mounts: $sum, $cfuzz_secs s"
	seeds="seed $seed"
	[ "$CFUZZ_JOBS" -gt 1 ] && seeds="seeds $seed..$((seed + CFUZZ_JOBS - 1))"
	[ "$bad" = 0 ] &&
		t_pass "client fuzz $name: $count messages, $seeds, $sum mounts failed cleanly in $cfuzz_secs s"
}
