// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma, the drop-in: the in-tree RPC-over-RDMA module's name, aliases
 * and transport identities, served by rpcrdma2. Installed where depmod
 * prefers it to the in-tree rpcrdma.ko (DKMS puts it in updates/), it is
 * what mount -o proto=rdma, rpc.nfsd, nfsdctl and rdma-core's udev rule
 * load, and they get RPC-over-RDMA version 2 wherever the peer speaks it
 * and version 1 elsewhere.
 *
 * The transports are xprtrdma2 and svcrdma2, which this module holds
 * while it is loaded; their own "rdma2" names stay registered. Only one
 * module can be called rpcrdma: while the in-tree one is loaded,
 * modprobe rpcrdma finds it loaded and does nothing, and insmod of this
 * file fails with -EEXIST before any code here runs. Where the in-tree
 * transport is built in, or another module has its identities, the
 * registrations below fail and the load is refused with a message.
 */
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/sunrpc/xprt.h>

#include <rpcrdma2/dropin.h>

static int __init rpcrdma_dropin_init(void)
{
	int ret;

	ret = xprt_rdma2_dropin_register(THIS_MODULE);
	if (ret)
		goto out_taken;
	ret = svc_rdma2_dropin_register(THIS_MODULE);
	if (ret)
		goto out_unreg_xprt;
	pr_info("rpcrdma: rpcrdma2 %s serves netids rdma and rdma6 and nfsd's rdma listeners\n",
		RPCRDMA2_VERSION);
	return 0;

out_unreg_xprt:
	xprt_rdma2_dropin_unregister();
out_taken:
	if (ret == -EEXIST)
		pr_err("rpcrdma: not loaded: another module already serves the RDMA transport (ident %d or svc class \"rdma\"); rpcrdma2's own netid rdma2 is unaffected\n",
		       XPRT_TRANSPORT_RDMA);
	return ret;
}

static void __exit rpcrdma_dropin_exit(void)
{
	svc_rdma2_dropin_unregister();
	xprt_rdma2_dropin_unregister();
}

module_init(rpcrdma_dropin_init);
module_exit(rpcrdma_dropin_exit);
MODULE_DESCRIPTION("RPC-over-RDMA v2/v1 (rpcrdma2) as a drop-in for the in-tree rpcrdma");
MODULE_LICENSE("GPL");
MODULE_VERSION(RPCRDMA2_VERSION);
/* the in-tree module's aliases: rdma-core's udev rule, svc_xprt_create, rdma6 */
MODULE_ALIAS("svcrdma");
MODULE_ALIAS("xprtrdma");
MODULE_ALIAS("rpcrdma6");
