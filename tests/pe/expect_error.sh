# Sourced by the bootstrap tests.  expect_error WANTED-TEXT COMMAND...: the
# command must fail (not time out: a minute at most) and say WANTED-TEXT;
# otherwise it prints why and sets status=1.
expect_error() {
  text=$1; shift
  out=$(timeout 60 "$@" 2>&1)
  rc=$?
  if [ $rc -eq 0 ] || [ $rc -eq 124 ] || ! printf '%s\n' "$out" | grep -F -q -- "$text"; then
    echo "FAIL: $*: exit $rc, output should contain \"$text\""
    printf '%s\n' "$out" | tail -8 | sed 's/^/    /'
    status=1
  else
    echo "ok: fails with \"$text\""
  fi
}
