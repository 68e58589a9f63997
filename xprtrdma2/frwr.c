// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma2 registration layer: FRWR memory regions for the chunks of a
 * Call (RFC 8166 §3.4-3.5), and their invalidation once the RPC is over.
 *
 * Each endpoint owns a pool of MRs in its protection domain; they die
 * with it. The pool starts with one batch and grows a batch at a time
 * when it runs dry, up to two chunks for every slot: a connection that
 * moves little data holds few MRs, each a page list in the device.
 *
 * A chunk covers a byte range of an xdr_buf (head, pages from
 * page_base, tail) with as few MRs as FRWR allows: one MR maps a page
 * list, so a region that does not start at a page boundary, or follows
 * one that does not end at one, starts a new MR. Every use bumps the
 * MR's key, so an rkey the server kept from an earlier RPC opens
 * nothing.
 *
 * When the reply comes, MRs the server invalidated with Send With
 * Invalidate (draft §8.4, RFC 8797 §4.1) are only unmapped; the others
 * get LOCAL_INV, and the RPC completes from the last LOCAL_INV's
 * completion, so no page of an RPC is open to the server once the RPC
 * is done. Only then, every MR unmapped, are a reply's inline bytes
 * copied into the pages (rpcrdma2_reply_done()): unmapping a
 * bounce-buffered DMA_FROM_DEVICE mapping copies the device's view back
 * over the pages, and would undo an earlier copy. The locking rule is
 * with struct rpcrdma2_req.
 */
#include <linux/dma-mapping.h>
#include <linux/error-injection.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/sunrpc/xdr.h>
#include <linux/sunrpc/xprt.h>

#include "xprt_rdma2.h"
#include "trace.h"

static struct rpcrdma2_mr *frwr2_get(struct rpcrdma2_ep *ep)
{
	struct rpcrdma2_mr *mr;
	bool grow;

	spin_lock(&ep->re_mr_lock);
	mr = list_first_entry_or_null(&ep->re_mr_free, struct rpcrdma2_mr,
				      mr_list);
	if (mr)
		list_del(&mr->mr_list);
	grow = list_empty(&ep->re_mr_free) && ep->re_nr_mrs < ep->re_max_mrs;
	spin_unlock(&ep->re_mr_lock);
	/* the last idle MR is gone: make more before the next RPC needs one */
	if (grow)
		queue_work(system_highpri_wq, &ep->re_mr_refill);
	return mr;
}

/* Unmap an MR and give it back to its endpoint's pool */
static void frwr2_put(struct rpcrdma2_mr *mr)
{
	struct rpcrdma2_ep *ep = mr->mr_ep;

	if (mr->mr_nents) {
		ib_dma_unmap_sg(ep->re_pd->device, mr->mr_sg, mr->mr_nents,
				mr->mr_dir);
		trace_xprtrdma2_mr_unmap(mr);
		mr->mr_nents = 0;
	}
	mr->mr_req = NULL;
	spin_lock(&ep->re_mr_lock);
	list_add(&mr->mr_list, &ep->re_mr_free);
	spin_unlock(&ep->re_mr_lock);
}

/*
 * REG_MR is unsignaled: this runs only for an error or a flush, and
 * either means the QP is in the error state (rpcrdma2_ep_close()).
 */
static void frwr2_wc_reg(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rpcrdma2_mr *mr = container_of(wc->wr_cqe, struct rpcrdma2_mr,
					      mr_cqe);

	rpcrdma2_trace_wc(xprtrdma2_wc_reg, wc, &mr->mr_cid);
	rpcrdma2_ep_close(mr->mr_ep);
}

/* A LOCAL_INV before the last of a chain: errors and flushes only */
static void frwr2_wc_localinv(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rpcrdma2_mr *mr = container_of(wc->wr_cqe, struct rpcrdma2_mr,
					      mr_inv_cqe);

	rpcrdma2_trace_wc(xprtrdma2_wc_localinv, wc, &mr->mr_cid);
	rpcrdma2_ep_close(mr->mr_ep);
}

/* The last LOCAL_INV of a chain, for a reply: complete the RPC now */
static void frwr2_wc_localinv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rpcrdma2_mr *mr = container_of(wc->wr_cqe, struct rpcrdma2_mr,
					      mr_inv_cqe);
	struct rpcrdma2_ep *ep = mr->mr_ep;
	struct rpcrdma2_req *req = mr->mr_req;

	rpcrdma2_trace_wc(xprtrdma2_wc_localinv, wc, &mr->mr_cid);
	/*
	 * Success: every MR of the RPC is invalid. A flush: the QP is in
	 * the error state and no longer reaches them. Either way the pages
	 * can go back to the RPC: unmapped first, then the reply's inline
	 * bytes go in.
	 */
	if (wc->status != IB_WC_SUCCESS)
		rpcrdma2_ep_close(ep);
	rpcrdma2_frwr_release_all(req);
	rpcrdma2_sq_put(ep, req->rl_inv_wrs);
	rpcrdma2_reply_done(req);
}

/* The last LOCAL_INV of a chain, for ->buf_free: wake it */
static void frwr2_wc_localinv_wake(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rpcrdma2_mr *mr = container_of(wc->wr_cqe, struct rpcrdma2_mr,
					      mr_inv_cqe);
	struct rpcrdma2_ep *ep = mr->mr_ep;
	struct rpcrdma2_req *req = mr->mr_req;

	rpcrdma2_trace_wc(xprtrdma2_wc_localinv, wc, &mr->mr_cid);
	if (wc->status != IB_WC_SUCCESS)
		rpcrdma2_ep_close(ep);
	rpcrdma2_sq_put(ep, req->rl_inv_wrs);
	complete(&req->rl_inv_done);
}

/*
 * One MR with its page list. A function of its own so that
 * fail_function can make it fail (CONFIG_FAIL_FUNCTION), as an
 * allocation can under memory pressure.
 */
static noinline int rpcrdma2_frwr_mr_create(struct rpcrdma2_ep *ep,
					    struct rpcrdma2_mr **mrp)
{
	struct rpcrdma2_mr *mr;
	struct ib_mr *ibmr;
	int ret = -ENOMEM;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL | __GFP_NOWARN);
	if (!mr)
		return -ENOMEM;
	mr->mr_sg = kcalloc(ep->re_mr_depth, sizeof(*mr->mr_sg),
			    GFP_KERNEL | __GFP_NOWARN);
	if (!mr->mr_sg)
		goto out_free_mr;
	sg_init_table(mr->mr_sg, ep->re_mr_depth);
	ibmr = ib_alloc_mr(ep->re_pd, IB_MR_TYPE_MEM_REG, ep->re_mr_depth);
	if (IS_ERR(ibmr)) {
		ret = PTR_ERR(ibmr);
		goto out_free_sg;
	}
	mr->mr_ep = ep;
	mr->mr_ibmr = ibmr;
	mr->mr_cqe.done = frwr2_wc_reg;
	rpcrdma2_cid_init(ep, ep->re_scq, &mr->mr_cid);
	mr->mr_reg_wr.wr.opcode = IB_WR_REG_MR;
	mr->mr_reg_wr.wr.wr_cqe = &mr->mr_cqe;
	mr->mr_reg_wr.mr = ibmr;
	mr->mr_inv_wr.opcode = IB_WR_LOCAL_INV;
	mr->mr_inv_wr.wr_cqe = &mr->mr_inv_cqe;
	*mrp = mr;
	return 0;

out_free_sg:
	kfree(mr->mr_sg);
out_free_mr:
	kfree(mr);
	return ret;
}
ALLOW_ERROR_INJECTION(rpcrdma2_frwr_mr_create, ERRNO);

static void frwr2_mr_destroy(struct rpcrdma2_mr *mr)
{
	if (WARN_ON_ONCE(mr->mr_nents))
		ib_dma_unmap_sg(mr->mr_ep->re_pd->device, mr->mr_sg,
				mr->mr_nents, mr->mr_dir);
	ib_dereg_mr(mr->mr_ibmr);
	kfree(mr->mr_sg);
	kfree(mr);
}

/*
 * Add up to RPCRDMA2_MR_BATCH idle MRs, never past re_max_mrs. Only
 * rpcrdma2_frwr_pool_create() and then the refill work grow the pool,
 * never both at once. Return: the MRs added; if none, the error.
 */
static int frwr2_pool_grow(struct rpcrdma2_ep *ep)
{
	struct rpcrdma2_mr *mr;
	LIST_HEAD(batch);
	u32 n, added = 0;
	int ret = 0;

	n = min_t(u32, RPCRDMA2_MR_BATCH,
		  ep->re_max_mrs - READ_ONCE(ep->re_nr_mrs));
	while (added < n) {
		ret = rpcrdma2_frwr_mr_create(ep, &mr);
		if (ret)
			break;
		list_add_tail(&mr->mr_all, &batch);
		added++;
	}
	if (!added)
		return ret;
	spin_lock(&ep->re_mr_lock);
	list_for_each_entry(mr, &batch, mr_all)
		list_add_tail(&mr->mr_list, &ep->re_mr_free);
	list_splice_tail(&batch, &ep->re_mr_all);
	ep->re_nr_mrs += added;
	spin_unlock(&ep->re_mr_lock);
	rpcrdma2_count(ep->re_xprt, RPCRDMA2_C_MRS_CREATED, added);
	return added;
}

/*
 * The pool ran dry (frwr2_get()): grow it, then wake the senders that
 * found it empty (rpcrdma2_send_call()). If nothing could be allocated
 * they are woken all the same, and retry after a delay until RPCs give
 * MRs back or a later refill succeeds.
 */
static void frwr2_refill_worker(struct work_struct *work)
{
	struct rpcrdma2_ep *ep = container_of(work, struct rpcrdma2_ep,
					      re_mr_refill);
	unsigned int noio;
	int ret;

	if (atomic_read(&ep->re_closing))
		return;
	/* writeback may be what waits for these MRs: reclaim must not recurse */
	noio = memalloc_noio_save();
	ret = frwr2_pool_grow(ep);
	memalloc_noio_restore(noio);
	WRITE_ONCE(ep->re_mr_refill_failed, ret < 0);
	if (ret < 0)
		rpcrdma2_count(ep->re_xprt, RPCRDMA2_C_MR_REFILL_ERRORS, 1);
	trace_xprtrdma2_mr_refill(ep, ret);
	/* pairs with the barrier in rpcrdma2_send_call() */
	smp_mb();
	xprt_write_space(&ep->re_xprt->rx_xprt);
}

/**
 * rpcrdma2_frwr_pool_init - initialize an endpoint's empty MR pool
 * @ep: the endpoint, just allocated
 *
 * After this, rpcrdma2_frwr_pool_destroy() is safe whether or not
 * rpcrdma2_frwr_pool_create() ran.
 */
void rpcrdma2_frwr_pool_init(struct rpcrdma2_ep *ep)
{
	INIT_LIST_HEAD(&ep->re_mr_free);
	INIT_LIST_HEAD(&ep->re_mr_all);
	spin_lock_init(&ep->re_mr_lock);
	INIT_WORK(&ep->re_mr_refill, frwr2_refill_worker);
}

/**
 * rpcrdma2_frwr_pool_create - allocate an endpoint's first MRs
 * @ep: the endpoint, its protection domain and Send CQ allocated
 *
 * One MR maps up to RPCRDMA2_MAX_MR_DEPTH pages, or fewer if the device
 * or the mr_depth parameter says so (rpcrdma2_max_payload() then
 * shrinks the payload to fit). The pool starts with RPCRDMA2_MR_BATCH,
 * enough for the largest RPC, and may grow to a Read chunk and a Reply
 * chunk for every RPC of the slot table.
 *
 * Context: process; may sleep.
 *
 * Return: %0; %-EOPNOTSUPP if the device has no FRWR; %-ENOMEM; or the
 * error of ib_alloc_mr(). The caller destroys what was built.
 */
int rpcrdma2_frwr_pool_create(struct rpcrdma2_ep *ep)
{
	const struct ib_device_attr *attrs = &ep->re_pd->device->attrs;
	int ret;

	if (!(attrs->device_cap_flags & IB_DEVICE_MEM_MGT_EXTENSIONS) ||
	    !attrs->max_fast_reg_page_list_len)
		return -EOPNOTSUPP;
	ep->re_mr_depth = min3(attrs->max_fast_reg_page_list_len,
			       READ_ONCE(xprt_rdma2_mr_depth),
			       (u32)RPCRDMA2_MAX_MR_DEPTH);
	ep->re_max_mrs = ep->re_max_requests * 2 * RPCRDMA2_MAX_CHUNK_MRS;
	ret = frwr2_pool_grow(ep);
	return ret < 0 ? ret : 0;
}

/**
 * rpcrdma2_frwr_pool_destroy - free an endpoint's MRs
 * @ep: the endpoint, its QP destroyed and every request's MRs reclaimed
 *
 * Context: process; may sleep.
 */
void rpcrdma2_frwr_pool_destroy(struct rpcrdma2_ep *ep)
{
	struct rpcrdma2_mr *mr, *next;

	cancel_work_sync(&ep->re_mr_refill);
	list_for_each_entry_safe(mr, next, &ep->re_mr_all, mr_all) {
		list_del(&mr->mr_all);
		frwr2_mr_destroy(mr);
	}
	INIT_LIST_HEAD(&ep->re_mr_free);
	ep->re_nr_mrs = 0;
}

/**
 * rpcrdma2_frwr_have_idle - does the pool have an idle MR now
 * @ep: the endpoint
 *
 * Return: true if a sender that found the pool empty may try again.
 */
bool rpcrdma2_frwr_have_idle(struct rpcrdma2_ep *ep)
{
	return !list_empty_careful(&ep->re_mr_free);
}

/*
 * Walks parts of an xdr_buf (head, pages from page_base, tail) a page at
 * a time, from @part up to @end.
 */
struct frwr2_cursor {
	const struct xdr_buf	*xdr;
	unsigned int		part;	/* 0 head, 1 pages, 2 tail */
	unsigned int		end;	/* the part after the last one walked */
	unsigned int		done;	/* bytes of that part walked */
};

struct frwr2_piece {
	struct page		*page;
	unsigned int		off;
	unsigned int		len;
};

static unsigned int frwr2_part_len(const struct xdr_buf *xdr,
				   unsigned int part)
{
	switch (part) {
	case 0:
		return xdr->head[0].iov_len;
	case 1:
		return xdr->page_len;
	default:
		return xdr->tail[0].iov_len;
	}
}

/* The piece at the cursor, within one page; false at the end */
static bool frwr2_peek(struct frwr2_cursor *cur, struct frwr2_piece *pc)
{
	const struct xdr_buf *xdr = cur->xdr;
	unsigned int left;

	while (cur->part < cur->end &&
	       cur->done == frwr2_part_len(xdr, cur->part)) {
		cur->part++;
		cur->done = 0;
	}
	if (cur->part == cur->end)
		return false;
	left = frwr2_part_len(xdr, cur->part) - cur->done;
	if (cur->part == 1) {
		unsigned int pos = xdr->page_base + cur->done;

		pc->page = xdr->pages[pos >> PAGE_SHIFT];
		pc->off = offset_in_page(pos);
	} else {
		const struct kvec *iov = cur->part ? xdr->tail : xdr->head;
		const u8 *base = (const u8 *)iov->iov_base + cur->done;

		/* kmalloc'ed: linearly mapped, one struct page per page */
		pc->page = virt_to_page(base);
		pc->off = offset_in_page(base);
	}
	pc->len = min_t(unsigned int, left, PAGE_SIZE - pc->off);
	return true;
}

/*
 * Fill one MR's scatterlist from the cursor: FRWR maps a page list, so
 * only a piece that starts a page may follow one that ends a page.
 * Return: entries used.
 */
static unsigned int frwr2_fill(struct rpcrdma2_mr *mr,
			       struct frwr2_cursor *cur, u32 depth)
{
	struct frwr2_piece pc;
	unsigned int n = 0;

	while (n < depth && frwr2_peek(cur, &pc)) {
		if (n && (pc.off ||
			  mr->mr_sg[n - 1].offset + mr->mr_sg[n - 1].length !=
			  PAGE_SIZE))
			break;
		sg_unmark_end(&mr->mr_sg[n]);
		sg_set_page(&mr->mr_sg[n], pc.page, pc.len, pc.off);
		cur->done += pc.len;
		n++;
	}
	if (n)
		sg_mark_end(&mr->mr_sg[n - 1]);
	return n;
}

/* DMA-map a filled MR, register its pages and prepare its REG_MR */
static int frwr2_register(struct rpcrdma2_ep *ep, struct rpcrdma2_mr *mr,
			  unsigned int nents, bool writable)
{
	struct ib_device *dev = ep->re_pd->device;
	struct ib_mr *ibmr = mr->mr_ibmr;
	int mapped;

	mr->mr_dir = writable ? DMA_FROM_DEVICE : DMA_TO_DEVICE;
	mapped = ib_dma_map_sg(dev, mr->mr_sg, nents, mr->mr_dir);
	if (!mapped)
		return -EIO;
	/* unmap takes what map was given, not what it returned */
	mr->mr_nents = nents;
	if (ib_map_mr_sg(ibmr, mr->mr_sg, mapped, NULL, PAGE_SIZE) != mapped)
		return -EIO;
	/* a new key for every use: an rkey from an earlier RPC opens nothing */
	ib_update_fast_reg_key(ibmr, ib_inc_rkey(ibmr->rkey) & 0xff);
	mr->mr_reg_wr.wr.next = NULL;
	mr->mr_reg_wr.wr.send_flags = 0;
	mr->mr_reg_wr.key = ibmr->rkey;
	mr->mr_reg_wr.access = writable ?
		IB_ACCESS_REMOTE_WRITE | IB_ACCESS_LOCAL_WRITE :
		IB_ACCESS_REMOTE_READ;
	return 0;
}

/**
 * rpcrdma2_frwr_map - register an xdr_buf, or its pages, as a chunk
 * @ep: the current endpoint
 * @req: the request the MRs are for; they go on its list
 * @xdr: the buffer: head, pages from page_base, tail, in that order
 * @flags: %RPCRDMA2_MAP_PAGES: only the page_len bytes from page_base,
 *	the DDP-eligible payload the upper layer put there (RFC 8166
 *	§3.4.1), else the whole buffer; %RPCRDMA2_MAP_WRITABLE: the server
 *	writes it (a Write or Reply chunk, §3.4.6) rather than reads it (a
 *	Read chunk, §3.4.5)
 * @segs: filled with one segment per MR, in buffer order
 * @nsegs: set to the segments used
 * @chain: their REG_MR work requests are appended here
 *
 * Context: the transport's send lock. On failure the caller releases the
 * request's MRs with rpcrdma2_frwr_release_all(); nothing is posted
 * here.
 *
 * Return: %0; %-EMSGSIZE if the buffer needs more than
 * RPCRDMA2_MAX_CHUNK_MRS MRs; %-EAGAIN if the pool is empty and a
 * refill is under way (it wakes the transport's write-space waiters);
 * %-ENOBUFS if it is empty and cannot grow now (full size, or the last
 * refill failed); %-EIO if DMA or page-list mapping failed.
 */
int rpcrdma2_frwr_map(struct rpcrdma2_ep *ep, struct rpcrdma2_req *req,
		      const struct xdr_buf *xdr, unsigned int flags,
		      struct rpcrdma2_seg *segs, u32 *nsegs,
		      struct rpcrdma2_regchain *chain)
{
	bool pages = flags & RPCRDMA2_MAP_PAGES;
	struct frwr2_cursor cur = {
		.xdr	= xdr,
		.part	= pages ? 1 : 0,
		.end	= pages ? 2 : 3,
	};
	bool writable = flags & RPCRDMA2_MAP_WRITABLE;
	struct frwr2_piece pc;
	u32 n = 0;
	int ret;

	while (frwr2_peek(&cur, &pc)) {
		struct rpcrdma2_mr *mr;
		unsigned int nents;

		if (n == RPCRDMA2_MAX_CHUNK_MRS)
			return -EMSGSIZE;
		mr = frwr2_get(ep);
		if (!mr)
			return READ_ONCE(ep->re_mr_refill_failed) ||
			       READ_ONCE(ep->re_nr_mrs) >= ep->re_max_mrs ?
			       -ENOBUFS : -EAGAIN;
		mr->mr_req = req;
		list_add_tail(&mr->mr_list, &req->rl_mrs);
		req->rl_ep = ep;
		nents = frwr2_fill(mr, &cur, ep->re_mr_depth);
		ret = frwr2_register(ep, mr, nents, writable);
		if (ret)
			return ret;
		*chain->next = &mr->mr_reg_wr.wr;
		chain->next = &mr->mr_reg_wr.wr.next;
		chain->count++;
		segs[n].handle = mr->mr_ibmr->rkey;
		segs[n].length = mr->mr_ibmr->length;
		segs[n].offset = mr->mr_ibmr->iova;
		trace_xprtrdma2_mr_map(&mr->mr_cid, &segs[n], nents);
		n++;
	}
	rpcrdma2_count(ep->re_xprt, RPCRDMA2_C_MRS_REGISTERED, n);
	*nsegs = n;
	return 0;
}

/**
 * rpcrdma2_frwr_release_all - unmap a request's MRs and return them
 * @req: the request; its MRs are invalid, never posted, or on a QP in
 *	the error state
 *
 * Context: whoever owns @req's MR list (see struct rpcrdma2_req).
 */
void rpcrdma2_frwr_release_all(struct rpcrdma2_req *req)
{
	struct rpcrdma2_mr *mr, *next;

	list_for_each_entry_safe(mr, next, &req->rl_mrs, mr_list) {
		list_del(&mr->mr_list);
		frwr2_put(mr);
	}
}

/**
 * rpcrdma2_frwr_reminv - the server invalidated an rkey with Send With
 *	Invalidate
 * @req: the request the reply answers
 * @rkey: the rkey the Receive completion reported invalidated
 *
 * draft §8.4: an MR the server invalidated needs no LOCAL_INV; it is
 * only unmapped. An rkey that is none of @req's is trusted for nothing.
 *
 * Context: the Receive completion, with the rqst pinned.
 *
 * Return: true if @rkey was one of @req's MRs.
 */
bool rpcrdma2_frwr_reminv(struct rpcrdma2_req *req, u32 rkey)
{
	struct rpcrdma2_mr *mr;

	list_for_each_entry(mr, &req->rl_mrs, mr_list) {
		if (mr->mr_ibmr->rkey == rkey) {
			list_del(&mr->mr_list);
			frwr2_put(mr);
			return true;
		}
	}
	return false;
}

/*
 * Post a chain of LOCAL_INV. Nothing but ib_post_send(), so that
 * fail_function can make it fail as a device would (a full or broken
 * Send Queue): the bed never does on its own.
 */
static noinline __noclone int
rpcrdma2_post_localinv(struct ib_qp *qp, const struct ib_send_wr *first)
{
	return ib_post_send(qp, first, NULL);
}
ALLOW_ERROR_INJECTION(rpcrdma2_post_localinv, ERRNO);

/*
 * Chain LOCAL_INV for every MR of @req, signal only the last (whose
 * completion is @done) and post them. Return: %0 if the last one is
 * posted, so @done will run; %-ENOTCONN if nothing was posted that will
 * report, and the connection is being closed.
 */
static int frwr2_post_localinv(struct rpcrdma2_req *req,
			       void (*done)(struct ib_cq *, struct ib_wc *))
{
	struct rpcrdma2_ep *ep = req->rl_ep;
	struct ib_send_wr *first = NULL, **next = &first;
	struct rpcrdma2_mr *mr, *last = NULL;
	u32 n = 0;
	int ret;

	list_for_each_entry(mr, &req->rl_mrs, mr_list) {
		mr->mr_inv_wr.next = NULL;
		mr->mr_inv_wr.send_flags = 0;
		mr->mr_inv_wr.ex.invalidate_rkey = mr->mr_ibmr->rkey;
		mr->mr_inv_cqe.done = frwr2_wc_localinv;
		*next = &mr->mr_inv_wr;
		next = &mr->mr_inv_wr.next;
		last = mr;
		n++;
	}
	if (!last)
		return -ENOTCONN;
	last->mr_inv_wr.send_flags = IB_SEND_SIGNALED;
	last->mr_inv_cqe.done = done;
	req->rl_inv_wrs = n;
	/* sized for every RPC that may post one (rpcrdma2_ep_create_qp()) */
	if (WARN_ON_ONCE(rpcrdma2_sq_get(ep, n)))
		goto out_close;
	ret = rpcrdma2_post_localinv(ep->re_id->qp, first);
	if (ret) {
		trace_xprtrdma2_post_err(&last->mr_cid, ret);
		rpcrdma2_sq_put(ep, n);
		goto out_close;
	}
	rpcrdma2_count(ep->re_xprt, RPCRDMA2_C_LOCAL_INV, n);
	return 0;

out_close:
	/*
	 * Whatever was posted will only flush now; the QP goes to the error
	 * state before anything else is sent, so the MRs reach nothing.
	 */
	rpcrdma2_ep_close(ep);
	return -ENOTCONN;
}

/**
 * rpcrdma2_frwr_unmap_async - invalidate a request's MRs after its reply
 * @req: the request, its rqst pinned
 *
 * Context: the Receive completion of the reply.
 *
 * Return: %0 if it holds no MR: the caller completes the RPC.
 * %-EINPROGRESS if LOCAL_INV is posted: its completion releases the MRs
 * and calls rpcrdma2_reply_done(). %-ENOTCONN if LOCAL_INV could not be
 * posted: the connection is closing, but until its QP is in the error
 * state the server may still write the MRs' pages, so they stay mapped
 * on @req for teardown to release (rpcrdma2_frwr_reclaim()), and the
 * RPC must not complete.
 */
int rpcrdma2_frwr_unmap_async(struct rpcrdma2_req *req)
{
	if (list_empty(&req->rl_mrs))
		return 0;
	if (frwr2_post_localinv(req, frwr2_wc_localinv_done))
		return -ENOTCONN;
	return -EINPROGRESS;
}

/**
 * rpcrdma2_frwr_unmap_sync - invalidate the MRs of an RPC that had no reply
 * @r: the transport
 * @req: the request, about to be freed
 *
 * The server may still hold the rkeys of a killed or timed-out RPC, so
 * its pages are not freed before LOCAL_INV has completed, or the QP is
 * in the error state.
 *
 * Context: ->buf_free; process, may sleep. Takes @r's rx_mr_mutex.
 */
void rpcrdma2_frwr_unmap_sync(struct rpcrdma2_xprt *r,
			      struct rpcrdma2_req *req)
{
	might_sleep();
	/* only teardown empties the list concurrently: the mutex rechecks */
	if (list_empty_careful(&req->rl_mrs))
		return;
	mutex_lock(&r->rx_mr_mutex);
	if (!list_empty(&req->rl_mrs)) {
		bool posted = false;

		reinit_completion(&req->rl_inv_done);
		if (!READ_ONCE(req->rl_ep->re_qp_dead) &&
		    !frwr2_post_localinv(req, frwr2_wc_localinv_wake)) {
			wait_for_completion(&req->rl_inv_done);
			posted = true;
		}
		trace_xprtrdma2_unmap_sync(req->rl_rqst,
					   list_count_nodes(&req->rl_mrs),
					   posted);
		rpcrdma2_frwr_release_all(req);
	}
	req->rl_ep = NULL;
	mutex_unlock(&r->rx_mr_mutex);
}

/**
 * rpcrdma2_frwr_reclaim - take back the MRs requests hold on an endpoint
 * @r: the transport
 * @ep: the endpoint being torn down: QP in the error state and drained
 *
 * Context: rpcrdma2_ep_disconnect(), holding rx_mr_mutex.
 */
void rpcrdma2_frwr_reclaim(struct rpcrdma2_xprt *r, struct rpcrdma2_ep *ep)
{
	struct rpcrdma2_req *req;

	lockdep_assert_held(&r->rx_mr_mutex);
	spin_lock(&r->rx_reqs_lock);
	list_for_each_entry(req, &r->rx_reqs, rl_list) {
		/* no reply comes from @ep any more, and it is about to go */
		if (req->rl_sent_ep == ep)
			WRITE_ONCE(req->rl_sent_ep, NULL);
		if (req->rl_ep != ep)
			continue;
		rpcrdma2_frwr_release_all(req);
		req->rl_ep = NULL;
	}
	spin_unlock(&r->rx_reqs_lock);
}
