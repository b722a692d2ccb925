#!/bin/sh
# The load-time proof of the fast event path on the 32-bit kernel (the
# body, shared with amd64's kmod-hot-proof, is hot-proof.inc; no ftguard
# command in this guest).
. /tests/lib.sh

HOT_CLI=0
. /tests/hot-proof.inc
