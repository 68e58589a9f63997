// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma2 send path: Send Queue accounting (for the Sends here and the
 * RDMA Reads of rw.c), Send contexts, xpo_sendto and xpo_result_payload,
 * transport errors and RDMA2_CONNPROP. A reply goes inline when it fits
 * the client's receive size, else through the Reply chunk; DDP-eligible
 * results go to Write chunks. Every RDMA Write is chained in front of the
 * reply's Send, which is signaled alone, so one completion releases the
 * whole reply. Every header is built by the shared encoder.
 */
#include <linux/error-injection.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xdr.h>

#include "svc_rdma2.h"
#include "trace.h"

/**
 * svc_rdma2_sq_reserve - take Send Queue entries without waiting
 * @sx: the connection
 * @n: entries needed
 * @keep: entries that must stay free for others afterwards
 *
 * Context: any.
 *
 * Return: %0 when @n entries were taken, %-EAGAIN when that would leave
 * fewer than @keep.
 */
int svc_rdma2_sq_reserve(struct svc_rdma2_xprt *sx, u32 n, u32 keep)
{
	/* a value-returning atomic: fully ordered, see svc_rdma2_sq_put() */
	if (atomic_sub_return(n, &sx->sx_sq_avail) >= (int)keep)
		return 0;
	atomic_add(n, &sx->sx_sq_avail);
	return -EAGAIN;
}

/**
 * svc_rdma2_sq_send_room - Send Queue entries RDMA Reads leave to Sends
 * @sx: the connection
 *
 * One for the reply to every credit, and for the callbacks and the
 * transport's own messages, as the queue is sized (svc_rdma2_setup_qp()).
 * Reads that took them all would starve the replies that finish Calls
 * and free the Reads' entries.
 *
 * Return: the number of entries.
 */
u32 svc_rdma2_sq_send_room(const struct svc_rdma2_xprt *sx)
{
	return sx->sx_max_requests + SVC_RDMA2_OWN_SENDS + SVC_RDMA2_BC_REQS;
}

/**
 * svc_rdma2_sq_get - reserve Send Queue entries
 * @sx: the connection
 * @n: entries needed
 *
 * Waits while they are in use, for %SVC_RDMA2_SQ_WAIT at most: entries
 * come back only as the client acknowledges what we posted, and a client
 * that stops (it posts no Receives and asked for RNR retries without
 * end) must not hold an nfsd thread. Past that the connection is closed,
 * which flushes what it holds.
 *
 * Context: process (sleeps).
 *
 * Return: %0, %-EINVAL if @n exceeds the queue, or %-ENOTCONN.
 */
int svc_rdma2_sq_get(struct svc_rdma2_xprt *sx, u32 n)
{
	long left = SVC_RDMA2_SQ_WAIT;

	if (n > sx->sx_sq_depth)
		return -EINVAL;
	while (svc_rdma2_sq_reserve(sx, n, 0)) {
		if (!left) {
			trace_svcrdma2_sq_timeout(sx, n);
			svc_rdma2_close(sx);
			return -ENOTCONN;
		}
		trace_svcrdma2_sq_full(sx, n);
		left = wait_event_timeout(sx->sx_send_wait,
					  atomic_read(&sx->sx_sq_avail) >= (int)n ||
					  test_bit(XPT_CLOSE, &sx->sx_xprt.xpt_flags),
					  left);
		if (test_bit(XPT_CLOSE, &sx->sx_xprt.xpt_flags))
			return -ENOTCONN;
	}
	return 0;
}

/**
 * svc_rdma2_sq_put - release Send Queue entries
 * @sx: the connection
 * @n: entries whose work requests completed or were never posted
 *
 * Calls whose Reads wait for entries are posted by an nfsd thread: the
 * transport is queued for one.
 *
 * Context: any.
 */
void svc_rdma2_sq_put(struct svc_rdma2_xprt *sx, u32 n)
{
	atomic_add(n, &sx->sx_sq_avail);
	/*
	 * Pairs with svc_rdma2_post_reads(), which adds to sx_read_wait_q
	 * and then tries to reserve: either it sees these entries, or we
	 * see its Call.
	 */
	smp_mb__after_atomic();
	if (!list_empty(&sx->sx_read_wait_q)) {
		set_bit(XPT_DATA, &sx->sx_xprt.xpt_flags);
		svc_xprt_enqueue(&sx->sx_xprt);
	}
	/* the barrier in wq_has_sleeper() pairs with the one in wait_event() */
	if (wq_has_sleeper(&sx->sx_send_wait))
		wake_up(&sx->sx_send_wait);
}

static void svc_rdma2_wc_send(struct ib_cq *cq, struct ib_wc *wc);

static struct svc_rdma2_send_ctxt *
svc_rdma2_send_ctxt_alloc(struct svc_rdma2_xprt *sx)
{
	struct ib_device *dev = sx->sx_pd->device;
	struct svc_rdma2_send_ctxt *sctxt;

	sctxt = kzalloc(sizeof(*sctxt), GFP_KERNEL);
	if (!sctxt)
		return NULL;
	sctxt->sc_buf = kmalloc(sx->sx_buf_size, GFP_KERNEL);
	if (!sctxt->sc_buf)
		goto out_free;
	sctxt->sc_buf_dma = ib_dma_map_single(dev, sctxt->sc_buf,
					      sx->sx_buf_size, DMA_TO_DEVICE);
	if (ib_dma_mapping_error(dev, sctxt->sc_buf_dma))
		goto out_free_buf;
	sctxt->sc_sges[0].addr = sctxt->sc_buf_dma;
	sctxt->sc_sges[0].lkey = sx->sx_pd->local_dma_lkey;
	sctxt->sc_cqe.done = svc_rdma2_wc_send;
	sctxt->sc_send_wr.wr_cqe = &sctxt->sc_cqe;
	sctxt->sc_send_wr.sg_list = sctxt->sc_sges;
	sctxt->sc_send_wr.num_sge = 1;
	sctxt->sc_send_wr.send_flags = IB_SEND_SIGNALED;
	INIT_LIST_HEAD(&sctxt->sc_rw);
	svc_rdma2_cid_init(sx, sx->sx_sq_cq, &sctxt->sc_cid);
	spin_lock(&sx->sx_ctxt_lock);
	list_add(&sctxt->sc_all, &sx->sx_send_all);
	spin_unlock(&sx->sx_ctxt_lock);
	return sctxt;

out_free_buf:
	kfree(sctxt->sc_buf);
out_free:
	kfree(sctxt);
	return NULL;
}

static struct svc_rdma2_send_ctxt *
svc_rdma2_send_ctxt_get(struct svc_rdma2_xprt *sx)
{
	struct svc_rdma2_send_ctxt *sctxt = NULL;
	struct llist_node *node;

	/* several nfsd threads take contexts at once */
	spin_lock(&sx->sx_ctxt_lock);
	node = llist_del_first(&sx->sx_send_free);
	spin_unlock(&sx->sx_ctxt_lock);
	if (node)
		sctxt = llist_entry(node, struct svc_rdma2_send_ctxt, sc_free);
	else
		sctxt = svc_rdma2_send_ctxt_alloc(sx);
	if (!sctxt)
		return NULL;
	sctxt->sc_sqecount = 1;
	sctxt->sc_nr_pages = 0;
	sctxt->sc_send_wr.next = NULL;
	sctxt->sc_send_wr.num_sge = 1;
	sctxt->sc_send_wr.opcode = IB_WR_SEND;
	sctxt->sc_send_wr.ex.invalidate_rkey = 0;
	return sctxt;
}

/* Unmap the pages a Send gathered from; they are not read any more */
static void svc_rdma2_send_unmap(struct svc_rdma2_xprt *sx,
				 struct svc_rdma2_send_ctxt *sctxt)
{
	unsigned int i;

	for_each_set_bit(i, &sctxt->sc_mapped, SVC_RDMA2_SEND_SGES)
		ib_dma_unmap_page(sx->sx_pd->device, sctxt->sc_sges[i].addr,
				  sctxt->sc_sges[i].length, DMA_TO_DEVICE);
	sctxt->sc_mapped = 0;
}

/* Release what a Send kept alive; its work requests are all done */
static void svc_rdma2_send_ctxt_put(struct svc_rdma2_xprt *sx,
				    struct svc_rdma2_send_ctxt *sctxt)
{
	u32 i;

	svc_rdma2_send_unmap(sx, sctxt);
	svc_rdma2_rw_release(sx, &sctxt->sc_rw);
	for (i = 0; i < sctxt->sc_nr_pages; i++)
		put_page(sctxt->sc_pages[i]);
	sctxt->sc_nr_pages = 0;
	llist_add(&sctxt->sc_free, &sx->sx_send_free);
}

/**
 * svc_rdma2_send_init - prepare a connection's send side
 * @sx: the connection, with its QP
 *
 * Allocates the send contexts of the transport's own first messages
 * (RDMA2_CONNPROP, an error); replies allocate more as they need them
 * (svc_rdma2_send_ctxt_get()), at most one per nfsd thread and
 * callback at a time, and keep them until the connection ends.
 *
 * Context: process.
 *
 * Return: %0, or %-ENOMEM with nothing left allocated.
 */
int svc_rdma2_send_init(struct svc_rdma2_xprt *sx)
{
	struct svc_rdma2_send_ctxt *sctxt;
	u32 i;

	for (i = 0; i < SVC_RDMA2_OWN_SENDS; i++) {
		sctxt = svc_rdma2_send_ctxt_alloc(sx);
		if (!sctxt) {
			svc_rdma2_send_destroy(sx);
			return -ENOMEM;
		}
		llist_add(&sctxt->sc_free, &sx->sx_send_free);
	}
	return 0;
}

/**
 * svc_rdma2_send_destroy - free every send context of a connection
 * @sx: the connection; every posted WR has completed or flushed
 *
 * Also frees contexts whose Send could not be posted, which no
 * completion will ever release.
 *
 * Context: process.
 */
void svc_rdma2_send_destroy(struct svc_rdma2_xprt *sx)
{
	struct svc_rdma2_send_ctxt *sctxt, *next;
	u32 i;

	list_for_each_entry_safe(sctxt, next, &sx->sx_send_all, sc_all) {
		list_del(&sctxt->sc_all);
		svc_rdma2_send_unmap(sx, sctxt);
		svc_rdma2_rw_release(sx, &sctxt->sc_rw);
		for (i = 0; i < sctxt->sc_nr_pages; i++)
			put_page(sctxt->sc_pages[i]);
		ib_dma_unmap_single(sx->sx_pd->device, sctxt->sc_buf_dma,
				    sx->sx_buf_size, DMA_TO_DEVICE);
		kfree(sctxt->sc_buf);
		kfree(sctxt);
	}
	init_llist_head(&sx->sx_send_free);
}

static void svc_rdma2_wc_send(struct ib_cq *cq, struct ib_wc *wc)
{
	struct svc_rdma2_xprt *sx = cq->cq_context;
	struct svc_rdma2_send_ctxt *sctxt =
		container_of(wc->wr_cqe, struct svc_rdma2_send_ctxt, sc_cqe);
	u32 sqes = sctxt->sc_sqecount;

	rpcrdma2_trace_wc(svcrdma2_wc_send, wc, &sctxt->sc_cid);
	svc_rdma2_send_ctxt_put(sx, sctxt);
	svc_rdma2_sq_put(sx, sqes);
	/* a lost reply or Write: the client learns of it by the close */
	if (wc->status != IB_WC_SUCCESS)
		svc_rdma2_close(sx);
}

/*
 * Post a Send of @len bytes and the Writes chained to it; on failure
 * nothing is posted. Unless svc_rdma2_gather() built the Send's gather
 * list, the message is the first @len bytes of the send buffer.
 */
static int svc_rdma2_post_send(struct svc_rdma2_xprt *sx,
			       struct svc_rdma2_send_ctxt *sctxt, u32 len)
{
	struct ib_send_wr *first = &sctxt->sc_send_wr;
	const struct ib_send_wr *bad;
	struct svc_rdma2_rw *rw;
	u32 n = sctxt->sc_sqecount;
	int ret;

	if (first->num_sge == 1) {
		sctxt->sc_sges[0].length = len;
		sctxt->sc_buf_len = len;
	}
	ib_dma_sync_single_for_device(sx->sx_pd->device, sctxt->sc_buf_dma,
				      sctxt->sc_buf_len, DMA_TO_DEVICE);
	list_for_each_entry(rw, &sctxt->sc_rw, rw_list)
		first = rdma_rw_ctx_wrs(&rw->rw_ctx, sx->sx_qp,
					sx->sx_port_num, NULL, first);

	ret = svc_rdma2_sq_get(sx, n);
	if (ret)
		return ret;
	trace_svcrdma2_post_send(sx, &sctxt->sc_cid, len, n);
	ret = ib_post_send(sx->sx_qp, first, &bad);
	if (!ret)
		return 0;
	trace_svcrdma2_post_send_err(&sctxt->sc_cid, ret);
	svc_rdma2_sq_put(sx, n);
	return ret;
}

/*
 * A Send that did not go out. If some of its Writes were posted they may
 * still read the pages: the context stays on sx_send_all, off the free
 * list, and svc_rdma2_send_destroy() frees it after the drain.
 */
static void svc_rdma2_send_failed(struct svc_rdma2_xprt *sx,
				  struct svc_rdma2_send_ctxt *sctxt, int ret)
{
	if (list_empty(&sctxt->sc_rw) && ret != -ENOTCONN)
		svc_rdma2_send_ctxt_put(sx, sctxt);
	svc_rdma2_close(sx);
}

static u32 svc_rdma2_credits(const struct svc_rdma2_xprt *sx)
{
	return svc_rdma2_grant(sx->sx_max_requests, sx->sx_rq_depth);
}

static enum svc_rdma2_counter svc_rdma2_err_counter(u32 code)
{
	switch (code) {
	case RPCRDMA2_ERR_VERS:
		return SVC_RDMA2_ERR_VERS;
	case RPCRDMA2_ERR_BAD_XDR:
		return SVC_RDMA2_ERR_BAD_XDR;
	case RPCRDMA2_ERR_INVAL_HTYPE:
		return SVC_RDMA2_ERR_INVAL_HTYPE;
	case RPCRDMA2_ERR_READ_CHUNKS:
		return SVC_RDMA2_ERR_READ_CHUNKS;
	case RPCRDMA2_ERR_WRITE_CHUNKS:
		return SVC_RDMA2_ERR_WRITE_CHUNKS;
	case RPCRDMA2_ERR_SEGMENTS:
		return SVC_RDMA2_ERR_SEGMENTS;
	case RPCRDMA2_ERR_WRITE_RESOURCE:
		return SVC_RDMA2_ERR_WRITE_RESOURCE;
	case RPCRDMA2_ERR_REPLY_RESOURCE:
		return SVC_RDMA2_ERR_REPLY_RESOURCE;
	default:
		return SVC_RDMA2_ERR_SYSTEM;
	}
}

/* Post an encoded error (@len from the encoder, maybe negative) */
static void svc_rdma2_post_error(struct svc_rdma2_xprt *sx,
				 struct svc_rdma2_send_ctxt *sctxt, int len,
				 u32 code)
{
	int ret;

	if (len < 0) {
		svc_rdma2_send_ctxt_put(sx, sctxt);
		svc_rdma2_close(sx);
		return;
	}
	ret = svc_rdma2_post_send(sx, sctxt, len);
	if (ret) {
		svc_rdma2_send_failed(sx, sctxt, ret);
		return;
	}
	svc_rdma2_count(sx, svc_rdma2_err_counter(code), 1);
}

static void svc_rdma2_send_err_hdr(struct svc_rdma2_xprt *sx,
				   const struct rpcrdma2_hdr *out)
{
	struct svc_rdma2_send_ctxt *sctxt;
	int len;

	sctxt = svc_rdma2_send_ctxt_get(sx);
	if (!sctxt) {
		svc_rdma2_close(sx);
		return;
	}
	len = rpcrdma2_encode(out, sctxt->sc_buf, sx->sx_buf_size);
	trace_svcrdma2_send_error(sx, &sctxt->sc_cid, out, len);
	svc_rdma2_post_error(sx, sctxt, len, out->err.code);
}

/**
 * svc_rdma2_send_err_code - answer a Call with a transport error
 * @sx: the connection
 * @in: the Call's header (at least xid and vers decoded)
 * @err: the error code and its arm
 *
 * RFC 8166 §4.5 and draft v2 §5.3.3: rdma_xid and rdma_vers come from
 * the Call, rdma_credit is our grant, and a v2 error carries
 * RPCRDMA2_F_RESPONSE.
 *
 * Context: process.
 */
void svc_rdma2_send_err_code(struct svc_rdma2_xprt *sx,
			     const struct rpcrdma2_hdr *in,
			     const struct rpcrdma2_error *err)
{
	struct rpcrdma2_hdr out = {};

	out.xid = in->xid;
	out.vers = in->vers;
	out.credits = svc_rdma2_credits(sx);
	out.htype = RPCRDMA2_HT_ERROR;
	if (in->vers == RPCRDMA2_VERS_2)
		out.flags = RPCRDMA2_F_RESPONSE;
	out.err = *err;
	svc_rdma2_send_err_hdr(sx, &out);
}

/**
 * svc_rdma2_send_error - answer a header the decoder rejected
 * @sx: the connection
 * @in: what the decoder parsed (at least xid and vers)
 * @rej: the decoder's verdict, not a discard
 *
 * The reply is exactly what the codec says (rpcrdma2_encode_reject()).
 *
 * Context: process.
 */
void svc_rdma2_send_error(struct svc_rdma2_xprt *sx,
			  const struct rpcrdma2_hdr *in,
			  const struct rpcrdma2_reject *rej)
{
	struct svc_rdma2_send_ctxt *sctxt;
	int len;

	sctxt = svc_rdma2_send_ctxt_get(sx);
	if (!sctxt) {
		svc_rdma2_close(sx);
		return;
	}
	len = rpcrdma2_encode_reject(in, rej, svc_rdma2_credits(sx),
				     sctxt->sc_buf, sx->sx_buf_size);
	trace_svcrdma2_reject(sx, &sctxt->sc_cid, in, rej, len);
	svc_rdma2_post_error(sx, sctxt, len, rej->reply.code);
}

/**
 * svc_rdma2_send_connprop - send our RDMA2_CONNPROP, once
 * @sx: a connection that has just become v2
 *
 * draft v2 §5.3.4: the first message we send, small enough for a 1 KiB
 * receive buffer (48 bytes). RBSIZ is our real Receive buffer size; BRS
 * is INLINE: we take the replies to our reverse-direction Calls, inline
 * only (§4.2.2; backchannel.c). The
 * message is a responder's (RPCRDMA2_F_RESPONSE, §3.2), so rdma_credit
 * is our grant; no RPC goes with it, so rdma_xid is zero. See
 * Documentation/svcrdma2.rst.
 *
 * Context: process.
 */
void svc_rdma2_send_connprop(struct svc_rdma2_xprt *sx)
{
	struct svc_rdma2_send_ctxt *sctxt;
	struct rpcrdma2_hdr hdr = {};
	int len, ret;

	if (xchg(&sx->sx_connprop_sent, true))
		return;
	sctxt = svc_rdma2_send_ctxt_get(sx);
	if (!sctxt) {
		svc_rdma2_close(sx);
		return;
	}
	hdr.vers = RPCRDMA2_VERS_2;
	hdr.credits = svc_rdma2_credits(sx);
	hdr.htype = RPCRDMA2_HT_CONNPROP;
	hdr.flags = RPCRDMA2_F_RESPONSE;
	hdr.props.present = RPCRDMA2_PROPF_RBSIZ | RPCRDMA2_PROPF_BRS;
	hdr.props.rbsiz = sx->sx_buf_size;
	hdr.props.brs = RPCRDMA2_RVREQSUP_INLINE;
	len = rpcrdma2_encode(&hdr, sctxt->sc_buf, sx->sx_buf_size);
	if (WARN_ON_ONCE(len < 0)) {
		svc_rdma2_send_ctxt_put(sx, sctxt);
		return;
	}
	trace_svcrdma2_hdr_send(&sctxt->sc_cid, &hdr);
	ret = svc_rdma2_post_send(sx, sctxt, len);
	if (ret) {
		svc_rdma2_send_failed(sx, sctxt, ret);
		return;
	}
	svc_rdma2_count(sx, SVC_RDMA2_CONNPROP_SENT, 1);
	trace_svcrdma2_connprop_send(sx, &hdr.props);
}

/**
 * svc_rdma2_send_call - send a reverse-direction Call, inline
 * @sx: the connection
 * @hdr: its transport header: no chunks, RESPONSE clear (draft v2 §3.2)
 * @msg: the RPC Call
 *
 * RFC 8167 §4: the Call must fit what the client can receive, the same
 * bound as an inline reply (RFC 8797 sizes in v1, the client's RBSIZ in
 * v2). A Send that cannot be posted closes the connection, as a failed
 * reply does.
 *
 * Context: process; may sleep for Send Queue space. The caller holds the
 * backchannel's write lock.
 *
 * Return: %0 when posted, %-EMSGSIZE when the Call is too big, %-ENOMEM,
 * or %-ENOTCONN when the connection is gone.
 */
int svc_rdma2_send_call(struct svc_rdma2_xprt *sx,
			const struct rpcrdma2_hdr *hdr,
			const struct xdr_buf *msg)
{
	struct svc_rdma2_send_ctxt *sctxt;
	u32 limit;
	int hlen, ret;

	sctxt = svc_rdma2_send_ctxt_get(sx);
	if (!sctxt)
		return -ENOMEM;
	hlen = rpcrdma2_encode(hdr, sctxt->sc_buf, sx->sx_buf_size);
	if (hlen < 0) {
		ret = hlen;
		goto out_put;
	}
	limit = svc_rdma2_reply_inline_limit(hdr->vers, sx->sx_v1_reply_inline,
					     READ_ONCE(sx->sx_peer_rbsiz),
					     sx->sx_buf_size);
	ret = -EMSGSIZE;
	if ((u32)hlen > limit || msg->len > limit - hlen)
		goto out_put;
	ret = read_bytes_from_xdr_buf(msg, 0, sctxt->sc_buf + hlen, msg->len);
	if (ret)
		goto out_put;
	/* before the post: the completion may recycle the context at once */
	trace_svcrdma2_hdr_send(&sctxt->sc_cid, hdr);
	trace_svcrdma2_cb_call(&sctxt->sc_cid, hdr, msg->len);
	ret = svc_rdma2_post_send(sx, sctxt, hlen + msg->len);
	if (ret) {
		svc_rdma2_send_failed(sx, sctxt, ret);
		return -ENOTCONN;
	}
	svc_rdma2_count(sx, SVC_RDMA2_CB_CALLS, 1);
	return 0;

out_put:
	svc_rdma2_send_ctxt_put(sx, sctxt);
	return ret;
}

/**
 * svc_rdma2_result_payload - bind a DDP-eligible result to a Write chunk
 * @rqstp: the request being answered
 * @offset: where the result's data starts in rq_res
 * @length: its length, without XDR padding
 *
 * RFC 8166 §3.4.6: results fill the Write chunks in order. With no Write
 * chunk left, the result simply stays in the reply. A chunk too small for
 * its result is remembered; svc_rdma2_sendto() then answers
 * RDMA2_ERR_WRITE_RESOURCE (v2, draft §5.3.3) or ERR_CHUNK (v1).
 *
 * Context: an nfsd thread.
 *
 * Return: %0.
 */
int svc_rdma2_result_payload(struct svc_rqst *rqstp, unsigned int offset,
			     unsigned int length)
{
	struct svc_rdma2_recv_ctxt *ctxt = rqstp->rq_xprt_ctxt;
	const struct rpcrdma2_chunk_lists *cl;
	u32 i;

	if (!ctxt)
		return 0;
	cl = &ctxt->rc_hdr.cl;
	i = ctxt->rc_nr_payloads;
	if (i >= cl->nr_writes)
		return 0;
	ctxt->rc_payloads[i].offset = offset;
	ctxt->rc_payloads[i].length = length;
	ctxt->rc_nr_payloads++;
	if (length > svc_rdma2_chunk_length(cl, &cl->writes[i]) &&
	    !ctxt->rc_write_short) {
		ctxt->rc_write_short = i + 1;
		ctxt->rc_write_short_len = length;
	}
	return 0;
}

/* Send an error for @ctxt's Call in place of its reply */
static void svc_rdma2_reply_error(struct svc_rdma2_xprt *sx,
				  struct svc_rdma2_recv_ctxt *ctxt, u32 code,
				  u32 arg0, u32 arg1)
{
	struct rpcrdma2_error err = { .code = code };

	/* v1 has ERR_VERS and ERR_CHUNK only (RFC 8166 §4.5.3) */
	if (ctxt->rc_hdr.vers != RPCRDMA2_VERS_2) {
		err.code = RPCRDMA2_V1_ERR_CHUNK;
	} else if (code == RPCRDMA2_ERR_WRITE_RESOURCE) {
		err.write.index = arg0;
		err.write.length = arg1;
	} else if (code == RPCRDMA2_ERR_REPLY_RESOURCE) {
		err.length_needed = arg0;
	}
	svc_rdma2_send_err_code(sx, &ctxt->rc_hdr, &err);
}

/* Fill @ctxt's Write chunks; returns bytes the reply no longer carries */
static int svc_rdma2_push_writes(struct svc_rdma2_xprt *sx,
				 struct svc_rdma2_send_ctxt *sctxt,
				 struct svc_rdma2_recv_ctxt *ctxt,
				 const struct xdr_buf *xdr, u32 *removed)
{
	struct rpcrdma2_chunk_lists *cl = &ctxt->rc_hdr.cl;
	struct svc_rdma2_cursor cur;
	u32 i, prev_end = 0;
	int ret;

	*removed = 0;
	for (i = 0; i < ctxt->rc_nr_payloads; i++) {
		const struct svc_rdma2_payload *pl = &ctxt->rc_payloads[i];
		const struct rpcrdma2_chunk *ch = &cl->writes[i];

		/* nfsd encodes results in order, inside the reply */
		if (pl->offset < prev_end ||
		    pl->offset + xdr_align_size(pl->length) > xdr->len)
			return -EIO;
		prev_end = pl->offset + xdr_align_size(pl->length);
		cur.segs = &cl->segs[ch->first];
		cur.nsegs = ch->nsegs;
		cur.seg = 0;
		cur.seg_off = 0;
		cur.out = &ctxt->rc_out_segs[ch->first];
		ret = svc_rdma2_push_range(sx, sctxt, xdr, pl->offset,
					   pl->length, &cur);
		if (ret)
			return ret;
		/* §3.4.6: the XDR pad is neither written nor sent inline */
		*removed += xdr_align_size(pl->length);
		svc_rdma2_count(sx, SVC_RDMA2_WRITES, 1);
		svc_rdma2_count(sx, SVC_RDMA2_WRITE_BYTES, pl->length);
	}
	return 0;
}

/*
 * Walk the reply minus its Write chunk results: call @fn for each
 * contiguous piece that is still part of the Payload stream.
 */
static int svc_rdma2_for_each_piece(const struct svc_rdma2_recv_ctxt *ctxt,
				    const struct xdr_buf *xdr,
				    int (*fn)(void *arg, u32 off, u32 len),
				    void *arg)
{
	u32 i, pos = 0;
	int ret;

	for (i = 0; i < ctxt->rc_nr_payloads; i++) {
		const struct svc_rdma2_payload *pl = &ctxt->rc_payloads[i];

		if (pl->offset > pos) {
			ret = fn(arg, pos, pl->offset - pos);
			if (ret)
				return ret;
		}
		pos = pl->offset + xdr_align_size(pl->length);
	}
	if (xdr->len > pos)
		return fn(arg, pos, xdr->len - pos);
	return 0;
}

struct svc_rdma2_copy_arg {
	const struct xdr_buf	*xdr;
	u8			*dst;
};

static int svc_rdma2_copy_piece(void *varg, u32 off, u32 len)
{
	struct svc_rdma2_copy_arg *a = varg;
	int ret;

	ret = read_bytes_from_xdr_buf(a->xdr, off, a->dst, len);
	a->dst += len;
	return ret;
}

struct svc_rdma2_gather_arg {
	struct svc_rdma2_xprt		*sx;
	struct svc_rdma2_send_ctxt	*sctxt;
	const struct xdr_buf		*xdr;
};

/* Append @len bytes of the reply at @off to the Send, copied */
static int svc_rdma2_gather_copy(struct svc_rdma2_gather_arg *a, u32 off,
				 u32 len)
{
	struct svc_rdma2_send_ctxt *sctxt = a->sctxt;
	struct svc_rdma2_xprt *sx = a->sx;
	struct ib_send_wr *wr = &sctxt->sc_send_wr;
	struct ib_sge *sge = &sctxt->sc_sges[wr->num_sge - 1];
	int ret;

	/* the inline limit keeps the whole reply within the buffer */
	if (sctxt->sc_buf_len + len > sx->sx_buf_size)
		return -EMSGSIZE;
	ret = read_bytes_from_xdr_buf(a->xdr, off,
				      sctxt->sc_buf + sctxt->sc_buf_len, len);
	if (ret)
		return ret;
	if (!test_bit(wr->num_sge - 1, &sctxt->sc_mapped)) {
		/* buffer entries are filled in order: extend the last */
		sge->length += len;
	} else {
		if (wr->num_sge == sx->sx_send_sges)
			return -E2BIG;
		sge = &sctxt->sc_sges[wr->num_sge++];
		sge->addr = sctxt->sc_buf_dma + sctxt->sc_buf_len;
		sge->length = len;
		sge->lkey = sx->sx_pd->local_dma_lkey;
	}
	sctxt->sc_buf_len += len;
	return 0;
}

/*
 * Map @len bytes of @page at @offset for the Send into @sge. Apart, so
 * that fail_function can make it fail (the reply is then copied).
 */
static noinline int svc_rdma2_send_map_page(struct ib_device *dev,
					    struct ib_sge *sge,
					    struct page *page, u32 offset,
					    u32 len)
{
	sge->addr = ib_dma_map_page(dev, page, offset, len, DMA_TO_DEVICE);
	if (ib_dma_mapping_error(dev, sge->addr))
		return -EIO;
	sge->length = len;
	return 0;
}
ALLOW_ERROR_INJECTION(svc_rdma2_send_map_page, ERRNO);

/* Append @len bytes of @page at @offset to the Send, where they are */
static int svc_rdma2_gather_page(struct svc_rdma2_xprt *sx,
				 struct svc_rdma2_send_ctxt *sctxt,
				 struct page *page, u32 offset, u32 len)
{
	struct ib_send_wr *wr = &sctxt->sc_send_wr;
	struct ib_sge *sge;
	int ret;

	if (wr->num_sge == sx->sx_send_sges)
		return -E2BIG;
	sge = &sctxt->sc_sges[wr->num_sge];
	ret = svc_rdma2_send_map_page(sx->sx_pd->device, sge, page, offset,
				      len);
	if (ret)
		return ret;
	sge->lkey = sx->sx_pd->local_dma_lkey;
	__set_bit(wr->num_sge++, &sctxt->sc_mapped);
	return 0;
}

/* One piece of the reply: head and tail bytes copied, page bytes mapped */
static int svc_rdma2_gather_piece(void *varg, u32 off, u32 len)
{
	struct svc_rdma2_gather_arg *a = varg;
	const struct xdr_buf *xdr = a->xdr;
	u32 pstart = xdr->head[0].iov_len, pend = pstart + xdr->page_len;
	u32 end = off + len, n, pos;
	int ret;

	/* the head's bytes */
	if (off < pstart) {
		n = min(end, pstart) - off;
		ret = svc_rdma2_gather_copy(a, off, n);
		if (ret)
			return ret;
		off += n;
	}
	/* the pages', a fragment per page */
	while (off < min(end, pend)) {
		pos = xdr->page_base + off - pstart;
		n = min3(end, pend, off + (u32)(PAGE_SIZE - offset_in_page(pos))) -
		    off;
		ret = svc_rdma2_gather_page(a->sx, a->sctxt,
					    xdr->pages[pos >> PAGE_SHIFT],
					    offset_in_page(pos), n);
		if (ret)
			return ret;
		off += n;
	}
	/* the tail's */
	return off < end ? svc_rdma2_gather_copy(a, off, end - off) : 0;
}

/*
 * Build the Send of an inline reply whose transport header takes the
 * first @hlen bytes of the send buffer: head and tail bytes copied after
 * it, page bytes as gather entries of their own, as the device reads
 * them in place. On failure nothing stays mapped and the caller copies.
 */
static int svc_rdma2_gather(struct svc_rdma2_xprt *sx,
			    const struct svc_rdma2_recv_ctxt *ctxt,
			    struct svc_rdma2_send_ctxt *sctxt,
			    const struct xdr_buf *xdr, u32 hlen)
{
	struct svc_rdma2_gather_arg ga = {
		.sx = sx, .sctxt = sctxt, .xdr = xdr,
	};
	int ret;

	sctxt->sc_sges[0].length = hlen;
	sctxt->sc_buf_len = hlen;
	ret = svc_rdma2_for_each_piece(ctxt, xdr, svc_rdma2_gather_piece, &ga);
	if (!ret && sctxt->sc_mapped)
		return 0;
	svc_rdma2_send_unmap(sx, sctxt);
	sctxt->sc_send_wr.num_sge = 1;
	if (ret == -EIO)
		svc_rdma2_count(sx, SVC_RDMA2_SEND_MAP_ERRORS, 1);
	return ret ? ret : -ENOENT;
}

struct svc_rdma2_reply_arg {
	struct svc_rdma2_xprt		*sx;
	struct svc_rdma2_send_ctxt	*sctxt;
	const struct xdr_buf		*xdr;
	struct svc_rdma2_cursor		cur;
};

static int svc_rdma2_reply_piece(void *varg, u32 off, u32 len)
{
	struct svc_rdma2_reply_arg *a = varg;

	return svc_rdma2_push_range(a->sx, a->sctxt, a->xdr, off, len,
				    &a->cur);
}

/* Keep the reply's pages until the Writes that read them complete */
static void svc_rdma2_save_pages(struct svc_rqst *rqstp,
				 struct svc_rdma2_send_ctxt *sctxt)
{
	struct page **p;

	for (p = rqstp->rq_respages; p < rqstp->rq_next_page; p++) {
		if (!*p)
			continue;
		sctxt->sc_pages[sctxt->sc_nr_pages++] = *p;
		*p = NULL;
	}
	rqstp->rq_next_page = rqstp->rq_respages;
}

/*
 * The reply header, into @out and @buf: the Call's Write list with the
 * bytes each segment received (RFC 8166 §3.4.6), and the Reply chunk if
 * it was used.
 */
static int svc_rdma2_encode_reply(struct svc_rdma2_xprt *sx,
				  struct svc_rdma2_recv_ctxt *ctxt,
				  bool use_reply, struct rpcrdma2_hdr *out,
				  void *buf, u32 len)
{
	const struct rpcrdma2_hdr *in = &ctxt->rc_hdr;

	*out = *in;
	out->cl.segs = ctxt->rc_out_segs;
	out->credits = svc_rdma2_credits(sx);
	out->htype = use_reply ? RPCRDMA2_HT_NOMSG : RPCRDMA2_HT_MSG;
	out->flags = in->vers == RPCRDMA2_VERS_2 ? RPCRDMA2_F_RESPONSE : 0;
	out->cl.inv_handle = 0;
	out->cl.nr_reads = 0;
	out->cl.nr_read_chunks = 0;
	out->cl.has_reply = use_reply;
	return rpcrdma2_encode(out, buf, len);
}

/**
 * struct svc_rdma2_reply_map - where a reply's bytes go
 * @hlen: transport header bytes at the head of the Send buffer
 * @body: RPC reply bytes left after its Write chunk payloads
 * @use_reply: @body goes through the Reply chunk, not inline
 * @hdr: the transport header, as last encoded
 */
struct svc_rdma2_reply_map {
	u32			hlen;
	u32			body;
	bool			use_reply;
	struct rpcrdma2_hdr	hdr;
};

/*
 * Fill the Reply chunk with @map->body bytes of @xdr and encode the
 * header that returns it. The header still goes inline: the Write list
 * and the Reply chunk, whose fields are fixed-width, so it has its final
 * size before any byte is written. One the client cannot receive means
 * no reply at all (RFC 8166 §4.5.3: it would end in a Local Length
 * Error), not a Reply chunk it could enlarge.
 */
static int svc_rdma2_map_reply_chunk(struct svc_rdma2_xprt *sx,
				     struct svc_rdma2_recv_ctxt *ctxt,
				     struct svc_rdma2_send_ctxt *sctxt,
				     struct xdr_buf *xdr, u32 limit,
				     struct svc_rdma2_reply_map *map)
{
	const struct rpcrdma2_hdr *hdr = &ctxt->rc_hdr;
	struct svc_rdma2_reply_arg ra = {
		.sx = sx, .sctxt = sctxt, .xdr = xdr,
	};
	u64 reply_room;
	int hlen, ret;

	hlen = map->hlen;
	if (hdr->cl.has_reply) {
		hlen = svc_rdma2_encode_reply(sx, ctxt, true, &map->hdr,
					      sctxt->sc_buf, sx->sx_buf_size);
		if (hlen < 0)
			return hlen;
	}
	if ((u32)hlen > limit) {
		trace_svcrdma2_reply_hdr_too_big(&ctxt->rc_cid, hlen, limit);
		return RPCRDMA2_ERR_SYSTEM;
	}
	reply_room = hdr->cl.has_reply ?
		svc_rdma2_chunk_length(&hdr->cl, &hdr->cl.reply) : 0;
	if (map->body > reply_room) {
		/* draft v2 §5.3.3; RFC 8166 §4.5.3 for v1 */
		trace_svcrdma2_reply_too_big(sx, &ctxt->rc_cid, map->body,
					     reply_room);
		return RPCRDMA2_ERR_REPLY_RESOURCE;
	}
	ra.cur.segs = &hdr->cl.segs[hdr->cl.reply.first];
	ra.cur.nsegs = hdr->cl.reply.nsegs;
	ra.cur.out = &ctxt->rc_out_segs[hdr->cl.reply.first];
	ret = svc_rdma2_for_each_piece(ctxt, xdr, svc_rdma2_reply_piece, &ra);
	if (ret)
		return ret;
	/* again: the Reply chunk's segments now carry their lengths */
	hlen = svc_rdma2_encode_reply(sx, ctxt, true, &map->hdr,
				      sctxt->sc_buf, sx->sx_buf_size);
	if (hlen < 0)
		return hlen;
	map->hlen = hlen;
	svc_rdma2_count(sx, SVC_RDMA2_REPLY_CHUNKS, 1);
	svc_rdma2_count(sx, SVC_RDMA2_REPLY_BYTES, map->body);
	return 0;
}

/*
 * Map nfsd's reply onto the wire: push the result payloads into their
 * Write chunks (chained to @sctxt), then place the rest inline or, when
 * it does not fit what the client can receive (draft v2 §4.2.1, RFC
 * 8797), in the Reply chunk.
 *
 * Return: 0 when @sctxt is ready to post; a positive RPCRDMA2_ERR_* code
 * when the client gets that error instead of the reply; or a negative
 * errno.
 */
static int svc_rdma2_map_reply(struct svc_rdma2_xprt *sx,
			       struct svc_rdma2_recv_ctxt *ctxt,
			       struct svc_rdma2_send_ctxt *sctxt,
			       struct xdr_buf *xdr,
			       struct svc_rdma2_reply_map *map)
{
	const struct rpcrdma2_hdr *hdr = &ctxt->rc_hdr;
	struct svc_rdma2_copy_arg ca = { .xdr = xdr };
	u32 removed, limit, i;
	int hlen, ret;

	/* an error reply may quote it */
	map->body = 0;
	for (i = 0; i < hdr->cl.nr_segs; i++) {
		ctxt->rc_out_segs[i] = ctxt->rc_segs[i];
		ctxt->rc_out_segs[i].length = 0;
	}
	ret = svc_rdma2_push_writes(sx, sctxt, ctxt, xdr, &removed);
	if (ret)
		return ret;
	map->body = xdr->len - removed;

	limit = svc_rdma2_reply_inline_limit(hdr->vers,
					     sx->sx_v1_reply_inline,
					     READ_ONCE(sx->sx_peer_rbsiz),
					     sx->sx_buf_size);
	hlen = svc_rdma2_encode_reply(sx, ctxt, false, &map->hdr,
				      sctxt->sc_buf, sx->sx_buf_size);
	if (hlen < 0)
		return hlen;
	map->hlen = hlen;
	map->use_reply = hlen + map->body > limit;
	if (map->use_reply)
		return svc_rdma2_map_reply_chunk(sx, ctxt, sctxt, xdr, limit,
						 map);
	/* a payload that fits inline goes from its pages, as a chunk would */
	if (!ctxt->rc_nr_payloads && xdr->page_len >= SVC_RDMA2_GATHER_MIN &&
	    !svc_rdma2_gather(sx, ctxt, sctxt, xdr, hlen)) {
		svc_rdma2_count(sx, SVC_RDMA2_SEND_GATHERED, 1);
		return 0;
	}
	ca.dst = sctxt->sc_buf + hlen;
	return svc_rdma2_for_each_piece(ctxt, xdr, svc_rdma2_copy_piece, &ca);
}

/* Post the mapped reply's Send, with Send With Invalidate when allowed */
static int svc_rdma2_send_reply(struct svc_rdma2_xprt *sx,
				struct svc_rqst *rqstp,
				struct svc_rdma2_recv_ctxt *ctxt,
				struct svc_rdma2_send_ctxt *sctxt,
				const struct svc_rdma2_reply_map *map)
{
	u32 inv;
	int ret;

	inv = svc_rdma2_inv_handle(&ctxt->rc_hdr, sx->sx_reminv_ok,
				   sx->sx_dev_reminv);
	if (inv) {
		sctxt->sc_send_wr.opcode = IB_WR_SEND_WITH_INV;
		sctxt->sc_send_wr.ex.invalidate_rkey = inv;
		svc_rdma2_count(sx, SVC_RDMA2_SEND_INV, 1);
	}
	if (!list_empty(&sctxt->sc_rw) || sctxt->sc_mapped)
		svc_rdma2_save_pages(rqstp, sctxt);
	rpcrdma2_trace_hot(svcrdma2_hdr_send, &sctxt->sc_cid, &map->hdr);
	ret = svc_rdma2_post_send(sx, sctxt, map->use_reply ? map->hlen :
				  map->hlen + map->body);
	if (ret) {
		svc_rdma2_send_failed(sx, sctxt, ret);
		return ret;
	}
	trace_svcrdma2_reply(&ctxt->rc_cid, &sctxt->sc_cid, map->body,
			     map->use_reply, inv);
	return 0;
}

/**
 * svc_rdma2_sendto - send nfsd's reply to a Call
 * @rqstp: the request, its reply in rq_res
 *
 * Context: an nfsd thread; may sleep for Send Queue space.
 *
 * Return: the reply's length, 0 when an error reply went in its place,
 * or -ENOTCONN when the connection is gone (nfsd then closes it).
 */
int svc_rdma2_sendto(struct svc_rqst *rqstp)
{
	struct svc_rdma2_xprt *sx = svc_rdma2_x(rqstp->rq_xprt);
	struct svc_rdma2_recv_ctxt *ctxt = rqstp->rq_xprt_ctxt;
	struct xdr_buf *xdr = &rqstp->rq_res;
	/* svc_rdma2_map_reply() sets what is read: no clear per reply */
	struct svc_rdma2_reply_map map __uninitialized;
	struct svc_rdma2_send_ctxt *sctxt;
	int ret;

	if (test_bit(XPT_CLOSE, &sx->sx_xprt.xpt_flags) || !ctxt)
		return -ENOTCONN;
	if (ctxt->rc_write_short) {
		svc_rdma2_reply_error(sx, ctxt, RPCRDMA2_ERR_WRITE_RESOURCE,
				      ctxt->rc_write_short,
				      ctxt->rc_write_short_len);
		return 0;
	}
	/*
	 * nfsd may cut its reply back after a result payload was recorded:
	 * nfsd4_encode_operation() does when the reply outgrows the
	 * client's limit after a READ (the op then fails). Such payloads
	 * left the reply from its end; their Write chunks go back unused.
	 */
	while (ctxt->rc_nr_payloads &&
	       ctxt->rc_payloads[ctxt->rc_nr_payloads - 1].offset >= xdr->len)
		ctxt->rc_nr_payloads--;
	sctxt = svc_rdma2_send_ctxt_get(sx);
	if (!sctxt)
		goto out_close;
	ret = svc_rdma2_map_reply(sx, ctxt, sctxt, xdr, &map);
	if (ret > 0) {
		svc_rdma2_send_ctxt_put(sx, sctxt);
		svc_rdma2_reply_error(sx, ctxt, ret,
				      ret == RPCRDMA2_ERR_REPLY_RESOURCE ?
				      map.body : 0, 0);
		return 0;
	}
	if (ret)
		goto out_fail;
	if (svc_rdma2_send_reply(sx, rqstp, ctxt, sctxt, &map))
		return -ENOTCONN;
	return xdr->len;

out_fail:
	trace_svcrdma2_reply_err(&ctxt->rc_cid, ret);
	svc_rdma2_send_ctxt_put(sx, sctxt);
	if (ret == -EMSGSIZE) {
		/* the Write chunks were checked: only a bad Reply chunk */
		svc_rdma2_reply_error(sx, ctxt, RPCRDMA2_ERR_SYSTEM, 0, 0);
		return 0;
	}
out_close:
	svc_rdma2_close(sx);
	return -ENOTCONN;
}
