// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma2 RDMA Read and Write through the core rdma_rw API: one
 * rdma_rw context per remote segment. Read chunks are pulled into the
 * nfsd thread's own rq_pages before nfsd sees the Call; Write chunks and
 * the Reply chunk are pushed from the reply's xdr_buf, chained in front
 * of the reply's Send (sendto.c), so one completion covers them all.
 */
#include <linux/highmem.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xdr.h>

#include "svc_rdma2.h"
#include "trace.h"

/* Waiter for the RDMA Reads of one Call: each segment completes once */
struct svc_rdma2_read_wait {
	struct ib_cqe		cqe;
	struct svc_rdma2_cid	cid;
	struct svc_rdma2_xprt	*sx;
	atomic_t		pending;
	int			status;
	struct completion	done;
	u32			sqes;
};

static struct svc_rdma2_rw *svc_rdma2_rw_alloc(unsigned int nents)
{
	struct svc_rdma2_rw *rw;

	rw = kmalloc(struct_size(rw, rw_first_sgl, nents), GFP_KERNEL);
	if (!rw)
		return NULL;
	sg_init_table(rw->rw_first_sgl, nents);
	rw->rw_sgt.sgl = rw->rw_first_sgl;
	rw->rw_sgt.nents = nents;
	rw->rw_sgt.orig_nents = nents;
	rw->rw_nents = 0;
	INIT_LIST_HEAD(&rw->rw_list);
	return rw;
}

/**
 * svc_rdma2_rw_release - unmap and free rdma_rw contexts
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
		kfree(rw);
	}
}

/**
 * svc_rdma2_sq_get - reserve Send Queue entries
 * @sx: the connection
 * @n: entries needed
 *
 * Waits while they are in use; gives up when the connection closes.
 *
 * Context: process (sleeps).
 *
 * Return: %0, %-EINVAL if @n exceeds the queue, or %-ENOTCONN.
 */
int svc_rdma2_sq_get(struct svc_rdma2_xprt *sx, u32 n)
{
	if (n > sx->sx_sq_depth)
		return -EINVAL;
	for (;;) {
		if (atomic_sub_return(n, &sx->sx_sq_avail) >= 0)
			return 0;
		atomic_add(n, &sx->sx_sq_avail);
		trace_svcrdma2_sq_full(sx, n);
		wait_event(sx->sx_send_wait,
			   atomic_read(&sx->sx_sq_avail) >= (int)n ||
			   test_bit(XPT_CLOSE, &sx->sx_xprt.xpt_flags));
		if (test_bit(XPT_CLOSE, &sx->sx_xprt.xpt_flags))
			return -ENOTCONN;
	}
}

/**
 * svc_rdma2_sq_put - release Send Queue entries
 * @sx: the connection
 * @n: entries whose work requests completed or were never posted
 *
 * Context: any.
 */
void svc_rdma2_sq_put(struct svc_rdma2_xprt *sx, u32 n)
{
	atomic_add(n, &sx->sx_sq_avail);
	wake_up(&sx->sx_send_wait);
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

static void svc_rdma2_wc_read(struct ib_cq *cq, struct ib_wc *wc)
{
	struct svc_rdma2_read_wait *rd =
		container_of(wc->wr_cqe, struct svc_rdma2_read_wait, cqe);

	trace_svcrdma2_wc_read(wc, &rd->cid);
	if (wc->status != IB_WC_SUCCESS)
		rd->status = -EIO;
	if (atomic_dec_and_test(&rd->pending))
		complete(&rd->done);
}

/*
 * Post the RDMA Reads of one remote segment into @length bytes of
 * rq_pages at @offset. Every posted segment completes on @rd.
 */
static int svc_rdma2_read_seg(struct svc_rdma2_xprt *sx,
			      struct svc_rdma2_read_wait *rd,
			      struct list_head *rws, struct page **pages,
			      u32 offset, const struct rpcrdma2_seg *seg)
{
	unsigned int nents = (offset_in_page(offset) + seg->length +
			      PAGE_SIZE - 1) >> PAGE_SHIFT;
	struct ib_send_wr *first;
	const struct ib_send_wr *bad;
	struct svc_rdma2_rw *rw;
	int ret, wrs;

	rw = svc_rdma2_rw_alloc(nents);
	if (!rw)
		return -ENOMEM;
	rw->rw_dir = DMA_FROM_DEVICE;
	rw->rw_nents = svc_rdma2_pages_to_sg(rw->rw_sgt.sgl, pages, offset,
					     seg->length);
	ret = rdma_rw_ctx_init(&rw->rw_ctx, sx->sx_qp, sx->sx_port_num,
			       rw->rw_sgt.sgl, rw->rw_nents, 0, seg->offset,
			       seg->handle, DMA_FROM_DEVICE);
	if (ret < 0) {
		kfree(rw);
		return ret;
	}
	list_add_tail(&rw->rw_list, rws);
	wrs = ret;
	ret = svc_rdma2_sq_get(sx, wrs);
	if (ret)
		return ret;
	rd->sqes += wrs;
	first = rdma_rw_ctx_wrs(&rw->rw_ctx, sx->sx_qp, sx->sx_port_num,
				&rd->cqe, NULL);
	atomic_inc(&rd->pending);
	ret = ib_post_send(sx->sx_qp, first, &bad);
	if (ret) {
		trace_svcrdma2_post_send_err(&rd->cid, ret);
		/*
		 * Only the last WR is signaled: unless all were posted
		 * there is no completion, and the connection is closed so
		 * what was posted flushes before the pages are reused.
		 */
		atomic_dec(&rd->pending);
		svc_rdma2_close(sx);
		return ret;
	}
	svc_rdma2_count(sx, SVC_RDMA2_READ_BYTES, seg->length);
	return 0;
}

/* Read every segment at @position, in list order, to rq_pages at @offset */
static int svc_rdma2_read_chunk(struct svc_rdma2_xprt *sx,
				struct svc_rdma2_read_wait *rd,
				struct list_head *rws, struct page **pages,
				const struct rpcrdma2_chunk_lists *cl,
				u32 position, u32 offset)
{
	u32 i;
	int ret;

	for (i = 0; i < cl->nr_reads; i++) {
		const struct rpcrdma2_read_seg *rs = &cl->reads[i];

		if (rs->position != position || !rs->seg.length)
			continue;
		ret = svc_rdma2_read_seg(sx, rd, rws, pages, offset, &rs->seg);
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

/* Distinct Read positions in ascending order; returns how many */
static u32 svc_rdma2_positions(const struct rpcrdma2_chunk_lists *cl,
			       u32 *pos, u32 max)
{
	u32 i, j, k, n = 0;

	for (i = 0; i < cl->nr_reads; i++) {
		u32 p = cl->reads[i].position;

		for (j = 0; j < n && pos[j] < p; j++)
			;
		if (j < n && pos[j] == p)
			continue;
		if (n == max)
			return n;
		for (k = n; k > j; k--)
			pos[k] = pos[k - 1];
		pos[j] = p;
		n++;
	}
	return n;
}

/*
 * Lay out the Call in rq_pages and post its Reads. MSG with one Read
 * chunk: the inline parts stay in the Receive buffer as head and tail,
 * the chunk lands page-aligned as the page list (RFC 8166 §3.4.5: the
 * chunk is reinserted at its Position). Otherwise the whole Call is
 * assembled in rq_pages: inline pieces copied, chunks read in place,
 * each chunk followed by its XDR pad (§3.4.5.2).
 */
static int svc_rdma2_layout_reads(struct svc_rdma2_xprt *sx,
				  struct svc_rqst *rqstp,
				  struct svc_rdma2_recv_ctxt *ctxt,
				  struct svc_rdma2_read_wait *rd,
				  struct list_head *rws, u32 *pages_used)
{
	const struct rpcrdma2_hdr *hdr = &ctxt->rc_hdr;
	const struct rpcrdma2_chunk_lists *cl = &hdr->cl;
	const u8 *inl = ctxt->rc_buf + hdr->hdr_len;
	struct xdr_buf *arg = &rqstp->rq_arg;
	u32 pos[SVC_RDMA2_MAX_READ_CHUNKS];
	/*
	 * svc_alloc_arg() gave rq_pages sv_max_mesg plus two pages: the
	 * two are left for the reply's head and tail.
	 */
	u64 room = rqstp->rq_server->sv_max_mesg;
	u32 npos, i, done = 0, off = 0;
	u64 total = hdr->rpc_len, clen;
	int ret;

	npos = svc_rdma2_positions(cl, pos, ARRAY_SIZE(pos));
	for (i = 0; i < npos; i++) {
		clen = rpcrdma2_read_chunk_length(cl, pos[i]);
		total += xdr_align_size(clen);
		/* a Position past the end of the inline message */
		if (hdr->htype == RPCRDMA2_HT_MSG && pos[i] > hdr->rpc_len)
			return -EINVAL;
	}
	if (total > room)
		return -E2BIG;

	if (hdr->htype == RPCRDMA2_HT_MSG && npos == 1) {
		clen = rpcrdma2_read_chunk_length(cl, pos[0]);
		ret = svc_rdma2_read_chunk(sx, rd, rws, rqstp->rq_pages, cl,
					   pos[0], 0);
		if (ret)
			return ret;
		svc_rdma2_zero_pages(rqstp->rq_pages, clen,
				     xdr_align_size(clen) - clen);
		arg->head[0].iov_base = (void *)inl;
		arg->head[0].iov_len = pos[0];
		arg->pages = rqstp->rq_pages;
		arg->page_base = 0;
		arg->page_len = xdr_align_size(clen);
		arg->tail[0].iov_base = (void *)inl + pos[0];
		arg->tail[0].iov_len = hdr->rpc_len - pos[0];
		arg->len = hdr->rpc_len + arg->page_len;
		arg->buflen = arg->len;
		*pages_used = DIV_ROUND_UP(arg->page_len, PAGE_SIZE);
		return 0;
	}

	/*
	 * NOMSG: the Position-Zero chunk is the message, and a Read chunk
	 * at another Position would have to go inside data not yet read.
	 * Linux and every known requester send a Long Call alone.
	 */
	if (hdr->htype == RPCRDMA2_HT_NOMSG && npos != 1)
		return -EOPNOTSUPP;
	for (i = 0; i < npos; i++) {
		if (hdr->htype == RPCRDMA2_HT_MSG && pos[i] > done) {
			svc_rdma2_copy_to_pages(rqstp->rq_pages, off,
						inl + done, pos[i] - done);
			off += pos[i] - done;
			done = pos[i];
		}
		clen = rpcrdma2_read_chunk_length(cl, pos[i]);
		ret = svc_rdma2_read_chunk(sx, rd, rws, rqstp->rq_pages, cl,
					   pos[i], off);
		if (ret)
			return ret;
		off += clen;
		svc_rdma2_zero_pages(rqstp->rq_pages, off,
				     xdr_align_size(clen) - clen);
		off += xdr_align_size(clen) - clen;
	}
	if (hdr->htype == RPCRDMA2_HT_MSG && hdr->rpc_len > done) {
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
	*pages_used = DIV_ROUND_UP(off, PAGE_SIZE);
	return 0;
}

/**
 * svc_rdma2_pull_reads - pull a Call's Read chunks and build rq_arg
 * @sx: the connection
 * @rqstp: the request; its rq_pages receive the data
 * @ctxt: the decoded Call, which has a Read list
 *
 * Waits for every RDMA Read it posted, even after an error, so no page
 * is still the target of a Read when this returns. A Call we cannot
 * place is answered with ERR_CHUNK (v1) / RDMA2_ERR_BAD_XDR (v2), RFC
 * 8166 §4.5.2; a Read that fails closes the connection (§4.5.3).
 *
 * Context: an nfsd thread (sleeps).
 *
 * Return: %0 when rq_arg holds the whole Call, or a negative errno when
 * the Call must not be processed (any answer has been sent).
 */
int svc_rdma2_pull_reads(struct svc_rdma2_xprt *sx, struct svc_rqst *rqstp,
			 struct svc_rdma2_recv_ctxt *ctxt)
{
	struct svc_rdma2_read_wait rd = {};
	struct rpcrdma2_reject rej = {};
	u32 pages_used = 0;
	LIST_HEAD(rws);
	int ret;

	rd.cqe.done = svc_rdma2_wc_read;
	rd.sx = sx;
	init_completion(&rd.done);
	/* one extra count, dropped below, so nothing completes early */
	atomic_set(&rd.pending, 1);
	svc_rdma2_cid_init(sx, sx->sx_sq_cq, &rd.cid);

	ret = svc_rdma2_layout_reads(sx, rqstp, ctxt, &rd, &rws, &pages_used);
	if (!atomic_dec_and_test(&rd.pending))
		wait_for_completion(&rd.done);
	svc_rdma2_sq_put(sx, rd.sqes);
	svc_rdma2_rw_release(sx, &rws);
	if (!ret && rd.status)
		ret = rd.status;
	trace_svcrdma2_read_done(&rd.cid, ret, rqstp->rq_arg.len);

	switch (ret) {
	case 0:
		/* the reply starts after the pages the Call occupies */
		rqstp->rq_respages = rqstp->rq_pages + pages_used;
		rqstp->rq_next_page = rqstp->rq_respages + 1;
		return 0;
	case -EINVAL:
	case -E2BIG:
	case -EOPNOTSUPP:
		rej.reason = RPCRDMA2_REASON_NOMSG_CHUNK;
		rej.reply.code = RPCRDMA2_ERR_BAD_XDR;
		svc_rdma2_send_error(sx, &ctxt->rc_hdr, &rej);
		return ret;
	default:
		/* a Read failed or could not be posted: the Call is lost */
		svc_rdma2_close(sx);
		return ret;
	}
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
		rw = svc_rdma2_rw_alloc(nents);
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
			kfree(rw);
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
