// SPDX-License-Identifier: GPL-2.0
/*
 * ONC RPC calls and replies for the requester (nfs.h): RPC NULL with
 * AUTH_NONE, an NFSv4.0 COMPOUND with AUTH_SYS, and byte-by-byte checks
 * of what the server answers.
 */
#include <string.h>

#include "nfs.h"

#define AUTH_SYS_MACHINE	"rpcrdma2-ping"

/* RFC 4506 §4.10 opaque<>: length, bytes, zero padding */
u8 *put_opaque(u8 *r, const void *data, u32 len)
{
	r = put32(r, len);
	memcpy(r, data, len);
	memset(r + len, 0, (4 - len % 4) % 4);
	return r + ((len + 3) & ~3U);
}

/* RFC 5531 §9: the call header up to the credential */
u8 *put_call_header(u8 *r, u32 xid, u32 vers, u32 proc)
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

/*
 * RPC NULL with AUTH_NONE; padded to @pad_to bytes when that is more
 * (the server ignores what follows NULL's void arguments).
 */
u32 build_null(u32 nfs_vers, u32 pad_to, u32 xid, u8 *out)
{
	u8 *r = put_call_header(out, xid, nfs_vers, RPC_NULL_PROC);

	r = put32(r, RPC_AUTH_NONE);
	r = put32(r, 0);
	r = put32(r, RPC_AUTH_NONE);
	r = put32(r, 0);
	if (pad_to > (u32)(r - out)) {
		memset(r, 0, pad_to - (r - out));
		return pad_to;
	}
	return (u32)(r - out);
}

/*
 * --write2's data: byte @i of the file. A multiplicative hash, so bytes
 * written at the wrong offset do not match by accident.
 */
u8 w2_byte(u64 i)
{
	return (u8)((u32)(i * 2654435761U) >> 24);
}

/*
 * --write2: two WRITEs whose data items are reduced to Read chunks
 * (RFC 8166 §3.4.5): each length stays inline, the Position is where the
 * data starts in the unreduced stream, which counts the data items (and
 * their roundup) before it. @pos gets the two Positions.
 */
static u8 *put_write2(const struct nfs_compound *q, u8 *out, u8 *r,
		      u32 *pos)
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
		r = put32(r, q->w2_len[k]);
		pos[k] = (u32)(r - out) + unreduced;
		unreduced += xdr_align(q->w2_len[k]);
		off += q->w2_len[k];
	}
	return r;
}

/*
 * --readlink / --read: NFSv4.0 COMPOUND { PUTROOTFH, LOOKUP per name,
 * READLINK or READ } (RFC 7530 §16), AUTH_SYS as root (RFC 5531
 * Appendix A); READ of @q->read_count bytes from offset 0 with the
 * anonymous stateid (RFC 7530 §9.1.4.3). --write2: two WRITEs instead.
 */
int build_compound(const struct nfs_compound *q, u32 xid, u8 *out, u32 *len,
		   u32 *pos)
{
	const char *name = q->path, *end;
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
			tool_err("PATH: at most %d names of at most %d bytes",
				 NFS4_MAX_NAMES, NFS4_MAXNAME);
			return -1;
		}
		r = put32(r, NFS4_OP_LOOKUP);
		r = put_opaque(r, name, nl);
		name = end;
	}
	if (q->op == NFS4_OP_WRITE) {
		r = put_write2(q, out, r, pos);
		put32(nops, n + 3);
		*len = (u32)(r - out);
		return 0;
	}
	r = put32(r, q->op);
	if (q->op == NFS4_OP_READ) {
		memset(r, 0, 16);		/* stateid: seqid, other */
		r += 16;
		r = put32(r, 0);		/* offset (hyper) */
		r = put32(r, 0);
		r = put32(r, q->read_count);
	}
	put32(nops, n + 2);
	*len = (u32)(r - out);
	return 0;
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
int rpc_accepted(const u8 *m, u32 len, u32 xid, char *why, size_t whylen)
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

/*
 * The reply to the --readlink / --read COMPOUND (RFC 7530 §16.2.3):
 * NFS4_OK from every operation, then READLINK's linktext4 or READ's eof
 * and data, inline or (the bytes, their XDR padding removed: RFC 8166
 * §3.4.6) in the Write chunk: @chunk_len bytes at @chunk_data. Sets
 * @res; its data points into the reply or the chunk.
 */
int check_compound_reply(const struct nfs_compound *q, const u8 *m, u32 len,
			 u32 xid, const u8 *chunk_data, u32 chunk_len,
			 struct nfs_result *res, char *why, size_t whylen)
{
	int at = rpc_accepted(m, len, xid, why, whylen);
	u32 off, n, i, op, st, dl;
	bool found = false;

	if (at < 0)
		return -1;
	off = (u32)at;
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
		if (op != q->op)
			continue;
		if (op == NFS4_OP_WRITE) {
			/* WRITE4resok: count, committed, writeverf */
			if (len < off + 16)
				goto short_reply;
			dl = get32(m + off);
			if (res->w2_done > 1 || dl != q->w2_len[res->w2_done]) {
				snprintf(why, whylen, "WRITE %u wrote %u bytes",
					 res->w2_done + 1, dl);
				return -1;
			}
			res->data_len += dl;
			res->w2_done++;
			off += 16;
			found = res->w2_done == 2;
			continue;
		}
		if (op == NFS4_OP_READ) {
			if (len < off + 4)
				goto short_reply;
			res->eof = get32(m + off);
			off += 4;
		}
		if (len < off + 4)
			goto short_reply;
		dl = get32(m + off);
		off += 4;
		if (chunk_len) {
			if (dl != chunk_len) {
				snprintf(why, whylen, "data length %u, the Write chunk received %u",
					 dl, chunk_len);
				return -1;
			}
			res->data = chunk_data;
		} else {
			if (dl > len - off || len - off - dl < (4 - dl % 4) % 4)
				goto short_reply;
			res->data = m + off;
			off += (dl + 3) & ~3U;
		}
		res->data_len = dl;
		found = true;
	}
	if (!found) {
		snprintf(why, whylen, "no op %u result in %u results",
			 q->op, n);
		return -1;
	}
	if (off != len) {
		snprintf(why, whylen, "%u bytes after the COMPOUND results",
			 len - off);
		return -1;
	}
	return 0;

short_reply:
	snprintf(why, whylen, "COMPOUND reply ends early (%u bytes)", len);
	return -1;
}
