#!/bin/sh
# Every team and collective routine the headers declare has a man3 page.
top=$(cd "$(dirname "$0")/../.." && pwd)
names=$(printf '#include <shmem.h>\n#include <shmemx.h>\n' |
  ${CC:-cc} -E -P -std=c11 -I"$top/include" -x c - |
  grep -oE '\bshmemx?_[A-Za-z0-9_]+ *\(' | tr -d ' (' | sort -u |
  grep -E 'team|barrier|sync_all|broadcast|collect|alltoall|_reduce|to_all')
status=0; count=0
for n in $names; do
  count=$((count + 1))
  [ -f "$top/man/man3/$n.3" ] || { echo "no man page: $n"; status=1; }
done
echo "$count team/collective names checked"
[ "$count" -gt 400 ] || { echo "too few names found"; status=1; }
exit $status
