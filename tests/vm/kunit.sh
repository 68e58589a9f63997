#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Load every KUnit suite module built for the test kernel (they run at
# insmod) and save each suite's KTAP results for the host to parse; the
# debugfs results vanish at rmmod, so they are copied first.
. "$(dirname "$0")/lib.sh"

vm_load_svcrdma2
t_check "insmod xprtrdma2" insmod "$RPCRDMA2_MODDIR/xprtrdma2/xprtrdma2.ko"
mkdir -p "$RESULTS/kunit"
n=0
for ko in "$RPCRDMA2_MODDIR"/kunit/*.ko; do
	[ -e "$ko" ] || continue
	mod=$(basename "$ko" .ko)
	before=$(ls /sys/kernel/debug/kunit)
	t_check "insmod $mod" insmod "$ko"
	for s in $(ls /sys/kernel/debug/kunit); do
		case " $before " in *" $s "*) continue ;; esac
		cat "/sys/kernel/debug/kunit/$s/results" > "$RESULTS/kunit/$s.ktap"
		n=$((n + 1))
	done
	t_check "rmmod $mod" rmmod "$mod"
done
t_check "rmmod svcrdma2" rmmod svcrdma2
t_check "rmmod xprtrdma2" rmmod xprtrdma2
t_check "rmmod rpcrdma2_common" rmmod rpcrdma2_common
[ $n -gt 0 ] || t_fail "kunit suites" "no suite registered"
t_done
