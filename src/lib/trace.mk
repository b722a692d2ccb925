# libftguard trace/event/export sources, included from
# src/lib/local.mk. Live events (libtracefs + libtraceevent), trace.dat
# writer and reader (libtracecmd's public reader), exports.
libftguard_core_la_SOURCES += \
	src/lib/trace-local.h \
	src/lib/trace-syms.c \
	src/lib/trace-formats.c \
	src/lib/trace-tgids.c \
	src/lib/trace-encode.c \
	src/lib/trace-writer.c \
	src/lib/trace-check.c \
	src/lib/trace-reader.c \
	src/lib/trace-filter.c \
	src/lib/event-decode.c \
	src/lib/event-live.c \
	src/lib/event-names.c \
	src/lib/event-filter.c \
	src/lib/event-ring.c \
	src/lib/graph.c \
	src/lib/trace-stack.c \
	src/lib/export.c
libftguard_core_la_CFLAGS += $(TRACECMD_CFLAGS) $(TRACEFS_CFLAGS) $(TRACEEVENT_CFLAGS)
libftguard_core_la_LIBADD += $(TRACECMD_LIBS) $(TRACEFS_LIBS) $(TRACEEVENT_LIBS)
