// SPDX-License-Identifier: GPL-2.0
/*
 * Names for logs, tracepoints and tools: RPC-over-RDMA v1/v2 error codes
 * and header types as the specs spell them, and the codec's rejection
 * reasons.
 */
#include <rpcrdma2/codec.h>

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
