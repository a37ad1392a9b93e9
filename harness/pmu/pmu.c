// SPDX-License-Identifier: MIT
/*
 * pmu.c - counters through libpfm4 and perf_event_open (see pmu.h).
 *
 * libpfm4 is initialized once, with LIBPFM_ENCODE_INACTIVE=1 so that fully qualified strings
 * of PMUs that are not present still encode (for --list-events --pmu). Strings of a PMU that
 * is not present are never opened: such events are absent ("PMU x not present").
 *
 * pmu_resolve encodes every event once and probes it (open + close on the calling thread),
 * so the absent note is known before anything is measured. Each benchmark thread then opens
 * its own groups: software events in one group, hardware events in as few groups as the PMU
 * holds (a new group starts when the kernel refuses a member). Counts are scaled by
 * time_enabled / time_running of their group.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "pmu.h"
#include "strbuf.h"
#include "util.h"

#include "pmu_events.h"

#define READ_FORMAT                                                                                \
	(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |     \
	 PERF_FORMAT_ID)

/* ---- libpfm4 initialization and host detection (once per process) ---- */

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_rc = PFM_ERR_NOINIT;
static char host_pmu[64];  /* detected PMU of the table; "" when none */
static char host_core[64]; /* first core PMU libpfm4 detected, in the table or not */
static int host_cntrs;	   /* generic counters of the PMU used here; 0 unknown */
static char host_vendor[16];

static int table_has_pmu(const char *pmu)
{
	const char *p;

	for (int i = 0; pmu_table_row(i, &p, NULL, NULL, NULL, NULL, NULL); i++)
		if (!strcmp(p, pmu))
			return 1;
	return 0;
}

/* is_pseudo - the table's pseudo PMUs ("software", "generic", "generic:<vendor>"). */
static int is_pseudo(const char *pmu)
{
	return !strcmp(pmu, "software") || !strncmp(pmu, "generic", 7);
}

static void cpu_vendor(char *v, size_t len)
{
	snprintf(v, len, "unknown");
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;
	char s[13];

	if (__get_cpuid(0, &a, &b, &c, &d)) {
		memcpy(s, &b, 4);
		memcpy(s + 4, &d, 4);
		memcpy(s + 8, &c, 4);
		s[12] = 0;
		snprintf(v, len, "%s", s);
	}
#endif
}

static int pmu_info(pfm_pmu_t p, pfm_pmu_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return pfm_get_pmu_info(p, info) == PFM_SUCCESS && info->name;
}

static void pfm_init_once(void)
{
	pfm_pmu_info_t info;
	pfm_pmu_t p;

	cpu_vendor(host_vendor, sizeof(host_vendor));
	/* Before the first libpfm4 call: it reads its environment in pfm_initialize. */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	pfm_rc = pfm_initialize();
	if (pfm_rc != PFM_SUCCESS)
		return;
	/* First the default PMU if the table has it, then the first present one it has. */
	for (int pass = 0; pass < 2 && !host_pmu[0]; pass++) {
		pfm_for_all_pmus(p)
		{
			if (!pmu_info(p, &info) || !info.is_present ||
			    info.type != PFM_PMU_TYPE_CORE)
				continue;
			if (!host_core[0]) {
				snprintf(host_core, sizeof(host_core), "%s", info.name);
				host_cntrs = info.num_cntrs;
			}
			if ((pass == 1 || info.is_dfl) && table_has_pmu(info.name)) {
				snprintf(host_pmu, sizeof(host_pmu), "%s", info.name);
				host_cntrs = info.num_cntrs;
				break;
			}
		}
	}
}

static int pfm_ready(char *err, size_t errlen, const char *what, const char *value)
{
	pthread_once(&pfm_once, pfm_init_once);
	if (pfm_rc == PFM_SUCCESS)
		return 1;
	snprintf(err, errlen, "%s: %s: libpfm4 initialization failed (%s)", what, value,
		 pfm_strerror(pfm_rc));
	return 0;
}

/* ---- small helpers ---- */

static const char *pfm_errname(int rc)
{
	static const char *const names[] = {
	    "PFM_SUCCESS",	"PFM_ERR_NOTSUPP",  "PFM_ERR_INVAL",	"PFM_ERR_NOINIT",
	    "PFM_ERR_NOTFOUND", "PFM_ERR_FEATCOMB", "PFM_ERR_UMASK",	"PFM_ERR_NOMEM",
	    "PFM_ERR_ATTR",	"PFM_ERR_ATTR_VAL", "PFM_ERR_ATTR_SET", "PFM_ERR_TOOMANY",
	    "PFM_ERR_TOOSMALL",
	};

	if (rc <= 0 && -rc < (int)(sizeof(names) / sizeof(names[0])))
		return names[-rc];
	return "PFM_ERR_?";
}

static const char *errname(int e)
{
	static _Thread_local char buf[24];
	const char *s = strerrorname_np(e);

	if (s)
		return s;
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

static int read_int_file(const char *path, int dfl)
{
	FILE *f = fopen(path, "r");
	int v;

	if (!f)
		return dfl;
	if (fscanf(f, "%d", &v) != 1)
		v = dfl;
	fclose(f);
	return v;
}

static int paranoid(void)
{
	return read_int_file("/proc/sys/kernel/perf_event_paranoid", -99);
}

/* have_core_pmu - does the kernel export a hardware PMU (an event source of type RAW)? */
static int have_core_pmu(void)
{
	const char *dir = "/sys/bus/event_source/devices";
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];
	int found = 0;

	if (!d)
		return 1; /* cannot tell: do not claim there is none */
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/type", dir, e->d_name);
		found = read_int_file(path, -1) == PERF_TYPE_RAW;
	}
	closedir(d);
	return found;
}

static int is_hw(const struct perf_event_attr *a)
{
	return a->type != PERF_TYPE_SOFTWARE && a->type != PERF_TYPE_TRACEPOINT &&
	       a->type != PERF_TYPE_BREAKPOINT;
}

/* sys_open - perf_event_open for the calling thread on any CPU: fd, or -errno. */
static int sys_open(struct perf_event_attr *a, int group_fd)
{
	long fd = syscall(SYS_perf_event_open, a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

/* open_reason - a short phrase for perf_event_open failing with @e. */
static void open_reason(char *buf, size_t len, const struct perf_event_attr *a, int e)
{
	if (e == ENOENT && is_hw(a) && !have_core_pmu())
		snprintf(buf, len, "no hardware PMU (perf_event_open ENOENT)");
	else if (e == EACCES || e == EPERM)
		snprintf(buf, len, "perf_event_open %s (perf_event_paranoid=%d)", errname(e),
			 paranoid());
	else
		snprintf(buf, len, "perf_event_open %s", errname(e));
}

/* probe - open @a alone on this thread and close it: 0, or the errno. */
static int probe(const struct perf_event_attr *a)
{
	struct perf_event_attr c = *a;
	int fd = sys_open(&c, -1);

	if (fd < 0)
		return -fd;
	close(fd);
	return 0;
}

/*
 * encode - libpfm4 string -> attr (user mode, or user + kernel). Returns the PFM error; on
 * success *present says whether the event's PMU is present here and @pmu names it.
 */
static int encode(const char *str, int kernel, struct perf_event_attr *attr, int *present,
		  char *pmu, size_t pmulen)
{
	pfm_perf_encode_arg_t arg;
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;
	int rc;

	memset(attr, 0, sizeof(*attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = attr;
	arg.size = sizeof(arg);
	rc = pfm_get_os_event_encoding(str, kernel ? PFM_PLM0 | PFM_PLM3 : PFM_PLM3,
				       PFM_OS_PERF_EVENT_EXT, &arg);
	if (rc != PFM_SUCCESS)
		return rc;
	attr->size = sizeof(*attr);
	/*
	 * Kernel generic events (perf::, perf_raw::) are the kernel's to accept or refuse, and
	 * so is an event whose PMU libpfm4 cannot tell (LIBPFM_FORCE_PMU hides the perf PMU).
	 */
	*present = 1;
	snprintf(pmu, pmulen, "?");
	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	if (pfm_get_event_info(arg.idx, PFM_OS_NONE, &ei) == PFM_SUCCESS && pmu_info(ei.pmu, &pi)) {
		*present = pi.is_present || pi.type == PFM_PMU_TYPE_OS_GENERIC;
		snprintf(pmu, pmulen, "%s", pi.name);
	}
	return PFM_SUCCESS;
}

static void raw_attr(struct perf_event_attr *a, uint64_t config, uint64_t config1, int kernel)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_RAW;
	a->config = config;
	a->config1 = config1;
	a->exclude_kernel = !kernel;
	a->exclude_guest = 1;
}

/* finish_attr - the counting attributes every opened event gets. */
static void finish_attr(struct perf_event_attr *a)
{
	a->disabled = 1;
	a->exclude_hv = 1;
	a->inherit = 0;
	a->sample_period = 0;
	a->freq = 0;
	a->sample_type = 0;
	a->read_format = READ_FORMAT;
}

/*
 * find_row - the table row for @event on @pmu ("" = no PMU of the table detected here):
 * that PMU's row, else the software row; with no PMU, generic:<vendor>, generic, software.
 */
static int find_row(const char *pmu, const char *event)
{
	char vend[32];
	const char *cand[3];
	int nc = 0;

	if (pmu[0]) {
		cand[nc++] = pmu;
	} else {
		snprintf(vend, sizeof(vend), "generic:%s", host_vendor);
		cand[nc++] = vend;
		cand[nc++] = "generic";
	}
	cand[nc++] = "software";
	for (int c = 0; c < nc; c++) {
		const char *p, *e;

		for (int i = 0; pmu_table_row(i, &p, &e, NULL, NULL, NULL, NULL); i++)
			if (!strcmp(p, cand[c]) && !strcmp(e, event))
				return i;
	}
	return -1;
}

static int is_abstract(const char *name)
{
	const char *a;

	for (int i = 0; (a = pmu_table_abstract(i)); i++)
		if (!strcmp(a, name))
			return 1;
	return 0;
}

/* ---- the resolved set ---- */

struct pmu_ev {
	char *name; /* column stem */
	char *str;  /* libpfm4 string, NULL when unmapped */
	struct perf_event_attr attr;
	int sw; /* software event: counted in the software group */
	int ok; /* probe opened it: threads open it */
	char *why;
};

struct pmu_set {
	int n, cap;
	struct pmu_ev *ev;
	int kernel;
	int group_max; /* hardware events per group; 0: as many as the kernel accepts */
	int force_max; /* PCBENCH_PMU_GROUP_MAX: every group, software ones too; 0: unset */
	char *note;
};

static struct pmu_ev *set_find(struct pmu_set *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->ev[i].name, name))
			return &s->ev[i];
	return NULL;
}

static struct pmu_ev *set_add(struct pmu_set *s, const char *name, const char *str)
{
	struct pmu_ev *e;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		e = xcalloc((size_t)s->cap, sizeof(*e));
		if (s->n)
			memcpy(e, s->ev, (size_t)s->n * sizeof(*e));
		free(s->ev);
		s->ev = e;
	}
	e = &s->ev[s->n++];
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(name);
	e->str = str ? xstrdup(str) : NULL;
	return e;
}

static void set_absent(struct pmu_ev *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void set_absent(struct pmu_ev *e, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	e->ok = 0;
	free(e->why);
	e->why = xstrdup(buf);
}

/* set_probe - finish @e's attr and open it once here; absent with the reason if that fails. */
static void set_probe(struct pmu_ev *e)
{
	char why[160];
	int rc;

	finish_attr(&e->attr);
	e->sw = e->attr.type == PERF_TYPE_SOFTWARE;
	rc = probe(&e->attr);
	if (rc) {
		open_reason(why, sizeof(why), &e->attr, rc);
		set_absent(e, "%s", why);
		return;
	}
	e->ok = 1;
}

/* add_abstract - add abstract event @name as this host's table maps it. */
static void add_abstract(struct pmu_set *s, const char *name)
{
	const char *str = NULL, *note = "";
	uint64_t raw = 0, raw1 = 0;
	struct pmu_ev *e;
	char pmu[64];
	int row, present, rc;

	if (set_find(s, name))
		return;
	row = find_row(host_pmu, name);
	if (row >= 0)
		pmu_table_row(row, NULL, NULL, &str, &raw, &raw1, &note);
	e = set_add(s, name, str);
	if (!str) {
		if (note[0] && host_pmu[0])
			set_absent(e, "not mapped for %s (%s)", host_pmu, note);
		else if (note[0])
			set_absent(e, "not mapped (%s)", note);
		else if (host_pmu[0])
			set_absent(e, "not mapped for %s", host_pmu);
		else if (host_core[0])
			set_absent(e, "not mapped: PMU %s is not in pcbench's table", host_core);
		else
			set_absent(e, "not mapped: libpfm4 detects no core PMU here");
		return;
	}
	rc = encode(str, s->kernel, &e->attr, &present, pmu, sizeof(pmu));
	if (rc != PFM_SUCCESS && raw) {
		raw_attr(&e->attr, raw, raw1, s->kernel);
	} else if (rc != PFM_SUCCESS) {
		set_absent(e, "libpfm4 %s", pfm_errname(rc));
		return;
	} else if (!present) {
		set_absent(e, "PMU %s not present", pmu);
		return;
	}
	set_probe(e);
}

/* stem - column stem of a libpfm4 string: [A-Za-z0-9_] kept (lowercased), the rest '_'. */
static char *stem(const char *str)
{
	char *s = xstrdup(str);

	for (char *p = s; *p; p++)
		*p = isalnum((unsigned char)*p) || *p == '_' ? (char)tolower((unsigned char)*p)
							     : '_';
	return s;
}

/* add_string - add fully qualified libpfm4 string @str; 0 with @err on a parse error. */
static int add_string(struct pmu_set *s, const char *str, char *err, size_t errlen)
{
	struct perf_event_attr attr;
	struct pmu_ev *e, *old;
	char *name = stem(str);
	char pmu[64];
	int present, rc;

	rc = encode(str, s->kernel, &attr, &present, pmu, sizeof(pmu));
	if (rc != PFM_SUCCESS) {
		snprintf(err, errlen, "--events: %s: libpfm4 cannot encode it (%s: %s)", str,
			 pfm_errname(rc), pfm_strerror(rc));
		free(name);
		return 0;
	}
	if (!s->kernel && !attr.exclude_kernel) {
		snprintf(err, errlen, "--events: %s: kernel-mode counting needs --events-kernel",
			 str);
		free(name);
		return 0;
	}
	old = set_find(s, name);
	if (old) {
		int same = old->str && !strcmp(old->str, str);

		if (!same)
			snprintf(err, errlen, "--events: %s: its column %s is already used%s%s",
				 str, name, old->str ? " by " : "", old->str ? old->str : "");
		free(name);
		return same;
	}
	e = set_add(s, name, str);
	free(name);
	e->attr = attr;
	if (!present) {
		set_absent(e, "PMU %s not present", pmu);
		return 1;
	}
	set_probe(e);
	return 1;
}

static void add_auto(struct pmu_set *s)
{
	const char *a, *str;
	int row;

	for (int i = 0; (a = pmu_table_abstract(i)); i++) {
		row = find_row(host_pmu, a);
		if (row >= 0 && pmu_table_row(row, NULL, NULL, &str, NULL, NULL, NULL) && str)
			add_abstract(s, a);
	}
}

/* build_note - "a,b: why; c: why2" over the absent events, grouped by reason. */
static void build_note(struct pmu_set *s)
{
	struct sb note = {0};
	char *done = xcalloc((size_t)s->n + 1, 1);

	for (int i = 0; i < s->n; i++) {
		if (s->ev[i].ok || done[i])
			continue;
		sb_printf(&note, "%s%s", note.n ? "; " : "", s->ev[i].name);
		for (int j = i + 1; j < s->n; j++) {
			if (!s->ev[j].ok && !done[j] && !strcmp(s->ev[j].why, s->ev[i].why)) {
				sb_printf(&note, ",%s", s->ev[j].name);
				done[j] = 1;
			}
		}
		sb_printf(&note, ": %s", s->ev[i].why);
	}
	free(done);
	s->note = note.p ? note.p : xstrdup("");
}

static void unknown_event(const char *tok, char *err, size_t errlen)
{
	char names[256] = "";
	size_t len = 0;
	const char *a;

	for (int i = 0; (a = pmu_table_abstract(i)) && len < sizeof(names); i++)
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "", a);
	snprintf(err, errlen,
		 "--events: %s: unknown event (abstract names: %s; or a fully qualified libpfm4 "
		 "string pmu::EVENT[:UMASK])",
		 tok, names);
}

static int check_kernel(char *err, size_t errlen)
{
	struct perf_event_attr a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.exclude_hv = 1;
	finish_attr(&a);
	rc = probe(&a);
	if (rc == EACCES || rc == EPERM) {
		snprintf(err, errlen,
			 "--events-kernel: perf_event_paranoid=%d: kernel-mode counting not "
			 "permitted (perf_event_open %s; needs perf_event_paranoid <= 1 or "
			 "CAP_PERFMON)",
			 paranoid(), errname(rc));
		return 0;
	}
	return 1;
}

void pmu_set_free(struct pmu_set *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->n; i++) {
		free(s->ev[i].name);
		free(s->ev[i].str);
		free(s->ev[i].why);
	}
	free(s->ev);
	free(s->note);
	free(s);
}

struct pmu_set *pmu_resolve(const char *spec, int kernel, char *err, size_t errlen)
{
	struct pmu_set *s;
	char *copy, *rest, *tok;
	int ntok = 0, none = 0, ok = 1;

	if (!spec)
		spec = "auto";
	s = xcalloc(1, sizeof(*s));
	s->kernel = kernel;
	if (!strcmp(spec, "none")) {
		s->note = xstrdup("");
		return s;
	}
	if (!pfm_ready(err, errlen, "--events", spec) || (kernel && !check_kernel(err, errlen))) {
		pmu_set_free(s);
		return NULL;
	}
	s->group_max = host_cntrs;
	if (s->group_max > 1 && read_int_file("/proc/sys/kernel/nmi_watchdog", 0) > 0)
		s->group_max--; /* the watchdog holds a counter */
	/* Debugging aid (and tests): force small groups, i.e. multiplexing. */
	if (getenv("PCBENCH_PMU_GROUP_MAX"))
		s->force_max = atoi(getenv("PCBENCH_PMU_GROUP_MAX"));
	if (s->force_max < 0)
		s->force_max = 0;

	rest = copy = xstrdup(spec);
	while (ok && (tok = strsep(&rest, ","))) {
		char *end;

		while (isspace((unsigned char)*tok))
			tok++;
		end = tok + strlen(tok);
		while (end > tok && isspace((unsigned char)end[-1]))
			*--end = 0;
		ntok++;
		if (!*tok) {
			snprintf(err, errlen, "--events: %s: %s", spec[0] ? spec : "\"\"",
				 spec[0] ? "empty event name" : "empty event list");
			ok = 0;
		} else if (!strcmp(tok, "none")) {
			none = 1;
		} else if (!strcmp(tok, "auto")) {
			add_auto(s);
		} else if (is_abstract(tok)) {
			add_abstract(s, tok);
		} else if (strstr(tok, "::")) {
			ok = add_string(s, tok, err, errlen);
		} else {
			unknown_event(tok, err, errlen);
			ok = 0;
		}
	}
	if (ok && none && ntok > 1) {
		snprintf(err, errlen, "--events: %s: none cannot be combined with events", spec);
		ok = 0;
	}
	free(copy);
	if (!ok) {
		pmu_set_free(s);
		return NULL;
	}
	build_note(s);
	return s;
}

int pmu_nevents(const struct pmu_set *s)
{
	return s ? s->n : 0;
}

const char *pmu_event_name(const struct pmu_set *s, int i)
{
	return s && i >= 0 && i < s->n ? s->ev[i].name : NULL;
}

const char *pmu_absent_note(const struct pmu_set *s)
{
	return s && s->note ? s->note : "";
}

/* ---- per-thread counting ---- */

struct pmu_group {
	int fd; /* leader */
	int n;	/* members, leader included */
	uint64_t *buf;
	uint64_t base_enabled, base_running;
};

struct pmu_thread {
	const struct pmu_set *s;
	int *fd;	/* per event; -1 when not open on this thread */
	int *grp;	/* per event: its group */
	uint64_t *id;	/* per event: PERF_EVENT_IOC_ID */
	uint64_t *base; /* per event: raw count at enable */
	int ng;
	struct pmu_group *g;
};

/* too_many - perf_event_open errors that mean "this group cannot take another member". */
static int too_many(int e)
{
	return e == EINVAL || e == ENOSPC || e == E2BIG;
}

static size_t group_bytes(int n)
{
	return (3 + 2 * (size_t)n) * sizeof(uint64_t);
}

struct pmu_thread *pmu_thread_open(const struct pmu_set *s)
{
	struct pmu_thread *t;
	int cur[2] = {-1, -1}; /* current group: [0] hardware, [1] software */

	if (!s || s->n == 0)
		return NULL;
	t = xcalloc(1, sizeof(*t));
	t->s = s;
	t->fd = xmalloc((size_t)s->n * sizeof(int));
	t->grp = xmalloc((size_t)s->n * sizeof(int));
	t->id = xcalloc((size_t)s->n, sizeof(uint64_t));
	t->base = xcalloc((size_t)s->n, sizeof(uint64_t));
	t->g = xcalloc((size_t)s->n, sizeof(*t->g));
	for (int i = 0; i < s->n; i++) {
		const struct pmu_ev *e = &s->ev[i];
		struct perf_event_attr a = e->attr;
		int *g = &cur[e->sw], fd = -1;
		int max = s->force_max ? s->force_max : e->sw ? 0 : s->group_max;

		t->fd[i] = -1;
		t->grp[i] = -1;
		if (!e->ok)
			continue;
		if (*g >= 0 && max > 0 && t->g[*g].n >= max)
			*g = -1;
		if (*g >= 0) {
			/* Members stay enabled: the leader alone starts and stops the group. */
			a.disabled = 0;
			fd = sys_open(&a, t->g[*g].fd);
			if (fd < 0 && !too_many(-fd))
				continue; /* absent on this thread */
			if (fd < 0)
				*g = -1;
		}
		if (*g < 0) {
			a.disabled = 1;
			fd = sys_open(&a, -1);
			if (fd < 0)
				continue;
			*g = t->ng++;
			t->g[*g].fd = fd;
		}
		if (ioctl(fd, PERF_EVENT_IOC_ID, &t->id[i]) < 0) {
			/* Without its id the event cannot be found in the group read. */
			if (t->g[*g].fd == fd) {
				t->ng--;
				*g = -1;
			}
			close(fd);
			continue;
		}
		t->fd[i] = fd;
		t->grp[i] = *g;
		t->g[*g].n++;
	}
	for (int k = 0; k < t->ng; k++)
		t->g[k].buf = xcalloc(1, group_bytes(t->g[k].n));
	return t;
}

/* group_read - read group @k into its buffer: 1 when complete. */
static int group_read(struct pmu_thread *t, int k)
{
	struct pmu_group *g = &t->g[k];
	ssize_t want = (ssize_t)group_bytes(g->n);

	return read(g->fd, g->buf, (size_t)want) == want && g->buf[0] == (uint64_t)g->n;
}

/* group_value - event @i's raw count in its group's buffer; 0 with *found = 0 if missing. */
static uint64_t group_value(const struct pmu_thread *t, int i, int *found)
{
	const struct pmu_group *g = &t->g[t->grp[i]];

	for (int m = 0; m < g->n; m++) {
		if (g->buf[3 + 2 * m + 1] == t->id[i]) {
			*found = 1;
			return g->buf[3 + 2 * m];
		}
	}
	*found = 0;
	return 0;
}

void pmu_thread_enable(struct pmu_thread *t)
{
	if (!t)
		return;
	for (int k = 0; k < t->ng; k++) {
		struct pmu_group *g = &t->g[k];

		ioctl(g->fd, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
		/* Times keep running across resets: remember them (and the counts, ~0). */
		g->base_enabled = g->base_running = 0;
		if (group_read(t, k)) {
			g->base_enabled = g->buf[1];
			g->base_running = g->buf[2];
		}
	}
	for (int i = 0; i < t->s->n; i++) {
		int found = 0;

		t->base[i] = t->fd[i] >= 0 ? group_value(t, i, &found) : 0;
	}
	/*
	 * The leader alone (its members were opened enabled). ENABLE with PERF_IOC_FLAG_GROUP
	 * re-enables members unreliably: on Linux 6.18 a page-fault member of a task-clock
	 * group read 0 in about half of the windows.
	 */
	for (int k = 0; k < t->ng; k++)
		ioctl(t->g[k].fd, PERF_EVENT_IOC_ENABLE, 0);
}

void pmu_thread_disable(struct pmu_thread *t)
{
	if (!t)
		return;
	for (int k = 0; k < t->ng; k++)
		ioctl(t->g[k].fd, PERF_EVENT_IOC_DISABLE, 0); /* stops its whole group */
}

void pmu_thread_read(struct pmu_thread *t, struct pmu_value *out)
{
	int *ok;

	if (!t)
		return;
	ok = xcalloc((size_t)t->ng + 1, sizeof(int));
	for (int k = 0; k < t->ng; k++)
		ok[k] = group_read(t, k);
	for (int i = 0; i < t->s->n; i++) {
		const struct pmu_group *g;
		uint64_t raw;
		int found = 0;
		double v, mux;

		out[i].present = 0;
		out[i].value = 0;
		out[i].mux = 0;
		if (t->fd[i] < 0 || !ok[t->grp[i]])
			continue;
		g = &t->g[t->grp[i]];
		raw = group_value(t, i, &found);
		if (!found)
			continue;
		v = pmu_scale(raw - t->base[i], g->buf[1] - g->base_enabled,
			      g->buf[2] - g->base_running, &mux);
		if (v < 0)
			continue;
		out[i].present = 1;
		out[i].value = v;
		out[i].mux = mux;
	}
	free(ok);
}

void pmu_thread_close(struct pmu_thread *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->s->n; i++)
		if (t->fd[i] >= 0)
			close(t->fd[i]);
	for (int k = 0; k < t->ng; k++)
		free(t->g[k].buf);
	free(t->g);
	free(t->fd);
	free(t->grp);
	free(t->id);
	free(t->base);
	free(t);
}

double pmu_scale(uint64_t raw, uint64_t enabled, uint64_t running, double *mux)
{
	double m = 1.0;

	if (running == 0) {
		if (mux)
			*mux = 0;
		return -1;
	}
	if (running < enabled)
		m = (double)running / (double)enabled;
	if (mux)
		*mux = m;
	return m < 1.0 ? (double)raw * ((double)enabled / (double)running) : (double)raw;
}

/* ---- --list-events ---- */

#define LIST_COLS 5

static int pmu_by_name(const char *name, pfm_pmu_info_t *info)
{
	pfm_pmu_t p;

	pfm_for_all_pmus(p)
	{
		if (pmu_info(p, info) && !strcmp(info->name, name))
			return 1;
	}
	return 0;
}

int pmu_list_events(FILE *out, const char *pmu_name, char *err, size_t errlen)
{
	char cell[16][LIST_COLS][256];
	const char *head[LIST_COLS] = {"event", "libpfm4 string", "encodes", "opens here", "note"};
	int width[LIST_COLS], nrow = 0;
	const char *target, *a;
	pfm_pmu_info_t info;
	int named = pmu_name && pmu_name[0];

	if (!pfm_ready(err, errlen, "--pmu", named ? pmu_name : "(this machine)"))
		return -1;
	if (named && (is_pseudo(pmu_name) || !table_has_pmu(pmu_name))) {
		char known[512] = "";
		const char *p;
		size_t len = 0;

		for (int i = 0; pmu_table_row(i, &p, NULL, NULL, NULL, NULL, NULL); i++) {
			if (is_pseudo(p) || strstr(known, p))
				continue;
			len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s",
						len ? ", " : "", p);
		}
		snprintf(err, errlen, "--pmu: %s: unknown PMU (known: %s)", pmu_name, known);
		return -1;
	}
	target = named ? pmu_name : host_pmu;

	if (target[0] && pmu_by_name(target, &info))
		fprintf(out, "pmu: %s (%s), %s\n", target, info.desc ? info.desc : "",
			info.is_present
			    ? "detected here"
			    : "not present here: encoded with LIBPFM_ENCODE_INACTIVE=1");
	else
		fprintf(out,
			"pmu: none known (libpfm4 core PMU: %s; CPU vendor %s): generic perf "
			"events only\n",
			host_core[0] ? host_core : "none", host_vendor);
	if (named && strcmp(target, host_pmu))
		fprintf(out, "this machine: %s\n",
			host_pmu[0] ? host_pmu : "no PMU of the table (generic perf events)");

	for (int c = 0; c < LIST_COLS; c++)
		width[c] = (int)strlen(head[c]);
	for (int i = 0; (a = pmu_table_abstract(i)) && nrow < 16; i++, nrow++) {
		const char *str = NULL, *note = "not mapped";
		uint64_t raw = 0, raw1 = 0;
		struct perf_event_attr attr;
		char pmu[64], why[160];
		int row = find_row(target, a), present = 0, rc = 0, can = 0;
		char(*r)[256] = cell[nrow];

		if (row >= 0)
			pmu_table_row(row, NULL, NULL, &str, &raw, &raw1, &note);
		snprintf(r[0], sizeof(r[0]), "%s", a);
		snprintf(r[1], sizeof(r[1]), "%s", str ? str : "-");
		snprintf(r[4], sizeof(r[4]), "%s", note && note[0] ? note : "");
		if (!str) {
			snprintf(r[2], sizeof(r[2]), "-");
			snprintf(r[3], sizeof(r[3]), "-");
			continue;
		}
		rc = encode(str, 0, &attr, &present, pmu, sizeof(pmu));
		if (rc == PFM_SUCCESS) {
			snprintf(r[2], sizeof(r[2]), "yes");
			can = 1;
		} else if (raw) {
			snprintf(r[2], sizeof(r[2]), "no (%s); raw 0x%" PRIx64 ",0x%" PRIx64,
				 pfm_errname(rc), raw, raw1);
			raw_attr(&attr, raw, raw1, 0);
			present = !strcmp(target, host_pmu);
			snprintf(pmu, sizeof(pmu), "%s", target);
			can = 1;
		} else {
			snprintf(r[2], sizeof(r[2]), "no (%s)", pfm_errname(rc));
		}
		if (!can) {
			snprintf(r[3], sizeof(r[3]), "-");
		} else if (!present) {
			snprintf(r[3], sizeof(r[3]), "n/a (%s not present)", pmu);
		} else {
			finish_attr(&attr);
			rc = probe(&attr);
			if (rc)
				open_reason(why, sizeof(why), &attr, rc);
			snprintf(r[3], sizeof(r[3]), "%s%s", rc ? "no: " : "yes", rc ? why : "");
		}
	}
	for (int i = 0; i < nrow; i++)
		for (int c = 0; c < LIST_COLS; c++)
			if ((int)strlen(cell[i][c]) > width[c])
				width[c] = (int)strlen(cell[i][c]);
	for (int i = -1; i < nrow; i++) {
		char line[LIST_COLS * 272];
		size_t len = 0;

		for (int c = 0; c < LIST_COLS; c++)
			len += (size_t)snprintf(line + len, sizeof(line) - len, "%-*s  ", width[c],
						i < 0 ? head[c] : cell[i][c]);
		while (len > 0 && line[len - 1] == ' ')
			line[--len] = 0;
		fprintf(out, "%s\n", line);
	}
	if (fflush(out) || ferror(out)) {
		snprintf(err, errlen, "--list-events: output: write error");
		return -1;
	}
	return 0;
}
