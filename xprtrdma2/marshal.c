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
#include <linux/hash.h>
#include <linux/highmem.h>
#include <linux/sunrpc/auth.h>
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

/**
 * rpcrdma2_copy_from_xdr - flatten an RPC message into a Send buffer
 * @dst: where it goes; room for all of it
 * @xdr: the message: head, pages, tail
 * @reduced: leave out the pages and their XDR roundup at the front of
 *	the tail (a Read chunk carries them: RFC 8166 §3.4.3, §3.4.5)
 */
void rpcrdma2_copy_from_xdr(u8 *dst, const struct xdr_buf *xdr, bool reduced)
{
	unsigned int base = xdr->page_base & ~PAGE_MASK;
	struct page **ppage = xdr->pages + (xdr->page_base >> PAGE_SHIFT);
	unsigned int left = reduced ? 0 : xdr->page_len;
	unsigned int skip = reduced ? xdr_pad_size(xdr->page_len) : 0;

	memcpy(dst, xdr->head[0].iov_base, xdr->head[0].iov_len);
	dst += xdr->head[0].iov_len;
	while (left) {
		unsigned int n = min_t(unsigned int, PAGE_SIZE - base, left);

		memcpy_from_page(dst, *ppage++, base, n);
		dst += n;
		left -= n;
		base = 0;
	}
	if (xdr->tail[0].iov_len > skip)
		memcpy(dst, (const u8 *)xdr->tail[0].iov_base + skip,
		       xdr->tail[0].iov_len - skip);
}

/*
 * Copy @len bytes of reply into the receive buffer from XDR offset
 * @offset on: into the head, the pages and the tail, in that order, as
 * the RPC decoders expect; what does not fit is cut off and the decoders
 * see a short reply.
 * Return: bytes copied.
 */
static unsigned int rpcrdma2_copy_to_xdr(struct xdr_buf *xdr,
					 unsigned int offset, const u8 *src,
					 unsigned int len)
{
	unsigned int hlen = xdr->head[0].iov_len;
	unsigned int plen = xdr->page_len;
	unsigned int tlen = xdr->tail[0].iov_len;
	unsigned int want = len, n;

	if (offset < hlen) {
		n = min(len, hlen - offset);
		memcpy((u8 *)xdr->head[0].iov_base + offset, src, n);
		src += n;
		len -= n;
		offset = hlen;
	}
	while (len && offset < hlen + plen) {
		unsigned int pos = xdr->page_base + (offset - hlen);

		n = min3(len, hlen + plen - offset,
			 (unsigned int)(PAGE_SIZE - offset_in_page(pos)));
		memcpy_to_page(xdr->pages[pos >> PAGE_SHIFT],
			       offset_in_page(pos), src, n);
		src += n;
		len -= n;
		offset += n;
	}
	if (len && offset < hlen + plen + tlen) {
		n = min(len, hlen + plen + tlen - offset);
		memcpy((u8 *)xdr->tail[0].iov_base + (offset - hlen - plen),
		       src, n);
		len -= n;
	}
	return want - len;
}

/* The version the inline threshold is judged by while negotiating */
static u32 rpcrdma2_threshold_vers(const struct rpcrdma2_ep *ep)
{
	if (ep->re_vers)
		return ep->re_vers;
	/* the server already told an earlier connection it speaks v1 only */
	return ep->re_try_vers == RPCRDMA2_VERS_1 ? RPCRDMA2_VERS_1 : 0;
}

/**
 * rpcrdma2_ep_set_inline - work out the inline thresholds again
 * @ep: an endpoint whose version, RFC 8797 thresholds or server
 *	properties have just changed
 *
 * Every Call reads them; they change only when the connection starts,
 * when its version is settled or falls back, and when the server's
 * RDMA2_CONNPROP arrives. They are published for mountstats too.
 *
 * Context: the connect worker, or the Receive completion that changed
 * them, before any Call they apply to is marshaled.
 */
void rpcrdma2_ep_set_inline(struct rpcrdma2_ep *ep)
{
	struct rpcrdma2_xprt *r = ep->re_xprt;
	u32 send, recv, recv_def;

	send = rpcrdma2_send_threshold(rpcrdma2_threshold_vers(ep),
				       ep->re_v1_send, ep->re_peer_rbsiz,
				       ep->re_send_size);
	recv = rpcrdma2_recv_threshold(ep->re_vers, ep->re_v1_recv,
				       ep->re_recv_size,
				       ep->re_rbsiz_known &&
				       !ep->re_rbsiz_refused);
	recv_def = rpcrdma2_recv_threshold(ep->re_vers, ep->re_v1_recv,
					   ep->re_recv_size, false);
	WRITE_ONCE(ep->re_inline_send, send);
	WRITE_ONCE(ep->re_inline_recv, recv);
	WRITE_ONCE(ep->re_inline_recv_def, recv_def);
	WRITE_ONCE(r->rx_vers, ep->re_vers);
	WRITE_ONCE(r->rx_send_inline, send);
	WRITE_ONCE(r->rx_recv_inline, recv);
}

/*
 * RFC 8166 §3.4.1 leaves DDP-eligibility to the Upper-Layer Binding; the
 * NFS client marks the eligible items (XDRBUF_READ / XDRBUF_WRITE, RFC
 * 8267 §4.2). Not under RPCSEC_GSS integrity or privacy, whose wrapping
 * covers the payload (RPCAUTH_AUTH_DATATOUCH).
 */
static bool rpcrdma2_ddp_allowed(const struct rpc_rqst *rqst)
{
	const struct rpc_cred *cred = rqst->rq_cred;

	return cred && cred->cr_auth &&
	       !test_bit(RPCAUTH_AUTH_DATATOUCH, &cred->cr_auth->au_flags);
}

/* A Call's Read chunk holds the whole Call: a Long Call (RFC 8166 §3.5.1) */
static bool rpcrdma2_is_long_call(const struct rpcrdma2_req *req)
{
	return req->rl_nr_reads && !req->rl_reads[0].position;
}

/*
 * A receive buffer with XDRBUF_SPARSE_PAGES leaves its pages to the
 * transport (as xprtsock does); the upper layer frees them.
 */
static int rpcrdma2_fill_sparse(struct xdr_buf *xdr)
{
	unsigned int i, first, last;

	if (!(xdr->flags & XDRBUF_SPARSE_PAGES) || !xdr->page_len)
		return 0;
	first = xdr->page_base >> PAGE_SHIFT;
	last = (xdr->page_base + xdr->page_len - 1) >> PAGE_SHIFT;
	for (i = first; i <= last; i++) {
		if (xdr->pages[i])
			continue;
		xdr->pages[i] = alloc_page(GFP_NOWAIT | __GFP_NOWARN);
		if (!xdr->pages[i])
			return -ENOMEM;
	}
	return 0;
}

/*
 * The chunks a Call registered, in the header (RFC 8166 §4.2.1). A Call
 * offers a Write chunk or a Reply chunk, never both
 * (rpcrdma2_prepare_reply()), so the segments of the one it offers are
 * the header's, where the request keeps them.
 */
static void rpcrdma2_hdr_chunks(struct rpcrdma2_hdr *hdr,
				struct rpcrdma2_req *req, u32 vers,
				struct rpcrdma2_chunk *wch)
{
	struct rpcrdma2_chunk_lists *cl = &hdr->cl;
	u32 nw = req->rl_nr_write, nr = req->rl_nr_reply;

	cl->reads = req->rl_reads;
	cl->reads_cap = req->rl_nr_reads;
	cl->nr_reads = req->rl_nr_reads;
	wch->first = 0;
	wch->nsegs = nw;
	cl->writes = wch;
	cl->writes_cap = 1;
	cl->nr_writes = nw ? 1 : 0;
	cl->segs = nr ? req->rl_reply : req->rl_write;
	cl->segs_cap = nw + nr;
	cl->nr_segs = nw + nr;
	cl->has_reply = nr != 0;
	cl->reply.first = 0;
	cl->reply.nsegs = nr;
	/*
	 * draft §3.3: one handle the server may invalidate with Send With
	 * Invalidate; we ask for the first MR of the Reply chunk, else of
	 * the Write chunk, else of the Read chunk. v1 has no such field:
	 * the R bit of our private data says so (RFC 8797 §4.1).
	 */
	if (vers != RPCRDMA2_VERS_2)
		cl->inv_handle = 0;
	else if (nr)
		cl->inv_handle = req->rl_reply[0].handle;
	else if (nw)
		cl->inv_handle = req->rl_write[0].handle;
	else if (req->rl_nr_reads)
		cl->inv_handle = req->rl_reads[0].seg.handle;
	else
		cl->inv_handle = 0;
}

/*
 * Write the transport header and, inline, the Call into @buf, using the
 * chunks already registered for @rqst: a Long Call (a Position-Zero
 * Read chunk) goes as RDMA_NOMSG / RDMA2_NOMSG (RFC 8166 §4.3.1, draft
 * §5.3.2), anything else as RDMA_MSG / RDMA2_MSG, without its payload
 * when a Read chunk carries that.
 * Return: bytes to send, or -EMSGSIZE if the Call does not fit inline.
 */
static int rpcrdma2_marshal(struct rpcrdma2_ep *ep, struct rpc_rqst *rqst,
			    u32 vers, void *buf)
{
	struct rpcrdma2_req *req = rpcrdma2_rqst_to_req(rqst);
	const struct xdr_buf *xdr = &rqst->rq_snd_buf;
	/*
	 * Not cleared, not even by CONFIG_INIT_STACK_ALL_ZERO (Debian's
	 * kernels set it): 168 bytes per Call, and every field
	 * rpcrdma2_encode() and the tracepoint read is set below.
	 */
	struct rpcrdma2_hdr hdr __uninitialized;
	struct rpcrdma2_chunk wch;
	bool reduced = req->rl_nr_reads != 0;
	u32 rpc_len = xdr->len;
	int len;

	hdr.xid = be32_to_cpu(rqst->rq_xid);
	hdr.vers = vers;
	hdr.flags = 0;
	/* RFC 8166 §3.3.1: a requester asks for what it can use */
	hdr.credits = ep->re_max_requests;
	hdr.htype = rpcrdma2_is_long_call(req) ? RPCRDMA2_HT_NOMSG :
						 RPCRDMA2_HT_MSG;
	if (WARN_ON_ONCE(req->rl_nr_write && req->rl_nr_reply))
		return -EIO;
	rpcrdma2_hdr_chunks(&hdr, req, vers, &wch);
	len = rpcrdma2_encode(&hdr, buf, ep->re_send_size);
	if (WARN_ON_ONCE(len < 0))
		return -EIO;
	if (hdr.htype == RPCRDMA2_HT_NOMSG) {
		rpcrdma2_trace_hot(xprtrdma2_hdr_send, &hdr);
		return len;
	}
	/* RFC 8166 §3.4.3: the payload and its roundup leave the stream */
	if (reduced)
		rpc_len = xdr->head[0].iov_len + xdr->tail[0].iov_len -
			  xdr_pad_size(xdr->page_len);
	if (rpcrdma2_use_long_call(len + rpc_len,
				   READ_ONCE(ep->re_inline_send)))
		return -EMSGSIZE;
	rpcrdma2_copy_from_xdr((u8 *)buf + len, xdr, reduced);
	rpcrdma2_trace_hot(xprtrdma2_hdr_send, &hdr);
	return len + rpc_len;
}

/* The slot of @tag in &rpcrdma2_xprt.rx_guess: its top bits, hash_32's best */
static u32 rpcrdma2_guess_slot(u32 tag)
{
	return tag >> (32 - RPCRDMA2_GUESS_BITS);
}

/*
 * A Call needs a Reply chunk by its buffer's size: on a version 2
 * connection leave it out if the replies of the Call's procedure have
 * been small (xprt_rdma2.h has why that is safe). Every such Call's reply
 * teaches the guess (rpcrdma2_guess_learn()).
 */
static bool rpcrdma2_guess_reply(struct rpcrdma2_ep *ep,
				 struct rpcrdma2_req *req,
				 const struct rpc_rqst *rqst)
{
	struct rpcrdma2_xprt *r = ep->re_xprt;
	u32 tag;

	if (READ_ONCE(ep->re_vers) != RPCRDMA2_VERS_2 || req->rl_no_guess ||
	    !READ_ONCE(xprt_rdma2_guess_replies))
		return false;
	/* the procedure, not the call: its rpc_procinfo is static */
	tag = hash_ptr(rqst->rq_task->tk_msg.rpc_proc, 32) | 1;
	req->rl_guess_tag = tag;
	if (!rpcrdma2_guess_inline(READ_ONCE(r->rx_guess[rpcrdma2_guess_slot(tag)]),
				   tag))
		return false;
	req->rl_guessed = true;
	return true;
}

/*
 * What the reply to a Call says of its procedure's guesses, if
 * rpcrdma2_guess_reply() looked at the Call
 */
static __always_inline void
rpcrdma2_guess_learn(struct rpcrdma2_ep *ep, const struct rpcrdma2_req *req,
		     enum rpcrdma2_guess_outcome outcome)
{
	u64 *rec, old, new;

	if (!req->rl_guess_tag)
		return;
	rec = &ep->re_xprt->rx_guess[rpcrdma2_guess_slot(req->rl_guess_tag)];
	old = READ_ONCE(*rec);
	new = rpcrdma2_guess_next(old, req->rl_guess_tag, outcome);

	/* a procedure at the cap stops writing the shared line */
	if (new != old)
		WRITE_ONCE(*rec, new);
}

/* ... for a reply of @rpc_len bytes (untrusted) */
static __always_inline void
rpcrdma2_guess_learn_len(struct rpcrdma2_ep *ep, const struct rpcrdma2_req *req,
			 u32 rpc_len)
{
	/* most replies answer a Call that did not look: nothing to weigh */
	if (!req->rl_guess_tag)
		return;
	rpcrdma2_guess_learn(ep, req,
			     rpcrdma2_guess_fits(rpc_len,
						 READ_ONCE(ep->re_inline_recv)) ?
			     RPCRDMA2_GUESS_FIT : RPCRDMA2_GUESS_LARGE);
}

/*
 * The chunk for the largest reply, if it may not fit inline (RFC 8166
 * §3.5.3): a Write chunk for the payload pages of a READ whose other
 * bytes fit inline (§3.4.6), else a Reply chunk for the whole reply,
 * unless the Call guesses that its reply will come inline. A Call that
 * goes without a chunk the default RBSIZ would have needed counts on the
 * server having read ours (rpcrdma2_rbsiz_refused()).
 */
static int rpcrdma2_prepare_reply(struct rpcrdma2_ep *ep,
				  struct rpc_rqst *rqst,
				  struct rpcrdma2_regchain *chain)
{
	struct rpcrdma2_req *req = rpcrdma2_rqst_to_req(rqst);
	struct xdr_buf *rcv = &rqst->rq_rcv_buf;
	u32 nonpayload = rcv->head[0].iov_len + rcv->tail[0].iov_len;
	u32 threshold, def;
	int ret;

	threshold = READ_ONCE(ep->re_inline_recv);
	def = READ_ONCE(ep->re_inline_recv_def);
	if (!rpcrdma2_use_reply_chunk(rcv->buflen, threshold)) {
		req->rl_rbsiz = rpcrdma2_use_reply_chunk(rcv->buflen, def);
		return 0;
	}
	if (!(READ_ONCE(req->rl_ddp_off) & RPCRDMA2_DDP_WRITE) &&
	    (rcv->flags & XDRBUF_READ) && rcv->page_len &&
	    rpcrdma2_ddp_allowed(rqst) &&
	    rpcrdma2_use_write_chunk(nonpayload, threshold)) {
		ret = rpcrdma2_frwr_map(ep, req, rcv,
					RPCRDMA2_MAP_PAGES | RPCRDMA2_MAP_WRITABLE,
					req->rl_write, &req->rl_nr_write, chain);
		if (!ret) {
			req->rl_rbsiz = !rpcrdma2_use_write_chunk(nonpayload,
								  def);
			rpcrdma2_count(ep->re_xprt, RPCRDMA2_C_WRITE_CHUNKS, 1);
			trace_xprtrdma2_write_chunk(rqst, rcv->page_len,
						    req->rl_nr_write);
		}
		return ret;
	}
	if (rpcrdma2_guess_reply(ep, req, rqst))
		return 0;
	return rpcrdma2_frwr_map(ep, req, rcv, RPCRDMA2_MAP_WRITABLE,
				 req->rl_reply, &req->rl_nr_reply, chain);
}

/*
 * A Call that does not fit inline: a Read chunk for the payload pages
 * of a WRITE (or SYMLINK) whose other bytes fit inline, at the payload's
 * XDR position (RFC 8166 §3.4.5), else a Position-Zero Read chunk with
 * the whole Call (§3.5.1).
 */
static int rpcrdma2_prepare_call(struct rpcrdma2_ep *ep,
				 struct rpc_rqst *rqst, u32 vers,
				 struct rpcrdma2_regchain *chain)
{
	struct rpcrdma2_req *req = rpcrdma2_rqst_to_req(rqst);
	const struct xdr_buf *xdr = &rqst->rq_snd_buf;
	/* only the nsegs the mapping fills are read: no clear per Call */
	struct rpcrdma2_seg segs[RPCRDMA2_MAX_CHUNK_MRS] __uninitialized;
	u32 pad = xdr_pad_size(xdr->page_len);
	u32 position = 0, nsegs = 0, i;
	bool ddp;
	int ret;

	ddp = !((READ_ONCE(req->rl_ddp_off) | READ_ONCE(ep->re_ddp_off)) &
		RPCRDMA2_DDP_READ) &&
	      (xdr->flags & XDRBUF_WRITE) && xdr->page_len &&
	      xdr->tail[0].iov_len >= pad && rpcrdma2_ddp_allowed(rqst) &&
	      rpcrdma2_use_read_chunk(xdr->head[0].iov_len +
				      xdr->tail[0].iov_len - pad,
				      READ_ONCE(ep->re_inline_send));
	if (ddp) {
		position = xdr->head[0].iov_len;
		ret = rpcrdma2_frwr_map(ep, req, xdr, RPCRDMA2_MAP_PAGES, segs,
					&nsegs, chain);
	} else {
		ret = rpcrdma2_frwr_map(ep, req, xdr, 0, segs, &nsegs, chain);
	}
	if (ret)
		return ret;
	for (i = 0; i < nsegs; i++) {
		req->rl_reads[i].position = position;
		req->rl_reads[i].seg = segs[i];
	}
	req->rl_nr_reads = nsegs;
	/* counted once the Send is posted: a Call may be marshaled again */
	if (ddp)
		trace_xprtrdma2_read_chunk(rqst, xdr->page_len, position);
	else
		trace_xprtrdma2_long_call(rqst, vers, xdr->len);
	return 0;
}

/*
 * Register the chunks @rqst needs on @ep, appending their REG_MRs to
 * @chain: a Write or Reply chunk if the largest reply may not fit inline,
 * and a Read chunk if the Call does not fit. Then write the header and
 * the Call into @buf.
 * Return: bytes to send, or a negative errno (the request's MRs, none
 * posted, are then released).
 */
static int rpcrdma2_prepare(struct rpcrdma2_ep *ep, struct rpc_rqst *rqst,
			    u32 vers, void *buf,
			    struct rpcrdma2_regchain *chain)
{
	struct rpcrdma2_xprt *r = ep->re_xprt;
	struct rpcrdma2_req *req = rpcrdma2_rqst_to_req(rqst);
	const struct xdr_buf *xdr = &rqst->rq_snd_buf;
	int len = 0, ret = 0;

	/* a new transmission: what an earlier one registered was reclaimed */
	if (WARN_ON_ONCE(!list_empty(&req->rl_mrs)))
		rpcrdma2_frwr_release_all(req);
	/*
	 * A Call that guessed goes again without an answer that let it (a
	 * timeout, a reconnect: a server may drop a reply it cannot send):
	 * this time with the Reply chunk.
	 */
	if (req->rl_guessed)
		req->rl_no_guess = true;
	req->rl_nr_reads = 0;
	req->rl_nr_write = 0;
	req->rl_nr_reply = 0;
	req->rl_guess_tag = 0;
	req->rl_guessed = false;
	req->rl_rbsiz = false;
	req->rl_ep = NULL;
	if (xdr->head[0].iov_len + xdr->page_len + xdr->tail[0].iov_len !=
	    xdr->len) {
		ret = -EMSGSIZE;
		goto out_release;
	}
	ret = rpcrdma2_fill_sparse(&rqst->rq_rcv_buf);
	if (ret)
		goto out_release;
	ret = rpcrdma2_prepare_reply(ep, rqst, chain);
	if (ret)
		goto out_release;
	len = rpcrdma2_marshal(ep, rqst, vers, buf);
	if (len != -EMSGSIZE) {
		if (len < 0)
			goto out_release;
		goto out;
	}
	ret = rpcrdma2_prepare_call(ep, rqst, vers, chain);
	if (ret)
		goto out_release;
	len = rpcrdma2_marshal(ep, rqst, vers, buf);
	if (len < 0)
		goto out_release;
out:
	return len;

out_release:
	rpcrdma2_frwr_release_all(req);
	req->rl_ep = NULL;
	if ((ret ?: len) == -EMSGSIZE) {
		rpcrdma2_count(r, RPCRDMA2_C_TOO_BIG, 1);
		trace_xprtrdma2_too_big(rqst, xdr->len,
					rqst->rq_rcv_buf.buflen);
	}
	return ret ?: len;
}

/*
 * draft §7.2: "A client can assume the same situation (no server support
 * for RPC-over-RDMA version 2) if the initial negotiation message is
 * lost or dropped." Give the first v2 Call RPCRDMA2_PROBE_TO, or half
 * its RPC's timeout if shorter, so that the probe ends before the RPC
 * timeout closes the connection (that would only probe again).
 */
static void rpcrdma2_probe_arm(struct rpcrdma2_ep *ep,
			       const struct rpc_rqst *rqst)
{
	unsigned long delay = min_t(unsigned long, RPCRDMA2_PROBE_TO,
				    rqst->rq_timeout / 2);

	mod_delayed_work(system_wq, &ep->re_probe_work, max(delay, 1UL));
}

/**
 * rpcrdma2_probe_expired - the first version 2 Call went unanswered
 * @work: the endpoint's re_probe_work
 *
 * The server takes no version 2 (draft §7.2): every later connection
 * of this transport starts in version 1. This one is closed; its Calls
 * go again on the next. An answer that raced with us costs only that.
 *
 * Context: process (system_wq); rpcrdma2_ep_disconnect() cancels it
 * before the endpoint is freed.
 */
void rpcrdma2_probe_expired(struct work_struct *work)
{
	struct rpcrdma2_ep *ep = container_of(to_delayed_work(work),
					      struct rpcrdma2_ep,
					      re_probe_work);
	struct rpcrdma2_xprt *r = ep->re_xprt;

	if (READ_ONCE(ep->re_vers) || atomic_read(&ep->re_closing))
		return;
	WRITE_ONCE(r->rx_v2_silent, true);
	trace_xprtrdma2_probe_expired(ep);
	rpcrdma2_ep_close(ep);
}

/**
 * rpcrdma2_send_call - send one Call
 * @r: the transport
 * @rqst: the Call, XDR-encoded in rq_snd_buf
 *
 * Registers the chunks the Call needs (Reply chunk, Long Call) and posts
 * their REG_MRs and the Send in one chain.
 *
 * Context: the caller holds the transport's send lock and a credit.
 *
 * Return: %0 when the Send is posted; %-EAGAIN when every Send context
 * or Send Queue entry is in flight (the task waits for write space);
 * %-EAGAIN also when no MR is idle and the pool is growing (the task
 * waits for the refill); %-EMSGSIZE when the Call needs more MRs than a
 * chunk may have; %-ENOMEM or %-ENOBUFS when pages, MRs or a new Send
 * buffer are short for now (the task retries after a delay);
 * %-ENOTCONN when there is no connection, or registration failed.
 */
int rpcrdma2_send_call(struct rpcrdma2_xprt *r, struct rpc_rqst *rqst)
{
	struct rpcrdma2_req *req = rpcrdma2_rqst_to_req(rqst);
	struct rpcrdma2_ep *ep = r->rx_ep;
	struct rpcrdma2_regchain chain = {};
	struct rpcrdma2_sendctx *sc;
	u32 vers;
	int len, ret;

	if (!ep || atomic_read(&ep->re_closing))
		return -ENOTCONN;
	sc = rpcrdma2_sendctx_get(ep);
	if (!sc) {
		/* none in flight to wait for: a new one's memory was short */
		if (ep->re_sendctxs_made < ep->re_nr_sendctxs)
			return -ENOMEM;
		xprt_wait_for_buffer_space(&r->rx_xprt);
		/* a Send may have completed before the bit was set */
		sc = rpcrdma2_sendctx_get(ep);
		if (!sc) {
			rpcrdma2_count(r, RPCRDMA2_C_NO_SENDCTX, 1);
			return -EAGAIN;
		}
		/* nobody need wait after all: clear the bit */
		xprt_write_space(&r->rx_xprt);
	}
	vers = ep->re_vers ?: ep->re_try_vers;
	chain.next = &chain.first;
	len = rpcrdma2_prepare(ep, rqst, vers, sc->sc_buf, &chain);
	if (len < 0) {
		llist_add(&sc->sc_free, &ep->re_send_free);
		if (len == -EAGAIN || len == -ENOBUFS)
			rpcrdma2_count(r, RPCRDMA2_C_NO_MRS, 1);
		if (len == -EAGAIN) {
			/* no idle MR: the pool's refill wakes us */
			xprt_wait_for_buffer_space(&r->rx_xprt);
			/* pairs with the barrier in frwr2_refill_worker() */
			smp_mb__after_atomic();
			if (rpcrdma2_frwr_have_idle(ep))
				xprt_write_space(&r->rx_xprt);
			return -EAGAIN;
		}
		/* the RPC fails, or waits a moment and tries again */
		if (len == -EMSGSIZE || len == -ENOMEM || len == -ENOBUFS)
			return len;
		/* a mapping error: a new connection */
		return -ENOTCONN;
	}
	if (!ep->re_vers && !ep->re_first_sent) {
		ep->re_first_xid = be32_to_cpu(rqst->rq_xid);
		ep->re_first_sent = true;
		if (vers == RPCRDMA2_VERS_2)
			rpcrdma2_probe_arm(ep, rqst);
	}
	trace_xprtrdma2_call(rqst, vers, len);
	/* before the post: the reply may come before it returns */
	WRITE_ONCE(req->rl_sent_ep, ep);
	ret = rpcrdma2_post_send(ep, sc, len, &chain);
	if (ret) {
		WRITE_ONCE(req->rl_sent_ep, NULL);
	} else {
		/* posted: a Call that could not be is marshaled again */
		rpcrdma2_count(r, RPCRDMA2_C_REPLY_CHUNKS, !!req->rl_nr_reply);
		rpcrdma2_count(r, RPCRDMA2_C_REPLY_GUESSES, req->rl_guessed);
		rpcrdma2_count(r, RPCRDMA2_C_CALLS_INLINE,
			       !rpcrdma2_is_long_call(req));
		if (req->rl_nr_reads)
			rpcrdma2_count(r, rpcrdma2_is_long_call(req) ?
				       RPCRDMA2_C_LONG_CALLS :
				       RPCRDMA2_C_READ_CHUNKS, 1);
	}
	if (ret == -EAGAIN) {
		/* nothing was posted: the MRs were never registered */
		rpcrdma2_frwr_release_all(req);
		xprt_wait_for_buffer_space(&r->rx_xprt);
		/*
		 * Entries given back before the bit was set woke nobody, and
		 * none may be in flight to give more: look again.
		 */
		if (atomic_read(&ep->re_sq_avail) >= (int)(1 + chain.count))
			xprt_write_space(&r->rx_xprt);
	}
	return ret;
}

/**
 * rpcrdma2_send_connprop - send our RDMA2_CONNPROP
 * @ep: an endpoint whose version has just become 2
 *
 * draft §5.3.4: RBSIZ is our real Receive buffer size; BRS (§4.2.2) is
 * RPCRDMA2_RVREQSUP_INLINE: we take reverse-direction Calls, inline
 * only (backchannel.c). We send it as a
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
	hdr.props.brs = RPCRDMA2_RVREQSUP_INLINE;
	len = rpcrdma2_encode(&hdr, sc->sc_buf, ep->re_send_size);
	if (WARN_ON_ONCE(len < 0)) {
		llist_add(&sc->sc_free, &ep->re_send_free);
		return;
	}
	trace_xprtrdma2_hdr_send(&hdr);
	if (!rpcrdma2_post_send(ep, sc, len, NULL))
		rpcrdma2_count(r, RPCRDMA2_C_CONNPROP_SENT, 1);
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
	/* a server that names its own RBSIZ is taken to read ours */
	if (hdr->props.present & RPCRDMA2_PROPF_RBSIZ)
		ep->re_rbsiz_known = true;
	ep->re_peer_brs = hdr->props.brs;
	trace_xprtrdma2_connprop_recv(ep, &hdr->props);
	rpcrdma2_ep_set_inline(ep);
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

	WRITE_ONCE(ep->re_vers, RPCRDMA2_VERS_1);
	cancel_delayed_work(&ep->re_probe_work);
	/* until a v1 reply comes, a reconnect does not ask for v2 again */
	WRITE_ONCE(r->rx_v1_next, true);
	rpcrdma2_count(r, RPCRDMA2_C_FALLBACKS, 1);
	rpcrdma2_ep_set_inline(ep);
	trace_xprtrdma2_fallback(rqst, RPCRDMA2_VERS_1);
	sc = rpcrdma2_sendctx_get(ep);
	if (!sc)
		goto out_close;
	/* the chunks registered for the first try serve the resend */
	len = rpcrdma2_marshal(ep, rqst, RPCRDMA2_VERS_1, sc->sc_buf);
	if (len < 0) {
		llist_add(&sc->sc_free, &ep->re_send_free);
		goto out_close;
	}
	/* the ERR_VERS was this Send's answer; the resend waits for its own */
	WRITE_ONCE(rpcrdma2_rqst_to_req(rqst)->rl_sent_ep, ep);
	if (rpcrdma2_post_send(ep, sc, len, NULL)) {
		WRITE_ONCE(rpcrdma2_rqst_to_req(rqst)->rl_sent_ep, NULL);
		goto out_close;
	}
	return;

out_close:
	/* the Call goes again, in v1, on the next connection */
	rpcrdma2_ep_close(ep);
}

/*
 * Servers grant the same credits reply after reply: take the transport
 * lock only when the window changes. Only the connect worker sets it
 * otherwise, with no Receive completion running.
 */
static void rpcrdma2_update_cwnd(struct rpcrdma2_xprt *r, u32 grant)
{
	struct rpc_xprt *xprt = &r->rx_xprt;
	unsigned long cwnd = (unsigned long)grant << RPC_CWNDSHIFT;

	if (READ_ONCE(xprt->cwnd) == cwnd)
		return;
	spin_lock(&xprt->transport_lock);
	xprt->cwnd = cwnd;
	spin_unlock(&xprt->transport_lock);
}

/*
 * RDMA_NOMSG / RDMA2_NOMSG: the server wrote the reply into the Reply
 * chunk we offered (RFC 8166 §3.5.3, §4.3.2) and returns that chunk with
 * the lengths it wrote. Untrusted: it must be our chunk, else the RPC
 * fails rather than reading bytes nobody wrote.
 */
static int rpcrdma2_reply_chunk(struct rpcrdma2_rep *rep,
				struct rpc_rqst *rqst)
{
	const struct rpcrdma2_chunk_lists *cl = &rep->rr_hdr.cl;
	struct rpcrdma2_req *req = rpcrdma2_rqst_to_req(rqst);
	u32 written;

	if (cl->has_reply && !cl->nr_writes &&
	    !rpcrdma2_chunk_check(req->rl_reply, req->rl_nr_reply,
				  &cl->segs[cl->reply.first], cl->reply.nsegs,
				  &written)) {
		rpcrdma2_guess_learn_len(rep->rr_ep, req, written);
		return written;
	}
	rpcrdma2_count(rep->rr_ep->re_xprt, RPCRDMA2_C_BAD_REPLY_CHUNKS, 1);
	trace_xprtrdma2_bad_reply_chunk(rqst, cl->has_reply ?
					cl->reply.nsegs : 0,
					req->rl_nr_reply);
	return -EIO;
}

/* Shorten the head of both copies of the receive buffer (call_decode()) */
static void rpcrdma2_trim_head(struct rpc_rqst *rqst, u32 trim)
{
	rqst->rq_rcv_buf.head[0].iov_len -= trim;
	rqst->rq_rcv_buf.buflen -= trim;
	rqst->rq_private_buf.head[0].iov_len -= trim;
	rqst->rq_private_buf.buflen -= trim;
}

/*
 * A reply with no Write list moved nothing: all of it is inline, and
 * what does not fit is cut off, so the decoders see a short reply
 * (rpcrdma2_copy_to_xdr()). It teaches the guess.
 * Return: bytes of it the receive buffer takes.
 */
static __always_inline int rpcrdma2_reply_whole(struct rpcrdma2_rep *rep,
						struct rpcrdma2_req *req)
{
	const struct xdr_buf *buf = &req->rl_rqst->rq_private_buf;
	u32 len = rep->rr_hdr.rpc_len;

	rpcrdma2_guess_learn_len(rep->rr_ep, req, len);
	return min_t(u32, len, buf->head[0].iov_len + buf->page_len +
			       buf->tail[0].iov_len);
}

/*
 * RDMA_MSG / RDMA2_MSG: the RPC reply inline, and if the Call offered a
 * Write chunk, maybe its payload pushed into our pages (RFC 8166 §3.4.6,
 * §4.3.2). Work out where the inline bytes go around the payload, as
 * rpcrdma2_ddp_layout() says, and set them aside in the Receive: they
 * are copied once no MR of the RPC is mapped (rpcrdma2_reply_done()).
 * Untrusted: a Write list must be the chunk we offered, the reply must
 * fit the buffer.
 */
static int rpcrdma2_reply_msg(struct rpcrdma2_rep *rep, struct rpc_rqst *rqst)
{
	const struct rpcrdma2_hdr *hdr = &rep->rr_hdr;
	const struct rpcrdma2_chunk_lists *cl = &hdr->cl;
	struct rpcrdma2_req *req = rpcrdma2_rqst_to_req(rqst);
	struct xdr_buf *buf = &rqst->rq_private_buf;
	u32 len = hdr->rpc_len, written = 0, pos = len;
	int total;

	if (!cl->nr_writes) {
		total = rpcrdma2_reply_whole(rep, req);
		goto out_set_aside;
	}
	/* a Write list we never offered (none to match) fails here too */
	if (cl->nr_writes != 1 || cl->has_reply ||
	    rpcrdma2_chunk_check(req->rl_write, req->rl_nr_write,
				 &cl->segs[cl->writes[0].first],
				 cl->writes[0].nsegs, &written))
		goto out_bad;
	total = rpcrdma2_ddp_layout(len, buf->head[0].iov_len, written,
				    buf->buflen, &pos);
	if (total < 0)
		goto out_bad;
	rpcrdma2_trim_head(rqst, buf->head[0].iov_len - pos);
	rpcrdma2_count(rep->rr_ep->re_xprt, RPCRDMA2_C_WRITE_BYTES, written);
	trace_xprtrdma2_write_chunk_done(rqst, written, pos);
out_set_aside:
	req->rl_copy_pos = pos;
	req->rl_copy_written = written;
	refcount_inc(&rep->rr_ref);
	req->rl_rep = rep;
	return total;

out_bad:
	rpcrdma2_count(rep->rr_ep->re_xprt, RPCRDMA2_C_BAD_REPLY_CHUNKS, 1);
	trace_xprtrdma2_bad_write_list(rqst, cl->nr_writes,
				       req->rl_nr_write);
	return -EIO;
}

/*
 * Copy the inline bytes of @rep into @req's receive buffer: the first
 * @pos, then (after @written bytes of a Write chunk's payload) its XDR
 * roundup, which the server left out (RFC 8166 §3.4.6), and the rest.
 */
static __always_inline void rpcrdma2_reply_place(struct rpcrdma2_req *req,
						 const struct rpcrdma2_rep *rep,
						 u32 pos, u32 written)
{
	static const u8 zero[4];
	struct rpc_rqst *rqst = req->rl_rqst;
	struct xdr_buf *buf = &rqst->rq_private_buf;
	const u8 *src = (const u8 *)rep->rr_buf + rep->rr_hdr.hdr_len;
	u32 len = rep->rr_hdr.rpc_len, end = pos + written;
	u32 pad = xdr_pad_size(written);

	rpcrdma2_copy_to_xdr(buf, 0, src, pos);
	/* the roundup and the rest after a Write chunk's payload, if any */
	if (pad)
		rpcrdma2_copy_to_xdr(buf, end, zero, pad);
	if (pos < len)
		rpcrdma2_copy_to_xdr(buf, end + pad, src + pos, len - pos);
	rpcrdma2_trace_hot(xprtrdma2_reply_copy, rqst, len,
			   req->rl_nr_reply + req->rl_nr_write);
}

/*
 * Copy the inline bytes rpcrdma2_reply_msg() set aside into the receive
 * buffer. The Receive is then free to be posted again.
 */
static void rpcrdma2_reply_copy(struct rpcrdma2_req *req)
{
	struct rpcrdma2_rep *rep = req->rl_rep;

	req->rl_rep = NULL;
	rpcrdma2_reply_place(req, rep, req->rl_copy_pos,
			     req->rl_copy_written);
	rpcrdma2_rep_put(rep);
}

/*
 * LOCAL_INV for the RPC a reply answers could not be posted
 * (rpcrdma2_frwr_unmap_async()): its pages stay open to the server until
 * teardown has drained the QP, so the RPC must not complete. It is
 * unpinned with its reply dropped and waits on; the close wakes it, and
 * sunrpc sends it again on the next connection, as every Call that a
 * lost connection left unanswered.
 */
static void rpcrdma2_reply_abandon(struct rpcrdma2_req *req)
{
	struct rpc_rqst *rqst = req->rl_rqst;
	struct rpc_xprt *xprt = rqst->rq_xprt;

	trace_xprtrdma2_linv_failed(rqst, list_count_nodes(&req->rl_mrs), 0);
	if (req->rl_rep) {
		rpcrdma2_rep_put(req->rl_rep);
		req->rl_rep = NULL;
	}
	spin_lock(&xprt->queue_lock);
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
}

/*
 * RDMA2_ERR_REPLY_RESOURCE to a Call that counted on the server having
 * read our RBSIZ. It has not (draft §5.3.4: it need not take note of
 * our properties, though its own RDMA2_CONNPROP knew RBSIZ), or it
 * cannot send as much as its private data's Send Size said. Either way
 * the default holds for the rest of the connection: the Call goes again
 * with the chunk that default needs, as do the Calls after it.
 */
static void rpcrdma2_rbsiz_refused(struct rpcrdma2_ep *ep,
				   const struct rpc_rqst *rqst)
{
	u32 before = READ_ONCE(ep->re_inline_recv);

	rpcrdma2_count(ep->re_xprt, RPCRDMA2_C_RBSIZ_REFUSED, 1);
	if (ep->re_rbsiz_refused)
		return;
	ep->re_rbsiz_refused = true;
	rpcrdma2_ep_set_inline(ep);
	trace_xprtrdma2_rbsiz_refused(rqst, before,
				      READ_ONCE(ep->re_inline_recv));
}

/*
 * An RDMA2_ERROR / RDMA_ERROR answers @rqst: draft §5.3.3 says which
 * Calls may go again without a DDP chunk, or with the Reply chunk a
 * guess left out (RDMA2_ERR_REPLY_RESOURCE); -EAGAIN has sunrpc encode
 * and send the RPC again (call_status()), with the same XID.
 */
static int rpcrdma2_reply_error(struct rpcrdma2_rep *rep,
				struct rpc_rqst *rqst)
{
	const struct rpcrdma2_hdr *hdr = &rep->rr_hdr;
	struct rpcrdma2_req *req = rpcrdma2_rqst_to_req(rqst);
	bool reply_only = !req->rl_nr_reads && !req->rl_nr_write;
	bool resource = hdr->err.code == RPCRDMA2_ERR_REPLY_RESOURCE;
	/*
	 * A reply larger than the whole receive buffer would have been
	 * refused at any RBSIZ and with any guess: that is the reply's
	 * fault (draft §5.3.3: rdma_length_needed is what a Reply chunk
	 * needs), and only the error below answers it.
	 */
	bool fits = resource && hdr->vers == RPCRDMA2_VERS_2 &&
		    hdr->err.length_needed <= rqst->rq_rcv_buf.buflen;
	bool rbsiz = fits && req->rl_rbsiz;
	u32 sent = 0, off, conn_off;

	rpcrdma2_count(rep->rr_ep->re_xprt, RPCRDMA2_C_ERRORS, 1);
	if (req->rl_nr_reads && !rpcrdma2_is_long_call(req))
		sent |= RPCRDMA2_DDP_READ;
	if (req->rl_nr_write)
		sent |= RPCRDMA2_DDP_WRITE;
	/* refused for our RBSIZ, not for its Write chunk: it keeps that */
	off = rbsiz ? 0 : rpcrdma2_error_resend(hdr->err.code, hdr->vers, sent);
	/* §5.3.3: "resend the request with no Write chunks and a Reply chunk" */
	if (off & RPCRDMA2_DDP_WRITE)
		req->rl_no_guess = true;
	if (resource)
		rpcrdma2_guess_learn(rep->rr_ep, req,
				     req->rl_guessed ? RPCRDMA2_GUESS_REFUSED :
						       RPCRDMA2_GUESS_LARGE);
	/*
	 * A Call that counted on our RBSIZ goes again with its chunk; so
	 * does a guess that failed, unless the reply would not fit the
	 * buffer either (the error below).
	 */
	if (rbsiz) {
		rpcrdma2_rbsiz_refused(rep->rr_ep, rqst);
	} else if (req->rl_guessed && fits) {
		req->rl_no_guess = true;
		rpcrdma2_count(rep->rr_ep->re_xprt,
			       RPCRDMA2_C_REPLY_GUESS_MISSES, 1);
	} else if (!off) {
		if (resource)
			trace_xprtrdma2_reply_resource(rqst,
						       hdr->err.length_needed,
						       rqst->rq_rcv_buf.buflen);
		return rpcrdma2_error_errno(&hdr->err, hdr->vers, reply_only,
					    rqst->rq_rcv_buf.buflen);
	}
	conn_off = rpcrdma2_error_conn_off(&hdr->err, hdr->vers);
	if (conn_off & ~READ_ONCE(rep->rr_ep->re_ddp_off)) {
		WRITE_ONCE(rep->rr_ep->re_ddp_off,
			   rep->rr_ep->re_ddp_off | conn_off);
		trace_xprtrdma2_ddp_off(rqst, hdr->err.code, conn_off);
	}
	WRITE_ONCE(req->rl_ddp_off, req->rl_ddp_off | off);
	/*
	 * The answer gave the Call's credit back: the resend may go on
	 * this connection (->send_request closes it only for a Call still
	 * outstanding there, rl_sent_ep). An answer that beats
	 * call_transmit_status() loses its -EAGAIN, and call_decode() then
	 * has an NFSv4 client (cl_discrtry) drop the connection of
	 * rq_connect_cookie: not this one. (xprt_request_transmit() sets
	 * the cookie after ->send_request returns and may undo this; that
	 * costs a reconnect, and only when the answer comes that fast.)
	 */
	WRITE_ONCE(rqst->rq_connect_cookie, rqst->rq_xprt->connect_cookie - 1);
	trace_xprtrdma2_resend(rqst, hdr->err.code, off);
	return -EAGAIN;
}

/* The reply's outcome for its Call: bytes of RPC reply, or an errno */
static int rpcrdma2_reply_status(struct rpcrdma2_rep *rep,
				 struct rpc_rqst *rqst)
{
	const struct rpcrdma2_hdr *hdr = &rep->rr_hdr;

	switch (hdr->htype) {
	case RPCRDMA2_HT_MSG:
		return rpcrdma2_reply_msg(rep, rqst);
	case RPCRDMA2_HT_NOMSG:
		return rpcrdma2_reply_chunk(rep, rqst);
	case RPCRDMA2_HT_ERROR:
		return rpcrdma2_reply_error(rep, rqst);
	default:
		return -EIO;
	}
}

/*
 * A useful answer in the connection's version, once its version verdict
 * is taken: what it says of the connection, before its RPC completes and
 * lets another Call out.
 */
static __always_inline void
rpcrdma2_answer_grant(struct rpcrdma2_ep *ep, const struct rpcrdma2_hdr *hdr)
{
	struct rpcrdma2_xprt *r = ep->re_xprt;

	/*
	 * draft §7.2: the fallback is complete, a v1 exchange has worked:
	 * the next connection asks for v2 again, which costs one ERR_VERS
	 * round trip, so a server upgraded meanwhile is used.
	 */
	if (ep->re_vers == RPCRDMA2_VERS_1 &&
	    hdr->htype != RPCRDMA2_HT_ERROR && READ_ONCE(r->rx_v1_next))
		WRITE_ONCE(r->rx_v1_next, false);
	/* the next reconnect need not wait */
	r->rx_xprt.reestablish_timeout = 0;
	if (hdr->htype != RPCRDMA2_HT_ERROR ||
	    ep->re_vers == RPCRDMA2_VERS_1)
		rpcrdma2_update_cwnd(r, rpcrdma2_credits(hdr->credits,
							 ep->re_max_requests));
}

/*
 * A reply in the connection's version answers @rqst: settle the version
 * if this is the first, take the grant, and get the RPC reply out.
 *
 * An RDMA2_ERROR does neither. draft §5.3.3: "The receiver of this
 * header type MUST ignore the value of the rdma_start.rdma_credits
 * field"; §7: one message at a time "until it receives a valid
 * non-error RPC-over-RDMA message from the server that grants client
 * credits". So while negotiating an error leaves the window at one and
 * the version open, and the next Call probes again. On a v1 connection
 * every message grants (RFC 8166 §3.3.1), RDMA_ERROR too. @granted says
 * the reply handler took the grant already, before its lookup.
 * Return: bytes of RPC reply for the Call, or the errno it fails with.
 */
static int rpcrdma2_answer(struct rpcrdma2_rep *rep, struct rpc_rqst *rqst,
			   enum rpcrdma2_vers_verdict verdict, bool granted)
{
	struct rpcrdma2_ep *ep = rep->rr_ep;
	struct rpcrdma2_xprt *r = ep->re_xprt;
	const struct rpcrdma2_hdr *hdr = &rep->rr_hdr;
	int status;

	if (verdict == RPCRDMA2_VERS_FIXED) {
		WRITE_ONCE(ep->re_vers, hdr->vers);
		cancel_delayed_work(&ep->re_probe_work);
		rpcrdma2_ep_set_inline(ep);
		trace_xprtrdma2_version(ep);
		/* before the grant below lets a second Call out */
		if (ep->re_vers == RPCRDMA2_VERS_2)
			rpcrdma2_send_connprop(ep);
	} else if (verdict == RPCRDMA2_VERS_PENDING) {
		/* the next Call is the one whose answer decides */
		ep->re_first_sent = false;
		cancel_delayed_work(&ep->re_probe_work);
	}
	if (!granted)
		rpcrdma2_answer_grant(ep, hdr);
	status = rpcrdma2_reply_status(rep, rqst);
	rpcrdma2_count(r, RPCRDMA2_C_REPLIES, 1);
	rpcrdma2_trace_hot(xprtrdma2_reply, &rep->rr_cid, hdr, status);
	return status;
}

/*
 * The server invalidated an rkey that is not one of the answered RPC's
 * MRs, or sent With Invalidate a message that answers no RPC of ours
 * (a reverse-direction Call, an RDMA2_CONNPROP, a reply we discard). A
 * server may invalidate only the MRs of the RPC it answers (draft §8.4,
 * §3.3: the Call's rdma_inv_handle; RFC 8797 §4.1: "the same XID"), so
 * memory some other RPC relies on, a Reply or Write chunk the server
 * may yet write or a Read chunk it may yet read, may now be gone, and
 * that RPC could fail or wait forever on this connection. Close it:
 * every outstanding RPC goes again on a new connection with new
 * registrations. Nothing is released for the rkey; the answered RPC's
 * own MRs still get LOCAL_INV, and its reply, which arrived intact, is
 * still delivered.
 */
static void rpcrdma2_reminv_foreign(struct rpcrdma2_rep *rep, u32 rkey)
{
	rpcrdma2_count(rep->rr_ep->re_xprt, RPCRDMA2_C_REMOTE_INV_FOREIGN, 1);
	trace_xprtrdma2_reminv_foreign(&rep->rr_cid, rep->rr_hdr.xid, rkey);
	rpcrdma2_ep_close(rep->rr_ep);
}

/**
 * rpcrdma2_reply_done - complete an RPC whose MRs are all invalid
 * @req: the request; its rqst pinned by the reply handler, the reply's
 *	outcome in rl_status, its MRs unmapped
 *
 * The reply's inline bytes go into the receive buffer here, not before:
 * unmapping a Reply or Write chunk mapped DMA_FROM_DEVICE through a
 * bounce buffer copies the buffer back over its pages.
 *
 * Context: the reply's Receive completion, or the completion of its last
 * LOCAL_INV.
 */
void rpcrdma2_reply_done(struct rpcrdma2_req *req)
{
	struct rpc_rqst *rqst = req->rl_rqst;
	struct rpc_xprt *xprt = rqst->rq_xprt;
	int status = req->rl_status;

	if (req->rl_rep)
		rpcrdma2_reply_copy(req);

	spin_lock(&xprt->queue_lock);
	if (status < 0) {
		rqst->rq_task->tk_status = status;
		status = 0;
	}
	xprt_complete_rqst(rqst->rq_task, status);
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
}

/*
 * The settled connection's common answer: RDMA_MSG / RDMA2_MSG with no
 * Write list, to a Call with no MR on this connection (no Reply chunk,
 * or one a guess left out). Nothing waits between the lookup and the
 * completion, so it is all done under the queue lock the lookup took:
 * the reply is copied into the receive buffer and the RPC completed
 * without dropping the lock, and the Receive is not held. Once the RPC
 * is complete and unpinned its task may release @rqst at once, so
 * nothing of it is touched after.
 *
 * Context: the Receive completion, holding &rpc_xprt.queue_lock.
 */
static void rpcrdma2_reply_inline(struct rpcrdma2_rep *rep,
				  struct rpc_rqst *rqst)
{
	struct rpcrdma2_req *req = rpcrdma2_rqst_to_req(rqst);
	int total = rpcrdma2_reply_whole(rep, req);

	rpcrdma2_trace_hot(xprtrdma2_reply, &rep->rr_cid, &rep->rr_hdr, total);
	rpcrdma2_reply_place(req, rep, rep->rr_hdr.rpc_len, 0);
	/*
	 * xprt_complete_rqst() clears NEED_RECV before it is done with the
	 * rqst and its task; a task already running (a signal, a soft
	 * timeout) then releases the rqst without the queue lock, unless it
	 * is pinned: xprt_request_dequeue_xprt() waits for the pin.
	 */
	xprt_pin_rqst(rqst);
	xprt_complete_rqst(rqst->rq_task, total);
	xprt_unpin_rqst(rqst);
}

/**
 * rpcrdma2_reply_handler - process one received message
 * @rep: its Receive context
 * @byte_len: bytes received
 * @inv_rkey: the rkey the server invalidated with Send With Invalidate,
 *	or NULL
 *
 * Decodes the message with the shared codec, settles the connection's
 * version with its first answer, updates the credit grant, and completes
 * the Call it answers: at once if it registered no memory, else once
 * every MR of it is invalid (rpcrdma2_reply_done()). The caller reposts
 * the Receive afterwards unless a reply's inline bytes, still to be
 * copied, hold it (struct rpcrdma2_rep.rr_ref).
 *
 * Context: Receive completion (process context, IB_POLL_WORKQUEUE).
 */
void rpcrdma2_reply_handler(struct rpcrdma2_rep *rep, u32 byte_len,
			    const u32 *inv_rkey)
{
	struct rpcrdma2_ep *ep = rep->rr_ep;
	struct rpcrdma2_xprt *r = ep->re_xprt;
	struct rpc_xprt *xprt = &r->rx_xprt;
	struct rpcrdma2_hdr *hdr = &rep->rr_hdr;
	struct rpcrdma2_reject rej;
	enum rpcrdma2_vers_verdict verdict;
	struct rpcrdma2_req *req;
	struct rpc_rqst *rqst;
	bool inline_reply;
	int status;

	if (inv_rkey)
		rpcrdma2_count(r, RPCRDMA2_C_REMOTE_INV, 1);
	if (rpcrdma2_decode(rep->rr_buf, byte_len, hdr, &rej)) {
		/* RFC 8166 §4.5: a requester discards what it rejects */
		trace_xprtrdma2_reply_rejected(&rep->rr_cid, hdr, rej.reason);
		goto out_bad;
	}
	trace_xprtrdma2_hdr_recv(&rep->rr_cid, hdr);
	if (rpcrdma2_is_reverse_call(rep)) {
		/* it answers nothing: no MR of ours was its to invalidate */
		if (inv_rkey) {
			rpcrdma2_reminv_foreign(rep, *inv_rkey);
			return;
		}
		rpcrdma2_bc_receive_call(rep);
		return;
	}
	if (hdr->htype == RPCRDMA2_HT_CONNPROP) {
		/* only on a connection that is, or may become, v2 (§7.3) */
		if ((ep->re_vers ?: ep->re_try_vers) != RPCRDMA2_VERS_2)
			goto out_bad;
		if (inv_rkey) {
			rpcrdma2_reminv_foreign(rep, *inv_rkey);
			return;
		}
		rpcrdma2_recv_connprop(ep, hdr);
		return;
	}

	verdict = rpcrdma2_vers_verdict(ep->re_vers, ep->re_try_vers,
					ep->re_first_xid, hdr);
	if (verdict == RPCRDMA2_VERS_DISCARD) {
		trace_xprtrdma2_reply_vers(&rep->rr_cid, hdr, ep->re_vers);
		goto out_bad;
	}
	/*
	 * rpcrdma2_reply_inline()'s kind of reply takes its grant before the
	 * lookup, not under the queue lock. One that then answers no Call
	 * has granted its credits all the same: every valid message does
	 * (RFC 8166 §3.3.1).
	 */
	inline_reply = verdict == RPCRDMA2_VERS_USE && !inv_rkey &&
		       hdr->htype == RPCRDMA2_HT_MSG && !hdr->cl.nr_writes;
	if (inline_reply)
		rpcrdma2_answer_grant(ep, hdr);

	spin_lock(&xprt->queue_lock);
	rqst = xprt_lookup_rqst(xprt, cpu_to_be32(hdr->xid));
	/*
	 * One answer per Send, on the connection that sent it: a second
	 * reply with the same XID (the first may still be invalidating the
	 * Call's MRs) or a reply to a Call this connection has not sent
	 * (still being marshaled, or only queued) matches nothing.
	 */
	if (rqst && READ_ONCE(rpcrdma2_rqst_to_req(rqst)->rl_sent_ep) != ep)
		rqst = NULL;
	if (!rqst) {
		spin_unlock(&xprt->queue_lock);
		rpcrdma2_count(r, RPCRDMA2_C_NO_RQST, 1);
		trace_xprtrdma2_no_rqst(&rep->rr_cid, hdr);
		if (inv_rkey)
			rpcrdma2_reminv_foreign(rep, *inv_rkey);
		return;
	}
	req = rpcrdma2_rqst_to_req(rqst);
	/*
	 * The Call has its answer, and a retransmission may go. Not yet
	 * when this completion posts a Send of its own, the v1 resend or
	 * RDMA2_CONNPROP once the version is fixed: a retransmission then
	 * would be a second sender beside it (rpcrdma2_sendctx_get()).
	 * Finding the Call still owed, it drops the connection instead
	 * (xprt_rdma2_send_request()).
	 */
	if (verdict != RPCRDMA2_VERS_FIXED && verdict != RPCRDMA2_VERS_FALLBACK)
		WRITE_ONCE(req->rl_sent_ep, NULL);
	if (inline_reply && !req->rl_ep) {
		rpcrdma2_reply_inline(rep, rqst);
		spin_unlock(&xprt->queue_lock);
		rpcrdma2_count(r, RPCRDMA2_C_REPLIES, 1);
		return;
	}
	xprt_pin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);

	/* draft §8.4: only an rkey of this RPC's MRs is taken as invalid */
	if (inv_rkey) {
		if (req->rl_ep == ep && rpcrdma2_frwr_reminv(req, *inv_rkey))
			rpcrdma2_count(r, RPCRDMA2_C_REMOTE_INV_MATCHED, 1);
		else
			rpcrdma2_reminv_foreign(rep, *inv_rkey);
	}

	if (verdict == RPCRDMA2_VERS_FALLBACK) {
		rpcrdma2_fallback(ep, rqst);
		status = -EINPROGRESS;
	} else {
		status = rpcrdma2_answer(rep, rqst, verdict, inline_reply);
		if (verdict == RPCRDMA2_VERS_FIXED)
			WRITE_ONCE(req->rl_sent_ep, NULL);
	}
	if (status == -EINPROGRESS) {
		spin_lock(&xprt->queue_lock);
		xprt_unpin_rqst(rqst);
		spin_unlock(&xprt->queue_lock);
		return;
	}
	req->rl_status = status;
	/* no page is left open to the server once the RPC completes */
	if (req->rl_ep == ep) {
		status = rpcrdma2_frwr_unmap_async(req);
		if (status == -EINPROGRESS)
			return;
		if (status) {
			rpcrdma2_reply_abandon(req);
			return;
		}
	}
	rpcrdma2_reply_done(req);
	return;

out_bad:
	rpcrdma2_count(r, RPCRDMA2_C_BAD_REPLIES, 1);
	if (inv_rkey)
		rpcrdma2_reminv_foreign(rep, *inv_rkey);
}
