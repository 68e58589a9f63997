// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma2-wire-fuzz: a wire fuzz of RPC-over-RDMA servers. It sends
 * headers mutated from the codec's fuzz corpus (tests/fuzz/corpus/
 * fuzz_codec) over real connections, a batch at a time between RPC NULL
 * calls that prove the batch reached the server, and checks every answer
 * byte for byte against what the shared codec says the server must
 * answer: the error reply rpcrdma2_encode_reject() writes, or nothing.
 * Connections start in version 2 or 1, and one in eight with a mutated
 * message instead of the negotiation; a connection the server closes
 * must have had a cause. It ends with a NULL ping on a fresh connection
 * and a summary. It is the requester of tools/lib (negotiate.h) with
 * its hooks for the messages a requester would discard.
 *
 * Exit status: 0 when every answer was as the codec says; 1 a failure;
 * 2 usage error.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corpus.h"
#include "negotiate.h"
#include "opts.h"

#define PROG			"rpcrdma2-wire-fuzz"

/* Mutated messages between two NULL calls (fewer than the grant) */
#define FUZZ_BATCH		8

#define FUZZ_PER_CONN		128	/* messages before a planned reconnect */
#define FUZZ_MAX_MSG		CORPUS_MAX_MSG
#define FUZZ_REPLY_MAX		32	/* the longest error reply is 7 words */
#define FUZZ_DESC_MAX		96
#define FUZZ_FIRST_WAIT_MS	300	/* for a reply to an unnegotiated first message */
#define FUZZ_DRAIN_MS		1000	/* for error replies due before a planned close */
#define FUZZ_MAX_REPORTS	20	/* failures printed in full */
#define FUZZ_NULL_XID		0x10000000U	/* our NULL calls' XIDs start here */
#define FUZZ_MSG_XID		0x80000000U	/* the mutated messages' XIDs here */

/*
 * svcrdma2's limits (Documentation/svcrdma2.rst): 4 Read chunks, 4 Write
 * chunks, max_segs at its default. The predictions assume them.
 */
#define SRV_READ_CHUNKS		4
#define SRV_WRITE_CHUNKS	4
#define SRV_MAX_SEGS		32

/* What the server must do with one mutated message */
enum fz_expect {
	FZ_SILENT,	/* discard or drop it: no reply, the connection stays */
	FZ_ERROR,	/* answer exactly fz_msg.reply */
	FZ_ANY,		/* accepted: nfsd may answer it or not */
};

static const char *const fz_expect_names[] = {
	"no reply", "error reply", "accepted",
};

struct fz_msg {
	u32 seq;		/* 1-based, over the whole run */
	u32 file;
	u32 xid;
	u32 len;
	u32 expect;		/* enum fz_expect */
	u32 reason;		/* the codec's, for a rejected message */
	const char *may_close;	/* why the server may close, or NULL */
	bool answered;
	u32 reply_len;
	u8 reply[FUZZ_REPLY_MAX];
	char desc[FUZZ_DESC_MAX];
	u8 msg[FUZZ_MAX_MSG];
};

/* What the run asks beyond the requester library's options */
struct wf_args {
	struct ping_opts o;
	struct fuzz_opts f;	/* --fuzz N: messages to send */
};

static struct wf_args args;

struct fuzz {
	struct corpus corpus;
	u64 rng;
	u32 next_xid;
	u32 model_vers;		/* the version the server has fixed, or 0 */

	/* this connection's messages */
	struct fz_msg msgs[FUZZ_PER_CONN];
	u32 nmsgs;
	u32 synced;		/* msgs[0..synced) preceded an answered NULL */

	/* totals */
	u32 sent;
	u32 conns;
	u32 unnegotiated;
	u32 planned;
	u32 lost;
	u32 lost_unexplained;
	u32 lost_disc;		/* by a CM DISCONNECTED event */
	u32 lost_recv[IBV_WC_GENERAL_ERR + 1];	/* by a failed Receive */
	u32 lost_send[IBV_WC_GENERAL_ERR + 1];	/* by a failed Send */
	u32 lost_chunks;	/* after a Call with chunks */
	u32 lost_short;		/* after a Call sunrpc closes over */
	u32 expected[3];
	u32 errors_ok;
	u32 answered_any;
	u32 unmatched;
	u32 connprops;
	u32 by_code[RPCRDMA2_ERR_SYSTEM + 1];
	u32 by_reason[RPCRDMA2_REASON_COUNT];
	u32 failures;

	/* the decoder, with arrays for the server's limits */
	struct rpcrdma2_hdr hdr;
	struct rpcrdma2_read_seg reads[SRV_READ_CHUNKS * SRV_MAX_SEGS];
	struct rpcrdma2_read_chunk read_chunks[SRV_READ_CHUNKS];
	struct rpcrdma2_chunk writes[SRV_WRITE_CHUNKS];
	struct rpcrdma2_seg segs[(SRV_WRITE_CHUNKS + 1) * SRV_MAX_SEGS];
};

/* Values that sit on the decoder's edges: counts, limits, lengths, signs */
static u32 fz_value(struct fuzz *fz)
{
	static const u32 vals[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 31, 32, 33, 64, 100,
		255, 256, 1024, 4096, 0x10000, 0x10000001, 0x7fffffff,
		0x80000000, 0xfffffffc, 0xffffffff,
	};

	if (!fuzz_below(&fz->rng, 4))
		return fuzz_rand(&fz->rng);
	return vals[fuzz_below(&fz->rng, ARRAY_SIZE(vals))];
}

/* Append one mutation to f->desc, for the report */
static void fz_desc(struct fz_msg *f, const char *fmt, ...)
{
	size_t used = strlen(f->desc);
	char one[48];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(one, sizeof(one), fmt, ap);
	va_end(ap);
	if (used + strlen(one) + 2 < sizeof(f->desc))
		snprintf(f->desc + used, sizeof(f->desc) - used, "%s%s",
			 used ? "," : "", one);
}

/*
 * One mutation of f->msg, never of rdma_xid (word 0), which identifies
 * the message's reply. Header fields are words, so most mutations are.
 */
static void fz_mutate(struct fuzz *fz, struct fz_msg *f)
{
	u32 nw = f->len / 4, i, j, k, n, room;
	u8 *m = f->msg;

	switch (fuzz_below(&fz->rng, 13)) {
	case 0:		/* one bit anywhere after rdma_xid */
		if (f->len <= 4)
			break;
		i = 4 + fuzz_below(&fz->rng, f->len - 4);
		j = fuzz_below(&fz->rng, 8);
		m[i] ^= (u8)(1 << j);
		fz_desc(f, "bit[%u].%u", i, j);
		break;
	case 1:		/* a word: an edge value */
		if (nw < 2)
			break;
		i = 1 + fuzz_below(&fz->rng, nw - 1);
		put32(m + 4 * i, fz_value(fz));
		fz_desc(f, "w%u=%#x", i, get32(m + 4 * i));
		break;
	case 2:		/* a count or discriminator in the chunk lists */
		if (nw < 5)
			break;
		i = 4 + fuzz_below(&fz->rng, nw - 4);
		put32(m + 4 * i, fuzz_below(&fz->rng, 41));
		fz_desc(f, "w%u=%u", i, get32(m + 4 * i));
		break;
	case 3:		/* rdma_vers */
		if (nw < 2)
			break;
		put32(m + 4, fuzz_below(&fz->rng, 5) ? fuzz_below(&fz->rng, 4) :
		      fuzz_rand(&fz->rng));
		fz_desc(f, "vers=%#x", get32(m + 4));
		break;
	case 4:		/* rdma_htype / rdma_proc */
		if (nw < 4)
			break;
		put32(m + 12, fuzz_below(&fz->rng, 4) ?
		      fuzz_below(&fz->rng, 10) : fuzz_rand(&fz->rng));
		fz_desc(f, "htype=%#x", get32(m + 12));
		break;
	case 5:		/* v2 rdma_flags */
		if (nw < 5)
			break;
		put32(m + 16, fuzz_below(&fz->rng, 2) ? fuzz_below(&fz->rng, 4) : fz_value(fz));
		fz_desc(f, "flags=%#x", get32(m + 16));
		break;
	case 6:		/* truncate, sometimes to a word boundary */
		n = fuzz_below(&fz->rng, f->len + 1);
		if (fuzz_below(&fz->rng, 2))
			n &= ~3U;
		fz_desc(f, "len %u->%u", f->len, n);
		f->len = n;
		break;
	case 7:		/* append words */
		room = (FUZZ_MAX_MSG - f->len) / 4;
		n = 1 + fuzz_below(&fz->rng, 16);
		if (n > room)
			n = room;
		for (i = 0; i < n; i++)
			put32(m + f->len + 4 * i, fz_value(fz));
		fz_desc(f, "+%u words", n);
		f->len += 4 * n;
		break;
	case 8:		/* delete a word */
		if (nw < 2)
			break;
		i = 1 + fuzz_below(&fz->rng, nw - 1);
		memmove(m + 4 * i, m + 4 * i + 4, f->len - 4 * i - 4);
		f->len -= 4;
		fz_desc(f, "del w%u", i);
		break;
	case 9:		/* insert a word */
		if (nw < 1 || f->len + 4 > FUZZ_MAX_MSG)
			break;
		i = 1 + fuzz_below(&fz->rng, nw);
		memmove(m + 4 * i + 4, m + 4 * i, f->len - 4 * i);
		put32(m + 4 * i, fz_value(fz));
		f->len += 4;
		fz_desc(f, "ins w%u=%#x", i, get32(m + 4 * i));
		break;
	case 10:	/* copy a word: a handle into rdma_inv_handle, a position */
		if (nw < 3)
			break;
		i = 1 + fuzz_below(&fz->rng, nw - 1);
		j = 1 + fuzz_below(&fz->rng, nw - 1);
		put32(m + 4 * j, get32(m + 4 * i));
		fz_desc(f, "w%u=w%u", j, i);
		break;
	case 11:	/* splice: this one's head, another's tail */
		n = corpus_splice(&fz->corpus, &fz->rng, m, f->len, &i, &j);
		if (!n)
			break;
		f->len = n;
		fz_desc(f, "splice@w%u from w%u", i, j);
		break;
	default:
		/*
		 * Repeat a block of 4 to 6 words up to 6 times: a segment,
		 * a Read list entry or a one-segment Write list entry, so
		 * that lists grow past the server's limits.
		 */
		k = 4 + fuzz_below(&fz->rng, 3);
		n = 1 + fuzz_below(&fz->rng, 6);
		if (nw < k + 1 || f->len + 4 * k * n > FUZZ_MAX_MSG)
			break;
		i = 1 + fuzz_below(&fz->rng, nw - k);
		for (j = 0; j < n; j++) {
			memmove(m + 4 * (i + k), m + 4 * i, f->len - 4 * i);
			f->len += 4 * k;
		}
		fz_desc(f, "dup w%u+%u x%u", i, k, n);
	}
}

/*
 * Decode @f as svcrdma2 does: its limits, and the version it has fixed
 * (@vers), or 1..2 before. Returns what rpcrdma2_decode() does; -EINVAL
 * with no reason if the limits do not fit the arrays (a bug here).
 */
static int fz_decode(struct fuzz *fz, const struct fz_msg *f, u32 vers,
		     struct rpcrdma2_reject *rej)
{
	struct rpcrdma2_limits lim = {
		.max_read_chunks = SRV_READ_CHUNKS,
		.max_write_chunks = SRV_WRITE_CHUNKS,
		.max_segs = SRV_MAX_SEGS,
		.vers_low = vers ? vers : RPCRDMA2_VERS_MIN,
		.vers_high = vers ? vers : RPCRDMA2_VERS_MAX,
	};

	rej->reason = RPCRDMA2_REASON_NONE;
	if (rpcrdma2_chunk_lists_init(&fz->hdr.cl, &lim, fz->reads,
				      ARRAY_SIZE(fz->reads), fz->read_chunks,
				      ARRAY_SIZE(fz->read_chunks), fz->writes,
				      ARRAY_SIZE(fz->writes), fz->segs,
				      ARRAY_SIZE(fz->segs)))
		return -EINVAL;
	return rpcrdma2_decode(f->msg, f->len, &fz->hdr, rej);
}

/*
 * The corpus's RPC messages are a few words, which sunrpc closes the
 * connection over: give a Call a whole NULL call (RFC 5531 §9) instead,
 * so that it is answered.
 */
static void fz_full_call(struct fuzz *fz, struct fz_msg *f)
{
	const struct rpcrdma2_hdr *h = &fz->hdr;
	struct rpcrdma2_reject rej;
	u8 *r;

	if (fz_decode(fz, f, 0, &rej) || h->htype != RPCRDMA2_HT_MSG ||
	    h->flags & RPCRDMA2_F_RESPONSE ||
	    h->hdr_len + RPC_NULL_CALL_SIZE > FUZZ_MAX_MSG)
		return;
	r = f->msg + h->hdr_len;
	r = put32(r, f->xid);
	r = put32(r, RPC_CALL);
	r = put32(r, RPC_VERSION);
	r = put32(r, NFS_PROGRAM);
	r = put32(r, DEF_NFS_VERS);
	r = put32(r, RPC_NULL_PROC);
	r = put32(r, RPC_AUTH_NONE);
	r = put32(r, 0);
	r = put32(r, RPC_AUTH_NONE);
	r = put32(r, 0);
	f->len = (u32)(r - f->msg);
	fz_desc(f, "NULL call");
}

/* Build message @f from a random corpus file and 0 to 3 mutations */
static void fz_make(struct fuzz *fz, struct fz_msg *f)
{
	const struct corpus_file *src;
	u32 i, old, n;

	memset(f, 0, offsetof(struct fz_msg, msg));
	f->seq = fz->sent + 1;
	/*
	 * Mostly a file of the connection's version: the other version
	 * only earns ERR_VERS, which a few messages prove well enough.
	 */
	for (i = 0; i < 16; i++) {
		f->file = fuzz_below(&fz->rng, fz->corpus.nfiles);
		src = &fz->corpus.files[f->file];
		if (!fz->model_vers || !fuzz_below(&fz->rng, 8) ||
		    (src->len >= 8 && get32(src->buf + 4) == fz->model_vers))
			break;
	}
	f->xid = fz->next_xid++;
	src = &fz->corpus.files[f->file];
	f->len = src->len;
	memcpy(f->msg, src->buf, f->len);
	/*
	 * A fresh rdma_xid, so the reply can be told apart; where the
	 * corpus repeats it (the RPC XID of a v1 RDMA_MSG, RFC 8166
	 * §4.2.1) it is replaced there too.
	 */
	if (f->len >= 4) {
		old = get32(f->msg);
		for (i = 0; i + 4 <= f->len; i += 4)
			if (get32(f->msg + i) == old)
				put32(f->msg + i, f->xid);
	}
	if (fuzz_below(&fz->rng, 2))
		fz_full_call(fz, f);
	n = fuzz_below(&fz->rng, 8) ? 1 + fuzz_below(&fz->rng, 3) : 0;
	for (i = 0; i < n; i++)
		fz_mutate(fz, f);
	/* a truncation followed by growth may have rewritten rdma_xid */
	if (f->len >= 4)
		put32(f->msg, f->xid);
	if (!f->desc[0])
		snprintf(f->desc, sizeof(f->desc), "as is");
}

/*
 * Why the server may close the connection over an accepted Call: its RDMA
 * Read, Write or Send With Invalidate to our made-up handles fails
 * (RFC 8166 §4.5.3, §4.5.4); or sunrpc, given the Call, closes the
 * transport itself, as it does on any transport, for a Call shorter than
 * the RPC call header (net/sunrpc/svc.c, err_short_len) or an RPCSEC_GSS
 * credential it cannot use (svcauth_gss.c, SVC_CLOSE).
 */
static const char fz_cause_chunks[] = "carries chunks";

static const char *fz_may_close(const struct rpcrdma2_hdr *h, const u8 *m)
{
	const struct rpcrdma2_chunk_lists *cl = &h->cl;
	const u8 *rpc = m + h->hdr_len;
	u32 n = h->rpc_len;

	if (cl->nr_reads || cl->nr_writes || cl->has_reply)
		return fz_cause_chunks;
	/* svc_process() drops shorter ones, and replies */
	if (n < 8 || get32(rpc + 4) != RPC_CALL)
		return NULL;
	if (n < 24)
		return "RPC call header short: sunrpc closes";
	if (n >= 28 && get32(rpc + 24) == RPC_AUTH_GSS)
		return "RPCSEC_GSS credential: sunrpc may close";
	return NULL;
}

/*
 * What the server must do with @f: decode it as svcrdma2 does (its
 * limits, the version range fixed by the connection) and follow the
 * codec's verdict (Documentation/codec.rst, Documentation/svcrdma2.rst):
 * a rejection is answered with exactly rpcrdma2_encode_reject()'s bytes
 * or discarded; RDMA_ERROR / RDMA2_ERROR from us, RDMA2_CONNPROP and
 * reverse-direction replies are dropped; the rest goes to nfsd.
 */
static int fz_predict(struct ping *p, struct fz_msg *f)
{
	struct fuzz *fz = p->priv;
	struct rpcrdma2_hdr *h = &fz->hdr;
	struct rpcrdma2_reject rej;
	int rc;

	rc = fz_decode(fz, f, fz->model_vers, &rej);
	if (rc == -EINVAL && rej.reason != RPCRDMA2_REASON_CALLER)
		return -1;
	if (rc) {
		f->reason = rej.reason;
		fz->by_reason[rej.reason]++;
		if (rej.discard) {
			f->expect = FZ_SILENT;
			return 0;
		}
		rc = rpcrdma2_encode_reject(h, &rej, p->granted, f->reply,
					    sizeof(f->reply));
		if (rc < 0) {
			tool_err("fuzz: the codec cannot encode its own rejection (%s)",
				 rpcrdma2_reason_name(rej.reason));
			return -1;
		}
		f->reply_len = (u32)rc;
		f->expect = FZ_ERROR;
		return 0;
	}
	fz->by_reason[RPCRDMA2_REASON_NONE]++;
	f->expect = FZ_SILENT;
	if (h->htype == RPCRDMA2_HT_ERROR)
		return 0;
	if (h->htype != RPCRDMA2_HT_CONNPROP) {
		if (is_reverse_reply(h, f->msg))
			return 0;
		f->expect = FZ_ANY;
		f->may_close = fz_may_close(h, f->msg);
	}
	/* the first message that decodes fixes the version (draft §7.3) */
	if (!fz->model_vers)
		fz->model_vers = h->vers;
	return 0;
}

static struct fz_msg *fz_find(struct fuzz *fz, u32 xid)
{
	u32 i;

	for (i = 0; i < fz->nmsgs; i++)
		if (fz->msgs[i].xid == xid)
			return &fz->msgs[i];
	return NULL;
}

static void fz_print_msg(const struct fuzz *fz, const struct fz_msg *f)
{
	printf("fuzz:   message %u xid 0x%08x from %s, mutated: %s\n", f->seq,
	       f->xid, fz->corpus.files[f->file].name, f->desc);
	printf("fuzz:   codec: %s (%s)%s%s\n", fz_expect_names[f->expect],
	       rpcrdma2_reason_name(f->reason), f->may_close ? ", may close: " : "",
	       f->may_close ? f->may_close : "");
	print_hex("fuzz:   sent", f->msg, f->len);
	if (f->expect == FZ_ERROR)
		print_hex("fuzz:   expected", f->reply, f->reply_len);
}

static void fz_fail(struct fuzz *fz, const struct fz_msg *f, const char *what,
		    const u8 *m, u32 len)
{
	fz->failures++;
	if (fz->failures > FUZZ_MAX_REPORTS)
		return;
	printf("fuzz: FAIL: %s\n", what);
	if (f)
		fz_print_msg(fz, f);
	if (m)
		print_hex("fuzz:   received", m, len);
}

/*
 * A message that is not an answer to one of our NULL calls: it must be
 * the reply a mutated message earned, byte for byte.
 */
static void fuzz_note(struct ping *p, const u8 *m, u32 len)
{
	struct fuzz *fz = p->priv;
	struct fz_msg *f;

	f = len >= RPCRDMA2_FIXED_SIZE ? fz_find(fz, get32(m)) : NULL;
	if (!f) {
		fz->unmatched++;
		if (p->opts->verbose)
			print_hex("fuzz: unmatched reply", m, len);
		return;
	}
	if (f->answered) {
		fz_fail(fz, f, "a second reply to one message", m, len);
		return;
	}
	f->answered = true;
	switch (f->expect) {
	case FZ_SILENT:
		fz_fail(fz, f, "a reply to a message the server must discard or drop",
			m, len);
		return;
	case FZ_ANY:
		fz->answered_any++;
		return;
	}
	/* rdma_credit is the grant (RFC 8166 §3.3.1), once we know it */
	if (len != f->reply_len || memcmp(m, f->reply, 8) ||
	    memcmp(m + 12, f->reply + 12, len - 12) ||
	    (p->granted && get32(m + 8) != p->granted)) {
		fz_fail(fz, f, "the error reply differs from the codec's", m, len);
		return;
	}
	fz->errors_ok++;
	if (len >= 24 && get32(m + 12) == RPCRDMA2_HT_ERROR) {
		u32 code = get32(m + (get32(m + 4) == RPCRDMA2_VERS_2 ? 20 : 16));

		if (code < ARRAY_SIZE(fz->by_code))
			fz->by_code[code]++;
	}
}

/* The server's RDMA2_CONNPROP: one per connection (svcrdma2.rst) */
static void fuzz_connprop(struct ping *p, bool again)
{
	struct fuzz *fz = p->priv;

	fz->connprops++;
	if (again)
		fz_fail(fz, NULL, "a second RDMA2_CONNPROP on one connection",
			NULL, 0);
}

/*
 * With @fz, the requester hands the fuzzer what it would discard, stays
 * quiet and sends no RDMA2_CONNPROP of ours (the predictions assume
 * none); without, it is a plain requester again.
 */
static void fz_hooks(struct ping *p, struct fuzz *fz)
{
	p->priv = fz;
	p->on_stray = fz ? fuzz_note : NULL;
	p->on_connprop = fz ? fuzz_connprop : NULL;
	p->no_connprop = fz;
	p->c.quiet = fz;
}

/* A fresh connection for the fuzzer, negotiation to start with @vers */
static int fz_connect(struct ping *p, u32 vers)
{
	const struct ping_opts *o = p->opts;
	struct fuzz *fz = p->priv;

	ping_init(p, o, FUZZ_BATCH + 1, FUZZ_BATCH + 1);
	fz_hooks(p, fz);
	p->first_vers = vers;
	p->next_xid = FUZZ_NULL_XID;
	fz->nmsgs = 0;
	fz->synced = 0;
	fz->model_vers = 0;
	fz->conns++;
	if (ping_setup(p)) {
		tool_err("fuzz: connection %u: cannot connect", fz->conns);
		ping_teardown(p);
		return -1;
	}
	return 0;
}

static bool fz_lost(const struct ping *p)
{
	return p->c.disconnected || p->c.qp_failed;
}

/*
 * The connection died. That is fair after a message the server accepted
 * with chunks: its RDMA to our made-up handles fails and it must close
 * (RFC 8166 §4.5.3, §4.5.4). After anything else it is not.
 */
static void fz_closed(struct ping *p, const char *when)
{
	struct fuzz *fz = p->priv;
	char what[160];
	u32 i;

	fz->lost++;
	if (p->c.qp_failed && p->c.fail_status <= IBV_WC_GENERAL_ERR) {
		if (p->c.recv_failed)
			fz->lost_recv[p->c.fail_status]++;
		else
			fz->lost_send[p->c.fail_status]++;
	} else {
		fz->lost_disc++;
	}
	/* the latest message that gave cause is the likely one */
	for (i = fz->nmsgs; i--; ) {
		if (!fz->msgs[i].may_close)
			continue;
		if (fz->msgs[i].may_close == fz_cause_chunks)
			fz->lost_chunks++;
		else
			fz->lost_short++;
		return;
	}
	fz->lost_unexplained++;
	snprintf(what, sizeof(what),
		 "connection %u lost%s, though no message on it gave the server cause; its last messages:",
		 fz->conns, when);
	fz_fail(fz, NULL, what, NULL, 0);
	if (fz->failures > FUZZ_MAX_REPORTS)
		return;
	for (i = fz->synced; i < fz->nmsgs; i++)
		fz_print_msg(fz, &fz->msgs[i]);
}

/* Send mutated message @f; 0, or -1 when the connection is gone */
static int fz_send(struct ping *p, struct fz_msg *f)
{
	struct fuzz *fz = p->priv;
	int slot;

	fz_make(fz, f);
	if (fz_predict(p, f))
		return -2;
	fz->nmsgs++;
	fz->sent++;
	fz->expected[f->expect]++;
	slot = conn_wait_slot(&p->c);
	if (slot < 0)
		return -1;
	memcpy(conn_send_buf(&p->c, (u32)slot), f->msg, f->len);
	if (p->opts->verbose)
		printf("fuzz: message %u xid 0x%08x from %s, %s: %s\n", f->seq,
		       f->xid, fz->corpus.files[f->file].name, f->desc,
		       fz_expect_names[f->expect]);
	return conn_post_send(&p->c, (u32)slot, f->len, NULL, NULL) ? -1 : 0;
}

/*
 * Take what arrives until @ms pass or, when @until is set, until it is
 * answered. Returns 0, or -1 when the connection is gone.
 */
static int fz_listen(struct ping *p, u32 ms, const struct fz_msg *until)
{
	struct ping_msg msg;
	struct timespec dl;
	struct ibv_wc wc;
	u32 idx;
	int rc;

	deadline_in(&dl, ms);
	while (!until || !until->answered) {
		rc = conn_next_recv(&p->c, &dl, &wc);
		if (rc == -ETIMEDOUT)
			return 0;
		if (rc)
			return -1;
		idx = (u32)wc.wr_id;
		rc = classify(p, conn_recv_buf(&p->c, idx),
			      wc.byte_len, &msg);
		if (conn_post_recv(&p->c, idx))
			return -1;
		if (rc || msg.kind != RX_OTHER) {
			fz_fail(p->priv, NULL, "a NULL reply while none was outstanding",
				NULL, 0);
			return 0;
		}
	}
	return 0;
}

/* Before a planned close: every error reply still due must come */
static int fz_drain(struct ping *p)
{
	struct fuzz *fz = p->priv;
	struct fz_msg *f;
	u32 i;

	for (i = 0; i < fz->nmsgs; i++) {
		f = &fz->msgs[i];
		if (f->expect != FZ_ERROR || f->answered)
			continue;
		if (fz_listen(p, FUZZ_DRAIN_MS, f))
			return -1;
		if (!f->answered)
			fz_fail(fz, f, "no error reply", NULL, 0);
	}
	return 0;
}

/* One NULL call after a batch: all of it has reached the server */
static int fz_sync(struct ping *p)
{
	struct fuzz *fz = p->priv;
	struct ping_msg msg;
	double rtt;
	int slot;

	slot = conn_wait_slot(&p->c);
	if (slot < 0 || send_call(p, (u32)slot, p->vers, 0, false))
		return -1;
	if (wait_msg(p, &msg)) {
		if (fz_lost(p))
			return -1;
		fz_fail(fz, NULL, "the NULL call after a batch got no answer; the batch:",
			NULL, 0);
		if (fz->failures <= FUZZ_MAX_REPORTS) {
			u32 i;

			for (i = fz->synced; i < fz->nmsgs; i++)
				fz_print_msg(fz, &fz->msgs[i]);
		}
		return -2;
	}
	if (msg.kind != RX_REPLY) {
		fz_fail(fz, NULL, "ERR_VERS to a NULL call after negotiation",
			NULL, 0);
		return -2;
	}
	reply_done(p, msg.call, &msg, &rtt);
	fz->synced = fz->nmsgs;
	return 0;
}

/*
 * One connection: negotiate (v2 mostly, v1 sometimes, and one in eight
 * starts with a mutated message instead), then batches of mutated
 * messages, each followed by a NULL call, which never leaves more
 * messages outstanding than the grant (RFC 8166 §3.3.1). Returns 0 to go
 * on (also after a lost connection), -1 to stop the run.
 */
static int fz_connection(struct ping *p)
{
	struct fuzz *fz = p->priv;
	u32 mode = fz->conns % 8, batch, i;
	bool first = mode == 0;
	int rc = 0;

	if (fz_connect(p, mode == 1 || mode == 5 ? RPCRDMA2_VERS_1 :
		       RPCRDMA2_VERS_2))
		return -1;
	if (first) {
		/* draft v2 §7: one message until a reply grants credits */
		fz->unnegotiated++;
		rc = fz_send(p, &fz->msgs[0]);
		if (!rc)
			rc = fz_listen(p, FUZZ_FIRST_WAIT_MS, &fz->msgs[0]);
		if (rc)
			goto out_lost;
	}
	if (negotiate_version(p)) {
		if (fz_lost(p))
			goto out_lost;
		fz_fail(fz, first ? &fz->msgs[0] : NULL,
			"version negotiation failed", NULL, 0);
		goto out;
	}
	if (fz->model_vers && fz->model_vers != p->vers) {
		fz_fail(fz, &fz->msgs[0],
			"NULL exchange settled another version than the first message fixed",
			NULL, 0);
		goto out;
	}
	fz->model_vers = p->vers;
	fz->synced = fz->nmsgs;
	if (p->granted < 2) {
		fz_fail(fz, NULL, "a grant of 1: no room for a message and a NULL call",
			NULL, 0);
		ping_teardown(p);
		return -1;
	}
	while (fz->nmsgs < FUZZ_PER_CONN && fz->sent < args.f.fuzz) {
		batch = FUZZ_BATCH;
		if (batch > args.f.fuzz - fz->sent)
			batch = args.f.fuzz - fz->sent;
		if (batch > FUZZ_PER_CONN - fz->nmsgs)
			batch = FUZZ_PER_CONN - fz->nmsgs;
		if (batch > p->granted - 1)
			batch = p->granted - 1;
		for (i = 0; i < batch; i++) {
			rc = fz_send(p, &fz->msgs[fz->nmsgs]);
			if (rc == -2)
				return -1;
			if (rc)
				goto out_lost;
		}
		rc = fz_sync(p);
		if (rc == -2)
			goto out;
		if (rc)
			goto out_lost;
	}
	if (fz_drain(p))
		goto out_lost;
	fz->planned++;
	goto out;

out_lost:
	fz_closed(p, first && !p->negotiated ? " after its first message" :
		  "");
out:
	ping_teardown(p);
	return 0;
}

static void fz_summary(const struct fuzz *fz)
{
	static const char *const codes[] = {
		NULL, "VERS", "BAD_XDR", "INVAL_HTYPE", "READ_CHUNKS",
		"WRITE_CHUNKS", "SEGMENTS", "WRITE_RESOURCE", "REPLY_RESOURCE",
		"SYSTEM",
	};
	u32 i;

	printf("fuzz: %u messages over %u connections, %u starting with a mutated message\n",
	       fz->sent, fz->conns, fz->unnegotiated);
	printf("fuzz: connections: %u closed by us, %u lost (%u without cause)\n",
	       fz->planned, fz->lost, fz->lost_unexplained);
	printf("fuzz: lost after: a Call with chunks %u, a Call sunrpc closes over %u\n",
	       fz->lost_chunks, fz->lost_short);
	printf("fuzz: lost by: DISCONNECTED %u", fz->lost_disc);
	for (i = 0; i < ARRAY_SIZE(fz->lost_recv); i++)
		if (fz->lost_recv[i])
			printf(", Receive %s %u", ibv_wc_status_str(i),
			       fz->lost_recv[i]);
	for (i = 0; i < ARRAY_SIZE(fz->lost_send); i++)
		if (fz->lost_send[i])
			printf(", Send %s %u", ibv_wc_status_str(i),
			       fz->lost_send[i]);
	printf("\n");
	printf("fuzz: codec says: %u error replies, %u no reply, %u accepted\n",
	       fz->expected[FZ_ERROR], fz->expected[FZ_SILENT],
	       fz->expected[FZ_ANY]);
	printf("fuzz: received: %u error replies byte-exact, %u answers to accepted messages\n",
	       fz->errors_ok, fz->answered_any);
	printf("fuzz: received: %u unmatched messages, %u RDMA2_CONNPROP\n",
	       fz->unmatched, fz->connprops);
	printf("fuzz: error replies by code:");
	for (i = 1; i < ARRAY_SIZE(fz->by_code); i++)
		if (fz->by_code[i])
			printf(" %s %u", codes[i], fz->by_code[i]);
	printf("\nfuzz: codec verdicts:");
	for (i = 0; i < RPCRDMA2_REASON_COUNT; i++)
		if (fz->by_reason[i])
			printf(" %s %u", rpcrdma2_reason_name(i), fz->by_reason[i]);
	printf("\nfuzz: %u failures\n", fz->failures);
}

static int fuzz_main(struct ping *p)
{
	struct fuzz *fz;
	struct timespec t;
	u32 seed = args.f.seed;
	int rc = -1;

	fz = calloc(1, sizeof(*fz));
	if (!fz) {
		tool_err("out of memory");
		return -1;
	}
	if (corpus_load(&fz->corpus, args.f.corpus))
		goto out;
	if (!args.f.have_seed) {
		now(&t);
		seed = (u32)(t.tv_nsec ^ t.tv_sec ^ getpid());
	}
	fz->rng = 0x9e3779b97f4a7c15ULL * ((u64)seed + 1);
	fz->next_xid = FUZZ_MSG_XID;
	printf("fuzz: seed %u, %u corpus files from %s, %u messages\n", seed,
	       fz->corpus.nfiles, fz->corpus.dir, args.f.fuzz);
	p->priv = fz;
	while (fz->sent < args.f.fuzz)
		if (fz_connection(p))
			goto out_summary;

	/* the server must still serve a fresh connection, as a plain requester */
	if (!fz_connect(p, p->opts->vers)) {
		fz_hooks(p, NULL);
		if (!negotiate_version(p))
			rc = 0;
		ping_teardown(p);
	}
	printf("fuzz: final NULL call on a fresh connection: %s\n",
	       rc ? "FAILED" : "answered");
out_summary:
	fz_summary(fz);
	if (fz->failures)
		rc = -1;
out:
	corpus_free(&fz->corpus);
	free(fz);
	return rc;
}

static void print_help(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " --fuzz N [options] HOST\n"
		"Send N headers mutated from the codec's fuzz corpus to an\n"
		"NFS server's RPC-over-RDMA port, %d between NULL calls, over\n"
		"as many connections as it takes; check each error reply\n"
		"against the codec; end with a NULL ping on a fresh connection.\n"
		"\n"
		"Options:\n"
		"      --fuzz N          messages to send\n"
		"      --seed S          random seed (default: from the clock;\n"
		"                        printed)\n"
		"      --corpus DIR      the corpus (default: the source tree's\n"
		"                        tests/fuzz/corpus/fuzz_codec)\n"
		"      --vers 1|2        first transport version of the final\n"
		"                        NULL ping (default 2)\n"
		"  -p, --port N          server port (default %d)\n"
		"      --credits N       credits requested; Receives posted are\n"
		"                        N + %d (default %d)\n"
		"      --size N          inline send/receive buffer size, a\n"
		"                        multiple of 1024 (default %d)\n"
		"  -t, --timeout S       seconds to wait for each reply (default\n"
		"                        %d; fractions allowed)\n"
		"  -v, --verbose         every message sent and received\n"
		"  -h, --help            this text\n"
		"\n"
		"Exit status: 0 success, 1 failure, 2 usage error.\n",
		FUZZ_BATCH, DEF_PORT, SPARE_RECVS, DEF_CREDITS, DEF_SIZE,
		DEF_TIMEOUT_MS / 1000);
}

static int parse_args(int argc, char **argv, struct ping_opts *o)
{
	struct opt_spec spec = {
		.shortopts = "p:t:vh",
		.help = print_help,
	};
	const char *bad;

	opts_requester(&spec, o);
	opts_fuzzer(&spec, &args.f);
	bad = opts_parse(argc, argv, &spec);
	if (!bad && !args.f.fuzz)
		bad = "--fuzz N is required";
	if (!bad)
		bad = opts_host(argc, argv, &o->host);
	return bad ? usage_error(bad, "--fuzz N [options] HOST") : 0;
}

int main(int argc, char **argv)
{
	static struct ping p;

	tool_start(PROG);
	ping_opts_init(&args.o);
	if (parse_args(argc, argv, &args.o))
		return 2;
	p.opts = &args.o;
	return fuzz_main(&p) ? 1 : 0;
}
