#!/usr/bin/env bash
# Compares two builds of the gateway on the canned backend, for a change whose effect is smaller than
# this machine's drift between two bench/tools.sh runs (docs/benchmarks.md, "Thread wake-ups").
#
#   bench/ab.sh OLD.jar NEW.jar                         query_logs at 32 connections
#   TOOL=list_services CONNECTIONS=1 bench/ab.sh OLD.jar NEW.jar
#   ROUNDS=3 BLOCKS=3 DURATION=8s                       the defaults
#   OLD_OPTS="-Dx=1" NEW_OPTS="-Dx=2"                   extra JVM flags for one side (a flag A/B: same jar twice)
#   OLD_ENV="A=1" NEW_ENV="OMCP_REDACTION=off"          extra environment for one side (a setting A/B)
#   SETTLE_ROUNDS=8                                     after 20 s at 8 connections and 10 s at the measured count, 5 s rounds there until the JIT is quiet
#
# Both gateways run side by side on the same canned nginx; each block starts a fresh pair (a JVM's
# JIT decisions alone move a pair's medians by several per cent), warms both up, then alternates
# measured runs between them, swapping who goes first each round so drift hits both alike. Prints
# every run and the medians. Both jars run with the launcher's heap and GC flags, without the AOT
# cache (it belongs to one jar). Needs wrk, nginx, curl, python3 and a JDK 21+.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
[ $# -eq 2 ] && [ -f "$1" ] && [ -f "$2" ] || { echo "usage: bench/ab.sh OLD.jar NEW.jar" >&2; exit 2; }
jars=("$1" "$2")
read -r -a old_opts <<<"${OLD_OPTS:-}"
read -r -a new_opts <<<"${NEW_OPTS:-}"
read -r -a old_env <<<"${OLD_ENV:-}"
read -r -a new_env <<<"${NEW_ENV:-}"
TOOL="${TOOL:-query_logs}"
CONNECTIONS="${CONNECTIONS:-32}"
ROUNDS="${ROUNDS:-3}"
BLOCKS="${BLOCKS:-3}"
DURATION="${DURATION:-8s}"
require_commands wrk nginx curl python3
call_body "$TOOL" >/dev/null
java="${JAVA_HOME:-/usr}/bin/java"
[ -x "$java" ] || java=java
# The launcher's memory and compiler flags (keep in step with ./omcp).
flags=(-XX:+UseSerialGC -Xms16m -Xmx256m -XX:MaxMetaspaceSize=128m -XX:ReservedCodeCacheSize=48m -Xss512k
       -XX:TieredStopAtLevel=4 -Dfile.encoding=UTF-8 --sun-misc-unsafe-memory-access=allow)

work="$(mktemp -d /tmp/omcp-bench-ab.XXXXXX)"
chmod 755 "$work"   # nginx workers run as an unprivileged user when started by root
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do stop "$pid"; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

python3 "$root/bench/canned.py" "$work/canned"
backend=$(free_port)
start_nginx "$root/bench/nginx.conf.template" "$work/nginx" "$backend"
body="$(call_body "$TOOL")"
: >"$work/runs"

# run LABEL PORT SESSION PID DURATION [CONNECTIONS]: one wrk run; prints calls/s, p50 and the gateway's CPU per call
run() {
  local line c0 c1 requests c="${6:-$CONNECTIONS}"
  python3 "$root/bench/canned.py" "$work/canned"
  c0=$(awk '{print $14 + $15}' "/proc/$4/stat")
  line=$(OMCP_SESSION="$3" OMCP_BODY="$body" wrk -t"$(threads_for "$c")" -c"$c" -d"$5" --latency \
    -s "$root/bench/mcp-post.lua" "http://127.0.0.1:$2/mcp" | grep '^BENCH' || true)
  bench_ok "$line"
  c1=$(awk '{print $14 + $15}' "/proc/$4/stat")
  requests=$(field "$line" requests)
  printf '%s\t%s\t%s\t%s\n' "$1" "$(field "$line" rps)" "$(field "$line" p50_ms)" \
    "$(python3 -c "print('%.3f' % (($c1 - $c0) * 1000.0 / $(getconf CLK_TCK) / max(1, $requests)))")"
}

echo "# bench/ab.sh $(date -u +%Y-%m-%dT%H:%M:%SZ): $TOOL at $CONNECTIONS connections, $BLOCKS blocks of $ROUNDS rounds of $DURATION"
echo "# old: $1"
echo "# new: $2"
[ -n "${OLD_OPTS:-}${NEW_OPTS:-}" ] && echo "# old flags: ${OLD_OPTS:-none}; new flags: ${NEW_OPTS:-none}"
[ -n "${OLD_ENV:-}${NEW_ENV:-}" ] && echo "# old environment: ${OLD_ENV:-none}; new environment: ${NEW_ENV:-none}"
for block in $(seq 1 "$BLOCKS"); do
  ports=() sessions=() gpids=()
  for i in 0 1; do
    ports[i]=$(free_port)
    if [ "$i" -eq 0 ]; then extra=("${old_opts[@]}") side_env=("${old_env[@]}"); else extra=("${new_opts[@]}") side_env=("${new_env[@]}"); fi
    env "${side_env[@]}" PORT="${ports[i]}" OMCP_ALLOW_PRIVATE_BACKENDS=true PROMETHEUS_URL="http://127.0.0.1:$backend" \
      LOKI_URL="http://127.0.0.1:$backend" "$java" "${flags[@]}" "${extra[@]}" -jar "${jars[i]}" serve >"$work/gateway-$block-$i.log" 2>&1 &
    gpids[i]=$!
    pids+=("${gpids[i]}")
    await_gateway "${ports[i]}" "${gpids[i]}"
    sessions[i]=$(initialize "${ports[i]}")
    # at 8 connections: a cold JIT on a slow machine of this kind answered 32 at once past wrk's 2 s timeout
    run warm-up "${ports[i]}" "${sessions[i]}" "${gpids[i]}" 20s 8 >/dev/null
    # then at the measured connection count too (a path taken only at one count, such as a request
    # alone, would otherwise be compiled during the measured runs), until its JIT is quiet (as
    # bench/tools.sh does): compiler threads under 2 % of a core for 5 s
    run warm-up "${ports[i]}" "${sessions[i]}" "${gpids[i]}" 10s >/dev/null
    for _ in $(seq 1 "${SETTLE_ROUNDS:-8}"); do
      jit0=$(jit_cpu_ms "${gpids[i]}")
      run warm-up "${ports[i]}" "${sessions[i]}" "${gpids[i]}" 5s >/dev/null
      [ $(( $(jit_cpu_ms "${gpids[i]}") - jit0 )) -lt 100 ] && break
    done
  done
  for round in $(seq 1 "$ROUNDS"); do
    order="0 1"
    [ $(((block + round) % 2)) -eq 1 ] && order="1 0"
    for i in $order; do
      label=old
      [ "$i" -eq 1 ] && label=new
      run "$label" "${ports[i]}" "${sessions[i]}" "${gpids[i]}" "$DURATION" | tee -a "$work/runs"
    done
  done
  stop "${gpids[0]}"
  stop "${gpids[1]}"
done
python3 - "$work/runs" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    label, rps, p50, cpu = line.split('\t')
    runs.setdefault(label, []).append((float(rps), float(p50), float(cpu)))
for label in ('old', 'new'):
    r = runs.get(label, [])
    if r:
        print('%s median of %d runs: %.0f calls/s, p50 %.3f ms, CPU %.3f ms per call'
              % (label, len(r), statistics.median(x[0] for x in r), statistics.median(x[1] for x in r),
                 statistics.median(x[2] for x in r)))
EOF
