// SPDX-License-Identifier: GPL-2.0
/*
 * One RPC-over-RDMA connection on librdmacm and libibverbs, for either
 * side (conn.h). Event channels and completion channels are
 * non-blocking: every wait is a poll() with a deadline, so that a test
 * never hangs on a peer that went quiet.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conn.h"

/* How long to sleep between polls of the Send CQ while a slot drains */
#define SEND_POLL_NS		20000

/* How long teardown waits for the disconnect to complete */
#define DISCONNECT_WAIT_MS	1000

#define LISTEN_BACKLOG		8
#define LISTEN_POLL_MS		1000	/* a wait's slice without an end */

/* A failed completion: said unless the run is quiet (a fuzzer's) */
void conn_note_err(const struct conn *c, const char *fmt, ...)
{
	va_list ap;

	if (c->quiet && !c->verbose)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", tool_name);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
}

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		tool_err("fcntl: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * A non-blocking rdma_cm event channel in *@ec and, unless @id is NULL,
 * an RDMA_PS_TCP id on it in *@id. Whatever was made is left for the
 * caller to destroy, also on failure.
 */
int conn_open(struct rdma_event_channel **ec, struct rdma_cm_id **id)
{
	*ec = rdma_create_event_channel();
	if (!*ec) {
		tool_err("rdma_create_event_channel: %s (is rdma_ucm loaded?)",
			 strerror(errno));
		return -1;
	}
	if (set_nonblock((*ec)->fd))
		return -1;
	if (id && rdma_create_id(*ec, id, NULL, RDMA_PS_TCP)) {
		tool_err("rdma_create_id: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Wait up to @ms for the next CM event on @ec (non-blocking). Returns it
 * (the caller acks it), or NULL with errno ETIMEDOUT on timeout, or EIO
 * on an error, having said why.
 */
struct rdma_cm_event *cm_next(struct rdma_event_channel *ec, int ms)
{
	struct pollfd pfd = { .fd = ec->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	struct timespec dl;
	int rc;

	deadline_in(&dl, ms);
	for (;;) {
		if (!rdma_get_cm_event(ec, &ev))
			return ev;
		if (errno != EAGAIN) {
			tool_err("rdma_get_cm_event: %s", strerror(errno));
			errno = EIO;
			return NULL;
		}
		rc = poll(&pfd, 1, ms_left(&dl));
		if (rc < 0 && errno != EINTR) {
			tool_err("poll: %s", strerror(errno));
			errno = EIO;
			return NULL;
		}
		if (!rc) {
			errno = ETIMEDOUT;
			return NULL;
		}
	}
}

/* Wait for @want; anything else is a failure, described in the message */
static int conn_expect(struct conn *c, enum rdma_cm_event_type want,
		       const char *doing, const char *host, u32 port)
{
	struct rdma_cm_event *ev;
	int status;

	ev = cm_next(c->ec, (int)c->timeout_ms);
	if (!ev) {
		tool_err("%s %s port %u: no answer within %.1f s", doing,
			 host, port, c->timeout_ms / 1000.0);
		return -1;
	}
	if (ev->event == want) {
		if (want == RDMA_CM_EVENT_ESTABLISHED) {
			/*
			 * RFC 8797 §5.2: untrusted, possibly padded (rdma_cm
			 * pads a REP to 196 bytes); the parser searches for
			 * the Format Identifier within the length given.
			 */
			c->peer_len = ev->param.conn.private_data_len;
			c->peer_rc = rpcrdma2_cm_pdata_parse(ev->param.conn.private_data,
							     c->peer_len,
							     &c->peer);
		}
		rdma_ack_cm_event(ev);
		return 0;
	}
	status = ev->status;
	switch (ev->event) {
	case RDMA_CM_EVENT_REJECTED:
		tool_err("%s %s port %u: connection rejected (%s, status %d%s)",
			 doing, host, port, rdma_event_str(ev->event), status,
			 status == 8 ? ": nobody listens on that port" : "");
		break;
	default:
		tool_err("%s %s port %u: %s (status %d)", doing, host, port,
			 rdma_event_str(ev->event), status);
	}
	rdma_ack_cm_event(ev);
	return -1;
}

/* Resolve @host port @port to an address and a route, on c->id */
int conn_resolve(struct conn *c, const char *host, u32 port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *ai;
	char serv[16];
	int rc;

	snprintf(serv, sizeof(serv), "%u", port);
	rc = getaddrinfo(host, serv, &hints, &ai);
	if (rc) {
		tool_err("%s: %s", host, gai_strerror(rc));
		return -1;
	}
	rc = rdma_resolve_addr(c->id, NULL, ai->ai_addr, (int)c->timeout_ms);
	freeaddrinfo(ai);
	if (rc) {
		tool_err("rdma_resolve_addr %s: %s", host, strerror(errno));
		return -1;
	}
	if (conn_expect(c, RDMA_CM_EVENT_ADDR_RESOLVED, "resolving", host, port))
		return -1;
	if (rdma_resolve_route(c->id, (int)c->timeout_ms)) {
		tool_err("rdma_resolve_route %s: %s", host, strerror(errno));
		return -1;
	}
	return conn_expect(c, RDMA_CM_EVENT_ROUTE_RESOLVED, "routing to", host,
			   port);
}

/* PD, CQs, QP and buffers on c->id's device; every Receive posted */
int conn_create(struct conn *c)
{
	struct ibv_qp_init_attr qpa = { 0 };
	size_t bytes;
	u32 i;

	c->pd = ibv_alloc_pd(c->id->verbs);
	if (!c->pd) {
		tool_err("ibv_alloc_pd: %s", strerror(errno));
		return -1;
	}
	c->cc = ibv_create_comp_channel(c->id->verbs);
	if (!c->cc || set_nonblock(c->cc->fd)) {
		tool_err("ibv_create_comp_channel: %s", strerror(errno));
		return -1;
	}
	/*
	 * Receives complete on a CQ we sleep on; Sends on one we only poll,
	 * so that waiting for a free send slot never consumes a Receive.
	 */
	c->recv_cq = ibv_create_cq(c->id->verbs, (int)c->nr_recvs, NULL,
				   c->cc, 0);
	c->send_cq = ibv_create_cq(c->id->verbs, (int)c->nr_send_wrs, NULL,
				   NULL, 0);
	if (!c->recv_cq || !c->send_cq) {
		tool_err("ibv_create_cq: %s", strerror(errno));
		return -1;
	}
	qpa.send_cq = c->send_cq;
	qpa.recv_cq = c->recv_cq;
	qpa.sq_sig_all = 1;
	qpa.qp_type = IBV_QPT_RC;
	qpa.cap.max_send_wr = c->nr_send_wrs;
	qpa.cap.max_recv_wr = c->nr_recvs;
	qpa.cap.max_send_sge = 1;
	qpa.cap.max_recv_sge = 1;
	if (rdma_create_qp(c->id, c->pd, &qpa)) {
		tool_err("rdma_create_qp: %s", strerror(errno));
		return -1;
	}
	bytes = (size_t)(c->nr_recvs + c->nr_sends) * c->size;
	c->buf = aligned_alloc(4096, bytes);
	if (!c->buf) {
		tool_err("out of memory");
		return -1;
	}
	memset(c->buf, 0, bytes);
	c->mr = ibv_reg_mr(c->pd, c->buf, bytes, IBV_ACCESS_LOCAL_WRITE);
	if (!c->mr) {
		tool_err("ibv_reg_mr: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < c->nr_recvs; i++)
		if (conn_post_recv(c, i))
			return -1;
	return 0;
}

/* Connect with our private data @pdata and wait until established */
int conn_connect(struct conn *c, const char *host, u32 port, const u8 *pdata,
		 u8 len)
{
	struct rdma_conn_param cp = { 0 };

	cp.private_data = pdata;
	cp.private_data_len = len;
	/* room for the RDMA Reads a later Long Call would need */
	cp.responder_resources = 1;
	cp.initiator_depth = 1;
	cp.retry_count = 7;
	cp.rnr_retry_count = 7;
	if (rdma_connect(c->id, &cp)) {
		tool_err("rdma_connect: %s", strerror(errno));
		return -1;
	}
	if (conn_expect(c, RDMA_CM_EVENT_ESTABLISHED, "connecting to", host,
			port))
		return -1;
	c->connected = true;
	return 0;
}

/*
 * Bind and listen on o->bind (NULL: every IPv4 address) and o->port,
 * until o->listen_ms from now (0: for ever). Whatever was made is left
 * for listener_stop(), also on failure.
 */
int listener_start(struct listener *ls, const struct listen_opts *o)
{
	struct addrinfo hints = {
		.ai_family = o->bind ? AF_UNSPEC : AF_INET,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV,
	};
	struct addrinfo *ai;
	char serv[16];
	int rc;

	ls->o = o;
	if (o->listen_ms)
		deadline_in(&ls->end, o->listen_ms);
	if (conn_open(&ls->ec, &ls->id))
		return -1;
	snprintf(serv, sizeof(serv), "%u", o->port);
	rc = getaddrinfo(o->bind, serv, &hints, &ai);
	if (rc) {
		tool_err("--bind %s: %s", o->bind ? o->bind : "",
			 gai_strerror(rc));
		return -1;
	}
	rc = rdma_bind_addr(ls->id, ai->ai_addr);
	freeaddrinfo(ai);
	if (rc || rdma_listen(ls->id, LISTEN_BACKLOG)) {
		tool_err("listening on %s port %u: %s", o->bind ? o->bind : "*",
			 o->port, strerror(errno));
		return -1;
	}
	return 0;
}

/* The wait until --timeout, or one slice of waiting without it */
void listener_deadline(const struct listener *ls, struct timespec *dl)
{
	if (ls->o->listen_ms)
		*dl = ls->end;
	else
		deadline_in(dl, LISTEN_POLL_MS);
}

/*
 * The next message on a served connection @c, waiting until --timeout
 * (-ETIMEDOUT) or for ever: conn_next_recv()'s return.
 */
int listener_recv(const struct listener *ls, struct conn *c,
		  struct ibv_wc *wc)
{
	struct timespec dl;
	int rc;

	do {
		listener_deadline(ls, &dl);
		rc = conn_next_recv(c, &dl, wc);
	} while (rc == -ETIMEDOUT && !ls->o->listen_ms);
	return rc;
}

/*
 * The next connection request. NULL, with @why set, at --timeout
 * ("--timeout") or on an error. With @report, other events are printed,
 * and the device going away ends the wait.
 */
struct rdma_cm_event *listener_next(struct listener *ls, bool report,
				    const char **why)
{
	struct rdma_cm_event *ev;
	struct timespec dl;

	for (;;) {
		listener_deadline(ls, &dl);
		ev = cm_next(ls->ec, ms_left(&dl));
		if (!ev && errno == ETIMEDOUT) {
			if (ls->o->listen_ms && !ms_left(&ls->end)) {
				*why = "--timeout";
				return NULL;
			}
			continue;
		}
		if (!ev) {
			*why = "an error";
			return NULL;
		}
		if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
			return ev;
		if (report)
			printf("listen: %s (status %d)\n",
			       rdma_event_str(ev->event), ev->status);
		if (report && ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL) {
			rdma_ack_cm_event(ev);
			*why = "the device went away";
			return NULL;
		}
		rdma_ack_cm_event(ev);
	}
}

/* The line tests wait for: listening, and how */
void listener_print(const struct listener *ls, const char *mode, u32 grant)
{
	const struct listen_opts *o = ls->o;

	printf("listening on %s port %u, mode %s, grant %u, buffers %u\n",
	       o->bind ? o->bind : "*", o->port, mode, grant, o->size);
}

void listener_stop(struct listener *ls)
{
	if (ls->id)
		rdma_destroy_id(ls->id);
	if (ls->ec)
		rdma_destroy_event_channel(ls->ec);
}

/*
 * A fresh connection @c for the request @ev: its id and private data,
 * --credits + SPARE_RECVS Receives and @nr_sends send slots of --size.
 */
void listener_take(const struct listener *ls, struct rdma_cm_event *ev,
		   struct conn *c, u32 nr_sends)
{
	const struct listen_opts *o = ls->o;

	memset(c, 0, sizeof(*c));
	c->size = o->size;
	c->timeout_ms = o->timeout_ms;
	c->verbose = o->verbose;
	c->nr_recvs = o->credits + SPARE_RECVS;
	c->nr_sends = nr_sends;
	c->nr_send_wrs = nr_sends;
	c->id = ev->id;
	/* RFC 8797 §5.2: untrusted and padded; the parser searches */
	c->peer_len = ev->param.conn.private_data_len;
	c->peer_rc = rpcrdma2_cm_pdata_parse(ev->param.conn.private_data,
					     c->peer_len, &c->peer);
	rdma_ack_cm_event(ev);
}

/*
 * Give the requested connection its own event channel (so that serving
 * it never takes a connection request off the listening one), its QP and
 * Receives, then accept it with @pdata. conn_established() waits for it.
 */
int conn_accept(struct conn *c, const u8 *pdata, u8 len, u8 initiator_depth)
{
	struct rdma_conn_param cp = { 0 };

	if (conn_open(&c->ec, NULL))
		goto out_reject;
	if (rdma_migrate_id(c->id, c->ec)) {
		tool_err("rdma_migrate_id: %s", strerror(errno));
		goto out_reject;
	}
	if (conn_create(c))
		goto out_reject;
	cp.private_data = pdata;
	cp.private_data_len = len;
	cp.retry_count = 7;
	cp.rnr_retry_count = 7;
	cp.initiator_depth = initiator_depth;
	if (rdma_accept(c->id, &cp)) {
		tool_err("rdma_accept: %s", strerror(errno));
		return -1;
	}
	return 0;

out_reject:
	rdma_reject(c->id, NULL, 0);
	return -1;
}

/*
 * Wait for an accepted connection to be established: 0, or -1 with
 * @why saying what came instead (" within S s", ": EVENT (status N)").
 */
int conn_established(struct conn *c, char *why, size_t whylen)
{
	struct rdma_cm_event *ev;
	int ok;

	ev = cm_next(c->ec, (int)c->timeout_ms);
	if (!ev) {
		snprintf(why, whylen, " within %.1f s", c->timeout_ms / 1000.0);
		return -1;
	}
	ok = ev->event == RDMA_CM_EVENT_ESTABLISHED;
	if (!ok)
		snprintf(why, whylen, ": %s (status %d)",
			 rdma_event_str(ev->event), ev->status);
	rdma_ack_cm_event(ev);
	if (!ok)
		return -1;
	c->connected = true;
	return 0;
}

u8 *conn_send_buf(struct conn *c, u32 slot)
{
	return c->buf + (size_t)(c->nr_recvs + slot) * c->size;
}

u8 *conn_recv_buf(struct conn *c, u32 idx)
{
	return c->buf + (size_t)idx * c->size;
}

int conn_post_recv(struct conn *c, u32 idx)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)conn_recv_buf(c, idx),
		.length = c->size,
		.lkey = c->mr->lkey,
	};
	struct ibv_recv_wr wr = {
		.wr_id = idx,
		.sg_list = &sge,
		.num_sge = 1,
	};
	struct ibv_recv_wr *bad;
	int rc;

	/* --no-repost: the peer's messages meet RNR NAKs, retried forever */
	if (c->no_repost)
		return 0;
	rc = ibv_post_recv(c->id->qp, &wr, &bad);
	if (rc) {
		tool_err("ibv_post_recv: %s", strerror(rc));
		return -1;
	}
	return 0;
}

/*
 * Post the Send of @len bytes from send slot @slot, behind @pre (memory
 * registration work requests, or NULL) on the same Send Queue; with
 * @inv_rkey, as a Send With Invalidate of that key (the responder's).
 */
int conn_post_send(struct conn *c, u32 slot, u32 len, struct ibv_send_wr *pre,
		   const u32 *inv_rkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)conn_send_buf(c, slot),
		.length = len,
		.lkey = c->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = slot,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	};
	struct ibv_send_wr *bad, *last;
	int rc;

	if (inv_rkey) {
		wr.opcode = IBV_WR_SEND_WITH_INV;
		wr.invalidate_rkey = *inv_rkey;
	}
	if (c->verbose)
		print_hex("sent", conn_send_buf(c, slot), len);
	for (last = pre; last && last->next; last = last->next)
		;
	if (last)
		last->next = &wr;
	rc = ibv_post_send(c->id->qp, pre ? pre : &wr, &bad);
	if (rc) {
		tool_err("ibv_post_send: %s", strerror(rc));
		return -1;
	}
	c->send_busy[slot] = true;
	return 0;
}

/*
 * One signaled work request other than a Send (an RDMA Read, a Write With
 * Immediate), in send slot @slot's place; its scatter list, if any,
 * points into that slot's buffer.
 */
int conn_post_wr(struct conn *c, u32 slot, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	int rc;

	wr->wr_id = slot;
	wr->send_flags = IBV_SEND_SIGNALED;
	rc = ibv_post_send(c->id->qp, wr, &bad);
	if (rc) {
		tool_err("ibv_post_send (opcode %d): %s", wr->opcode,
			 strerror(rc));
		return -1;
	}
	c->send_busy[slot] = true;
	return 0;
}

/* A CM event while we wait for messages: only a disconnect is expected */
static int drain_cm(struct conn *c)
{
	struct rdma_cm_event *ev;

	while (!rdma_get_cm_event(c->ec, &ev)) {
		if (ev->event == RDMA_CM_EVENT_DISCONNECTED)
			c->disconnected = true;
		else if (c->verbose)
			printf("cm event: %s\n", rdma_event_str(ev->event));
		rdma_ack_cm_event(ev);
	}
	return c->disconnected ? -1 : 0;
}

/* A failed Receive completion: the QP is in the error state */
static void conn_recv_failed(struct conn *c, const struct ibv_wc *wc)
{
	c->qp_failed = true;
	c->recv_failed = true;
	c->fail_status = wc->status;
	conn_note_err(c, "Receive completion failed: %s (vendor error 0x%x)",
		      ibv_wc_status_str(wc->status), wc->vendor_err);
}

/*
 * A Send was flushed: the QP went to the error state, maybe because a
 * Receive failed (a Send With Invalidate of a bad key, say) before the
 * Send's ACK came back. That failure is on the Receive queue, queued
 * before the flush; report it as the cause. The connection is lost
 * either way, so what else the Receive queue holds is dropped.
 */
static bool conn_recv_cause(struct conn *c)
{
	struct ibv_wc wc;

	while (ibv_poll_cq(c->recv_cq, 1, &wc) > 0) {
		if (wc.status != IBV_WC_SUCCESS &&
		    wc.status != IBV_WC_WR_FLUSH_ERR) {
			conn_recv_failed(c, &wc);
			return true;
		}
	}
	return false;
}

/* Free the send slots whose Sends have completed; -1 if one failed */
int conn_reap(struct conn *c)
{
	struct ibv_wc wc;
	int n;

	while ((n = ibv_poll_cq(c->send_cq, 1, &wc)) > 0) {
		if (wc.status != IBV_WC_SUCCESS) {
			if (wc.status == IBV_WC_WR_FLUSH_ERR &&
			    conn_recv_cause(c))
				return -1;
			c->qp_failed = true;
			c->fail_status = wc.status;
			conn_note_err(c, "%s completion failed: %s (vendor error 0x%x)",
				      wc.wr_id & WRID_MEM ? "Memory window" : "Send",
				      ibv_wc_status_str(wc.status), wc.vendor_err);
			return -1;
		}
		if (!(wc.wr_id & WRID_MEM))
			c->send_busy[wc.wr_id] = false;
	}
	if (n < 0) {
		tool_err("ibv_poll_cq failed");
		return -1;
	}
	return 0;
}

/*
 * Wait until @dl for the next received message. Returns 0 with @wc set
 * to a successful Receive, -ETIMEDOUT, -ECONNRESET when the peer
 * disconnected, or -EIO.
 */
int conn_next_recv(struct conn *c, const struct timespec *dl,
		   struct ibv_wc *wc)
{
	struct pollfd pfd[2] = {
		{ .fd = c->cc->fd, .events = POLLIN },
		{ .fd = c->ec->fd, .events = POLLIN },
	};
	struct ibv_cq *cq;
	void *ctx;
	int n;

	for (;;) {
		if (conn_reap(c))
			return -EIO;
		n = ibv_poll_cq(c->recv_cq, 1, wc);
		if (n < 0) {
			tool_err("ibv_poll_cq failed");
			return -EIO;
		}
		if (n) {
			if (wc->status == IBV_WC_SUCCESS)
				return 0;
			conn_recv_failed(c, wc);
			return -EIO;
		}
		if (!c->cq_armed) {
			if (ibv_req_notify_cq(c->recv_cq, 0)) {
				tool_err("ibv_req_notify_cq failed");
				return -EIO;
			}
			c->cq_armed = true;
			continue;	/* poll once more: no lost wakeup */
		}
		if (drain_cm(c))
			return -ECONNRESET;
		n = poll(pfd, 2, ms_left(dl));
		if (n < 0 && errno != EINTR) {
			tool_err("poll: %s", strerror(errno));
			return -EIO;
		}
		if (!n)
			return -ETIMEDOUT;
		if (pfd[0].revents && !ibv_get_cq_event(c->cc, &cq, &ctx)) {
			ibv_ack_cq_events(cq, 1);
			c->cq_armed = false;
		}
	}
}

/* A send slot its user does not hold and whose last Send completed */
int conn_free_slot(const struct conn *c)
{
	u32 i;

	for (i = 0; i < c->nr_sends; i++)
		if (!c->held[i] && !c->send_busy[i])
			return (int)i;
	return -1;
}

/* 0 once every Send posted has completed, else -1 */
static int sends_done(const struct conn *c)
{
	u32 i;

	for (i = 0; i < c->nr_sends; i++)
		if (c->send_busy[i])
			return -1;
	return 0;
}

/*
 * Poll the Send CQ until @ready finds what it looks for (its value, >= 0)
 * or the timeout passes (-1, with @what in the error).
 */
static int poll_sends(struct conn *c, int (*ready)(const struct conn *c),
		      const char *what)
{
	const struct timespec nap = { .tv_nsec = SEND_POLL_NS };
	struct timespec dl;
	int ret;

	deadline_in(&dl, c->timeout_ms);
	for (;;) {
		if (conn_reap(c))
			return -1;
		ret = ready(c);
		if (ret >= 0)
			return ret;
		if (!ms_left(&dl)) {
			tool_err("%s within %.1f s", what,
				 c->timeout_ms / 1000.0);
			return -1;
		}
		nanosleep(&nap, NULL);
	}
}

/* A free send slot, waiting for a Send to complete if need be */
int conn_wait_slot(struct conn *c)
{
	return poll_sends(c, conn_free_slot, "no Send completed");
}

/* conn_wait_slot() in *@slot, and its buffer; NULL if none came free */
u8 *conn_slot_buf(struct conn *c, int *slot)
{
	*slot = conn_wait_slot(c);
	return *slot < 0 ? NULL : conn_send_buf(c, (u32)*slot);
}

/*
 * Wait until every Send posted has completed (for an RC QP: the peer
 * has the message), within the timeout.
 */
int conn_wait_sends(struct conn *c)
{
	return poll_sends(c, sends_done, "a Send did not complete");
}

/**
 * conn_wait_disconnected - wait for the peer's disconnect
 * @c: the connection
 * @ms: for up to this long
 *
 * Return: milliseconds until RDMA_CM_EVENT_DISCONNECTED came (and
 * @c->disconnected is set), or -1 if it did not within @ms.
 */
long conn_wait_disconnected(struct conn *c, u32 ms)
{
	struct rdma_cm_event *ev;
	struct timespec t0, dl;

	now(&t0);
	deadline_in(&dl, ms);
	while (!c->disconnected && (ev = cm_next(c->ec, ms_left(&dl)))) {
		if (ev->event == RDMA_CM_EVENT_DISCONNECTED)
			c->disconnected = true;
		rdma_ack_cm_event(ev);
	}
	if (!c->disconnected)
		return -1;
	now(&dl);
	return (long)ms_between(&t0, &dl);
}

/* Disconnect (unless the peer did) and destroy the QP */
void conn_close(struct conn *c)
{
	if (c->connected && !c->disconnected && !rdma_disconnect(c->id))
		conn_wait_disconnected(c, DISCONNECT_WAIT_MS);
	if (c->id && c->id->qp)
		rdma_destroy_qp(c->id);
}

/* The rest of what conn_close() left, in reverse order of making */
void conn_free(struct conn *c)
{
	if (c->mr)
		ibv_dereg_mr(c->mr);
	free(c->buf);
	if (c->send_cq)
		ibv_destroy_cq(c->send_cq);
	if (c->recv_cq)
		ibv_destroy_cq(c->recv_cq);
	if (c->cc)
		ibv_destroy_comp_channel(c->cc);
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	if (c->id)
		rdma_destroy_id(c->id);
	if (c->ec)
		rdma_destroy_event_channel(c->ec);
}
