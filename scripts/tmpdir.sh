# Sourced by scripts/test.sh and scripts/demo.sh: the tests, the tools and
# the compilers put their temporary files in $TMPDIR. One that is set but
# is not a directory this user can write (read-only, missing, a file) made
# dozens of tests fail, each with its own "Permission denied"; the scripts
# use /tmp instead, and say so. A TMPDIR holding a comma is passed over the
# same way (the tools name temporaries in comma-separated settings).
ws_check_tmpdir() {
  local who=$1
  if [ -n "${TMPDIR:-}" ]; then
    if [ -d "$TMPDIR" ] && [ -w "$TMPDIR" ] && [ -x "$TMPDIR" ] && [[ "$TMPDIR" != *,* ]]; then
      return 0
    fi
    echo "$who: TMPDIR=$TMPDIR is not a directory you can write (or holds a comma); using /tmp" >&2
    export TMPDIR=/tmp
  fi
  if ! { [ -d /tmp ] && [ -w /tmp ] && [ -x /tmp ]; }; then
    echo "$who: /tmp is not a directory you can write; set TMPDIR to one that is" >&2
    return 1
  fi
}
