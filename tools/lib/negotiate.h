/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An RPC-over-RDMA requester on one connection (conn.h): it connects
 * with RFC 8797 private data, negotiates the transport version the way
 * a version 2 client must (draft-cel-nfsv4-rpcrdma-version-two-09 §7,
 * falling back to version 1 on ERR_VERS), exchanges RDMA2_CONNPROP, and
 * sends calls (RPC NULL, or one NFSv4.0 COMPOUND) with chunks of real
 * registered memory, checking every reply that comes back.
 * negotiate.c holds the connection and the exchange, call.c the calls
 * and their chunks.
 */
#ifndef _RPCRDMA2_TOOLS_NEGOTIATE_H
#define _RPCRDMA2_TOOLS_NEGOTIATE_H

#include "conn.h"
#include "nfs.h"

#define DEF_PORT		20049	/* IANA nfsrdma */
#define DEF_COUNT		5
#define DEF_CREDITS		32
#define DEF_WINDOW		1
#define DEF_SIZE		4096
#define DEF_NFS_VERS		3
#define MAX_CREDITS		1024
#define MAX_WINDOW		CONN_MAX_SLOTS

/* Room the decoder gets for chunks the server should not send us at all */
#define LIM_CHUNKS		4
#define LIM_SEGS		4

/*
 * Chunk memory, one area per send slot (--long-call, --read...): the
 * Long Call's Read chunk, then the Write chunk, then the Reply chunk.
 */
#define CHUNK_SEG_MAX		8192	/* bytes per Long Call Read segment */
#define CHUNK_CALL_MAX		65536	/* the longest --long-call */
#define CHUNK_WRITE_SIZE	16384	/* --read's count; two segments */
#define CHUNK_REPLY_SIZE	16384
#define CHUNK_WRITE_OFF		CHUNK_CALL_MAX
#define CHUNK_REPLY_OFF		(CHUNK_WRITE_OFF + CHUNK_WRITE_SIZE)
#define CHUNK_AREA_SIZE		(CHUNK_REPLY_OFF + CHUNK_REPLY_SIZE)
/* --read-segs: Read chunks and segments a call may carry */
#define RS_MAX_CHUNKS		4
#define RS_MAX_SEGS		64
/* --write2: the second WRITE's data, in the Long Call area */
#define W2_DATA2_OFF		(CHUNK_CALL_MAX / 2)
/* Send Queue entries per call with --inv: LOCAL_INV, BIND_MW, SEND */
#define INV_WRS_PER_CALL	3

/* What a requester run asks for; ping_opts_init() sets the defaults */
struct ping_opts {
	const char *host;
	u32 port;
	u32 vers;
	u32 count;
	u32 window;
	u32 credits;
	u32 size;
	u32 nfs_vers;
	u32 timeout_ms;
	bool verbose;
	u32 hold_ms;		/* --hold S: wait for the server's close */
	u32 recv_size;		/* --recv-size N: advertised, 0: --size */
	bool no_repost;		/* --no-repost */

	/* calls and their chunks */
	u32 long_call;		/* --long-call N: bytes of each NULL call */
	struct nfs_compound nfs; /* --readlink, --read, --write2 */
	bool write_chunk;
	u32 write_len;		/* bytes the Write chunk offers */
	bool reply_chunk;
	bool inv;
	/* --read-segs C,S,L: Read chunks in every NULL call after the first */
	u32 rs_chunks;
	u32 rs_segs;
	u32 rs_len;
	bool chunk_pad;		/* --chunk-pad */
	u32 fat_reply;		/* --fat-reply N: Write list segments */
};

/* One call: its Send buffer is send slot number (this - calls) */
struct ping_call {
	u32 xid;
	u32 vers;
	u32 seq;
	struct timespec t0;
	/* what the call offered (--long-call, --read...) */
	bool compound;		/* the COMPOUND of --read..., not NULL */
	bool long_call;		/* sent through a Position-Zero Read chunk */
	bool write_chunk;
	bool reply_chunk;
	u32 handle;		/* the handle of every chunk it offered */
	bool inv_offered;	/* @handle may be invalidated remotely */
};

/* What one received message turned out to be, for the caller waiting */
enum ping_rx {
	RX_REPLY,	/* a valid RPC reply to one of our calls */
	RX_ERR_VERS,	/* ERR_VERS for one of our calls */
	RX_OTHER,	/* something else, already handled or discarded */
};

struct ping_msg {
	enum ping_rx kind;
	struct ping_call *call;
	u32 credits;
	u32 vers_low;
	u32 vers_high;
	bool legacy_layout;
};

struct ping {
	const struct ping_opts *opts;
	struct conn c;

	/*
	 * A wire fuzzer's: messages a requester would discard (the codec
	 * rejects them, or they answer no call of ours) go to @on_stray
	 * instead, RDMA2_CONNPROP to @on_connprop too; @no_connprop: the
	 * negotiation sends none of ours.
	 */
	void (*on_stray)(struct ping *p, const u8 *m, u32 len);
	void (*on_connprop)(struct ping *p, bool again);
	void *priv;
	bool no_connprop;

	/* what the exchange taught us */
	u32 vers;
	bool fell_back;
	u32 granted;		/* 0 until a reply grants credits */
	u32 send_thresh;
	u32 recv_thresh;
	bool have_props;
	struct rpcrdma2_props props;
	u32 discarded;
	u32 zero_grants;	/* replies granting 0 credits, taken as 1 */
	u32 first_vers;		/* the version negotiation starts with */
	bool negotiated;	/* a NULL reply has fixed the version */

	/* chunk memory (--long-call, --read...): an area per send slot */
	u8 *cbuf;
	struct ibv_mr *cmr;
	struct ibv_mw *mw[MAX_WINDOW];	/* --inv: a type 2 window per slot */
	bool mw_bound[MAX_WINDOW];	/* bound and not yet invalidated */
	u32 invalidated;		/* replies that invalidated our handle */
	u32 inv_unasked;		/* of those, with the server's R clear */
	u32 replies;			/* RPC replies received */
	u8 *scratch;			/* an RPC call being built */

	/* the last reply's RPC message, wherever it arrived */
	const u8 *rpc;
	u32 rpc_len;
	u32 write_len;			/* bytes the Write chunk received */
	const char *via;		/* "inline" or "Reply chunk" */
	struct nfs_result nfs;		/* --read...: the COMPOUND's result */

	/* calls */
	u32 next_xid;
	struct ping_call calls[MAX_WINDOW];

	/* decoder state, attached once */
	struct rpcrdma2_hdr rhdr;
	struct rpcrdma2_read_seg reads[LIM_CHUNKS * LIM_SEGS];
	struct rpcrdma2_read_chunk read_chunks[LIM_CHUNKS];
	struct rpcrdma2_chunk writes[LIM_CHUNKS];
	struct rpcrdma2_seg segs[(LIM_CHUNKS + 1) * LIM_SEGS];
};

/* negotiate.c */
void ping_opts_init(struct ping_opts *o);
void ping_init(struct ping *p, const struct ping_opts *o, u32 nr_sends,
	       u32 nr_send_wrs);
int ping_setup(struct ping *p);
void ping_teardown(struct ping *p);
void note(const struct ping *p, const char *fmt, ...);
int negotiate_version(struct ping *p);
int wait_msg(struct ping *p, struct ping_msg *msg);
int classify(struct ping *p, const u8 *m, u32 len, struct ping_msg *msg);
void record_connprop(struct ping *p, const struct rpcrdma2_hdr *h);
void reply_done(struct ping *p, struct ping_call *call,
		const struct ping_msg *msg, double *rtt);
int send_connprop(struct conn *c, u32 credits, u32 flags, u32 rbsiz);
int encode_connprop(struct conn *c, u32 slot, u32 credits, u32 flags,
		    u32 rbsiz);
bool is_reverse_reply(const struct rpcrdma2_hdr *h, const u8 *m);

/* call.c */
bool uses_chunks(const struct ping_opts *o);
u32 adv_recv_size(const struct ping_opts *o);
bool our_reminv(const struct ping_opts *o);
int create_chunk_memory(struct ping *p);
void free_chunk_memory(struct ping *p);
u8 *chunk_area(const struct ping *p, u32 slot);
void set_seg(struct rpcrdma2_seg *seg, u32 handle, u32 length, const u8 *addr);
void offer_chunk(struct rpcrdma2_chunk_lists *cl, struct rpcrdma2_chunk *ch,
		 u32 handle, u8 *addr, u32 size);
int send_call(struct ping *p, u32 slot, u32 vers, u32 seq, bool compound);
int check_reply(struct ping *p, const struct ping_call *call,
		const struct rpcrdma2_hdr *h, const u8 *m, char *why,
		size_t whylen);

#endif /* _RPCRDMA2_TOOLS_NEGOTIATE_H */
