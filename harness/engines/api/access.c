// SPDX-License-Identifier: MIT
#include "access.h"

void (*pc_trace_hook)(enum pc_op op, const volatile void *addr, unsigned size, const char *site);

static const char *const op_names[PC_OP_COUNT] = {
    [PC_OP_LOAD] = "load", [PC_OP_STORE] = "store",
    [PC_OP_ADD] = "add",   [PC_OP_ADD_RETURN] = "add_return",
    [PC_OP_XCHG] = "xchg", [PC_OP_CMPXCHG] = "cmpxchg",
    [PC_OP_LOCK] = "lock", [PC_OP_UNLOCK] = "unlock",
    [PC_OP_WAIT] = "wait", [PC_OP_OR] = "fetch_or",
};

const char *pc_op_name(enum pc_op op)
{
	return (unsigned)op < PC_OP_COUNT ? op_names[op] : "?";
}

/* The tracing build of the scenarios calls this before every shared access. */
void pc_trace(enum pc_op op, const volatile void *addr, unsigned size, const char *site);
void pc_trace(enum pc_op op, const volatile void *addr, unsigned size, const char *site)
{
	if (pc_trace_hook)
		pc_trace_hook(op, addr, size, site);
}
