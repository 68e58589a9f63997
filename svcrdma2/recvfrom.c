// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma2 receive path: Receive contexts, their completions, and
 * xpo_recvfrom, which decodes every message with the shared codec and
 * dispatches it by version and header type. Nothing a peer sends is
 * trusted: a header the codec rejects is answered or dropped exactly as
 * the codec says (RFC 8166 §4.5, draft v2 §5.3.3) and never processed.
 */
#include <linux/error-injection.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xdr.h>

#include "svc_rdma2.h"
#include "trace.h"

static void svc_rdma2_wc_receive(struct ib_cq *cq, struct ib_wc *wc);

/* rc_segs follows rc_reads in one allocation (svc_rdma2_recv_ctxt_alloc()) */
static_assert(sizeof(struct rpcrdma2_read_seg) %
	      __alignof__(struct rpcrdma2_seg) == 0);

/* Free a context's memory; its buffer is not DMA-mapped */
static void svc_rdma2_recv_ctxt_kfree(struct svc_rdma2_recv_ctxt *ctxt)
{
	kfree(ctxt->rc_buf);
	kvfree(ctxt->rc_reads);	/* and rc_segs, rc_out_segs */
	kfree(ctxt->rc_writes);
	kfree(ctxt->rc_payloads);
	kfree(ctxt->rc_read.rd_pages);
	kfree(ctxt);
}

static void svc_rdma2_recv_ctxt_free(struct svc_rdma2_xprt *sx,
				     struct svc_rdma2_recv_ctxt *ctxt)
{
	/* a Call whose Reads were in flight when posting failed, or queued */
	svc_rdma2_read_release(sx, &ctxt->rc_read);
	ib_dma_unmap_single(sx->sx_pd->device, ctxt->rc_sge.addr,
			    sx->sx_buf_size, DMA_FROM_DEVICE);
	svc_rdma2_recv_ctxt_kfree(ctxt);
}

/*
 * The decoder's limits for this connection (draft v2 §5.3.3 codes),
 * every version accepted: svc_rdma2_decode() narrows that per message.
 */
static void svc_rdma2_limits(const struct svc_rdma2_xprt *sx,
			     struct rpcrdma2_limits *lim)
{
	lim->max_read_chunks = SVC_RDMA2_MAX_READ_CHUNKS;
	lim->max_write_chunks = SVC_RDMA2_MAX_WRITE_CHUNKS;
	lim->max_segs = sx->sx_max_segs;
	lim->vers_low = 0;
	lim->vers_high = 0;
}

static struct svc_rdma2_recv_ctxt *
svc_rdma2_recv_ctxt_alloc(struct svc_rdma2_xprt *sx)
{
	struct ib_device *dev = sx->sx_pd->device;
	struct svc_rdma2_recv_ctxt *ctxt;
	struct rpcrdma2_limits lim;
	size_t reads_size, segs_size;
	u32 nreads, nsegs;
	int ret;

	svc_rdma2_limits(sx, &lim);
	nreads = rpcrdma2_reads_needed(&lim);
	nsegs = rpcrdma2_segs_needed(&lim);
	ctxt = kzalloc(sizeof(*ctxt), GFP_KERNEL);
	if (!ctxt)
		return NULL;
	ctxt->rc_buf = kmalloc(sx->sx_buf_size, GFP_KERNEL);
	/*
	 * The three segment arrays in one allocation: at the default 32
	 * segments a chunk they fill 8 KiB, where each alone would take a
	 * 4 KiB object for its 2.5 or 3 KiB. At the largest max_segs they
	 * fill 64 KiB, which need not be physically contiguous.
	 */
	reads_size = array_size(nreads, sizeof(*ctxt->rc_reads));
	segs_size = array_size(nsegs, sizeof(*ctxt->rc_segs));
	ctxt->rc_reads = kvzalloc(size_add(reads_size,
					   size_mul(2, segs_size)), GFP_KERNEL);
	ctxt->rc_writes = kcalloc(lim.max_write_chunks,
				  sizeof(*ctxt->rc_writes), GFP_KERNEL);
	ctxt->rc_payloads = kcalloc(lim.max_write_chunks,
				    sizeof(*ctxt->rc_payloads), GFP_KERNEL);
	if (!ctxt->rc_buf || !ctxt->rc_reads || !ctxt->rc_writes ||
	    !ctxt->rc_payloads)
		goto out_free;
	ctxt->rc_segs = (struct rpcrdma2_seg *)((u8 *)ctxt->rc_reads +
						reads_size);
	ctxt->rc_out_segs = ctxt->rc_segs + nsegs;
	/* once: the decoder sets every count anew for each message */
	ret = rpcrdma2_chunk_lists_init(&ctxt->rc_hdr.cl, &lim,
					ctxt->rc_reads, nreads,
					ctxt->rc_read_chunks,
					ARRAY_SIZE(ctxt->rc_read_chunks),
					ctxt->rc_writes, lim.max_write_chunks,
					ctxt->rc_segs, nsegs);
	if (WARN_ON_ONCE(ret))
		goto out_free;
	ctxt->rc_sge.addr = ib_dma_map_single(dev, ctxt->rc_buf,
					      sx->sx_buf_size,
					      DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(dev, ctxt->rc_sge.addr))
		goto out_free;
	ctxt->rc_sge.length = sx->sx_buf_size;
	ctxt->rc_sge.lkey = sx->sx_pd->local_dma_lkey;
	ctxt->rc_cqe.done = svc_rdma2_wc_receive;
	ctxt->rc_recv_wr.wr_cqe = &ctxt->rc_cqe;
	ctxt->rc_recv_wr.sg_list = &ctxt->rc_sge;
	ctxt->rc_recv_wr.num_sge = 1;
	svc_rdma2_cid_init(sx, sx->sx_rq_cq, &ctxt->rc_cid);
	svc_rdma2_read_ctxt_init(sx, &ctxt->rc_read);

	spin_lock(&sx->sx_ctxt_lock);
	list_add(&ctxt->rc_all, &sx->sx_recv_all);
	sx->sx_nr_recv_ctxts++;
	svc_rdma2_recv_ctxts_note(sx->sx_nr_recv_ctxts);
	spin_unlock(&sx->sx_ctxt_lock);
	return ctxt;

out_free:
	svc_rdma2_recv_ctxt_kfree(ctxt);
	return NULL;
}

/* An idle receive context, or NULL when all of them are in use */
static struct svc_rdma2_recv_ctxt *
svc_rdma2_recv_ctxt_get_locked(struct svc_rdma2_xprt *sx)
{
	struct llist_node *node;

	lockdep_assert_held(&sx->sx_recv_lock);
	node = llist_del_first(&sx->sx_recv_free);
	return node ? llist_entry(node, struct svc_rdma2_recv_ctxt, rc_free) :
		      NULL;
}

static int svc_rdma2_post_one_recv(struct svc_rdma2_xprt *sx,
				   struct svc_rdma2_recv_ctxt *ctxt)
{
	int ret;

	ctxt->rc_recv_wr.next = NULL;
	ret = ib_post_recv(sx->sx_qp, &ctxt->rc_recv_wr, NULL);
	if (ret)
		trace_svcrdma2_post_recv_err(sx, ret);
	return ret;
}

/**
 * svc_rdma2_recv_ctxt_put - a receive context is free again
 * @sx: the connection
 * @ctxt: the context, no longer referenced by a Receive, an RDMA Read
 *	or an RPC
 *
 * Releases whatever an error path left of the Call's Reads. When a
 * completed Receive is still owed its replacement, the context is posted
 * again at once instead of going idle.
 *
 * Context: process or a CQ's workqueue.
 */
void svc_rdma2_recv_ctxt_put(struct svc_rdma2_xprt *sx,
			     struct svc_rdma2_recv_ctxt *ctxt)
{
	bool repost = false;

	svc_rdma2_read_release(sx, &ctxt->rc_read);
	spin_lock(&sx->sx_recv_lock);
	if (sx->sx_recv_owed &&
	    !test_bit(XPT_CLOSE, &sx->sx_xprt.xpt_flags)) {
		sx->sx_recv_owed--;
		repost = true;
	} else {
		llist_add(&ctxt->rc_free, &sx->sx_recv_free);
	}
	spin_unlock(&sx->sx_recv_lock);
	if (!repost)
		return;
	trace_svcrdma2_recv_repost(&ctxt->rc_cid);
	if (svc_rdma2_post_one_recv(sx, ctxt)) {
		svc_rdma2_close(sx);
		spin_lock(&sx->sx_recv_lock);
		llist_add(&ctxt->rc_free, &sx->sx_recv_free);
		spin_unlock(&sx->sx_recv_lock);
	}
}

/**
 * svc_rdma2_recv_init - allocate a connection's first receive contexts
 * @sx: the connection, with its QP
 *
 * As many as it keeps posted; svc_rdma2_replace_recvs() adds more, up to
 * recv_cap, when Calls hold them.
 *
 * Context: process.
 *
 * Return: %0, or %-ENOMEM with nothing left allocated.
 */
int svc_rdma2_recv_init(struct svc_rdma2_xprt *sx)
{
	struct svc_rdma2_recv_ctxt *ctxt;
	u32 i;

	for (i = 0; i < sx->sx_rq_depth; i++) {
		ctxt = svc_rdma2_recv_ctxt_alloc(sx);
		if (!ctxt) {
			svc_rdma2_recv_destroy(sx);
			return -ENOMEM;
		}
		svc_rdma2_recv_ctxt_put(sx, ctxt);
	}
	return 0;
}

/**
 * svc_rdma2_recv_destroy - free every receive context of a connection
 * @sx: the connection; no Receive is posted and no RPC holds a context
 *
 * Context: process.
 */
void svc_rdma2_recv_destroy(struct svc_rdma2_xprt *sx)
{
	struct svc_rdma2_recv_ctxt *ctxt, *next;

	list_for_each_entry_safe(ctxt, next, &sx->sx_recv_all, rc_all) {
		list_del(&ctxt->rc_all);
		svc_rdma2_recv_ctxt_free(sx, ctxt);
	}
	init_llist_head(&sx->sx_recv_free);
	sx->sx_nr_recv_ctxts = 0;
	sx->sx_recv_owed = 0;
	sx->sx_recv_unreplaced = 0;
}

/* Take back, idle, the Receives of @wr on, which were never posted */
static void svc_rdma2_recvs_unposted(struct svc_rdma2_xprt *sx,
				     const struct ib_recv_wr *wr)
{
	struct svc_rdma2_recv_ctxt *ctxt;

	spin_lock(&sx->sx_recv_lock);
	while (wr) {
		ctxt = container_of(wr, struct svc_rdma2_recv_ctxt, rc_recv_wr);
		wr = wr->next;
		llist_add(&ctxt->rc_free, &sx->sx_recv_free);
	}
	spin_unlock(&sx->sx_recv_lock);
}

/* Take idle contexts onto @chain until it holds @want; how many it holds */
static u32 svc_rdma2_recv_chain_locked(struct svc_rdma2_xprt *sx,
				       struct ib_recv_wr **chain, u32 n,
				       u32 want)
{
	struct svc_rdma2_recv_ctxt *ctxt;

	lockdep_assert_held(&sx->sx_recv_lock);
	for (; n < want; n++) {
		ctxt = svc_rdma2_recv_ctxt_get_locked(sx);
		if (!ctxt)
			break;
		ctxt->rc_recv_wr.next = *chain;
		*chain = &ctxt->rc_recv_wr;
	}
	return n;
}

/**
 * svc_rdma2_post_recvs - post Receives
 * @sx: the connection
 * @count: how many
 *
 * Context: process.
 *
 * Return: %0, %-ENOMEM when fewer than @count receive contexts are idle
 * (nothing is posted then), or the error ib_post_recv() returned.
 */
int svc_rdma2_post_recvs(struct svc_rdma2_xprt *sx, unsigned int count)
{
	struct ib_recv_wr *chain = NULL;
	const struct ib_recv_wr *bad = NULL;
	u32 n;
	int ret;

	spin_lock(&sx->sx_recv_lock);
	n = svc_rdma2_recv_chain_locked(sx, &chain, 0, count);
	spin_unlock(&sx->sx_recv_lock);
	if (n < count) {
		svc_rdma2_recvs_unposted(sx, chain);
		return -ENOMEM;
	}
	ret = ib_post_recv(sx->sx_qp, chain, &bad);
	if (ret) {
		trace_svcrdma2_post_recv_err(sx, ret);
		svc_rdma2_recvs_unposted(sx, bad);
	}
	return ret;
}

static_assert(SVC_RDMA2_RECV_BATCH <= SVC_RDMA2_EXTRA_RECVS);

/*
 * Replace the @want Receives that completed last, @done the latest,
 * before its message is processed, in one post: with idle contexts, or
 * new ones while the connection has fewer than recv_cap, twice the
 * Receives it keeps posted. The Receives beyond the grant
 * (SVC_RDMA2_EXTRA_RECVS) cover those a batch waits for, so a client
 * within its grant always finds one posted. RFC 8166 §3.3.1: a client
 * never has more Calls outstanding than we granted, so recv_cap is
 * always enough. When it is not, the client ignored its grant; the
 * Receives missing are owed, and the next contexts nfsd hands back are
 * posted in their place (svc_rdma2_recv_ctxt_put()). Until then fewer
 * Receives are posted and the client's surplus Sends meet RNR NAKs,
 * which it retries (we ask for unlimited retries at accept): the client
 * waits, our memory stays bounded.
 */
static int svc_rdma2_replace_recvs(struct svc_rdma2_xprt *sx,
				   struct svc_rdma2_recv_ctxt *done, u32 want)
{
	struct svc_rdma2_recv_ctxt *ctxt;
	struct ib_recv_wr *chain = NULL;
	const struct ib_recv_wr *bad = NULL;
	u32 n, owed = 0;
	int ret;

	if (test_bit(XPT_CLOSE, &sx->sx_xprt.xpt_flags))
		return 0;
	spin_lock(&sx->sx_recv_lock);
	n = svc_rdma2_recv_chain_locked(sx, &chain, 0, want);
	spin_unlock(&sx->sx_recv_lock);
	/* only this completion handler adds contexts after accept */
	for (; n < want; n++) {
		if (READ_ONCE(sx->sx_nr_recv_ctxts) >= sx->sx_recv_cap)
			break;
		ctxt = svc_rdma2_recv_ctxt_alloc(sx);
		if (!ctxt)
			break;
		ctxt->rc_recv_wr.next = chain;
		chain = &ctxt->rc_recv_wr;
	}
	if (n < want) {
		spin_lock(&sx->sx_recv_lock);
		/* contexts handed back meanwhile went idle: post them now */
		n = svc_rdma2_recv_chain_locked(sx, &chain, n, want);
		sx->sx_recv_owed += want - n;
		owed = sx->sx_recv_owed;
		spin_unlock(&sx->sx_recv_lock);
	}
	if (n < want) {
		svc_rdma2_count(sx, SVC_RDMA2_RECV_DEFERRED, want - n);
		trace_svcrdma2_recv_defer(&done->rc_cid, owed);
	}
	if (!chain)
		return 0;
	ret = ib_post_recv(sx->sx_qp, chain, &bad);
	if (ret) {
		trace_svcrdma2_post_recv_err(sx, ret);
		svc_rdma2_recvs_unposted(sx, bad);
		return ret;
	}
	svc_rdma2_count(sx, SVC_RDMA2_RECV_POSTS, 1);
	return 0;
}

static void svc_rdma2_wc_receive(struct ib_cq *cq, struct ib_wc *wc)
{
	struct svc_rdma2_xprt *sx = cq->cq_context;
	struct svc_rdma2_recv_ctxt *ctxt =
		container_of(wc->wr_cqe, struct svc_rdma2_recv_ctxt, rc_cqe);

	rpcrdma2_trace_wc(svcrdma2_wc_recv, wc, &ctxt->rc_cid);
	/* a flush too: the QP is in the error state, maybe with no CM event */
	if (wc->status != IB_WC_SUCCESS)
		goto out_close;
	/*
	 * Only a Send fills the Receive buffer; an RDMA Write With
	 * Immediate also consumes a Receive, with the Write's length in
	 * byte_len. RPC-over-RDMA has no use for it: the client is broken.
	 */
	if (wc->opcode != IB_WC_RECV || wc->byte_len > sx->sx_buf_size) {
		trace_svcrdma2_recv_bad_wc(&ctxt->rc_cid, wc->opcode,
					   wc->byte_len);
		svc_rdma2_count(sx, SVC_RDMA2_DROPPED, 1);
		goto out_close;
	}

	/* only this handler counts them: a CQ's completions come one by one */
	if (++sx->sx_recv_unreplaced == SVC_RDMA2_RECV_BATCH) {
		sx->sx_recv_unreplaced = 0;
		if (svc_rdma2_replace_recvs(sx, ctxt, SVC_RDMA2_RECV_BATCH))
			goto out_close;
	}

	ctxt->rc_byte_len = wc->byte_len;
	spin_lock(&sx->sx_rq_lock);
	list_add_tail(&ctxt->rc_list, &sx->sx_rq_dto_q);
	/* the unlock pairs with the barrier in svc_xprt_ready() */
	set_bit(XPT_DATA, &sx->sx_xprt.xpt_flags);
	spin_unlock(&sx->sx_rq_lock);
	svc_xprt_enqueue(&sx->sx_xprt);
	return;

out_close:
	/* closing first: the context must not be posted again */
	svc_rdma2_close(sx);
	svc_rdma2_recv_ctxt_put(sx, ctxt);
}

/**
 * svc_rdma2_take_rbsiz - size replies by the client's RBSIZ
 * @sx: the transport
 * @rbsiz: RBSIZ from the client's RDMA2_CONNPROP (untrusted)
 *
 * Never below what RFC 8166 §3.3.3 guarantees: a client claiming a
 * smaller buffer gets 1 KiB messages at most. Support of a property is
 * OPTIONAL (draft v2 §5.3.4), and a client must live with a server that
 * keeps the default of 4096 for it: fail_function can make this one
 * such a server (tests/vm/xprtrdma2_chunks.sh).
 *
 * Return: 0.
 */
noinline int svc_rdma2_take_rbsiz(struct svc_rdma2_xprt *sx, u32 rbsiz)
{
	WRITE_ONCE(sx->sx_peer_rbsiz,
		   max_t(u32, rbsiz, RPCRDMA2_V1_DEF_INLINE));
	return 0;
}
ALLOW_ERROR_INJECTION(svc_rdma2_take_rbsiz, ERRNO);

/* RDMA2_CONNPROP: draft v2 §5.3.4; unknown properties were skipped */
static void svc_rdma2_handle_connprop(struct svc_rdma2_xprt *sx,
				      const struct rpcrdma2_hdr *hdr)
{
	const struct rpcrdma2_props *props = &hdr->props;

	svc_rdma2_take_rbsiz(sx, props->rbsiz);
	WRITE_ONCE(sx->sx_peer_brs, props->brs);
	svc_rdma2_count(sx, SVC_RDMA2_CONNPROP_RECV, 1);
	trace_svcrdma2_connprop_recv(sx, props);
}

/*
 * The first valid message fixes the connection's version (draft §7.3).
 * Returns false when another thread fixed the other version first (a
 * client that sent both before any grant, breaking §7): the message is
 * then answered ERR_VERS naming the version in use.
 */
static bool svc_rdma2_fix_version(struct svc_rdma2_xprt *sx,
				  const struct rpcrdma2_hdr *hdr)
{
	struct rpcrdma2_error err = { .code = RPCRDMA2_ERR_VERS };
	u32 old = READ_ONCE(sx->sx_vers);

	if (!old)
		old = cmpxchg(&sx->sx_vers, 0, hdr->vers);
	if (!old) {
		trace_svcrdma2_version(sx, hdr->vers);
		/* draft v2 §5.3.4: CONNPROP goes first, before any reply */
		if (hdr->vers == RPCRDMA2_VERS_2)
			svc_rdma2_send_connprop(sx);
		return true;
	}
	if (old == hdr->vers)
		return true;
	err.vers.low = old;
	err.vers.high = old;
	svc_rdma2_send_err_code(sx, hdr, &err);
	return false;
}

/*
 * Is this a reverse-direction reply (RFC 8167)? v2 says so in rdma_flags
 * (draft §3.2), v1 only in the RPC msg_type: anything but a CALL goes to
 * the backchannel, which takes a REPLY and drops the rest.
 */
static bool svc_rdma2_is_reply(const struct svc_rdma2_recv_ctxt *ctxt)
{
	const struct rpcrdma2_hdr *hdr = &ctxt->rc_hdr;
	const __be32 *p;

	if (hdr->vers == RPCRDMA2_VERS_2)
		return hdr->flags & RPCRDMA2_F_RESPONSE;
	/*
	 * A v1 Long Call has a Position-Zero Read chunk (§3.5.3), the
	 * first in the decoder's ascending order.
	 */
	if (hdr->htype == RPCRDMA2_V1_RDMA_NOMSG)
		return !hdr->cl.nr_read_chunks ||
		       hdr->cl.read_chunks[0].position;
	if (hdr->rpc_len < 8)
		return false;
	p = ctxt->rc_buf + hdr->hdr_len;
	return be32_to_cpup(p + 1) != RPC_CALL;
}

static void svc_rdma2_build_inline_arg(struct svc_rqst *rqstp,
				       struct svc_rdma2_recv_ctxt *ctxt)
{
	struct xdr_buf *arg = &rqstp->rq_arg;

	arg->head[0].iov_base = ctxt->rc_buf + ctxt->rc_hdr.hdr_len;
	arg->head[0].iov_len = ctxt->rc_hdr.rpc_len;
	arg->tail[0].iov_base = NULL;
	arg->tail[0].iov_len = 0;
	arg->pages = rqstp->rq_pages;
	arg->page_base = 0;
	arg->page_len = 0;
	arg->buflen = ctxt->rc_hdr.rpc_len;
	arg->len = ctxt->rc_hdr.rpc_len;
}

/*
 * With ddp=N we are a responder that handles no DDP chunks, and a v2 Call
 * that carries one is refused as draft v2 §5.3.3 says: a Read chunk at a
 * non-zero position gets RDMA2_ERR_READ_CHUNKS with rdma_max_chunks 0 (the
 * requester SHOULD resend with a Position-Zero Read chunk), a Write chunk
 * RDMA2_ERR_REPLY_RESOURCE (it SHOULD resend with a Reply chunk instead;
 * the size of the reply is not known before the Call is processed, so
 * length_needed is 0, as the codec reports it). v1 (RFC 8166) has no
 * error that asks for a different resend: v1 Calls are always served.
 */
static bool svc_rdma2_refuse_ddp(const struct svc_rdma2_xprt *sx,
				 const struct rpcrdma2_hdr *hdr,
				 struct rpcrdma2_reject *rej)
{
	const struct rpcrdma2_chunk_lists *cl = &hdr->cl;
	u32 nr = cl->nr_read_chunks;

	if (sx->sx_ddp || hdr->vers != RPCRDMA2_VERS_2)
		return false;
	memset(rej, 0, sizeof(*rej));
	if (cl->nr_writes) {
		rej->reason = RPCRDMA2_REASON_WRITE_CHUNKS;
		rej->reply.code = RPCRDMA2_ERR_REPLY_RESOURCE;
		return true;
	}
	/* a chunk other than Position Zero is last in ascending order */
	if (nr && cl->read_chunks[nr - 1].position) {
		rej->reason = RPCRDMA2_REASON_READ_CHUNKS;
		rej->reply.code = RPCRDMA2_ERR_READ_CHUNKS;
		return true;
	}
	return false;
}

/* Decode; answer or drop what the codec rejects. True: process it. */
static bool svc_rdma2_decode(struct svc_rdma2_xprt *sx,
			     struct svc_rdma2_recv_ctxt *ctxt)
{
	struct rpcrdma2_hdr *hdr = &ctxt->rc_hdr;
	struct rpcrdma2_reject rej;
	int ret;

	/*
	 * Once the first message has fixed the version, a message in the
	 * other one earns ERR_VERS naming the version in use (§7.3).
	 */
	rpcrdma2_chunk_lists_set_vers(&hdr->cl, READ_ONCE(sx->sx_vers));
	ret = rpcrdma2_decode(ctxt->rc_buf, ctxt->rc_byte_len, hdr, &rej);
	if (ret) {
		trace_svcrdma2_decode_err(&ctxt->rc_cid, hdr, &rej);
		if (rej.discard)
			svc_rdma2_count(sx, SVC_RDMA2_DROPPED, 1);
		else
			svc_rdma2_send_error(sx, hdr, &rej);
		return false;
	}
	trace_svcrdma2_hdr_recv(&ctxt->rc_cid, hdr);

	switch (hdr->htype) {
	case RPCRDMA2_HT_MSG:
	case RPCRDMA2_HT_NOMSG:
		break;
	case RPCRDMA2_HT_CONNPROP:
		/* the codec accepts CONNPROP in v2 only */
		if (svc_rdma2_fix_version(sx, hdr))
			svc_rdma2_handle_connprop(sx, hdr);
		return false;
	default:
		/*
		 * RDMA_ERROR / RDMA2_ERROR from a requester: RFC 8166
		 * §4.2.4 and draft v2 §5.3.3 say a responder never answers
		 * one.
		 */
		trace_svcrdma2_drop(&ctxt->rc_cid, hdr, "error from requester");
		svc_rdma2_count(sx, SVC_RDMA2_DROPPED, 1);
		return false;
	}
	if (svc_rdma2_is_reply(ctxt)) {
		/* copied out now: the caller recycles the Receive buffer */
		svc_rdma2_bc_reply(sx, ctxt);
		return false;
	}
	if (!svc_rdma2_fix_version(sx, hdr))
		return false;
	if (svc_rdma2_refuse_ddp(sx, hdr, &rej)) {
		trace_svcrdma2_decode_err(&ctxt->rc_cid, hdr, &rej);
		svc_rdma2_send_error(sx, hdr, &rej);
		return false;
	}
	return true;
}

/*
 * Under sx_rq_lock, after taking a message: with none left, XPT_DATA goes
 * down now rather than on the next call. svc_xprt_received() would
 * otherwise wake an idle thread for every Call only to find nothing, a
 * wake-up that costs as much as the rest of receiving a small Call. A
 * Receive or Read completion sets it again under the same lock; the
 * Reads waiting for Send Queue entries are looked at after it is clear.
 */
static void svc_rdma2_data_taken(struct svc_rdma2_xprt *sx)
{
	if (list_empty(&sx->sx_rq_dto_q) && list_empty(&sx->sx_read_done_q))
		clear_bit(XPT_DATA, &sx->sx_xprt.xpt_flags);
}

/**
 * svc_rdma2_recvfrom - hand the next received RPC Call to nfsd
 * @rqstp: the request to fill in
 *
 * A Call whose Read chunks have been pulled goes first. Then the Reads
 * of Calls that waited for Send Queue entries are posted if there is
 * room now. A newly received Call with Read chunks only gets its RDMA
 * Reads posted (or queued behind those): it comes back through
 * &svc_rdma2_xprt.sx_read_done_q when they complete.
 *
 * Context: an nfsd thread; never waits for an RDMA Read, and for Send
 * Queue entries only to send a transport error, %SVC_RDMA2_SQ_WAIT at
 * most.
 *
 * Return: the length of the RPC Call in @rqstp->rq_arg, or 0 when there is
 * nothing to process (no message, one that was answered with a transport
 * error or dropped, or one whose Read chunks are still being pulled).
 */
int svc_rdma2_recvfrom(struct svc_rqst *rqstp)
{
	struct svc_xprt *xprt = rqstp->rq_xprt;
	struct svc_rdma2_xprt *sx = svc_rdma2_x(xprt);
	struct svc_rdma2_recv_ctxt *ctxt, *read_done;
	struct rpcrdma2_hdr *hdr;
	bool connprop = false, ok;

	/* nothing in rq_pages belongs to the reply yet */
	rqstp->rq_respages = rqstp->rq_pages;
	rqstp->rq_next_page = rqstp->rq_respages;
	rqstp->rq_xprt_ctxt = NULL;

	spin_lock(&sx->sx_rq_lock);
	ctxt = list_first_entry_or_null(&sx->sx_read_done_q,
					struct svc_rdma2_recv_ctxt, rc_list);
	read_done = ctxt;
	if (!ctxt)
		ctxt = list_first_entry_or_null(&sx->sx_rq_dto_q,
						struct svc_rdma2_recv_ctxt,
						rc_list);
	if (ctxt)
		list_del(&ctxt->rc_list);
	svc_rdma2_data_taken(sx);
	spin_unlock(&sx->sx_rq_lock);
	if (ctxt && !read_done) {
		ib_dma_sync_single_for_cpu(sx->sx_pd->device,
					   ctxt->rc_sge.addr,
					   ctxt->rc_byte_len, DMA_FROM_DEVICE);
		connprop = rpcrdma2_says_connprop(ctxt->rc_buf,
						  ctxt->rc_byte_len);
	}
	/*
	 * Let another thread take the next message while we work, but not
	 * the one behind a CONNPROP before its properties are in: the
	 * client may send a Call right behind it that counts on its RBSIZ.
	 */
	if (!connprop)
		svc_xprt_received(xprt);
	/*
	 * After XPT_DATA may have been cleared: entries freed from now on
	 * enqueue the transport again (svc_rdma2_sq_put()).
	 */
	svc_rdma2_post_waiting_reads(sx);
	if (!ctxt)
		return 0;
	if (read_done) {
		svc_rdma2_read_finish(rqstp, ctxt);
		goto out_call;
	}

	ok = svc_rdma2_decode(sx, ctxt);
	if (connprop)
		svc_xprt_received(xprt);
	if (!ok)
		goto out_put;
	hdr = &ctxt->rc_hdr;
	svc_rdma2_count(sx, hdr->vers == RPCRDMA2_VERS_2 ?
			SVC_RDMA2_MSGS_V2 : SVC_RDMA2_MSGS_V1, 1);
	trace_svcrdma2_decode_rqst(&ctxt->rc_cid, hdr);

	ctxt->rc_nr_payloads = 0;
	ctxt->rc_write_short = 0;
	if (hdr->cl.nr_reads) {
		/* the Call returns through sx_read_done_q, or is dropped */
		svc_rdma2_post_reads(sx, rqstp, ctxt);
		return 0;
	}
	svc_rdma2_build_inline_arg(rqstp, ctxt);

out_call:
	rqstp->rq_xprt_ctxt = ctxt;
	/* the DRC keys on rq_prot; nothing else uses IPPROTO_MAX */
	rqstp->rq_prot = IPPROTO_MAX;
	svc_xprt_copy_addrs(rqstp, xprt);
	/* RDMA cannot tell a privileged port: behave as svcrdma does */
	set_bit(RQ_SECURE, &rqstp->rq_flags);
	return rqstp->rq_arg.len;

out_put:
	svc_rdma2_recv_ctxt_put(sx, ctxt);
	return 0;
}

/**
 * svc_rdma2_release_ctxt - nfsd is done with a Call's receive context
 * @xprt: the transport
 * @vctxt: the context svc_rdma2_recvfrom() stored in rq_xprt_ctxt
 *
 * Context: an nfsd thread.
 */
void svc_rdma2_release_ctxt(struct svc_xprt *xprt, void *vctxt)
{
	if (vctxt)
		svc_rdma2_recv_ctxt_put(svc_rdma2_x(xprt), vctxt);
}
