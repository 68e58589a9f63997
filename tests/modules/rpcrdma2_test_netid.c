// SPDX-License-Identifier: GPL-2.0
/*
 * Test fixture for patches/0001 (NFS proto= takes any registered netid):
 * an RPC transport class with a netid that the stock NFS client does not
 * know, so tests/vm/nfs_proto.sh can show that proto=<netid> now reaches
 * the registered transport, and that an ident fs/nfs has no case for gets
 * TCP-like timeouts instead of the old BUG() in nfs_init_timeout_values().
 * Its setup always fails: it moves no data and is loaded only by tests.
 *
 * tests/vm/dropin.sh loads it as a squatter on the names the drop-in
 * rpcrdma takes: ident=256 (XPRT_TRANSPORT_RDMA) for the client
 * transport, svc_class=1 for an svc class named "rdma" whose create
 * always fails.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprt.h>

/* Away from the upstream idents (xprt.h) and from rpcrdma2's own. */
#define RPCRDMA2_TEST_IDENT	0x2fff

static int rpcrdma2_test_ident = RPCRDMA2_TEST_IDENT;
module_param_named(ident, rpcrdma2_test_ident, int, 0444);
MODULE_PARM_DESC(ident, "the transport ident to register");

static bool rpcrdma2_test_svc_class;
module_param_named(svc_class, rpcrdma2_test_svc_class, bool, 0444);
MODULE_PARM_DESC(svc_class, "register an svc class named \"rdma\" too");

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

static struct svc_xprt *rpcrdma2_test_svc_create(struct svc_serv *serv,
						 struct net *net,
						 struct sockaddr *sa, int salen,
						 int flags)
{
	return ERR_PTR(-EPROTONOSUPPORT);
}

static const struct svc_xprt_ops rpcrdma2_test_svc_ops = {
	.xpo_create	= rpcrdma2_test_svc_create,
};

static struct svc_xprt_class rpcrdma2_test_svc = {
	.xcl_name	= "rdma",
	.xcl_owner	= THIS_MODULE,
	.xcl_ops	= &rpcrdma2_test_svc_ops,
	.xcl_ident	= RPCRDMA2_TEST_IDENT,
};

static int __init rpcrdma2_test_init(void)
{
	int ret;

	rpcrdma2_test_class.ident = rpcrdma2_test_ident;
	ret = xprt_register_transport(&rpcrdma2_test_class);
	if (ret || !rpcrdma2_test_svc_class)
		return ret;
	ret = svc_reg_xprt_class(&rpcrdma2_test_svc);
	if (ret)
		xprt_unregister_transport(&rpcrdma2_test_class);
	return ret;
}

static void __exit rpcrdma2_test_exit(void)
{
	if (rpcrdma2_test_svc_class)
		svc_unreg_xprt_class(&rpcrdma2_test_svc);
	xprt_unregister_transport(&rpcrdma2_test_class);
}

module_init(rpcrdma2_test_init);
module_exit(rpcrdma2_test_exit);
MODULE_DESCRIPTION("rpcrdma2 test fixture: an RPC transport netid for proto= tests");
MODULE_LICENSE("GPL");
MODULE_VERSION(RPCRDMA2_VERSION);
