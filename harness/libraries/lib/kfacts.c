// SPDX-License-Identifier: MIT
/* kfacts.c - the running kernel's memory cgroup, socket accounting and filesystems. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>

#include "kfacts.h"
#include "sysfs.h"

/* unescape - mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* has_word - @list ("a,b,c") holds @w. */
static int has_word(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; *p;) {
		size_t k = strcspn(p, ",");

		if (k == n && !strncmp(p, w, n))
			return 1;
		p += k + (p[k] == ',');
	}
	return 0;
}

/*
 * find_mount - the mount point and root of the cgroup hierarchy of type @fstype ("cgroup"
 * with @opt among its super options, or "cgroup2"); 0 if found.
 */
static int find_mount(const char *fstype, const char *opt, char *mnt, char *root, size_t len)
{
	FILE *f = procfs_open("self/mountinfo");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!f)
		return -1;
	while (!found && getline(&line, &cap, f) > 0) {
		char r[PATH_MAX], m[PATH_MAX], type[64], sopt[512];
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", r, m) != 2 ||
		    sscanf(dash + 3, "%63s %*s %511s", type, sopt) != 2)
			continue;
		if (strcmp(type, fstype) || (opt && !has_word(sopt, opt)))
			continue;
		unescape(r);
		unescape(m);
		snprintf(mnt, len, "%s", m);
		snprintf(root, len, "%s", r);
		found = 1;
	}
	free(line);
	fclose(f);
	return found ? 0 : -1;
}

/* join - mount point + (path relative to the mount's root) into @out. */
static void join(char *out, size_t len, const char *mnt, const char *root, const char *path)
{
	size_t rl = strlen(root);

	if (strcmp(root, "/") && !strncmp(path, root, rl) && (!path[rl] || path[rl] == '/'))
		path += rl;
	snprintf(out, len, "%s%s", mnt, strcmp(path, "/") ? path : "");
}

/* v2_has_memory - the unified hierarchy at @mnt offers the memory controller. */
static int v2_has_memory(const char *mnt)
{
	char path[PATH_MAX + 32], buf[512] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", mnt);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	for (char *t = strtok(buf, " \n"); t; t = strtok(NULL, " \n"))
		if (!strcmp(t, "memory"))
			return 1;
	return 0;
}

int kf_memcg_self(struct kf_memcg *m)
{
	FILE *f = procfs_open("self/cgroup");
	char *line = NULL, v1[PATH_MAX] = "", v2[PATH_MAX] = "", mnt[PATH_MAX], root[PATH_MAX];
	size_t cap = 0;
	int have_v1 = 0, have_v2 = 0;

	memset(m, 0, sizeof(*m));
	if (!f) {
		snprintf(m->why, sizeof(m->why), "%s/self/cgroup: %s", procfs_root(),
			 strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		*c2 = '\0';
		c2[1 + strcspn(c2 + 1, "\n")] = '\0';
		if (c1 == line + 1 && line[0] == '0' && c1[1] == '\0')
			snprintf(v2, sizeof(v2), "%s", c2 + 1), have_v2 = 1;
		else if (has_word(c1 + 1, "memory"))
			snprintf(v1, sizeof(v1), "%s", c2 + 1), have_v1 = 1;
	}
	free(line);
	fclose(f);
	if (have_v1) {
		snprintf(m->version, sizeof(m->version), "%s", have_v2 ? "hybrid" : "v1");
		snprintf(m->path, sizeof(m->path), "%s", v1);
		if (have_v2)
			snprintf(m->v2_path, sizeof(m->v2_path), "%s", v2);
		if (!find_mount("cgroup", "memory", mnt, root, sizeof(mnt)))
			join(m->dir, sizeof(m->dir), mnt, root, v1);
		return 0;
	}
	if (have_v2 && !find_mount("cgroup2", NULL, mnt, root, sizeof(mnt))) {
		if (!v2_has_memory(mnt)) {
			snprintf(
			    m->why, sizeof(m->why),
			    "cgroup v2 without the memory controller (%.60s/cgroup.controllers)",
			    mnt);
			return -1;
		}
		snprintf(m->version, sizeof(m->version), "v2");
		m->v2 = 1;
		snprintf(m->path, sizeof(m->path), "%s", v2);
		join(m->dir, sizeof(m->dir), mnt, root, v2);
		return 0;
	}
	snprintf(m->why, sizeof(m->why), "no memory controller in %s/self/cgroup%s", procfs_root(),
		 have_v2 ? " and no cgroup2 mount" : "");
	return -1;
}

long long kf_v1_tcp_usage(const struct kf_memcg *m)
{
	char path[PATH_MAX + 40];
	long long v;
	FILE *f;

	if (m->v2 || !m->dir[0])
		return -1;
	snprintf(path, sizeof(path), "%s/memory.kmem.tcp.usage_in_bytes", m->dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int kf_nosocket(void)
{
	char buf[4096];

	if (procfs_read("cmdline", buf, sizeof(buf)))
		return -1;
	for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
		if (!strncmp(t, "cgroup.memory=", 14) && has_word(t + 14, "nosocket"))
			return 1;
	return 0;
}

int kf_socket_note(const struct kf_memcg *m, char *buf, size_t len)
{
	int nosock = kf_nosocket();

	if (!m->version[0]) {
		snprintf(buf, len, "unknown: %s", m->why);
		return -1;
	}
	if (m->v2) {
		if (nosock < 0) {
			snprintf(buf, len, "v2: unknown (%s/cmdline unreadable)", procfs_root());
			return -1;
		}
		snprintf(buf, len,
			 nosock ? "v2: not accounted (booted with cgroup.memory=nosocket)"
				: "v2: accounted (no cgroup.memory=nosocket on the "
				  "kernel command line)");
		return !nosock;
	}
	snprintf(buf, len,
		 "v1: accounted only if memory.kmem.tcp.limit_in_bytes was written for this memcg "
		 "(not visible): a tcp row's note gives memory.kmem.tcp.usage_in_bytes before and "
		 "after its window");
	return -1;
}

void kf_fs_name(const char *path, char *buf, size_t len)
{
	static const struct {
		unsigned long magic;
		const char *name;
	} fs[] = {
	    {0x01021994, "tmpfs"}, {0xEF53, "ext2/3/4"},    {0x58465342, "xfs"},
	    {0x9123683E, "btrfs"}, {0x794c7630, "overlay"}, {0x6969, "nfs"},
	    {0x2fc12fc1, "zfs"},   {0xF2F52010, "f2fs"},    {0x65735546, "fuse"},
	    {0x858458f6, "ramfs"}, {0x5346544e, "ntfs"},    {0x4d44, "vfat"},
	};
	struct statfs st;

	if (statfs(path, &st)) {
		snprintf(buf, len, "? (%s)", strerror(errno));
		return;
	}
	for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++)
		if ((unsigned long)st.f_type == fs[i].magic) {
			snprintf(buf, len, "%s", fs[i].name);
			return;
		}
	snprintf(buf, len, "0x%lx", (unsigned long)st.f_type);
}
