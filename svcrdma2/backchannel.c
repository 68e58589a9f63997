// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma2 backchannel: reverse-direction RPC (RFC 8167) on an rdma2
 * connection, so nfsd can send NFSv4.1+ callbacks to the client over the
 * connection the client opened.
 *
 * nfsd creates its callback client with rpc_create() and the ident of our
 * svc class ORed with XPRT_TRANSPORT_BC; the client-side rpc_xprt class
 * registered here answers it with an rpc_xprt bound to that connection.
 * Its send_request posts each Call inline, as a reverse-direction Call, on
 * the connection's QP (sendto.c). Replies arrive on the forward channel's
 * Receives; recvfrom.c hands them to svc_rdma2_bc_reply(), which completes
 * the waiting rpc_rqst. Inline only (draft v2 §4.2.2 RDMA2_RVREQSUP_INLINE):
 * our Calls carry no chunks, so replies carry none either.
 */
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprt.h>

#include "svc_rdma2.h"
#include "trace.h"

/**
 * struct svc_rdma2_bc - the rpc_xprt of one connection's backchannel
 * @bx_xprt: the generic client transport; first, as xprt_alloc() wants
 * @bx_lock: protects @bx_sx
 * @bx_sx: the connection, with a reference; NULL once closed
 * @bx_max_reqs: most reverse-direction Calls in flight (our slots)
 */
struct svc_rdma2_bc {
	struct rpc_xprt		bx_xprt;
	spinlock_t		bx_lock;	/* protects bx_sx */
	struct svc_rdma2_xprt	*bx_sx;
	u32			bx_max_reqs;
};

static struct svc_rdma2_bc *svc_rdma2_bc(struct rpc_xprt *xprt)
{
	return container_of(xprt, struct svc_rdma2_bc, bx_xprt);
}

/* The connection, with a reference, or NULL once the backchannel closed */
static struct svc_rdma2_xprt *svc_rdma2_bc_conn_get(struct svc_rdma2_bc *bx)
{
	struct svc_rdma2_xprt *sx;

	spin_lock(&bx->bx_lock);
	sx = bx->bx_sx;
	if (sx)
		svc_xprt_get(&sx->sx_xprt);
	spin_unlock(&bx->bx_lock);
	return sx;
}

/* May this connection carry reverse-direction Calls? (policy.c) */
static bool svc_rdma2_bc_usable(const struct svc_rdma2_xprt *sx)
{
	return svc_rdma2_bc_peer_accepts(READ_ONCE(sx->sx_vers),
					 READ_ONCE(sx->sx_peer_brs));
}

/*
 * rpc_task buffers: the Call is copied into a Send buffer when it goes
 * out, so plain memory will do. rpciod may be reclaiming: no I/O.
 */
static int svc_rdma2_bc_buf_alloc(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;
	gfp_t gfp = rpc_task_gfp_mask() | __GFP_NOWARN;

	rqst->rq_buffer = kmalloc(rqst->rq_callsize, gfp);
	if (!rqst->rq_buffer)
		return -ENOMEM;
	rqst->rq_rbuffer = kmalloc(rqst->rq_rcvsize, gfp);
	if (!rqst->rq_rbuffer) {
		kfree(rqst->rq_buffer);
		rqst->rq_buffer = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void svc_rdma2_bc_buf_free(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;

	kfree(rqst->rq_buffer);
	kfree(rqst->rq_rbuffer);
	rqst->rq_buffer = NULL;
	rqst->rq_rbuffer = NULL;
}

/*
 * Send one reverse-direction Call. Return values as rpc_xprt_ops wants
 * them: %0 sent; %-EBADSLT no credit yet (the task waits for one);
 * %-ENOMEM try again later; %-ENOTCONN the connection is gone or the
 * client takes no reverse-direction Calls (a backchannel never
 * reconnects: nfsd's callback fails and it marks the channel down).
 */
static int svc_rdma2_bc_send_request(struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;
	struct svc_rdma2_bc *bx = svc_rdma2_bc(xprt);
	struct rpcrdma2_hdr hdr = {};
	struct svc_rdma2_xprt *sx;
	unsigned int noio;
	int ret;

	sx = svc_rdma2_bc_conn_get(bx);
	if (!sx)
		return -ENOTCONN;
	ret = -ENOTCONN;
	if (test_bit(XPT_CLOSE, &sx->sx_xprt.xpt_flags) ||
	    !svc_rdma2_bc_usable(sx))
		goto out_put;
	/* RFC 8167 §4: the client's reverse-direction credits */
	ret = -EBADSLT;
	if (!xprt_request_get_cong(xprt, rqst))
		goto out_put;

	hdr.xid = be32_to_cpu(rqst->rq_xid);
	hdr.vers = READ_ONCE(sx->sx_vers);
	/* a requester's rdma_credit: the Calls it would like in flight */
	hdr.credits = bx->bx_max_reqs;
	hdr.htype = RPCRDMA2_HT_MSG;
	/* draft v2 §3.2: a Call; rdma_xid is ours, RESPONSE stays clear */
	hdr.flags = 0;
	rqst->rq_xtime = ktime_get();
	noio = memalloc_noio_save();
	ret = svc_rdma2_send_call(sx, &hdr, &rqst->rq_snd_buf);
	memalloc_noio_restore(noio);
	if (ret == -EMSGSIZE)
		/* nfsd sized it to the session's back channel: a bug */
		ret = -EIO;

out_put:
	trace_svcrdma2_cb_send(sx, be32_to_cpu(rqst->rq_xid), ret);
	svc_xprt_put(&sx->sx_xprt);
	return ret;
}

/*
 * A backchannel cannot reconnect: the client must. Fail the task; nfsd's
 * callbacks never get here (RPC_TASK_NOCONNECT), others might.
 */
static void svc_rdma2_bc_connect(struct rpc_xprt *xprt, struct rpc_task *task)
{
	xprt_clear_connecting(xprt);
	xprt_wake_pending_tasks(xprt, -ENOTCONN);
}

/* Let go of the connection, once */
static void svc_rdma2_bc_detach(struct svc_rdma2_bc *bx)
{
	struct svc_rdma2_xprt *sx;

	spin_lock(&bx->bx_lock);
	sx = bx->bx_sx;
	bx->bx_sx = NULL;
	spin_unlock(&bx->bx_lock);
	if (sx) {
		trace_svcrdma2_cb_close(sx);
		svc_xprt_put(&sx->sx_xprt);
	}
}

/* Forget the connection; wake every Call still waiting, with -ENOTCONN */
static void svc_rdma2_bc_close(struct rpc_xprt *xprt)
{
	svc_rdma2_bc_detach(svc_rdma2_bc(xprt));
	xprt_disconnect_done(xprt);
}

static void svc_rdma2_bc_destroy(struct rpc_xprt *xprt)
{
	/* close normally ran first (svc_delete_xprt); a failed setup not */
	svc_rdma2_bc_detach(svc_rdma2_bc(xprt));
	kfree(xprt->address_strings[RPC_DISPLAY_ADDR]);
	kfree(xprt->address_strings[RPC_DISPLAY_PORT]);
	xprt_free(xprt);
	/* the reference svc_rdma2_bc_setup() took for this rpc_xprt */
	module_put(THIS_MODULE);
}

static void svc_rdma2_bc_print_stats(struct rpc_xprt *xprt,
				     struct seq_file *seq)
{
	seq_printf(seq, "\txprt:\trdma2-bc %lu %lu %lu %llu %llu\n",
		   xprt->stat.sends, xprt->stat.recvs, xprt->stat.bad_xids,
		   xprt->stat.req_u, xprt->stat.pending_u);
}

static const struct rpc_xprt_ops svc_rdma2_bc_ops = {
	.reserve_xprt		= xprt_reserve_xprt_cong,
	.release_xprt		= xprt_release_xprt_cong,
	.alloc_slot		= xprt_alloc_slot,
	.free_slot		= xprt_free_slot,
	.release_request	= xprt_release_rqst_cong,
	.buf_alloc		= svc_rdma2_bc_buf_alloc,
	.buf_free		= svc_rdma2_bc_buf_free,
	.connect		= svc_rdma2_bc_connect,
	.send_request		= svc_rdma2_bc_send_request,
	.wait_for_reply_request	= xprt_wait_for_reply_request_def,
	.close			= svc_rdma2_bc_close,
	.destroy		= svc_rdma2_bc_destroy,
	.print_stats		= svc_rdma2_bc_print_stats,
};

/* nfsd passes its own timeouts to rpc_create(); this is the fallback */
static const struct rpc_timeout svc_rdma2_bc_timeout = {
	.to_initval	= 60 * HZ,
	.to_maxval	= 60 * HZ,
};

static struct xprt_class svc_rdma2_bc_class;
static struct xprt_class svc_rdma2_bc_dropin_class;

/* @name: the svc class's, a constant */
static int svc_rdma2_bc_addresses(struct rpc_xprt *xprt, const char *name)
{
	struct sockaddr *sap = (struct sockaddr *)&xprt->addr;

	xprt->address_strings[RPC_DISPLAY_ADDR] = kasprintf(GFP_KERNEL,
							    "%pISc", sap);
	xprt->address_strings[RPC_DISPLAY_PORT] =
		kasprintf(GFP_KERNEL, "%u", rpc_get_port(sap));
	xprt->address_strings[RPC_DISPLAY_PROTO] = name;
	xprt->address_strings[RPC_DISPLAY_NETID] = name;
	if (!xprt->address_strings[RPC_DISPLAY_ADDR] ||
	    !xprt->address_strings[RPC_DISPLAY_PORT])
		return -ENOMEM;
	return 0;
}

/*
 * xprt_class.setup: nfsd's rpc_create() for the callback client of a
 * session whose back channel is this connection.
 */
static struct rpc_xprt *svc_rdma2_bc_setup(struct xprt_create *args)
{
	struct xprt_class *class = &svc_rdma2_bc_class;
	struct svc_xprt *sxprt = args->bc_xprt;
	struct svc_rdma2_xprt *sx;
	struct svc_rdma2_bc *bx;
	struct rpc_xprt *xprt;
	int ret;

	if (args->ident == svc_rdma2_bc_dropin_class.ident)
		class = &svc_rdma2_bc_dropin_class;
	/* nfsd asks with the ident of the connection's own class */
	if (!sxprt || !svc_rdma2_is_ours(sxprt) ||
	    (sxprt->xpt_class->xcl_ident | XPRT_TRANSPORT_BC) != args->ident)
		return ERR_PTR(-EINVAL);
	sx = svc_rdma2_x(sxprt);
	if (sx->sx_listener || args->addrlen > sizeof(xprt->addr))
		return ERR_PTR(-EINVAL);
	if (!svc_rdma2_bc_usable(sx)) {
		trace_svcrdma2_cb_setup(sx, -EPROTONOSUPPORT);
		return ERR_PTR(-EPROTONOSUPPORT);
	}

	xprt = xprt_alloc(args->net, sizeof(*bx), SVC_RDMA2_BC_REQS,
			  SVC_RDMA2_BC_REQS);
	if (!xprt)
		return ERR_PTR(-ENOMEM);
	bx = svc_rdma2_bc(xprt);
	spin_lock_init(&bx->bx_lock);
	bx->bx_max_reqs = SVC_RDMA2_BC_REQS;
	/* the rpc_xprt outlives setup: its ops are ours (destroy puts it) */
	__module_get(THIS_MODULE);

	xprt->timeout = &svc_rdma2_bc_timeout;
	xprt->ops = &svc_rdma2_bc_ops;
	xprt->xprt_class = class;
	xprt->prot = class->ident;
	/* never idle out: the connection's lifetime is the client's call */
	xprt->idle_timeout = 0;
	xprt->bind_timeout = 0;
	xprt->reestablish_timeout = 0;
	xprt->resvport = 0;
	memcpy(&xprt->addr, args->dstaddr, args->addrlen);
	xprt->addrlen = args->addrlen;
	ret = svc_rdma2_bc_addresses(xprt, sxprt->xpt_class->xcl_name);
	if (ret) {
		/* destroy frees what there is and puts the module */
		svc_rdma2_bc_destroy(xprt);
		return ERR_PTR(ret);
	}
	/*
	 * Until the client's first reverse-direction reply grants credits,
	 * one Call at a time (xprt_alloc() starts cwnd at one request).
	 */
	xprt->max_payload = svc_rdma2_reply_inline_limit(READ_ONCE(sx->sx_vers),
							 sx->sx_v1_reply_inline,
							 READ_ONCE(sx->sx_peer_rbsiz),
							 sx->sx_buf_size);
	xprt_set_bound(xprt);
	xprt_set_connected(xprt);

	svc_xprt_get(sxprt);
	bx->bx_sx = sx;
	xprt->bc_xprt = sxprt;
	/* one reference for the svc_xprt (put in svc_xprt_free) ... */
	xprt_get(xprt);
	sxprt->xpt_bc_xprt = xprt;
	/*
	 * svc_delete_xprt() sets XPT_DEAD, then closes xpt_bc_xprt. If it
	 * ran before we set xpt_bc_xprt, close here instead: the pair of
	 * barriers makes sure at least one side sees the other.
	 */
	smp_mb();
	if (test_bit(XPT_DEAD, &sxprt->xpt_flags))
		svc_rdma2_bc_close(xprt);
	trace_svcrdma2_cb_setup(sx, 0);
	/* ... and one for rpc_create()'s client */
	return xprt;
}

static struct xprt_class svc_rdma2_bc_class = {
	.list	= LIST_HEAD_INIT(svc_rdma2_bc_class.list),
	.name	= "rdma2 backchannel",
	.owner	= THIS_MODULE,
	.ident	= SVC_RDMA2_XPRT_IDENT | XPRT_TRANSPORT_BC,
	.setup	= svc_rdma2_bc_setup,
	/* nobody looks a backchannel up by netid; the list must end */
	.netid	= { "" },
};

/* The drop-in's: the ident nfsd asks for on an "rdma" connection */
static struct xprt_class svc_rdma2_bc_dropin_class = {
	.list	= LIST_HEAD_INIT(svc_rdma2_bc_dropin_class.list),
	.name	= "rdma backchannel",
	.owner	= THIS_MODULE,
	.ident	= XPRT_TRANSPORT_BC_RDMA,
	.setup	= svc_rdma2_bc_setup,
	.netid	= { "" },
};

/**
 * svc_rdma2_bc_reply - complete a Call with the reverse-direction reply
 * @sx: the connection it arrived on
 * @ctxt: the decoded message, a reply by its header (v2 RESPONSE) or its
 *	RPC msg_type (v1); still in its Receive buffer
 *
 * The reply is copied into the waiting rpc_rqst's receive buffer here,
 * before the caller releases the Receive buffer for reuse. A reply that
 * nobody waits for, that carries chunks (we offered none), that is not
 * an RPC REPLY or does not fit is dropped and counted (cb_bad_replies);
 * the Call it may belong to then times out.
 *
 * Context: an nfsd thread (xpo_recvfrom).
 */
void svc_rdma2_bc_reply(struct svc_rdma2_xprt *sx,
			struct svc_rdma2_recv_ctxt *ctxt)
{
	const struct rpcrdma2_hdr *hdr = &ctxt->rc_hdr;
	struct rpc_xprt *xprt = READ_ONCE(sx->sx_xprt.xpt_bc_xprt);
	struct svc_rdma2_bc *bx;
	const char *why;
	struct rpc_rqst *rqst;
	const __be32 *rpc;
	u32 credits;
	__be32 xid;

	why = "not inline";
	if (hdr->htype != RPCRDMA2_HT_MSG || hdr->cl.nr_reads ||
	    hdr->cl.nr_writes || hdr->cl.has_reply)
		goto out_bad;
	why = "not an RPC reply";
	if (hdr->rpc_len < 2 * sizeof(__be32))
		goto out_bad;
	rpc = ctxt->rc_buf + hdr->hdr_len;
	if (be32_to_cpup(rpc + 1) != RPC_REPLY)
		goto out_bad;
	why = "no backchannel";
	if (!xprt)
		goto out_bad;
	bx = svc_rdma2_bc(xprt);
	/* the RPC XID: v2 does not tie rdma_xid to it (draft §10.1) */
	xid = rpc[0];

	spin_lock(&xprt->queue_lock);
	rqst = xprt_lookup_rqst(xprt, xid);
	if (!rqst) {
		spin_unlock(&xprt->queue_lock);
		why = "no such call";
		goto out_bad;
	}
	xprt_pin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);

	/* rq_private_buf is rq_rcv_buf as the Call was queued for receive */
	if (hdr->rpc_len > rqst->rq_private_buf.buflen ||
	    write_bytes_to_xdr_buf(&rqst->rq_private_buf, 0,
				   (void *)rpc, hdr->rpc_len)) {
		spin_lock(&xprt->queue_lock);
		xprt_unpin_rqst(rqst);
		spin_unlock(&xprt->queue_lock);
		why = "too long";
		goto out_bad;
	}

	/* RFC 8167 §4: the client's reverse-direction credit grant */
	credits = svc_rdma2_bc_window(hdr->credits, bx->bx_max_reqs);
	spin_lock(&xprt->transport_lock);
	xprt->cwnd = credits << RPC_CWNDSHIFT;
	spin_unlock(&xprt->transport_lock);

	trace_svcrdma2_cb_reply(&ctxt->rc_cid, hdr, be32_to_cpu(xid),
				credits);
	spin_lock(&xprt->queue_lock);
	xprt_complete_rqst(rqst->rq_task, hdr->rpc_len);
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
	svc_rdma2_count(sx, SVC_RDMA2_CB_REPLIES, 1);
	return;

out_bad:
	trace_svcrdma2_drop(&ctxt->rc_cid, hdr, why);
	svc_rdma2_count(sx, SVC_RDMA2_CB_BAD_REPLIES, 1);
}

/**
 * svc_rdma2_bc_register - register the backchannel rpc_xprt class
 *
 * Context: module init.
 *
 * Return: %0, or %-EEXIST when another class has our ident.
 */
int svc_rdma2_bc_register(void)
{
	return xprt_register_transport(&svc_rdma2_bc_class);
}

/**
 * svc_rdma2_bc_unregister - unregister the backchannel rpc_xprt class
 *
 * No backchannel exists: each holds a module reference.
 *
 * Context: module exit.
 */
void svc_rdma2_bc_unregister(void)
{
	xprt_unregister_transport(&svc_rdma2_bc_class);
}

/**
 * svc_rdma2_bc_dropin_register - register the drop-in's backchannel class
 *
 * Context: svc_rdma2_dropin_register().
 *
 * Return: %0, or %-EEXIST when another class has XPRT_TRANSPORT_BC_RDMA.
 */
int svc_rdma2_bc_dropin_register(void)
{
	return xprt_register_transport(&svc_rdma2_bc_dropin_class);
}

/**
 * svc_rdma2_bc_dropin_unregister - unregister the drop-in's backchannel class
 *
 * Context: svc_rdma2_dropin_unregister(), or its register unwinding.
 */
void svc_rdma2_bc_dropin_unregister(void)
{
	xprt_unregister_transport(&svc_rdma2_bc_dropin_class);
}
