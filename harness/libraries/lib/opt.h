/* SPDX-License-Identifier: MIT */
/*
 * opt.h - a command's options as one table of rows that bind their storage (perf's OPT_*):
 * the same rows feed getopt_long, store each value where the row says, and make the usage
 * text (and `pcbench help --options`, from which completions and the man page are made).
 * Adding an option is one row.
 */
#ifndef PCBENCH_OPT_H
#define PCBENCH_OPT_H

#include <stddef.h>
#include <stdio.h>

/* What a row does with its value. */
enum opt_kind {
	OPT_K_NONE,   /* nothing (-h: the help, which opt_parse prints itself) */
	OPT_K_FLAG,   /* int = 1 */
	OPT_K_STR,    /* const char * = the value */
	OPT_K_INT,    /* int = the value, a base-10 integer in [min, max] */
	OPT_K_DOUBLE, /* double = the value, a number in [min, max] */
	OPT_K_CALL,   /* call(storage, value, row): checks and stores it itself */
};

/* Row flags. */
enum {
	OPT_REPEAT = 1,	  /* may be given more than once (every other option with a value is
			     single-valued: given twice is exit 2 naming it) */
	OPT_OPTIONAL = 2, /* its value is optional, given only as --name=VALUE (the usage says
			     --name[=ARG]); an OPT_K_CALL row's call then gets NULL */
};

/* One option. A table ends with a row whose name is NULL. */
struct opt {
	const char *name; /* long name, without "--" */
	int key;	  /* its short letter, or 0 for a long-only option */
	const char *arg;  /* the value's name in the usage ("LIST"); NULL for a flag */
	const char *help; /* the usage text; "\n" continues it on the next line; NULL: made by
			     the command's opt_more (from a table) */
	enum opt_kind kind;
	size_t off; /* where the value goes: an offset into the struct given to opt_parse */
	unsigned flags;
	double min, max;    /* OPT_K_INT, OPT_K_DOUBLE: the range */
	const char *expect; /* OPT_K_INT, OPT_K_DOUBLE: the message for a value outside it */
	void (*call)(void *at, const char *value, const struct opt *row); /* OPT_K_CALL */
};

/*
 * OPT_AT - the offset of member @f of struct type @T, whose type must be @type (a row bound
 * to a member of another type does not compile).
 */
#define OPT_AT(T, f, type)                                                                         \
	(offsetof(T, f) +                                                                          \
	 0 * sizeof(struct {                                                                       \
		 int bad_member_type : __builtin_types_compatible_p(__typeof__(((T *)0)->f), type) \
				       ? 1                                                         \
				       : -1;                                                       \
	 }))

/* The rows. @s is the short letter or 0; @T the struct opt_parse stores into. */
#define OPT_FLAG(l, s, T, f, h)                                                                    \
	{                                                                                          \
		l, s, NULL, h, OPT_K_FLAG, OPT_AT(T, f, int), 0, 0, 0, NULL, NULL                  \
	}
#define OPT_STR(l, s, a, T, f, h)                                                                  \
	{                                                                                          \
		l, s, a, h, OPT_K_STR, OPT_AT(T, f, const char *), 0, 0, 0, NULL, NULL             \
	}
#define OPT_INT(l, s, a, T, f, lo, hi, ex, h)                                                      \
	{                                                                                          \
		l, s, a, h, OPT_K_INT, OPT_AT(T, f, int), 0, lo, hi, ex, NULL                      \
	}
#define OPT_DOUBLE(l, s, a, T, f, lo, hi, ex, h)                                                   \
	{                                                                                          \
		l, s, a, h, OPT_K_DOUBLE, OPT_AT(T, f, double), 0, lo, hi, ex, NULL                \
	}
/* OPT_CALL - @fn(&member @f, value, row); OPT_CALL_AT: @fn(the whole struct, ...). */
#define OPT_CALL(l, s, a, T, f, fn, fl, h)                                                         \
	{                                                                                          \
		l, s, a, h, OPT_K_CALL, offsetof(T, f), fl, 0, 0, NULL, fn                         \
	}
#define OPT_CALL_AT(l, s, a, fn, fl, h)                                                            \
	{                                                                                          \
		l, s, a, h, OPT_K_CALL, 0, fl, 0, 0, NULL, fn                                      \
	}
#define OPT_HELP                                                                                   \
	{                                                                                          \
		"help", 'h', NULL, "this text", OPT_K_NONE, 0, 0, 0, 0, NULL, NULL                 \
	}
#define OPT_END                                                                                    \
	{                                                                                          \
		NULL, 0, NULL, NULL, OPT_K_NONE, 0, 0, 0, 0, NULL, NULL                            \
	}

/*
 * A command's help: "usage: ..." lines, what it does, its option table, and what follows
 * (exit status, examples). @subs: the help of its own subcommands (pcbench layout import),
 * NULL-terminated, or NULL.
 */
struct cmd_help {
	const char *name; /* "compare", "layout import"; "" for the measure command */
	const char *synopsis;
	const char *about;
	const struct opt *opts;
	void (*more)(FILE *out); /* optional: text made from the command's own tables */
	const char *after;
	const struct cmd_help *const *subs;
	/* optional: usage lines made from a table to print under option @name's help (the
	 * placement policies), or the whole help of a row whose help is NULL; or NULL */
	const char *(*opt_more)(const char *name);
};

/*
 * opt_parse - every option of @argv by @cmd's rows, each value stored into @base as its row
 * says; returns the index of the first operand (getopt_long puts the operands last). A
 * missing value, an unknown option, a value outside a row's range and a single-valued
 * option given twice exit 2 naming it; -h/--help prints the command's help on stdout and
 * exits 0.
 */
int opt_parse(const struct cmd_help *cmd, int argc, char **argv, void *base);

/* opt_help - row @o's help text (made by the command's opt_more when the row has none). */
const char *opt_help(const struct cmd_help *cmd, const struct opt *o);

/* opt_usage - @cmd's help: synopsis, about, the option table, after, then its subs'. */
void opt_usage(FILE *out, const struct cmd_help *cmd);

/* opt_print_table - one line per option of @cmd: "  -s, --scenario LIST      help". */
void opt_print_table(FILE *out, const struct cmd_help *cmd);

/*
 * opt_param_twice - the length of NAME when @arg (-D NAME=VALUE) sets a NAME that one of
 * @params[0..@n) sets already (-D may repeat, the same -D NAME may not: the last would win
 * silently); 0 when it does not.
 */
int opt_param_twice(char *const *params, int n, const char *arg);

/* opt_wrap - @text wrapped at @width columns into a new string, words kept whole. */
char *opt_wrap(const char *text, int width);

#endif
