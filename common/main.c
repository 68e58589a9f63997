// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma2_common: the RPC-over-RDMA v1/v2 header codec and RFC 8797
 * private-data library shared by the rpcrdma2 client and server transports.
 * The exported functions live in codec_decode.c, codec_encode.c,
 * codec_names.c and cm_pdata.c; this file only identifies the module.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("RPC-over-RDMA v1/v2 header codec and CM private data");
MODULE_LICENSE("GPL");
MODULE_VERSION(RPCRDMA2_VERSION);
