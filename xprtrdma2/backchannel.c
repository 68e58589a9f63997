// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma2 backchannel: the reverse direction (RFC 8167; draft-09 §3.2,
 * §4.2, §8.4.1). The server sends NFSv4.1 callbacks (CB_NULL,
 * CB_SEQUENCE, CB_RECALL, ...) as RPC Calls on the forward connection;
 * we hand each to the NFS callback service and send its reply back on
 * the same connection, in the connection's version: in v2 with
 * RPCRDMA2_F_RESPONSE set.
 *
 * What we take (our RDMA2_CONNPROP says BRS = RPCRDMA2_RVREQSUP_INLINE):
 * inline Calls only, of at most a page, RPCRDMA2_BC_SLOTS at a time,
 * each with a Receive of its own (verbs.c posts them beside the forward
 * channel's). Everything about a reverse Call is untrusted: a Call we
 * cannot take is counted and dropped, and the server retransmits it or
 * gives up on its callback channel; nothing waits on it here.
 *
 * A reverse-direction rqst lives in a pool per transport, made when the
 * NFS client sets the backchannel up (->bc_setup), taken by a Receive
 * completion, given back by ->bc_free_rqst once the reply is sent.
 */
#include <linux/error-injection.h>
#include <linux/types.h>
#include <linux/wait_bit.h>
#include <linux/sunrpc/msg_prot.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xprt.h>

#include "xprt_rdma2.h"
#include "trace.h"

/**
 * struct rpcrdma2_bc_rqst - a reverse-direction Call and its reply
 * @br_rqst: what sunrpc's callback service works on; rq_rcv_buf holds
 *	the Call, rq_snd_buf the reply it encodes
 * @br_call: the Call, copied out of its Receive buffer (a page)
 * @br_reply: the reply buffer (a page: svcxdr_init_encode() assumes it)
 * @br_cookie: connect_cookie of the connection the Call came on, which
 *	the reply must go back on (sunrpc resets rq_connect_cookie when
 *	it starts the reply's task)
 */
struct rpcrdma2_bc_rqst {
	struct rpc_rqst		br_rqst;
	void			*br_call;
	void			*br_reply;
	unsigned int		br_cookie;
};

static void rpcrdma2_bc_rqst_free(struct rpcrdma2_bc_rqst *br)
{
	kfree(br->br_reply);
	kfree(br->br_call);
	kfree(br);
}

static struct rpcrdma2_bc_rqst *rpcrdma2_bc_rqst_alloc(struct rpc_xprt *xprt)
{
	struct rpcrdma2_bc_rqst *br;

	br = kzalloc(sizeof(*br), GFP_KERNEL);
	if (!br)
		return NULL;
	br->br_call = kmalloc(PAGE_SIZE, GFP_KERNEL);
	br->br_reply = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!br->br_call || !br->br_reply) {
		rpcrdma2_bc_rqst_free(br);
		return NULL;
	}
	br->br_rqst.rq_xprt = xprt;
	INIT_LIST_HEAD(&br->br_rqst.rq_bc_pa_list);
	/* xprt_release() gives it to ->bc_free_rqst, not ->free_slot */
	__set_bit(RPC_BC_PA_IN_USE, &br->br_rqst.rq_bc_pa_state);
	return br;
}

/**
 * xprt_rdma2_bc_setup - make the reverse-direction rqsts
 * @xprt: the transport
 * @reqs: how many the NFS client wants at least
 *
 * Context: process (the NFS client setting up its callback channel).
 *
 * Return: %0, or %-ENOMEM.
 */
int xprt_rdma2_bc_setup(struct rpc_xprt *xprt, unsigned int reqs)
{
	struct rpcrdma2_bc_rqst *br;

	while (READ_ONCE(xprt->bc_alloc_count) < RPCRDMA2_BC_SLOTS) {
		br = rpcrdma2_bc_rqst_alloc(xprt);
		if (!br)
			return -ENOMEM;
		spin_lock(&xprt->bc_pa_lock);
		if (xprt->bc_alloc_count == RPCRDMA2_BC_SLOTS) {
			spin_unlock(&xprt->bc_pa_lock);
			rpcrdma2_bc_rqst_free(br);
			break;
		}
		xprt->bc_alloc_count++;
		list_add(&br->br_rqst.rq_bc_pa_list, &xprt->bc_pa_list);
		spin_unlock(&xprt->bc_pa_lock);
	}
	spin_lock(&xprt->bc_pa_lock);
	rpcx_to_rdma2x(xprt)->rx_bc_open = true;
	spin_unlock(&xprt->bc_pa_lock);
	trace_xprtrdma2_bc_setup(xprt, reqs);
	return 0;
}

/**
 * xprt_rdma2_bc_maxpayload - the largest reverse-direction message
 * @xprt: the transport
 *
 * A Call must fit our page-sized buffer and our Receive, a reply our
 * page-sized buffer and the server's threshold; the transport header of
 * either takes its share. The NFS client offers this in CREATE_SESSION.
 *
 * Return: bytes of RPC message.
 */
size_t xprt_rdma2_bc_maxpayload(struct rpc_xprt *xprt)
{
	struct rpcrdma2_xprt *r = rpcx_to_rdma2x(xprt);
	u32 max = PAGE_SIZE;

	if (READ_ONCE(r->rx_send_inline))
		max = min(max, READ_ONCE(r->rx_send_inline));
	if (READ_ONCE(r->rx_recv_inline))
		max = min(max, READ_ONCE(r->rx_recv_inline));
	return max - RPCRDMA2_REPLY_HDR_MAX;
}

/**
 * xprt_rdma2_bc_num_slots - reverse-direction Calls we take at a time
 * @xprt: the transport
 *
 * Return: RPCRDMA2_BC_SLOTS.
 */
unsigned int xprt_rdma2_bc_num_slots(struct rpc_xprt *xprt)
{
	return RPCRDMA2_BC_SLOTS;
}

/**
 * xprt_rdma2_bc_free_rqst - a reverse-direction rqst is done with
 * @rqst: the rqst; its reply was sent, or dropped
 *
 * Context: the callback service (xprt_release()).
 */
void xprt_rdma2_bc_free_rqst(struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;
	struct rpcrdma2_xprt *r = rpcx_to_rdma2x(xprt);

	trace_xprtrdma2_bc_free(rqst);
	spin_lock(&xprt->bc_pa_lock);
	list_add(&rqst->rq_bc_pa_list, &xprt->bc_pa_list);
	spin_unlock(&xprt->bc_pa_lock);
	/* before our reference goes: ->bc_destroy may be waiting */
	if (atomic_dec_and_test(&r->rx_bc_busy))
		wake_up_var(&r->rx_bc_busy);
	/* the reference the Receive completion took */
	xprt_put(xprt);
}

/**
 * xprt_rdma2_bc_destroy - the NFS client is done with its backchannel
 * @xprt: the transport
 * @reqs: ignored: every idle rqst goes
 *
 * The NFS client calls this when it destroys its session, just before
 * it stops its callback service and frees it (nfs4_shutdown_client()),
 * while the server may go on sending Calls until the connection closes,
 * and xprt->bc_serv keeps pointing at the service. From now on no Call
 * goes to it, and those it was given are waited for (at most
 * RPCRDMA2_BC_DRAIN_TO): a Call left in the queue of a service whose
 * threads have stopped is never answered, nor its rqst given back, and
 * that rqst's reference keeps the transport alive for good.
 *
 * Context: process.
 */
void xprt_rdma2_bc_destroy(struct rpc_xprt *xprt, unsigned int reqs)
{
	struct rpcrdma2_xprt *r = rpcx_to_rdma2x(xprt);

	spin_lock(&xprt->bc_pa_lock);
	r->rx_bc_open = false;
	spin_unlock(&xprt->bc_pa_lock);
	wait_var_event_timeout(&r->rx_bc_busy, !atomic_read(&r->rx_bc_busy),
			       RPCRDMA2_BC_DRAIN_TO);
	trace_xprtrdma2_bc_destroy(r, atomic_read(&r->rx_bc_busy));
	rpcrdma2_bc_free_idle(xprt);
}

/**
 * rpcrdma2_bc_free_idle - free the reverse-direction rqsts not in use
 * @xprt: the transport
 *
 * Context: ->bc_destroy, and ->destroy (for those given back after it:
 * a rqst in use holds a reference on @xprt, so by then none is).
 */
void rpcrdma2_bc_free_idle(struct rpc_xprt *xprt)
{
	struct rpc_rqst *rqst, *next;
	LIST_HEAD(idle);

	spin_lock(&xprt->bc_pa_lock);
	list_splice_init(&xprt->bc_pa_list, &idle);
	xprt->bc_alloc_count = 0;
	spin_unlock(&xprt->bc_pa_lock);
	list_for_each_entry_safe(rqst, next, &idle, rq_bc_pa_list) {
		list_del(&rqst->rq_bc_pa_list);
		rpcrdma2_bc_rqst_free(container_of(rqst,
						   struct rpcrdma2_bc_rqst,
						   br_rqst));
	}
}

/* Why a reverse-direction Call is not taken (trace and counter) */
static void rpcrdma2_bc_drop(struct rpcrdma2_rep *rep, const char *why)
{
	rpcrdma2_count(rep->rr_ep->re_xprt, RPCRDMA2_C_REVERSE_DROPPED, 1);
	trace_xprtrdma2_bc_drop(&rep->rr_cid, &rep->rr_hdr, why);
}

/**
 * rpcrdma2_bc_receive_call - take a reverse-direction Call
 * @rep: the Receive that brought it, decoded (rpcrdma2_is_reverse_call())
 *
 * RFC 8167 §4, draft §3.2: an inline Call on a connection whose version
 * is fixed, in that version, its rdma_xid the RPC XID, of a size we
 * offered. The Call is copied out (the Receive goes back at once) and
 * queued for the NFS callback service, which replies through
 * ->send_request (rpcrdma2_bc_send_reply()).
 *
 * Context: Receive completion.
 */
void rpcrdma2_bc_receive_call(struct rpcrdma2_rep *rep)
{
	struct rpcrdma2_ep *ep = rep->rr_ep;
	struct rpcrdma2_xprt *r = ep->re_xprt;
	struct rpc_xprt *xprt = &r->rx_xprt;
	const struct rpcrdma2_hdr *hdr = &rep->rr_hdr;
	const u8 *call = (const u8 *)rep->rr_buf + hdr->hdr_len;
	struct rpcrdma2_bc_rqst *br;
	struct svc_serv *bc_serv;
	const char *why = NULL;
	struct rpc_rqst *rqst;

	if (!ep->re_vers || hdr->vers != ep->re_vers)
		return rpcrdma2_bc_drop(rep, "version");
	if (hdr->htype != RPCRDMA2_HT_MSG || hdr->cl.nr_reads ||
	    hdr->cl.nr_writes || hdr->cl.has_reply)
		return rpcrdma2_bc_drop(rep, "chunks");
	if (hdr->rpc_len < 8 || hdr->rpc_len > PAGE_SIZE)
		return rpcrdma2_bc_drop(rep, "size");
	/* RFC 8166 §4.2.1; RFC 5531 §9: the XID, then msg_type CALL */
	if (be32_to_cpup((const __be32 *)call) != hdr->xid ||
	    be32_to_cpup((const __be32 *)call + 1) != RPC_CALL)
		return rpcrdma2_bc_drop(rep, "rpc header");
	/*
	 * Whether the service may have the Call is settled under the lock
	 * ->bc_destroy closes the backchannel with: a Call counted busy
	 * here is one it waits for.
	 */
	spin_lock(&xprt->bc_pa_lock);
	bc_serv = READ_ONCE(xprt->bc_serv);
	rqst = NULL;
	if (!r->rx_bc_open)
		why = "backchannel closed";
	else if (!bc_serv)
		why = "no callback service";
	else
		rqst = list_first_entry_or_null(&xprt->bc_pa_list,
						struct rpc_rqst, rq_bc_pa_list);
	if (rqst) {
		list_del_init(&rqst->rq_bc_pa_list);
		atomic_inc(&r->rx_bc_busy);
	} else if (!why) {
		why = "no free slot";
	}
	spin_unlock(&xprt->bc_pa_lock);
	if (why)
		return rpcrdma2_bc_drop(rep, why);

	br = container_of(rqst, struct rpcrdma2_bc_rqst, br_rqst);
	memcpy(br->br_call, call, hdr->rpc_len);
	rqst->rq_xid = cpu_to_be32(hdr->xid);
	rqst->rq_reply_bytes_recvd = 0;
	br->br_cookie = xprt->connect_cookie;
	memset(&rqst->rq_rcv_buf, 0, sizeof(rqst->rq_rcv_buf));
	rqst->rq_rcv_buf.head[0].iov_base = br->br_call;
	rqst->rq_rcv_buf.head[0].iov_len = hdr->rpc_len;
	rqst->rq_rcv_buf.len = hdr->rpc_len;
	rqst->rq_rcv_buf.buflen = PAGE_SIZE;
	rqst->rq_private_buf = rqst->rq_rcv_buf;
	xdr_buf_init(&rqst->rq_snd_buf, br->br_reply, PAGE_SIZE);

	rpcrdma2_count(r, RPCRDMA2_C_BC_CALLS, 1);
	trace_xprtrdma2_bc_call(&rep->rr_cid, hdr);
	/* dropped by ->bc_free_rqst */
	xprt_get(xprt);
	/* svc_process_bc() takes one off */
	atomic_inc(&xprt->bc_slot_count);
	lwq_enqueue(&rqst->rq_bc_list, &bc_serv->sv_cb_list);
	svc_pool_wake_idle_thread(&bc_serv->sv_pools[0]);
}

/**
 * rpcrdma2_bc_send_reply - send the reply to a reverse-direction Call
 * @r: the transport
 * @rqst: the rqst, its reply XDR-encoded in rq_snd_buf
 *
 * Inline, on the connection the Call came on, in its version (draft
 * §3.2: RPCRDMA2_F_RESPONSE set in v2), granting the server
 * RPCRDMA2_BC_SLOTS reverse-direction credits (RFC 8167 §4.3).
 *
 * The reply takes no forward credit (congestion slot): the server posts
 * Receives for the replies to the reverse Calls it sends, beyond its
 * forward grant, as svcrdma and svcrdma2 do. Holding one would also
 * break the congestion count: a reconnect takes back only the slots of
 * forward requests (xprt_rdma2_reset_cwnd()), and a reply's slot given
 * back after that would take xprt->cong below zero.
 *
 * Error injection may make it return %-ENOTCONN, a reply lost with its
 * connection: tests/vm/lib.sh cb_cut holds replies back so that a Call
 * is outstanding when the link goes.
 *
 * Context: the callback service's transmit, holding the send lock.
 *
 * Return: %0 when posted; %-ENOTCONN when that connection is gone (the
 * server retransmits the Call on the next one); %-ENOBUFS to try again
 * shortly; %-EMSGSIZE if the reply does not fit inline.
 */
int rpcrdma2_bc_send_reply(struct rpcrdma2_xprt *r, struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = &r->rx_xprt;
	struct rpcrdma2_ep *ep = r->rx_ep;
	const struct xdr_buf *xdr = &rqst->rq_snd_buf;
	struct rpcrdma2_bc_rqst *br;
	struct rpcrdma2_hdr hdr = {};
	struct rpcrdma2_sendctx *sc;
	u32 threshold;
	int len, ret;

	br = container_of(rqst, struct rpcrdma2_bc_rqst, br_rqst);
	if (!ep || atomic_read(&ep->re_closing) || !ep->re_vers ||
	    br->br_cookie != xprt->connect_cookie) {
		rpcrdma2_count(r, RPCRDMA2_C_BC_REPLY_ERRORS, 1);
		trace_xprtrdma2_bc_reply(rqst, 0, rqst->rq_snd_buf.len);
		return -ENOTCONN;
	}
	sc = rpcrdma2_sendctx_get(ep);
	if (!sc)
		return -ENOBUFS;
	hdr.xid = be32_to_cpu(rqst->rq_xid);
	hdr.vers = ep->re_vers;
	hdr.credits = RPCRDMA2_BC_SLOTS;
	hdr.htype = RPCRDMA2_HT_MSG;
	if (hdr.vers == RPCRDMA2_VERS_2)
		hdr.flags = RPCRDMA2_F_RESPONSE;
	len = rpcrdma2_encode(&hdr, sc->sc_buf, ep->re_send_size);
	/* the version is fixed, so the thresholds are published */
	threshold = READ_ONCE(r->rx_send_inline);
	if (WARN_ON_ONCE(len < 0) || (u64)len + xdr->len > threshold ||
	    xdr->head[0].iov_len + xdr->page_len + xdr->tail[0].iov_len !=
	    xdr->len) {
		llist_add(&sc->sc_free, &ep->re_send_free);
		rpcrdma2_count(r, RPCRDMA2_C_BC_REPLY_ERRORS, 1);
		return -EMSGSIZE;
	}
	rpcrdma2_copy_from_xdr((u8 *)sc->sc_buf + len, xdr, false);
	trace_xprtrdma2_hdr_send(&hdr);
	trace_xprtrdma2_bc_reply(rqst, hdr.vers, xdr->len);
	ret = rpcrdma2_post_send(ep, sc, len + xdr->len, NULL);
	if (ret == -EAGAIN)
		return -ENOBUFS;
	if (ret)
		return ret;
	rqst->rq_xmit_bytes_sent += xdr->len;
	rpcrdma2_count(r, RPCRDMA2_C_BC_REPLIES, 1);
	return 0;
}
ALLOW_ERROR_INJECTION(rpcrdma2_bc_send_reply, ERRNO);
