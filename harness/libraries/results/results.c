// SPDX-License-Identifier: MIT
/* results.c - the results.csv column contract and loading a run back. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "esc.h"
#include "infile.h"
#include "num.h"
#include "results.h"
#include "strbuf.h"
#include "util.h"

const char *const results_cols[RESULTS_NFIXED] = {
#define RESULTS_NAME(e, name, type) name,
    RESULTS_COLUMNS(RESULTS_NAME)
#undef RESULTS_NAME
};

const enum results_type results_types[RESULTS_NFIXED] = {
#define RESULTS_TYPE(e, name, type) type,
    RESULTS_COLUMNS(RESULTS_TYPE)
#undef RESULTS_TYPE
};

const char *const results_var_cols[RESULTS_NVAR] = {
#define RESULTS_VAR_NAME(e, name) name,
    RESULTS_VAR_COLUMNS(RESULTS_VAR_NAME)
#undef RESULTS_VAR_NAME
};

const char *const results_profile_cols[RESULTS_PROFILE_NCOLS] = {
    "scenario", "preset",     "layout", "workload", "placement", "threads",
    "home",	"repetition", "event",	"symbol",   "samples",	 "memcg"};

int results_col(const struct csv_table *t, enum results_col c)
{
	return csv_col(t, results_cols[c]);
}

int results_var_col(const struct csv_table *t, enum results_var c)
{
	return csv_col(t, results_var_cols[c]);
}

/* The variable families' types: by a column's whole name, its prefix or its suffix. */
static const struct {
	const char *text;
	enum { WHOLE, PREFIX, SUFFIX } how;
	enum results_type type;
} col_kinds[] = {
    {"cpu_a", WHOLE, RT_INT},		{"cpu_b", WHOLE, RT_INT},
    {"ns_per_transfer", WHOLE, RT_NUM}, {"param_", PREFIX, RT_PARAM},
    {"model_", PREFIX, RT_NUM},		{"_per_op", SUFFIX, RT_NUM},
    {"_mux", SUFFIX, RT_NUM},		{"profile_samples", WHOLE, RT_INT},
    {"profile_lost", WHOLE, RT_INT},	{"memcg_share_pct", WHOLE, RT_NUM},
};

enum results_type results_col_type(const char *name)
{
	size_t n = strlen(name);

	for (int i = 0; i < RESULTS_NFIXED; i++)
		if (!strcmp(name, results_cols[i]))
			return results_types[i];
	for (size_t i = 0; i < sizeof(col_kinds) / sizeof(col_kinds[0]); i++) {
		const char *t = col_kinds[i].text;
		size_t k = strlen(t);
		int hit = col_kinds[i].how == WHOLE    ? !strcmp(name, t)
			  : col_kinds[i].how == PREFIX ? n > k && !strncmp(name, t, k)
						       : n > k && !strcmp(name + n - k, t);

		if (hit)
			return col_kinds[i].type;
	}
	return RT_TEXT;
}

/*
 * cell_json - the JSON value of a non-empty @cell of type @type: a number when it reads
 * whole as one (an integer for RT_INT and RT_PARAM, a finite double for RT_NUM), else the
 * text.
 */
static json_t *cell_json(const char *cell, enum results_type type)
{
	char *end;

	errno = 0;
	if (type == RT_INT || type == RT_PARAM) {
		long long v = strtoll(cell, &end, 10);

		if (!*end && !errno && (isdigit((unsigned char)cell[0]) || cell[0] == '-'))
			return json_integer(v);
	} else if (type == RT_NUM) {
		double v = strtod(cell, &end);

		if (!*end && !errno && isfinite(v) && !isspace((unsigned char)cell[0]))
			return json_real(v);
	}
	return json_string(cell);
}

static char *json_str(json_t *j, const char *key)
{
	json_t *v = json_object_get(j, key);

	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

int results_jsonl_row(FILE *f, const char *const *cols, const char *const *vals, int n)
{
	json_t *o = json_object();
	int bad =
	    !o || json_object_set_new(o, "schema_version", json_integer(RESULTS_SCHEMA_VERSION));
	char *line = NULL;
	off_t before;
	int e;

	for (int i = 0; i < n && !bad; i++) {
		/* The fixed columns come first, by their table's own names: no lookup. */
		enum results_type t = i < RESULTS_NFIXED && cols[i] == results_cols[i]
					  ? results_types[i]
					  : results_col_type(cols[i]);

		if (vals[i])
			bad |= json_object_set_new(
			    o, cols[i], vals[i][0] ? cell_json(vals[i], t) : json_null());
	}
	if (!bad)
		line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	json_decref(o);
	if (!line) {
		errno = ENOMEM;
		return -1;
	}
	/* A line that cannot be written whole is cut off: the file keeps whole lines. */
	before = ftello(f);
	if (fputs(line, f) == EOF || fputc('\n', f) == EOF || fflush(f)) {
		e = errno;
		clearerr(f);
		if (before >= 0)
			(void)!ftruncate(fileno(f), before);
		free(line);
		errno = e;
		return -1;
	}
	free(line);
	return 0;
}

/* A row's identity: what was measured (run, host/label, family, pair) and its repetition. */
static const enum results_col identity_cols[] = {
    COL_RUN_ID,	  COL_HOST,    COL_LABEL,     COL_SCENARIO, COL_PRESET, COL_LAYOUT,
    COL_WORKLOAD, COL_THREADS, COL_PLACEMENT, COL_CPUS,	    COL_HOME,	COL_REPETITION,
};

struct row_key {
	char *key;
	int row;
};

static int row_key_cmp(const void *a, const void *b)
{
	const struct row_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : x->row - y->row;
}

/*
 * refuse_duplicates - two rows of the same measurement (a file appended twice, rows copied)
 * would count as extra samples and shrink p: refused, naming both lines. O(n log n).
 */
static void refuse_duplicates(const struct run_file *r)
{
	const struct csv_table *t = r->t;
	struct row_key *k = xcalloc((size_t)t->nrows, sizeof(*k));
	int cols[64], n = 0;

	for (size_t i = 0; i < sizeof(identity_cols) / sizeof(identity_cols[0]); i++)
		if ((cols[n] = csv_col(t, results_cols[identity_cols[i]])) >= 0)
			n++;
	for (int c = 0; c < t->ncols && n < 64; c++)
		if (!strncmp(t->header[c], "param_", 6) || !strcmp(t->header[c], "cpu_a") ||
		    !strcmp(t->header[c], "cpu_b"))
			cols[n++] = c;
	for (int i = 0; i < t->nrows; i++) {
		struct sb b = {0};

		for (int c = 0; c < n; c++)
			sb_printf(&b, "%s\x1f", t->rows[i][cols[c]]);
		k[i] = (struct row_key){b.p ? b.p : xstrdup(""), i};
	}
	qsort(k, (size_t)t->nrows, sizeof(*k), row_key_cmp);
	for (int i = 1; i < t->nrows; i++)
		if (!strcmp(k[i - 1].key, k[i].key))
			usage_error(
			    "RUN", r->csv_path,
			    "lines %d and %d are the same measurement (run_id, host, label, "
			    "family and repetition): a row written twice would count as two "
			    "samples",
			    k[i - 1].row + 2, k[i].row + 2);
	for (int i = 0; i < t->nrows; i++)
		free(k[i].key);
	free(k);
}

/* context_state - what context.json says of the run's end and its design options. */
static void context_state(struct run_file *r, json_t *j)
{
	json_t *opts = json_object_get(j, "options"), *prec = json_object_get(opts, "precision");
	json_t *end = json_object_get(j, "end_time");

	if (json_is_true(json_object_get(j, "interrupted")))
		r->incomplete = "interrupted";
	else if (!json_is_string(end) || !json_string_value(end)[0])
		r->incomplete = "no end time: killed, or still running";
	r->design = json_str(opts, "design");
	for (size_t i = 0; i < json_array_size(json_object_get(opts, "param")); i++) {
		json_t *p = json_array_get(json_object_get(opts, "param"), i);

		if (json_is_string(p) && !strncmp(json_string_value(p), "layout=", 7) &&
		    strchr(json_string_value(p), ',') && !r->layouts)
			r->layouts = xstrdup(json_string_value(p) + 7);
	}
	if (json_is_number(prec))
		r->precision = json_number_value(prec);
	else if (json_is_string(prec) &&
		 num_double(json_string_value(prec), 0, INFINITY, &r->precision))
		r->precision = NAN;
}

void run_file_note(const struct run_file *r, const char *cmd)
{
	if (r->incomplete)
		warn_msg("%s: note: incomplete run: %s: %s; its %d rows are used as they "
			 "are",
			 cmd, r->arg, r->incomplete, r->t ? r->t->nrows : 0);
}

/*
 * home_spelling - runs before issue 38 wrote a bound home as "1" (and a verified one as
 * "0;1"); the home is now spelt as --home spells it, "node:1" ("node:0;node:1"), in the
 * CSV, the tables and the dry run: an older run's home column is read in that spelling.
 */
static void home_spelling(struct run_file *r)
{
	int c = csv_col(r->t, "home");

	for (int i = 0; c >= 0 && i < r->t->nrows; i++) {
		char **cell = &r->t->rows[i][c];
		const char *p = *cell;
		struct sb b = {0};

		if (!*p || strspn(p, "0123456789;") != strlen(p))
			continue;
		while (*p) {
			size_t n = strcspn(p, ";");

			sb_printf(&b, "%snode:%.*s", b.n ? ";" : "", (int)n, p);
			p += n + (p[n] == ';');
		}
		free(*cell);
		*cell = b.p;
	}
}

/*
 * The values no run gives, refused in every run read back (compare, merge and plot load
 * through here): each cell of these columns, when not empty (a value an error or skipped
 * row does not have), is a plain decimal number (no hex, inf or nan) in [lo, hi], and whole
 * where @whole. An error row's ops_per_s of 0 is in range.
 */
static const struct {
	const char *col;
	int whole;
	double lo, hi;
	const char *why_hi;
} value_limits[] = {
    {"ops_per_s", 0, 0, 1e15, "is over 1e15 operations per second: no machine does that"},
    {"ns_per_op", 0, 0, DBL_MAX, "is not finite"},
    {"threads", 1, 1, INT_MAX, "is more threads than pcbench runs"},
};

/* check_values - every cell of value_limits' columns, or usage_error naming it (exit 2). */
static void check_values(const struct run_file *r)
{
	for (size_t k = 0; k < sizeof(value_limits) / sizeof(value_limits[0]); k++) {
		int col = csv_col(r->t, value_limits[k].col);

		for (int i = 0; col >= 0 && i < r->t->nrows; i++) {
			const char *v = r->t->rows[i][col], *why = NULL;
			char *end;
			double x;

			if (!v[0])
				continue;
			x = strtod(v, &end);
			if (v[strspn(v,
				     value_limits[k].whole ? "0123456789+-" : "0123456789.eE+-")] ||
			    end == v || *end)
				why = value_limits[k].whole ? "is not a whole decimal number"
							    : "is not a decimal number";
			else if (!isfinite(x))
				why = "is not finite";
			else if (x < value_limits[k].lo)
				why = value_limits[k].lo ? "is below 1" : "is negative";
			else if (x > value_limits[k].hi)
				why = value_limits[k].why_hi;
			if (why) {
				char *shown = esc_text(v);

				usage_error("RUN", r->csv_path,
					    "line %d, column %d (%s): \"%s\" %s", i + 2, col + 1,
					    value_limits[k].col, shown, why);
			}
		}
	}
}

void run_file_load(struct run_file *r, const char *arg)
{
	char err[1024], *ctx;
	struct stat st;

	memset(r, 0, sizeof(*r));
	r->arg = arg;
	r->precision = NAN;
	if (stat(arg, &st))
		usage_error("RUN", arg, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		r->csv_path = xasprintf("%s/results.csv", arg);
		r->dir = xstrdup(arg);
		if (stat(r->csv_path, &st))
			usage_error("RUN", arg, "no results.csv in this directory (%s)",
				    strerror(errno));
	} else {
		const char *slash = strrchr(arg, '/');

		r->csv_path = xstrdup(arg);
		/* context.json describes results.csv only: a --csv file may mix runs. */
		if (!strcmp(slash ? slash + 1 : arg, "results.csv"))
			r->dir = slash ? xasprintf("%.*s",
						   (int)(slash - arg) ? (int)(slash - arg) : 1, arg)
				       : xstrdup(".");
	}
	r->t = csv_read_file(r->csv_path, err, sizeof(err));
	if (!r->t)
		usage_error("RUN", arg, "%s", err);
	for (int i = 0; i < RESULTS_NREQ; i++)
		if (csv_col(r->t, results_required[i]) < 0)
			usage_error("RUN", r->csv_path,
				    "not a pcbench results CSV: no column \"%s\" (see "
				    "docs/results-csv.md)",
				    results_required[i]);
	if (!r->t->nrows)
		usage_error("RUN", r->csv_path, "no result rows");
	home_spelling(r);
	refuse_duplicates(r);
	check_values(r);
	if (!r->dir)
		return;
	ctx = xasprintf("%s/context.json", r->dir);
	if (!stat(ctx, &st)) {
		json_t *j = infile_json(ctx, err, sizeof(err));

		if (!j) {
			warn_msg("%s (ignored)", err);
		} else {
			r->run_id = json_str(j, "run_id");
			r->host = json_str(j, "host");
			r->label = json_str(j, "label");
			r->cpu_model = json_str(j, "cpu_model");
			r->start = json_str(j, "start_time");
			r->machine = json_str(json_object_get(j, "machine"), "summary");
			context_state(r, j);
			json_decref(j);
		}
	}
	free(ctx);
}
