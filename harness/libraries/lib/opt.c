// SPDX-License-Identifier: MIT
/* opt.c - option tables: getopt_long's arrays, storing the values and the usage text from the
 * same rows. */
#include "opt.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "strbuf.h"
#include "util.h"

#define HELP_COL 27  /* where the help text starts: "  -s, --scenario LIST      " */
#define OPT_LONG 256 /* getopt's key of long-only row n: OPT_LONG + n */
#define OPT_MAX 96

const char *opt_help(const struct cmd_help *cmd, const struct opt *o)
{
	const char *h = o->help ? o->help : cmd->opt_more ? cmd->opt_more(o->name) : NULL;

	return h ? h : "";
}

/* opt_store - row @o's value @v into @base. */
static void opt_store(const struct opt *o, void *base, const char *v)
{
	char *at = (char *)base + o->off, name[64];
	int iv;

	snprintf(name, sizeof(name), "--%s", o->name);
	switch (o->kind) {
	case OPT_K_NONE:
		break;
	case OPT_K_FLAG:
		*(int *)(void *)at = 1;
		break;
	case OPT_K_STR:
		*(const char **)(void *)at = v;
		break;
	case OPT_K_INT:
		if (num_int(v, 10, (int)o->min, (int)o->max, &iv))
			usage_error(name, v, "%s", o->expect);
		*(int *)(void *)at = iv;
		break;
	case OPT_K_DOUBLE:
		if (num_double(v, o->min, o->max, (double *)(void *)at))
			usage_error(name, v, "%s", o->expect);
		break;
	case OPT_K_CALL:
		o->call(at, v, o);
		break;
	}
}

int opt_parse(const struct cmd_help *cmd, int argc, char **argv, void *base)
{
	const char *see = cmd->name[0] ? cmd->name : NULL;
	struct option lo[OPT_MAX + 1];
	char so[2 * OPT_MAX + 2];
	int n = 0, k = 0, c, given[OPT_MAX] = {0};

	so[k++] = ':'; /* a missing value returns ':', not '?' */
	for (const struct opt *o = cmd->opts; o && o->name; o++, n++) {
		if (n == OPT_MAX)
			die("option table", cmd->name, "more than %d rows", OPT_MAX);
		lo[n] = (struct option){o->name,
					!o->arg			  ? no_argument
					: o->flags & OPT_OPTIONAL ? optional_argument
								  : required_argument,
					NULL, o->key ? o->key : OPT_LONG + n};
		if (o->key) {
			so[k++] = (char)o->key;
			if (o->arg)
				so[k++] = ':';
			if (o->arg && o->flags & OPT_OPTIONAL)
				so[k++] = ':';
		}
	}
	lo[n] = (struct option){0};
	so[k] = '\0';
	optind = 0; /* glibc: a full re-initialisation, also for a second pass */
	opterr = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		int i = 0;

		if (c == ':')
			usage_error("option", argv[optind - 1], "needs a value (see %s%s--help)",
				    see ? see : "", see ? " " : "");
		if (c == '?')
			usage_error("option", argv[optind - 1], "unknown option (see %s%s--help)",
				    see ? see : "", see ? " " : "");
		if (c == 'h') {
			opt_usage(stdout, cmd);
			exit(0);
		}
		while (i < n && lo[i].val != c)
			i++;
		if (cmd->opts[i].arg && !(cmd->opts[i].flags & OPT_REPEAT) && given[i]++) {
			char name[64];

			snprintf(name, sizeof(name), "--%s", cmd->opts[i].name);
			usage_error(name, optarg ? optarg : "", "given twice: %s",
				    strcmp(cmd->opts[i].arg, "LIST")
					? "it takes one value"
					: "it takes one comma-separated list");
		}
		opt_store(&cmd->opts[i], base, optarg);
	}
	return optind;
}

int opt_param_twice(char *const *params, int n, const char *arg)
{
	size_t len = strcspn(arg, "=");

	for (int i = 0; len && arg[len] && i < n; i++)
		if (!strncmp(params[i], arg, len + 1))
			return (int)len;
	return 0;
}

char *opt_wrap(const char *text, int width)
{
	struct sb out = {0};
	int col = 0;

	while (*text) {
		size_t len;

		text += strspn(text, " ");
		len = strcspn(text, " ");
		if (!len)
			break;
		if (col && col + 1 + (int)len > width) {
			sb_printf(&out, "\n");
			col = 0;
		}
		sb_printf(&out, "%s%.*s", col ? " " : "", (int)len, text);
		col += (col ? 1 : 0) + (int)len;
		text += len;
	}
	text = xstrdup(sb_str(&out));
	free(out.p);
	return (char *)text;
}

void opt_print_table(FILE *out, const struct cmd_help *cmd)
{
	for (const struct opt *o = cmd->opts; o && o->name; o++) {
		const char *h = opt_help(cmd, o), *nl;
		const char *more = o->help && cmd->opt_more ? cmd->opt_more(o->name) : NULL;
		int w;

		if (o->key)
			w = fprintf(out, "  -%c, --%s", o->key, o->name);
		else
			w = fprintf(out, "      --%s", o->name);
		if (o->arg)
			w += fprintf(out, o->flags & OPT_OPTIONAL ? "[=%s]" : " %s", o->arg);
		do {
			nl = strchr(h, '\n');
			fprintf(out, "%*s%.*s\n", w < HELP_COL - 1 ? HELP_COL - w : 2, "",
				nl ? (int)(nl - h) : (int)strlen(h), h);
			w = 0;
			h = nl ? nl + 1 : h; /* no arithmetic on NULL (UBSan) */
			if (!nl && more) {
				h = more;
				more = NULL;
				nl = h - 1; /* one more round, for more's lines */
			}
		} while (nl);
	}
}

void opt_usage(FILE *out, const struct cmd_help *cmd)
{
	fputs(cmd->synopsis, out);
	if (cmd->about)
		fprintf(out, "\n%s", cmd->about);
	if (cmd->opts) {
		if (cmd->subs || cmd->about)
			fputc('\n', out);
		opt_print_table(out, cmd);
	}
	for (int i = 0; cmd->subs && cmd->subs[i]; i++) {
		fprintf(out, "\n%s options:\n", cmd->subs[i]->name);
		opt_print_table(out, cmd->subs[i]);
	}
	if (cmd->more)
		cmd->more(out);
	if (cmd->after)
		fprintf(out, "%s%s", cmd->more ? "" : "\n", cmd->after);
}
