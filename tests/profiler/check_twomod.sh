#!/bin/bash
# `warpscope profile --baseline` with one kernel name in two modules built
# from one source file: each kernel pairs with its own module's kernel and
# lines, so comparing a run with an identical one changes nothing, and the
# report (the comparison and the warnings) names the module where the name
# alone is ambiguous.
# usage: check_twomod.sh WARPSCOPE PROF_TWOMOD A.elf B.elf WORKDIR
set -u
ws=$1 app=$2 a=$3 b=$4 dir=$5/twomod
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
"$ws" profile -q --json base.json -- "$app" "$a" "$b" > r1.txt 2>&1 || bad "first run exited with $?"
"$ws" profile -q --baseline base.json -- "$app" "$a" "$b" > cmp.txt 2>&1 || bad "second run exited with $?"
cat cmp.txt
ma=$(basename "$a") mb=$(basename "$b")
grep -qE "^  kernel scale \($ma\): cycles ([0-9]+) -> \1 \(\+0\.0%\)" cmp.txt && ok "scale ($ma) paired with itself" ||
    bad "scale ($ma) not named with its module or changed"
grep -qE "^  kernel scale \($mb\): cycles ([0-9]+) -> \1 \(\+0\.0%\)" cmp.txt && ok "scale ($mb) paired with itself" ||
    bad "scale ($mb) not named with its module or changed"
[ "$(grep -c '^    no line changed$' cmp.txt)" = 2 ] && ok "no line changed in either kernel" ||
    bad "an identical run shows changed lines (lines of one module compared with the other's)"
grep -q "^    line " cmp.txt && bad "line changes listed: $(grep '^    line ' cmp.txt | head -2)"
# The report's warnings about thin kernels say which of the two they mean.
"$ws" profile -- "$app" "$a" "$b" > rep.txt 2>&1 || bad "report run exited with $?"
grep "^warning: kernel" rep.txt
for m in "$ma" "$mb"; do
    grep -qE "^warning: kernel scale \($m\) has (only|no) " rep.txt && ok "warning names scale ($m)" ||
        bad "no warning names scale ($m)"
done
grep -qE "^warning: kernel scale has" rep.txt && bad "a warning names scale without its module"
exit $fail
