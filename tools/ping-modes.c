// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma2-ping's credit and inline-size abuse: --flood sends far more
 * calls than the server granted, --fat-reply one call whose reply cannot
 * fit the receive size we advertised. Both check that the server copes
 * without growing or sending what we cannot take.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rpcrdma2-ping.h"

/*
 * Encode an RDMA_MSG / RDMA2_MSG NULL call with @h's chunk lists into
 * send slot @slot and post it. Returns its length, or -1.
 */
static int post_null_msg(struct ping *p, u32 slot, struct rpcrdma2_hdr *h)
{
	u8 *m = conn_send_buf(&p->c, slot);
	u32 rpc_len;
	int hl;

	h->vers = p->vers;
	h->credits = p->opts->credits;
	h->htype = RPCRDMA2_HT_MSG;
	h->flags = 0;
	hl = rpcrdma2_encode(h, m, p->opts->size);
	if (hl < 0) {
		tool_err("cannot encode the transport header: %s", strerror(-hl));
		return -1;
	}
	rpc_len = build_null(p->opts->nfs_vers, p->opts->long_call, h->xid, p->scratch);
	if ((u32)hl + rpc_len > p->send_thresh) {
		tool_err("a call of %u bytes exceeds the inline threshold %u",
			 (u32)hl + rpc_len, p->send_thresh);
		return -1;
	}
	memcpy(m + hl, p->scratch, rpc_len);
	if (conn_post_send(&p->c, slot, (u32)hl + rpc_len, NULL, NULL))
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
int flood_run(struct ping *p, u32 flood, const char *flood_until)
{
	const struct ping_opts *o = p->opts;
	u32 n = flood_until ? FLOOD_MAX : flood;
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
		if (flood_until && sent < n && sent >= flood &&
		    !access(flood_until, F_OK))
			n = sent;
		/* every free send slot gets a call: replies are not awaited */
		while (sent < n) {
			if (conn_reap(&p->c))
				goto out;
			slot = conn_free_slot(&p->c);
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
		rc = conn_next_recv(&p->c, sent < n ? &soon : &dl, &wc);
		if (rc == -ETIMEDOUT && sent < n && ms_left(&dl))
			continue;
		if (rc == -ETIMEDOUT) {
			tool_err("flood: no reply within %.1f s",
				 o->timeout_ms / 1000.0);
			goto out;
		}
		if (rc)
			goto out;
		idx = (u32)wc.wr_id;
		rc = rpcrdma2_decode(conn_recv_buf(&p->c, idx),
				     wc.byte_len, &p->rhdr, &rej);
		if (conn_post_recv(&p->c, idx))
			goto out;
		i = p->rhdr.xid - base;
		if (rc || p->rhdr.htype != RPCRDMA2_HT_MSG || i >= n ||
		    seen[i] || p->rhdr.vers != p->vers) {
			tool_err("flood: an unexpected message (%u bytes, xid 0x%08x, %s)",
				 wc.byte_len, p->rhdr.xid,
				 rc ? "rejected by the codec" :
				 rpcrdma2_htype_name(p->rhdr.vers,
						     p->rhdr.htype));
			goto out;
		}
		if (rpc_accepted(conn_recv_buf(&p->c, idx) +
				 p->rhdr.hdr_len, p->rhdr.rpc_len,
				 p->rhdr.xid, why, sizeof(why)) < 0) {
			tool_err("flood: xid 0x%08x: %s", p->rhdr.xid, why);
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
		       p->c.disconnected ? "the server closed the connection" :
		       p->c.qp_failed ? "our QP failed" : "stopped", answered);
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
int fat_reply_run(struct ping *p)
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
	slot = conn_wait_slot(&p->c);
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
	rc = conn_next_recv(&p->c, &dl, &wc);
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
	m = conn_recv_buf(&p->c, idx);
	if (o->verbose)
		print_hex("received", m, wc.byte_len);
	rc = rpcrdma2_decode(m, wc.byte_len, &h, &rej);
	if (conn_post_recv(&p->c, idx))
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
