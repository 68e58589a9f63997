/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Module-parameter helpers shared by the rpcrdma2 client and server
 * transports (kernel only; common/kparams.c).
 */
#ifndef _RPCRDMA2_KPARAMS_H
#define _RPCRDMA2_KPARAMS_H

#include <linux/moduleparam.h>

int rpcrdma2_param_set_range(const char *val, const struct kernel_param *kp,
			     unsigned int min, unsigned int max,
			     unsigned int step);

#endif /* _RPCRDMA2_KPARAMS_H */
