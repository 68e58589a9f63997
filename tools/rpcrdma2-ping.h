/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcrdma2-ping's two halves, one binary: the requester
 * (rpcrdma2-ping.c) and the --listen responder (rpcrdma2-listen.c). They
 * share one connection structure and the verbs and rdma_cm helpers that
 * fill it, so both sides post, poll and tear down the same way.
 */
#ifndef _RPCRDMA2_TOOLS_PING_H
#define _RPCRDMA2_TOOLS_PING_H

#include <stdio.h>
#include <time.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include <rpcrdma2/codec.h>
#include <rpcrdma2/cm_pdata.h>

#define PROG			"rpcrdma2-ping"

#define DEF_TIMEOUT_MS		5000
#define MAX_WINDOW		256

/* --inv-rkey: index 0xbadbad, far beyond rxe's MR and MW pools */
#define DEF_INV_RKEY		0xbadbad01U

/* wr_id of a memory-window bind or local invalidate: not a Send */
#define WRID_MEM		0x100000000ULL

/* Receives beyond the credits, for unsolicited RDMA2_CONNPROP and errors */
#define SPARE_RECVS		2

/* Room the decoder gets for chunks the server should not send us at all */
#define LIM_CHUNKS		4
#define LIM_SEGS		4

/* ONC RPC (RFC 5531 §9) */
#define RPC_CALL		0
#define RPC_REPLY		1
#define RPC_VERSION		2
#define RPC_MSG_ACCEPTED	0
#define RPC_MSG_DENIED		1
#define RPC_SUCCESS		0
#define RPC_AUTH_NONE		0
#define RPC_AUTH_GSS		6	/* RFC 2203 */
#define RPC_MAX_AUTH_BYTES	400
#define RPC_NULL_PROC		0
#define NFS_PROGRAM		100003
#define RPC_NULL_CALL_SIZE	40	/* xid ... verifier, no arguments */

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
	bool have_timeout;	/* --timeout given */
	bool verbose;
	u8 *send_msg;
	size_t send_len;
	bool write_imm;		/* --write-imm: that instead of --send-hex */
	u8 *expect;
	size_t expect_len;
	bool expect_none;
	bool ignore_credits;
	bool after_negotiate;
	bool then_ping;
	bool overrun;
	u32 flood;		/* --flood N: calls sent without waiting */
	const char *flood_until; /* --flood-until F: and on until F exists */
	u32 fat_reply;		/* --fat-reply N: Write list segments */
	u32 recv_size;		/* --recv-size N: advertised, 0: --size */
	u32 fuzz;
	u32 seed;
	bool have_seed;
	const char *corpus;
	u32 long_call;		/* --long-call N: bytes of each NULL call */
	const char *path;	/* --readlink PATH, --read PATH */
	u32 nfs_op;		/* NFS4_OP_READLINK or NFS4_OP_READ */
	bool write_chunk;
	u32 write_len;		/* bytes the Write chunk offers */
	bool reply_chunk;
	bool inv;
	/* --read-segs C,S,L: Read chunks in every NULL call after the first */
	u32 rs_chunks;
	u32 rs_segs;
	u32 rs_len;
	/* --write2 PATH: the two WRITEs' lengths; --chunk-pad */
	u32 w2_len[2];
	bool chunk_pad;
	bool no_repost;		/* --no-repost */

	/* --listen: the responder, rpcrdma2-listen.c */
	bool listen;
	const char *bind;	/* --bind ADDR, or NULL: every address */
	u32 mode;		/* --hostile: index into the mode table */
	u32 max_conns;		/* --max-conns N; 0: no limit */
	u32 listen_ms;		/* --timeout S in --listen; 0: no limit */
	u32 inv_rkey;		/* --inv-rkey N: what inv-bogus invalidates */
	u32 hold_ms;		/* --hold S: wait for the server's close */
};

/* One call: its Send buffer is send slot number (this - calls) */
struct ping_call {
	bool busy;		/* sent, no reply yet */
	bool send_busy;		/* its Send has not completed yet */
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

struct ping {
	const struct ping_opts *opts;

	/* connection */
	struct rdma_event_channel *ec;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct ibv_cq *recv_cq;
	struct ibv_cq *send_cq;
	struct ibv_mr *mr;
	u8 *buf;
	u32 nr_recvs;
	u32 nr_sends;
	u32 nr_send_wrs;	/* Send Queue depth */
	bool cq_armed;
	bool connected;
	bool disconnected;

	/* RFC 8797 private data */
	struct rpcrdma2_cm_pdata peer;
	int peer_rc;
	u32 peer_len;

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
	bool qp_failed;		/* a completion failed: the QP is in error */
	bool recv_failed;	/* it was a Receive (else a Send) */
	u32 fail_status;	/* and its enum ibv_wc_status */

	/* --fuzz state; NULL otherwise */
	struct fuzz *fz;

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
	const u8 *data;			/* --read...: link text or data */
	u32 data_len;
	u32 w2_done;			/* --write2: WRITE results checked */
	bool eof;			/* --read: READ4resok.eof */

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

/* stdout is line-buffered (main), so this cannot overtake it */
#define ping_err(fmt, ...) \
	fprintf(stderr, PROG ": " fmt "\n", ##__VA_ARGS__)

static inline u32 get32(const u8 *p)
{
	return get_unaligned_be32(p);
}

static inline u8 *put32(u8 *p, u32 v)
{
	put_unaligned_be32(v, p);
	return p + 4;
}

/* rpcrdma2-ping.c: time, printing */
void deadline_in(struct timespec *dl, u32 ms);
int ms_left(const struct timespec *dl);
void print_hex(const char *what, const u8 *p, size_t len);
const char *brs_name(u32 brs);
const char *prop_state(const struct rpcrdma2_props *props, u32 bit);
const char *pdata_error(int rc);

/* rpcrdma2-ping.c: rdma_cm and verbs, for either side of a connection */
int cm_open(struct rdma_event_channel **ec, struct rdma_cm_id **id);
struct rdma_cm_event *cm_next(struct rdma_event_channel *ec, int ms);
int create_resources(struct ping *p);
long wait_disconnected(struct ping *p, u32 ms);
void ping_teardown(struct ping *p);
int post_recv(struct ping *p, u32 i);
u8 *send_buf(struct ping *p, u32 slot);
int post_send_wr(struct ping *p, u32 slot, u32 len, struct ibv_send_wr *pre,
		 const u32 *inv_rkey);
int post_wr(struct ping *p, u32 slot, struct ibv_send_wr *wr);
int wait_slot(struct ping *p);
int wait_sends(struct ping *p);
int next_recv(struct ping *p, const struct timespec *dl, struct ibv_wc *wc);

/* rpcrdma2-ping.c: messages */
int send_connprop(struct ping *p, u32 credits, u32 flags);
bool is_reverse_reply(const struct rpcrdma2_hdr *h, const u8 *m);

/* rpcrdma2-listen.c */
int lsn_mode_find(const char *name);
void lsn_print_modes(FILE *f);
int lsn_main(const struct ping_opts *o);

/* rpcrdma2-listen-fuzz.c */
int lfz_main(const struct ping_opts *o);

#endif /* _RPCRDMA2_TOOLS_PING_H */
