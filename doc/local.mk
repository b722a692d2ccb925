EXTRA_DIST += doc
