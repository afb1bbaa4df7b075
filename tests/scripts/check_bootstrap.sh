#!/usr/bin/env bash
# scripts/bootstrap.sh run by a user who is not root, against stand-ins for
# dpkg-query, id, sudo and apt-get on a PATH of their own:
#   1. every package installed: nothing is installed, nobody is asked;
#   2. one missing, no sudo: it fails and names the command to run as root,
#      without calling apt-get (it used to run "sudo apt-get": "sudo: command
#      not found");
#   3. one missing, sudo there: apt-get runs through sudo.
# Usage: check_bootstrap.sh SOURCE_DIR
set -u
src=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/ws-bootstrap.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
bin="$dir/bin"
mkdir "$bin"
for t in bash grep env cat; do ln -s "$(command -v $t)" "$bin/$t"; done
cat > "$bin/id" <<'S'
#!/bin/bash
echo 1000
S
# installed unless named in $MISSING
cat > "$bin/dpkg-query" <<'S'
#!/bin/bash
p=${!#}
[ "$p" = "${MISSING:-}" ] && exit 1
printf 'install ok installed'
S
cat > "$bin/apt-get" <<'S'
#!/bin/bash
echo "apt-get $* (uid $(id))" >> "$LOG"
S
chmod +x "$bin"/*

run() { # run NAME: bootstrap with the stand-ins; output in $dir/NAME.out
  env -i PATH="$bin" LOG="$dir/log" MISSING="${MISSING:-}" bash "$src/scripts/bootstrap.sh" > "$dir/$1.out" 2>&1
}
check() { # check WHAT CONDITION...
  local what=$1; shift
  if ! "$@"; then echo "FAIL: $what"; fail=1; fi
}

MISSING="" run all; rc=$?
check "all installed: exit 0 (got $rc)" test $rc -eq 0
check "all installed: apt-get not called" test ! -e "$dir/log"
check "all installed: silent" test ! -s "$dir/all.out"

MISSING=openocd run nosudo; rc=$?
cat "$dir/nosudo.out"
check "no sudo: fails (got $rc)" test $rc -ne 0 -a $rc -ne 127
check "no sudo: apt-get not called" test ! -e "$dir/log"
check "no sudo: names the missing package" grep -q "missing: openocd" "$dir/nosudo.out"
check "no sudo: gives the command to run as root" \
  grep -qx "  apt-get update && apt-get install -y --no-install-recommends openocd" "$dir/nosudo.out"

cat > "$bin/sudo" <<'S'
#!/bin/bash
echo "sudo $*" >> "$LOG"
"$@"
S
chmod +x "$bin/sudo"
MISSING=openocd run sudo; rc=$?
check "sudo: exit 0 (got $rc)" test $rc -eq 0
check "sudo: apt-get update through sudo" grep -q "^sudo apt-get update" "$dir/log"
check "sudo: install through sudo" grep -q "^sudo env DEBIAN_FRONTEND=noninteractive apt-get install .*openocd" "$dir/log"
[ $fail -eq 0 ] || { echo "--- log"; cat "$dir/log" 2>/dev/null; cat "$dir"/*.out; }
exit $fail
