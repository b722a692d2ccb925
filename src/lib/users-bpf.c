// SPDX-License-Identifier: LGPL-2.1
/*
 * Which BPF programs a BPF trampoline runs. enabled_functions names a
 * fentry/fexit trampoline only by its symbol, "bpf_trampoline_KEY"
 * (kernel/bpf/trampoline.c), where for a kernel function KEY is
 * bpf_trampoline_compute_key(): the BTF object's id << 32, 0x80000000,
 * and the function's BTF type id (a trampoline on another BPF program has
 * that program's id above and no 0x80000000: no ftrace site). The
 * kernel's BPF objects say the same of each program attached through a
 * tracing link (bpf_link_info.tracing: target_obj_id, target_btf_id,
 * prog_id), so a trampoline's programs are the links with its key's ids.
 *
 * Reading the links takes the bpf() syscall with CAP_SYS_ADMIN (or
 * CAP_BPF and CAP_PERFMON); without them, or on any error, nothing is
 * named and the caller says "BPF trampoline".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "ftguard-local.h"

#define TRAMP_PREFIX	"bpf_trampoline_"
#define KEY_KERNEL_FN	0x80000000u

int ftgl_bpf_tramp_ids(const char *sym, uint32_t *obj_id, uint32_t *btf_id)
{
	uint64_t key;
	char *end;

	if (strncmp(sym, TRAMP_PREFIX, strlen(TRAMP_PREFIX)))
		return -1;
	sym += strlen(TRAMP_PREFIX);
	if (*sym < '0' || *sym > '9')
		return -1;
	errno = 0;
	key = strtoull(sym, &end, 10);
	if (errno || (*end && *end != '+' && *end != ' '))
		return -1;
	if (!((uint32_t)key & KEY_KERNEL_FN))
		return -1;
	*obj_id = (uint32_t)(key >> 32);
	*btf_id = (uint32_t)key & ~KEY_KERNEL_FN;
	return 0;
}

bool ftgl_bpf_prog_on(const struct ftgl_bpf_prog *p, const char *sym)
{
	uint32_t obj_id, btf_id;

	return !ftgl_bpf_tramp_ids(sym, &obj_id, &btf_id) &&
	       p->target_obj_id == obj_id && p->target_btf_id == btf_id;
}

/* The program of one tracing link, -1 when it is not one or is gone. */
static int link_prog(uint32_t link_id, struct ftgl_bpf_prog *p)
{
	struct bpf_link_info link;
	struct bpf_prog_info prog;
	uint32_t len = sizeof(link);
	int fd, ret = -1;

	fd = bpf_link_get_fd_by_id(link_id);
	if (fd < 0)
		return -1;
	memset(&link, 0, sizeof(link));
	if (bpf_obj_get_info_by_fd(fd, &link, &len) ||
	    link.type != BPF_LINK_TYPE_TRACING) {
		close(fd);
		return -1;
	}
	close(fd);
	fd = bpf_prog_get_fd_by_id(link.prog_id);
	if (fd < 0)
		return -1;
	memset(&prog, 0, sizeof(prog));
	len = sizeof(prog);
	if (!bpf_obj_get_info_by_fd(fd, &prog, &len)) {
		p->target_obj_id = link.tracing.target_obj_id;
		p->target_btf_id = link.tracing.target_btf_id;
		p->prog_id = prog.id;
		memcpy(p->name, prog.name, sizeof(p->name) - 1);
		p->name[sizeof(p->name) - 1] = '\0';
		ret = 0;
	}
	close(fd);
	return ret;
}

struct ftgl_bpf_prog *ftgl_bpf_progs_read(size_t *count)
{
	struct ftgl_bpf_prog *progs = NULL, *grown, p;
	size_t n = 0, cap = 0;
	uint32_t id = 0;

	*count = 0;
	while (!bpf_link_get_next_id(id, &id)) {
		if (link_prog(id, &p))
			continue;	/* not tracing, or gone meanwhile */
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			grown = realloc(progs, cap * sizeof(*progs));
			if (!grown) {
				free(progs);
				errno = ENOMEM;
				return NULL;
			}
			progs = grown;
		}
		progs[n++] = p;
	}
	if (errno != ENOENT) {
		/* EPERM: not allowed to look; nothing is named */
		free(progs);
		return NULL;
	}
	*count = n;
	return progs ? progs : calloc(1, sizeof(*progs));
}
