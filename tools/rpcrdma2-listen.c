// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma2-ping --listen: a responder for RPC NULL to point a client
 * transport at. It listens on one port (rdma_cm, RDMA_PS_TCP), accepts
 * connections one after another with RFC 8797 private data from
 * common/cm_pdata.c, decodes every message it receives with the shared
 * codec and answers each RPC Call as the --hostile mode says: correctly
 * (good, v1only), or with one of the answers a client must survive
 * without crashing, leaking or hanging: each transport error the codec
 * knows, an XID nobody sent, RPCRDMA2_F_RESPONSE clear, a grant of 0 or
 * 2^32 - 1, the other version, a header cut short, Send With Invalidate
 * of a key the client never offered, or of a live key that is none of
 * the answered RPC's (on a reply, a reply nobody asked for, a CONNPROP
 * or a reverse-direction Call), bogus private data, silence,
 * malformed reverse-direction Calls, a good one left outstanding by a
 * disconnect, or an RDMA Read of a key the client never offered, which
 * puts both QPs in the error state with no CM event to tell.
 *
 * Every header it sends comes from the codec's encoders; where a mode
 * needs one that the encoder refuses to write, an encoded good one is
 * patched, with a comment saying why. It prints one line per Call it
 * answers (its XID and what it sent), so that tests can check both ends.
 */
#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "rpcrdma2-ping.h"
#include "rpcrdma2-print.h"

#define LSN_BACKLOG		8
#define LSN_SENDS		16	/* send slots: Sends not yet completed */
#define LSN_POLL_MS		1000	/* a wait's slice without --timeout */

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
#define LSN_PDATA_MAX		196	/* what a CM REP carries (IB spec) */
#define LSN_READ_LEN		4	/* read-bad-rkey's RDMA Read */
#define LSN_HOLD_MS		30000	/* and how long it waits after */
#define LSN_RPC_REPLY_MAX	32	/* our RPC replies: at most 6 words */

/* ONC RPC (RFC 5531 §9) beyond rpcrdma2-ping.h */
#define RPC_PROC_UNAVAIL	3
#define RPC_MISMATCH		0	/* reject_stat */

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

static const struct lsn_mode lsn_modes[] = {
	{ .name = "good", .answer = LSN_REPLY,
	  .help = "correct: v2 (CONNPROP first) or v1, NULL SUCCESS" },
	{ .name = "v1only", .answer = LSN_REPLY, .v1only = true,
	  .help = "v1 only: v2 Calls get the 7-word ERR_VERS 1..1" },
	{ .name = "v2-silent", .answer = LSN_REPLY, .v2silent = true,
	  .help = "good in v1; v2 messages get nothing, ever" },
	{ .name = "err-vers", .answer = LSN_ERROR, .code = RPCRDMA2_ERR_VERS,
	  .help = "ERR_VERS naming only the other version" },
	{ .name = "err-bad-xdr", .answer = LSN_ERROR,
	  .code = RPCRDMA2_ERR_BAD_XDR,
	  .help = "RDMA2_ERR_BAD_XDR (v1: ERR_CHUNK, the same code)" },
	{ .name = "err-inval-htype", .answer = LSN_ERROR,
	  .code = RPCRDMA2_ERR_INVAL_HTYPE, .help = "RDMA2_ERR_INVAL_HTYPE" },
	{ .name = "err-read-chunks", .answer = LSN_ERROR,
	  .code = RPCRDMA2_ERR_READ_CHUNKS,
	  .help = "RDMA2_ERR_READ_CHUNKS, rdma_max_chunks 0" },
	{ .name = "err-write-chunks", .answer = LSN_ERROR,
	  .code = RPCRDMA2_ERR_WRITE_CHUNKS,
	  .help = "RDMA2_ERR_WRITE_CHUNKS, rdma_max_chunks 4" },
	{ .name = "err-segments", .answer = LSN_ERROR,
	  .code = RPCRDMA2_ERR_SEGMENTS,
	  .help = "RDMA2_ERR_SEGMENTS, rdma_max_segments 32" },
	{ .name = "err-write-resource", .answer = LSN_ERROR,
	  .code = RPCRDMA2_ERR_WRITE_RESOURCE,
	  .help = "RDMA2_ERR_WRITE_RESOURCE, chunk 1, 8192 bytes" },
	{ .name = "err-reply-resource", .answer = LSN_ERROR,
	  .code = RPCRDMA2_ERR_REPLY_RESOURCE,
	  .help = "RDMA2_ERR_REPLY_RESOURCE, 8192 bytes" },
	{ .name = "err-system", .answer = LSN_ERROR, .code = RPCRDMA2_ERR_SYSTEM,
	  .help = "RDMA2_ERR_SYSTEM" },
	{ .name = "err-unknown", .answer = LSN_ERROR, .code = LSN_ERR_UNKNOWN,
	  .help = "error code 99, which no version defines" },
	{ .name = "err-credits-max", .answer = LSN_ERROR,
	  .code = RPCRDMA2_ERR_SYSTEM, .grant_fixed = true, .grant = 0xffffffffU,
	  .help = "RDMA2_ERR_SYSTEM granting 4294967295 credits" },
	{ .name = "bad-xid", .answer = LSN_BAD_XID,
	  .help = "the reply with an XID nobody sent" },
	{ .name = "no-response-flag", .answer = LSN_NO_RESPONSE,
	  .help = "v2 replies with RPCRDMA2_F_RESPONSE clear" },
	{ .name = "credits-0", .answer = LSN_REPLY, .grant_fixed = true,
	  .grant = 0, .help = "a grant of 0 credits" },
	{ .name = "credits-max", .answer = LSN_REPLY, .grant_fixed = true,
	  .grant = 0xffffffffU, .help = "a grant of 4294967295 credits" },
	{ .name = "bad-vers", .answer = LSN_BAD_VERS,
	  .help = "the reply in the other version" },
	{ .name = "short", .answer = LSN_SHORT,
	  .help = "the first 12 bytes of the reply" },
	{ .name = "truncated", .answer = LSN_TRUNCATED,
	  .help = "a Reply chunk of 2 segments cut after the 1st" },
	{ .name = "inv-bogus", .answer = LSN_INV_BOGUS,
	  .help = "the reply by Send With Invalidate of --inv-rkey" },
	{ .name = "inv-foreign", .answer = LSN_REPLY, .inv_on = LSN_INV_REPLY,
	  .help = "conn 1: replies by Send With Invalidate of a live key not the RPC's" },
	{ .name = "inv-bad-xid", .answer = LSN_BAD_XID,
	  .inv_on = LSN_INV_REPLY,
	  .help = "conn 1: bad-xid, by Send With Invalidate of a live key" },
	{ .name = "inv-connprop", .answer = LSN_REPLY,
	  .inv_on = LSN_INV_CONNPROP,
	  .help = "conn 1: RDMA2_CONNPROP by Send With Invalidate of a live key" },
	{ .name = "inv-bc", .answer = LSN_REPLY, .inv_on = LSN_INV_BC,
	  .help = "conn 1: a CB_NULL Call (xid 0xbe000000) by Send With Invalidate of a live key" },
	{ .name = "write-list", .answer = LSN_WRITE_LIST,
	  .help = "the reply with a Write chunk the call never offered" },
	{ .name = "bc-bad", .answer = LSN_BC_BAD,
	  .help = "good, then malformed reverse-direction Calls (xid 0xbc00000N)" },
	{ .name = "bc-drop", .answer = LSN_BC_DROP, .grant_fixed = true,
	  .grant = 1,
	  .help = "grant 1; the 2nd Call gets a CB_NULL Call (xid 0xbd000000) and a disconnect" },
	{ .name = "read-bad-rkey", .answer = LSN_READ_BAD,
	  .help = "1st Call: RDMA Read of rkey 0x57a1e000; wait for a disconnect" },
	{ .name = "write-imm", .answer = LSN_WRITE_IMM,
	  .help = "1st Call: a 0-byte RDMA Write With Immediate; wait for a disconnect" },
	{ .name = "bad-pdata-magic", .answer = LSN_REPLY,
	  .pdata = LSN_PD_MAGIC, .help = "good, but private data magic 0xf6ab0e19" },
	{ .name = "bad-pdata-vers0", .answer = LSN_REPLY,
	  .pdata = LSN_PD_VERS0, .help = "good, but private data version 0" },
	{ .name = "bad-pdata-vers2", .answer = LSN_REPLY,
	  .pdata = LSN_PD_VERS2, .help = "good, but private data version 2" },
	{ .name = "bad-pdata-size0", .answer = LSN_REPLY,
	  .pdata = LSN_PD_SIZE0, .help = "good, but size octets 0 (1 KiB)" },
	{ .name = "bad-pdata-size255", .answer = LSN_REPLY,
	  .pdata = LSN_PD_SIZE255,
	  .help = "good, but size octets 255 (256 KiB: a lie)" },
	{ .name = "bad-pdata-short", .answer = LSN_REPLY,
	  .pdata = LSN_PD_SHORT,
	  .help = "good, but the magic in the last 4 of 196 bytes" },
	{ .name = "silent", .answer = LSN_SILENT,
	  .help = "accept, then never send anything" },
};

struct lsn {
	const struct ping_opts *opts;
	const struct lsn_mode *mode;
	struct rdma_event_channel *ec;	/* the listening id's */
	struct rdma_cm_id *id;
	struct timespec end;		/* --timeout */
	u32 conns;			/* connections established */
	u32 calls;			/* Calls, all connections */

	/* the connection being served: its own event channel */
	struct ping c;
	char peer[NI_MAXHOST + NI_MAXSERV + 8];
	u32 vers;			/* fixed by the first Call, or 0 */
	u32 grant;
	bool reminv;			/* v1 may use Send With Invalidate */
	u32 conn_calls;
	const char *drop;		/* end this connection now, and why */

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

/**
 * lsn_mode_find - look up a --hostile mode
 * @name: its name
 *
 * Return: its index in the mode table, or -1.
 */
int lsn_mode_find(const char *name)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(lsn_modes); i++)
		if (!strcmp(name, lsn_modes[i].name))
			return (int)i;
	return -1;
}

/**
 * lsn_print_modes - the --hostile modes for --help, one a line
 * @f: where to
 */
void lsn_print_modes(FILE *f)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(lsn_modes); i++)
		fprintf(f, "  %-20s %s\n", lsn_modes[i].name, lsn_modes[i].help);
	fprintf(f,
		"Error modes answer v1 Calls in v1: ERR_VERS, ERR_CHUNK, or\n"
		"any other code in a v1 RDMA_ERROR, which v1 cannot carry.\n"
		"Error modes and silent fix no version and send no CONNPROP.\n");
}

/* Modes that answer with replies fix the version and send CONNPROP */
static bool lsn_replies(const struct lsn_mode *md)
{
	return md->answer != LSN_ERROR && md->answer != LSN_SILENT;
}

static u32 lsn_other_vers(u32 vers)
{
	return vers == RPCRDMA2_VERS_2 ? RPCRDMA2_VERS_1 : RPCRDMA2_VERS_2;
}

/* The wait until --timeout, or one slice of waiting without it */
static void lsn_deadline(const struct lsn *l, struct timespec *dl)
{
	if (l->opts->listen_ms)
		*dl = l->end;
	else
		deadline_in(dl, LSN_POLL_MS);
}

/* ---- private data ----------------------------------------------------- */

/*
 * RFC 8797 §4: our message, built by the library, then spoiled as the
 * mode asks. Returns its length in @buf (LSN_PDATA_MAX bytes).
 */
static u32 lsn_pdata(const struct lsn *l, u8 *buf)
{
	u32 size = l->opts->size, len = RPCRDMA2_CM_PDATA_SIZE;

	/* §4.2: the library encodes 1 KiB as octet 0, 256 KiB as 255 */
	if (l->mode->pdata == LSN_PD_SIZE0)
		size = RPCRDMA2_CM_PDATA_MIN_SIZE;
	else if (l->mode->pdata == LSN_PD_SIZE255)
		size = RPCRDMA2_CM_PDATA_MAX_SIZE;
	rpcrdma2_cm_pdata_build(buf, LSN_PDATA_MAX, true, size, size);

	/* The builder writes only valid messages: patch the one it wrote */
	switch (l->mode->pdata) {
	case LSN_PD_MAGIC:
		buf[RPCRDMA2_CM_PDATA_OFF_MAGIC + 3] ^= 1;
		break;
	case LSN_PD_VERS0:
		buf[RPCRDMA2_CM_PDATA_OFF_VERSION] = 0;
		break;
	case LSN_PD_VERS2:
		buf[RPCRDMA2_CM_PDATA_OFF_VERSION] = 2;
		break;
	case LSN_PD_SHORT:
		/*
		 * The CM pads what we give to LSN_PDATA_MAX bytes anyway:
		 * give them all, the Format Identifier in the last 4, so
		 * that the message runs past the end (§5.2).
		 */
		len = LSN_PDATA_MAX;
		memmove(buf + len - sizeof(u32), buf, sizeof(u32));
		memset(buf, 0, len - sizeof(u32));
		break;
	default:
		break;
	}
	return len;
}

static bool lsn_pdata_valid(const struct lsn_mode *md)
{
	return md->pdata == LSN_PD_GOOD || md->pdata == LSN_PD_SIZE0 ||
	       md->pdata == LSN_PD_SIZE255;
}

/* ---- what we send ------------------------------------------------------ */

/*
 * Post @len bytes of send slot @slot (with Send With Invalidate of
 * *@inv) and print the line tests read: @head says which message this
 * answers, @what what we sent. A message a requester's codec rejects is
 * marked, with the codec's reason.
 */
static int lsn_post(struct lsn *l, int slot, u32 len, const u32 *inv,
		    const char *head, const char *what)
{
	struct ping *p = &l->c;
	const u8 *buf = send_buf(p, (u32)slot);
	struct rpcrdma2_reject rej;
	char inv_note[48] = "", codec_note[64] = "";

	if (post_send_wr(p, (u32)slot, len, NULL, inv))
		return -1;
	if (inv && l->inv_key && *inv == l->inv_key)
		l->inv_sent = true;
	if (inv)
		snprintf(inv_note, sizeof(inv_note),
			 " by Send With Invalidate of 0x%08x", *inv);
	if (rpcrdma2_decode(buf, len, &l->chk, &rej))
		snprintf(codec_note, sizeof(codec_note),
			 "; a requester's codec rejects it (%s)",
			 rpcrdma2_reason_name(rej.reason));
	/* every message we send has at least rdma_xid .. rdma_credit */
	printf("conn %u: %s: sent %s%s (%u bytes, credits %u)%s\n",
	       l->conns, head, what, inv_note, len, get32(buf + 8),
	       codec_note);
	return 0;
}

/*
 * inv-*: a type 2 memory window of our own, bound over our own memory,
 * for the spoiled message to invalidate. In the bed's loopback both ends
 * are one rxe device, which looks the rkey of a Send With Invalidate up
 * device-wide (rxe_invalidate_mw() checks neither PD nor QP): the
 * client's Receive completes successfully, IB_WC_WITH_INVALIDATE set,
 * with a key it holds valid that is none of the answered RPC's MRs,
 * which is what a server that invalidated another RPC's memory looks
 * like to the client. Only the first connection gets one; later ones
 * are served as good serves them.
 */
static int lsn_inv_setup(struct lsn *l)
{
	struct ping *p = &l->c;
	struct ibv_send_wr wr = { 0 }, *bad;
	int rc;

	l->inv_mr = ibv_reg_mr(p->pd, l->inv_area, sizeof(l->inv_area),
			       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND);
	if (!l->inv_mr) {
		ping_err("ibv_reg_mr (inv): %s", strerror(errno));
		return -1;
	}
	l->inv_mw = ibv_alloc_mw(p->pd, IBV_MW_TYPE_2);
	if (!l->inv_mw) {
		ping_err("ibv_alloc_mw: %s", strerror(errno));
		return -1;
	}
	wr.wr_id = WRID_MEM;
	wr.opcode = IBV_WR_BIND_MW;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.bind_mw.mw = l->inv_mw;
	wr.bind_mw.rkey = ibv_inc_rkey(l->inv_mw->rkey);
	wr.bind_mw.bind_info.mr = l->inv_mr;
	wr.bind_mw.bind_info.addr = (uintptr_t)l->inv_area;
	wr.bind_mw.bind_info.length = sizeof(l->inv_area);
	wr.bind_mw.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_READ;
	rc = ibv_post_send(p->id->qp, &wr, &bad);
	if (rc) {
		ping_err("ibv_post_send (bind): %s", strerror(rc));
		return -1;
	}
	/* the Sends that name it come after the bind on the Send Queue */
	l->inv_key = wr.bind_mw.rkey;
	printf("conn %u: memory window 0x%08x bound\n", l->conns + 1,
	       l->inv_key);
	return 0;
}

static void lsn_inv_teardown(struct lsn *l)
{
	if (l->inv_mw)
		ibv_dealloc_mw(l->inv_mw);
	if (l->inv_mr)
		ibv_dereg_mr(l->inv_mr);
	l->inv_mw = NULL;
	l->inv_mr = NULL;
	l->inv_key = 0;
	l->inv_sent = false;
}

/*
 * After the message that named our key: serve nothing more on this
 * connection and see whether, and how soon, the client ends it. A Send
 * of ours still in flight may fail when it does: not our error.
 */
static const char *lsn_inv_hold(struct lsn *l)
{
	struct ping *p = &l->c;
	long ms;

	ms = wait_disconnected(p, LSN_HOLD_MS);
	if (ms < 0) {
		printf("conn %u: the client did not disconnect within %u ms of the %s\n",
		       l->conns, LSN_HOLD_MS, "Send With Invalidate");
		return "the client did not disconnect";
	}
	printf("conn %u: the client disconnected %ld ms after the Send With Invalidate\n",
	       l->conns, ms);
	return "the client disconnected";
}

/* The live key to send message @on with, if the mode spoils that one */
static const u32 *lsn_live_inv(const struct lsn *l, enum lsn_inv_on on)
{
	return l->inv_key && l->mode->inv_on == on ? &l->inv_key : NULL;
}

/* "RDMA2_ERROR RDMA2_ERR_SEGMENTS max_segments 32" and the like */
static void lsn_error_name(char *buf, size_t len, const struct rpcrdma2_hdr *h)
{
	const struct rpcrdma2_error *e = &h->err;
	u32 v = h->vers == RPCRDMA2_VERS_2 && !e->v1_layout ?
		RPCRDMA2_VERS_2 : RPCRDMA2_VERS_1;
	const char *name = rpcrdma2_errcode_name(v, e->code);
	const char *names[2];
	u32 vals[2];
	int i, n, used;

	if (strcmp(name, "UNKNOWN"))
		used = snprintf(buf, len, "%s %s",
				rpcrdma2_htype_name(v, h->htype), name);
	else
		used = snprintf(buf, len, "%s code %u",
				rpcrdma2_htype_name(v, h->htype), e->code);
	n = error_arm(v, e, names, vals);
	for (i = 0; i < n && used >= 0 && (size_t)used < len; i++)
		used += snprintf(buf + used, len - used, " %s %u", names[i],
				 vals[i]);
	if (e->v1_layout && used >= 0 && (size_t)used < len)
		snprintf(buf + used, len - used, " (RFC 8166 layout)");
}

/*
 * A header the codec rejected: drop it or send the error it calls for
 * (rpcrdma2_encode_reject()), as svcrdma2 does. v1only answers a v2 Call
 * like the in-tree svcrdma, in the RFC 8166 §4.5 layout (seven words),
 * which draft v2 §7.2 requires a client to understand.
 */
static int lsn_reject(struct lsn *l, const struct rpcrdma2_hdr *in,
		      const struct rpcrdma2_reject *rej, u32 len)
{
	struct ping *p = &l->c;
	struct rpcrdma2_hdr out;
	char head[96], what[96];
	int slot, n;
	u8 *buf;

	if (len < RPCRDMA2_FIXED_SIZE)
		snprintf(head, sizeof(head), "a %u-byte message, rejected (%s)",
			 len, rpcrdma2_reason_name(rej->reason));
	else
		snprintf(head, sizeof(head), "xid 0x%08x v%u, rejected (%s)",
			 in->xid, in->vers, rpcrdma2_reason_name(rej->reason));
	if (rej->discard || l->mode->answer == LSN_SILENT) {
		printf("conn %u: %s: sent nothing (%s)\n", l->conns, head,
		       rej->discard ? "the codec says discard" : "silent");
		return 0;
	}
	slot = wait_slot(p);
	if (slot < 0)
		return -1;
	buf = send_buf(p, (u32)slot);
	memset(&out, 0, sizeof(out));
	out.xid = in->xid;
	out.vers = in->vers;
	out.credits = l->grant;
	out.htype = RPCRDMA2_HT_ERROR;
	out.err = rej->reply;
	if (l->mode->v1only && rej->reason == RPCRDMA2_REASON_VERS &&
	    in->vers == RPCRDMA2_VERS_2) {
		out.err.v1_layout = true;
		n = rpcrdma2_encode(&out, buf, l->opts->size);
	} else {
		n = rpcrdma2_encode_reject(in, rej, l->grant, buf,
					   l->opts->size);
	}
	if (n < 0) {
		ping_err("cannot encode the error for %s", head);
		return -1;
	}
	lsn_error_name(what, sizeof(what), &out);
	return lsn_post(l, slot, (u32)n, NULL, head, what);
}

/*
 * The header of a reply to @call: its XID and version, our grant,
 * RPCRDMA2_F_RESPONSE in v2 (draft v2 §3.2). No result of ours is
 * DDP-eligible, so each Write chunk the Call offered comes back unused,
 * its segments with length 0 (RFC 8166 §3.4.6, §4.3.2). A Reply chunk
 * is not needed for replies this small (§3.5.3).
 */
static void lsn_reply_hdr(struct lsn *l, const struct rpcrdma2_hdr *call,
			  struct rpcrdma2_hdr *out)
{
	const struct rpcrdma2_chunk_lists *in = &call->cl;
	const struct rpcrdma2_limits lim = {
		.max_write_chunks = LSN_WRITE_CHUNKS,
		.max_segs = LSN_MAX_SEGS,
	};
	u32 i, nsegs = in->has_reply ? in->reply.first : in->nr_segs;

	memset(out, 0, sizeof(*out));
	rpcrdma2_chunk_lists_init(&out->cl, &lim, NULL, 0, NULL, 0,
				  l->out_writes, ARRAY_SIZE(l->out_writes),
				  l->out_segs, ARRAY_SIZE(l->out_segs));
	out->xid = call->xid;
	out->vers = call->vers;
	out->credits = l->grant;
	out->htype = RPCRDMA2_HT_MSG;
	if (call->vers == RPCRDMA2_VERS_2)
		out->flags = RPCRDMA2_F_RESPONSE;
	/* the decoder's Write chunks take the first segments, in order */
	for (i = 0; i < in->nr_writes; i++)
		out->cl.writes[i] = in->writes[i];
	for (i = 0; i < nsegs; i++) {
		out->cl.segs[i] = in->segs[i];
		out->cl.segs[i].length = 0;
	}
	out->cl.nr_writes = in->nr_writes;
	out->cl.nr_segs = nsegs;
}

/*
 * Remote invalidation in a correct reply: in v2 of the handle the Call
 * names in rdma_inv_handle (draft v2 §3.3); in v1 when both R bits are
 * set (RFC 8797 §4.1), of the Call's first handle, which belongs to
 * its XID alone. False: a plain Send.
 */
static bool lsn_inv_handle(const struct lsn *l,
			   const struct rpcrdma2_hdr *call, u32 *rkey)
{
	const struct rpcrdma2_chunk_lists *cl = &call->cl;

	if (call->vers == RPCRDMA2_VERS_2) {
		*rkey = cl->inv_handle;
		return *rkey;
	}
	if (!l->reminv || !cl->nr_segs)
		return false;
	*rkey = cl->segs[0].handle;
	return true;
}

/*
 * A reply to @call carrying the RPC reply @rpc, spoiled as the mode asks
 * (correct in good, v1only, credits-* and bad-pdata-*).
 */
static int lsn_send_reply(struct lsn *l, const struct rpcrdma2_hdr *call,
			  const char *head, u8 *rpc, u32 rlen,
			  const char *stat)
{
	const struct ping_opts *o = l->opts;
	enum lsn_answer answer = l->mode->answer;
	struct ping *p = &l->c;
	struct rpcrdma2_hdr out;
	u32 len, rkey = 0, i;
	bool inv = false;
	char what[128];
	int slot, n;
	u8 *buf;

	slot = wait_slot(p);
	if (slot < 0)
		return -1;
	buf = send_buf(p, (u32)slot);
	lsn_reply_hdr(l, call, &out);
	switch (answer) {
	case LSN_REPLY:
		inv = lsn_inv_handle(l, call, &rkey);
		break;
	case LSN_BAD_XID:
		/* v1 ties the RPC XID to rdma_xid (RFC 8166 §4.2.1): both */
		out.xid = ~call->xid;
		put32(rpc, ~get32(rpc));
		break;
	case LSN_NO_RESPONSE:
		/* draft v2 §3.2: a reply MUST set it; a Call's header clears it */
		out.flags = 0;
		break;
	case LSN_BAD_VERS:
		/* draft v2 §7.3: a reply MUST be in the version of its Call */
		out.vers = lsn_other_vers(call->vers);
		out.flags = out.vers == RPCRDMA2_VERS_2 ?
			    RPCRDMA2_F_RESPONSE : 0;
		break;
	case LSN_TRUNCATED:
		/* a Reply chunk of two empty segments, cut short below */
		out.cl.reply.first = out.cl.nr_segs;
		out.cl.reply.nsegs = 2;
		for (i = 0; i < 2; i++)
			memset(&out.cl.segs[out.cl.nr_segs++], 0,
			       sizeof(out.cl.segs[0]));
		out.cl.has_reply = true;
		break;
	case LSN_INV_BOGUS:
		rkey = o->inv_rkey;
		inv = true;
		break;
	case LSN_WRITE_LIST:
		/*
		 * RFC 8166 §4.3.2: a reply returns the Write chunks its Call
		 * offered. One more, of 8 bytes "written" to a handle the
		 * requester never registered, after those (no Reply chunk
		 * follows: lsn_reply_hdr() returns none).
		 */
		if (out.cl.nr_writes == ARRAY_SIZE(l->out_writes) ||
		    out.cl.nr_segs == ARRAY_SIZE(l->out_segs))
			break;
		out.cl.writes[out.cl.nr_writes].first = out.cl.nr_segs;
		out.cl.writes[out.cl.nr_writes++].nsegs = 1;
		out.cl.segs[out.cl.nr_segs].handle = LSN_FOREIGN_HANDLE;
		out.cl.segs[out.cl.nr_segs].length = 8;
		out.cl.segs[out.cl.nr_segs++].offset = 0x1000;
		break;
	default:
		break;
	}
	n = rpcrdma2_encode(&out, buf, o->size);
	if (n < 0 || rlen > o->size - (u32)n) {
		ping_err("cannot encode the reply to %s", head);
		return -1;
	}
	len = (u32)n;
	snprintf(what, sizeof(what), "%s %s",
		 rpcrdma2_htype_name(out.vers, out.htype), stat);
	switch (answer) {
	case LSN_BAD_XID:
		snprintf(what, sizeof(what), "%s %s with xid 0x%08x",
			 rpcrdma2_htype_name(out.vers, out.htype), stat, out.xid);
		break;
	case LSN_NO_RESPONSE:
		if (out.vers == RPCRDMA2_VERS_2)
			strcat(what, " without RPCRDMA2_F_RESPONSE");
		else
			strcat(what, " (v1 has no rdma_flags)");
		break;
	case LSN_BAD_VERS:
		snprintf(what, sizeof(what), "%s %s in version %u",
			 rpcrdma2_htype_name(out.vers, out.htype), stat,
			 out.vers);
		break;
	case LSN_WRITE_LIST:
		snprintf(what, sizeof(what),
			 "%s %s with a Write chunk it never offered",
			 rpcrdma2_htype_name(out.vers, out.htype), stat);
		break;
	case LSN_TRUNCATED:
		/*
		 * The encoder writes whole headers only. The Reply chunk
		 * ends the header: drop its second segment, and the RPC
		 * reply with it, so the list claims more segments than the
		 * message holds (an XDR error, RFC 8166 §4.5.2).
		 */
		len -= RPCRDMA2_SEGMENT_SIZE;
		rlen = 0;
		snprintf(what, sizeof(what),
			 "%s, its Reply chunk cut after 1 of 2 segments",
			 rpcrdma2_htype_name(out.vers, out.htype));
		break;
	default:
		break;
	}
	memcpy(buf + len, rpc, rlen);
	len += rlen;
	if (lsn_live_inv(l, LSN_INV_REPLY)) {
		rkey = l->inv_key;
		inv = true;
	}
	if (answer == LSN_SHORT) {
		/* shorter than any header (RFC 8166 §4.2, §4.5) */
		len = LSN_SHORT_LEN;
		snprintf(what, sizeof(what), "the first %u bytes of %s %s",
			 len, rpcrdma2_htype_name(out.vers, out.htype), stat);
	}
	return lsn_post(l, slot, len, inv ? &rkey : NULL, head, what);
}

/*
 * The mode's transport error in answer to @call, in the Call's version
 * with the arm the draft defines (draft v2 §5.3.3). ERR_VERS names only
 * the other version.
 */
static int lsn_send_error(struct lsn *l, const struct rpcrdma2_hdr *call,
			  const char *head)
{
	u32 code = l->mode->code;
	struct ping *p = &l->c;
	struct rpcrdma2_hdr out = { 0 };
	bool v1_patch;
	char what[96];
	int slot, n;
	u8 *buf;

	slot = wait_slot(p);
	if (slot < 0)
		return -1;
	buf = send_buf(p, (u32)slot);
	out.xid = call->xid;
	out.vers = call->vers;
	out.credits = l->grant;
	out.htype = RPCRDMA2_HT_ERROR;
	if (call->vers == RPCRDMA2_VERS_2)
		out.flags = RPCRDMA2_F_RESPONSE;
	out.err.code = code;
	switch (code) {
	case RPCRDMA2_ERR_VERS:
		out.err.vers.low = lsn_other_vers(call->vers);
		out.err.vers.high = out.err.vers.low;
		break;
	case RPCRDMA2_ERR_READ_CHUNKS:
		out.err.max_chunks = LSN_READ_CHUNKS;
		break;
	case RPCRDMA2_ERR_WRITE_CHUNKS:
		out.err.max_chunks = LSN_WRITE_CHUNKS;
		break;
	case RPCRDMA2_ERR_SEGMENTS:
		out.err.max_segs = LSN_MAX_SEGS;
		break;
	case RPCRDMA2_ERR_WRITE_RESOURCE:
		out.err.write.index = 1;
		out.err.write.length = LSN_RESOURCE_LEN;
		break;
	case RPCRDMA2_ERR_REPLY_RESOURCE:
		out.err.length_needed = LSN_RESOURCE_LEN;
		break;
	}
	v1_patch = call->vers == RPCRDMA2_VERS_1 &&
		   code != RPCRDMA2_V1_ERR_VERS && code != RPCRDMA2_V1_ERR_CHUNK;
	if (v1_patch)
		out.err.code = RPCRDMA2_V1_ERR_CHUNK;
	n = rpcrdma2_encode(&out, buf, l->opts->size);
	if (n < 0) {
		ping_err("cannot encode the error for %s", head);
		return -1;
	}
	if (v1_patch) {
		/*
		 * v1 has ERR_VERS and ERR_CHUNK only (RFC 8166 §4.1.2) and
		 * the encoder refuses others: patch the rdma_err word of an
		 * encoded ERR_CHUNK. A requester discards an RDMA_ERROR it
		 * cannot decode (§4.5).
		 */
		put32(buf + RPCRDMA2_FIXED_SIZE, code);
		snprintf(what, sizeof(what), "RDMA_ERROR code %u (ERR_CHUNK patched)",
			 code);
	} else {
		lsn_error_name(what, sizeof(what), &out);
	}
	return lsn_post(l, slot, (u32)n, NULL, head, what);
}

/*
 * A server's answer to the RPC Call @c (RFC 5531 §9): NULL (procedure
 * 0) of any program and version succeeds; other procedures are
 * PROC_UNAVAIL; an RPC version other than 2 is denied RPC_MISMATCH.
 * Writes the reply to @out and names its status in @stat. Returns its
 * length, or -1 for a message sunrpc would drop too: shorter than a
 * call header with its credential and verifier, or not a CALL.
 */
static int lsn_rpc_reply(const u8 *c, u32 len, u8 *out, u32 *proc,
			 const char **stat)
{
	u32 off = 24, i, n;
	u8 *r = out;

	if (len < off || get32(c + 4) != RPC_CALL)
		return -1;
	*proc = get32(c + 20);
	r = put32(r, get32(c));
	r = put32(r, RPC_REPLY);
	if (get32(c + 8) != RPC_VERSION) {
		r = put32(r, RPC_MSG_DENIED);
		r = put32(r, RPC_MISMATCH);
		r = put32(r, RPC_VERSION);
		r = put32(r, RPC_VERSION);
		*stat = "MSG_DENIED RPC_MISMATCH";
		return (int)(r - out);
	}
	/* the credential, then the verifier (opaque_auth, §8.2) */
	for (i = 0; i < 2; i++) {
		if (len - off < 8)
			return -1;
		n = get32(c + off + 4);
		if (n > RPC_MAX_AUTH_BYTES || len - off - 8 < ((n + 3) & ~3U))
			return -1;
		off += 8 + ((n + 3) & ~3U);
	}
	r = put32(r, RPC_MSG_ACCEPTED);
	r = put32(r, RPC_AUTH_NONE);
	r = put32(r, 0);
	if (*proc == RPC_NULL_PROC) {
		r = put32(r, RPC_SUCCESS);
		*stat = "SUCCESS";
	} else {
		r = put32(r, RPC_PROC_UNAVAIL);
		*stat = "PROC_UNAVAIL";
	}
	return (int)(r - out);
}

/* bc-bad: the reverse-direction Calls, in order (xid LSN_BC_FIRST_XID + index) */
enum lsn_bc {
	LSN_BC_WRITE_CHUNK,	/* RDMA_MSG with a Write chunk */
	LSN_BC_NOMSG,		/* RDMA_NOMSG, a Position-Zero Read chunk */
	LSN_BC_SHORT,		/* 4 bytes of RPC message */
	LSN_BC_XID,		/* rdma_xid is not the RPC XID */
	LSN_BC_VERS,		/* the other version */
	LSN_BC_GOOD,		/* well formed */
	LSN_BC_COUNT
};

static const char *const lsn_bc_what[LSN_BC_COUNT] = {
	"with a Write chunk", "as NOMSG with a Position-Zero Read chunk",
	"of 4 bytes", "whose rdma_xid is not its XID",
	"in the other version", "well formed",
};

/*
 * One reverse-direction Call (RFC 8167), of kind @i (enum lsn_bc), with
 * rdma_xid @xid: a NULL Call to the NFSv4 callback program (RFC 8881
 * §20: 0x40000000, version 1), flags clear (a Call, draft v2 §3.2), on a
 * connection whose version @vers the first reply fixed.
 */
static int lsn_send_bc_call(struct lsn *l, u32 vers, u32 i, u32 xid,
			    const u32 *inv)
{
	const struct rpcrdma2_limits lim = {
		.max_read_chunks = 1, .max_write_chunks = 1, .max_segs = 1,
	};
	struct rpcrdma2_read_seg rs = {
		.position = 0,
		.seg = { LSN_FOREIGN_HANDLE, RPC_NULL_CALL_SIZE, 0x1000 },
	};
	struct rpcrdma2_seg ws = { LSN_FOREIGN_HANDLE, 4096, 0x2000 };
	struct rpcrdma2_chunk wch = { .first = 0, .nsegs = 1 };
	struct rpcrdma2_read_chunk rch;
	u8 rpc[RPC_NULL_CALL_SIZE], *r = rpc;
	u32 rlen = RPC_NULL_CALL_SIZE;
	struct ping *p = &l->c;
	struct rpcrdma2_hdr h;
	char head[48], what[96];
	int slot, n;
	u8 *buf;

	memset(&h, 0, sizeof(h));
	rpcrdma2_chunk_lists_init(&h.cl, &lim, &rs, 1, &rch, 1, &wch, 1, &ws, 1);
	h.xid = xid;
	h.vers = i == LSN_BC_VERS ? lsn_other_vers(vers) : vers;
	h.credits = l->grant;
	h.htype = RPCRDMA2_HT_MSG;
	if (i == LSN_BC_WRITE_CHUNK) {
		h.cl.writes[0] = wch;
		h.cl.nr_writes = 1;
		h.cl.nr_segs = 1;
	} else if (i == LSN_BC_NOMSG) {
		h.htype = RPCRDMA2_HT_NOMSG;
		h.cl.nr_reads = 1;
		rlen = 0;
	}
	r = put32(r, i == LSN_BC_XID ? ~xid : xid);
	r = put32(r, RPC_CALL);
	r = put32(r, RPC_VERSION);
	r = put32(r, 0x40000000);	/* NFS4_CALLBACK */
	r = put32(r, 1);
	r = put32(r, RPC_NULL_PROC);
	r = put32(r, RPC_AUTH_NONE);
	r = put32(r, 0);
	r = put32(r, RPC_AUTH_NONE);
	put32(r, 0);
	if (i == LSN_BC_SHORT)
		rlen = 4;

	slot = wait_slot(p);
	if (slot < 0)
		return -1;
	buf = send_buf(p, (u32)slot);
	n = rpcrdma2_encode(&h, buf, l->opts->size);
	if (n < 0 || rlen > l->opts->size - (u32)n) {
		ping_err("cannot encode reverse-direction Call %u", i);
		return -1;
	}
	memcpy(buf + n, rpc, rlen);
	snprintf(head, sizeof(head), "reverse xid 0x%08x v%u", xid, h.vers);
	snprintf(what, sizeof(what), "%s CB_NULL Call %s",
		 rpcrdma2_htype_name(h.vers, h.htype), lsn_bc_what[i]);
	return lsn_post(l, slot, (u32)n + rlen, inv, head, what);
}

/*
 * bc-bad: after the first reply (the version is now fixed), one of each
 * reverse-direction Call: all but the last are malformed or carry what a
 * client offering BRS INLINE does not take.
 */
static int lsn_send_bc_bad(struct lsn *l, u32 vers)
{
	u32 i;

	for (i = 0; i < LSN_BC_COUNT; i++)
		if (lsn_send_bc_call(l, vers, i, LSN_BC_FIRST_XID + i, NULL))
			return -1;
	return 0;
}

/*
 * bc-drop, on the first connection: the second Call stays unanswered.
 * The NFS client set its callback service up between its first Call
 * (rpc_create()'s NULL) and its second (nfs4_init_callback() runs before
 * EXCHANGE_ID), so the well-formed reverse Call sent instead is taken.
 * Its reply cannot go before the connection does: the grant is 1, which
 * the unanswered Call holds, and a client's reverse-direction reply
 * takes a forward credit (as the in-tree xprtrdma's does). Once our Send
 * has completed (the Call sits in a client Receive) the connection ends:
 * the reply is outstanding when it goes. Later connections are served
 * as good serves them.
 */
static int lsn_bc_drop(struct lsn *l, const struct rpcrdma2_hdr *call,
		       const char *head)
{
	if (lsn_send_bc_call(l, call->vers, LSN_BC_GOOD, LSN_BC_DROP_XID,
			     NULL) ||
	    wait_sends(&l->c))
		return -1;
	printf("conn %u: %s: sent nothing; disconnecting, reverse xid 0x%08x unanswered\n",
	       l->conns, head, LSN_BC_DROP_XID);
	l->drop = "dropped with a reverse-direction Call outstanding";
	return 0;
}

/*
 * Instead of answering the first Call of the first connection: post @wr,
 * which should fail (@fails) or complete, then disconnect nothing for
 * LSN_HOLD_MS: what ends the connection, and how soon, is up to the
 * client. @what names @wr in what we print. Later connections are served
 * as good serves them.
 */
static int lsn_one_wr(struct lsn *l, const char *head,
		      struct ibv_send_wr *wr, bool fails, const char *what)
{
	struct ping *p = &l->c;
	int slot = wait_slot(p);
	struct ibv_sge sge;
	long ms;
	int rc;

	if (slot < 0)
		return -1;
	if (wr->num_sge) {
		sge.addr = (uintptr_t)send_buf(p, (u32)slot);
		sge.length = LSN_READ_LEN;
		sge.lkey = p->mr->lkey;
		wr->sg_list = &sge;
	}
	if (post_wr(p, (u32)slot, wr))
		return -1;
	/* wait_sends() fails when a completion does */
	rc = wait_sends(p);
	if (fails ? !rc || !p->qp_failed : rc || p->qp_failed) {
		printf("conn %u: %s: %s did %s\n", l->conns, head, what,
		       fails ? "not fail" : "not complete");
		return -1;
	}
	if (fails)
		printf("conn %u: %s: %s failed: %s; sent nothing\n", l->conns,
		       head, what,
		       ibv_wc_status_str((enum ibv_wc_status)p->fail_status));
	else
		printf("conn %u: %s: %s done; sent nothing else\n", l->conns,
		       head, what);
	fflush(stdout);
	ms = wait_disconnected(p, LSN_HOLD_MS);
	if (ms < 0) {
		printf("conn %u: the client did not disconnect within %u ms of the %s\n",
		       l->conns, LSN_HOLD_MS, what);
		l->drop = "the client did not disconnect";
		return 0;
	}
	printf("conn %u: the client disconnected %ld ms after the %s\n",
	       l->conns, ms, what);
	l->drop = "the client disconnected";
	return 0;
}

/*
 * read-bad-rkey: an RDMA Read of LSN_FOREIGN_HANDLE, which the client
 * never registered. Its responder NAKs the Read (a remote access error)
 * and both QPs go to the error state (IBA class C) with no CM event on
 * either side: the client sees only its posted Receives flush.
 */
static int lsn_read_bad(struct lsn *l, const char *head)
{
	struct ibv_send_wr wr = {
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_READ,
		.wr.rdma = { .remote_addr = 0, .rkey = LSN_FOREIGN_HANDLE },
	};
	char what[48];

	snprintf(what, sizeof(what), "RDMA Read of rkey 0x%08x",
		 LSN_FOREIGN_HANDLE);
	return lsn_one_wr(l, head, &wr, true, what);
}

/*
 * write-imm: a zero-byte RDMA Write With Immediate, which needs no rkey
 * (IBA C9-88) and consumes one of the client's Receives. It completes as
 * IBV_WC_RECV_RDMA_WITH_IMM with no message in the buffer; RPC-over-RDMA
 * never sends one, so the client should take it as a broken server.
 */
static int lsn_write_imm(struct lsn *l, const char *head)
{
	struct ibv_send_wr wr = {
		.opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.imm_data = htonl(0x5a5a5a5a),
	};

	return lsn_one_wr(l, head, &wr, false,
			  "0-byte RDMA Write With Immediate");
}

/* An RDMA_MSG / RDMA2_MSG Call that decoded: answer it as the mode says */
static int lsn_answer(struct lsn *l, const struct rpcrdma2_hdr *call,
		      const u8 *m)
{
	u8 rpc[LSN_RPC_REPLY_MAX];
	const u32 *inv;
	const char *stat;
	char head[64];
	u32 proc = 0;
	int rlen;

	rlen = lsn_rpc_reply(m + call->hdr_len, call->rpc_len, rpc, &proc,
			     &stat);
	snprintf(head, sizeof(head), "xid 0x%08x v%u proc %u", call->xid,
		 call->vers, proc);
	if (rlen < 0) {
		printf("conn %u: xid 0x%08x v%u: sent nothing (not an RPC Call)\n",
		       l->conns, call->xid, call->vers);
		return 0;
	}
	l->calls++;
	l->conn_calls++;
	switch (l->mode->answer) {
	case LSN_SILENT:
		printf("conn %u: %s: sent nothing (silent)\n", l->conns, head);
		return 0;
	case LSN_ERROR:
		return lsn_send_error(l, call, head);
	case LSN_BC_BAD:
		if (lsn_send_reply(l, call, head, rpc, (u32)rlen, stat))
			return -1;
		return l->conn_calls == 1 ? lsn_send_bc_bad(l, call->vers) : 0;
	case LSN_BC_DROP:
		if (l->conns == 1 && l->conn_calls == 2)
			return lsn_bc_drop(l, call, head);
		return lsn_send_reply(l, call, head, rpc, (u32)rlen, stat);
	case LSN_READ_BAD:
		if (l->conns == 1 && l->conn_calls == 1)
			return lsn_read_bad(l, head);
		return lsn_send_reply(l, call, head, rpc, (u32)rlen, stat);
	case LSN_WRITE_IMM:
		if (l->conns == 1 && l->conn_calls == 1)
			return lsn_write_imm(l, head);
		return lsn_send_reply(l, call, head, rpc, (u32)rlen, stat);
	default:
		if (lsn_send_reply(l, call, head, rpc, (u32)rlen, stat))
			return -1;
		/* inv-bc: a Call answers nothing; no MR was ours to touch */
		inv = lsn_live_inv(l, LSN_INV_BC);
		if (!inv || l->conn_calls != 1)
			return 0;
		return lsn_send_bc_call(l, call->vers, LSN_BC_GOOD,
					LSN_BC_INV_XID, inv);
	}
}

/* ---- received messages ------------------------------------------------ */

/*
 * svcrdma2's limits, and its version rule: once the first message has
 * fixed the version, one in the other gets ERR_VERS naming it (draft v2
 * §7.3); v1only accepts version 1 alone.
 */
static int lsn_limits(struct lsn *l)
{
	struct rpcrdma2_limits lim = {
		.max_read_chunks = LSN_READ_CHUNKS,
		.max_write_chunks = LSN_WRITE_CHUNKS,
		.max_segs = LSN_MAX_SEGS,
		.vers_low = l->vers ? l->vers : RPCRDMA2_VERS_MIN,
		.vers_high = l->vers ? l->vers : RPCRDMA2_VERS_MAX,
	};

	if (l->mode->v1only) {
		lim.vers_low = RPCRDMA2_VERS_1;
		lim.vers_high = RPCRDMA2_VERS_1;
	}
	return rpcrdma2_chunk_lists_init(&l->hdr.cl, &lim, NULL, 0, NULL, 0,
					 l->writes, ARRAY_SIZE(l->writes),
					 l->segs, ARRAY_SIZE(l->segs));
}

/*
 * inv-connprop: our RDMA2_CONNPROP as send_connprop() writes it, but by
 * Send With Invalidate. It answers no RPC: draft v2 §8.4 and RFC 8797
 * §4.1 let a responder invalidate only what the RPC it answers offered.
 */
static int lsn_send_connprop_inv(struct lsn *l)
{
	struct rpcrdma2_limits none = { 0 };
	struct rpcrdma2_hdr h = { 0 };
	struct ping *p = &l->c;
	int slot, n;

	slot = wait_slot(p);
	if (slot < 0)
		return -1;
	rpcrdma2_chunk_lists_init(&h.cl, &none, NULL, 0, NULL, 0, NULL, 0, NULL,
				  0);
	h.vers = RPCRDMA2_VERS_2;
	h.credits = l->grant;
	h.htype = RPCRDMA2_HT_CONNPROP;
	h.flags = RPCRDMA2_F_RESPONSE;
	h.props.present = RPCRDMA2_PROPF_RBSIZ | RPCRDMA2_PROPF_BRS;
	h.props.rbsiz = l->opts->size;
	h.props.brs = RPCRDMA2_RVREQSUP_NONE;
	n = rpcrdma2_encode(&h, send_buf(p, (u32)slot), l->opts->size);
	if (n < 0) {
		ping_err("cannot encode RDMA2_CONNPROP: %s", strerror(-n));
		return -1;
	}
	return lsn_post(l, slot, (u32)n, &l->inv_key, "connprop",
			"RDMA2_CONNPROP");
}

/*
 * The first message that decodes fixes the connection's version (draft
 * v2 §7.3). In v2 our RDMA2_CONNPROP goes first, before any reply
 * (§5.3.4), as svcrdma2 sends it. Modes that answer every Call with an
 * error, or with nothing, fix nothing and send no CONNPROP.
 */
static int lsn_fix_version(struct lsn *l, const struct rpcrdma2_hdr *h)
{
	if (l->vers || !lsn_replies(l->mode))
		return 0;
	l->vers = h->vers;
	printf("conn %u: version %u fixed by xid 0x%08x\n", l->conns, l->vers,
	       h->xid);
	if (l->vers != RPCRDMA2_VERS_2)
		return 0;
	if (lsn_live_inv(l, LSN_INV_CONNPROP))
		return lsn_send_connprop_inv(l);
	return send_connprop(&l->c, l->grant, RPCRDMA2_F_RESPONSE);
}

/* One received message: decode it, then drop, reject or answer it */
static int lsn_handle(struct lsn *l, const u8 *m, u32 len)
{
	struct rpcrdma2_hdr *h = &l->hdr;
	struct rpcrdma2_reject rej;

	if (l->opts->verbose)
		print_hex("received", m, len);
	/* a server a version 2 Call never reaches: lost, not rejected */
	if (l->mode->v2silent && len >= 8 &&
	    get32(m + 4) == RPCRDMA2_VERS_2) {
		printf("conn %u: xid 0x%08x v2: sent nothing (v2-silent)\n",
		       l->conns, get32(m));
		return 0;
	}
	if (lsn_limits(l)) {
		ping_err("decoder limits do not fit");
		return -1;
	}
	if (rpcrdma2_decode(m, len, h, &rej))
		return lsn_reject(l, h, &rej, len);
	switch (h->htype) {
	case RPCRDMA2_HT_CONNPROP:
		/* the codec accepts it in v2 only */
		printf("conn %u: connprop received: RBSIZ %u (%s), BRS RDMA2_RVREQSUP_%s (%s)\n",
		       l->conns, h->props.rbsiz,
		       prop_state(&h->props, RPCRDMA2_PROPF_RBSIZ),
		       brs_name(h->props.brs),
		       prop_state(&h->props, RPCRDMA2_PROPF_BRS));
		return lsn_fix_version(l, h);
	case RPCRDMA2_HT_ERROR:
		/* a responder never answers one (RFC 8166 §4.2.4, §5.3.3) */
		printf("conn %u: xid 0x%08x v%u: sent nothing (an error from a requester)\n",
		       l->conns, h->xid, h->vers);
		return 0;
	}
	/* a Long Call never gets here: Read chunks are over the limit */
	if (h->htype != RPCRDMA2_HT_MSG || is_reverse_reply(h, m)) {
		printf("conn %u: xid 0x%08x v%u: sent nothing (a reply, and we sent no Call)\n",
		       l->conns, h->xid, h->vers);
		return 0;
	}
	if (lsn_fix_version(l, h))
		return -1;
	return lsn_answer(l, h, m);
}

/* Serve the connection until it ends; says why it ended */
static const char *lsn_serve(struct lsn *l)
{
	struct ping *p = &l->c;
	struct timespec dl;
	struct ibv_wc wc;
	u32 idx;
	int rc;

	for (;;) {
		lsn_deadline(l, &dl);
		rc = next_recv(p, &dl, &wc);
		if (rc == -ETIMEDOUT) {
			if (l->opts->listen_ms)
				return "--timeout";
			continue;
		}
		if (rc == -ECONNRESET)
			return "the client disconnected";
		if (rc)
			return p->qp_failed ? "a completion failed" : "an error";
		idx = (u32)wc.wr_id;
		rc = lsn_handle(l, p->buf + (size_t)idx * l->opts->size,
				wc.byte_len);
		if (rc)
			return "an error";
		if (l->drop)
			return l->drop;
		if (l->inv_sent)
			return lsn_inv_hold(l);
		if (post_recv(p, idx))
			return "an error";
	}
}

/* ---- connections ------------------------------------------------------ */

static void lsn_peer_name(struct lsn *l)
{
	struct sockaddr *sa = rdma_get_peer_addr(l->c.id);
	char host[NI_MAXHOST], serv[NI_MAXSERV];
	socklen_t salen = sa->sa_family == AF_INET6 ?
			  sizeof(struct sockaddr_in6) :
			  sizeof(struct sockaddr_in);

	if (getnameinfo(sa, salen, host, sizeof(host), serv, sizeof(serv),
			NI_NUMERICHOST | NI_NUMERICSERV))
		snprintf(l->peer, sizeof(l->peer), "an unknown address");
	else
		snprintf(l->peer, sizeof(l->peer), "%s port %s", host, serv);
}

/*
 * Give the new connection its own event channel (so that serving it
 * never takes a connection request off the listening one), its QP and
 * Receives, then accept it with our private data and wait until it is
 * established.
 */
static int lsn_accept(struct lsn *l)
{
	struct rdma_conn_param cp = { 0 };
	struct ping *p = &l->c;
	struct rdma_cm_event *ev;
	u8 pdata[LSN_PDATA_MAX];
	char what[32];
	int ok;

	if (cm_open(&p->ec, NULL))
		goto out_reject;
	if (rdma_migrate_id(p->id, p->ec)) {
		ping_err("rdma_migrate_id: %s", strerror(errno));
		goto out_reject;
	}
	if (create_resources(p))
		goto out_reject;
	cp.private_data = pdata;
	cp.private_data_len = (u8)lsn_pdata(l, pdata);
	cp.retry_count = 7;
	cp.rnr_retry_count = 7;
	/* read-bad-rkey's one RDMA Read */
	cp.initiator_depth = 1;
	if (rdma_accept(p->id, &cp)) {
		ping_err("rdma_accept: %s", strerror(errno));
		return -1;
	}
	snprintf(what, sizeof(what), "conn %u: private data sent",
		 l->conns + 1);
	print_hex(what, pdata, cp.private_data_len);
	ev = cm_next(p->ec, (int)l->opts->timeout_ms);
	if (!ev) {
		printf("conn %u: not established within %.1f s\n", l->conns + 1,
		       l->opts->timeout_ms / 1000.0);
		return -1;
	}
	ok = ev->event == RDMA_CM_EVENT_ESTABLISHED;
	if (!ok)
		printf("conn %u: not established: %s (status %d)\n",
		       l->conns + 1, rdma_event_str(ev->event), ev->status);
	rdma_ack_cm_event(ev);
	if (!ok)
		return -1;
	p->connected = true;
	return 0;

out_reject:
	rdma_reject(p->id, NULL, 0);
	return -1;
}

/*
 * One connection, from the request in @ev to its end. Returns NULL to
 * go on listening, or why the run ends (--timeout).
 */
static const char *lsn_connection(struct lsn *l, struct rdma_cm_event *ev)
{
	const struct ping_opts *o = l->opts;
	struct ping *p = &l->c;
	const char *end;

	memset(p, 0, sizeof(*p));
	p->opts = o;
	p->nr_recvs = o->credits + SPARE_RECVS;
	p->nr_sends = LSN_SENDS;
	p->nr_send_wrs = LSN_SENDS;
	p->id = ev->id;
	/* RFC 8797 §5.2: untrusted and padded; the parser searches */
	p->peer_len = ev->param.conn.private_data_len;
	p->peer_rc = rpcrdma2_cm_pdata_parse(ev->param.conn.private_data,
					     p->peer_len, &p->peer);
	rdma_ack_cm_event(ev);
	lsn_peer_name(l);
	printf("conn %u: request from %s, ", l->conns + 1, l->peer);
	if (!p->peer_rc)
		printf("private data received (%u bytes): version %u, R %d, send %u, receive %u\n",
		       p->peer_len, p->peer.version, p->peer.reminv,
		       p->peer.send_size, p->peer.recv_size);
	else
		printf("private data received (%u bytes): none valid (%s)\n",
		       p->peer_len, pdata_error(p->peer_rc));
	l->vers = 0;
	l->conn_calls = 0;
	l->drop = NULL;
	l->grant = l->mode->grant_fixed ? l->mode->grant : o->credits;
	/* RFC 8797 §4.1: v1 only when both sent R in valid private data */
	l->reminv = lsn_pdata_valid(l->mode) &&
		    rpcrdma2_cm_pdata_reminv_ok(p->peer_rc ? NULL : &p->peer,
						true);
	end = "not established";
	if (!lsn_accept(l)) {
		if (l->mode->inv_on && !l->conns && lsn_inv_setup(l))
			end = "an error";
		l->conns++;
		printf("conn %u: established, mode %s, grant %u\n", l->conns,
		       l->mode->name, l->grant);
		if (strcmp(end, "an error"))
			end = lsn_serve(l);
		printf("conn %u: closed: %s; %u calls\n", l->conns, end,
		       l->conn_calls);
	}
	lsn_inv_teardown(l);
	ping_teardown(p);
	return strcmp(end, "--timeout") ? NULL : end;
}

/* Bind and listen on --bind (default: every IPv4 address) and --port */
static int lsn_setup(struct lsn *l)
{
	const struct ping_opts *o = l->opts;
	struct addrinfo hints = {
		.ai_family = o->bind ? AF_UNSPEC : AF_INET,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV,
	};
	struct addrinfo *ai;
	char port[16];
	int rc;

	if (cm_open(&l->ec, &l->id))
		return -1;
	snprintf(port, sizeof(port), "%u", o->port);
	rc = getaddrinfo(o->bind, port, &hints, &ai);
	if (rc) {
		ping_err("--bind %s: %s", o->bind ? o->bind : "", gai_strerror(rc));
		return -1;
	}
	rc = rdma_bind_addr(l->id, ai->ai_addr);
	freeaddrinfo(ai);
	if (rc || rdma_listen(l->id, LSN_BACKLOG)) {
		ping_err("listening on %s port %u: %s",
			 o->bind ? o->bind : "*", o->port, strerror(errno));
		return -1;
	}
	printf("listening on %s port %u, mode %s, grant %u, buffers %u\n",
	       o->bind ? o->bind : "*", o->port, l->mode->name,
	       l->mode->grant_fixed ? l->mode->grant : o->credits, o->size);
	return 0;
}

/*
 * The next connection request on the listening channel. NULL, with
 * @why set, when --timeout runs out (@why "--timeout") or on an error.
 */
static struct rdma_cm_event *lsn_next_request(struct lsn *l, const char **why)
{
	struct rdma_cm_event *ev;
	struct timespec dl;

	for (;;) {
		lsn_deadline(l, &dl);
		ev = cm_next(l->ec, ms_left(&dl));
		if (!ev && errno == ETIMEDOUT) {
			if (l->opts->listen_ms && !ms_left(&l->end)) {
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
		printf("listen: %s (status %d)\n", rdma_event_str(ev->event),
		       ev->status);
		if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL) {
			rdma_ack_cm_event(ev);
			*why = "the device went away";
			return NULL;
		}
		rdma_ack_cm_event(ev);
	}
}

/**
 * lsn_main - rpcrdma2-ping --listen
 * @o: the options
 *
 * Serve connections one after another until --max-conns have been
 * established or --timeout runs out.
 *
 * Return: 0, or -1 if listening failed or ended in an error.
 */
int lsn_main(const struct ping_opts *o)
{
	const char *why = NULL;
	struct rdma_cm_event *ev;
	struct lsn *l;
	int rc = -1;

	l = calloc(1, sizeof(*l));
	if (!l) {
		ping_err("out of memory");
		return -1;
	}
	l->opts = o;
	l->mode = &lsn_modes[o->mode];
	if (o->listen_ms)
		deadline_in(&l->end, o->listen_ms);
	rpcrdma2_chunk_lists_init(&l->chk.cl, &(struct rpcrdma2_limits){
					  .max_read_chunks = LIM_CHUNKS,
					  .max_write_chunks = LIM_CHUNKS,
					  .max_segs = LIM_SEGS },
				  l->chk_reads, ARRAY_SIZE(l->chk_reads),
				  l->chk_read_chunks,
				  ARRAY_SIZE(l->chk_read_chunks),
				  l->chk_writes, ARRAY_SIZE(l->chk_writes),
				  l->chk_segs, ARRAY_SIZE(l->chk_segs));
	if (lsn_setup(l))
		goto out;
	while (!why) {
		if (o->max_conns && l->conns == o->max_conns) {
			why = "--max-conns";
			break;
		}
		ev = lsn_next_request(l, &why);
		if (ev)
			why = lsn_connection(l, ev);
	}
	printf("listen: %u connections, %u calls; stopped by %s\n", l->conns,
	       l->calls, why);
	if (strcmp(why, "an error") && strcmp(why, "the device went away"))
		rc = 0;
out:
	if (l->id)
		rdma_destroy_id(l->id);
	if (l->ec)
		rdma_destroy_event_channel(l->ec);
	free(l);
	return rc;
}
