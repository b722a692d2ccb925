// SPDX-License-Identifier: LGPL-2.1
/*
 * Kernel stacks: ftguard:stack decoded into struct ftg_event and printed
 * as trace-cmd report prints ftrace's kernel_stack, and the format that
 * makes a trace.dat describe ftguard:stack as ftrace:kernel_stack.
 *
 * Why that name: trace-cmd prints a stack's "=>" lines through
 * libtraceevent's function plugin, whose handler is bound to the event
 * by system and name ("ftrace", "kernel_stack") and reads the callers
 * from the "caller" field's offset to the end of the record, stopping at
 * a -1. ftguard.ko lays its event out so (doc/interface.md): "size" at
 * offset 8, its dynamic array's word at 12, the callers from 16 on, so
 * the same bytes read right under either format.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftguard-local.h"
#include "trace-local.h"

bool ftg_event_is_stack(const struct ftg_event *ev)
{
	return (!strcmp(ev->system, "ftguard") && !strcmp(ev->name, "stack")) ||
	       (!strcmp(ev->system, "ftrace") &&
		!strcmp(ev->name, "kernel_stack"));
}

int ftg_stack_snprint(char *buf, size_t len, const struct ftg_event *ev)
{
	const char *line = ev->stack_text, *nl;
	size_t used = 0;
	int n, total = 0;

	if (!ftg_event_is_stack(ev)) {
		errno = EINVAL;
		return -1;
	}
	if (len)
		buf[0] = '\0';
	for (; *line; line = *nl ? nl + 1 : nl) {
		nl = strchrnul(line, '\n');
		n = snprintf(buf + used, len > used ? len - used : 0, "=> %.*s\n",
			     (int)(nl - line), line);
		if (n < 0)
			return n;
		total += n;
		used = (size_t)total < len ? (size_t)total : len;
	}
	return total;
}

/*
 * Where @event's callers lie in @rec: a dynamic array (ftguard:stack, as
 * the kernel describes it) says so in its word; a plain array
 * (ftrace:kernel_stack) runs from its offset to the end of the record.
 */
static bool caller_bytes(struct tep_handle *tep, struct tep_event *event,
			 struct tep_record *rec, unsigned int *off,
			 unsigned int *len)
{
	struct tep_format_field *f = tep_find_field(event, "caller");
	unsigned long long loc;

	if (!f || f->offset < 0 || f->offset >= rec->size)
		return false;
	if (!(f->flags & TEP_FIELD_IS_DYNAMIC)) {
		*off = f->offset;
		*len = rec->size - f->offset;
		return true;
	}
	/* record_fits() checked the word against the record */
	loc = tep_read_number(tep, (char *)rec->data + f->offset, f->size);
	*off = loc & 0xffff;
	*len = loc >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		*off += f->offset + f->size;
	return *off + *len <= (unsigned int)rec->size;
}

/* "symbol+0xoff [module]", or "0x<hex>" when no symbol covers @addr. */
static void name_caller(struct tep_handle *tep, const struct trace_syms *syms,
			uint64_t addr, char *buf, size_t len)
{
	char sym[FTG_SYM_LEN];
	const char *name = tep_find_function(tep, addr);
	const char *mod;
	uint64_t start;

	if (!name) {
		snprintf(buf, len, "0x%" PRIx64, addr);
		return;
	}
	start = tep_find_function_address(tep, addr);
	trace_syms_format(syms, tep, addr, sym, sizeof(sym));
	mod = strchr(sym, ' ');		/* " [module]" follows the name */
	snprintf(buf, len, "%s+0x%" PRIx64 "%s", name, addr - start,
		 mod ? mod : "");
}

/*
 * trace_stack_decode - fill @ev's callers from a stack record
 * @tep: handle of @event
 * @syms: module index (may be NULL)
 * @event: the record's event, a kernel stack
 * @rec: the record, its fields known to lie inside it
 * @ev: output; nr_stack, stack and stack_text are set
 *
 * At most FTG_STACK_MAX callers are kept, and no more than "size" says
 * when the record has it; a -1 ends the list as it does for trace-cmd.
 */
void trace_stack_decode(struct tep_handle *tep, const struct trace_syms *syms,
			struct tep_event *event, struct tep_record *rec,
			struct ftg_event *ev)
{
	int long_size = tep_get_long_size(tep);
	unsigned long long size = FTG_STACK_MAX;
	unsigned int off, len, i, n;
	size_t used = 0;
	char name[FTG_SYM_LEN + 24];
	uint64_t addr;
	int w;

	ev->nr_stack = 0;
	ev->stack_text[0] = '\0';
	snprintf(ev->info, sizeof(ev->info), "<stack trace >");
	if ((long_size != 4 && long_size != 8) ||
	    !caller_bytes(tep, event, rec, &off, &len))
		return;
	n = len / long_size;
	if (!tep_get_field_val(NULL, event, "size", rec, &size, 0) && size < n)
		n = size;
	for (i = 0; i < n && ev->nr_stack < FTG_STACK_MAX; i++) {
		addr = tep_read_number(tep, (char *)rec->data + off +
				       i * long_size, long_size);
		if ((long_size == 8 && addr == UINT64_MAX) ||
		    (long_size == 4 && addr == UINT32_MAX))
			break;
		ev->stack[ev->nr_stack++] = addr;
		name_caller(tep, syms, addr, name, sizeof(name));
		w = snprintf(ev->stack_text + used, sizeof(ev->stack_text) - used,
			     "%s%s", used ? "\n" : "", name);
		/* a name that does not fit whole is left out, and the rest */
		if (w < 0 || (size_t)w >= sizeof(ev->stack_text) - used) {
			ev->stack_text[used] = '\0';
			used = sizeof(ev->stack_text);
			continue;
		}
		used += w;
	}
}

/* The value after "@key" in a format's text (a field's offset, the ID). */
static bool format_number(const char *text, const char *key, unsigned int *val)
{
	const char *at = strstr(text, key);

	return at && sscanf(at + strlen(key), "%u", val) == 1;
}

const struct trace_blob *trace_stack_own_format(const struct ftg_trace_formats *fmt)
{
	size_t i, j;

	for (i = 0; i < fmt->nr_systems; i++) {
		if (strcmp(fmt->systems[i].name, "ftguard"))
			continue;
		for (j = 0; j < fmt->systems[i].nr_events; j++)
			if (!strcmp(fmt->systems[i].events[j].name, "stack"))
				return &fmt->systems[i].events[j];
	}
	return NULL;
}

/*
 * trace_stack_kernel_stack_format - ftguard:stack's format, as ftrace's
 * kernel_stack
 * @fmt: the formats a file is written with
 * @out: set to the format text (free with trace_blob_free())
 *
 * The event keeps its ID and its common fields; "size" stays where it
 * is, and "caller" becomes a plain array at the offset where ftguard.ko
 * puts the callers (right after the dynamic array's word). It is given a
 * single entry, which every stack event holds, so that no reader finds
 * the field longer than a record; the callers run to the record's end.
 *
 * Return: 1 with @out set, 0 when @fmt has no ftguard:stack (nothing to
 * describe), -1 with errno set (EINVAL: its format is not the expected).
 */
int trace_stack_kernel_stack_format(const struct ftg_trace_formats *fmt,
				    struct trace_blob *out)
{
	const struct trace_blob *own = trace_stack_own_format(fmt);
	const char *common, *end;
	unsigned int id, size_off, loc_off;
	int n;

	memset(out, 0, sizeof(*out));
	if (!own)
		return 0;
	common = strstr(own->text, "format:\n");
	end = common ? strstr(common, "\n\n") : NULL;
	if (!format_number(own->text, "ID: ", &id) || !end ||
	    !format_number(own->text, " size;\toffset:", &size_off) ||
	    !format_number(own->text, " caller;\toffset:", &loc_off)) {
		errno = EINVAL;
		return -1;
	}
	n = asprintf(&out->text,
		     "name: kernel_stack\nID: %u\n%.*s\n\n"
		     "\tfield:int size;\toffset:%u;\tsize:4;\tsigned:1;\n"
		     "\tfield:unsigned long caller[1];\toffset:%u;\tsize:%d;\tsigned:0;\n"
		     "\nprint fmt: \"\\t=> %%ps\\n\", (void *)REC->caller[0]\n",
		     id, (int)(end - common), common, size_off, loc_off + 4,
		     fmt->long_size);
	if (n < 0) {
		out->text = NULL;
		return -1;
	}
	out->size = n;
	out->name = strdup("kernel_stack");
	if (!out->name) {
		trace_blob_free(out);
		return -1;
	}
	return 1;
}
