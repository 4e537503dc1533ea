EXTRA_DIST += tools/install-deps.sh
