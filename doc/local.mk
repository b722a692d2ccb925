EXTRA_DIST += doc/interface.md
