// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma2 transport: the "rdma2" xprt_class and its rpc_xprt_ops. The
 * RPC client calls in here to allocate buffers, connect, send Calls and
 * close; connecting happens in a worker, sending in marshal.c, and
 * everything that touches the RDMA device in verbs.c.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>

#include <rpcrdma2/dropin.h>
#include <rpcrdma2/kparams.h>
#include <rpcrdma2/stats.h>

#include "xprt_rdma2.h"
#define CREATE_TRACE_POINTS
#include "trace.h"

/* The first reconnect waits this long, later ones back off from it */
#define RPCRDMA2_INIT_REEST_TO	(5 * HZ)
#define RPCRDMA2_MAX_REEST_TO	(30 * HZ)
#define RPCRDMA2_IDLE_DISC_TO	(5 * 60 * HZ)

static int param_set_requests(const char *val, const struct kernel_param *kp)
{
	return rpcrdma2_param_set_range(val, kp, RPCRDMA2_MIN_REQUESTS,
					RPCRDMA2_MAX_REQUESTS, 1);
}

static int param_set_inline(const char *val, const struct kernel_param *kp)
{
	/* RFC 8797 §4.2 sizes are whole KiB */
	return rpcrdma2_param_set_range(val, kp, RPCRDMA2_MIN_INLINE_SIZE,
					RPCRDMA2_MAX_INLINE_SIZE,
					RPCRDMA2_CM_PDATA_SIZE_UNIT);
}

static int param_set_mr_depth(const char *val, const struct kernel_param *kp)
{
	return rpcrdma2_param_set_range(val, kp, RPCRDMA2_MIN_MR_DEPTH,
					RPCRDMA2_MAX_MR_DEPTH, 1);
}

static const struct kernel_param_ops requests_ops = {
	.set = param_set_requests, .get = param_get_uint,
};

static const struct kernel_param_ops inline_ops = {
	.set = param_set_inline, .get = param_get_uint,
};

static const struct kernel_param_ops mr_depth_ops = {
	.set = param_set_mr_depth, .get = param_get_uint,
};

unsigned int xprt_rdma2_max_requests = RPCRDMA2_DEF_REQUESTS;
module_param_cb(max_requests, &requests_ops, &xprt_rdma2_max_requests, 0644);
MODULE_PARM_DESC(max_requests,
		 "RPC slots (Calls outstanding) per transport, 2..1024 (new mounts)");

unsigned int xprt_rdma2_inline_size = RPCRDMA2_DEF_INLINE_SIZE;
module_param_cb(inline_size, &inline_ops, &xprt_rdma2_inline_size, 0644);
MODULE_PARM_DESC(inline_size,
		 "Send/Receive buffer bytes, advertised in private data and RBSIZ, 4096..65536 (new connections)");

unsigned int xprt_rdma2_mr_depth = RPCRDMA2_MAX_MR_DEPTH;
module_param_cb(mr_depth, &mr_depth_ops, &xprt_rdma2_mr_depth, 0644);
MODULE_PARM_DESC(mr_depth,
		 "pages one MR maps at most, 4..1 MiB of pages (256 with 4 KiB pages), or the device's limit if lower; the largest payload shrinks to what a chunk's MRs map (new connections)");

bool xprt_rdma2_guess_replies = true;
module_param_named(guess_replies, xprt_rdma2_guess_replies, bool, 0644);
MODULE_PARM_DESC(guess_replies,
		 "v2: leave out the Reply chunk of a Call whose procedure's replies have been small (resent with one if refused)");

static const struct rpc_timeout xprt_rdma2_default_timeout = {
	.to_initval = 60 * HZ,
	.to_maxval = 60 * HZ,
};

/* Documentation/xprtrdma2.rst says what each one counts */
static const char * const xprt_rdma2_counter_names[] = {
	[RPCRDMA2_C_CALLS_INLINE] = "calls",
	[RPCRDMA2_C_REPLIES] = "replies",
	[RPCRDMA2_C_BAD_REPLIES] = "bad_replies",
	[RPCRDMA2_C_NO_RQST] = "no_rqst",
	[RPCRDMA2_C_ERRORS] = "errors",
	[RPCRDMA2_C_FALLBACKS] = "fallbacks",
	[RPCRDMA2_C_CONNPROP_RECV] = "connprop_recv",
	[RPCRDMA2_C_CONNPROP_SENT] = "connprop_sent",
	[RPCRDMA2_C_REMOTE_INV] = "remote_inv",
	[RPCRDMA2_C_TOO_BIG] = "too_big",
	[RPCRDMA2_C_NO_SENDCTX] = "no_sendctx",
	[RPCRDMA2_C_REVERSE_DROPPED] = "reverse_dropped",
	[RPCRDMA2_C_LONG_CALLS] = "long_calls",
	[RPCRDMA2_C_REPLY_CHUNKS] = "reply_chunks",
	[RPCRDMA2_C_MRS_REGISTERED] = "mrs",
	[RPCRDMA2_C_REMOTE_INV_MATCHED] = "reminv_matched",
	[RPCRDMA2_C_REMOTE_INV_FOREIGN] = "reminv_foreign",
	[RPCRDMA2_C_LOCAL_INV] = "local_inv",
	[RPCRDMA2_C_BAD_REPLY_CHUNKS] = "bad_reply_chunks",
	[RPCRDMA2_C_READ_CHUNKS] = "read_chunks",
	[RPCRDMA2_C_WRITE_CHUNKS] = "write_chunks",
	[RPCRDMA2_C_WRITE_BYTES] = "write_bytes",
	[RPCRDMA2_C_BC_CALLS] = "bc_calls",
	[RPCRDMA2_C_BC_REPLIES] = "bc_replies",
	[RPCRDMA2_C_BC_REPLY_ERRORS] = "bc_reply_errors",
	[RPCRDMA2_C_MRS_CREATED] = "mrs_created",
	[RPCRDMA2_C_NO_MRS] = "no_mrs",
	[RPCRDMA2_C_MR_REFILL_ERRORS] = "mr_refill_errors",
	[RPCRDMA2_C_SENDS_SIGNALED] = "sends_signaled",
	[RPCRDMA2_C_RECV_POSTS] = "recv_posts",
	[RPCRDMA2_C_REPLY_GUESSES] = "reply_guesses",
	[RPCRDMA2_C_REPLY_GUESS_MISSES] = "reply_guess_misses",
	[RPCRDMA2_C_RBSIZ_REFUSED] = "rbsiz_refused",
	[RPCRDMA2_C_SEND_BUFS] = "send_bufs",
	[RPCRDMA2_C_SEND_BUF_ERRORS] = "send_buf_errors",
};

/* a name for the last counter; xprt_rdma2_init() looks for holes */
static_assert(ARRAY_SIZE(xprt_rdma2_counter_names) == RPCRDMA2_NR_COUNTERS);

/*
 * Every transport from ->setup to ->destroy, for /proc/fs/xprtrdma2/stats,
 * and the counters of those destroyed since the module loaded.
 */
static LIST_HEAD(xprt_rdma2_xprts);
static DEFINE_SPINLOCK(xprt_rdma2_xprts_lock);	/* the list and the next two */
static u64 xprt_rdma2_retired[RPCRDMA2_NR_COUNTERS];
static unsigned long xprt_rdma2_nr_xprts;

/*
 * ->buf_alloc: one allocation holds the request state and both buffers.
 * Every request that can hold a congestion slot has its buffers, so the
 * list of them is what a reconnect walks to take the slots back.
 */
static int xprt_rdma2_buf_alloc(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;
	struct rpcrdma2_xprt *r = rpcx_to_rdma2x(rqst->rq_xprt);
	size_t call = ALIGN(rqst->rq_callsize, 8);
	struct rpcrdma2_req *req;

	req = kmalloc(struct_size(req, rl_buf, call + rqst->rq_rcvsize),
		      rpc_task_gfp_mask());
	if (!req)
		return -ENOMEM;
	req->rl_rqst = rqst;
	req->rl_ep = NULL;
	req->rl_sent_ep = NULL;
	INIT_LIST_HEAD(&req->rl_mrs);
	req->rl_nr_reads = 0;
	req->rl_nr_write = 0;
	req->rl_nr_reply = 0;
	req->rl_ddp_off = 0;
	req->rl_guess_tag = 0;
	req->rl_guessed = false;
	req->rl_no_guess = false;
	req->rl_rep = NULL;
	init_completion(&req->rl_inv_done);
	spin_lock(&r->rx_reqs_lock);
	list_add(&req->rl_list, &r->rx_reqs);
	spin_unlock(&r->rx_reqs_lock);
	rqst->rq_buffer = req->rl_buf;
	rqst->rq_rbuffer = req->rl_buf + call;
	return 0;
}

/*
 * ->buf_free: an RPC that ended without a reply (killed, timed out) may
 * still have memory registered; the server must lose access to it before
 * the buffers and pages go back (struct rpcrdma2_req has the rule).
 */
static void xprt_rdma2_buf_free(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;
	struct rpcrdma2_xprt *r = rpcx_to_rdma2x(rqst->rq_xprt);
	struct rpcrdma2_req *req = rpcrdma2_rqst_to_req(rqst);

	rpcrdma2_frwr_unmap_sync(r, req);
	spin_lock(&r->rx_reqs_lock);
	list_del(&req->rl_list);
	spin_unlock(&r->rx_reqs_lock);
	kfree(req);
}

/*
 * A new connection starts with a grant of one (RFC 8166 §3.3.3, draft
 * §7): Calls that held a congestion slot on the old one give it back, so
 * only one Call goes out until the server grants more.
 *
 * A task that found the window full set XPRT_CWND_WAIT and sleeps on
 * ->sending; only a slot given back through xprt_release_rqst_cong()
 * clears it, and the slots were just taken back here without that. Left
 * set, it keeps xprt_unlock_connect() from waking any sender: a task
 * with no timeout of its own, such as the reply to a reverse-direction
 * Call, would sleep there for good.
 */
static void xprt_rdma2_reset_cwnd(struct rpcrdma2_xprt *r)
{
	struct rpc_xprt *xprt = &r->rx_xprt;
	struct rpcrdma2_req *req;

	spin_lock(&xprt->transport_lock);
	spin_lock(&r->rx_reqs_lock);
	list_for_each_entry(req, &r->rx_reqs, rl_list)
		req->rl_rqst->rq_cong = 0;
	spin_unlock(&r->rx_reqs_lock);
	xprt->cong = 0;
	xprt->cwnd = RPC_CWNDSCALE;
	clear_bit(XPRT_CWND_WAIT, &xprt->state);
	spin_unlock(&xprt->transport_lock);
}

static void xprt_rdma2_connect_worker(struct work_struct *work)
{
	struct rpcrdma2_xprt *r = container_of(work, struct rpcrdma2_xprt,
					       rx_connect_worker.work);
	struct rpc_xprt *xprt = &r->rx_xprt;
	int rc;

	xprt_clear_connected(xprt);
	/* whatever is left of an endpoint that was never closed */
	rpcrdma2_ep_disconnect(r);
	xprt_rdma2_reset_cwnd(r);
	rc = rpcrdma2_ep_connect(r);
	xprt_clear_connecting(xprt);
	if (!rc) {
		xprt->connect_cookie++;
		xprt->stat.connect_count++;
		xprt->stat.connect_time += (long)jiffies -
					   xprt->stat.connect_start;
		/* NFS sizes its I/O by this after the first connect */
		WRITE_ONCE(xprt->max_payload,
			   rpcrdma2_max_payload(r->rx_ep->re_mr_depth));
		xprt_set_connected(xprt);
		/* the waiting tasks retry their sends */
		rc = -EAGAIN;
	} else {
		rpcrdma2_ep_disconnect(r);
	}
	trace_xprtrdma2_connect(r, rc);
	xprt_unlock_connect(xprt, r);
	xprt_wake_pending_tasks(xprt, rc);
}

/* ->connect: the send lock is held until the worker unlocks it */
static void xprt_rdma2_connect(struct rpc_xprt *xprt, struct rpc_task *task)
{
	struct rpcrdma2_xprt *r = rpcx_to_rdma2x(xprt);
	unsigned long delay = 0;

	WARN_ON_ONCE(!xprt_lock_connect(xprt, task, r));
	if (xprt->stat.connect_count) {
		delay = xprt_reconnect_delay(xprt);
		xprt_reconnect_backoff(xprt, RPCRDMA2_INIT_REEST_TO);
	}
	queue_delayed_work(system_long_wq, &r->rx_connect_worker, delay);
}

/**
 * xprt_rdma2_close - close the connection
 * @xprt: the transport
 *
 * Context: process; the caller holds @xprt's send lock (autoclose, or
 * a failed send), so no Call is being sent meanwhile.
 */
static void xprt_rdma2_close(struct rpc_xprt *xprt)
{
	struct rpcrdma2_xprt *r = rpcx_to_rdma2x(xprt);

	rpcrdma2_ep_disconnect(r);
	xprt->reestablish_timeout = 0;
	++xprt->connect_cookie;
	xprt_disconnect_done(xprt);
}

static void xprt_rdma2_set_port(struct rpc_xprt *xprt, u16 port)
{
	struct sockaddr *sap = (struct sockaddr *)&xprt->addr;
	char buf[8];

	rpc_set_port(sap, port);
	kfree(xprt->address_strings[RPC_DISPLAY_PORT]);
	snprintf(buf, sizeof(buf), "%u", port);
	xprt->address_strings[RPC_DISPLAY_PORT] = kstrdup(buf, GFP_KERNEL);
	kfree(xprt->address_strings[RPC_DISPLAY_HEX_PORT]);
	snprintf(buf, sizeof(buf), "%4hx", port);
	xprt->address_strings[RPC_DISPLAY_HEX_PORT] = kstrdup(buf, GFP_KERNEL);
}

/*
 * ->timer: an RPC timed out on a connected transport. RDMA has no
 * keepalive, so a fresh connection is the way to find out whether the
 * path is still there; every pending Call is then sent again.
 */
static void xprt_rdma2_timer(struct rpc_xprt *xprt, struct rpc_task *task)
{
	xprt_force_disconnect(xprt);
}

static void xprt_rdma2_set_connect_timeout(struct rpc_xprt *xprt,
					   unsigned long connect_timeout,
					   unsigned long reconnect_timeout)
{
	struct rpcrdma2_xprt *r = rpcx_to_rdma2x(xprt);

	spin_lock(&xprt->transport_lock);
	if (connect_timeout < xprt->connect_timeout) {
		struct rpc_timeout to = *xprt->timeout;
		unsigned long initval = max_t(unsigned long, connect_timeout,
					      RPCRDMA2_INIT_REEST_TO << 1);

		to.to_initval = initval;
		to.to_maxval = initval;
		r->rx_timeout = to;
		xprt->timeout = &r->rx_timeout;
		xprt->connect_timeout = connect_timeout;
	}
	if (reconnect_timeout < xprt->max_reconnect_timeout)
		xprt->max_reconnect_timeout = reconnect_timeout;
	spin_unlock(&xprt->transport_lock);
}

/*
 * ->send_request: the caller holds the send lock. Return values are the
 * ones xprt_transmit() knows: -ENOTCONN reconnects and sends again,
 * -EBADSLT waits for a credit, -EAGAIN waits for a Send context or an MR,
 * -ENOMEM / -ENOBUFS retry after a delay, -EMSGSIZE / -EIO fail the RPC.
 */
static int xprt_rdma2_send_request(struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;
	struct rpcrdma2_xprt *r = rpcx_to_rdma2x(xprt);
	struct rpcrdma2_ep *sent_ep;
	struct rpcrdma2_req *req;
	int rc;

	/* the reply to a reverse-direction Call (backchannel.c) */
	if (test_bit(RPC_BC_PA_IN_USE, &rqst->rq_bc_pa_state))
		return rpcrdma2_bc_send_reply(r, rqst);
	if (!xprt_connected(xprt))
		return -ENOTCONN;
	if (!xprt_request_get_cong(xprt, rqst))
		return -EBADSLT;
	req = rpcrdma2_rqst_to_req(rqst);
	/*
	 * A retransmission on the connection that still owes the Call an
	 * answer would spend a credit twice. A Call the server answered
	 * with an error that has it sent again (rpcrdma2_reply_error()) owes
	 * nothing. (sunrpc's rq_connect_cookie would say the same, but is
	 * set after this returns, which can be after that answer.)
	 */
	sent_ep = READ_ONCE(req->rl_sent_ep);
	if (sent_ep && sent_ep == r->rx_ep)
		goto drop_connection;
	/*
	 * Before the post: the reply may complete the RPC before
	 * rpcrdma2_send_call() returns, and xprt_complete_rqst() takes the
	 * round trip from it.
	 */
	rqst->rq_xtime = ktime_get();
	rc = rpcrdma2_send_call(r, rqst);
	if (rc == -ENOTCONN)
		goto drop_connection;
	if (rc)
		return rc;
	rqst->rq_xmit_bytes_sent += rqst->rq_snd_buf.len;
	/* a Call without a reply would leave its credit spent for good */
	if (!rpc_reply_expected(rqst->rq_task))
		goto drop_connection;
	return 0;

drop_connection:
	xprt_rdma2_close(xprt);
	return -ENOTCONN;
}

/* A counter's value: the sum over every CPU (see &rpcrdma2_xprt.rx_stats) */
static u64 rpcrdma2_stat(const struct rpcrdma2_xprt *r,
			 enum rpcrdma2_counter c)
{
	return rpcrdma2_percpu_sum(&r->rx_stats[c]);
}

/*
 * /proc/self/mountstats "xprt:" line; Documentation/xprtrdma2.rst
 * describes every field. The first ten are those of the in-tree rdma
 * line; ours follow, the counters in enum order: tools read this line
 * by position, so it only ever grows at the end. The same counters by
 * name are in /proc/fs/xprtrdma2/stats.
 */
static void xprt_rdma2_print_stats(struct rpc_xprt *xprt,
				   struct seq_file *seq)
{
	struct rpcrdma2_xprt *r = rpcx_to_rdma2x(xprt);
	long idle_time = 0;
	int i;

	if (xprt_connected(xprt))
		idle_time = (long)(jiffies - xprt->last_used) / HZ;
	seq_printf(seq, "\txprt:\trdma2 0 %lu %lu %lu %ld %lu %lu %lu %llu %llu",
		   xprt->stat.bind_count, xprt->stat.connect_count,
		   xprt->stat.connect_time / HZ, idle_time,
		   xprt->stat.sends, xprt->stat.recvs, xprt->stat.bad_xids,
		   xprt->stat.req_u, xprt->stat.bklog_u);
	seq_printf(seq, " %u %u %u", READ_ONCE(r->rx_vers),
		   READ_ONCE(r->rx_send_inline), READ_ONCE(r->rx_recv_inline));
	for (i = 0; i < RPCRDMA2_NR_COUNTERS; i++)
		seq_printf(seq, " %llu", rpcrdma2_stat(r, i));
	seq_putc(seq, '\n');
}

static int xprt_rdma2_enable_swap(struct rpc_xprt *xprt)
{
	return -EINVAL;
}

static void xprt_rdma2_disable_swap(struct rpc_xprt *xprt)
{
}

static void xprt_rdma2_free_addresses(struct rpc_xprt *xprt)
{
	unsigned int i;

	for (i = 0; i < RPC_DISPLAY_MAX; i++)
		kfree(xprt->address_strings[i]);
}

static void xprt_rdma2_format_addresses(struct rpc_xprt *xprt)
{
	const struct xprt_class *class = xprt->xprt_class;
	struct sockaddr *sap = (struct sockaddr *)&xprt->addr;
	char buf[128];

	snprintf(buf, sizeof(buf), "%pISc", sap);
	xprt->address_strings[RPC_DISPLAY_ADDR] = kstrdup(buf, GFP_KERNEL);
	snprintf(buf, sizeof(buf), "%u", rpc_get_port(sap));
	xprt->address_strings[RPC_DISPLAY_PORT] = kstrdup(buf, GFP_KERNEL);
	snprintf(buf, sizeof(buf), "%4hx", rpc_get_port(sap));
	xprt->address_strings[RPC_DISPLAY_HEX_PORT] = kstrdup(buf, GFP_KERNEL);
	/*
	 * What mount(8) typed: nfs shows NETID as proto= in /proc/mounts,
	 * and mount.nfs reads it back to unmount. The drop-in class has an
	 * IPv6 netid of its own, as the in-tree transport does.
	 */
	xprt->address_strings[RPC_DISPLAY_PROTO] = class->name;
	xprt->address_strings[RPC_DISPLAY_NETID] = class->netid[0];
	if (sap->sa_family == AF_INET6 && class->netid[1][0])
		xprt->address_strings[RPC_DISPLAY_NETID] = class->netid[1];
	if (sap->sa_family == AF_INET)
		snprintf(buf, sizeof(buf), "%08x",
			 ntohl(((struct sockaddr_in *)sap)->sin_addr.s_addr));
	else
		snprintf(buf, sizeof(buf), "%pi6",
			 &((struct sockaddr_in6 *)sap)->sin6_addr);
	xprt->address_strings[RPC_DISPLAY_HEX_ADDR] = kstrdup(buf, GFP_KERNEL);
}

/*
 * Only the strings format_addresses kstrdup'ed are freed: PROTO and NETID
 * point at constants.
 */
static void xprt_rdma2_free_strings(struct rpc_xprt *xprt)
{
	xprt->address_strings[RPC_DISPLAY_PROTO] = NULL;
	xprt->address_strings[RPC_DISPLAY_NETID] = NULL;
	xprt_rdma2_free_addresses(xprt);
}

/*
 * Nothing counts any more (the endpoint and the backchannel are gone):
 * the stats file stops showing @r and the global line keeps its counts.
 */
static void xprt_rdma2_stats_unlist(struct rpcrdma2_xprt *r)
{
	int i;

	spin_lock(&xprt_rdma2_xprts_lock);
	list_del(&r->rx_stats_link);
	xprt_rdma2_nr_xprts--;
	for (i = 0; i < RPCRDMA2_NR_COUNTERS; i++)
		xprt_rdma2_retired[i] += rpcrdma2_stat(r, i);
	spin_unlock(&xprt_rdma2_xprts_lock);
}

static void xprt_rdma2_destroy(struct rpc_xprt *xprt)
{
	struct module *owner = xprt->xprt_class->owner;
	struct rpcrdma2_xprt *r = rpcx_to_rdma2x(xprt);

	trace_xprtrdma2_destroy(r);
	cancel_delayed_work_sync(&r->rx_connect_worker);
	rpcrdma2_ep_disconnect(r);
	/* reverse-direction rqsts given back after ->bc_destroy */
	rpcrdma2_bc_free_idle(xprt);
	xprt_rdma2_stats_unlist(r);
	free_percpu(r->rx_stats);
	xprt_rdma2_free_strings(xprt);
	xprt_free(xprt);
	module_put(owner);
}

static const struct rpc_xprt_ops xprt_rdma2_ops = {
	.reserve_xprt		= xprt_reserve_xprt_cong,
	.release_xprt		= xprt_release_xprt_cong,
	.alloc_slot		= xprt_alloc_slot,
	.free_slot		= xprt_free_slot,
	.release_request	= xprt_release_rqst_cong,
	.wait_for_reply_request	= xprt_wait_for_reply_request_def,
	.timer			= xprt_rdma2_timer,
	.rpcbind		= rpcb_getport_async,
	.set_port		= xprt_rdma2_set_port,
	.connect		= xprt_rdma2_connect,
	.buf_alloc		= xprt_rdma2_buf_alloc,
	.buf_free		= xprt_rdma2_buf_free,
	.send_request		= xprt_rdma2_send_request,
	.close			= xprt_rdma2_close,
	.destroy		= xprt_rdma2_destroy,
	.set_connect_timeout	= xprt_rdma2_set_connect_timeout,
	.print_stats		= xprt_rdma2_print_stats,
	.enable_swap		= xprt_rdma2_enable_swap,
	.disable_swap		= xprt_rdma2_disable_swap,
	.bc_setup		= xprt_rdma2_bc_setup,
	.bc_maxpayload		= xprt_rdma2_bc_maxpayload,
	.bc_num_slots		= xprt_rdma2_bc_num_slots,
	.bc_free_rqst		= xprt_rdma2_bc_free_rqst,
	.bc_destroy		= xprt_rdma2_bc_destroy,
};

static struct xprt_class xprt_rdma2_class;
static struct xprt_class xprt_rdma2_dropin_class;

/*
 * The largest RPC payload (NFS rsize / wsize) this transport carries:
 * what does not fit inline goes as a Long Call or a Long Reply (RFC 8166
 * §3.5), whose chunks register up to RPCRDMA2_MAX_PAYLOAD of pages;
 * each connect sets what the device's MRs map (rpcrdma2_max_payload()).
 */
static size_t xprt_rdma2_max_payload(void)
{
	return RPCRDMA2_MAX_PAYLOAD;
}

/*
 * xprt_class.setup of both classes: the transport is the same, only the
 * names it answers to differ. It holds the module of its class (the
 * drop-in's is rpcrdma, which holds this one) until ->destroy.
 */
static struct rpc_xprt *xprt_rdma2_setup(struct xprt_create *args)
{
	struct xprt_class *class = &xprt_rdma2_class;
	struct sockaddr *sap = args->dstaddr;
	struct rpcrdma2_xprt *r;
	struct rpc_xprt *xprt;

	if (args->ident == xprt_rdma2_dropin_class.ident)
		class = &xprt_rdma2_dropin_class;
	if (args->addrlen > sizeof(xprt->addr))
		return ERR_PTR(-EBADF);
	if (sap->sa_family != AF_INET && sap->sa_family != AF_INET6)
		return ERR_PTR(-EAFNOSUPPORT);
	if (!try_module_get(class->owner))
		return ERR_PTR(-EIO);
	xprt = xprt_alloc(args->net, sizeof(*r), RPCRDMA2_MIN_REQUESTS,
			  READ_ONCE(xprt_rdma2_max_requests));
	if (!xprt) {
		module_put(class->owner);
		return ERR_PTR(-ENOMEM);
	}
	r = rpcx_to_rdma2x(xprt);
	r->rx_stats = __alloc_percpu(sizeof(u64) * RPCRDMA2_NR_COUNTERS,
				     __alignof__(u64));
	if (!r->rx_stats) {
		xprt_free(xprt);
		module_put(class->owner);
		return ERR_PTR(-ENOMEM);
	}
	INIT_LIST_HEAD(&r->rx_reqs);
	spin_lock_init(&r->rx_reqs_lock);
	mutex_init(&r->rx_mr_mutex);
	INIT_DELAYED_WORK(&r->rx_connect_worker, xprt_rdma2_connect_worker);

	xprt->timeout = &xprt_rdma2_default_timeout;
	xprt->connect_timeout = xprt->timeout->to_initval;
	xprt->max_reconnect_timeout = RPCRDMA2_MAX_REEST_TO;
	xprt->bind_timeout = RPCRDMA2_INIT_REEST_TO;
	xprt->reestablish_timeout = RPCRDMA2_INIT_REEST_TO;
	xprt->idle_timeout = RPCRDMA2_IDLE_DISC_TO;
	xprt->resvport = 0;
	xprt->ops = &xprt_rdma2_ops;
	/* side protocols (NFSv4.0 callback, lockd) read this as TCP */
	xprt->prot = IPPROTO_TCP;
	xprt->xprt_class = class;
	xprt->addrlen = args->addrlen;
	memcpy(&xprt->addr, sap, xprt->addrlen);
	if (rpc_get_port(sap))
		xprt_set_bound(xprt);
	xprt_rdma2_format_addresses(xprt);
	xprt->max_payload = xprt_rdma2_max_payload();
	/* xprt_create_transport() ->destroy()s it from here on if it fails */
	spin_lock(&xprt_rdma2_xprts_lock);
	list_add_tail(&r->rx_stats_link, &xprt_rdma2_xprts);
	xprt_rdma2_nr_xprts++;
	spin_unlock(&xprt_rdma2_xprts_lock);
	trace_xprtrdma2_setup(r);
	return xprt;
}

static struct xprt_class xprt_rdma2_class = {
	.list		= LIST_HEAD_INIT(xprt_rdma2_class.list),
	.name		= "rdma2",
	.owner		= THIS_MODULE,
	.ident		= XPRT_TRANSPORT_RDMA2,
	.setup		= xprt_rdma2_setup,
	.netid		= { "rdma2", "" },
};

/*
 * The in-tree transport's names (net/sunrpc/xprtrdma/transport.c), for
 * the drop-in module: the NFS client gives ident XPRT_TRANSPORT_RDMA
 * port 20049, nconnect and RDMA-first referrals, and mount -o proto=rdma
 * and proto=rdma6 find it by netid. The owner is rpcrdma's.
 */
static struct xprt_class xprt_rdma2_dropin_class = {
	.list		= LIST_HEAD_INIT(xprt_rdma2_dropin_class.list),
	.name		= "rdma",
	.ident		= XPRT_TRANSPORT_RDMA,
	.setup		= xprt_rdma2_setup,
	.netid		= { "rdma", "rdma6", "" },
};

/**
 * xprt_rdma2_dropin_register - answer to the in-tree transport's names
 * @owner: the module that takes them (rpcrdma), held by each transport
 *	created under them
 *
 * Context: module init of @owner, which holds this module (it calls
 * here) for as long as it is loaded.
 *
 * Return: %0, or %-EEXIST when another transport has ident
 * XPRT_TRANSPORT_RDMA (the in-tree rpcrdma built in, say).
 */
int xprt_rdma2_dropin_register(struct module *owner)
{
	xprt_rdma2_dropin_class.owner = owner;
	return xprt_register_transport(&xprt_rdma2_dropin_class);
}
EXPORT_SYMBOL_GPL(xprt_rdma2_dropin_register);

/**
 * xprt_rdma2_dropin_unregister - give the in-tree transport's names back
 *
 * No transport of the class is left: each holds the owner's module.
 *
 * Context: module exit of the owner, or its init unwinding.
 */
void xprt_rdma2_dropin_unregister(void)
{
	xprt_unregister_transport(&xprt_rdma2_dropin_class);
}
EXPORT_SYMBOL_GPL(xprt_rdma2_dropin_unregister);

/*
 * /proc/fs/xprtrdma2/stats: a "global" line, the counters summed over
 * every transport since the module loaded, then one "xprt" line per
 * transport (Documentation/xprtrdma2.rst describes every field).
 */
static int xprt_rdma2_stats_show(struct seq_file *m, void *v)
{
	struct rpcrdma2_xprt *r;
	struct rpc_xprt *xprt;
	u64 sum;
	int i;

	spin_lock(&xprt_rdma2_xprts_lock);
	seq_printf(m, "global xprts=%lu", xprt_rdma2_nr_xprts);
	for (i = 0; i < RPCRDMA2_NR_COUNTERS; i++) {
		sum = xprt_rdma2_retired[i];
		list_for_each_entry(r, &xprt_rdma2_xprts, rx_stats_link)
			sum += rpcrdma2_stat(r, i);
		seq_printf(m, " %s=%llu", xprt_rdma2_counter_names[i], sum);
	}
	seq_putc(m, '\n');
	list_for_each_entry(r, &xprt_rdma2_xprts, rx_stats_link) {
		xprt = &r->rx_xprt;
		seq_printf(m, "xprt %pISpc vers=%u send_inline=%u recv_inline=%u connects=%lu",
			   (struct sockaddr *)&xprt->addr, READ_ONCE(r->rx_vers),
			   READ_ONCE(r->rx_send_inline),
			   READ_ONCE(r->rx_recv_inline),
			   READ_ONCE(xprt->stat.connect_count));
		for (i = 0; i < RPCRDMA2_NR_COUNTERS; i++)
			seq_printf(m, " %s=%llu", xprt_rdma2_counter_names[i],
				   rpcrdma2_stat(r, i));
		seq_putc(m, '\n');
	}
	spin_unlock(&xprt_rdma2_xprts_lock);
	return 0;
}

static struct proc_dir_entry *xprt_rdma2_proc_dir;

static int __init xprt_rdma2_init(void)
{
	int ret, i;

	for (i = 0; i < RPCRDMA2_NR_COUNTERS; i++)
		if (WARN(!xprt_rdma2_counter_names[i],
			 "xprtrdma2: counter %d has no name\n", i))
			return -EINVAL;
	xprt_rdma2_proc_dir = proc_mkdir("fs/xprtrdma2", NULL);
	if (!xprt_rdma2_proc_dir)
		return -ENOMEM;
	if (!proc_create_single("stats", 0444, xprt_rdma2_proc_dir,
				xprt_rdma2_stats_show)) {
		ret = -ENOMEM;
		goto out_remove_proc;
	}
	ret = xprt_register_transport(&xprt_rdma2_class);
	if (ret)
		goto out_remove_proc;
	return 0;

out_remove_proc:
	proc_remove(xprt_rdma2_proc_dir);
	return ret;
}

static void __exit xprt_rdma2_exit(void)
{
	/* each transport holds the module: none is left to show */
	xprt_unregister_transport(&xprt_rdma2_class);
	proc_remove(xprt_rdma2_proc_dir);
}

module_init(xprt_rdma2_init);
module_exit(xprt_rdma2_exit);

MODULE_DESCRIPTION("RPC-over-RDMA v2/v1 client transport (rdma2)");
MODULE_LICENSE("GPL");
MODULE_VERSION(RPCRDMA2_VERSION);
/* xprt_find_transport_ident("rdma2") loads "rpcrdma2" */
MODULE_ALIAS("rpcrdma2");
