// SPDX-License-Identifier: MIT
/*
 * btf_check.c - the validation pass over a BTF before btf.c walks it (btf_check(), see
 * btf.h): every type of a known kind, every type id, name offset and member in range, as
 * libbpf's walkers and btf.c's renderer trust them to be.
 */
#include "btf.h"

#include <stdio.h>

#include <bpf/btf.h>

#include "util.h"

/* id_ok - @id names a type of @btf (0 is void). */
static int id_ok(const struct btf *btf, __u32 id)
{
	return id < btf__type_cnt(btf);
}

int btf_check(const struct btf *btf, char *err, size_t errlen)
{
	__u32 n = btf__type_cnt(btf);

	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		__u32 bad = 0, ref = 0;
		int k;

		if (!t) {
			set_err(err, errlen, "BTF type %u: missing", id);
			return -1;
		}
		if (!btf__name_by_offset(btf, t->name_off)) {
			set_err(err, errlen, "BTF type %u: name offset %u is outside the strings",
				id, t->name_off);
			return -1;
		}
		switch (btf_kind(t)) {
		case BTF_KIND_INT:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_FLOAT:
		case BTF_KIND_FWD:
			break;
		case BTF_KIND_PTR:
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
		case BTF_KIND_FUNC:
		case BTF_KIND_VAR:
		case BTF_KIND_DECL_TAG:
			bad = !id_ok(btf, ref = t->type);
			break;
		case BTF_KIND_ARRAY:
			if (!id_ok(btf, ref = btf_array(t)->type))
				bad = 1;
			else if (!id_ok(btf, ref = btf_array(t)->index_type))
				bad = 1;
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			for (k = 0; k < btf_vlen(t) && !bad; k++) {
				const struct btf_member *m = btf_members(t) + k;

				bad = !id_ok(btf, ref = m->type);
				if (!bad && !btf__name_by_offset(btf, m->name_off)) {
					snprintf(
					    err, errlen,
					    "BTF type %u: member %d: name offset %u is outside "
					    "the strings",
					    id, k, m->name_off);
					return -1;
				}
			}
			break;
		case BTF_KIND_FUNC_PROTO:
			bad = !id_ok(btf, ref = t->type);
			for (k = 0; k < btf_vlen(t) && !bad; k++)
				bad = !id_ok(btf, ref = btf_params(t)[k].type);
			break;
		case BTF_KIND_DATASEC:
			for (k = 0; k < btf_vlen(t) && !bad; k++)
				bad = !id_ok(btf, ref = btf_var_secinfos(t)[k].type);
			break;
		default:
			set_err(err, errlen, "BTF type %u: unknown kind %u", id, btf_kind(t));
			return -1;
		}
		if (bad) {
			set_err(err, errlen, "BTF type %u refers to type %u, past the last (%u)",
				id, ref, n - 1);
			return -1;
		}
	}
	return 0;
}
