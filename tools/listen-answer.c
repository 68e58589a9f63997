// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma2-listen's answers (rpcrdma2-listen.h): the reply to an RPC
 * NULL Call as the --hostile mode spoils it, the transport errors, the
 * reverse-direction Calls, RDMA Reads and Writes a client never asked
 * for, and Send With Invalidate of keys it must not lose. Every header
 * comes from the codec's encoders; where a mode needs one the encoder
 * refuses to write, an encoded good one is patched, with a comment
 * saying why.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rpcrdma2-listen.h"
#include "rpcrdma2-print.h"

static u32 lsn_other_vers(u32 vers)
{
	return vers == RPCRDMA2_VERS_2 ? RPCRDMA2_VERS_1 : RPCRDMA2_VERS_2;
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
	struct conn *p = &l->c;
	const u8 *buf = conn_send_buf(p, (u32)slot);
	struct rpcrdma2_reject rej;
	char inv_note[48] = "", codec_note[64] = "";

	if (conn_post_send(p, (u32)slot, len, NULL, inv))
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
	if (l->quiet)
		return 0;
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
int lsn_inv_setup(struct lsn *l)
{
	struct conn *p = &l->c;
	struct ibv_send_wr wr = { 0 }, *bad;
	int rc;

	l->inv_mr = ibv_reg_mr(p->pd, l->inv_area, sizeof(l->inv_area),
			       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND);
	if (!l->inv_mr) {
		tool_err("ibv_reg_mr (inv): %s", strerror(errno));
		return -1;
	}
	l->inv_mw = ibv_alloc_mw(p->pd, IBV_MW_TYPE_2);
	if (!l->inv_mw) {
		tool_err("ibv_alloc_mw: %s", strerror(errno));
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
		tool_err("ibv_post_send (bind): %s", strerror(rc));
		return -1;
	}
	/* the Sends that name it come after the bind on the Send Queue */
	l->inv_key = wr.bind_mw.rkey;
	printf("conn %u: memory window 0x%08x bound\n", l->conns + 1,
	       l->inv_key);
	return 0;
}

void lsn_inv_teardown(struct lsn *l)
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
const char *lsn_inv_hold(struct lsn *l)
{
	struct conn *p = &l->c;
	long ms;

	ms = conn_wait_disconnected(p, LSN_HOLD_MS);
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
const u32 *lsn_live_inv(const struct lsn *l, enum lsn_inv_on on)
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
int lsn_reject(struct lsn *l, const struct rpcrdma2_hdr *in,
	       const struct rpcrdma2_reject *rej, u32 len)
{
	struct conn *p = &l->c;
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
	buf = conn_slot_buf(p, &slot);
	if (!buf)
		return -1;
	memset(&out, 0, sizeof(out));
	out.xid = in->xid;
	out.vers = in->vers;
	out.credits = l->grant;
	out.htype = RPCRDMA2_HT_ERROR;
	out.err = rej->reply;
	if (l->mode->v1only && rej->reason == RPCRDMA2_REASON_VERS &&
	    in->vers == RPCRDMA2_VERS_2) {
		out.err.v1_layout = true;
		n = rpcrdma2_encode(&out, buf, l->opts->l.size);
	} else {
		n = rpcrdma2_encode_reject(in, rej, l->grant, buf,
					   l->opts->l.size);
	}
	if (n < 0) {
		tool_err("cannot encode the error for %s", head);
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
	const struct lsn_opts *o = l->opts;
	enum lsn_answer answer = l->mode->answer;
	struct conn *p = &l->c;
	struct rpcrdma2_hdr out;
	u32 len, rkey = 0, i;
	bool inv = false;
	char what[128];
	int slot, n;
	u8 *buf;

	buf = conn_slot_buf(p, &slot);
	if (!buf)
		return -1;
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
	n = rpcrdma2_encode(&out, buf, o->l.size);
	if (n < 0 || rlen > o->l.size - (u32)n) {
		tool_err("cannot encode the reply to %s", head);
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
	struct conn *p = &l->c;
	struct rpcrdma2_hdr out = { 0 };
	bool v1_patch;
	char what[96];
	int slot, n;
	u8 *buf;

	buf = conn_slot_buf(p, &slot);
	if (!buf)
		return -1;
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
	n = rpcrdma2_encode(&out, buf, l->opts->l.size);
	if (n < 0) {
		tool_err("cannot encode the error for %s", head);
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
	struct conn *p = &l->c;
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

	buf = conn_slot_buf(p, &slot);
	if (!buf)
		return -1;
	n = rpcrdma2_encode(&h, buf, l->opts->l.size);
	if (n < 0 || rlen > l->opts->l.size - (u32)n) {
		tool_err("cannot encode reverse-direction Call %u", i);
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
	    conn_wait_sends(&l->c))
		return -1;
	printf("conn %u: %s: sent nothing; disconnecting, reverse xid 0x%08x unanswered\n",
	       l->conns, head, LSN_BC_DROP_XID);
	l->drop = "dropped with a reverse-direction Call outstanding";
	return 0;
}

/*
 * bc-storm: once the NFS client has its callback service (its second
 * Call, EXCHANGE_ID, comes after nfs4_init_callback()), keep
 * LSN_BC_STORM_DEPTH well-formed CB_NULL Calls outstanding, each reply
 * answered by the next Call, until the connection ends; then answer the
 * Call (PROC_UNAVAIL), which fails the mount at once. The client tears
 * its NFS client down (backchannel, callback service, transport, in that
 * order) while Calls keep arriving: none may be handed to a callback
 * service that is stopping or gone. One line for the first burst; the
 * connection's end says how many were sent and answered.
 */
static int lsn_storm_start(struct lsn *l, const struct rpcrdma2_hdr *call)
{
	u32 i;

	l->storm_vers = call->vers;
	for (i = 0; i < LSN_BC_STORM_DEPTH; i++) {
		if (lsn_send_bc_call(l, l->storm_vers, LSN_BC_GOOD,
				     LSN_BC_STORM_XID + l->storm_sent, NULL))
			return -1;
		l->storm_sent++;
		l->quiet = true;
	}
	return 0;
}

/**
 * lsn_storm_next - a reply to one of bc-storm's Calls: send the next
 * @l: the listener
 * @reply: the reply's transport header
 *
 * Return: 0, or -1 if the Call could not be sent.
 */
int lsn_storm_next(struct lsn *l, const struct rpcrdma2_hdr *reply)
{
	if (reply->xid - LSN_BC_STORM_XID >= l->storm_sent)
		return 0;
	l->storm_answered++;
	if (lsn_send_bc_call(l, l->storm_vers, LSN_BC_GOOD,
			     LSN_BC_STORM_XID + l->storm_sent, NULL))
		return -1;
	l->storm_sent++;
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
	struct conn *p = &l->c;
	int slot = conn_wait_slot(p);
	struct ibv_sge sge;
	long ms;
	int rc;

	if (slot < 0)
		return -1;
	if (wr->num_sge) {
		sge.addr = (uintptr_t)conn_send_buf(p, (u32)slot);
		sge.length = LSN_READ_LEN;
		sge.lkey = p->mr->lkey;
		wr->sg_list = &sge;
	}
	if (conn_post_wr(p, (u32)slot, wr))
		return -1;
	/* wait_sends() fails when a completion does */
	rc = conn_wait_sends(p);
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
	ms = conn_wait_disconnected(p, LSN_HOLD_MS);
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
int lsn_answer(struct lsn *l, const struct rpcrdma2_hdr *call, const u8 *m)
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
	case LSN_BC_STORM:
		if (l->conn_calls == 2 && lsn_storm_start(l, call))
			return -1;
		l->quiet = false;
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

/*
 * inv-connprop: our RDMA2_CONNPROP as send_connprop() writes it, but by
 * Send With Invalidate. It answers no RPC: draft v2 §8.4 and RFC 8797
 * §4.1 let a responder invalidate only what the RPC it answers offered.
 */
int lsn_send_connprop_inv(struct lsn *l)
{
	struct conn *p = &l->c;
	int slot, n;

	slot = conn_wait_slot(p);
	if (slot < 0)
		return -1;
	n = encode_connprop(p, (u32)slot, l->grant, RPCRDMA2_F_RESPONSE,
			    l->opts->l.size);
	if (n < 0)
		return -1;
	return lsn_post(l, slot, (u32)n, &l->inv_key, "connprop",
			"RDMA2_CONNPROP");
}
