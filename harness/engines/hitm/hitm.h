/* SPDX-License-Identifier: MIT */
/*
 * hitm.h - `pcbench hitm`: measured HITM per field next to the model. `hitm record` runs a
 * measurement under `perf c2c record --clockid monotonic` (hitm_record.c); `hitm report`
 * prints per field beside the coherence model (hitm_report.c) what the library reads: the
 * run's objects.json (hitm_objects.c), perf script's samples (hitm_script.c), each sampled
 * address inside a modelled object in a window mapped to object.field through the layout
 * (hitm_map.c, also for `layout suggest --hitm`). docs/hitm.md.
 */
#ifndef PCBENCH_HITM_H
#define PCBENCH_HITM_H

#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "opt.h"

/* ---- objects.json, as read back (hitm_objects.c) ---- */

/* The format name objects.json carries (measure/objects.c writes it); readers refuse others. */
#define OBJECTS_FORMAT "pcbench-objects-1"

struct hitm_object {
	char name[64], sname[64];
	uint64_t base, size;
	const struct layout *layout; /* NULL: no layout text; every sample is a hole */
	struct layout_leaf *leaves;  /* layout_leaves of @sname */
	int nleaves;
};

struct hitm_window {
	char family[256], scenario[64], preset[64], workload[64], placement[64];
	int threads, rep, ok;
	int *pus;
	int64_t start_ns, end_ns; /* the measured window on CLOCK_MONOTONIC */
	struct hitm_object *objs;
	int nobjs;
};

struct hitm_run {
	char topology[4096]; /* a path (relative ones are to the run directory) or synthetic: */
	char **params;	     /* the run's --param NAME=VALUE */
	int nparams;
	char layout[4096]; /* the run's --layout, or "" */
	struct layout **layouts;
	int nlayouts;
	struct hitm_window *w;
	int nw;
};

/*
 * hitm_run_load - objects.json at @path. Returns 0, or -1 with "path: why" in @err (not
 * JSON, another format, a member missing or of the wrong type, a layout that does not parse
 * or whose fingerprint differs).
 */
int hitm_run_load(const char *path, struct hitm_run *out, char *err, size_t errlen);
void hitm_run_free(struct hitm_run *r);

/* ---- perf script lines (hitm_script.c) ---- */

enum hitm_op { HOP_OTHER, HOP_LOAD, HOP_STORE };

/* What a load's data_src says about where the line came from. */
enum hitm_src {
	HSRC_NONE,	  /* no snoop transfer: L1, LFB, L2, L3 without snoop, N/A */
	HSRC_HITM_LOCAL,  /* SNP HitM, the level not Remote: Modified in a core of this node */
	HSRC_HITM_REMOTE, /* SNP HitM, the level text starts with Remote */
	HSRC_SNOOP_HIT,	  /* SNP Hit, Fwd or Peer from a cache: a clean cache-to-cache copy */
	HSRC_MEMORY,	  /* RAM, PMEM or CXL */
	HSRC_COUNT
};

struct hitm_sample {
	int64_t time_ns;
	uint64_t addr;
	enum hitm_op op;
	enum hitm_src src;
	int cpu; /* perf script's "[CPU]" (-F cpu), or -1 when the line has none */
	int tid; /* the thread id before the time (-F tid, "pid/tid"), or -1 */
};

/*
 * hitm_parse_line - one line of `perf script --ns -F tid,cpu,time,event,addr,data_src` (also
 * with µs times, without the cpu, or other fields before the time): the time, the CPU and
 * thread when given, the data address and the decoded data_src text ("|OP LOAD|LVL L3 hit|SNP
 * HitM|..."). Returns 1 for a sample, 0 for a line without a data_src (comments, other events), -1
 * for a line that has one but cannot be read.
 */
int hitm_parse_line(const char *line, struct hitm_sample *out);

/* hitm_classify - the op and source of a data_src text (from its "|OP " on). */
void hitm_classify(const char *data_src, enum hitm_op *op, enum hitm_src *src);

/* ---- samples mapped to objects (hitm_map.c: the library `hitm report` and `layout suggest
 * --hitm` share) ---- */

/* Where one sample landed. */
struct hitm_hit {
	const struct hitm_window *w; /* the ok measured window at its time, or NULL */
	int obj;		     /* the index in w->objs of the object at its address, or -1 */
	uint64_t off;		     /* the offset in that object */
	const struct layout_leaf *leaf; /* the field there (layout_leaf_at), NULL: a hole */
};

/* What reading gave: lines, perf sample lines (readable or not), samples, and why not mapped. */
struct hitm_read_stats {
	long lines, sample_lines, samples, unreadable, outside_windows;
};

/* Called for every readable sample, with where it landed (@h->w NULL: outside every window). */
typedef void (*hitm_hit_fn)(void *ctx, const struct hitm_sample *s, const struct hitm_hit *h);

/* hitm_locate - the ok window of @r at @s's time, the object holding its address, the field. */
void hitm_locate(const struct hitm_run *r, const struct hitm_sample *s, struct hitm_hit *h);

/*
 * hitm_samples - the samples of run directory @dir (its objects.json already in @r): from
 * @script (perf script text; "-" stdin), or with @script NULL from `perf script` run on
 * @dir/perf.data; each readable one located and passed to @fn. Bad input (@script missing
 * or holding no perf sample line, perf.data missing or a FIFO) exits 2 naming it, as
 * command @who. Returns 0; perf script's exit status when it failed (what it printed was
 * read); 127 when there is no perf binary (said on stderr).
 */
int hitm_samples(const char *who, const char *dir, const char *script, const struct hitm_run *r,
		 struct hitm_read_stats *st, hitm_hit_fn fn, void *ctx);

/* ---- the subcommands ---- */

struct measure_dir;
/*
 * hitm_record - `pcbench hitm record [run options]` (@argv) once the measure command has
 * checked the options and chosen the run directory @d (measure_dir_check): what sampling
 * needs checked, @d made, the measurement run under perf c2c record.
 */
int hitm_record(int argc, char **argv, struct measure_dir *d);
int hitm_report(int argc, char **argv);
extern const struct cmd_help hitm_report_help;

#endif
