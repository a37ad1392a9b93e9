/* SPDX-License-Identifier: MIT */
/*
 * btf.h - layouts from BTF (the kernel's own type description, /sys/kernel/btf/vmlinux, or
 * the .BTF section of an object encoded with `pahole -J`), read with libbpf's BTF API.
 */
#ifndef PCBENCH_BTF_H
#define PCBENCH_BTF_H

#include <stddef.h>

#include "pahole.h"

/* The running kernel's BTF. */
#define BTF_VMLINUX "/sys/kernel/btf/vmlinux"

/*
 * btf_to_layout - layout-file text for the structs named in @opts->structs (comma-separated,
 * required), read from the BTF of @path (NULL or "": BTF_VMLINUX), every nested struct and
 * union followed. The structs are written out as `pahole -E` prints them and converted by
 * pahole_to_layout(), so the two routes give the same layout where both apply: the same
 * kinds, unions (first non-empty member), anonymous members (flattened), bit-fields (one
 * plain field per run) and alignment (BTF has none: a member placed after a hole at an
 * offset aligned beyond its type's natural alignment is taken as __aligned__ to it, up to
 * 64 bytes, as pahole infers it). @opts->desc NULL gives "BTF PATH (kernel RELEASE)".
 * Returns a new string, or NULL with the reason in @err (a struct BTF does not have names
 * the struct and the file).
 */
char *btf_to_layout(const char *path, const struct pahole_opts *opts, char *err, size_t errlen);

struct layout;

/*
 * btf_layout_load - the layout `--layout btf:[PATH]` names: every struct of the built-in
 * layouts that the BTF of @path (NULL or "": BTF_VMLINUX) has, read with btf_to_layout(),
 * named "btf-RELEASE" for the running kernel ("btf" otherwise), source "btf:PATH".
 * NULL with the reason in @err.
 */
struct layout *btf_layout_load(const char *path, char *err, size_t errlen);

struct btf;
/*
 * btf_check - every type of @btf is one the reader knows, and every type id, name offset and
 * member it holds is in range (libbpf's walkers trust them: an id past the last type
 * crashes btf__align_of and btf__resolve_size). 0, or -1 with the first bad one in @err.
 * Cycles (a struct that contains itself) are found while rendering.
 */
int btf_check(const struct btf *btf, char *err, size_t errlen);

/*
 * btf_text_from_buf - the `pahole -E` text of @structs (NULL: every named struct and union)
 * from raw BTF in @data (the fuzz target's entry: no file), at most @max_text bytes of it
 * (0: the 16 MiB of a file import). A new string, or NULL with the reason in @err.
 */
char *btf_text_from_buf(const void *data, size_t len, const char *structs, size_t max_text,
			char *err, size_t errlen);

/*
 * btf_source - "PATH", and the kernel release when PATH is BTF_VMLINUX (uname -r: the
 * running kernel is the one that describes itself there), into @buf.
 */
void btf_source(const char *path, char *buf, size_t len);

#endif
