/* SPDX-License-Identifier: MIT */
/*
 * layout_cmd.h - what the files of `pcbench layout` share: commands/cmd_layout.c (the command),
 * layout_cmd.c (the subcommands' option tables and help, layout_usage_error, reading and writing),
 * layout_import.c (import: pahole text, --from-object, --btf), layout_show.c (show),
 * layout_trace.c (--scenario's traced accesses, for show and suggest), layout_view.c (the
 * view show prints of a struct) and layout_suggest*.c (suggest).
 */
#ifndef PCBENCH_LAYOUT_CMD_H
#define PCBENCH_LAYOUT_CMD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "opt.h"

/* layout import's options (its rows bind these). */
struct import_opts {
	const char *structs, *object, *out, *name, *desc;
	int expand, btf;
};

/* The subcommands' help and option tables (layout_cmd.c). */
extern const struct cmd_help layout_import_help, layout_show_help, layout_suggest_help;

/*
 * layout_usage_error - "pcbench: layout: ..." on stderr; returns 2, the exit status of bad
 * input. Unlike lib's usage_error it returns, so that the caller frees and removes what it
 * made before the command exits.
 */
int layout_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* layout_read_stream - all of @f (at most 16 MiB) into a new string, or NULL with @err. */
char *layout_read_stream(FILE *f, const char *name, char *err, size_t errlen);

/* layout_write_out - @text to @path (NULL or "-": stdout, checked at exit); 1 on error. */
int layout_write_out(const char *path, const char *text);

/* The subcommands: argv[0] is "import" / "show". */
int layout_import_cmd(int argc, char **argv);
int layout_show_cmd(int argc, char **argv);
/*
 * What `layout suggest --measure[=DIR]` asks the layout command to measure (the engine
 * suggests; the command runs the measure command: engines call no command). The strings
 * are the request's own, or (scenario, preset, workload, params) live as long as argv.
 */
struct sg_measure_req {
	const char *dir; /* --measure=DIR, or NULL: results/<UTC time>-suggest */
	double budget;	 /* --budget, or 0: measure's default */
	const char *scenario, *preset, *workload;
	char **params; /* the -D NAME=VALUE given, but the layout's and the recipe's */
	int nparams;
	char *layout_param;   /* the scenario's layout parameter ("layout") */
	char *today;	      /* today's layout as -D takes it (a built-in name or a file)... */
	char *today_text;     /* ...or, when not NULL, this text, written to DIR/today.layout */
	char *recipe;	      /* the probe's recipe file, or NULL... */
	char *recipe_text;    /* ...and when not NULL, its text, written to DIR/hitm.recipe */
	char *suggested_text; /* the suggestion, written to DIR/suggested.layout */
};
void sg_measure_req_free(struct sg_measure_req *r);

/*
 * layout_suggest_cmd - `layout suggest`: argv[0] is "suggest". With --measure and a
 * suggestion better than the input, a new request into *@measure (else NULL) for the
 * command to measure (cmd_layout.c).
 */
int layout_suggest_cmd(int argc, char **argv, struct sg_measure_req **measure);

/* ---- layout_view.c ---- */

struct layout;
struct layout_struct;
struct layout_leaf;

/* The kinds of access a leaf is annotated with. */
enum { ACC_RMW, ACC_STORE, ACC_LOAD, NACC };

/* Per-leaf annotation of one object. */
struct ann {
	double per_op[NACC]; /* per operation of each thread that makes them */
	int thr[NACC];	     /* how many threads make them */
	uint64_t wmask;	     /* threads that write it (store or rmw) */
	uint64_t amask;	     /* threads that access it at all */
	unsigned opmask;
};

/* The false-sharing report: one line per flagged cache line, "WHO: NOTE". */
struct report {
	char (*lines)[2600];
	int n, cap;
};

/* ---- layout_trace.c ---- */

#include "bench.h"

#define TRACE_MAX_PARAMS 64
#define TRACE_MAX_VTHREADS 64

/* What to trace: the selection, its -D values and the rounds. */
struct trace_req {
	const char *cmd;    /* "show", "suggest": the messages' prefix */
	const char *layout; /* the layout's name as given (NULL: the scenario's own) */
	const char *scenario, *preset, *workload;
	char *params[TRACE_MAX_PARAMS + 1];
	int nparams;
	long threads, ops, warmup;
};

/* layout show's options (its rows bind these; the layout is the operand). */
struct show_opts {
	struct trace_req rq; /* the layout, and with --scenario what to trace */
	const char *format;
	int all;
	long line;
};

/* One modelled object of the traced scenario and its counts. */
struct tobj {
	struct bench_object o;
	const struct layout_struct *s;
	struct layout_leaf *lv;
	int n;
	long *cnt;	  /* [leaf][NACC][thread] */
	unsigned *opmask; /* [leaf]: 1 << pc_op of every op seen */
	long undescribed; /* accesses inside the object but in no described field */
	int group;	  /* the first object with the same struct and counts */
};

/* The traced run: its objects and counts, and the scenario state they live in. */
struct trace {
	const char *cmd;
	struct tobj *o;
	int n, threads, cur;
	long outside, ops;
	const struct scenario *sc;
	const struct bench_preset *preset;
	const struct bench_workload *wl;
	struct bench_cfg *cfg;
	void *shared, **ts;
};
extern struct trace tr;

/*
 * trace_start - trace @rq with layout @l (NULL: the scenario's own, computed or its preset's)
 * into tr; 0, or 2 with why on stderr. Call trace_free after it either way.
 */
int trace_start(const struct trace_req *rq, const struct layout *l);
/* trace_free - tear the scenario down, free tr's objects and clear it. */
void trace_free(void);
/* trace_annotate - the per-leaf annotation of object @t over @ops operations. */
void trace_annotate(const struct tobj *t, long ops, struct ann *a);

/*
 * view_struct - the view of struct @s of layout @l (its @n leaves @lv, @ls-byte cache
 * lines) on stdout: one line per leaf (offset, size, field, kind, and with @a its
 * accesses), cache-line boundaries, holes, nested struct headers; with @a also the
 * false-sharing flags (added to @rep under @who) and, unless @all, untouched lines folded
 * into one comment; with @notes, each leaf's non-NULL note on a line under it.
 */
void view_struct(const struct layout *l, const struct layout_struct *s,
		 const struct layout_leaf *lv, int n, const struct ann *a, size_t ls, int all,
		 const char *who, struct report *rep, const char *const *notes);
/* view_ops - the names of the accessor ops in @mask (1 << pc_op), comma-separated. */
void view_ops(char *buf, size_t len, unsigned mask);
/* view_header - the comment lines naming layout @l and its @line-byte cache lines. */
void view_header(const struct layout *l, long line);

#endif
