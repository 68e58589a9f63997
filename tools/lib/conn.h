/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One RPC-over-RDMA connection on rdma-core, for either side: an rdma_cm
 * id on its own event channel, a PD, a Receive CQ we sleep on and a Send
 * CQ we only poll, an RC QP, and one registered buffer cut into Receive
 * buffers and send slots. The requester (negotiate.c) and the listeners
 * post, poll, connect, accept and tear down through these helpers.
 */
#ifndef _RPCRDMA2_TOOLS_CONN_H
#define _RPCRDMA2_TOOLS_CONN_H

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include <rpcrdma2/codec.h>
#include <rpcrdma2/cm_pdata.h>

#include "util.h"

#define DEF_TIMEOUT_MS		5000
#define CONN_MAX_SLOTS		256	/* send slots, at most */

/* wr_id of a memory-window bind or local invalidate: not a Send */
#define WRID_MEM		0x100000000ULL

/* Receives beyond the credits, for unsolicited RDMA2_CONNPROP and errors */
#define SPARE_RECVS		2

/* What a CM REP carries (IB spec): room for spoiled private data */
#define CONN_PDATA_MAX		196

struct conn {
	/* set before conn_create() */
	u32 size;		/* each Receive buffer and send slot */
	u32 timeout_ms;		/* for a Send, a CM event */
	bool verbose;		/* dump what is sent */
	bool quiet;		/* failed completions unreported unless verbose */
	u32 nr_recvs;
	u32 nr_sends;		/* send slots */
	u32 nr_send_wrs;	/* Send Queue depth */
	bool no_repost;		/* conn_post_recv() posts nothing */

	struct rdma_event_channel *ec;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct ibv_cq *recv_cq;
	struct ibv_cq *send_cq;
	struct ibv_mr *mr;
	u8 *buf;
	bool cq_armed;
	bool connected;
	bool disconnected;

	/* RFC 8797 private data the peer sent */
	struct rpcrdma2_cm_pdata peer;
	int peer_rc;
	u32 peer_len;

	bool qp_failed;		/* a completion failed: the QP is in error */
	bool recv_failed;	/* it was a Receive (else a Send) */
	u32 fail_status;	/* and its enum ibv_wc_status */

	bool held[CONN_MAX_SLOTS];	/* its user keeps it (a call unanswered) */
	bool send_busy[CONN_MAX_SLOTS];	/* its last Send has not completed */
};

void conn_note_err(const struct conn *c, const char *fmt, ...);
/* What a listening program takes (rpcrdma2-listen, rpcrdma2-listen-fuzz) */
struct listen_opts {
	u32 port;
	const char *bind;	/* --bind ADDR, or NULL: every address */
	u32 max_conns;		/* --max-conns N; 0: no limit */
	u32 listen_ms;		/* --timeout S; 0: no limit */
	u32 credits;
	u32 size;
	u32 timeout_ms;		/* for a Send, a CM event */
	bool verbose;
};

/* A listening id on its own channel, and when to stop listening */
struct listener {
	const struct listen_opts *o;
	struct rdma_event_channel *ec;
	struct rdma_cm_id *id;
	struct timespec end;	/* o->listen_ms from the start */
};

int conn_open(struct rdma_event_channel **ec, struct rdma_cm_id **id);
struct rdma_cm_event *cm_next(struct rdma_event_channel *ec, int ms);

int conn_resolve(struct conn *c, const char *host, u32 port);
int conn_create(struct conn *c);
int conn_connect(struct conn *c, const char *host, u32 port, const u8 *pdata,
		 u8 len);

int listener_start(struct listener *ls, const struct listen_opts *o);
void listener_deadline(const struct listener *ls, struct timespec *dl);
struct rdma_cm_event *listener_next(struct listener *ls, bool report,
				    const char **why);
int listener_recv(const struct listener *ls, struct conn *c,
		  struct ibv_wc *wc);
void listener_print(const struct listener *ls, const char *mode, u32 grant);
void listener_stop(struct listener *ls);
void listener_take(const struct listener *ls, struct rdma_cm_event *ev,
		   struct conn *c, u32 nr_sends);
int conn_accept(struct conn *c, const u8 *pdata, u8 len, u8 initiator_depth);
int conn_established(struct conn *c, char *why, size_t whylen);

u8 *conn_send_buf(struct conn *c, u32 slot);
u8 *conn_recv_buf(struct conn *c, u32 idx);
int conn_post_recv(struct conn *c, u32 idx);
int conn_post_send(struct conn *c, u32 slot, u32 len, struct ibv_send_wr *pre,
		   const u32 *inv_rkey);
int conn_post_wr(struct conn *c, u32 slot, struct ibv_send_wr *wr);
int conn_reap(struct conn *c);
int conn_free_slot(const struct conn *c);
int conn_wait_slot(struct conn *c);
u8 *conn_slot_buf(struct conn *c, int *slot);
int conn_wait_sends(struct conn *c);
int conn_next_recv(struct conn *c, const struct timespec *dl,
		   struct ibv_wc *wc);

long conn_wait_disconnected(struct conn *c, u32 ms);
void conn_close(struct conn *c);
void conn_free(struct conn *c);

#endif /* _RPCRDMA2_TOOLS_CONN_H */
