// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma2 RDMA Read and Write through the core rdma_rw API: one
 * rdma_rw context per remote segment. Read chunks are pulled without
 * blocking an nfsd thread: the thread that decodes a Call posts the Reads
 * into its rq_pages, hands those pages to the receive context and returns;
 * the last Read's completion queues the context for xpo_recvfrom, and
 * whichever thread takes it there moves the pages into its own rq_pages
 * and hands the Call to nfsd. Write chunks and the Reply chunk are pushed
 * from the reply's xdr_buf, chained in front of the reply's Send
 * (sendto.c), so one completion covers them all.
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xdr.h>

#include "svc_rdma2.h"
#include "trace.h"

static void svc_rdma2_rw_pool_init(struct svc_rdma2_rw_pool *pool,
				   unsigned int nents, unsigned int max)
{
	INIT_LIST_HEAD(&pool->rp_free);
	pool->rp_count = 0;
	pool->rp_nents = nents;
	pool->rp_max = max;
}

/**
 * svc_rdma2_rw_pools_init - prepare a connection's idle rdma_rw contexts
 * @sx: the connection; sx_max_requests is set
 *
 * Context: process.
 */
void svc_rdma2_rw_pools_init(struct svc_rdma2_xprt *sx)
{
	spin_lock_init(&sx->sx_rw_lock);
	/* enough for a Write chunk and a Reply chunk per credit */
	svc_rdma2_rw_pool_init(&sx->sx_rw_small, SVC_RDMA2_RW_SMALL_NENTS,
			       2 * sx->sx_max_requests);
	svc_rdma2_rw_pool_init(&sx->sx_rw_large, SVC_RDMA2_RW_LARGE_NENTS,
			       SVC_RDMA2_RW_LARGE_IDLE);
}

/**
 * svc_rdma2_rw_pools_destroy - free a connection's idle rdma_rw contexts
 * @sx: the connection; every context in use has been released
 *
 * Context: process.
 */
void svc_rdma2_rw_pools_destroy(struct svc_rdma2_xprt *sx)
{
	struct svc_rdma2_rw_pool *pools[] = { &sx->sx_rw_small,
					      &sx->sx_rw_large };
	struct svc_rdma2_rw *rw, *next;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pools); i++) {
		list_for_each_entry_safe(rw, next, &pools[i]->rp_free,
					 rw_list) {
			list_del(&rw->rw_list);
			kfree(rw);
		}
		pools[i]->rp_count = 0;
	}
}

/* The pool for contexts of @nents entries, or NULL: too big to keep */
static struct svc_rdma2_rw_pool *
svc_rdma2_rw_pool_for(struct svc_rdma2_xprt *sx, unsigned int nents)
{
	if (nents <= sx->sx_rw_small.rp_nents)
		return &sx->sx_rw_small;
	if (nents <= sx->sx_rw_large.rp_nents)
		return &sx->sx_rw_large;
	return NULL;
}

/* An rdma_rw context with room for @nents scatterlist entries */
static struct svc_rdma2_rw *svc_rdma2_rw_get(struct svc_rdma2_xprt *sx,
					     unsigned int nents)
{
	struct svc_rdma2_rw_pool *pool = svc_rdma2_rw_pool_for(sx, nents);
	struct svc_rdma2_rw *rw = NULL;
	unsigned int max_nents = nents;

	if (pool) {
		max_nents = pool->rp_nents;
		spin_lock(&sx->sx_rw_lock);
		rw = list_first_entry_or_null(&pool->rp_free,
					      struct svc_rdma2_rw, rw_list);
		if (rw) {
			list_del(&rw->rw_list);
			pool->rp_count--;
		}
		spin_unlock(&sx->sx_rw_lock);
	}
	if (!rw) {
		rw = kmalloc(struct_size(rw, rw_first_sgl, max_nents),
			     GFP_KERNEL);
		if (!rw)
			return NULL;
		rw->rw_max_nents = max_nents;
	}
	/* only the entries this use needs: the end mark goes on the last */
	sg_init_table(rw->rw_first_sgl, nents);
	rw->rw_sgt.sgl = rw->rw_first_sgl;
	rw->rw_sgt.nents = nents;
	rw->rw_sgt.orig_nents = nents;
	rw->rw_nents = 0;
	INIT_LIST_HEAD(&rw->rw_list);
	return rw;
}

/* Keep an unmapped context for reuse, or free it */
static void svc_rdma2_rw_put(struct svc_rdma2_xprt *sx,
			     struct svc_rdma2_rw *rw)
{
	struct svc_rdma2_rw_pool *pool;

	pool = svc_rdma2_rw_pool_for(sx, rw->rw_max_nents);
	if (pool && pool->rp_nents == rw->rw_max_nents) {
		spin_lock(&sx->sx_rw_lock);
		if (pool->rp_count < pool->rp_max) {
			list_add(&rw->rw_list, &pool->rp_free);
			pool->rp_count++;
			rw = NULL;
		}
		spin_unlock(&sx->sx_rw_lock);
	}
	kfree(rw);
}

/**
 * svc_rdma2_rw_release - unmap rdma_rw contexts and keep them for reuse
 * @sx: the connection
 * @list: contexts whose work requests have all completed
 *
 * Context: process or the CQ's workqueue.
 */
void svc_rdma2_rw_release(struct svc_rdma2_xprt *sx, struct list_head *list)
{
	struct svc_rdma2_rw *rw, *next;

	list_for_each_entry_safe(rw, next, list, rw_list) {
		list_del(&rw->rw_list);
		rdma_rw_ctx_destroy(&rw->rw_ctx, sx->sx_qp, sx->sx_port_num,
				    rw->rw_sgt.sgl, rw->rw_nents, rw->rw_dir);
		svc_rdma2_rw_put(sx, rw);
	}
}

/* A byte range of rq_pages as a scatterlist */
static unsigned int svc_rdma2_pages_to_sg(struct scatterlist *sg,
					  struct page **pages, u32 offset,
					  u32 length)
{
	unsigned int n = 0, len;
	u32 off = offset_in_page(offset);

	pages += offset >> PAGE_SHIFT;
	while (length) {
		len = min_t(u32, length, PAGE_SIZE - off);
		sg_set_page(&sg[n++], *pages++, len, off);
		length -= len;
		off = 0;
	}
	if (n)
		sg_mark_end(&sg[n - 1]);
	return n;
}

/*
 * The Call's Reads have completed, or flushed: give back the Send Queue
 * entries and the DMA mappings (after which the CPU may look at the
 * data), then queue the Call for xpo_recvfrom, or drop it.
 */
static void svc_rdma2_read_done(struct svc_rdma2_xprt *sx,
				struct svc_rdma2_recv_ctxt *ctxt)
{
	struct svc_rdma2_read_ctxt *rd = &ctxt->rc_read;
	int status = rd->rd_status;

	svc_rdma2_rw_release(sx, &rd->rd_rws);
	svc_rdma2_sq_put(sx, rd->rd_sqes);
	rd->rd_sqes = 0;
	if (status) {
		/* the Call is lost: RFC 8166 §4.5.3, the client sees a close */
		trace_svcrdma2_read_done(&rd->rd_cid, status, 0);
		svc_rdma2_recv_ctxt_put(sx, ctxt);
		/*
		 * A flush too: the WR that failed may have been unsignaled,
		 * whose error ib_cq drops, and then nothing else closes.
		 */
		svc_rdma2_close(sx);
		return;
	}

	spin_lock(&sx->sx_rq_lock);
	list_add_tail(&ctxt->rc_list, &sx->sx_read_done_q);
	/* the unlock pairs with the barrier in svc_xprt_ready() */
	set_bit(XPT_DATA, &sx->sx_xprt.xpt_flags);
	spin_unlock(&sx->sx_rq_lock);
	svc_xprt_enqueue(&sx->sx_xprt);
}

/* One signaled WR ends each Call's chain: RC completes them in order */
static void svc_rdma2_wc_read(struct ib_cq *cq, struct ib_wc *wc)
{
	struct svc_rdma2_xprt *sx = cq->cq_context;
	struct svc_rdma2_read_ctxt *rd =
		container_of(wc->wr_cqe, struct svc_rdma2_read_ctxt, rd_cqe);

	rpcrdma2_trace_wc(svcrdma2_wc_read, wc, &rd->rd_cid);
	if (wc->status == IB_WC_WR_FLUSH_ERR)
		rd->rd_status = -ECANCELED;
	else if (wc->status != IB_WC_SUCCESS)
		rd->rd_status = -EIO;
	svc_rdma2_read_done(sx, container_of(rd, struct svc_rdma2_recv_ctxt,
					     rc_read));
}

/**
 * svc_rdma2_read_ctxt_init - prepare a receive context's Read state
 * @sx: the connection
 * @rd: the context's &svc_rdma2_recv_ctxt.rc_read
 *
 * Context: process.
 */
void svc_rdma2_read_ctxt_init(struct svc_rdma2_xprt *sx,
			      struct svc_rdma2_read_ctxt *rd)
{
	rd->rd_cqe.done = svc_rdma2_wc_read;
	INIT_LIST_HEAD(&rd->rd_rws);
	svc_rdma2_cid_init(sx, sx->sx_sq_cq, &rd->rd_cid);
}

/**
 * svc_rdma2_read_release - drop what a Call's Reads still hold
 * @sx: the connection
 * @rd: Read state with no Read in flight
 *
 * Normally nothing is left: the completion released the rdma_rw
 * contexts and xpo_recvfrom took the pages. Error paths, Calls still
 * waiting for Send Queue entries, and teardown leave both here.
 *
 * Context: process or the CQ's workqueue.
 */
void svc_rdma2_read_release(struct svc_rdma2_xprt *sx,
			    struct svc_rdma2_read_ctxt *rd)
{
	svc_rdma2_rw_release(sx, &rd->rd_rws);
	if (rd->rd_page_count)
		release_pages(rd->rd_pages, rd->rd_page_count);
	rd->rd_page_count = 0;
}

/*
 * Build the rdma_rw context that reads one remote segment into @length
 * bytes of rq_pages at @offset, and count its WRs. Nothing is posted.
 */
static int svc_rdma2_read_seg(struct svc_rdma2_xprt *sx,
			      struct svc_rdma2_read_ctxt *rd,
			      struct page **pages, u32 offset,
			      const struct rpcrdma2_seg *seg)
{
	unsigned int nents = (offset_in_page(offset) + seg->length +
			      PAGE_SIZE - 1) >> PAGE_SHIFT;
	struct svc_rdma2_rw *rw;
	int ret;

	rw = svc_rdma2_rw_get(sx, nents);
	if (!rw)
		return -ENOMEM;
	rw->rw_dir = DMA_FROM_DEVICE;
	rw->rw_nents = svc_rdma2_pages_to_sg(rw->rw_sgt.sgl, pages, offset,
					     seg->length);
	ret = rdma_rw_ctx_init(&rw->rw_ctx, sx->sx_qp, sx->sx_port_num,
			       rw->rw_sgt.sgl, rw->rw_nents, 0, seg->offset,
			       seg->handle, DMA_FROM_DEVICE);
	if (ret < 0) {
		svc_rdma2_rw_put(sx, rw);
		return ret;
	}
	list_add_tail(&rw->rw_list, &rd->rd_rws);
	rd->rd_sqes += ret;
	svc_rdma2_count(sx, SVC_RDMA2_READ_BYTES, seg->length);
	return 0;
}

/* Build the Reads of Read chunk @ch's segments, in list order, to @offset */
static int svc_rdma2_read_chunk(struct svc_rdma2_xprt *sx,
				struct svc_rdma2_read_ctxt *rd,
				struct page **pages,
				const struct rpcrdma2_chunk_lists *cl,
				const struct rpcrdma2_read_chunk *ch, u32 offset)
{
	const struct rpcrdma2_read_seg *rs = &cl->reads[ch->first];
	u32 i;
	int ret;

	for (i = 0; i < ch->nsegs; i++, rs++) {
		if (!rs->seg.length)
			continue;
		ret = svc_rdma2_read_seg(sx, rd, pages, offset, &rs->seg);
		if (ret)
			return ret;
		offset += rs->seg.length;
	}
	svc_rdma2_count(sx, SVC_RDMA2_READS, 1);
	return 0;
}

/* Copy @len bytes to rq_pages at @offset */
static void svc_rdma2_copy_to_pages(struct page **pages, u32 offset,
				    const void *src, u32 len)
{
	u32 n, off;

	while (len) {
		off = offset_in_page(offset);
		n = min_t(u32, len, PAGE_SIZE - off);
		memcpy_to_page(pages[offset >> PAGE_SHIFT], off, src, n);
		src += n;
		offset += n;
		len -= n;
	}
}

static void svc_rdma2_zero_pages(struct page **pages, u32 offset, u32 len)
{
	u32 n, off;

	while (len) {
		off = offset_in_page(offset);
		n = min_t(u32, len, PAGE_SIZE - off);
		memzero_page(pages[offset >> PAGE_SHIFT], off, n);
		offset += n;
		len -= n;
	}
}

/*
 * One data item (RDMA_MSG / RDMA2_MSG with one Read chunk): the inline
 * parts stay in the Receive buffer as head and tail, and the chunk lands
 * page-aligned as the page list, reinserted at its Position (RFC 8166
 * §3.4.5), followed by its XDR pad.
 */
static int svc_rdma2_layout_data_item(struct svc_rdma2_xprt *sx,
				      struct svc_rqst *rqstp,
				      struct svc_rdma2_recv_ctxt *ctxt,
				      u32 at, u32 *pages_used)
{
	struct svc_rdma2_read_ctxt *rd = &ctxt->rc_read;
	const struct rpcrdma2_hdr *hdr = &ctxt->rc_hdr;
	const struct rpcrdma2_chunk_lists *cl = &hdr->cl;
	const struct rpcrdma2_read_chunk *ch = &cl->read_chunks[0];
	const u8 *inl = ctxt->rc_buf + hdr->hdr_len;
	struct xdr_buf *arg = &rqstp->rq_arg;
	u64 clen = ch->length;
	int ret;

	ret = svc_rdma2_read_chunk(sx, rd, rqstp->rq_pages, cl, ch, 0);
	if (ret)
		return ret;
	svc_rdma2_zero_pages(rqstp->rq_pages, clen,
			     xdr_align_size(clen) - clen);
	arg->head[0].iov_base = (void *)inl;
	arg->head[0].iov_len = at;
	arg->pages = rqstp->rq_pages;
	arg->page_base = 0;
	arg->page_len = xdr_align_size(clen);
	arg->tail[0].iov_base = (void *)inl + at;
	arg->tail[0].iov_len = hdr->rpc_len - at;
	arg->len = hdr->rpc_len + arg->page_len;
	arg->buflen = arg->len;
	rd->rd_assembled = false;
	*pages_used = DIV_ROUND_UP(arg->page_len, PAGE_SIZE);
	return 0;
}

/*
 * The whole Call assembled in rq_pages: a Long Call's Position-Zero
 * chunk, or a message with several Read chunks. The inline pieces are
 * copied and each chunk is read in place at @at (its place in the
 * inline message), followed by its XDR pad (RFC 8166 §3.4.5.2).
 */
static int svc_rdma2_layout_call(struct svc_rdma2_xprt *sx,
				 struct svc_rqst *rqstp,
				 struct svc_rdma2_recv_ctxt *ctxt,
				 const u32 *at, u32 *pages_used)
{
	struct svc_rdma2_read_ctxt *rd = &ctxt->rc_read;
	const struct rpcrdma2_hdr *hdr = &ctxt->rc_hdr;
	const struct rpcrdma2_chunk_lists *cl = &hdr->cl;
	const u8 *inl = ctxt->rc_buf + hdr->hdr_len;
	bool msg = hdr->htype == RPCRDMA2_HT_MSG;
	struct xdr_buf *arg = &rqstp->rq_arg;
	u32 i, done = 0, off = 0;
	u64 clen;
	int ret;

	for (i = 0; i < cl->nr_read_chunks; i++) {
		const struct rpcrdma2_read_chunk *ch = &cl->read_chunks[i];

		if (msg && at[i] > done) {
			svc_rdma2_copy_to_pages(rqstp->rq_pages, off,
						inl + done, at[i] - done);
			off += at[i] - done;
			done = at[i];
		}
		clen = ch->length;
		ret = svc_rdma2_read_chunk(sx, rd, rqstp->rq_pages, cl, ch,
					   off);
		if (ret)
			return ret;
		off += clen;
		svc_rdma2_zero_pages(rqstp->rq_pages, off,
				     xdr_align_size(clen) - clen);
		off += xdr_align_size(clen) - clen;
	}
	if (msg && hdr->rpc_len > done) {
		svc_rdma2_copy_to_pages(rqstp->rq_pages, off, inl + done,
					hdr->rpc_len - done);
		off += hdr->rpc_len - done;
	}
	arg->head[0].iov_base = page_address(rqstp->rq_pages[0]);
	arg->head[0].iov_len = min_t(u32, off, PAGE_SIZE);
	arg->pages = rqstp->rq_pages + 1;
	arg->page_base = 0;
	arg->page_len = off - arg->head[0].iov_len;
	arg->tail[0].iov_base = NULL;
	arg->tail[0].iov_len = 0;
	arg->len = off;
	arg->buflen = off;
	rd->rd_assembled = true;
	*pages_used = DIV_ROUND_UP(off, PAGE_SIZE);
	return 0;
}

/*
 * Lay out the Call in rq_pages and build its Reads: one data item
 * (svc_rdma2_layout_data_item()) or the whole Call
 * (svc_rdma2_layout_call()).
 *
 * A Position is an offset in the unreduced Payload stream (§3.4.5), so
 * the inline message resumes at a chunk's Position less the chunks
 * before it, each counted with its XDR roundup whether the requester
 * sent the pad in the chunk or not (both are allowed). Chunks that
 * overlap, or resume past the end of the inline message, are refused.
 */
static int svc_rdma2_layout_reads(struct svc_rdma2_xprt *sx,
				  struct svc_rqst *rqstp,
				  struct svc_rdma2_recv_ctxt *ctxt,
				  u32 *pages_used)
{
	const struct rpcrdma2_hdr *hdr = &ctxt->rc_hdr;
	const struct rpcrdma2_chunk_lists *cl = &hdr->cl;
	const struct rpcrdma2_read_chunk *ch = cl->read_chunks;
	/* where in the inline message each chunk goes back in */
	u32 at[SVC_RDMA2_MAX_READ_CHUNKS];
	/*
	 * svc_alloc_arg() gave rq_pages sv_max_mesg plus two pages: the
	 * two are left for the reply's head and tail.
	 */
	u64 room = rqstp->rq_server->sv_max_mesg;
	u64 total = hdr->rpc_len, clen, reduced = 0;
	u32 nr = cl->nr_read_chunks, i;

	/* the decoder indexes the chunks in ascending Position order */
	for (i = 0; i < nr; i++) {
		clen = ch[i].length;
		if (ch[i].position < reduced)
			return -EINVAL;
		at[i] = ch[i].position - reduced;
		if (hdr->htype == RPCRDMA2_HT_MSG &&
		    (at[i] > hdr->rpc_len || (i && at[i] < at[i - 1])))
			return -EINVAL;
		reduced += xdr_align_size(clen);
		total += xdr_align_size(clen);
	}
	if (total > room)
		return -E2BIG;

	if (hdr->htype == RPCRDMA2_HT_MSG && nr == 1)
		return svc_rdma2_layout_data_item(sx, rqstp, ctxt, at[0],
						  pages_used);
	/*
	 * NOMSG: the Position-Zero chunk is the message, and a Read chunk
	 * at another Position would have to go inside data not yet read.
	 * Linux and every known requester send a Long Call alone.
	 */
	if (hdr->htype == RPCRDMA2_HT_NOMSG && nr != 1)
		return -EOPNOTSUPP;
	return svc_rdma2_layout_call(sx, rqstp, ctxt, at, pages_used);
}

/* The pages under I/O belong to @rd now: svc_xprt_release() must not put them */
static void svc_rdma2_read_take_pages(struct svc_rqst *rqstp,
				      struct svc_rdma2_read_ctxt *rd,
				      u32 count)
{
	u32 i;

	for (i = 0; i < count; i++) {
		rd->rd_pages[i] = rqstp->rq_pages[i];
		/* svc_alloc_arg() refills the slot */
		rqstp->rq_pages[i] = NULL;
	}
	rd->rd_page_count = count;
}

/*
 * Post every Read of a Call as one chain whose last WR alone is
 * signaled, in the Send Queue entries already reserved for it. The Call
 * belongs to the completion once this is called.
 */
static void svc_rdma2_read_post(struct svc_rdma2_xprt *sx,
				struct svc_rdma2_recv_ctxt *ctxt)
{
	struct svc_rdma2_read_ctxt *rd = &ctxt->rc_read;
	struct ib_send_wr *first = NULL;
	struct ib_cqe *cqe = &rd->rd_cqe;
	const struct ib_send_wr *bad;
	struct svc_rdma2_rw *rw;
	int ret;

	/* built back to front, so the WRs go out in list order */
	list_for_each_entry_reverse(rw, &rd->rd_rws, rw_list) {
		first = rdma_rw_ctx_wrs(&rw->rw_ctx, sx->sx_qp,
					sx->sx_port_num, cqe, first);
		cqe = NULL;
	}
	trace_svcrdma2_read_post(&rd->rd_cid, rd->rd_sqes);
	ret = ib_post_send(sx->sx_qp, first, &bad);
	if (ret) {
		trace_svcrdma2_post_send_err(&rd->rd_cid, ret);
		/*
		 * Unless the last WR went out there is no completion: the
		 * entries and the Call are left to teardown, after the
		 * drain. Closing makes what was posted flush.
		 */
		svc_rdma2_close(sx);
	}
}

/**
 * svc_rdma2_post_waiting_reads - post the Reads of Calls that waited
 * @sx: the connection
 *
 * Oldest first, for as long as the Send Queue has room for the next
 * Call's Reads whole, beside the room kept for the replies.
 *
 * Context: an nfsd thread, in xpo_recvfrom.
 */
void svc_rdma2_post_waiting_reads(struct svc_rdma2_xprt *sx)
{
	struct svc_rdma2_recv_ctxt *ctxt;

	for (;;) {
		spin_lock(&sx->sx_rq_lock);
		ctxt = list_first_entry_or_null(&sx->sx_read_wait_q,
						struct svc_rdma2_recv_ctxt,
						rc_list);
		if (!ctxt ||
		    svc_rdma2_sq_reserve(sx, ctxt->rc_read.rd_sqes,
					 svc_rdma2_sq_send_room(sx))) {
			spin_unlock(&sx->sx_rq_lock);
			return;
		}
		list_del(&ctxt->rc_list);
		spin_unlock(&sx->sx_rq_lock);
		svc_rdma2_read_post(sx, ctxt);
	}
}

/**
 * svc_rdma2_post_reads - start pulling a Call's Read chunks
 * @sx: the connection
 * @rqstp: the request whose rq_pages receive the data
 * @ctxt: the decoded Call, which has a Read list; this function owns it
 *
 * Lays out the Call in @rqstp's rq_pages, builds every RDMA Read it
 * needs and moves the pages to @ctxt. The Reads go out as one chain
 * once the Send Queue has room for all of them; until then @ctxt waits
 * on &svc_rdma2_xprt.sx_read_wait_q holding no entries, and whichever
 * nfsd thread finds the room later posts it. So no thread ever waits
 * here, and no thread holds entries that another needs to finish what
 * it holds. When the Reads complete, @ctxt goes on
 * &svc_rdma2_xprt.sx_read_done_q and svc_rdma2_read_finish() completes
 * the Call in the nfsd thread that takes it.
 *
 * A Call we cannot place is answered with ERR_CHUNK (v1) /
 * RDMA2_ERR_BAD_XDR (v2), RFC 8166 §4.5.2; one whose Reads cannot be
 * posted, or that fail, closes the connection (§4.5.3). If any Read may
 * be in flight when posting fails, @ctxt and its pages stay off the free
 * list until teardown frees them after the QP is drained.
 *
 * Context: an nfsd thread.
 */
void svc_rdma2_post_reads(struct svc_rdma2_xprt *sx, struct svc_rqst *rqstp,
			  struct svc_rdma2_recv_ctxt *ctxt)
{
	struct svc_rdma2_read_ctxt *rd = &ctxt->rc_read;
	struct rpcrdma2_reject rej = {};
	u32 pages_used = 0;
	int ret;

	if (!rd->rd_pages) {
		/* kept for the context's lifetime: most never need it */
		rd->rd_pages = kcalloc(RPCSVC_MAXPAGES, sizeof(*rd->rd_pages),
				       GFP_KERNEL);
		if (!rd->rd_pages) {
			ret = -ENOMEM;
			goto out_close;
		}
	}
	rd->rd_status = 0;
	rd->rd_sqes = 0;

	ret = svc_rdma2_layout_reads(sx, rqstp, ctxt, &pages_used);
	if (!ret &&
	    rd->rd_sqes > sx->sx_sq_depth - svc_rdma2_sq_send_room(sx))
		ret = -E2BIG;
	if (ret)
		goto out_err;
	svc_rdma2_read_take_pages(rqstp, rd, pages_used);
	rd->rd_arg = rqstp->rq_arg;

	spin_lock(&sx->sx_rq_lock);
	if (list_empty(&sx->sx_read_wait_q) &&
	    !svc_rdma2_sq_reserve(sx, rd->rd_sqes,
				  svc_rdma2_sq_send_room(sx))) {
		spin_unlock(&sx->sx_rq_lock);
		svc_rdma2_read_post(sx, ctxt);
		return;
	}
	/* behind the Calls already waiting, so none is passed over */
	list_add_tail(&ctxt->rc_list, &sx->sx_read_wait_q);
	spin_unlock(&sx->sx_rq_lock);
	trace_svcrdma2_read_park(&rd->rd_cid, rd->rd_sqes);
	/* entries freed before the Call was queued woke nobody for it */
	smp_mb();
	svc_rdma2_post_waiting_reads(sx);
	return;

out_err:
	/* nothing was posted; svc_rdma2_recv_ctxt_put() frees the rw ctxts */
	switch (ret) {
	case -EINVAL:
	case -E2BIG:
	case -EOPNOTSUPP:
		trace_svcrdma2_read_done(&rd->rd_cid, ret, 0);
		rej.reason = RPCRDMA2_REASON_NOMSG_CHUNK;
		rej.reply.code = RPCRDMA2_ERR_BAD_XDR;
		svc_rdma2_send_error(sx, &ctxt->rc_hdr, &rej);
		svc_rdma2_recv_ctxt_put(sx, ctxt);
		return;
	}
out_close:
	/* the Reads could not be built: the Call is lost */
	trace_svcrdma2_read_done(&rd->rd_cid, ret, 0);
	svc_rdma2_recv_ctxt_put(sx, ctxt);
	svc_rdma2_close(sx);
}

/**
 * svc_rdma2_read_finish - complete a Call whose Reads have all landed
 * @rqstp: the request nfsd will process the Call in
 * @ctxt: the Call, taken from &svc_rdma2_xprt.sx_read_done_q
 *
 * Moves the pages that hold the Read data into @rqstp's rq_pages, in
 * place of the ones there, and rebuilds rq_arg over them: the thread
 * that posted the Reads was probably another one.
 *
 * Context: an nfsd thread, in xpo_recvfrom.
 */
void svc_rdma2_read_finish(struct svc_rqst *rqstp,
			   struct svc_rdma2_recv_ctxt *ctxt)
{
	struct svc_rdma2_read_ctxt *rd = &ctxt->rc_read;
	struct xdr_buf *arg = &rqstp->rq_arg;
	u32 i, n = rd->rd_page_count;

	/* svc_alloc_arg() filled every slot up to sv_max_mesg */
	release_pages(rqstp->rq_pages, n);
	for (i = 0; i < n; i++)
		rqstp->rq_pages[i] = rd->rd_pages[i];
	rd->rd_page_count = 0;

	*arg = rd->rd_arg;
	if (rd->rd_assembled) {
		arg->head[0].iov_base = page_address(rqstp->rq_pages[0]);
		arg->pages = rqstp->rq_pages + 1;
	} else {
		arg->pages = rqstp->rq_pages;
	}
	/* the reply starts after the pages the Call occupies */
	rqstp->rq_respages = rqstp->rq_pages + n;
	rqstp->rq_next_page = rqstp->rq_respages + 1;
	rpcrdma2_trace_hot(svcrdma2_read_done, &rd->rd_cid, 0, arg->len);
}

/*
 * Map [@offset, @offset + @length) of an xdr_buf into @sg; returns the
 * entries used. Head and tail are kmalloc'd or page memory, the page
 * list is pages.
 */
static unsigned int svc_rdma2_xdr_to_sg(const struct xdr_buf *xdr,
					u32 offset, u32 length,
					struct scatterlist *sg)
{
	unsigned int n = 0;
	u32 len, pg, poff;

	if (offset < xdr->head[0].iov_len) {
		len = min_t(u32, length, xdr->head[0].iov_len - offset);
		sg_set_buf(&sg[n++], xdr->head[0].iov_base + offset, len);
		length -= len;
		offset = 0;
	} else {
		offset -= xdr->head[0].iov_len;
	}
	while (length && offset < xdr->page_len) {
		poff = xdr->page_base + offset;
		pg = poff >> PAGE_SHIFT;
		poff = offset_in_page(poff);
		len = min3(length, xdr->page_len - offset,
			   (u32)PAGE_SIZE - poff);
		sg_set_page(&sg[n++], xdr->pages[pg], len, poff);
		length -= len;
		offset += len;
	}
	if (offset >= xdr->page_len)
		offset -= xdr->page_len;
	else
		offset = 0;
	if (length) {
		len = min_t(u32, length, xdr->tail[0].iov_len - offset);
		sg_set_buf(&sg[n++], xdr->tail[0].iov_base + offset, len);
	}
	if (n)
		sg_mark_end(&sg[n - 1]);
	return n;
}

/**
 * svc_rdma2_push_range - RDMA Write part of a reply into a chunk
 * @sx: the connection
 * @sctxt: the Send the Writes are chained to
 * @xdr: the reply
 * @offset: first byte of @xdr to write
 * @length: bytes to write
 * @cur: where in the chunk the bytes go; advanced past them, and
 *	@cur->out[] counts the bytes each segment received
 *
 * Context: an nfsd thread.
 *
 * Return: %0, %-EMSGSIZE if the chunk is too small (the caller checks
 * the chunk's length first), or another negative errno from rdma_rw.
 */
int svc_rdma2_push_range(struct svc_rdma2_xprt *sx,
			 struct svc_rdma2_send_ctxt *sctxt,
			 const struct xdr_buf *xdr, u32 offset, u32 length,
			 struct svc_rdma2_cursor *cur)
{
	const struct rpcrdma2_seg *seg;
	struct svc_rdma2_rw *rw;
	unsigned int nents;
	u32 len;
	int ret;

	while (length) {
		if (cur->seg >= cur->nsegs)
			return -EMSGSIZE;
		seg = &cur->segs[cur->seg];
		len = min(length, seg->length - cur->seg_off);
		if (!len) {
			cur->seg++;
			cur->seg_off = 0;
			continue;
		}
		/* head, tail, and every page the range touches */
		nents = (len >> PAGE_SHIFT) + 4;
		rw = svc_rdma2_rw_get(sx, nents);
		if (!rw)
			return -ENOMEM;
		rw->rw_dir = DMA_TO_DEVICE;
		rw->rw_nents = svc_rdma2_xdr_to_sg(xdr, offset, len,
						   rw->rw_sgt.sgl);
		ret = rdma_rw_ctx_init(&rw->rw_ctx, sx->sx_qp,
				       sx->sx_port_num, rw->rw_sgt.sgl,
				       rw->rw_nents, 0,
				       seg->offset + cur->seg_off,
				       seg->handle, DMA_TO_DEVICE);
		if (ret < 0) {
			svc_rdma2_rw_put(sx, rw);
			return ret;
		}
		list_add_tail(&rw->rw_list, &sctxt->sc_rw);
		sctxt->sc_sqecount += ret;
		cur->out[cur->seg].length += len;
		cur->seg_off += len;
		offset += len;
		length -= len;
	}
	return 0;
}
