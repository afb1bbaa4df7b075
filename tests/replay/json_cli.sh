#!/bin/bash
# `warpscope replay --list/--pixel/--element/--mesh --json FILE`: as JSON,
# field for field what the text says (rd_gfx_program "write": a clear, two
# draws over the pixel, a target write after them, a launch adding 1 to
# two ints). The same document twice; --json alone or with another mode
# is a usage error; an unwritable file an error naming it.
#   json_cli.sh WARPSCOPE PROGRAM SHADERS.elf
set -u
ws=$1 prog=$2 elf=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$ws" capture -o f.wscap --frames 0 -- "$prog" "$elf" 1 write > capture.out 2>&1 || { cat capture.out; exit 1; }
fails=0
bad() { echo "FAIL: $*"; fails=$((fails+1)); }
"$ws" replay --pixel 8,16 --json p.json f.wscap > p.txt 2>&1 || bad "--pixel --json exit $?"
"$ws" replay --pixel 8,16 --json - f.wscap > p2.json 2>&1 || bad "--pixel --json - exit $?"
cmp -s p.json p2.json || bad "the JSON on standard output differs from the file's"
grep -q '^pixel (8,16)' p2.json && bad "--json -: the text was printed too"
python3 - p.json p.txt <<'PY' || bad "pixel JSON does not say what the text says"
import json, re, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
assert d['pixel'] == {'x': 8, 'y': 16} and d['target']['width'] == 32 and d['target']['depth'] is False, d['target']
ev = d['events']
assert [e['call'] for e in ev] == [int(c) for c in re.findall(r'^call (\d+) ', text, re.M)], ev
assert [e['result'] for e in ev] == ['cleared', 'written', 'written'], ev
assert ev[0]['clear_rgba'] == [0, 0, 0, 1] and ev[0]['rgba_after'] == [0, 0, 0, 255], ev[0]
assert ev[1]['kernel'] == 'rdg_fs' and ev[1]['shader_out'] == [1, 0, 0, 1] and ev[1]['rgba_after'] == [255, 0, 0, 255], ev[1]
assert ev[2]['rgba_before'] == ev[1]['rgba_after'] and ev[2]['rgba_after'] == [0, 255, 0, 255], ev[2]
assert ev[1]['text'].startswith('ws_gfx_draw(') and ev[1]['depth_test'] is None, ev[1]
# the draw's ordinal and device id as fields of their own (until
# 2026-11-29 only inside "text"); null for the clear
assert ev[0]['draw'] is None and ev[0]['draw_id'] is None, ev[0]
for e in ev[1:]:
    m = re.search(r'\) draw (\d+)(?: \(id (\d+)\))?', e['text'])
    assert m and e['draw'] == int(m.group(1)) and e['draw_id'] == int(m.group(2) or m.group(1)), e
assert ev[1]['draw'] != ev[2]['draw'], ev
# the write after the last draw: the frame ends blue, as the text says
assert d['frame_end'] == {'known': True, 'rgba': [0, 0, 255, 255], 'depth': None}, d['frame_end']
assert 'frame end: colour (  0   0 255 255)' in text
assert d['calls'] == 3 and d['passed'] == [] and d['failure'] is None
print('pixel JSON: %d events' % len(ev))
PY
"$ws" replay --element 0x01004100:8 --json e.json f.wscap > e.txt 2>&1 || bad "--element --json exit $?"
python3 - e.json <<'PY' || bad "element JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d['element'] == {'address': 0x01004100, 'size': 8}, d['element']
assert d['type']['name'] == 'int32' and 'rdg_count' in d['type']['read_by'], d['type']
assert d['frame_start'] == {'bytes': [1, 0, 0, 0, 1, 0, 0, 0], 'values': [1, 1]}, d['frame_start']
(c,) = d['changes']
assert c['call'] == 2 and c['kernel'] == 'rdg_count' and c['read_as'] == 'int32', c
assert c['old']['values'] == [1, 1] and c['new']['values'] == [2, 2] and c['new']['bytes'][0] == 2, c
print('element JSON: 1 change')
PY
"$ws" replay --element 0x01004100:8 --json e2.json f.wscap > /dev/null 2>&1
cmp -s e.json e2.json || bad "element JSON differs between two runs"
# --list: the calls as --list prints them, their kinds, the launch and
# draw ordinals; a capture whose frame failed (the replayer fuzz seed):
# the failure at the call that returned it, with its report.
"$ws" replay --list --json l.json f.wscap > l.txt 2>&1 || bad "--list --json exit $?"
python3 - l.json l.txt <<'PY' || bad "call list JSON"
import json, re, sys
d = json.load(open(sys.argv[1]))
text = [re.sub(r'^ +\d+  ', '', l.rstrip('\n')) for l in open(sys.argv[2]) if re.match(r'^ +\d+  ', l)]
assert d['count'] == len(d['calls']) == len(text) == 11, (d['count'], len(text))
assert [c['text'] for c in d['calls']] == text
kinds = [c['kind'] for c in d['calls']]
assert kinds == ['frame', 'clear', 'launch', 'state', 'draw', 'state', 'draw', 'draw', 'draw', 'copy', 'frame'], kinds
assert d['calls'][2]['kernel'] == 'rdg_count' and d['calls'][2]['launch'] == 0, d['calls'][2]
assert [c['draw'] for c in d['calls'] if c['kind'] == 'draw'] == [0, 1, None, 2], d['calls']
assert all(c['failures'] == [] for c in d['calls']) and d['failed_before_capture'] == [] == d['failed_at_close']
PY
tail -c +2 "$(dirname "$0")/../../fuzz/replay_capture/corpus/seed_failure_frame" > fail.wscap
"$ws" replay --list --json - fail.wscap > fl.json 2>&1 || bad "--list --json - of a failed frame: exit $?"
python3 - fl.json <<'PY' || bad "call list JSON of a failed frame"
import json, sys
d = json.load(open(sys.argv[1]))
(bad,) = [c for c in d['calls'] if c['failures']]
(f,) = bad['failures']
assert bad['name'] == 'ws_synchronize' and f['when'] == 'returned' and f['status'] == 'WS_ERR_KERNEL_FAULT', bad
assert 'store access fault' in f['report'] and 'seed_fill' in f['report'], f
PY
# --mesh: the rows the table shows, with its numbers.
"$ws" replay --mesh 6:3 --json ms.json f.wscap > ms.txt 2>&1 || bad "--mesh --json exit $?"
python3 - ms.json ms.txt <<'PY' || bad "mesh JSON"
import json, sys
d = json.load(open(sys.argv[1]))
def number(x):
    try:
        return float(x) == float(x)
    except ValueError:
        return False
rows = [l.split() for l in open(sys.argv[2]) if l.split() and all(number(c) for c in l.split())]
assert d['call'] == 6 and d['vertex_shader'] == 'rdg_vs' and d['invocations'] == 6 and len(d['rows']) == len(rows) == 3, d
assert [i['format'] for i in d['inputs']] == ['float2', 'float4'] and d['varyings'] == 4, d['inputs']
assert d['primitives'] == {'in': 2, 'clipped': 0, 'culled': 0, 'invalid': 0, 'rasterized': 2}, d['primitives']
for r, t in zip(d['rows'], rows):
    cells = [r['vertex'], r['instance']] + r['in'] + r['position'] + r['varyings'] + r['window']
    assert [float(c) for c in t[1:]] == [float(c) for c in cells], (r, t)
PY
"$ws" replay --json x.json f.wscap > u1.txt 2>&1; rc=$?
[ "$rc" = 2 ] && grep -q -- "--json writes --list, --mesh, or the history of --pixel or --element; give one of them" u1.txt ||
    { bad "--json alone: exit $rc"; cat u1.txt; }
"$ws" replay --html h --json x.json f.wscap > u2.txt 2>&1; rc=$?
[ "$rc" = 2 ] && grep -q -- "--json writes --list, --mesh, or the history of --pixel or --element; it cannot be combined" u2.txt ||
    { bad "--json with --html: exit $rc"; cat u2.txt; }
"$ws" replay --pixel 8,16 --json "$work/no/such/dir/p.json" f.wscap > u3.txt 2>&1; rc=$?
[ "$rc" = 1 ] && grep -q "cannot write $work/no/such/dir/p.json: No such file or directory" u3.txt ||
    { bad "unwritable JSON file: exit $rc"; cat u3.txt; }
echo "$fails failed"
[ "$fails" = 0 ]
