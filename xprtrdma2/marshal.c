// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma2 marshal layer: the transport header of every Call, written
 * by the shared codec, and every received message, decoded by it and
 * matched to its Call. The version of a connection is settled here
 * (draft §7): the first Call goes out in v2 (or v1 once the server said
 * it speaks only v1), and the answer to it fixes the version or, for an
 * ERR_VERS, has the same Call resent in v1 on the same connection.
 * Nothing the server sends is trusted: a message the codec rejects, or
 * one in the wrong version, is discarded (RFC 8166 §4.5).
 */
#include <linux/highmem.h>
#include <linux/sunrpc/msg_prot.h>
#include <linux/sunrpc/xdr.h>
#include <linux/sunrpc/xprt.h>

#include "xprt_rdma2.h"
#include "trace.h"

/**
 * rpcrdma2_reply_limits - what the client's decoder accepts
 * @lim: filled in
 *
 * A reply carries no Read list (RFC 8166 §4.3.1), its Write list at most
 * the chunks a Call of ours offers, and any version we speak: whether it
 * is the connection's version is decided after decoding.
 */
void rpcrdma2_reply_limits(struct rpcrdma2_limits *lim)
{
	lim->max_read_chunks = 0;
	lim->max_write_chunks = RPCRDMA2_REPLY_WRITE_CHUNKS;
	lim->max_segs = RPCRDMA2_REPLY_SEGS;
	lim->vers_low = RPCRDMA2_VERS_MIN;
	lim->vers_high = RPCRDMA2_VERS_MAX;
}

/* Flatten an xdr_buf (head, pages, tail) into @dst */
static void rpcrdma2_copy_from_xdr(u8 *dst, const struct xdr_buf *xdr)
{
	unsigned int base = xdr->page_base & ~PAGE_MASK;
	struct page **ppage = xdr->pages + (xdr->page_base >> PAGE_SHIFT);
	unsigned int left = xdr->page_len;

	memcpy(dst, xdr->head[0].iov_base, xdr->head[0].iov_len);
	dst += xdr->head[0].iov_len;
	while (left) {
		unsigned int n = min_t(unsigned int, PAGE_SIZE - base, left);

		memcpy_from_page(dst, *ppage++, base, n);
		dst += n;
		left -= n;
		base = 0;
	}
	memcpy(dst, xdr->tail[0].iov_base, xdr->tail[0].iov_len);
}

/*
 * Scatter an inline reply into the receive buffer: head, then pages, then
 * tail, as the RPC decoders expect; what does not fit is cut off and the
 * decoders see a short reply.
 */
static unsigned int rpcrdma2_copy_to_xdr(struct xdr_buf *xdr, const u8 *src,
					 unsigned int len)
{
	unsigned int base = xdr->page_base & ~PAGE_MASK;
	struct page **ppage = xdr->pages + (xdr->page_base >> PAGE_SHIFT);
	unsigned int n, left, copied;

	n = min_t(unsigned int, len, xdr->head[0].iov_len);
	memcpy(xdr->head[0].iov_base, src, n);
	copied = n;
	left = min(len - copied, xdr->page_len);
	while (left) {
		n = min_t(unsigned int, PAGE_SIZE - base, left);
		memcpy_to_page(*ppage++, base, src + copied, n);
		copied += n;
		left -= n;
		base = 0;
	}
	n = min_t(unsigned int, len - copied, xdr->tail[0].iov_len);
	memcpy(xdr->tail[0].iov_base, src + copied, n);
	return copied + n;
}

/* The version the inline threshold is judged by while negotiating */
static u32 rpcrdma2_threshold_vers(const struct rpcrdma2_ep *ep)
{
	if (ep->re_vers)
		return ep->re_vers;
	/* the server already told an earlier connection it speaks v1 only */
	return ep->re_try_vers == RPCRDMA2_VERS_1 ? RPCRDMA2_VERS_1 : 0;
}

/*
 * Write the transport header and the Call into @buf.
 * Return: bytes to send, or -EMSGSIZE if the Call does not fit inline.
 */
static int rpcrdma2_marshal(struct rpcrdma2_ep *ep, struct rpc_rqst *rqst,
			    u32 vers, void *buf)
{
	struct rpcrdma2_xprt *r = ep->re_xprt;
	const struct xdr_buf *xdr = &rqst->rq_snd_buf;
	struct rpcrdma2_hdr hdr = {};
	u32 threshold;
	int len;

	hdr.xid = be32_to_cpu(rqst->rq_xid);
	hdr.vers = vers;
	/* RFC 8166 §3.3.1: a requester asks for what it can use */
	hdr.credits = ep->re_max_requests;
	hdr.htype = RPCRDMA2_HT_MSG;
	len = rpcrdma2_encode(&hdr, buf, ep->re_send_size);
	if (WARN_ON_ONCE(len < 0))
		return -EIO;
	threshold = rpcrdma2_send_threshold(rpcrdma2_threshold_vers(ep),
					    ep->re_v1_send, ep->re_peer_rbsiz,
					    ep->re_send_size);
	if (len + xdr->len > threshold ||
	    xdr->head[0].iov_len + xdr->page_len + xdr->tail[0].iov_len !=
	    xdr->len) {
		rpcrdma2_count(r, RPCRDMA2_C_TOO_BIG, 1);
		trace_xprtrdma2_too_big(rqst, len + xdr->len, threshold);
		return -EMSGSIZE;
	}
	rpcrdma2_copy_from_xdr((u8 *)buf + len, xdr);
	return len + xdr->len;
}

/**
 * rpcrdma2_send_call - send one Call
 * @r: the transport
 * @rqst: the Call, XDR-encoded in rq_snd_buf
 *
 * Context: the caller holds the transport's send lock and a credit.
 *
 * Return: %0 when the Send is posted; %-EAGAIN when every Send context is
 * in flight (the task waits for write space); %-EMSGSIZE when the Call
 * does not fit inline; %-ENOTCONN when there is no connection.
 */
int rpcrdma2_send_call(struct rpcrdma2_xprt *r, struct rpc_rqst *rqst)
{
	struct rpcrdma2_ep *ep = r->rx_ep;
	struct rpcrdma2_sendctx *sc;
	int len;

	if (!ep || atomic_read(&ep->re_closing))
		return -ENOTCONN;
	sc = rpcrdma2_sendctx_get(ep);
	if (!sc) {
		xprt_wait_for_buffer_space(&r->rx_xprt);
		/* a Send may have completed before the bit was set */
		sc = rpcrdma2_sendctx_get(ep);
		if (!sc) {
			rpcrdma2_count(r, RPCRDMA2_C_NO_SENDCTX, 1);
			return -EAGAIN;
		}
	}
	len = rpcrdma2_marshal(ep, rqst, ep->re_vers ?: ep->re_try_vers,
			       sc->sc_buf);
	if (len < 0) {
		llist_add(&sc->sc_free, &ep->re_send_free);
		return len;
	}
	if (!ep->re_vers && !ep->re_first_sent) {
		ep->re_first_xid = be32_to_cpu(rqst->rq_xid);
		ep->re_first_sent = true;
	}
	trace_xprtrdma2_call(rqst, ep->re_vers ?: ep->re_try_vers, len);
	rpcrdma2_count(r, RPCRDMA2_C_CALLS_INLINE, 1);
	return rpcrdma2_post_send(ep, sc, len);
}

/**
 * rpcrdma2_send_connprop - send our RDMA2_CONNPROP
 * @ep: an endpoint whose version has just become 2
 *
 * draft §5.3.4: RBSIZ is our real Receive buffer size; BRS is NONE, as
 * this client takes no reverse-direction Calls yet. We send it as a
 * requester (RPCRDMA2_F_RESPONSE clear, §3.2), so rdma_credit is our
 * credit request; no RPC goes with it, so rdma_xid is zero. It goes out
 * while the first Call's credit is still ours, before any other Call
 * may be sent, so it never exceeds the grant.
 *
 * Context: the Receive completion that fixed the version.
 */
void rpcrdma2_send_connprop(struct rpcrdma2_ep *ep)
{
	struct rpcrdma2_xprt *r = ep->re_xprt;
	struct rpcrdma2_sendctx *sc;
	struct rpcrdma2_hdr hdr = {};
	int len;

	if (ep->re_connprop_sent)
		return;
	ep->re_connprop_sent = true;
	sc = rpcrdma2_sendctx_get(ep);
	if (!sc) {
		rpcrdma2_ep_close(ep);
		return;
	}
	hdr.vers = RPCRDMA2_VERS_2;
	hdr.credits = ep->re_max_requests;
	hdr.htype = RPCRDMA2_HT_CONNPROP;
	hdr.props.present = RPCRDMA2_PROPF_RBSIZ | RPCRDMA2_PROPF_BRS;
	hdr.props.rbsiz = ep->re_recv_size;
	hdr.props.brs = RPCRDMA2_RVREQSUP_NONE;
	len = rpcrdma2_encode(&hdr, sc->sc_buf, ep->re_send_size);
	if (WARN_ON_ONCE(len < 0)) {
		llist_add(&sc->sc_free, &ep->re_send_free);
		return;
	}
	if (!rpcrdma2_post_send(ep, sc, len))
		rpcrdma2_count(r, RPCRDMA2_C_CONNPROP_SENT, 1);
}

/* Publish the connection's version and thresholds for mountstats */
static void rpcrdma2_publish(struct rpcrdma2_ep *ep)
{
	struct rpcrdma2_xprt *r = ep->re_xprt;

	WRITE_ONCE(r->rx_vers, ep->re_vers);
	WRITE_ONCE(r->rx_send_inline,
		   rpcrdma2_send_threshold(rpcrdma2_threshold_vers(ep),
					   ep->re_v1_send, ep->re_peer_rbsiz,
					   ep->re_send_size));
	WRITE_ONCE(r->rx_recv_inline,
		   rpcrdma2_recv_threshold(ep->re_vers, ep->re_v1_recv,
					   ep->re_recv_size));
}

/*
 * draft §4.2: the server's properties. RBSIZ below the 1 KiB every
 * RPC-over-RDMA receiver must take (RFC 8166 §3.3.3) cannot be right,
 * and is read as 1 KiB rather than leaving us unable to send anything.
 */
static void rpcrdma2_recv_connprop(struct rpcrdma2_ep *ep,
				   const struct rpcrdma2_hdr *hdr)
{
	rpcrdma2_count(ep->re_xprt, RPCRDMA2_C_CONNPROP_RECV, 1);
	ep->re_peer_rbsiz = max_t(u32, hdr->props.rbsiz,
				  RPCRDMA2_V1_DEF_INLINE);
	ep->re_peer_brs = hdr->props.brs;
	trace_xprtrdma2_connprop_recv(ep, &hdr->props);
	rpcrdma2_publish(ep);
}

/*
 * A Call from the server (the reverse direction): in v2 a message
 * without RPCRDMA2_F_RESPONSE, in v1 an RPC message whose msg_type is
 * CALL (RFC 8167 §4.1).
 */
static bool rpcrdma2_is_reverse_call(const struct rpcrdma2_rep *rep)
{
	const struct rpcrdma2_hdr *hdr = &rep->rr_hdr;
	const __be32 *p;

	if (hdr->htype != RPCRDMA2_HT_MSG && hdr->htype != RPCRDMA2_HT_NOMSG)
		return false;
	if (hdr->vers == RPCRDMA2_VERS_2)
		return !(hdr->flags & RPCRDMA2_F_RESPONSE);
	if (hdr->htype != RPCRDMA2_HT_MSG || hdr->rpc_len < 8)
		return false;
	p = (const __be32 *)((const u8 *)rep->rr_buf + hdr->hdr_len);
	return p[1] == cpu_to_be32(RPC_CALL);
}

/* draft §7.2: resend the first Call in v1 on this connection */
static void rpcrdma2_fallback(struct rpcrdma2_ep *ep, struct rpc_rqst *rqst)
{
	struct rpcrdma2_xprt *r = ep->re_xprt;
	struct rpcrdma2_sendctx *sc;
	int len;

	ep->re_vers = RPCRDMA2_VERS_1;
	WRITE_ONCE(r->rx_v1_only, true);
	rpcrdma2_count(r, RPCRDMA2_C_FALLBACKS, 1);
	rpcrdma2_publish(ep);
	trace_xprtrdma2_fallback(rqst);
	sc = rpcrdma2_sendctx_get(ep);
	if (!sc)
		goto out_close;
	len = rpcrdma2_marshal(ep, rqst, RPCRDMA2_VERS_1, sc->sc_buf);
	if (len < 0) {
		llist_add(&sc->sc_free, &ep->re_send_free);
		goto out_close;
	}
	rpcrdma2_count(r, RPCRDMA2_C_CALLS_INLINE, 1);
	rpcrdma2_post_send(ep, sc, len);
	return;

out_close:
	/* the Call goes again, in v1, on the next connection */
	rpcrdma2_ep_close(ep);
}

static void rpcrdma2_update_cwnd(struct rpcrdma2_xprt *r, u32 grant)
{
	struct rpc_xprt *xprt = &r->rx_xprt;

	spin_lock(&xprt->transport_lock);
	xprt->cwnd = grant << RPC_CWNDSHIFT;
	spin_unlock(&xprt->transport_lock);
}

/* The reply's outcome for its Call: bytes of RPC reply, or an errno */
static int rpcrdma2_reply_status(struct rpcrdma2_rep *rep,
				 struct rpc_rqst *rqst)
{
	const struct rpcrdma2_hdr *hdr = &rep->rr_hdr;

	switch (hdr->htype) {
	case RPCRDMA2_HT_MSG:
		return rpcrdma2_copy_to_xdr(&rqst->rq_private_buf,
					    (u8 *)rep->rr_buf + hdr->hdr_len,
					    hdr->rpc_len);
	case RPCRDMA2_HT_ERROR:
		rpcrdma2_count(rep->rr_ep->re_xprt, RPCRDMA2_C_ERRORS, 1);
		return rpcrdma2_error_errno(hdr->err.code);
	default:
		/* a Reply chunk we never offered */
		return -EIO;
	}
}

/*
 * A reply in the connection's version answers @rqst: settle the version
 * if this is the first, take the grant, and get the RPC reply out.
 * Return: bytes of RPC reply for the Call, or the errno it fails with.
 */
static int rpcrdma2_answer(struct rpcrdma2_rep *rep, struct rpc_rqst *rqst,
			   enum rpcrdma2_vers_verdict verdict)
{
	struct rpcrdma2_ep *ep = rep->rr_ep;
	struct rpcrdma2_xprt *r = ep->re_xprt;
	const struct rpcrdma2_hdr *hdr = &rep->rr_hdr;
	int status;

	if (verdict == RPCRDMA2_VERS_FIXED) {
		ep->re_vers = hdr->vers;
		rpcrdma2_publish(ep);
		trace_xprtrdma2_version(ep);
		/* before the grant below lets a second Call out */
		if (ep->re_vers == RPCRDMA2_VERS_2)
			rpcrdma2_send_connprop(ep);
	}
	/* a useful answer: the next reconnect need not wait */
	r->rx_xprt.reestablish_timeout = 0;
	rpcrdma2_update_cwnd(r, rpcrdma2_credits(hdr->credits,
						 ep->re_max_requests));
	status = rpcrdma2_reply_status(rep, rqst);
	rpcrdma2_count(r, RPCRDMA2_C_REPLIES, 1);
	trace_xprtrdma2_reply(&rep->rr_cid, hdr, status);
	return status;
}

/**
 * rpcrdma2_reply_handler - process one received message
 * @rep: its Receive context
 * @byte_len: bytes received
 * @remote_inv: the server sent it with Send With Invalidate
 *
 * Decodes the message with the shared codec, settles the connection's
 * version with its first answer, updates the credit grant, and completes
 * the Call it answers. The caller reposts the Receive afterwards, so
 * everything needed is copied out before returning.
 *
 * Context: Receive completion (process context, IB_POLL_WORKQUEUE).
 */
void rpcrdma2_reply_handler(struct rpcrdma2_rep *rep, u32 byte_len,
			    bool remote_inv)
{
	struct rpcrdma2_ep *ep = rep->rr_ep;
	struct rpcrdma2_xprt *r = ep->re_xprt;
	struct rpc_xprt *xprt = &r->rx_xprt;
	struct rpcrdma2_hdr *hdr = &rep->rr_hdr;
	struct rpcrdma2_reject rej;
	enum rpcrdma2_vers_verdict verdict;
	struct rpc_rqst *rqst;
	int status;

	/* no memory of ours can be invalidated yet: nothing to skip */
	if (remote_inv)
		rpcrdma2_count(r, RPCRDMA2_C_REMOTE_INV, 1);
	if (rpcrdma2_decode(rep->rr_buf, byte_len, hdr, &rej)) {
		/* RFC 8166 §4.5: a requester discards what it rejects */
		trace_xprtrdma2_reply_rejected(&rep->rr_cid, hdr, rej.reason);
		goto out_bad;
	}
	if (rpcrdma2_is_reverse_call(rep)) {
		rpcrdma2_count(r, RPCRDMA2_C_REVERSE_DROPPED, 1);
		trace_xprtrdma2_reverse_dropped(&rep->rr_cid, hdr);
		return;
	}
	if (hdr->htype == RPCRDMA2_HT_CONNPROP) {
		/* only on a connection that is, or may become, v2 (§7.3) */
		if ((ep->re_vers ?: ep->re_try_vers) != RPCRDMA2_VERS_2)
			goto out_bad;
		rpcrdma2_recv_connprop(ep, hdr);
		return;
	}

	verdict = rpcrdma2_vers_verdict(ep->re_vers, ep->re_try_vers,
					ep->re_first_xid, hdr);
	if (verdict == RPCRDMA2_VERS_DISCARD) {
		trace_xprtrdma2_reply_vers(&rep->rr_cid, hdr, ep->re_vers);
		goto out_bad;
	}

	spin_lock(&xprt->queue_lock);
	rqst = xprt_lookup_rqst(xprt, cpu_to_be32(hdr->xid));
	if (!rqst) {
		spin_unlock(&xprt->queue_lock);
		rpcrdma2_count(r, RPCRDMA2_C_NO_RQST, 1);
		trace_xprtrdma2_no_rqst(&rep->rr_cid, hdr);
		return;
	}
	xprt_pin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);

	if (verdict == RPCRDMA2_VERS_FALLBACK) {
		rpcrdma2_fallback(ep, rqst);
		status = -EINPROGRESS;
	} else {
		status = rpcrdma2_answer(rep, rqst, verdict);
	}
	spin_lock(&xprt->queue_lock);
	if (status != -EINPROGRESS) {
		if (status < 0) {
			rqst->rq_task->tk_status = status;
			status = 0;
		}
		xprt_complete_rqst(rqst->rq_task, status);
	}
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
	return;

out_bad:
	rpcrdma2_count(r, RPCRDMA2_C_BAD_REPLIES, 1);
}
