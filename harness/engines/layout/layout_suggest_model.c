// SPDX-License-Identifier: MIT
/*
 * layout_suggest_model.c - the model's transfers/op for `pcbench layout suggest`: the
 * selection's configuration with a candidate layout (as --layout gives it, or as
 * -D layout=FILE for a scenario that computes its own, per_node), run on the chosen virtual
 * CPUs and topology with the model's seed, ops and warm-up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout_suggest.h"
#include "outfile.h"
#include "plan.h"
#include "util.h"

int sg_model_init(struct sg_model *m)
{
	struct family f = {.sc = m->sc, .threads = m->threads, .placement = m->placement};
	char err[512];

	m->topo = topo_load(m->topo_name, err, sizeof(err));
	if (!m->topo)
		return layout_usage_error("suggest: --topology: %s: %s", m->topo_name, err);
	if (family_place(&f, m->topo, err, sizeof(err)))
		return layout_usage_error("suggest: --placement: %s: %s", m->placement, err);
	if (f.skip[0])
		return layout_usage_error("suggest: --placement %s with %d threads: %s",
					  m->placement, m->threads, f.skip);
	m->pus = f.pus;
	m->cpus = f.cpus;
	return 0;
}

void sg_model_free(struct sg_model *m)
{
	topo_free(m->topo);
	free(m->pus);
	free(m->cpus);
	m->topo = NULL;
	m->pus = NULL;
	m->cpus = NULL;
}

/* The configuration with @l: --layout's way, or a file named by -D layout= (computed). */
static struct bench_cfg *cfg_with(struct sg_model *m, const struct layout *l, char *err,
				  size_t errlen)
{
	char path[4096], arg[4200], *user[TRACE_MAX_PARAMS + 2];
	char *text;
	int n = 0;

	if (!m->computed)
		return cfg_new_layout(m->sc, m->preset, m->wl, m->threads, m->user, m->nuser, l,
				      l->name, err, errlen);
	snprintf(path, sizeof(path), "%s/candidate-%d.layout", m->tmp, m->nfiles++);
	snprintf(m->file, sizeof(m->file), "%s", path); /* setup reads it again; removed after */
	text = layout_to_text(l);
	if (!text || outfile_write_all(path, text, strlen(text))) {
		free(text);
		set_err(err, errlen, "%s: could not be written", path);
		return NULL;
	}
	free(text);
	for (int i = 0; i < m->nuser; i++)
		if (strncmp(m->user[i], "layout=", 7))
			user[n++] = m->user[i];
	snprintf(arg, sizeof(arg), "layout=%s", path);
	user[n++] = arg;
	return cfg_new(m->sc, m->preset, m->wl, m->threads, user, n, err, errlen);
}

int sg_model_eval(struct sg_model *m, const struct layout *l, double *xfer, char *err,
		  size_t errlen)
{
	struct bench_cfg *cfg = cfg_with(m, l, err, errlen);
	struct model_result r;
	int rc = -1;

	if (cfg) {
		memset(&r, 0, sizeof(r));
		if (!model_run(m->sc, cfg, m->topo, m->pus, m->threads, &m->mo, &r) && r.ok) {
			*xfer = model_transfers_per_op(&r);
			rc = 0;
		} else {
			set_err(err, errlen, "%s", r.reason);
		}
		model_result_free(&r);
		cfg_free(cfg);
	}
	/* the candidate's file, also when its configuration was refused */
	if (m->file[0])
		remove(m->file);
	m->file[0] = '\0';
	return rc;
}
