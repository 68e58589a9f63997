// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma2 policy: the decisions the server makes about a reply or a
 * reverse-direction Call that do not touch the hardware, kept apart so
 * KUnit can check them (kunit/svcrdma2_policy_kunit.c).
 */
#include <kunit/visibility.h>
#include <linux/export.h>

#include "svc_rdma2.h"

/**
 * svc_rdma2_inv_handle - which handle a reply may remotely invalidate
 * @hdr: the decoded Call
 * @reminv_ok: v1: both peers set the RFC 8797 R bit
 * @dev_reminv: our device can post Send With Invalidate
 *
 * v2 (draft §3.3): the requester names the handle in rdma_inv_handle;
 * zero means "none". v1 (RFC 8797 §4.1): only when both peers set the R
 * bit, and the handle must belong to this RPC: we take the first handle
 * the Call carried (Write list, then Reply chunk, then Read list), which
 * the requester registered for this XID alone.
 *
 * Context: any.
 *
 * Return: the R_key to invalidate with the reply's Send, or 0 for a plain
 * Send.
 */
u32 svc_rdma2_inv_handle(const struct rpcrdma2_hdr *hdr, bool reminv_ok,
			 bool dev_reminv)
{
	const struct rpcrdma2_chunk_lists *cl = &hdr->cl;

	if (!dev_reminv)
		return 0;
	if (hdr->vers == RPCRDMA2_VERS_2)
		return cl->inv_handle;
	if (!reminv_ok)
		return 0;
	if (cl->nr_segs)
		return cl->segs[0].handle;
	if (cl->nr_reads)
		return cl->reads[0].seg.handle;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(svc_rdma2_inv_handle);

/**
 * svc_rdma2_reply_inline_limit - largest reply we may send inline
 * @vers: the connection's protocol version
 * @v1_reply_inline: the RFC 8797 server-to-client threshold
 * @peer_rbsiz: v2: the client's Receive Buffer Size (its CONNPROP, or the
 *	default 4096)
 * @buf_size: our Send buffer size
 *
 * v1: RFC 8166 §3.3.2 with the RFC 8797 sizes. v2: draft §4.2.1, the
 * client's RBSIZ (default 4096, §8.3). Never more than our Send buffer.
 *
 * Context: any.
 *
 * Return: the threshold in bytes, transport header included.
 */
u32 svc_rdma2_reply_inline_limit(u32 vers, u32 v1_reply_inline,
				 u32 peer_rbsiz, u32 buf_size)
{
	u32 limit = vers == RPCRDMA2_VERS_2 ? peer_rbsiz : v1_reply_inline;

	return min(limit, buf_size);
}
EXPORT_SYMBOL_IF_KUNIT(svc_rdma2_reply_inline_limit);

/**
 * svc_rdma2_chunk_length - bytes a Write or Reply chunk can hold
 * @cl: the decoded chunk lists
 * @ch: one of its Write chunks or its Reply chunk
 *
 * Context: any.
 *
 * Return: the sum of the chunk's segment lengths.
 */
u64 svc_rdma2_chunk_length(const struct rpcrdma2_chunk_lists *cl,
			   const struct rpcrdma2_chunk *ch)
{
	u64 len = 0;
	u32 i;

	for (i = 0; i < ch->nsegs; i++)
		len += cl->segs[ch->first + i].length;
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(svc_rdma2_chunk_length);

/**
 * svc_rdma2_grant - credits to grant in a reply
 * @max_requests: the configured credit limit
 * @posted_recvs: Receives the connection keeps posted
 *
 * RFC 8166 §3.3.1: the grant is never zero and never more than the
 * Receives posted, or a client using all of it would overrun us.
 *
 * Context: any.
 *
 * Return: the rdma_credit value to send.
 */
u32 svc_rdma2_grant(u32 max_requests, u32 posted_recvs)
{
	return clamp(min(max_requests, posted_recvs), 1U, U32_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(svc_rdma2_grant);

/**
 * svc_rdma2_bc_peer_accepts - may a connection carry reverse-direction Calls
 * @vers: the connection's protocol version, 0 until the first message
 * @peer_brs: v2: the client's Reverse Request Support (its CONNPROP, or
 *	the default RDMA2_RVREQSUP_INLINE)
 *
 * v1: always (RFC 8167). v2: unless the client said BRS NONE (draft
 * §4.2.2); our Calls are inline, which INLINE and GENL both take. Before
 * the first message fixed the version there is no header to write.
 *
 * Context: any.
 *
 * Return: true when a reverse-direction Call may be sent.
 */
bool svc_rdma2_bc_peer_accepts(u32 vers, u32 peer_brs)
{
	if (vers == RPCRDMA2_VERS_1)
		return true;
	return vers == RPCRDMA2_VERS_2 && peer_brs != RPCRDMA2_RVREQSUP_NONE;
}
EXPORT_SYMBOL_IF_KUNIT(svc_rdma2_bc_peer_accepts);

/**
 * svc_rdma2_bc_window - reverse-direction Calls we may have in flight
 * @granted: rdma_credit of the client's latest reverse-direction reply
 * @slots: our backchannel slots
 *
 * RFC 8167 §4: that rdma_credit is the client's reverse-direction grant.
 * Never zero (one Call must always be possible, or the backchannel
 * stalls for good), never more than our slots.
 *
 * Context: any.
 *
 * Return: the window, in Calls.
 */
u32 svc_rdma2_bc_window(u32 granted, u32 slots)
{
	return clamp(granted, 1U, max(slots, 1U));
}
EXPORT_SYMBOL_IF_KUNIT(svc_rdma2_bc_window);
