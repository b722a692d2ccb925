// SPDX-License-Identifier: GPL-2.0
/*
 * ftg-bpf-fentry OBJ READY: loads the BPF object OBJ (fentry-count.bpf.o),
 * attaches its program, writes "PROG_ID MAP_ID\n" to the file READY once
 * attached, and stays until SIGTERM or SIGINT, when it detaches and exits
 * 0. The map's counter is read from outside (ftg-bpf-fentry --count
 * MAP_ID) so a test can see the program keep running.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int count(const char *id_arg)
{
	__u32 key = 0;
	__u64 n = 0;
	int fd = bpf_map_get_fd_by_id((__u32)strtoul(id_arg, NULL, 0));

	if (fd < 0 || bpf_map_lookup_elem(fd, &key, &n)) {
		fprintf(stderr, "ftg-bpf-fentry: map %s: %s\n", id_arg,
			strerror(errno));
		return 1;
	}
	printf("%llu\n", (unsigned long long)n);
	return 0;
}

int main(int argc, char **argv)
{
	struct bpf_prog_info pinfo = { 0 };
	struct bpf_map_info minfo = { 0 };
	__u32 plen = sizeof(pinfo), mlen = sizeof(minfo);
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_link *link;
	struct bpf_map *map;
	struct sigaction sa;
	FILE *ready;

	if (argc == 3 && !strcmp(argv[1], "--count"))
		return count(argv[2]);
	if (argc != 3) {
		fprintf(stderr, "usage: ftg-bpf-fentry OBJ READY | --count MAP_ID\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj || libbpf_get_error(obj)) {
		fprintf(stderr, "ftg-bpf-fentry: open %s failed\n", argv[1]);
		return 1;
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "ftg-bpf-fentry: load %s failed\n", argv[1]);
		return 1;
	}
	prog = bpf_object__next_program(obj, NULL);
	map = bpf_object__next_map(obj, NULL);
	if (!prog || !map) {
		fprintf(stderr, "ftg-bpf-fentry: no program or map in %s\n", argv[1]);
		return 1;
	}
	link = bpf_program__attach(prog);
	if (!link || libbpf_get_error(link)) {
		fprintf(stderr, "ftg-bpf-fentry: attach failed\n");
		return 1;
	}
	if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &pinfo, &plen) ||
	    bpf_obj_get_info_by_fd(bpf_map__fd(map), &minfo, &mlen)) {
		fprintf(stderr, "ftg-bpf-fentry: object info: %s\n", strerror(errno));
		return 1;
	}
	ready = fopen(argv[2], "w");
	if (!ready || fprintf(ready, "%u %u\n", pinfo.id, minfo.id) < 0 ||
	    fclose(ready)) {
		fprintf(stderr, "ftg-bpf-fentry: cannot write %s\n", argv[2]);
		return 1;
	}
	while (!stop)
		pause();
	bpf_link__destroy(link);
	bpf_object__close(obj);
	return 0;
}
