// SPDX-License-Identifier: GPL-2.0
/*
 * RPC-over-RDMA v1/v2 transport header encoders: rpcrdma2_encode() and
 * rpcrdma2_encode_reject(), with the checks that keep them from writing
 * anything rpcrdma2_decode() would reject.
 */
#include "codec_xdr.h"

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

		/* RFC 8166 §3.4.5; a Position may recur anywhere (§4.3.1) */
		if (rs->position & 3)
			return 0;
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
	if (hdr->htype == RPCRDMA2_HT_NOMSG && !rpcrdma2_nomsg_has_payload(hdr))
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
 * @hdr: header to encode. Never read: @hdr->hdr_len, @hdr->rpc_len,
 *	@hdr->cl.read_chunks with its count and capacity, @hdr->cl.lim;
 *	@hdr->err only for an error, @hdr->props only for RDMA2_CONNPROP,
 *	the rest of @hdr->cl only for RDMA_MSG / RDMA_NOMSG (v1 or v2).
 *	Every other field is read, @hdr->flags and @hdr->cl.inv_handle in
 *	v1 too (both must be zero there)
 * @buf: output buffer
 * @len: its size in bytes
 *
 * Writes the transport header only; for RDMA_MSG / RDMA2_MSG the caller
 * appends the RPC message. Version 1 writes RDMA_MSG, RDMA_NOMSG and
 * RDMA_ERROR; version 2 writes RDMA2_MSG, RDMA2_NOMSG, RDMA2_ERROR and
 * RDMA2_CONNPROP. Any other @hdr->vers may only carry an ERR_VERS error,
 * which is written in the version-independent RFC 8166 layout (the reply
 * to a header of an unsupported version copies its rdma_vers); so is a
 * version 2 ERR_VERS with @hdr->err.v1_layout, as a v1-only responder
 * sends it.
 *
 * Refuses what the specs forbid a sender to send: RDMA_MSGP and
 * RDMA_DONE (RFC 8166 §4.6), reserved rdma_flags bits (draft v2 §3.2),
 * RDMA2_ERROR without RPCRDMA2_F_RESPONSE (§3.2), a v1 error code other
 * than ERR_VERS / ERR_CHUNK, an unaligned Read position, an
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
	bool v1_layout = hdr->htype == RPCRDMA2_HT_ERROR &&
			 hdr->err.v1_layout;
	bool v2 = hdr->vers == RPCRDMA2_VERS_2 && !v1_layout;
	u64 size = v2 ? RPCRDMA2_V2_PREFIX_SIZE : RPCRDMA2_FIXED_SIZE;
	u64 body;
	int words;
	u8 *p = buf;

	/* the RFC 8166 layout of an ERR_VERS for another version's Call */
	if (v1_layout && (hdr->vers == RPCRDMA2_VERS_1 ||
			  hdr->err.code != RPCRDMA2_ERR_VERS))
		return -EINVAL;
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
		words = rpcrdma2_error_arm_words(v2 ? RPCRDMA2_VERS_2 :
						 RPCRDMA2_VERS_1,
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
	/* a v2 Call's ERR_VERS in the v2 layout (draft v2 §7.2) */
	out.err.v1_layout = false;
	return rpcrdma2_encode(&out, buf, len);
}
EXPORT_SYMBOL_GPL(rpcrdma2_encode_reject);
