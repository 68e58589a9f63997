/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hex input shared by the userspace tools (rpcrdma2-decode's input,
 * rpcrdma2-ping's --send-hex and --expect-hex): one parser, so both take
 * the same text.
 */
#ifndef _RPCRDMA2_TOOLS_HEX_H
#define _RPCRDMA2_TOOLS_HEX_H

#include <stddef.h>

#include <rpcrdma2/compat.h>

static inline int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/**
 * hex_parse - turn hex text into bytes
 * @text: the text
 * @len: its length
 * @out: where the bytes go
 * @cap: room in @out
 * @why: set to the reason when the text is refused
 *
 * Two hex digits make a byte. Whitespace, ':' and ',' separate bytes but
 * may not split one; "0x" in front of a byte is skipped; '#' starts a
 * comment that runs to the end of the line.
 *
 * Return: the number of bytes, or -1 with @why set.
 */
static inline long hex_parse(const char *text, size_t len, u8 *out,
			     size_t cap, const char **why)
{
	size_t i, n = 0;
	int hi = -1, v;

	for (i = 0; i < len; i++) {
		char c = text[i];

		if (c == '#') {
			while (i < len && text[i] != '\n')
				i++;
			continue;
		}
		if (c == '0' && hi < 0 && i + 1 < len &&
		    (text[i + 1] == 'x' || text[i + 1] == 'X')) {
			i++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    c == ':' || c == ',') {
			if (hi >= 0)
				break;	/* a byte split by a separator */
			continue;
		}
		v = hex_digit((unsigned char)c);
		if (v < 0) {
			*why = "a character that is not a hex digit";
			return -1;
		}
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (n == cap) {
			*why = "input too long";
			return -1;
		}
		out[n++] = (u8)(hi << 4 | v);
		hi = -1;
	}
	if (hi >= 0) {
		*why = "odd number of hex digits in a group";
		return -1;
	}
	return (long)n;
}

#endif /* _RPCRDMA2_TOOLS_HEX_H */
