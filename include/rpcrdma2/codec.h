/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RPC-over-RDMA Version 1 (RFC 8166) and Version 2
 * (draft-cel-nfsv4-rpcrdma-version-two-09) transport header codec.
 *
 * The decoder parses one received transport header into a caller-provided,
 * caller-sized flat structure without allocating, checking every count
 * against the bytes left and the caller's limits before using it. When it
 * rejects a header it says exactly what the spec tells the receiver to do:
 * send a particular RDMA_ERROR / RDMA2_ERROR, or discard silently (always,
 * for a v2 reply; see struct rpcrdma2_reject).
 * The encoders write the same structure back to the wire.
 * See Documentation/codec.rst.
 */
#ifndef _RPCRDMA2_CODEC_H
#define _RPCRDMA2_CODEC_H

#include <rpcrdma2/compat.h>
#include <rpcrdma2/wire.h>

/**
 * struct rpcrdma2_seg - a plain RDMA segment (RFC 8166 §3.4.3)
 * @handle: R_key / STag of the registered memory
 * @length: length of the memory region in bytes
 * @offset: address or offset of the region
 */
struct rpcrdma2_seg {
	u32 handle;
	u32 length;
	u64 offset;
};

/**
 * struct rpcrdma2_read_seg - an RDMA read segment (RFC 8166 §3.4.5)
 * @position: byte offset in the unreduced Payload stream
 * @seg: the memory holding the data item
 */
struct rpcrdma2_read_seg {
	u32 position;
	struct rpcrdma2_seg seg;
};

/**
 * struct rpcrdma2_chunk - a Write chunk or the Reply chunk
 * @first: index of its first segment in &rpcrdma2_chunk_lists.segs
 * @nsegs: number of segments (zero for an empty Write chunk)
 */
struct rpcrdma2_chunk {
	u32 first;
	u32 nsegs;
};

/**
 * struct rpcrdma2_read_chunk - one Read chunk, as the decoder indexes it
 * @position: its Position (RFC 8166 §3.4.5)
 * @first: index of its first segment in &rpcrdma2_chunk_lists.reads
 * @nsegs: number of segments, at least one
 * @length: the sum of its segments' lengths: 64 bits, it cannot wrap
 */
struct rpcrdma2_read_chunk {
	u32 position;
	u32 first;
	u32 nsegs;
	u64 length;
};

/**
 * struct rpcrdma2_limits - what the receiver is prepared to accept
 * @max_read_chunks: Read chunks, i.e. distinct Read positions, in one
 *	header (RDMA2_ERR_READ_CHUNKS)
 * @max_write_chunks: Write chunks in one header (RDMA2_ERR_WRITE_CHUNKS)
 * @max_segs: segments in any one chunk, for a Read chunk every segment
 *	with its position (RDMA2_ERR_SEGMENTS)
 * @vers_low: lowest rdma_vers accepted, advertised in ERR_VERS
 * @vers_high: highest rdma_vers accepted, advertised in ERR_VERS
 *
 * @vers_low and @vers_high both zero mean 1..2 (RPCRDMA2_VERS_MIN..
 * RPCRDMA2_VERS_MAX): rpcrdma2_chunk_lists_init() fills them in. A
 * v1-only endpoint sets 1..1.
 */
struct rpcrdma2_limits {
	u32 max_read_chunks;
	u32 max_write_chunks;
	u32 max_segs;
	u32 vers_low;
	u32 vers_high;
};

/**
 * struct rpcrdma2_chunk_lists - parsed chunk lists, flat and caller-sized
 * @reads: Read list segments (caller's array). Decoded: grouped by
 *	Read chunk, in @read_chunks order, each chunk's segments in list
 *	order. To encode: in wire order, which need not be grouped.
 * @read_chunks: decoded Read chunks in ascending Position order
 *	(caller's array); ignored by the encoder
 * @writes: Write chunks in wire order (caller's array)
 * @segs: segments of every Write chunk, then of the Reply chunk
 * @reads_cap: entries in @reads
 * @read_chunks_cap: entries in @read_chunks
 * @writes_cap: entries in @writes
 * @segs_cap: entries in @segs
 * @lim: the limits the decoder enforces; the arrays hold what they allow;
 *	ignored by the encoder
 * @inv_handle: v2 rdma_inv_handle; zero in v1
 * @nr_reads: Read segments decoded
 * @nr_read_chunks: entries of @read_chunks used, i.e. distinct
 *	positions in @reads; set by the decoder, ignored by the encoder
 * @nr_writes: Write chunks decoded
 * @nr_segs: entries of @segs used
 * @has_reply: a Reply chunk is present
 * @reply: the Reply chunk, when @has_reply
 *
 * rpcrdma2_chunk_lists_init() attaches the caller's arrays and limits
 * once, after checking that the arrays hold what the limits allow (see
 * rpcrdma2_reads_needed() and rpcrdma2_segs_needed()), so the decoder
 * need not check again per message; do not change them afterwards
 * except through rpcrdma2_chunk_lists_init(), or the version range
 * through rpcrdma2_chunk_lists_set_vers(). Decode fills the rest, every
 * count anew for each message, so one init serves every message the
 * arrays receive.
 */
struct rpcrdma2_chunk_lists {
	struct rpcrdma2_read_seg *reads;
	struct rpcrdma2_read_chunk *read_chunks;
	struct rpcrdma2_chunk *writes;
	struct rpcrdma2_seg *segs;
	u32 reads_cap;
	u32 read_chunks_cap;
	u32 writes_cap;
	u32 segs_cap;
	struct rpcrdma2_limits lim;

	u32 inv_handle;
	u32 nr_reads;
	u32 nr_read_chunks;
	u32 nr_writes;
	u32 nr_segs;
	bool has_reply;
	struct rpcrdma2_chunk reply;
};

/**
 * struct rpcrdma2_error - the body of RDMA_ERROR / RDMA2_ERROR
 * @code: RPCRDMA2_ERR_* (v1 uses only ERR_VERS and ERR_CHUNK, which share
 *	values 1 and 2 with RDMA2_ERR_VERS and RDMA2_ERR_BAD_XDR)
 * @v1_layout: an ERR_VERS with rdma_vers 2 in the version-independent
 *	RFC 8166 layout (§4.5: xid, vers, credit, RDMA_ERROR, ERR_VERS, low,
 *	high; no rdma_flags), which is how a v1-only responder such as the
 *	in-tree svcrdma answers a version 2 Call; &rpcrdma2_hdr.flags is 0
 *	then. The encoder writes that layout when it is set.
 * @vers: ERR_VERS arm: lowest and highest version supported
 * @max_chunks: RDMA2_ERR_READ_CHUNKS / RDMA2_ERR_WRITE_CHUNKS arm
 * @max_segs: RDMA2_ERR_SEGMENTS arm
 * @write: RDMA2_ERR_WRITE_RESOURCE arm: 1-based Write chunk index and
 *	bytes needed
 * @length_needed: RDMA2_ERR_REPLY_RESOURCE arm
 *
 * Every other code has a void arm (draft v2 §5.3.3 "default: void").
 */
struct rpcrdma2_error {
	u32 code;
	bool v1_layout;
	union {
		struct {
			u32 low;
			u32 high;
		} vers;
		u32 max_chunks;
		u32 max_segs;
		struct {
			u32 index;
			u32 length;
		} write;
		u32 length_needed;
	};
};

/* &rpcrdma2_props.present bits */
#define RPCRDMA2_PROPF_RBSIZ	0x1
#define RPCRDMA2_PROPF_BRS	0x2

/**
 * struct rpcrdma2_props - the known properties of an RDMA2_CONNPROP
 * @present: RPCRDMA2_PROPF_* of the properties the propset carried
 * @dflt: of those, the ones sent with zero-length rdma_data, which means
 *	"the default value" (draft v2 §4.1)
 * @rbsiz: effective Receive Buffer Size (RPCRDMA2_DEF_RBSIZ unless sent)
 * @brs: effective Reverse Request Support (RPCRDMA2_DEF_BRS unless sent)
 *
 * Properties with an unknown rdma_which are skipped (draft v2 §4.1).
 */
struct rpcrdma2_props {
	u32 present;
	u32 dflt;
	u32 rbsiz;
	u32 brs;
};

/**
 * struct rpcrdma2_hdr - one parsed transport header
 * @xid: rdma_xid
 * @vers: rdma_vers
 * @credits: rdma_credit
 * @htype: rdma_htype (v1 rdma_proc)
 * @flags: v2 rdma_flags; zero in v1
 * @hdr_len: bytes of transport header, i.e. where the RPC message starts
 * @rpc_len: bytes of RPC message following the header (RDMA_MSG and
 *	RDMA2_MSG only; zero otherwise)
 * @cl: chunk lists of RDMA_MSG / RDMA_NOMSG / RDMA2_MSG / RDMA2_NOMSG
 *	(the decoder zeroes the counts for every other type)
 * @err: body of RDMA_ERROR / RDMA2_ERROR; the decoder sets it only for
 *	those types
 * @props: body of RDMA2_CONNPROP; the decoder sets it only for that type
 */
struct rpcrdma2_hdr {
	u32 xid;
	u32 vers;
	u32 credits;
	u32 htype;
	u32 flags;
	u32 hdr_len;
	u32 rpc_len;
	struct rpcrdma2_chunk_lists cl;
	struct rpcrdma2_error err;
	struct rpcrdma2_props props;
};

/**
 * enum rpcrdma2_reason - why the decoder rejected a header
 * @RPCRDMA2_REASON_NONE: not rejected
 * @RPCRDMA2_REASON_SHORT: shorter than a minimal header (discard)
 * @RPCRDMA2_REASON_VERS: rdma_vers outside the range the limits accept
 * @RPCRDMA2_REASON_HTYPE: header type unknown or not supported
 * @RPCRDMA2_REASON_MSGP: v1 RDMA_MSGP, no longer supported
 * @RPCRDMA2_REASON_DONE: v1 RDMA_DONE, no longer supported (discard)
 * @RPCRDMA2_REASON_TRUNCATED: the header ends inside an XDR item
 * @RPCRDMA2_REASON_UNALIGNED: message length not a multiple of 4
 * @RPCRDMA2_REASON_FLAGS: reserved v2 rdma_flags bits set
 * @RPCRDMA2_REASON_BAD_BOOL: optional-data discriminator neither 0 nor 1
 * @RPCRDMA2_REASON_READ_CHUNKS: more Read chunks than the limit
 * @RPCRDMA2_REASON_WRITE_CHUNKS: more Write chunks than the limit
 * @RPCRDMA2_REASON_SEGMENTS: a chunk with more segments than the limit
 * @RPCRDMA2_REASON_POSITION: Read position not a multiple of 4
 * @RPCRDMA2_REASON_INV_HANDLE: rdma_inv_handle matches no rdma_handle
 * @RPCRDMA2_REASON_NOMSG_EMPTY: RDMA_NOMSG / RDMA2_NOMSG with no chunk
 * @RPCRDMA2_REASON_NOMSG_CHUNK: RDMA_NOMSG / RDMA2_NOMSG whose chunks
 *	cannot hold the RPC message (no Position-Zero Read chunk for a
 *	call, no Reply chunk for a reply)
 * @RPCRDMA2_REASON_REPLY_READS: a v2 reply (RPCRDMA2_F_RESPONSE) with a
 *	Read list
 * @RPCRDMA2_REASON_NO_PAYLOAD: RDMA_MSG / RDMA2_MSG without RPC message
 * @RPCRDMA2_REASON_XID_MISMATCH: rdma_xid differs from the RPC XID
 * @RPCRDMA2_REASON_MSG_TYPE: RPCRDMA2_F_RESPONSE disagrees with msg_type
 * @RPCRDMA2_REASON_NOT_RESPONSE: RDMA2_ERROR without RPCRDMA2_F_RESPONSE,
 *	i.e. sent by a requester (discard)
 * @RPCRDMA2_REASON_BAD_ERROR: v1 RDMA_ERROR with an unknown code (discard)
 * @RPCRDMA2_REASON_PROPVAL: a known property's rdma_data does not fit its
 *	type
 * @RPCRDMA2_REASON_CALLER: the caller passed a length that does not fit
 *	in 32 bits (a bug in the caller, not in the message)
 * @RPCRDMA2_REASON_COUNT: number of reasons
 */
enum rpcrdma2_reason {
	RPCRDMA2_REASON_NONE,
	RPCRDMA2_REASON_SHORT,
	RPCRDMA2_REASON_VERS,
	RPCRDMA2_REASON_HTYPE,
	RPCRDMA2_REASON_MSGP,
	RPCRDMA2_REASON_DONE,
	RPCRDMA2_REASON_TRUNCATED,
	RPCRDMA2_REASON_UNALIGNED,
	RPCRDMA2_REASON_FLAGS,
	RPCRDMA2_REASON_BAD_BOOL,
	RPCRDMA2_REASON_READ_CHUNKS,
	RPCRDMA2_REASON_WRITE_CHUNKS,
	RPCRDMA2_REASON_SEGMENTS,
	RPCRDMA2_REASON_POSITION,
	RPCRDMA2_REASON_INV_HANDLE,
	RPCRDMA2_REASON_NOMSG_EMPTY,
	RPCRDMA2_REASON_NOMSG_CHUNK,
	RPCRDMA2_REASON_REPLY_READS,
	RPCRDMA2_REASON_NO_PAYLOAD,
	RPCRDMA2_REASON_XID_MISMATCH,
	RPCRDMA2_REASON_MSG_TYPE,
	RPCRDMA2_REASON_NOT_RESPONSE,
	RPCRDMA2_REASON_BAD_ERROR,
	RPCRDMA2_REASON_PROPVAL,
	RPCRDMA2_REASON_CALLER,
	RPCRDMA2_REASON_COUNT
};

/**
 * struct rpcrdma2_reject - how to answer a rejected header
 * @reason: enum rpcrdma2_reason
 * @discard: the spec says to drop the message and send nothing
 * @reply: otherwise the error to send, with its arm data; the reply
 *	copies rdma_xid and rdma_vers from the rejected header
 *	(RFC 8166 §4.5, draft v2 §5.3.3); see rpcrdma2_encode_reject()
 *
 * A reply is never answered (RFC 8166 §4.5: a requester "MUST silently
 * discard" a reply whose header has errors; draft v2 §5.3.3: errors never
 * flow from requester to responder). A v2 header says it is a reply
 * (RPCRDMA2_F_RESPONSE in rdma_flags, draft v2 §3.2), so for a v2 header
 * with RESPONSE set rpcrdma2_decode() sets @discard on every rejection,
 * keeping @reason. A v1 header does not say (nor does a v2 message too
 * short to hold rdma_flags): there @reply is what a responder sends, and
 * a requester silently discards the message whatever @reply says.
 */
struct rpcrdma2_reject {
	u32 reason;
	bool discard;
	struct rpcrdma2_error reply;
};

/**
 * rpcrdma2_reads_needed - Read segment capacity a set of limits requires
 * @lim: the limits the decoder will be given
 *
 * Return: minimum &rpcrdma2_chunk_lists.reads_cap.
 */
static inline u64 rpcrdma2_reads_needed(const struct rpcrdma2_limits *lim)
{
	return (u64)lim->max_read_chunks * lim->max_segs;
}

/**
 * rpcrdma2_segs_needed - Write/Reply segment capacity limits require
 * @lim: the limits the decoder will be given
 *
 * Return: minimum &rpcrdma2_chunk_lists.segs_cap: every Write chunk and
 * the Reply chunk at their largest.
 */
static inline u64 rpcrdma2_segs_needed(const struct rpcrdma2_limits *lim)
{
	return ((u64)lim->max_write_chunks + 1) * lim->max_segs;
}

/**
 * rpcrdma2_chunk_lists_set_vers - the versions the decoder accepts now
 * @cl: chunk lists set up by rpcrdma2_chunk_lists_init()
 * @vers: the one version to accept (RPCRDMA2_VERS_MIN..RPCRDMA2_VERS_MAX),
 *	or 0 for all of them
 *
 * For an endpoint whose first message fixed its version (draft v2 §7.3):
 * a message in another version is then rejected with ERR_VERS naming
 * @vers, without setting up the arrays again for each message.
 */
static inline void
rpcrdma2_chunk_lists_set_vers(struct rpcrdma2_chunk_lists *cl, u32 vers)
{
	cl->lim.vers_low = vers ? vers : RPCRDMA2_VERS_MIN;
	cl->lim.vers_high = vers ? vers : RPCRDMA2_VERS_MAX;
}

/**
 * rpcrdma2_says_connprop - does a received message say it is an
 *	RDMA2_CONNPROP
 * @buf: the message (untrusted)
 * @len: its length in bytes
 *
 * Only its rdma_vers and rdma_htype are read (RFC 8166 §4.2, draft v2
 * §5.1), for a receiver that must take a CONNPROP before the message
 * behind it; rpcrdma2_decode() still checks all of it.
 *
 * Return: true if @buf is long enough to hold both and they are 2 and
 * RPCRDMA2_HT_CONNPROP.
 */
static inline bool rpcrdma2_says_connprop(const void *buf, size_t len)
{
	const u8 *p = buf;

	return len >= RPCRDMA2_FIXED_SIZE &&
	       get_unaligned_be32(p + 4) == RPCRDMA2_VERS_2 &&
	       get_unaligned_be32(p + 12) == RPCRDMA2_HT_CONNPROP;
}

int rpcrdma2_chunk_lists_init(struct rpcrdma2_chunk_lists *cl,
			      const struct rpcrdma2_limits *lim,
			      struct rpcrdma2_read_seg *reads, u32 reads_cap,
			      struct rpcrdma2_read_chunk *read_chunks,
			      u32 read_chunks_cap,
			      struct rpcrdma2_chunk *writes, u32 writes_cap,
			      struct rpcrdma2_seg *segs, u32 segs_cap);
int rpcrdma2_decode(const void *buf, size_t len, struct rpcrdma2_hdr *hdr,
		    struct rpcrdma2_reject *rej);
int rpcrdma2_encode(const struct rpcrdma2_hdr *hdr, void *buf, size_t len);
int rpcrdma2_encode_reject(const struct rpcrdma2_hdr *in,
			   const struct rpcrdma2_reject *rej, u32 credits,
			   void *buf, size_t len);
const char *rpcrdma2_errcode_name(u32 vers, u32 code);
const char *rpcrdma2_reason_name(u32 reason);
const char *rpcrdma2_htype_name(u32 vers, u32 htype);

#endif /* _RPCRDMA2_CODEC_H */
