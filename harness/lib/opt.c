// SPDX-License-Identifier: MIT
/* opt.c - option tables: getopt_long's arrays and the usage text from the same rows. */
#include "opt.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define HELP_COL 27 /* where the help text starts: "  -s, --scenario LIST      " */

void opt_init(struct opt_parser *p, const struct cmd_help *cmd)
{
	int n = 0, k = 0;

	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->so[k++] = ':'; /* a missing value returns ':', not '?' */
	for (const struct opt *o = cmd->opts; o && o->name && n < OPT_MAX; o++, n++) {
		p->lo[n] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL,
					   o->key};
		if (o->key < OPT_LONG) {
			p->so[k++] = (char)o->key;
			if (o->arg)
				p->so[k++] = ':';
		}
	}
	optind = 0; /* glibc: a full re-initialisation, also for a second pass */
	opterr = 0;
}

int opt_next(struct opt_parser *p, int argc, char **argv)
{
	const char *see = p->cmd->name[0] ? p->cmd->name : NULL;
	int c = getopt_long(argc, argv, p->so, p->lo, NULL);

	if (c == 'h') {
		opt_usage(stdout, p->cmd);
		exit(0);
	}
	if (c == ':')
		usage_error("option", argv[optind - 1], "needs a value (see %s%s--help)",
			    see ? see : "", see ? " " : "");
	if (c == '?')
		usage_error("option", argv[optind - 1], "unknown option (see %s%s--help)",
			    see ? see : "", see ? " " : "");
	return c;
}

void opt_print_table(FILE *out, const struct cmd_help *cmd)
{
	for (const struct opt *o = cmd->opts; o && o->name; o++) {
		const char *h = o->help, *more = cmd->opt_more ? cmd->opt_more(o->name) : NULL, *nl;
		int w;

		if (o->key < OPT_LONG)
			w = fprintf(out, "  -%c, --%s", o->key, o->name);
		else
			w = fprintf(out, "      --%s", o->name);
		if (o->arg)
			w += fprintf(out, " %s", o->arg);
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
