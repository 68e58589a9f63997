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

/**
 * svc_rdma2_qp_size - size a connection's queues
 * @max_requests: the credits we would grant (module parameter)
 * @max_qp_wr: the device's work requests per queue
 * @max_send_sge: the device's gather entries per Send Queue WR
 * @max_sge_rd: the device's scatter entries per RDMA Read
 * @s: the sizes
 *
 * Every credit gets a Receive and a reply Send; the reverse direction
 * gets SVC_RDMA2_BC_REQS of each (RFC 8167 §4: a Receive for each reply
 * to our Calls); Receives run SVC_RDMA2_EXTRA_RECVS ahead of the grant,
 * which covers the completed ones a batch of replacements waits for
 * (svc_rdma2.h).
 * A credit's reply may carry every Write chunk and the Reply chunk, each
 * an rdma_rw context. A device too small for that gets fewer credits.
 * A client that keeps more Calls outstanding than a full window posted
 * and a full window being served meets RNR NAKs, never more memory
 * (recvfrom.c): hence @recv_cap. rdma_rw gives each Read or Write WR at
 * most @sges pages: room for one full payload per credit on top of what
 * rdma_rw_init_qp() adds keeps the Reads and Writes of a window of large
 * RPCs from waiting for Send Queue entries.
 *
 * Context: any.
 */
void svc_rdma2_qp_size(u32 max_requests, u32 max_qp_wr, u32 max_send_sge,
		       u32 max_sge_rd, struct svc_rdma2_qp_sizes *s)
{
	u32 rw_per_credit = SVC_RDMA2_MAX_WRITE_CHUNKS + 1;
	u32 recvs = max_requests + SVC_RDMA2_EXTRA_RECVS + SVC_RDMA2_BC_REQS;
	u32 sends = max_requests * (1 + rw_per_credit) + SVC_RDMA2_OWN_SENDS +
		    SVC_RDMA2_BC_REQS;

	if (recvs > max_qp_wr || sends > max_qp_wr) {
		max_requests = min(max_requests,
				   max(max_qp_wr / SVC_RDMA2_MIN_WRS_PER_CREDIT,
				       1U));
		rw_per_credit = SVC_RDMA2_MIN_RW_CTXS;
	}
	s->max_requests = max_requests;
	s->rq_depth = max_requests + SVC_RDMA2_EXTRA_RECVS + SVC_RDMA2_BC_REQS;
	s->recv_cap = 2 * s->rq_depth;
	s->sq_depth = max_requests + SVC_RDMA2_OWN_SENDS + SVC_RDMA2_BC_REQS;
	s->rw_ctxs = max_requests * rw_per_credit;
	s->sges = clamp(min(max_send_sge, max_sge_rd), 1U, SVC_RDMA2_RW_SGES);
	s->rw_wrs = max_requests * DIV_ROUND_UP(SVC_RDMA2_RW_LARGE_NENTS,
						s->sges);
}
EXPORT_SYMBOL_IF_KUNIT(svc_rdma2_qp_size);
