/* SPDX-License-Identifier: MIT */
/*
 * num.h - the one number parser of the harness: the whole string must be the number
 * (no leading blanks, no trailing text), within an inclusive range. Each returns 0, or -1
 * when @s is not such a number (the caller names the option and the range).
 */
#ifndef PCBENCH_NUM_H
#define PCBENCH_NUM_H

#include <stddef.h>
#include <stdint.h>

/* num_long - an integer in [@lo, @hi]; @base 10, or 0 for decimal and 0x hex. */
int num_long(const char *s, int base, long lo, long hi, long *out);
/* num_int - num_long into an int. */
int num_int(const char *s, int base, int lo, int hi, int *out);
/* num_u64 - an unsigned 64-bit integer, decimal or 0x hex, no sign. */
int num_u64(const char *s, uint64_t *out);
/* num_double - a number in [@lo, @hi] (strtod syntax, so "inf" when the range allows it). */
int num_double(const char *s, double lo, double hi, double *out);
/* num_longn - num_long of the first @len bytes of @s. */
int num_longn(const char *s, size_t len, int base, long lo, long hi, long *out);

#endif
