// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 8797 RDMA-CM private data for RPC-over-RDMA: build our message,
 * find and check the peer's, and derive the connection's inline thresholds.
 *
 * Everything a peer sends is untrusted: rdma_cm hands the passive side a
 * zero-padded buffer (56 bytes on IB/RoCE) and the active side up to 196
 * bytes, other layers may put their own private data around ours, and
 * private_data_len says nothing about where our message is. The parser
 * therefore searches, bounds-checks and never reads past @len.
 */

#include <rpcrdma2/cm_pdata.h>

static void rpcrdma2_cm_pdata_set_defaults(struct rpcrdma2_cm_pdata *pd)
{
	/*
	 * RFC 8797 §5.1: act as if a message arrived with the R bit clear
	 * and both Size fields zero, i.e. the RFC 8166 §3.3.3 defaults.
	 * version 0 marks these as defaults rather than received values.
	 */
	pd->version = 0;
	pd->reminv = false;
	pd->send_size = rpcrdma2_cm_pdata_size_decode(0);
	pd->recv_size = rpcrdma2_cm_pdata_size_decode(0);
}

/**
 * rpcrdma2_cm_pdata_build - build our RFC 8797 private data message
 * @buf: where to write the message
 * @len: size of @buf in bytes
 * @reminv: set the R bit: we support remote invalidation (RFC 8797 §4.1)
 * @send_size: largest message we will post with one RDMA Send, in bytes
 * @recv_size: largest message we can accept with one RDMA Receive, in bytes
 *
 * Writes the 8-octet version 1 message of RFC 8797 §4 at the start of @buf
 * and nothing else. Sizes are clamped to 1 KiB..256 KiB and rounded down
 * to a multiple of 1 KiB (§4.2); reserved flag bits are sent as zero (§4).
 *
 * Context: Any context.
 * Return: the number of bytes written (RPCRDMA2_CM_PDATA_SIZE), or
 * %-EMSGSIZE if @len is too small to hold the message.
 */
int rpcrdma2_cm_pdata_build(void *buf, size_t len, bool reminv,
			    u32 send_size, u32 recv_size)
{
	u8 *p = buf;

	if (len < RPCRDMA2_CM_PDATA_SIZE)
		return -EMSGSIZE;

	put_unaligned_be32(RPCRDMA2_CM_PDATA_MAGIC,
			   p + RPCRDMA2_CM_PDATA_OFF_MAGIC);
	p[RPCRDMA2_CM_PDATA_OFF_VERSION] = RPCRDMA2_CM_PDATA_VERSION;
	p[RPCRDMA2_CM_PDATA_OFF_FLAGS] = reminv ? RPCRDMA2_CM_PDATA_F_REMINV : 0;
	p[RPCRDMA2_CM_PDATA_OFF_SEND] = rpcrdma2_cm_pdata_size_encode(send_size);
	p[RPCRDMA2_CM_PDATA_OFF_RECV] = rpcrdma2_cm_pdata_size_encode(recv_size);
	return RPCRDMA2_CM_PDATA_SIZE;
}
EXPORT_SYMBOL_GPL(rpcrdma2_cm_pdata_build);

/*
 * RFC 8797 §5.2: the Format Identifier may sit at any offset, with no
 * alignment. Returns the offset of its first occurrence, or @len if it
 * does not occur completely inside the buffer.
 */
static size_t rpcrdma2_cm_pdata_find(const u8 *p, size_t len)
{
	size_t off;

	if (len < sizeof(u32))
		return len;
	for (off = 0; off <= len - sizeof(u32); off++)
		if (get_unaligned_be32(p + off) == RPCRDMA2_CM_PDATA_MAGIC)
			return off;
	return len;
}

/**
 * rpcrdma2_cm_pdata_parse - find and check a peer's RFC 8797 private data
 * @buf: received CM private data; may be NULL when @len is zero
 * @len: number of valid bytes at @buf (rdma_cm's private_data_len)
 * @out: the decoded message, or the defaults
 *
 * Searches @buf for the Format Identifier at every byte offset (RFC 8797
 * §5.2) and parses the message that starts at the first occurrence; a
 * later occurrence is never considered, even if the first one fails the
 * checks below ("once the Format Identifier is found, the receiver parses
 * the subsequent octets"). As §5.2 advises, the message must fit inside
 * @len and carry a recognized version (only 1, whose length is exactly 8
 * octets, §4). Reserved flag bits are ignored (§4); every Size octet is
 * valid (§4.2). Reads at most @len bytes of @buf.
 *
 * On any error @out holds what RFC 8797 §5.1 says to assume when no
 * conforming message arrived: version 0, R clear, both sizes 1024.
 *
 * Context: Any context.
 * Return:
 * * %0 - a valid message was found; @out holds its values
 * * %-ENOENT - the Format Identifier does not occur in @buf
 * * %-EMSGSIZE - the message starting at the identifier overruns @len
 * * %-EPROTO - the message carries a version other than 1
 */
int rpcrdma2_cm_pdata_parse(const void *buf, size_t len,
			    struct rpcrdma2_cm_pdata *out)
{
	const u8 *p = buf;
	size_t off;

	rpcrdma2_cm_pdata_set_defaults(out);
	if (!p)
		return -ENOENT;

	off = rpcrdma2_cm_pdata_find(p, len);
	if (off == len)
		return -ENOENT;
	if (len - off < RPCRDMA2_CM_PDATA_SIZE)
		return -EMSGSIZE;
	p += off;
	if (p[RPCRDMA2_CM_PDATA_OFF_VERSION] != RPCRDMA2_CM_PDATA_VERSION)
		return -EPROTO;

	out->version = p[RPCRDMA2_CM_PDATA_OFF_VERSION];
	out->reminv = p[RPCRDMA2_CM_PDATA_OFF_FLAGS] & RPCRDMA2_CM_PDATA_F_REMINV;
	out->send_size = rpcrdma2_cm_pdata_size_decode(p[RPCRDMA2_CM_PDATA_OFF_SEND]);
	out->recv_size = rpcrdma2_cm_pdata_size_decode(p[RPCRDMA2_CM_PDATA_OFF_RECV]);
	return 0;
}
EXPORT_SYMBOL_GPL(rpcrdma2_cm_pdata_parse);

/* The size the peer sees for @size once it has been through the wire. */
static u32 rpcrdma2_cm_pdata_wire_size(u32 size)
{
	return rpcrdma2_cm_pdata_size_decode(rpcrdma2_cm_pdata_size_encode(size));
}

static u32 rpcrdma2_cm_pdata_min(u32 a, u32 b)
{
	return a < b ? a : b;
}

/**
 * rpcrdma2_cm_pdata_negotiate - derive a connection's two inline thresholds
 * @peer: the peer's private data as returned by rpcrdma2_cm_pdata_parse(),
 *	or NULL if none was received
 * @own_send: the Send Size we advertised, in bytes
 * @own_recv: the Receive Size we advertised, in bytes
 * @def_inline: what to assume for both of the peer's sizes when @peer is
 *	NULL or holds defaults (version 0): RPCRDMA2_V1_DEF_INLINE (RFC 8797
 *	§5.1, RFC 8166 §3.3.3), or RPCRDMA2_V2_DEF_INLINE once both peers are
 *	known to speak version 2 (draft-cel-nfsv4-rpcrdma-version-two-09 §7.1)
 * @send_threshold: OUT: the largest message we may send inline
 * @recv_threshold: OUT: the largest message the peer will send us inline
 *
 * RFC 8797 §4.2 (and RFC 8166 §3.3.2): each direction's inline threshold is
 * the smaller of the sender's Send Size and the receiver's Receive Size.
 * Each side runs the same rule from its own point of view, so
 *
 *	@send_threshold = min(@own_send, peer's Receive Size)
 *	@recv_threshold = min(peer's Send Size, @own_recv)
 *
 * and the client's send threshold equals the server's receive threshold
 * (the call inline threshold) and vice versa (the reply inline threshold).
 * A requester uses @recv_threshold to decide when it must offer a Reply
 * chunk (RFC 8166 §4.3.3); a responder uses @send_threshold to decide
 * when it must use one.
 *
 * A received message always wins over @def_inline. Our own sizes are
 * taken as the peer sees them: clamped and rounded down as on the wire,
 * so both sides compute the same values. If we sent no private data the
 * peer assumes the defaults for us too: pass @def_inline as @own_send and
 * @own_recv. Both results are multiples of 1024 in 1 KiB..256 KiB.
 *
 * Context: Any context.
 */
void rpcrdma2_cm_pdata_negotiate(const struct rpcrdma2_cm_pdata *peer,
				 u32 own_send, u32 own_recv, u32 def_inline,
				 u32 *send_threshold, u32 *recv_threshold)
{
	u32 peer_send = def_inline;
	u32 peer_recv = def_inline;

	if (peer && peer->version == RPCRDMA2_CM_PDATA_VERSION) {
		peer_send = peer->send_size;
		peer_recv = peer->recv_size;
	}

	*send_threshold = rpcrdma2_cm_pdata_min(rpcrdma2_cm_pdata_wire_size(own_send),
						rpcrdma2_cm_pdata_wire_size(peer_recv));
	*recv_threshold = rpcrdma2_cm_pdata_min(rpcrdma2_cm_pdata_wire_size(peer_send),
						rpcrdma2_cm_pdata_wire_size(own_recv));
}
EXPORT_SYMBOL_GPL(rpcrdma2_cm_pdata_negotiate);
