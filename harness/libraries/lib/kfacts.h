/* SPDX-License-Identifier: MIT */
/*
 * kfacts.h - facts about the running kernel that the `kernel` scenario and the harness both
 * read: the memory cgroup this process is charged to, whether its sockets are accounted,
 * and the filesystem a directory is on. Read through lib/sysfs's roots, so tests can
 * present a fake /proc (PCBENCH_PROCFS_ROOT). Nothing here writes anything.
 */
#ifndef PCBENCH_KFACTS_H
#define PCBENCH_KFACTS_H

#include <limits.h>
#include <stddef.h>

/* The memory cgroup of the calling process, from /proc/self/cgroup and mountinfo. */
struct kf_memcg {
	/*
	 * "v1" (the memory controller on a v1 hierarchy), "v2" (on the unified hierarchy),
	 * "hybrid" (memory on v1 while a v2 hierarchy is mounted too, as systemd's hybrid
	 * mode and this project's VMs have it), or "" when it cannot be told (@why says).
	 */
	char version[8];
	int v2;			/* the memory controller is v2's */
	char path[PATH_MAX];	/* its path inside its hierarchy ("/user.slice/...") */
	char dir[PATH_MAX];	/* where its files are (mount point + path), "" if not mounted */
	char v2_path[PATH_MAX]; /* hybrid: the process's (memory-less) v2 path, else "" */
	char why[160];
};

/* kf_memcg_self - fill @m; returns 0, or -1 with @m->why set (version ""). */
int kf_memcg_self(struct kf_memcg *m);

/*
 * kf_v1_tcp_usage - memory.kmem.tcp.usage_in_bytes of a v1 memcg (bytes), or -1 when it is
 * not v1 or the file cannot be read. On v1, a socket is accounted only after
 * memory.kmem.tcp.limit_in_bytes was written for its memcg; the flag itself is not visible,
 * so a usage that stays 0 while sockets hold data is the sign that they are not.
 */
long long kf_v1_tcp_usage(const struct kf_memcg *m);

/*
 * kf_nosocket - 1 when the kernel was booted with cgroup.memory=nosocket (v2 then accounts
 * no socket memory), 0 when not, -1 when /proc/cmdline cannot be read.
 */
int kf_nosocket(void);

/*
 * kf_socket_note - one phrase on whether sockets of @m are accounted, as far as user space
 * can tell (v2: unless nosocket; v1: only where the tcp limit was written, see
 * kf_v1_tcp_usage). Returns 1 accounted, 0 not, -1 unknown (v1: the tcp rows' usage says).
 */
int kf_socket_note(const struct kf_memcg *m, char *buf, size_t len);

/* kf_fs_name - the filesystem type of @path ("tmpfs", "ext2/3/4", "0x..."), or "?" + why. */
void kf_fs_name(const char *path, char *buf, size_t len);

#endif
