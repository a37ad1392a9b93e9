// SPDX-License-Identifier: MIT
/* objects.c - objects.json: the modelled objects and the window of every repetition. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hitm.h"
#include "objects.h"
#include "outfile.h"
#include "util.h"

struct objects_log {
	json_t *root, *layouts, *windows;
};

struct objects_log *objects_log_new(const char *topology, char *const *params, int nparams,
				    const char *layout)
{
	struct objects_log *log = xcalloc(1, sizeof(*log));
	json_t *p = json_array();

	log->root = json_object();
	log->layouts = json_object();
	log->windows = json_array();
	for (int i = 0; i < nparams; i++)
		json_array_append_new(p, json_string(params[i]));
	json_object_set_new(log->root, "format", json_string(OBJECTS_FORMAT));
	json_object_set_new(log->root, "clock", json_string("CLOCK_MONOTONIC"));
	json_object_set_new(log->root, "topology", json_string(topology));
	json_object_set_new(log->root, "param", p);
	if (layout)
		json_object_set_new(log->root, "layout", json_string(layout));
	json_object_set(log->root, "layouts", log->layouts);
	json_object_set(log->root, "windows", log->windows);
	return log;
}

/* ns - seconds of CLOCK_MONOTONIC as integer nanoseconds (perf script --ns prints these). */
static json_t *ns(double s)
{
	return json_integer((json_int_t)llround(s * 1e9));
}

void objects_log_add(struct objects_log *log, const struct family *f, int rep,
		     const struct meas_result *r)
{
	const struct measurement *m = f->m;
	json_t *w = json_object(), *pus = json_array(), *objs = json_array();
	char buf[40];

	for (int i = 0; f->pus && i < f->threads; i++)
		json_array_append_new(pus, json_integer(f->pus[i]));
	for (int i = 0; i < m->nobjs; i++) {
		const struct meas_object *o = &m->objs[i];
		json_t *j = json_object();

		snprintf(buf, sizeof(buf), "%016llx", (unsigned long long)o->layout_fp);
		if (o->layout_text && !json_object_get(log->layouts, buf)) {
			json_t *l = json_object();

			json_object_set_new(l, "name", json_string(o->layout_name));
			json_object_set_new(l, "text", json_string(o->layout_text));
			json_object_set_new(log->layouts, buf, l);
		}
		json_object_set_new(j, "name", json_string(o->name));
		json_object_set_new(j, "struct", json_string(o->sname));
		json_object_set_new(j, "layout", json_string(o->layout_name));
		json_object_set_new(j, "layout_fp", json_string(o->layout_text ? buf : ""));
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)o->base);
		json_object_set_new(j, "base", json_string(buf));
		json_object_set_new(j, "size", json_integer((json_int_t)o->size));
		json_array_append_new(objs, j);
	}
	json_object_set_new(w, "family", json_string(f->name));
	json_object_set_new(w, "scenario", json_string(f->sc->name));
	json_object_set_new(w, "preset", json_string(f->preset->name));
	json_object_set_new(w, "workload", json_string(f->wl->name));
	json_object_set_new(w, "placement", json_string(f->placement));
	json_object_set_new(w, "threads", json_integer(f->threads));
	json_object_set_new(w, "repetition", json_integer(rep));
	json_object_set_new(w, "status", json_string(r->failed ? "error" : "ok"));
	json_object_set_new(w, "pus", pus);
	json_object_set_new(w, "warmup_start_ns",
			    r->failed ? json_null() : ns(m->warm_end - m->warmup_s));
	json_object_set_new(w, "start_ns", r->failed ? json_null() : ns(r->t0));
	json_object_set_new(w, "end_ns", r->failed ? json_null() : ns(r->t1));
	json_object_set_new(w, "objects", objs);
	json_array_append_new(log->windows, w);
}

int objects_log_write(const struct objects_log *log, const char *path)
{
	char *text = json_dumps(log->root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	int rc;

	if (!text) {
		warn_msg("%s: %s", path, strerror(ENOMEM));
		return -1;
	}
	rc = outfile_write_all(path, text, strlen(text));
	free(text);
	return rc;
}

void objects_log_free(struct objects_log *log)
{
	if (!log)
		return;
	json_decref(log->layouts);
	json_decref(log->windows);
	json_decref(log->root);
	free(log);
}
