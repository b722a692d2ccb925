// SPDX-License-Identifier: GPL-2.0
/*
 * A BPF fentry program on vfs_read that counts its calls in a one-entry
 * array map, as a security agent's program would sit on a hot function.
 * Built with clang -target bpf against libbpf's headers only: the
 * arguments are never read, so forward declarations stand in for the
 * kernel's types and no vmlinux.h is needed.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

struct file;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} ftg_bpf_hits SEC(".maps");

SEC("fentry/vfs_read")
int BPF_PROG(ftg_bpf_read, struct file *file, char *buf, __u64 count,
	     __u64 *pos)
{
	__u32 key = 0;
	__u64 *n = bpf_map_lookup_elem(&ftg_bpf_hits, &key);

	if (n)
		__sync_fetch_and_add(n, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
