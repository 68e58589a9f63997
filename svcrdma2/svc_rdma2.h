/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svcrdma2: the server side of RPC-over-RDMA Version 2
 * (draft-cel-nfsv4-rpcrdma-version-two-09) and Version 1 (RFC 8166), an
 * svc_xprt_class named "rdma2" for nfsd. Private declarations shared by
 * the layers: transport.c (listen, accept, lifecycle), recvfrom.c
 * (Receives, header decoding, dispatch), sendto.c (Sends, replies,
 * errors, CONNPROP), rw.c (RDMA Read / Write through rdma_rw) and
 * policy.c (pure decisions, KUnit-tested).
 */
#ifndef _SVC_RDMA2_H
#define _SVC_RDMA2_H

#include <linux/atomic.h>
#include <linux/llist.h>
#include <linux/percpu.h>
#include <linux/sunrpc/svc_xprt.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <rdma/rw.h>

#include <rpcrdma2/cid.h>
#include <rpcrdma2/cm_pdata.h>
#include <rpcrdma2/codec.h>

/* Defaults and bounds of the module parameters (transport.c) */
#define SVC_RDMA2_DEF_REQUESTS		64
#define SVC_RDMA2_MIN_REQUESTS		4
#define SVC_RDMA2_MAX_REQUESTS		1024
/* 8 KiB: a 4 KiB READ's reply or WRITE's Call fits inline (xprt_rdma2.h) */
#define SVC_RDMA2_DEF_BUF		8192
#define SVC_RDMA2_MIN_BUF		RPCRDMA2_V2_DEF_INLINE
#define SVC_RDMA2_MAX_BUF		(64 * 1024)
#define SVC_RDMA2_DEF_SEGS		32
#define SVC_RDMA2_MAX_SEGS		256
#define SVC_RDMA2_MAX_READ_CHUNKS	4
#define SVC_RDMA2_MAX_WRITE_CHUNKS	4
/* Scatter/gather entries per RDMA Read or Write WR, at most (transport.c) */
#define SVC_RDMA2_RW_SGES		16
/*
 * Gather entries of a reply's Send, at most: the QP's max_send_sge, which
 * rdma_rw's WRs share. A reply whose pages need more is copied.
 */
#define SVC_RDMA2_SEND_SGES		SVC_RDMA2_RW_SGES
/*
 * Page bytes an inline reply needs before its pages go as gather entries
 * instead of being copied into the send buffer: below it the copy costs
 * less than mapping the pages and the device's extra entries.
 */
#define SVC_RDMA2_GATHER_MIN		1024

/* Counters: one set per connection and one global set (transport.c) */
enum svc_rdma2_counter {
	SVC_RDMA2_MSGS_V1,		/* valid calls received in v1 */
	SVC_RDMA2_MSGS_V2,		/* valid calls received in v2 */
	SVC_RDMA2_CONNPROP_RECV,	/* RDMA2_CONNPROP received */
	SVC_RDMA2_CONNPROP_SENT,	/* RDMA2_CONNPROP sent */
	SVC_RDMA2_READS,		/* Read chunks pulled (RDMA Read) */
	SVC_RDMA2_READ_BYTES,
	SVC_RDMA2_WRITES,		/* Write chunks pushed (RDMA Write) */
	SVC_RDMA2_WRITE_BYTES,
	SVC_RDMA2_REPLY_CHUNKS,		/* replies sent through a Reply chunk */
	SVC_RDMA2_REPLY_BYTES,
	SVC_RDMA2_SEND_INV,		/* replies sent with Send With Invalidate */
	SVC_RDMA2_DROPPED,		/* messages discarded without answer */
	SVC_RDMA2_ERR_VERS,		/* errors sent, by code */
	SVC_RDMA2_ERR_BAD_XDR,		/* v1 ERR_CHUNK or v2 BAD_XDR */
	SVC_RDMA2_ERR_INVAL_HTYPE,
	SVC_RDMA2_ERR_READ_CHUNKS,
	SVC_RDMA2_ERR_WRITE_CHUNKS,
	SVC_RDMA2_ERR_SEGMENTS,
	SVC_RDMA2_ERR_WRITE_RESOURCE,
	SVC_RDMA2_ERR_REPLY_RESOURCE,
	SVC_RDMA2_ERR_SYSTEM,
	SVC_RDMA2_CB_CALLS,		/* reverse-direction Calls sent */
	SVC_RDMA2_CB_REPLIES,		/* reverse-direction replies completed */
	SVC_RDMA2_CB_BAD_REPLIES,	/* replies dropped: unmatched, malformed */
	SVC_RDMA2_RECV_DEFERRED,	/* Receives replaced only once a context came back */
	SVC_RDMA2_RECV_POSTS,		/* posts of completed Receives' replacements */
	SVC_RDMA2_SEND_GATHERED,	/* inline replies whose pages were not copied */
	SVC_RDMA2_SEND_MAP_ERRORS,	/* ... copied after a page did not map */
	SVC_RDMA2_NR_COUNTERS
};

/**
 * struct svc_rdma2_rw_pool - idle rdma_rw contexts of one size
 * @rp_free: the contexts, linked by &svc_rdma2_rw.rw_list
 * @rp_count: how many are on @rp_free
 * @rp_nents: scatterlist entries each one has
 * @rp_max: most kept idle; more are freed
 */
struct svc_rdma2_rw_pool {
	struct list_head	rp_free;
	unsigned int		rp_count;
	unsigned int		rp_nents;
	unsigned int		rp_max;
};

/**
 * struct svc_rdma2_xprt - one rdma2 listener or connection
 * @sx_xprt: the generic server transport
 * @sx_cm_id: rdma_cm identifier
 * @sx_listener: this is a listening endpoint
 * @sx_accept_q: listener: connections waiting for xpo_accept
 * @sx_accept_link: connection: entry on its listener's @sx_accept_q
 * @sx_lock: protects @sx_accept_q
 * @sx_pd: protection domain
 * @sx_sq_cq: Send queue completion queue
 * @sx_rq_cq: Receive queue completion queue
 * @sx_qp: the connection's queue pair
 * @sx_port_num: port the connection uses (rdma_rw needs it)
 * @sx_next_cid: completion ID generator
 * @sx_ord: RDMA Reads the client lets us have in flight
 * @sx_peer_pdata: the client's RFC 8797 private data (or defaults)
 * @sx_reminv_ok: RFC 8797 §4.1: both R bits set (v1 Send With Invalidate)
 * @sx_dev_reminv: the device supports Send With Invalidate
 * @sx_buf_size: our Receive and Send buffer size (what we advertise)
 * @sx_send_sges: gather entries a reply's Send may use (the QP's max_send_sge)
 * @sx_v1_reply_inline: RFC 8797 server-to-client inline threshold
 * @sx_max_requests: credits granted in every reply
 * @sx_max_segs: largest chunk, in segments, we accept
 * @sx_ddp: v2 Calls may carry DDP chunks (the ddp parameter at accept)
 * @sx_vers: 0 until the first valid message fixes the version
 * @sx_peer_rbsiz: v2: the client's Receive Buffer Size (draft §4.2.1)
 * @sx_peer_brs: v2: the client's Reverse Request Support (draft §4.2.2)
 * @sx_connprop_sent: v2: our RDMA2_CONNPROP has gone out
 * @sx_rq_depth: Receives kept posted
 * @sx_recv_cap: receive contexts the connection may have: @sx_rq_depth
 *	from accept, more as Calls hold them
 * @sx_recv_lock: protects @sx_recv_free and @sx_recv_owed
 * @sx_recv_free: idle receive contexts
 * @sx_recv_owed: completed Receives not replaced yet: every context was
 *	in use, so the next one to come back is posted instead of idling
 * @sx_recv_unreplaced: completed Receives waiting for the rest of their
 *	batch (SVC_RDMA2_RECV_BATCH) to be replaced; only the Receive
 *	completion handler touches it, and svc_rdma2_recv_destroy() once
 *	the QP is drained
 * @sx_recv_all: every receive context, for teardown
 * @sx_rq_lock: protects @sx_rq_dto_q, @sx_read_wait_q and @sx_read_done_q
 * @sx_rq_dto_q: received messages waiting for xpo_recvfrom
 * @sx_read_wait_q: Calls laid out with their RDMA Reads built, waiting
 *	for Send Queue entries to post them, oldest first
 * @sx_read_done_q: Calls whose RDMA Reads have completed, waiting for
 *	xpo_recvfrom to finish them
 * @sx_sq_depth: Send Queue entries
 * @sx_sq_avail: Send Queue entries not in use
 * @sx_send_wait: waiters for Send Queue entries
 * @sx_send_free: idle send contexts
 * @sx_send_all: every send context, for teardown
 * @sx_ctxt_lock: protects @sx_recv_all and @sx_send_all
 * @sx_rw_lock: protects @sx_rw_small and @sx_rw_large
 * @sx_rw_small: idle rdma_rw contexts for a few pages
 * @sx_rw_large: idle rdma_rw contexts for a whole payload
 * @sx_nr_recv_ctxts: receive contexts allocated
 * @sx_stats: per-connection counters (enum svc_rdma2_counter), per CPU
 *	(svc_rdma2_count())
 * @sx_stats_link: entry on the global list of connections
 */
struct svc_rdma2_xprt {
	struct svc_xprt		sx_xprt;
	struct rdma_cm_id	*sx_cm_id;
	bool			sx_listener;
	struct list_head	sx_accept_q;
	struct list_head	sx_accept_link;
	spinlock_t		sx_lock;	/* protects sx_accept_q */

	struct ib_pd		*sx_pd;
	struct ib_cq		*sx_sq_cq;
	struct ib_cq		*sx_rq_cq;
	struct ib_qp		*sx_qp;
	u32			sx_port_num;
	atomic_t		sx_next_cid;

	u32			sx_ord;
	struct rpcrdma2_cm_pdata sx_peer_pdata;
	bool			sx_reminv_ok;
	bool			sx_dev_reminv;
	u32			sx_buf_size;
	u32			sx_send_sges;
	u32			sx_v1_reply_inline;
	u32			sx_max_requests;
	u32			sx_max_segs;
	bool			sx_ddp;
	u32			sx_vers;
	u32			sx_peer_rbsiz;
	u32			sx_peer_brs;
	bool			sx_connprop_sent;

	u32			sx_rq_depth;
	u32			sx_recv_cap;
	spinlock_t		sx_recv_lock;	/* free list, owed */
	struct llist_head	sx_recv_free;
	u32			sx_recv_owed;
	u32			sx_recv_unreplaced;
	struct list_head	sx_recv_all;
	spinlock_t		sx_rq_lock;	/* protects the three queues */
	struct list_head	sx_rq_dto_q;
	struct list_head	sx_read_wait_q;
	struct list_head	sx_read_done_q;

	u32			sx_sq_depth;
	atomic_t		sx_sq_avail;
	wait_queue_head_t	sx_send_wait;
	struct llist_head	sx_send_free;
	struct list_head	sx_send_all;
	spinlock_t		sx_ctxt_lock;	/* ctxt lists */
	u32			sx_nr_recv_ctxts;
	spinlock_t		sx_rw_lock;	/* rw pools */
	struct svc_rdma2_rw_pool sx_rw_small;
	struct svc_rdma2_rw_pool sx_rw_large;

	u64 __percpu		*sx_stats;
	struct list_head	sx_stats_link;
};

static inline struct svc_rdma2_xprt *svc_rdma2_x(struct svc_xprt *xprt)
{
	return container_of(xprt, struct svc_rdma2_xprt, sx_xprt);
}

/**
 * struct svc_rdma2_payload - a DDP-eligible result bound to a Write chunk
 * @offset: where the result data starts in rq_res
 * @length: its length in bytes (without XDR padding)
 */
struct svc_rdma2_payload {
	u32 offset;
	u32 length;
};

/**
 * struct svc_rdma2_read_ctxt - the RDMA Reads that pull one Call's chunks
 * @rd_cqe: completion handler of the chain's last (only signaled) Read
 * @rd_cid: completion ID
 * @rd_status: %0, %-EIO if the Reads failed, %-ECANCELED if they flushed
 * @rd_sqes: Send Queue entries the Call's Reads take, all at once: from
 *	the post until the completion
 * @rd_rws: rdma_rw contexts, one per remote segment, in list order
 * @rd_pages: the rq_pages the Reads land in, carried from the thread that
 *	posted the Reads to the one that finishes the Call
 * @rd_page_count: entries of @rd_pages in use
 * @rd_arg: rq_arg as the posting thread laid it out
 * @rd_assembled: the whole Call is in @rd_pages; otherwise only the one
 *	Read chunk is, and head and tail are in the Receive buffer
 */
struct svc_rdma2_read_ctxt {
	struct ib_cqe			rd_cqe;
	struct rpcrdma2_cid		rd_cid;
	int				rd_status;
	u32				rd_sqes;
	struct list_head		rd_rws;
	struct page			**rd_pages;
	u32				rd_page_count;
	struct xdr_buf			rd_arg;
	bool				rd_assembled;
};

/**
 * struct svc_rdma2_recv_ctxt - one Receive and the RPC Call it carried
 * @rc_cqe: completion handler of the Receive
 * @rc_cid: completion ID
 * @rc_free: entry on &svc_rdma2_xprt.sx_recv_free
 * @rc_list: entry on &svc_rdma2_xprt.sx_rq_dto_q or .sx_read_done_q
 * @rc_all: entry on &svc_rdma2_xprt.sx_recv_all
 * @rc_recv_wr: the Receive work request
 * @rc_sge: its scatter entry
 * @rc_buf: receive buffer, &svc_rdma2_xprt.sx_buf_size bytes
 * @rc_byte_len: bytes received
 * @rc_hdr: decoded transport header
 * @rc_payloads: results bound to Write chunks, one per chunk
 * @rc_nr_payloads: entries of @rc_payloads in use
 * @rc_write_short: a result did not fit its Write chunk (index is 1-based)
 * @rc_write_short_len: bytes that result needed
 * @rc_reads: Read segment array for @rc_hdr, allocated with @rc_segs and
 *	@rc_out_segs after it
 * @rc_read_chunks: Read chunk index for @rc_hdr
 * @rc_writes: Write chunk array for @rc_hdr
 * @rc_segs: Write/Reply segment array for @rc_hdr
 * @rc_out_segs: the same segments with the lengths the reply reports
 * @rc_read: the RDMA Reads of the Call's Read chunks
 */
struct svc_rdma2_recv_ctxt {
	struct ib_cqe			rc_cqe;
	struct rpcrdma2_cid		rc_cid;
	struct llist_node		rc_free;
	struct list_head		rc_list;
	struct list_head		rc_all;
	struct ib_recv_wr		rc_recv_wr;
	struct ib_sge			rc_sge;
	void				*rc_buf;
	u32				rc_byte_len;
	struct rpcrdma2_hdr		rc_hdr;
	struct svc_rdma2_payload	*rc_payloads;
	u32				rc_nr_payloads;
	u32				rc_write_short;
	u32				rc_write_short_len;
	struct rpcrdma2_read_seg	*rc_reads;
	struct rpcrdma2_read_chunk	rc_read_chunks[SVC_RDMA2_MAX_READ_CHUNKS];
	struct rpcrdma2_chunk		*rc_writes;
	struct rpcrdma2_seg		*rc_segs;
	struct rpcrdma2_seg		*rc_out_segs;
	struct svc_rdma2_read_ctxt	rc_read;
};

/**
 * struct svc_rdma2_rw - one rdma_rw context for one remote segment
 * @rw_list: entry on the owner's list, or on a &struct svc_rdma2_rw_pool
 * @rw_ctx: the rdma_rw context
 * @rw_dir: DMA direction it was mapped for
 * @rw_nents: scatterlist entries in use
 * @rw_max_nents: scatterlist entries allocated
 * @rw_sgt: the scatterlist
 * @rw_first_sgl: inline scatterlist chunk for @rw_sgt
 */
struct svc_rdma2_rw {
	struct list_head		rw_list;
	struct rdma_rw_ctx		rw_ctx;
	enum dma_data_direction		rw_dir;
	unsigned int			rw_nents;
	unsigned int			rw_max_nents;
	struct sg_table			rw_sgt;
	struct scatterlist		rw_first_sgl[];
};

/**
 * struct svc_rdma2_send_ctxt - one Send and what it keeps alive
 * @sc_cqe: completion handler of the Send
 * @sc_cid: completion ID
 * @sc_free: entry on &svc_rdma2_xprt.sx_send_free
 * @sc_all: entry on &svc_rdma2_xprt.sx_send_all
 * @sc_send_wr: the Send work request
 * @sc_sges: its gather list: the send buffer, then for a reply whose pages
 *	are sent where they are, those pages and more of the buffer
 * @sc_mapped: entries of @sc_sges that map a page, unmapped on completion
 * @sc_buf: send buffer, &svc_rdma2_xprt.sx_buf_size bytes
 * @sc_buf_dma: its DMA address, mapped for the context's lifetime
 * @sc_buf_len: bytes of @sc_buf the Send carries
 * @sc_rw: RDMA Write contexts chained before the Send
 * @sc_sqecount: Send Queue entries this Send and its Writes use
 * @sc_pages: reply pages the Writes or the Send read from, released on
 *	completion
 * @sc_nr_pages: entries of @sc_pages in use
 */
struct svc_rdma2_send_ctxt {
	struct ib_cqe			sc_cqe;
	struct rpcrdma2_cid		sc_cid;
	struct llist_node		sc_free;
	struct list_head		sc_all;
	struct ib_send_wr		sc_send_wr;
	struct ib_sge			sc_sges[SVC_RDMA2_SEND_SGES];
	unsigned long			sc_mapped;
	void				*sc_buf;
	u64				sc_buf_dma;
	u32				sc_buf_len;
	struct list_head		sc_rw;
	u32				sc_sqecount;
	u32				sc_nr_pages;
	struct page			*sc_pages[RPCSVC_MAXPAGES];
};

/**
 * struct svc_rdma2_cursor - the next free byte of a Write or Reply chunk
 * @segs: the chunk's segments
 * @nsegs: how many
 * @seg: index of the segment being filled
 * @seg_off: bytes of it already used
 * @out: the same segments as the reply reports them: lengths count the
 *	bytes written so far (RFC 8166 §3.4.6)
 */
struct svc_rdma2_cursor {
	const struct rpcrdma2_seg	*segs;
	u32				nsegs;
	u32				seg;
	u32				seg_off;
	struct rpcrdma2_seg		*out;
};

/* Our svc_xprt_class ident; the backchannel's is this | XPRT_TRANSPORT_BC */
#define SVC_RDMA2_XPRT_IDENT		0x2002
/*
 * Reverse-direction Calls in flight on one connection at most: nfsd sends
 * few. Each has a Receive posted for its reply beyond the forward grant
 * (RFC 8167 §4) and a Send Queue entry.
 */
#define SVC_RDMA2_BC_REQS		8

/*
 * Receives posted beyond the credit grant and the reverse direction's.
 * When a Call from a client within its grant arrives, the Receives
 * consumed and not yet replaced are at most: grant - 1 other Calls, the
 * SVC_RDMA2_BC_REQS replies to our Calls, the client's RDMA2_CONNPROP,
 * and SVC_RDMA2_RECV_BATCH - 1 completed ones that wait for the rest of
 * their batch. That leaves one posted for the Call (RFC 8166 §3.3.1) as
 * long as a batch is no larger than this.
 */
#define SVC_RDMA2_EXTRA_RECVS		4
/* completed Receives replaced in one post (svc_rdma2_replace_recvs()) */
#define SVC_RDMA2_RECV_BATCH		4
/*
 * Send Queue entries beyond one reply per credit, for the transport's own
 * messages: an RDMA_ERROR / RDMA2_ERROR and an RDMA2_CONNPROP.
 */
#define SVC_RDMA2_OWN_SENDS		2
/*
 * A device whose QPs take too few work requests for the default credits:
 * one credit per SVC_RDMA2_MIN_WRS_PER_CREDIT of them, each with
 * SVC_RDMA2_MIN_RW_CTXS rdma_rw contexts instead of one per Write chunk
 * and the Reply chunk.
 */
#define SVC_RDMA2_MIN_WRS_PER_CREDIT	8
#define SVC_RDMA2_MIN_RW_CTXS		4
/*
 * Pooled rdma_rw context sizes: a small payload with the reply's head and
 * tail, and the largest payload plus head, tail and misalignment. Idle
 * large ones are capped: each is several KiB.
 */
#define SVC_RDMA2_RW_SMALL_NENTS	16
#define SVC_RDMA2_RW_LARGE_NENTS	(RPCSVC_MAXPAGES + 4)
#define SVC_RDMA2_RW_LARGE_IDLE		16
/*
 * Longest an nfsd thread waits for Send Queue entries before it closes
 * the connection. Entries come back as the peer acknowledges our work
 * requests; a peer that stops doing so (no Receives posted, with an RNR
 * retry count of 7, which retries forever) must not keep a thread that
 * serves every client.
 */
#define SVC_RDMA2_SQ_WAIT		(5 * HZ)

/* transport.c */
extern unsigned int svc_rdma2_max_requests;
extern unsigned int svc_rdma2_buf_size;
extern unsigned int svc_rdma2_max_segs;
extern bool svc_rdma2_ddp;
DECLARE_PER_CPU(u64 [SVC_RDMA2_NR_COUNTERS], svc_rdma2_global);

/**
 * svc_rdma2_count - add to a connection's counter and the global one
 * @sx: the connection
 * @c: which counter
 * @n: how much
 *
 * Inline: several run for every RPC, and on the test bed an out-of-line
 * call cost more than the two additions.
 *
 * Context: any.
 */
static __always_inline void
svc_rdma2_count(struct svc_rdma2_xprt *sx, enum svc_rdma2_counter c, u64 n)
{
	this_cpu_add(sx->sx_stats[c], n);
	this_cpu_add(svc_rdma2_global[c], n);
}

void svc_rdma2_close(struct svc_rdma2_xprt *sx);
void svc_rdma2_cid_init(struct svc_rdma2_xprt *sx, struct ib_cq *cq,
			struct rpcrdma2_cid *cid);
void svc_rdma2_recv_ctxts_note(u32 n);
bool svc_rdma2_is_ours(const struct svc_xprt *xprt);

/* recvfrom.c */
int svc_rdma2_recv_init(struct svc_rdma2_xprt *sx);
void svc_rdma2_recv_destroy(struct svc_rdma2_xprt *sx);
int svc_rdma2_post_recvs(struct svc_rdma2_xprt *sx, unsigned int count);
void svc_rdma2_recv_ctxt_put(struct svc_rdma2_xprt *sx,
			     struct svc_rdma2_recv_ctxt *ctxt);
int svc_rdma2_recvfrom(struct svc_rqst *rqstp);
void svc_rdma2_release_ctxt(struct svc_xprt *xprt, void *vctxt);
int svc_rdma2_take_rbsiz(struct svc_rdma2_xprt *sx, u32 rbsiz);

/* sendto.c */
int svc_rdma2_sq_reserve(struct svc_rdma2_xprt *sx, u32 n, u32 keep);
u32 svc_rdma2_sq_send_room(const struct svc_rdma2_xprt *sx);
int svc_rdma2_sq_get(struct svc_rdma2_xprt *sx, u32 n);
void svc_rdma2_sq_put(struct svc_rdma2_xprt *sx, u32 n);
int svc_rdma2_send_init(struct svc_rdma2_xprt *sx);
void svc_rdma2_send_destroy(struct svc_rdma2_xprt *sx);
int svc_rdma2_sendto(struct svc_rqst *rqstp);
int svc_rdma2_result_payload(struct svc_rqst *rqstp, unsigned int offset,
			     unsigned int length);
void svc_rdma2_send_error(struct svc_rdma2_xprt *sx,
			  const struct rpcrdma2_hdr *in,
			  const struct rpcrdma2_reject *rej);
void svc_rdma2_send_err_code(struct svc_rdma2_xprt *sx,
			     const struct rpcrdma2_hdr *in,
			     const struct rpcrdma2_error *err);
void svc_rdma2_send_connprop(struct svc_rdma2_xprt *sx);
int svc_rdma2_send_call(struct svc_rdma2_xprt *sx,
			const struct rpcrdma2_hdr *hdr,
			const struct xdr_buf *msg);

/* rw.c */
void svc_rdma2_read_ctxt_init(struct svc_rdma2_xprt *sx,
			      struct svc_rdma2_read_ctxt *rd);
void svc_rdma2_read_release(struct svc_rdma2_xprt *sx,
			    struct svc_rdma2_read_ctxt *rd);
void svc_rdma2_post_reads(struct svc_rdma2_xprt *sx, struct svc_rqst *rqstp,
			  struct svc_rdma2_recv_ctxt *ctxt);
void svc_rdma2_read_finish(struct svc_rqst *rqstp,
			   struct svc_rdma2_recv_ctxt *ctxt);
void svc_rdma2_post_waiting_reads(struct svc_rdma2_xprt *sx);
int svc_rdma2_push_range(struct svc_rdma2_xprt *sx,
			 struct svc_rdma2_send_ctxt *sctxt,
			 const struct xdr_buf *xdr, u32 offset, u32 length,
			 struct svc_rdma2_cursor *cur);
void svc_rdma2_rw_release(struct svc_rdma2_xprt *sx, struct list_head *list);
void svc_rdma2_rw_pools_init(struct svc_rdma2_xprt *sx);
void svc_rdma2_rw_pools_destroy(struct svc_rdma2_xprt *sx);

/* backchannel.c */
int svc_rdma2_bc_register(void);
void svc_rdma2_bc_unregister(void);
int svc_rdma2_bc_dropin_register(void);
void svc_rdma2_bc_dropin_unregister(void);
void svc_rdma2_bc_reply(struct svc_rdma2_xprt *sx,
			struct svc_rdma2_recv_ctxt *ctxt);

/**
 * struct svc_rdma2_qp_sizes - what a connection's queues are sized for
 * @max_requests: credits the connection grants
 * @rq_depth: Receives kept posted
 * @recv_cap: receive contexts the connection may hold at once
 * @sq_depth: Send Queue entries for Sends (rdma_rw_init_qp() adds its own)
 * @rw_ctxs: rdma_rw contexts (the QP's max_rdma_ctxs)
 * @rw_wrs: Send Queue entries for the RDMA Reads and Writes of large
 *	payloads, beyond what rdma_rw_init_qp() adds
 * @sges: scatter/gather entries per RDMA Read or Write work request
 */
struct svc_rdma2_qp_sizes {
	u32	max_requests;
	u32	rq_depth;
	u32	recv_cap;
	u32	sq_depth;
	u32	rw_ctxs;
	u32	rw_wrs;
	u32	sges;
};

/* policy.c: pure decisions, no I/O */
void svc_rdma2_qp_size(u32 max_requests, u32 max_qp_wr, u32 max_send_sge,
		       u32 max_sge_rd, struct svc_rdma2_qp_sizes *s);
u32 svc_rdma2_inv_handle(const struct rpcrdma2_hdr *hdr, bool reminv_ok,
			 bool dev_reminv);
u32 svc_rdma2_reply_inline_limit(u32 vers, u32 v1_reply_inline,
				 u32 peer_rbsiz, u32 buf_size);
u64 svc_rdma2_chunk_length(const struct rpcrdma2_chunk_lists *cl,
			   const struct rpcrdma2_chunk *ch);
u32 svc_rdma2_grant(u32 max_requests, u32 posted_recvs);
bool svc_rdma2_bc_peer_accepts(u32 vers, u32 peer_brs);
u32 svc_rdma2_bc_window(u32 granted, u32 slots);

#endif /* _SVC_RDMA2_H */
