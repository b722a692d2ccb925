#!/bin/sh
# Module churn against concurrent control traffic, on the kernel where a
# freed module's text is the first place the next module or ioremap goes
# (the body, shared with amd64's kmod-churn, is churn.inc).
. /tests/lib.sh

ROUNDS=25
WORKERS=8
HOLD_MS=60
. /tests/churn.inc
