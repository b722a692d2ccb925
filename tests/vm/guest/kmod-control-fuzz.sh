#!/bin/sh
# Control-file fuzzing that knows the grammar, on amd64: generated commands
# (fixed seed) plus huge, overlong and partial writes (the body, shared
# with i386-control-fuzz, is control-fuzz.inc).
. /tests/lib.sh

N=10000
SEED=2008
. /tests/control-fuzz.inc
