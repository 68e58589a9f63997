// SPDX-License-Identifier: GPL-2.0
/*
 * Names for logs, tracepoints and tools: RPC-over-RDMA v1/v2 error codes
 * and header types as the specs spell them, and the codec's rejection
 * reasons.
 */
#include <rpcrdma2/codec_names.h>

struct rpcrdma2_name {
	u32 value;
	const char *name;
};

#define RPCRDMA2_NAME(value, name)	{ value, name },

static const struct rpcrdma2_name v1_errcodes[] = {
	RPCRDMA2_V1_ERRCODES(RPCRDMA2_NAME, RPCRDMA2_NAME)
};

static const struct rpcrdma2_name v2_errcodes[] = {
	RPCRDMA2_V2_ERRCODES(RPCRDMA2_NAME, RPCRDMA2_NAME)
};

static const struct rpcrdma2_name v1_htypes[] = {
	RPCRDMA2_V1_HTYPES(RPCRDMA2_NAME, RPCRDMA2_NAME)
};

static const struct rpcrdma2_name v2_htypes[] = {
	RPCRDMA2_V2_HTYPES(RPCRDMA2_NAME, RPCRDMA2_NAME)
};

static const struct rpcrdma2_name reasons[] = {
	RPCRDMA2_REASONS(RPCRDMA2_NAME, RPCRDMA2_NAME)
};

static_assert(ARRAY_SIZE(reasons) == RPCRDMA2_REASON_COUNT,
	      "every rejection reason has a name");

/* A few entries each, looked up for logs and tools: a scan will do */
static const char *rpcrdma2_name_of(const struct rpcrdma2_name *names,
				    size_t count, u32 value)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (names[i].value == value)
			return names[i].name;
	return "UNKNOWN";
}

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
	if (vers == RPCRDMA2_VERS_2)
		return rpcrdma2_name_of(v2_errcodes, ARRAY_SIZE(v2_errcodes),
					code);
	return rpcrdma2_name_of(v1_errcodes, ARRAY_SIZE(v1_errcodes), code);
}
EXPORT_SYMBOL_GPL(rpcrdma2_errcode_name);

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
	return rpcrdma2_name_of(reasons, ARRAY_SIZE(reasons), reason);
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
	if (vers == RPCRDMA2_VERS_1)
		return rpcrdma2_name_of(v1_htypes, ARRAY_SIZE(v1_htypes), htype);
	if (vers == RPCRDMA2_VERS_2)
		return rpcrdma2_name_of(v2_htypes, ARRAY_SIZE(v2_htypes), htype);
	return "UNKNOWN";
}
EXPORT_SYMBOL_GPL(rpcrdma2_htype_name);
