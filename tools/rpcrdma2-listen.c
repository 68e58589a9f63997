// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma2-listen: a responder for RPC NULL to point a client
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
 *
 * Exit status: 0 when it stopped as asked (--max-conns, --timeout), 1
 * when listening failed or ended in an error, 2 usage error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "rpcrdma2-listen.h"

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
	{ .name = "bc-storm", .answer = LSN_BC_STORM,
	  .help = "the 2nd Call: CB_NULL Calls (xid 0xbf00000N) back to back until the end" },
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

/**
 * lsn_mode_find - look up a --hostile mode
 * @name: its name
 *
 * Return: its index in the mode table, or -1.
 */
static int lsn_mode_find(const char *name)
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
static void lsn_print_modes(FILE *f)
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
bool lsn_replies(const struct lsn_mode *md)
{
	return md->answer != LSN_ERROR && md->answer != LSN_SILENT;
}

/* ---- private data ----------------------------------------------------- */

/*
 * RFC 8797 §4: our message, built by the library, then spoiled as the
 * mode asks. Returns its length in @buf (CONN_PDATA_MAX bytes).
 */
static u32 lsn_pdata(const struct lsn *l, u8 *buf)
{
	u32 size = l->opts->l.size, len = RPCRDMA2_CM_PDATA_SIZE;

	/* §4.2: the library encodes 1 KiB as octet 0, 256 KiB as 255 */
	if (l->mode->pdata == LSN_PD_SIZE0)
		size = RPCRDMA2_CM_PDATA_MIN_SIZE;
	else if (l->mode->pdata == LSN_PD_SIZE255)
		size = RPCRDMA2_CM_PDATA_MAX_SIZE;
	rpcrdma2_cm_pdata_build(buf, CONN_PDATA_MAX, true, size, size);

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
		 * The CM pads what we give to CONN_PDATA_MAX bytes anyway:
		 * give them all, the Format Identifier in the last 4, so
		 * that the message runs past the end (§5.2).
		 */
		len = CONN_PDATA_MAX;
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
	return send_connprop(&l->c, l->grant, RPCRDMA2_F_RESPONSE,
			     l->opts->l.size);
}

/* One received message: decode it, then drop, reject or answer it */
static int lsn_handle(struct lsn *l, const u8 *m, u32 len)
{
	struct rpcrdma2_hdr *h = &l->hdr;
	struct rpcrdma2_reject rej;

	if (l->opts->l.verbose)
		print_hex("received", m, len);
	/* a server a version 2 Call never reaches: lost, not rejected */
	if (l->mode->v2silent && len >= 8 &&
	    get32(m + 4) == RPCRDMA2_VERS_2) {
		printf("conn %u: xid 0x%08x v2: sent nothing (v2-silent)\n",
		       l->conns, get32(m));
		return 0;
	}
	if (lsn_limits(l)) {
		tool_err("decoder limits do not fit");
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
	if (l->storm_vers && h->htype == RPCRDMA2_HT_MSG &&
	    is_reverse_reply(h, m))
		return lsn_storm_next(l, h);
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
	struct conn *p = &l->c;
	struct ibv_wc wc;
	u32 idx;
	int rc;

	for (;;) {
		rc = listener_recv(&l->ls, p, &wc);
		if (rc == -ETIMEDOUT)
			return "--timeout";
		if (rc == -ECONNRESET)
			return "the client disconnected";
		if (rc)
			return p->qp_failed ? "a completion failed" : "an error";
		idx = (u32)wc.wr_id;
		rc = lsn_handle(l, conn_recv_buf(p, idx), wc.byte_len);
		if (rc)
			return "an error";
		if (l->drop)
			return l->drop;
		if (l->inv_sent)
			return lsn_inv_hold(l);
		if (conn_post_recv(p, idx))
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
	struct conn *p = &l->c;
	u8 pdata[CONN_PDATA_MAX];
	char what[48];
	u8 len;

	len = (u8)lsn_pdata(l, pdata);
	/* read-bad-rkey's one RDMA Read */
	if (conn_accept(p, pdata, len, 1))
		return -1;
	snprintf(what, sizeof(what), "conn %u: private data sent",
		 l->conns + 1);
	print_hex(what, pdata, len);
	if (conn_established(p, what, sizeof(what))) {
		printf("conn %u: not established%s\n", l->conns + 1, what);
		return -1;
	}
	return 0;
}

/*
 * One connection, from the request in @ev to its end. Returns NULL to
 * go on listening, or why the run ends (--timeout).
 */
static const char *lsn_connection(struct lsn *l, struct rdma_cm_event *ev)
{
	const struct lsn_opts *o = l->opts;
	struct conn *p = &l->c;
	const char *end;

	listener_take(&l->ls, ev, p, LSN_SENDS);
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
	l->quiet = false;
	l->storm_vers = 0;
	l->storm_sent = 0;
	l->storm_answered = 0;
	l->grant = l->mode->grant_fixed ? l->mode->grant : o->l.credits;
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
		if (l->storm_sent)
			printf("conn %u: bc-storm: %u reverse Calls sent, %u answered\n",
			       l->conns, l->storm_sent, l->storm_answered);
		printf("conn %u: closed: %s; %u calls\n", l->conns, end,
		       l->conn_calls);
	}
	lsn_inv_teardown(l);
	conn_close(p);
	conn_free(p);
	return strcmp(end, "--timeout") ? NULL : end;
}

static void print_help(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " [--hostile MODE] [options]\n"
		"A responder for RPC NULL over RPC-over-RDMA, to test clients\n"
		"with: accept connections on --port, one after another, and\n"
		"answer each RPC Call as --hostile says; one line per Call.\n"
		"\n"
		"Options:\n"
		"      --hostile MODE    how to answer (default good; below)\n"
		"      --inv-rkey N      the key inv-bogus invalidates (default\n"
		"                        0x%08x, which names nothing on rxe)\n",
		DEF_INV_RKEY);
	listen_opts_help(f);
	fprintf(f, "\nModes:\n");
	lsn_print_modes(f);
	fprintf(f, "\nExit status: 0 success, 1 failure, 2 usage error.\n");
}

/*
 * Serve connections one after another until --max-conns have been
 * established or --timeout runs out. Returns 0, or -1 if listening
 * failed or ended in an error.
 */
static int lsn_main(const struct lsn_opts *o)
{
	static struct lsn lsn;
	struct lsn *l = &lsn;
	const char *why = NULL;
	struct rdma_cm_event *ev;
	int rc = -1;

	l->opts = o;
	l->mode = &lsn_modes[o->mode];
	rpcrdma2_chunk_lists_init(&l->chk.cl, &(struct rpcrdma2_limits){
					  .max_read_chunks = LIM_CHUNKS,
					  .max_write_chunks = LIM_CHUNKS,
					  .max_segs = LIM_SEGS },
				  l->chk_reads, ARRAY_SIZE(l->chk_reads),
				  l->chk_read_chunks,
				  ARRAY_SIZE(l->chk_read_chunks),
				  l->chk_writes, ARRAY_SIZE(l->chk_writes),
				  l->chk_segs, ARRAY_SIZE(l->chk_segs));
	if (listener_start(&l->ls, &o->l))
		goto out;
	listener_print(&l->ls, l->mode->name,
		       l->mode->grant_fixed ? l->mode->grant : o->l.credits);
	while (!why) {
		if (o->l.max_conns && l->conns == o->l.max_conns) {
			why = "--max-conns";
			break;
		}
		ev = listener_next(&l->ls, true, &why);
		if (ev)
			why = lsn_connection(l, ev);
	}
	printf("listen: %u connections, %u calls; stopped by %s\n", l->conns,
	       l->calls, why);
	if (strcmp(why, "an error") && strcmp(why, "the device went away"))
		rc = 0;
out:
	listener_stop(&l->ls);
	return rc;
}

static const struct option lsn_lopts[] = {
	{ "hostile", required_argument, NULL, OPT_OWN },
	{ "inv-rkey", required_argument, NULL, OPT_OWN + 1 },
	{ NULL, 0, NULL, 0 },
};

static struct lsn_opts opts;

/* --hostile or --inv-rkey (lib/opts.c parses the shared options) */
static const char *lsn_opt(int c, const char *arg)
{
	int mode;

	if (c == OPT_OWN + 1)
		return parse_u32(arg, 0, 0xffffffffU, &opts.inv_rkey) ?
		       "bad --inv-rkey" : NULL;
	mode = lsn_mode_find(arg);
	if (mode < 0)
		return "unknown --hostile mode (--help lists them)";
	opts.mode = (u32)mode;
	return NULL;
}

static int parse_args(int argc, char **argv, struct lsn_opts *o)
{
	struct opt_spec spec = {
		.shortopts = "p:t:vh",
		.own = lsn_lopts,
		.own_opt = lsn_opt,
		.help = print_help,
	};
	const char *bad;

	listen_opts_init(&o->l);
	o->inv_rkey = DEF_INV_RKEY;
	opts_listener(&spec, &o->l);
	bad = opts_parse(argc, argv, &spec);
	if (!bad && argc != optind)
		bad = PROG " takes no HOST (--bind ADDR)";
	return bad ? usage_error(bad, "[--hostile MODE] [options]") : 0;
}

int main(int argc, char **argv)
{
	tool_start(PROG);
	if (parse_args(argc, argv, &opts))
		return 2;
	return lsn_main(&opts) ? 1 : 0;
}
