// SPDX-License-Identifier: MIT
/* kcontext.c - context.json's "real_kernel": what a real-kernel run ran on. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "btf.h"
#include "kcontext.h"
#include "kfacts.h"
#include "layout.h"
#include "sysfs.h"

/*
 * build_id - the GNU build id note (type 3) of the running kernel, from the ELF notes in
 * /sys/kernel/notes, as hex into @buf; -1 with the reason in @buf when there is none.
 */
static int build_id(char *buf, size_t len)
{
	unsigned char notes[8192];
	char path[256];
	size_t n, off = 0;
	FILE *f;

	sysfs_path(path, sizeof(path), "kernel/notes");
	f = fopen(path, "rb");
	if (!f) {
		snprintf(buf, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	n = fread(notes, 1, sizeof(notes), f);
	fclose(f);
	while (off + 12 <= n) {
		unsigned namesz, descsz, type;
		size_t name_at = off + 12, desc_at;

		memcpy(&namesz, notes + off, 4);
		memcpy(&descsz, notes + off + 4, 4);
		memcpy(&type, notes + off + 8, 4);
		desc_at = name_at + ((namesz + 3u) & ~3u);
		if (namesz > n || descsz > n || desc_at + descsz > n)
			break;
		if (type == 3 && namesz == 4 && !memcmp(notes + name_at, "GNU", 4) && descsz &&
		    descsz * 2 < len) {
			for (unsigned i = 0; i < descsz; i++)
				snprintf(buf + 2 * i, 3, "%02x", notes[desc_at + i]);
			return 0;
		}
		off = desc_at + ((descsz + 3u) & ~3u);
	}
	snprintf(buf, len, "%s: no GNU build-id note", path);
	return -1;
}

/* btf_json - the layout --layout btf: loads: its name, fingerprint and structs. */
static json_t *btf_json(struct kernel_ctx *k)
{
	char err[512];
	struct layout *l = btf_layout_load(NULL, err, sizeof(err));
	json_t *o, *structs;

	if (!l)
		return json_pack("{s:n, s:s}", "layout_fp", "note", err);
	snprintf(k->layout_fp, sizeof(k->layout_fp), "%016llx",
		 (unsigned long long)layout_fingerprint(l));
	structs = json_array();
	for (int i = 0; i < l->nstructs; i++)
		json_array_append_new(structs, json_string(l->structs[i].name));
	o = json_pack("{s:s, s:s, s:s, s:o, s:s}", "path", BTF_VMLINUX, "layout", l->name,
		      "layout_fp", k->layout_fp, "structs", structs, "same_as",
		      "pcbench -s page_counter --layout btf: (its rows' layout_fp)");
	layout_free(l);
	return o;
}

/* memcg_json - the memory cgroup this process is charged to and its socket accounting. */
static json_t *memcg_json(void)
{
	struct kf_memcg m;
	char note[512];
	int acc;

	if (kf_memcg_self(&m))
		return json_pack("{s:n, s:s}", "version", "note", m.why);
	acc = kf_socket_note(&m, note, sizeof(note));
	return json_pack(
	    "{s:s, s:s, s:s, s:s?, s:o, s:s, s:s}", "version", m.version, "path", m.path, "dir",
	    m.dir, "v2_path", m.v2 || !m.v2_path[0] ? NULL : m.v2_path, "sockets_accounted",
	    acc < 0 ? json_null() : json_boolean(acc), "sockets_note", note, "pcbench_writes",
	    "nothing: it runs in the cgroup it was started in (--cgroup DIR makes its own "
	    "hierarchy under DIR)");
}

void kernel_context_read(struct kernel_ctx *k)
{
	struct utsname u;
	char id[512], thp[128];
	json_t *o;

	k->present = 1;
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown"), u.version[0] = '\0';
	snprintf(k->release, sizeof(k->release), "%s", u.release);
	o = json_pack("{s:s, s:s}", "release", u.release, "version", u.version);
	if (build_id(id, sizeof(id)))
		json_object_set_new(o, "build_id", json_null()),
		    json_object_set_new(o, "build_id_note", json_string(id));
	else
		json_object_set_new(o, "build_id", json_string(id));
	json_object_set_new(o, "btf", btf_json(k));
	json_object_set_new(o, "memcg", memcg_json());
	json_object_set_new(o, "transparent_hugepage",
			    sysfs_read("kernel/mm/transparent_hugepage/enabled", thp, sizeof(thp))
				? json_null()
				: json_string(thp));
	json_object_set_new(o, "label", json_sprintf("%s %s", k->release, k->layout_fp));
	k->json = o;
}
