// SPDX-License-Identifier: MIT
/* hitm_objects.c - objects.json read back: windows, objects and their layouts. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hitm.h"
#include "infile.h"
#include "util.h"

/* str - member @k of @o as a string into @buf; -1 when missing or not a string. */
static int str(json_t *o, const char *k, char *buf, size_t len)
{
	json_t *v = json_object_get(o, k);

	if (!json_is_string(v))
		return -1;
	snprintf(buf, len, "%s", json_string_value(v));
	return 0;
}

/* num - member @k of @o as an integer (null allowed: @def); -1 when of another type. */
static int num(json_t *o, const char *k, int64_t *v, int64_t def)
{
	json_t *j = json_object_get(o, k);

	if (json_is_null(j)) {
		*v = def;
		return 0;
	}
	if (!json_is_integer(j))
		return -1;
	*v = json_integer_value(j);
	return 0;
}

static int load_layouts(json_t *ls, struct hitm_run *r, char *why, size_t len)
{
	const char *fp;
	json_t *l;

	if (!json_is_object(ls)) {
		snprintf(why, len, "\"layouts\" is not an object");
		return -1;
	}
	r->layouts = xcalloc(json_object_size(ls) + 1, sizeof(*r->layouts));
	json_object_foreach(ls, fp, l)
	{
		char e[512], want[17];
		json_t *text = json_object_get(l, "text");
		struct layout *lay;

		if (!json_is_string(text)) {
			snprintf(why, len, "layout %s: no \"text\"", fp);
			return -1;
		}
		lay = layout_parse(json_string_value(text), fp, e, sizeof(e));
		if (!lay) {
			snprintf(why, len, "layout %s: %s", fp, e);
			return -1;
		}
		r->layouts[r->nlayouts++] = lay;
		snprintf(want, sizeof(want), "%016llx",
			 (unsigned long long)layout_fingerprint(lay));
		if (strcmp(want, fp)) {
			snprintf(why, len, "layout %s: its text has fingerprint %s", fp, want);
			return -1;
		}
	}
	return 0;
}

static int load_object(json_t *j, struct hitm_run *r, struct hitm_object *o, char *why, size_t len)
{
	char base[40], fp[40];
	int64_t size;

	if (str(j, "name", o->name, sizeof(o->name)) ||
	    str(j, "struct", o->sname, sizeof(o->sname)) || str(j, "base", base, sizeof(base)) ||
	    str(j, "layout_fp", fp, sizeof(fp)) || num(j, "size", &size, 0) || size < 0) {
		snprintf(why, len, "an object lacks name, struct, base, layout_fp or size");
		return -1;
	}
	o->base = strtoull(base, NULL, 16);
	o->size = (uint64_t)size;
	for (int i = 0; fp[0] && i < r->nlayouts; i++) {
		char have[17];

		snprintf(have, sizeof(have), "%016llx",
			 (unsigned long long)layout_fingerprint(r->layouts[i]));
		if (!strcmp(have, fp))
			o->layout = r->layouts[i];
	}
	if (fp[0] && !o->layout) {
		snprintf(why, len, "object %s: layout %s is not in \"layouts\"", o->name, fp);
		return -1;
	}
	o->nleaves = o->layout ? layout_leaves(o->layout, o->sname, &o->leaves) : 0;
	if (o->nleaves < 0) {
		snprintf(why, len, "object %s: layout %s has no struct %s", o->name, fp, o->sname);
		return -1;
	}
	return 0;
}

static int load_window(json_t *j, struct hitm_run *r, struct hitm_window *w, char *why, size_t len)
{
	json_t *pus = json_object_get(j, "pus"), *objs = json_object_get(j, "objects");
	char status[16];
	int64_t threads, rep;
	size_t i;

	if (str(j, "family", w->family, sizeof(w->family)) ||
	    str(j, "scenario", w->scenario, sizeof(w->scenario)) ||
	    str(j, "preset", w->preset, sizeof(w->preset)) ||
	    str(j, "workload", w->workload, sizeof(w->workload)) ||
	    str(j, "placement", w->placement, sizeof(w->placement)) ||
	    str(j, "status", status, sizeof(status)) || num(j, "threads", &threads, 0) ||
	    num(j, "repetition", &rep, 0) || num(j, "start_ns", &w->start_ns, -1) ||
	    num(j, "end_ns", &w->end_ns, -1) || !json_is_array(pus) || !json_is_array(objs) ||
	    threads < 1 || threads > 1 << 16 || json_array_size(pus) != (size_t)threads) {
		snprintf(why, len,
			 "a window lacks family, scenario, preset, workload, placement, status, "
			 "threads, repetition, start_ns, end_ns, pus (one per thread) or objects");
		return -1;
	}
	w->threads = (int)threads;
	w->rep = (int)rep;
	w->ok = !strcmp(status, "ok") && w->start_ns >= 0 && w->end_ns >= w->start_ns;
	w->pus = xcalloc((size_t)threads, sizeof(int));
	for (i = 0; i < (size_t)threads; i++)
		w->pus[i] = (int)json_integer_value(json_array_get(pus, i));
	w->objs = xcalloc(json_array_size(objs) + 1, sizeof(*w->objs));
	for (i = 0; i < json_array_size(objs); i++, w->nobjs++)
		if (load_object(json_array_get(objs, i), r, &w->objs[i], why, len))
			return -1;
	return 0;
}

int hitm_run_load(const char *path, struct hitm_run *r, char *err, size_t errlen)
{
	json_t *root = infile_json(path, err, errlen), *p, *ws;
	char fmt[64] = "", why[1024] = "";
	size_t i;

	memset(r, 0, sizeof(*r));
	if (!root) {
		size_t n = strlen(err);

		if (errno == ENOENT && n < errlen)
			snprintf(err + n, errlen - n,
				 " (written by pcbench 0.1 runs with objects.json)");
		return -1;
	}
	p = json_object_get(root, "param");
	ws = json_object_get(root, "windows");
	if (str(root, "format", fmt, sizeof(fmt)) || strcmp(fmt, OBJECTS_FORMAT))
		snprintf(why, sizeof(why), "format is \"%s\", expected \"%s\"", fmt,
			 OBJECTS_FORMAT);
	else if (str(root, "topology", r->topology, sizeof(r->topology)) || !json_is_array(p) ||
		 !json_is_array(ws))
		snprintf(why, sizeof(why), "no \"topology\", \"param\" or \"windows\"");
	else if (json_object_get(root, "layout") &&
		 str(root, "layout", r->layout, sizeof(r->layout)))
		snprintf(why, sizeof(why), "\"layout\" is not a string");
	else if (!load_layouts(json_object_get(root, "layouts"), r, why, sizeof(why))) {
		r->params = xcalloc(json_array_size(p) + 1, sizeof(char *));
		for (i = 0; i < json_array_size(p); i++)
			if (json_is_string(json_array_get(p, i)))
				r->params[r->nparams++] =
				    xstrdup(json_string_value(json_array_get(p, i)));
		r->w = xcalloc(json_array_size(ws) + 1, sizeof(*r->w));
		for (i = 0; i < json_array_size(ws) && !why[0]; i++, r->nw++)
			load_window(json_array_get(ws, i), r, &r->w[i], why, sizeof(why));
	}
	json_decref(root);
	if (why[0]) {
		set_err(err, errlen, "%s: %s", path, why);
		hitm_run_free(r);
		return -1;
	}
	return 0;
}

void hitm_run_free(struct hitm_run *r)
{
	for (int i = 0; i < r->nw; i++) {
		for (int j = 0; j < r->w[i].nobjs; j++)
			free(r->w[i].objs[j].leaves);
		free(r->w[i].objs);
		free(r->w[i].pus);
	}
	free(r->w);
	for (int i = 0; i < r->nlayouts; i++)
		layout_free(r->layouts[i]);
	free(r->layouts);
	for (int i = 0; i < r->nparams; i++)
		free(r->params[i]);
	free(r->params);
	memset(r, 0, sizeof(*r));
}
