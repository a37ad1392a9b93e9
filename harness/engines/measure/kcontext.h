/* SPDX-License-Identifier: MIT */
/*
 * kcontext.h - the context of a run that measures the real kernel (a BENCH_KERNEL
 * scenario): context.json's "real_kernel" object and the label that tells one kernel from
 * another in merged runs (compare --by kernel).
 */
#ifndef PCBENCH_KCONTEXT_H
#define PCBENCH_KCONTEXT_H

struct json_t;

struct kernel_ctx {
	int present;	     /* the run measures a BENCH_KERNEL scenario */
	char release[128];   /* uname -r */
	char layout_fp[17];  /* fingerprint of `--layout btf:` (mem_cgroup, page_counter), or "" */
	struct json_t *json; /* context.json's "real_kernel" */
};

/*
 * kernel_context_read - the running kernel's release, build id (/sys/kernel/notes), the
 * BTF layout fingerprint of struct mem_cgroup and struct page_counter (what --layout btf:
 * loads), the memory cgroup this process is charged to (v1, v2 or hybrid), whether its
 * sockets are accounted, transparent hugepages. Reads only; absent facts are null with a
 * reason.
 */
void kernel_context_read(struct kernel_ctx *k);

#endif
