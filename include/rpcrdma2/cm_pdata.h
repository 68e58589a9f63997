/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RFC 8797 RDMA-CM private data: the 8-octet message both RPC-over-RDMA
 * peers place in the CM Private Data field when a connection is set up,
 * advertising their inline send/receive sizes and remote-invalidation
 * support. Builder, parser and the inline-threshold negotiation rule.
 * See Documentation/cm-private-data.rst.
 */
#ifndef _RPCRDMA2_CM_PDATA_H
#define _RPCRDMA2_CM_PDATA_H

#include <rpcrdma2/compat.h>
#include <rpcrdma2/wire.h>

/*
 * RFC 8797 §4 layout: offsets of each field within the message.
 *
 *   0: Format Identifier (4 octets, network byte order)
 *   4: Version
 *   5: Reserved (7 bits) | R (the least significant bit)
 *   6: Send Size
 *   7: Receive Size
 */
#define RPCRDMA2_CM_PDATA_OFF_MAGIC	0
#define RPCRDMA2_CM_PDATA_OFF_VERSION	4
#define RPCRDMA2_CM_PDATA_OFF_FLAGS	5
#define RPCRDMA2_CM_PDATA_OFF_SEND	6
#define RPCRDMA2_CM_PDATA_OFF_RECV	7

/* Size fields count kilo-octets beyond the first 1024 (RFC 8797 §4.2). */
#define RPCRDMA2_CM_PDATA_SIZE_UNIT	1024

/**
 * struct rpcrdma2_cm_pdata - decoded RFC 8797 private data
 * @version: message format version; RPCRDMA2_CM_PDATA_VERSION when a valid
 *	message was received, 0 when these are the defaults standing in for
 *	absent or invalid private data (RFC 8797 §5.1)
 * @reminv: the R bit: the sender supports remote invalidation (§4.1)
 * @send_size: largest message the sender will post with one RDMA Send,
 *	in bytes (1024..262144, a multiple of 1024)
 * @recv_size: largest message the sender can accept with one RDMA Receive,
 *	in bytes (1024..262144, a multiple of 1024)
 */
struct rpcrdma2_cm_pdata {
	u8 version;
	bool reminv;
	u32 send_size;
	u32 recv_size;
};

/**
 * rpcrdma2_cm_pdata_size_encode - encode an inline size for the wire
 * @size: buffer size in bytes
 *
 * RFC 8797 §4.2: the encoded value is size / 1024 - 1. Only 1 KiB..256 KiB
 * is representable, so @size is first clamped to that range. Above 1024,
 * sizes that are not a multiple of 1024 are rounded down, never
 * advertising more than the buffer holds; below 1024 the clamp rounds UP
 * to 1024, which is more than such a buffer holds. Callers must not have
 * one: RFC 8166 §3.3.3 requires inline thresholds of at least 1024.
 *
 * Return: the encoded Send Size or Receive Size octet.
 */
static inline u8 rpcrdma2_cm_pdata_size_encode(u32 size)
{
	if (size < RPCRDMA2_CM_PDATA_MIN_SIZE)
		size = RPCRDMA2_CM_PDATA_MIN_SIZE;
	if (size > RPCRDMA2_CM_PDATA_MAX_SIZE)
		size = RPCRDMA2_CM_PDATA_MAX_SIZE;
	return (u8)(size / RPCRDMA2_CM_PDATA_SIZE_UNIT - 1);
}

/**
 * rpcrdma2_cm_pdata_size_decode - decode an inline size from the wire
 * @val: Send Size or Receive Size octet
 *
 * RFC 8797 §4.2: add one, multiply by 1024. Every octet value is valid.
 *
 * Return: the size in bytes, 1024..262144.
 */
static inline u32 rpcrdma2_cm_pdata_size_decode(u8 val)
{
	return ((u32)val + 1) * RPCRDMA2_CM_PDATA_SIZE_UNIT;
}

/**
 * rpcrdma2_cm_pdata_reminv_ok - may the responder use Send With Invalidate?
 * @peer: the peer's parsed private data, or NULL if none was received
 * @own_reminv: whether we set the R bit in the private data we sent
 *
 * RFC 8797 §4.1: only when both peers set the R bit. Defaults standing in
 * for absent or invalid private data carry no R bit (§5.1).
 *
 * Return: true if both peers advertised remote-invalidation support.
 */
static inline bool rpcrdma2_cm_pdata_reminv_ok(const struct rpcrdma2_cm_pdata *peer,
					       bool own_reminv)
{
	return own_reminv && peer &&
	       peer->version == RPCRDMA2_CM_PDATA_VERSION && peer->reminv;
}

int rpcrdma2_cm_pdata_build(void *buf, size_t len, bool reminv,
			    u32 send_size, u32 recv_size);
int rpcrdma2_cm_pdata_parse(const void *buf, size_t len,
			    struct rpcrdma2_cm_pdata *out);
void rpcrdma2_cm_pdata_negotiate(const struct rpcrdma2_cm_pdata *peer,
				 u32 own_send, u32 own_recv, u32 def_inline,
				 u32 *send_threshold, u32 *recv_threshold);

#endif /* _RPCRDMA2_CM_PDATA_H */
