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
 * print_error_arm - print the arm of an RDMA_ERROR / RDMA2_ERROR
 * @prefix: put before each field name
 * @vers: rdma_vers of the header (v1 knows only ERR_VERS's arm)
 * @err: the decoded error
 */
static inline void print_error_arm(const char *prefix, u32 vers,
				   const struct rpcrdma2_error *err)
{
	if (err->code == RPCRDMA2_ERR_VERS) {
		printf("%svers_low: %u\n", prefix, err->vers.low);
		printf("%svers_high: %u\n", prefix, err->vers.high);
		return;
	}
	if (vers != RPCRDMA2_VERS_2)
		return;
	switch (err->code) {
	case RPCRDMA2_ERR_READ_CHUNKS:
	case RPCRDMA2_ERR_WRITE_CHUNKS:
		printf("%smax_chunks: %u\n", prefix, err->max_chunks);
		break;
	case RPCRDMA2_ERR_SEGMENTS:
		printf("%smax_segments: %u\n", prefix, err->max_segs);
		break;
	case RPCRDMA2_ERR_WRITE_RESOURCE:
		printf("%schunk_index: %u\n", prefix, err->write.index);
		printf("%slength_needed: %u\n", prefix, err->write.length);
		break;
	case RPCRDMA2_ERR_REPLY_RESOURCE:
		printf("%slength_needed: %u\n", prefix, err->length_needed);
		break;
	}
}

#endif /* _RPCRDMA2_TOOLS_PRINT_H */
