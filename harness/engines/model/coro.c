// SPDX-License-Identifier: MIT
/*
 * coro.c - the model's coroutine switch (coro.h): on x86-64 a few instructions of our own,
 * elsewhere (and in the sanitizer and shadow-stack builds) ucontext.
 */
#include <stdint.h>

#include "coro.h"
#include "util.h"

#ifdef CORO_ASM
/*
 * coro_switch(from = %rdi, to = %rsi): push the callee-saved registers, keep the stack
 * pointer in from->sp, take to->sp, pop its registers and return into it. The System V
 * ABI lets a call clobber every other general register and all vector registers.
 *
 * coro_start: a new coroutine's first return lands here, with its function in %r13 and
 * its argument in %r12 (popped by coro_switch); the stack pointer is 16-byte aligned, so
 * the call gives the function the alignment the ABI promises. The function never returns:
 * ud2 if it does. The CFI marks the end of the stack for debuggers and unwinders.
 */
__asm__(".text\n"
	".p2align 4\n"
	".globl coro_switch\n"
	".hidden coro_switch\n"
	".type coro_switch, @function\n"
	"coro_switch:\n"
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
	".size coro_switch, .-coro_switch\n"
	".p2align 4\n"
	".type coro_start, @function\n"
	"coro_start:\n"
	"	.cfi_startproc\n"
	"	.cfi_undefined %rip\n"
	"	movl %r12d, %edi\n"
	"	callq *%r13\n"
	"	ud2\n"
	"	.cfi_endproc\n"
	".size coro_start, .-coro_start\n");

void coro_start(void);

void coro_make(struct coro *c, void *stack, size_t size, void (*fn)(int), int arg)
{
	/* the top, 16-byte aligned; below it what coro_switch pops: 6 registers, then coro_start */
	uintptr_t *top = (uintptr_t *)(((uintptr_t)stack + size) & ~(uintptr_t)15);
	uintptr_t *sp = top - 7;

	sp[0] = 0;			  /* r15 */
	sp[1] = 0;			  /* r14 */
	sp[2] = (uintptr_t)fn;		  /* r13 */
	sp[3] = (uintptr_t)(unsigned)arg; /* r12 */
	sp[4] = 0;			  /* rbx */
	sp[5] = 0;			  /* rbp: the end of the frame chain */
	sp[6] = (uintptr_t)coro_start;	  /* the return address; after it %rsp is top */
	c->sp = sp;
}
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
