// SPDX-License-Identifier: MIT
/*
 * layout_cmd.c - `pcbench layout import|show`: layouts from outside.
 *
 *   pcbench layout import [--struct NAME[,NAME]] [--name LAYOUT] [--desc TEXT] [-o FILE] FILE|-
 *   pcbench layout import --from-object OBJ --struct NAME[,NAME] [-E] [...]
 *   pcbench layout show NAME|FILE [--format view|layout] [--line-size N]
 *                        [--scenario S --preset P [--workload W] [--threads N] [--ops N]
 *                         [--warmup N] [-D NAME=VALUE]... [--all]]
 *
 * import converts pahole text (pahole.c) and prints the layout file. show prints a
 * pahole-like view of every struct, nested structs flattened ("memory.usage"), with cache-line
 * boundaries; or, with --format layout, the layout in the layout-file format
 * (layout_to_text), so that show -> file -> load round-trips. With --scenario, the
 * scenario's tracing build runs on this one OS thread: N virtual threads (default 2) each
 * get thread_setup(), then run(shared, tstate_i, 1) in turn, for --warmup rounds and then
 * --ops measured rounds during which pc_trace_hook counts every shared access per object,
 * field, access kind and virtual thread. Addresses map to fields through the scenario's
 * objects() and the layout. Every field is annotated with its accesses per operation, and
 * every cache line where a field written by one thread shares the line with a field used
 * by another thread is flagged (the static false-sharing report).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "harness.h"
#include "layout.h"
#include "num.h"
#include "outfile.h"
#include "pahole.h"

extern char **environ;

#define MAX_PARAMS 64
#define MAX_OBJECTS 64
#define MAX_VTHREADS 64
#define INPUT_MAX (16UL << 20)

static int err2(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* err2 - "pcbench: layout: ..." on stderr; returns 2, the exit status of bad input. */
static int err2(const char *fmt, ...)
{
	va_list ap;

	fputs("pcbench: layout: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

enum { O_FROM_OBJECT = OPT_LONG, O_NAME, O_DESC, O_FORMAT, O_OPS, O_WARMUP, O_LINE, O_ALL };

static const struct opt import_opts[] = {
    {"struct", 'C', "NAME[,NAME...]", "the structs to import (default: every one)"},
    {"from-object", O_FROM_OBJECT, "OBJ", "run pahole on a DWARF or BTF object (vmlinux, a .o)"},
    {"expand", 'E', NULL, "with --from-object: expand nested structs (pahole -E)"},
    {"name", O_NAME, "LAYOUT", "the layout's name"},
    {"desc", O_DESC, "TEXT", "the layout's description"},
    {"out", 'o', "FILE", "write the layout file here (default: stdout)"},
    {"help", 'h', NULL, "this text"},
    {NULL, 0, NULL, NULL},
};

static const struct opt show_opts[] = {
    {"format", O_FORMAT, "view|layout", "a pahole-like view (default) or the layout file"},
    {"line-size", O_LINE, "N", "cache-line size in bytes (default 64)"},
    {"scenario", 's', "S", "annotate with this scenario's accesses"},
    {"preset", 'p', "P", "the scenario's preset"},
    {"workload", 'w', "W", "the scenario's workload (default: its first)"},
    {"threads", 't', "N", "virtual threads (default 2)"},
    {"ops", O_OPS, "N", "measured operations per virtual thread (default 4096)"},
    {"warmup", O_WARMUP, "N", "operations per virtual thread before those (default 256)"},
    {"param", 'D', "NAME=VALUE", "set one scenario parameter (repeatable; VALUE may hold spaces)"},
    {"all", O_ALL, NULL, "also list untouched lines"},
    {"help", 'h', NULL, "this text"},
    {NULL, 0, NULL, NULL},
};

static const struct cmd_help import_help = {
    .name = "layout import",
    .synopsis =
	"usage: pcbench layout import [--struct NAME[,NAME...]] [--name LAYOUT] [--desc TEXT]\n"
	"                             [-o FILE] FILE|-\n"
	"       pcbench layout import --from-object OBJ --struct NAME[,NAME...] [-E]\n"
	"                             [--name LAYOUT] [--desc TEXT] [-o FILE]\n",
    .opts = import_opts,
};

static const struct cmd_help show_help = {
    .name = "layout show",
    .synopsis = "usage: pcbench layout show NAME|FILE [--format view|layout] [--line-size N]\n"
		"                           [--scenario S --preset P [--workload W] [--threads N]\n"
		"                            [--ops N] [--warmup N] [-D NAME=VALUE]... [--all]]\n",
    .opts = show_opts,
};

const struct cmd_help layout_help = {
    .name = "layout",
    .synopsis =
	"usage: pcbench layout import [--struct NAME[,NAME...]] [--name LAYOUT] [--desc TEXT]\n"
	"                             [-o FILE] FILE|-\n"
	"       pcbench layout import --from-object OBJ --struct NAME[,NAME...] [-E]\n"
	"                             [--name LAYOUT] [--desc TEXT] [-o FILE]\n"
	"       pcbench layout show NAME|FILE [--format view|layout] [--line-size N]\n"
	"                           [--scenario S --preset P [--workload W] [--threads N]\n"
	"                            [--ops N] [--warmup N] [-D NAME=VALUE]... [--all]]\n",
    .about = "import converts `pahole -C NAME` output (FILE, or - for stdin) into the layout-file\n"
	     "format; --from-object runs pahole itself (-E: expand nested structs) on a DWARF or\n"
	     "BTF object such as vmlinux or a .o built with -g.\n"
	     "show prints a pahole-like view of a built-in layout or a layout file, with\n"
	     "cache-line boundaries; --format layout prints it in the layout-file format.\n"
	     "With --scenario, the scenario's tracing build runs N virtual threads (default 2)\n"
	     "in turn on one OS thread: every field is annotated with its accesses per\n"
	     "operation, and every cache line where a field written by one thread shares the\n"
	     "line with a field used by another is flagged. --all also lists untouched lines.\n",
    .after =
	"Examples:\n"
	"  pahole -C page_counter vmlinux | pcbench layout import --name mine - > mine.layout\n"
	"  pcbench layout import --from-object vmlinux -E --struct mem_cgroup -o memcg.layout\n"
	"  pcbench layout show v6.1\n"
	"  pcbench layout show v6.0 --scenario page_counter --preset v6.0-rc1 --workload "
	"stocked\n"
	"  pcbench layout show mine.layout --scenario probe --preset v6.1 -D "
	"recipe=my.recipe\n",
    .subs = (const struct cmd_help *const[]){&import_help, &show_help, NULL},
};

/* read_stream - all of @f into a new '\0'-terminated buffer, or NULL with @err. */
static char *read_stream(FILE *f, const char *name, char *err, size_t errlen)
{
	size_t n = 0, cap = 65536;
	char *buf = malloc(cap);

	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	for (;;) {
		size_t got = fread(buf + n, 1, cap - n - 1, f);

		n += got;
		if (ferror(f)) {
			snprintf(err, errlen, "%s: %s", name, strerror(errno));
			free(buf);
			return NULL;
		}
		if (feof(f))
			break;
		if (n + 1 == cap) {
			char *nb;

			if (cap >= INPUT_MAX) {
				snprintf(err, errlen, "%s: more than %lu bytes", name, INPUT_MAX);
				free(buf);
				return NULL;
			}
			nb = realloc(buf, 2 * cap);
			if (!nb) {
				snprintf(err, errlen, "%s: out of memory", name);
				free(buf);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
	}
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		snprintf(err, errlen, "%s: contains a NUL byte, not text", name);
		free(buf);
		return NULL;
	}
	return buf;
}

/* ---- import ---- */

/* Drain @fd into *@buf (growing it); returns 0 at EOF, 1 when more may come, -1 on error. */
static int drain(int fd, char **buf, size_t *n, size_t *cap)
{
	char tmp[65536];
	ssize_t got = read(fd, tmp, sizeof(tmp));

	if (got < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -1;
	if (!got)
		return 0;
	if (*n + (size_t)got + 1 > *cap) {
		size_t c = *cap ? *cap : 65536;
		char *nb;

		while (c < *n + (size_t)got + 1)
			c *= 2;
		if (c > INPUT_MAX)
			return -1;
		nb = realloc(*buf, c);
		if (!nb)
			return -1;
		*buf = nb;
		*cap = c;
	}
	memcpy(*buf + *n, tmp, (size_t)got);
	*n += (size_t)got;
	(*buf)[*n] = '\0';
	return 1;
}

/*
 * run_pahole - `pahole [-E] -C STRUCTS OBJ` without a shell (posix_spawnp; $PAHOLE overrides
 * the program). Returns its standard output, or NULL with a message in @err.
 */
static char *run_pahole(const char *obj, const char *structs, int expand, char *err, size_t errlen)
{
	const char *prog = getenv("PAHOLE") && *getenv("PAHOLE") ? getenv("PAHOLE") : "pahole";
	char *args[7], *out = NULL, *errs = NULL;
	size_t nout = 0, cout = 0, nerr = 0, cerr = 0;
	int po[2] = {-1, -1}, pe[2] = {-1, -1}, k = 0, rc, status, open_o = 1, open_e = 1;
	posix_spawn_file_actions_t fa;
	pid_t pid;

	args[k++] = (char *)prog;
	if (expand)
		args[k++] = "-E";
	args[k++] = "-C";
	args[k++] = (char *)structs;
	args[k++] = (char *)obj;
	args[k] = NULL;
	if (pipe(po) || pipe(pe)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		goto fail;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, po[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
	posix_spawn_file_actions_addclose(&fa, po[0]);
	posix_spawn_file_actions_addclose(&fa, pe[0]);
	rc = posix_spawnp(&pid, prog, &fa, NULL, args, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(po[1]);
	close(pe[1]);
	po[1] = pe[1] = -1;
	if (rc) {
		if (rc == ENOENT)
			snprintf(err, errlen,
				 "%s: not found (pahole is in the Debian package dwarves: apt-get "
				 "install dwarves)",
				 prog);
		else
			snprintf(err, errlen, "%s: cannot run it: %s", prog, strerror(rc));
		goto fail;
	}
	while (open_o || open_e) {
		struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};

		if (!open_o)
			fds[0].fd = -1;
		if (!open_e)
			fds[1].fd = -1;
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (open_o && fds[0].revents) {
			rc = drain(po[0], &out, &nout, &cout);
			open_o = rc > 0;
			if (rc < 0)
				break;
		}
		if (open_e && fds[1].revents) {
			rc = drain(pe[0], &errs, &nerr, &cerr);
			open_e = rc > 0;
			if (rc < 0)
				break;
		}
	}
	close(po[0]);
	close(pe[0]);
	po[0] = pe[0] = -1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (open_o || open_e) {
		snprintf(err, errlen, "%s: cannot read its output (more than %lu bytes?)", prog,
			 INPUT_MAX);
		goto fail;
	}
	if (errs) {
		char *nl = strchr(errs, '\n');

		if (nl)
			*nl = '\0';
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(err, errlen, "%s -C %s %s failed (%s %d)%s%s", prog, structs, obj,
			 WIFEXITED(status) ? "exit status" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			 errs && *errs ? ": " : "", errs ? errs : "");
		goto fail;
	}
	if (!out || !strstr(out, "struct ")) {
		snprintf(err, errlen, "%s -C %s %s printed no struct%s%s", prog, structs, obj,
			 errs && *errs ? ": " : "", errs ? errs : "");
		goto fail;
	}
	free(errs);
	return out;
fail:
	for (int i = 0; i < 2; i++) {
		if (po[i] >= 0)
			close(po[i]);
		if (pe[i] >= 0)
			close(pe[i]);
	}
	free(out);
	free(errs);
	return NULL;
}

/* write_out - @text to @path (NULL or "-": stdout, checked at exit); 1 on a write error. */
static int write_out(const char *path, const char *text)
{
	return outfile_write_all(path ? path : "-", text, strlen(text)) ? 1 : 0;
}

static int cmd_import(int argc, char **argv)
{
	const char *structs = NULL, *object = NULL, *out = NULL, *input = NULL;
	struct pahole_opts po = {0};
	struct opt_parser op;
	char err[1024], source[512];
	int expand = 0, c, rc;
	char *text, *layout;

	opt_init(&op, &import_help);
	while ((c = opt_next(&op, argc, argv)) != -1) {
		switch (c) {
		case 'C':
			structs = optarg;
			break;
		case O_FROM_OBJECT:
			object = optarg;
			break;
		case O_NAME:
			po.name = optarg;
			break;
		case O_DESC:
			po.desc = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'E':
			expand = 1;
			break;
		}
	}
	for (int i = optind; i < argc; i++) {
		if (input)
			return err2("import: one input only: %s and %s", input, argv[i]);
		input = argv[i];
	}
	if (object && input)
		return err2("import: --from-object %s and an input file %s: give one", object,
			    input);
	if (!object && !input)
		return err2("import: no input (a file of `pahole -C NAME` output, - for stdin, or "
			    "--from-object OBJ --struct NAME)");
	if (expand && !object)
		return err2(
		    "import: -E goes with --from-object (give `pahole -E` output otherwise)");
	if (object) {
		if (!structs || !*structs)
			return err2("import: --from-object %s needs --struct NAME", object);
		text = run_pahole(object, structs, expand, err, sizeof(err));
		if (!text)
			return err2("import: %s", err);
		snprintf(source, sizeof(source), "pahole%s -C %s %s", expand ? " -E" : "", structs,
			 object);
	} else if (!strcmp(input, "-")) {
		text = read_stream(stdin, "(stdin)", err, sizeof(err));
		if (!text)
			return err2("import: %s", err);
		snprintf(source, sizeof(source), "(stdin)");
	} else {
		FILE *f = fopen(input, "rb");

		if (!f)
			return err2("import: %s: %s", input, strerror(errno));
		text = read_stream(f, input, err, sizeof(err));
		fclose(f);
		if (!text)
			return err2("import: %s", err);
		snprintf(source, sizeof(source), "%s", input);
	}
	po.structs = structs;
	layout = pahole_to_layout(text, source, &po, err, sizeof(err));
	free(text);
	if (!layout)
		return err2("import: %s", err);
	rc = write_out(out, layout);
	free(layout);
	return rc;
}

/* ---- show ---- */

enum { ACC_RMW, ACC_STORE, ACC_LOAD, NACC };

static int acc_kind(enum pc_op op)
{
	switch (op) {
	case PC_OP_LOAD:
	case PC_OP_WAIT:
		return ACC_LOAD;
	case PC_OP_STORE:
	case PC_OP_UNLOCK:
		return ACC_STORE;
	default:
		return ACC_RMW;
	}
}

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

static struct {
	struct tobj *o;
	int n, threads, cur;
	long outside;
} tr;

static void trace_hook(enum pc_op op, const volatile void *addr, unsigned size, const char *site)
{
	uintptr_t a = (uintptr_t)addr;

	(void)size;
	(void)site;
	if ((unsigned)op >= PC_OP_COUNT)
		return;
	for (int i = 0; i < tr.n; i++) {
		struct tobj *t = &tr.o[i];
		uintptr_t base = (uintptr_t)t->o.base;
		const struct layout_leaf *lf;

		if (a < base || a >= base + t->s->size)
			continue;
		lf = layout_leaf_at(t->lv, t->n, a - base);
		if (!lf) {
			t->undescribed++;
			return;
		}
		t->cnt[((lf - t->lv) * NACC + acc_kind(op)) * tr.threads + tr.cur]++;
		t->opmask[lf - t->lv] |= 1u << op;
		return;
	}
	tr.outside++;
}

/* Per-leaf annotation of one object. */
struct ann {
	double per_op[NACC]; /* per operation of each thread that makes them */
	int thr[NACC];	     /* how many threads make them */
	uint64_t wmask;	     /* threads that write it (store or rmw) */
	uint64_t amask;	     /* threads that access it at all */
	unsigned opmask;
};

static void annotate(const struct tobj *t, long ops, struct ann *a)
{
	for (int i = 0; i < t->n; i++) {
		memset(&a[i], 0, sizeof(a[i]));
		a[i].opmask = t->opmask[i];
		for (int k = 0; k < NACC; k++) {
			long sum = 0;

			for (int th = 0; th < tr.threads; th++) {
				long c = t->cnt[(i * NACC + k) * tr.threads + th];

				if (!c)
					continue;
				sum += c;
				a[i].thr[k]++;
				a[i].amask |= 1ULL << th;
				if (k != ACC_LOAD)
					a[i].wmask |= 1ULL << th;
			}
			if (a[i].thr[k])
				a[i].per_op[k] = (double)sum / ((double)ops * a[i].thr[k]);
		}
	}
}

static int popcount64(uint64_t x)
{
	int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

/* A field written by one thread and another field used by a different thread. */
static int pair_shares(const struct ann *w, const struct ann *u)
{
	if (!w->wmask || !u->amask)
		return 0;
	return !(w->wmask == u->amask && popcount64(w->wmask) == 1);
}

static int overlaps_line(const struct layout_leaf *lf, size_t line, size_t ls)
{
	size_t lo = line * ls, hi = lo + ls;

	return lf->size && lf->offset < hi && lf->offset + lf->size > lo;
}

static void fmt_acc(char *buf, size_t len, const struct ann *a, int k)
{
	if (!a->thr[k])
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.4g x%d", a->per_op[k], a->thr[k]);
}

static void fmt_ops(char *buf, size_t len, unsigned mask)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int op = 0; op < PC_OP_COUNT && n < len; op++)
		if (mask & (1u << op))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "",
					      pc_op_name((enum pc_op)op));
}

/* The top-level field of @s that holds the nested leaf @lf, or NULL. */
static const struct layout_field *outer_field(const struct layout_struct *s,
					      const struct layout_leaf *lf)
{
	if (lf->owner == s)
		return NULL;
	for (int i = 0; i < s->nfields; i++) {
		const struct layout_field *f = &s->fields[i];

		if (f->kind == LK_STRUCT && lf->offset >= f->offset &&
		    lf->offset < f->offset + (f->size ? f->size : 1))
			return f;
	}
	return NULL;
}

/*
 * flag_line - the false-sharing note of cache line @line, or 0 when it has none: the
 * fields written by a thread while another thread uses another field of the line.
 */
static int flag_line(const struct layout_leaf *lv, int n, const struct ann *a, size_t line,
		     size_t ls, char *buf, size_t len)
{
	char w[1024] = "", u[1024] = "";
	size_t nw = 0, nu = 0;
	int any = 0;

	for (int i = 0; i < n; i++) {
		int is_w = 0, is_u = 0;

		if (!overlaps_line(&lv[i], line, ls))
			continue;
		for (int j = 0; j < n; j++) {
			if (j == i || !overlaps_line(&lv[j], line, ls))
				continue;
			is_w |= pair_shares(&a[i], &a[j]);
			is_u |= pair_shares(&a[j], &a[i]);
		}
		if (is_w && nw < sizeof(w))
			nw += (size_t)snprintf(w + nw, sizeof(w) - nw, "%s%s", nw ? ", " : "",
					       lv[i].path);
		else if (is_u && nu < sizeof(u))
			nu += (size_t)snprintf(u + nu, sizeof(u) - nu, "%s%s", nu ? ", " : "",
					       lv[i].path);
		any |= is_w;
	}
	if (!any)
		return 0;
	snprintf(buf, len, "cacheline %zu (%zu..%zu): written %s%s%s", line, line * ls,
		 line * ls + ls - 1, w, u[0] ? "; used by other threads: " : "", u);
	return 1;
}

static int line_touched(const struct layout_leaf *lv, int n, const struct ann *a, size_t line,
			size_t ls)
{
	for (int i = 0; i < n; i++)
		if (overlaps_line(&lv[i], line, ls) && a[i].amask)
			return 1;
	return 0;
}

struct report {
	char (*lines)[2600];
	int n, cap;
};

static void report_add(struct report *r, const char *who, const char *what)
{
	if (r->n == r->cap) {
		int cap = r->cap ? 2 * r->cap : 16;
		void *nl = realloc(r->lines, (size_t)cap * sizeof(*r->lines));

		if (!nl)
			return;
		r->lines = nl;
		r->cap = cap;
	}
	snprintf(r->lines[r->n++], sizeof(r->lines[0]), "%s: %s", who, what);
}

/*
 * print_struct - the view of struct @s: one line per leaf (offset, size, field, kind, and
 * with @a its accesses), cache-line boundaries, holes, nested struct headers; with @a also
 * the false-sharing flags (added to @rep under @who) and, unless @all, untouched lines
 * folded into one comment.
 */
static void print_struct(const struct layout *l, const struct layout_struct *s,
			 const struct layout_leaf *lv, int n, const struct ann *a, size_t ls,
			 int all, const char *who, struct report *rep)
{
	const struct layout_field *nested = NULL;
	size_t end = 0, cur = (size_t)-1, nlines = (s->size + ls - 1) / ls;
	char flag[2400];

	printf("struct %s {\t/* size %zu, align %zu */\n", s->name, s->size, s->align);
	if (a)
		printf("\t/* offset   size  %-31s %-12s %-13s %-13s %-13s ops */\n", "field",
		       "kind", "rmw/op", "store/op", "load/op");
	else
		printf("\t/* offset   size  %-31s kind */\n", "field");
	for (int i = 0; i < n;) {
		const struct layout_leaf *lf = &lv[i];
		const struct layout_field *of;
		size_t line = lf->offset / ls;

		if (a && !all && !line_touched(lv, n, a, line, ls)) {
			/* Fold every leaf starting on consecutive untouched lines into one line. */
			int j = i;
			size_t last = line;
			char lines[64];

			while (j < n && !line_touched(lv, n, a, lv[j].offset / ls, ls)) {
				last = lv[j].offset / ls;
				j++;
			}
			if (lf->offset > end)
				printf("\t/* XXX %zu bytes hole or not described (%zu..%zu) */\n",
				       lf->offset - end, end, lf->offset - 1);
			if (last == line)
				snprintf(lines, sizeof(lines), "cacheline %zu", line);
			else
				snprintf(lines, sizeof(lines), "cachelines %zu..%zu", line, last);
			if (j - i == 1)
				printf("\t/* --- %s: %s not touched --- */\n", lines, lf->path);
			else
				printf("\t/* --- %s: %d fields not touched (%s .. %s) --- */\n",
				       lines, j - i, lf->path, lv[j - 1].path);
			for (int k = i; k < j; k++)
				if (lv[k].offset + lv[k].size > end)
					end = lv[k].offset + lv[k].size;
			cur = last;
			nested = outer_field(s, &lv[j - 1]);
			i = j;
			continue;
		}
		if (lf->offset > end)
			printf("\t/* XXX %zu bytes hole or not described (%zu..%zu) */\n",
			       lf->offset - end, end, lf->offset - 1);
		if (line != cur) {
			if (a && cur != (size_t)-1 &&
			    flag_line(lv, n, a, cur, ls, flag, sizeof(flag)))
				printf("\t/* !! false sharing on %s */\n", flag);
			if (line || lf->offset)
				printf("\t/* --- cacheline %zu boundary (%zu bytes) --- */\n", line,
				       line * ls);
			cur = line;
		}
		of = outer_field(s, lf);
		if (of && of != nested)
			printf("\t/* %s: struct %s (%zu..%zu) */\n", of->name,
			       layout_kind_name(l, of), of->offset, of->offset + of->size - 1);
		nested = of;
		if (a) {
			char c[NACC][32], ops[128];

			for (int k = 0; k < NACC; k++)
				fmt_acc(c[k], sizeof(c[k]), &a[i], k);
			fmt_ops(ops, sizeof(ops), a[i].opmask);
			if (!ops[0])
				snprintf(ops, sizeof(ops), "-");
			printf("\t%8zu %6zu  %-31s %-12s %-13s %-13s %-13s %s\n", lf->offset,
			       lf->size, lf->path, layout_kind_name(l, lf->field), c[0], c[1], c[2],
			       ops);
		} else {
			printf("\t%8zu %6zu  %-31s %s\n", lf->offset, lf->size, lf->path,
			       layout_kind_name(l, lf->field));
		}
		if (lf->size && (lf->offset + lf->size - 1) / ls != line)
			printf("\t/* ^ straddles cachelines %zu..%zu */\n", line,
			       (lf->offset + lf->size - 1) / ls);
		if (lf->offset + lf->size > end)
			end = lf->offset + lf->size;
		i++;
	}
	if (a && cur != (size_t)-1 && flag_line(lv, n, a, cur, ls, flag, sizeof(flag)))
		printf("\t/* !! false sharing on %s */\n", flag);
	/* Lines a straddling field reaches past the last start line are flagged too. */
	for (size_t line = (cur == (size_t)-1 ? 0 : cur + 1); a && line < nlines; line++)
		if (flag_line(lv, n, a, line, ls, flag, sizeof(flag)))
			printf("\t/* !! false sharing on %s */\n", flag);
	if (a && rep)
		for (size_t line = 0; line < nlines; line++)
			if (flag_line(lv, n, a, line, ls, flag, sizeof(flag)))
				report_add(rep, who, flag);
	if (s->size > end)
		printf("\t/* XXX %zu bytes at the end: padding or not described (%zu..%zu) */\n",
		       s->size - end, end, s->size - 1);
	printf("\n\t/* size: %zu, cachelines: %zu, fields: %d */\n", s->size, nlines, n);
	if (s->size % ls)
		printf("\t/* last cacheline: %zu bytes */\n", s->size % ls);
	printf("};\n");
}

static void print_header(const struct layout *l, long line)
{
	printf("/* layout %s (%s), fingerprint %016llx, %ld-byte cache lines */\n", l->name,
	       l->source, (unsigned long long)layout_fingerprint(l), line);
	if (l->desc[0])
		printf("/* %s */\n", l->desc);
}

struct show_opts {
	const char *layout, *scenario, *preset, *workload, *format;
	char *params[MAX_PARAMS + 1];
	int nparams, all;
	long threads, ops, warmup, line;
};

/* The line of the "layout NAME" line of file @path (1 when it cannot tell). */
static int layout_line_of(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[1024];
	int line = 0;

	if (!f)
		return 1;
	while (fgets(buf, sizeof(buf), f)) {
		char *s = buf;

		line++;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!strncmp(s, "layout", 6) && (s[6] == ' ' || s[6] == '\t')) {
			fclose(f);
			return line;
		}
	}
	fclose(f);
	return 1;
}

/* "PATH:LINE: " at the start of @msg, as layout and recipe errors have. */
static int has_file_line(const char *msg)
{
	const char *c = strchr(msg, ':');

	if (!c || c == msg || c[1] < '0' || c[1] > '9')
		return 0;
	for (c++; *c >= '0' && *c <= '9'; c++)
		;
	return *c == ':';
}

/*
 * check_error - exit 2 with a scenario's check() message about layout file @l: "FILE:LINE:"
 * of the struct the message names, else of the "layout" line.
 */
static int check_error(const struct layout *l, const char *msg)
{
	int line = 0;

	if (strncmp(l->source, "builtin:", 8) == 0 || has_file_line(msg))
		return err2("show: %s", msg);
	for (const char *s = msg; (s = strstr(s, "struct ")); s += 7) {
		char name[LAYOUT_NAME_MAX];
		size_t n = strspn(
		    s + 7, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		const struct layout_struct *ls;

		if (!n || n >= sizeof(name))
			continue;
		memcpy(name, s + 7, n);
		name[n] = '\0';
		ls = layout_find_struct(l, name);
		if (ls) {
			line = ls->line;
			break;
		}
	}
	if (!line)
		line = layout_line_of(l->source);
	return err2("show: %s:%d: a required field is missing for the scenario: %s", l->source,
		    line, msg);
}

static int same_counts(const struct tobj *a, const struct tobj *b)
{
	if (a->s != b->s || a->o.layout != b->o.layout || a->n != b->n)
		return 0;
	return !memcmp(a->cnt, b->cnt, (size_t)a->n * NACC * (size_t)tr.threads * sizeof(long)) &&
	       !memcmp(a->opmask, b->opmask, (size_t)a->n * sizeof(unsigned)) &&
	       a->undescribed == b->undescribed;
}

static int show_scenario(const struct show_opts *so, const struct layout *l)
{
	const struct scenario *sc = scenario_find_traced(so->scenario);
	const struct bench_preset *preset;
	const struct bench_workload *wl;
	struct bench_object objs[MAX_OBJECTS];
	struct bench_cfg *cfg;
	char err[1024], err0[1024], lparam[300], *user[MAX_PARAMS + 2];
	void *shared, *ts[MAX_VTHREADS];
	struct report rep = {0};
	int nobj, has_layout = 0, rc = 0;

	if (!sc) {
		char names[512] = "";
		size_t k = 0;

		for (int i = 0; all_scenarios_traced[i] && k < sizeof(names); i++)
			k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s", i ? ", " : "",
					      all_scenarios_traced[i]->name);
		return err2("show: --scenario: %s: no such scenario (scenarios: %s)", so->scenario,
			    names);
	}
	for (int i = 0; sc->params && sc->params[i].name; i++)
		has_layout |= !strcmp(sc->params[i].name, "layout") && sc->params[i].choices &&
			      !strcmp(sc->params[i].choices, BENCH_LAYOUT);
	if (!has_layout)
		return err2("show: --scenario: %s: takes no layout", sc->name);
	if (!so->preset)
		return err2("show: --scenario %s needs --preset (the first is %s)", sc->name,
			    sc->presets[0].name);
	preset = preset_find(sc, so->preset);
	if (!preset)
		return err2("show: --preset: %s: scenario %s has no such preset", so->preset,
			    sc->name);
	wl = so->workload ? workload_find(sc, so->workload) : &sc->workloads[0];
	if (!wl)
		return err2("show: --workload: %s: scenario %s has no such workload", so->workload,
			    sc->name);

	/* The user's -D values, then the layout shown (it wins, like --layout). */
	for (int i = 0; i < so->nparams; i++) {
		if (!strchr(so->params[i], '=') || so->params[i][0] == '=')
			return err2("show: -D: %s: expected NAME=VALUE", so->params[i]);
		if (!param_arg_known(sc, so->params[i]))
			return err2("show: -D: %s: scenario %s has no parameter %.*s",
				    so->params[i], sc->name, (int)strcspn(so->params[i], "="),
				    so->params[i]);
		user[i] = so->params[i];
	}
	snprintf(lparam, sizeof(lparam), "layout=%s", so->layout);
	user[so->nparams] = lparam;
	cfg = cfg_new(sc, preset, wl, (int)so->threads, user, so->nparams + 1, err, sizeof(err));
	if (!cfg) {
		struct bench_cfg *c0 = cfg_new(sc, preset, wl, (int)so->threads, user, so->nparams,
					       err0, sizeof(err0));

		cfg_free(c0);
		if (!c0 && !strcmp(err, err0))
			return err2("show: %s", err); /* not about the layout */
		return check_error(l, err);
	}
	shared = sc->setup(cfg, err, sizeof(err));
	if (!shared) {
		cfg_free(cfg);
		return err2("show: %s: setup: %s", sc->name, err);
	}
	memset(ts, 0, sizeof(ts));
	for (int t = 0; t < so->threads; t++) {
		ts[t] = sc->thread_setup(shared, t);
		if (!ts[t]) {
			rc = err2("show: %s: thread_setup(%d) failed", sc->name, t);
			goto out;
		}
	}
	for (long r = 0; r < so->warmup; r++)
		for (int t = 0; t < so->threads; t++)
			sc->run(shared, ts[t], 1);

	nobj = sc->objects ? sc->objects(shared, objs, MAX_OBJECTS) : 0;
	if (nobj <= 0) {
		rc = err2("show: %s: objects() gives no modelled object", sc->name);
		goto out;
	}
	memset(&tr, 0, sizeof(tr));
	tr.o = calloc((size_t)nobj, sizeof(*tr.o));
	tr.threads = (int)so->threads;
	for (int i = 0; tr.o && i < nobj; i++) {
		struct tobj *t = &tr.o[i];

		t->o = objs[i];
		t->s = layout_find_struct(objs[i].layout, objs[i].sname);
		t->n = t->s ? layout_leaves(objs[i].layout, objs[i].sname, &t->lv) : -1;
		if (t->n < 0) {
			rc = err2("show: %s: object %s: no struct %s in its layout", sc->name,
				  objs[i].name, objs[i].sname);
			goto out;
		}
		t->cnt = calloc((size_t)(t->n + 1) * NACC * (size_t)tr.threads, sizeof(long));
		t->opmask = calloc((size_t)t->n + 1, sizeof(unsigned));
		if (!t->cnt || !t->opmask) {
			rc = err2("show: out of memory");
			goto out;
		}
		tr.n++;
	}
	if (!tr.o) {
		rc = err2("show: out of memory");
		goto out;
	}
	pc_trace_hook = trace_hook;
	for (long r = 0; r < so->ops; r++)
		for (tr.cur = 0; tr.cur < so->threads; tr.cur++)
			sc->run(shared, ts[tr.cur], 1);
	pc_trace_hook = NULL;

	/* An atomic RMW needs a field that can take one. */
	for (int i = 0; i < tr.n; i++) {
		const struct tobj *t = &tr.o[i];

		for (int f = 0; f < t->n; f++) {
			const struct layout_field *fd = t->lv[f].field;
			long rmw = 0;
			char ops[128];

			for (int th = 0; th < tr.threads; th++)
				rmw += t->cnt[(f * NACC + ACC_RMW) * tr.threads + th];
			if (!rmw || fd->kind == LK_ATOMIC || fd->kind == LK_LOCK ||
			    fd->kind == LK_PTR)
				continue;
			fmt_ops(ops, sizeof(ops),
				t->opmask[f] & ~((1u << PC_OP_LOAD) | (1u << PC_OP_STORE)));
			rc = err2(
			    "show: %s:%d: field %s (%s of struct %s): scenario %s does atomic "
			    "%s on it, but its kind is %s: a plain word or a bit-field cannot be "
			    "updated atomically (mark it atomic if the kernel's type is)",
			    t->o.layout->source, fd->line, t->lv[f].path, fd->name,
			    t->lv[f].owner->name, sc->name, ops, layout_kind_name(t->o.layout, fd));
			goto out;
		}
	}

	print_header(l, so->line);
	printf("/* scenario %s, preset %s, workload %s, layout %s */\n", sc->name, preset->name,
	       wl->name, l->name);
	printf("/* traced: %ld virtual thread%s run in turn on one OS thread, one operation at a "
	       "time: %ld warm-up and %ld counted operations each */\n",
	       so->threads, so->threads == 1 ? "" : "s", so->warmup, so->ops);
	printf("/* per field: accesses per operation of each thread that makes them, xN: by N "
	       "threads; rmw = add, add_return, xchg, cmpxchg, lock; store = store, unlock */\n");
	printf("/* !! marks a cache line where a field written by one thread shares the line "
	       "with a field used by another thread (false sharing)%s */\n",
	       so->threads < 2 ? "; with one thread there is none" : "");
	if (tr.outside)
		printf("/* %.4g accesses per operation outside the objects below */\n",
		       (double)tr.outside / (double)(so->ops * so->threads));

	for (int i = 0; i < tr.n; i++) {
		tr.o[i].group = i;
		for (int j = 0; j < i; j++) {
			if (tr.o[j].group == j && same_counts(&tr.o[i], &tr.o[j])) {
				tr.o[i].group = j;
				break;
			}
		}
	}
	for (int i = 0; i < tr.n; i++) {
		const struct tobj *t = &tr.o[i];
		char who[512];
		size_t k = 0;
		int members = 0;
		struct ann *a;

		if (t->group != i)
			continue;
		for (int j = i; j < tr.n && k < sizeof(who); j++)
			if (tr.o[j].group == i) {
				k += (size_t)snprintf(who + k, sizeof(who) - k, "%s%s",
						      members ? ", " : "", tr.o[j].o.name);
				members++;
			}
		a = calloc((size_t)t->n + 1, sizeof(*a));
		if (!a) {
			rc = err2("show: out of memory");
			goto out;
		}
		annotate(t, so->ops, a);
		printf("\n/* object%s %s: struct %s of layout %s */\n", members > 1 ? "s" : "", who,
		       t->s->name, t->o.layout->name);
		if (t->undescribed)
			printf("/* %.4g accesses per operation at offsets no field describes */\n",
			       (double)t->undescribed / (double)(so->ops * so->threads));
		print_struct(t->o.layout, t->s, t->lv, t->n, a, (size_t)so->line, so->all, who,
			     &rep);
		free(a);
	}
	printf("\n/* static false-sharing report: %d cache line%s flagged */\n", rep.n,
	       rep.n == 1 ? "" : "s");
	for (int i = 0; i < rep.n; i++)
		printf("/*   %s */\n", rep.lines[i]);
out:
	pc_trace_hook = NULL;
	for (int t = 0; t < so->threads; t++)
		if (ts[t])
			sc->thread_teardown(shared, ts[t]);
	sc->teardown(shared);
	cfg_free(cfg);
	for (int i = 0; i < tr.n; i++) {
		free(tr.o[i].lv);
		free(tr.o[i].cnt);
		free(tr.o[i].opmask);
	}
	free(tr.o);
	memset(&tr, 0, sizeof(tr));
	free(rep.lines);
	return rc;
}

static int cmd_show(int argc, char **argv)
{
	struct show_opts so = {.threads = 2, .ops = 4096, .warmup = 256, .line = 64};
	char err[1024];
	struct layout *l;
	struct opt_parser op;
	int c, rc = 0;

	opt_init(&op, &show_help);
	while ((c = opt_next(&op, argc, argv)) != -1) {
		switch (c) {
		case 's':
			so.scenario = optarg;
			break;
		case 'p':
			so.preset = optarg;
			break;
		case 'w':
			so.workload = optarg;
			break;
		case O_FORMAT:
			so.format = optarg;
			break;
		case 'D':
			if (so.nparams == MAX_PARAMS)
				return err2("show: too many -D");
			so.params[so.nparams++] = optarg;
			break;
		case 't':
			if (num_long(optarg, 10, 1, MAX_VTHREADS, &so.threads))
				return err2("show: --threads: %s: expected 1..%d", optarg,
					    MAX_VTHREADS);
			break;
		case O_OPS:
			if (num_long(optarg, 10, 1, 10000000, &so.ops))
				return err2("show: --ops: %s: expected 1..10000000", optarg);
			break;
		case O_WARMUP:
			if (num_long(optarg, 10, 0, 10000000, &so.warmup))
				return err2("show: --warmup: %s: expected 0..10000000", optarg);
			break;
		case O_LINE:
			if (num_long(optarg, 10, 8, 4096, &so.line) || (so.line & (so.line - 1)))
				return err2(
				    "show: --line-size: %s: expected a power of two in 8..4096",
				    optarg);
			break;
		case O_ALL:
			so.all = 1;
			break;
		}
	}
	for (int i = optind; i < argc; i++) {
		if (so.layout)
			return err2("show: one layout only: %s and %s", so.layout, argv[i]);
		so.layout = argv[i];
	}
	if (!so.layout)
		return err2("show: no layout (a built-in name such as v6.1, or a layout file)");
	if (so.format && strcmp(so.format, "view") && strcmp(so.format, "layout"))
		return err2("show: --format: %s: expected view or layout", so.format);
	if (so.format && !strcmp(so.format, "layout") && so.scenario)
		return err2("show: --format layout prints the layout only: drop --scenario");
	if (!so.scenario && (so.preset || so.workload || so.nparams))
		return err2("show: --preset, --workload and -D go with --scenario");

	l = layout_load(so.layout, err, sizeof(err));
	if (!l)
		return err2("show: %s", err);
	if (so.format && !strcmp(so.format, "layout")) {
		char *text = layout_to_text(l);

		if (!text)
			rc = err2("show: out of memory");
		else
			rc = write_out(NULL, text);
		free(text);
		layout_free(l);
		return rc;
	}
	if (so.scenario) {
		rc = show_scenario(&so, l);
	} else {
		print_header(l, so.line);
		for (int i = 0; i < l->nstructs; i++) {
			struct layout_leaf *lv;
			int n = layout_leaves(l, l->structs[i].name, &lv);

			if (n < 0) {
				rc = err2("show: out of memory");
				break;
			}
			printf("\n");
			print_struct(l, &l->structs[i], lv, n, NULL, (size_t)so.line, 1, NULL,
				     NULL);
			free(lv);
		}
	}
	layout_free(l);
	return rc;
}

int layout_main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		opt_usage(argc < 2 ? stderr : stdout, &layout_help);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "import"))
		return cmd_import(argc - 1, argv + 1);
	if (!strcmp(argv[1], "show"))
		return cmd_show(argc - 1, argv + 1);
	return err2("%s: unknown subcommand (want import or show; see pcbench layout --help)",
		    argv[1]);
}
