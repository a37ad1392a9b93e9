/* SPDX-License-Identifier: MIT */
/*
 * ksyms.h - the running kernel's text symbols from /proc/kallsyms (PCBENCH_PROCFS_ROOT), for
 * naming sampled kernel addresses (--profile), and the memcg charge path as a list of names.
 */
#ifndef PCBENCH_KSYMS_H
#define PCBENCH_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct ksyms;

/* Two ids past the symbols: a user-space address, and a kernel one with no symbol. */
#define KSYMS_USER(k) (ksyms_count(k))
#define KSYMS_KERNEL(k) (ksyms_count(k) + 1)

/*
 * ksyms_load - the text symbols, sorted by address; NULL with the reason in @why when
 * kallsyms cannot be read or shows no addresses (kptr_restrict).
 */
struct ksyms *ksyms_load(char *why, size_t len);
void ksyms_free(struct ksyms *k);
/* ksyms_count - how many symbols (@k may be NULL: 0). */
uint32_t ksyms_count(const struct ksyms *k);
/* ksyms_find - the id of the symbol holding @ip: a symbol, KSYMS_USER or KSYMS_KERNEL. */
uint32_t ksyms_find(const struct ksyms *k, uint64_t ip);
/* ksyms_name - the name of id @id ("[user]", "[kernel]" for the two past the symbols). */
const char *ksyms_name(const struct ksyms *k, uint32_t id);
/*
 * ksyms_class - what id @id is to the memcg charge path: KS_MEMCG (on the documented list,
 * docs/kernel.md), KS_LOCK (a spinlock or its slow path: memcg when called from
 * folio_lruvec_lock*, the lru_lock slow path), KS_LRUVEC (folio_lruvec_lock*, also
 * KS_MEMCG), or 0.
 */
enum { KS_MEMCG = 1, KS_LOCK = 2, KS_LRUVEC = 4 };
int ksyms_class(const struct ksyms *k, uint32_t id);
/* ksyms_memcg_name - the class of a bare name (without .isra/.constprop suffixes). */
int ksyms_memcg_name(const char *name);

#endif
