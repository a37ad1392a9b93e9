// SPDX-License-Identifier: MIT
/*
 * test_gbshim.c - a thread Google Benchmark cannot create ends gbshim_run through the shim,
 * never in SIGABRT (rc 134) or a hang. Each case runs in a child process whose threads get
 * a 256 MiB default stack (pthread_setattr_default_np, which std::thread uses) under an
 * address-space limit: with 2 threads room for none, with 3 and 4 room for one (left to
 * Google Benchmark 1.7.1, that was std::terminate, or a hang in the start barrier's
 * destructor). The run's Setup starts them first: gbshim_run returns -1, gbshim_error says
 * why, gbshim_failed_arg names the family. (gbshim_on_terminate's function, the last
 * resort, would exit 21.) Skipped (77) under a sanitizer (it reserves terabytes of
 * address space).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "gbshim.h"

#define STACK (256UL << 20)

static int family_tag = 7;

static void thread_fn(void *arg, int tid, struct gb_result *r)
{
	(void)arg;
	if (!tid)
		*r = (struct gb_result){1, 1, 1.0, 1e9, NULL};
}

/* on_terminate - as pcbench's: says which family and why, then exits 21 (not 134). */
static void on_terminate(void *arg, const char *why)
{
	printf("terminate: family %s: %s\n", arg == &family_tag ? "known" : "unknown", why);
	fflush(stdout);
	_exit(21);
}

/* vm_size - this process's address space now (VmSize, bytes), or 0. */
static unsigned long vm_size(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long kb = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSize: %lu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb * 1024;
}

/* one_case - gbshim_run of one family of @threads threads, in a child; its exit status. */
static int one_case(int threads, char *out, size_t len)
{
	int fd[2], st;
	size_t n = 0;
	pid_t pid;
	ssize_t k;

	if (pipe(fd))
		return -1;
	fflush(NULL);
	pid = fork();
	if (!pid) {
		pthread_attr_t a;
		struct gb_family fam = {"shim/threads", threads, &family_tag};
		struct rlimit rl;
		int argc = 1;
		char *argv[] = {"test_gbshim", NULL};

		dup2(fd[1], 1);
		close(fd[0]);
		gbshim_init(&argc, argv);
		gbshim_on_terminate(on_terminate);
		pthread_attr_init(&a);
		pthread_attr_setstacksize(&a, STACK);
		pthread_setattr_default_np(&a);
		/* room for one thread's stack (and some heap) with 3 or 4 threads, none with 2 */
		rl.rlim_cur = rl.rlim_max = vm_size() + (threads > 2 ? STACK : 0) + STACK / 2;
		setrlimit(RLIMIT_AS, &rl);
		if (gbshim_run(&fam, 1, 1, thread_fn)) {
			printf("exception: family %s: %s\n",
			       gbshim_failed_arg() == &family_tag ? "known" : "unknown",
			       gbshim_error());
			fflush(stdout);
			_exit(20);
		}
		printf("ran\n");
		fflush(stdout);
		_exit(0);
	}
	close(fd[1]);
	while (n < len - 1 && (k = read(fd[0], out + n, len - 1 - n)) > 0)
		n += (size_t)k;
	out[n] = '\0';
	close(fd[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(void)
{
	char out[1024];
	int rc;

	if (SANITIZED) {
		printf("SKIP: address-space limits under a sanitizer\n");
		return 77;
	}
	rc = one_case(2, out, sizeof(out));
	printf("2 threads: exit %d: %s", rc, out);
	CHECK(rc == 20, "2 threads: exit %d, want 20 (gbshim_run returned -1)", rc);
	CHECK(strstr(out, "family known"), "2 threads: the family is not named");
	for (int t = 3; t <= 4; t++) {
		rc = one_case(t, out, sizeof(out));
		printf("%d threads: exit %d: %s", t, rc, out);
		CHECK(rc == 20, "%d threads: exit %d, want 20 (gbshim_run returned -1)", t, rc);
		CHECK(strstr(out, "family known"), "%d threads: the family is not named", t);
		CHECK(strstr(out, "Resource temporarily unavailable") ||
			  strstr(out, "Cannot allocate memory"),
		      "%d threads: no reason", t);
	}
	return failures != 0;
}
