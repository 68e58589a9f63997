/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-tree RPC/RDMA transport's names, taken by the drop-in module
 * rpcrdma (dropin/module.c) from the rpcrdma2 client and server
 * (xprtrdma2/transport.c, svcrdma2/transport.c).
 */
#ifndef _RPCRDMA2_DROPIN_H
#define _RPCRDMA2_DROPIN_H

struct module;

int xprt_rdma2_dropin_register(struct module *owner);
void xprt_rdma2_dropin_unregister(void);
int svc_rdma2_dropin_register(struct module *owner);
void svc_rdma2_dropin_unregister(void);

#endif /* _RPCRDMA2_DROPIN_H */
