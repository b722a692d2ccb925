#!/bin/sh
# Control-file fuzzing that knows the grammar, on the 32-bit kernel: 10,000
# generated commands (fixed seed) plus huge, overlong and partial writes
# (the body, shared with amd64's kmod-control-fuzz, is control-fuzz.inc).
. /tests/lib.sh

N=10000
SEED=2008
. /tests/control-fuzz.inc
