/* SPDX-License-Identifier: MIT */
/*
 * cgroup.h - --cgroup DIR: a three-level memory cgroup hierarchy of pcbench's own under a
 * cgroup v2 directory the user owns and delegated, as seed 000's set-up had (memory.min
 * and memory.low on the top level), a forked measuring process in its leaf, and the
 * hierarchy removed at the end, also when interrupted. pcbench writes to no cgroup
 * without this option.
 */
#ifndef PCBENCH_CGROUP_H
#define PCBENCH_CGROUP_H

#include <stddef.h>

#include <jansson.h>

#define CG_MAX_WRITES 8

struct cg_run {
	char dir[512];			    /* DIR, as given */
	char top[600], mid[640], leaf[680]; /* the three levels made under it */
	unsigned long long min, low;	    /* memory.min and memory.low of the top level */
	int fake;			    /* PCBENCH_FAKE_CGROUPFS=1: DIR need not be cgroup2 */
	int made;			    /* levels made (0..3), for the removal */
	char writes[CG_MAX_WRITES][800];    /* "PATH: VALUE" of every write, in order */
	int nwrites;
};

/*
 * cg_check - @dir can hold the hierarchy: a directory on cgroup2 (unless
 * PCBENCH_FAKE_CGROUPFS=1, for tests on a fake cgroupfs), writable, with the memory
 * controller enabled for its children (cgroup.subtree_control). 0, or -1 with the reason in
 * @err; nothing is created either way.
 */
int cg_check(struct cg_run *c, const char *dir, char *err, size_t len);

/*
 * cg_enter - make the hierarchy and fork: in the child (the measuring process), after it
 * joined the leaf through cgroup.procs, returns 0. The parent waits for the child (a
 * SIGINT/TERM/HUP it gets is passed on), removes the hierarchy and exits with the child's
 * status. A hierarchy that cannot be made is removed again: exit 2 naming why.
 */
int cg_enter(struct cg_run *c);

/* cg_json - what --cgroup did, for context.json's options (a new reference). */
json_t *cg_json(const struct cg_run *c);

#endif
