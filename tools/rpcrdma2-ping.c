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
 * control), and --fuzz sends headers mutated from the codec's fuzz corpus
 * over real connections, checking every error reply byte for byte against
 * what the shared codec says the server must answer.
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
 * With --listen the binary is a server instead, for testing clients:
 * the responder in rpcrdma2-listen.c, which answers RPC NULL correctly
 * or in one of the hostile ways --hostile names. rpcrdma2-ping.h holds
 * what the two halves share.
 *
 * Exit status: 0 success; 1 any failure (connection, protocol, a reply
 * that is wrong, no reply, --expect-* mismatch); 2 usage error.
 */
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rpcrdma2-hex.h"
#include "rpcrdma2-ping.h"
#include "rpcrdma2-print.h"

#define DEF_PORT		20049	/* IANA nfsrdma */
#define DEF_COUNT		5
#define DEF_CREDITS		32
#define DEF_WINDOW		1
#define DEF_SIZE		4096
#define DEF_NFS_VERS		3
#define MAX_CREDITS		1024

/* --fuzz: mutated messages between two NULL calls (fewer than the grant) */
#define FUZZ_BATCH		8

/* The first message on a connection: RFC 8166 §3.3.3, draft v2 §7 */
#define FIRST_MSG_MAX		RPCRDMA2_V1_DEF_INLINE

/* How long to sleep between polls of the Send CQ while a slot drains */
#define SEND_POLL_NS		20000

/* How long teardown waits for the disconnect to complete */
#define DISCONNECT_WAIT_MS	1000

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
#define CALL_READ_SEGS		(CHUNK_CALL_MAX / CHUNK_SEG_MAX)
/* --read-segs: Read chunks and segments a call may carry */
#define RS_MAX_CHUNKS		4
#define RS_MAX_SEGS		64
/* --write2: the second WRITE's data, in the Long Call area */
#define W2_DATA2_OFF		(CHUNK_CALL_MAX / 2)
/* Send Queue entries per call with --inv: LOCAL_INV, BIND_MW, SEND */
#define INV_WRS_PER_CALL	3

/* NFSv4.0 (RFC 7530 §16) for --readlink and --read */
#define RPC_AUTH_SYS		1
#define NFS4_VERSION		4
#define NFS4_PROC_COMPOUND	1
#define NFS4_OP_LOOKUP		15
#define NFS4_OP_PUTROOTFH	24
#define NFS4_OP_READ		25
#define NFS4_OP_READLINK	27
#define NFS4_OP_WRITE		38
#define NFS4_FILE_SYNC		2
#define NFS4_MAXNAME		255
#define NFS4_MAX_NAMES		16
#define AUTH_SYS_MACHINE	"rpcrdma2-ping"

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

/*
 * What a connection's setup and NULL exchange print. --fuzz reconnects
 * hundreds of times and keeps them quiet unless --verbose.
 */
static bool chatty(const struct ping *p)
{
	return !p->fz || p->opts->verbose;
}

static void note(const struct ping *p, const char *fmt, ...)
{
	va_list ap;

	if (!chatty(p))
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static void note_err(const struct ping *p, const char *fmt, ...)
{
	va_list ap;

	if (!chatty(p))
		return;
	va_start(ap, fmt);
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
}

static void print_help(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " [options] HOST\n"
		"       " PROG " --listen [--hostile MODE | --fuzz N] [options]\n"
		"Connect to an NFS server's RPC-over-RDMA port, negotiate the\n"
		"transport version (v2, falling back to v1 on ERR_VERS) and time\n"
		"RPC NULL round trips. With --listen, be the server instead.\n"
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
		"      --fuzz N          send N headers mutated from the codec's\n"
		"                        fuzz corpus, %d between NULL calls, over\n"
		"                        as many connections as it takes; check\n"
		"                        each error reply against the codec; end\n"
		"                        with a NULL ping on a fresh connection\n"
		"      --seed S          --fuzz random seed (default: from the\n"
		"                        clock; printed)\n"
		"      --corpus DIR      --fuzz corpus (default: the source tree's\n"
		"                        tests/fuzz/corpus/fuzz_codec)\n"
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
		"Listening (a responder for RPC NULL, to test clients with):\n"
		"      --listen          accept connections on --port, one after\n"
		"                        another, and answer each RPC Call as\n"
		"                        --hostile says; one line per Call\n"
		"      --bind ADDR       listen on ADDR only (default: every\n"
		"                        IPv4 address)\n"
		"      --hostile MODE    how to answer (default good; below)\n"
		"      --fuzz N          instead: answer every Call with a burst\n"
		"                        of messages mutated from the --corpus\n"
		"                        and the Call's own chunks until N are\n"
		"                        sent, then print a summary (--seed S)\n"
		"      --max-conns N     exit after N connections (default: never)\n"
		"  -t, --timeout S       exit after S seconds (default: never)\n"
		"      --inv-rkey N      the key inv-bogus invalidates (default\n"
		"                        0x%08x, which names nothing on rxe)\n"
		"      --credits N       the grant, with N + %d Receives posted\n"
		"      --size N          the Receive and Send buffer size, RBSIZ\n"
		"                        and the private data's sizes\n"
		"  -p, --port N, -v, --verbose: as above\n"
		"\n"
		"Modes:\n",
		DEF_PORT, DEF_COUNT, DEF_WINDOW, MAX_WINDOW, SPARE_RECVS,
		DEF_CREDITS, DEF_SIZE, DEF_NFS_VERS, DEF_TIMEOUT_MS / 1000,
		FUZZ_BATCH, CHUNK_CALL_MAX, CHUNK_WRITE_SIZE, CHUNK_WRITE_SIZE,
		DEF_INV_RKEY, SPARE_RECVS);
	lsn_print_modes(f);
	fprintf(f, "\nExit status: 0 success, 1 failure, 2 usage error.\n");
}

/* ---- small helpers ---------------------------------------------------- */

static void now(struct timespec *ts)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
}

static double ms_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1e3 + (b->tv_nsec - a->tv_nsec) / 1e6;
}

void deadline_in(struct timespec *dl, u32 ms)
{
	now(dl);
	dl->tv_sec += ms / 1000;
	dl->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (dl->tv_nsec >= 1000000000L) {
		dl->tv_sec++;
		dl->tv_nsec -= 1000000000L;
	}
}

/* Milliseconds left until @dl, rounded up; 0 when it has passed */
int ms_left(const struct timespec *dl)
{
	struct timespec t;
	double left;

	now(&t);
	left = ms_between(&t, dl);
	if (left <= 0)
		return 0;
	return left > 1e9 ? 1000000000 : (int)left + 1;
}

void print_hex(const char *what, const u8 *p, size_t len)
{
	size_t i;

	printf("%s (%zu bytes):", what, len);
	for (i = 0; i < len; i++)
		printf("%s%02x", i % 4 ? "" : " ", p[i]);
	printf("\n");
}

/* --send-hex / --expect-hex: at least one byte (rpcrdma2-hex.h) */
static int parse_hex(const char *s, u8 **out, size_t *outlen)
{
	size_t len = strlen(s);
	const char *why;
	long n;
	u8 *buf;

	buf = malloc(len / 2 + 1);
	if (!buf)
		return -1;
	n = hex_parse(s, len, buf, len / 2 + 1, &why);
	if (n <= 0) {
		free(buf);
		return -1;
	}
	*out = buf;
	*outlen = (size_t)n;
	return 0;
}

static int parse_u32(const char *s, u32 min, u32 max, u32 *out)
{
	char *end;
	unsigned long v;

	if (!*s)
		return -1;
	v = strtoul(s, &end, 0);
	if (*end || v < min || v > max)
		return -1;
	*out = (u32)v;
	return 0;
}

/* "A,B,...": exactly @n numbers, each in [@min, @max] */
static int parse_u32_list(const char *arg, u32 *out, u32 n, u32 min, u32 max)
{
	char buf[64], *tok, *save = NULL, *str = buf;
	u32 i = 0;

	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf))
		return -1;
	while ((tok = strtok_r(str, ",", &save))) {
		str = NULL;
		if (i == n || parse_u32(tok, min, max, &out[i++]))
			return -1;
	}
	return i == n ? 0 : -1;
}

static int parse_seconds(const char *s, u32 *ms)
{
	char *end;
	double v;

	if (!*s)
		return -1;
	v = strtod(s, &end);
	if (*end || !(v > 0) || v > 3600)
		return -1;
	*ms = (u32)(v * 1000 + 0.5);
	return *ms ? 0 : -1;
}

/* ---- printing decoded headers ----------------------------------------- */

const char *brs_name(u32 brs)
{
	static const char *const names[] = { "NONE", "INLINE", "GENL" };

	return brs < ARRAY_SIZE(names) ? names[brs] : "?";
}

const char *prop_state(const struct rpcrdma2_props *props, u32 bit)
{
	if (!(props->present & bit))
		return "not sent: default";
	return props->dflt & bit ? "sent empty: default" : "sent";
}

/*
 * One field per line, "<prefix>name: value", as rpcrdma2-decode prints.
 * A header the codec rejected (@decoded false) has only its fixed words
 * printed: the decoder leaves the rest unset.
 */
static void print_hdr(const char *prefix, const struct rpcrdma2_hdr *h,
		      bool decoded)
{
	const struct rpcrdma2_chunk_lists *cl = &h->cl;

	printf("%sversion: %u\n", prefix, h->vers);
	printf("%sxid: 0x%08x\n", prefix, h->xid);
	printf("%scredits: %u\n", prefix, h->credits);
	printf("%stype: %s (%u)\n", prefix,
	       rpcrdma2_htype_name(h->vers, h->htype), h->htype);
	if (!decoded)
		return;
	if (h->vers == RPCRDMA2_VERS_2)
		printf("%sflags: 0x%08x%s\n", prefix, h->flags,
		       h->flags & RPCRDMA2_F_RESPONSE ? " RESPONSE" : "");
	switch (h->htype) {
	case RPCRDMA2_HT_ERROR:
		printf("%serror: %s (%u)%s\n", prefix,
		       rpcrdma2_errcode_name(h->vers, h->err.code),
		       h->err.code,
		       h->err.v1_layout ? ", RFC 8166 layout" : "");
		print_error_arm(prefix, h->vers, &h->err);
		return;
	case RPCRDMA2_HT_CONNPROP:
		printf("%srbsiz: %u (%s)\n", prefix, h->props.rbsiz,
		       prop_state(&h->props, RPCRDMA2_PROPF_RBSIZ));
		printf("%sbrs: RDMA2_RVREQSUP_%s (%s)\n", prefix,
		       brs_name(h->props.brs),
		       prop_state(&h->props, RPCRDMA2_PROPF_BRS));
		return;
	}
	if (h->vers == RPCRDMA2_VERS_2)
		printf("%sinv_handle: 0x%08x\n", prefix, cl->inv_handle);
	printf("%sread_segments: %u\n", prefix, cl->nr_reads);
	printf("%swrite_chunks: %u\n", prefix, cl->nr_writes);
	printf("%sreply_chunk: %s\n", prefix, cl->has_reply ? "yes" : "none");
	printf("%srpc_offset: %u\n", prefix, h->hdr_len);
	printf("%srpc_length: %u\n", prefix, h->rpc_len);
}

/* ---- rdma_cm ---------------------------------------------------------- */

/*
 * Wait up to @ms for the next CM event on @ec (non-blocking). Returns it
 * (the caller acks it), or NULL with errno ETIMEDOUT on timeout, or EIO
 * on an error, having said why.
 */
struct rdma_cm_event *cm_next(struct rdma_event_channel *ec, int ms)
{
	struct pollfd pfd = { .fd = ec->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	struct timespec dl;
	int rc;

	deadline_in(&dl, ms);
	for (;;) {
		if (!rdma_get_cm_event(ec, &ev))
			return ev;
		if (errno != EAGAIN) {
			ping_err("rdma_get_cm_event: %s", strerror(errno));
			errno = EIO;
			return NULL;
		}
		rc = poll(&pfd, 1, ms_left(&dl));
		if (rc < 0 && errno != EINTR) {
			ping_err("poll: %s", strerror(errno));
			errno = EIO;
			return NULL;
		}
		if (!rc) {
			errno = ETIMEDOUT;
			return NULL;
		}
	}
}

/* Wait for @want; anything else is a failure, described in the message */
static int cm_expect(struct ping *p, enum rdma_cm_event_type want,
		     const char *doing)
{
	const struct ping_opts *o = p->opts;
	struct rdma_cm_event *ev;
	int status;

	ev = cm_next(p->ec, (int)o->timeout_ms);
	if (!ev) {
		ping_err("%s %s port %u: no answer within %.1f s", doing,
			 o->host, o->port, o->timeout_ms / 1000.0);
		return -1;
	}
	if (ev->event == want) {
		if (want == RDMA_CM_EVENT_ESTABLISHED) {
			/*
			 * RFC 8797 §5.2: untrusted, possibly padded (rdma_cm
			 * pads a REP to 196 bytes); the parser searches for
			 * the Format Identifier within the length given.
			 */
			p->peer_len = ev->param.conn.private_data_len;
			p->peer_rc = rpcrdma2_cm_pdata_parse(ev->param.conn.private_data,
							     p->peer_len,
							     &p->peer);
		}
		rdma_ack_cm_event(ev);
		return 0;
	}
	status = ev->status;
	switch (ev->event) {
	case RDMA_CM_EVENT_REJECTED:
		ping_err("%s %s port %u: connection rejected (%s, status %d%s)",
			 doing, o->host, o->port, rdma_event_str(ev->event), status,
			 status == 8 ? ": nobody listens on that port" : "");
		break;
	default:
		ping_err("%s %s port %u: %s (status %d)", doing, o->host, o->port,
			 rdma_event_str(ev->event), status);
	}
	rdma_ack_cm_event(ev);
	return -1;
}

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		ping_err("fcntl: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int post_recv(struct ping *p, u32 i)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(p->buf + (size_t)i * p->opts->size),
		.length = p->opts->size,
		.lkey = p->mr->lkey,
	};
	struct ibv_recv_wr wr = {
		.wr_id = i,
		.sg_list = &sge,
		.num_sge = 1,
	};
	struct ibv_recv_wr *bad;
	int rc;

	/* --no-repost: the server's replies meet RNR NAKs, retried forever */
	if (p->opts->no_repost && p->negotiated)
		return 0;
	rc = ibv_post_recv(p->id->qp, &wr, &bad);
	if (rc) {
		ping_err("ibv_post_recv: %s", strerror(rc));
		return -1;
	}
	return 0;
}

u8 *send_buf(struct ping *p, u32 slot)
{
	return p->buf + (size_t)(p->nr_recvs + slot) * p->opts->size;
}

/* Does this run expose memory through chunks? */
static bool uses_chunks(const struct ping_opts *o)
{
	return o->long_call || o->path || o->reply_chunk || o->rs_chunks ||
	       o->fat_reply;
}

/* The receive size we advertise: --recv-size, else our buffers' size */
static u32 adv_recv_size(const struct ping_opts *o)
{
	return o->recv_size ? o->recv_size : o->size;
}

/* RFC 8797 §4.1: R only when every handle we expose may be invalidated */
static bool our_reminv(const struct ping_opts *o)
{
	return !uses_chunks(o) || o->inv;
}

static u8 *chunk_area(const struct ping *p, u32 slot)
{
	return p->cbuf + (size_t)slot * CHUNK_AREA_SIZE;
}

/*
 * Post the Send of @len bytes from send slot @slot, behind @pre (memory
 * registration work requests, or NULL) on the same Send Queue; with
 * @inv_rkey, as a Send With Invalidate of that key (the responder's).
 */
int post_send_wr(struct ping *p, u32 slot, u32 len, struct ibv_send_wr *pre,
		 const u32 *inv_rkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)send_buf(p, slot),
		.length = len,
		.lkey = p->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = slot,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	};
	struct ibv_send_wr *bad, *last;
	int rc;

	if (inv_rkey) {
		wr.opcode = IBV_WR_SEND_WITH_INV;
		wr.invalidate_rkey = *inv_rkey;
	}
	if (p->opts->verbose)
		print_hex("sent", send_buf(p, slot), len);
	for (last = pre; last && last->next; last = last->next)
		;
	if (last)
		last->next = &wr;
	rc = ibv_post_send(p->id->qp, pre ? pre : &wr, &bad);
	if (rc) {
		ping_err("ibv_post_send: %s", strerror(rc));
		return -1;
	}
	p->calls[slot].send_busy = true;
	return 0;
}

/*
 * One signaled work request other than a Send (an RDMA Read, a Write With
 * Immediate), in send slot @slot's place; its scatter list, if any,
 * points into that slot's buffer.
 */
int post_wr(struct ping *p, u32 slot, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	int rc;

	wr->wr_id = slot;
	wr->send_flags = IBV_SEND_SIGNALED;
	rc = ibv_post_send(p->id->qp, wr, &bad);
	if (rc) {
		ping_err("ibv_post_send (opcode %d): %s", wr->opcode,
			 strerror(rc));
		return -1;
	}
	p->calls[slot].send_busy = true;
	return 0;
}

static int post_send(struct ping *p, u32 slot, u32 len)
{
	return post_send_wr(p, slot, len, NULL, NULL);
}

static int resolve(struct ping *p)
{
	const struct ping_opts *o = p->opts;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *ai;
	char port[16];
	int rc;

	snprintf(port, sizeof(port), "%u", o->port);
	rc = getaddrinfo(o->host, port, &hints, &ai);
	if (rc) {
		ping_err("%s: %s", o->host, gai_strerror(rc));
		return -1;
	}
	rc = rdma_resolve_addr(p->id, NULL, ai->ai_addr, (int)o->timeout_ms);
	freeaddrinfo(ai);
	if (rc) {
		ping_err("rdma_resolve_addr %s: %s", o->host, strerror(errno));
		return -1;
	}
	if (cm_expect(p, RDMA_CM_EVENT_ADDR_RESOLVED, "resolving"))
		return -1;
	if (rdma_resolve_route(p->id, (int)o->timeout_ms)) {
		ping_err("rdma_resolve_route %s: %s", o->host, strerror(errno));
		return -1;
	}
	return cm_expect(p, RDMA_CM_EVENT_ROUTE_RESOLVED, "routing to");
}

/*
 * Memory the server reads and writes through chunks: one registration
 * of an area per send slot. With --inv each area is exposed through a
 * type 2 memory window instead, which the server may invalidate with
 * Send With Invalidate (a userspace MR cannot be invalidated remotely).
 */
static int create_chunk_memory(struct ping *p)
{
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
		     IBV_ACCESS_REMOTE_WRITE;
	size_t bytes = (size_t)p->nr_sends * CHUNK_AREA_SIZE;
	struct ibv_device_attr attr;
	u32 i;

	p->cbuf = aligned_alloc(4096, bytes);
	if (!p->cbuf) {
		ping_err("out of memory");
		return -1;
	}
	memset(p->cbuf, 0, bytes);
	if (p->opts->inv) {
		if (ibv_query_device(p->id->verbs, &attr)) {
			ping_err("ibv_query_device: %s", strerror(errno));
			return -1;
		}
		if (!(attr.device_cap_flags & IBV_DEVICE_MEM_WINDOW_TYPE_2B)) {
			ping_err("--inv: the device has no type 2B memory windows");
			return -1;
		}
		access |= IBV_ACCESS_MW_BIND;
	}
	p->cmr = ibv_reg_mr(p->pd, p->cbuf, bytes, access);
	if (!p->cmr) {
		ping_err("ibv_reg_mr (chunks): %s", strerror(errno));
		return -1;
	}
	for (i = 0; p->opts->inv && i < p->nr_sends; i++) {
		p->mw[i] = ibv_alloc_mw(p->pd, IBV_MW_TYPE_2);
		if (!p->mw[i]) {
			ping_err("ibv_alloc_mw: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* PD, CQ, QP and buffers on the device the route resolved to */
int create_resources(struct ping *p)
{
	const struct ping_opts *o = p->opts;
	struct ibv_qp_init_attr qpa = { 0 };
	size_t bytes;
	u32 i;

	p->pd = ibv_alloc_pd(p->id->verbs);
	if (!p->pd) {
		ping_err("ibv_alloc_pd: %s", strerror(errno));
		return -1;
	}
	p->cc = ibv_create_comp_channel(p->id->verbs);
	if (!p->cc || set_nonblock(p->cc->fd)) {
		ping_err("ibv_create_comp_channel: %s", strerror(errno));
		return -1;
	}
	/*
	 * Receives complete on a CQ we sleep on; Sends on one we only poll,
	 * so that waiting for a free send slot never consumes a Receive.
	 */
	p->recv_cq = ibv_create_cq(p->id->verbs, (int)p->nr_recvs, NULL,
				   p->cc, 0);
	p->send_cq = ibv_create_cq(p->id->verbs, (int)p->nr_send_wrs, NULL,
				   NULL, 0);
	if (!p->recv_cq || !p->send_cq) {
		ping_err("ibv_create_cq: %s", strerror(errno));
		return -1;
	}
	qpa.send_cq = p->send_cq;
	qpa.recv_cq = p->recv_cq;
	qpa.sq_sig_all = 1;
	qpa.qp_type = IBV_QPT_RC;
	qpa.cap.max_send_wr = p->nr_send_wrs;
	qpa.cap.max_recv_wr = p->nr_recvs;
	qpa.cap.max_send_sge = 1;
	qpa.cap.max_recv_sge = 1;
	if (rdma_create_qp(p->id, p->pd, &qpa)) {
		ping_err("rdma_create_qp: %s", strerror(errno));
		return -1;
	}
	bytes = (size_t)(p->nr_recvs + p->nr_sends) * o->size;
	p->buf = aligned_alloc(4096, bytes);
	p->scratch = malloc(CHUNK_CALL_MAX);
	if (!p->buf || !p->scratch) {
		ping_err("out of memory");
		return -1;
	}
	memset(p->buf, 0, bytes);
	p->mr = ibv_reg_mr(p->pd, p->buf, bytes, IBV_ACCESS_LOCAL_WRITE);
	if (!p->mr) {
		ping_err("ibv_reg_mr: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < p->nr_recvs; i++)
		if (post_recv(p, i))
			return -1;
	return uses_chunks(o) ? create_chunk_memory(p) : 0;
}

static int connect_peer(struct ping *p)
{
	const struct ping_opts *o = p->opts;
	struct rdma_conn_param cp = { 0 };
	u8 pdata[RPCRDMA2_CM_PDATA_SIZE];

	/*
	 * RFC 8797 §4: R set when every handle we expose may be
	 * invalidated (our_reminv()), our Send and Receive sizes are our
	 * buffer size.
	 */
	if (rpcrdma2_cm_pdata_build(pdata, sizeof(pdata), our_reminv(o),
				    o->size, adv_recv_size(o)) !=
	    RPCRDMA2_CM_PDATA_SIZE) {
		ping_err("cannot build CM private data");
		return -1;
	}
	cp.private_data = pdata;
	cp.private_data_len = sizeof(pdata);
	/* room for the RDMA Reads a later Long Call would need */
	cp.responder_resources = 1;
	cp.initiator_depth = 1;
	cp.retry_count = 7;
	cp.rnr_retry_count = 7;
	if (rdma_connect(p->id, &cp)) {
		ping_err("rdma_connect: %s", strerror(errno));
		return -1;
	}
	if (cm_expect(p, RDMA_CM_EVENT_ESTABLISHED, "connecting to"))
		return -1;
	p->connected = true;
	return 0;
}

/*
 * A non-blocking rdma_cm event channel in *@ec and, unless @id is NULL,
 * an RDMA_PS_TCP id on it in *@id. Whatever was made is left for the
 * caller to destroy, also on failure.
 */
int cm_open(struct rdma_event_channel **ec, struct rdma_cm_id **id)
{
	*ec = rdma_create_event_channel();
	if (!*ec) {
		ping_err("rdma_create_event_channel: %s (is rdma_ucm loaded?)",
			 strerror(errno));
		return -1;
	}
	if (set_nonblock((*ec)->fd))
		return -1;
	if (id && rdma_create_id(*ec, id, NULL, RDMA_PS_TCP)) {
		ping_err("rdma_create_id: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int ping_setup(struct ping *p)
{
	struct rpcrdma2_limits lim = {
		.max_read_chunks = LIM_CHUNKS,
		.max_write_chunks = LIM_CHUNKS,
		.max_segs = LIM_SEGS,
	};

	if (rpcrdma2_chunk_lists_init(&p->rhdr.cl, &lim, p->reads,
				      ARRAY_SIZE(p->reads), p->read_chunks,
				      ARRAY_SIZE(p->read_chunks), p->writes,
				      ARRAY_SIZE(p->writes), p->segs,
				      ARRAY_SIZE(p->segs))) {
		ping_err("decoder limits do not fit");
		return -1;
	}
	if (cm_open(&p->ec, &p->id) || resolve(p) || create_resources(p) ||
	    connect_peer(p))
		return -1;
	return 0;
}

/**
 * wait_disconnected - wait for the peer's disconnect
 * @p: the connection
 * @ms: for up to this long
 *
 * Return: milliseconds until RDMA_CM_EVENT_DISCONNECTED came (and
 * @p->disconnected is set), or -1 if it did not within @ms.
 */
long wait_disconnected(struct ping *p, u32 ms)
{
	struct rdma_cm_event *ev;
	struct timespec t0, dl;

	now(&t0);
	deadline_in(&dl, ms);
	while (!p->disconnected && (ev = cm_next(p->ec, ms_left(&dl)))) {
		if (ev->event == RDMA_CM_EVENT_DISCONNECTED)
			p->disconnected = true;
		rdma_ack_cm_event(ev);
	}
	if (!p->disconnected)
		return -1;
	now(&dl);
	return (long)ms_between(&t0, &dl);
}

/*
 * --hold: our QP has failed and the server has not disconnected. Leave
 * the connection up and wait for the server to end it, so that a test
 * sees whether its transport notices a QP error that no CM event
 * reports (RFC 8166 §4.5.3 wants the connection closed).
 */
static void ping_hold(struct ping *p)
{
	long ms = wait_disconnected(p, p->opts->hold_ms);

	if (ms >= 0)
		printf("hold: the server disconnected %ld ms after our QP failed\n",
		       ms);
	else
		printf("hold: the server did not disconnect within %u ms\n",
		       p->opts->hold_ms);
}

/* Undo whatever ping_setup() got done, in reverse order */
void ping_teardown(struct ping *p)
{
	u32 i;

	if (p->connected && !p->disconnected && p->qp_failed &&
	    p->opts->hold_ms)
		ping_hold(p);
	if (p->connected && !p->disconnected && !rdma_disconnect(p->id))
		wait_disconnected(p, DISCONNECT_WAIT_MS);
	if (p->id && p->id->qp)
		rdma_destroy_qp(p->id);
	/* windows first: rxe refuses to deregister an MR with windows */
	for (i = 0; i < MAX_WINDOW; i++)
		if (p->mw[i])
			ibv_dealloc_mw(p->mw[i]);
	if (p->cmr)
		ibv_dereg_mr(p->cmr);
	free(p->cbuf);
	free(p->scratch);
	if (p->mr)
		ibv_dereg_mr(p->mr);
	free(p->buf);
	if (p->send_cq)
		ibv_destroy_cq(p->send_cq);
	if (p->recv_cq)
		ibv_destroy_cq(p->recv_cq);
	if (p->cc)
		ibv_destroy_comp_channel(p->cc);
	if (p->pd)
		ibv_dealloc_pd(p->pd);
	if (p->id)
		rdma_destroy_id(p->id);
	if (p->ec)
		rdma_destroy_event_channel(p->ec);
}

/* ---- completions ------------------------------------------------------ */

/* A CM event while we wait for messages: only a disconnect is expected */
static int drain_cm(struct ping *p)
{
	struct rdma_cm_event *ev;

	while (!rdma_get_cm_event(p->ec, &ev)) {
		if (ev->event == RDMA_CM_EVENT_DISCONNECTED)
			p->disconnected = true;
		else if (p->opts->verbose)
			printf("cm event: %s\n", rdma_event_str(ev->event));
		rdma_ack_cm_event(ev);
	}
	return p->disconnected ? -1 : 0;
}

/* Free the send slots whose Sends have completed; -1 if one failed */
static int reap_sends(struct ping *p)
{
	struct ibv_wc wc;
	int n;

	while ((n = ibv_poll_cq(p->send_cq, 1, &wc)) > 0) {
		if (wc.status != IBV_WC_SUCCESS) {
			p->qp_failed = true;
			p->fail_status = wc.status;
			note_err(p, "%s completion failed: %s (vendor error 0x%x)",
				 wc.wr_id & WRID_MEM ? "Memory window" : "Send",
				 ibv_wc_status_str(wc.status), wc.vendor_err);
			return -1;
		}
		if (!(wc.wr_id & WRID_MEM))
			p->calls[wc.wr_id].send_busy = false;
	}
	if (n < 0) {
		ping_err("ibv_poll_cq failed");
		return -1;
	}
	return 0;
}

/*
 * Wait until @dl for the next received message. Returns 0 with @wc set
 * to a successful Receive, -ETIMEDOUT, -ECONNRESET when the server
 * disconnected, or -EIO.
 */
int next_recv(struct ping *p, const struct timespec *dl, struct ibv_wc *wc)
{
	struct pollfd pfd[2] = {
		{ .fd = p->cc->fd, .events = POLLIN },
		{ .fd = p->ec->fd, .events = POLLIN },
	};
	struct ibv_cq *cq;
	void *ctx;
	int n;

	for (;;) {
		if (reap_sends(p))
			return -EIO;
		n = ibv_poll_cq(p->recv_cq, 1, wc);
		if (n < 0) {
			ping_err("ibv_poll_cq failed");
			return -EIO;
		}
		if (n) {
			if (wc->status == IBV_WC_SUCCESS)
				return 0;
			p->qp_failed = true;
			p->recv_failed = true;
			p->fail_status = wc->status;
			note_err(p, "Receive completion failed: %s (vendor error 0x%x)",
				 ibv_wc_status_str(wc->status), wc->vendor_err);
			return -EIO;
		}
		if (!p->cq_armed) {
			if (ibv_req_notify_cq(p->recv_cq, 0)) {
				ping_err("ibv_req_notify_cq failed");
				return -EIO;
			}
			p->cq_armed = true;
			continue;	/* poll once more: no lost wakeup */
		}
		if (drain_cm(p))
			return -ECONNRESET;
		n = poll(pfd, 2, ms_left(dl));
		if (n < 0 && errno != EINTR) {
			ping_err("poll: %s", strerror(errno));
			return -EIO;
		}
		if (!n)
			return -ETIMEDOUT;
		if (pfd[0].revents && !ibv_get_cq_event(p->cc, &cq, &ctx)) {
			ibv_ack_cq_events(cq, 1);
			p->cq_armed = false;
		}
	}
}

/* A send slot with no call outstanding and its last Send completed */
static int free_slot(const struct ping *p)
{
	u32 i;

	for (i = 0; i < p->nr_sends; i++)
		if (!p->calls[i].busy && !p->calls[i].send_busy)
			return (int)i;
	return -1;
}

/* 0 once every Send posted has completed, else -1 */
static int sends_done(const struct ping *p)
{
	u32 i;

	for (i = 0; i < p->nr_sends; i++)
		if (p->calls[i].send_busy)
			return -1;
	return 0;
}

/*
 * Poll the Send CQ until @ready finds what it looks for (its value, >= 0)
 * or the timeout passes (-1, with @what in the error).
 */
static int poll_sends(struct ping *p, int (*ready)(const struct ping *p),
		      const char *what)
{
	const struct timespec nap = { .tv_nsec = SEND_POLL_NS };
	struct timespec dl;
	int ret;

	deadline_in(&dl, p->opts->timeout_ms);
	for (;;) {
		if (reap_sends(p))
			return -1;
		ret = ready(p);
		if (ret >= 0)
			return ret;
		if (!ms_left(&dl)) {
			ping_err("%s within %.1f s", what,
				 p->opts->timeout_ms / 1000.0);
			return -1;
		}
		nanosleep(&nap, NULL);
	}
}

/* A free send slot, waiting for a Send to complete if need be */
int wait_slot(struct ping *p)
{
	return poll_sends(p, free_slot, "no Send completed");
}

/*
 * Wait until every Send posted has completed (for an RC QP: the peer
 * has the message), within the timeout.
 */
int wait_sends(struct ping *p)
{
	return poll_sends(p, sends_done, "a Send did not complete");
}

/* ---- messages --------------------------------------------------------- */

static struct ping_call *find_call(struct ping *p, u32 xid)
{
	u32 i;

	for (i = 0; i < p->nr_sends; i++)
		if (p->calls[i].busy && p->calls[i].xid == xid)
			return &p->calls[i];
	return NULL;
}

/*
 * Is this decoded RDMA_MSG / RDMA_NOMSG (@m, its bytes) a reply rather
 * than a Call? v2 says so in rdma_flags (draft v2 §3.2); v1 only in the
 * RPC msg_type, or by a NOMSG without the Position-Zero Read chunk of a
 * Long Call (RFC 8166 §3.5.3). svcrdma2's test (recvfrom.c): it drops
 * these, --fuzz predicts that and --listen drops them too.
 */
bool is_reverse_reply(const struct rpcrdma2_hdr *h, const u8 *m)
{
	const struct rpcrdma2_chunk_lists *cl = &h->cl;
	u32 i;

	if (h->vers == RPCRDMA2_VERS_2)
		return h->flags & RPCRDMA2_F_RESPONSE;
	if (h->htype == RPCRDMA2_V1_RDMA_NOMSG) {
		for (i = 0; i < cl->nr_reads; i++)
			if (!cl->reads[i].position)
				return false;
		return true;
	}
	if (h->rpc_len < 8)
		return false;
	return get32(m + h->hdr_len + 4) != RPC_CALL;
}

static const char *accept_stat_name(u32 stat)
{
	static const char *const names[] = {
		"SUCCESS", "PROG_UNAVAIL", "PROG_MISMATCH", "PROC_UNAVAIL",
		"GARBAGE_ARGS", "SYSTEM_ERR",
	};

	return stat < ARRAY_SIZE(names) ? names[stat] : "unknown";
}

/*
 * Check an accepted, successful RPC reply header (RFC 5531 §9) byte by
 * byte. Returns the offset of the procedure's results, or -1 with the
 * reason in @why.
 */
static int rpc_accepted(const u8 *m, u32 len, u32 xid, char *why,
			size_t whylen)
{
	u32 vlen, off;

	if (len < 24) {
		snprintf(why, whylen, "RPC reply of %u bytes is too short",
			 len);
		return -1;
	}
	if (get32(m) != xid) {
		snprintf(why, whylen, "RPC XID 0x%08x, the call's is 0x%08x",
			 get32(m), xid);
		return -1;
	}
	if (get32(m + 4) != RPC_REPLY) {
		snprintf(why, whylen, "RPC msg_type %u, not REPLY",
			 get32(m + 4));
		return -1;
	}
	if (get32(m + 8) != RPC_MSG_ACCEPTED) {
		snprintf(why, whylen, "reply_stat %u (%s)", get32(m + 8),
			 get32(m + 8) == RPC_MSG_DENIED ? "MSG_DENIED" :
			 "unknown");
		return -1;
	}
	vlen = get32(m + 16);
	if (vlen > RPC_MAX_AUTH_BYTES) {
		snprintf(why, whylen, "verifier length %u exceeds %u", vlen,
			 RPC_MAX_AUTH_BYTES);
		return -1;
	}
	off = 20 + ((vlen + 3) & ~3U);
	if (len < off + 4) {
		snprintf(why, whylen, "RPC reply ends inside the verifier");
		return -1;
	}
	if (get32(m + off) != RPC_SUCCESS) {
		snprintf(why, whylen, "accept_stat %u (%s)", get32(m + off),
			 accept_stat_name(get32(m + off)));
		return -1;
	}
	return (int)(off + 4);
}

/* An RPC NULL reply: accepted, SUCCESS, and nothing after (void) */
static int check_null_reply(const struct ping *p, u32 xid, char *why,
			    size_t whylen)
{
	int off = rpc_accepted(p->rpc, p->rpc_len, xid, why, whylen);

	if (off < 0)
		return -1;
	if (p->rpc_len != (u32)off || p->write_len) {
		snprintf(why, whylen, "%u bytes after accept_stat of a NULL reply",
			 p->rpc_len - (u32)off + p->write_len);
		return -1;
	}
	return 0;
}

static void set_seg(struct rpcrdma2_seg *seg, u32 handle, u32 length,
		    const u8 *addr)
{
	seg->handle = handle;
	seg->length = length;
	seg->offset = (uintptr_t)addr;
}

/*
 * The bytes a returned chunk received. It must be the chunk we offered,
 * @size bytes at @addr in segments of at most CHUNK_SEG_MAX (RFC 8166
 * §3.4.6: the responder returns our handles and offsets with the lengths
 * it wrote), each length no longer than offered, and, so that the data
 * is contiguous, only the last segment written partly.
 */
static int returned_chunk(const struct rpcrdma2_chunk_lists *cl,
			  const struct rpcrdma2_chunk *ch, u32 handle,
			  const u8 *addr, u32 size, const char *what,
			  u32 *len, char *why, size_t whylen)
{
	u32 nsegs = (size + CHUNK_SEG_MAX - 1) / CHUNK_SEG_MAX, i, want;
	const struct rpcrdma2_seg *seg;

	if (ch->nsegs != nsegs) {
		snprintf(why, whylen, "the %s comes back with %u segments, we offered %u",
			 what, ch->nsegs, nsegs);
		return -1;
	}
	*len = 0;
	for (i = 0; i < nsegs; i++) {
		seg = &cl->segs[ch->first + i];
		want = size - i * CHUNK_SEG_MAX < CHUNK_SEG_MAX ?
		       size - i * CHUNK_SEG_MAX : CHUNK_SEG_MAX;
		if (seg->handle != handle ||
		    seg->offset != (uintptr_t)(addr + i * CHUNK_SEG_MAX)) {
			snprintf(why, whylen, "%s segment %u is 0x%08x@0x%llx, not 0x%08x@%p",
				 what, i + 1, seg->handle,
				 (unsigned long long)seg->offset, handle,
				 (const void *)(addr + i * CHUNK_SEG_MAX));
			return -1;
		}
		if (seg->length > want) {
			snprintf(why, whylen, "%s segment %u: %u bytes written, it holds %u",
				 what, i + 1, seg->length, want);
			return -1;
		}
		if (seg->length && *len != i * CHUNK_SEG_MAX) {
			snprintf(why, whylen, "the %s has a gap before segment %u",
				 what, i + 1);
			return -1;
		}
		*len += seg->length;
	}
	return 0;
}

/* Offer @size bytes at @addr as one chunk of CHUNK_SEG_MAX segments */
static void offer_chunk(struct rpcrdma2_chunk_lists *cl,
			struct rpcrdma2_chunk *ch, u32 handle, u8 *addr,
			u32 size)
{
	u32 off;

	ch->first = cl->nr_segs;
	ch->nsegs = 0;
	for (off = 0; off < size; off += CHUNK_SEG_MAX, ch->nsegs++)
		set_seg(&cl->segs[cl->nr_segs++], handle,
			size - off < CHUNK_SEG_MAX ? size - off : CHUNK_SEG_MAX,
			addr + off);
}

/*
 * Find the RPC reply: inline after RDMA_MSG / RDMA2_MSG, or in the
 * Reply chunk we offered after RDMA_NOMSG / RDMA2_NOMSG (RFC 8166
 * §3.5.3, §4.2.4); DDP data (READ data, READLINK's text) in the Write chunk we
 * offered. Sets p->rpc, p->rpc_len, p->write_len and p->via.
 */
static int reply_body(struct ping *p, const struct ping_call *call,
		      const struct rpcrdma2_hdr *h, const u8 *m, char *why,
		      size_t whylen)
{
	const struct rpcrdma2_chunk_lists *cl = &h->cl;
	const u8 *area = p->cbuf ? chunk_area(p, (u32)(call - p->calls)) :
			 NULL;
	u32 rlen = 0;

	p->write_len = 0;
	if (cl->nr_reads) {
		snprintf(why, whylen, "the reply carries a Read list");
		return -1;
	}
	if (cl->nr_writes && (!call->write_chunk || cl->nr_writes > 1)) {
		snprintf(why, whylen, "the reply returns %u Write chunks, the call offered %u",
			 cl->nr_writes, call->write_chunk);
		return -1;
	}
	if (cl->nr_writes &&
	    returned_chunk(cl, &cl->writes[0], call->handle,
			   area + CHUNK_WRITE_OFF, p->opts->write_len,
			   "Write chunk", &p->write_len, why, whylen))
		return -1;
	if (cl->has_reply && !call->reply_chunk) {
		snprintf(why, whylen, "the reply returns a Reply chunk the call never offered");
		return -1;
	}
	if (cl->has_reply &&
	    returned_chunk(cl, &cl->reply, call->handle,
			   area + CHUNK_REPLY_OFF, CHUNK_REPLY_SIZE,
			   "Reply chunk", &rlen, why, whylen))
		return -1;
	if (h->htype == RPCRDMA2_HT_MSG) {
		if (rlen) {
			snprintf(why, whylen, "%s with %u bytes in the Reply chunk too",
				 rpcrdma2_htype_name(h->vers, h->htype), rlen);
			return -1;
		}
		p->rpc = m + h->hdr_len;
		p->rpc_len = h->rpc_len;
		p->via = "inline";
		return 0;
	}
	if (h->htype == RPCRDMA2_HT_NOMSG && cl->has_reply) {
		p->rpc = area + CHUNK_REPLY_OFF;
		p->rpc_len = rlen;
		p->via = "Reply chunk";
		return 0;
	}
	snprintf(why, whylen, "reply type %s%s",
		 rpcrdma2_htype_name(h->vers, h->htype),
		 h->htype == RPCRDMA2_HT_NOMSG ? " without a Reply chunk" : "");
	return -1;
}

/*
 * The reply to the --readlink / --read COMPOUND (RFC 7530 §16.2.3):
 * NFS4_OK from every operation, then READLINK's linktext4 or READ's eof
 * and data, inline or (the bytes, their XDR padding removed: RFC 8166
 * §3.4.6) in the Write chunk. Copies the data to p->scratch and sets
 * p->data, p->data_len and p->eof.
 */
static int check_compound_reply(struct ping *p, const struct ping_call *call,
				char *why, size_t whylen)
{
	const u8 *m = p->rpc;
	u32 len = p->rpc_len, off, n, i, op, st, dl;
	int res = rpc_accepted(m, len, call->xid, why, whylen);
	bool found = false;

	if (res < 0)
		return -1;
	off = (u32)res;
	if (len < off + 8 || get32(m + off + 4) > len - off - 8)
		goto short_reply;
	dl = get32(m + off + 4);		/* the tag */
	off += 8 + ((dl + 3) & ~3U);
	if (len < off + 4)
		goto short_reply;
	n = get32(m + off);
	off += 4;
	for (i = 0; i < n; i++) {
		if (len < off + 8)
			goto short_reply;
		op = get32(m + off);
		st = get32(m + off + 4);
		off += 8;
		if (st) {
			snprintf(why, whylen, "COMPOUND op %u (%u) failed: NFS4 status %u",
				 i + 1, op, st);
			return -1;
		}
		if (op != p->opts->nfs_op)
			continue;
		if (op == NFS4_OP_WRITE) {
			/* WRITE4resok: count, committed, writeverf */
			if (len < off + 16)
				goto short_reply;
			dl = get32(m + off);
			if (p->w2_done > 1 || dl != p->opts->w2_len[p->w2_done]) {
				snprintf(why, whylen, "WRITE %u wrote %u bytes",
					 p->w2_done + 1, dl);
				return -1;
			}
			p->data_len += dl;
			p->w2_done++;
			off += 16;
			found = p->w2_done == 2;
			continue;
		}
		if (op == NFS4_OP_READ) {
			if (len < off + 4)
				goto short_reply;
			p->eof = get32(m + off);
			off += 4;
		}
		if (len < off + 4)
			goto short_reply;
		dl = get32(m + off);
		off += 4;
		if (p->write_len) {
			if (dl != p->write_len) {
				snprintf(why, whylen, "data length %u, the Write chunk received %u",
					 dl, p->write_len);
				return -1;
			}
			p->data = chunk_area(p, (u32)(call - p->calls)) +
				  CHUNK_WRITE_OFF;
		} else {
			if (dl > len - off || len - off - dl < (4 - dl % 4) % 4)
				goto short_reply;
			p->data = m + off;
			off += (dl + 3) & ~3U;
		}
		p->data_len = dl;
		found = true;
	}
	if (!found) {
		snprintf(why, whylen, "no op %u result in %u results",
			 p->opts->nfs_op, n);
		return -1;
	}
	if (off != len) {
		snprintf(why, whylen, "%u bytes after the COMPOUND results",
			 len - off);
		return -1;
	}
	if (p->opts->nfs_op == NFS4_OP_WRITE)
		return 0;
	/* keep it: the Receive buffer is reposted before we print it */
	if (p->data_len > CHUNK_CALL_MAX) {
		snprintf(why, whylen, "%u bytes of data", p->data_len);
		return -1;
	}
	memcpy(p->scratch, p->data, p->data_len);
	p->data = p->scratch;
	return 0;

short_reply:
	snprintf(why, whylen, "COMPOUND reply ends early (%u bytes)", len);
	return -1;
}

static void fuzz_connprop(struct ping *p, bool again);

/*
 * draft v2 §5.3.4: the server's properties. Also say where it came
 * (before or after the first reply granted credits) and how its fixed
 * words were filled in, which the draft leaves open.
 */
static void record_connprop(struct ping *p, const struct rpcrdma2_hdr *h)
{
	if (p->fz)
		fuzz_connprop(p, p->have_props);
	if (p->have_props)
		note(p, "connprop: another RDMA2_CONNPROP on this connection\n");
	p->have_props = true;
	p->props = h->props;
	note(p, "connprop: RBSIZ %u (%s), BRS RDMA2_RVREQSUP_%s (%s), credit field %u\n",
	     h->props.rbsiz, prop_state(&h->props, RPCRDMA2_PROPF_RBSIZ),
	     brs_name(h->props.brs),
	     prop_state(&h->props, RPCRDMA2_PROPF_BRS), h->credits);
	note(p, "connprop: xid 0x%08x, flags 0x%08x%s, %s the first reply\n",
	     h->xid, h->flags,
	     h->flags & RPCRDMA2_F_RESPONSE ? " RESPONSE" : "",
	     p->granted ? "after" : "before");
}

static void fuzz_note(struct ping *p, const u8 *m, u32 len);

/* RFC 8166 §4.5: a requester silently discards a reply in error */
static int discard(struct ping *p, const struct rpcrdma2_hdr *h,
		   const char *why)
{
	p->discarded++;
	ping_err("discarded a %s with xid 0x%08x: %s",
		 rpcrdma2_htype_name(h->vers, h->htype), h->xid, why);
	return 0;
}

/*
 * Classify one received message for the ping exchange. Returns 0 with
 * @msg filled in, or -1 on a failure that ends the run (said already).
 * Messages a requester discards (RFC 8166 §4.5) are counted, reported and
 * returned as RX_OTHER.
 */
static int classify(struct ping *p, const u8 *m, u32 len,
		    struct ping_msg *msg)
{
	struct rpcrdma2_hdr *h = &p->rhdr;
	struct rpcrdma2_reject rej;
	struct ping_call *call;
	char why[128];
	int rc;

	memset(msg, 0, sizeof(*msg));
	msg->kind = RX_OTHER;
	rc = rpcrdma2_decode(m, len, h, &rej);
	if (p->opts->verbose) {
		print_hex("received", m, len);
		if (len >= RPCRDMA2_FIXED_SIZE)
			print_hdr("  ", h, !rc);
		if (rc)
			printf("  codec: rejected, %s, reason %s\n",
			       rej.discard ? "discard" : "error reply",
			       rpcrdma2_reason_name(rej.reason));
	}
	if (rc) {
		if (p->fz) {
			fuzz_note(p, m, len);
			return 0;
		}
		p->discarded++;
		ping_err("discarded a %u-byte message the codec rejects (%s)", len,
			 rpcrdma2_reason_name(rej.reason));
		return 0;
	}

	if (h->vers == RPCRDMA2_VERS_2 && h->htype == RPCRDMA2_HT_CONNPROP) {
		record_connprop(p, h);
		return 0;
	}
	call = find_call(p, h->xid);
	if (!call && p->fz) {
		fuzz_note(p, m, len);
		return 0;
	}
	/*
	 * draft v2 §3.2: RPCRDMA2_F_RESPONSE clear marks a Call from the
	 * server, whose XID is the server's, whatever call of ours it may
	 * look like. Our RDMA2_CONNPROP said BRS NONE: we take none. (An
	 * RDMA2_ERROR decodes only with it set, or as the flagless RFC 8166
	 * layout of ERR_VERS.)
	 */
	if (h->vers == RPCRDMA2_VERS_2 && h->htype != RPCRDMA2_HT_ERROR &&
	    !(h->flags & RPCRDMA2_F_RESPONSE))
		return discard(p, h, "RPCRDMA2_F_RESPONSE clear: a reverse Call");
	if (!call)
		return discard(p, h, "no such call outstanding");
	msg->call = call;
	/*
	 * draft v2 §7.3: replies come in the version of the Call, and an
	 * error copies the Call's rdma_vers (RFC 8166 §4.5, draft v2
	 * §5.3.3). Any other is a header in error, which a requester
	 * silently discards (RFC 8166 §4.5): the call stays outstanding.
	 */
	if (h->vers != call->vers) {
		snprintf(why, sizeof(why), "version %u, its call's is %u",
			 h->vers, call->vers);
		return discard(p, h, why);
	}
	if (h->htype == RPCRDMA2_HT_ERROR) {
		if (h->err.code != RPCRDMA2_ERR_VERS) {
			ping_err("xid 0x%08x: server answered %s %s", h->xid,
				 rpcrdma2_htype_name(h->vers, h->htype),
				 rpcrdma2_errcode_name(h->vers, h->err.code));
			print_error_arm("error ", h->vers, &h->err);
			return -1;
		}
		msg->kind = RX_ERR_VERS;
		msg->vers_low = h->err.vers.low;
		msg->vers_high = h->err.vers.high;
		msg->legacy_layout = h->err.v1_layout;
		return 0;
	}
	if (reply_body(p, call, h, m, why, sizeof(why)) ||
	    (call->compound ? check_compound_reply(p, call, why, sizeof(why)) :
	     check_null_reply(p, call->xid, why, sizeof(why)))) {
		ping_err("xid 0x%08x: %s", h->xid, why);
		return -1;
	}
	msg->kind = RX_REPLY;
	msg->credits = h->credits;
	/*
	 * RFC 8166 §3.3.1: a grant "MUST NOT be zero, since such a value
	 * would result in deadlock". The reply itself is good: take it and
	 * one credit, as the in-tree client does (rpc_rdma.c).
	 */
	if (!h->credits) {
		if (!p->zero_grants++)
			note(p, "note: a grant of 0 credits (RFC 8166 §3.3.1) taken as 1\n");
		msg->credits = 1;
	}
	return 0;
}

/* RFC 4506 §4.10 opaque<>: length, bytes, zero padding */
static u8 *put_opaque(u8 *r, const void *data, u32 len)
{
	r = put32(r, len);
	memcpy(r, data, len);
	memset(r + len, 0, (4 - len % 4) % 4);
	return r + ((len + 3) & ~3U);
}

/* RFC 5531 §9: the call header up to the credential */
static u8 *put_call_header(u8 *r, u32 xid, u32 vers, u32 proc)
{
	r = put32(r, xid);
	r = put32(r, RPC_CALL);
	r = put32(r, RPC_VERSION);
	r = put32(r, NFS_PROGRAM);
	r = put32(r, vers);
	return put32(r, proc);
}

/*
 * RPC NULL with AUTH_NONE; with --long-call padded to that many bytes
 * (the server ignores what follows NULL's void arguments).
 */
static u32 build_null(const struct ping_opts *o, u32 xid, u8 *out)
{
	u8 *r = put_call_header(out, xid, o->nfs_vers, RPC_NULL_PROC);

	r = put32(r, RPC_AUTH_NONE);
	r = put32(r, 0);
	r = put32(r, RPC_AUTH_NONE);
	r = put32(r, 0);
	if (o->long_call > (u32)(r - out)) {
		memset(r, 0, o->long_call - (r - out));
		return o->long_call;
	}
	return (u32)(r - out);
}

/*
 * --readlink / --read: NFSv4.0 COMPOUND { PUTROOTFH, LOOKUP per name,
 * READLINK or READ } (RFC 7530 §16), AUTH_SYS as root (RFC 5531
 * Appendix A); READ of the first CHUNK_WRITE_SIZE bytes with the
 * anonymous stateid (RFC 7530 §9.1.4.3).
 */
/*
 * --write2's data: byte @i of the file. A multiplicative hash, so bytes
 * written at the wrong offset do not match by accident.
 */
static u8 w2_byte(u64 i)
{
	return (u8)((u32)(i * 2654435761U) >> 24);
}

static u32 xdr_align(u32 n)
{
	return (n + 3) & ~3U;
}

/*
 * --write2: two WRITEs whose data items are reduced to Read chunks
 * (RFC 8166 §3.4.5): each length stays inline, the Position is where the
 * data starts in the unreduced stream, which counts the data items (and
 * their roundup) before it. @pos gets the two Positions.
 */
static u8 *put_write2(const struct ping_opts *o, u8 *out, u8 *r, u32 *pos)
{
	u32 k, unreduced = 0;
	u64 off = 0;

	for (k = 0; k < 2; k++) {
		r = put32(r, NFS4_OP_WRITE);
		memset(r, 0, 16);		/* anonymous stateid */
		r += 16;
		r = put32(r, (u32)(off >> 32));
		r = put32(r, (u32)off);
		r = put32(r, NFS4_FILE_SYNC);
		r = put32(r, o->w2_len[k]);
		pos[k] = (u32)(r - out) + unreduced;
		unreduced += xdr_align(o->w2_len[k]);
		off += o->w2_len[k];
	}
	return r;
}

static int build_compound(const struct ping_opts *o, u32 xid, u8 *out,
			  u32 *len, u32 *pos)
{
	const char *name = o->path, *end;
	u32 n = 0, nl;
	u8 *r, *nops;

	r = put_call_header(out, xid, NFS4_VERSION, NFS4_PROC_COMPOUND);
	r = put32(r, RPC_AUTH_SYS);
	r = put32(r, 5 * 4 + ((sizeof(AUTH_SYS_MACHINE) - 1 + 3) & ~3U));
	r = put32(r, 0);			/* stamp */
	r = put_opaque(r, AUTH_SYS_MACHINE, sizeof(AUTH_SYS_MACHINE) - 1);
	r = put32(r, 0);			/* uid */
	r = put32(r, 0);			/* gid */
	r = put32(r, 0);			/* no auxiliary gids */
	r = put32(r, RPC_AUTH_NONE);
	r = put32(r, 0);
	r = put32(r, 0);			/* tag */
	r = put32(r, 0);			/* minorversion */
	nops = r;
	r += 4;
	r = put32(r, NFS4_OP_PUTROOTFH);
	for (;;) {
		while (*name == '/')
			name++;
		if (!*name)
			break;
		nl = (u32)strcspn(name, "/");
		end = name + nl;
		if (nl > NFS4_MAXNAME || ++n > NFS4_MAX_NAMES) {
			ping_err("PATH: at most %d names of at most %d bytes",
				 NFS4_MAX_NAMES, NFS4_MAXNAME);
			return -1;
		}
		r = put32(r, NFS4_OP_LOOKUP);
		r = put_opaque(r, name, nl);
		name = end;
	}
	if (o->nfs_op == NFS4_OP_WRITE) {
		r = put_write2(o, out, r, pos);
		put32(nops, n + 3);
		*len = (u32)(r - out);
		return 0;
	}
	r = put32(r, o->nfs_op);
	if (o->nfs_op == NFS4_OP_READ) {
		memset(r, 0, 16);		/* stateid: seqid, other */
		r += 16;
		r = put32(r, 0);		/* offset (hyper) */
		r = put32(r, 0);
		r = put32(r, CHUNK_WRITE_SIZE);	/* count */
	}
	put32(nops, n + 2);
	*len = (u32)(r - out);
	return 0;
}

/*
 * --inv: bind slot @slot's type 2 window over its chunk area with a
 * fresh key, behind a local invalidation when the server left the last
 * binding valid. Fills @wr (two entries) and returns the new handle.
 */
static u32 mw_prepare(struct ping *p, u32 slot, struct ibv_send_wr *wr,
		      struct ibv_send_wr **first)
{
	struct ibv_mw *mw = p->mw[slot];
	struct ibv_send_wr *bind = wr;
	u32 rkey = ibv_inc_rkey(mw->rkey);

	memset(wr, 0, 2 * sizeof(*wr));
	if (p->mw_bound[slot]) {
		wr[0].wr_id = WRID_MEM | slot;
		wr[0].opcode = IBV_WR_LOCAL_INV;
		wr[0].invalidate_rkey = mw->rkey;
		wr[0].next = &wr[1];
		bind = &wr[1];
	}
	bind->wr_id = WRID_MEM | slot;
	bind->opcode = IBV_WR_BIND_MW;
	bind->bind_mw.mw = mw;
	bind->bind_mw.rkey = rkey;
	bind->bind_mw.bind_info.mr = p->cmr;
	bind->bind_mw.bind_info.addr = (uintptr_t)chunk_area(p, slot);
	bind->bind_mw.bind_info.length = CHUNK_AREA_SIZE;
	bind->bind_mw.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_READ |
						  IBV_ACCESS_REMOTE_WRITE;
	*first = wr;
	return rkey;
}

/*
 * --read-segs: C Read chunks of S segments of L bytes of @area, back to
 * back at the end of the NULL header (their Positions count the chunks
 * before them, RFC 8166 §3.4.5), and the inline message padded with
 * zeros to reach the last Position, so that a responder reading
 * Positions as inline offsets accepts the call too. NULL ignores what
 * follows its void arguments. Returns the new inline length.
 */
static u32 add_read_segs(const struct ping_opts *o,
			 struct rpcrdma2_chunk_lists *cl, u32 handle,
			 u8 *area, u8 *rpc, u32 rpc_len)
{
	u32 c, i, clen = xdr_align(o->rs_segs * o->rs_len);
	u32 want = rpc_len + (o->rs_chunks - 1) * clen;
	u8 *at = area;

	for (c = 0; c < o->rs_chunks; c++) {
		for (i = 0; i < o->rs_segs; i++) {
			struct rpcrdma2_read_seg *rs = &cl->reads[cl->nr_reads++];

			rs->position = rpc_len + c * clen;
			set_seg(&rs->seg, handle, o->rs_len, at);
			at += o->rs_len;
		}
	}
	memset(rpc + rpc_len, 0, want - rpc_len);
	return want;
}

/*
 * --write2: the two data items, from the fixed pattern, each in a Read
 * chunk of its own at @pos; with --chunk-pad the chunk carries the
 * item's roundup (zeros) too.
 */
static void add_write2_chunks(const struct ping_opts *o,
			      struct rpcrdma2_chunk_lists *cl, u32 handle,
			      u8 *area, const u32 *pos)
{
	u8 *data[2] = { area, area + W2_DATA2_OFF };
	u32 k, i, n, off;
	u64 base = 0;

	for (k = 0; k < 2; k++) {
		n = o->w2_len[k];
		for (i = 0; i < n; i++)
			data[k][i] = w2_byte(base + i);
		memset(data[k] + n, 0, xdr_align(n) - n);
		if (o->chunk_pad)
			n = xdr_align(n);
		for (off = 0; off < n; off += CHUNK_SEG_MAX) {
			struct rpcrdma2_read_seg *rs = &cl->reads[cl->nr_reads++];

			rs->position = pos[k];
			set_seg(&rs->seg, handle,
				n - off < CHUNK_SEG_MAX ? n - off : CHUNK_SEG_MAX,
				data[k] + off);
		}
		base += o->w2_len[k];
	}
}

/*
 * Build and send one call from send slot @slot in @vers: RPC NULL, or
 * with @compound the COMPOUND of --readlink / --read. Inline (RDMA_MSG),
 * or with --long-call as a Long Call (RDMA_NOMSG and a Position-Zero
 * Read chunk: RFC 8166 §3.5.3), offering the Write and Reply chunks the
 * options ask for (§3.4.6-§3.4.7) and with --inv naming their handle in
 * rdma_inv_handle (draft v2 §3.3).
 */
static int send_call(struct ping *p, u32 slot, u32 vers, u32 seq,
		     bool compound)
{
	const struct ping_opts *o = p->opts;
	const struct rpcrdma2_limits lim = {
		.max_read_chunks = RS_MAX_CHUNKS,
		.max_write_chunks = 1,
		.max_segs = RS_MAX_SEGS,
	};
	struct ping_call *call = &p->calls[slot];
	struct rpcrdma2_read_seg reads[RS_MAX_CHUNKS * RS_MAX_SEGS];
	struct rpcrdma2_read_chunk read_chunks[RS_MAX_CHUNKS];
	struct rpcrdma2_chunk writes[1];
	struct rpcrdma2_seg segs[2 * RS_MAX_SEGS];
	struct ibv_send_wr mem[INV_WRS_PER_CALL - 1], *pre = NULL;
	struct rpcrdma2_hdr h = { 0 };
	bool long_call = o->long_call && p->cbuf;
	/* the first call settles the version: it must fit 1024 bytes */
	bool rsegs = o->rs_chunks && p->cbuf && p->negotiated && !compound;
	bool w2 = compound && o->nfs_op == NFS4_OP_WRITE && p->cbuf;
	bool offered = long_call || (p->cbuf && compound && o->write_chunk) ||
		       (p->cbuf && o->reply_chunk) || rsegs || w2;
	u8 *m = send_buf(p, slot), *area = NULL;
	u32 rpc_len, len, limit, handle = 0, off, pos[2];
	int hl;

	if (rpcrdma2_chunk_lists_init(&h.cl, &lim, reads, ARRAY_SIZE(reads),
				      read_chunks, ARRAY_SIZE(read_chunks),
				      writes, ARRAY_SIZE(writes), segs,
				      ARRAY_SIZE(segs)))
		return -1;
	h.xid = p->next_xid++;
	h.vers = vers;
	h.credits = o->credits;
	h.flags = 0;			/* a Call: RPCRDMA2_F_RESPONSE clear */
	if (compound) {
		if (build_compound(o, h.xid, p->scratch, &rpc_len, pos))
			return -1;
	} else {
		rpc_len = build_null(o, h.xid, p->scratch);
	}
	if (offered) {
		area = chunk_area(p, slot);
		handle = o->inv ? mw_prepare(p, slot, mem, &pre) :
			 p->cmr->rkey;
	}
	if (long_call) {
		memcpy(area, p->scratch, rpc_len);
		for (off = 0; off < rpc_len; off += CHUNK_SEG_MAX) {
			struct rpcrdma2_read_seg *rs = &reads[h.cl.nr_reads++];

			rs->position = 0;
			set_seg(&rs->seg, handle,
				rpc_len - off < CHUNK_SEG_MAX ?
				rpc_len - off : CHUNK_SEG_MAX, area + off);
		}
	}
	if (rsegs)
		rpc_len = add_read_segs(o, &h.cl, handle, area, p->scratch,
					rpc_len);
	if (w2)
		add_write2_chunks(o, &h.cl, handle, area, pos);
	if (offered && compound && o->write_chunk) {
		offer_chunk(&h.cl, &writes[0], handle, area + CHUNK_WRITE_OFF,
			    o->write_len);
		h.cl.nr_writes = 1;
	}
	if (offered && o->reply_chunk) {
		offer_chunk(&h.cl, &h.cl.reply, handle, area + CHUNK_REPLY_OFF,
			    CHUNK_REPLY_SIZE);
		h.cl.has_reply = true;
	}
	if (vers == RPCRDMA2_VERS_2 && offered && o->inv)
		h.cl.inv_handle = handle;
	/* RDMA_MSG / RDMA2_MSG and RDMA_NOMSG / RDMA2_NOMSG share values */
	h.htype = long_call ? RPCRDMA2_HT_NOMSG : RPCRDMA2_HT_MSG;
	hl = rpcrdma2_encode(&h, m, o->size);
	if (hl < 0) {
		ping_err("cannot encode the transport header: %s", strerror(-hl));
		return -1;
	}
	len = (u32)hl;
	if (!long_call) {
		if (rpc_len > o->size - len) {
			ping_err("a call of %u bytes does not fit --size %u",
				 len + rpc_len, o->size);
			return -1;
		}
		memcpy(m + len, p->scratch, rpc_len);
		len += rpc_len;
	}
	/* before a reply fixes the version, the v1 default (draft v2 §7) */
	limit = p->granted ? p->send_thresh : FIRST_MSG_MAX;
	if (len > limit) {
		ping_err("call of %u bytes exceeds the inline threshold %u",
			 len, limit);
		return -1;
	}
	call->xid = h.xid;
	call->vers = vers;
	call->seq = seq;
	call->compound = compound;
	call->long_call = long_call;
	call->write_chunk = h.cl.nr_writes;
	call->reply_chunk = h.cl.has_reply;
	call->handle = handle;
	call->inv_offered = offered && o->inv;
	now(&call->t0);
	if (post_send_wr(p, slot, len, pre, NULL))
		return -1;
	if (pre) {
		/* a type 2 window's key is ours to track */
		p->mw[slot]->rkey = handle;
		p->mw_bound[slot] = true;
	}
	call->busy = true;
	return 0;
}

/*
 * draft v2 §5.3.4: once version 2 is settled, our properties: RBSIZ is
 * our Receive buffer size, BRS none (we serve no reverse-direction
 * calls). The requester sends it right after the first reply, not first:
 * a v1-only server answers it ERR_VERS, and only a reply to a call tells
 * the client its version (§7); it carries our credit request and no
 * flags. The --listen responder sends it before its first reply, with
 * its grant and RPCRDMA2_F_RESPONSE (§3.2), as svcrdma2 does.
 */
int send_connprop(struct ping *p, u32 credits, u32 flags)
{
	const struct ping_opts *o = p->opts;
	struct rpcrdma2_limits none = { 0 };
	struct rpcrdma2_hdr h = { 0 };
	int slot, hl;

	slot = wait_slot(p);
	if (slot < 0)
		return -1;
	rpcrdma2_chunk_lists_init(&h.cl, &none, NULL, 0, NULL, 0, NULL, 0, NULL,
				  0);
	h.vers = RPCRDMA2_VERS_2;
	h.credits = credits;
	h.htype = RPCRDMA2_HT_CONNPROP;
	h.flags = flags;
	h.props.present = RPCRDMA2_PROPF_RBSIZ | RPCRDMA2_PROPF_BRS;
	h.props.rbsiz = adv_recv_size(o);
	h.props.brs = RPCRDMA2_RVREQSUP_NONE;
	hl = rpcrdma2_encode(&h, send_buf(p, (u32)slot), o->size);
	if (hl < 0) {
		ping_err("cannot encode RDMA2_CONNPROP: %s", strerror(-hl));
		return -1;
	}
	note(p, "connprop sent: RBSIZ %u, BRS RDMA2_RVREQSUP_NONE\n",
	     h.props.rbsiz);
	return post_send(p, (u32)slot, (u32)hl);
}

/*
 * A reply by Send With Invalidate must invalidate the handle its call
 * offered for that (RFC 8797 §4.1: a handle of that XID only; draft v2
 * §3.3: rdma_inv_handle). With --inv every reply must come that way
 * whenever the server may send it: in v2 always, in v1 when both R bits
 * are set.
 */
static int check_invalidation(struct ping *p, const struct ping_msg *msg,
			      bool inv, u32 rkey)
{
	const struct ping_call *call = msg->call;
	bool may;

	if (inv && (!call || !call->inv_offered || rkey != call->handle)) {
		ping_err("a message arrived invalidating 0x%08x, which %s",
			 rkey, call && call->inv_offered ?
			 "its call did not name" : "we never offered");
		return -1;
	}
	may = call && call->vers == RPCRDMA2_VERS_2 ? true :
	      rpcrdma2_cm_pdata_reminv_ok(p->peer_rc ? NULL : &p->peer,
					  our_reminv(p->opts));
	if (inv) {
		p->mw_bound[call - p->calls] = false;
		p->invalidated++;
		/* the in-tree svcrdma does so; the handle was ours to lose */
		if (!may && !p->inv_unasked++)
			note(p, "note: %s although its R bit is clear (RFC 8797 §4.1)\n",
			     "the server used Send With Invalidate");
		return 0;
	}
	if (msg->kind == RX_REPLY && call->inv_offered && may) {
		ping_err("xid 0x%08x: the reply did not invalidate 0x%08x",
			 call->xid, call->handle);
		return -1;
	}
	return 0;
}

/*
 * Wait for the next message that concerns one of our calls, handling
 * the rest (CONNPROP, discards) on the way, and repost its Receive.
 */
static int wait_msg(struct ping *p, struct ping_msg *msg)
{
	struct timespec dl;
	struct ibv_wc wc;
	bool inv;
	u32 idx;
	int rc;

	deadline_in(&dl, p->opts->timeout_ms);
	for (;;) {
		rc = next_recv(p, &dl, &wc);
		if (rc == -ETIMEDOUT) {
			note_err(p, "no reply within %.1f s%s",
				 p->opts->timeout_ms / 1000.0,
				 p->discarded ? " (messages were discarded)" : "");
			return -1;
		}
		if (rc == -ECONNRESET) {
			note_err(p, "the server disconnected");
			return -1;
		}
		if (rc)
			return -1;
		/*
		 * rxe reports Send With Invalidate with the kernel's
		 * IB_WC_WITH_INVALIDATE bit (1 << 2, libibverbs'
		 * IBV_WC_IP_CSUM_OK), never IBV_WC_WITH_INV: accept both.
		 */
		inv = wc.wc_flags & (IBV_WC_WITH_INV | IBV_WC_IP_CSUM_OK);
		idx = (u32)wc.wr_id;
		rc = classify(p, p->buf + (size_t)idx * p->opts->size,
			      wc.byte_len, msg);
		if (post_recv(p, idx) || rc ||
		    check_invalidation(p, msg, inv, wc.invalidated_rkey))
			return -1;
		if (msg->kind != RX_OTHER)
			return 0;
	}
}

/* Thresholds once the version is known (RFC 8797 §4.2, draft v2 §7) */
static void set_thresholds(struct ping *p)
{
	u32 def = p->vers == RPCRDMA2_VERS_2 ? RPCRDMA2_V2_DEF_INLINE :
		  RPCRDMA2_V1_DEF_INLINE;

	rpcrdma2_cm_pdata_negotiate(p->peer_rc ? NULL : &p->peer,
				    p->opts->size, adv_recv_size(p->opts), def,
				    &p->send_thresh, &p->recv_thresh);
}

static void reply_done(struct ping *p, struct ping_call *call,
		       const struct ping_msg *msg, double *rtt)
{
	struct timespec t;

	now(&t);
	*rtt = ms_between(&call->t0, &t);
	call->busy = false;
	p->replies++;
	p->granted = msg->credits;
}

/*
 * draft v2 §7: one message until a valid non-error reply grants credits.
 * ERR_VERS to a version 2 call whose range includes 1 switches this
 * connection to version 1 and sends the call again.
 */
static int negotiate_version(struct ping *p)
{
	const struct ping_opts *o = p->opts;
	struct ping_msg msg;
	double rtt;
	int slot;

	p->vers = p->first_vers;
	for (;;) {
		note(p, "negotiate: NULL call as %s, rdma_vers %u\n",
		     rpcrdma2_htype_name(p->vers, RPCRDMA2_HT_MSG), p->vers);
		slot = wait_slot(p);
		if (slot < 0 || send_call(p, (u32)slot, p->vers, 0, false) ||
		    wait_msg(p, &msg))
			return -1;
		if (msg.kind == RX_REPLY)
			break;
		msg.call->busy = false;
		note(p, "negotiate: ERR_VERS, server supports versions %u..%u%s\n",
		     msg.vers_low, msg.vers_high,
		     msg.legacy_layout ? " (RFC 8166 layout)" : "");
		if (p->vers == RPCRDMA2_VERS_2 && !p->fell_back &&
		    msg.vers_low <= RPCRDMA2_VERS_1 &&
		    msg.vers_high >= RPCRDMA2_VERS_1) {
			note(p, "fallback: version 2 -> 1 on this connection\n");
			p->vers = RPCRDMA2_VERS_1;
			p->fell_back = true;
			continue;
		}
		ping_err("no transport version in common: we speak %u..%u, the server %u..%u",
			 RPCRDMA2_VERS_1, o->vers, msg.vers_low, msg.vers_high);
		return -1;
	}
	reply_done(p, msg.call, &msg, &rtt);
	set_thresholds(p);
	p->negotiated = true;
	if (p->vers == RPCRDMA2_VERS_2 && !p->fz &&
	    send_connprop(p, o->credits, 0))
		return -1;
	note(p, "negotiate: NULL reply in %.3f ms\n", rtt);
	note(p, "version: %u%s\n", p->vers,
	     p->fell_back ? " (fell back from 2)" : "");
	note(p, "inline threshold: send %u, receive %u\n", p->send_thresh,
	     p->recv_thresh);
	note(p, "remote invalidation: ours %s, server's %s: %s\n",
	     our_reminv(o) ? "yes" : "no", p->peer.reminv ? "yes" : "no",
	     rpcrdma2_cm_pdata_reminv_ok(p->peer_rc ? NULL : &p->peer,
					 our_reminv(o)) ?
	     "server may use Send With Invalidate" : "not used");
	note(p, "credits: requested %u, granted %u\n", o->credits, p->granted);
	if (!p->have_props && p->vers == RPCRDMA2_VERS_2)
		note(p, "connprop: none received\n");
	return 0;
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

	if (p->opts->overrun)
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
			slot = wait_slot(p);
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
			ping_err("xid 0x%08x: ERR_VERS after the version was settled",
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
static bool raw_matches(const struct ping_opts *o, const u8 *m, u32 len)
{
	if (len != o->expect_len)
		return false;
	if (o->ignore_credits && len >= RPCRDMA2_FIXED_SIZE)
		return !memcmp(m, o->expect, 8) &&
		       !memcmp(m + 12, o->expect + 12, len - 12);
	return !memcmp(m, o->expect, len);
}

/* Check the first non-CONNPROP message back against --expect-* */
static int raw_check(struct ping *p, const u8 *m, u32 len)
{
	const struct ping_opts *o = p->opts;
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
	if (o->expect_none) {
		ping_err("expected no reply, got %u bytes", len);
		return -1;
	}
	if (!o->expect)
		return 0;
	if (!raw_matches(o, m, len)) {
		print_hex("expected", o->expect, o->expect_len);
		ping_err("the reply differs from --expect-hex");
		return -1;
	}
	printf("reply matches --expect-hex%s\n",
	       o->ignore_credits ? " (credit word ignored)" : "");
	return 0;
}

/* --send-hex or --write-imm: one raw message (raw_run()) */
static bool raw_mode(const struct ping_opts *o)
{
	return o->send_msg || o->write_imm;
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

	if (o->after_negotiate && negotiate_version(p))
		return -1;
	slot = wait_slot(p);
	if (slot < 0)
		return -1;
	if (o->write_imm) {
		/* no rkey for a 0-byte Write (IBA C9-88); it takes a Receive */
		struct ibv_send_wr wr = {
			.opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
			.imm_data = htonl(0x5a5a5a5a),
		};

		if (post_wr(p, (u32)slot, &wr))
			return -1;
		printf("raw: sent a 0-byte RDMA Write With Immediate%s\n",
		       p->negotiated ? " after the NULL exchange" :
		       " as the first message on the connection");
	} else {
		memcpy(send_buf(p, (u32)slot), o->send_msg, o->send_len);
		if (post_send(p, (u32)slot, (u32)o->send_len))
			return -1;
		printf("raw: sent %zu bytes%s\n", o->send_len,
		       p->negotiated ?
		       " after the NULL exchange, same connection" :
		       " as the first message on the connection");
	}
	deadline_in(&dl, o->timeout_ms);
	for (;;) {
		rc = next_recv(p, &dl, &wc);
		if (rc == -ETIMEDOUT || rc == -ECONNRESET) {
			printf("no reply%s\n", rc == -ECONNRESET ?
			       " (the server disconnected)" : "");
			if (o->expect && !o->expect_none) {
				ping_err("expected a reply, got none");
				return -1;
			}
			goto then_ping;
		}
		if (rc)
			return -1;
		idx = (u32)wc.wr_id;
		m = p->buf + (size_t)idx * o->size;
		len = wc.byte_len;
		rc = rpcrdma2_decode(m, len, h, &rej);
		if (!rc && h->vers == RPCRDMA2_VERS_2 &&
		    h->htype == RPCRDMA2_HT_CONNPROP) {
			record_connprop(p, h);
			if (post_recv(p, idx))
				return -1;
			continue;
		}
		break;
	}
	rc = raw_check(p, m, len);
	if (post_recv(p, idx) || rc)
		return -1;
then_ping:
	if (!o->then_ping)
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
	slot = wait_slot(p);
	if (slot < 0 || send_call(p, (u32)slot, p->vers, 1, true) ||
	    wait_msg(p, &msg))
		return -1;
	if (msg.kind != RX_REPLY) {
		ping_err("xid 0x%08x: ERR_VERS after the version was settled",
			 msg.call->xid);
		return -1;
	}
	reply_done(p, msg.call, &msg, &rtt);
	if (o->nfs_op == NFS4_OP_WRITE) {
		printf("write2 %s: %u+%u bytes written, chunks %s padding, ",
		       o->path, o->w2_len[0], o->w2_len[1],
		       o->chunk_pad ? "with" : "without");
		printf("version %u, time=%.3f ms\n", p->vers, rtt);
		return 0;
	}
	printf("%s %s: %u bytes%s, reply %s%s%s%s, time=%.3f ms\n",
	       o->nfs_op == NFS4_OP_READ ? "read" : "readlink", o->path,
	       p->data_len,
	       o->nfs_op == NFS4_OP_READ ? (p->eof ? ", eof" : ", not eof") :
	       "", p->via, p->write_len ? ", data in the Write chunk" : "",
	       msg.call->long_call ? ", sent as a Long Call" : "",
	       msg.call->inv_offered && !p->mw_bound[msg.call - p->calls] ?
	       ", handle invalidated by the server" : "", rtt);
	printf("data: %.*s\n", (int)p->data_len, (const char *)p->data);
	return 0;
}

/* Why rpcrdma2_cm_pdata_parse() refused the peer's private data */
/* ---- credit and inline-size abuse (--flood, --fat-reply) ------------- */

/* --fat-reply: segments per Write chunk; svcrdma2 takes 4 chunks of 32 */
#define FAT_CHUNK_SEGS		32
#define FAT_MAX_CHUNKS		4

/*
 * Encode an RDMA_MSG / RDMA2_MSG NULL call with @h's chunk lists into
 * send slot @slot and post it. Returns its length, or -1.
 */
static int post_null_msg(struct ping *p, u32 slot, struct rpcrdma2_hdr *h)
{
	u8 *m = send_buf(p, slot);
	u32 rpc_len;
	int hl;

	h->vers = p->vers;
	h->credits = p->opts->credits;
	h->htype = RPCRDMA2_HT_MSG;
	h->flags = 0;
	hl = rpcrdma2_encode(h, m, p->opts->size);
	if (hl < 0) {
		ping_err("cannot encode the transport header: %s", strerror(-hl));
		return -1;
	}
	rpc_len = build_null(p->opts, h->xid, p->scratch);
	if ((u32)hl + rpc_len > p->send_thresh) {
		ping_err("a call of %u bytes exceeds the inline threshold %u",
			 (u32)hl + rpc_len, p->send_thresh);
		return -1;
	}
	memcpy(m + hl, p->scratch, rpc_len);
	if (post_send(p, slot, (u32)hl + rpc_len))
		return -1;
	return hl + (int)rpc_len;
}

/*
 * --flood N: after the NULL exchange, N NULL calls posted as fast as the
 * Send Queue takes them, never waiting for a reply, so far more are
 * outstanding than the server granted (RFC 8166 §3.3.1 forbids it). The
 * server may hold them back (RNR) or close the connection; either way it
 * must not grow without bound, and every reply it does send must be
 * right. Exit 0 only when all N are answered. --flood-until F: a test
 * that must act while the flood lasts ends it by creating F (the calls
 * sent until then are N).
 */
#define FLOOD_MAX 1000000
static int flood_run(struct ping *p)
{
	const struct ping_opts *o = p->opts;
	u32 n = o->flood_until ? FLOOD_MAX : o->flood;
	u32 sent = 0, answered = 0, peak = 0, base, i, idx;
	struct rpcrdma2_hdr h = { 0 };
	struct rpcrdma2_reject rej;
	struct timespec dl, soon, t0, t1;
	u8 *seen;
	struct ibv_wc wc;
	char why[128];
	int slot, rc, ret = -1;

	if (negotiate_version(p))
		return -1;
	seen = calloc(n, 1);
	if (!seen)
		return -1;
	rpcrdma2_chunk_lists_init(&h.cl, &(struct rpcrdma2_limits){ 0 },
				  NULL, 0, NULL, 0, NULL, 0, NULL, 0);
	base = p->next_xid;
	p->next_xid += n;
	now(&t0);
	deadline_in(&dl, o->timeout_ms);
	while (answered < n) {
		/*
		 * --flood-until: the calls sent so far are all there will be
		 * once N went and the file is there
		 */
		if (o->flood_until && sent < n && sent >= o->flood &&
		    !access(o->flood_until, F_OK))
			n = sent;
		/* every free send slot gets a call: replies are not awaited */
		while (sent < n) {
			if (reap_sends(p))
				goto out;
			slot = free_slot(p);
			if (slot < 0)
				break;
			h.xid = base + sent;
			if (post_null_msg(p, (u32)slot, &h) < 0)
				goto out;
			sent++;
			if (sent - answered > peak)
				peak = sent - answered;
		}
		/* while calls are left to send, look for free slots often */
		if (sent < n)
			deadline_in(&soon, 1);
		rc = next_recv(p, sent < n ? &soon : &dl, &wc);
		if (rc == -ETIMEDOUT && sent < n && ms_left(&dl))
			continue;
		if (rc == -ETIMEDOUT) {
			ping_err("flood: no reply within %.1f s",
				 o->timeout_ms / 1000.0);
			goto out;
		}
		if (rc)
			goto out;
		idx = (u32)wc.wr_id;
		rc = rpcrdma2_decode(p->buf + (size_t)idx * o->size,
				     wc.byte_len, &p->rhdr, &rej);
		if (post_recv(p, idx))
			goto out;
		i = p->rhdr.xid - base;
		if (rc || p->rhdr.htype != RPCRDMA2_HT_MSG || i >= n ||
		    seen[i] || p->rhdr.vers != p->vers) {
			ping_err("flood: an unexpected message (%u bytes, xid 0x%08x, %s)",
				 wc.byte_len, p->rhdr.xid,
				 rc ? "rejected by the codec" :
				 rpcrdma2_htype_name(p->rhdr.vers,
						     p->rhdr.htype));
			goto out;
		}
		if (rpc_accepted(p->buf + (size_t)idx * o->size +
				 p->rhdr.hdr_len, p->rhdr.rpc_len,
				 p->rhdr.xid, why, sizeof(why)) < 0) {
			ping_err("flood: xid 0x%08x: %s", p->rhdr.xid, why);
			goto out;
		}
		seen[i] = 1;
		answered++;
		p->granted = p->rhdr.credits;
		deadline_in(&dl, o->timeout_ms);
	}
	ret = 0;
out:
	now(&t1);
	printf("flood: %u of %u calls sent, %u answered, ", sent, n, answered);
	printf("at most %u unanswered against a grant of %u, %.0f ms\n",
	       peak, p->granted, ms_between(&t0, &t1));
	if (ret)
		printf("flood: %s after %u replies\n",
		       p->disconnected ? "the server closed the connection" :
		       p->qp_failed ? "our QP failed" : "stopped", answered);
	else
		printf("flood: every call answered, the connection still up\n");
	free(seen);
	return ret;
}

/*
 * --fat-reply N: after the NULL exchange, one NULL call offering a Write
 * list of N segments in chunks of up to FAT_CHUNK_SEGS and a Reply chunk,
 * all real memory. A NULL reply puts nothing in the Write chunks, but
 * the reply's header must return them (RFC 8166 §3.4.6), and with them
 * it may exceed the receive size we advertised (--recv-size): then no
 * reply can be sent, only an error. The Receive buffers are --size
 * bytes, so a message longer than we advertised arrives and is caught
 * here rather than failing the Receive. Exit 0 when whatever came back
 * fits what we advertised.
 */
static int fat_reply_run(struct ping *p)
{
	const struct ping_opts *o = p->opts;
	const struct rpcrdma2_limits lim = {
		.max_write_chunks = FAT_MAX_CHUNKS,
		.max_segs = FAT_CHUNK_SEGS,
	};
	struct rpcrdma2_chunk writes[FAT_MAX_CHUNKS];
	struct rpcrdma2_seg segs[(FAT_MAX_CHUNKS + 1) * FAT_CHUNK_SEGS];
	struct rpcrdma2_hdr h = { 0 };
	u32 seg_len = CHUNK_WRITE_SIZE / o->fat_reply, i, limit, idx, xid;
	struct rpcrdma2_reject rej;
	struct timespec dl;
	const u8 *m;
	struct ibv_wc wc;
	u8 *area;
	int slot, len, rc;

	if (negotiate_version(p))
		return -1;
	if (rpcrdma2_chunk_lists_init(&h.cl, &lim, NULL, 0, NULL, 0, writes,
				      FAT_MAX_CHUNKS, segs, ARRAY_SIZE(segs)))
		return -1;
	slot = wait_slot(p);
	if (slot < 0)
		return -1;
	area = chunk_area(p, (u32)slot);
	for (i = 0; i < o->fat_reply; i++) {
		if (i % FAT_CHUNK_SEGS == 0) {
			writes[h.cl.nr_writes].first = h.cl.nr_segs;
			writes[h.cl.nr_writes++].nsegs = 0;
		}
		writes[h.cl.nr_writes - 1].nsegs++;
		set_seg(&segs[h.cl.nr_segs++], p->cmr->rkey, seg_len,
			area + CHUNK_WRITE_OFF + i * seg_len);
	}
	offer_chunk(&h.cl, &h.cl.reply, p->cmr->rkey, area + CHUNK_REPLY_OFF,
		    CHUNK_REPLY_SIZE);
	h.cl.has_reply = true;
	h.xid = p->next_xid++;
	len = post_null_msg(p, (u32)slot, &h);
	if (len < 0)
		return -1;
	printf("fat-reply: call of %u bytes, %u Write segments in %u chunks ",
	       (u32)len, o->fat_reply, h.cl.nr_writes);
	printf("and a Reply chunk; our receive size %u\n", adv_recv_size(o));

	limit = adv_recv_size(o);
	deadline_in(&dl, o->timeout_ms);
	rc = next_recv(p, &dl, &wc);
	if (rc) {
		printf("fat-reply: %s\n", rc == -ETIMEDOUT ? "no reply" :
		       rc == -ECONNRESET ? "the server disconnected" :
		       "the connection failed");
		return -1;
	}
	idx = (u32)wc.wr_id;
	if (wc.byte_len > limit) {
		printf("fat-reply: FAIL: the server sent %u bytes, over our receive size %u\n",
		       wc.byte_len, limit);
		return -1;
	}
	/* the decoder gets room for the whole Write list coming back */
	xid = h.xid;
	if (rpcrdma2_chunk_lists_init(&h.cl, &lim, NULL, 0, NULL, 0, writes,
				      FAT_MAX_CHUNKS, segs, ARRAY_SIZE(segs)))
		return -1;
	m = p->buf + (size_t)idx * o->size;
	if (o->verbose)
		print_hex("received", m, wc.byte_len);
	rc = rpcrdma2_decode(m, wc.byte_len, &h, &rej);
	if (post_recv(p, idx))
		return -1;
	if (rc) {
		printf("fat-reply: %u bytes the codec rejects (%s)\n",
		       wc.byte_len, rpcrdma2_reason_name(rej.reason));
		return -1;
	}
	if (h.xid != xid || h.vers != p->vers) {
		printf("fat-reply: %u bytes for xid 0x%08x version %u, not ours\n",
		       wc.byte_len, h.xid, h.vers);
		return -1;
	}
	if (h.htype == RPCRDMA2_HT_ERROR)
		printf("fat-reply: %u bytes: %s %s\n", wc.byte_len,
		       rpcrdma2_htype_name(h.vers, h.htype),
		       rpcrdma2_errcode_name(h.vers, h.err.code));
	else
		printf("fat-reply: %u bytes: %s\n", wc.byte_len,
		       rpcrdma2_htype_name(h.vers, h.htype));
	return 0;
}

const char *pdata_error(int rc)
{
	switch (rc) {
	case -ENOENT:
		return "no RFC 8797 Format Identifier";
	case -EMSGSIZE:
		return "the message overruns the private data";
	case -EPROTO:
		return "unknown private-data version";
	}
	return "unknown error";
}

static void print_pdata(const struct ping *p)
{
	const struct ping_opts *o = p->opts;

	printf("connected: %s port %u\n", o->host, o->port);
	printf("private data sent: R %d, send %u, receive %u\n",
	       our_reminv(o),
	       rpcrdma2_cm_pdata_size_decode(rpcrdma2_cm_pdata_size_encode(o->size)),
	       rpcrdma2_cm_pdata_size_decode(rpcrdma2_cm_pdata_size_encode(adv_recv_size(o))));
	if (!p->peer_rc) {
		printf("private data received (%u bytes): version %u, R %d, send %u, receive %u\n",
		       p->peer_len, p->peer.version, p->peer.reminv,
		       p->peer.send_size, p->peer.recv_size);
		return;
	}
	printf("private data received (%u bytes): none valid (%s): RFC 8797 §5.1 defaults\n",
	       p->peer_len, pdata_error(p->peer_rc));
}

/* "--name" or "-c" of the option getopt_long() just returned */
static void opt_name(char *buf, size_t len, int c,
		     const struct option *lopts, int li)
{
	if (li >= 0)
		snprintf(buf, len, "--%s", lopts[li].name);
	else
		snprintf(buf, len, "-%c", c);
}

static int usage_error(const char *bad)
{
	if (*bad)
		ping_err("%s", bad);
	fprintf(stderr, "Usage: " PROG " [options] HOST (--help: the options)\n");
	return -1;
}

/*
 * --listen: no HOST and none of the requester's options; --timeout is
 * how long to serve, not a wait for one reply.
 */
static int parse_listen_args(int argc, char **argv, struct ping_opts *o,
			     const char *requester_opt)
{
	char msg[80];

	if (*requester_opt) {
		snprintf(msg, sizeof(msg), "--listen excludes %s", requester_opt);
		return usage_error(msg);
	}
	if (argc != optind)
		return usage_error("--listen takes no HOST (--bind ADDR)");
	if (o->fuzz && o->mode)
		return usage_error("--fuzz and --hostile exclude each other");
	if (!o->fuzz && (o->have_seed || o->corpus))
		return usage_error("--seed and --corpus need --fuzz");
	o->listen_ms = o->have_timeout ? o->timeout_ms : 0;
	o->timeout_ms = DEF_TIMEOUT_MS;
	return 0;
}

static int parse_args(int argc, char **argv, struct ping_opts *o)
{
	enum { O_VERS = 256, O_CREDITS, O_SIZE, O_NFSVERS, O_SEND, O_EXPECT,
	       O_NONE, O_IGNCRED, O_AFTER, O_THEN, O_OVERRUN, O_FUZZ, O_SEED,
	       O_CORPUS, O_LONG, O_READLINK, O_READ, O_WCHUNK, O_WLEN,
	       O_RCHUNK, O_INV, O_LISTEN, O_BIND, O_HOSTILE, O_MAXCONNS,
	       O_INVRKEY, O_HOLD, O_WRITE_IMM, O_WRITE2, O_WLENS, O_CPAD,
	       O_RSEGS, O_NOREPOST, O_FLOOD, O_FLOOD_UNTIL, O_FAT, O_RSIZE };
	static const struct option lopts[] = {
		{ "vers", required_argument, NULL, O_VERS },
		{ "port", required_argument, NULL, 'p' },
		{ "count", required_argument, NULL, 'c' },
		{ "window", required_argument, NULL, 'w' },
		{ "credits", required_argument, NULL, O_CREDITS },
		{ "size", required_argument, NULL, O_SIZE },
		{ "nfs-vers", required_argument, NULL, O_NFSVERS },
		{ "timeout", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "send-hex", required_argument, NULL, O_SEND },
		{ "expect-hex", required_argument, NULL, O_EXPECT },
		{ "expect-no-reply", no_argument, NULL, O_NONE },
		{ "ignore-credits", no_argument, NULL, O_IGNCRED },
		{ "after-negotiate", no_argument, NULL, O_AFTER },
		{ "then-ping", no_argument, NULL, O_THEN },
		{ "overrun", no_argument, NULL, O_OVERRUN },
		{ "fuzz", required_argument, NULL, O_FUZZ },
		{ "seed", required_argument, NULL, O_SEED },
		{ "corpus", required_argument, NULL, O_CORPUS },
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
		{ "listen", no_argument, NULL, O_LISTEN },
		{ "bind", required_argument, NULL, O_BIND },
		{ "hostile", required_argument, NULL, O_HOSTILE },
		{ "max-conns", required_argument, NULL, O_MAXCONNS },
		{ "inv-rkey", required_argument, NULL, O_INVRKEY },
		{ "hold", required_argument, NULL, O_HOLD },
		{ "write-imm", no_argument, NULL, O_WRITE_IMM },
		{ "flood", required_argument, NULL, O_FLOOD },
		{ "flood-until", required_argument, NULL, O_FLOOD_UNTIL },
		{ "fat-reply", required_argument, NULL, O_FAT },
		{ "recv-size", required_argument, NULL, O_RSIZE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char requester_opt[32] = "", listen_opt[32] = "", msg[80];
	const char *bad = NULL;
	int c, li = -1, mode;

	while ((c = getopt_long(argc, argv, "p:c:w:t:vh", lopts, &li)) != -1) {
		/* which side an option belongs to, for the checks below */
		if (c == O_BIND || c == O_HOSTILE || c == O_MAXCONNS ||
		    c == O_INVRKEY)
			opt_name(listen_opt, sizeof(listen_opt), c, lopts, li);
		else if (c != O_LISTEN && c != 'p' && c != O_CREDITS &&
			 c != O_SIZE && c != 't' && c != 'v' && c != 'h' &&
			 c != O_FUZZ && c != O_SEED && c != O_CORPUS)
			opt_name(requester_opt, sizeof(requester_opt), c, lopts,
				 li);
		li = -1;
		switch (c) {
		case O_VERS:
			if (parse_u32(optarg, 1, 2, &o->vers))
				bad = "--vers must be 1 or 2";
			break;
		case 'p':
			if (parse_u32(optarg, 1, 65535, &o->port))
				bad = "bad --port";
			break;
		case 'c':
			if (parse_u32(optarg, 0, 1000000, &o->count))
				bad = "bad --count";
			break;
		case 'w':
			if (parse_u32(optarg, 1, MAX_WINDOW, &o->window))
				bad = "bad --window";
			break;
		case O_CREDITS:
			if (parse_u32(optarg, 1, MAX_CREDITS, &o->credits))
				bad = "bad --credits";
			break;
		case O_SIZE:
			if (parse_u32(optarg, RPCRDMA2_CM_PDATA_MIN_SIZE,
				      RPCRDMA2_CM_PDATA_MAX_SIZE, &o->size) ||
			    o->size % RPCRDMA2_CM_PDATA_SIZE_UNIT)
				bad = "--size must be a multiple of 1024, 1024..262144";
			break;
		case O_NFSVERS:
			if (parse_u32(optarg, 2, 4, &o->nfs_vers))
				bad = "--nfs-vers must be 2, 3 or 4";
			break;
		case 't':
			if (parse_seconds(optarg, &o->timeout_ms))
				bad = "bad --timeout";
			o->have_timeout = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case O_SEND:
			if (parse_hex(optarg, &o->send_msg, &o->send_len))
				bad = "bad --send-hex";
			break;
		case O_EXPECT:
			if (parse_hex(optarg, &o->expect, &o->expect_len))
				bad = "bad --expect-hex";
			break;
		case O_NONE:
			o->expect_none = true;
			break;
		case O_IGNCRED:
			o->ignore_credits = true;
			break;
		case O_AFTER:
			o->after_negotiate = true;
			break;
		case O_THEN:
			o->then_ping = true;
			break;
		case O_OVERRUN:
			o->overrun = true;
			break;
		case O_FUZZ:
			if (parse_u32(optarg, 1, 10000000, &o->fuzz))
				bad = "bad --fuzz";
			break;
		case O_SEED:
			if (parse_u32(optarg, 0, 0xffffffffU, &o->seed))
				bad = "bad --seed";
			o->have_seed = true;
			break;
		case O_CORPUS:
			o->corpus = optarg;
			break;
		case O_LONG:
			if (parse_u32(optarg, RPC_NULL_CALL_SIZE, CHUNK_CALL_MAX,
				      &o->long_call) || o->long_call % 4)
				bad = "--long-call must be a multiple of 4, 40..65536";
			break;
		case O_READLINK:
		case O_READ:
			if (o->path)
				bad = "one of --readlink and --read";
			o->path = optarg;
			o->nfs_op = c == O_READ ? NFS4_OP_READ :
				    NFS4_OP_READLINK;
			break;
		case O_WCHUNK:
			o->write_chunk = true;
			break;
		case O_WLEN:
			if (parse_u32(optarg, 1, CHUNK_WRITE_SIZE, &o->write_len))
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
			if (o->path)
				bad = "one of --readlink, --read and --write2";
			o->path = optarg;
			o->nfs_op = NFS4_OP_WRITE;
			break;
		case O_WLENS:
			if (parse_u32_list(optarg, o->w2_len, 2, 1,
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

			if (parse_u32_list(optarg, v, 3, 1, CHUNK_CALL_MAX) ||
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
		case O_LISTEN:
			o->listen = true;
			break;
		case O_BIND:
			o->bind = optarg;
			break;
		case O_HOSTILE:
			mode = lsn_mode_find(optarg);
			if (mode < 0)
				bad = "unknown --hostile mode (--help lists them)";
			o->mode = (u32)mode;
			break;
		case O_MAXCONNS:
			if (parse_u32(optarg, 1, 1000000, &o->max_conns))
				bad = "bad --max-conns";
			break;
		case O_INVRKEY:
			if (parse_u32(optarg, 0, 0xffffffffU, &o->inv_rkey))
				bad = "bad --inv-rkey";
			break;
		case O_HOLD:
			if (parse_seconds(optarg, &o->hold_ms))
				bad = "bad --hold";
			break;
		case O_WRITE_IMM:
			o->write_imm = true;
			break;
		case O_FLOOD:
			if (parse_u32(optarg, 1, 1000000, &o->flood))
				bad = "bad --flood";
			break;
		case O_FLOOD_UNTIL:
			o->flood_until = optarg;
			break;
		case O_FAT:
			if (parse_u32(optarg, 1, FAT_MAX_CHUNKS * FAT_CHUNK_SEGS,
				      &o->fat_reply))
				bad = "--fat-reply takes 1..128 segments";
			break;
		case O_RSIZE:
			if (parse_u32(optarg, RPCRDMA2_CM_PDATA_MIN_SIZE,
				      RPCRDMA2_CM_PDATA_MAX_SIZE, &o->recv_size) ||
			    o->recv_size % RPCRDMA2_CM_PDATA_SIZE_UNIT)
				bad = "--recv-size must be a multiple of 1024, 1024..262144";
			break;
		case 'h':
			print_help(stdout);
			exit(0);
		default:
			bad = "";
		}
		if (bad)
			break;
	}
	if (!bad && o->listen)
		return parse_listen_args(argc, argv, o, requester_opt);
	if (!bad && *listen_opt) {
		snprintf(msg, sizeof(msg), "%s needs --listen", listen_opt);
		bad = msg;
	}
	if (!bad && argc - optind != 1)
		bad = "exactly one HOST";
	if (!bad && o->write_imm && o->send_msg)
		bad = "--write-imm and --send-hex exclude each other";
	if (!bad && !raw_mode(o) &&
	    (o->expect || o->expect_none || o->ignore_credits))
		bad = "--expect-hex, --expect-no-reply and --ignore-credits need --send-hex";
	if (!bad && !raw_mode(o) && (o->after_negotiate || o->then_ping))
		bad = "--after-negotiate and --then-ping need --send-hex";
	if (!bad && o->fuzz && raw_mode(o))
		bad = "--fuzz and --send-hex exclude each other";
	if (!bad && !o->fuzz && (o->have_seed || o->corpus))
		bad = "--seed and --corpus need --fuzz";
	if (!bad && o->overrun && o->window > o->credits)
		bad = "--overrun needs --window <= --credits (a Receive for every reply)";
	if (!bad && o->expect && o->expect_none)
		bad = "--expect-hex and --expect-no-reply exclude each other";
	if (!bad && o->send_len > o->size)
		bad = "--send-hex message exceeds --size";
	if (!bad && (raw_mode(o) || o->fuzz) &&
	    (uses_chunks(o) || o->inv))
		bad = "chunk options exclude --send-hex and --fuzz";
	if (!bad && o->write_chunk && (!o->path || o->nfs_op == NFS4_OP_WRITE))
		bad = "--write-chunk needs --read or --readlink";
	if (!bad && o->chunk_pad && o->nfs_op != NFS4_OP_WRITE)
		bad = "--chunk-pad needs --write2";
	if (!bad && o->rs_chunks && (o->path || o->long_call))
		bad = "--read-segs is for NULL calls: not with --long-call or a COMPOUND";
	if (!bad && o->inv && !uses_chunks(o))
		bad = "--inv needs chunks to expose";
	if (!bad && o->flood_until && !o->flood)
		bad = "--flood-until needs --flood";
	if (!bad && (o->flood || o->fat_reply) &&
	    (raw_mode(o) || o->fuzz || o->path || o->long_call ||
	     o->reply_chunk || o->inv || o->overrun || (o->flood && o->fat_reply)))
		bad = "--flood and --fat-reply exclude the other modes and each other";
	if (!bad && o->recv_size > o->size)
		bad = "--recv-size must not exceed --size";
	if (bad)
		return usage_error(bad);
	o->host = argv[optind];
	return 0;
}

/* ---- wire fuzzing (--fuzz) ------------------------------------------- */

#define FUZZ_PER_CONN		128	/* messages before a planned reconnect */
#define FUZZ_MAX_MSG		1024	/* RFC 8166 §3.3.3: fits any Receive */
#define FUZZ_MAX_FILES		4096
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

struct fz_file {
	char *name;
	u8 *buf;
	u32 len;
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

struct fuzz {
	struct fz_file *files;
	u32 nfiles;
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

/* xorshift64*: the same seed gives the same messages */
static u32 fz_rand(struct fuzz *fz)
{
	fz->rng ^= fz->rng >> 12;
	fz->rng ^= fz->rng << 25;
	fz->rng ^= fz->rng >> 27;
	return (u32)((fz->rng * 0x2545f4914f6cdd1dULL) >> 32);
}

static u32 fz_below(struct fuzz *fz, u32 n)
{
	return n ? fz_rand(fz) % n : 0;
}

/* Values that sit on the decoder's edges: counts, limits, lengths, signs */
static u32 fz_value(struct fuzz *fz)
{
	static const u32 vals[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 31, 32, 33, 64, 100,
		255, 256, 1024, 4096, 0x10000, 0x10000001, 0x7fffffff,
		0x80000000, 0xfffffffc, 0xffffffff,
	};

	if (!fz_below(fz, 4))
		return fz_rand(fz);
	return vals[fz_below(fz, ARRAY_SIZE(vals))];
}

static int fz_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fz_file *)a)->name,
		      ((const struct fz_file *)b)->name);
}

/* The corpus next to this binary: build/tools/ -> tests/fuzz/corpus/fuzz_codec */
static char *fz_default_corpus(void)
{
	char exe[4096], *slash;
	ssize_t n;
	int i;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	for (i = 0; i < 3; i++) {
		slash = strrchr(exe, '/');
		if (!slash)
			return NULL;
		*slash = '\0';
	}
	if (strlen(exe) + sizeof("/tests/fuzz/corpus/fuzz_codec") > sizeof(exe))
		return NULL;
	strcat(exe, "/tests/fuzz/corpus/fuzz_codec");
	return strdup(exe);
}

/* Read every *.bin of @dir (its first FUZZ_MAX_MSG bytes), sorted by name */
static int fz_load(struct fuzz *fz, const char *dir)
{
	struct dirent *de;
	char path[4096];
	struct fz_file *f;
	size_t n;
	DIR *d;
	FILE *fp;

	d = opendir(dir);
	if (!d) {
		ping_err("--corpus %s: %s", dir, strerror(errno));
		return -1;
	}
	fz->files = calloc(FUZZ_MAX_FILES, sizeof(*fz->files));
	if (!fz->files) {
		closedir(d);
		return -1;
	}
	while ((de = readdir(d)) && fz->nfiles < FUZZ_MAX_FILES) {
		n = strlen(de->d_name);
		if (n < 5 || strcmp(de->d_name + n - 4, ".bin"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		fp = fopen(path, "rb");
		if (!fp)
			continue;
		f = &fz->files[fz->nfiles];
		f->buf = malloc(FUZZ_MAX_MSG);
		f->name = strdup(de->d_name);
		if (!f->buf || !f->name) {
			fclose(fp);
			closedir(d);
			return -1;
		}
		f->len = (u32)fread(f->buf, 1, FUZZ_MAX_MSG, fp);
		fclose(fp);
		fz->nfiles++;
	}
	closedir(d);
	if (!fz->nfiles) {
		ping_err("--corpus %s: no *.bin files", dir);
		return -1;
	}
	qsort(fz->files, fz->nfiles, sizeof(*fz->files), fz_name_cmp);
	return 0;
}

static void fz_free(struct fuzz *fz)
{
	u32 i;

	for (i = 0; i < fz->nfiles; i++) {
		free(fz->files[i].buf);
		free(fz->files[i].name);
	}
	free(fz->files);
	free(fz);
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
	const struct fz_file *g;
	u8 *m = f->msg;

	switch (fz_below(fz, 13)) {
	case 0:		/* one bit anywhere after rdma_xid */
		if (f->len <= 4)
			break;
		i = 4 + fz_below(fz, f->len - 4);
		j = fz_below(fz, 8);
		m[i] ^= (u8)(1 << j);
		fz_desc(f, "bit[%u].%u", i, j);
		break;
	case 1:		/* a word: an edge value */
		if (nw < 2)
			break;
		i = 1 + fz_below(fz, nw - 1);
		put32(m + 4 * i, fz_value(fz));
		fz_desc(f, "w%u=%#x", i, get32(m + 4 * i));
		break;
	case 2:		/* a count or discriminator in the chunk lists */
		if (nw < 5)
			break;
		i = 4 + fz_below(fz, nw - 4);
		put32(m + 4 * i, fz_below(fz, 41));
		fz_desc(f, "w%u=%u", i, get32(m + 4 * i));
		break;
	case 3:		/* rdma_vers */
		if (nw < 2)
			break;
		put32(m + 4, fz_below(fz, 5) ? fz_below(fz, 4) : fz_rand(fz));
		fz_desc(f, "vers=%#x", get32(m + 4));
		break;
	case 4:		/* rdma_htype / rdma_proc */
		if (nw < 4)
			break;
		put32(m + 12, fz_below(fz, 4) ? fz_below(fz, 10) : fz_rand(fz));
		fz_desc(f, "htype=%#x", get32(m + 12));
		break;
	case 5:		/* v2 rdma_flags */
		if (nw < 5)
			break;
		put32(m + 16, fz_below(fz, 2) ? fz_below(fz, 4) : fz_value(fz));
		fz_desc(f, "flags=%#x", get32(m + 16));
		break;
	case 6:		/* truncate, sometimes to a word boundary */
		n = fz_below(fz, f->len + 1);
		if (fz_below(fz, 2))
			n &= ~3U;
		fz_desc(f, "len %u->%u", f->len, n);
		f->len = n;
		break;
	case 7:		/* append words */
		room = (FUZZ_MAX_MSG - f->len) / 4;
		n = 1 + fz_below(fz, 16);
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
		i = 1 + fz_below(fz, nw - 1);
		memmove(m + 4 * i, m + 4 * i + 4, f->len - 4 * i - 4);
		f->len -= 4;
		fz_desc(f, "del w%u", i);
		break;
	case 9:		/* insert a word */
		if (nw < 1 || f->len + 4 > FUZZ_MAX_MSG)
			break;
		i = 1 + fz_below(fz, nw);
		memmove(m + 4 * i + 4, m + 4 * i, f->len - 4 * i);
		put32(m + 4 * i, fz_value(fz));
		f->len += 4;
		fz_desc(f, "ins w%u=%#x", i, get32(m + 4 * i));
		break;
	case 10:	/* copy a word: a handle into rdma_inv_handle, a position */
		if (nw < 3)
			break;
		i = 1 + fz_below(fz, nw - 1);
		j = 1 + fz_below(fz, nw - 1);
		put32(m + 4 * j, get32(m + 4 * i));
		fz_desc(f, "w%u=w%u", j, i);
		break;
	case 11:	/* splice: this one's head, another's tail */
		g = &fz->files[fz_below(fz, fz->nfiles)];
		if (nw < 2 || g->len < 8)
			break;
		i = 1 + fz_below(fz, nw - 1);
		j = 1 + fz_below(fz, g->len / 4 - 1);
		n = g->len - 4 * j;
		if (4 * i + n > FUZZ_MAX_MSG)
			n = FUZZ_MAX_MSG - 4 * i;
		memcpy(m + 4 * i, g->buf + 4 * j, n);
		f->len = 4 * i + n;
		fz_desc(f, "splice@w%u from w%u", i, j);
		break;
	default:
		/*
		 * Repeat a block of 4 to 6 words up to 6 times: a segment,
		 * a Read list entry or a one-segment Write list entry, so
		 * that lists grow past the server's limits.
		 */
		k = 4 + fz_below(fz, 3);
		n = 1 + fz_below(fz, 6);
		if (nw < k + 1 || f->len + 4 * k * n > FUZZ_MAX_MSG)
			break;
		i = 1 + fz_below(fz, nw - k);
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
	const struct fz_file *src;
	u32 i, old, n;

	memset(f, 0, offsetof(struct fz_msg, msg));
	f->seq = fz->sent + 1;
	/*
	 * Mostly a file of the connection's version: the other version
	 * only earns ERR_VERS, which a few messages prove well enough.
	 */
	for (i = 0; i < 16; i++) {
		f->file = fz_below(fz, fz->nfiles);
		src = &fz->files[f->file];
		if (!fz->model_vers || !fz_below(fz, 8) ||
		    (src->len >= 8 && get32(src->buf + 4) == fz->model_vers))
			break;
	}
	f->xid = fz->next_xid++;
	src = &fz->files[f->file];
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
	if (fz_below(fz, 2))
		fz_full_call(fz, f);
	n = fz_below(fz, 8) ? 1 + fz_below(fz, 3) : 0;
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
	struct fuzz *fz = p->fz;
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
			ping_err("fuzz: the codec cannot encode its own rejection (%s)",
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
	       f->xid, fz->files[f->file].name, f->desc);
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
	struct fuzz *fz = p->fz;
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
	p->fz->connprops++;
	if (again)
		fz_fail(p->fz, NULL, "a second RDMA2_CONNPROP on one connection",
			NULL, 0);
}

/* A fresh connection for the fuzzer, negotiation to start with @vers */
static int fz_connect(struct ping *p, u32 vers)
{
	const struct ping_opts *o = p->opts;
	struct fuzz *fz = p->fz;

	memset(p, 0, sizeof(*p));
	p->opts = o;
	p->fz = fz;
	p->nr_recvs = o->credits + SPARE_RECVS;
	p->nr_sends = FUZZ_BATCH + 1;
	p->nr_send_wrs = p->nr_sends;
	p->first_vers = vers;
	p->next_xid = FUZZ_NULL_XID;
	fz->nmsgs = 0;
	fz->synced = 0;
	fz->model_vers = 0;
	fz->conns++;
	if (ping_setup(p)) {
		ping_err("fuzz: connection %u: cannot connect", fz->conns);
		ping_teardown(p);
		return -1;
	}
	return 0;
}

static bool fz_lost(const struct ping *p)
{
	return p->disconnected || p->qp_failed;
}

/*
 * The connection died. That is fair after a message the server accepted
 * with chunks: its RDMA to our made-up handles fails and it must close
 * (RFC 8166 §4.5.3, §4.5.4). After anything else it is not.
 */
static void fz_closed(struct ping *p, const char *when)
{
	struct fuzz *fz = p->fz;
	char what[160];
	u32 i;

	fz->lost++;
	if (p->qp_failed && p->fail_status <= IBV_WC_GENERAL_ERR) {
		if (p->recv_failed)
			fz->lost_recv[p->fail_status]++;
		else
			fz->lost_send[p->fail_status]++;
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
	struct fuzz *fz = p->fz;
	int slot;

	fz_make(fz, f);
	if (fz_predict(p, f))
		return -2;
	fz->nmsgs++;
	fz->sent++;
	fz->expected[f->expect]++;
	slot = wait_slot(p);
	if (slot < 0)
		return -1;
	memcpy(send_buf(p, (u32)slot), f->msg, f->len);
	if (p->opts->verbose)
		printf("fuzz: message %u xid 0x%08x from %s, %s: %s\n", f->seq,
		       f->xid, fz->files[f->file].name, f->desc,
		       fz_expect_names[f->expect]);
	return post_send(p, (u32)slot, f->len) ? -1 : 0;
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
		rc = next_recv(p, &dl, &wc);
		if (rc == -ETIMEDOUT)
			return 0;
		if (rc)
			return -1;
		idx = (u32)wc.wr_id;
		rc = classify(p, p->buf + (size_t)idx * p->opts->size,
			      wc.byte_len, &msg);
		if (post_recv(p, idx))
			return -1;
		if (rc || msg.kind != RX_OTHER) {
			fz_fail(p->fz, NULL, "a NULL reply while none was outstanding",
				NULL, 0);
			return 0;
		}
	}
	return 0;
}

/* Before a planned close: every error reply still due must come */
static int fz_drain(struct ping *p)
{
	struct fuzz *fz = p->fz;
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
	struct fuzz *fz = p->fz;
	struct ping_msg msg;
	double rtt;
	int slot;

	slot = wait_slot(p);
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
	const struct ping_opts *o = p->opts;
	struct fuzz *fz = p->fz;
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
	while (fz->nmsgs < FUZZ_PER_CONN && fz->sent < o->fuzz) {
		batch = FUZZ_BATCH;
		if (batch > o->fuzz - fz->sent)
			batch = o->fuzz - fz->sent;
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
	const struct ping_opts *o = p->opts;
	char *corpus = NULL;
	struct fuzz *fz;
	struct timespec t;
	u32 seed = o->seed;
	int rc = -1;

	fz = calloc(1, sizeof(*fz));
	if (!fz) {
		ping_err("out of memory");
		return -1;
	}
	if (!o->corpus)
		corpus = fz_default_corpus();
	if (fz_load(fz, o->corpus ? o->corpus : corpus ? corpus : "."))
		goto out;
	if (!o->have_seed) {
		now(&t);
		seed = (u32)(t.tv_nsec ^ t.tv_sec ^ getpid());
	}
	fz->rng = 0x9e3779b97f4a7c15ULL * ((u64)seed + 1);
	fz->next_xid = FUZZ_MSG_XID;
	printf("fuzz: seed %u, %u corpus files from %s, %u messages\n", seed,
	       fz->nfiles, o->corpus ? o->corpus : corpus, o->fuzz);
	p->fz = fz;
	while (fz->sent < o->fuzz)
		if (fz_connection(p))
			goto out_summary;

	/* the server must still serve a fresh connection */
	if (!fz_connect(p, o->vers)) {
		p->fz = NULL;
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
	free(corpus);
	fz_free(fz);
	return rc;
}

int main(int argc, char **argv)
{
	static struct ping p;
	struct ping_opts o = {
		.port = DEF_PORT,
		.vers = RPCRDMA2_VERS_2,
		.count = DEF_COUNT,
		.window = DEF_WINDOW,
		.credits = DEF_CREDITS,
		.size = DEF_SIZE,
		.nfs_vers = DEF_NFS_VERS,
		.timeout_ms = DEF_TIMEOUT_MS,
		.write_len = CHUNK_WRITE_SIZE,
		.inv_rkey = DEF_INV_RKEY,
		.w2_len = { 5001, 3002 },
	};
	struct timespec t;
	int rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (parse_args(argc, argv, &o))
		return 2;
	p.opts = &o;
	if (o.listen) {
		rc = o.fuzz ? lfz_main(&o) : lsn_main(&o);
		goto out;
	}
	if (o.fuzz) {
		rc = fuzz_main(&p);
		goto out;
	}
	p.nr_recvs = o.credits + SPARE_RECVS;
	p.nr_sends = o.window;
	p.nr_send_wrs = o.window * (o.inv ? INV_WRS_PER_CALL : 1);
	p.first_vers = o.vers;
	now(&t);
	p.next_xid = (u32)(t.tv_nsec ^ (t.tv_sec << 20) ^ getpid());

	rc = ping_setup(&p);
	if (!rc) {
		print_pdata(&p);
		rc = raw_mode(&o) ? raw_run(&p) :
		     o.path ? compound_run(&p) :
		     o.flood ? flood_run(&p) :
		     o.fat_reply ? fat_reply_run(&p) : ping_run(&p);
	}
	ping_teardown(&p);
out:
	free(o.send_msg);
	free(o.expect);
	return rc ? 1 : 0;
}
