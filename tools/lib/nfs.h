/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ONC RPC (RFC 5531) and NFSv4.0 COMPOUND (RFC 7530) on the wire, as
 * much as the tools need: the calls a requester sends (NULL, and one
 * COMPOUND of LOOKUPs ending in READLINK, READ or two WRITEs) and the
 * checks of the replies that come back.
 */
#ifndef _RPCRDMA2_TOOLS_NFS_H
#define _RPCRDMA2_TOOLS_NFS_H

#include "util.h"

/* ONC RPC (RFC 5531 §9) */
#define RPC_CALL		0
#define RPC_REPLY		1
#define RPC_VERSION		2
#define RPC_MSG_ACCEPTED	0
#define RPC_MSG_DENIED		1
#define RPC_SUCCESS		0
#define RPC_PROC_UNAVAIL	3
#define RPC_GARBAGE_ARGS	4
#define RPC_SYSTEM_ERR		5
#define RPC_MISMATCH		0	/* reject_stat */
#define RPC_AUTH_NONE		0
#define RPC_AUTH_SYS		1
#define RPC_AUTH_GSS		6	/* RFC 2203 */
#define RPC_MAX_AUTH_BYTES	400
#define RPC_NULL_PROC		0
#define NFS_PROGRAM		100003
#define NFS4_CALLBACK		0x40000000	/* RFC 8881 §20 */
#define RPC_NULL_CALL_SIZE	40	/* xid ... verifier, no arguments */

/* NFSv4.0 (RFC 7530 §16) */
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

/* The COMPOUND a requester sends: PUTROOTFH, LOOKUP per name, then @op */
struct nfs_compound {
	const char *path;
	u32 op;			/* NFS4_OP_READLINK, _READ or _WRITE */
	u32 read_count;		/* READ's count */
	u32 w2_len[2];		/* the two WRITEs' lengths */
};

/* What its reply held */
struct nfs_result {
	const u8 *data;		/* READLINK's text or READ's data */
	u32 data_len;		/* or the bytes the WRITEs wrote */
	u32 w2_done;		/* WRITE results checked */
	bool eof;		/* READ4resok.eof */
};

static inline u32 xdr_align(u32 n)
{
	return (n + 3) & ~3U;
}

u8 *put_opaque(u8 *r, const void *data, u32 len);
u8 *put_call_header(u8 *r, u32 xid, u32 vers, u32 proc);
u32 build_null(u32 nfs_vers, u32 pad_to, u32 xid, u8 *out);
u8 w2_byte(u64 i);
int build_compound(const struct nfs_compound *q, u32 xid, u8 *out, u32 *len,
		   u32 *pos);
int rpc_accepted(const u8 *m, u32 len, u32 xid, char *why, size_t whylen);
int check_compound_reply(const struct nfs_compound *q, const u8 *m, u32 len,
			 u32 xid, const u8 *chunk_data, u32 chunk_len,
			 struct nfs_result *res, char *why, size_t whylen);

#endif /* _RPCRDMA2_TOOLS_NFS_H */
