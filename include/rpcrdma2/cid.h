/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The completion ID both transports give every work-request context and
 * key their tracepoints by (include/rpcrdma2/trace_common.h).
 */
#ifndef _RPCRDMA2_CID_H
#define _RPCRDMA2_CID_H

#include <linux/types.h>

/**
 * struct rpcrdma2_cid - completion ID: which queue, which work request
 * @queue_id: resource ID of the CQ the work request completes on
 * @completion_id: per-connection number of the work-request context
 */
struct rpcrdma2_cid {
	u32 queue_id;
	int completion_id;
};

#endif /* _RPCRDMA2_CID_H */
