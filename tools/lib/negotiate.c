// SPDX-License-Identifier: GPL-2.0
/*
 * The requester's connection and exchange (negotiate.h): connect with
 * RFC 8797 private data, negotiate the transport version with RPC NULL
 * (draft v2 §7), take the server's RDMA2_CONNPROP and send ours, and
 * sort every received message into a reply to one of our calls, an
 * ERR_VERS, or something a requester discards (RFC 8166 §4.5).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "negotiate.h"
#include "rpcrdma2-print.h"

void ping_opts_init(struct ping_opts *o)
{
	*o = (struct ping_opts){
		.port = DEF_PORT,
		.vers = RPCRDMA2_VERS_2,
		.count = DEF_COUNT,
		.window = DEF_WINDOW,
		.credits = DEF_CREDITS,
		.size = DEF_SIZE,
		.nfs_vers = DEF_NFS_VERS,
		.timeout_ms = DEF_TIMEOUT_MS,
		.write_len = CHUNK_WRITE_SIZE,
		.nfs = {
			.read_count = CHUNK_WRITE_SIZE,
			.w2_len = { 5001, 3002 },
		},
	};
}

/* A fresh requester for @o with @nr_sends send slots */
void ping_init(struct ping *p, const struct ping_opts *o, u32 nr_sends,
	       u32 nr_send_wrs)
{
	memset(p, 0, sizeof(*p));
	p->opts = o;
	p->c.size = o->size;
	p->c.timeout_ms = o->timeout_ms;
	p->c.verbose = o->verbose;
	p->c.nr_recvs = o->credits + SPARE_RECVS;
	p->c.nr_sends = nr_sends;
	p->c.nr_send_wrs = nr_send_wrs;
	p->first_vers = o->vers;
}

/*
 * What a connection's setup and NULL exchange print. A fuzzer reconnects
 * hundreds of times and keeps them quiet unless --verbose.
 */
static bool chatty(const struct ping *p)
{
	return !p->c.quiet || p->opts->verbose;
}

void note(const struct ping *p, const char *fmt, ...)
{
	va_list ap;

	if (!chatty(p))
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static int connect_peer(struct ping *p)
{
	const struct ping_opts *o = p->opts;
	u8 pdata[RPCRDMA2_CM_PDATA_SIZE];

	/*
	 * RFC 8797 §4: R set when every handle we expose may be
	 * invalidated (our_reminv()), our Send and Receive sizes are our
	 * buffer size.
	 */
	if (rpcrdma2_cm_pdata_build(pdata, sizeof(pdata), our_reminv(o),
				    o->size, adv_recv_size(o)) !=
	    RPCRDMA2_CM_PDATA_SIZE) {
		tool_err("cannot build CM private data");
		return -1;
	}
	return conn_connect(&p->c, o->host, o->port, pdata, sizeof(pdata));
}

/* Connect to the server: everything up to an established connection */
int ping_setup(struct ping *p)
{
	struct rpcrdma2_limits lim = {
		.max_read_chunks = LIM_CHUNKS,
		.max_write_chunks = LIM_CHUNKS,
		.max_segs = LIM_SEGS,
	};

	if (rpcrdma2_chunk_lists_init(&p->rhdr.cl, &lim, p->reads,
				      ARRAY_SIZE(p->reads), p->read_chunks,
				      ARRAY_SIZE(p->read_chunks), p->writes,
				      ARRAY_SIZE(p->writes), p->segs,
				      ARRAY_SIZE(p->segs))) {
		tool_err("decoder limits do not fit");
		return -1;
	}
	if (conn_open(&p->c.ec, &p->c.id) ||
	    conn_resolve(&p->c, p->opts->host, p->opts->port) ||
	    conn_create(&p->c))
		return -1;
	p->scratch = malloc(CHUNK_CALL_MAX);
	if (!p->scratch) {
		tool_err("out of memory");
		return -1;
	}
	if ((uses_chunks(p->opts) && create_chunk_memory(p)) ||
	    connect_peer(p))
		return -1;
	return 0;
}

/*
 * --hold: our QP has failed and the server has not disconnected. Leave
 * the connection up and wait for the server to end it, so that a test
 * sees whether its transport notices a QP error that no CM event
 * reports (RFC 8166 §4.5.3 wants the connection closed).
 */
static void ping_hold(struct ping *p)
{
	long ms = conn_wait_disconnected(&p->c, p->opts->hold_ms);

	if (ms >= 0)
		printf("hold: the server disconnected %ld ms after our QP failed\n",
		       ms);
	else
		printf("hold: the server did not disconnect within %u ms\n",
		       p->opts->hold_ms);
}

/* Undo whatever ping_setup() got done, in reverse order */
void ping_teardown(struct ping *p)
{
	struct conn *c = &p->c;

	if (c->connected && !c->disconnected && c->qp_failed &&
	    p->opts->hold_ms)
		ping_hold(p);
	conn_close(c);
	free_chunk_memory(p);
	free(p->scratch);
	conn_free(c);
}

static struct ping_call *find_call(struct ping *p, u32 xid)
{
	u32 i;

	for (i = 0; i < p->c.nr_sends; i++)
		if (p->c.held[i] && p->calls[i].xid == xid)
			return &p->calls[i];
	return NULL;
}

/*
 * Is this decoded RDMA_MSG / RDMA_NOMSG (@m, its bytes) a reply rather
 * than a Call? v2 says so in rdma_flags (draft v2 §3.2); v1 only in the
 * RPC msg_type, or by a NOMSG without the Position-Zero Read chunk of a
 * Long Call (RFC 8166 §3.5.3). svcrdma2's test (recvfrom.c): it drops
 * these, the wire fuzzer predicts that and the listener drops them too.
 */
bool is_reverse_reply(const struct rpcrdma2_hdr *h, const u8 *m)
{
	const struct rpcrdma2_chunk_lists *cl = &h->cl;
	u32 i;

	if (h->vers == RPCRDMA2_VERS_2)
		return h->flags & RPCRDMA2_F_RESPONSE;
	if (h->htype == RPCRDMA2_V1_RDMA_NOMSG) {
		for (i = 0; i < cl->nr_reads; i++)
			if (!cl->reads[i].position)
				return false;
		return true;
	}
	if (h->rpc_len < 8)
		return false;
	return get32(m + h->hdr_len + 4) != RPC_CALL;
}

/*
 * draft v2 §5.3.4: the server's properties. Also say where it came
 * (before or after the first reply granted credits) and how its fixed
 * words were filled in, which the draft leaves open.
 */
void record_connprop(struct ping *p, const struct rpcrdma2_hdr *h)
{
	if (p->on_connprop)
		p->on_connprop(p, p->have_props);
	if (p->have_props)
		note(p, "connprop: another RDMA2_CONNPROP on this connection\n");
	p->have_props = true;
	p->props = h->props;
	note(p, "connprop: RBSIZ %u (%s), BRS RDMA2_RVREQSUP_%s (%s), credit field %u\n",
	     h->props.rbsiz, prop_state(&h->props, RPCRDMA2_PROPF_RBSIZ),
	     brs_name(h->props.brs),
	     prop_state(&h->props, RPCRDMA2_PROPF_BRS), h->credits);
	note(p, "connprop: xid 0x%08x, flags 0x%08x%s, %s the first reply\n",
	     h->xid, h->flags,
	     h->flags & RPCRDMA2_F_RESPONSE ? " RESPONSE" : "",
	     p->granted ? "after" : "before");
}

/* RFC 8166 §4.5: a requester silently discards a reply in error */
static int discard(struct ping *p, const struct rpcrdma2_hdr *h,
		   const char *why)
{
	p->discarded++;
	tool_err("discarded a %s with xid 0x%08x: %s",
		 rpcrdma2_htype_name(h->vers, h->htype), h->xid, why);
	return 0;
}

/*
 * Classify one received message for the ping exchange. Returns 0 with
 * @msg filled in, or -1 on a failure that ends the run (said already).
 * Messages a requester discards (RFC 8166 §4.5) are counted, reported and
 * returned as RX_OTHER.
 */
int classify(struct ping *p, const u8 *m, u32 len, struct ping_msg *msg)
{
	struct rpcrdma2_hdr *h = &p->rhdr;
	struct rpcrdma2_reject rej;
	struct ping_call *call;
	char why[128];
	int rc;

	memset(msg, 0, sizeof(*msg));
	msg->kind = RX_OTHER;
	rc = rpcrdma2_decode(m, len, h, &rej);
	if (p->opts->verbose) {
		print_hex("received", m, len);
		if (len >= RPCRDMA2_FIXED_SIZE)
			print_hdr("  ", h, !rc);
		if (rc)
			printf("  codec: rejected, %s, reason %s\n",
			       rej.discard ? "discard" : "error reply",
			       rpcrdma2_reason_name(rej.reason));
	}
	if (rc) {
		if (p->on_stray) {
			p->on_stray(p, m, len);
			return 0;
		}
		p->discarded++;
		tool_err("discarded a %u-byte message the codec rejects (%s)", len,
			 rpcrdma2_reason_name(rej.reason));
		return 0;
	}

	if (h->vers == RPCRDMA2_VERS_2 && h->htype == RPCRDMA2_HT_CONNPROP) {
		record_connprop(p, h);
		return 0;
	}
	call = find_call(p, h->xid);
	if (!call && p->on_stray) {
		p->on_stray(p, m, len);
		return 0;
	}
	/*
	 * draft v2 §3.2: RPCRDMA2_F_RESPONSE clear marks a Call from the
	 * server, whose XID is the server's, whatever call of ours it may
	 * look like. Our RDMA2_CONNPROP said BRS NONE: we take none. (An
	 * RDMA2_ERROR decodes only with it set, or as the flagless RFC 8166
	 * layout of ERR_VERS.)
	 */
	if (h->vers == RPCRDMA2_VERS_2 && h->htype != RPCRDMA2_HT_ERROR &&
	    !(h->flags & RPCRDMA2_F_RESPONSE))
		return discard(p, h, "RPCRDMA2_F_RESPONSE clear: a reverse Call");
	if (!call)
		return discard(p, h, "no such call outstanding");
	msg->call = call;
	/*
	 * draft v2 §7.3: replies come in the version of the Call, and an
	 * error copies the Call's rdma_vers (RFC 8166 §4.5, draft v2
	 * §5.3.3). Any other is a header in error, which a requester
	 * silently discards (RFC 8166 §4.5): the call stays outstanding.
	 */
	if (h->vers != call->vers) {
		snprintf(why, sizeof(why), "version %u, its call's is %u",
			 h->vers, call->vers);
		return discard(p, h, why);
	}
	if (h->htype == RPCRDMA2_HT_ERROR) {
		if (h->err.code != RPCRDMA2_ERR_VERS) {
			tool_err("xid 0x%08x: server answered %s %s", h->xid,
				 rpcrdma2_htype_name(h->vers, h->htype),
				 rpcrdma2_errcode_name(h->vers, h->err.code));
			print_error_arm("error ", h->vers, &h->err);
			return -1;
		}
		msg->kind = RX_ERR_VERS;
		msg->vers_low = h->err.vers.low;
		msg->vers_high = h->err.vers.high;
		msg->legacy_layout = h->err.v1_layout;
		return 0;
	}
	if (check_reply(p, call, h, m, why, sizeof(why))) {
		tool_err("xid 0x%08x: %s", h->xid, why);
		return -1;
	}
	msg->kind = RX_REPLY;
	msg->credits = h->credits;
	/*
	 * RFC 8166 §3.3.1: a grant "MUST NOT be zero, since such a value
	 * would result in deadlock". The reply itself is good: take it and
	 * one credit, as the in-tree client does (rpc_rdma.c).
	 */
	if (!h->credits) {
		if (!p->zero_grants++)
			note(p, "note: a grant of 0 credits (RFC 8166 §3.3.1) taken as 1\n");
		msg->credits = 1;
	}
	return 0;
}

/*
 * draft v2 §5.3.4: once version 2 is settled, our properties: RBSIZ is
 * our Receive buffer size, BRS none (we serve no reverse-direction
 * calls). The requester sends it right after the first reply, not first:
 * a v1-only server answers it ERR_VERS, and only a reply to a call tells
 * the client its version (§7); it carries our credit request and no
 * flags. The listener sends it before its first reply, with its grant
 * and RPCRDMA2_F_RESPONSE (§3.2), as svcrdma2 does. @rbsiz: the receive
 * size we advertise.
 */
int send_connprop(struct conn *c, u32 credits, u32 flags, u32 rbsiz)
{
	int slot, hl;

	slot = conn_wait_slot(c);
	if (slot < 0)
		return -1;
	hl = encode_connprop(c, (u32)slot, credits, flags, rbsiz);
	if (hl < 0)
		return -1;
	if (!c->quiet || c->verbose)
		printf("connprop sent: RBSIZ %u, BRS RDMA2_RVREQSUP_NONE\n",
		       rbsiz);
	return conn_post_send(c, (u32)slot, (u32)hl, NULL, NULL);
}

/* Our RDMA2_CONNPROP into send slot @slot; its length, or -1 */
int encode_connprop(struct conn *c, u32 slot, u32 credits, u32 flags,
		    u32 rbsiz)
{
	struct rpcrdma2_limits none = { 0 };
	struct rpcrdma2_hdr h = { 0 };
	int hl;

	rpcrdma2_chunk_lists_init(&h.cl, &none, NULL, 0, NULL, 0, NULL, 0, NULL,
				  0);
	h.vers = RPCRDMA2_VERS_2;
	h.credits = credits;
	h.htype = RPCRDMA2_HT_CONNPROP;
	h.flags = flags;
	h.props.present = RPCRDMA2_PROPF_RBSIZ | RPCRDMA2_PROPF_BRS;
	h.props.rbsiz = rbsiz;
	h.props.brs = RPCRDMA2_RVREQSUP_NONE;
	hl = rpcrdma2_encode(&h, conn_send_buf(c, slot), c->size);
	if (hl < 0) {
		tool_err("cannot encode RDMA2_CONNPROP: %s", strerror(-hl));
		return -1;
	}
	return hl;
}

/*
 * A reply by Send With Invalidate must invalidate the handle its call
 * offered for that (RFC 8797 §4.1: a handle of that XID only; draft v2
 * §3.3: rdma_inv_handle). With --inv every reply must come that way
 * whenever the server may send it: in v2 always, in v1 when both R bits
 * are set.
 */
static int check_invalidation(struct ping *p, const struct ping_msg *msg,
			      bool inv, u32 rkey)
{
	const struct ping_call *call = msg->call;
	bool may;

	if (inv && (!call || !call->inv_offered || rkey != call->handle)) {
		tool_err("a message arrived invalidating 0x%08x, which %s",
			 rkey, call && call->inv_offered ?
			 "its call did not name" : "we never offered");
		return -1;
	}
	may = call && call->vers == RPCRDMA2_VERS_2 ? true :
	      rpcrdma2_cm_pdata_reminv_ok(p->c.peer_rc ? NULL : &p->c.peer,
					  our_reminv(p->opts));
	if (inv) {
		p->mw_bound[call - p->calls] = false;
		p->invalidated++;
		/* the in-tree svcrdma does so; the handle was ours to lose */
		if (!may && !p->inv_unasked++)
			note(p, "note: %s although its R bit is clear (RFC 8797 §4.1)\n",
			     "the server used Send With Invalidate");
		return 0;
	}
	if (msg->kind == RX_REPLY && call->inv_offered && may) {
		tool_err("xid 0x%08x: the reply did not invalidate 0x%08x",
			 call->xid, call->handle);
		return -1;
	}
	return 0;
}

/*
 * Wait for the next message that concerns one of our calls, handling
 * the rest (CONNPROP, discards) on the way, and repost its Receive.
 */
int wait_msg(struct ping *p, struct ping_msg *msg)
{
	struct timespec dl;
	struct ibv_wc wc;
	bool inv;
	u32 idx;
	int rc;

	deadline_in(&dl, p->opts->timeout_ms);
	for (;;) {
		rc = conn_next_recv(&p->c, &dl, &wc);
		if (rc == -ETIMEDOUT) {
			conn_note_err(&p->c, "no reply within %.1f s%s",
				      p->opts->timeout_ms / 1000.0,
				      p->discarded ? " (messages were discarded)" : "");
			return -1;
		}
		if (rc == -ECONNRESET) {
			conn_note_err(&p->c, "the server disconnected");
			return -1;
		}
		if (rc)
			return -1;
		/*
		 * rxe reports Send With Invalidate with the kernel's
		 * IB_WC_WITH_INVALIDATE bit (1 << 2, libibverbs'
		 * IBV_WC_IP_CSUM_OK), never IBV_WC_WITH_INV: accept both.
		 */
		inv = wc.wc_flags & (IBV_WC_WITH_INV | IBV_WC_IP_CSUM_OK);
		idx = (u32)wc.wr_id;
		rc = classify(p, conn_recv_buf(&p->c, idx), wc.byte_len, msg);
		if (conn_post_recv(&p->c, idx) || rc ||
		    check_invalidation(p, msg, inv, wc.invalidated_rkey))
			return -1;
		if (msg->kind != RX_OTHER)
			return 0;
	}
}

/* Thresholds once the version is known (RFC 8797 §4.2, draft v2 §7) */
static void set_thresholds(struct ping *p)
{
	u32 def = p->vers == RPCRDMA2_VERS_2 ? RPCRDMA2_V2_DEF_INLINE :
		  RPCRDMA2_V1_DEF_INLINE;

	rpcrdma2_cm_pdata_negotiate(p->c.peer_rc ? NULL : &p->c.peer,
				    p->opts->size, adv_recv_size(p->opts), def,
				    &p->send_thresh, &p->recv_thresh);
}

void reply_done(struct ping *p, struct ping_call *call,
		const struct ping_msg *msg, double *rtt)
{
	struct timespec t;

	now(&t);
	*rtt = ms_between(&call->t0, &t);
	p->c.held[call - p->calls] = false;
	p->replies++;
	p->granted = msg->credits;
}

/*
 * draft v2 §7: one message until a valid non-error reply grants credits.
 * ERR_VERS to a version 2 call whose range includes 1 switches this
 * connection to version 1 and sends the call again.
 */
int negotiate_version(struct ping *p)
{
	const struct ping_opts *o = p->opts;
	struct ping_msg msg;
	double rtt;
	int slot;

	p->vers = p->first_vers;
	for (;;) {
		note(p, "negotiate: NULL call as %s, rdma_vers %u\n",
		     rpcrdma2_htype_name(p->vers, RPCRDMA2_HT_MSG), p->vers);
		slot = conn_wait_slot(&p->c);
		if (slot < 0 || send_call(p, (u32)slot, p->vers, 0, false) ||
		    wait_msg(p, &msg))
			return -1;
		if (msg.kind == RX_REPLY)
			break;
		p->c.held[msg.call - p->calls] = false;
		note(p, "negotiate: ERR_VERS, server supports versions %u..%u%s\n",
		     msg.vers_low, msg.vers_high,
		     msg.legacy_layout ? " (RFC 8166 layout)" : "");
		if (p->vers == RPCRDMA2_VERS_2 && !p->fell_back &&
		    msg.vers_low <= RPCRDMA2_VERS_1 &&
		    msg.vers_high >= RPCRDMA2_VERS_1) {
			note(p, "fallback: version 2 -> 1 on this connection\n");
			p->vers = RPCRDMA2_VERS_1;
			p->fell_back = true;
			continue;
		}
		tool_err("no transport version in common: we speak %u..%u, the server %u..%u",
			 RPCRDMA2_VERS_1, o->vers, msg.vers_low, msg.vers_high);
		return -1;
	}
	reply_done(p, msg.call, &msg, &rtt);
	set_thresholds(p);
	p->negotiated = true;
	p->c.no_repost = o->no_repost;
	if (p->vers == RPCRDMA2_VERS_2 && !p->no_connprop &&
	    send_connprop(&p->c, o->credits, 0, adv_recv_size(o)))
		return -1;
	note(p, "negotiate: NULL reply in %.3f ms\n", rtt);
	note(p, "version: %u%s\n", p->vers,
	     p->fell_back ? " (fell back from 2)" : "");
	note(p, "inline threshold: send %u, receive %u\n", p->send_thresh,
	     p->recv_thresh);
	note(p, "remote invalidation: ours %s, server's %s: %s\n",
	     our_reminv(o) ? "yes" : "no", p->c.peer.reminv ? "yes" : "no",
	     rpcrdma2_cm_pdata_reminv_ok(p->c.peer_rc ? NULL : &p->c.peer,
					 our_reminv(o)) ?
	     "server may use Send With Invalidate" : "not used");
	note(p, "credits: requested %u, granted %u\n", o->credits, p->granted);
	if (!p->have_props && p->vers == RPCRDMA2_VERS_2)
		note(p, "connprop: none received\n");
	return 0;
}
