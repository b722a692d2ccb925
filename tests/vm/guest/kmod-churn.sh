#!/bin/sh
# Module churn against concurrent control traffic on amd64, where module
# text and ioremap are separate ranges but a freed module's text is still
# reused by the next module (the body, shared with i386-churn, is
# churn.inc): a fixed number of insmod/rmmod rounds against 8 workers
# arming and disarming, enabled_functions audited after every rmmod, and
# the collision counters all > 0.
. /tests/lib.sh

ROUNDS=25
WORKERS=8
HOLD_MS=60
. /tests/churn.inc
