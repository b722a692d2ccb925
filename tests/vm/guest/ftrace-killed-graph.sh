#!/bin/sh
# vm-boot: own
# The kernel kills ftrace under an arm with exits (fprobe on 6.12,
# kretprobes on 6.1): ftrace-killed.inc.
. /tests/lib.sh
. /tests/ftrace-killed.inc
ftrace_killed -p function_graph
