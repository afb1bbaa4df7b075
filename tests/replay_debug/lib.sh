# Shared by the replay --debug shell tests (sourced, with $ws the CLI):
# a work directory removed at exit, and the debugging replay started in
# the background.
work=$(mktemp -d)
rpid=
cleanup() { [ -n "$rpid" ] && kill "$rpid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# start_debug_replay CAPTURE: `replay --debug` of CAPTURE in the
# background ($rpid, output in $work/replay.out) listening on the port in
# $work/port; the script fails if it never listens.
start_debug_replay() {
  rm -f "$work/port"
  timeout 150 "$ws" replay --debug="port=0,port-file=$work/port" "$1" > "$work/replay.out" 2>&1 &
  rpid=$!
  for _ in $(seq 300); do [ -s "$work/port" ] && break; kill -0 "$rpid" 2>/dev/null || break; sleep 0.1; done
  [ -s "$work/port" ] || { echo "FAIL: replay --debug never listened"; cat "$work/replay.out"; exit 1; }
}
