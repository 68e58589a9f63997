/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the events of xprtrdma2/trace.h and svcrdma2/trace.h (one
 * TRACE_SYSTEM, rpcrdma2) record and print alike, as macros to use inside
 * TRACE_EVENT() and DECLARE_EVENT_CLASS(), after SVC_XPRT_ENDPOINT_* in
 * include/trace/events/sunrpc.h. Each set has
 *
 *   _FIELDS   in TP_STRUCT__entry()
 *   _ASSIGN() in TP_fast_assign(), one statement
 *   _FORMAT   in TP_printk(), a string literal to paste into the format
 *   _VARARGS  in TP_printk(), the arguments of _FORMAT
 *
 * The macros expand where a trace.h uses them, so on each pass that
 * define_trace.h makes over that trace.h they take that pass's __field()
 * and __entry (and TRACE_EVENT(), for the one whole event at the end):
 * unlike a trace.h, this header is read only once.
 */
#ifndef _RPCRDMA2_TRACE_COMMON_H
#define _RPCRDMA2_TRACE_COMMON_H

#include <rpcrdma2/codec_names.h>

/*
 * The codec's names (include/rpcrdma2/codec_names.h) as
 * __print_symbolic() tables, so that tools reading the format files see
 * values and names, not strings copied into each record.
 */
#define RPCRDMA2_TRACE_SYM(value, name)		{ value, name },
#define RPCRDMA2_TRACE_SYM_END(value, name)	{ value, name }

/* a header's version by name; others print as hex */
#define rpcrdma2_show_vers(vers)					\
	__print_symbolic(vers, RPCRDMA2_VERSIONS(RPCRDMA2_TRACE_SYM,	\
						 RPCRDMA2_TRACE_SYM_END))

/* a connection's version, 0 until one is agreed */
#define rpcrdma2_show_conn_vers(vers)					\
	((vers) ? rpcrdma2_show_vers(vers) : "none")

/* header type by name; v1 and v2 number theirs differently */
#define rpcrdma2_show_htype(vers, htype)				\
	((vers) == RPCRDMA2_VERS_1 ?					\
	 __print_symbolic(htype, RPCRDMA2_V1_HTYPES(RPCRDMA2_TRACE_SYM,	\
						  RPCRDMA2_TRACE_SYM_END)) : \
	 __print_symbolic(htype, RPCRDMA2_V2_HTYPES(RPCRDMA2_TRACE_SYM,	\
						  RPCRDMA2_TRACE_SYM_END)))

/* rdma_err by name: ERR_VERS / ERR_CHUNK but in v2 */
#define rpcrdma2_show_errcode(vers, code)				\
	((vers) == RPCRDMA2_VERS_2 ?					\
	 __print_symbolic(code, RPCRDMA2_V2_ERRCODES(RPCRDMA2_TRACE_SYM, \
						   RPCRDMA2_TRACE_SYM_END)) : \
	 __print_symbolic(code, RPCRDMA2_V1_ERRCODES(RPCRDMA2_TRACE_SYM, \
						   RPCRDMA2_TRACE_SYM_END)))

/* enum rpcrdma2_reason by name */
#define rpcrdma2_show_reason(reason)					\
	__print_symbolic(reason, RPCRDMA2_REASONS(RPCRDMA2_TRACE_SYM,	\
						  RPCRDMA2_TRACE_SYM_END))

/*
 * The reasons are enum values, which the format files name: each
 * trace.h says "RPCRDMA2_TRACE_DEFINE_REASONS;" once, so that the pass
 * of define_trace.h that records them sees its TRACE_DEFINE_ENUM().
 */
#define RPCRDMA2_TRACE_ENUM(value, name)	TRACE_DEFINE_ENUM(value);
#define RPCRDMA2_TRACE_ENUM_END(value, name)	TRACE_DEFINE_ENUM(value)
#define RPCRDMA2_TRACE_DEFINE_REASONS					\
	RPCRDMA2_REASONS(RPCRDMA2_TRACE_ENUM, RPCRDMA2_TRACE_ENUM_END)

/*
 * The completion ID (queue_id, completion_id) of a work-request context:
 * struct rpcrdma2_cid (include/rpcrdma2/cid.h), on both sides.
 */
#define RPCRDMA2_CID_FIELDS						\
	__field(u32, cq_id)						\
	__field(int, completion_id)

#define RPCRDMA2_CID_ASSIGN(cid)					\
	do {								\
		__entry->cq_id = (cid)->queue_id;			\
		__entry->completion_id = (cid)->completion_id;		\
	} while (0)

#define RPCRDMA2_CID_FORMAT	"cq.id=%u cid=%d"

#define RPCRDMA2_CID_VARARGS	__entry->cq_id, __entry->completion_id

/*
 * A struct ib_wc: its vendor error only when it failed, the bytes it
 * carried only when it did not.
 */
#define RPCRDMA2_WC_FIELDS						\
	__field(u32, status)						\
	__field(u32, vendor_err)					\
	__field(u32, byte_len)

#define RPCRDMA2_WC_ASSIGN(wc)						\
	do {								\
		__entry->status = (wc)->status;				\
		__entry->vendor_err = (wc)->status ? (wc)->vendor_err : 0; \
		__entry->byte_len = (wc)->status ? 0 : (wc)->byte_len;	\
	} while (0)

/* the status by name: each trace.h includes <trace/misc/rdma.h> */
#define RPCRDMA2_WC_FORMAT	"status=%s vendor_err=%u byte_len=%u"

#define RPCRDMA2_WC_VARARGS						\
	rdma_show_wc_status(__entry->status), __entry->vendor_err,	\
	__entry->byte_len

/*
 * The fixed part of a decoded transport header (struct rpcrdma2_hdr):
 * xid, version, credits, type.
 */
#define RPCRDMA2_HDR_FIELDS						\
	__field(u32, xid)						\
	__field(u32, vers)						\
	__field(u32, credits)						\
	__field(u32, htype)

#define RPCRDMA2_HDR_ASSIGN(hdr)					\
	do {								\
		__entry->xid = (hdr)->xid;				\
		__entry->vers = (hdr)->vers;				\
		__entry->credits = (hdr)->credits;			\
		__entry->htype = (hdr)->htype;				\
	} while (0)

#define RPCRDMA2_HDR_FORMAT	"xid=0x%08x vers=%s credits=%u htype=%s"

#define RPCRDMA2_HDR_VARARGS						\
	__entry->xid, rpcrdma2_show_vers(__entry->vers), __entry->credits, \
	rpcrdma2_show_htype(__entry->vers, __entry->htype)

/* Segments of all the Write chunks of @cl */
static inline u32 rpcrdma2_trace_write_segs(const struct rpcrdma2_chunk_lists *cl)
{
	u32 i, n = 0;

	for (i = 0; i < cl->nr_writes; i++)
		n += cl->writes[i].nsegs;
	return n;
}

/*
 * The rest of a header (struct rpcrdma2_hdr), for the events that
 * record whole headers sent and received: rdma_flags, rdma_inv_handle
 * (both zero in v1) and what the chunk lists hold, so that each can be
 * compared with the message on the wire. The counts are zero for a
 * header type without chunk lists.
 */
#define RPCRDMA2_BODY_FIELDS						\
	__field(u32, flags)						\
	__field(u32, inv_handle)					\
	__field(u32, read_segs)						\
	__field(u32, write_chunks)					\
	__field(u32, write_segs)					\
	__field(bool, reply_chunk)					\
	__field(u32, reply_segs)

#define RPCRDMA2_BODY_ASSIGN(hdr)					\
	do {								\
		__entry->flags = (hdr)->flags;				\
		__entry->inv_handle = (hdr)->cl.inv_handle;		\
		__entry->read_segs = (hdr)->cl.nr_reads;		\
		__entry->write_chunks = (hdr)->cl.nr_writes;		\
		__entry->write_segs = rpcrdma2_trace_write_segs(&(hdr)->cl); \
		__entry->reply_chunk = (hdr)->cl.has_reply;		\
		__entry->reply_segs = (hdr)->cl.has_reply ?		\
				      (hdr)->cl.reply.nsegs : 0;	\
	} while (0)

#define RPCRDMA2_BODY_FORMAT						\
	"flags=0x%x inv_handle=0x%08x read_segs=%u write_chunks=%u "	\
	"write_segs=%u reply_chunk=%d reply_segs=%u"

#define RPCRDMA2_BODY_VARARGS						\
	__entry->flags, __entry->inv_handle, __entry->read_segs,	\
	__entry->write_chunks, __entry->write_segs, __entry->reply_chunk, \
	__entry->reply_segs

/*
 * Which message a transport header is, for the events that drop or
 * refuse it: xid, version, type.
 */
#define RPCRDMA2_MSG_FIELDS						\
	__field(u32, xid)						\
	__field(u32, vers)						\
	__field(u32, htype)

#define RPCRDMA2_MSG_ASSIGN(hdr)					\
	do {								\
		__entry->xid = (hdr)->xid;				\
		__entry->vers = (hdr)->vers;				\
		__entry->htype = (hdr)->htype;				\
	} while (0)

#define RPCRDMA2_MSG_FORMAT	"xid=0x%08x vers=%s htype=%s"

#define RPCRDMA2_MSG_VARARGS						\
	__entry->xid, rpcrdma2_show_vers(__entry->vers),		\
	rpcrdma2_show_htype(__entry->vers, __entry->htype)

/* The peer's transport properties (struct rpcrdma2_props) */
#define RPCRDMA2_PROPS_FIELDS						\
	__field(u32, present)						\
	__field(u32, rbsiz)						\
	__field(u32, brs)

#define RPCRDMA2_PROPS_ASSIGN(props)					\
	do {								\
		__entry->present = (props)->present;			\
		__entry->rbsiz = (props)->rbsiz;			\
		__entry->brs = (props)->brs;				\
	} while (0)

#define RPCRDMA2_PROPS_FORMAT	"present=0x%x rbsiz=%u brs=%u"

#define RPCRDMA2_PROPS_VARARGS						\
	__entry->present, __entry->rbsiz, __entry->brs

/*
 * An event class, the same on both sides: a work-request context's
 * completion ID and a return code. Each trace.h declares its own with
 * RPCRDMA2_CID_RET_CLASS(its name).
 */
#define RPCRDMA2_CID_RET_CLASS(name)					\
	DECLARE_EVENT_CLASS(name,					\
		TP_PROTO(const struct rpcrdma2_cid *cid, int ret),	\
		TP_ARGS(cid, ret),					\
		TP_STRUCT__entry(					\
			RPCRDMA2_CID_FIELDS				\
			__field(int, ret)				\
		),							\
		TP_fast_assign(						\
			RPCRDMA2_CID_ASSIGN(cid);			\
			__entry->ret = ret;				\
		),							\
		TP_printk(RPCRDMA2_CID_FORMAT " ret=%d",		\
			  RPCRDMA2_CID_VARARGS, __entry->ret))

/*
 * A whole event, the same on both sides: a Receive completion that no
 * Send made (an RDMA Write With Immediate consumes a Receive too), with
 * its opcode and byte_len. Each trace.h defines its own with
 * RPCRDMA2_RECV_BAD_WC_EVENT(its name).
 */
#define RPCRDMA2_RECV_BAD_WC_EVENT(name)				\
	TRACE_EVENT(name,						\
		TP_PROTO(const struct rpcrdma2_cid *cid, u32 opcode,	\
			 u32 byte_len),					\
		TP_ARGS(cid, opcode, byte_len),				\
		TP_STRUCT__entry(					\
			RPCRDMA2_CID_FIELDS				\
			__field(u32, opcode)				\
			__field(u32, byte_len)				\
		),							\
		TP_fast_assign(						\
			RPCRDMA2_CID_ASSIGN(cid);			\
			__entry->opcode = opcode;			\
			__entry->byte_len = byte_len;			\
		),							\
		TP_printk(RPCRDMA2_CID_FORMAT " opcode=%u byte_len=%u",	\
			  RPCRDMA2_CID_VARARGS, __entry->opcode,	\
			  __entry->byte_len))

/*
 * Trace a completion as the in-tree handlers do: a success, a flush (the
 * QP is in the error state: teardown, or an error elsewhere) and an
 * error are different events, so a tool can watch the errors alone.
 * @event names three events of a DEFINE_*_COMPLETION(): @event,
 * @event_flush and @event_err.
 */
#define rpcrdma2_trace_wc(event, wc, cid)				\
	do {								\
		if (likely((wc)->status == IB_WC_SUCCESS))		\
			rpcrdma2_trace_hot(event, wc, cid);		\
		else if ((wc)->status == IB_WC_WR_FLUSH_ERR)		\
			trace_##event##_flush(wc, cid);			\
		else							\
			trace_##event##_err(wc, cid);			\
	} while (0)

/*
 * A tracepoint on a path every RPC takes, its static key tested at the
 * call site: GCC does not inline a trace_*() that several sites call,
 * and on the test bed a call to one that is off cost 0.4-0.9 us per RPC
 * (cpu_leaf.py), far more than the test.
 */
#define rpcrdma2_trace_hot(event, ...)					\
	do {								\
		if (trace_##event##_enabled())				\
			trace_##event(__VA_ARGS__);			\
	} while (0)

#endif /* _RPCRDMA2_TRACE_COMMON_H */
