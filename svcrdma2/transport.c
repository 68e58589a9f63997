// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma2 transport: the "rdma2" svc_xprt_class, its listeners and
 * connections. rdma_cm events arrive here; a CONNECT_REQUEST queues a new
 * connection on its listener, and an nfsd thread accepts it in
 * xpo_accept, where the queue pair is built and the Receives posted
 * before rdma_accept() answers with our RFC 8797 private data.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprt.h>
#include <rdma/ib_cm.h>

#include <rpcrdma2/dropin.h>
#include <rpcrdma2/kparams.h>
#include <rpcrdma2/stats.h>

#include "svc_rdma2.h"
#define CREATE_TRACE_POINTS
#include "trace.h"

#define SVC_RDMA2_LISTEN_BACKLOG 32

static int param_set_requests(const char *val, const struct kernel_param *kp)
{
	return rpcrdma2_param_set_range(val, kp, SVC_RDMA2_MIN_REQUESTS,
					SVC_RDMA2_MAX_REQUESTS, 1);
}

static int param_set_buf(const char *val, const struct kernel_param *kp)
{
	/* RFC 8797 §4.2 sizes are whole KiB */
	return rpcrdma2_param_set_range(val, kp, SVC_RDMA2_MIN_BUF,
					SVC_RDMA2_MAX_BUF,
					RPCRDMA2_CM_PDATA_SIZE_UNIT);
}

static int param_set_segs(const char *val, const struct kernel_param *kp)
{
	return rpcrdma2_param_set_range(val, kp, 1, SVC_RDMA2_MAX_SEGS, 1);
}

static const struct kernel_param_ops requests_ops = {
	.set = param_set_requests, .get = param_get_uint,
};

static const struct kernel_param_ops buf_ops = {
	.set = param_set_buf, .get = param_get_uint,
};

static const struct kernel_param_ops segs_ops = {
	.set = param_set_segs, .get = param_get_uint,
};

unsigned int svc_rdma2_max_requests = SVC_RDMA2_DEF_REQUESTS;
module_param_cb(max_requests, &requests_ops, &svc_rdma2_max_requests, 0644);
MODULE_PARM_DESC(max_requests,
		 "credits granted to each client, 4..1024 (new connections)");

unsigned int svc_rdma2_buf_size = SVC_RDMA2_DEF_BUF;
module_param_cb(buf_size, &buf_ops, &svc_rdma2_buf_size, 0644);
MODULE_PARM_DESC(buf_size,
		 "Receive/Send buffer bytes, advertised in private data and RBSIZ, 4096..65536");

unsigned int svc_rdma2_max_segs = SVC_RDMA2_DEF_SEGS;
module_param_cb(max_segs, &segs_ops, &svc_rdma2_max_segs, 0644);
MODULE_PARM_DESC(max_segs, "segments accepted in one chunk, 1..256");

bool svc_rdma2_ddp = true;
module_param_named(ddp, svc_rdma2_ddp, bool, 0644);
MODULE_PARM_DESC(ddp,
		 "accept DDP Read and Write chunks in v2 Calls; N refuses them as draft v2 sec. 5.3.3 says (new connections)");

/*
 * Global counters: the sum over every connection, past and present. Per
 * CPU, as each connection's are: every RPC bumps one or more, and a
 * shared atomic would bounce between every CPU that serves one.
 */
DEFINE_PER_CPU(u64 [SVC_RDMA2_NR_COUNTERS], svc_rdma2_global);
static LIST_HEAD(svc_rdma2_conns);
static DEFINE_SPINLOCK(svc_rdma2_conns_lock);

static const char * const svc_rdma2_counter_names[] = {
	[SVC_RDMA2_MSGS_V1] = "msgs_v1",
	[SVC_RDMA2_MSGS_V2] = "msgs_v2",
	[SVC_RDMA2_CONNPROP_RECV] = "connprop_recv",
	[SVC_RDMA2_CONNPROP_SENT] = "connprop_sent",
	[SVC_RDMA2_READS] = "read_chunks",
	[SVC_RDMA2_READ_BYTES] = "read_bytes",
	[SVC_RDMA2_WRITES] = "write_chunks",
	[SVC_RDMA2_WRITE_BYTES] = "write_bytes",
	[SVC_RDMA2_REPLY_CHUNKS] = "reply_chunks",
	[SVC_RDMA2_REPLY_BYTES] = "reply_bytes",
	[SVC_RDMA2_SEND_INV] = "send_with_inv",
	[SVC_RDMA2_DROPPED] = "dropped",
	[SVC_RDMA2_ERR_VERS] = "err_vers",
	[SVC_RDMA2_ERR_BAD_XDR] = "err_bad_xdr",
	[SVC_RDMA2_ERR_INVAL_HTYPE] = "err_inval_htype",
	[SVC_RDMA2_ERR_READ_CHUNKS] = "err_read_chunks",
	[SVC_RDMA2_ERR_WRITE_CHUNKS] = "err_write_chunks",
	[SVC_RDMA2_ERR_SEGMENTS] = "err_segments",
	[SVC_RDMA2_ERR_WRITE_RESOURCE] = "err_write_resource",
	[SVC_RDMA2_ERR_REPLY_RESOURCE] = "err_reply_resource",
	[SVC_RDMA2_ERR_SYSTEM] = "err_system",
	[SVC_RDMA2_CB_CALLS] = "cb_calls",
	[SVC_RDMA2_CB_REPLIES] = "cb_replies",
	[SVC_RDMA2_CB_BAD_REPLIES] = "cb_bad_replies",
	[SVC_RDMA2_RECV_DEFERRED] = "recv_deferred",
	[SVC_RDMA2_RECV_POSTS] = "recv_posts",
	[SVC_RDMA2_SEND_GATHERED] = "send_gathered",
	[SVC_RDMA2_SEND_MAP_ERRORS] = "send_map_errors",
};

static_assert(ARRAY_SIZE(svc_rdma2_counter_names) == SVC_RDMA2_NR_COUNTERS);

/* Free a transport whose Send, Receive and QP resources are gone */
static void svc_rdma2_xprt_free_mem(struct svc_rdma2_xprt *sx)
{
	free_percpu(sx->sx_stats);
	kfree(sx);
}

/* The most receive contexts one connection has had, since the module loaded */
static atomic_t svc_rdma2_recv_ctxts_peak = ATOMIC_INIT(0);

/**
 * svc_rdma2_recv_ctxts_note - record a connection's receive context count
 * @n: how many receive contexts the connection now has
 *
 * Context: any.
 */
void svc_rdma2_recv_ctxts_note(u32 n)
{
	int old = atomic_read(&svc_rdma2_recv_ctxts_peak);

	while (old < (int)n &&
	       !atomic_try_cmpxchg(&svc_rdma2_recv_ctxts_peak, &old, (int)n))
		;
}

/**
 * svc_rdma2_cid_init - assign a completion ID to a work-request context
 * @sx: the connection
 * @cq: the CQ the work request completes on
 * @cid: the ID to fill in
 *
 * Context: any.
 */
void svc_rdma2_cid_init(struct svc_rdma2_xprt *sx, struct ib_cq *cq,
			struct rpcrdma2_cid *cid)
{
	cid->queue_id = cq->res.id;
	cid->completion_id = atomic_inc_return(&sx->sx_next_cid);
}

/**
 * svc_rdma2_close - close a connection from any context
 * @sx: the connection
 *
 * Completion handlers never tear down: they ask for the close here and
 * an nfsd thread does it (svc_delete_xprt -> xpo_detach). Every
 * unsuccessful completion asks, flushes included: a QP can go to the
 * error state with no CM event (a failed RDMA Read whose WR was
 * unsignaled, so ib_cq drops its error), and then only the flushes
 * tell.
 *
 * svc_xprt_deferred_close() sets XPT_CLOSE and queues the transport for
 * an nfsd thread only if the bit was clear, and takes no reference. So
 * a completion that runs while ->xpo_free drains the QP (XPT_CLOSE set
 * before the drain, the last reference already gone) touches nothing
 * more than the flag; it never revives a transport being freed.
 *
 * An nfsd thread waiting for Send Queue entries on this connection
 * (svc_rdma2_sq_get()) is woken to see XPT_CLOSE and give up, so that
 * it is free to run the close.
 *
 * Context: any (svc_xprt_deferred_close() is what the in-tree svcrdma
 * calls from its QP event handler too).
 */
void svc_rdma2_close(struct svc_rdma2_xprt *sx)
{
	svc_xprt_deferred_close(&sx->sx_xprt);
	wake_up_all(&sx->sx_send_wait);
}

static struct svc_xprt_class svc_rdma2_class;

/* A fatal asynchronous QP event: the QP is in the error state */
static void svc_rdma2_qp_event(struct ib_event *event, void *context)
{
	struct svc_rdma2_xprt *sx = context;

	trace_svcrdma2_qp_event(sx, event);
	switch (event->event) {
	case IB_EVENT_COMM_EST:
	case IB_EVENT_PATH_MIG:
	case IB_EVENT_SQ_DRAINED:
	case IB_EVENT_QP_LAST_WQE_REACHED:
		break;
	default:
		svc_rdma2_close(sx);
		break;
	}
}

/* @class: the listener's, which every connection it accepts shares */
static struct svc_rdma2_xprt *svc_rdma2_xprt_alloc(struct svc_serv *serv,
						   struct net *net,
						   struct svc_xprt_class *class)
{
	struct svc_rdma2_xprt *sx;

	sx = kzalloc(sizeof(*sx), GFP_KERNEL);
	if (!sx)
		return NULL;
	sx->sx_stats = __alloc_percpu(sizeof(u64) * SVC_RDMA2_NR_COUNTERS,
				      __alignof__(u64));
	if (!sx->sx_stats) {
		kfree(sx);
		return NULL;
	}
	svc_xprt_init(net, class, &sx->sx_xprt, serv);
	INIT_LIST_HEAD(&sx->sx_accept_q);
	INIT_LIST_HEAD(&sx->sx_accept_link);
	spin_lock_init(&sx->sx_lock);
	spin_lock_init(&sx->sx_recv_lock);
	init_llist_head(&sx->sx_recv_free);
	INIT_LIST_HEAD(&sx->sx_recv_all);
	spin_lock_init(&sx->sx_rq_lock);
	INIT_LIST_HEAD(&sx->sx_rq_dto_q);
	INIT_LIST_HEAD(&sx->sx_read_wait_q);
	INIT_LIST_HEAD(&sx->sx_read_done_q);
	init_waitqueue_head(&sx->sx_send_wait);
	init_llist_head(&sx->sx_send_free);
	INIT_LIST_HEAD(&sx->sx_send_all);
	spin_lock_init(&sx->sx_ctxt_lock);
	INIT_LIST_HEAD(&sx->sx_stats_link);
	sx->sx_peer_rbsiz = RPCRDMA2_DEF_RBSIZ;
	sx->sx_peer_brs = RPCRDMA2_DEF_BRS;
	/* rdma_cm pays no attention to XPT_CONG_CTRL; nfsd's NFSv4 does */
	set_bit(XPT_CONG_CTRL, &sx->sx_xprt.xpt_flags);
	return sx;
}

/* A connection on its listener's queue: parse what the client offered */
static int svc_rdma2_conn_request(struct rdma_cm_id *id,
				  struct rdma_cm_event *event)
{
	struct svc_rdma2_xprt *listener = id->context;
	const struct rdma_conn_param *param = &event->param.conn;
	struct svc_rdma2_xprt *sx;
	int ret;

	sx = svc_rdma2_xprt_alloc(listener->sx_xprt.xpt_server,
				  listener->sx_xprt.xpt_net,
				  listener->sx_xprt.xpt_class);
	if (!sx)
		return -ENOMEM;
	sx->sx_cm_id = id;
	id->context = sx;
	/* rdma_cm reports the client's responder resources as ours to use */
	sx->sx_ord = param->initiator_depth;

	/* private_data_len comes from the wire: the parser bounds it */
	ret = rpcrdma2_cm_pdata_parse(param->private_data,
				      param->private_data ?
				      param->private_data_len : 0,
				      &sx->sx_peer_pdata);
	trace_svcrdma2_conn_request(id, ret, &sx->sx_peer_pdata);

	svc_xprt_set_remote(&sx->sx_xprt,
			    (struct sockaddr *)&id->route.addr.dst_addr,
			    svc_addr_len((struct sockaddr *)&id->route.addr.dst_addr));
	svc_xprt_set_local(&sx->sx_xprt,
			   (struct sockaddr *)&id->route.addr.src_addr,
			   svc_addr_len((struct sockaddr *)&id->route.addr.src_addr));
	/* The DRC keys on the remote port: RDMA has none worth keeping */
	rpc_set_port((struct sockaddr *)&sx->sx_xprt.xpt_remote, 0);

	spin_lock(&listener->sx_lock);
	list_add_tail(&sx->sx_accept_link, &listener->sx_accept_q);
	spin_unlock(&listener->sx_lock);
	set_bit(XPT_CONN, &listener->sx_xprt.xpt_flags);
	svc_xprt_enqueue(&listener->sx_xprt);
	return 0;
}

static int svc_rdma2_cm_handler(struct rdma_cm_id *id,
				struct rdma_cm_event *event)
{
	struct svc_rdma2_xprt *sx = id->context;

	trace_svcrdma2_cm_event(id, event);
	switch (event->event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		return svc_rdma2_conn_request(id, event);
	case RDMA_CM_EVENT_ESTABLISHED:
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		if (sx->sx_listener)
			break;
		/*
		 * Move the QP to error now, so every posted WR flushes and
		 * no nfsd thread waits on a peer that is gone; the rest of
		 * the teardown happens in an nfsd thread.
		 */
		if (sx->sx_qp)
			rdma_disconnect(id);
		svc_rdma2_close(sx);
		break;
	default:
		break;
	}
	return 0;
}

/* A listener of @class: nfsd's portlist or netlink names the class */
static struct svc_xprt *svc_rdma2_listen(struct svc_serv *serv,
					 struct net *net,
					 struct sockaddr *sa, int salen,
					 struct svc_xprt_class *class)
{
	struct svc_rdma2_xprt *sx;
	struct rdma_cm_id *id;
	int ret;

	if (sa->sa_family != AF_INET && sa->sa_family != AF_INET6)
		return ERR_PTR(-EAFNOSUPPORT);
	sx = svc_rdma2_xprt_alloc(serv, net, class);
	if (!sx)
		return ERR_PTR(-ENOMEM);
	sx->sx_listener = true;
	set_bit(XPT_LISTENER, &sx->sx_xprt.xpt_flags);

	id = rdma_create_id(net, svc_rdma2_cm_handler, sx, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id)) {
		ret = PTR_ERR(id);
		goto out_free;
	}
	/* portlist creates an IPv4 and an IPv6 listener on one port */
	if (sa->sa_family == AF_INET6) {
		ret = rdma_set_afonly(id, 1);
		if (ret)
			goto out_destroy_id;
	}
	ret = rdma_bind_addr(id, sa);
	if (ret)
		goto out_destroy_id;
	ret = rdma_listen(id, SVC_RDMA2_LISTEN_BACKLOG);
	if (ret)
		goto out_destroy_id;
	sx->sx_cm_id = id;
	svc_xprt_set_local(&sx->sx_xprt,
			   (struct sockaddr *)&id->route.addr.src_addr, salen);
	trace_svcrdma2_listen(sa, 0);
	return &sx->sx_xprt;

out_destroy_id:
	rdma_destroy_id(id);
out_free:
	trace_svcrdma2_listen(sa, ret);
	put_net_track(sx->sx_xprt.xpt_net, &sx->sx_xprt.ns_tracker);
	svc_rdma2_xprt_free_mem(sx);
	return ERR_PTR(ret);
}

static int svc_rdma2_setup_qp(struct svc_rdma2_xprt *sx)
{
	struct rdma_cm_id *id = sx->sx_cm_id;
	struct ib_device *dev = id->device;
	struct ib_qp_init_attr qp_attr = {};
	struct svc_rdma2_qp_sizes s;
	int ret;

	sx->sx_port_num = id->port_num;
	sx->sx_buf_size = svc_rdma2_buf_size;
	sx->sx_max_segs = svc_rdma2_max_segs;
	sx->sx_ddp = READ_ONCE(svc_rdma2_ddp);
	svc_rdma2_qp_size(svc_rdma2_max_requests, dev->attrs.max_qp_wr,
			  dev->attrs.max_send_sge, dev->attrs.max_sge_rd, &s);
	sx->sx_max_requests = s.max_requests;
	sx->sx_rq_depth = s.rq_depth;
	sx->sx_recv_cap = s.recv_cap;
	sx->sx_sq_depth = s.sq_depth;
	sx->sx_dev_reminv = dev->attrs.device_cap_flags &
			    IB_DEVICE_MEM_MGT_EXTENSIONS;
	sx->sx_reminv_ok = rpcrdma2_cm_pdata_reminv_ok(&sx->sx_peer_pdata,
						       sx->sx_dev_reminv);
	svc_rdma2_rw_pools_init(sx);

	sx->sx_pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(sx->sx_pd)) {
		ret = PTR_ERR(sx->sx_pd);
		sx->sx_pd = NULL;
		return ret;
	}
	/* a flushed WR completes even when unsignaled: room for them all */
	sx->sx_sq_cq = ib_alloc_cq_any(dev, sx, sx->sx_sq_depth + 1 + s.rw_wrs +
				       rdma_rw_max_send_wr(dev, sx->sx_port_num,
							   s.rw_ctxs, 0),
				       IB_POLL_WORKQUEUE);
	if (IS_ERR(sx->sx_sq_cq)) {
		ret = PTR_ERR(sx->sx_sq_cq);
		sx->sx_sq_cq = NULL;
		goto out_dealloc_pd;
	}
	/* room for ib_drain_qp()'s marker too */
	sx->sx_rq_cq = ib_alloc_cq_any(dev, sx, sx->sx_rq_depth + 1,
				       IB_POLL_WORKQUEUE);
	if (IS_ERR(sx->sx_rq_cq)) {
		ret = PTR_ERR(sx->sx_rq_cq);
		sx->sx_rq_cq = NULL;
		goto out_free_sq_cq;
	}

	qp_attr.event_handler = svc_rdma2_qp_event;
	qp_attr.qp_context = sx;
	qp_attr.port_num = sx->sx_port_num;
	qp_attr.cap.max_rdma_ctxs = s.rw_ctxs;
	/* one more of each for ib_drain_qp()'s marker WRs */
	qp_attr.cap.max_send_wr = sx->sx_sq_depth + 1 + s.rw_wrs;
	qp_attr.cap.max_recv_wr = sx->sx_rq_depth + 1;
	/* our Sends use one entry; rdma_rw uses the rest */
	qp_attr.cap.max_send_sge = s.sges;
	qp_attr.cap.max_recv_sge = 1;
	qp_attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	qp_attr.qp_type = IB_QPT_RC;
	qp_attr.send_cq = sx->sx_sq_cq;
	qp_attr.recv_cq = sx->sx_rq_cq;
	ret = rdma_create_qp(id, sx->sx_pd, &qp_attr);
	if (ret)
		goto out_free_rq_cq;
	sx->sx_qp = id->qp;
	/* rdma_rw_init_qp() grew max_send_wr for the rdma_rw contexts */
	sx->sx_sq_depth = qp_attr.cap.max_send_wr - 1;
	sx->sx_send_sges = clamp(qp_attr.cap.max_send_sge, 1U,
				 SVC_RDMA2_SEND_SGES);
	atomic_set(&sx->sx_sq_avail, sx->sx_sq_depth);
	return 0;

out_free_rq_cq:
	ib_free_cq(sx->sx_rq_cq);
	sx->sx_rq_cq = NULL;
out_free_sq_cq:
	ib_free_cq(sx->sx_sq_cq);
	sx->sx_sq_cq = NULL;
out_dealloc_pd:
	ib_dealloc_pd(sx->sx_pd);
	sx->sx_pd = NULL;
	return ret;
}

/*
 * Undo svc_rdma2_setup_qp(); the WRs must have flushed (ib_drain_qp) and
 * the send and receive contexts released their rdma_rw contexts.
 */
static void svc_rdma2_destroy_qp(struct svc_rdma2_xprt *sx)
{
	svc_rdma2_rw_pools_destroy(sx);
	if (sx->sx_qp) {
		rdma_destroy_qp(sx->sx_cm_id);
		sx->sx_qp = NULL;
	}
	if (sx->sx_rq_cq)
		ib_free_cq(sx->sx_rq_cq);
	if (sx->sx_sq_cq)
		ib_free_cq(sx->sx_sq_cq);
	if (sx->sx_pd)
		ib_dealloc_pd(sx->sx_pd);
	sx->sx_rq_cq = NULL;
	sx->sx_sq_cq = NULL;
	sx->sx_pd = NULL;
}

static int svc_rdma2_do_accept(struct svc_rdma2_xprt *sx)
{
	struct rdma_conn_param param = {};
	u8 pdata[RPCRDMA2_CM_PDATA_SIZE];
	struct ib_device *dev = sx->sx_cm_id->device;
	u32 unused;
	int ret;

	ret = svc_rdma2_setup_qp(sx);
	if (ret)
		return ret;
	/* RFC 8797 §4.2: what each side may send inline to the other */
	rpcrdma2_cm_pdata_negotiate(&sx->sx_peer_pdata, sx->sx_buf_size,
				    sx->sx_buf_size, RPCRDMA2_V1_DEF_INLINE,
				    &sx->sx_v1_reply_inline, &unused);
	ret = svc_rdma2_send_init(sx);
	if (ret)
		goto out_destroy_qp;
	ret = svc_rdma2_recv_init(sx);
	if (ret)
		goto out_send_destroy;
	/*
	 * The version is not known yet: every Receive is sized to what we
	 * advertise, so either version's first message fits.
	 */
	ret = svc_rdma2_post_recvs(sx, sx->sx_rq_depth);
	if (ret)
		goto out_recv_destroy;

	rpcrdma2_cm_pdata_build(pdata, sizeof(pdata), sx->sx_dev_reminv,
				sx->sx_buf_size, sx->sx_buf_size);
	param.private_data = pdata;
	param.private_data_len = sizeof(pdata);
	/* RDMA Reads in flight: no more than the client can answer */
	param.initiator_depth = min3(16U, sx->sx_ord,
				     (u32)dev->attrs.max_qp_init_rd_atom);
	param.responder_resources = 0;
	param.rnr_retry_count = 7;
	param.flow_control = 1;

	rdma_lock_handler(sx->sx_cm_id);
	ret = rdma_accept(sx->sx_cm_id, &param);
	rdma_unlock_handler(sx->sx_cm_id);
	trace_svcrdma2_accept(sx, ret);
	if (ret)
		goto out_flush;
	return 0;

out_flush:
	/* the flushes close nothing: see svc_rdma2_close() */
	set_bit(XPT_CLOSE, &sx->sx_xprt.xpt_flags);
	ib_drain_qp(sx->sx_qp);
out_recv_destroy:
	svc_rdma2_recv_destroy(sx);
out_send_destroy:
	svc_rdma2_send_destroy(sx);
out_destroy_qp:
	svc_rdma2_destroy_qp(sx);
	return ret;
}

static struct svc_xprt *svc_rdma2_accept(struct svc_xprt *xprt)
{
	struct svc_rdma2_xprt *listener = svc_rdma2_x(xprt);
	struct svc_rdma2_xprt *sx;
	int ret;

	clear_bit(XPT_CONN, &xprt->xpt_flags);
	spin_lock(&listener->sx_lock);
	sx = list_first_entry_or_null(&listener->sx_accept_q,
				      struct svc_rdma2_xprt, sx_accept_link);
	if (sx) {
		list_del_init(&sx->sx_accept_link);
		if (!list_empty(&listener->sx_accept_q))
			set_bit(XPT_CONN, &xprt->xpt_flags);
	}
	spin_unlock(&listener->sx_lock);
	if (!sx)
		return NULL;

	ret = svc_rdma2_do_accept(sx);
	if (ret) {
		rdma_reject(sx->sx_cm_id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
		rdma_destroy_id(sx->sx_cm_id);
		put_net_track(sx->sx_xprt.xpt_net, &sx->sx_xprt.ns_tracker);
		svc_rdma2_xprt_free_mem(sx);
		return NULL;
	}
	spin_lock(&svc_rdma2_conns_lock);
	list_add_tail(&sx->sx_stats_link, &svc_rdma2_conns);
	spin_unlock(&svc_rdma2_conns_lock);
	return &sx->sx_xprt;
}

static int svc_rdma2_has_wspace(struct svc_xprt *xprt)
{
	return 1;
}

static void svc_rdma2_kill_temp_xprt(struct svc_xprt *xprt)
{
}

/* Connections a dying listener never handed to nfsd */
static void svc_rdma2_drop_accept_q(struct svc_rdma2_xprt *listener)
{
	struct svc_rdma2_xprt *sx, *next;
	LIST_HEAD(doomed);

	spin_lock(&listener->sx_lock);
	list_splice_init(&listener->sx_accept_q, &doomed);
	spin_unlock(&listener->sx_lock);
	list_for_each_entry_safe(sx, next, &doomed, sx_accept_link) {
		list_del(&sx->sx_accept_link);
		rdma_reject(sx->sx_cm_id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
		rdma_destroy_id(sx->sx_cm_id);
		put_net_track(sx->sx_xprt.xpt_net, &sx->sx_xprt.ns_tracker);
		svc_rdma2_xprt_free_mem(sx);
	}
}

static void svc_rdma2_detach(struct svc_xprt *xprt)
{
	struct svc_rdma2_xprt *sx = svc_rdma2_x(xprt);

	if (sx->sx_listener)
		return;
	rdma_disconnect(sx->sx_cm_id);
	/* nobody waits for Send Queue space on a closed connection */
	wake_up_all(&sx->sx_send_wait);
	trace_svcrdma2_disconnect(sx);
}

static void svc_rdma2_free(struct svc_xprt *xprt)
{
	struct svc_rdma2_xprt *sx = svc_rdma2_x(xprt);

	if (sx->sx_listener) {
		/* no new CONNECT_REQUEST after this returns */
		rdma_destroy_id(sx->sx_cm_id);
		svc_rdma2_drop_accept_q(sx);
		svc_rdma2_xprt_free_mem(sx);
		return;
	}
	/*
	 * No cancel_work_sync(): a queued close holds a reference, so the
	 * only close work left may be the caller, dropping the last one.
	 */
	spin_lock(&svc_rdma2_conns_lock);
	list_del(&sx->sx_stats_link);
	spin_unlock(&svc_rdma2_conns_lock);

	/*
	 * Every posted WR completes (flushed) before anything is freed.
	 * XPT_CLOSE is set on every path here; setting it again makes
	 * sure the flushes take no reference on a dead transport.
	 */
	set_bit(XPT_CLOSE, &sx->sx_xprt.xpt_flags);
	ib_drain_qp(sx->sx_qp);
	svc_rdma2_recv_destroy(sx);
	svc_rdma2_send_destroy(sx);
	svc_rdma2_destroy_qp(sx);
	rdma_destroy_id(sx->sx_cm_id);
	svc_rdma2_xprt_free_mem(sx);
}

static struct svc_xprt_class svc_rdma2_dropin_class;

static struct svc_xprt *svc_rdma2_create(struct svc_serv *serv,
					 struct net *net,
					 struct sockaddr *sa, int salen,
					 int flags)
{
	return svc_rdma2_listen(serv, net, sa, salen, &svc_rdma2_class);
}

static struct svc_xprt *svc_rdma2_dropin_create(struct svc_serv *serv,
						struct net *net,
						struct sockaddr *sa, int salen,
						int flags)
{
	return svc_rdma2_listen(serv, net, sa, salen,
				&svc_rdma2_dropin_class);
}

/*
 * ->xpo_create has no class argument: each class has its own table, the
 * same but for the create method that names it.
 */
#define SVC_RDMA2_XPRT_OPS(create) {				\
	.xpo_create		= create,			\
	.xpo_accept		= svc_rdma2_accept,		\
	.xpo_recvfrom		= svc_rdma2_recvfrom,		\
	.xpo_sendto		= svc_rdma2_sendto,		\
	.xpo_result_payload	= svc_rdma2_result_payload,	\
	.xpo_release_ctxt	= svc_rdma2_release_ctxt,	\
	.xpo_detach		= svc_rdma2_detach,		\
	.xpo_free		= svc_rdma2_free,		\
	.xpo_has_wspace		= svc_rdma2_has_wspace,		\
	.xpo_kill_temp_xprt	= svc_rdma2_kill_temp_xprt,	\
}

static const struct svc_xprt_ops svc_rdma2_ops =
	SVC_RDMA2_XPRT_OPS(svc_rdma2_create);
static const struct svc_xprt_ops svc_rdma2_dropin_ops =
	SVC_RDMA2_XPRT_OPS(svc_rdma2_dropin_create);

static struct svc_xprt_class svc_rdma2_class = {
	.xcl_name		= "rdma2",
	.xcl_owner		= THIS_MODULE,
	.xcl_ops		= &svc_rdma2_ops,
	.xcl_max_payload	= RPCSVC_MAXPAYLOAD,
	.xcl_ident		= SVC_RDMA2_XPRT_IDENT,
};

/*
 * The in-tree svcrdma's name and ident, for the drop-in module: rpc.nfsd
 * and nfsdctl (nfs.conf rdma=y) create "rdma" listeners, and nfsd's
 * callback client asks for XPRT_TRANSPORT_RDMA | XPRT_TRANSPORT_BC.
 * The owner is rpcrdma's: each listener and connection holds it.
 */
static struct svc_xprt_class svc_rdma2_dropin_class = {
	.xcl_name		= "rdma",
	.xcl_ops		= &svc_rdma2_dropin_ops,
	.xcl_max_payload	= RPCSVC_MAXPAYLOAD,
	.xcl_ident		= XPRT_TRANSPORT_RDMA,
};

/**
 * svc_rdma2_is_ours - is this one of our connections or listeners
 * @xprt: an svc_xprt of any class
 *
 * Return: %true when @xprt is embedded in a struct svc_rdma2_xprt.
 */
bool svc_rdma2_is_ours(const struct svc_xprt *xprt)
{
	return xprt->xpt_class == &svc_rdma2_class ||
	       xprt->xpt_class == &svc_rdma2_dropin_class;
}

/**
 * svc_rdma2_dropin_register - answer to the in-tree svcrdma's names
 * @owner: the module that takes them (rpcrdma), held by each listener
 *	and connection of the class
 *
 * Registers the backchannel first, so a connection accepted under the
 * class always finds it.
 *
 * Context: module init of @owner, which holds this module for as long
 * as it is loaded.
 *
 * Return: %0, or %-EEXIST when another module has the svc class "rdma"
 * or the backchannel ident XPRT_TRANSPORT_BC_RDMA.
 */
int svc_rdma2_dropin_register(struct module *owner)
{
	int ret;

	ret = svc_rdma2_bc_dropin_register();
	if (ret)
		return ret;
	svc_rdma2_dropin_class.xcl_owner = owner;
	ret = svc_reg_xprt_class(&svc_rdma2_dropin_class);
	if (ret)
		goto out_unreg_bc;
	return 0;

out_unreg_bc:
	svc_rdma2_bc_dropin_unregister();
	return ret;
}
EXPORT_SYMBOL_GPL(svc_rdma2_dropin_register);

/**
 * svc_rdma2_dropin_unregister - give the in-tree svcrdma's names back
 *
 * No listener or connection of the class is left: each holds the
 * owner's module.
 *
 * Context: module exit of the owner.
 */
void svc_rdma2_dropin_unregister(void)
{
	svc_unreg_xprt_class(&svc_rdma2_dropin_class);
	svc_rdma2_bc_dropin_unregister();
}
EXPORT_SYMBOL_GPL(svc_rdma2_dropin_unregister);

/* @c: per-CPU counters, SVC_RDMA2_NR_COUNTERS of them: their sums */
static void svc_rdma2_show_counters(struct seq_file *m,
				    const u64 __percpu *c)
{
	int i;

	for (i = 0; i < SVC_RDMA2_NR_COUNTERS; i++)
		seq_printf(m, " %s=%llu", svc_rdma2_counter_names[i],
			   rpcrdma2_percpu_sum(&c[i]));
	seq_putc(m, '\n');
}

/*
 * /proc/fs/svcrdma2/stats: one "global" line, then one line per live
 * connection (Documentation/svcrdma2.rst describes every field).
 */
static int svc_rdma2_stats_show(struct seq_file *m, void *v)
{
	struct svc_rdma2_xprt *sx;

	seq_printf(m, "global recv_ctxts_peak=%d",
		   atomic_read(&svc_rdma2_recv_ctxts_peak));
	svc_rdma2_show_counters(m, &svc_rdma2_global[0]);
	spin_lock(&svc_rdma2_conns_lock);
	list_for_each_entry(sx, &svc_rdma2_conns, sx_stats_link) {
		seq_printf(m, "conn %s vers=%u credits=%u recv_ctxts=%u recv_cap=%u reply_inline=%u peer_rbsiz=%u reminv=%d",
			   sx->sx_xprt.xpt_remotebuf, READ_ONCE(sx->sx_vers),
			   sx->sx_max_requests,
			   READ_ONCE(sx->sx_nr_recv_ctxts), sx->sx_recv_cap,
			   svc_rdma2_reply_inline_limit(READ_ONCE(sx->sx_vers),
							sx->sx_v1_reply_inline,
							READ_ONCE(sx->sx_peer_rbsiz),
							sx->sx_buf_size),
			   READ_ONCE(sx->sx_peer_rbsiz), sx->sx_reminv_ok);
		svc_rdma2_show_counters(m, sx->sx_stats);
	}
	spin_unlock(&svc_rdma2_conns_lock);
	return 0;
}

static struct proc_dir_entry *svc_rdma2_proc_dir;

static int __init svc_rdma2_init(void)
{
	int ret;

	svc_rdma2_proc_dir = proc_mkdir("fs/svcrdma2", NULL);
	if (!svc_rdma2_proc_dir)
		return -ENOMEM;
	if (!proc_create_single("stats", 0444, svc_rdma2_proc_dir,
				svc_rdma2_stats_show)) {
		ret = -ENOMEM;
		goto out_remove_proc;
	}
	ret = svc_reg_xprt_class(&svc_rdma2_class);
	if (ret)
		goto out_remove_proc;
	ret = svc_rdma2_bc_register();
	if (ret)
		goto out_unreg_class;
	return 0;

out_unreg_class:
	svc_unreg_xprt_class(&svc_rdma2_class);
out_remove_proc:
	proc_remove(svc_rdma2_proc_dir);
	return ret;
}

static void __exit svc_rdma2_exit(void)
{
	/* each backchannel rpc_xprt holds the module: none is left */
	svc_rdma2_bc_unregister();
	svc_unreg_xprt_class(&svc_rdma2_class);
	proc_remove(svc_rdma2_proc_dir);
}

module_init(svc_rdma2_init);
module_exit(svc_rdma2_exit);
MODULE_DESCRIPTION("RPC-over-RDMA v2/v1 server transport (rdma2) for nfsd");
MODULE_LICENSE("GPL");
MODULE_VERSION(RPCRDMA2_VERSION);
MODULE_ALIAS("svcrdma2");
