// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma2 verbs layer: the endpoint of one connection (rdma_cm id,
 * protection domain, completion queues, queue pair), its Send and Receive
 * contexts, their completion handlers, and the rdma_cm event handler.
 * Completion and CM handlers never tear anything down: they ask sunrpc to
 * close the transport (xprt_force_disconnect), and ->close, holding the
 * send lock, calls rpcrdma2_ep_disconnect().
 */
#include <linux/error-injection.h>
#include <linux/slab.h>
#include <linux/sunrpc/xprt.h>

#include "xprt_rdma2.h"
#include "trace.h"

/* rdma_cm address and route resolution, in milliseconds */
#define RPCRDMA2_RESOLVE_TIMEOUT	5000
/* A CM step that never reports is abandoned after this long */
#define RPCRDMA2_CM_WAIT		(30 * HZ)

/**
 * rpcrdma2_cid_init - give a work-request context a new completion ID
 * @ep: the endpoint
 * @cq: the CQ the work request completes on
 * @cid: the context's completion ID
 *
 * Context: any.
 */
void rpcrdma2_cid_init(struct rpcrdma2_ep *ep, struct ib_cq *cq,
		       struct rpcrdma2_cid *cid)
{
	cid->queue_id = cq->res.id;
	cid->completion_id = atomic_inc_return(&ep->re_next_cid);
}

/**
 * rpcrdma2_ep_close - have the transport closed, from any context
 * @ep: the endpoint that failed
 *
 * Asks sunrpc once per endpoint: its autoclose work calls ->close with
 * the send lock held, which tears the endpoint down; a handler never
 * does that itself.
 *
 * Every unsuccessful completion calls this, flushes included. A flush
 * outside teardown means the QP went to the error state with no CM
 * event to say so (the server's RDMA Read of an rkey we had invalidated
 * does that to both QPs), and only a close gets the transport going
 * again. Teardown sets @re_closing before it drains, so its own flushes
 * close nothing.
 *
 * Context: any but hard interrupt (xprt_force_disconnect() takes
 * the transport lock without disabling interrupts).
 */
void rpcrdma2_ep_close(struct rpcrdma2_ep *ep)
{
	if (atomic_xchg(&ep->re_closing, 1))
		return;
	xprt_force_disconnect(&ep->re_xprt->rx_xprt);
}

/**
 * rpcrdma2_sq_get - reserve Send Queue entries before posting
 * @ep: the endpoint
 * @n: entries the work requests to be posted take
 *
 * Out of line, and marked for fail_function, which plays a full Send
 * Queue with it (tests/vm/xprtrdma2_faults.sh).
 *
 * Context: any.
 *
 * Return: %0 if reserved; %-EAGAIN if the Send Queue could overflow.
 */
noinline __noclone int rpcrdma2_sq_get(struct rpcrdma2_ep *ep, u32 n)
{
	if (atomic_sub_return(n, &ep->re_sq_avail) >= 0)
		return 0;
	atomic_add(n, &ep->re_sq_avail);
	return -EAGAIN;
}
ALLOW_ERROR_INJECTION(rpcrdma2_sq_get, ERRNO);

/**
 * rpcrdma2_sq_put - Send Queue entries retired by a signaled completion
 * @ep: the endpoint
 * @n: entries reserved for that work request and the unsignaled ones
 *	before it
 *
 * Context: a Send CQ completion, or a failed post.
 */
void rpcrdma2_sq_put(struct rpcrdma2_ep *ep, u32 n)
{
	atomic_add(n, &ep->re_sq_avail);
	/* a sender may wait for room (rpcrdma2_send_call) */
	xprt_write_space(&ep->re_xprt->rx_xprt);
}

static void rpcrdma2_cm_step(struct rpcrdma2_ep *ep, int status)
{
	ep->re_cm_status = status;
	complete(&ep->re_done);
}

/* The server's accept carried its RFC 8797 private data, or none */
static void rpcrdma2_cm_established(struct rpcrdma2_ep *ep,
				    const struct rdma_conn_param *param)
{
	/* untrusted: parse checks the length and every field */
	if (rpcrdma2_cm_pdata_parse(param->private_data,
				    param->private_data_len, &ep->re_peer))
		memset(&ep->re_peer, 0, sizeof(ep->re_peer));
	ep->re_connected = true;
	rpcrdma2_cm_step(ep, 1);
}

static int rpcrdma2_cm_handler(struct rdma_cm_id *id,
			       struct rdma_cm_event *event)
{
	struct rpcrdma2_ep *ep = id->context;

	trace_xprtrdma2_cm_event(ep, event);
	switch (event->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		rpcrdma2_cm_step(ep, 1);
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
		rpcrdma2_cm_step(ep, -EHOSTUNREACH);
		break;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		rpcrdma2_cm_step(ep, -ENETUNREACH);
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		rpcrdma2_cm_established(ep, &event->param.conn);
		break;
	case RDMA_CM_EVENT_REJECTED:
		rpcrdma2_cm_step(ep, -ECONNREFUSED);
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		rpcrdma2_cm_step(ep, -ENETUNREACH);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		/*
		 * The device waits until the id is destroyed: by ->close once
		 * connected, else by the connect worker, which this wakes.
		 */
		rpcrdma2_cm_step(ep, -ENODEV);
		if (ep->re_connected)
			rpcrdma2_ep_close(ep);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_ADDR_CHANGE:
		rpcrdma2_cm_step(ep, -ECONNABORTED);
		if (ep->re_connected)
			rpcrdma2_ep_close(ep);
		break;
	default:
		break;
	}
	return 0;
}

static void rpcrdma2_wc_send(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rpcrdma2_sendctx *sc = container_of(wc->wr_cqe,
						   struct rpcrdma2_sendctx,
						   sc_cqe);
	struct rpcrdma2_ep *ep = sc->sc_ep;
	u32 wrs;

	rpcrdma2_trace_wc(xprtrdma2_wc_send, wc, &sc->sc_cid);
	if (!sc->sc_signaled) {
		/*
		 * Flushed, or failed: the QP is in the error state, and the
		 * signaled Send after it, flushed too, retires its context.
		 */
		rpcrdma2_ep_close(ep);
		return;
	}
	/* read before the context is free: the next Send may take it */
	wrs = sc->sc_batch_wrs;
	llist_add_batch(&sc->sc_free, sc->sc_batch_last, &ep->re_send_free);
	/* a sender that found no idle context or entry waits for these */
	rpcrdma2_sq_put(ep, wrs);
	if (wc->status != IB_WC_SUCCESS)
		rpcrdma2_ep_close(ep);
}

static void rpcrdma2_wc_receive(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rpcrdma2_rep *rep = container_of(wc->wr_cqe,
						struct rpcrdma2_rep, rr_cqe);
	struct rpcrdma2_ep *ep = rep->rr_ep;

	rpcrdma2_trace_wc(xprtrdma2_wc_receive, wc, &rep->rr_cid);
	if (wc->status != IB_WC_SUCCESS) {
		rpcrdma2_ep_close(ep);
		return;
	}
	/*
	 * Only a Send fills the Receive buffer. An RDMA Write With
	 * Immediate consumes a Receive too, and its byte_len is the
	 * Write's length, which says nothing of what the buffer holds:
	 * RPC-over-RDMA has no use for it, and a server that sends one has
	 * broken the protocol.
	 */
	if (wc->opcode != IB_WC_RECV || wc->byte_len > ep->re_recv_size) {
		trace_xprtrdma2_recv_bad_wc(&rep->rr_cid, wc->opcode,
					    wc->byte_len);
		rpcrdma2_count(ep->re_xprt, RPCRDMA2_C_BAD_REPLIES, 1);
		rpcrdma2_ep_close(ep);
		return;
	}
	ib_dma_sync_single_for_cpu(ep->re_pd->device, rep->rr_sge.addr,
				   ep->re_recv_size, DMA_FROM_DEVICE);
	refcount_set(&rep->rr_ref, 1);
	rpcrdma2_reply_handler(rep, wc->byte_len,
			       wc->wc_flags & IB_WC_WITH_INVALIDATE ?
			       &wc->ex.invalidate_rkey : NULL);
	rpcrdma2_rep_put(rep);
}

/*
 * Post the Receives of @held, a non-empty list, in one chain: the
 * connection's first ones, or consumed ones given back. One that cannot
 * be posted leaves the server short of a buffer it was promised, so the
 * connection is closed.
 */
static void rpcrdma2_post_held(struct rpcrdma2_ep *ep, struct llist_node *held)
{
	struct rpcrdma2_rep *rep, *next;
	struct ib_recv_wr *first = NULL;
	const struct ib_recv_wr *bad = NULL;
	int ret;

	llist_for_each_entry_safe(rep, next, held, rr_held) {
		ib_dma_sync_single_for_device(ep->re_pd->device,
					      rep->rr_sge.addr,
					      ep->re_recv_size,
					      DMA_FROM_DEVICE);
		rep->rr_wr.next = first;
		first = &rep->rr_wr;
	}
	ret = ib_post_recv(ep->re_id->qp, first, &bad);
	if (ret) {
		rep = container_of(bad ?: first, struct rpcrdma2_rep, rr_wr);
		trace_xprtrdma2_post_err(&rep->rr_cid, ret);
		rpcrdma2_ep_close(ep);
	}
}

/**
 * rpcrdma2_rep_put - done with a received message
 * @rep: its Receive context
 *
 * The Receive completion holds @rep while the reply handler runs, and an
 * RPC whose reply's inline bytes are not copied yet holds it until they
 * are (they wait for its MRs to be unmapped); the last one gives it back
 * to be posted again, unless the connection is closing. Receives go
 * back in batches of RPCRDMA2_RECV_BATCH, in one post; the endpoint has
 * that many twice over beyond what the server may fill, so none it was
 * promised is missing meanwhile.
 *
 * Context: any.
 */
void rpcrdma2_rep_put(struct rpcrdma2_rep *rep)
{
	struct rpcrdma2_ep *ep = rep->rr_ep;
	struct llist_node *held;

	if (!refcount_dec_and_test(&rep->rr_ref) ||
	    atomic_read(&ep->re_closing))
		return;
	/* counted once on the list: every one counted is there to take */
	llist_add(&rep->rr_held, &ep->re_recv_held);
	if (atomic_inc_return(&ep->re_recv_nheld) % RPCRDMA2_RECV_BATCH)
		return;
	/* another put may have taken them all */
	held = llist_del_all(&ep->re_recv_held);
	if (!held)
		return;
	rpcrdma2_count(ep->re_xprt, RPCRDMA2_C_RECV_POSTS, 1);
	rpcrdma2_post_held(ep, held);
}

/*
 * A Send context's buffer is made when the connection starts for the
 * first re_send_batch, else the first time one is wanted and none is
 * idle, up to re_nr_sendctxs: a connection holds a buffer for each Send
 * it has had in flight at once, not one for each it may have. The
 * batch made at the start is what keeps a Call from waiting for ever
 * when no more can be made: at most re_send_batch - 1 contexts wait for
 * a signaled Send to retire them (rpcrdma2_post_send()), so another is
 * idle or is that Send's. After the start the consumer makes them
 * (rpcrdma2_sendctx_get()), a sender or a Receive completion: no reclaim
 * through the file system or block I/O, which may wait for this
 * transport. Error injection makes it fail as under memory pressure,
 * which no peer can bring about on demand.
 */
static noinline struct rpcrdma2_sendctx *
rpcrdma2_sendctx_make(struct rpcrdma2_ep *ep)
{
	struct ib_device *dev = ep->re_pd->device;
	struct rpcrdma2_sendctx *sc = &ep->re_sendctxs[ep->re_sendctxs_made];

	sc->sc_buf = kmalloc(ep->re_send_size, GFP_NOIO | __GFP_NOWARN);
	if (!sc->sc_buf)
		return NULL;
	sc->sc_sge.addr = ib_dma_map_single(dev, sc->sc_buf, ep->re_send_size,
					    DMA_TO_DEVICE);
	if (ib_dma_mapping_error(dev, sc->sc_sge.addr)) {
		kfree(sc->sc_buf);
		sc->sc_buf = NULL;
		return NULL;
	}
	ep->re_sendctxs_made++;
	return sc;
}
ALLOW_ERROR_INJECTION(rpcrdma2_sendctx_make, NULL);

/**
 * rpcrdma2_sendctx_get - take an idle Send context
 * @ep: the endpoint
 *
 * Contexts come back a batch at a time (rpcrdma2_wc_send()); they are
 * taken off the shared list with one llist_del_all() and handed out from
 * &rpcrdma2_ep.re_send_taken, so that only one Send in a batch pays for
 * an atomic operation on a cache line the completion handler writes.
 * When none is idle, one not yet used gets its buffer now.
 *
 * Context: the transport's send lock, or a Receive completion while the
 * connection's only Call holds the only credit, whose sender touches
 * neither the free lists nor rpcrdma2_post_send()'s chain once it has
 * posted; either way there is one consumer at a time, who alone owns
 * re_send_taken and re_sendctxs_made. May sleep.
 *
 * Return: a Send context; NULL if every one is in flight
 * (re_sendctxs_made has reached re_nr_sendctxs) or if the memory for a
 * new one is short (it has not).
 */
struct rpcrdma2_sendctx *rpcrdma2_sendctx_get(struct rpcrdma2_ep *ep)
{
	struct llist_node *node = ep->re_send_taken;

	if (!node) {
		node = llist_del_all(&ep->re_send_free);
		if (!node) {
			struct rpcrdma2_sendctx *sc;

			if (ep->re_sendctxs_made == ep->re_nr_sendctxs)
				return NULL;
			sc = rpcrdma2_sendctx_make(ep);
			rpcrdma2_count(ep->re_xprt, sc ? RPCRDMA2_C_SEND_BUFS :
				       RPCRDMA2_C_SEND_BUF_ERRORS, 1);
			return sc;
		}
	}
	ep->re_send_taken = node->next;
	return llist_entry(node, struct rpcrdma2_sendctx, sc_free);
}

/**
 * rpcrdma2_post_send - post one Send
 * @ep: the endpoint
 * @sc: the Send context, its buffer filled
 * @len: bytes of it to send
 * @regs: REG_MR work requests to post ahead of the Send, or NULL
 *
 * The REG_MRs are unsignaled; their Send Queue entries are retired with
 * the Send's completion, which the device reports after theirs. So is
 * every Send but one in &rpcrdma2_ep.re_send_batch: a signaled Send's
 * completion retires the Sends posted before it since the last (an RC
 * QP's Send Queue completes in order), their contexts and entries with
 * its own. At most re_send_batch - 1 contexts, and the entries of as
 * many Sends, wait so for a later Send; the Send contexts and the Send
 * Queue are sized with room for them (rpcrdma2_ep_size_sq()), so a
 * sender that finds none idle always has a signaled Send to wait for.
 *
 * Context: as for rpcrdma2_sendctx_get().
 *
 * Return: %0; %-EAGAIN if the Send Queue has no room (nothing posted,
 * the context is back on the free list); or %-ENOTCONN if the Send could
 * not be posted (the context is back on the free list and the
 * connection is closing).
 */
int rpcrdma2_post_send(struct rpcrdma2_ep *ep, struct rpcrdma2_sendctx *sc,
		       u32 len, struct rpcrdma2_regchain *regs)
{
	struct llist_node *unsig_first = ep->re_unsig_first;
	struct llist_node *unsig_last = ep->re_unsig_last;
	u32 unsig_count = ep->re_unsig_count;
	u32 unsig_wrs = ep->re_unsig_wrs;
	struct ib_send_wr *first = &sc->sc_wr;
	int ret;

	sc->sc_sq_wrs = 1;
	if (regs && regs->count) {
		*regs->next = &sc->sc_wr;
		first = regs->first;
		sc->sc_sq_wrs += regs->count;
	}
	ret = rpcrdma2_sq_get(ep, sc->sc_sq_wrs);
	if (ret) {
		llist_add(&sc->sc_free, &ep->re_send_free);
		return ret;
	}
	/*
	 * What its completion retires, and the chain of unsignaled Sends,
	 * before the post: the completion may beat the post's return, and
	 * so may the reply, whose Receive completion may post a Send of its
	 * own (RDMA2_CONNPROP, a v1 resend) when this is the first Call.
	 */
	sc->sc_signaled = unsig_count + 1 >= ep->re_send_batch;
	sc->sc_free.next = unsig_first;
	if (sc->sc_signaled) {
		sc->sc_batch_last = unsig_first ? unsig_last : &sc->sc_free;
		sc->sc_batch_wrs = sc->sc_sq_wrs + unsig_wrs;
		sc->sc_wr.send_flags = IB_SEND_SIGNALED;
		ep->re_unsig_first = NULL;
		ep->re_unsig_count = 0;
		ep->re_unsig_wrs = 0;
	} else {
		sc->sc_wr.send_flags = 0;
		if (!unsig_first)
			ep->re_unsig_last = &sc->sc_free;
		ep->re_unsig_first = &sc->sc_free;
		ep->re_unsig_count = unsig_count + 1;
		ep->re_unsig_wrs = unsig_wrs + sc->sc_sq_wrs;
	}
	sc->sc_sge.length = len;
	ib_dma_sync_single_for_device(ep->re_pd->device, sc->sc_sge.addr, len,
				      DMA_TO_DEVICE);
	trace_xprtrdma2_post_send(&sc->sc_cid, len);
	ret = ib_post_send(ep->re_id->qp, first, NULL);
	if (ret) {
		trace_xprtrdma2_post_err(&sc->sc_cid, ret);
		/* nothing of it went out: the chain is as it was */
		ep->re_unsig_first = unsig_first;
		ep->re_unsig_last = unsig_last;
		ep->re_unsig_count = unsig_count;
		ep->re_unsig_wrs = unsig_wrs;
		llist_add(&sc->sc_free, &ep->re_send_free);
		rpcrdma2_sq_put(ep, sc->sc_sq_wrs);
		rpcrdma2_ep_close(ep);
		return -ENOTCONN;
	}
	if (sc->sc_signaled)
		rpcrdma2_count(ep->re_xprt, RPCRDMA2_C_SENDS_SIGNALED, 1);
	return 0;
}

/* The contexts, and the buffers of the first batch */
static int rpcrdma2_sendctxs_create(struct rpcrdma2_ep *ep)
{
	u32 i;

	ep->re_sendctxs = kcalloc(ep->re_nr_sendctxs,
				  sizeof(*ep->re_sendctxs), GFP_KERNEL);
	if (!ep->re_sendctxs)
		return -ENOMEM;
	for (i = 0; i < ep->re_nr_sendctxs; i++) {
		struct rpcrdma2_sendctx *sc = &ep->re_sendctxs[i];

		sc->sc_ep = ep;
		sc->sc_sge.lkey = ep->re_pd->local_dma_lkey;
		sc->sc_cqe.done = rpcrdma2_wc_send;
		rpcrdma2_cid_init(ep, ep->re_scq, &sc->sc_cid);
		sc->sc_wr.wr_cqe = &sc->sc_cqe;
		sc->sc_wr.sg_list = &sc->sc_sge;
		sc->sc_wr.num_sge = 1;
		sc->sc_wr.opcode = IB_WR_SEND;
	}
	while (ep->re_sendctxs_made < ep->re_send_batch) {
		struct rpcrdma2_sendctx *sc = rpcrdma2_sendctx_make(ep);

		if (!sc)
			return -ENOMEM;
		llist_add(&sc->sc_free, &ep->re_send_free);
	}
	rpcrdma2_count(ep->re_xprt, RPCRDMA2_C_SEND_BUFS, ep->re_send_batch);
	return 0;
}

static void rpcrdma2_sendctxs_destroy(struct rpcrdma2_ep *ep)
{
	u32 i;

	if (!ep->re_sendctxs)
		return;
	for (i = 0; i < ep->re_sendctxs_made; i++) {
		struct rpcrdma2_sendctx *sc = &ep->re_sendctxs[i];

		ib_dma_unmap_single(ep->re_pd->device, sc->sc_sge.addr,
				    ep->re_send_size, DMA_TO_DEVICE);
		kfree(sc->sc_buf);
	}
	kfree(ep->re_sendctxs);
}

static int rpcrdma2_reps_create(struct rpcrdma2_ep *ep)
{
	struct ib_device *dev = ep->re_pd->device;
	struct rpcrdma2_limits lim;
	u32 i;

	rpcrdma2_reply_limits(&lim);
	ep->re_reps = kcalloc(ep->re_rq_depth, sizeof(*ep->re_reps),
			      GFP_KERNEL);
	if (!ep->re_reps)
		return -ENOMEM;
	for (i = 0; i < ep->re_rq_depth; i++) {
		struct rpcrdma2_rep *rep = &ep->re_reps[i];

		rep->rr_ep = ep;
		rep->rr_buf = kmalloc(ep->re_recv_size, GFP_KERNEL);
		if (!rep->rr_buf)
			return -ENOMEM;
		/* a reply has no Read list: the limits accept none */
		if (rpcrdma2_chunk_lists_init(&rep->rr_hdr.cl, &lim, NULL, 0,
					      NULL, 0, rep->rr_writes,
					      ARRAY_SIZE(rep->rr_writes),
					      rep->rr_segs,
					      ARRAY_SIZE(rep->rr_segs)))
			return -EINVAL;
		rep->rr_sge.addr = ib_dma_map_single(dev, rep->rr_buf,
						     ep->re_recv_size,
						     DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(dev, rep->rr_sge.addr)) {
			rep->rr_sge.addr = 0;
			return -EIO;
		}
		rep->rr_sge.length = ep->re_recv_size;
		rep->rr_sge.lkey = ep->re_pd->local_dma_lkey;
		rep->rr_cqe.done = rpcrdma2_wc_receive;
		rpcrdma2_cid_init(ep, ep->re_rcq, &rep->rr_cid);
		rep->rr_wr.wr_cqe = &rep->rr_cqe;
		rep->rr_wr.sg_list = &rep->rr_sge;
		rep->rr_wr.num_sge = 1;
	}
	return 0;
}

static void rpcrdma2_reps_destroy(struct rpcrdma2_ep *ep)
{
	u32 i;

	if (!ep->re_reps)
		return;
	for (i = 0; i < ep->re_rq_depth; i++) {
		struct rpcrdma2_rep *rep = &ep->re_reps[i];

		if (rep->rr_sge.addr)
			ib_dma_unmap_single(ep->re_pd->device,
					    rep->rr_sge.addr, ep->re_recv_size,
					    DMA_FROM_DEVICE);
		kfree(rep->rr_buf);
	}
	kfree(ep->re_reps);
}

/* Run one asynchronous rdma_cm step and wait for its event */
static int rpcrdma2_cm_wait(struct rpcrdma2_ep *ep, int ret)
{
	long left;

	if (ret)
		return ret;
	left = wait_for_completion_interruptible_timeout(&ep->re_done,
							 RPCRDMA2_CM_WAIT);
	if (left < 0)
		return left;
	if (!left)
		return -ETIMEDOUT;
	reinit_completion(&ep->re_done);
	return ep->re_cm_status < 0 ? ep->re_cm_status : 0;
}

static int rpcrdma2_ep_resolve(struct rpcrdma2_ep *ep)
{
	struct rpc_xprt *xprt = &ep->re_xprt->rx_xprt;
	int ret;

	ep->re_id = rdma_create_id(xprt->xprt_net, rpcrdma2_cm_handler, ep,
				   RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(ep->re_id)) {
		ret = PTR_ERR(ep->re_id);
		ep->re_id = NULL;
		return ret;
	}
	ret = rdma_resolve_addr(ep->re_id, NULL, (struct sockaddr *)&xprt->addr,
				RPCRDMA2_RESOLVE_TIMEOUT);
	ret = rpcrdma2_cm_wait(ep, ret);
	if (ret)
		return ret;
	ret = rdma_resolve_route(ep->re_id, RPCRDMA2_RESOLVE_TIMEOUT);
	return rpcrdma2_cm_wait(ep, ret);
}

/*
 * Asynchronous QP events are only traced. A QP that a fatal event puts
 * in the error state flushes the Receives that are always posted, and
 * their completion closes the transport; closing here instead could
 * run in hard interrupt context on some devices.
 */
static void rpcrdma2_qp_event(struct ib_event *event, void *context)
{
	struct rpcrdma2_ep *ep = context;

	trace_xprtrdma2_qp_event(ep, event);
}

/* One Send in this many asks for a completion (rpcrdma2_post_send()) */
static u32 rpcrdma2_send_batch(u32 max_requests)
{
	return max_t(u32, max_requests >> RPCRDMA2_SEND_BATCH_SHIFT, 1);
}

/*
 * The Send Queue entries that may be held at once, so that a LOCAL_INV
 * chain, which an RPC needs before it may complete, always finds room
 * (a Call that does not waits for write space):
 *  - every Send context's Send and the REG_MRs chained before it
 *    (RPCRDMA2_SQ_PER_SEND). They are held until the Send's completion
 *    is reaped, and that may come after the reply: the RPC then
 *    completes, gives back its slot and credit, and the next Call takes
 *    them while the old Send still holds its entries. So the number of
 *    Sends in flight is bounded by the Send contexts, not by the slots.
 *    Those are a slot's, the extra ones, and the re_send_batch - 1 that
 *    unsignaled Sends hold until a signaled one retires them;
 *  - a LOCAL_INV chain (RPCRDMA2_SQ_PER_INV) for every RPC holding a
 *    credit (a reply's, in rpcrdma2_frwr_unmap_async()), and one for
 *    ->buf_free, which rx_mr_mutex serializes (rpcrdma2_frwr_unmap_sync()).
 * A device with a shorter Send Queue gets fewer Calls in flight, and
 * fewer Send contexts with them.
 */
static int rpcrdma2_ep_size_sq(struct rpcrdma2_ep *ep, u32 max_wr)
{
	u32 extra = ep->re_nr_sendctxs - ep->re_max_requests;
	u32 fixed = extra * RPCRDMA2_SQ_PER_SEND + RPCRDMA2_SQ_PER_INV;
	u32 per_rpc = RPCRDMA2_SQ_PER_SEND + RPCRDMA2_SQ_PER_INV;
	u32 reqs, batch;

	if (max_wr < fixed + per_rpc)
		return -EINVAL;
	reqs = min_t(u32, ep->re_max_requests, (max_wr - fixed) / per_rpc);
	/* one slot and a batch of one always fit, as checked above */
	for (;;) {
		batch = rpcrdma2_send_batch(reqs);
		if (fixed + (batch - 1) * RPCRDMA2_SQ_PER_SEND +
		    reqs * per_rpc <= max_wr)
			break;
		reqs--;
	}
	ep->re_max_requests = reqs;
	ep->re_send_batch = batch;
	ep->re_nr_sendctxs = reqs + extra + batch - 1;
	ep->re_sq_depth = fixed + (batch - 1) * RPCRDMA2_SQ_PER_SEND +
			  reqs * per_rpc;
	atomic_set(&ep->re_sq_avail, ep->re_sq_depth);
	return 0;
}

static int rpcrdma2_ep_create_qp(struct rpcrdma2_ep *ep)
{
	struct ib_device *dev = ep->re_id->device;
	struct ib_qp_init_attr attr = {};
	int ret;

	ep->re_pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(ep->re_pd)) {
		ret = PTR_ERR(ep->re_pd);
		ep->re_pd = NULL;
		return ret;
	}
	ep->re_dev_reminv = dev->attrs.device_cap_flags &
			    IB_DEVICE_MEM_MGT_EXTENSIONS;
	ret = rpcrdma2_ep_size_sq(ep, dev->attrs.max_qp_wr - 1);
	if (ret)
		return ret;
	/* one more of each for ib_drain_qp() */
	ep->re_scq = ib_alloc_cq_any(dev, ep, ep->re_sq_depth + 1,
				     IB_POLL_WORKQUEUE);
	if (IS_ERR(ep->re_scq)) {
		ret = PTR_ERR(ep->re_scq);
		ep->re_scq = NULL;
		return ret;
	}
	ep->re_rcq = ib_alloc_cq_any(dev, ep, ep->re_rq_depth + 1,
				     IB_POLL_WORKQUEUE);
	if (IS_ERR(ep->re_rcq)) {
		ret = PTR_ERR(ep->re_rcq);
		ep->re_rcq = NULL;
		return ret;
	}
	attr.event_handler = rpcrdma2_qp_event;
	attr.qp_context = ep;
	attr.send_cq = ep->re_scq;
	attr.recv_cq = ep->re_rcq;
	attr.cap.max_send_wr = ep->re_sq_depth + 1;
	attr.cap.max_recv_wr = ep->re_rq_depth + 1;
	attr.cap.max_send_sge = 1;
	attr.cap.max_recv_sge = 1;
	attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	attr.qp_type = IB_QPT_RC;
	return rdma_create_qp(ep->re_id, ep->re_pd, &attr);
}

/* RFC 8797 thresholds and the version to try, from what ESTABLISHED brought */
static void rpcrdma2_ep_negotiate(struct rpcrdma2_ep *ep)
{
	struct rpcrdma2_xprt *r = ep->re_xprt;

	rpcrdma2_cm_pdata_negotiate(ep->re_peer.version ? &ep->re_peer : NULL,
				    ep->re_send_size, ep->re_recv_size,
				    RPCRDMA2_V1_DEF_INLINE, &ep->re_v1_send,
				    &ep->re_v1_recv);
	ep->re_peer_rbsiz = RPCRDMA2_DEF_RBSIZ;
	ep->re_peer_brs = RPCRDMA2_DEF_BRS;
	ep->re_rbsiz_known = false;
	ep->re_rbsiz_refused = false;
	/*
	 * draft §7.2: after a fallback only the connection right after it
	 * starts in v1, so an upgraded server is found on the next one at
	 * the cost of an ERR_VERS round trip; a server that never answered
	 * v2 costs a probe timeout each time, so it is asked no more.
	 */
	ep->re_try_vers = READ_ONCE(r->rx_v1_next) ||
			  READ_ONCE(r->rx_v2_silent) ? RPCRDMA2_VERS_1 :
						       RPCRDMA2_VERS_2;
	rpcrdma2_ep_set_inline(ep);
}

static int rpcrdma2_ep_establish(struct rpcrdma2_ep *ep)
{
	struct ib_device *dev = ep->re_id->device;
	struct rdma_conn_param param = {};
	u8 pdata[RPCRDMA2_CM_PDATA_SIZE];
	struct llist_node *all = NULL;
	u32 i;
	int ret;

	ret = rpcrdma2_cm_pdata_build(pdata, sizeof(pdata),
				      ep->re_dev_reminv, ep->re_send_size,
				      ep->re_recv_size);
	if (ret < 0)
		return ret;
	for (i = 0; i < ep->re_rq_depth; i++) {
		ep->re_reps[i].rr_held.next = all;
		all = &ep->re_reps[i].rr_held;
	}
	rpcrdma2_post_held(ep, all);
	if (atomic_read(&ep->re_closing))
		return -ENOTCONN;
	param.private_data = pdata;
	param.private_data_len = sizeof(pdata);
	/* the server reads Read chunks from us; we read nothing */
	param.responder_resources = min_t(int, dev->attrs.max_qp_rd_atom,
					  U8_MAX);
	param.initiator_depth = 0;
	param.retry_count = 6;
	/* a server that is short of Receives for a moment: retry for ever */
	param.rnr_retry_count = 7;
	ret = rpcrdma2_cm_wait(ep, rdma_connect(ep->re_id, &param));
	if (ret)
		return ret;
	rpcrdma2_ep_negotiate(ep);
	trace_xprtrdma2_established(ep);
	return 0;
}

/**
 * rpcrdma2_ep_connect - build an endpoint and connect it
 * @r: the transport, whose send lock the connect worker holds
 *
 * Resolves the server's address and route, builds the queue pair and its
 * contexts, posts every Receive, and connects with our RFC 8797 private
 * data; the server's is parsed when the connection is ESTABLISHED. On
 * failure the caller tears down what was built with
 * rpcrdma2_ep_disconnect().
 *
 * Context: process; may sleep.
 *
 * Return: %0 when connected; %-ENOMEM; an rdma_cm or verbs error;
 * %-ETIMEDOUT if a CM step never reported; %-ECONNREFUSED if the server
 * rejected us.
 */
int rpcrdma2_ep_connect(struct rpcrdma2_xprt *r)
{
	struct rpcrdma2_ep *ep;
	int ret;

	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep)
		return -ENOMEM;
	ep->re_xprt = r;
	init_completion(&ep->re_done);
	init_llist_head(&ep->re_send_free);
	init_llist_head(&ep->re_recv_held);
	rpcrdma2_frwr_pool_init(ep);
	INIT_DELAYED_WORK(&ep->re_probe_work, rpcrdma2_probe_expired);
	ep->re_send_size = READ_ONCE(xprt_rdma2_inline_size);
	ep->re_recv_size = ep->re_send_size;
	ep->re_max_requests = r->rx_xprt.max_reqs;
	ep->re_rq_depth = ep->re_max_requests + RPCRDMA2_EXTRA_RECVS +
			  RPCRDMA2_BC_SLOTS + 2 * RPCRDMA2_RECV_BATCH;
	/* and those of unsignaled Sends: rpcrdma2_ep_size_sq() */
	ep->re_nr_sendctxs = ep->re_max_requests + RPCRDMA2_EXTRA_SENDS +
			     RPCRDMA2_BC_SLOTS;
	r->rx_ep = ep;

	ret = rpcrdma2_ep_resolve(ep);
	if (ret)
		return ret;
	ret = rpcrdma2_ep_create_qp(ep);
	if (ret)
		return ret;
	ret = rpcrdma2_frwr_pool_create(ep);
	if (ret)
		return ret;
	ret = rpcrdma2_sendctxs_create(ep);
	if (ret)
		return ret;
	ret = rpcrdma2_reps_create(ep);
	if (ret)
		return ret;
	return rpcrdma2_ep_establish(ep);
}

/**
 * rpcrdma2_ep_disconnect - tear down the current endpoint
 * @r: the transport
 *
 * Disconnects, flushes every posted work request (their completion
 * handlers run, and release nothing twice), then frees everything in the
 * reverse order of rpcrdma2_ep_connect(). Safe on a half-built endpoint
 * and when there is none.
 *
 * Context: process; the caller holds the transport's send lock.
 */
void rpcrdma2_ep_disconnect(struct rpcrdma2_xprt *r)
{
	struct rpcrdma2_ep *ep = r->rx_ep;

	if (!ep)
		return;
	atomic_set(&ep->re_closing, 1);
	cancel_delayed_work_sync(&ep->re_probe_work);
	if (ep->re_id && ep->re_id->qp) {
		/* QP to the error state: the server reaches no MR any more */
		rdma_disconnect(ep->re_id);
		WRITE_ONCE(ep->re_qp_dead, true);
		/*
		 * The rule of struct rpcrdma2_req: ->buf_free's LOCAL_INV is
		 * done once we hold the mutex; after the Receive Queue drains
		 * no reply posts another; after the Send Queue drains every
		 * LOCAL_INV completion has run. What requests still hold is
		 * then only unmapped.
		 */
		mutex_lock(&r->rx_mr_mutex);
		ib_drain_rq(ep->re_id->qp);
		ib_drain_sq(ep->re_id->qp);
		rpcrdma2_frwr_reclaim(r, ep);
		mutex_unlock(&r->rx_mr_mutex);
		rdma_destroy_qp(ep->re_id);
	} else {
		/* a half-built endpoint: nothing was posted */
		WRITE_ONCE(ep->re_qp_dead, true);
		mutex_lock(&r->rx_mr_mutex);
		rpcrdma2_frwr_reclaim(r, ep);
		mutex_unlock(&r->rx_mr_mutex);
	}
	trace_xprtrdma2_disconnect(ep);
	rpcrdma2_reps_destroy(ep);
	rpcrdma2_sendctxs_destroy(ep);
	rpcrdma2_frwr_pool_destroy(ep);
	if (ep->re_rcq)
		ib_free_cq(ep->re_rcq);
	if (ep->re_scq)
		ib_free_cq(ep->re_scq);
	if (ep->re_pd)
		ib_dealloc_pd(ep->re_pd);
	if (ep->re_id)
		rdma_destroy_id(ep->re_id);
	r->rx_ep = NULL;
	kfree(ep);
}
