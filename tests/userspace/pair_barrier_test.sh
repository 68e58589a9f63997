#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The two-guest barrier (pair_wait/pair_poll in tests/vm/lib.sh), on the
# host with a directory for the guests' share: a peer that reaches the
# barrier and ends between this guest's look for its barrier file and
# its look for the peer's end is seen to have reached the barrier; a peer
# that ends without reaching it, or never comes, is not.
# Prints one PASS:/FAIL: line per case; exits 1 if any failed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
failed=0
. "$top/tests/vm/lib.sh"
PAIR=$(mktemp -d)
trap 'rm -rf "$PAIR"' EXIT
# shellcheck disable=SC2034 # lib.sh reads it
RPCRDMA2_PAIR_ROLE=server

# check NAME CMD...: CMD succeeds
check() {
	local name=$1
	shift
	if "$@"; then
		echo "PASS: pair barrier: $name"
	else
		echo "FAIL: pair barrier: $name"
		failed=1
	fi
}

# The peer (the client) acts at the first look for its barrier file:
# "race" makes the file, passes and ends before the look returns; "gone"
# ends without it. Every other test is the shell's own. (pair_poll's
# "[" is this function while the test runs; eval, for shellcheck.)
peer_does=""
# shellcheck disable=SC2317 # called as "["
peer_look() {
	if [[ -n $peer_does && "$1 $2" == "-e $PAIR/${0##*/}.b.client" ]]; then
		case $peer_does in
		race) : > "$PAIR/${0##*/}.b.client" ;;
		esac
		: > "$PAIR/${0##*/}.end.client"
		peer_does=""
		return 1
	fi
	builtin [ "$@"
}
eval '[() { peer_look "$@"; }'

peer_does=race
check "a peer that passes and ends between two looks has reached it" pair_wait b 2
rm -f "$PAIR"/*

# fails_after SECS MIN MAX: the barrier, with a limit of SECS, fails
# after MIN to MAX seconds
# shellcheck disable=SC2317 # called by check
fails_after() {
	local t0=${EPOCHREALTIME/./} t
	! pair_wait b "$1" || return 1
	t=$((${EPOCHREALTIME/./} - t0))
	((t >= $2 * 1000000 && t < $3 * 1000000))
}
peer_does=gone
check "a peer that ends before it has not, and is not waited for" fails_after 30 0 1
rm -f "$PAIR"/*

check "a peer that never comes is waited for until the limit" fails_after 1 1 3
exit $failed
