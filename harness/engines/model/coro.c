// SPDX-License-Identifier: MIT
/*
 * coro.c - the model's coroutine switch (coro.h): on x86-64 a few instructions of our own
 * (under ASan with its fiber hooks around them), elsewhere (and in the TSan, MSan and
 * shadow-stack builds) ucontext.
 */
#include <stdint.h>

#include "coro.h"
#include "util.h"

#ifdef CORO_ASM
/*
 * CORO_JUMP(from = %rdi, to = %rsi): push the callee-saved registers, keep the stack
 * pointer in from->sp, take to->sp, pop its registers and return into it. The System V
 * ABI lets a call clobber every other general register and all vector registers. Without
 * ASan it is coro_switch itself; under ASan, coro_switch wraps it in the fiber hooks.
 *
 * coro_start: a new coroutine's first return lands here, with its function in %r13 and
 * its argument in %r12 (popped by the jump); the stack pointer is 16-byte aligned, so the
 * call gives the function the alignment the ABI promises. The function never returns:
 * ud2 if it does. The CFI marks the end of the stack for debuggers and unwinders.
 */
#ifdef CORO_ASAN
#include <sanitizer/common_interface_defs.h>
#define CORO_JUMP "coro_jump"
void coro_jump(struct coro *from, struct coro *to);
#else
#define CORO_JUMP "coro_switch"
#endif
__asm__(".text\n"
	".p2align 4\n"
	".globl " CORO_JUMP "\n"
	".hidden " CORO_JUMP "\n"
	".type " CORO_JUMP ", @function\n" CORO_JUMP ":\n"
	"	pushq %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	pushq %r13\n"
	"	pushq %r14\n"
	"	pushq %r15\n"
	"	movq %rsp, (%rdi)\n"
	"	movq (%rsi), %rsp\n"
	"	popq %r15\n"
	"	popq %r14\n"
	"	popq %r13\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	".size " CORO_JUMP ", .-" CORO_JUMP "\n"
	".p2align 4\n"
	".type coro_start, @function\n"
	"coro_start:\n"
	"	.cfi_startproc\n"
	"	.cfi_undefined %rip\n"
	"	movq %r12, %rdi\n"
	"	callq *%r13\n"
	"	ud2\n"
	"	.cfi_endproc\n"
	".size coro_start, .-coro_start\n");

void coro_start(void);

/* coro_frame - @c's first frame: coro_start will call @fn(@arg) (a pointer-sized argument). */
static void coro_frame(struct coro *c, void *stack, size_t size, uintptr_t fn, uintptr_t arg)
{
	/* the top, 16-byte aligned; below it what the jump pops: 6 registers, then coro_start */
	uintptr_t *top = (uintptr_t *)(((uintptr_t)stack + size) & ~(uintptr_t)15);
	uintptr_t *sp = top - 7;

	sp[0] = 0;		       /* r15 */
	sp[1] = 0;		       /* r14 */
	sp[2] = fn;		       /* r13 */
	sp[3] = arg;		       /* r12 */
	sp[4] = 0;		       /* rbx */
	sp[5] = 0;		       /* rbp: the end of the frame chain */
	sp[6] = (uintptr_t)coro_start; /* the return address; after it %rsp is top */
	c->sp = sp;
}

#ifdef CORO_ASAN
/*
 * ASan's fiber hooks: before a jump, start_switch_fiber names the target's stack; after
 * it, in the target, finish_switch_fiber restores the target's fake stack and reports
 * the stack it came from, which is how a thread's own stack (model_run's) gets its bounds
 * before anything switches back to it. coro_from is the coroutine that jumped last.
 */
static _Thread_local struct coro *coro_from;

static void coro_entry(uintptr_t p)
{
	struct coro *c = (struct coro *)p;

	__sanitizer_finish_switch_fiber(NULL, &coro_from->bottom, &coro_from->size);
	c->fn(c->arg);
}

void coro_make(struct coro *c, void *stack, size_t size, void (*fn)(int), int arg)
{
	c->bottom = stack;
	c->size = size;
	c->fn = fn;
	c->arg = arg;
	coro_frame(c, stack, size, (uintptr_t)coro_entry, (uintptr_t)c);
}

void coro_switch(struct coro *from, struct coro *to)
{
	void *fake = NULL;

	coro_from = from;
	__sanitizer_start_switch_fiber(&fake, to->bottom, to->size);
	coro_jump(from, to);
	__sanitizer_finish_switch_fiber(fake, &coro_from->bottom, &coro_from->size);
}
#else
void coro_make(struct coro *c, void *stack, size_t size, void (*fn)(int), int arg)
{
	coro_frame(c, stack, size, (uintptr_t)fn, (uintptr_t)(unsigned)arg);
}
#endif
#else
void coro_make(struct coro *c, void *stack, size_t size, void (*fn)(int), int arg)
{
	if (getcontext(&c->uc))
		die("getcontext", "model", "cannot make a coroutine");
	c->uc.uc_stack.ss_sp = stack;
	c->uc.uc_stack.ss_size = size;
	c->uc.uc_link = NULL; /* fn never returns */
	makecontext(&c->uc, (void (*)(void))fn, 1, arg);
}

void coro_switch(struct coro *from, struct coro *to)
{
	swapcontext(&from->uc, &to->uc);
}
#endif
