/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcrdma2-ping's two files: the program (rpcrdma2-ping.c) and its
 * credit and inline-size abuse modes (ping-modes.c), both on the
 * requester library (lib/negotiate.h).
 */
#ifndef _RPCRDMA2_TOOLS_PING_H
#define _RPCRDMA2_TOOLS_PING_H

#include "negotiate.h"

/* --fat-reply: segments per Write chunk; svcrdma2 takes 4 chunks of 32 */
#define FAT_CHUNK_SEGS		32
#define FAT_MAX_CHUNKS		4

int flood_run(struct ping *p, u32 flood, const char *flood_until);
int fat_reply_run(struct ping *p);

#endif /* _RPCRDMA2_TOOLS_PING_H */
