// SPDX-License-Identifier: GPL-2.0
/*
 * Write the codec's test vectors (tests/vectors/codec_vectors.h) as RoCEv2
 * packets into a pcap file, and for each packet what
 * tools/wireshark/rpcrdma2.lua must show, as records for
 * tests/wireshark/check_pcap.py. Three kinds of packet:
 *
 *   codec:  the decode every valid vector expects (struct cv_expect),
 *           encoded by rpcrdma2_encode(), followed by an RPC NULL Call or
 *           Reply where the header type carries the RPC message inline;
 *           every field is expected, in wire order;
 *   wire:   a valid vector whose own words differ from that encoding (Read
 *           segments out of Position order, unknown properties), as
 *           written, with its RPC message replaced likewise;
 *   limit:  every vector rejected only for a receiver's limit, as written,
 *           with its decode under limits as wide as can be;
 *   reject: every other vector the decoder rejects, as written, and the
 *           expert information its rejection reason calls for (or, where
 *           the header cannot be told from other traffic, that the
 *           dissector leaves it alone);
 *   long:   NFSv3 WRITE Calls longer than the path MTU, in SEND First,
 *           Middle and Last packets, one with a Reply between them, and
 *           packets of a longer message whose start or middle is missing.
 *
 * Each packet is Ethernet, IPv4, UDP to port 4791, an InfiniBand Base
 * Transport Header (RC SEND), the message, its pad bytes and the
 * Invariant CRC, computed as rxe does (drivers/infiniband/sw/rxe/rxe_icrc.c).
 *
 * Every prefix of each codec packet's message goes into a second capture,
 * with what rpcrdma2_decode() makes of it, which the dissector must agree
 * with (see cut_packets()).
 *
 * Usage: vectors_pcap DIR   (writes DIR/vectors.pcap, DIR/vectors.expect,
 *                            DIR/cuts.pcap and DIR/cuts.expect)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <rpcrdma2/codec.h>
#include "../vectors/codec_vectors.h"

#define ROCE_UDP_PORT		4791
#define BTH_SIZE		12
#define BTH_RC_SEND_FIRST	0x00
#define BTH_RC_SEND_MIDDLE	0x01
#define BTH_RC_SEND_LAST	0x02
#define BTH_RC_SEND_ONLY	0x04
#define BTH_MIGREQ		0x40
#define ICRC_SIZE		4
#define ETH_HDR_SIZE		14
#define IP4_HDR_SIZE		20
#define UDP_HDR_SIZE		8
#define FRAME_MAX		2048
#define PATH_MTU		1024	/* rxe on a 1500-byte Ethernet MTU */
#define MSG_MAX			(CV_BUF_SIZE + 64)

#define RPC_CALL		0
#define RPC_REPLY		1
#define NFS_PROGRAM		100003
#define NFS_V3			3
#define NFS3_WRITE		7
#define WRITE_OFFSET		0x1000
#define WRITE_COUNT		600	/* a multiple of 4: no XDR pad */
#define SMALL_MTU		256	/* the smallest InfiniBand path MTU */

/* Two endpoints: a client (requester) and a server (responder) */
struct endpoint {
	u8 mac[6];
	u8 ip[4];
	u32 qpn;
};

static const struct endpoint client = {
	{ 0x02, 0, 0, 0, 0, 0x01 }, { 192, 0, 2, 1 }, 0x000011,
};

static const struct endpoint server = {
	{ 0x02, 0, 0, 0, 0, 0x02 }, { 192, 0, 2, 2 }, 0x000012,
};

struct out {
	FILE *pcap;
	FILE *rec;
	u32 frame;
	u32 psn[2];	/* the next PSN to the server, to the client */
};

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "vectors_pcap: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

/* CRC-32 (IEEE 802.3, reflected) as crc32_le(): no pre- or post-inversion */
static u32 crc32_le(u32 crc, const u8 *p, size_t len)
{
	int bit;

	while (len--) {
		crc ^= *p++;
		for (bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0xedb88320U & -(crc & 1));
	}
	return crc;
}

static u16 ip4_csum(const u8 *p, size_t len)
{
	u32 sum = 0;
	size_t i;

	for (i = 0; i < len; i += 2)
		sum += (u32)p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16)~sum;
}

static void put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/*
 * The RoCEv2 Invariant CRC (IBTA Annex A17): CRC-32 over a masked LRH of
 * eight 0xff bytes, the IPv4 and UDP headers with their variant fields
 * (TOS, TTL, checksums) set to ones, the BTH with its reserved byte set
 * to ones, and the payload with its pad; sent inverted, least significant
 * byte first.
 */
static u32 roce_icrc(const u8 *ip, size_t len)
{
	static const u8 lrh[8] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	u8 hdr[IP4_HDR_SIZE + UDP_HDR_SIZE + BTH_SIZE];
	u32 crc;

	memcpy(hdr, ip, sizeof(hdr));
	hdr[1] = 0xff;				/* TOS */
	hdr[8] = 0xff;				/* TTL */
	hdr[10] = 0xff;				/* header checksum */
	hdr[11] = 0xff;
	hdr[IP4_HDR_SIZE + 6] = 0xff;		/* UDP checksum */
	hdr[IP4_HDR_SIZE + 7] = 0xff;
	hdr[IP4_HDR_SIZE + UDP_HDR_SIZE + 4] = 0xff;	/* BTH resv8a */
	crc = crc32_le(0xffffffffU, lrh, sizeof(lrh));
	crc = crc32_le(crc, hdr, sizeof(hdr));
	crc = crc32_le(crc, ip + sizeof(hdr), len - sizeof(hdr));
	return ~crc;
}

static void put_le32(u8 *p, u32 v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = v >> 24;
}

/* Write one packet of @opcode from @src to @dst carrying @len bytes */
static void write_packet(struct out *o, const struct endpoint *src,
			 const struct endpoint *dst, u8 opcode, const u8 *msg,
			 u32 len)
{
	u32 *psn = &o->psn[dst == &client];
	u8 f[FRAME_MAX];
	u8 *ip = f + ETH_HDR_SIZE, *udp = ip + IP4_HDR_SIZE;
	u8 *bth = udp + UDP_HDR_SIZE, *payload = bth + BTH_SIZE;
	u32 pad = (4 - len % 4) % 4;
	u32 udp_len = UDP_HDR_SIZE + BTH_SIZE + len + pad + ICRC_SIZE;
	u32 flen = ETH_HDR_SIZE + IP4_HDR_SIZE + udp_len;
	u8 rec[16];

	if (flen > sizeof(f))
		die("message of %u bytes does not fit a frame", len);
	memset(f, 0, flen);
	memcpy(f, dst->mac, 6);
	memcpy(f + 6, src->mac, 6);
	put16(f + 12, 0x0800);

	ip[0] = 0x45;
	put16(ip + 2, IP4_HDR_SIZE + udp_len);
	put16(ip + 4, o->frame & 0xffff);
	put16(ip + 6, 0x4000);			/* DF */
	ip[8] = 64;
	ip[9] = 17;				/* UDP */
	memcpy(ip + 12, src->ip, 4);
	memcpy(ip + 16, dst->ip, 4);
	put16(ip + 10, ip4_csum(ip, IP4_HDR_SIZE));

	/* rxe picks the source port from the QP number; checksum 0 */
	put16(udp, 0xc000 | (src->qpn & 0x3fff));
	put16(udp + 2, ROCE_UDP_PORT);
	put16(udp + 4, udp_len);

	bth[0] = opcode;
	bth[1] = BTH_MIGREQ | pad << 4;
	put16(bth + 2, 0xffff);			/* default P_Key */
	bth[5] = dst->qpn >> 16;
	bth[6] = dst->qpn >> 8;
	bth[7] = dst->qpn;
	bth[9] = *psn >> 16;
	bth[10] = *psn >> 8;
	bth[11] = *psn;
	*psn = (*psn + 1) & 0xffffff;

	memcpy(payload, msg, len);
	put_le32(payload + len + pad, roce_icrc(ip, flen - ETH_HDR_SIZE -
						ICRC_SIZE));

	/* pcap record header: one second apart, from 2023-11-14 */
	put_le32(rec, 1700000000U + o->frame);
	put_le32(rec + 4, 0);
	put_le32(rec + 8, flen);
	put_le32(rec + 12, flen);
	if (fwrite(rec, sizeof(rec), 1, o->pcap) != 1 ||
	    fwrite(f, flen, 1, o->pcap) != 1)
		die("cannot write the pcap file");
	o->frame++;
}

/*
 * Send @msg from @src to @dst: one SEND Only packet, or, for a message
 * longer than @mtu, SEND First, Middle... and Last packets of @mtu bytes
 * at most, as a responder with that path MTU sends it.
 */
static void write_send(struct out *o, const struct endpoint *src,
		       const struct endpoint *dst, const u8 *msg, u32 len,
		       u32 mtu)
{
	u32 off;

	if (len <= mtu) {
		write_packet(o, src, dst, BTH_RC_SEND_ONLY, msg, len);
		return;
	}
	write_packet(o, src, dst, BTH_RC_SEND_FIRST, msg, mtu);
	for (off = mtu; len - off > mtu; off += mtu)
		write_packet(o, src, dst, BTH_RC_SEND_MIDDLE, msg + off, mtu);
	write_packet(o, src, dst, BTH_RC_SEND_LAST, msg + off, len - off);
}

/* --- records ----------------------------------------------------------- */

static void record(struct out *o, const char *kind, const char *name)
{
	fprintf(o->rec, "\nrecord %u %s: %s\n", o->frame, kind, name);
}

/* One expected line: FIELD followed by @fmt */
static void expect(struct out *o, const char *field, const char *fmt, ...)
{
	va_list ap;

	fprintf(o->rec, "%s ", field);
	va_start(ap, fmt);
	vfprintf(o->rec, fmt, ap);
	va_end(ap);
	fprintf(o->rec, "\n");
}

static void absent(struct out *o, const char *field)
{
	expect(o, field, "-");
}

/* A list of values, or "-" when empty; @how is "" (in order) or "~ " */
struct vlist {
	char s[1024];
	size_t n;
};

static void vadd(struct vlist *l, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(l->s + l->n, sizeof(l->s) - l->n, fmt, ap);
	va_end(ap);
	if (r < 0 || (size_t)r >= sizeof(l->s) - l->n)
		die("expected value list too long");
	l->n += r;
}

static void expect_list(struct out *o, const char *field,
			const struct vlist *l, const char *how)
{
	if (!l->n)
		absent(o, field);
	else
		expect(o, field, "%s%s", how, l->s + 1);
}

static void seg_values(struct vlist *h, struct vlist *l, struct vlist *off,
		       const struct rpcrdma2_seg *s)
{
	vadd(h, " 0x%08x", s->handle);
	vadd(l, " %u", s->length);
	vadd(off, " 0x%016llx", (unsigned long long)s->offset);
}

/*
 * The chunk lists of @e. Segments come in wire order: the Read list,
 * then each Write chunk's, then the Reply chunk's. @how "~ " compares
 * positions and segments in any order (a wire packet whose Read list is
 * not grouped by Position as struct cv_expect holds it).
 */
static void expect_lists(struct out *o, const struct cv_expect *e,
			 const char *how)
{
	struct vlist pos = {}, h = {}, l = {}, off = {}, wsegs = {};
	u32 i, j;

	if (e->vers == RPCRDMA2_VERS_2)
		expect(o, "rpcrdma2.inv_handle", "0x%08x", e->inv_handle);
	else
		absent(o, "rpcrdma2.inv_handle");
	expect(o, "rpcrdma2.reads.count", "%u", e->nr_reads);
	expect(o, "rpcrdma2.reads.chunks", "%u", e->nr_read_chunks);
	for (i = 0; i < e->nr_reads; i++) {
		vadd(&pos, " %u", e->reads[i].position);
		seg_values(&h, &l, &off, &e->reads[i].seg);
	}
	expect_list(o, "rpcrdma2.read.position", &pos, how);
	expect(o, "rpcrdma2.writes.count", "%u", e->nr_writes);
	for (i = 0; i < e->nr_writes; i++) {
		vadd(&wsegs, " %u", e->writes[i].nsegs);
		for (j = 0; j < e->writes[i].nsegs; j++)
			seg_values(&h, &l, &off,
				   &e->segs[e->writes[i].first + j]);
	}
	expect_list(o, "rpcrdma2.write.segcount", &wsegs, "");
	if (e->has_reply) {
		expect(o, "rpcrdma2.reply.segcount", "%u", e->reply.nsegs);
		for (j = 0; j < e->reply.nsegs; j++)
			seg_values(&h, &l, &off, &e->segs[e->reply.first + j]);
	} else {
		absent(o, "rpcrdma2.reply.segcount");
	}
	expect_list(o, "rpcrdma2.segment.handle", &h, how);
	expect_list(o, "rpcrdma2.segment.length", &l, how);
	expect_list(o, "rpcrdma2.segment.offset", &off, how);
}

/* The error code and its arm (draft v2 §5.3.3; RFC 8166 §4.1.2) */
static void expect_error(struct out *o, const struct cv_expect *e)
{
	const struct rpcrdma2_error *err = &e->err;
	struct vlist low = {}, high = {}, maxc = {}, maxs = {}, idx = {};
	struct vlist need = {};

	expect(o, "rpcrdma2.err", "%u", err->code);
	switch (err->code) {
	case RPCRDMA2_ERR_VERS:
		vadd(&low, " %u", err->vers.low);
		vadd(&high, " %u", err->vers.high);
		break;
	case RPCRDMA2_ERR_READ_CHUNKS:
	case RPCRDMA2_ERR_WRITE_CHUNKS:
		vadd(&maxc, " %u", err->max_chunks);
		break;
	case RPCRDMA2_ERR_SEGMENTS:
		vadd(&maxs, " %u", err->max_segs);
		break;
	case RPCRDMA2_ERR_WRITE_RESOURCE:
		vadd(&idx, " %u", err->write.index);
		vadd(&need, " %u", err->write.length);
		break;
	case RPCRDMA2_ERR_REPLY_RESOURCE:
		vadd(&need, " %u", err->length_needed);
		break;
	}
	expect_list(o, "rpcrdma2.err.vers_low", &low, "");
	expect_list(o, "rpcrdma2.err.vers_high", &high, "");
	expect_list(o, "rpcrdma2.err.max_chunks", &maxc, "");
	expect_list(o, "rpcrdma2.err.max_segments", &maxs, "");
	expect_list(o, "rpcrdma2.err.chunk_index", &idx, "");
	expect_list(o, "rpcrdma2.err.length_needed", &need, "");
	if (err->v1_layout)
		expect(o, "rpcrdma2.err.v1_layout", "1");
	else
		absent(o, "rpcrdma2.err.v1_layout");
}

/*
 * The properties of an RDMA2_CONNPROP. rpcrdma2_encode() writes the
 * known ones in propid order; a wire packet's propset (@words, from its
 * count) is listed as written, unknown properties included. Returns
 * whether there are unknown ones.
 */
static bool expect_props(struct out *o, const struct cv_expect *e,
			 const u32 *words, u32 nwords)
{
	const struct rpcrdma2_props *pr = &e->props;
	struct vlist ids = {}, dflt = {}, unknown = {}, rbsiz = {}, brs = {};
	u32 n = 0, i, w, which, dlen;

	if (words) {
		n = words[0];
		for (i = 0, w = 1; i < n; i++) {
			if (w + 2 > nwords)
				die("propset overruns its vector");
			which = words[w];
			dlen = words[w + 1];
			vadd(&ids, " %u", which);
			if (which != RPCRDMA2_PROPID_RBSIZ &&
			    which != RPCRDMA2_PROPID_BRS)
				vadd(&unknown, " 1");
			w += 2 + (dlen + 3) / 4;
		}
	} else {
		if (pr->present & RPCRDMA2_PROPF_RBSIZ)
			vadd(&ids, " %u", RPCRDMA2_PROPID_RBSIZ);
		if (pr->present & RPCRDMA2_PROPF_BRS)
			vadd(&ids, " %u", RPCRDMA2_PROPID_BRS);
		n = !!(pr->present & RPCRDMA2_PROPF_RBSIZ) +
		    !!(pr->present & RPCRDMA2_PROPF_BRS);
	}
	expect(o, "rpcrdma2.props.count", "%u", n);
	expect_list(o, "rpcrdma2.prop.id", &ids, "");
	for (i = RPCRDMA2_PROPF_RBSIZ; i <= RPCRDMA2_PROPF_BRS; i <<= 1)
		if (pr->dflt & i)
			vadd(&dflt, " 1");
	if ((pr->present & ~pr->dflt) & RPCRDMA2_PROPF_RBSIZ)
		vadd(&rbsiz, " %u", pr->rbsiz);
	if ((pr->present & ~pr->dflt) & RPCRDMA2_PROPF_BRS)
		vadd(&brs, " %u", pr->brs);
	expect_list(o, "rpcrdma2.prop.default", &dflt, "");
	expect_list(o, "rpcrdma2.prop.unknown", &unknown, "");
	expect_list(o, "rpcrdma2.prop.rbsiz", &rbsiz, "");
	expect_list(o, "rpcrdma2.prop.brs", &brs, "");
	return unknown.n != 0;
}

/*
 * The fields of a valid header and the expert information it still
 * carries (notes only); see expect_lists() for @how, expect_props() for
 * @propwords.
 */
static void expect_header(struct out *o, const struct cv_expect *e,
			  u32 hdr_len, const char *how, const u32 *propwords,
			  u32 npropwords)
{
	struct vlist ei = {};

	expect(o, "rpcrdma2", "*");
	expect(o, "rpcrdma2.xid", "0x%08x", e->xid);
	expect(o, "rpcrdma2.vers", "%u", e->vers);
	expect(o, "rpcrdma2.credits", "%u", e->credits);
	expect(o, "rpcrdma2.htype", "%u", e->htype);
	if (e->vers == RPCRDMA2_VERS_2 && !e->err.v1_layout) {
		expect(o, "rpcrdma2.flags", "0x%08x", e->flags);
		expect(o, "rpcrdma2.flags.response", "%u",
		       e->flags & RPCRDMA2_F_RESPONSE);
	} else {
		absent(o, "rpcrdma2.flags");
		absent(o, "rpcrdma2.flags.response");
	}
	switch (e->htype) {
	case RPCRDMA2_HT_MSG:
	case RPCRDMA2_HT_NOMSG:
		expect_lists(o, e, how);
		expect(o, "rpcrdma2.hdr_len", "%u", hdr_len);
		absent(o, "rpcrdma2.err");
		absent(o, "rpcrdma2.props.count");
		if (e->htype == RPCRDMA2_HT_NOMSG)
			vadd(&ei, " rpcrdma2.ei.rpc_external");
		break;
	case RPCRDMA2_HT_ERROR:
		expect_error(o, e);
		absent(o, "rpcrdma2.reads.count");
		if (e->err.v1_layout)
			vadd(&ei, " rpcrdma2.ei.v1_layout");
		if (e->err.code > RPCRDMA2_ERR_SYSTEM)
			vadd(&ei, " rpcrdma2.ei.unknown_error");
		break;
	case RPCRDMA2_HT_CONNPROP:
		if (expect_props(o, e, propwords, npropwords))
			vadd(&ei, " rpcrdma2.ei.unknown_property");
		absent(o, "rpcrdma2.reads.count");
		break;
	}
	expect_list(o, "rpcrdma2.ei.*", &ei, "~ ");
	absent(o, "_ws.malformed");
}

/*
 * An RPC NULL message (RFC 5531 §9; NFSv3 NULL, RFC 1813 §3.3.0) for
 * an RDMA_MSG / RDMA2_MSG, into @buf; returns its length.
 */
static u32 rpc_null(u8 *buf, u32 xid, u32 msg_type)
{
	static const u32 call[] = {
		RPC_CALL, 2, NFS_PROGRAM, NFS_V3, 0,	/* NULL */
		0, 0,					/* AUTH_NONE cred */
		0, 0,					/* AUTH_NONE verf */
	};
	static const u32 reply[] = {
		RPC_REPLY, 0,				/* MSG_ACCEPTED */
		0, 0,					/* AUTH_NONE verf */
		0,					/* SUCCESS */
	};
	const u32 *w = msg_type == RPC_CALL ? call : reply;
	u32 n = msg_type == RPC_CALL ? ARRAY_SIZE(call) : ARRAY_SIZE(reply);
	u32 i;

	put_unaligned_be32(xid, buf);
	for (i = 0; i < n; i++)
		put_unaligned_be32(w[i], buf + 4 + 4 * i);
	return 4 + 4 * n;
}

static void expect_rpc(struct out *o, u32 xid, u32 msg_type, u32 len)
{
	expect(o, "rpcrdma2.rpc_len", "%u", len);
	expect(o, "rpc.xid", "0x%08x", xid);
	expect(o, "rpc.msgtyp", "%u", msg_type);
	if (msg_type == RPC_CALL) {
		expect(o, "rpc.program", "%u", NFS_PROGRAM);
		expect(o, "rpc.programversion", "+ %u", NFS_V3);
		expect(o, "rpc.procedure", "0");
		expect(o, "nfs.procedure_v3", "0");
	} else {
		expect(o, "rpc.replystat", "0");
		expect(o, "rpc.state_accept", "0");
		absent(o, "nfs.procedure_v3");
	}
}

/*
 * Send the valid header @e (the @hlen bytes at @hdr) of the vector @v as
 * a @kind packet, with what the dissector must show: for an RDMA_MSG /
 * RDMA2_MSG followed by an RPC NULL message with the XID and msg_type of
 * the vector's own RPC words (they need not match rdma_xid in v2),
 * otherwise alone. The message sent is left in @msg (MSG_MAX bytes); its
 * length is returned.
 */
static u32 send_valid(struct out *o, const char *kind,
		      const struct cv_vec *v, const struct cv_expect *e,
		      const u8 *hdr, u32 hlen, const char *how, u8 *msg)
{
	const u32 *rpc = v->words + e->hdr_len / 4;
	u32 nrpc = v->nwords - e->hdr_len / 4, xid, mtype, rlen = 0;
	const u32 *props = NULL;
	u32 nprops = 0;
	bool reply = e->flags & RPCRDMA2_F_RESPONSE ||
		     e->htype == RPCRDMA2_HT_ERROR;

	/* a wire packet's propset is checked as written */
	if (e->htype == RPCRDMA2_HT_CONNPROP && *how) {
		props = v->words + RPCRDMA2_V2_PREFIX_SIZE / 4;
		nprops = v->nwords - RPCRDMA2_V2_PREFIX_SIZE / 4;
	}
	record(o, kind, v->name);
	expect_header(o, e, hlen, how, props, nprops);
	memcpy(msg, hdr, hlen);
	if (e->htype == RPCRDMA2_HT_MSG) {
		xid = nrpc > 0 ? rpc[0] : e->xid;
		mtype = nrpc > 1 ? rpc[1] : !!(e->flags & RPCRDMA2_F_RESPONSE);
		reply = mtype == RPC_REPLY;
		rlen = rpc_null(msg + hlen, xid, mtype);
		expect_rpc(o, xid, mtype, rlen);
	} else {
		absent(o, "rpc.xid");
	}
	if (reply)
		write_send(o, &server, &client, msg, hlen + rlen, PATH_MTU);
	else
		write_send(o, &client, &server, msg, hlen + rlen, PATH_MTU);
	return hlen + rlen;
}

struct decoded {
	struct rpcrdma2_read_seg reads[CV_READS_CAP];
	struct rpcrdma2_read_chunk read_chunks[CV_READ_CHUNKS_CAP];
	struct rpcrdma2_chunk writes[CV_WRITES_CAP];
	struct rpcrdma2_seg segs[CV_SEGS_CAP];
	struct rpcrdma2_hdr hdr;
	struct cv_expect exp;
};

/* Attach @d's arrays to its header, with limits as wide as they hold */
static void decoded_init(struct decoded *d)
{
	static const struct rpcrdma2_limits wide = {
		.max_read_chunks = CV_READ_CHUNKS_CAP,
		.max_write_chunks = CV_SEGS_CAP /
				    (CV_READS_CAP / CV_READ_CHUNKS_CAP) - 1,
		.max_segs = CV_READS_CAP / CV_READ_CHUNKS_CAP,
	};

	memset(d, 0, sizeof(*d));
	if (rpcrdma2_chunk_lists_init(&d->hdr.cl, &wide, d->reads,
				      CV_READS_CAP, d->read_chunks,
				      CV_READ_CHUNKS_CAP, d->writes,
				      CV_WRITES_CAP, d->segs, CV_SEGS_CAP))
		die("chunk list arrays too small for their limits");
}

static const char *reject_expert(const struct cv_vec *v, u32 reason,
				 const u8 *buf, u32 len);

/*
 * Every prefix of @msg (@len bytes, a valid header and its RPC message)
 * down to the four fixed words, with what the codec makes of it: where
 * rpcrdma2_decode() accepts the prefix the dissector must find it whole,
 * where it rejects it the dissector must say why.
 */
static void cut_packets(struct out *o, const struct cv_vec *v,
			const u8 *msg, u32 len)
{
	static struct decoded d;
	struct rpcrdma2_reject rej;
	const char *ei;
	u32 cut;

	for (cut = RPCRDMA2_FIXED_SIZE; cut < len; cut++) {
		decoded_init(&d);
		fprintf(o->rec, "\nrecord %u cut to %u: %s\n", o->frame, cut,
			v->name);
		expect(o, "rpcrdma2.xid", "0x%08x", v->exp->xid);
		absent(o, "rpcrdma2.ei.internal");
		if (!rpcrdma2_decode(msg, cut, &d.hdr, &rej)) {
			absent(o, "rpcrdma2.ei.truncated");
			absent(o, "rpcrdma2.ei.short");
			absent(o, "rpcrdma2.ei.unaligned");
		} else {
			ei = reject_expert(v, rej.reason, msg, cut);
			if (!ei || !*ei)
				die("%s cut to %u: %s", v->name, cut,
				    rpcrdma2_reason_name(rej.reason));
			expect(o, "rpcrdma2.ei.*", "+ rpcrdma2.ei.%s", ei);
		}
		write_send(o, &client, &server, msg, cut, PATH_MTU);
	}
}

/*
 * A valid vector's expectation, as rpcrdma2_encode() writes it; the
 * message sent is left in @msg (MSG_MAX bytes), its length returned.
 */
static u32 codec_packet(struct out *o, const struct cv_vec *v, u8 *msg)
{
	static struct decoded d;
	u8 buf[CV_BUF_SIZE];
	int n;

	decoded_init(&d);
	cv_fill(v->exp, &d.hdr);
	n = rpcrdma2_encode(&d.hdr, buf, sizeof(buf));
	if (n < 0)
		die("%s: rpcrdma2_encode() returned %d", v->name, n);
	return send_valid(o, "codec", v, v->exp, buf, n, "", msg);
}

/* A valid vector as written, where that differs from its encoding */
static void wire_packet(struct out *o, const struct cv_vec *v)
{
	u8 buf[CV_BUF_SIZE], msg[MSG_MAX];

	cv_bytes(v->words, v->exp->hdr_len / 4, buf);
	send_valid(o, "wire", v, v->exp, buf, v->exp->hdr_len, "~ ", msg);
}

/*
 * A vector rejected for the receiver's limits is a valid header, unless
 * it has another fault too: decode it with limits as wide as the arrays
 * allow and, if that succeeds, send it as written with what that decode
 * says. Otherwise return the reason the wide decode gives.
 */
static u32 limit_packet(struct out *o, const struct cv_vec *v)
{
	static struct decoded d;
	struct rpcrdma2_hdr *h = &d.hdr;
	struct rpcrdma2_reject rej;
	u8 buf[CV_BUF_SIZE], msg[MSG_MAX];

	decoded_init(&d);
	cv_bytes(v->words, v->nwords, buf);
	if (rpcrdma2_decode(buf, cv_len(v), h, &rej))
		return rej.reason;
	d.exp = (struct cv_expect) {
		.xid = h->xid, .vers = h->vers, .credits = h->credits,
		.htype = h->htype, .flags = h->flags, .hdr_len = h->hdr_len,
		.inv_handle = h->cl.inv_handle, .nr_reads = h->cl.nr_reads,
		.nr_read_chunks = h->cl.nr_read_chunks,
		.nr_writes = h->cl.nr_writes, .nr_segs = h->cl.nr_segs,
		.has_reply = h->cl.has_reply, .reply = h->cl.reply,
		.reads = h->cl.reads, .writes = h->cl.writes,
		.segs = h->cl.segs, .err = h->err, .props = h->props,
	};
	send_valid(o, "limit", v, &d.exp, buf, h->hdr_len, "~ ", msg);
	return RPCRDMA2_REASON_NONE;
}

/*
 * The expert information (a field under rpcrdma2.ei.) that a rejection
 * reason calls for, "" for a reason that is the receiver's limit rather
 * than a fault of the header, or NULL where the dissector must leave the
 * packet alone: no known version, fewer than the four fixed words, or a
 * header type the version does not define that nothing else vouches for.
 */
static const char *reject_expert(const struct cv_vec *v, u32 reason,
				 const u8 *buf, u32 len)
{
	u32 vers = len >= 8 ? get_unaligned_be32(buf + 4) : 0;
	u32 flags = len >= 20 ? get_unaligned_be32(buf + 16) : ~0U;

	if (len < RPCRDMA2_FIXED_SIZE ||
	    (vers != RPCRDMA2_VERS_1 && vers != RPCRDMA2_VERS_2))
		return NULL;
	switch (reason) {
	case RPCRDMA2_REASON_SHORT:
		return "short";
	case RPCRDMA2_REASON_HTYPE:
		if (vers == RPCRDMA2_VERS_1 || flags & ~RPCRDMA2_F_RESPONSE)
			return NULL;
		return "unknown_htype";
	case RPCRDMA2_REASON_MSGP:
	case RPCRDMA2_REASON_DONE:
		return "not_to_be_used";
	case RPCRDMA2_REASON_TRUNCATED:
		return "truncated";
	case RPCRDMA2_REASON_UNALIGNED:
		return "unaligned";
	case RPCRDMA2_REASON_FLAGS:
		return "reserved_flags";
	case RPCRDMA2_REASON_BAD_BOOL:
		return "bad_discriminator";
	case RPCRDMA2_REASON_POSITION:
		return "bad_position";
	case RPCRDMA2_REASON_INV_HANDLE:
		return "inv_handle_unmatched";
	case RPCRDMA2_REASON_NOMSG_EMPTY:
		return "nomsg_empty";
	case RPCRDMA2_REASON_NOMSG_CHUNK:
		return "nomsg_no_payload_chunk";
	case RPCRDMA2_REASON_REPLY_READS:
		return "reply_reads";
	case RPCRDMA2_REASON_NO_PAYLOAD:
		return "no_payload";
	case RPCRDMA2_REASON_XID_MISMATCH:
		return "xid_mismatch";
	case RPCRDMA2_REASON_MSG_TYPE:
		return "msg_type_mismatch";
	case RPCRDMA2_REASON_NOT_RESPONSE:
		return "error_not_response";
	case RPCRDMA2_REASON_BAD_ERROR:
		return "bad_error";
	case RPCRDMA2_REASON_PROPVAL:
		return "bad_property_value";
	case RPCRDMA2_REASON_VERS:
	case RPCRDMA2_REASON_READ_CHUNKS:
	case RPCRDMA2_REASON_WRITE_CHUNKS:
	case RPCRDMA2_REASON_SEGMENTS:
		return "";
	}
	die("%s: no expectation for reason %s", v->name,
	    rpcrdma2_reason_name(reason));
	return NULL;
}

/* A vector the decoder rejects, as written */
static void reject_packet(struct out *o, const struct cv_vec *v)
{
	u32 len = cv_len(v), reason;
	u8 buf[CV_BUF_SIZE];
	const char *ei;
	bool reply;

	if (len > v->nwords * 4)
		die("%s: length beyond its words", v->name);
	cv_bytes(v->words, v->nwords, buf);
	ei = reject_expert(v, v->reason, buf, len);
	if (ei && !*ei) {
		reason = limit_packet(o, v);
		if (reason == RPCRDMA2_REASON_NONE)
			return;
		ei = reject_expert(v, reason, buf, len);
		if (ei && !*ei)
			die("%s: over limits as wide as the arrays", v->name);
	}
	record(o, "reject", v->name);
	if (!ei) {
		absent(o, "rpcrdma2");
	} else {
		expect(o, "rpcrdma2", "*");
		expect(o, "rpcrdma2.xid", "0x%08x", v->words[0]);
		expect(o, "rpcrdma2.ei.*", "+ rpcrdma2.ei.%s", ei);
		absent(o, "rpcrdma2.ei.internal");
	}
	reply = cv_is_v2(v) && v->words[4] & RPCRDMA2_F_RESPONSE;
	if (reply)
		write_send(o, &server, &client, buf, len, PATH_MTU);
	else
		write_send(o, &client, &server, buf, len, PATH_MTU);
}

static const struct cv_vec *valid_vector(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cv_valid); i++)
		if (!strcmp(cv_valid[i].name, name))
			return &cv_valid[i];
	die("no valid vector \"%s\"", name);
	return NULL;
}

/*
 * An NFSv3 WRITE Call (RFC 1813 §3.3.7) of WRITE_COUNT bytes at
 * WRITE_OFFSET, AUTH_NONE, into @buf; returns its length.
 */
static u32 rpc_nfs3_write(u8 *buf, u32 xid)
{
	static const u32 head[] = {
		RPC_CALL, 2, NFS_PROGRAM, NFS_V3, NFS3_WRITE,
		0, 0, 0, 0,			/* AUTH_NONE cred, verf */
		8, 0x01020304, 0x05060708,	/* file: 8-byte handle */
		0, WRITE_OFFSET,		/* offset */
		WRITE_COUNT, 2,			/* count, FILE_SYNC */
		WRITE_COUNT,			/* data<> */
	};
	u32 i, n = 4;

	put_unaligned_be32(xid, buf);
	for (i = 0; i < ARRAY_SIZE(head); i++, n += 4)
		put_unaligned_be32(head[i], buf + n);
	for (i = 0; i < WRITE_COUNT; i++)
		buf[n++] = i & 0xff;
	return n;
}

/* The header of an RDMA_MSG / RDMA2_MSG Call without chunks */
static u32 msg_header(u8 *buf, u32 vers, u32 xid)
{
	static struct decoded d;
	struct cv_expect e = {
		.xid = xid, .vers = vers, .credits = 32,
		.htype = RPCRDMA2_HT_MSG,
	};
	int n;

	decoded_init(&d);
	cv_fill(&e, &d.hdr);
	n = rpcrdma2_encode(&d.hdr, buf, CV_BUF_SIZE);
	if (n < 0)
		die("rpcrdma2_encode() of a Call returned %d", n);
	return n;
}

/*
 * An NFSv3 WRITE Call in a message longer than @mtu: SEND First,
 * Middle... and Last packets, the dissector decoding the whole at the
 * last one. A @reply vector, if given, comes from the server between the
 * first two packets, and must decode on its own.
 */
static void long_send(struct out *o, const char *name, u32 vers, u32 mtu,
		      const struct cv_vec *reply)
{
	static u8 msg[MSG_MAX + WRITE_COUNT + 128], other[MSG_MAX];
	u32 xid = 0x7a7a0000 + vers, hlen, len, off, n, op, nparts;
	struct vlist frames = {};

	hlen = msg_header(msg, vers, xid);
	len = hlen + rpc_nfs3_write(msg + hlen, xid);
	nparts = (len + mtu - 1) / mtu;
	for (off = 0; off < len; off += n) {
		n = len - off < mtu ? len - off : mtu;
		op = !off ? BTH_RC_SEND_FIRST : off + n < len ?
			BTH_RC_SEND_MIDDLE : BTH_RC_SEND_LAST;
		vadd(&frames, " %u", o->frame);
		fprintf(o->rec, "\nrecord %u long: %s, packet %u of %u\n",
			o->frame, name, off / mtu + 1, nparts);
		expect(o, "rpcrdma2", "*");
		if (op != BTH_RC_SEND_LAST) {
			absent(o, "rpcrdma2.xid");
			absent(o, "rpcrdma2.ei.*");
		} else {
			expect(o, "rpcrdma2.xid", "0x%08x", xid);
			expect(o, "rpcrdma2.vers", "%u", vers);
			expect(o, "rpcrdma2.htype", "%u", RPCRDMA2_HT_MSG);
			expect(o, "rpcrdma2.reads.count", "0");
			expect(o, "rpcrdma2.writes.count", "0");
			absent(o, "rpcrdma2.reply.segcount");
			expect(o, "rpcrdma2.fragment.count", "%u", nparts);
			expect_list(o, "rpcrdma2.fragment", &frames, "");
			expect(o, "rpcrdma2.reassembled.length", "%u", len);
			expect(o, "rpcrdma2.hdr_len", "%u", hlen);
			expect(o, "rpcrdma2.rpc_len", "%u", len - hlen);
			absent(o, "rpcrdma2.ei.*");
			absent(o, "_ws.malformed");
			expect(o, "rpc.xid", "0x%08x", xid);
			expect(o, "rpc.msgtyp", "%u", RPC_CALL);
			expect(o, "nfs.procedure_v3", "%u", NFS3_WRITE);
			expect(o, "nfs.offset3", "%u", WRITE_OFFSET);
			expect(o, "nfs.count3", "%u", WRITE_COUNT);
			expect(o, "nfs.data", "*");
		}
		write_packet(o, &client, &server, op, msg + off, n);
		if (op == BTH_RC_SEND_FIRST && reply)
			codec_packet(o, reply, other);
	}
}

/*
 * A longer message whose middle packet was not captured: the dissector
 * takes the first (it cannot know yet) and leaves the last alone; so it
 * does a middle or last packet of a message it never saw begin.
 */
static void lost_packet(struct out *o)
{
	static u8 msg[MSG_MAX + WRITE_COUNT + 128];
	u32 xid = 0x7a7a0100, hlen, len;

	hlen = msg_header(msg, RPCRDMA2_VERS_2, xid);
	len = hlen + rpc_nfs3_write(msg + hlen, xid);
	if (len <= 2 * SMALL_MTU)
		die("the WRITE Call fits in two packets");
	fprintf(o->rec, "\nrecord %u long: first packet, the next one lost\n",
		o->frame);
	expect(o, "rpcrdma2", "*");
	absent(o, "rpcrdma2.xid");
	write_packet(o, &client, &server, BTH_RC_SEND_FIRST, msg, SMALL_MTU);
	o->psn[0]++;
	fprintf(o->rec, "\nrecord %u long: last packet, one before it lost\n",
		o->frame);
	absent(o, "rpcrdma2");
	write_packet(o, &client, &server, BTH_RC_SEND_LAST,
		     msg + 2 * SMALL_MTU, len - 2 * SMALL_MTU);
	fprintf(o->rec, "\nrecord %u long: a middle packet on its own\n",
		o->frame);
	absent(o, "rpcrdma2");
	write_packet(o, &client, &server, BTH_RC_SEND_MIDDLE, msg + SMALL_MTU,
		     SMALL_MTU);
}

static void out_open(struct out *o, const char *dir, const char *name)
{
	static const u8 pcap_hdr[24] = {
		0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0,	/* magic, 2.4 */
		0, 0, 0, 0, 0, 0, 0, 0,			/* zone, sigfigs */
		0xff, 0xff, 0, 0, 1, 0, 0, 0,		/* snaplen, EN10MB */
	};
	char path[4096];

	o->frame = 1;
	o->psn[0] = 1;
	o->psn[1] = 0x800000;
	snprintf(path, sizeof(path), "%s/%s.pcap", dir, name);
	o->pcap = fopen(path, "wb");
	if (!o->pcap || fwrite(pcap_hdr, sizeof(pcap_hdr), 1, o->pcap) != 1)
		die("cannot write %s", path);
	snprintf(path, sizeof(path), "%s/%s.expect", dir, name);
	o->rec = fopen(path, "w");
	if (!o->rec)
		die("cannot write %s", path);
	fprintf(o->rec,
		"# What tools/wireshark/rpcrdma2.lua must show for the packets of\n"
		"# %s.pcap, from the codec's test vectors; the format is\n"
		"# described in tests/wireshark/check_pcap.py.\n", name);
}

static void out_close(struct out *o)
{
	if (fclose(o->pcap) || fclose(o->rec))
		die("cannot write the pcap or records file");
}

int main(int argc, char **argv)
{
	static u8 msgs[ARRAY_SIZE(cv_valid)][MSG_MAX];
	u32 lens[ARRAY_SIZE(cv_valid)];
	struct out o, cuts;
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: vectors_pcap DIR\n");
		return 2;
	}
	out_open(&o, argv[1], "vectors");
	for (i = 0; i < ARRAY_SIZE(cv_valid); i++)
		lens[i] = codec_packet(&o, &cv_valid[i], msgs[i]);
	for (i = 0; i < ARRAY_SIZE(cv_valid); i++)
		if (cv_valid[i].exp->enc_words)
			wire_packet(&o, &cv_valid[i]);
	for (i = 0; i < ARRAY_SIZE(cv_invalid); i++)
		reject_packet(&o, &cv_invalid[i]);
	long_send(&o, "v2 RDMA2_MSG NFSv3 WRITE, a Reply between", 2,
		  SMALL_MTU, valid_vector("v2 RDMA2_MSG READ reply"));
	long_send(&o, "v1 RDMA_MSG NFSv3 WRITE", 1, 2 * SMALL_MTU, NULL);
	lost_packet(&o);
	out_close(&o);

	out_open(&cuts, argv[1], "cuts");
	for (i = 0; i < ARRAY_SIZE(cv_valid); i++)
		cut_packets(&cuts, &cv_valid[i], msgs[i], lens[i]);
	out_close(&cuts);
	return 0;
}
