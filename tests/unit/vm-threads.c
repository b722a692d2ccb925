// SPDX-License-Identifier: LGPL-2.1
/*
 * vm-threads: one process whose threads each write the same text to the
 * same file, for the guest script tests/vm/guest/cli-record-threads.sh
 * (a traced write from several pids of one tgid; the guest's busybox has
 * no program with threads).
 *
 *   vm-threads FILE NTHREADS TEXT
 *
 * Prints "pid P", then "tid T" for each thread once it has written.
 * Exits 1 when a write fails, 2 on bad arguments.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#define MAX_THREADS	16

struct writer {
	pthread_t thread;
	const char *file;
	const char *text;
	long tid;
	int err;
};

static void *write_once(void *arg)
{
	struct writer *w = arg;
	size_t len = strlen(w->text);
	int fd = open(w->file, O_WRONLY);

	w->tid = syscall(SYS_gettid);
	if (fd < 0 || write(fd, w->text, len) != (ssize_t)len)
		w->err = errno ? errno : EIO;
	if (fd >= 0)
		close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	struct writer w[MAX_THREADS];
	int i, n, ret = 0;

	n = argc == 4 ? atoi(argv[2]) : 0;
	if (n < 1 || n > MAX_THREADS) {
		fprintf(stderr, "usage: vm-threads FILE NTHREADS(1-%d) TEXT\n", MAX_THREADS);
		return 2;
	}
	printf("pid %ld\n", (long)getpid());
	for (i = 0; i < n; i++) {
		w[i] = (struct writer){ .file = argv[1], .text = argv[3] };
		if (pthread_create(&w[i].thread, NULL, write_once, &w[i])) {
			fprintf(stderr, "vm-threads: pthread_create failed\n");
			return 1;
		}
	}
	for (i = 0; i < n; i++) {
		pthread_join(w[i].thread, NULL);
		printf("tid %ld\n", w[i].tid);
		if (w[i].err) {
			fprintf(stderr, "vm-threads: write to %s: %s\n", argv[1],
				strerror(w[i].err));
			ret = 1;
		}
	}
	return ret;
}
