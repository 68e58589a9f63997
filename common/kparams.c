// SPDX-License-Identifier: GPL-2.0
/*
 * Module-parameter helpers shared by the rpcrdma2 transports.
 */
#include <linux/kernel.h>
#include <linux/module.h>

#include <rpcrdma2/kparams.h>

/**
 * rpcrdma2_param_set_range - set an unsigned int parameter within bounds
 * @val: the text written to the parameter
 * @kp: the parameter; kp->arg points at its unsigned int
 * @min: smallest value accepted
 * @max: largest value accepted
 * @step: the value is rounded down to a multiple of this (1: as given)
 *
 * Context: process (sysfs write or module load).
 *
 * Return: %0; %-EINVAL if @val is not a number or is outside @min..@max
 * (the parameter keeps its old value then).
 */
int rpcrdma2_param_set_range(const char *val, const struct kernel_param *kp,
			     unsigned int min, unsigned int max,
			     unsigned int step)
{
	unsigned int n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (n < min || n > max)
		return -EINVAL;
	*(unsigned int *)kp->arg = rounddown(n, step);
	return 0;
}
EXPORT_SYMBOL_GPL(rpcrdma2_param_set_range);
