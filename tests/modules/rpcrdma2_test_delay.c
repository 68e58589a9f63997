// SPDX-License-Identifier: GPL-2.0
/*
 * Test fixture: hold up one function at its entry, each time it is
 * called, for a few milliseconds. fail_function makes a function fail;
 * this makes it slow, which a test of an ordering needs when the window
 * it closes is microseconds wide: tests/vm/svcrdma2_connprop.sh holds
 * svcrdma2's take of a client's RDMA2_CONNPROP (svc_rdma2_take_rbsiz())
 * so that another nfsd thread, were it let take the Calls behind it,
 * would answer them first.
 *
 * The hold is a kprobe whose pre-handler spins: it runs with preemption
 * disabled (and, until the probe is optimized, interrupts too) and
 * cannot sleep, so the delay is bounded (ms, at most RPCRDMA2_TEST_MAX_MS)
 * and the function's thread keeps its CPU: only a guest with another CPU
 * runs anything meanwhile. Each call held is counted in the read-only
 * parameter hits.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>

/* far under the soft-lockup and RCU stall detectors' 20 s */
#define RPCRDMA2_TEST_MAX_MS	500

static char *rpcrdma2_test_symbol;
module_param_named(symbol, rpcrdma2_test_symbol, charp, 0444);
MODULE_PARM_DESC(symbol, "the function to hold up (a kernel or module symbol)");

static unsigned int rpcrdma2_test_ms = 100;
module_param_named(ms, rpcrdma2_test_ms, uint, 0444);
MODULE_PARM_DESC(ms, "milliseconds each call is held (1..500, default 100)");

static atomic_t rpcrdma2_test_hits = ATOMIC_INIT(0);

static int rpcrdma2_test_hits_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&rpcrdma2_test_hits));
}

static const struct kernel_param_ops rpcrdma2_test_hits_ops = {
	.get	= rpcrdma2_test_hits_get,
};
module_param_cb(hits, &rpcrdma2_test_hits_ops, NULL, 0444);
MODULE_PARM_DESC(hits, "calls held so far");

static int rpcrdma2_test_pre(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_inc(&rpcrdma2_test_hits);
	mdelay(rpcrdma2_test_ms);
	return 0;
}

static struct kprobe rpcrdma2_test_kp = {
	.pre_handler	= rpcrdma2_test_pre,
};

static int __init rpcrdma2_test_init(void)
{
	if (!rpcrdma2_test_symbol || !*rpcrdma2_test_symbol) {
		pr_err("rpcrdma2_test_delay: no symbol= given\n");
		return -EINVAL;
	}
	if (!rpcrdma2_test_ms || rpcrdma2_test_ms > RPCRDMA2_TEST_MAX_MS) {
		pr_err("rpcrdma2_test_delay: ms=%u is not 1..%u\n",
		       rpcrdma2_test_ms, RPCRDMA2_TEST_MAX_MS);
		return -EINVAL;
	}
	rpcrdma2_test_kp.symbol_name = rpcrdma2_test_symbol;
	return register_kprobe(&rpcrdma2_test_kp);
}

static void __exit rpcrdma2_test_exit(void)
{
	unregister_kprobe(&rpcrdma2_test_kp);
}

module_init(rpcrdma2_test_init);
module_exit(rpcrdma2_test_exit);
MODULE_DESCRIPTION("rpcrdma2 test fixture: hold up a function for a few milliseconds");
MODULE_LICENSE("GPL");
MODULE_VERSION(RPCRDMA2_VERSION);
