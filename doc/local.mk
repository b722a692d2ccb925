EXTRA_DIST += doc/interface.md doc/design.md
