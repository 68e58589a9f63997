/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svcrdma2 tracepoints (TRACE_SYSTEM rpcrdma2, shared with the client):
 * completions and posts keyed by completion ID (cq.id:cid), connection
 * events, and every error path with the error sent and the reason.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rpcrdma2

#if !defined(_SVC_RDMA2_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SVC_RDMA2_TRACE_H

#include <linux/tracepoint.h>
#include <linux/socket.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>
#include <trace/misc/rdma.h>

#include <rpcrdma2/trace_common.h>

#include "svc_rdma2.h"

RPCRDMA2_TRACE_DEFINE_REASONS;

DECLARE_EVENT_CLASS(svcrdma2_completion_class,
	TP_PROTO(const struct ib_wc *wc, const struct rpcrdma2_cid *cid),
	TP_ARGS(wc, cid),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		RPCRDMA2_WC_FIELDS
		__field(u32, wc_flags)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		RPCRDMA2_WC_ASSIGN(wc);
		__entry->wc_flags = wc->wc_flags;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " " RPCRDMA2_WC_FORMAT " flags=0x%x",
		  RPCRDMA2_CID_VARARGS, RPCRDMA2_WC_VARARGS, __entry->wc_flags)
);

/* each as name, name_flush and name_err: see rpcrdma2_trace_wc() */
#define DEFINE_SVCRDMA2_COMPLETION_EVENT(name)				\
	DEFINE_EVENT(svcrdma2_completion_class, svcrdma2_##name,	\
		TP_PROTO(const struct ib_wc *wc,			\
			 const struct rpcrdma2_cid *cid),		\
		TP_ARGS(wc, cid))

DEFINE_SVCRDMA2_COMPLETION_EVENT(wc_recv);
DEFINE_SVCRDMA2_COMPLETION_EVENT(wc_recv_flush);
DEFINE_SVCRDMA2_COMPLETION_EVENT(wc_recv_err);
DEFINE_SVCRDMA2_COMPLETION_EVENT(wc_send);
DEFINE_SVCRDMA2_COMPLETION_EVENT(wc_send_flush);
DEFINE_SVCRDMA2_COMPLETION_EVENT(wc_send_err);
DEFINE_SVCRDMA2_COMPLETION_EVENT(wc_read);
DEFINE_SVCRDMA2_COMPLETION_EVENT(wc_read_flush);
DEFINE_SVCRDMA2_COMPLETION_EVENT(wc_read_err);

/* a Receive completion that no Send made: the client broke the protocol */
RPCRDMA2_RECV_BAD_WC_EVENT(svcrdma2_recv_bad_wc);

TRACE_EVENT(svcrdma2_listen,
	TP_PROTO(const struct sockaddr *sa, int ret),
	TP_ARGS(sa, ret),
	TP_STRUCT__entry(
		__field(int, ret)
		__array(u8, addr, sizeof(struct sockaddr_in6))
	),
	TP_fast_assign(
		__entry->ret = ret;
		memset(__entry->addr, 0, sizeof(__entry->addr));
		memcpy(__entry->addr, sa, sa->sa_family == AF_INET6 ?
		       sizeof(struct sockaddr_in6) :
		       sizeof(struct sockaddr_in));
	),
	TP_printk("addr=%pISpc ret=%d", __entry->addr, __entry->ret)
);

TRACE_EVENT(svcrdma2_cm_event,
	TP_PROTO(const struct rdma_cm_id *id, const struct rdma_cm_event *ev),
	TP_ARGS(id, ev),
	TP_STRUCT__entry(
		__field(const void *, id)
		__field(int, event)
		__field(int, status)
	),
	TP_fast_assign(
		__entry->id = id;
		__entry->event = ev->event;
		__entry->status = ev->status;
	),
	TP_printk("id=%p event=%s status=%d", __entry->id,
		  rdma_show_cm_event(__entry->event), __entry->status)
);

TRACE_EVENT(svcrdma2_qp_event,
	TP_PROTO(const struct svc_rdma2_xprt *sx, const struct ib_event *ev),
	TP_ARGS(sx, ev),
	TP_STRUCT__entry(
		__field(int, event)
		__string(addr, sx->sx_xprt.xpt_remotebuf)
	),
	TP_fast_assign(
		__entry->event = ev->event;
		__assign_str(addr);
	),
	TP_printk("addr=%s event=%s", __get_str(addr),
		  rdma_show_ib_event(__entry->event))
);

TRACE_EVENT(svcrdma2_conn_request,
	TP_PROTO(const struct rdma_cm_id *id, int ret,
		 const struct rpcrdma2_cm_pdata *pd),
	TP_ARGS(id, ret, pd),
	TP_STRUCT__entry(
		__field(const void *, id)
		__field(int, ret)
		__field(bool, reminv)
		__field(u32, send_size)
		__field(u32, recv_size)
	),
	TP_fast_assign(
		__entry->id = id;
		__entry->ret = ret;
		__entry->reminv = pd->reminv;
		__entry->send_size = pd->send_size;
		__entry->recv_size = pd->recv_size;
	),
	TP_printk("id=%p pdata=%d R=%d send=%u recv=%u", __entry->id,
		  __entry->ret, __entry->reminv, __entry->send_size,
		  __entry->recv_size)
);

DECLARE_EVENT_CLASS(svcrdma2_xprt_class,
	TP_PROTO(const struct svc_rdma2_xprt *sx, int ret),
	TP_ARGS(sx, ret),
	TP_STRUCT__entry(
		__field(int, ret)
		__field(u32, vers)
		__field(u32, credits)
		__field(u32, inline_reply)
		__field(bool, reminv)
		__string(addr, sx->sx_xprt.xpt_remotebuf)
	),
	TP_fast_assign(
		__entry->ret = ret;
		__entry->vers = sx->sx_vers;
		__entry->credits = sx->sx_max_requests;
		__entry->inline_reply = sx->sx_v1_reply_inline;
		__entry->reminv = sx->sx_reminv_ok;
		__assign_str(addr);
	),
	TP_printk("addr=%s ret=%d vers=%s credits=%u v1_reply_inline=%u R=%d",
		  __get_str(addr), __entry->ret,
		  rpcrdma2_show_conn_vers(__entry->vers),
		  __entry->credits, __entry->inline_reply, __entry->reminv)
);

#define DEFINE_SVCRDMA2_XPRT_EVENT(name)				\
	DEFINE_EVENT(svcrdma2_xprt_class, svcrdma2_##name,		\
		TP_PROTO(const struct svc_rdma2_xprt *sx, int ret),	\
		TP_ARGS(sx, ret))

DEFINE_SVCRDMA2_XPRT_EVENT(accept);
DEFINE_SVCRDMA2_XPRT_EVENT(post_recv_err);
DEFINE_SVCRDMA2_XPRT_EVENT(version);
DEFINE_SVCRDMA2_XPRT_EVENT(sq_full);
DEFINE_SVCRDMA2_XPRT_EVENT(sq_timeout);

DECLARE_EVENT_CLASS(svcrdma2_addr_class,
	TP_PROTO(const struct svc_rdma2_xprt *sx),
	TP_ARGS(sx),
	TP_STRUCT__entry(
		__string(addr, sx->sx_xprt.xpt_remotebuf)
	),
	TP_fast_assign(
		__assign_str(addr);
	),
	TP_printk("addr=%s", __get_str(addr))
);

DEFINE_EVENT(svcrdma2_addr_class, svcrdma2_disconnect,
	TP_PROTO(const struct svc_rdma2_xprt *sx),
	TP_ARGS(sx));

DECLARE_EVENT_CLASS(svcrdma2_props_class,
	TP_PROTO(const struct svc_rdma2_xprt *sx,
		 const struct rpcrdma2_props *props),
	TP_ARGS(sx, props),
	TP_STRUCT__entry(
		RPCRDMA2_PROPS_FIELDS
		__string(addr, sx->sx_xprt.xpt_remotebuf)
	),
	TP_fast_assign(
		RPCRDMA2_PROPS_ASSIGN(props);
		__assign_str(addr);
	),
	TP_printk("addr=%s " RPCRDMA2_PROPS_FORMAT, __get_str(addr),
		  RPCRDMA2_PROPS_VARARGS)
);

DEFINE_EVENT(svcrdma2_props_class, svcrdma2_connprop_recv,
	TP_PROTO(const struct svc_rdma2_xprt *sx,
		 const struct rpcrdma2_props *props),
	TP_ARGS(sx, props));
DEFINE_EVENT(svcrdma2_props_class, svcrdma2_connprop_send,
	TP_PROTO(const struct svc_rdma2_xprt *sx,
		 const struct rpcrdma2_props *props),
	TP_ARGS(sx, props));

TRACE_EVENT(svcrdma2_decode_rqst,
	TP_PROTO(const struct rpcrdma2_cid *cid,
		 const struct rpcrdma2_hdr *hdr),
	TP_ARGS(cid, hdr),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		RPCRDMA2_HDR_FIELDS
		__field(u32, reads)
		__field(u32, writes)
		__field(bool, reply)
		__field(u32, inv)
		__field(u32, rpc_len)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		RPCRDMA2_HDR_ASSIGN(hdr);
		__entry->reads = hdr->cl.nr_read_chunks;
		__entry->writes = hdr->cl.nr_writes;
		__entry->reply = hdr->cl.has_reply;
		__entry->inv = hdr->cl.inv_handle;
		__entry->rpc_len = hdr->rpc_len;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " " RPCRDMA2_HDR_FORMAT
		  " read_chunks=%u write_chunks=%u reply_chunk=%d inv_handle=0x%x rpc_len=%u",
		  RPCRDMA2_CID_VARARGS, RPCRDMA2_HDR_VARARGS, __entry->reads,
		  __entry->writes, __entry->reply, __entry->inv,
		  __entry->rpc_len)
);

/*
 * Whole transport headers, for comparing with the messages on the wire:
 * each one sent but an error (a reply, our RDMA2_CONNPROP, a
 * reverse-direction Call), by the Send's completion ID, and each one
 * received that the codec accepted, by the Receive's. The errors sent
 * are svcrdma2_send_error and svcrdma2_reject.
 */
DECLARE_EVENT_CLASS(svcrdma2_hdr_class,
	TP_PROTO(const struct rpcrdma2_cid *cid,
		 const struct rpcrdma2_hdr *hdr),
	TP_ARGS(cid, hdr),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		RPCRDMA2_HDR_FIELDS
		RPCRDMA2_BODY_FIELDS
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		RPCRDMA2_HDR_ASSIGN(hdr);
		RPCRDMA2_BODY_ASSIGN(hdr);
	),
	TP_printk(RPCRDMA2_CID_FORMAT " " RPCRDMA2_HDR_FORMAT " "
		  RPCRDMA2_BODY_FORMAT, RPCRDMA2_CID_VARARGS,
		  RPCRDMA2_HDR_VARARGS, RPCRDMA2_BODY_VARARGS)
);

#define DEFINE_SVCRDMA2_HDR_EVENT(name)					\
	DEFINE_EVENT(svcrdma2_hdr_class, svcrdma2_##name,		\
		TP_PROTO(const struct rpcrdma2_cid *cid,		\
			 const struct rpcrdma2_hdr *hdr),		\
		TP_ARGS(cid, hdr))

DEFINE_SVCRDMA2_HDR_EVENT(hdr_send);
DEFINE_SVCRDMA2_HDR_EVENT(hdr_recv);

TRACE_EVENT(svcrdma2_decode_err,
	TP_PROTO(const struct rpcrdma2_cid *cid,
		 const struct rpcrdma2_hdr *hdr,
		 const struct rpcrdma2_reject *rej),
	TP_ARGS(cid, hdr, rej),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		RPCRDMA2_MSG_FIELDS
		__field(bool, discard)
		__field(u32, code)
		__field(u32, reason)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		RPCRDMA2_MSG_ASSIGN(hdr);
		__entry->discard = rej->discard;
		__entry->code = rej->discard ? 0 : rej->reply.code;
		__entry->reason = rej->reason;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " " RPCRDMA2_MSG_FORMAT " reason=%s %s%s",
		  RPCRDMA2_CID_VARARGS, RPCRDMA2_MSG_VARARGS,
		  rpcrdma2_show_reason(__entry->reason),
		  __entry->discard ? "discard" : "answer ",
		  __entry->discard ? "" :
		  rpcrdma2_show_errcode(__entry->vers, __entry->code))
);

TRACE_EVENT(svcrdma2_drop,
	TP_PROTO(const struct rpcrdma2_cid *cid,
		 const struct rpcrdma2_hdr *hdr, const char *why),
	TP_ARGS(cid, hdr, why),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		RPCRDMA2_MSG_FIELDS
		__string(why, why)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		RPCRDMA2_MSG_ASSIGN(hdr);
		__assign_str(why);
	),
	TP_printk(RPCRDMA2_CID_FORMAT " " RPCRDMA2_MSG_FORMAT " dropped: %s",
		  RPCRDMA2_CID_VARARGS, RPCRDMA2_MSG_VARARGS, __get_str(why))
);

TRACE_EVENT(svcrdma2_send_error,
	TP_PROTO(const struct svc_rdma2_xprt *sx,
		 const struct rpcrdma2_cid *cid,
		 const struct rpcrdma2_hdr *out, int len),
	TP_ARGS(sx, cid, out, len),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		__field(u32, xid)
		__field(u32, vers)
		__field(u32, code)
		__field(int, len)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		__entry->xid = out->xid;
		__entry->vers = out->vers;
		__entry->code = out->err.code;
		__entry->len = len;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " xid=0x%08x vers=%s err=%s len=%d",
		  RPCRDMA2_CID_VARARGS, __entry->xid,
		  rpcrdma2_show_vers(__entry->vers),
		  rpcrdma2_show_errcode(__entry->vers, __entry->code),
		  __entry->len)
);

TRACE_EVENT(svcrdma2_reject,
	TP_PROTO(const struct svc_rdma2_xprt *sx,
		 const struct rpcrdma2_cid *cid,
		 const struct rpcrdma2_hdr *in,
		 const struct rpcrdma2_reject *rej, int len),
	TP_ARGS(sx, cid, in, rej, len),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		__field(u32, xid)
		__field(u32, vers)
		__field(u32, code)
		__field(int, len)
		__field(u32, reason)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		__entry->xid = in->xid;
		__entry->vers = in->vers;
		__entry->code = rej->reply.code;
		__entry->len = len;
		__entry->reason = rej->reason;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " xid=0x%08x vers=%s err=%s reason=%s len=%d",
		  RPCRDMA2_CID_VARARGS, __entry->xid,
		  rpcrdma2_show_vers(__entry->vers),
		  rpcrdma2_show_errcode(__entry->vers, __entry->code),
		  rpcrdma2_show_reason(__entry->reason), __entry->len)
);

TRACE_EVENT(svcrdma2_post_send,
	TP_PROTO(const struct svc_rdma2_xprt *sx,
		 const struct rpcrdma2_cid *cid, u32 len, u32 sqes),
	TP_ARGS(sx, cid, len, sqes),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		__field(u32, len)
		__field(u32, sqes)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		__entry->len = len;
		__entry->sqes = sqes;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " len=%u sqes=%u", RPCRDMA2_CID_VARARGS,
		  __entry->len, __entry->sqes)
);

RPCRDMA2_CID_RET_CLASS(svcrdma2_cid_ret_class);

DEFINE_EVENT(svcrdma2_cid_ret_class, svcrdma2_reply_err,
	TP_PROTO(const struct rpcrdma2_cid *cid, int ret),
	TP_ARGS(cid, ret));

DEFINE_EVENT(svcrdma2_cid_ret_class, svcrdma2_post_send_err,
	TP_PROTO(const struct rpcrdma2_cid *cid, int ret),
	TP_ARGS(cid, ret));

DECLARE_EVENT_CLASS(svcrdma2_read_class,
	TP_PROTO(const struct rpcrdma2_cid *cid, u32 sqes),
	TP_ARGS(cid, sqes),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		__field(u32, sqes)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		__entry->sqes = sqes;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " sqes=%u", RPCRDMA2_CID_VARARGS,
		  __entry->sqes)
);

#define DEFINE_SVCRDMA2_READ_EVENT(name)				\
	DEFINE_EVENT(svcrdma2_read_class, svcrdma2_##name,		\
		TP_PROTO(const struct rpcrdma2_cid *cid, u32 sqes),	\
		TP_ARGS(cid, sqes))

DEFINE_SVCRDMA2_READ_EVENT(read_post);
DEFINE_SVCRDMA2_READ_EVENT(read_park);

TRACE_EVENT(svcrdma2_read_done,
	TP_PROTO(const struct rpcrdma2_cid *cid, int ret, u32 len),
	TP_ARGS(cid, ret, len),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		__field(int, ret)
		__field(u32, len)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		__entry->ret = ret;
		__entry->len = len;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " ret=%d call_len=%u",
		  RPCRDMA2_CID_VARARGS, __entry->ret, __entry->len)
);

TRACE_EVENT(svcrdma2_reply_too_big,
	TP_PROTO(const struct svc_rdma2_xprt *sx,
		 const struct rpcrdma2_cid *cid, u32 needed, u64 room),
	TP_ARGS(sx, cid, needed, room),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		__field(u32, needed)
		__field(u64, room)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		__entry->needed = needed;
		__entry->room = room;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " needed=%u reply_chunk=%llu",
		  RPCRDMA2_CID_VARARGS, __entry->needed, __entry->room)
);

/* A Receive completed with every receive context in use: not replaced */
TRACE_EVENT(svcrdma2_recv_defer,
	TP_PROTO(const struct rpcrdma2_cid *cid, u32 owed),
	TP_ARGS(cid, owed),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		__field(u32, owed)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		__entry->owed = owed;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " owed=%u", RPCRDMA2_CID_VARARGS,
		  __entry->owed)
);

/* A context handed back, posted at once in place of an owed Receive */
TRACE_EVENT(svcrdma2_recv_repost,
	TP_PROTO(const struct rpcrdma2_cid *cid),
	TP_ARGS(cid),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
	),
	TP_printk(RPCRDMA2_CID_FORMAT, RPCRDMA2_CID_VARARGS)
);

/* The reply's transport header alone exceeds the client's receive size */
TRACE_EVENT(svcrdma2_reply_hdr_too_big,
	TP_PROTO(const struct rpcrdma2_cid *cid, u32 hdr_len, u32 limit),
	TP_ARGS(cid, hdr_len, limit),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		__field(u32, hdr_len)
		__field(u32, limit)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		__entry->hdr_len = hdr_len;
		__entry->limit = limit;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " hdr_len=%u inline_limit=%u",
		  RPCRDMA2_CID_VARARGS, __entry->hdr_len, __entry->limit)
);

TRACE_EVENT(svcrdma2_reply,
	TP_PROTO(const struct rpcrdma2_cid *rcid,
		 const struct rpcrdma2_cid *scid, u32 len, bool reply_chunk,
		 u32 inv),
	TP_ARGS(rcid, scid, len, reply_chunk, inv),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		__field(u32, send_cq_id)
		__field(int, send_cid)
		__field(u32, len)
		__field(bool, reply_chunk)
		__field(u32, inv)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(rcid);
		__entry->send_cq_id = scid->queue_id;
		__entry->send_cid = scid->completion_id;
		__entry->len = len;
		__entry->reply_chunk = reply_chunk;
		__entry->inv = inv;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " send cq.id=%u cid=%d len=%u reply_chunk=%d inv=0x%x",
		  RPCRDMA2_CID_VARARGS, __entry->send_cq_id, __entry->send_cid,
		  __entry->len, __entry->reply_chunk, __entry->inv)
);

/* Backchannel (backchannel.c): reverse-direction Calls and replies */

TRACE_EVENT(svcrdma2_cb_call,
	TP_PROTO(const struct rpcrdma2_cid *cid,
		 const struct rpcrdma2_hdr *hdr, u32 len),
	TP_ARGS(cid, hdr, len),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		__field(u32, xid)
		__field(u32, vers)
		__field(u32, credits)
		__field(u32, len)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		__entry->xid = hdr->xid;
		__entry->vers = hdr->vers;
		__entry->credits = hdr->credits;
		__entry->len = len;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " xid=0x%08x vers=%s credits=%u rpc_len=%u",
		  RPCRDMA2_CID_VARARGS, __entry->xid,
		  rpcrdma2_show_vers(__entry->vers),
		  __entry->credits, __entry->len)
);

TRACE_EVENT(svcrdma2_cb_reply,
	TP_PROTO(const struct rpcrdma2_cid *cid,
		 const struct rpcrdma2_hdr *hdr, u32 xid, u32 cwnd),
	TP_ARGS(cid, hdr, xid, cwnd),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		__field(u32, xid)
		__field(u32, vers)
		__field(u32, credits)
		__field(u32, cwnd)
		__field(u32, len)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		__entry->xid = xid;
		__entry->vers = hdr->vers;
		__entry->credits = hdr->credits;
		__entry->cwnd = cwnd;
		__entry->len = hdr->rpc_len;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " xid=0x%08x vers=%s credits=%u window=%u rpc_len=%u",
		  RPCRDMA2_CID_VARARGS, __entry->xid,
		  rpcrdma2_show_vers(__entry->vers),
		  __entry->credits, __entry->cwnd, __entry->len)
);

TRACE_EVENT(svcrdma2_cb_send,
	TP_PROTO(const struct svc_rdma2_xprt *sx, u32 xid, int ret),
	TP_ARGS(sx, xid, ret),
	TP_STRUCT__entry(
		__field(u32, xid)
		__field(int, ret)
		__string(addr, sx->sx_xprt.xpt_remotebuf)
	),
	TP_fast_assign(
		__entry->xid = xid;
		__entry->ret = ret;
		__assign_str(addr);
	),
	TP_printk("addr=%s xid=0x%08x ret=%d", __get_str(addr),
		  __entry->xid, __entry->ret)
);

DEFINE_SVCRDMA2_XPRT_EVENT(cb_setup);

DEFINE_EVENT(svcrdma2_addr_class, svcrdma2_cb_close,
	TP_PROTO(const struct svc_rdma2_xprt *sx),
	TP_ARGS(sx));

#endif /* _SVC_RDMA2_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
