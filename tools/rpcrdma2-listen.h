/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcrdma2-listen's two files: the program, its modes and connections
 * (rpcrdma2-listen.c), and the answers it sends, correct or hostile
 * (listen-answer.c), on the connection library (lib/conn.h).
 */
#ifndef _RPCRDMA2_TOOLS_LISTEN_H
#define _RPCRDMA2_TOOLS_LISTEN_H

#include <netdb.h>

#include "negotiate.h"
#include "opts.h"

#define PROG			"rpcrdma2-listen"
#define LSN_SENDS		16	/* send slots: Sends not yet completed */

/*
 * The decoder's limits. No RDMA Read here: a Long Call gets
 * RDMA2_ERR_READ_CHUNKS with rdma_max_chunks 0 (draft v2 §5.3.3) or, in
 * v1, ERR_CHUNK. Write chunks come back unused (lsn_reply_hdr()).
 */
#define LSN_READ_CHUNKS		0
#define LSN_WRITE_CHUNKS	4
#define LSN_MAX_SEGS		32

#define LSN_ERR_UNKNOWN		99	/* an rdma_err no version defines */
#define LSN_RESOURCE_LEN	8192	/* length_needed of *_RESOURCE */
#define LSN_SHORT_LEN		12	/* rdma_xid, rdma_vers, rdma_credit */
#define LSN_FOREIGN_HANDLE	0x57a1e000	/* a handle nobody registered */
#define LSN_BC_FIRST_XID	0xbc000000	/* bc-bad's first reverse Call */
#define LSN_BC_DROP_XID		0xbd000000	/* bc-drop's reverse Call */
#define LSN_BC_INV_XID		0xbe000000	/* inv-bc's reverse Call */
#define LSN_BC_STORM_XID	0xbf000000	/* bc-storm's first reverse Call */
#define LSN_BC_STORM_DEPTH	4	/* and how many it keeps outstanding */
#define LSN_READ_LEN		4	/* read-bad-rkey's RDMA Read */
#define LSN_HOLD_MS		30000	/* and how long it waits after */
#define LSN_RPC_REPLY_MAX	32	/* our RPC replies: at most 6 words */

/* --inv-rkey: index 0xbadbad, far beyond rxe's MR and MW pools */
#define DEF_INV_RKEY		0xbadbad01U

/* How a mode answers an RPC Call that decoded */
enum lsn_answer {
	LSN_REPLY,		/* the RPC reply */
	LSN_ERROR,		/* the transport error lsn_mode.code */
	LSN_BAD_XID,		/* the reply, with an XID nobody sent */
	LSN_NO_RESPONSE,	/* the reply, RPCRDMA2_F_RESPONSE clear */
	LSN_BAD_VERS,		/* the reply in the other version */
	LSN_SHORT,		/* its first LSN_SHORT_LEN bytes */
	LSN_TRUNCATED,		/* a Reply chunk cut after one segment */
	LSN_INV_BOGUS,		/* by Send With Invalidate of --inv-rkey */
	LSN_WRITE_LIST,		/* with a Write chunk the Call never offered */
	LSN_BC_BAD,		/* the reply, then bad reverse-direction Calls */
	LSN_BC_DROP,		/* a reverse-direction Call, then disconnect */
	LSN_BC_STORM,		/* the reply, then reverse Calls back to back */
	LSN_READ_BAD,		/* an RDMA Read of LSN_FOREIGN_HANDLE */
	LSN_WRITE_IMM,		/* a 0-byte RDMA Write With Immediate */
	LSN_SILENT,		/* nothing, ever */
};

/*
 * Which message of the first connection an inv-* mode sends by Send With
 * Invalidate of its own live memory window (lsn_inv_setup())
 */
enum lsn_inv_on {
	LSN_INV_NONE,
	LSN_INV_REPLY,		/* the reply the mode sends */
	LSN_INV_CONNPROP,	/* our RDMA2_CONNPROP */
	LSN_INV_BC,		/* a good CB_NULL reverse Call after the 1st reply */
};

/* The private data a mode accepts with (RFC 8797 §4) */
enum lsn_pdata {
	LSN_PD_GOOD,
	LSN_PD_MAGIC,		/* the Format Identifier one bit off */
	LSN_PD_VERS0,
	LSN_PD_VERS2,
	LSN_PD_SIZE0,		/* Send and Receive Size octets 0 */
	LSN_PD_SIZE255,		/* ... and 255 */
	LSN_PD_SHORT,		/* the message runs past the private data */
};

struct lsn_mode {
	const char *name;
	enum lsn_answer answer;
	enum lsn_pdata pdata;
	u32 code;		/* LSN_ERROR: rdma_err */
	bool v1only;		/* accept version 1 only */
	bool v2silent;		/* drop every version 2 message unread */
	bool grant_fixed;	/* grant @grant, not --credits */
	u32 grant;
	enum lsn_inv_on inv_on;
	const char *help;
};

struct lsn_opts {
	struct listen_opts l;
	u32 mode;		/* --hostile: index into the mode table */
	u32 inv_rkey;		/* --inv-rkey N: what inv-bogus invalidates */
};

struct lsn {
	const struct lsn_opts *opts;
	const struct lsn_mode *mode;
	struct listener ls;
	u32 conns;			/* connections established */
	u32 calls;			/* Calls, all connections */

	/* the connection being served: its own event channel */
	struct conn c;
	char peer[NI_MAXHOST + NI_MAXSERV + 8];
	u32 vers;			/* fixed by the first Call, or 0 */
	u32 grant;
	bool reminv;			/* v1 may use Send With Invalidate */
	u32 conn_calls;
	const char *drop;		/* end this connection now, and why */
	bool quiet;			/* print no line per message sent */

	/* bc-storm: reverse Calls sent and answered on this connection */
	u32 storm_vers;			/* 0: not storming */
	u32 storm_sent;
	u32 storm_answered;

	/* inv-*: a memory window of ours the spoiled message invalidates */
	struct ibv_mr *inv_mr;
	struct ibv_mw *inv_mw;
	u32 inv_key;			/* 0: none bound on this connection */
	bool inv_sent;			/* a message went out naming it */
	u8 inv_area[64];

	/* received Calls, as svcrdma2-like limits allow */
	struct rpcrdma2_hdr hdr;
	struct rpcrdma2_chunk writes[LSN_WRITE_CHUNKS];
	struct rpcrdma2_seg segs[(LSN_WRITE_CHUNKS + 1) * LSN_MAX_SEGS];

	/* the chunk lists of our replies */
	struct rpcrdma2_chunk out_writes[LSN_WRITE_CHUNKS];
	struct rpcrdma2_seg out_segs[(LSN_WRITE_CHUNKS + 1) * LSN_MAX_SEGS];

	/* what we sent, as a requester decodes it */
	struct rpcrdma2_hdr chk;
	struct rpcrdma2_read_seg chk_reads[LIM_CHUNKS * LIM_SEGS];
	struct rpcrdma2_read_chunk chk_read_chunks[LIM_CHUNKS];
	struct rpcrdma2_chunk chk_writes[LIM_CHUNKS];
	struct rpcrdma2_seg chk_segs[(LIM_CHUNKS + 1) * LIM_SEGS];
};

/* rpcrdma2-listen.c */
bool lsn_replies(const struct lsn_mode *md);

/* listen-answer.c */
int lsn_inv_setup(struct lsn *l);
void lsn_inv_teardown(struct lsn *l);
const char *lsn_inv_hold(struct lsn *l);
const u32 *lsn_live_inv(const struct lsn *l, enum lsn_inv_on on);
int lsn_reject(struct lsn *l, const struct rpcrdma2_hdr *in,
	       const struct rpcrdma2_reject *rej, u32 len);
int lsn_answer(struct lsn *l, const struct rpcrdma2_hdr *call, const u8 *m);
int lsn_storm_next(struct lsn *l, const struct rpcrdma2_hdr *reply);
int lsn_send_connprop_inv(struct lsn *l);

#endif /* _RPCRDMA2_TOOLS_LISTEN_H */
