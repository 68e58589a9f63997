// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the RFC 8797 private-data parser. Each input is a
 * received private-data buffer. The parser's answer is checked against a
 * naive reference of RFC 8797 §5.2 written here; a valid message is
 * rebuilt from the parsed values and re-parsed (must be the identity), and
 * the parsed sizes are fed through the negotiation rule. Any mismatch
 * calls abort().
 */
#include <stdlib.h>

#include <rpcrdma2/cm_pdata.h>

static const u8 magic[4] = { 0xf6, 0xab, 0x0e, 0x18 };

static void check_size(u32 size)
{
	if (size < RPCRDMA2_CM_PDATA_MIN_SIZE ||
	    size > RPCRDMA2_CM_PDATA_MAX_SIZE ||
	    size % RPCRDMA2_CM_PDATA_SIZE_UNIT)
		abort();
}

static void check_defaults(const struct rpcrdma2_cm_pdata *pd)
{
	if (pd->version || pd->reminv ||
	    pd->send_size != RPCRDMA2_V1_DEF_INLINE ||
	    pd->recv_size != RPCRDMA2_V1_DEF_INLINE)
		abort();
}

/* The expected result, straight from RFC 8797 §4 and §5.2 */
static int reference_parse(const u8 *data, size_t size, size_t *found)
{
	size_t off;

	for (off = 0; off + sizeof(magic) <= size; off++)
		if (!memcmp(data + off, magic, sizeof(magic)))
			break;
	*found = off;
	if (off + sizeof(magic) > size)
		return -ENOENT;
	if (off + 8 > size)
		return -EMSGSIZE;
	if (data[off + 4] != 1)
		return -EPROTO;
	return 0;
}

static void check_negotiate(const struct rpcrdma2_cm_pdata *peer,
			    const u8 *data, size_t size)
{
	u32 own_send = size > 0 ? (u32)data[0] << 10 : 0;
	u32 own_recv = size > 1 ? (u32)data[1] << 11 : 0;
	u32 snd, rcv;

	rpcrdma2_cm_pdata_negotiate(peer, own_send, own_recv,
				    RPCRDMA2_V2_DEF_INLINE, &snd, &rcv);
	check_size(snd);
	check_size(rcv);
	if (snd > rpcrdma2_cm_pdata_size_decode(rpcrdma2_cm_pdata_size_encode(own_send)) ||
	    rcv > rpcrdma2_cm_pdata_size_decode(rpcrdma2_cm_pdata_size_encode(own_recv)))
		abort();
	if (peer->version && (snd > peer->recv_size || rcv > peer->send_size))
		abort();
}

/* libFuzzer's entry point, under a kernel-style C name */
int fuzz_pdata_one_input(const u8 *data, size_t size)
	__asm__("LLVMFuzzerTestOneInput");

int fuzz_pdata_one_input(const u8 *data, size_t size)
{
	struct rpcrdma2_cm_pdata pd, again;
	u8 rebuilt[RPCRDMA2_CM_PDATA_SIZE];
	size_t off;
	int ret, want;

	ret = rpcrdma2_cm_pdata_parse(data, size, &pd);
	want = reference_parse(data, size, &off);
	if (ret != want)
		abort();
	check_negotiate(&pd, data, size);
	if (ret) {
		check_defaults(&pd);
		return 0;
	}

	if (pd.version != RPCRDMA2_CM_PDATA_VERSION)
		abort();
	check_size(pd.send_size);
	check_size(pd.recv_size);

	if (rpcrdma2_cm_pdata_build(rebuilt, sizeof(rebuilt), pd.reminv,
				    pd.send_size, pd.recv_size) !=
	    RPCRDMA2_CM_PDATA_SIZE)
		abort();
	/* The rebuilt message is the received one with reserved bits zero */
	if (memcmp(rebuilt, data + off, 5) ||
	    rebuilt[5] != (data[off + 5] & RPCRDMA2_CM_PDATA_F_REMINV) ||
	    memcmp(rebuilt + 6, data + off + 6, 2))
		abort();

	if (rpcrdma2_cm_pdata_parse(rebuilt, sizeof(rebuilt), &again) ||
	    again.version != pd.version || again.reminv != pd.reminv ||
	    again.send_size != pd.send_size ||
	    again.recv_size != pd.recv_size)
		abort();
	return 0;
}
