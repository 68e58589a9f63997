/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to the transport header codec (common/codec_*.c): the XDR word
 * helpers, inline so the hot path pays no calls, and the validity rules
 * the decoder and the encoders share, so that what the encoders write
 * decodes.
 *
 * Builds unchanged in the kernel (rpcrdma2_common.ko) and in userspace
 * (tests, fuzzer, tools) through <rpcrdma2/compat.h>.
 */
#ifndef _RPCRDMA2_CODEC_XDR_H
#define _RPCRDMA2_CODEC_XDR_H

#include <rpcrdma2/codec.h>

#define XDR_WORD	4

/**
 * xdr_get32 - read one XDR word
 * @p: where it starts, at any alignment
 *
 * Return: the big-endian word at @p, in host order.
 */
static inline u32 xdr_get32(const u8 *p)
{
	return get_unaligned_be32(p);
}

/**
 * xdr_get64 - read an XDR hyper (two words)
 * @p: where it starts, at any alignment
 *
 * Return: the big-endian 64-bit value at @p, in host order.
 */
static inline u64 xdr_get64(const u8 *p)
{
	return get_unaligned_be64(p);
}

/**
 * xdr_put32 - write one XDR word
 * @p: where it goes, at any alignment
 * @val: the value, in host order
 *
 * Return: the byte after the word written.
 */
static inline u8 *xdr_put32(u8 *p, u32 val)
{
	put_unaligned_be32(val, p);
	return p + XDR_WORD;
}

/**
 * xdr_put64 - write an XDR hyper (two words)
 * @p: where it goes, at any alignment
 * @val: the value, in host order
 *
 * Return: the byte after the two words written.
 */
static inline u8 *xdr_put64(u8 *p, u64 val)
{
	put_unaligned_be64(val, p);
	return p + 2 * XDR_WORD;
}

/**
 * bytes_left - how much of the buffer remains
 * @p: the read position
 * @end: the end of the buffer, not before @p
 *
 * Return: the number of bytes from @p to @end.
 */
static inline size_t bytes_left(const u8 *p, const u8 *end)
{
	return (size_t)(end - p);
}

/* codec_decode.c */
bool rpcrdma2_nomsg_has_payload(const struct rpcrdma2_hdr *hdr);
int rpcrdma2_error_arm_words(u32 vers, u32 code);

#endif /* _RPCRDMA2_CODEC_XDR_H */
