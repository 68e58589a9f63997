/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Printing helpers shared by the userspace tools (rpcrdma2-decode,
 * rpcrdma2-ping): one "name: value" line per field, so tests can grep them.
 */
#ifndef _RPCRDMA2_TOOLS_PRINT_H
#define _RPCRDMA2_TOOLS_PRINT_H

#include <stdio.h>

#include <rpcrdma2/codec.h>

/**
 * error_arm - the arm of an RDMA_ERROR / RDMA2_ERROR as named fields
 * @vers: rdma_vers of the header (v1 knows only ERR_VERS's arm)
 * @err: the decoded error
 * @names: the fields' names, as draft v2 §5.3.3 spells them
 * @vals: their values
 *
 * Return: the number of fields, 0..2.
 */
static inline int error_arm(u32 vers, const struct rpcrdma2_error *err,
			    const char *names[2], u32 vals[2])
{
	if (err->code == RPCRDMA2_ERR_VERS) {
		names[0] = "vers_low";
		vals[0] = err->vers.low;
		names[1] = "vers_high";
		vals[1] = err->vers.high;
		return 2;
	}
	if (vers != RPCRDMA2_VERS_2)
		return 0;
	switch (err->code) {
	case RPCRDMA2_ERR_READ_CHUNKS:
	case RPCRDMA2_ERR_WRITE_CHUNKS:
		names[0] = "max_chunks";
		vals[0] = err->max_chunks;
		return 1;
	case RPCRDMA2_ERR_SEGMENTS:
		names[0] = "max_segments";
		vals[0] = err->max_segs;
		return 1;
	case RPCRDMA2_ERR_WRITE_RESOURCE:
		names[0] = "chunk_index";
		vals[0] = err->write.index;
		names[1] = "length_needed";
		vals[1] = err->write.length;
		return 2;
	case RPCRDMA2_ERR_REPLY_RESOURCE:
		names[0] = "length_needed";
		vals[0] = err->length_needed;
		return 1;
	}
	return 0;
}

/**
 * print_error_arm - print the arm of an RDMA_ERROR / RDMA2_ERROR
 * @prefix: put before each field name
 * @vers: rdma_vers of the header (v1 knows only ERR_VERS's arm)
 * @err: the decoded error
 */
static inline void print_error_arm(const char *prefix, u32 vers,
				   const struct rpcrdma2_error *err)
{
	const char *names[2];
	u32 vals[2];
	int i, n = error_arm(vers, err, names, vals);

	for (i = 0; i < n; i++)
		printf("%s%s: %u\n", prefix, names[i], vals[i]);
}

#endif /* _RPCRDMA2_TOOLS_PRINT_H */
