// SPDX-License-Identifier: GPL-2.0
/*
 * RPC-over-RDMA Version 1 (RFC 8166) and Version 2
 * (draft-cel-nfsv4-rpcrdma-version-two-09) transport header codec.
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
#include <rpcrdma2/codec.h>

#define XDR_WORD	4

/*
 * In both versions malformed headers are answered with error code 2:
 * ERR_CHUNK in v1 (RFC 8166 §4.5.2), RDMA2_ERR_BAD_XDR in v2 (draft v2
 * §5.3.3 notes the values are the same).
 */
#define ERR_MALFORMED	RPCRDMA2_ERR_BAD_XDR

static inline u32 xdr_get32(const u8 *p)
{
	return get_unaligned_be32(p);
}

static inline u64 xdr_get64(const u8 *p)
{
	return get_unaligned_be64(p);
}

static inline u8 *xdr_put32(u8 *p, u32 val)
{
	put_unaligned_be32(val, p);
	return p + XDR_WORD;
}

static inline u8 *xdr_put64(u8 *p, u64 val)
{
	put_unaligned_be64(val, p);
	return p + 2 * XDR_WORD;
}

static inline size_t bytes_left(const u8 *p, const u8 *end)
{
	return (size_t)(end - p);
}

static int reject_discard(struct rpcrdma2_reject *rej, u32 reason, int rc)
{
	rej->reason = reason;
	rej->discard = true;
	rej->reply.code = 0;
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

static bool read_position_seen(const struct rpcrdma2_read_seg *reads, u32 n,
			       u32 position)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (reads[i].position == position)
			return true;
	return false;
}

static inline const u8 *decode_seg(const u8 *p, struct rpcrdma2_seg *seg)
{
	seg->handle = xdr_get32(p);
	seg->length = xdr_get32(p + 4);
	seg->offset = xdr_get64(p + 8);
	return p + RPCRDMA2_SEGMENT_SIZE;
}

/*
 * Read list (RFC 8166 §4.3.1, §4.7). *pp points at the first
 * discriminator, which the caller has checked and found non-zero. Every
 * entry is followed by another discriminator, so one check per entry
 * covers both. Kept out of line: most calls carry no Read list.
 */
static u32 decode_read_list(const u8 **pp, const u8 *end,
			    const struct rpcrdma2_limits *lim,
			    struct rpcrdma2_chunk_lists *cl, u32 inv,
			    bool *match)
{
	struct rpcrdma2_read_seg *reads = cl->reads;
	const u8 *p = *pp;
	u32 disc = xdr_get32(p);
	u32 n = 0, chunks = 0, run = 0, position, prev = 0;
	bool m = false;

	p += XDR_WORD;
	while (disc) {
		if (disc != 1)
			return RPCRDMA2_REASON_BAD_BOOL;
		if (bytes_left(p, end) < RPCRDMA2_READ_SEGMENT_SIZE + XDR_WORD)
			return RPCRDMA2_REASON_TRUNCATED;
		position = xdr_get32(p);
		if (!n || position != prev) {
			/* RFC 8166 §3.4.5: a Position MUST be a multiple of 4 */
			if (position & 3)
				return RPCRDMA2_REASON_POSITION;
			if (++chunks > lim->max_read_chunks)
				return RPCRDMA2_REASON_READ_CHUNKS;
			/*
			 * §3.4.5: a Read chunk is the segments that share
			 * one Position, concatenated in list order. Two data
			 * items cannot be reinserted at one offset, so a
			 * Position that comes back later is malformed. This
			 * is stricter than §3.4.5, which does not say that a
			 * chunk's segments must be adjacent in the list: we
			 * refuse (ERR_CHUNK / BAD_XDR) what we cannot place.
			 */
			if (n && read_position_seen(reads, n, position))
				return RPCRDMA2_REASON_READ_ORDER;
			prev = position;
			run = 0;
		}
		if (++run > lim->max_segs)
			return RPCRDMA2_REASON_SEGMENTS;
		/* n < max_read_chunks * max_segs <= reads_cap */
		reads[n].position = position;
		p = decode_seg(p + XDR_WORD, &reads[n].seg);
		m |= reads[n].seg.handle == inv;
		n++;
		disc = xdr_get32(p);
		p += XDR_WORD;
	}
	cl->nr_reads = n;
	cl->nr_read_chunks = chunks;
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
 * rpcrdma2_chunk_lists minus rdma_inv_handle: the v1 rpc_rdma_header
 * (RFC 8166 §4.1.2) and the tail of v2 rpcrdma2_chunk_lists (draft v2
 * §3.3). *pp points at the Read list discriminator, already checked.
 * @reply: the v2 RPCRDMA2_F_RESPONSE flag (always false in v1).
 */
static u32 decode_chunk_lists(const u8 **pp, const u8 *end,
			      const struct rpcrdma2_limits *lim,
			      struct rpcrdma2_chunk_lists *cl, bool reply)
{
	struct rpcrdma2_seg *segs = cl->segs;
	u32 nw = 0, ns = 0, reason, disc, count;
	const u8 *p = *pp;
	bool match = false;
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

	/* Write list (RFC 8166 §4.3.2): a list of counted arrays */
	if (bytes_left(p, end) < XDR_WORD)
		return RPCRDMA2_REASON_TRUNCATED;
	disc = xdr_get32(p);
	p += XDR_WORD;
	while (disc) {
		if (disc != 1)
			return RPCRDMA2_REASON_BAD_BOOL;
		if (nw == lim->max_write_chunks)
			return RPCRDMA2_REASON_WRITE_CHUNKS;
		/* the count, its segments and the next discriminator */
		if (bytes_left(p, end) < 2 * XDR_WORD)
			return RPCRDMA2_REASON_TRUNCATED;
		count = xdr_get32(p);
		p += XDR_WORD;
		if (count > (bytes_left(p, end) - XDR_WORD) /
			    RPCRDMA2_SEGMENT_SIZE)
			return RPCRDMA2_REASON_TRUNCATED;
		if (count > lim->max_segs)
			return RPCRDMA2_REASON_SEGMENTS;
		/* nw < max_write_chunks <= writes_cap; ns + count fits too */
		cl->writes[nw].first = ns;
		cl->writes[nw].nsegs = count;
		nw++;
		p = decode_segs(p, count, segs + ns, inv, &match);
		ns += count;
		disc = xdr_get32(p);
		p += XDR_WORD;
	}

	/* Reply chunk (RFC 8166 §4.3.3): an optional Write chunk */
	if (bytes_left(p, end) < XDR_WORD)
		return RPCRDMA2_REASON_TRUNCATED;
	disc = xdr_get32(p);
	p += XDR_WORD;
	if (disc) {
		if (disc != 1)
			return RPCRDMA2_REASON_BAD_BOOL;
		if (bytes_left(p, end) < XDR_WORD)
			return RPCRDMA2_REASON_TRUNCATED;
		count = xdr_get32(p);
		p += XDR_WORD;
		if (count > bytes_left(p, end) / RPCRDMA2_SEGMENT_SIZE)
			return RPCRDMA2_REASON_TRUNCATED;
		if (count > lim->max_segs)
			return RPCRDMA2_REASON_SEGMENTS;
		cl->reply.first = ns;
		cl->reply.nsegs = count;
		cl->has_reply = true;
		p = decode_segs(p, count, segs + ns, inv, &match);
		ns += count;
	}
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

/*
 * Number of arm words of an error code in @vers: v1 knows ERR_VERS and
 * ERR_CHUNK only (RFC 8166 §4.1.2); v2 gives every other code a void arm
 * (draft v2 §5.3.3). Returns -1 for a code v1 cannot carry.
 */
static int error_arm_words(u32 vers, u32 code)
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
	err->vers.low = 0;
	err->vers.high = 0;
	if (bytes_left(p, end) < XDR_WORD)
		return reject_discard(rej, RPCRDMA2_REASON_TRUNCATED, -EIO);
	err->code = xdr_get32(p);
	p += XDR_WORD;
	words = error_arm_words(hdr->vers, err->code);
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

/*
 * Does an RDMA_NOMSG / RDMA2_NOMSG carry a chunk that can hold the whole
 * Payload stream? RFC 8166 §4.2.4: one chunk "MUST be present and MUST
 * hold the Payload stream"; per §3.5.3 only a Position-Zero Read chunk
 * (Long Call) or the Reply chunk (Long Reply) can. A Write chunk or a
 * Read chunk at another position holds one data item, not the message.
 * draft v2 §5.3.2 says the same of RDMA2_NOMSG, and §3.2 ties
 * RPCRDMA2_F_RESPONSE to msg_type, so v2 can be exact: a Call needs the
 * Position-Zero Read chunk, a Reply the Reply chunk. v1 cannot tell a
 * call from a reply here; either chunk will do. Shared with the encoder.
 */
static bool nomsg_has_payload(const struct rpcrdma2_hdr *hdr)
{
	const struct rpcrdma2_chunk_lists *cl = &hdr->cl;
	bool pz = read_position_seen(cl->reads, cl->nr_reads, 0);

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
		if (!nomsg_has_payload(hdr))
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

static int decode_v2(const u8 *buf, const u8 *p, const u8 *end,
		     struct rpcrdma2_hdr *hdr, struct rpcrdma2_reject *rej)
{
	bool is_error = hdr->htype == RPCRDMA2_HT_ERROR;

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
		return decode_error(buf, p, end, hdr, rej);
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
			      struct rpcrdma2_chunk *writes, u32 writes_cap,
			      struct rpcrdma2_seg *segs, u32 segs_cap)
{
	memset(cl, 0, sizeof(*cl));
	cl->reads = reads;
	cl->reads_cap = reads_cap;
	cl->writes = writes;
	cl->writes_cap = writes_cap;
	cl->segs = segs;
	cl->segs_cap = segs_cap;
	cl->lim.vers_low = RPCRDMA2_VERS_MIN;
	cl->lim.vers_high = RPCRDMA2_VERS_MAX;
	if (reads_cap < rpcrdma2_reads_needed(lim) ||
	    writes_cap < lim->max_write_chunks ||
	    segs_cap < rpcrdma2_segs_needed(lim))
		return -EINVAL;
	if ((lim->vers_low || lim->vers_high) &&
	    (lim->vers_low < RPCRDMA2_VERS_MIN ||
	     lim->vers_low > lim->vers_high ||
	     lim->vers_high > RPCRDMA2_VERS_MAX))
		return -EINVAL;
	cl->lim = *lim;
	if (!lim->vers_low && !lim->vers_high) {
		cl->lim.vers_low = RPCRDMA2_VERS_MIN;
		cl->lim.vers_high = RPCRDMA2_VERS_MAX;
	}
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
EXPORT_SYMBOL_GPL(rpcrdma2_decode);

/*
 * Encoding. The encoders refuse (-EINVAL) every structure the decoder
 * would reject, so whatever they write decodes back to what they were
 * given; they size the whole header first, so nothing is written when
 * the buffer is too small.
 */

static bool encode_chunk_ok(const struct rpcrdma2_chunk_lists *cl,
			    const struct rpcrdma2_chunk *ch, bool *match,
			    u64 *size)
{
	u32 i;

	if (ch->first > cl->nr_segs || ch->nsegs > cl->nr_segs - ch->first)
		return false;
	for (i = 0; i < ch->nsegs; i++)
		*match |= cl->segs[ch->first + i].handle == cl->inv_handle;
	*size += XDR_WORD + (u64)ch->nsegs * RPCRDMA2_SEGMENT_SIZE;
	return true;
}

/* Size of the chunk lists of @hdr, or 0 if the decoder would refuse them */
static u64 encode_lists_size(const struct rpcrdma2_hdr *hdr)
{
	const struct rpcrdma2_chunk_lists *cl = &hdr->cl;
	u64 size = 3 * XDR_WORD;
	bool match = false;
	u32 i;

	if (hdr->vers == RPCRDMA2_VERS_2)
		size += XDR_WORD;
	else if (cl->inv_handle)
		return 0;
	if (cl->nr_reads > cl->reads_cap || cl->nr_writes > cl->writes_cap ||
	    cl->nr_segs > cl->segs_cap)
		return 0;
	for (i = 0; i < cl->nr_reads; i++) {
		const struct rpcrdma2_read_seg *rs = &cl->reads[i];

		if (!i || rs->position != cl->reads[i - 1].position) {
			if (rs->position & 3 ||
			    read_position_seen(cl->reads, i, rs->position))
				return 0;
		}
		match |= rs->seg.handle == cl->inv_handle;
		size += XDR_WORD + RPCRDMA2_READ_SEGMENT_SIZE;
	}
	for (i = 0; i < cl->nr_writes; i++) {
		if (!encode_chunk_ok(cl, &cl->writes[i], &match, &size))
			return 0;
		size += XDR_WORD;
	}
	if (cl->has_reply && !encode_chunk_ok(cl, &cl->reply, &match, &size))
		return 0;
	/* RFC 8166 §4.3.1: no Read list in a reply */
	if (hdr->flags & RPCRDMA2_F_RESPONSE && cl->nr_reads)
		return 0;
	/* RFC 8166 §4.2.4, draft v2 §5.3.2: a chunk holds the message */
	if (hdr->htype == RPCRDMA2_HT_NOMSG && !nomsg_has_payload(hdr))
		return 0;
	/* draft v2 §3.3: a Call's rdma_inv_handle names one of its handles */
	if (cl->inv_handle && !match && !(hdr->flags & RPCRDMA2_F_RESPONSE))
		return 0;
	return size;
}

static u8 *encode_chunk(u8 *p, const struct rpcrdma2_chunk_lists *cl,
			const struct rpcrdma2_chunk *ch)
{
	const struct rpcrdma2_seg *seg = &cl->segs[ch->first];
	u32 i;

	p = xdr_put32(p, ch->nsegs);
	for (i = 0; i < ch->nsegs; i++, seg++) {
		p = xdr_put32(p, seg->handle);
		p = xdr_put32(p, seg->length);
		p = xdr_put64(p, seg->offset);
	}
	return p;
}

static u8 *encode_lists(u8 *p, const struct rpcrdma2_hdr *hdr)
{
	const struct rpcrdma2_chunk_lists *cl = &hdr->cl;
	u32 i;

	if (hdr->vers == RPCRDMA2_VERS_2)
		p = xdr_put32(p, cl->inv_handle);
	for (i = 0; i < cl->nr_reads; i++) {
		const struct rpcrdma2_read_seg *rs = &cl->reads[i];

		p = xdr_put32(p, 1);
		p = xdr_put32(p, rs->position);
		p = xdr_put32(p, rs->seg.handle);
		p = xdr_put32(p, rs->seg.length);
		p = xdr_put64(p, rs->seg.offset);
	}
	p = xdr_put32(p, 0);
	for (i = 0; i < cl->nr_writes; i++) {
		p = xdr_put32(p, 1);
		p = encode_chunk(p, cl, &cl->writes[i]);
	}
	p = xdr_put32(p, 0);
	if (!cl->has_reply)
		return xdr_put32(p, 0);
	p = xdr_put32(p, 1);
	return encode_chunk(p, cl, &cl->reply);
}

static u8 *encode_error(u8 *p, const struct rpcrdma2_error *err)
{
	p = xdr_put32(p, err->code);
	switch (err->code) {
	case RPCRDMA2_ERR_VERS:
		p = xdr_put32(p, err->vers.low);
		return xdr_put32(p, err->vers.high);
	case RPCRDMA2_ERR_READ_CHUNKS:
	case RPCRDMA2_ERR_WRITE_CHUNKS:
		return xdr_put32(p, err->max_chunks);
	case RPCRDMA2_ERR_SEGMENTS:
		return xdr_put32(p, err->max_segs);
	case RPCRDMA2_ERR_WRITE_RESOURCE:
		p = xdr_put32(p, err->write.index);
		return xdr_put32(p, err->write.length);
	case RPCRDMA2_ERR_REPLY_RESOURCE:
		return xdr_put32(p, err->length_needed);
	}
	return p;
}

static u64 encode_props_size(const struct rpcrdma2_props *props)
{
	const u32 known = RPCRDMA2_PROPF_RBSIZ | RPCRDMA2_PROPF_BRS;
	u64 size = XDR_WORD;
	u32 bit;

	if (props->present & ~known || props->dflt & ~props->present)
		return 0;
	if (props->present & ~props->dflt & RPCRDMA2_PROPF_BRS &&
	    props->brs > RPCRDMA2_RVREQSUP_GENL)
		return 0;
	for (bit = RPCRDMA2_PROPF_RBSIZ; bit & known; bit <<= 1) {
		if (props->present & bit)
			size += RPCRDMA2_PROPVAL_MIN_SIZE +
				(props->dflt & bit ? 0 : XDR_WORD);
	}
	return size;
}

static u8 *encode_prop(u8 *p, const struct rpcrdma2_props *props, u32 bit,
		       u32 propid, u32 val)
{
	if (!(props->present & bit))
		return p;
	p = xdr_put32(p, propid);
	if (props->dflt & bit)
		return xdr_put32(p, 0);
	p = xdr_put32(p, XDR_WORD);
	return xdr_put32(p, val);
}

static u8 *encode_props(u8 *p, const struct rpcrdma2_props *props)
{
	u32 n = !!(props->present & RPCRDMA2_PROPF_RBSIZ) +
		!!(props->present & RPCRDMA2_PROPF_BRS);

	p = xdr_put32(p, n);
	p = encode_prop(p, props, RPCRDMA2_PROPF_RBSIZ,
			RPCRDMA2_PROPID_RBSIZ, props->rbsiz);
	return encode_prop(p, props, RPCRDMA2_PROPF_BRS, RPCRDMA2_PROPID_BRS,
			   props->brs);
}

/**
 * rpcrdma2_encode - write an RPC-over-RDMA v1 or v2 transport header
 * @hdr: header to encode; @hdr->hdr_len, @hdr->rpc_len and
 *	@hdr->cl.nr_read_chunks are ignored
 * @buf: output buffer
 * @len: its size in bytes
 *
 * Writes the transport header only; for RDMA_MSG / RDMA2_MSG the caller
 * appends the RPC message. Version 1 writes RDMA_MSG, RDMA_NOMSG and
 * RDMA_ERROR; version 2 writes RDMA2_MSG, RDMA2_NOMSG, RDMA2_ERROR and
 * RDMA2_CONNPROP. Any other @hdr->vers may only carry an ERR_VERS error,
 * which is written in the version-independent RFC 8166 layout (the reply
 * to a header of an unsupported version copies its rdma_vers).
 *
 * Refuses what the specs forbid a sender to send: RDMA_MSGP and
 * RDMA_DONE (RFC 8166 §4.6), reserved rdma_flags bits (draft v2 §3.2),
 * RDMA2_ERROR without RPCRDMA2_F_RESPONSE (§3.2), a v1 error code other
 * than ERR_VERS / ERR_CHUNK, an unaligned or repeated Read position, an
 * RDMA_NOMSG without a chunk that holds the RPC message (RFC 8166
 * §4.2.4: a Position-Zero Read chunk or the Reply chunk; in v2 the one
 * RPCRDMA2_F_RESPONSE calls for), a Read list in a v2 reply (RFC 8166
 * §4.3.1), a Call's rdma_inv_handle matching no handle (draft v2 §3.3),
 * and counts or chunk ranges outside the arrays (a chunk's
 * segments must lie within the first @hdr->cl.nr_segs entries of segs).
 *
 * Context: any; does not sleep or allocate.
 *
 * Return: bytes written (a multiple of 4), %-EMSGSIZE if @len is too
 * small (nothing is written then), or %-EINVAL if @hdr cannot be sent.
 */
int rpcrdma2_encode(const struct rpcrdma2_hdr *hdr, void *buf, size_t len)
{
	bool v2 = hdr->vers == RPCRDMA2_VERS_2;
	u64 size = v2 ? RPCRDMA2_V2_PREFIX_SIZE : RPCRDMA2_FIXED_SIZE;
	u64 body;
	int words;
	u8 *p = buf;

	if (v2) {
		if (hdr->flags & ~RPCRDMA2_F_RESPONSE)
			return -EINVAL;
	} else if (hdr->flags) {
		return -EINVAL;
	}
	if (hdr->vers != RPCRDMA2_VERS_1 && !v2 &&
	    (hdr->htype != RPCRDMA2_HT_ERROR ||
	     hdr->err.code != RPCRDMA2_ERR_VERS))
		return -EINVAL;

	switch (hdr->htype) {
	case RPCRDMA2_HT_MSG:
	case RPCRDMA2_HT_NOMSG:
		body = encode_lists_size(hdr);
		break;
	case RPCRDMA2_HT_ERROR:
		if (v2 && !(hdr->flags & RPCRDMA2_F_RESPONSE))
			return -EINVAL;
		words = error_arm_words(v2 ? RPCRDMA2_VERS_2 : RPCRDMA2_VERS_1,
					hdr->err.code);
		body = words < 0 ? 0 : XDR_WORD * (1 + (u64)words);
		break;
	case RPCRDMA2_HT_CONNPROP:
		body = v2 ? encode_props_size(&hdr->props) : 0;
		break;
	default:
		body = 0;
	}
	if (!body)
		return -EINVAL;
	size += body;
	if (size > len || size > 0x7fffffff)
		return -EMSGSIZE;

	p = xdr_put32(p, hdr->xid);
	p = xdr_put32(p, hdr->vers);
	p = xdr_put32(p, hdr->credits);
	p = xdr_put32(p, hdr->htype);
	if (v2)
		p = xdr_put32(p, hdr->flags);
	switch (hdr->htype) {
	case RPCRDMA2_HT_ERROR:
		encode_error(p, &hdr->err);
		break;
	case RPCRDMA2_HT_CONNPROP:
		encode_props(p, &hdr->props);
		break;
	default:
		encode_lists(p, hdr);
	}
	return (int)size;
}
EXPORT_SYMBOL_GPL(rpcrdma2_encode);

/**
 * rpcrdma2_encode_reject - write the error a rejected header calls for
 * @in: the rejected header, as rpcrdma2_decode() left it
 * @rej: the rejection rpcrdma2_decode() reported
 * @credits: our credit grant, for rdma_credit
 * @buf: output buffer
 * @len: its size in bytes
 *
 * Copies rdma_xid and rdma_vers from @in, sets the error header type
 * and, in v2, RPCRDMA2_F_RESPONSE (RFC 8166 §4.5, draft v2 §3.2 and
 * §5.3.3), then the error code and arm from @rej->reply.
 *
 * Context: any; does not sleep or allocate.
 *
 * Return: bytes written, %-EMSGSIZE if @len is too small, or %-EINVAL if
 * @rej says to discard (there is nothing to send).
 */
int rpcrdma2_encode_reject(const struct rpcrdma2_hdr *in,
			   const struct rpcrdma2_reject *rej, u32 credits,
			   void *buf, size_t len)
{
	struct rpcrdma2_hdr out;

	if (rej->discard || rej->reason == RPCRDMA2_REASON_NONE)
		return -EINVAL;
	memset(&out, 0, sizeof(out));
	out.xid = in->xid;
	out.vers = in->vers;
	out.credits = credits;
	out.htype = RPCRDMA2_HT_ERROR;
	if (in->vers == RPCRDMA2_VERS_2)
		out.flags = RPCRDMA2_F_RESPONSE;
	out.err = rej->reply;
	return rpcrdma2_encode(&out, buf, len);
}
EXPORT_SYMBOL_GPL(rpcrdma2_encode_reject);

static const char *const v2_errcode_names[] = {
	[RPCRDMA2_ERR_VERS]		= "RDMA2_ERR_VERS",
	[RPCRDMA2_ERR_BAD_XDR]		= "RDMA2_ERR_BAD_XDR",
	[RPCRDMA2_ERR_INVAL_HTYPE]	= "RDMA2_ERR_INVAL_HTYPE",
	[RPCRDMA2_ERR_READ_CHUNKS]	= "RDMA2_ERR_READ_CHUNKS",
	[RPCRDMA2_ERR_WRITE_CHUNKS]	= "RDMA2_ERR_WRITE_CHUNKS",
	[RPCRDMA2_ERR_SEGMENTS]		= "RDMA2_ERR_SEGMENTS",
	[RPCRDMA2_ERR_WRITE_RESOURCE]	= "RDMA2_ERR_WRITE_RESOURCE",
	[RPCRDMA2_ERR_REPLY_RESOURCE]	= "RDMA2_ERR_REPLY_RESOURCE",
	[RPCRDMA2_ERR_SYSTEM]		= "RDMA2_ERR_SYSTEM",
};

/**
 * rpcrdma2_errcode_name - the spec's name of an error code
 * @vers: version of the header carrying it
 * @code: rdma_err value
 *
 * Context: any.
 *
 * Return: "ERR_VERS" or "ERR_CHUNK" for any version but 2, an
 * "RDMA2_ERR_..." name for version 2, or "UNKNOWN".
 */
const char *rpcrdma2_errcode_name(u32 vers, u32 code)
{
	if (vers == RPCRDMA2_VERS_2) {
		if (code < ARRAY_SIZE(v2_errcode_names) &&
		    v2_errcode_names[code])
			return v2_errcode_names[code];
		return "UNKNOWN";
	}
	switch (code) {
	case RPCRDMA2_V1_ERR_VERS:
		return "ERR_VERS";
	case RPCRDMA2_V1_ERR_CHUNK:
		return "ERR_CHUNK";
	}
	return "UNKNOWN";
}
EXPORT_SYMBOL_GPL(rpcrdma2_errcode_name);

static const char *const reason_names[RPCRDMA2_REASON_COUNT] = {
	[RPCRDMA2_REASON_NONE]		= "NONE",
	[RPCRDMA2_REASON_SHORT]		= "SHORT",
	[RPCRDMA2_REASON_VERS]		= "VERS",
	[RPCRDMA2_REASON_HTYPE]		= "HTYPE",
	[RPCRDMA2_REASON_MSGP]		= "RDMA_MSGP",
	[RPCRDMA2_REASON_DONE]		= "RDMA_DONE",
	[RPCRDMA2_REASON_TRUNCATED]	= "TRUNCATED",
	[RPCRDMA2_REASON_UNALIGNED]	= "UNALIGNED",
	[RPCRDMA2_REASON_FLAGS]		= "FLAGS",
	[RPCRDMA2_REASON_BAD_BOOL]	= "BAD_BOOL",
	[RPCRDMA2_REASON_READ_CHUNKS]	= "READ_CHUNKS",
	[RPCRDMA2_REASON_WRITE_CHUNKS]	= "WRITE_CHUNKS",
	[RPCRDMA2_REASON_SEGMENTS]	= "SEGMENTS",
	[RPCRDMA2_REASON_POSITION]	= "POSITION",
	[RPCRDMA2_REASON_READ_ORDER]	= "READ_ORDER",
	[RPCRDMA2_REASON_INV_HANDLE]	= "INV_HANDLE",
	[RPCRDMA2_REASON_NOMSG_EMPTY]	= "NOMSG_EMPTY",
	[RPCRDMA2_REASON_NOMSG_CHUNK]	= "NOMSG_CHUNK",
	[RPCRDMA2_REASON_REPLY_READS]	= "REPLY_READS",
	[RPCRDMA2_REASON_NO_PAYLOAD]	= "NO_PAYLOAD",
	[RPCRDMA2_REASON_XID_MISMATCH]	= "XID_MISMATCH",
	[RPCRDMA2_REASON_MSG_TYPE]	= "MSG_TYPE",
	[RPCRDMA2_REASON_NOT_RESPONSE]	= "NOT_RESPONSE",
	[RPCRDMA2_REASON_BAD_ERROR]	= "BAD_ERROR",
	[RPCRDMA2_REASON_PROPVAL]	= "PROPVAL",
	[RPCRDMA2_REASON_CALLER]	= "CALLER",
};

/**
 * rpcrdma2_reason_name - short name of a rejection reason
 * @reason: enum rpcrdma2_reason
 *
 * Context: any.
 *
 * Return: e.g. "TRUNCATED", "RDMA_DONE", "INV_HANDLE"; "UNKNOWN" for an
 * out-of-range value.
 */
const char *rpcrdma2_reason_name(u32 reason)
{
	if (reason < RPCRDMA2_REASON_COUNT)
		return reason_names[reason];
	return "UNKNOWN";
}
EXPORT_SYMBOL_GPL(rpcrdma2_reason_name);

/**
 * rpcrdma2_htype_name - the spec's name of a header type
 * @vers: rdma_vers of the header
 * @htype: rdma_htype (v1 rdma_proc)
 *
 * Context: any.
 *
 * Return: "RDMA_MSG" .. "RDMA_ERROR" in v1, "RDMA2_MSG" ..
 * "RDMA2_CONNPROP" in v2, otherwise "UNKNOWN".
 */
const char *rpcrdma2_htype_name(u32 vers, u32 htype)
{
	static const char *const v1[] = {
		"RDMA_MSG", "RDMA_NOMSG", "RDMA_MSGP", "RDMA_DONE",
		"RDMA_ERROR",
	};
	static const char *const v2[] = {
		"RDMA2_MSG", "RDMA2_NOMSG", NULL, NULL, "RDMA2_ERROR",
		"RDMA2_CONNPROP",
	};

	if (vers == RPCRDMA2_VERS_1 && htype < ARRAY_SIZE(v1))
		return v1[htype];
	if (vers == RPCRDMA2_VERS_2 && htype < ARRAY_SIZE(v2) && v2[htype])
		return v2[htype];
	return "UNKNOWN";
}
EXPORT_SYMBOL_GPL(rpcrdma2_htype_name);
