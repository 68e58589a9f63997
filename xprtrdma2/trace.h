/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xprtrdma2 tracepoints (TRACE_SYSTEM rpcrdma2, shared with the server,
 * whose events are named svcrdma2_*): completions and posts keyed by
 * completion ID (cq.id:cid), connection events, the version negotiation,
 * and every reply that is discarded or fails its RPC, with the reason.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rpcrdma2

#if !defined(_XPRT_RDMA2_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _XPRT_RDMA2_TRACE_H

#include <linux/tracepoint.h>
#include <linux/socket.h>
#include <linux/sunrpc/sched.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>
#include <trace/misc/rdma.h>

#include <rpcrdma2/trace_common.h>

#include "xprt_rdma2.h"

RPCRDMA2_TRACE_DEFINE_REASONS;

DECLARE_EVENT_CLASS(xprtrdma2_completion_class,
	TP_PROTO(const struct ib_wc *wc, const struct rpcrdma2_cid *cid),
	TP_ARGS(wc, cid),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		RPCRDMA2_WC_FIELDS
		__field(u32, wc_flags)
		__field(u32, inv_rkey)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		RPCRDMA2_WC_ASSIGN(wc);
		__entry->wc_flags = wc->status ? 0 : wc->wc_flags;
		__entry->inv_rkey = !wc->status &&
			(wc->wc_flags & IB_WC_WITH_INVALIDATE) ?
			wc->ex.invalidate_rkey : 0;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " " RPCRDMA2_WC_FORMAT " flags=0x%x inv_rkey=0x%x",
		  RPCRDMA2_CID_VARARGS, RPCRDMA2_WC_VARARGS, __entry->wc_flags,
		  __entry->inv_rkey)
);

/* each as name, name_flush and name_err: see rpcrdma2_trace_wc() */
#define DEFINE_XPRTRDMA2_COMPLETION_EVENT(name)				\
	DEFINE_EVENT(xprtrdma2_completion_class, xprtrdma2_##name,	\
		TP_PROTO(const struct ib_wc *wc,			\
			 const struct rpcrdma2_cid *cid),		\
		TP_ARGS(wc, cid))

DEFINE_XPRTRDMA2_COMPLETION_EVENT(wc_send);
DEFINE_XPRTRDMA2_COMPLETION_EVENT(wc_send_flush);
DEFINE_XPRTRDMA2_COMPLETION_EVENT(wc_send_err);
DEFINE_XPRTRDMA2_COMPLETION_EVENT(wc_receive);
DEFINE_XPRTRDMA2_COMPLETION_EVENT(wc_receive_flush);
DEFINE_XPRTRDMA2_COMPLETION_EVENT(wc_receive_err);
/* REG_MR is unsignaled: only its errors and flushes report */
DEFINE_XPRTRDMA2_COMPLETION_EVENT(wc_reg);
DEFINE_XPRTRDMA2_COMPLETION_EVENT(wc_reg_flush);
DEFINE_XPRTRDMA2_COMPLETION_EVENT(wc_reg_err);
DEFINE_XPRTRDMA2_COMPLETION_EVENT(wc_localinv);
DEFINE_XPRTRDMA2_COMPLETION_EVENT(wc_localinv_flush);
DEFINE_XPRTRDMA2_COMPLETION_EVENT(wc_localinv_err);

/* a Receive completion that no Send made: the server broke the protocol */
RPCRDMA2_RECV_BAD_WC_EVENT(xprtrdma2_recv_bad_wc);

TRACE_EVENT(xprtrdma2_mr_map,
	TP_PROTO(const struct rpcrdma2_cid *cid, const struct rpcrdma2_seg *seg,
		 unsigned int nents),
	TP_ARGS(cid, seg, nents),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		__field(u32, handle)
		__field(u32, length)
		__field(u64, offset)
		__field(unsigned int, nents)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		__entry->handle = seg->handle;
		__entry->length = seg->length;
		__entry->offset = seg->offset;
		__entry->nents = nents;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " handle=0x%08x length=%u offset=0x%016llx nents=%u",
		  RPCRDMA2_CID_VARARGS, __entry->handle, __entry->length,
		  __entry->offset, __entry->nents)
);

TRACE_DEFINE_ENUM(DMA_BIDIRECTIONAL);
TRACE_DEFINE_ENUM(DMA_TO_DEVICE);
TRACE_DEFINE_ENUM(DMA_FROM_DEVICE);

#define xprtrdma2_show_dma_dir(x)					\
	__print_symbolic(x,						\
		{ DMA_BIDIRECTIONAL, "BIDIRECTIONAL" },			\
		{ DMA_TO_DEVICE, "TO_DEVICE" },				\
		{ DMA_FROM_DEVICE, "FROM_DEVICE" })

/*
 * An MR's pages unmapped: from here on the CPU's writes to them stay
 * (a bounce-buffered FROM_DEVICE mapping copies back when unmapped).
 * xid: the RPC it was registered for.
 */
TRACE_EVENT(xprtrdma2_mr_unmap,
	TP_PROTO(const struct rpcrdma2_mr *mr),
	TP_ARGS(mr),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		__field(u32, xid)
		__field(unsigned long, dir)
		__field(int, nents)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(&mr->mr_cid);
		__entry->xid = mr->mr_req ?
			be32_to_cpu(mr->mr_req->rl_rqst->rq_xid) : 0;
		__entry->dir = mr->mr_dir;
		__entry->nents = mr->mr_nents;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " xid=0x%08x dir=%s nents=%d",
		  RPCRDMA2_CID_VARARGS, __entry->xid,
		  xprtrdma2_show_dma_dir(__entry->dir), __entry->nents)
);

/* A Receive invalidated an rkey that is not one of its RPC's MRs */
TRACE_EVENT(xprtrdma2_reminv_foreign,
	TP_PROTO(const struct rpcrdma2_cid *cid, u32 xid, u32 rkey),
	TP_ARGS(cid, xid, rkey),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		__field(u32, xid)
		__field(u32, rkey)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		__entry->xid = xid;
		__entry->rkey = rkey;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " xid=0x%08x rkey=0x%08x",
		  RPCRDMA2_CID_VARARGS, __entry->xid, __entry->rkey)
);

DECLARE_EVENT_CLASS(xprtrdma2_lifetime_class,
	TP_PROTO(const struct rpcrdma2_xprt *r),
	TP_ARGS(r),
	TP_STRUCT__entry(
		__field(const void *, xprt)
		__array(u8, addr, sizeof(struct sockaddr_in6))
	),
	TP_fast_assign(
		__entry->xprt = r;
		memset(__entry->addr, 0, sizeof(__entry->addr));
		memcpy(__entry->addr, &r->rx_xprt.addr,
		       min_t(size_t, r->rx_xprt.addrlen,
			     sizeof(__entry->addr)));
	),
	TP_printk("xprt=%p addr=%pISpc", __entry->xprt, __entry->addr)
);

#define DEFINE_XPRTRDMA2_LIFETIME_EVENT(name)				\
	DEFINE_EVENT(xprtrdma2_lifetime_class, xprtrdma2_##name,	\
		TP_PROTO(const struct rpcrdma2_xprt *r),		\
		TP_ARGS(r))

DEFINE_XPRTRDMA2_LIFETIME_EVENT(setup);
DEFINE_XPRTRDMA2_LIFETIME_EVENT(destroy);

TRACE_EVENT(xprtrdma2_connect,
	TP_PROTO(const struct rpcrdma2_xprt *r, int rc),
	TP_ARGS(r, rc),
	TP_STRUCT__entry(
		__field(const void *, xprt)
		__field(int, rc)
		__field(bool, v1_next)
		__field(bool, v2_silent)
	),
	TP_fast_assign(
		__entry->xprt = r;
		__entry->rc = rc;
		__entry->v1_next = READ_ONCE(r->rx_v1_next);
		__entry->v2_silent = READ_ONCE(r->rx_v2_silent);
	),
	TP_printk("xprt=%p rc=%d v1_next=%d v2_silent=%d", __entry->xprt,
		  __entry->rc, __entry->v1_next, __entry->v2_silent)
);

TRACE_EVENT(xprtrdma2_cm_event,
	TP_PROTO(const struct rpcrdma2_ep *ep, const struct rdma_cm_event *ev),
	TP_ARGS(ep, ev),
	TP_STRUCT__entry(
		__field(const void *, ep)
		__field(int, event)
		__field(int, status)
	),
	TP_fast_assign(
		__entry->ep = ep;
		__entry->event = ev->event;
		__entry->status = ev->status;
	),
	TP_printk("ep=%p event=%s status=%d", __entry->ep,
		  rdma_show_cm_event(__entry->event), __entry->status)
);

TRACE_EVENT(xprtrdma2_qp_event,
	TP_PROTO(const struct rpcrdma2_ep *ep, const struct ib_event *ev),
	TP_ARGS(ep, ev),
	TP_STRUCT__entry(
		__field(const void *, ep)
		__field(int, event)
	),
	TP_fast_assign(
		__entry->ep = ep;
		__entry->event = ev->event;
	),
	TP_printk("ep=%p event=%s", __entry->ep,
		  rdma_show_ib_event(__entry->event))
);

DECLARE_EVENT_CLASS(xprtrdma2_ep_class,
	TP_PROTO(const struct rpcrdma2_ep *ep),
	TP_ARGS(ep),
	TP_STRUCT__entry(
		__field(const void *, ep)
		__field(u32, vers)
		__field(u32, try_vers)
		__field(bool, peer_pdata)
		__field(bool, peer_reminv)
		__field(u32, v1_send)
		__field(u32, v1_recv)
		__field(u32, peer_rbsiz)
	),
	TP_fast_assign(
		__entry->ep = ep;
		__entry->vers = ep->re_vers;
		__entry->try_vers = ep->re_try_vers;
		__entry->peer_pdata = ep->re_peer.version != 0;
		__entry->peer_reminv = ep->re_peer.reminv;
		__entry->v1_send = ep->re_v1_send;
		__entry->v1_recv = ep->re_v1_recv;
		__entry->peer_rbsiz = ep->re_peer_rbsiz;
	),
	TP_printk("ep=%p vers=%s try=%s pdata=%d R=%d v1 send/recv=%u/%u rbsiz=%u",
		  __entry->ep, rpcrdma2_show_conn_vers(__entry->vers),
		  rpcrdma2_show_conn_vers(__entry->try_vers),
		  __entry->peer_pdata, __entry->peer_reminv, __entry->v1_send,
		  __entry->v1_recv, __entry->peer_rbsiz)
);

#define DEFINE_XPRTRDMA2_EP_EVENT(name)					\
	DEFINE_EVENT(xprtrdma2_ep_class, xprtrdma2_##name,		\
		TP_PROTO(const struct rpcrdma2_ep *ep), TP_ARGS(ep))

DEFINE_XPRTRDMA2_EP_EVENT(established);
/* the first version 2 Call went unanswered: later connections use v1 */
DEFINE_XPRTRDMA2_EP_EVENT(probe_expired);
DEFINE_XPRTRDMA2_EP_EVENT(version);
DEFINE_XPRTRDMA2_EP_EVENT(disconnect);

/* the MR pool grew (ret: MRs added) or could not (ret: the error) */
TRACE_EVENT(xprtrdma2_mr_refill,
	TP_PROTO(const struct rpcrdma2_ep *ep, int ret),
	TP_ARGS(ep, ret),
	TP_STRUCT__entry(
		__field(const void *, ep)
		__field(int, ret)
		__field(u32, nr_mrs)
		__field(u32, max_mrs)
	),
	TP_fast_assign(
		__entry->ep = ep;
		__entry->ret = ret;
		__entry->nr_mrs = READ_ONCE(ep->re_nr_mrs);
		__entry->max_mrs = ep->re_max_mrs;
	),
	TP_printk("ep=%p ret=%d mrs=%u/%u", __entry->ep, __entry->ret,
		  __entry->nr_mrs, __entry->max_mrs)
);

TRACE_EVENT(xprtrdma2_connprop_recv,
	TP_PROTO(const struct rpcrdma2_ep *ep,
		 const struct rpcrdma2_props *props),
	TP_ARGS(ep, props),
	TP_STRUCT__entry(
		__field(const void *, ep)
		RPCRDMA2_PROPS_FIELDS
	),
	TP_fast_assign(
		__entry->ep = ep;
		RPCRDMA2_PROPS_ASSIGN(props);
	),
	TP_printk("ep=%p " RPCRDMA2_PROPS_FORMAT, __entry->ep,
		  RPCRDMA2_PROPS_VARARGS)
);

RPCRDMA2_CID_RET_CLASS(xprtrdma2_cid_ret_class);

DEFINE_EVENT(xprtrdma2_cid_ret_class, xprtrdma2_post_send,
	TP_PROTO(const struct rpcrdma2_cid *cid, int ret),
	TP_ARGS(cid, ret));

DEFINE_EVENT(xprtrdma2_cid_ret_class, xprtrdma2_post_err,
	TP_PROTO(const struct rpcrdma2_cid *cid, int ret),
	TP_ARGS(cid, ret));

DECLARE_EVENT_CLASS(xprtrdma2_rqst_class,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b),
	TP_STRUCT__entry(
		__field(unsigned int, task_id)
		__field(u32, xid)
		__field(u32, a)
		__field(u32, b)
	),
	TP_fast_assign(
		__entry->task_id = rqst->rq_task->tk_pid;
		__entry->xid = be32_to_cpu(rqst->rq_xid);
		__entry->a = a;
		__entry->b = b;
	),
	TP_printk("task:%u xid=0x%08x %u %u", __entry->task_id, __entry->xid,
		  __entry->a, __entry->b)
);

/* a: version, b: bytes sent */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_call,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/* a: version, b: bytes of RPC message in the Read chunk */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_long_call,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/* a: version (0: not sent, its connection is gone), b: bytes of RPC reply */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_bc_reply,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/* a: payload bytes in the Read chunk, b: their XDR position */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_read_chunk,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/* a: payload bytes the Write chunk offers, b: its segments */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_write_chunk,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/* a: payload bytes the server wrote, b: their XDR position in the reply */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_write_chunk_done,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/* a: Write chunks returned, b: Write chunk segments offered */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_bad_write_list,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/* a: the RDMA2_ERROR code, b: RPCRDMA2_DDP_* chunks the resend leaves out */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_resend,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/*
 * ->buf_free of an RPC whose MRs are still registered (killed or timed
 * out before its reply). a: MRs, b: 1 if their LOCAL_INV was posted and
 * completed, 0 if the QP was already in the error state
 */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_unmap_sync,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/*
 * A reply's inline bytes copied into its RPC's receive buffer, once no
 * MR of the RPC is mapped. a: bytes, b: Reply and Write chunk segments
 * the Call offered (not 0: the copy goes into memory a chunk covered)
 */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_reply_copy,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/*
 * LOCAL_INV for a reply's RPC could not be posted: the reply is set
 * aside, the connection closes and the RPC is sent again on the next
 * one. a: MRs left registered until the QP is drained, b: 0
 */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_linv_failed,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/* a: rdma_length_needed of an RDMA2_ERR_REPLY_RESOURCE, b: rq_rcv_buf.buflen */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_reply_resource,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/*
 * RDMA2_ERR_REPLY_RESOURCE to a Call that counted on the server having
 * read our RBSIZ: the connection's receive threshold drops back. a: the
 * threshold before, b: after
 */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_rbsiz_refused,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/* a: the RDMA2_ERROR code, b: DDP chunks off for the connection */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_ddp_off,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/* a: segments returned, b: segments offered */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_bad_reply_chunk,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/* a: bytes needed, b: the inline threshold */
DEFINE_EVENT(xprtrdma2_rqst_class, xprtrdma2_too_big,
	TP_PROTO(const struct rpc_rqst *rqst, u32 a, u32 b),
	TP_ARGS(rqst, a, b));

/* a Call the server refused with ERR_VERS, sent again in @vers */
TRACE_EVENT(xprtrdma2_fallback,
	TP_PROTO(const struct rpc_rqst *rqst, u32 vers),
	TP_ARGS(rqst, vers),
	TP_STRUCT__entry(
		__field(unsigned int, task_id)
		__field(u32, xid)
		__field(u32, vers)
	),
	TP_fast_assign(
		__entry->task_id = rqst->rq_task->tk_pid;
		__entry->xid = be32_to_cpu(rqst->rq_xid);
		__entry->vers = vers;
	),
	TP_printk("task:%u xid=0x%08x vers=%s",
		  __entry->task_id, __entry->xid,
		  rpcrdma2_show_vers(__entry->vers))
);

DECLARE_EVENT_CLASS(xprtrdma2_hdr_class,
	TP_PROTO(const struct rpcrdma2_cid *cid, const struct rpcrdma2_hdr *hdr,
		 int arg),
	TP_ARGS(cid, hdr, arg),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		RPCRDMA2_HDR_FIELDS
		__field(u32, flags)
		__field(int, arg)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		RPCRDMA2_HDR_ASSIGN(hdr);
		__entry->flags = hdr->flags;
		__entry->arg = arg;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " " RPCRDMA2_HDR_FORMAT " flags=0x%x arg=%d",
		  RPCRDMA2_CID_VARARGS, RPCRDMA2_HDR_VARARGS, __entry->flags,
		  __entry->arg)
);

#define DEFINE_XPRTRDMA2_HDR_EVENT(name)				\
	DEFINE_EVENT(xprtrdma2_hdr_class, xprtrdma2_##name,		\
		TP_PROTO(const struct rpcrdma2_cid *cid,		\
			 const struct rpcrdma2_hdr *hdr, int arg),	\
		TP_ARGS(cid, hdr, arg))

/* arg: the connection's version */
DEFINE_XPRTRDMA2_HDR_EVENT(reply_vers);
/* arg: bytes of RPC reply, or the errno the Call fails with */
DEFINE_XPRTRDMA2_HDR_EVENT(reply);

/* a received header the decoder refused, and why */
TRACE_EVENT(xprtrdma2_reply_rejected,
	TP_PROTO(const struct rpcrdma2_cid *cid, const struct rpcrdma2_hdr *hdr,
		 u32 reason),
	TP_ARGS(cid, hdr, reason),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		RPCRDMA2_HDR_FIELDS
		__field(u32, flags)
		__field(u32, reason)
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		RPCRDMA2_HDR_ASSIGN(hdr);
		__entry->flags = hdr->flags;
		__entry->reason = reason;
	),
	TP_printk(RPCRDMA2_CID_FORMAT " " RPCRDMA2_HDR_FORMAT " flags=0x%x reason=%s",
		  RPCRDMA2_CID_VARARGS, RPCRDMA2_HDR_VARARGS, __entry->flags,
		  rpcrdma2_show_reason(__entry->reason))
);

/*
 * Whole transport headers, for comparing with the messages on the wire:
 * each one sent, as encoded (a Call, our RDMA2_CONNPROP, a reply to a
 * reverse-direction Call), and each one received that the codec
 * accepted. A header is encoded before its Send is posted, and so
 * before the Send has a completion ID.
 */
TRACE_EVENT(xprtrdma2_hdr_send,
	TP_PROTO(const struct rpcrdma2_hdr *hdr),
	TP_ARGS(hdr),
	TP_STRUCT__entry(
		RPCRDMA2_HDR_FIELDS
		RPCRDMA2_BODY_FIELDS
	),
	TP_fast_assign(
		RPCRDMA2_HDR_ASSIGN(hdr);
		RPCRDMA2_BODY_ASSIGN(hdr);
	),
	TP_printk(RPCRDMA2_HDR_FORMAT " " RPCRDMA2_BODY_FORMAT,
		  RPCRDMA2_HDR_VARARGS, RPCRDMA2_BODY_VARARGS)
);

/* by the Receive's completion ID, as xprtrdma2_wc_receive */
TRACE_EVENT(xprtrdma2_hdr_recv,
	TP_PROTO(const struct rpcrdma2_cid *cid, const struct rpcrdma2_hdr *hdr),
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

DECLARE_EVENT_CLASS(xprtrdma2_hdr_only_class,
	TP_PROTO(const struct rpcrdma2_cid *cid, const struct rpcrdma2_hdr *hdr),
	TP_ARGS(cid, hdr),
	TP_STRUCT__entry(
		RPCRDMA2_CID_FIELDS
		RPCRDMA2_MSG_FIELDS
	),
	TP_fast_assign(
		RPCRDMA2_CID_ASSIGN(cid);
		RPCRDMA2_MSG_ASSIGN(hdr);
	),
	TP_printk(RPCRDMA2_CID_FORMAT " " RPCRDMA2_MSG_FORMAT,
		  RPCRDMA2_CID_VARARGS, RPCRDMA2_MSG_VARARGS)
);

DEFINE_EVENT(xprtrdma2_hdr_only_class, xprtrdma2_no_rqst,
	TP_PROTO(const struct rpcrdma2_cid *cid, const struct rpcrdma2_hdr *hdr),
	TP_ARGS(cid, hdr));

/* a reverse-direction Call taken for the callback service */
DEFINE_EVENT(xprtrdma2_hdr_only_class, xprtrdma2_bc_call,
	TP_PROTO(const struct rpcrdma2_cid *cid, const struct rpcrdma2_hdr *hdr),
	TP_ARGS(cid, hdr));

TRACE_EVENT(xprtrdma2_bc_drop,
	TP_PROTO(const struct rpcrdma2_cid *cid, const struct rpcrdma2_hdr *hdr,
		 const char *why),
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

/* a reverse-direction rqst back in the pool: its reply was sent, or not */
TRACE_EVENT(xprtrdma2_bc_free,
	TP_PROTO(const struct rpc_rqst *rqst),
	TP_ARGS(rqst),
	TP_STRUCT__entry(
		__field(u32, xid)
		__field(unsigned int, slots)
	),
	TP_fast_assign(
		__entry->xid = be32_to_cpu(rqst->rq_xid);
		__entry->slots = rqst->rq_xprt->bc_alloc_count;
	),
	TP_printk("xid=0x%08x slots=%u", __entry->xid, __entry->slots)
);

TRACE_EVENT(xprtrdma2_bc_setup,
	TP_PROTO(const struct rpc_xprt *xprt, unsigned int reqs),
	TP_ARGS(xprt, reqs),
	TP_STRUCT__entry(
		__field(unsigned int, reqs)
		__field(unsigned int, slots)
	),
	TP_fast_assign(
		__entry->reqs = reqs;
		__entry->slots = xprt->bc_alloc_count;
	),
	TP_printk("reqs=%u slots=%u", __entry->reqs, __entry->slots)
);

/*
 * The NFS client closed its backchannel: @busy Calls given to its
 * callback service were not given back in time (see ->bc_destroy)
 */
TRACE_EVENT(xprtrdma2_bc_destroy,
	TP_PROTO(const struct rpcrdma2_xprt *r, int busy),
	TP_ARGS(r, busy),
	TP_STRUCT__entry(
		__field(const void *, xprt)
		__field(int, busy)
		__field(unsigned int, slots)
		__array(u8, addr, sizeof(struct sockaddr_in6))
	),
	TP_fast_assign(
		__entry->xprt = r;
		__entry->busy = busy;
		__entry->slots = r->rx_xprt.bc_alloc_count;
		memset(__entry->addr, 0, sizeof(__entry->addr));
		memcpy(__entry->addr, &r->rx_xprt.addr,
		       min_t(size_t, r->rx_xprt.addrlen,
			     sizeof(__entry->addr)));
	),
	TP_printk("busy=%d slots=%u xprt=%p addr=%pISpc", __entry->busy,
		  __entry->slots, __entry->xprt, __entry->addr)
);

#endif /* _XPRT_RDMA2_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
