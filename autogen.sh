#!/bin/sh
# Bootstrap the build: ./autogen.sh [--deps]
#   --deps  first install every Debian package the build and tests need
#           (idempotent, non-interactive; needs root).
set -e
cd "$(dirname "$0")"
if [ "${1:-}" = "--deps" ]; then
	shift
	./tests/install-deps
fi
mkdir -p m4 build-aux
autoreconf -fi
