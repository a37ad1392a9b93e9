/* SPDX-License-Identifier: MIT */
/*
 * coro.h - the coroutines of the coherence model's virtual CPUs (sim.c): stackful, on the
 * calling thread, switched only by coro_switch.
 *
 * On x86-64 the switch is coro.c's own: it saves the callee-saved registers (rbx, rbp,
 * r12-r15) on the current stack, the stack pointer in @from, and loads @to's: no system
 * call (glibc's swapcontext makes an rt_sigprocmask call on every switch, and saves and
 * loads the x87 environment). The coroutines share the signal mask and the floating-point
 * control words of the thread (nothing in the model changes them). Elsewhere, in the
 * ThreadSanitizer and MemorySanitizer builds (which follow stack switches through
 * swapcontext) and when shadow stacks are compiled in (-fcf-protection=return or full: a
 * switch by `ret` would fault), it is ucontext.
 */
#ifndef PCBENCH_MODEL_CORO_H
#define PCBENCH_MODEL_CORO_H

#include <stddef.h>

/*
 * ASan keeps the fast switch and is told of every stack switch through its fiber API
 * (__sanitizer_start/finish_switch_fiber), which costs no system call and clears no shadow
 * memory (its swapcontext interceptor clears the shadow of the whole target stack on every
 * switch). ThreadSanitizer and MemorySanitizer follow stacks only through swapcontext.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORO_ASAN 1
#endif
#if __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define CORO_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define CORO_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define CORO_SANITIZED 1
#endif

#if defined(__x86_64__) && !defined(CORO_SANITIZED) && !(defined(__CET__) && (__CET__ & 2))
#define CORO_ASM 1
struct coro {
	void *sp; /* the saved stack pointer, its registers below it */
#ifdef CORO_ASAN
	/* for ASan: the coroutine's stack (a thread's own: learnt when it first switches away) */
	const void *bottom;
	size_t size;
	void (*fn)(int);
	int arg;
#endif
};
#else
#include <ucontext.h>
struct coro {
	ucontext_t uc;
};
#endif

/*
 * coro_make - @c will start as @fn(@arg) on the @size bytes at @stack at its first
 * coro_switch to it. @fn never returns (it switches away for good).
 */
void coro_make(struct coro *c, void *stack, size_t size, void (*fn)(int), int arg);

/* coro_switch - save the running coroutine (or the thread's own stack) in @from, run @to. */
void coro_switch(struct coro *from, struct coro *to);

#endif
