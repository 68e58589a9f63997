// SPDX-License-Identifier: GPL-2.0
/*
 * Test fixture for patches/0001 (NFS proto= takes any registered netid):
 * an RPC transport class with a netid that the stock NFS client does not
 * know, so tests/vm/nfs_proto.sh can show that proto=<netid> now reaches
 * the registered transport, and that an ident fs/nfs has no case for gets
 * TCP-like timeouts instead of the old BUG() in nfs_init_timeout_values().
 * Its setup always fails: it moves no data and is loaded only by that test.
 */
#include <linux/module.h>
#include <linux/sunrpc/xprt.h>

/* Away from the upstream idents (xprt.h) and from rpcrdma2's own. */
#define RPCRDMA2_TEST_IDENT	0x2fff

static struct rpc_xprt *rpcrdma2_test_setup(struct xprt_create *args)
{
	return ERR_PTR(-EPROTONOSUPPORT);
}

static struct xprt_class rpcrdma2_test_class = {
	.list	= LIST_HEAD_INIT(rpcrdma2_test_class.list),
	.name	= "rpcrdma2 netid test",
	.owner	= THIS_MODULE,
	.ident	= RPCRDMA2_TEST_IDENT,
	.setup	= rpcrdma2_test_setup,
	.netid	= { "rdma2test", "" },
};

static int __init rpcrdma2_test_init(void)
{
	return xprt_register_transport(&rpcrdma2_test_class);
}

static void __exit rpcrdma2_test_exit(void)
{
	xprt_unregister_transport(&rpcrdma2_test_class);
}

module_init(rpcrdma2_test_init);
module_exit(rpcrdma2_test_exit);
MODULE_DESCRIPTION("rpcrdma2 test fixture: an RPC transport netid for proto= tests");
MODULE_LICENSE("GPL");
MODULE_VERSION(RPCRDMA2_VERSION);
