/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel facilities the shared wire library uses, so that the same
 * .c files build as part of rpcrdma2_common.ko and as plain userspace C
 * (unit tests, fuzzers, tools). Nothing else in common/ may test __KERNEL__.
 */
#ifndef _RPCRDMA2_COMPAT_H
#define _RPCRDMA2_COMPAT_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#else /* !__KERNEL__ */

#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef uint32_t __be32;

#define EXPORT_SYMBOL_GPL(sym)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline u32 get_unaligned_be32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static inline void put_unaligned_be32(u32 val, void *p)
{
	val = htobe32(val);
	memcpy(p, &val, sizeof(val));
}

#endif /* __KERNEL__ */

#endif /* _RPCRDMA2_COMPAT_H */
