// SPDX-License-Identifier: GPL-2.0
/*
 * RPC-over-RDMA Version 1 (RFC 8166) and Version 2
 * (draft-cel-nfsv4-rpcrdma-version-two-09) transport header decoder:
 * rpcrdma2_chunk_lists_init() and rpcrdma2_decode().
 *
 * Every byte a peer sends passes through rpcrdma2_decode(), so it trusts
 * nothing: each length or count is checked against the bytes left, and
 * against the caller's limits, before it is used; nothing is allocated;
 * the result lands in arrays the caller sized. One bounds check covers a
 * whole item (a segment plus the word after it) to keep the common path
 * short.
 *
 * Builds unchanged in the kernel (rpcrdma2_common.ko) and in userspace
 * (tests, fuzzer, tools) through <rpcrdma2/compat.h>.
 */
#include "codec_xdr.h"

/*
 * In both versions malformed headers are answered with error code 2:
 * ERR_CHUNK in v1 (RFC 8166 §4.5.2), RDMA2_ERR_BAD_XDR in v2 (draft v2
 * §5.3.3 notes the values are the same).
 */
#define ERR_MALFORMED	RPCRDMA2_ERR_BAD_XDR

static int reject_discard(struct rpcrdma2_reject *rej, u32 reason, int rc)
{
	rej->reason = reason;
	rej->discard = true;
	rej->reply.code = 0;
	rej->reply.v1_layout = false;
	rej->reply.vers.low = 0;
	rej->reply.vers.high = 0;
	return rc;
}

/* The caller fills in the arm, if the code has one, afterwards */
static int reject_reply(struct rpcrdma2_reject *rej, u32 reason, u32 code,
			int rc)
{
	rej->reason = reason;
	rej->discard = false;
	rej->reply.code = code;
	rej->reply.v1_layout = false;
	rej->reply.vers.low = 0;
	rej->reply.vers.high = 0;
	return rc;
}

/*
 * Turn a chunk-list rejection into the answer the spec asks for. Limit
 * violations have their own error codes only in v2 (draft v2 §5.3.3);
 * v1 has nothing better than ERR_CHUNK.
 */
static int reject_chunks(struct rpcrdma2_reject *rej, u32 reason, u32 vers,
			 const struct rpcrdma2_limits *lim)
{
	int rc;

	if (vers == RPCRDMA2_VERS_2) {
		switch (reason) {
		case RPCRDMA2_REASON_READ_CHUNKS:
			rc = reject_reply(rej, reason, RPCRDMA2_ERR_READ_CHUNKS,
					  -E2BIG);
			rej->reply.max_chunks = lim->max_read_chunks;
			return rc;
		case RPCRDMA2_REASON_WRITE_CHUNKS:
			/*
			 * §5.3.3: a responder that "cannot handle any Write
			 * chunks for a request ... MUST return a response of
			 * RDMA2_ERR_REPLY_RESOURCE". The codec does not know
			 * the reply's size: length_needed is 0, and the
			 * caller may fill in the real length.
			 */
			if (!lim->max_write_chunks) {
				rc = reject_reply(rej, reason,
						  RPCRDMA2_ERR_REPLY_RESOURCE,
						  -E2BIG);
				rej->reply.length_needed = 0;
				return rc;
			}
			rc = reject_reply(rej, reason,
					  RPCRDMA2_ERR_WRITE_CHUNKS, -E2BIG);
			rej->reply.max_chunks = lim->max_write_chunks;
			return rc;
		case RPCRDMA2_REASON_SEGMENTS:
			rc = reject_reply(rej, reason, RPCRDMA2_ERR_SEGMENTS,
					  -E2BIG);
			rej->reply.max_segs = lim->max_segs;
			return rc;
		}
	}
	return reject_reply(rej, reason, ERR_MALFORMED,
			    reason == RPCRDMA2_REASON_READ_CHUNKS ||
			    reason == RPCRDMA2_REASON_WRITE_CHUNKS ||
			    reason == RPCRDMA2_REASON_SEGMENTS ? -E2BIG : -EIO);
}

static inline const u8 *decode_seg(const u8 *p, struct rpcrdma2_seg *seg)
{
	seg->handle = xdr_get32(p);
	seg->length = xdr_get32(p + 4);
	seg->offset = xdr_get64(p + 8);
	return p + RPCRDMA2_SEGMENT_SIZE;
}

/* Whether any of the first @n Read segments has @position */
static bool reads_have_position(const struct rpcrdma2_read_seg *reads,
				u32 n, u32 position)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (reads[i].position == position)
			return true;
	return false;
}

/*
 * Where the Read chunk at @position is among the @nr chunks so far,
 * which are in ascending Position order: its index if it is there, else
 * the index a new chunk takes. @nr <= max_read_chunks, a handful.
 */
static u32 read_chunk_slot(const struct rpcrdma2_read_chunk *rc, u32 nr,
			   u32 position)
{
	u32 k;

	for (k = 0; k < nr && rc[k].position < position; k++)
		;
	return k;
}

/*
 * Make room at @at in the first @n Read segments, for a segment of the
 * chunk before @k (rare: one Position's segments apart in the list).
 */
static void read_segs_open(struct rpcrdma2_chunk_lists *cl, u32 n, u32 at,
			   u32 k, u32 nr)
{
	memmove(&cl->reads[at + 1], &cl->reads[at],
		(n - at) * sizeof(cl->reads[0]));
	for (; k < nr; k++)
		cl->read_chunks[k].first++;
}

/*
 * Read list (RFC 8166 §4.3.1, §4.7). *pp points at the first
 * discriminator, which the caller has checked and found non-zero. Every
 * entry is followed by another discriminator, so one check per entry
 * covers both. Left to the compiler to inline: out of line it costs
 * calls without a Read list more (make bench-codec: 287 instructions
 * to decode a v2 READ call against 301 with noinline).
 *
 * §4.3.1: the segments are "grouped by their Position fields into Read
 * chunks"; §3.4.5: a chunk's segments are concatenated "in list order".
 * Neither asks for a chunk's segments to be adjacent in the list, so a
 * Position may come back after another one (the Linux server groups them
 * the same way, svc_rdma_pcl.c). The decoder groups them: @cl->reads
 * holds each chunk's segments together, in list order, the chunks in
 * ascending Position order as @cl->read_chunks indexes them. A list
 * whose chunks are apart and in order costs nothing more; a Position
 * that comes back moves the segments after its chunk up by one. The
 * chunk limit counts distinct Positions, the segment limit every
 * segment of one Position.
 */
static u32 decode_read_list(const u8 **pp, const u8 *end,
			    const struct rpcrdma2_limits *lim,
			    struct rpcrdma2_chunk_lists *cl, u32 inv,
			    bool *match)
{
	struct rpcrdma2_read_chunk *rc = cl->read_chunks, *ch = NULL;
	const u8 *p = *pp;
	u32 disc = xdr_get32(p);
	u32 n = 0, nr = 0, k = 0, at, position;
	bool m = false;

	p += XDR_WORD;
	while (disc) {
		if (disc != 1)
			return RPCRDMA2_REASON_BAD_BOOL;
		if (bytes_left(p, end) < RPCRDMA2_READ_SEGMENT_SIZE + XDR_WORD)
			return RPCRDMA2_REASON_TRUNCATED;
		position = xdr_get32(p);
		/* a run of one Position stays with its chunk */
		if (!ch || position != ch->position) {
			k = read_chunk_slot(rc, nr, position);
			if (k == nr || rc[k].position != position) {
				/* §3.4.5: a Position MUST be a multiple of 4 */
				if (position & 3)
					return RPCRDMA2_REASON_POSITION;
				if (nr == lim->max_read_chunks)
					return RPCRDMA2_REASON_READ_CHUNKS;
				memmove(&rc[k + 1], &rc[k],
					(nr - k) * sizeof(rc[0]));
				rc[k].position = position;
				rc[k].first = k < nr ? rc[k + 1].first : n;
				rc[k].nsegs = 0;
				rc[k].length = 0;
				nr++;
			}
			ch = &rc[k];
		}
		if (++ch->nsegs > lim->max_segs)
			return RPCRDMA2_REASON_SEGMENTS;
		/*
		 * The n + 1 segments so far, this one included, lie in at
		 * most max_read_chunks Positions of at most max_segs each:
		 * n < max_read_chunks * max_segs <= reads_cap.
		 */
		at = ch->first + ch->nsegs - 1;
		if (at < n)
			read_segs_open(cl, n, at, k + 1, nr);
		cl->reads[at].position = position;
		p = decode_seg(p + XDR_WORD, &cl->reads[at].seg);
		ch->length += cl->reads[at].seg.length;
		m |= cl->reads[at].seg.handle == inv;
		n++;
		disc = xdr_get32(p);
		p += XDR_WORD;
	}
	cl->nr_reads = n;
	cl->nr_read_chunks = nr;
	*match = m;
	*pp = p;
	return RPCRDMA2_REASON_NONE;
}

/*
 * The segments of one Write or Reply chunk, whose count the caller has
 * checked against the bytes left and the limit. Locals only, so the
 * stores to @seg cannot force reloads of anything else.
 */
static inline const u8 *decode_segs(const u8 *p, u32 count,
				    struct rpcrdma2_seg *seg, u32 inv,
				    bool *match)
{
	bool m = false;

	for (; count; count--, seg++) {
		p = decode_seg(p, seg);
		m |= seg->handle == inv;
	}
	*match |= m;
	return p;
}

/*
 * A Write chunk or the Reply chunk (RFC 8166 §4.3.2, §4.3.3): a counted
 * array of segments. *pp points at the count; @trailer bytes must follow
 * the segments (the Write list's next discriminator). The count is
 * checked against the bytes left before the limit, so a count no buffer
 * could hold reads as truncation, as it is.
 */
static inline u32 decode_write_chunk(const u8 **pp, const u8 *end,
				     u32 trailer, u32 max_segs,
				     struct rpcrdma2_seg *seg, u32 inv,
				     bool *match, u32 *countp)
{
	const u8 *p = *pp;
	u32 count;

	if (bytes_left(p, end) < XDR_WORD + trailer)
		return RPCRDMA2_REASON_TRUNCATED;
	count = xdr_get32(p);
	p += XDR_WORD;
	if (count > (bytes_left(p, end) - trailer) / RPCRDMA2_SEGMENT_SIZE)
		return RPCRDMA2_REASON_TRUNCATED;
	if (count > max_segs)
		return RPCRDMA2_REASON_SEGMENTS;
	*pp = decode_segs(p, count, seg, inv, match);
	*countp = count;
	return RPCRDMA2_REASON_NONE;
}

/*
 * The Write list (RFC 8166 §4.3.2): a list of Write chunks, their
 * segments from the start of &rpcrdma2_chunk_lists.segs. Returns the
 * chunks in *@nwp and the segments in *@nsp.
 */
static u32 decode_write_list(const u8 **pp, const u8 *end,
			     const struct rpcrdma2_limits *lim,
			     struct rpcrdma2_chunk_lists *cl, u32 inv,
			     bool *match, u32 *nwp, u32 *nsp)
{
	const u8 *p = *pp;
	u32 nw = 0, ns = 0, reason, disc, count;

	if (bytes_left(p, end) < XDR_WORD)
		return RPCRDMA2_REASON_TRUNCATED;
	disc = xdr_get32(p);
	p += XDR_WORD;
	while (disc) {
		if (disc != 1)
			return RPCRDMA2_REASON_BAD_BOOL;
		if (nw == lim->max_write_chunks)
			return RPCRDMA2_REASON_WRITE_CHUNKS;
		/* nw < max_write_chunks <= writes_cap; ns + count fits too */
		reason = decode_write_chunk(&p, end, XDR_WORD, lim->max_segs,
					    cl->segs + ns, inv, match, &count);
		if (reason)
			return reason;
		cl->writes[nw].first = ns;
		cl->writes[nw].nsegs = count;
		nw++;
		ns += count;
		disc = xdr_get32(p);
		p += XDR_WORD;
	}
	*nwp = nw;
	*nsp = ns;
	*pp = p;
	return RPCRDMA2_REASON_NONE;
}

/*
 * The Reply chunk (RFC 8166 §4.3.3): an optional Write chunk, its
 * segments after the Write list's @ns; *@nsp grows by their number.
 */
static u32 decode_reply_chunk(const u8 **pp, const u8 *end,
			      const struct rpcrdma2_limits *lim,
			      struct rpcrdma2_chunk_lists *cl, u32 inv,
			      bool *match, u32 *nsp)
{
	const u8 *p = *pp;
	u32 reason, disc, count;

	if (bytes_left(p, end) < XDR_WORD)
		return RPCRDMA2_REASON_TRUNCATED;
	disc = xdr_get32(p);
	p += XDR_WORD;
	if (disc) {
		if (disc != 1)
			return RPCRDMA2_REASON_BAD_BOOL;
		reason = decode_write_chunk(&p, end, 0, lim->max_segs,
					    cl->segs + *nsp, inv, match,
					    &count);
		if (reason)
			return reason;
		cl->reply.first = *nsp;
		cl->reply.nsegs = count;
		cl->has_reply = true;
		*nsp += count;
	}
	*pp = p;
	return RPCRDMA2_REASON_NONE;
}

/*
 * rpcrdma2_chunk_lists minus rdma_inv_handle: the v1 rpc_rdma_header
 * (RFC 8166 §4.1.2) and the tail of v2 rpcrdma2_chunk_lists (draft v2
 * §3.3). *pp points at the Read list discriminator, already checked.
 * @reply: the v2 RPCRDMA2_F_RESPONSE flag (always false in v1).
 */
static u32 decode_chunk_lists(const u8 **pp, const u8 *end,
			      const struct rpcrdma2_limits *lim,
			      struct rpcrdma2_chunk_lists *cl, bool reply)
{
	const u8 *p = *pp;
	bool match = false;
	u32 reason, nw, ns;
	/*
	 * draft v2 §3.3 defines rdma_inv_handle for Calls only: a reply's
	 * value is not checked against its handles.
	 */
	u32 inv = reply ? 0 : cl->inv_handle;

	if (xdr_get32(p)) {
		/*
		 * RFC 8166 §4.3.1: "Responders MUST leave the Read list
		 * empty in all replies." Only v2 marks replies
		 * (RPCRDMA2_F_RESPONSE, draft v2 §3.2).
		 */
		if (reply)
			return RPCRDMA2_REASON_REPLY_READS;
		reason = decode_read_list(&p, end, lim, cl, inv, &match);
		if (reason)
			return reason;
	} else {
		p += XDR_WORD;
	}
	reason = decode_write_list(&p, end, lim, cl, inv, &match, &nw, &ns);
	if (reason)
		return reason;
	reason = decode_reply_chunk(&p, end, lim, cl, inv, &match, &ns);
	if (reason)
		return reason;
	cl->nr_writes = nw;
	cl->nr_segs = ns;
	/*
	 * draft v2 §3.3: a non-zero rdma_inv_handle in a Call matches one
	 * of the rdma_handle fields in that header (the caller passes 0
	 * for a reply).
	 */
	if (inv && !match)
		return RPCRDMA2_REASON_INV_HANDLE;
	*pp = p;
	return RPCRDMA2_REASON_NONE;
}

/* Malformed: answer with code 2, unless the message is itself an error */
static int reject_malformed(struct rpcrdma2_reject *rej, u32 reason,
			    bool is_error)
{
	/*
	 * RFC 8166 §4.5: "A receiver MUST silently discard an RDMA_ERROR
	 * procedure that it cannot decode." Errors are never answered.
	 */
	if (is_error)
		return reject_discard(rej, reason, -EIO);
	return reject_reply(rej, reason, ERR_MALFORMED, -EIO);
}

/**
 * rpcrdma2_error_arm_words - length of an error code's arm
 * @vers: rdma_vers of the header carrying it
 * @code: rdma_err value
 *
 * Number of arm words of an error code in @vers: v1 knows ERR_VERS and
 * ERR_CHUNK only (RFC 8166 §4.1.2); v2 gives every other code a void arm
 * (draft v2 §5.3.3). Shared with the encoder.
 *
 * Context: any.
 *
 * Return: the number of words after rdma_err, or -1 for a code v1 cannot
 * carry.
 */
int rpcrdma2_error_arm_words(u32 vers, u32 code)
{
	switch (code) {
	case RPCRDMA2_ERR_VERS:
		return 2;
	case RPCRDMA2_ERR_BAD_XDR:
		return 0;
	}
	if (vers != RPCRDMA2_VERS_2)
		return -1;
	switch (code) {
	case RPCRDMA2_ERR_READ_CHUNKS:
	case RPCRDMA2_ERR_WRITE_CHUNKS:
	case RPCRDMA2_ERR_SEGMENTS:
	case RPCRDMA2_ERR_REPLY_RESOURCE:
		return 1;
	case RPCRDMA2_ERR_WRITE_RESOURCE:
		return 2;
	}
	return 0;
}

/* RDMA_ERROR (RFC 8166 §4.5) and RDMA2_ERROR (draft v2 §5.3.3) bodies */
static int decode_error(const u8 *buf, const u8 *p, const u8 *end,
			struct rpcrdma2_hdr *hdr, struct rpcrdma2_reject *rej)
{
	struct rpcrdma2_error *err = &hdr->err;
	u32 w0, w1;
	int words;

	err->code = 0;
	err->v1_layout = false;
	err->vers.low = 0;
	err->vers.high = 0;
	if (bytes_left(p, end) < XDR_WORD)
		return reject_discard(rej, RPCRDMA2_REASON_TRUNCATED, -EIO);
	err->code = xdr_get32(p);
	p += XDR_WORD;
	words = rpcrdma2_error_arm_words(hdr->vers, err->code);
	if (words < 0)
		return reject_discard(rej, RPCRDMA2_REASON_BAD_ERROR, -EIO);
	if (bytes_left(p, end) < (size_t)words * XDR_WORD)
		return reject_discard(rej, RPCRDMA2_REASON_TRUNCATED, -EIO);
	w0 = words > 0 ? xdr_get32(p) : 0;
	w1 = words > 1 ? xdr_get32(p + XDR_WORD) : 0;
	p += words * XDR_WORD;

	switch (err->code) {
	case RPCRDMA2_ERR_VERS:
		err->vers.low = w0;
		err->vers.high = w1;
		break;
	case RPCRDMA2_ERR_READ_CHUNKS:
	case RPCRDMA2_ERR_WRITE_CHUNKS:
		err->max_chunks = w0;
		break;
	case RPCRDMA2_ERR_SEGMENTS:
		err->max_segs = w0;
		break;
	case RPCRDMA2_ERR_WRITE_RESOURCE:
		err->write.index = w0;
		err->write.length = w1;
		break;
	case RPCRDMA2_ERR_REPLY_RESOURCE:
		err->length_needed = w0;
		break;
	}
	hdr->hdr_len = (u32)(p - buf);
	return 0;
}

/*
 * One known property's rdma_data: empty means "the default" (draft v2
 * §4.1); otherwise it must be exactly the property's XDR type, a 4-byte
 * uint32 or enum here, or the message earns RDMA2_ERR_BAD_XDR.
 */
static bool decode_prop(struct rpcrdma2_props *props, u32 bit, u32 *val,
			u32 def, u32 max, const u8 *data, u32 dlen)
{
	props->present |= bit;
	if (!dlen) {
		props->dflt |= bit;
		*val = def;
		return true;
	}
	if (dlen != XDR_WORD || xdr_get32(data) > max)
		return false;
	props->dflt &= ~bit;
	*val = xdr_get32(data);
	return true;
}

/* RDMA2_CONNPROP: an rpcrdma2_propset (draft v2 §4.1, §5.3.4) */
static int decode_connprop(const u8 *buf, const u8 *p, const u8 *end,
			   struct rpcrdma2_hdr *hdr,
			   struct rpcrdma2_reject *rej)
{
	struct rpcrdma2_props *props = &hdr->props;
	u32 count, which, dlen;
	bool ok;

	props->present = 0;
	props->dflt = 0;
	props->rbsiz = RPCRDMA2_DEF_RBSIZ;
	props->brs = RPCRDMA2_DEF_BRS;
	if (bytes_left(p, end) < XDR_WORD)
		return reject_malformed(rej, RPCRDMA2_REASON_TRUNCATED, false);
	count = xdr_get32(p);
	p += XDR_WORD;
	/* each propval takes at least two words: bound the count first */
	if (count > bytes_left(p, end) / RPCRDMA2_PROPVAL_MIN_SIZE)
		return reject_malformed(rej, RPCRDMA2_REASON_TRUNCATED, false);
	while (count--) {
		if (bytes_left(p, end) < RPCRDMA2_PROPVAL_MIN_SIZE)
			return reject_malformed(rej, RPCRDMA2_REASON_TRUNCATED,
						false);
		which = xdr_get32(p);
		dlen = xdr_get32(p + XDR_WORD);
		p += RPCRDMA2_PROPVAL_MIN_SIZE;
		/*
		 * §4.1: rdma_data extending beyond the message is BAD_XDR.
		 * What is left is a multiple of 4, so the XDR roundup of
		 * dlen fits too.
		 */
		if (dlen > bytes_left(p, end))
			return reject_malformed(rej, RPCRDMA2_REASON_TRUNCATED,
						false);
		switch (which) {
		case RPCRDMA2_PROPID_RBSIZ:
			ok = decode_prop(props, RPCRDMA2_PROPF_RBSIZ,
					 &props->rbsiz, RPCRDMA2_DEF_RBSIZ,
					 0xffffffffU, p, dlen);
			break;
		case RPCRDMA2_PROPID_BRS:
			ok = decode_prop(props, RPCRDMA2_PROPF_BRS, &props->brs,
					 RPCRDMA2_DEF_BRS,
					 RPCRDMA2_RVREQSUP_GENL, p, dlen);
			break;
		default:
			/* §4.1: unknown properties are skipped, no error */
			ok = true;
		}
		if (!ok)
			return reject_malformed(rej, RPCRDMA2_REASON_PROPVAL,
						false);
		p += ((size_t)dlen + XDR_WORD - 1) & ~(size_t)(XDR_WORD - 1);
	}
	hdr->hdr_len = (u32)(p - buf);
	return 0;
}

/**
 * rpcrdma2_nomsg_has_payload - can a NOMSG's chunks hold the RPC message?
 * @hdr: an RDMA_NOMSG / RDMA2_NOMSG header with its chunk lists
 *
 * Does an RDMA_NOMSG / RDMA2_NOMSG carry a chunk that can hold the whole
 * Payload stream? RFC 8166 §4.2.4: one chunk "MUST be present and MUST
 * hold the Payload stream"; per §3.5.3 only a Position-Zero Read chunk
 * (Long Call) or the Reply chunk (Long Reply) can. A Write chunk or a
 * Read chunk at another position holds one data item, not the message.
 * draft v2 §5.3.2 says the same of RDMA2_NOMSG, and §3.2 ties
 * RPCRDMA2_F_RESPONSE to msg_type, so v2 can be exact: a Call needs the
 * Position-Zero Read chunk, a Reply the Reply chunk. v1 cannot tell a
 * call from a reply here; either chunk will do. Shared with the encoder.
 *
 * Context: any.
 *
 * Return: true if @hdr has a chunk that can hold the Payload stream.
 */
bool rpcrdma2_nomsg_has_payload(const struct rpcrdma2_hdr *hdr)
{
	const struct rpcrdma2_chunk_lists *cl = &hdr->cl;
	bool pz = reads_have_position(cl->reads, cl->nr_reads, 0);

	if (hdr->vers != RPCRDMA2_VERS_2)
		return pz || cl->has_reply;
	if (hdr->flags & RPCRDMA2_F_RESPONSE)
		return cl->has_reply;
	return pz;
}

/* RDMA_MSG / RDMA_NOMSG and RDMA2_MSG / RDMA2_NOMSG after the prefix */
static int decode_msg(const u8 *buf, const u8 *p, const u8 *end,
		      const struct rpcrdma2_limits *lim,
		      struct rpcrdma2_hdr *hdr, struct rpcrdma2_reject *rej)
{
	struct rpcrdma2_chunk_lists *cl = &hdr->cl;
	u32 reason, mtype;

	if (hdr->vers == RPCRDMA2_VERS_2) {
		if (bytes_left(p, end) < 2 * XDR_WORD)
			return reject_malformed(rej, RPCRDMA2_REASON_TRUNCATED,
						false);
		cl->inv_handle = xdr_get32(p);
		p += XDR_WORD;
	}
	/* v1: the 28-byte minimum left three words after the prefix */
	reason = decode_chunk_lists(&p, end, lim, cl,
				    hdr->flags & RPCRDMA2_F_RESPONSE);
	if (reason)
		return reject_chunks(rej, reason, hdr->vers, lim);
	hdr->hdr_len = (u32)(p - buf);

	if (hdr->htype == RPCRDMA2_HT_NOMSG) {
		/*
		 * RFC 8166 §4.2.4: one of the chunks MUST be present and
		 * hold the Payload stream; §4.5.2 names a NOMSG without any
		 * as an XDR error. draft v2 §5.3.2 keeps the definition.
		 */
		if (!cl->nr_reads && !cl->nr_writes && !cl->has_reply)
			return reject_malformed(rej,
						RPCRDMA2_REASON_NOMSG_EMPTY,
						false);
		if (!rpcrdma2_nomsg_has_payload(hdr))
			return reject_malformed(rej,
						RPCRDMA2_REASON_NOMSG_CHUNK,
						false);
		return 0;
	}

	/*
	 * RDMA_MSG: the Payload stream follows, beginning with its XID
	 * (RFC 8166 §4.2.4); v2 spells it rdma_rpc_first_word (§5.3.1).
	 */
	hdr->rpc_len = (u32)bytes_left(p, end);
	if (hdr->rpc_len < XDR_WORD)
		return reject_malformed(rej, RPCRDMA2_REASON_NO_PAYLOAD, false);
	if (hdr->vers == RPCRDMA2_VERS_1) {
		/* RFC 8166 §4.2.1 and §4.5.2: rdma_xid is the RPC XID */
		if (xdr_get32(p) != hdr->xid)
			return reject_malformed(rej,
						RPCRDMA2_REASON_XID_MISMATCH,
						false);
		return 0;
	}
	/*
	 * draft v2 §3.2: for RDMA2_MSG, RPCRDMA2_F_RESPONSE MUST equal the
	 * RPC msg_type (CALL 0, REPLY 1). v2 does not tie rdma_xid to the
	 * RPC XID (§10.1), so that is not checked here.
	 */
	if (hdr->rpc_len >= 2 * XDR_WORD) {
		mtype = xdr_get32(p + XDR_WORD);
		if (mtype <= RPCRDMA2_F_RESPONSE &&
		    mtype != (hdr->flags & RPCRDMA2_F_RESPONSE))
			return reject_malformed(rej, RPCRDMA2_REASON_MSG_TYPE,
						false);
	}
	return 0;
}

/* decode_v1() and decode_v2(): the prefix is fine, chunk lists follow */
#define DECODE_CHUNK_LISTS	1

static int decode_v1(const u8 *buf, const u8 *p, const u8 *end,
		     struct rpcrdma2_hdr *hdr, struct rpcrdma2_reject *rej)
{
	size_t len = bytes_left(buf, end);

	switch (hdr->htype) {
	case RPCRDMA2_V1_RDMA_DONE:
		/* RFC 8166 §4.6.2: receivers MUST silently discard */
		return reject_discard(rej, RPCRDMA2_REASON_DONE, -EOPNOTSUPP);
	case RPCRDMA2_V1_RDMA_ERROR:
		/*
		 * RFC 8166 §4.5 discards anything under 28 bytes, the
		 * minimal RDMA_MSG (four fixed words and three empty chunk
		 * lists), because its XID cannot be trusted. But the
		 * ERR_CHUNK form of rpc_rdma_errcode (§4.1.2) is only 20
		 * bytes (four fixed words and rdma_err), and ERR_VERS 28:
		 * applying the 28-byte rule to RDMA_ERROR would drop every
		 * valid ERR_CHUNK. We decode it; the XID matters only to
		 * the requester's lookup, and errors are never answered.
		 */
		if (len & (XDR_WORD - 1))
			return reject_malformed(rej, RPCRDMA2_REASON_UNALIGNED,
						true);
		return decode_error(buf, p, end, hdr, rej);
	}

	/* RFC 8166 §4.5: under 28 bytes the XID cannot be trusted */
	if (len < RPCRDMA2_V1_MIN_HDR_SIZE)
		return reject_discard(rej, RPCRDMA2_REASON_SHORT, -EIO);

	switch (hdr->htype) {
	case RPCRDMA2_V1_RDMA_MSG:
	case RPCRDMA2_V1_RDMA_NOMSG:
		break;
	case RPCRDMA2_V1_RDMA_MSGP:
		/* RFC 8166 §4.6.1: responders SHOULD answer ERR_CHUNK */
		return reject_reply(rej, RPCRDMA2_REASON_MSGP,
				    RPCRDMA2_V1_ERR_CHUNK, -EOPNOTSUPP);
	default:
		/* RFC 8166 §4.5.2: an invalid rdma_proc is an XDR error */
		return reject_reply(rej, RPCRDMA2_REASON_HTYPE,
				    RPCRDMA2_V1_ERR_CHUNK, -EOPNOTSUPP);
	}
	if (len & (XDR_WORD - 1))
		return reject_malformed(rej, RPCRDMA2_REASON_UNALIGNED, false);
	return DECODE_CHUNK_LISTS;
}

/*
 * A v1-only responder answers a version 2 Call in the version-independent
 * layout of RFC 8166 §4.5 (seven words: xid, the received rdma_vers,
 * credit, RDMA_ERROR, ERR_VERS, low, high), which the in-tree svcrdma
 * does. Read as RDMA2_ERROR it has ERR_VERS (1) for rdma_flags, which is
 * RPCRDMA2_F_RESPONSE, and its low version for rdma_err; whenever that
 * reading runs out of words (an error code whose arm does not fit in the
 * one word left), the message can only be this layout. Draft v2 §7.2
 * requires a client to understand the answer. Returns true, with @hdr
 * filled in, if @buf..@end is it.
 */
static bool decode_err_vers_v1_layout(const u8 *buf, const u8 *end,
				      struct rpcrdma2_hdr *hdr)
{
	u32 low, high;

	if (bytes_left(buf, end) != RPCRDMA2_V1_MIN_HDR_SIZE ||
	    xdr_get32(buf + 4 * XDR_WORD) != RPCRDMA2_V1_ERR_VERS)
		return false;
	low = xdr_get32(buf + 5 * XDR_WORD);
	high = xdr_get32(buf + 6 * XDR_WORD);
	if (!low || low > high)
		return false;
	hdr->flags = 0;
	hdr->err.code = RPCRDMA2_ERR_VERS;
	hdr->err.v1_layout = true;
	hdr->err.vers.low = low;
	hdr->err.vers.high = high;
	hdr->hdr_len = RPCRDMA2_V1_MIN_HDR_SIZE;
	return true;
}

static int decode_v2(const u8 *buf, const u8 *p, const u8 *end,
		     struct rpcrdma2_hdr *hdr, struct rpcrdma2_reject *rej)
{
	bool is_error = hdr->htype == RPCRDMA2_HT_ERROR;
	int rc;

	switch (hdr->htype) {
	case RPCRDMA2_HT_MSG:
	case RPCRDMA2_HT_NOMSG:
	case RPCRDMA2_HT_ERROR:
	case RPCRDMA2_HT_CONNPROP:
		break;
	default:
		/* draft v2 §5.2, §5.3.3 */
		return reject_reply(rej, RPCRDMA2_REASON_HTYPE,
				    RPCRDMA2_ERR_INVAL_HTYPE, -EOPNOTSUPP);
	}
	if (bytes_left(p, end) < XDR_WORD)
		return reject_malformed(rej, RPCRDMA2_REASON_TRUNCATED,
					is_error);
	hdr->flags = xdr_get32(p);
	p += XDR_WORD;
	/*
	 * §3.2: senders MUST zero the reserved bits; §9.4: a flag may be
	 * set only once the receiver said it is prepared for it, and this
	 * receiver knows none.
	 */
	if (hdr->flags & ~RPCRDMA2_F_RESPONSE)
		return reject_malformed(rej, RPCRDMA2_REASON_FLAGS, is_error);
	if (bytes_left(buf, end) & (XDR_WORD - 1))
		return reject_malformed(rej, RPCRDMA2_REASON_UNALIGNED,
					is_error);

	switch (hdr->htype) {
	case RPCRDMA2_HT_ERROR:
		/*
		 * §3.2: RDMA2_ERROR MUST set RPCRDMA2_F_RESPONSE; §5.3.3:
		 * it MUST NOT be sent by a requester. Drop it, as a
		 * responder drops RDMA_ERROR (RFC 8166 §4.2.4).
		 */
		if (!(hdr->flags & RPCRDMA2_F_RESPONSE))
			return reject_discard(rej, RPCRDMA2_REASON_NOT_RESPONSE,
					      -EIO);
		rc = decode_error(buf, p, end, hdr, rej);
		if (rc && rej->reason == RPCRDMA2_REASON_TRUNCATED &&
		    decode_err_vers_v1_layout(buf, end, hdr)) {
			rej->reason = RPCRDMA2_REASON_NONE;
			rej->discard = false;
			return 0;
		}
		return rc;
	case RPCRDMA2_HT_CONNPROP:
		return decode_connprop(buf, p, end, hdr, rej);
	}
	return DECODE_CHUNK_LISTS;
}

/**
 * rpcrdma2_chunk_lists_init - attach arrays and limits to a chunk list
 * @cl: chunk lists to initialise
 * @lim: how many chunks and segments the decoder is to accept
 * @reads: Read segment array
 * @reads_cap: its length
 * @read_chunks: Read chunk index array
 * @read_chunks_cap: its length
 * @writes: Write chunk array
 * @writes_cap: its length
 * @segs: Write and Reply chunk segment array
 * @segs_cap: its length
 *
 * Checks once that the arrays hold everything @lim allows, so that
 * rpcrdma2_decode() can rely on it for every message. @lim->vers_low and
 * @lim->vers_high both zero mean RPCRDMA2_VERS_MIN..RPCRDMA2_VERS_MAX.
 *
 * Context: any; does not sleep.
 *
 * Return: %0, or %-EINVAL if an array is smaller than @lim requires or
 * the version range is empty or outside 1..2 (@cl is then set up with
 * all chunk limits zero, accepting no chunks, and versions 1..2).
 */
int rpcrdma2_chunk_lists_init(struct rpcrdma2_chunk_lists *cl,
			      const struct rpcrdma2_limits *lim,
			      struct rpcrdma2_read_seg *reads, u32 reads_cap,
			      struct rpcrdma2_read_chunk *read_chunks,
			      u32 read_chunks_cap,
			      struct rpcrdma2_chunk *writes, u32 writes_cap,
			      struct rpcrdma2_seg *segs, u32 segs_cap)
{
	memset(cl, 0, sizeof(*cl));
	cl->reads = reads;
	cl->reads_cap = reads_cap;
	cl->read_chunks = read_chunks;
	cl->read_chunks_cap = read_chunks_cap;
	cl->writes = writes;
	cl->writes_cap = writes_cap;
	cl->segs = segs;
	cl->segs_cap = segs_cap;
	rpcrdma2_chunk_lists_set_vers(cl, 0);
	if (reads_cap < rpcrdma2_reads_needed(lim) ||
	    read_chunks_cap < lim->max_read_chunks ||
	    writes_cap < lim->max_write_chunks ||
	    segs_cap < rpcrdma2_segs_needed(lim))
		return -EINVAL;
	if ((lim->vers_low || lim->vers_high) &&
	    (lim->vers_low < RPCRDMA2_VERS_MIN ||
	     lim->vers_low > lim->vers_high ||
	     lim->vers_high > RPCRDMA2_VERS_MAX))
		return -EINVAL;
	cl->lim = *lim;
	if (!lim->vers_low && !lim->vers_high)
		rpcrdma2_chunk_lists_set_vers(cl, 0);
	return 0;
}
EXPORT_SYMBOL_GPL(rpcrdma2_chunk_lists_init);

/* rdma_vers is outside the range the caller's limits accept */
static int decode_bad_vers(size_t len, const struct rpcrdma2_hdr *hdr,
			   const struct rpcrdma2_limits *lim,
			   struct rpcrdma2_reject *rej)
{
	/* RFC 8166 §4.5: too short to trust even the version */
	if (len < RPCRDMA2_V1_MIN_HDR_SIZE)
		return reject_discard(rej, RPCRDMA2_REASON_SHORT, -EIO);
	/*
	 * A version we know but do not accept here: an RDMA_ERROR /
	 * RDMA2_ERROR (4 in both) is dropped, not answered (RFC 8166
	 * §4.2.4, draft v2 §5.3.3).
	 */
	if ((hdr->vers == RPCRDMA2_VERS_1 || hdr->vers == RPCRDMA2_VERS_2) &&
	    hdr->htype == RPCRDMA2_HT_ERROR)
		return reject_discard(rej, RPCRDMA2_REASON_VERS,
				      -EPROTONOSUPPORT);
	/*
	 * RFC 8166 §4.5.1, draft v2 §5.3.3 and §7.2: the range is the
	 * caller's, so a v1-only endpoint advertises 1..1.
	 */
	reject_reply(rej, RPCRDMA2_REASON_VERS, RPCRDMA2_ERR_VERS, 0);
	rej->reply.vers.low = lim->vers_low;
	rej->reply.vers.high = lim->vers_high;
	return -EPROTONOSUPPORT;
}

/* rpcrdma2_decode() with a responder's answer to every rejection */
static int decode_hdr(const u8 *buf, size_t len, struct rpcrdma2_hdr *hdr,
		      struct rpcrdma2_reject *rej)
{
	struct rpcrdma2_chunk_lists *cl = &hdr->cl;
	const struct rpcrdma2_limits *lim = &cl->lim;
	int rc;
	const u8 *p = buf, *end = p + len;

	/* the reject_*() helpers fill in the rest of @rej on failure */
	rej->reason = RPCRDMA2_REASON_NONE;
	hdr->xid = 0;
	hdr->vers = 0;
	hdr->credits = 0;
	hdr->htype = 0;
	hdr->flags = 0;
	hdr->hdr_len = 0;
	hdr->rpc_len = 0;
	cl->inv_handle = 0;
	cl->nr_reads = 0;
	cl->nr_read_chunks = 0;
	cl->nr_writes = 0;
	cl->nr_segs = 0;
	cl->has_reply = false;
	cl->reply.first = 0;
	cl->reply.nsegs = 0;

	/* the arrays hold what lim allows: rpcrdma2_chunk_lists_init() */
	if ((u32)len != len)
		return reject_discard(rej, RPCRDMA2_REASON_CALLER, -EINVAL);

	/* RFC 8166 §4.2: the four fixed words of every version */
	if (len < RPCRDMA2_FIXED_SIZE)
		return reject_discard(rej, RPCRDMA2_REASON_SHORT, -EIO);
	hdr->xid = xdr_get32(p);
	hdr->vers = xdr_get32(p + 4);
	hdr->credits = xdr_get32(p + 8);
	hdr->htype = xdr_get32(p + 12);
	p += RPCRDMA2_FIXED_SIZE;

	/* draft v2 §10.1: check rdma_vers before using any other field */
	switch (hdr->vers) {
	case RPCRDMA2_VERS_1:
		/* the range lies within 1..2: see rpcrdma2_chunk_lists_init() */
		if (lim->vers_low > RPCRDMA2_VERS_1)
			return decode_bad_vers(len, hdr, lim, rej);
		rc = decode_v1(buf, p, end, hdr, rej);
		break;
	case RPCRDMA2_VERS_2:
		if (lim->vers_high < RPCRDMA2_VERS_2)
			return decode_bad_vers(len, hdr, lim, rej);
		rc = decode_v2(buf, p, end, hdr, rej);
		p += XDR_WORD;	/* rdma_flags */
		break;
	default:
		return decode_bad_vers(len, hdr, lim, rej);
	}
	/* one call site: the common path stays in one function */
	if (rc != DECODE_CHUNK_LISTS)
		return rc;
	return decode_msg(buf, p, end, lim, hdr, rej);
}

/*
 * A rejected message that says it is a reply is discarded, never answered
 * (rpcrdma2_decode()). Only v2 says so, in rdma_flags (draft v2 §3.2), the
 * word after the four fixed ones in every v2 header type. It is read from
 * @buf, not from the parsed header: some rejections come before
 * decode_v2() reads rdma_flags (an unknown header type) or never get there
 * (decode_bad_vers()). Out of line, to keep the valid-header path short
 * (make bench-codec).
 */
static noinline int reject_v2_reply(const u8 *buf, size_t len,
				    struct rpcrdma2_reject *rej, int rc)
{
	if (!rej->discard && len >= RPCRDMA2_V2_PREFIX_SIZE &&
	    xdr_get32(buf + XDR_WORD) == RPCRDMA2_VERS_2 &&
	    (xdr_get32(buf + RPCRDMA2_FIXED_SIZE) & RPCRDMA2_F_RESPONSE))
		return reject_discard(rej, rej->reason, rc);
	return rc;
}

/**
 * rpcrdma2_decode - parse one received RPC-over-RDMA v1 or v2 header
 * @buf: the received message: transport header, then any RPC message
 * @len: its length in bytes
 * @hdr: parsed header; its chunk list arrays and limits must already be
 *	attached with rpcrdma2_chunk_lists_init()
 * @rej: on rejection, what the spec says to do about it
 *
 * Checks every count against the bytes left and against the limits in
 * @hdr->cl before use,
 * never reads outside @buf and never writes beyond the capacities in
 * @hdr->cl. On success, @hdr->hdr_len is where the RPC message starts and
 * @hdr->rpc_len its length (RDMA_MSG / RDMA2_MSG). On failure @hdr holds
 * what was parsed before the fault (at least xid, vers, credits and htype
 * when @len >= 16) and @rej says whether to discard the message or which
 * error, with its arm data, to send back (rpcrdma2_encode_reject()).
 *
 * A rejected reply is never answered. A v2 header whose rdma_flags word
 * (the fifth, when @len covers it) has RPCRDMA2_F_RESPONSE set says it is
 * a reply (draft v2 §3.2), so every rejection of one, whatever the
 * reason, sets @rej->discard: RFC 8166 §4.5 ("If errors are detected in
 * the RPC-over-RDMA header of an RPC Reply message, a Requester MUST
 * silently discard the message"), draft v2 §5.3.3 (error messages never
 * flow from requester to responder). @rej->reason still says why. That
 * covers rejections made before rdma_flags is parsed (an unknown header
 * type, a version outside the limits), and an RFC 8166-layout ERR_VERS
 * (&rpcrdma2_error.v1_layout), whose fifth word ERR_VERS reads as
 * RESPONSE: a well-formed one decodes, a malformed one is discarded, as
 * RFC 8166 §4.5 asks of any RDMA_ERROR that cannot be decoded. A v1
 * header does not say whether it is a call or a reply, so v1 rejections
 * (and v2 ones under 20 bytes, which lack rdma_flags) keep a responder's
 * answer: a requester must discard those itself, whatever @rej says.
 *
 * Context: any; does not sleep or allocate.
 *
 * Return:
 *   %0: @hdr is valid;
 *   %-EPROTONOSUPPORT: rdma_vers is outside the range in @hdr->cl.lim
 *	(1..2 by default);
 *   %-EOPNOTSUPP: unknown or unsupported header type (including v1
 *	RDMA_MSGP and RDMA_DONE);
 *   %-EIO: truncated or otherwise malformed header;
 *   %-E2BIG: more chunks or segments than the limits allow;
 *   %-EINVAL: @len does not fit in 32 bits.
 */
int rpcrdma2_decode(const void *buf, size_t len, struct rpcrdma2_hdr *hdr,
		    struct rpcrdma2_reject *rej)
{
	int rc = decode_hdr(buf, len, hdr, rej);

	if (rc)
		return reject_v2_reply(buf, len, rej, rc);
	return 0;
}
EXPORT_SYMBOL_GPL(rpcrdma2_decode);
