/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU counters, shared by the rpcrdma2 client and server transports
 * (kernel only). Each RPC bumps its counters on the CPU it runs on, with
 * no atomic; readers of the stats files pay for the sum instead.
 */
#ifndef _RPCRDMA2_STATS_H
#define _RPCRDMA2_STATS_H

#include <linux/percpu.h>
#include <linux/types.h>

/**
 * rpcrdma2_percpu_sum - a per-CPU counter's value
 * @c: one counter in a per-CPU array
 *
 * Each CPU's count is read without a lock while others may bump theirs:
 * on a 64-bit kernel a concurrent increment is seen or not, on a 32-bit
 * one a count may be read torn. The stats files need no more than that.
 *
 * Return: the sum of @c over every possible CPU.
 */
static inline u64 rpcrdma2_percpu_sum(const u64 __percpu *c)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(c, cpu);
	return sum;
}

#endif /* _RPCRDMA2_STATS_H */
