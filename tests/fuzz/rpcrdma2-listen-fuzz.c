// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma2-listen-fuzz --fuzz N: a wire fuzz of RPC-over-RDMA clients.
 * It listens like rpcrdma2-listen does and answers every Call a client sends,
 * whatever its procedure, with a burst of messages mutated from the
 * codec's fuzz corpus (tests/fuzz/corpus/fuzz_codec: both versions, every
 * header type, valid and rejected headers) and from templates built on
 * the Call itself: replies echoing the Call's Write and Reply chunks (its
 * real handles) with lengths of any size, RDMA_NOMSG replies whose Reply
 * chunk we first filled with an RDMA Write, errors of every code with
 * every arm, reverse-direction Calls and RDMA2_CONNPROP. Handles are the
 * client's own (of this Call, or of an earlier one on the connection) or
 * made up; some messages go by Send With Invalidate of a real key, a few
 * of a bogus one, which fails the client's Receive and so the connection.
 * Each burst ends, most of the time, with a correct reply to the Call,
 * so that the client's RPC completes and it sends the next Call at once
 * instead of waiting for its timeout.
 *
 * What a client does with each message is its business: the checks are
 * the kernel's (KASAN, lockdep, kmemleak, hung tasks) and the client
 * still working afterwards. The run is deterministic from its seed in
 * what it sends: message number K is made from (seed, K) and the Call it
 * answers, connection number C's private data from (seed, C). It ends
 * after N messages with a summary of what went out and how the client
 * reacted (its Calls, reconnects, disconnects).
 *
 * Exit status: 0 when it stopped as asked; 1 when listening failed or
 * ended in a local error; 2 usage error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corpus.h"
#include "negotiate.h"
#include "opts.h"

#define PROG			"rpcrdma2-listen-fuzz"

#define LFZ_SENDS		32	/* send slots: Sends not yet completed */
#define LFZ_MAX_MSG		CORPUS_MAX_MSG
#define LFZ_BURST_MAX		64	/* mutated messages per Call, at most */
#define SEND_POLL_NS		20000	/* between polls of the Send CQ */
#define LFZ_MAX_MUTATIONS	3
#define LFZ_HANDLES		16	/* real handles remembered per connection */
#define LFZ_BC_XID		0xbf000000U	/* our reverse Calls' XIDs */
#define LFZ_RPC_MAX		64	/* an RPC reply or Call we make up */
#define LFZ_SEGS		16	/* decoder limits for the client's Calls */
#define LFZ_CHUNKS		4

/* What a message was made from */
enum lfz_kind {
	LFZ_CORPUS,	/* a corpus file, aimed at the Call's XID */
	LFZ_REPLY,	/* RDMA_MSG reply echoing the Call's chunks */
	LFZ_NOMSG,	/* RDMA_NOMSG naming the Call's Reply chunk */
	LFZ_WRITE,	/* a reply whose Write list names real or bogus handles */
	LFZ_ERROR,	/* an error of any code, with any arm */
	LFZ_REVERSE,	/* a reverse-direction Call */
	LFZ_CONNPROP,	/* RDMA2_CONNPROP */
	LFZ_NR_KINDS
};

static const char *const lfz_kind_names[LFZ_NR_KINDS] = {
	"corpus", "reply", "nomsg", "write-list", "error", "reverse-call",
	"connprop",
};

/* How a connection ended */
enum lfz_end {
	LFZ_END_DISCONNECT,	/* the client disconnected */
	LFZ_END_RECV_FAILED,	/* one of our Receives failed */
	LFZ_END_SEND_FAILED,	/* one of our Sends failed or never completed */
	LFZ_END_DONE,		/* we had sent N messages */
	LFZ_END_TIMEOUT,	/* --timeout */
	LFZ_END_ERROR,		/* a local error */
	LFZ_NR_ENDS
};

static const char *const lfz_end_names[LFZ_NR_ENDS] = {
	"the client disconnected", "a Receive failed", "a Send failed",
	"the count was reached", "--timeout", "a local error",
};

/* The Call being answered: what the fuzz aims at */
struct lfz_call {
	u32 xid;
	u32 vers;
	u32 proc;
	u32 credits;		/* its rdma_credit: the Receives it posts */
	bool chunks;
	u32 nr_write;		/* the Write chunk's segments */
	struct rpcrdma2_seg write[LFZ_SEGS];
	u32 nr_reply;		/* the Reply chunk's segments */
	struct rpcrdma2_seg reply[LFZ_SEGS];
	u32 inv_handle;		/* v2: rdma_inv_handle, or 0 */
};

struct lfz_opts {
	struct listen_opts l;
	struct fuzz_opts f;	/* --fuzz N: messages to deliver */
};

struct lfz {
	const struct lfz_opts *opts;
	struct corpus corpus;
	u32 seed;
	u64 rng;

	struct listener ls;
	struct conn c;			/* the connection served */

	/* this connection */
	u32 conn_calls;
	u32 handles[LFZ_HANDLES];	/* real handles seen, a ring */
	u32 nr_handles;
	u32 last_xid;			/* of the last Call answered */
	struct lfz_call call;
	bool small_pdata;		/* advertised a 1 KiB Send size */
	bool fallback;			/* answer the first v2 Call ERR_VERS 1..1 */

	/* decoder state */
	struct rpcrdma2_hdr hdr;
	struct rpcrdma2_read_seg reads[LFZ_CHUNKS * LFZ_SEGS];
	struct rpcrdma2_read_chunk read_chunks[LFZ_CHUNKS];
	struct rpcrdma2_chunk writes[LFZ_CHUNKS];
	struct rpcrdma2_seg segs[(LFZ_CHUNKS + 1) * LFZ_SEGS];
	struct rpcrdma2_chunk out_writes[LFZ_CHUNKS];
	struct rpcrdma2_seg out_segs[(LFZ_CHUNKS + 1) * LFZ_SEGS];

	u8 slot_msg[LFZ_SENDS];		/* the slot's WR is a message */
	u32 prev_xid;			/* the Call before this one */

	/* totals */
	u32 sent;		/* messages posted */
	u32 delivered;		/* their Sends completed */
	u32 lost;		/* flushed or failed with the connection */
	u32 by_kind[LFZ_NR_KINDS];
	u32 mutated;
	u32 closers;
	u32 fallbacks;
	u32 inv_real;
	u32 inv_bogus;
	u32 rdma_writes;
	u32 conns;
	u32 ends[LFZ_NR_ENDS];
	u32 small_conns;
	u32 calls;
	u32 calls_vers[3];
	u32 calls_chunks;
	u32 retransmits;	/* a Call whose XID an earlier one had */
	u32 reconnect_calls;	/* of those, the first on a new connection */
	u32 bc_replies;
	u32 connprops;
	u32 rejected;
	bool broken;		/* a local error: stop */
};

/* ---- randomness ------------------------------------------------------ */

/* splitmix64: one stream per (seed, what, index) */
static void lfz_stream(struct lfz *l, u32 what, u32 index)
{
	u64 z = ((u64)l->seed << 32 | index) ^ ((u64)what << 60);

	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	l->rng = (z ^ (z >> 31)) | 1;
}

/* Values on the client's edges: counts, lengths, grants, signs */
static u32 lfz_value(struct lfz *l)
{
	static const u32 vals[] = {
		0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 32, 33, 63, 64, 65, 100,
		255, 256, 1023, 1024, 1025, 4095, 4096, 4097, 8192, 65536,
		0x10000001, 0x7fffffff, 0x80000000, 0xfffffffc, 0xffffffff,
	};

	if (!fuzz_below(&l->rng, 4))
		return fuzz_rand(&l->rng);
	return vals[fuzz_below(&l->rng, ARRAY_SIZE(vals))];
}

/* ---- handles ---------------------------------------------------------- */

static void lfz_remember(struct lfz *l, u32 handle)
{
	l->handles[l->nr_handles++ % LFZ_HANDLES] = handle;
}

/* A real handle of this Call, if it has one; else false */
static bool lfz_call_handle(struct lfz *l, u32 *h)
{
	const struct lfz_call *c = &l->call;
	u32 n = c->nr_write + c->nr_reply, i;

	if (!n)
		return false;
	i = fuzz_below(&l->rng, n);
	*h = i < c->nr_write ? c->write[i].handle :
	     c->reply[i - c->nr_write].handle;
	return true;
}

/*
 * A handle for a chunk list or a Send With Invalidate: this Call's, one
 * of an earlier Call on this connection (maybe reused with a new key by
 * now), or one nobody registered.
 */
static u32 lfz_handle(struct lfz *l)
{
	u32 n = l->nr_handles < LFZ_HANDLES ? l->nr_handles : LFZ_HANDLES;
	u32 h;

	switch (fuzz_below(&l->rng, 4)) {
	case 0:
	case 1:
		if (lfz_call_handle(l, &h))
			return h;
		break;
	case 2:
		if (n)
			return l->handles[fuzz_below(&l->rng, n)];
		break;
	}
	return lfz_value(l);
}

/*
 * The rdma_xid a message carries. Only one message can answer the Call
 * (the reply path); the client then fails the mount and closes the
 * connection, and what is still in flight is lost. So few messages
 * carry the Call's XID: most carry one of the next few XIDs the client
 * will use, the previous Call's (answered already) or any.
 */
static u32 lfz_xid(struct lfz *l)
{
	u32 r = fuzz_below(&l->rng, 32);

	if (!r)
		return l->call.xid;
	if (r == 1)
		return l->prev_xid;
	if (r < 10)
		return lfz_value(l);
	return l->call.xid + 1 + fuzz_below(&l->rng, 8);
}

/* ---- send slots -------------------------------------------------------- */

/*
 * Take the Send completions, counting messages delivered and lost (a
 * connection that dies flushes the rest). -1 once one failed.
 */
static int lfz_reap(struct lfz *l)
{
	struct conn *p = &l->c;
	struct ibv_wc wc;
	u32 slot;
	int n;

	while ((n = ibv_poll_cq(p->send_cq, 1, &wc)) > 0) {
		slot = (u32)wc.wr_id;
		if (slot >= LFZ_SENDS)
			continue;
		p->send_busy[slot] = false;
		if (wc.status == IBV_WC_SUCCESS) {
			l->delivered += l->slot_msg[slot];
		} else {
			l->lost += l->slot_msg[slot];
			if (!p->qp_failed)
				p->fail_status = wc.status;
			p->qp_failed = true;
		}
		l->slot_msg[slot] = 0;
	}
	return n < 0 || p->qp_failed ? -1 : 0;
}

/*
 * Has the client disconnected? Then put our QP in the error state too
 * (rdma_disconnect() does), so that Sends still queued flush at once
 * instead of retrying against a QP that is gone until the retry count
 * runs out.
 */
static bool lfz_disconnected(struct lfz *l)
{
	struct conn *p = &l->c;
	struct rdma_cm_event *ev;

	while (!p->disconnected && !rdma_get_cm_event(p->ec, &ev)) {
		if (ev->event == RDMA_CM_EVENT_DISCONNECTED) {
			p->disconnected = true;
			rdma_disconnect(p->id);
		}
		rdma_ack_cm_event(ev);
	}
	return p->disconnected;
}

/*
 * Wait up to --timeout for a free send slot (@any) or for every Send to
 * complete (!@any). Returns the slot, or 0; -1 if a Send failed, the
 * client disconnected or no Send completed in time.
 */
static int lfz_wait_sends(struct lfz *l, bool any)
{
	const struct timespec nap = { .tv_nsec = SEND_POLL_NS };
	struct conn *p = &l->c;
	struct timespec dl;
	u32 i, busy;

	deadline_in(&dl, l->opts->l.timeout_ms);
	for (;;) {
		if (lfz_reap(l) || lfz_disconnected(l))
			return -1;
		for (i = 0, busy = 0; i < LFZ_SENDS; i++) {
			if (!p->send_busy[i] && any)
				return (int)i;
			busy += p->send_busy[i];
		}
		if (!busy)
			return 0;
		if (!ms_left(&dl))
			return -1;
		nanosleep(&nap, NULL);
	}
}

static int lfz_slot(struct lfz *l)
{
	return lfz_wait_sends(l, true);
}

/*
 * At a connection's end: take the completions still due (a QP in error
 * flushes every Send) for up to a second; a message whose Send never
 * completed counts as lost.
 */
static void lfz_drain(struct lfz *l)
{
	const struct timespec nap = { .tv_nsec = SEND_POLL_NS };
	struct conn *p = &l->c;
	struct timespec dl;
	u32 i, busy;

	lfz_disconnected(l);
	deadline_in(&dl, 1000);
	do {
		lfz_reap(l);
		for (i = 0, busy = 0; i < LFZ_SENDS; i++)
			busy += p->send_busy[i];
	} while (busy && ms_left(&dl) && !nanosleep(&nap, NULL));
	for (i = 0; i < LFZ_SENDS; i++) {
		l->lost += l->slot_msg[i];
		l->slot_msg[i] = 0;
	}
}

/* ---- messages --------------------------------------------------------- */

/*
 * An RPC message at @r, at most LFZ_RPC_MAX bytes: mostly a reply to the
 * Call (accepted with any status, or denied), sometimes words at random.
 */
static u32 lfz_rpc_reply(struct lfz *l, u8 *r)
{
	static const u32 stats[] = {
		RPC_SUCCESS, RPC_PROC_UNAVAIL, RPC_GARBAGE_ARGS,
		RPC_SYSTEM_ERR, 1, 2, 6,
	};
	u8 *p = r;
	u32 i, n;

	if (!fuzz_below(&l->rng, 8)) {
		n = fuzz_below(&l->rng, LFZ_RPC_MAX / 4 + 1);
		for (i = 0; i < n; i++)
			p = put32(p, i ? lfz_value(l) : l->call.xid);
		return (u32)(p - r);
	}
	p = put32(p, l->call.xid);
	p = put32(p, RPC_REPLY);
	if (!fuzz_below(&l->rng, 16)) {
		p = put32(p, RPC_MSG_DENIED);
		p = put32(p, fuzz_below(&l->rng, 3));
		p = put32(p, lfz_value(l));
		p = put32(p, lfz_value(l));
		return (u32)(p - r);
	}
	p = put32(p, RPC_MSG_ACCEPTED);
	p = put32(p, RPC_AUTH_NONE);
	p = put32(p, 0);
	p = put32(p, stats[fuzz_below(&l->rng, ARRAY_SIZE(stats))]);
	/* results a procedure other than NULL would carry: words */
	n = l->call.proc ? fuzz_below(&l->rng, 9) : 0;
	for (i = 0; i < n; i++)
		p = put32(p, lfz_value(l));
	return (u32)(p - r);
}

/* A grant: mostly what --credits says, sometimes an edge */
static u32 lfz_grant(struct lfz *l)
{
	return fuzz_below(&l->rng, 4) ? l->opts->l.credits : lfz_value(l);
}

/* A reply header to the Call: its XID, its version mostly, RESPONSE in v2 */
static void lfz_reply_hdr(struct lfz *l, struct rpcrdma2_hdr *h, u32 htype)
{
	const struct rpcrdma2_limits lim = {
		.max_write_chunks = LFZ_CHUNKS,
		.max_segs = LFZ_SEGS,
	};

	memset(h, 0, sizeof(*h));
	rpcrdma2_chunk_lists_init(&h->cl, &lim, NULL, 0, NULL, 0, l->out_writes,
				  ARRAY_SIZE(l->out_writes), l->out_segs,
				  ARRAY_SIZE(l->out_segs));
	h->xid = lfz_xid(l);
	h->vers = l->call.vers;
	if (!fuzz_below(&l->rng, 16))
		h->vers = h->vers == RPCRDMA2_VERS_2 ? RPCRDMA2_VERS_1 :
						       RPCRDMA2_VERS_2;
	h->credits = lfz_grant(l);
	h->htype = htype;
	if (h->vers == RPCRDMA2_VERS_2)
		h->flags = RPCRDMA2_F_RESPONSE;
}

/* Append a segment: the Call's @seg with another length, or a made-up one */
static void lfz_add_seg(struct lfz *l, struct rpcrdma2_hdr *h,
			const struct rpcrdma2_seg *seg)
{
	struct rpcrdma2_seg *s = &h->cl.segs[h->cl.nr_segs++];

	if (seg && fuzz_below(&l->rng, 4)) {
		*s = *seg;
		switch (fuzz_below(&l->rng, 4)) {
		case 0:
			s->length = 0;
			break;
		case 1:
			s->length = fuzz_below(&l->rng, seg->length + 1);
			break;
		case 2:
			s->length = lfz_value(l);
			break;
		}
		return;
	}
	s->handle = lfz_handle(l);
	s->length = lfz_value(l);
	s->offset = (u64)fuzz_rand(&l->rng) << 32 | fuzz_rand(&l->rng);
}

/*
 * A Write list: the Call's Write chunk with the lengths "written", or
 * chunks it never offered.
 */
static void lfz_write_list(struct lfz *l, struct rpcrdma2_hdr *h)
{
	const struct lfz_call *c = &l->call;
	struct rpcrdma2_chunk_lists *cl = &h->cl;
	u32 n = 1 + fuzz_below(&l->rng, 2), i, j, nsegs;

	for (i = 0; i < n && cl->nr_writes < LFZ_CHUNKS; i++) {
		nsegs = c->nr_write && !i ? c->nr_write : 1 + fuzz_below(&l->rng, 3);
		if (cl->nr_segs + nsegs > ARRAY_SIZE(l->out_segs))
			break;
		cl->writes[cl->nr_writes].first = cl->nr_segs;
		cl->writes[cl->nr_writes++].nsegs = nsegs;
		for (j = 0; j < nsegs; j++)
			lfz_add_seg(l, h, j < c->nr_write && !i ?
				    &c->write[j] : NULL);
	}
}

/* The Reply chunk: the Call's, or one it never offered */
static void lfz_reply_chunk(struct lfz *l, struct rpcrdma2_hdr *h)
{
	const struct lfz_call *c = &l->call;
	struct rpcrdma2_chunk_lists *cl = &h->cl;
	u32 nsegs = c->nr_reply ? c->nr_reply : 1 + fuzz_below(&l->rng, 2), j;

	if (cl->nr_segs + nsegs > ARRAY_SIZE(l->out_segs))
		return;
	cl->reply.first = cl->nr_segs;
	cl->reply.nsegs = nsegs;
	cl->has_reply = true;
	for (j = 0; j < nsegs; j++)
		lfz_add_seg(l, h, j < c->nr_reply ? &c->reply[j] : NULL);
}

/*
 * RDMA_NOMSG: the RPC reply goes in the Reply chunk. When the Call
 * offered one, first RDMA Write a reply into its first segment, as a
 * server does, so the client finds bytes where the header says.
 */
static int lfz_rdma_write_reply(struct lfz *l)
{
	const struct rpcrdma2_seg *s = &l->call.reply[0];
	struct conn *p = &l->c;
	struct ibv_send_wr wr = {
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { .remote_addr = s->offset, .rkey = s->handle },
	};
	struct ibv_sge sge;
	int slot;
	u32 len;

	slot = lfz_slot(l);
	if (slot < 0)
		return -1;
	len = lfz_rpc_reply(l, conn_send_buf(p, (u32)slot));
	if (len > s->length)
		len = s->length;
	if (!len)
		return 0;
	sge.addr = (uintptr_t)conn_send_buf(p, (u32)slot);
	sge.length = len;
	sge.lkey = p->mr->lkey;
	wr.sg_list = &sge;
	if (conn_post_wr(p, (u32)slot, &wr))
		return -1;
	l->rdma_writes++;
	return 0;
}

/* RDMA_ERROR / RDMA2_ERROR, written by hand: any code, any arm */
static u32 lfz_error(struct lfz *l, u8 *m)
{
	u32 vers = l->call.vers, code, n, i;
	u8 *p = m;

	if (!fuzz_below(&l->rng, 16))
		vers = fuzz_below(&l->rng, 4);
	code = fuzz_below(&l->rng, 4) ? 1 + fuzz_below(&l->rng, RPCRDMA2_ERR_SYSTEM) :
	       lfz_value(l);
	p = put32(p, lfz_xid(l));
	p = put32(p, vers);
	p = put32(p, lfz_grant(l));
	p = put32(p, RPCRDMA2_HT_ERROR);
	if (vers == RPCRDMA2_VERS_2)
		p = put32(p, fuzz_below(&l->rng, 8) ? RPCRDMA2_F_RESPONSE :
			  lfz_value(l));
	p = put32(p, code);
	/* ERR_VERS 1..1 or 1..2 most of the time: fallback or not */
	if (code == RPCRDMA2_ERR_VERS && fuzz_below(&l->rng, 2)) {
		p = put32(p, 1);
		return (u32)(put32(p, 1 + fuzz_below(&l->rng, 2)) - m);
	}
	n = fuzz_below(&l->rng, 3);
	for (i = 0; i < n; i++)
		p = put32(p, lfz_value(l));
	return (u32)(p - m);
}

/* A reverse-direction CB_NULL Call (RFC 8167), in the Call's version */
static int lfz_reverse(struct lfz *l, u8 *m, u32 size)
{
	struct rpcrdma2_hdr h;
	u8 *r;
	int n;

	lfz_reply_hdr(l, &h, RPCRDMA2_HT_MSG);
	h.xid = LFZ_BC_XID + fuzz_below(&l->rng, 0x10000);
	h.flags = 0;
	if (fuzz_below(&l->rng, 4))
		lfz_write_list(l, &h);
	if (!fuzz_below(&l->rng, 4))
		lfz_reply_chunk(l, &h);
	n = rpcrdma2_encode(&h, m, size);
	if (n < 0 || (u32)n + 40 > size)
		return -1;
	r = m + n;
	r = put32(r, h.xid);
	r = put32(r, RPC_CALL);
	r = put32(r, RPC_VERSION);
	r = put32(r, NFS4_CALLBACK);
	r = put32(r, 1);
	r = put32(r, fuzz_below(&l->rng, 3) ? 0 : 1);	/* CB_NULL, CB_COMPOUND */
	r = put32(r, RPC_AUTH_NONE);
	r = put32(r, 0);
	r = put32(r, RPC_AUTH_NONE);
	r = put32(r, 0);
	return (int)(r - m);
}

/* RDMA2_CONNPROP with any of the properties draft v2 §4.2 defines */
static int lfz_connprop(struct lfz *l, u8 *m, u32 size)
{
	struct rpcrdma2_hdr h = {
		.xid = fuzz_below(&l->rng, 2) ? 0 : l->call.xid,
		.vers = RPCRDMA2_VERS_2,
		.credits = lfz_grant(l),
		.htype = RPCRDMA2_HT_CONNPROP,
		.flags = fuzz_below(&l->rng, 4) ? RPCRDMA2_F_RESPONSE : 0,
	};

	h.props.present = fuzz_below(&l->rng, 4);
	h.props.dflt = h.props.present & fuzz_below(&l->rng, 4);
	h.props.rbsiz = lfz_value(l);
	h.props.brs = fuzz_below(&l->rng, 3);
	return rpcrdma2_encode(&h, m, size);
}

/*
 * A corpus file aimed at the Call: its rdma_xid (and, where the file
 * repeats it, its RPC XID) becomes the Call's, mostly; the handles its
 * chunk lists name become real or bogus ones.
 */
static u32 lfz_from_corpus(struct lfz *l, u8 *m)
{
	const struct corpus_file *f = &l->corpus.files[fuzz_below(&l->rng, l->corpus.nfiles)];
	const struct rpcrdma2_limits lim = {
		.max_read_chunks = LFZ_CHUNKS, .max_write_chunks = LFZ_CHUNKS,
		.max_segs = LFZ_SEGS,
	};
	struct rpcrdma2_hdr *h = &l->hdr;
	struct rpcrdma2_reject rej;
	u32 len = f->len, old, xid, i, j, hd;

	memcpy(m, f->buf, len);
	if (len < 4)
		return len;
	old = get32(m);
	xid = lfz_xid(l);
	for (i = 0; i + 4 <= len; i += 4)
		if (get32(m + i) == old)
			put32(m + i, xid);
	if (!fuzz_below(&l->rng, 2))
		return len;
	rpcrdma2_chunk_lists_init(&h->cl, &lim, l->reads, ARRAY_SIZE(l->reads),
				  l->read_chunks, ARRAY_SIZE(l->read_chunks),
				  l->writes, ARRAY_SIZE(l->writes), l->segs,
				  ARRAY_SIZE(l->segs));
	if (rpcrdma2_decode(m, len, h, &rej))
		return len;
	for (j = 0; j < h->cl.nr_segs + h->cl.nr_reads; j++) {
		old = j < h->cl.nr_segs ? h->cl.segs[j].handle :
		      h->cl.reads[j - h->cl.nr_segs].seg.handle;
		hd = lfz_handle(l);
		for (i = 4; i + 4 <= h->hdr_len; i += 4)
			if (get32(m + i) == old)
				put32(m + i, hd);
	}
	return len;
}

/* One mutation of @m (@len bytes), in place; returns the new length */
static u32 lfz_mutate(struct lfz *l, u8 *m, u32 len)
{
	u32 nw = len / 4, i, j, k, n;

	switch (fuzz_below(&l->rng, 13)) {
	case 0:		/* one bit */
		if (len)
			m[fuzz_below(&l->rng, len)] ^= (u8)(1 << fuzz_below(&l->rng, 8));
		break;
	case 1:		/* a word: an edge value (rdma_credit among them) */
		if (nw)
			put32(m + 4 * fuzz_below(&l->rng, nw), lfz_value(l));
		break;
	case 2:		/* a count or discriminator in the chunk lists */
		if (nw > 4)
			put32(m + 4 * (4 + fuzz_below(&l->rng, nw - 4)),
			      fuzz_below(&l->rng, 41));
		break;
	case 3:		/* rdma_vers */
		if (nw > 1)
			put32(m + 4, fuzz_below(&l->rng, 4));
		break;
	case 4:		/* rdma_htype */
		if (nw > 3)
			put32(m + 12, fuzz_below(&l->rng, 4) ? fuzz_below(&l->rng, 7) :
				      fuzz_rand(&l->rng));
		break;
	case 5:		/* v2 rdma_flags */
		if (nw > 4)
			put32(m + 16, fuzz_below(&l->rng, 4));
		break;
	case 6:		/* truncate */
		len = fuzz_below(&l->rng, len + 1);
		if (fuzz_below(&l->rng, 2))
			len &= ~3U;
		break;
	case 7:		/* append words */
		n = 1 + fuzz_below(&l->rng, 16);
		for (i = 0; i < n && len + 4 <= LFZ_MAX_MSG; i++, len += 4)
			put32(m + len, lfz_value(l));
		break;
	case 8:		/* delete a word */
		if (nw < 2)
			break;
		i = fuzz_below(&l->rng, nw);
		memmove(m + 4 * i, m + 4 * i + 4, len - 4 * i - 4);
		len -= 4;
		break;
	case 9:		/* a real or bogus handle into a word */
		if (nw > 4)
			put32(m + 4 * (4 + fuzz_below(&l->rng, nw - 4)),
			      lfz_handle(l));
		break;
	case 10:	/* copy a word */
		if (nw > 1)
			put32(m + 4 * fuzz_below(&l->rng, nw),
			      get32(m + 4 * fuzz_below(&l->rng, nw)));
		break;
	case 11:	/* splice: this one's head, another's tail */
		n = corpus_splice(&l->corpus, &l->rng, m, len, &i, &j);
		if (n)
			len = n;
		break;
	default:	/* repeat a segment-sized block, to grow a list */
		k = 4 + fuzz_below(&l->rng, 3);
		n = 1 + fuzz_below(&l->rng, 6);
		if (nw < k + 1 || len + 4 * k * n > LFZ_MAX_MSG)
			break;
		i = 1 + fuzz_below(&l->rng, nw - k);
		for (j = 0; j < n; j++) {
			memmove(m + 4 * (i + k), m + 4 * i, len - 4 * i);
			len += 4 * k;
		}
	}
	return len;
}

/*
 * Message number l->sent + 1, aimed at the Call, into a free send slot
 * (*@slot). Returns its length, or -1 on a local error. Sets *@inv to
 * the key of a Send With Invalidate, or leaves it NULL.
 */
static int lfz_make(struct lfz *l, int *slot, u32 *rkey, const u32 **inv)
{
	struct conn *p = &l->c;
	struct rpcrdma2_hdr h;
	u32 kind, len, i, n;
	int rc = 0;
	u8 *m;

	lfz_stream(l, 1, l->sent);
	*inv = NULL;
	kind = fuzz_below(&l->rng, 16);
	kind = kind < 7 ? LFZ_CORPUS : kind < 10 ? LFZ_REPLY :
	       kind < 11 ? LFZ_NOMSG : kind < 12 ? LFZ_WRITE :
	       kind < 14 ? LFZ_ERROR : kind < 15 ? LFZ_REVERSE : LFZ_CONNPROP;
	/* an RDMA_NOMSG's RDMA Write goes first, from a slot of its own */
	if (kind == LFZ_NOMSG && l->call.nr_reply && fuzz_below(&l->rng, 4) &&
	    lfz_rdma_write_reply(l))
		return -1;
	*slot = lfz_slot(l);
	if (*slot < 0)
		return -1;
	m = conn_send_buf(p, (u32)*slot);
	switch (kind) {
	case LFZ_CORPUS:
		rc = (int)lfz_from_corpus(l, m);
		break;
	case LFZ_REPLY:
	case LFZ_WRITE:
		lfz_reply_hdr(l, &h, RPCRDMA2_HT_MSG);
		if (kind == LFZ_WRITE || (l->call.nr_write && fuzz_below(&l->rng, 2)))
			lfz_write_list(l, &h);
		if (l->call.nr_reply && !fuzz_below(&l->rng, 4))
			lfz_reply_chunk(l, &h);
		rc = rpcrdma2_encode(&h, m, LFZ_MAX_MSG - LFZ_RPC_MAX);
		if (rc > 0)
			rc += (int)lfz_rpc_reply(l, m + rc);
		break;
	case LFZ_NOMSG:
		lfz_reply_hdr(l, &h, RPCRDMA2_HT_NOMSG);
		lfz_reply_chunk(l, &h);
		if (!fuzz_below(&l->rng, 4))
			lfz_write_list(l, &h);
		rc = rpcrdma2_encode(&h, m, LFZ_MAX_MSG);
		break;
	case LFZ_ERROR:
		rc = (int)lfz_error(l, m);
		break;
	case LFZ_REVERSE:
		rc = lfz_reverse(l, m, LFZ_MAX_MSG);
		break;
	default:
		rc = lfz_connprop(l, m, LFZ_MAX_MSG);
	}
	if (rc < 0) {
		tool_err("client fuzz: cannot encode message %u (%s)",
			 l->sent + 1, lfz_kind_names[kind]);
		l->broken = true;
		return -1;
	}
	len = (u32)rc;
	n = fuzz_below(&l->rng, 4) ? fuzz_below(&l->rng, LFZ_MAX_MUTATIONS + 1) : 0;
	for (i = 0; i < n; i++)
		len = lfz_mutate(l, m, len);
	if (n)
		l->mutated++;
	l->by_kind[kind]++;
	/*
	 * Send With Invalidate: mostly of a real key (the client takes it
	 * as its RPC's, or as foreign); rarely of a key nobody has, which
	 * fails the client's Receive and its connection.
	 */
	if (!fuzz_below(&l->rng, 8) && lfz_call_handle(l, rkey)) {
		if (!fuzz_below(&l->rng, 4) && l->nr_handles)
			*rkey = l->handles[fuzz_below(&l->rng, l->nr_handles <
						     LFZ_HANDLES ?
						     l->nr_handles :
						     LFZ_HANDLES)];
		*inv = rkey;
		l->inv_real++;
	} else if (!fuzz_below(&l->rng, 128)) {
		*rkey = lfz_value(l);
		*inv = rkey;
		l->inv_bogus++;
	}
	return (int)len;
}

/*
 * The closer: the reply a correct server sends, so the RPC completes and
 * the client goes on to its next Call. On a connection planned to fall
 * back, the first v2 Call gets ERR_VERS 1..1 instead (draft v2 §7.2), so
 * the client resends it in v1, where a small Send size makes it offer
 * Reply chunks, and the fuzz gets real handles.
 */
static int lfz_closer(struct lfz *l)
{
	const struct lfz_call *c = &l->call;
	struct conn *p = &l->c;
	struct rpcrdma2_hdr h = {
		.xid = c->xid, .vers = c->vers, .credits = l->opts->l.credits,
		.htype = RPCRDMA2_HT_MSG,
	};
	u32 rkey, i, rlen = 0;
	bool inv = false;
	u8 *m, *r;
	int slot, n;

	slot = lfz_slot(l);
	if (slot < 0)
		return -1;
	m = conn_send_buf(p, (u32)slot);
	if (c->vers == RPCRDMA2_VERS_2)
		h.flags = RPCRDMA2_F_RESPONSE;
	if (l->fallback && l->conn_calls == 1 && c->vers == RPCRDMA2_VERS_2) {
		h.htype = RPCRDMA2_HT_ERROR;
		h.err.code = RPCRDMA2_ERR_VERS;
		h.err.vers.low = RPCRDMA2_VERS_1;
		h.err.vers.high = RPCRDMA2_VERS_1;
		l->fallbacks++;
	} else {
		/* RFC 8166 §4.3.2: the Write chunk comes back, unused */
		rpcrdma2_chunk_lists_init(&h.cl, &(struct rpcrdma2_limits){
						  .max_write_chunks = 1,
						  .max_segs = LFZ_SEGS },
					  NULL, 0, NULL, 0, l->out_writes, 1,
					  l->out_segs, LFZ_SEGS);
		for (i = 0; i < c->nr_write; i++) {
			h.cl.segs[i] = c->write[i];
			h.cl.segs[i].length = 0;
		}
		if (c->nr_write) {
			h.cl.writes[0].first = 0;
			h.cl.writes[0].nsegs = c->nr_write;
			h.cl.nr_writes = 1;
			h.cl.nr_segs = c->nr_write;
		}
		/* draft v2 §3.3, RFC 8797 §4.1 (we set R; the client may) */
		if (c->inv_handle) {
			rkey = c->inv_handle;
			inv = true;
		} else if (c->vers == RPCRDMA2_VERS_1 && c->chunks &&
			   l->c.peer.reminv) {
			rkey = c->nr_write ? c->write[0].handle :
			       c->reply[0].handle;
			inv = true;
		}
	}
	n = rpcrdma2_encode(&h, m, LFZ_MAX_MSG);
	if (n < 0) {
		tool_err("client fuzz: cannot encode the reply to xid 0x%08x",
			 c->xid);
		l->broken = true;
		return -1;
	}
	if (h.htype == RPCRDMA2_HT_MSG) {
		r = m + n;
		r = put32(r, c->xid);
		r = put32(r, RPC_REPLY);
		r = put32(r, RPC_MSG_ACCEPTED);
		r = put32(r, RPC_AUTH_NONE);
		r = put32(r, 0);
		r = put32(r, c->proc ? RPC_PROC_UNAVAIL : RPC_SUCCESS);
		rlen = (u32)(r - m) - (u32)n;
	}
	if (conn_post_send(p, (u32)slot, (u32)n + rlen, NULL,
			   inv ? &rkey : NULL))
		return -1;
	l->closers++;
	return 0;
}

/* Messages still to post: N less those delivered or in flight */
static u32 lfz_todo(const struct lfz *l)
{
	u32 done = l->sent - l->lost;

	return done < l->opts->f.fuzz ? l->opts->f.fuzz - done : 0;
}

/*
 * The burst that answers the Call, then (mostly) the closer; waits for
 * every Send to complete. -1 once the connection is lost.
 */
static int lfz_burst(struct lfz *l)
{
	struct conn *p = &l->c;
	const u32 *inv;
	u32 n, i, rkey;
	int slot, len;

	/*
	 * How many, and whether to close: from the message stream too. No
	 * more than the Receives the client asked credits for: one more,
	 * and our Send waits out an RNR NAK (655 ms on rxe, the timer
	 * rdma_cm leaves the client's QP with).
	 */
	lfz_stream(l, 3, l->sent);
	n = l->call.credits < LFZ_BURST_MAX ? l->call.credits : LFZ_BURST_MAX;
	n = 1 + fuzz_below(&l->rng, n);
	for (i = 0; i < n && lfz_todo(l); i++) {
		len = lfz_make(l, &slot, &rkey, &inv);
		if (len < 0)
			return -1;
		if (conn_post_send(p, (u32)slot, (u32)len, NULL, inv))
			return -1;
		l->slot_msg[slot] = 1;
		l->sent++;
	}
	lfz_stream(l, 4, l->sent);
	if (lfz_todo(l) && fuzz_below(&l->rng, 16) && lfz_closer(l))
		return -1;
	return lfz_wait_sends(l, false) < 0 ? -1 : 0;
}

/* ---- what the client sends --------------------------------------------- */

#define LFZ_XIDS		64	/* Call XIDs remembered across connections */

static u32 lfz_xids[LFZ_XIDS];
static u32 lfz_nr_xids;

/* Has an earlier Call had this XID (a retransmission)? Remember it */
static bool lfz_xid_seen(u32 xid)
{
	u32 i, n = lfz_nr_xids < LFZ_XIDS ? lfz_nr_xids : LFZ_XIDS;

	for (i = 0; i < n; i++)
		if (lfz_xids[i] == xid)
			return true;
	lfz_xids[lfz_nr_xids++ % LFZ_XIDS] = xid;
	return false;
}

/* Copy the Call's chunks out of the decoder: the handles we aim at */
static void lfz_take_call(struct lfz *l, const struct rpcrdma2_hdr *h,
			  const u8 *m)
{
	const struct rpcrdma2_chunk_lists *cl = &h->cl;
	struct lfz_call *c = &l->call;
	const u8 *rpc = m + h->hdr_len;
	u32 i, n;

	memset(c, 0, sizeof(*c));
	c->xid = h->xid;
	c->vers = h->vers;
	c->credits = h->credits;
	/* a Long Call's procedure is in its Read chunk: not NULL, say */
	c->proc = h->rpc_len >= 24 ? get32(rpc + 20) : 1;
	c->inv_handle = h->vers == RPCRDMA2_VERS_2 ? cl->inv_handle : 0;
	c->chunks = cl->nr_reads || cl->nr_writes || cl->has_reply;
	if (cl->nr_writes) {
		n = cl->writes[0].nsegs;
		for (i = 0; i < n && i < LFZ_SEGS; i++)
			c->write[i] = cl->segs[cl->writes[0].first + i];
		c->nr_write = i;
	}
	if (cl->has_reply) {
		n = cl->reply.nsegs;
		for (i = 0; i < n && i < LFZ_SEGS; i++)
			c->reply[i] = cl->segs[cl->reply.first + i];
		c->nr_reply = i;
	}
	for (i = 0; i < c->nr_write; i++)
		lfz_remember(l, c->write[i].handle);
	for (i = 0; i < c->nr_reply; i++)
		lfz_remember(l, c->reply[i].handle);
	for (i = 0; i < cl->nr_reads; i++)
		lfz_remember(l, cl->reads[i].seg.handle);
}

/* One received message: a Call gets a burst; the rest is counted */
static int lfz_handle_msg(struct lfz *l, const u8 *m, u32 len)
{
	const struct rpcrdma2_limits lim = {
		.max_read_chunks = LFZ_CHUNKS, .max_write_chunks = LFZ_CHUNKS,
		.max_segs = LFZ_SEGS,
		.vers_low = RPCRDMA2_VERS_MIN, .vers_high = RPCRDMA2_VERS_MAX,
	};
	struct rpcrdma2_hdr *h = &l->hdr;
	struct rpcrdma2_reject rej;

	if (l->opts->l.verbose)
		print_hex("received", m, len);
	rpcrdma2_chunk_lists_init(&h->cl, &lim, l->reads, ARRAY_SIZE(l->reads),
				  l->read_chunks, ARRAY_SIZE(l->read_chunks),
				  l->writes, ARRAY_SIZE(l->writes), l->segs,
				  ARRAY_SIZE(l->segs));
	if (rpcrdma2_decode(m, len, h, &rej)) {
		/* a client sends nothing a server's codec rejects */
		printf("conn %u: a %u-byte message the codec rejects (%s)\n",
		       l->conns, len, rpcrdma2_reason_name(rej.reason));
		l->rejected++;
		return 0;
	}
	if (h->htype == RPCRDMA2_HT_CONNPROP) {
		l->connprops++;
		return 0;
	}
	if (h->htype == RPCRDMA2_HT_ERROR)
		return 0;
	if (is_reverse_reply(h, m)) {
		l->bc_replies++;
		return 0;
	}
	l->prev_xid = l->call.xid;
	lfz_take_call(l, h, m);
	l->calls++;
	l->conn_calls++;
	l->calls_vers[h->vers <= 2 ? h->vers : 0]++;
	l->calls_chunks += l->call.chunks;
	if (lfz_xid_seen(h->xid)) {
		l->retransmits++;
		l->reconnect_calls += l->conn_calls == 1;
	}
	if (l->opts->l.verbose)
		printf("conn %u: call xid 0x%08x v%u proc %u, %u+%u chunk segments\n",
		       l->conns, h->xid, h->vers, l->call.proc,
		       l->call.nr_write, l->call.nr_reply);
	return lfz_burst(l);
}

/* The end a failure on the connection means */
static enum lfz_end lfz_fail_end(const struct lfz *l)
{
	const struct conn *p = &l->c;

	if (l->broken)
		return LFZ_END_ERROR;
	if (p->disconnected)
		return LFZ_END_DISCONNECT;
	if (p->qp_failed)
		return p->recv_failed ? LFZ_END_RECV_FAILED :
					LFZ_END_SEND_FAILED;
	return LFZ_END_SEND_FAILED;
}

/* Serve the connection until it ends; says how */
static enum lfz_end lfz_serve(struct lfz *l)
{
	struct conn *p = &l->c;
	struct ibv_wc wc;
	u32 idx;
	int rc;

	while (l->delivered < l->opts->f.fuzz) {
		rc = listener_recv(&l->ls, p, &wc);
		if (rc == -ETIMEDOUT)
			return LFZ_END_TIMEOUT;
		if (rc == -ECONNRESET)
			return LFZ_END_DISCONNECT;
		if (rc)
			return lfz_fail_end(l);
		idx = (u32)wc.wr_id;
		if (lfz_handle_msg(l, conn_recv_buf(p, idx), wc.byte_len))
			return lfz_fail_end(l);
		if (conn_post_recv(p, idx))
			return LFZ_END_ERROR;
	}
	return LFZ_END_DONE;
}

/* ---- connections ------------------------------------------------------ */

/*
 * Accept with RFC 8797 private data (R set; our Send size 1 KiB on some
 * connections, which makes a v1 client offer a Reply chunk for any reply
 * over 1 KiB) and wait until established.
 */
static int lfz_accept(struct lfz *l)
{
	const struct lfz_opts *o = l->opts;
	struct conn *p = &l->c;
	u8 pdata[RPCRDMA2_CM_PDATA_SIZE];
	char why[48];

	rpcrdma2_cm_pdata_build(pdata, sizeof(pdata), true,
				l->small_pdata ? RPCRDMA2_CM_PDATA_MIN_SIZE :
						 o->l.size, o->l.size);
	if (conn_accept(p, pdata, sizeof(pdata), 0))
		return -1;
	return conn_established(p, why, sizeof(why));
}

/*
 * One connection, from its request to its end. One that is never
 * established (the client gave up waiting) ends as a disconnect would,
 * uncounted.
 */
static enum lfz_end lfz_connection(struct lfz *l, struct rdma_cm_event *ev)
{
	const struct lfz_opts *o = l->opts;
	struct conn *p = &l->c;
	enum lfz_end end = LFZ_END_DISCONNECT;
	u32 sent0 = l->delivered;

	listener_take(&l->ls, ev, p, LFZ_SENDS);
	lfz_stream(l, 5, l->conns);
	l->small_pdata = fuzz_below(&l->rng, 2);
	l->fallback = l->small_pdata && fuzz_below(&l->rng, 2);
	l->conn_calls = 0;
	l->nr_handles = 0;
	if (!lfz_accept(l)) {
		l->conns++;
		l->small_conns += l->small_pdata;
		end = lfz_serve(l);
		lfz_drain(l);
		l->ends[end]++;
		printf("conn %u: send size %u%s: %u calls, %u messages; closed: %s\n",
		       l->conns, l->small_pdata ? RPCRDMA2_CM_PDATA_MIN_SIZE :
		       o->l.size, l->fallback ? ", ERR_VERS to the first v2 call" :
		       "", l->conn_calls, l->delivered - sent0,
		       lfz_end_names[end]);
	}
	conn_close(p);
	conn_free(p);
	return end;
}

static void lfz_summary(const struct lfz *l)
{
	u32 i;

	printf("client fuzz: %u messages delivered over %u connections, seed %u\n",
	       l->delivered, l->conns, l->seed);
	printf("client fuzz: %u posted, %u of them lost with their connection\n",
	       l->sent, l->lost);
	printf("client fuzz: made from:");
	for (i = 0; i < LFZ_NR_KINDS; i++)
		printf(" %s %u", lfz_kind_names[i], l->by_kind[i]);
	printf("; %u mutated\n", l->mutated);
	printf("client fuzz: Send With Invalidate: real key %u, bogus key %u\n",
	       l->inv_real, l->inv_bogus);
	printf("client fuzz: RDMA Writes into a Reply chunk: %u\n",
	       l->rdma_writes);
	printf("client fuzz: correct replies closing a burst: %u (ERR_VERS 1..1: %u)\n",
	       l->closers, l->fallbacks);
	printf("client fuzz: connections with a 1 KiB send size: %u\n",
	       l->small_conns);
	printf("client fuzz: calls received: %u (v1 %u, v2 %u, with chunks %u)\n",
	       l->calls, l->calls_vers[1], l->calls_vers[2], l->calls_chunks);
	printf("client fuzz: calls again: %u, %u of them first on a new connection\n",
	       l->retransmits, l->reconnect_calls);
	printf("client fuzz: also received: %u reverse replies, %u RDMA2_CONNPROP, %u rejected\n",
	       l->bc_replies, l->connprops, l->rejected);
	printf("client fuzz: connections ended:");
	for (i = 0; i < LFZ_NR_ENDS; i++)
		printf("%s %s %u", i ? "," : "", lfz_end_names[i], l->ends[i]);
	printf("\n");
}

/*
 * Serve connections one after another, answering every Call with a
 * burst of mutated messages, until N messages have been sent (or
 * --timeout, or --max-conns), then print the summary. Returns 0, or -1
 * if listening failed or ended in a local error.
 */
static int lfz_main(const struct lfz_opts *o)
{
	static struct lfz lfz;
	struct lfz *l = &lfz;
	const char *why = NULL;
	struct rdma_cm_event *ev;
	enum lfz_end end;
	struct timespec t;
	int rc = -1;

	l->opts = o;
	if (corpus_load(&l->corpus, o->f.corpus))
		goto out;
	l->seed = o->f.seed;
	if (!o->f.have_seed) {
		clock_gettime(CLOCK_REALTIME, &t);
		l->seed = (u32)(t.tv_nsec ^ t.tv_sec ^ getpid());
	}
	printf("client fuzz: seed %u, %u corpus files from %s, %u messages\n",
	       l->seed, l->corpus.nfiles, l->corpus.dir, o->f.fuzz);
	if (listener_start(&l->ls, &o->l))
		goto out;
	listener_print(&l->ls, "fuzz", o->l.credits);
	end = LFZ_END_DISCONNECT;
	while (l->delivered < o->f.fuzz && end != LFZ_END_TIMEOUT &&
	       end != LFZ_END_ERROR &&
	       !(o->l.max_conns && l->conns == o->l.max_conns)) {
		ev = listener_next(&l->ls, false, &why);
		if (!ev) {
			end = strcmp(why, "--timeout") ? LFZ_END_ERROR :
			      LFZ_END_TIMEOUT;
			break;
		}
		end = lfz_connection(l, ev);
	}
	lfz_summary(l);
	printf("listen: %u connections, %u calls; stopped by %s\n", l->conns,
	       l->calls, end == LFZ_END_TIMEOUT ? "--timeout" :
	       end == LFZ_END_ERROR ? "an error" :
	       l->delivered >= o->f.fuzz ? "--fuzz" : "--max-conns");
	if (end != LFZ_END_ERROR)
		rc = 0;
out:
	listener_stop(&l->ls);
	corpus_free(&l->corpus);
	return rc;
}

static void print_help(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " --fuzz N [options]\n"
		"A wire fuzz of RPC-over-RDMA clients: accept connections on\n"
		"--port, one after another, and answer every Call with a burst\n"
		"of messages mutated from the --corpus and the Call's own chunks\n"
		"until N are delivered, then print a summary.\n"
		"\n"
		"Options:\n"
		"      --fuzz N          messages to deliver\n"
		"      --seed S          random seed (default: from the clock;\n"
		"                        printed)\n"
		"      --corpus DIR      the corpus (default: the source tree's\n"
		"                        tests/fuzz/corpus/fuzz_codec)\n");
	listen_opts_help(f);
	fprintf(f, "\nExit status: 0 success, 1 failure, 2 usage error.\n");
}

static int parse_args(int argc, char **argv, struct lfz_opts *o)
{
	struct opt_spec spec = {
		.shortopts = "p:t:vh",
		.help = print_help,
	};
	const char *bad;

	listen_opts_init(&o->l);
	opts_listener(&spec, &o->l);
	opts_fuzzer(&spec, &o->f);
	bad = opts_parse(argc, argv, &spec);
	if (!bad && !o->f.fuzz)
		bad = "--fuzz N is required";
	if (!bad && argc != optind)
		bad = PROG " takes no HOST (--bind ADDR)";
	return bad ? usage_error(bad, "--fuzz N [options]") : 0;
}

int main(int argc, char **argv)
{
	struct lfz_opts o = { 0 };

	tool_start(PROG);
	if (parse_args(argc, argv, &o))
		return 2;
	return lfz_main(&o) ? 1 : 0;
}
