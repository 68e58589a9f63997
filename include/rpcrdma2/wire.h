/* SPDX-License-Identifier: GPL-2.0 */
/*
 * On-the-wire constants and sizes of RPC-over-RDMA Version 1 (RFC 8166),
 * Version 2 (draft-cel-nfsv4-rpcrdma-version-two-09) and the RFC 8797
 * connection-manager private data. All names carry an RPCRDMA2_ prefix so
 * they cannot collide with include/linux/sunrpc/rpc_rdma.h.
 */
#ifndef _RPCRDMA2_WIRE_H
#define _RPCRDMA2_WIRE_H

/* RFC 8797 §5: CM private data message */
#define RPCRDMA2_CM_PDATA_MAGIC		0xf6ab0e18U	/* format identifier */
#define RPCRDMA2_CM_PDATA_VERSION	1
#define RPCRDMA2_CM_PDATA_SIZE		8		/* bytes */
#define RPCRDMA2_CM_PDATA_F_REMINV	0x01		/* R bit: Send With Invalidate OK */
#define RPCRDMA2_CM_PDATA_MIN_SIZE	1024		/* smallest encodable size */
#define RPCRDMA2_CM_PDATA_MAX_SIZE	(256 * 1024)	/* largest encodable size */

/* Default inline thresholds: RFC 8166 §3.3.3 (v1), draft v2 §8.3 (v2) */
#define RPCRDMA2_V1_DEF_INLINE		1024
#define RPCRDMA2_V2_DEF_INLINE		4096

/*
 * Transport header prefix (RFC 8166 §4.2, draft v2 §3.1-§3.2): xid, vers,
 * credit and header type are the same four words in every version; v2
 * appends rdma_flags.
 */
#define RPCRDMA2_VERS_1			1
#define RPCRDMA2_VERS_2			2
#define RPCRDMA2_VERS_MIN		RPCRDMA2_VERS_1	/* ERR_VERS range we send */
#define RPCRDMA2_VERS_MAX		RPCRDMA2_VERS_2

#define RPCRDMA2_XDR_UNIT		4	/* bytes; XDR alignment (RFC 4506 §3) */
#define RPCRDMA2_FIXED_SIZE		16	/* xid, vers, credit, htype */
#define RPCRDMA2_V2_PREFIX_SIZE		20	/* + rdma_flags */
/* RFC 8166 §4.5: shorter messages are discarded without parsing */
#define RPCRDMA2_V1_MIN_HDR_SIZE	28

/* v1 procedures (RFC 8166 §4.2.4) */
#define RPCRDMA2_V1_RDMA_MSG		0
#define RPCRDMA2_V1_RDMA_NOMSG		1
#define RPCRDMA2_V1_RDMA_MSGP		2	/* not to be used, §4.6.1 */
#define RPCRDMA2_V1_RDMA_DONE		3	/* not to be used, §4.6.2 */
#define RPCRDMA2_V1_RDMA_ERROR		4

/* v2 header types (draft v2 §5.2, §6.4) */
#define RPCRDMA2_HT_MSG			0
#define RPCRDMA2_HT_NOMSG		1
#define RPCRDMA2_HT_ERROR		4
#define RPCRDMA2_HT_CONNPROP		5

/* v2 rdma_flags (draft v2 §3.2); every other bit is reserved */
#define RPCRDMA2_F_RESPONSE		0x00000001U

/* v1 rpc_rdma_errcode (RFC 8166 §4.1.2) */
#define RPCRDMA2_V1_ERR_VERS		1
#define RPCRDMA2_V1_ERR_CHUNK		2

/* v2 error codes (draft v2 §5.3.3, §6.4) */
#define RPCRDMA2_ERR_VERS		1
#define RPCRDMA2_ERR_BAD_XDR		2
#define RPCRDMA2_ERR_INVAL_HTYPE	3
#define RPCRDMA2_ERR_READ_CHUNKS	4
#define RPCRDMA2_ERR_WRITE_CHUNKS	5
#define RPCRDMA2_ERR_SEGMENTS		6
#define RPCRDMA2_ERR_WRITE_RESOURCE	7
#define RPCRDMA2_ERR_REPLY_RESOURCE	8
#define RPCRDMA2_ERR_SYSTEM		9

/* v2 transport properties (draft v2 §4.2) */
#define RPCRDMA2_PROPID_RBSIZ		1	/* uint32, default 4096 */
#define RPCRDMA2_PROPID_BRS		2	/* enum rpcrdma2_rvreqsup */
#define RPCRDMA2_RVREQSUP_NONE		0
#define RPCRDMA2_RVREQSUP_INLINE	1	/* default */
#define RPCRDMA2_RVREQSUP_GENL		2
#define RPCRDMA2_DEF_RBSIZ		RPCRDMA2_V2_DEF_INLINE
#define RPCRDMA2_DEF_BRS		RPCRDMA2_RVREQSUP_INLINE

/* Encoded sizes in bytes (RFC 8166 §4.7) */
#define RPCRDMA2_SEGMENT_SIZE		16	/* handle, length, offset (2 words) */
#define RPCRDMA2_READ_SEGMENT_SIZE	20	/* position + segment */
#define RPCRDMA2_PROPVAL_MIN_SIZE	8	/* rdma_which + empty rdma_data */

#endif /* _RPCRDMA2_WIRE_H */
