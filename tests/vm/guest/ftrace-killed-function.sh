#!/bin/sh
# vm-boot: own
# The kernel kills ftrace under a function arm: ftrace-killed.inc.
. /tests/lib.sh
. /tests/ftrace-killed.inc
ftrace_killed
