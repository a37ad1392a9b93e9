// SPDX-License-Identifier: MIT
/*
 * hitm_script.c - samples from `perf script` text. perf prints a sample's data address as
 * "%16" PRIx64 and then its data_src as "%16" PRIx64 " |OP ...|LVL ...|SNP ...|TLB ...|LCK
 * ...|BLK ..." (tools/perf/builtin-script.c data_src__fprintf, util/mem-events.c
 * perf_script__meminfo_scnprintf); the time, with --ns, as "SECS.NNNNNNNNN:".
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hitm.h"

/* section - the text of "|NAME " up to the next '|' or the end, into @buf. */
static void section(const char *ds, const char *name, char *buf, size_t len)
{
	const char *p = strstr(ds, name), *e;
	size_t n;

	buf[0] = '\0';
	if (!p)
		return;
	p += strlen(name);
	e = strchr(p, '|');
	n = e ? (size_t)(e - p) : strlen(p);
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

/* has_word - @text contains @w delimited by spaces, '|' or its ends. */
static int has_word(const char *text, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = strstr(text, w); p; p = strstr(p + 1, w))
		if ((p == text || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return 1;
	return 0;
}

/*
 * remote_level - the level is another node's: perf prints "Remote " first when data_src's
 * remote bit is set ("Remote L3 hit"; perf 6.1: "Remote Remote Cache (1 hop) or L3 hit"),
 * and AMD IBS levels are "Remote Cache (1 hop)" (another CCX) or "(2 hops)". AMD Zen 3's
 * "L3 or Remote Cache (1 hop) hit" (IBS DataSrc "local cache": this CCX) is local.
 */
static int remote_level(const char *lvl)
{
	return !strncmp(lvl, "Remote", 6);
}

void hitm_classify(const char *ds, enum hitm_op *op, enum hitm_src *src)
{
	char o[64], lvl[256], snp[128];

	section(ds, "|OP ", o, sizeof(o));
	section(ds, "|LVL ", lvl, sizeof(lvl));
	section(ds, "|SNP ", snp, sizeof(snp));
	*op = !strcmp(o, "LOAD") ? HOP_LOAD : !strcmp(o, "STORE") ? HOP_STORE : HOP_OTHER;
	*src = HSRC_NONE;
	if (*op != HOP_LOAD)
		return;
	if (has_word(snp, "HitM"))
		*src = remote_level(lvl) ? HSRC_HITM_REMOTE : HSRC_HITM_LOCAL;
	else if (strstr(lvl, "RAM") || strstr(lvl, "PMEM") || strstr(lvl, "CXL"))
		*src = HSRC_MEMORY;
	else if (has_word(snp, "Hit") || has_word(snp, "Fwd") || has_word(snp, "Peer"))
		*src = HSRC_SNOOP_HIT;
}

/* parse_time - "SECS.FRAC:" (9 digits with --ns, 6 without) as ns; -1 when not a time. */
static int64_t parse_time(const char *t, size_t n)
{
	int64_t secs = 0, frac = 0;
	size_t i = 0;
	int digits = 0;

	if (n < 3 || t[n - 1] != ':')
		return -1;
	for (; i < n && isdigit((unsigned char)t[i]); i++) {
		if (secs > (INT64_MAX / 1000000000LL - 9) / 10)
			return -1; /* past 292 years in ns: not a perf time (no overflow) */
		secs = secs * 10 + (t[i] - '0');
	}
	if (!i || i >= n || t[i++] != '.')
		return -1;
	for (; i < n - 1 && isdigit((unsigned char)t[i]) && digits < 9; i++, digits++)
		frac = frac * 10 + (t[i] - '0');
	if (i != n - 1 || !digits)
		return -1;
	for (; digits < 9; digits++)
		frac *= 10;
	return secs * 1000000000LL + frac;
}

/* hex - a whole token of hex digits (an optional 0x) as a number; -1 when not one. */
static int hex(const char *t, size_t n, uint64_t *v)
{
	char buf[40], *end;

	if (t[0] == '0' && n > 2 && (t[1] == 'x' || t[1] == 'X')) {
		t += 2;
		n -= 2;
	}
	if (!n || n >= sizeof(buf))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)t[i]))
			return -1;
	memcpy(buf, t, n);
	buf[n] = '\0';
	*v = strtoull(buf, &end, 16);
	return 0;
}

/* decimal - a whole token of decimal digits (at most 9) as a number; -1 when not one. */
static int decimal(const char *t, size_t n)
{
	int v = 0;

	if (!n || n > 9)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)t[i]))
			return -1;
		v = v * 10 + (t[i] - '0');
	}
	return v;
}

/*
 * who - the CPU ("[003]", -F cpu) and thread ("4101", or "4100/4101" with -F pid,tid) among
 * the tokens before the time.
 */
static void who(const char *const *tok, const size_t *len, int n, struct hitm_sample *out)
{
	for (int i = 0; i < n; i++) {
		const char *slash = memchr(tok[i], '/', len[i]);

		if (len[i] > 2 && tok[i][0] == '[' && tok[i][len[i] - 1] == ']')
			out->cpu = decimal(tok[i] + 1, len[i] - 2);
		else if (slash)
			out->tid = decimal(slash + 1, len[i] - (size_t)(slash + 1 - tok[i]));
		else if (decimal(tok[i], len[i]) >= 0)
			out->tid = decimal(tok[i], len[i]);
	}
}

int hitm_parse_line(const char *line, struct hitm_sample *out)
{
	const char *ds = strstr(line, "|OP ");
	const char *tok[64];
	size_t len[64];
	int n = 0;
	uint64_t dsv;

	if (!ds)
		return 0;
	/* the tokens before the decoded data_src: ... TIME: ... ADDR DATA_SRC_HEX */
	for (const char *p = line; p < ds && n < 64;) {
		while (p < ds && isspace((unsigned char)*p))
			p++;
		if (p >= ds)
			break;
		tok[n] = p;
		while (p < ds && !isspace((unsigned char)*p))
			p++;
		len[n] = (size_t)(p - tok[n]);
		n++;
	}
	memset(out, 0, sizeof(*out));
	out->time_ns = -1;
	out->cpu = out->tid = -1;
	for (int i = 0; i < n && out->time_ns < 0; i++) {
		out->time_ns = parse_time(tok[i], len[i]);
		if (out->time_ns >= 0)
			who(tok, len, i, out);
	}
	if (out->time_ns < 0)
		return -1;
	if (n < 2 || hex(tok[n - 1], len[n - 1], &dsv) || hex(tok[n - 2], len[n - 2], &out->addr))
		return -1;
	hitm_classify(ds, &out->op, &out->src);
	return 1;
}
