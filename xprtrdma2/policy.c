// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma2 policy: the client's pure decisions (inline thresholds,
 * which errno an RDMA2_ERROR becomes, whether a returned chunk is ours),
 * kept free of I/O so KUnit can test them. Those every RPC makes (the
 * credit grant, the version verdict, which chunks a Call needs) are
 * static inlines in xprt_rdma2.h.
 */
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <kunit/visibility.h>

#include "xprt_rdma2.h"

/**
 * rpcrdma2_send_threshold - the largest Call we may send inline
 * @vers: the connection's version; 0 while it is being negotiated
 * @v1_send: RFC 8797 client-to-server threshold (1024 without private data)
 * @peer_rbsiz: v2: the server's RBSIZ (draft §4.2.1; 4096 until its
 *	RDMA2_CONNPROP says otherwise)
 * @send_size: our Send buffer size
 *
 * draft §7: the first Call, which the server may read as version 1,
 * fits the version 1 default of 1024 bytes. Then v1 uses the RFC 8797
 * threshold and v2 the server's Receive Buffer Size.
 *
 * Return: the threshold in bytes, never more than @send_size.
 */
u32 rpcrdma2_send_threshold(u32 vers, u32 v1_send, u32 peer_rbsiz,
			    u32 send_size)
{
	switch (vers) {
	case RPCRDMA2_VERS_1:
		return min(v1_send, send_size);
	case RPCRDMA2_VERS_2:
		return min(peer_rbsiz, send_size);
	default:
		return min_t(u32, RPCRDMA2_V1_DEF_INLINE, send_size);
	}
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma2_send_threshold);

/**
 * rpcrdma2_recv_threshold - the largest reply the server may send inline
 * @vers: the connection's version; 0 while it is being negotiated
 * @v1_recv: RFC 8797 server-to-client threshold: the smaller of the
 *	server's Send Size and our Receive Size
 * @recv_size: our Receive buffer size, which we advertise as RBSIZ
 * @rbsiz_known: v2: the server's RDMA2_CONNPROP carried RBSIZ, so it
 *	knows the property, and no Call has found it ignoring ours
 *
 * A larger reply needs a Reply chunk (RFC 8166 §3.5.3). In v2 a server
 * need not take note of our RBSIZ (draft §5.3.4: the sender "should be
 * prepared for cases in which the receiver continues to assume that the
 * default value for a particular property is still in effect"), so the
 * default of 4096 (§4.2.1) holds unless @rbsiz_known; then what the
 * server's RFC 8797 Send Size lets it send into our buffers, if more.
 * While negotiating, what both versions allow.
 *
 * Return: the threshold in bytes, never more than @recv_size.
 */
u32 rpcrdma2_recv_threshold(u32 vers, u32 v1_recv, u32 recv_size,
			    bool rbsiz_known)
{
	u32 v2 = min_t(u32, RPCRDMA2_DEF_RBSIZ, recv_size);

	switch (vers) {
	case RPCRDMA2_VERS_1:
		return min(v1_recv, recv_size);
	case RPCRDMA2_VERS_2:
		if (rbsiz_known)
			return max(v2, min(v1_recv, recv_size));
		return v2;
	default:
		return min(v1_recv, v2);
	}
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma2_recv_threshold);

/**
 * rpcrdma2_error_errno - the errno an RPC fails with on an RDMA2_ERROR
 * @err: the decoded error (v1 ERR_VERS / ERR_CHUNK share codes 1 and 2)
 * @vers: the version of the error message
 * @reply_only: the Call carried no Read or Write chunk: at most a Reply
 *	chunk, which covers the whole receive buffer
 * @rcv_buflen: the receive buffer the upper layer gave the RPC
 *
 * draft §5.3.3: the Call was not processed. A version error the
 * negotiation did not absorb means no common version; the server's
 * RDMA2_ERR_SYSTEM is its own failure; every other code says our Call
 * was unacceptable, except RDMA2_ERR_REPLY_RESOURCE, a reply that fits
 * nowhere.
 *
 * draft §5.3.3 lets a requester send the Call again with larger reply
 * resources, but by then the server has executed it: an NFSv4.1 session
 * takes the same XID and slot sequence as a replay and answers
 * NFS4ERR_RETRY_UNCACHED_REP for a reply it did not cache, and the NFS
 * client's retry of the operation, which gets no larger Reply chunk than
 * the whole receive buffer it already had, meets the same refusal, for
 * ever. So the RPC fails. (A Call that left its Reply chunk out on a
 * guess is the exception: rpcrdma2_reply_error() sends it again with
 * one, and rpcrdma2_guess_next() keeps its procedure from being refused
 * over and over.) A reply longer than the receive buffer would not have
 * fit over TCP either: xprtsock drops the bytes past the buffer and the
 * NFS client's decoder says -ERANGE (GETXATTR, LISTXATTRS, GETACL into a
 * buffer too small, whose callers then ask again with a larger one).
 * That answer is given here too; a reply that would fit the buffer but
 * not our Reply chunk is our shortcoming: -EMSGSIZE. The untrusted
 * @err->length_needed only chooses between the two.
 *
 * Version 1 has no REPLY_RESOURCE: a server whose reply fits neither
 * inline nor the Reply chunk answers ERR_CHUNK (RFC 8166 §4.5.3; the
 * in-tree svcrdma does, for a reply it cannot pull up or that overruns
 * the Reply chunk). To a Call with no Read or Write chunk that is all
 * ERR_CHUNK can mean from a server that parsed our header (we encode
 * it with the codec): no Read to fail, no Write chunk too small, and
 * whatever inline room or Reply chunk we offered spans the whole
 * receive buffer. So the reply was longer than the buffer, and the RPC
 * fails with -ERANGE as it would over TCP. With a Read or Write chunk,
 * ERR_CHUNK may be about that chunk: -EIO.
 *
 * Return: a negative errno that sunrpc does not retry.
 */
int rpcrdma2_error_errno(const struct rpcrdma2_error *err, u32 vers,
			 bool reply_only, u32 rcv_buflen)
{
	if (vers == RPCRDMA2_VERS_1 && err->code == RPCRDMA2_V1_ERR_CHUNK)
		return reply_only ? -ERANGE : -EIO;
	switch (err->code) {
	case RPCRDMA2_ERR_VERS:
		return -EPROTONOSUPPORT;
	case RPCRDMA2_ERR_REPLY_RESOURCE:
		return err->length_needed > rcv_buflen ? -ERANGE : -EMSGSIZE;
	case RPCRDMA2_ERR_SYSTEM:
		return -EREMOTEIO;
	default:
		return -EIO;
	}
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma2_error_errno);

/**
 * rpcrdma2_error_resend - may a Call an RDMA2_ERROR refused go again
 *	without some of its DDP chunks
 * @code: the RDMA2_ERROR code (untrusted)
 * @vers: the version of the error message
 * @sent: RPCRDMA2_DDP_* flags: the DDP chunks the Call carried
 *
 * draft §5.3.3: after RDMA2_ERR_READ_CHUNKS a requester SHOULD resend
 * with a Position-Zero Read chunk, and a Long Call that got it fails;
 * after RDMA2_ERR_WRITE_CHUNKS, or RDMA2_ERR_REPLY_RESOURCE (what a
 * server that takes no Write chunk at all answers), it SHOULD resend
 * with no Write chunk and a Reply chunk. Every other error fails the
 * RPC: the chunks we offer are already as large as we make them
 * (WRITE_RESOURCE, REPLY_RESOURCE without a Write chunk), and a chunk
 * of fewer segments is not something we can build (SEGMENTS). Version
 * 1 has none of these codes.
 *
 * Return: the RPCRDMA2_DDP_* flags to leave out of the resend, or 0 if
 * the RPC fails.
 */
u32 rpcrdma2_error_resend(u32 code, u32 vers, u32 sent)
{
	if (vers != RPCRDMA2_VERS_2)
		return 0;
	switch (code) {
	case RPCRDMA2_ERR_READ_CHUNKS:
		return sent & RPCRDMA2_DDP_READ;
	case RPCRDMA2_ERR_WRITE_CHUNKS:
	case RPCRDMA2_ERR_REPLY_RESOURCE:
		return sent & RPCRDMA2_DDP_WRITE;
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma2_error_resend);

/**
 * rpcrdma2_error_conn_off - the DDP chunks an RDMA2_ERROR rules out for
 *	the rest of the connection
 * @err: the error (untrusted)
 * @vers: the version of the error message
 *
 * draft §5.3.3: a responder that "cannot handle any Read chunks"
 * answers RDMA2_ERR_READ_CHUNKS with rdma_max_chunks 0. That is the
 * implementation speaking, not this Call: later Calls on the connection
 * go as Long Calls at once rather than each paying a refusal first. A
 * responder without Write chunks answers RDMA2_ERR_REPLY_RESOURCE,
 * which a too-small Reply chunk gets too, so nothing is inferred from
 * it. A new connection asks again.
 *
 * Return: RPCRDMA2_DDP_* flags to leave out of every later Call on the
 * connection, or 0.
 */
u32 rpcrdma2_error_conn_off(const struct rpcrdma2_error *err, u32 vers)
{
	if (vers == RPCRDMA2_VERS_2 && err->code == RPCRDMA2_ERR_READ_CHUNKS &&
	    err->max_chunks == 0)
		return RPCRDMA2_DDP_READ;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma2_error_conn_off);

/**
 * rpcrdma2_chunk_check - validate a Write or Reply chunk the server
 *	returned
 * @offered: the segments our Call offered
 * @nr_offered: how many
 * @returned: the segments the reply returned (untrusted)
 * @nr_returned: how many
 * @written: set to the bytes the server says it wrote
 *
 * RFC 8166 §3.4.6 and §4.2.3: the responder returns the segments it used,
 * in order, with the lengths it wrote (an unused Write chunk has only
 * empty segments). The data is in our buffer only if those are our
 * segments (same handles, in the same order), no longer than offered,
 * and filled front to back: every segment before the last one written
 * is full, and any after it is empty, so the bytes lie without a hole.
 *
 * Return: %0 with @written set, or %-EIO if the chunk is not what we
 * offered.
 */
int rpcrdma2_chunk_check(const struct rpcrdma2_seg *offered, u32 nr_offered,
			 const struct rpcrdma2_seg *returned, u32 nr_returned,
			 u32 *written)
{
	bool short_seen = false;
	u32 total = 0;
	u32 i;

	if (!nr_returned || nr_returned > nr_offered)
		return -EIO;
	for (i = 0; i < nr_returned; i++) {
		if (returned[i].handle != offered[i].handle ||
		    returned[i].length > offered[i].length)
			return -EIO;
		if (short_seen && returned[i].length)
			return -EIO;
		if (returned[i].length < offered[i].length)
			short_seen = true;
		total += returned[i].length;
	}
	*written = total;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma2_chunk_check);

/**
 * rpcrdma2_max_payload - the largest payload a connection's chunks carry
 * @mr_depth: pages one of its MRs maps
 *
 * A chunk takes at most RPCRDMA2_MAX_CHUNK_MRS MRs (rpcrdma2_frwr_map()).
 * A Reply chunk and a Long Call's Read chunk may need one for the head
 * and one for the tail, which leaves the rest for the pages, and a
 * payload that does not start on a page boundary spans one page more
 * than its size. On a device whose MRs map fewer pages than the largest
 * payload has (max_fast_reg_page_list_len), the payload shrinks to fit,
 * so that NFS sizes its I/O to it and no RPC fails to register.
 *
 * Return: bytes, at most RPCRDMA2_MAX_PAYLOAD.
 */
u32 rpcrdma2_max_payload(u32 mr_depth)
{
	u64 pages = (u64)(RPCRDMA2_MAX_CHUNK_MRS - 2) * mr_depth;

	if (!pages)
		return 0;
	return min_t(u64, (pages - 1) << PAGE_SHIFT, RPCRDMA2_MAX_PAYLOAD);
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma2_max_payload);

/**
 * rpcrdma2_ddp_layout - where the parts of a reply whose payload came in
 *	a Write chunk go
 * @inline_len: bytes of RPC reply that came inline (untrusted)
 * @head_len: the receive buffer's head: the XDR position the upper layer
 *	expects the payload at, an upper bound (rpc_prepare_reply_pages())
 * @written: payload bytes the server wrote (rpcrdma2_chunk_check())
 * @buflen: the receive buffer's size
 * @pos: set to the payload's XDR position in the reassembled reply
 *
 * RFC 8166 §3.4.6: the requester puts the data item back at its XDR
 * position; the server removed its XDR roundup from the Payload stream.
 * A Write chunk carries no position: the payload is where the inline
 * bytes before it end, which is @head_len unless the reply is shorter
 * (an error, or smaller attributes than the largest). The reply is then
 * head (@pos inline bytes), payload, roundup, the inline bytes after
 * the payload: the byte stream a TCP transport would have received.
 *
 * Return: the reassembled reply's length, or %-EIO if it does not fit
 * in the buffer (the head shortened to @pos).
 */
int rpcrdma2_ddp_layout(u32 inline_len, u32 head_len, u32 written,
			u32 buflen, u32 *pos)
{
	u64 total = (u64)inline_len + written + ((4 - (written & 3)) & 3);

	if (head_len > buflen)
		return -EIO;
	*pos = min(inline_len, head_len);
	if (total > buflen - (head_len - *pos))
		return -EIO;
	return total;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma2_ddp_layout);
