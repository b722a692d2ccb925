#!/bin/sh
# The fast event path is proven at load, and refused when its context
# word is wrong (fi_hot_ctx), its events then the kernel's: the body,
# shared with i386-hot-proof, is hot-proof.inc.
. /tests/lib.sh

HOT_CLI=1
. /tests/hot-proof.inc
