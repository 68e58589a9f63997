// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma2-ping: an RPC-over-RDMA requester in userspace (librdmacm and
 * libibverbs, one RC QP) that negotiates the transport version the way a
 * version 2 client must (draft-cel-nfsv4-rpcrdma-version-two-09 §7),
 * falls back to version 1 (RFC 8166) on the same connection when the
 * server answers ERR_VERS, and then times RPC NULL round trips.
 *
 * Every transport header it sends or receives goes through the project's
 * shared codec (common/codec_*.c) and every CM private-data buffer
 * through common/cm_pdata.c (RFC 8797), exactly as the kernel modules use
 * them. With --send-hex it instead sends one raw transport message and
 * prints whatever comes back, so tests can drive malformed headers
 * byte-exactly: as the first message of a fresh connection, or with
 * --after-negotiate once the NULL exchange has fixed the version; with
 * --then-ping the same connection must then still serve NULL calls.
 * --overrun sends more calls than the server granted (a test of its flow
 * control); --flood and --fat-reply (ping-modes.c) abuse the credits and
 * the inline size.
 *
 * The chunk options drive the RPC-over-RDMA data paths with real
 * registered memory: --long-call sends each NULL call as a Long Call
 * through a Position-Zero Read chunk; --readlink and --read send an
 * NFSv4.0 COMPOUND { PUTROOTFH, LOOKUP..., READLINK or READ } whose
 * result can come back inline, with its data in the Write chunk
 * (--write-chunk) or all of it in the Reply chunk (--reply-chunk); --inv
 * exposes that memory through type 2 memory windows, names the handle in
 * rdma_inv_handle (v2) and requires the reply to arrive by Send With
 * Invalidate of exactly that handle.
 *
 * The wire fuzzers (tests/fuzz/rpcrdma2-wire-fuzz.c against a server,
 * tests/fuzz/rpcrdma2-listen-fuzz.c against a client) and the listener
 * (rpcrdma2-listen.c) are programs of their own on the same library
 * (lib/).
 *
 * Exit status: 0 success; 1 any failure (connection, protocol, a reply
 * that is wrong, no reply, --expect-* mismatch); 2 usage error.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opts.h"
#include "rpcrdma2-ping.h"
#include "rpcrdma2-print.h"

#define PROG			"rpcrdma2-ping"

/* What the run asks beyond the requester library's options */
struct ping_args {
	struct ping_opts o;
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
};

static struct ping_args args;

static void print_help(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " [options] HOST\n"
		"Connect to an NFS server's RPC-over-RDMA port, negotiate the\n"
		"transport version (v2, falling back to v1 on ERR_VERS) and time\n"
		"RPC NULL round trips.\n"
		"\n"
		"Options:\n"
		"      --vers 1|2        first transport version to try (default 2)\n"
		"  -p, --port N          server port (default %d)\n"
		"  -c, --count N         NULL round trips after negotiation\n"
		"                        (default %d; 0: negotiate only)\n"
		"  -w, --window N        calls in flight at once, at most the\n"
		"                        credits granted (default %d, max %d)\n"
		"      --overrun         ignore the grant: keep --window calls in\n"
		"                        flight whatever the server granted (a\n"
		"                        flow-control test; --window <= --credits)\n"
		"      --credits N       credits requested; Receives posted are\n"
		"                        N + %d (default %d)\n"
		"      --size N          inline send/receive buffer size, a\n"
		"                        multiple of 1024 (default %d)\n"
		"      --nfs-vers N      NFS program version of the NULL call\n"
		"                        (default %d)\n"
		"  -t, --timeout S       seconds to wait for each reply (default\n"
		"                        %d; fractions allowed)\n"
		"  -v, --verbose         dump every message sent and received\n"
		"      --send-hex HEX    send this raw transport message as the\n"
		"                        first message on the connection, print\n"
		"                        the decoded reply or \"no reply\" after\n"
		"                        the timeout\n"
		"      --after-negotiate with --send-hex: negotiate the version\n"
		"                        (one NULL exchange) first, then send the\n"
		"                        raw message on the same connection\n"
		"      --then-ping       with --send-hex: then run the -c NULL\n"
		"                        calls on the same connection (negotiating\n"
		"                        first if not done yet); exit 1 unless all\n"
		"                        are answered\n"
		"      --expect-hex HEX  with --send-hex: exit 1 unless the reply\n"
		"                        is exactly these bytes\n"
		"      --expect-no-reply with --send-hex: exit 1 if any reply\n"
		"      --write-imm       like --send-hex, but a 0-byte RDMA Write\n"
		"                        With Immediate instead of a message\n"
		"      --hold S          when our QP fails (a completion in\n"
		"                        error) and the server has not\n"
		"                        disconnected, disconnect nothing for up\n"
		"                        to S seconds and say when it does\n"
		"      --ignore-credits  --expect-hex ignores the credit word\n"
		"      --long-call N     send each call as a Long Call: the RPC\n"
		"                        message in a Position-Zero Read chunk\n"
		"                        (RDMA_NOMSG); NULL calls are padded to\n"
		"                        N bytes (40..%d, a multiple of 4)\n"
		"      --readlink PATH   after negotiating, read the symlink PATH\n"
		"                        (relative to the server's NFSv4 root)\n"
		"                        with one NFSv4.0 COMPOUND and print it\n"
		"      --read PATH       the same with READ (anonymous stateid)\n"
		"                        of the first %d bytes of file PATH\n"
		"      --write-chunk     with --read or --readlink: offer a Write\n"
		"                        chunk (two segments) for the data\n"
		"      --write-chunk-len N  offer only N bytes in it (1..%d;\n"
		"                        less than the data: WRITE_RESOURCE)\n"
		"      --write2 PATH     one COMPOUND of two NFSv4.0 WRITEs (FILE_SYNC,\n"
		"                        anonymous stateid) to file PATH: bytes\n"
		"                        0..N1-1 and N1..N1+N2-1 of a fixed pattern,\n"
		"                        each data item in a Read chunk of its own\n"
		"      --write-lens N1,N2  the two lengths (default 5001,3002)\n"
		"      --chunk-pad       with --write2: the chunks carry the data\n"
		"                        items' XDR roundup (RFC 8166 §3.4.5)\n"
		"      --read-segs C,S,L every NULL call after the first carries C\n"
		"                        Read chunks (1..4) of S segments (1..64) of\n"
		"                        L bytes, back to back after the NULL\n"
		"                        header, padded inline to the last Position\n"
		"      --no-repost       after the NULL exchange, post no more\n"
		"                        Receives (with RNR retry count 7: the\n"
		"                        server's replies are retried forever)\n"
		"      --reply-chunk     offer a Reply chunk with every call\n"
		"      --flood N         after the NULL exchange, send N NULL\n"
		"                        calls without waiting for replies,\n"
		"                        whatever the grant; exit 0 when all\n"
		"                        are answered (-w: Sends in flight)\n"
		"      --flood-until F   with --flood N: go on sending after N\n"
		"                        until the file F exists (at most\n"
		"                        FLOOD_MAX calls), then stop and wait\n"
		"                        for the replies\n"
		"      --fat-reply N     after the NULL exchange, one NULL call\n"
		"                        with N Write segments (1..128) and a\n"
		"                        Reply chunk; exit 1 if what comes back\n"
		"                        exceeds our advertised receive size\n"
		"      --recv-size N     advertise N (<= --size) as our receive\n"
		"                        size in private data and RBSIZ\n"
		"      --inv             expose chunk memory through type 2\n"
		"                        memory windows that the server may\n"
		"                        invalidate (R bit; v2 rdma_inv_handle)\n"
		"                        and require each reply to invalidate\n"
		"                        exactly the call's handle\n"
		"  -h, --help            this text\n"
		"\n"
		"HEX: hex digits; whitespace, ':' and ',' separate bytes.\n"
		"Without chunk options the R bit is set (nothing is exposed);\n"
		"with them, only with --inv (plain MRs must not be invalidated).\n"
		"\n"
		"Exit status: 0 success, 1 failure, 2 usage error.\n",
		DEF_PORT, DEF_COUNT, DEF_WINDOW, MAX_WINDOW, SPARE_RECVS,
		DEF_CREDITS, DEF_SIZE, DEF_NFS_VERS, DEF_TIMEOUT_MS / 1000,
		CHUNK_CALL_MAX, CHUNK_WRITE_SIZE, CHUNK_WRITE_SIZE);
}

/*
 * Calls that may be in flight now (RFC 8166 §3.3.1). --overrun ignores
 * the grant on purpose, to see what the server does about it; the
 * Receives we post (credits + SPARE_RECVS, at least --window) still
 * leave room for every reply.
 */
static u32 allowed(const struct ping *p)
{
	u32 n = p->opts->window;

	if (args.overrun)
		return n;
	if (n > p->granted)
		n = p->granted;
	if (n > p->opts->credits)
		n = p->opts->credits;
	return n;
}

static int ping_run(struct ping *p)
{
	const struct ping_opts *o = p->opts;
	u32 sent = 0, done = 0, inflight = 0, peak = 0;
	double rtt, min = 0, max = 0, sum = 0;
	struct timespec t0, t1;
	struct ping_msg msg;
	int slot;

	if (!p->negotiated && negotiate_version(p))
		return -1;
	now(&t0);
	while (done < o->count) {
		while (sent < o->count && inflight < allowed(p)) {
			slot = conn_wait_slot(&p->c);
			if (slot < 0 ||
			    send_call(p, (u32)slot, p->vers, sent + 1, false))
				return -1;
			sent++;
			if (++inflight > peak)
				peak = inflight;
		}
		if (wait_msg(p, &msg))
			goto out_lost;
		if (msg.kind != RX_REPLY) {
			tool_err("xid 0x%08x: ERR_VERS after the version was settled",
				 msg.call->xid);
			return -1;
		}
		reply_done(p, msg.call, &msg, &rtt);
		inflight--;
		done++;
		printf("NULL reply from %s: seq=%u xid=0x%08x vers=%u credits=%u time=%.3f ms",
		       o->host, msg.call->seq, msg.call->xid, p->vers,
		       msg.credits, rtt);
		printf("%s%s%s\n",
		       msg.call->long_call ? " long-call" : "",
		       msg.call->reply_chunk ? " reply-chunk-offered" : "",
		       msg.call->inv_offered ? " inv" : "");
		if (done == 1 || rtt < min)
			min = rtt;
		if (rtt > max)
			max = rtt;
		sum += rtt;
	}
	now(&t1);
	printf("--- %s rpcrdma2-ping statistics ---\n", o->host);
	printf("%u calls, %u replies, 0%% lost, version %u, at most %u in flight, time %.0f ms\n",
	       sent, done, p->vers, peak, ms_between(&t0, &t1));
	if (peak > p->granted)
		printf("overrun: %u calls in flight, %u more than the %u granted\n",
		       peak, peak - p->granted, p->granted);
	if (p->zero_grants)
		printf("zero grants: %u replies granted 0 credits, each taken as 1\n",
		       p->zero_grants);
	if (done)
		printf("rtt min/avg/max = %.3f/%.3f/%.3f ms\n", min,
		       sum / done, max);
	if (o->inv)
		printf("remote invalidation: %u of %u replies (the NULL exchange's too) %s\n",
		       p->invalidated, p->replies,
		       "invalidated their call's handle");
	return 0;

out_lost:
	printf("--- %s rpcrdma2-ping statistics ---\n", o->host);
	printf("%u calls, %u replies, %u lost\n", sent, done, sent - done);
	return -1;
}

/* Does the received message @m match --expect-hex? */
static bool raw_matches(const u8 *m, u32 len)
{
	if (len != args.expect_len)
		return false;
	if (args.ignore_credits && len >= RPCRDMA2_FIXED_SIZE)
		return !memcmp(m, args.expect, 8) &&
		       !memcmp(m + 12, args.expect + 12, len - 12);
	return !memcmp(m, args.expect, len);
}

/* Check the first non-CONNPROP message back against --expect-* */
static int raw_check(struct ping *p, const u8 *m, u32 len)
{
	struct rpcrdma2_hdr *h = &p->rhdr;
	struct rpcrdma2_reject rej;
	int rc;

	rc = rpcrdma2_decode(m, len, h, &rej);
	print_hex("reply", m, len);
	if (len >= RPCRDMA2_FIXED_SIZE)
		print_hdr("reply ", h, !rc);
	if (rc)
		printf("reply codec: rejected, reason %s (a requester discards it)\n",
		       rpcrdma2_reason_name(rej.reason));
	if (args.expect_none) {
		tool_err("expected no reply, got %u bytes", len);
		return -1;
	}
	if (!args.expect)
		return 0;
	if (!raw_matches(m, len)) {
		print_hex("expected", args.expect, args.expect_len);
		tool_err("the reply differs from --expect-hex");
		return -1;
	}
	printf("reply matches --expect-hex%s\n",
	       args.ignore_credits ? " (credit word ignored)" : "");
	return 0;
}

/* --send-hex or --write-imm: one raw message (raw_run()) */
static bool raw_mode(void)
{
	return args.send_msg || args.write_imm;
}

/*
 * --send-hex: one raw message out, the first non-CONNPROP message back.
 * By default the raw message is the first one on the connection; with
 * --after-negotiate it follows the NULL exchange that fixed the version,
 * on the same connection. With --then-ping the connection must go on
 * serving NULL calls afterwards (negotiating first if it has not yet).
 */
static int raw_run(struct ping *p)
{
	const struct ping_opts *o = p->opts;
	struct rpcrdma2_reject rej;
	struct rpcrdma2_hdr *h = &p->rhdr;
	struct timespec dl;
	struct ibv_wc wc;
	u32 idx, len;
	int rc, slot;
	u8 *m;

	if (args.after_negotiate && negotiate_version(p))
		return -1;
	slot = conn_wait_slot(&p->c);
	if (slot < 0)
		return -1;
	if (args.write_imm) {
		/* no rkey for a 0-byte Write (IBA C9-88); it takes a Receive */
		struct ibv_send_wr wr = {
			.opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
			.imm_data = htonl(0x5a5a5a5a),
		};

		if (conn_post_wr(&p->c, (u32)slot, &wr))
			return -1;
		printf("raw: sent a 0-byte RDMA Write With Immediate%s\n",
		       p->negotiated ? " after the NULL exchange" :
		       " as the first message on the connection");
	} else {
		memcpy(conn_send_buf(&p->c, (u32)slot), args.send_msg, args.send_len);
		if (conn_post_send(&p->c, (u32)slot, (u32)args.send_len, NULL, NULL))
			return -1;
		printf("raw: sent %zu bytes%s\n", args.send_len,
		       p->negotiated ?
		       " after the NULL exchange, same connection" :
		       " as the first message on the connection");
	}
	deadline_in(&dl, o->timeout_ms);
	for (;;) {
		rc = conn_next_recv(&p->c, &dl, &wc);
		if (rc == -ETIMEDOUT || rc == -ECONNRESET) {
			printf("no reply%s\n", rc == -ECONNRESET ?
			       " (the server disconnected)" : "");
			if (args.expect && !args.expect_none) {
				tool_err("expected a reply, got none");
				return -1;
			}
			goto then_ping;
		}
		if (rc)
			return -1;
		idx = (u32)wc.wr_id;
		m = conn_recv_buf(&p->c, idx);
		len = wc.byte_len;
		rc = rpcrdma2_decode(m, len, h, &rej);
		if (!rc && h->vers == RPCRDMA2_VERS_2 &&
		    h->htype == RPCRDMA2_HT_CONNPROP) {
			record_connprop(p, h);
			if (conn_post_recv(&p->c, idx))
				return -1;
			continue;
		}
		break;
	}
	rc = raw_check(p, m, len);
	if (conn_post_recv(&p->c, idx) || rc)
		return -1;
then_ping:
	if (!args.then_ping)
		return 0;
	printf("raw: NULL calls on the same connection\n");
	return ping_run(p);
}

/*
 * --readlink / --read: one COMPOUND after the NULL exchange; print how
 * the result travelled, then the data (a test compares it).
 */
static int compound_run(struct ping *p)
{
	const struct ping_opts *o = p->opts;
	struct ping_msg msg;
	double rtt;
	int slot;

	if (negotiate_version(p))
		return -1;
	slot = conn_wait_slot(&p->c);
	if (slot < 0 || send_call(p, (u32)slot, p->vers, 1, true) ||
	    wait_msg(p, &msg))
		return -1;
	if (msg.kind != RX_REPLY) {
		tool_err("xid 0x%08x: ERR_VERS after the version was settled",
			 msg.call->xid);
		return -1;
	}
	reply_done(p, msg.call, &msg, &rtt);
	if (o->nfs.op == NFS4_OP_WRITE) {
		printf("write2 %s: %u+%u bytes written, chunks %s padding, ",
		       o->nfs.path, o->nfs.w2_len[0], o->nfs.w2_len[1],
		       o->chunk_pad ? "with" : "without");
		printf("version %u, time=%.3f ms\n", p->vers, rtt);
		return 0;
	}
	printf("%s %s: %u bytes%s, reply %s%s%s%s, time=%.3f ms\n",
	       o->nfs.op == NFS4_OP_READ ? "read" : "readlink", o->nfs.path,
	       p->nfs.data_len,
	       o->nfs.op == NFS4_OP_READ ? (p->nfs.eof ? ", eof" : ", not eof") :
	       "", p->via, p->write_len ? ", data in the Write chunk" : "",
	       msg.call->long_call ? ", sent as a Long Call" : "",
	       msg.call->inv_offered && !p->mw_bound[msg.call - p->calls] ?
	       ", handle invalidated by the server" : "", rtt);
	printf("data: %.*s\n", (int)p->nfs.data_len, (const char *)p->nfs.data);
	return 0;
}

/* What the connection's private data said, both ways (RFC 8797) */
static void print_pdata(const struct ping *p)
{
	const struct ping_opts *o = p->opts;

	printf("connected: %s port %u\n", o->host, o->port);
	printf("private data sent: R %d, send %u, receive %u\n",
	       our_reminv(o),
	       rpcrdma2_cm_pdata_size_decode(rpcrdma2_cm_pdata_size_encode(o->size)),
	       rpcrdma2_cm_pdata_size_decode(rpcrdma2_cm_pdata_size_encode(adv_recv_size(o))));
	if (!p->c.peer_rc) {
		printf("private data received (%u bytes): version %u, R %d, send %u, receive %u\n",
		       p->c.peer_len, p->c.peer.version, p->c.peer.reminv,
		       p->c.peer.send_size, p->c.peer.recv_size);
		return;
	}
	printf("private data received (%u bytes): none valid (%s): RFC 8797 §5.1 defaults\n",
	       p->c.peer_len, pdata_error(p->c.peer_rc));
}

enum {
	O_NFSVERS = OPT_OWN, O_SEND, O_EXPECT, O_NONE, O_IGNCRED, O_AFTER,
	O_THEN, O_OVERRUN, O_LONG, O_READLINK, O_READ, O_WCHUNK, O_WLEN,
	O_RCHUNK, O_INV, O_HOLD, O_WRITE_IMM, O_WRITE2, O_WLENS, O_CPAD,
	O_RSEGS, O_NOREPOST, O_FLOOD, O_FLOOD_UNTIL, O_FAT, O_RSIZE
};

static const struct option ping_lopts[] = {
	{ "count", required_argument, NULL, 'c' },
	{ "window", required_argument, NULL, 'w' },
	{ "nfs-vers", required_argument, NULL, O_NFSVERS },
	{ "send-hex", required_argument, NULL, O_SEND },
	{ "expect-hex", required_argument, NULL, O_EXPECT },
	{ "expect-no-reply", no_argument, NULL, O_NONE },
	{ "ignore-credits", no_argument, NULL, O_IGNCRED },
	{ "after-negotiate", no_argument, NULL, O_AFTER },
	{ "then-ping", no_argument, NULL, O_THEN },
	{ "overrun", no_argument, NULL, O_OVERRUN },
	{ "long-call", required_argument, NULL, O_LONG },
	{ "readlink", required_argument, NULL, O_READLINK },
	{ "read", required_argument, NULL, O_READ },
	{ "write-chunk", no_argument, NULL, O_WCHUNK },
	{ "write-chunk-len", required_argument, NULL, O_WLEN },
	{ "reply-chunk", no_argument, NULL, O_RCHUNK },
	{ "inv", no_argument, NULL, O_INV },
	{ "write2", required_argument, NULL, O_WRITE2 },
	{ "write-lens", required_argument, NULL, O_WLENS },
	{ "chunk-pad", no_argument, NULL, O_CPAD },
	{ "read-segs", required_argument, NULL, O_RSEGS },
	{ "no-repost", no_argument, NULL, O_NOREPOST },
	{ "hold", required_argument, NULL, O_HOLD },
	{ "write-imm", no_argument, NULL, O_WRITE_IMM },
	{ "flood", required_argument, NULL, O_FLOOD },
	{ "flood-until", required_argument, NULL, O_FLOOD_UNTIL },
	{ "fat-reply", required_argument, NULL, O_FAT },
	{ "recv-size", required_argument, NULL, O_RSIZE },
	{ NULL, 0, NULL, 0 },
};

/* One of the requester's own options (lib/opts.c parses the shared ones) */
static const char *ping_opt(int c, const char *arg)
{
	struct ping_opts *o = &args.o;
	const char *bad = NULL;

	switch (c) {
	case 'c':
		if (parse_u32(arg, 0, 1000000, &o->count))
			bad = "bad --count";
		break;
	case 'w':
		if (parse_u32(arg, 1, MAX_WINDOW, &o->window))
			bad = "bad --window";
		break;
	case O_NFSVERS:
		if (parse_u32(arg, 2, 4, &o->nfs_vers))
			bad = "--nfs-vers must be 2, 3 or 4";
		break;
	case O_SEND:
		if (parse_hex(arg, &args.send_msg, &args.send_len))
			bad = "bad --send-hex";
		break;
	case O_EXPECT:
		if (parse_hex(arg, &args.expect, &args.expect_len))
			bad = "bad --expect-hex";
		break;
	case O_NONE:
		args.expect_none = true;
		break;
	case O_IGNCRED:
		args.ignore_credits = true;
		break;
	case O_AFTER:
		args.after_negotiate = true;
		break;
	case O_THEN:
		args.then_ping = true;
		break;
	case O_OVERRUN:
		args.overrun = true;
		break;
	case O_LONG:
		if (parse_u32(arg, RPC_NULL_CALL_SIZE, CHUNK_CALL_MAX,
			      &o->long_call) || o->long_call % 4)
			bad = "--long-call must be a multiple of 4, 40..65536";
		break;
	case O_READLINK:
	case O_READ:
		if (o->nfs.path)
			bad = "one of --readlink and --read";
		o->nfs.path = arg;
		o->nfs.op = c == O_READ ? NFS4_OP_READ :
			    NFS4_OP_READLINK;
		break;
	case O_WCHUNK:
		o->write_chunk = true;
		break;
	case O_WLEN:
		if (parse_u32(arg, 1, CHUNK_WRITE_SIZE, &o->write_len))
			bad = "bad --write-chunk-len";
		o->write_chunk = true;
		break;
	case O_RCHUNK:
		o->reply_chunk = true;
		break;
	case O_INV:
		o->inv = true;
		break;
	case O_WRITE2:
		if (o->nfs.path)
			bad = "one of --readlink, --read and --write2";
		o->nfs.path = arg;
		o->nfs.op = NFS4_OP_WRITE;
		break;
	case O_WLENS:
		if (parse_u32_list(arg, o->nfs.w2_len, 2, 1,
				   W2_DATA2_OFF - 4))
			bad = "--write-lens N1,N2, each 1..32764";
		break;
	case O_CPAD:
		o->chunk_pad = true;
		break;
	case O_NOREPOST:
		o->no_repost = true;
		break;
	case O_RSEGS: {
		u32 v[3];

		if (parse_u32_list(arg, v, 3, 1, CHUNK_CALL_MAX) ||
		    v[0] > RS_MAX_CHUNKS || v[1] > RS_MAX_SEGS ||
		    (u64)v[0] * xdr_align(v[1] * v[2]) > CHUNK_CALL_MAX) {
			bad = "--read-segs C,S,L: C 1..4, S 1..64, C*S*L within 64 KiB";
			break;
		}
		o->rs_chunks = v[0];
		o->rs_segs = v[1];
		o->rs_len = v[2];
		break;
	}
	case O_HOLD:
		if (parse_seconds(arg, &o->hold_ms))
			bad = "bad --hold";
		break;
	case O_WRITE_IMM:
		args.write_imm = true;
		break;
	case O_FLOOD:
		if (parse_u32(arg, 1, 1000000, &args.flood))
			bad = "bad --flood";
		break;
	case O_FLOOD_UNTIL:
		args.flood_until = arg;
		break;
	case O_FAT:
		if (parse_u32(arg, 1, FAT_MAX_CHUNKS * FAT_CHUNK_SEGS,
			      &o->fat_reply))
			bad = "--fat-reply takes 1..128 segments";
		break;
	case O_RSIZE:
		if (parse_u32(arg, RPCRDMA2_CM_PDATA_MIN_SIZE,
			      RPCRDMA2_CM_PDATA_MAX_SIZE, &o->recv_size) ||
		    o->recv_size % RPCRDMA2_CM_PDATA_SIZE_UNIT)
			bad = "--recv-size must be a multiple of 1024, 1024..262144";
		break;
	default:
		bad = "";
	}
	return bad;
}

static int parse_args(int argc, char **argv, struct ping_opts *o)
{
	struct opt_spec spec = {
		.shortopts = "p:c:w:t:vh",
		.own = ping_lopts,
		.own_opt = ping_opt,
		.help = print_help,
	};
	const char *bad;

	opts_requester(&spec, o);
	bad = opts_parse(argc, argv, &spec);
	if (!bad)
		bad = opts_host(argc, argv, &o->host);
	if (!bad && args.write_imm && args.send_msg)
		bad = "--write-imm and --send-hex exclude each other";
	if (!bad && !raw_mode() &&
	    (args.expect || args.expect_none || args.ignore_credits))
		bad = "--expect-hex, --expect-no-reply and --ignore-credits need --send-hex";
	if (!bad && !raw_mode() && (args.after_negotiate || args.then_ping))
		bad = "--after-negotiate and --then-ping need --send-hex";
	if (!bad && args.overrun && o->window > o->credits)
		bad = "--overrun needs --window <= --credits (a Receive for every reply)";
	if (!bad && args.expect && args.expect_none)
		bad = "--expect-hex and --expect-no-reply exclude each other";
	if (!bad && args.send_len > o->size)
		bad = "--send-hex message exceeds --size";
	if (!bad && raw_mode() && (uses_chunks(o) || o->inv))
		bad = "chunk options exclude --send-hex";
	if (!bad && o->write_chunk && (!o->nfs.path || o->nfs.op == NFS4_OP_WRITE))
		bad = "--write-chunk needs --read or --readlink";
	if (!bad && o->chunk_pad && o->nfs.op != NFS4_OP_WRITE)
		bad = "--chunk-pad needs --write2";
	if (!bad && o->rs_chunks && (o->nfs.path || o->long_call))
		bad = "--read-segs is for NULL calls: not with --long-call or a COMPOUND";
	if (!bad && o->inv && !uses_chunks(o))
		bad = "--inv needs chunks to expose";
	if (!bad && args.flood_until && !args.flood)
		bad = "--flood-until needs --flood";
	if (!bad && (args.flood || o->fat_reply) &&
	    (raw_mode() || o->nfs.path || o->long_call ||
	     o->reply_chunk || o->inv || args.overrun || (args.flood && o->fat_reply)))
		bad = "--flood and --fat-reply exclude the other modes and each other";
	if (!bad && o->recv_size > o->size)
		bad = "--recv-size must not exceed --size";
	return bad ? usage_error(bad, "[options] HOST") : 0;
}

int main(int argc, char **argv)
{
	static struct ping p;
	struct ping_opts *o = &args.o;
	struct timespec t;
	int rc;

	tool_start(PROG);
	ping_opts_init(o);
	if (parse_args(argc, argv, o))
		return 2;
	ping_init(&p, o, o->window,
		  o->window * (o->inv ? INV_WRS_PER_CALL : 1));
	now(&t);
	p.next_xid = (u32)(t.tv_nsec ^ (t.tv_sec << 20) ^ getpid());

	rc = ping_setup(&p);
	if (!rc) {
		print_pdata(&p);
		rc = raw_mode() ? raw_run(&p) :
		     o->nfs.path ? compound_run(&p) :
		     args.flood ? flood_run(&p, args.flood, args.flood_until) :
		     o->fat_reply ? fat_reply_run(&p) : ping_run(&p);
	}
	ping_teardown(&p);
	free(args.send_msg);
	free(args.expect);
	return rc ? 1 : 0;
}
