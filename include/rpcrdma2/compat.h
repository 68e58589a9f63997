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

#include <assert.h>
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/*
 * The compiler's own type macros, so this header needs no <stdint.h>.
 * EXPORT_SYMBOL_GPL() (empty) and noinline are defined on the userspace
 * compiler command line (mk/userspace.mk).
 */
typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT32_TYPE__ s32;
typedef __UINT32_TYPE__ __be32;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline u32 get_unaligned_be32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static inline u64 get_unaligned_be64(const void *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

static inline void put_unaligned_be64(u64 val, void *p)
{
	val = htobe64(val);
	memcpy(p, &val, sizeof(val));
}

static inline void put_unaligned_be32(u32 val, void *p)
{
	val = htobe32(val);
	memcpy(p, &val, sizeof(val));
}

#endif /* __KERNEL__ */

#endif /* _RPCRDMA2_COMPAT_H */
