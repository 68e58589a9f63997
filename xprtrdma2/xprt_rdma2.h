/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xprtrdma2: the client side of RPC-over-RDMA Version 2
 * (draft-cel-nfsv4-rpcrdma-version-two-09) with Version 1 (RFC 8166)
 * fallback, a sunrpc transport class with netid "rdma2". Private
 * declarations shared by the layers: transport.c (the rpc_xprt_ops table,
 * knobs, connect worker, mountstats), verbs.c (rdma_cm, the endpoint,
 * Send and Receive contexts and their completions), frwr.c (memory
 * registration for chunks, and its invalidation), marshal.c (transport
 * headers out, replies in, version negotiation) and policy.c (pure
 * decisions, KUnit-tested; those every RPC makes are inline here).
 */
#ifndef _XPRT_RDMA2_H
#define _XPRT_RDMA2_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/llist.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/scatterlist.h>
#include <linux/sunrpc/xprt.h>
#include <linux/wordpart.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include <rpcrdma2/cid.h>
#include <rpcrdma2/cm_pdata.h>
#include <rpcrdma2/codec.h>

/*
 * Our transport ident: none of the in-tree ones (UDP 17, TCP 6, RDMA 256,
 * LOCAL 257, TCP_TLS 258, the BC bit), clear of the next upstream values,
 * and within the NFS client's unsigned short.
 */
#define XPRT_TRANSPORT_RDMA2		0x2002

/*
 * Per-transport counters, named in transport.c's xprt_rdma2_counter_names
 * (/proc/fs/xprtrdma2/stats) and shown in this order on the mountstats
 * "xprt:" line.
 */
enum rpcrdma2_counter {
	RPCRDMA2_C_CALLS_INLINE,	/* Calls sent as RDMA_MSG / RDMA2_MSG */
	RPCRDMA2_C_REPLIES,		/* replies matched to a Call */
	RPCRDMA2_C_BAD_REPLIES,		/* replies discarded (codec, version) */
	RPCRDMA2_C_NO_RQST,		/* replies with an xid nobody waits for */
	RPCRDMA2_C_ERRORS,		/* RDMA_ERROR / RDMA2_ERROR received */
	RPCRDMA2_C_FALLBACKS,		/* ERR_VERS: connection fell back to v1 */
	RPCRDMA2_C_CONNPROP_RECV,	/* RDMA2_CONNPROP received */
	RPCRDMA2_C_CONNPROP_SENT,	/* RDMA2_CONNPROP sent */
	RPCRDMA2_C_REMOTE_INV,		/* Receives with IB_WC_WITH_INVALIDATE */
	RPCRDMA2_C_TOO_BIG,		/* Calls that fit no way we can send */
	RPCRDMA2_C_NO_SENDCTX,		/* sends that waited for a Send context */
	RPCRDMA2_C_REVERSE_DROPPED,	/* reverse-direction Calls not taken */
	/* append only: mountstats fields keep their places */
	RPCRDMA2_C_LONG_CALLS,		/* Calls sent as NOMSG + Read chunk */
	RPCRDMA2_C_REPLY_CHUNKS,	/* Calls that offered a Reply chunk */
	RPCRDMA2_C_MRS_REGISTERED,	/* MRs registered (REG_MR posted) */
	RPCRDMA2_C_REMOTE_INV_MATCHED,	/* remote invalidations of our MRs */
	RPCRDMA2_C_REMOTE_INV_FOREIGN,	/* ... of an rkey not of that RPC */
	RPCRDMA2_C_LOCAL_INV,		/* MRs invalidated with LOCAL_INV */
	RPCRDMA2_C_BAD_REPLY_CHUNKS,	/* returned Reply/Write chunks refused */
	/* direct data placement */
	RPCRDMA2_C_READ_CHUNKS,		/* Calls whose payload went by Read chunk */
	RPCRDMA2_C_WRITE_CHUNKS,	/* Calls that offered a Write chunk */
	RPCRDMA2_C_WRITE_BYTES,		/* payload bytes the server wrote there */
	/* the reverse direction (backchannel.c) */
	RPCRDMA2_C_BC_CALLS,		/* reverse-direction Calls taken */
	RPCRDMA2_C_BC_REPLIES,		/* their replies sent */
	RPCRDMA2_C_BC_REPLY_ERRORS,	/* replies that could not be sent */
	/* the MR pool (frwr.c) */
	RPCRDMA2_C_MRS_CREATED,		/* MRs allocated */
	RPCRDMA2_C_NO_MRS,		/* sends that waited for an MR */
	RPCRDMA2_C_MR_REFILL_ERRORS,	/* refills that allocated nothing */
	RPCRDMA2_C_SENDS_SIGNALED,	/* Sends that asked for a completion */
	RPCRDMA2_C_RECV_POSTS,		/* posts of consumed Receives */
	/* reply guessing (rpcrdma2_guess_inline()) */
	RPCRDMA2_C_REPLY_GUESSES,	/* Calls that left a Reply chunk out */
	RPCRDMA2_C_REPLY_GUESS_MISSES,	/* ... refused, and sent with it */
	RPCRDMA2_C_RBSIZ_REFUSED,	/* Calls that counted on our RBSIZ, refused */
	/* Send buffers, made as they are first wanted (verbs.c) */
	RPCRDMA2_C_SEND_BUFS,		/* Send buffers allocated */
	RPCRDMA2_C_SEND_BUF_ERRORS,	/* ... that could not be */
	RPCRDMA2_NR_COUNTERS
};

/**
 * struct rpcrdma2_sendctx - one Send and the buffer it reads from
 * @sc_cqe: completion handler of the Send
 * @sc_cid: completion ID
 * @sc_ep: the endpoint it belongs to
 * @sc_free: entry on &rpcrdma2_ep.re_send_free, or on re_send_taken
 *	once rpcrdma2_sendctx_get() has taken it off; while a signaled Send
 *	is in flight, the head of the contexts its completion retires: its
 *	own, then the unsignaled Sends posted since the last signaled one
 * @sc_wr: the Send work request
 * @sc_sge: its gather entry
 * @sc_buf: transport header and RPC message, &rpcrdma2_ep.re_send_size
 *	bytes, DMA-mapped from the context's first use (rpcrdma2_sendctx_get())
 *	to the end of the endpoint
 * @sc_sq_wrs: Send Queue entries the Send and the unsignaled REG_MRs
 *	chained before it hold until the Send completes
 * @sc_signaled: the Send asks for a completion (rpcrdma2_post_send())
 * @sc_batch_last: a signaled Send's: the last context its completion
 *	retires (the oldest unsignaled one, or its own)
 * @sc_batch_wrs: a signaled Send's: the Send Queue entries its
 *	completion retires, its own and those of the unsignaled Sends
 *
 * A Send owns its context until the Send completes, whatever happens to
 * the RPC it carried, so a buffer the device may still read is never
 * reused: an unsignaled Send's, until the completion of the signaled one
 * posted after it, which the device reports only after both are done.
 */
struct rpcrdma2_sendctx {
	struct ib_cqe		sc_cqe;
	struct rpcrdma2_cid	sc_cid;
	struct rpcrdma2_ep	*sc_ep;
	struct llist_node	sc_free;
	struct ib_send_wr	sc_wr;
	struct ib_sge		sc_sge;
	void			*sc_buf;
	u32			sc_sq_wrs;
	bool			sc_signaled;
	struct llist_node	*sc_batch_last;
	u32			sc_batch_wrs;
};

/*
 * MRs one chunk may take (frwr.c): the head, the pages and the tail
 * usually need one each (FRWR cannot join regions that do not meet at
 * page boundaries), and one more for a page list longer than the
 * device's depth.
 */
#define RPCRDMA2_MAX_CHUNK_MRS		4
/*
 * Decoder limits for what arrives on a Receive: a reply returns the
 * chunks its Call offered (RFC 8166 §4.3.2), and a Call of ours offers
 * one Write chunk or a Reply chunk (rpcrdma2_hdr_chunks()), each of
 * one segment per MR. A reply with more is refused by the decoder and
 * discarded (§4.5); one within them that returns chunks other than the
 * Call's fails its RPC (rpcrdma2_reply_msg()).
 */
#define RPCRDMA2_REPLY_WRITE_CHUNKS	1
#define RPCRDMA2_REPLY_SEGS		RPCRDMA2_MAX_CHUNK_MRS
/* every Write chunk and the Reply chunk at their largest */
#define RPCRDMA2_REPLY_SEGS_CAP		((RPCRDMA2_REPLY_WRITE_CHUNKS + 1) * \
					 RPCRDMA2_REPLY_SEGS)

/**
 * struct rpcrdma2_rep - one Receive and the message it brought
 * @rr_cqe: completion handler of the Receive
 * @rr_cid: completion ID
 * @rr_ep: the endpoint it belongs to
 * @rr_wr: the Receive work request
 * @rr_sge: its scatter entry
 * @rr_buf: receive buffer, &rpcrdma2_ep.re_recv_size bytes, DMA-mapped
 *	for the life of the endpoint
 * @rr_hdr: the decoded transport header
 * @rr_writes: Write chunk array for @rr_hdr (a reply has no Read list:
 *	the limits accept none, and the decoder needs no array for it)
 * @rr_segs: Write/Reply segment array for @rr_hdr
 * @rr_ref: held by its Receive completion, and by an RPC whose inline
 *	bytes are still in @rr_buf (struct rpcrdma2_req.rl_rep); the
 *	last put gives it back to be posted again (rpcrdma2_rep_put())
 * @rr_held: entry on &rpcrdma2_ep.re_recv_held once the last put has
 *	given it back, until it is posted again
 */
struct rpcrdma2_rep {
	struct ib_cqe			rr_cqe;
	struct rpcrdma2_cid		rr_cid;
	struct rpcrdma2_ep		*rr_ep;
	struct ib_recv_wr		rr_wr;
	struct ib_sge			rr_sge;
	void				*rr_buf;
	struct rpcrdma2_hdr		rr_hdr;
	struct rpcrdma2_chunk		rr_writes[RPCRDMA2_REPLY_WRITE_CHUNKS];
	struct rpcrdma2_seg		rr_segs[RPCRDMA2_REPLY_SEGS_CAP];
	refcount_t			rr_ref;
	struct llist_node		rr_held;
};

/*
 * Reply guessing (rpcrdma2_guess_inline() below): slots in a
 * transport's table of procedures; the replies in a row that must have
 * been small before a Call of the procedure leaves its Reply chunk out,
 * doubled by each refusal; where the count stops; the refusals after
 * which a procedure guesses no more.
 */
#define RPCRDMA2_GUESS_BITS		5
#define RPCRDMA2_GUESS_RUN		8
#define RPCRDMA2_GUESS_CAP		255
#define RPCRDMA2_GUESS_MISSES_MAX	5
/* the last refusal leaves a run no procedure can reach */
static_assert((RPCRDMA2_GUESS_RUN << RPCRDMA2_GUESS_MISSES_MAX) >
	      RPCRDMA2_GUESS_CAP);

/* DDP chunks of a Call (rpcrdma2_error_resend()) */
#define RPCRDMA2_DDP_READ		0x1	/* a Read chunk of its data */
#define RPCRDMA2_DDP_WRITE		0x2	/* a Write chunk for the reply's */

/*
 * MRs an endpoint allocates at a time (frwr.c): at connect, and each time
 * its pool runs dry, up to two chunks per slot. One batch is the most
 * one RPC takes, so one RPC can always go.
 */
#define RPCRDMA2_MR_BATCH		(2 * RPCRDMA2_MAX_CHUNK_MRS)
/* The largest RPC payload: Long Calls and Long Replies carry it */
#define RPCRDMA2_MAX_PAYLOAD		(1024 * 1024)
/*
 * Pages one MR maps at most (frwr.c): the largest payload's, so that its
 * scatterlist is one 8 KiB kmalloc object with 4 KiB pages (two pages
 * more took a 16 KiB page allocation per MR); a payload that does not
 * start on a page boundary spans one page more and takes two MRs. The
 * device and the mr_depth parameter may allow fewer.
 */
#define RPCRDMA2_MAX_MR_DEPTH		(RPCRDMA2_MAX_PAYLOAD >> PAGE_SHIFT)
#define RPCRDMA2_MIN_MR_DEPTH		4
/*
 * Send Queue entries (verbs.c). A Send holds its own and those of the
 * REG_MRs chained before it, two chunks' worth at most (a Read chunk,
 * and a Write or a Reply chunk), until its completion is reaped, which
 * may be long after its RPC has finished. A LOCAL_INV chain holds one
 * entry for each MR of its RPC.
 */
#define RPCRDMA2_SQ_PER_SEND		(2 * RPCRDMA2_MAX_CHUNK_MRS + 1)
#define RPCRDMA2_SQ_PER_INV		(2 * RPCRDMA2_MAX_CHUNK_MRS)

/**
 * struct rpcrdma2_mr - one FRWR memory region and its work requests
 * @mr_cqe: completion of its REG_MR (unsignaled: errors and flushes only)
 * @mr_cid: completion ID
 * @mr_inv_cqe: completion of its LOCAL_INV
 * @mr_ep: the endpoint whose protection domain it lives in
 * @mr_list: on &rpcrdma2_ep.re_mr_free, or on &rpcrdma2_req.rl_mrs
 * @mr_all: on &rpcrdma2_ep.re_mr_all from its creation to its end
 * @mr_req: the request it is registered for, while on its list
 * @mr_ibmr: the verbs MR
 * @mr_sg: scatterlist of its pages (&rpcrdma2_ep.re_mr_depth entries)
 * @mr_nents: entries of @mr_sg DMA-mapped, 0 when unmapped
 * @mr_dir: DMA direction of the mapping
 * @mr_reg_wr: its IB_WR_REG_MR
 * @mr_inv_wr: its IB_WR_LOCAL_INV
 */
struct rpcrdma2_mr {
	struct ib_cqe			mr_cqe;
	struct rpcrdma2_cid		mr_cid;
	struct ib_cqe			mr_inv_cqe;
	struct rpcrdma2_ep		*mr_ep;
	struct list_head		mr_list;
	struct list_head		mr_all;
	struct rpcrdma2_req		*mr_req;
	struct ib_mr			*mr_ibmr;
	struct scatterlist		*mr_sg;
	int				mr_nents;
	enum dma_data_direction		mr_dir;
	struct ib_reg_wr		mr_reg_wr;
	struct ib_send_wr		mr_inv_wr;
};

/**
 * struct rpcrdma2_regchain - REG_MR work requests to post before a Send
 * @first: the first, or NULL
 * @next: where the next one is linked
 * @count: how many
 */
struct rpcrdma2_regchain {
	struct ib_send_wr		*first;
	struct ib_send_wr		**next;
	u32				count;
};

/**
 * struct rpcrdma2_req - what the transport keeps for one RPC
 * @rl_list: entry on &rpcrdma2_xprt.rx_reqs
 * @rl_rqst: the RPC
 * @rl_ep: the endpoint the MRs on @rl_mrs belong to, or NULL
 * @rl_sent_ep: the endpoint whose Send carried the Call and whose reply
 *	is awaited; NULL before the Send is posted and once a reply is
 *	taken, so that one Send gets one answer (a duplicate, or a reply to
 *	a Call not yet sent, is not matched)
 * @rl_mrs: MRs registered for this RPC (struct rpcrdma2_mr.mr_list)
 * @rl_reads: the Read chunk: the whole Call at position zero (a Long
 *	Call), or the Call's payload at its XDR position (DDP)
 * @rl_nr_reads: its segments, 0 for a Call without one
 * @rl_write: the Write chunk offered for the reply's payload (DDP)
 * @rl_nr_write: its segments, 0 when none is offered
 * @rl_reply: the Reply chunk offered
 * @rl_nr_reply: its segments, 0 when none is offered
 * @rl_ddp_off: RPCRDMA2_DDP_* chunks this RPC no longer uses, after the
 *	server refused them (rpcrdma2_error_resend())
 * @rl_guess_tag: the tag of the RPC's procedure (a hash of its
 *	rpc_procinfo, never 0) when this transmission needed a Reply chunk
 *	on a version 2 connection, so its reply teaches
 *	&rpcrdma2_xprt.rx_guess; else 0
 * @rl_guessed: this transmission left that Reply chunk out
 * @rl_rbsiz: this transmission left out a chunk the server's default
 *	RBSIZ would have needed (&rpcrdma2_ep.re_inline_recv_def)
 * @rl_no_guess: this request's transmissions offer the Reply chunk from
 *	now on: a guess was refused (RDMA2_ERR_REPLY_RESOURCE) or went
 *	unanswered, or the server refused a Write chunk (draft §5.3.3: the
 *	resend carries a Reply chunk)
 * @rl_status: the reply's outcome, held while its MRs are invalidated
 * @rl_rep: the Receive whose inline bytes go into the receive buffer
 *	once no MR of this RPC is mapped any more (rpcrdma2_reply_done()),
 *	or NULL
 * @rl_copy_pos: bytes of it that go at the front of the receive buffer;
 *	after a Write chunk's payload, the rest follows the payload and
 *	its roundup
 * @rl_copy_written: payload bytes the server wrote into the Write chunk
 * @rl_inv_wrs: Send Queue entries its LOCAL_INV chain holds
 * @rl_inv_done: ->buf_free waits here for its LOCAL_INVs
 * @rl_buf: the Call's send buffer, then its receive buffer (rq_buffer
 *	and rq_rbuffer point in here)
 *
 * Who touches @rl_ep and @rl_mrs (the rule, see also frwr.c):
 *  - the send path, holding the send lock, registers MRs of the current
 *    endpoint; the Receive completion of the reply, with the rqst
 *    pinned, invalidates them and completes the RPC only from the
 *    LOCAL_INV completion, so xprt_release() (which waits for the pin)
 *    and ->buf_free never run meanwhile; if that LOCAL_INV cannot be
 *    posted, the RPC is unpinned without completing and is sent again
 *    on the next connection: its MRs stay on @rl_mrs until teardown has
 *    drained the QP;
 *  - ->buf_free (RPC ended without a reply) and rpcrdma2_ep_disconnect()
 *    both hold &rpcrdma2_xprt.rx_mr_mutex: ->buf_free posts LOCAL_INV
 *    and waits for it, unless the endpoint's QP is already in the error
 *    state; ep_disconnect moves the QP to error, then takes the mutex,
 *    drains the Receive Queue (no new LOCAL_INV from replies) and the
 *    Send Queue (every LOCAL_INV completion has run), and only then
 *    unmaps what is left on every request of &rpcrdma2_xprt.rx_reqs
 *    and clears @rl_ep, so a retransmission registers anew.
 */
struct rpcrdma2_req {
	struct list_head		rl_list;
	struct rpc_rqst			*rl_rqst;
	struct rpcrdma2_ep		*rl_ep;
	struct rpcrdma2_ep		*rl_sent_ep;
	struct list_head		rl_mrs;
	struct rpcrdma2_read_seg	rl_reads[RPCRDMA2_MAX_CHUNK_MRS];
	u32				rl_nr_reads;
	struct rpcrdma2_seg		rl_write[RPCRDMA2_MAX_CHUNK_MRS];
	u32				rl_nr_write;
	struct rpcrdma2_seg		rl_reply[RPCRDMA2_MAX_CHUNK_MRS];
	u32				rl_nr_reply;
	u32				rl_ddp_off;
	u32				rl_guess_tag;
	bool				rl_guessed;
	bool				rl_rbsiz;
	bool				rl_no_guess;
	int				rl_status;
	struct rpcrdma2_rep		*rl_rep;
	u32				rl_copy_pos;
	u32				rl_copy_written;
	u32				rl_inv_wrs;
	struct completion		rl_inv_done;
	u8				rl_buf[] __aligned(8);
};

static inline struct rpcrdma2_req *rpcrdma2_rqst_to_req(struct rpc_rqst *rqst)
{
	return container_of(rqst->rq_buffer, struct rpcrdma2_req, rl_buf[0]);
}

/**
 * struct rpcrdma2_ep - one connection attempt and the resources it holds
 * @re_xprt: the transport this endpoint serves
 * @re_id: rdma_cm identifier
 * @re_pd: protection domain
 * @re_scq: Send completion queue
 * @re_rcq: Receive completion queue
 * @re_done: rdma_cm steps (address, route, connection) report here
 * @re_cm_status: result of the last rdma_cm step: 0 pending, 1 done,
 *	or a negative errno
 * @re_connected: ESTABLISHED was seen and no disconnect yet
 * @re_closing: teardown started; later CM events close nothing
 * @re_peer: the server's RFC 8797 private data, or the v1 defaults
 * @re_dev_reminv: the device can take remote invalidation (R bit)
 * @re_send_size: our Send buffer size
 * @re_recv_size: our Receive buffer size, advertised in private data and
 *	as RBSIZ
 * @re_max_requests: Calls we may have outstanding (the slot table)
 * @re_vers: version of the connection; 0 while the first Call's answer
 *	is awaited (draft §7)
 * @re_try_vers: the version the first Call went out in
 * @re_first_xid: xid of that first Call, whose answer decides the version
 * @re_first_sent: the first Call has gone out
 * @re_probe_work: gives up on an unanswered first version 2 Call
 *	(rpcrdma2_probe_arm())
 * @re_v1_send: RFC 8797 client-to-server inline threshold
 * @re_v1_recv: RFC 8797 server-to-client inline threshold
 * @re_peer_rbsiz: v2: the server's Receive Buffer Size (draft §4.2.1)
 * @re_peer_brs: v2: the server's Reverse Request Support (draft §4.2.2)
 * @re_inline_send: the largest Call we may send inline now; worked out
 *	from the fields above whenever one of them changes
 *	(rpcrdma2_ep_set_inline()), not for every Call
 * @re_inline_recv: the largest reply the server may send inline now;
 *	likewise
 * @re_inline_recv_def: what @re_inline_recv would be if the server kept
 *	the default RBSIZ for us: a Call whose reply fits @re_inline_recv
 *	but not this counts on the server having read our RDMA2_CONNPROP
 * @re_rbsiz_known: v2: the server's RDMA2_CONNPROP carried RBSIZ: it
 *	knows the property, and is taken to have read ours
 * @re_rbsiz_refused: v2: a Call that counted on it was refused
 *	(RDMA2_ERR_REPLY_RESOURCE): not for the rest of the connection
 * @re_connprop_sent: v2: our RDMA2_CONNPROP has gone out
 * @re_ddp_off: RPCRDMA2_DDP_* chunks the server refuses on this
 *	connection (rpcrdma2_error_conn_off())
 * @re_next_cid: completion ID generator
 * @re_send_free: idle Send contexts given back
 * @re_send_taken: idle Send contexts rpcrdma2_sendctx_get() took off
 *	@re_send_free all at once, to hand out one by one without an
 *	atomic each
 * @re_sendctxs: every Send context (array of @re_nr_sendctxs)
 * @re_nr_sendctxs: Send contexts
 * @re_sendctxs_made: the first this many of @re_sendctxs have their
 *	buffer; the others have not been wanted yet
 * @re_send_batch: one Send in this many asks for a completion
 * @re_unsig_first: the unsignaled Sends posted since the last signaled
 *	one, newest first, linked through sc_free; NULL if none
 * @re_unsig_last: the oldest of them
 * @re_unsig_count: how many they are
 * @re_unsig_wrs: the Send Queue entries they hold
 * @re_sq_depth: Send Queue entries: every Send context with its REG_MRs
 *	(RPCRDMA2_SQ_PER_SEND), and a LOCAL_INV chain (RPCRDMA2_SQ_PER_INV)
 *	for every RPC that may hold one (rpcrdma2_ep_create_qp())
 * @re_sq_avail: Send Queue entries not held by a posted work request;
 *	taken before every post, given back by the signaled completion
 *	that retires them, so the Send Queue never overflows
 * @re_qp_dead: the QP is in the error state: no remote access through it
 * @re_mr_all: every MR of the endpoint
 * @re_nr_mrs: MRs on @re_mr_all; grows by RPCRDMA2_MR_BATCH
 * @re_max_mrs: the most the pool grows to: two chunks for every slot
 * @re_mr_depth: pages one MR maps
 * @re_mr_free: idle MRs
 * @re_mr_lock: protects @re_mr_free, @re_mr_all and @re_nr_mrs
 * @re_mr_refill: grows the pool once it has run dry
 * @re_mr_refill_failed: the last refill allocated nothing
 * @re_reps: every Receive context (array of @re_rq_depth)
 * @re_rq_depth: Receive contexts: those the server may fill at once, and
 *	the 2 * RPCRDMA2_RECV_BATCH that may be held for a batch
 * @re_recv_held: consumed Receives waiting to be posted again in a batch
 * @re_recv_nheld: Receives ever put on @re_recv_held; every
 *	RPCRDMA2_RECV_BATCH-th posts what is there
 */
struct rpcrdma2_ep {
	struct rpcrdma2_xprt		*re_xprt;
	struct rdma_cm_id		*re_id;
	struct ib_pd			*re_pd;
	struct ib_cq			*re_scq;
	struct ib_cq			*re_rcq;
	struct completion		re_done;
	int				re_cm_status;
	bool				re_connected;
	atomic_t			re_closing;

	struct rpcrdma2_cm_pdata	re_peer;
	bool				re_dev_reminv;
	u32				re_send_size;
	u32				re_recv_size;
	u32				re_max_requests;

	u32				re_vers;
	u32				re_try_vers;
	u32				re_first_xid;
	bool				re_first_sent;
	struct delayed_work		re_probe_work;
	u32				re_v1_send;
	u32				re_v1_recv;
	u32				re_peer_rbsiz;
	u32				re_peer_brs;
	u32				re_inline_send;
	u32				re_inline_recv;
	u32				re_inline_recv_def;
	bool				re_rbsiz_known;
	bool				re_rbsiz_refused;
	bool				re_connprop_sent;
	u32				re_ddp_off;

	atomic_t			re_next_cid;
	struct llist_head		re_send_free;
	struct llist_node		*re_send_taken;
	struct rpcrdma2_sendctx		*re_sendctxs;
	u32				re_nr_sendctxs;
	u32				re_sendctxs_made;
	u32				re_send_batch;
	struct llist_node		*re_unsig_first;
	struct llist_node		*re_unsig_last;
	u32				re_unsig_count;
	u32				re_unsig_wrs;
	u32				re_sq_depth;
	atomic_t			re_sq_avail;
	bool				re_qp_dead;
	struct list_head		re_mr_all;
	u32				re_nr_mrs;
	u32				re_max_mrs;
	u32				re_mr_depth;
	struct list_head		re_mr_free;
	spinlock_t			re_mr_lock;	/* the pool's lists */
	struct work_struct		re_mr_refill;
	bool				re_mr_refill_failed;
	struct rpcrdma2_rep		*re_reps;
	u32				re_rq_depth;
	struct llist_head		re_recv_held;
	atomic_t			re_recv_nheld;
};

/**
 * struct rpcrdma2_xprt - an rdma2 client transport
 * @rx_xprt: the generic RPC transport
 * @rx_ep: the current endpoint, or NULL; changed only by the connect
 *	worker and ->close, which both hold the transport's send lock
 * @rx_connect_worker: establishes a connection
 * @rx_reqs: requests with buffers (transport.c), so that a reconnect
 *	can take back their congestion slots
 * @rx_reqs_lock: protects @rx_reqs
 * @rx_mr_mutex: ->buf_free's LOCAL_INV against endpoint teardown (see
 *	struct rpcrdma2_req)
 * @rx_timeout: the timeout ->set_connect_timeout installs
 * @rx_v1_next: the next connection starts in version 1: the server
 *	answered ERR_VERS and no version 1 reply has come since (draft §7.2:
 *	no negotiation loop if the connection is lost right after it)
 * @rx_v2_silent: a first version 2 Call went unanswered: every later
 *	connection of this transport starts in version 1 (draft §7.2)
 * @rx_vers: version of the last connection, for mountstats
 * @rx_send_inline: its client-to-server inline threshold
 * @rx_recv_inline: its server-to-client inline threshold
 * @rx_stats: counters (enum rpcrdma2_counter), per CPU: every RPC bumps
 *	several, and a shared atomic would bounce between the CPUs that
 *	send and those that complete; rpcrdma2_stat() sums them
 * @rx_stats_link: entry on the list of transports /proc/fs/xprtrdma2/stats
 *	shows (transport.c), from ->setup until ->destroy
 * @rx_bc_open: the NFS client's backchannel is set up: reverse-direction
 *	Calls may go to xprt->bc_serv (backchannel.c); under bc_pa_lock
 * @rx_bc_busy: reverse-direction Calls handed to the callback service
 *	and not yet given back
 * @rx_guess: per procedure (hashed, rpcrdma2_guess_slot()), the record
 *	rpcrdma2_guess_next() keeps: how many of its replies in a row were
 *	small enough to come inline, and its refusals; read and written
 *	without a lock (a torn update only costs a Reply chunk, or
 *	a refused guess and a resend). It outlives connections, as the
 *	upper layer's reply sizes do.
 */
struct rpcrdma2_xprt {
	struct rpc_xprt			rx_xprt;
	struct rpcrdma2_ep		*rx_ep;
	struct delayed_work		rx_connect_worker;
	struct list_head		rx_reqs;
	spinlock_t			rx_reqs_lock;	/* rx_reqs */
	struct mutex			rx_mr_mutex;	/* see rpcrdma2_req */
	struct rpc_timeout		rx_timeout;
	bool				rx_v1_next;
	bool				rx_v2_silent;
	u32				rx_vers;
	u32				rx_send_inline;
	u32				rx_recv_inline;
	u64 __percpu			*rx_stats;
	struct list_head		rx_stats_link;
	bool				rx_bc_open;	/* bc_pa_lock */
	atomic_t			rx_bc_busy;
	u64				rx_guess[1 << RPCRDMA2_GUESS_BITS];
};

static inline struct rpcrdma2_xprt *rpcx_to_rdma2x(struct rpc_xprt *xprt)
{
	return container_of(xprt, struct rpcrdma2_xprt, rx_xprt);
}

/* inline always: a call costs more than the one instruction it wraps */
static __always_inline void rpcrdma2_count(struct rpcrdma2_xprt *r,
					   enum rpcrdma2_counter c, u64 n)
{
	this_cpu_add(r->rx_stats[c], n);
}

/* Defaults and bounds of the module parameters (transport.c) */
#define RPCRDMA2_DEF_REQUESTS		64
#define RPCRDMA2_MIN_REQUESTS		2
#define RPCRDMA2_MAX_REQUESTS		1024
/*
 * A 4 KiB READ or WRITE with its RPC and transport headers fits an
 * 8 KiB buffer: the commonest small payload then needs no MR, no RDMA
 * Read or Write and no invalidation (draft §8.3). A peer that offers
 * less (the in-tree ones: 4096) still gets no more than it offers
 * (RFC 8797 §4.1; draft §4.2.1's RBSIZ).
 */
#define RPCRDMA2_DEF_INLINE_SIZE	8192
#define RPCRDMA2_MIN_INLINE_SIZE	RPCRDMA2_V2_DEF_INLINE
#define RPCRDMA2_MAX_INLINE_SIZE	(64 * 1024)
/* Receives beyond the slot table: the server's CONNPROP, stray messages */
#define RPCRDMA2_EXTRA_RECVS		4
/*
 * Consumed Receives are posted again this many at a time, one post (one
 * doorbell on hardware) for all; twice as many Receives more than the
 * server may fill keep it from finding none while some are held, even
 * with the Receive and Send completions each giving some back.
 */
#define RPCRDMA2_RECV_BATCH		8
/* Send contexts beyond the slot table: CONNPROP, a v1 resend */
#define RPCRDMA2_EXTRA_SENDS		4
/*
 * One Send in (slot table >> RPCRDMA2_SEND_BATCH_SHIFT) asks for a
 * completion: a completion per Call costs the device a CQE and the host
 * a CQ poll, and one every few retires the Sends before it as well.
 */
#define RPCRDMA2_SEND_BATCH_SHIFT	3
/*
 * How long the first version 2 Call of a connection may go unanswered
 * before we take the server for one that drops version 2 (draft §7.2),
 * at most: half the RPC's own timeout if that is shorter
 */
#define RPCRDMA2_PROBE_TO		(5 * HZ)
/*
 * Reverse-direction Calls we take at a time (backchannel.c): each has a
 * Receive and a Send context of its own beside the forward channel's.
 */
#define RPCRDMA2_BC_SLOTS		8
/*
 * How long ->bc_destroy waits for the callback service to finish the
 * reverse-direction Calls it was given (backchannel.c)
 */
#define RPCRDMA2_BC_DRAIN_TO		(10 * HZ)

/* transport.c */
extern unsigned int xprt_rdma2_max_requests;
extern unsigned int xprt_rdma2_inline_size;
extern bool xprt_rdma2_guess_replies;
extern unsigned int xprt_rdma2_mr_depth;

/* verbs.c */
int rpcrdma2_ep_connect(struct rpcrdma2_xprt *r);
void rpcrdma2_ep_disconnect(struct rpcrdma2_xprt *r);
void rpcrdma2_ep_close(struct rpcrdma2_ep *ep);
struct rpcrdma2_sendctx *rpcrdma2_sendctx_get(struct rpcrdma2_ep *ep);
int rpcrdma2_post_send(struct rpcrdma2_ep *ep, struct rpcrdma2_sendctx *sc,
		       u32 len, struct rpcrdma2_regchain *regs);
void rpcrdma2_rep_put(struct rpcrdma2_rep *rep);
int rpcrdma2_sq_get(struct rpcrdma2_ep *ep, u32 n);
void rpcrdma2_sq_put(struct rpcrdma2_ep *ep, u32 n);
void rpcrdma2_cid_init(struct rpcrdma2_ep *ep, struct ib_cq *cq,
		       struct rpcrdma2_cid *cid);

/* backchannel.c */
int xprt_rdma2_bc_setup(struct rpc_xprt *xprt, unsigned int reqs);
size_t xprt_rdma2_bc_maxpayload(struct rpc_xprt *xprt);
unsigned int xprt_rdma2_bc_num_slots(struct rpc_xprt *xprt);
void xprt_rdma2_bc_free_rqst(struct rpc_rqst *rqst);
void xprt_rdma2_bc_destroy(struct rpc_xprt *xprt, unsigned int reqs);
void rpcrdma2_bc_free_idle(struct rpc_xprt *xprt);
void rpcrdma2_bc_receive_call(struct rpcrdma2_rep *rep);
int rpcrdma2_bc_send_reply(struct rpcrdma2_xprt *r, struct rpc_rqst *rqst);

/* frwr.c */
void rpcrdma2_frwr_pool_init(struct rpcrdma2_ep *ep);
int rpcrdma2_frwr_pool_create(struct rpcrdma2_ep *ep);
void rpcrdma2_frwr_pool_destroy(struct rpcrdma2_ep *ep);
bool rpcrdma2_frwr_have_idle(struct rpcrdma2_ep *ep);
/* rpcrdma2_frwr_map()'s flags */
#define RPCRDMA2_MAP_PAGES		BIT(0)
#define RPCRDMA2_MAP_WRITABLE		BIT(1)
int rpcrdma2_frwr_map(struct rpcrdma2_ep *ep, struct rpcrdma2_req *req,
		      const struct xdr_buf *xdr, unsigned int flags,
		      struct rpcrdma2_seg *segs, u32 *nsegs,
		      struct rpcrdma2_regchain *chain);
void rpcrdma2_frwr_release_all(struct rpcrdma2_req *req);
bool rpcrdma2_frwr_reminv(struct rpcrdma2_req *req, u32 rkey);
int rpcrdma2_frwr_unmap_async(struct rpcrdma2_req *req);
void rpcrdma2_frwr_unmap_sync(struct rpcrdma2_xprt *r,
			      struct rpcrdma2_req *req);
void rpcrdma2_frwr_reclaim(struct rpcrdma2_xprt *r, struct rpcrdma2_ep *ep);

/* marshal.c */
int rpcrdma2_send_call(struct rpcrdma2_xprt *r, struct rpc_rqst *rqst);
void rpcrdma2_reply_handler(struct rpcrdma2_rep *rep, u32 byte_len,
			    const u32 *inv_rkey);
void rpcrdma2_reply_done(struct rpcrdma2_req *req);
void rpcrdma2_send_connprop(struct rpcrdma2_ep *ep);
void rpcrdma2_reply_limits(struct rpcrdma2_limits *lim);
void rpcrdma2_copy_from_xdr(u8 *dst, const struct xdr_buf *xdr, bool reduced);
void rpcrdma2_probe_expired(struct work_struct *work);
void rpcrdma2_ep_set_inline(struct rpcrdma2_ep *ep);

/*
 * Pure decisions, no I/O, KUnit-tested: in policy.c, and below those
 * every RPC makes, inline (on this bed an out-of-line call of one cost
 * 0.5-1.3 us per RPC).
 */

/**
 * enum rpcrdma2_vers_verdict - what the reply to a Call means for the
 *	connection's version (draft §7)
 * @RPCRDMA2_VERS_USE: a valid reply in the connection's version; use it
 * @RPCRDMA2_VERS_FIXED: the first valid reply: the version is now fixed
 * @RPCRDMA2_VERS_FALLBACK: ERR_VERS to the first Call: resend it in v1
 * @RPCRDMA2_VERS_PENDING: any other RDMA2_ERROR while negotiating: it
 *	answers its Call, but fixes no version and grants nothing
 * @RPCRDMA2_VERS_DISCARD: a reply in the wrong version: drop it (§7.3)
 */
enum rpcrdma2_vers_verdict {
	RPCRDMA2_VERS_USE,
	RPCRDMA2_VERS_FIXED,
	RPCRDMA2_VERS_FALLBACK,
	RPCRDMA2_VERS_PENDING,
	RPCRDMA2_VERS_DISCARD,
};

u32 rpcrdma2_send_threshold(u32 vers, u32 v1_send, u32 peer_rbsiz,
			    u32 send_size);
u32 rpcrdma2_recv_threshold(u32 vers, u32 v1_recv, u32 recv_size,
			    bool rbsiz_known);
int rpcrdma2_error_errno(const struct rpcrdma2_error *err, u32 vers,
			 bool reply_only, u32 rcv_buflen);
u32 rpcrdma2_error_resend(u32 code, u32 vers, u32 sent);
u32 rpcrdma2_error_conn_off(const struct rpcrdma2_error *err, u32 vers);
int rpcrdma2_chunk_check(const struct rpcrdma2_seg *offered, u32 nr_offered,
			 const struct rpcrdma2_seg *returned, u32 nr_returned,
			 u32 *written);
u32 rpcrdma2_max_payload(u32 mr_depth);
int rpcrdma2_ddp_layout(u32 inline_len, u32 head_len, u32 written,
			u32 buflen, u32 *pos);

/*
 * The largest transport header of a reply without chunks: v2 xid, vers,
 * credit, htype, flags, rdma_inv_handle and three empty lists (v1 has
 * two words fewer).
 */
#define RPCRDMA2_REPLY_HDR_MAX		(9 * 4)
/* ... and with one Write chunk: present, count, and its segments */
#define RPCRDMA2_REPLY_HDR_WRITE_MAX	\
	(RPCRDMA2_REPLY_HDR_MAX + (2 + 4 * RPCRDMA2_MAX_CHUNK_MRS) * 4)
/*
 * The largest transport header of a Call: v2 xid, vers, credit, htype,
 * flags, rdma_inv_handle; a Read list of a chunk's segments (present,
 * position, handle, length, offset64 each) and its end; a Write list of
 * one chunk and its end; a Reply chunk.
 */
#define RPCRDMA2_CALL_HDR_MAX						\
	((6 + (6 * RPCRDMA2_MAX_CHUNK_MRS + 1) +			\
	  (2 + 4 * RPCRDMA2_MAX_CHUNK_MRS + 1) +			\
	  (2 + 4 * RPCRDMA2_MAX_CHUNK_MRS)) * 4)

/**
 * rpcrdma2_credits - the credit grant a reply's rdma_credit allows
 * @wire: rdma_credit as received (untrusted)
 * @max_requests: Calls we may have outstanding
 *
 * RFC 8166 §3.3.1: the grant is what the responder is prepared to
 * receive. A grant of zero would leave us unable to send anything, ever
 * (RFC 8166 §3.3.1 asks a responder to grant at least one), so it counts
 * as one; a grant above our slot table cannot be used.
 *
 * Return: 1..@max_requests.
 */
static inline u32 rpcrdma2_credits(u32 wire, u32 max_requests)
{
	return clamp(wire, 1U, max_requests);
}

/**
 * rpcrdma2_vers_verdict - what a valid reply means for the version
 * @conn_vers: the connection's version; 0 while negotiating
 * @try_vers: the version the first Call was sent in
 * @first_xid: that Call's xid
 * @hdr: the reply, as rpcrdma2_decode() accepted it
 *
 * draft §7: the answer to the first Call decides. An ERR_VERS for that
 * Call whose range includes version 1 (in the RFC 8166 layout a v1-only
 * server sends, or in either version's own) means resend it in v1 on
 * this connection (§7.2); any other RDMA2_ERROR answers its Call but
 * settles nothing: only "a valid non-error RPC-over-RDMA message"
 * ends the negotiation (§7), so the next Call asks again. Any other
 * reply in the version we tried fixes it. Once fixed, the version never
 * changes (§7.3): a reply in the other one is discarded, as a malformed
 * reply is (RFC 8166 §4.5).
 *
 * Return: enum rpcrdma2_vers_verdict.
 */
static inline enum rpcrdma2_vers_verdict
rpcrdma2_vers_verdict(u32 conn_vers, u32 try_vers, u32 first_xid,
		      const struct rpcrdma2_hdr *hdr)
{
	bool is_err = hdr->htype == RPCRDMA2_HT_ERROR;
	bool err_vers = is_err && hdr->err.code == RPCRDMA2_ERR_VERS;
	/* the decoder sets hdr->err only for errors */
	bool v1_layout = is_err && hdr->err.v1_layout;

	if (conn_vers)
		return hdr->vers == conn_vers && !v1_layout ?
		       RPCRDMA2_VERS_USE : RPCRDMA2_VERS_DISCARD;
	if (err_vers && hdr->xid == first_xid &&
	    try_vers == RPCRDMA2_VERS_2 &&
	    hdr->err.vers.low <= RPCRDMA2_VERS_1 &&
	    hdr->err.vers.high >= RPCRDMA2_VERS_1)
		return RPCRDMA2_VERS_FALLBACK;
	if (hdr->vers != try_vers || v1_layout)
		return RPCRDMA2_VERS_DISCARD;
	return is_err ? RPCRDMA2_VERS_PENDING : RPCRDMA2_VERS_FIXED;
}

/**
 * rpcrdma2_use_long_call - must a Call go as a Long Call
 * @inline_len: bytes of the Call sent inline: its RDMA_MSG / RDMA2_MSG
 *	transport header plus the RPC message
 * @threshold: the send threshold (rpcrdma2_send_threshold())
 *
 * RFC 8166 §3.5.1 and §4.3.1, draft §5.3.2: a Call that does not fit
 * the receiver's inline threshold is sent as RDMA_NOMSG / RDMA2_NOMSG
 * with a Position-Zero Read chunk holding the whole RPC message.
 *
 * Return: true if the Call cannot go inline.
 */
static inline bool rpcrdma2_use_long_call(u32 inline_len, u32 threshold)
{
	return inline_len > threshold;
}

/**
 * rpcrdma2_use_reply_chunk - must a Call offer a Reply chunk
 * @rcv_buflen: the largest RPC reply the Call can take (rq_rcv_buf)
 * @threshold: the receive threshold (rpcrdma2_recv_threshold())
 *
 * RFC 8166 §3.5.3: a requester that cannot rule out a reply larger than
 * the inline threshold provides a Reply chunk for it; the reply's
 * transport header counts against the threshold too.
 *
 * Return: true if the largest reply does not fit inline.
 */
static inline bool rpcrdma2_use_reply_chunk(u32 rcv_buflen, u32 threshold)
{
	return (u64)rcv_buflen + RPCRDMA2_REPLY_HDR_MAX > threshold;
}

/**
 * rpcrdma2_use_read_chunk - may a Call's payload go in a Read chunk
 * @nonpayload_len: the Call's bytes besides its DDP-eligible payload and
 *	that payload's XDR roundup (rq_snd_buf head and tail)
 * @threshold: the send threshold (rpcrdma2_send_threshold())
 *
 * RFC 8166 §3.4.5, §3.5.2: a Call too big to send inline whose
 * DDP-eligible data item (NFS WRITE data, RFC 8267 §4.2) goes by RDMA
 * Read is sent as RDMA_MSG with the rest inline, if the rest fits with
 * the largest header we write; else the whole Call is a Long Call.
 *
 * Return: true if the reduced Call fits inline.
 */
static inline bool rpcrdma2_use_read_chunk(u32 nonpayload_len, u32 threshold)
{
	return (u64)nonpayload_len + RPCRDMA2_CALL_HDR_MAX <= threshold;
}

/**
 * rpcrdma2_use_write_chunk - may a reply's payload come in a Write chunk
 * @nonpayload_len: the largest reply's bytes besides its DDP-eligible
 *	payload (rq_rcv_buf head and tail)
 * @threshold: the receive threshold (rpcrdma2_recv_threshold())
 *
 * RFC 8166 §3.4.6, §4.3.2: the server pushes the DDP-eligible data item
 * (NFS READ data, RFC 8267 §4.2) into the Write chunk and sends the rest
 * inline, so the rest must fit with a header carrying the Write list;
 * else the Call offers a Reply chunk for the whole reply.
 *
 * Return: true if the reduced reply fits inline.
 */
static inline bool rpcrdma2_use_write_chunk(u32 nonpayload_len, u32 threshold)
{
	return (u64)nonpayload_len + RPCRDMA2_REPLY_HDR_WRITE_MAX <= threshold;
}

/*
 * Reply guessing. The upper layer sizes a receive buffer for the largest
 * reply its procedure can get (an NFSv4.1 OPEN's is larger than 4 KiB:
 * room for a LAYOUTGET's layout, and for its GETATTR at its largest), so
 * most Calls that need a Reply chunk by that size get a reply of a few
 * hundred bytes. Registering the chunk costs a REG_MR and an
 * invalidation per RPC. In version 2 a Call may go without it: draft
 * §5.3.3 has the server answer a reply that fits neither inline nor the
 * Reply chunk with RDMA2_ERR_REPLY_RESOURCE, after which the requester
 * "MAY send the request again using the same XID and larger reply
 * resources". The server has executed the Call by then; the resend is
 * what a retransmission after a lost connection is to the upper layer
 * (the server's reply cache answers it, or an NFSv4.1 session's
 * NFS4ERR_RETRY_UNCACHED_REP has the client run the operation anew). So
 * a Call leaves its Reply chunk out only when its procedure's last
 * RPCRDMA2_GUESS_RUN replies on the transport (twice as many for each
 * refusal it had) would all have fit inline with half the threshold to
 * spare. Version 1 has no such error and never guesses. These helpers
 * are inline: every such reply runs them.
 */

/**
 * rpcrdma2_guess_fits - was a reply small enough to teach a guess
 * @rpc_len: the RPC reply's bytes, inline or in the Reply chunk
 *	(from the server: untrusted)
 * @threshold: the largest reply the server may send us inline
 *
 * Return: true if the reply and its transport header fit half of
 * @threshold.
 */
static inline bool rpcrdma2_guess_fits(u32 rpc_len, u32 threshold)
{
	return (u64)rpc_len + RPCRDMA2_REPLY_HDR_MAX <= threshold / 2;
}

/**
 * enum rpcrdma2_guess_outcome - what one reply says of a guess
 * @RPCRDMA2_GUESS_FIT: a reply that would have come inline
 *	(rpcrdma2_guess_fits())
 * @RPCRDMA2_GUESS_LARGE: a reply that would not have
 * @RPCRDMA2_GUESS_REFUSED: RDMA2_ERR_REPLY_RESOURCE to a Call that left
 *	its Reply chunk out
 */
enum rpcrdma2_guess_outcome {
	RPCRDMA2_GUESS_FIT,
	RPCRDMA2_GUESS_LARGE,
	RPCRDMA2_GUESS_REFUSED,
};

/**
 * rpcrdma2_guess_next - a procedure's record after one of its replies
 * @rec: the record in the procedure's slot (0: none yet)
 * @tag: the procedure's tag, never 0
 * @outcome: what the reply says (enum rpcrdma2_guess_outcome)
 *
 * A record is the tag in its upper half; then the refusals the
 * procedure has had (8 bits, at most RPCRDMA2_GUESS_MISSES_MAX) and the
 * replies in a row that fit (8 bits, at most RPCRDMA2_GUESS_CAP). A
 * large reply starts the run again; a refusal also doubles the run the
 * next guess needs, so that the replies of Calls in flight meanwhile
 * cannot have the procedure refused again and again (its NFS retry
 * would then run it on the server each time): after
 * RPCRDMA2_GUESS_MISSES_MAX refusals it never guesses again on this
 * transport. A procedure whose tag is not the slot's takes the slot over.
 *
 * Return: the new record.
 */
static __always_inline u64
rpcrdma2_guess_next(u64 rec, u32 tag, enum rpcrdma2_guess_outcome outcome)
{
	bool ours = upper_32_bits(rec) == tag;
	u32 misses = ours ? (rec >> 8) & 0xff : 0;
	u32 run = ours ? rec & 0xff : 0;

	switch (outcome) {
	case RPCRDMA2_GUESS_FIT:
		if (run < RPCRDMA2_GUESS_CAP)
			run++;
		break;
	case RPCRDMA2_GUESS_REFUSED:
		if (misses < RPCRDMA2_GUESS_MISSES_MAX)
			misses++;
		fallthrough;
	default:
		run = 0;
	}
	return (u64)tag << 32 | misses << 8 | run;
}

/**
 * rpcrdma2_guess_inline - may a Call leave its Reply chunk out
 * @rec: the record in its procedure's slot
 * @tag: the procedure's tag, never 0
 *
 * Return: true if the record is the procedure's and its last
 * RPCRDMA2_GUESS_RUN replies fit, twice as many for each refusal it had.
 */
static inline bool rpcrdma2_guess_inline(u64 rec, u32 tag)
{
	u32 misses = min_t(u32, (rec >> 8) & 0xff, RPCRDMA2_GUESS_MISSES_MAX);

	return upper_32_bits(rec) == tag &&
	       (rec & 0xff) >= (RPCRDMA2_GUESS_RUN << misses);
}

#endif /* _XPRT_RDMA2_H */
