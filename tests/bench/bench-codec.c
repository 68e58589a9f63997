// SPDX-License-Identifier: GPL-2.0
/*
 * bench-codec: the workload tests/bench/bench-codec.sh measures under
 * valgrind --tool=callgrind. Decodes or encodes the transport header of a
 * typical NFS READ call (one Write chunk of two segments plus a Reply
 * chunk, tests/vectors/codec_vectors.h) ITERATIONS times; the script
 * collects instructions inside rpcrdma2_decode() or rpcrdma2_encode()
 * only and divides by ITERATIONS.
 *
 * Usage: bench-codec decode|encode 1|2 [ITERATIONS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rpcrdma2/codec.h>
#include "../vectors/codec_vectors.h"

/* v1 and v2 NFS READ calls; cv_w_v1_msg_read_call, cv_w_v2_read_call */
static const struct cv_vec *bench_vec(int vers)
{
	const char *want = vers == 1 ?
		"v1 RDMA_MSG READ call: Write chunk + Reply chunk" :
		"v2 RDMA2_MSG READ call";
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cv_valid); i++)
		if (!strcmp(cv_valid[i].name, want))
			return &cv_valid[i];
	return NULL;
}

int main(int argc, char **argv)
{
	static struct rpcrdma2_read_seg reads[CV_READS_CAP];
	static struct rpcrdma2_read_chunk read_chunks[CV_READ_CHUNKS_CAP];
	static struct rpcrdma2_chunk writes[CV_WRITES_CAP];
	static struct rpcrdma2_seg segs[CV_SEGS_CAP];
	static u8 in[CV_BUF_SIZE], out[CV_BUF_SIZE];
	const struct cv_vec *v;
	struct rpcrdma2_reject rej;
	struct rpcrdma2_hdr hdr;
	long i, iters = 10000;
	bool decode;
	int rc = 0;

	if (argc < 3 || argc > 4 || (strcmp(argv[1], "decode") &&
				     strcmp(argv[1], "encode"))) {
		fprintf(stderr,
			"Usage: bench-codec decode|encode 1|2 [ITERATIONS]\n");
		return 2;
	}
	decode = !strcmp(argv[1], "decode");
	v = bench_vec(atoi(argv[2]));
	if (argc == 4)
		iters = atol(argv[3]);
	if (!v || iters <= 0) {
		fprintf(stderr, "bench-codec: bad version or iteration count\n");
		return 2;
	}

	if (rpcrdma2_chunk_lists_init(&hdr.cl, &cv_lim_default, reads,
				      CV_READS_CAP, read_chunks,
				      CV_READ_CHUNKS_CAP, writes, CV_WRITES_CAP,
				      segs, CV_SEGS_CAP))
		return 1;
	cv_bytes(v->words, v->nwords, in);
	if (rpcrdma2_decode(in, cv_len(v), &hdr, &rej) ||
	    cv_diff(v->exp, &hdr, &(u64){ 0 }, &(u64){ 0 })) {
		fprintf(stderr, "bench-codec: the READ call does not decode\n");
		return 1;
	}

	for (i = 0; i < iters; i++) {
		if (decode)
			rc |= rpcrdma2_decode(in, cv_len(v), &hdr, &rej);
		else
			rc |= rpcrdma2_encode(&hdr, out, sizeof(out)) !=
			      (int)v->exp->hdr_len;
	}
	if (rc || (!decode && memcmp(in, out, v->exp->hdr_len))) {
		fprintf(stderr, "bench-codec: %s failed\n", argv[1]);
		return 1;
	}
	return 0;
}
