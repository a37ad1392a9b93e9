/* SPDX-License-Identifier: MIT */
/*
 * pahole_int.h - what the files of the pahole import share (not for the rest of pcbench):
 *   pahole_lex.c  the tokenising helpers;
 *   pahole_read.c the reader of pahole's text (blocks, members);
 *   pahole.c      kinds and alignment, writing the output structs;
 *   pahole_text.c their layout text, and pahole_to_layout().
 */
#ifndef PCBENCH_PAHOLE_INT_H
#define PCBENCH_PAHOLE_INT_H

#include <stddef.h>
#include <stdio.h>

#define PH_NAME 64
#define PH_TYPE 160
#define PH_DEPTH 32
#define PH_NOTE 512
#define PH_PATH 256

/* snprintf that may truncate on purpose (names and notes are bounded by the layout format). */
#define FMT(buf, len, ...) ((void)(snprintf((buf), (len), __VA_ARGS__) < 0))

struct ph_member {
	char name[PH_NAME]; /* "" for an anonymous member */
	char type[PH_TYPE]; /* leaf: the C type, blanks squeezed; block: "" */
	char dims[32];	    /* array dimensions as written, "[4]" */
	size_t off, size;   /* off: as printed, then relative to the enclosing block */
	int bits, bitoff;   /* bits > 0: a bit-field, off is its storage unit's */
	int is_array, is_ptr;
	size_t elems; /* array: product of the dimensions (0 when unknown) */
	size_t align; /* __aligned__ attribute of the member, 0 when none */
	int block;    /* index of the nested block it is, or -1 for a leaf */
	int line;
};

struct ph_block {
	int is_union;
	char tag[PH_NAME];  /* struct/union tag, "" when anonymous */
	char tdef[PH_NAME]; /* from a leading comment "typedef NAME", else "" */
	size_t align;	    /* __aligned__ attribute of the type */
	int packed;
	struct ph_member *m;
	int nm, cap;
	int line;
	size_t hole; /* a pending "XXX N bytes hole" */
	int hole_line;
};

struct ph_top {
	char name[PH_NAME];
	int block;
	size_t size, padding;
	long members; /* -1: not given */
	int have_size, have_padding;
	int line, out; /* out: index of its output struct, -1 before, -2 while written */
};

struct out_field {
	char name[PH_PATH]; /* a field; "" for a note */
	char kind[PH_NAME];
	char note[PH_NOTE];
	size_t off, size;
	int line;
};

struct out_struct {
	char name[PH_NAME];
	size_t size, align;
	struct out_field *f;
	int nf, cap;
	int line;
};

struct ph {
	const char *source;
	char *err;
	size_t errlen;
	int failed;
	struct ph_block *b;
	int nb, bcap;
	struct ph_top *t;
	int nt, tcap;
	struct out_struct *o;
	int no, ocap;
	int builtin_check;
	int depth; /* of the emission recursion */
};

/* ---- pahole_lex.c ---- */

/*
 * ph_fail - record "SOURCE:LINE: message" (or "SOURCE: message" when @line <= 0) in @p's error
 * buffer; only the first failure is kept, every one counts in @p->failed.
 */
void ph_fail(struct ph *p, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* ph_grow - make room for one more element of @size in *@v (count @n, capacity *@cap). */
int ph_grow(struct ph *p, void **v, int n, int *cap, size_t size);
/* ph_num - decimal number at *@s (advanced past it). Returns 0, or -1 when there is none. */
int ph_num(const char **s, size_t *out);
/* ph_skip_blanks - advance *@s past white space. */
void ph_skip_blanks(const char **s);
/* ph_is_ident_start, ph_is_ident - @c may start, or continue, a C identifier. */
int ph_is_ident_start(int c);
int ph_is_ident(int c);
/* ph_trim - @s without its blanks at both ends (cut in place). */
char *ph_trim(char *s);
/* ph_copyn - at most @len - 1 bytes of [@s, @s + @n) into @dst, terminated. */
void ph_copyn(char *dst, size_t len, const char *s, size_t n);
/*
 * ph_strip_attributes - remove every __attribute__((...)) from @s in place, noting the
 * largest __aligned__(N) in *@align and __packed__ in *@packed. Returns -1 on unbalanced
 * parens.
 */
int ph_strip_attributes(char *s, size_t *align, int *packed);
/*
 * ph_member_comment - the trailing comment of a member line @s: "OFF SIZE" or "OFF: BITOFF
 * SIZE". Cuts the line at the comment. Returns 0, or -1 when there is no such comment.
 */
int ph_member_comment(char *s, size_t *off, size_t *size, int *bitfield, int *bitoff);
/*
 * ph_parse_declarator - the name part of a member declaration @s (attributes already gone,
 * no ';'): "TYPE NAME", "TYPE NAME[N][M]", "TYPE NAME:BITS", "RET (*NAME)(ARGS)", or for a
 * closing block "NAME", "NAME[N]" or "" (@need_type 0). Fills the member. Returns 0 or -1.
 */
int ph_parse_declarator(char *s, struct ph_member *m, int need_type);

/* ---- pahole_read.c ---- */

/*
 * ph_read_text - read pahole's @text into @p: its top-level structs (@p->t) and their blocks
 * (@p->b), member offsets relative to their block, sizes and member counts checked against
 * pahole's summary comments. Returns 0, or -1 with the problem in @p (ph_fail()).
 */
int ph_read_text(struct ph *p, const char *text);

/* ---- pahole.c ---- */

/*
 * ph_emit_top - the output struct of top-level struct @ti (written once, with the types it
 * nests). Its index in @p->o, or -1 with the problem in @p (ph_fail()).
 */
int ph_emit_top(struct ph *p, int ti);
/* ph_find_out - the index of the output struct called @name, or -1. */
int ph_find_out(const struct ph *p, const char *name);

#endif
