#!/usr/bin/env bash
# scripts/tmpdir.sh, which scripts/test.sh and scripts/demo.sh source: a
# TMPDIR that is not a writable directory (or holds a comma) is replaced by
# /tmp with a note; a good one, or none, is left alone. (With a read-only
# TMPDIR the README's test command failed dozens of tests, each with its own
# "Permission denied"; a regular file stands in for the read-only directory,
# which root could write.)
# Usage: check_tmpdir.sh SOURCE_DIR
set -u
src=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/ws-tmpdir.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
# after NAME TMPDIR-VALUE|-: TMPDIR as the check leaves it, and its message
after() {
  local v=$2
  if [ "$v" = - ]; then
    env -u TMPDIR bash -c '. "$1/scripts/tmpdir.sh"; ws_check_tmpdir t || exit 1; echo "TMPDIR=${TMPDIR-unset}"' _ "$src" > "$dir/$1.out" 2>&1
  else
    TMPDIR=$v bash -c '. "$1/scripts/tmpdir.sh"; ws_check_tmpdir t || exit 1; echo "TMPDIR=${TMPDIR-unset}"' _ "$src" > "$dir/$1.out" 2>&1
  fi
}
expect() { # expect NAME TEXT
  grep -qF -- "$2" "$dir/$1.out" || { echo "FAIL: $1: no '$2' in: $(cat "$dir/$1.out")"; fail=1; }
}
: > "$dir/file"
mkdir "$dir/good" "$dir/a,b"
after file "$dir/file";          expect file "TMPDIR=$dir/file is not a directory you can write"; expect file "TMPDIR=/tmp"
after missing "$dir/missing";    expect missing "using /tmp"; expect missing "TMPDIR=/tmp"
after comma "$dir/a,b";          expect comma "using /tmp"; expect comma "TMPDIR=/tmp"
after good "$dir/good";          expect good "TMPDIR=$dir/good"
[ "$(wc -l < "$dir/good.out")" -eq 1 ] || { echo "FAIL: a good TMPDIR got a note"; fail=1; }
after unset -;                   expect unset "TMPDIR=unset"
# both README commands run the check before anything else
for s in test.sh demo.sh; do
  grep -qx "ws_check_tmpdir $s" "$src/scripts/$s" || { echo "FAIL: scripts/$s does not check TMPDIR"; fail=1; }
done
exit $fail
