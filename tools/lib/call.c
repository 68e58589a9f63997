// SPDX-License-Identifier: GPL-2.0
/*
 * The requester's calls (negotiate.h): RPC NULL or the COMPOUND of
 * nfs.c, inline or as a Long Call, offering Write and Reply chunks of
 * real registered memory (with --inv through type 2 memory windows the
 * server may invalidate), and the checks of how a reply returns them.
 */
#include <stdlib.h>
#include <string.h>

#include "negotiate.h"

/* The first message on a connection: RFC 8166 §3.3.3, draft v2 §7 */
#define FIRST_MSG_MAX		RPCRDMA2_V1_DEF_INLINE

/* Does this run expose memory through chunks? */
bool uses_chunks(const struct ping_opts *o)
{
	return o->long_call || o->nfs.path || o->reply_chunk || o->rs_chunks ||
	       o->fat_reply;
}

/* The receive size we advertise: --recv-size, else our buffers' size */
u32 adv_recv_size(const struct ping_opts *o)
{
	return o->recv_size ? o->recv_size : o->size;
}

/* RFC 8797 §4.1: R only when every handle we expose may be invalidated */
bool our_reminv(const struct ping_opts *o)
{
	return !uses_chunks(o) || o->inv;
}

u8 *chunk_area(const struct ping *p, u32 slot)
{
	return p->cbuf + (size_t)slot * CHUNK_AREA_SIZE;
}

/*
 * Memory the server reads and writes through chunks: one registration
 * of an area per send slot. With --inv each area is exposed through a
 * type 2 memory window instead, which the server may invalidate with
 * Send With Invalidate (a userspace MR cannot be invalidated remotely).
 */
int create_chunk_memory(struct ping *p)
{
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
		     IBV_ACCESS_REMOTE_WRITE;
	size_t bytes = (size_t)p->c.nr_sends * CHUNK_AREA_SIZE;
	struct ibv_device_attr attr;
	u32 i;

	p->cbuf = aligned_alloc(4096, bytes);
	if (!p->cbuf) {
		tool_err("out of memory");
		return -1;
	}
	memset(p->cbuf, 0, bytes);
	if (p->opts->inv) {
		if (ibv_query_device(p->c.id->verbs, &attr)) {
			tool_err("ibv_query_device: %s", strerror(errno));
			return -1;
		}
		if (!(attr.device_cap_flags & IBV_DEVICE_MEM_WINDOW_TYPE_2B)) {
			tool_err("--inv: the device has no type 2B memory windows");
			return -1;
		}
		access |= IBV_ACCESS_MW_BIND;
	}
	p->cmr = ibv_reg_mr(p->c.pd, p->cbuf, bytes, access);
	if (!p->cmr) {
		tool_err("ibv_reg_mr (chunks): %s", strerror(errno));
		return -1;
	}
	for (i = 0; p->opts->inv && i < p->c.nr_sends; i++) {
		p->mw[i] = ibv_alloc_mw(p->c.pd, IBV_MW_TYPE_2);
		if (!p->mw[i]) {
			tool_err("ibv_alloc_mw: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Windows first: rxe refuses to deregister an MR with windows */
void free_chunk_memory(struct ping *p)
{
	u32 i;

	for (i = 0; i < MAX_WINDOW; i++)
		if (p->mw[i])
			ibv_dealloc_mw(p->mw[i]);
	if (p->cmr)
		ibv_dereg_mr(p->cmr);
	free(p->cbuf);
}

/* An RPC NULL reply: accepted, SUCCESS, and nothing after (void) */
static int check_null_reply(const struct ping *p, u32 xid, char *why,
			    size_t whylen)
{
	int off = rpc_accepted(p->rpc, p->rpc_len, xid, why, whylen);

	if (off < 0)
		return -1;
	if (p->rpc_len != (u32)off || p->write_len) {
		snprintf(why, whylen, "%u bytes after accept_stat of a NULL reply",
			 p->rpc_len - (u32)off + p->write_len);
		return -1;
	}
	return 0;
}

void set_seg(struct rpcrdma2_seg *seg, u32 handle, u32 length, const u8 *addr)
{
	seg->handle = handle;
	seg->length = length;
	seg->offset = (uintptr_t)addr;
}

/*
 * The bytes a returned chunk received. It must be the chunk we offered,
 * @size bytes at @addr in segments of at most CHUNK_SEG_MAX (RFC 8166
 * §3.4.6: the responder returns our handles and offsets with the lengths
 * it wrote), each length no longer than offered, and, so that the data
 * is contiguous, only the last segment written partly.
 */
static int returned_chunk(const struct rpcrdma2_chunk_lists *cl,
			  const struct rpcrdma2_chunk *ch, u32 handle,
			  const u8 *addr, u32 size, const char *what,
			  u32 *len, char *why, size_t whylen)
{
	u32 nsegs = (size + CHUNK_SEG_MAX - 1) / CHUNK_SEG_MAX, i, want;
	const struct rpcrdma2_seg *seg;

	if (ch->nsegs != nsegs) {
		snprintf(why, whylen, "the %s comes back with %u segments, we offered %u",
			 what, ch->nsegs, nsegs);
		return -1;
	}
	*len = 0;
	for (i = 0; i < nsegs; i++) {
		seg = &cl->segs[ch->first + i];
		want = size - i * CHUNK_SEG_MAX < CHUNK_SEG_MAX ?
		       size - i * CHUNK_SEG_MAX : CHUNK_SEG_MAX;
		if (seg->handle != handle ||
		    seg->offset != (uintptr_t)(addr + i * CHUNK_SEG_MAX)) {
			snprintf(why, whylen, "%s segment %u is 0x%08x@0x%llx, not 0x%08x@%p",
				 what, i + 1, seg->handle,
				 (unsigned long long)seg->offset, handle,
				 (const void *)(addr + i * CHUNK_SEG_MAX));
			return -1;
		}
		if (seg->length > want) {
			snprintf(why, whylen, "%s segment %u: %u bytes written, it holds %u",
				 what, i + 1, seg->length, want);
			return -1;
		}
		if (seg->length && *len != i * CHUNK_SEG_MAX) {
			snprintf(why, whylen, "the %s has a gap before segment %u",
				 what, i + 1);
			return -1;
		}
		*len += seg->length;
	}
	return 0;
}

/* Offer @size bytes at @addr as one chunk of CHUNK_SEG_MAX segments */
void offer_chunk(struct rpcrdma2_chunk_lists *cl, struct rpcrdma2_chunk *ch,
		 u32 handle, u8 *addr, u32 size)
{
	u32 off;

	ch->first = cl->nr_segs;
	ch->nsegs = 0;
	for (off = 0; off < size; off += CHUNK_SEG_MAX, ch->nsegs++)
		set_seg(&cl->segs[cl->nr_segs++], handle,
			size - off < CHUNK_SEG_MAX ? size - off : CHUNK_SEG_MAX,
			addr + off);
}

/*
 * Find the RPC reply: inline after RDMA_MSG / RDMA2_MSG, or in the
 * Reply chunk we offered after RDMA_NOMSG / RDMA2_NOMSG (RFC 8166
 * §3.5.3, §4.2.4); DDP data (READ data, READLINK's text) in the Write chunk we
 * offered. Sets p->rpc, p->rpc_len, p->write_len and p->via.
 */
static int reply_body(struct ping *p, const struct ping_call *call,
		      const struct rpcrdma2_hdr *h, const u8 *m, char *why,
		      size_t whylen)
{
	const struct rpcrdma2_chunk_lists *cl = &h->cl;
	const u8 *area = p->cbuf ? chunk_area(p, (u32)(call - p->calls)) :
			 NULL;
	u32 rlen = 0;

	p->write_len = 0;
	if (cl->nr_reads) {
		snprintf(why, whylen, "the reply carries a Read list");
		return -1;
	}
	if (cl->nr_writes && (!call->write_chunk || cl->nr_writes > 1)) {
		snprintf(why, whylen, "the reply returns %u Write chunks, the call offered %u",
			 cl->nr_writes, call->write_chunk);
		return -1;
	}
	if (cl->nr_writes &&
	    returned_chunk(cl, &cl->writes[0], call->handle,
			   area + CHUNK_WRITE_OFF, p->opts->write_len,
			   "Write chunk", &p->write_len, why, whylen))
		return -1;
	if (cl->has_reply && !call->reply_chunk) {
		snprintf(why, whylen, "the reply returns a Reply chunk the call never offered");
		return -1;
	}
	if (cl->has_reply &&
	    returned_chunk(cl, &cl->reply, call->handle,
			   area + CHUNK_REPLY_OFF, CHUNK_REPLY_SIZE,
			   "Reply chunk", &rlen, why, whylen))
		return -1;
	if (h->htype == RPCRDMA2_HT_MSG) {
		if (rlen) {
			snprintf(why, whylen, "%s with %u bytes in the Reply chunk too",
				 rpcrdma2_htype_name(h->vers, h->htype), rlen);
			return -1;
		}
		p->rpc = m + h->hdr_len;
		p->rpc_len = h->rpc_len;
		p->via = "inline";
		return 0;
	}
	if (h->htype == RPCRDMA2_HT_NOMSG && cl->has_reply) {
		p->rpc = area + CHUNK_REPLY_OFF;
		p->rpc_len = rlen;
		p->via = "Reply chunk";
		return 0;
	}
	snprintf(why, whylen, "reply type %s%s",
		 rpcrdma2_htype_name(h->vers, h->htype),
		 h->htype == RPCRDMA2_HT_NOMSG ? " without a Reply chunk" : "");
	return -1;
}

/*
 * The --readlink / --read / --write2 COMPOUND's reply (nfs.c). READLINK's
 * text and READ's data are copied to p->scratch: the Receive buffer is
 * reposted before they are printed.
 */
static int check_compound(struct ping *p, const struct ping_call *call,
			  char *why, size_t whylen)
{
	const u8 *wdata = p->write_len ?
			  chunk_area(p, (u32)(call - p->calls)) + CHUNK_WRITE_OFF :
			  NULL;
	struct nfs_result *res = &p->nfs;

	if (check_compound_reply(&p->opts->nfs, p->rpc, p->rpc_len, call->xid,
				 wdata, p->write_len, res, why, whylen))
		return -1;
	if (p->opts->nfs.op == NFS4_OP_WRITE)
		return 0;
	if (res->data_len > CHUNK_CALL_MAX) {
		snprintf(why, whylen, "%u bytes of data", res->data_len);
		return -1;
	}
	memcpy(p->scratch, res->data, res->data_len);
	res->data = p->scratch;
	return 0;
}

/*
 * Is the decoded reply @h (@m, its bytes) to @call right: its chunks as
 * the call offered them, the RPC reply accepted, NULL's void or the
 * COMPOUND's results? -1 with the reason in @why if not.
 */
int check_reply(struct ping *p, const struct ping_call *call,
		const struct rpcrdma2_hdr *h, const u8 *m, char *why,
		size_t whylen)
{
	if (reply_body(p, call, h, m, why, whylen))
		return -1;
	return call->compound ? check_compound(p, call, why, whylen) :
	       check_null_reply(p, call->xid, why, whylen);
}

/*
 * --inv: bind slot @slot's type 2 window over its chunk area with a
 * fresh key, behind a local invalidation when the server left the last
 * binding valid. Fills @wr (two entries) and returns the new handle.
 */
static u32 mw_prepare(struct ping *p, u32 slot, struct ibv_send_wr *wr,
		      struct ibv_send_wr **first)
{
	struct ibv_mw *mw = p->mw[slot];
	struct ibv_send_wr *bind = wr;
	u32 rkey = ibv_inc_rkey(mw->rkey);

	memset(wr, 0, 2 * sizeof(*wr));
	if (p->mw_bound[slot]) {
		wr[0].wr_id = WRID_MEM | slot;
		wr[0].opcode = IBV_WR_LOCAL_INV;
		wr[0].invalidate_rkey = mw->rkey;
		wr[0].next = &wr[1];
		bind = &wr[1];
	}
	bind->wr_id = WRID_MEM | slot;
	bind->opcode = IBV_WR_BIND_MW;
	bind->bind_mw.mw = mw;
	bind->bind_mw.rkey = rkey;
	bind->bind_mw.bind_info.mr = p->cmr;
	bind->bind_mw.bind_info.addr = (uintptr_t)chunk_area(p, slot);
	bind->bind_mw.bind_info.length = CHUNK_AREA_SIZE;
	bind->bind_mw.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_READ |
						  IBV_ACCESS_REMOTE_WRITE;
	*first = wr;
	return rkey;
}

/*
 * --read-segs: C Read chunks of S segments of L bytes of @area, back to
 * back at the end of the NULL header (their Positions count the chunks
 * before them, RFC 8166 §3.4.5), and the inline message padded with
 * zeros to reach the last Position, so that a responder reading
 * Positions as inline offsets accepts the call too. NULL ignores what
 * follows its void arguments. Returns the new inline length.
 */
static u32 add_read_segs(const struct ping_opts *o,
			 struct rpcrdma2_chunk_lists *cl, u32 handle,
			 u8 *area, u8 *rpc, u32 rpc_len)
{
	u32 c, i, clen = xdr_align(o->rs_segs * o->rs_len);
	u32 want = rpc_len + (o->rs_chunks - 1) * clen;
	u8 *at = area;

	for (c = 0; c < o->rs_chunks; c++) {
		for (i = 0; i < o->rs_segs; i++) {
			struct rpcrdma2_read_seg *rs = &cl->reads[cl->nr_reads++];

			rs->position = rpc_len + c * clen;
			set_seg(&rs->seg, handle, o->rs_len, at);
			at += o->rs_len;
		}
	}
	memset(rpc + rpc_len, 0, want - rpc_len);
	return want;
}

/*
 * --write2: the two data items, from the fixed pattern, each in a Read
 * chunk of its own at @pos; with --chunk-pad the chunk carries the
 * item's roundup (zeros) too.
 */
static void add_write2_chunks(const struct ping_opts *o,
			      struct rpcrdma2_chunk_lists *cl, u32 handle,
			      u8 *area, const u32 *pos)
{
	u8 *data[2] = { area, area + W2_DATA2_OFF };
	u32 k, i, n, off;
	u64 base = 0;

	for (k = 0; k < 2; k++) {
		n = o->nfs.w2_len[k];
		for (i = 0; i < n; i++)
			data[k][i] = w2_byte(base + i);
		memset(data[k] + n, 0, xdr_align(n) - n);
		if (o->chunk_pad)
			n = xdr_align(n);
		for (off = 0; off < n; off += CHUNK_SEG_MAX) {
			struct rpcrdma2_read_seg *rs = &cl->reads[cl->nr_reads++];

			rs->position = pos[k];
			set_seg(&rs->seg, handle,
				n - off < CHUNK_SEG_MAX ? n - off : CHUNK_SEG_MAX,
				data[k] + off);
		}
		base += o->nfs.w2_len[k];
	}
}

/*
 * Build and send one call from send slot @slot in @vers: RPC NULL, or
 * with @compound the COMPOUND of --readlink / --read. Inline (RDMA_MSG),
 * or with --long-call as a Long Call (RDMA_NOMSG and a Position-Zero
 * Read chunk: RFC 8166 §3.5.3), offering the Write and Reply chunks the
 * options ask for (§3.4.6-§3.4.7) and with --inv naming their handle in
 * rdma_inv_handle (draft v2 §3.3).
 */
int send_call(struct ping *p, u32 slot, u32 vers, u32 seq, bool compound)
{
	const struct ping_opts *o = p->opts;
	const struct rpcrdma2_limits lim = {
		.max_read_chunks = RS_MAX_CHUNKS,
		.max_write_chunks = 1,
		.max_segs = RS_MAX_SEGS,
	};
	struct ping_call *call = &p->calls[slot];
	struct rpcrdma2_read_seg reads[RS_MAX_CHUNKS * RS_MAX_SEGS];
	struct rpcrdma2_read_chunk read_chunks[RS_MAX_CHUNKS];
	struct rpcrdma2_chunk writes[1];
	struct rpcrdma2_seg segs[2 * RS_MAX_SEGS];
	struct ibv_send_wr mem[INV_WRS_PER_CALL - 1], *pre = NULL;
	struct rpcrdma2_hdr h = { 0 };
	bool long_call = o->long_call && p->cbuf;
	/* the first call settles the version: it must fit 1024 bytes */
	bool rsegs = o->rs_chunks && p->cbuf && p->negotiated && !compound;
	bool w2 = compound && o->nfs.op == NFS4_OP_WRITE && p->cbuf;
	bool offered = long_call || (p->cbuf && compound && o->write_chunk) ||
		       (p->cbuf && o->reply_chunk) || rsegs || w2;
	u8 *m = conn_send_buf(&p->c, slot), *area = NULL;
	u32 rpc_len, len, limit, handle = 0, off, pos[2];
	int hl;

	if (rpcrdma2_chunk_lists_init(&h.cl, &lim, reads, ARRAY_SIZE(reads),
				      read_chunks, ARRAY_SIZE(read_chunks),
				      writes, ARRAY_SIZE(writes), segs,
				      ARRAY_SIZE(segs)))
		return -1;
	h.xid = p->next_xid++;
	h.vers = vers;
	h.credits = o->credits;
	h.flags = 0;			/* a Call: RPCRDMA2_F_RESPONSE clear */
	if (compound) {
		if (build_compound(&o->nfs, h.xid, p->scratch, &rpc_len, pos))
			return -1;
	} else {
		rpc_len = build_null(o->nfs_vers, o->long_call, h.xid, p->scratch);
	}
	if (offered) {
		area = chunk_area(p, slot);
		handle = o->inv ? mw_prepare(p, slot, mem, &pre) :
			 p->cmr->rkey;
	}
	if (long_call) {
		memcpy(area, p->scratch, rpc_len);
		for (off = 0; off < rpc_len; off += CHUNK_SEG_MAX) {
			struct rpcrdma2_read_seg *rs = &reads[h.cl.nr_reads++];

			rs->position = 0;
			set_seg(&rs->seg, handle,
				rpc_len - off < CHUNK_SEG_MAX ?
				rpc_len - off : CHUNK_SEG_MAX, area + off);
		}
	}
	if (rsegs)
		rpc_len = add_read_segs(o, &h.cl, handle, area, p->scratch,
					rpc_len);
	if (w2)
		add_write2_chunks(o, &h.cl, handle, area, pos);
	if (offered && compound && o->write_chunk) {
		offer_chunk(&h.cl, &writes[0], handle, area + CHUNK_WRITE_OFF,
			    o->write_len);
		h.cl.nr_writes = 1;
	}
	if (offered && o->reply_chunk) {
		offer_chunk(&h.cl, &h.cl.reply, handle, area + CHUNK_REPLY_OFF,
			    CHUNK_REPLY_SIZE);
		h.cl.has_reply = true;
	}
	if (vers == RPCRDMA2_VERS_2 && offered && o->inv)
		h.cl.inv_handle = handle;
	/* RDMA_MSG / RDMA2_MSG and RDMA_NOMSG / RDMA2_NOMSG share values */
	h.htype = long_call ? RPCRDMA2_HT_NOMSG : RPCRDMA2_HT_MSG;
	hl = rpcrdma2_encode(&h, m, o->size);
	if (hl < 0) {
		tool_err("cannot encode the transport header: %s", strerror(-hl));
		return -1;
	}
	len = (u32)hl;
	if (!long_call) {
		if (rpc_len > o->size - len) {
			tool_err("a call of %u bytes does not fit --size %u",
				 len + rpc_len, o->size);
			return -1;
		}
		memcpy(m + len, p->scratch, rpc_len);
		len += rpc_len;
	}
	/* before a reply fixes the version, the v1 default (draft v2 §7) */
	limit = p->granted ? p->send_thresh : FIRST_MSG_MAX;
	if (len > limit) {
		tool_err("call of %u bytes exceeds the inline threshold %u",
			 len, limit);
		return -1;
	}
	call->xid = h.xid;
	call->vers = vers;
	call->seq = seq;
	call->compound = compound;
	call->long_call = long_call;
	call->write_chunk = h.cl.nr_writes;
	call->reply_chunk = h.cl.has_reply;
	call->handle = handle;
	call->inv_offered = offered && o->inv;
	now(&call->t0);
	if (conn_post_send(&p->c, slot, len, pre, NULL))
		return -1;
	if (pre) {
		/* a type 2 window's key is ours to track */
		p->mw[slot]->rkey = handle;
		p->mw_bound[slot] = true;
	}
	p->c.held[slot] = true;
	return 0;
}
