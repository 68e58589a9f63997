// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma2-decode: print an RPC-over-RDMA v1/v2 transport header, or an
 * RFC 8797 CM private-data buffer, one field per line, using the same
 * codec as the kernel modules.
 *
 * Exit status: 0 decoded, 1 rejected ("reject: <NAME>" names the error a
 * responder sends, or DISCARD, which every rejected v2 reply gets), 2 usage
 * or input error.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rpcrdma2/codec.h>
#include <rpcrdma2/cm_pdata.h>
#include "rpcrdma2-hex.h"
#include "rpcrdma2-print.h"

#define MAX_INPUT	65536
#define DEF_READ_CHUNKS	8
#define DEF_WRITE_CHUNKS	8
#define DEF_SEGS	16

static void print_help(FILE *f)
{
	fprintf(f,
		"Usage: rpcrdma2-decode [options] [FILE]\n"
		"Decode one RPC-over-RDMA v1 or v2 transport header (or, with\n"
		"--pdata, one RFC 8797 CM private-data buffer) and print its\n"
		"fields one per line. FILE is read as binary; without FILE, or\n"
		"with FILE \"-\", hex is read from stdin (whitespace, ':', ','\n"
		"and \"0x\" prefixes ignored, '#' starts a comment).\n"
		"\n"
		"Options:\n"
		"  -x, --hex               read FILE as hex text too\n"
		"  -p, --pdata             decode RFC 8797 CM private data\n"
		"  -r, --max-read-chunks N Read chunks accepted (default %d)\n"
		"  -w, --max-write-chunks N\n"
		"                          Write chunks accepted (default %d)\n"
		"  -s, --max-segs N        segments per chunk (default %d)\n"
		"  -h, --help              this text\n"
		"\n"
		"Exit status: 0 decoded; 1 rejected, with a line\n"
		"\"reject: NAME\" where NAME is the error a responder sends\n"
		"(ERR_VERS, ERR_CHUNK, RDMA2_ERR_BAD_XDR, RDMA2_ERR_INVAL_HTYPE,\n"
		"RDMA2_ERR_READ_CHUNKS, RDMA2_ERR_WRITE_CHUNKS,\n"
		"RDMA2_ERR_SEGMENTS, RDMA2_ERR_REPLY_RESOURCE) or DISCARD\n"
		"(always, for a v2 reply), and \"reason: WHY\";\n"
		"2 usage or input error.\n",
		DEF_READ_CHUNKS, DEF_WRITE_CHUNKS, DEF_SEGS);
}

static long read_input(const char *path, bool hex, u8 *out, size_t cap)
{
	static char raw[4 * MAX_INPUT];
	FILE *f = stdin;
	bool too_long;
	size_t len;

	if (path && strcmp(path, "-")) {
		f = fopen(path, "rb");
		if (!f) {
			perror(path);
			return -1;
		}
	} else {
		hex = true;
	}
	len = fread(raw, 1, sizeof(raw), f);
	/*
	 * A full buffer has not seen EOF yet: input of exactly sizeof(raw)
	 * bytes fits, and only a byte beyond it makes the input too long.
	 */
	too_long = len == sizeof(raw) && getc(f) != EOF;
	if (ferror(f) || too_long) {
		fprintf(stderr, "rpcrdma2-decode: read error or input too long\n");
		if (f != stdin)
			fclose(f);
		return -1;
	}
	if (f != stdin)
		fclose(f);
	if (hex) {
		const char *why = "bad hex";
		long n = hex_parse(raw, len, out, cap, &why);

		if (n < 0)
			fprintf(stderr, "rpcrdma2-decode: %s\n", why);
		return n;
	}
	if (len > cap) {
		fprintf(stderr, "rpcrdma2-decode: input too long\n");
		return -1;
	}
	memcpy(out, raw, len);
	return (long)len;
}

static void print_seg(const char *prefix, const struct rpcrdma2_seg *seg)
{
	printf("%s: handle 0x%08x length %u offset 0x%016llx\n", prefix,
	       seg->handle, seg->length, (unsigned long long)seg->offset);
}

static void print_chunk(const char *name, const struct rpcrdma2_chunk_lists *cl,
			const struct rpcrdma2_chunk *ch)
{
	char prefix[64];
	u32 i;

	printf("%s: segments %u\n", name, ch->nsegs);
	for (i = 0; i < ch->nsegs; i++) {
		snprintf(prefix, sizeof(prefix), "%s.seg[%u]", name, i);
		print_seg(prefix, &cl->segs[ch->first + i]);
	}
}

static void print_lists(const struct rpcrdma2_hdr *hdr)
{
	const struct rpcrdma2_chunk_lists *cl = &hdr->cl;
	const struct rpcrdma2_read_chunk *rc;
	char name[32];
	u32 i, j;

	if (hdr->vers == RPCRDMA2_VERS_2)
		printf("inv_handle: 0x%08x\n", cl->inv_handle);
	printf("read_chunks: %u\n", cl->nr_read_chunks);
	printf("read_segments: %u\n", cl->nr_reads);
	/* by chunk, as the decoder groups them: ascending Position */
	for (i = 0; i < cl->nr_read_chunks; i++) {
		rc = &cl->read_chunks[i];
		printf("read_chunk[%u]: position %u segments %u length %llu\n",
		       i, rc->position, rc->nsegs,
		       (unsigned long long)rc->length);
		for (j = rc->first; j < rc->first + rc->nsegs; j++) {
			snprintf(name, sizeof(name), "read[%u]", j);
			printf("%s: position %u\n", name,
			       cl->reads[j].position);
			print_seg(name, &cl->reads[j].seg);
		}
	}
	printf("write_chunks: %u\n", cl->nr_writes);
	for (i = 0; i < cl->nr_writes; i++) {
		snprintf(name, sizeof(name), "write[%u]", i);
		print_chunk(name, cl, &cl->writes[i]);
	}
	if (cl->has_reply)
		print_chunk("reply", cl, &cl->reply);
	else
		printf("reply: none\n");
}

static const char *prop_state(const struct rpcrdma2_props *props, u32 bit)
{
	if (!(props->present & bit))
		return "not sent";
	return props->dflt & bit ? "sent empty: default" : "sent";
}

static void print_props(const struct rpcrdma2_props *props)
{
	static const char *const brs[] = { "NONE", "INLINE", "GENL" };

	printf("rbsiz: %u (%s)\n", props->rbsiz,
	       prop_state(props, RPCRDMA2_PROPF_RBSIZ));
	printf("brs: RDMA2_RVREQSUP_%s (%s)\n",
	       props->brs < ARRAY_SIZE(brs) ? brs[props->brs] : "?",
	       prop_state(props, RPCRDMA2_PROPF_BRS));
}

static void print_prefix(const struct rpcrdma2_hdr *hdr)
{
	printf("version: %u\n", hdr->vers);
	printf("xid: 0x%08x\n", hdr->xid);
	printf("credits: %u\n", hdr->credits);
	printf("type: %s (%u)\n", rpcrdma2_htype_name(hdr->vers, hdr->htype),
	       hdr->htype);
	if (hdr->vers == RPCRDMA2_VERS_2)
		printf("flags: 0x%08x%s\n", hdr->flags,
		       hdr->flags & RPCRDMA2_F_RESPONSE ? " RESPONSE" : "");
}

static int decode_header(const u8 *buf, size_t len,
			 const struct rpcrdma2_limits *lim)
{
	static struct rpcrdma2_read_seg reads[DEF_SEGS * 64];
	static struct rpcrdma2_read_chunk read_chunks[16];
	static struct rpcrdma2_chunk writes[64];
	static struct rpcrdma2_seg segs[DEF_SEGS * 64];
	struct rpcrdma2_reject rej;
	struct rpcrdma2_hdr hdr;
	int rc;

	if (rpcrdma2_chunk_lists_init(&hdr.cl, lim, reads, ARRAY_SIZE(reads),
				      read_chunks, ARRAY_SIZE(read_chunks),
				      writes, ARRAY_SIZE(writes), segs,
				      ARRAY_SIZE(segs))) {
		fprintf(stderr, "rpcrdma2-decode: limits too large\n");
		return 2;
	}
	rc = rpcrdma2_decode(buf, len, &hdr, &rej);
	if (rc) {
		if (len >= RPCRDMA2_FIXED_SIZE)
			print_prefix(&hdr);
		if (rej.discard) {
			printf("reject: DISCARD\n");
		} else {
			printf("reject: %s\n",
			       rpcrdma2_errcode_name(hdr.vers, rej.reply.code));
			print_error_arm("reject_", hdr.vers, &rej.reply);
		}
		printf("reason: %s\n", rpcrdma2_reason_name(rej.reason));
		return 1;
	}

	print_prefix(&hdr);
	switch (hdr.htype) {
	case RPCRDMA2_HT_ERROR:
		printf("error: %s (%u)\n",
		       rpcrdma2_errcode_name(hdr.vers, hdr.err.code),
		       hdr.err.code);
		print_error_arm("", hdr.vers, &hdr.err);
		if (hdr.err.v1_layout)
			printf("layout: RFC 8166 (no rdma_flags)\n");
		break;
	case RPCRDMA2_HT_CONNPROP:
		print_props(&hdr.props);
		break;
	default:
		print_lists(&hdr);
	}
	printf("rpc_offset: %u\n", hdr.hdr_len);
	printf("rpc_length: %u\n", hdr.rpc_len);
	return 0;
}

static int decode_pdata(const u8 *buf, size_t len)
{
	struct rpcrdma2_cm_pdata pd;
	const char *reject = NULL;
	int rc;

	rc = rpcrdma2_cm_pdata_parse(buf, len, &pd);
	switch (rc) {
	case 0:
		break;
	case -ENOENT:
		reject = "NO_IDENTIFIER";
		break;
	case -EPROTO:
		reject = "BAD_VERSION";
		break;
	case -EMSGSIZE:
		reject = "OVERRUN";
		break;
	default:
		reject = "UNKNOWN";
	}
	printf("pdata: %s\n", reject ? "defaults (RFC 8797 §5.1)" : "valid");
	printf("version: %u\n", pd.version);
	printf("reminv: %s\n", pd.reminv ? "yes" : "no");
	printf("send_size: %u\n", pd.send_size);
	printf("recv_size: %u\n", pd.recv_size);
	if (reject) {
		printf("reject: %s\n", reject);
		return 1;
	}
	return 0;
}

static int parse_u32(const char *s, u32 *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (!*s || *end || v > 0xffffffffUL)
		return -1;
	*out = (u32)v;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hex", no_argument, NULL, 'x' },
		{ "pdata", no_argument, NULL, 'p' },
		{ "max-read-chunks", required_argument, NULL, 'r' },
		{ "max-write-chunks", required_argument, NULL, 'w' },
		{ "max-segs", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rpcrdma2_limits lim = {
		.max_read_chunks = DEF_READ_CHUNKS,
		.max_write_chunks = DEF_WRITE_CHUNKS,
		.max_segs = DEF_SEGS,
	};
	static u8 buf[MAX_INPUT];
	bool hex = false, pdata = false;
	long len;
	int c;

	while ((c = getopt_long(argc, argv, "xpr:w:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'x':
			hex = true;
			break;
		case 'p':
			pdata = true;
			break;
		case 'r':
			if (parse_u32(optarg, &lim.max_read_chunks))
				goto bad_usage;
			break;
		case 'w':
			if (parse_u32(optarg, &lim.max_write_chunks))
				goto bad_usage;
			break;
		case 's':
			if (parse_u32(optarg, &lim.max_segs))
				goto bad_usage;
			break;
		case 'h':
			print_help(stdout);
			return 0;
		default:
			goto bad_usage;
		}
	}
	if (argc - optind > 1)
		goto bad_usage;
	/* the decoder's arrays are static: keep the limits inside them */
	if (lim.max_segs > DEF_SEGS * 4 || lim.max_read_chunks > 16 ||
	    lim.max_write_chunks > 15) {
		fprintf(stderr,
			"rpcrdma2-decode: limits too large (read chunks <= 16, write chunks <= 15, segs <= %d)\n",
			DEF_SEGS * 4);
		return 2;
	}

	len = read_input(optind < argc ? argv[optind] : NULL, hex, buf,
			 sizeof(buf));
	if (len < 0)
		return 2;
	return pdata ? decode_pdata(buf, len) : decode_header(buf, len, &lim);

bad_usage:
	print_help(stderr);
	return 2;
}
