#!/usr/bin/env bash
# tools/call benchmarks of the OMCP gateway on loopback (issue 4), bounded in time (about 15 minutes with the defaults).
#
#   bench/tools.sh                          canned backend (nginx) and the real Prometheus
#   PROMETHEUS=off bench/tools.sh           canned backend only (about 8 minutes)
#   TOOLS="get_service_health" CONNECTIONS="1 32" DURATION=20s bench/tools.sh
#   JIT_QUIET_PERCENT=2 SETTLE_ROUNDS=12    the warm-up goes on until the JIT is quiet (see below)
#
# For each tool (list_services, query_metrics, query_logs, get_service_health) and each number of
# connections it measures, with wrk:
#   gateway  tools/call through /mcp; every answer of the warm-up run is checked (no JSON-RPC error,
#            no isError, no partial: the script fails otherwise), the measured run counts bad statuses
#   direct   the very backend requests that tool sends, replayed straight to the backend, round robin
#   request  each of those requests alone at 1 connection (the slowest bounds a parallel fan-out)
#   fanout   for a tool sending several, all of them at once, batch after batch (bench/FanOutReplay.java):
#            the same fan-out without the gateway, where the requests share the backend's cores
# The backend requests are recorded first: the gateway is pointed for one call of each tool at an
# nginx proxy that logs method, URI and POSTed form (bench/recorder.conf.template).
#
# Backends:
#   canned      static answers served by nginx (bench/nginx.conf.template, bench/canned/ and the
#               range answers bench/canned.py regenerates before every run so their data ends now)
#   prometheus  the Debian prometheus on a promtool-backfilled TSDB (bench/PrometheusBackend.java,
#               the test kit's PrometheusFixture), a fresh one per tool so its data ends near now;
#               logs tools are not run against it
# Needs: wrk, nginx, curl, python3, a JDK 21+ (25 for the AOT cache), and for the second part the
# Debian prometheus package. The load generator, the backend and the gateway share the machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
DURATION="${DURATION:-10s}"
WARMUP="${WARMUP:-5s}"
WARMUP_ALL="${WARMUP_ALL:-15s}"
JIT_QUIET_PERCENT="${JIT_QUIET_PERCENT:-2}"
SETTLE_ROUNDS="${SETTLE_ROUNDS:-12}"
CONNECTIONS="${CONNECTIONS:-1 8 32}"
TOOLS="${TOOLS:-list_services query_metrics query_logs get_service_health}"
PROMETHEUS="${PROMETHEUS:-on}"
require_commands wrk nginx curl python3
if [ "$PROMETHEUS" != off ]; then
  for tool in prometheus promtool; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install prometheus, or PROMETHEUS=off)" >&2; exit 1; }
  done
fi

"$root/omcp" --version >/dev/null   # builds the jar and the start-up cache when stale
jar="$root/omcp-app/target/omcp.jar"
java="${JAVA_HOME:-/usr}/bin/java"
[ -x "$java" ] || java=java
# bench/FanOutReplay.java and bench/PrometheusBackend.java need a JDK 21+; without JAVA_HOME the
# java on the PATH may be older than the one ./omcp picks, and would fail halfway through the run.
java_version=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | cut -d. -f1)
[ "${java_version:-0}" -ge 21 ] || { echo "bench: $java is Java ${java_version:-unknown}; set JAVA_HOME to a JDK 21+" >&2; exit 2; }

work="$(mktemp -d /tmp/omcp-bench-tools.XXXXXX)"
chmod 755 "$work"   # nginx workers run as an unprivileged user when started by root
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do stop "$pid"; done
  [ -n "${KEEP:-}" ] && echo "bench: files kept in $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
results="$work/results.tsv"   # backend, tool, kind, connections, rps, p50, p99
: >"$results"

# start_gateway PORT LOG ENV...: starts ./omcp serve with the given environment; sets gateway_pid
start_gateway() {
  local port="$1" log="$2"
  shift 2
  env PORT="$port" OMCP_ALLOW_PRIVATE_BACKENDS=true "$@" "$root/omcp" serve >"$log" 2>&1 &
  gateway_pid=$!
  pids+=("$gateway_pid")
  await_gateway "$port" "$gateway_pid"
}

# record BACKEND PORT SESSION RECORDER_DIR TOOL: one call to warm the caches (label values), a second
# one whose backend requests are kept as $work/replay/BACKEND-TOOL.tsv, and whose answer is checked
record() {
  local backend="$1" port="$2" session="$3" dir="$4" tool="$5" before after out="$work/answers/$1-$5.json"
  mkdir -p "$work/replay" "$work/answers"
  [ "$backend" = canned ] && python3 "$root/bench/canned.py" "$work/canned"
  mcp "$port" "$session" "$(call_body "$tool")" >/dev/null
  sleep 0.2
  before=$(wc -l <"$dir/recorded.log")
  mcp "$port" "$session" "$(call_body "$tool")" >"$out"
  sleep 0.2
  after=$(wc -l <"$dir/recorded.log")
  sed -n "$((before + 1)),${after}p" "$dir/recorded.log" | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print("%s\t%s\t%s" % (r["method"], r["uri"], r["body"]))' >"$work/replay/$backend-$tool.tsv"
  local planted="" checked
  [ "$backend" = canned ] && planted=--planted-secrets
  checked=$(python3 "$root/bench/check-result.py" "$tool" "$out" $planted)
  echo "  $backend $checked; backend requests per call: $((after - before))"
  [ "$after" -gt "$before" ] || { echo "bench: $tool sent no backend request" >&2; return 1; }
}

# measure BACKEND KIND TOOL CONNECTIONS SCRIPT URL ENV...: a warm-up and a measured wrk run; for
# the gateway's rows the line also says how much CPU its JIT used during the measured run
measure() {
  local backend="$1" kind="$2" tool="$3" c="$4" script="$5" url="$6" line jit0=""
  shift 6
  local t
  t=$(threads_for "$c")
  [ "$backend" = canned ] && python3 "$root/bench/canned.py" "$work/canned"
  # the warm-up checks every answer (see bench/mcp-post.lua); the measured run only statuses
  line=$(wrk_line "$(env OMCP_CHECK=1 "$@" wrk -t"$t" -c"$c" -d"$WARMUP" -s "$script" "$url")")
  bench_ok "$line" || { echo "bench: the warm-up of $kind $tool c=$c had bad answers" >&2; return 1; }
  [ "$kind" = gateway ] && jit0=$(jit_cpu_ms "$gateway_pid")
  line=$(env "$@" wrk -t"$t" -c"$c" -d"$DURATION" --latency -s "$script" "$url" | grep '^BENCH' || true)
  [ -n "$jit0" ] && line="$line jit_cpu_ms=$(($(jit_cpu_ms "$gateway_pid") - jit0))"
  printf '  %-8s %-10s %-19s c=%-3s %s\n' "$backend" "$kind" "$tool" "$c" "$line"
  bench_ok "$line"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$backend" "$tool" "$kind" "$c" "$(field "$line" rps)" "$(field "$line" p50_ms)" \
    "$(field "$line" p99_ms)" >>"$results"
}

# fan_out BACKEND TOOL BACKEND_PORT: the tool's backend requests sent straight to the backend all at
# once, batch after batch (bench/FanOutReplay.java): what a parallel fan-out costs without the gateway
fan_out() {
  local backend="$1" tool="$2" port="$3" line
  [ "$backend" = canned ] && python3 "$root/bench/canned.py" "$work/canned"
  line=$("$java" "$root/bench/FanOutReplay.java" "http://127.0.0.1:$port" "$work/replay/$backend-$tool.tsv" \
    "${WARMUP%s}" "${DURATION%s}" | grep '^BENCH' || true)
  printf '  %-8s %-10s %-19s c=%-3s %s\n' "$backend" fanout "$tool" 1 "$line"
  bench_ok "$line"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$backend" "$tool" fanout 1 "$(field "$line" rps)" "$(field "$line" p50_ms)" \
    "$(field "$line" p99_ms)" >>"$results"
}

# settle_jit BACKEND PORT SESSION TOOLS: rounds of every tool, 5 s each at 8 connections, until the JIT's
# compiler threads used less than JIT_QUIET_PERCENT of one core during a round (at most SETTLE_ROUNDS
# rounds). A fixed warm-up was enough on a fast machine of this kind; on a slower one the JIT was
# still compiling a third of the time when the last tool's rows were measured.
settle_jit() {
  local backend="$1" port="$2" session="$3" tools="$4" round jit0 jit1 t0 t1 tool line share
  for round in $(seq 1 "$SETTLE_ROUNDS"); do
    jit0=$(jit_cpu_ms "$gateway_pid")
    t0=$(date +%s%N)
    for tool in $tools; do
      [ "$backend" = canned ] && python3 "$root/bench/canned.py" "$work/canned"
      line=$(wrk_line "$(OMCP_CHECK=1 OMCP_SESSION="$session" OMCP_BODY="$(call_body "$tool")" wrk -t2 -c8 -d5s \
        -s "$root/bench/mcp-post.lua" "http://127.0.0.1:$port/mcp")")
      bench_ok "$line" || { echo "bench: the JIT warm-up of $tool had bad answers" >&2; return 1; }
    done
    jit1=$(jit_cpu_ms "$gateway_pid")
    t1=$(date +%s%N)
    share=$(( (jit1 - jit0) * 100000000 / (t1 - t0) ))   # per cent of one core
    if [ "$share" -lt "$JIT_QUIET_PERCENT" ]; then
      echo "  JIT quiet after $round settling round(s): $((jit1 - jit0)) ms of compiler CPU in the last $(( (t1 - t0) / 1000000 )) ms (JIT total $(( jit1 / 1000 )) s)"
      return 0
    fi
  done
  echo "  JIT still compiling after $SETTLE_ROUNDS settling rounds: $((jit1 - jit0)) ms of compiler CPU in the last $(( (t1 - t0) / 1000000 )) ms (${share}% of a core); rows below include it"
}

# run_backend BACKEND BACKEND_PORT TOOLS: records, measures the gateway, then the direct requests
run_backend() {
  local backend="$1" backend_port="$2" tools="$3" rec_port gw_port session tool c n i
  local urls
  echo "## $backend: recording each tool's backend requests"
  rec_port=$(free_port)
  start_nginx "$root/bench/recorder.conf.template" "$work/nginx-rec-$backend" "$rec_port" "$backend_port"
  local rec_pid="${pids[-1]}"
  urls=(PROMETHEUS_URL="http://127.0.0.1:$rec_port")
  [ "$backend" = canned ] && urls+=(LOKI_URL="http://127.0.0.1:$rec_port")
  gw_port=$(free_port)
  start_gateway "$gw_port" "$work/gateway-rec-$backend.log" "${urls[@]}"
  session=$(initialize "$gw_port")
  for tool in $tools; do record "$backend" "$gw_port" "$session" "$work/nginx-rec-$backend" "$tool"; done
  stop "$gateway_pid"
  stop "$rec_pid"

  echo "## $backend: tools/call through the gateway (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  urls=(PROMETHEUS_URL="http://127.0.0.1:$backend_port")
  [ "$backend" = canned ] && urls+=(LOKI_URL="http://127.0.0.1:$backend_port")
  gw_port=$(free_port)
  start_gateway "$gw_port" "$work/gateway-$backend.log" "${urls[@]}"
  session=$(initialize "$gw_port")
  echo "  gateway idle RSS $(rss_mb "$gateway_pid") MB"
  # The JIT needs far more than one short warm-up to compile the whole path of a tool call (the
  # first 10 s of get_service_health ran at a third of its steady rate): every tool first runs for
  # WARMUP_ALL at 8 connections, every answer checked.
  local line
  for tool in $tools; do
    [ "$backend" = canned ] && python3 "$root/bench/canned.py" "$work/canned"
    line=$(wrk_line "$(OMCP_CHECK=1 OMCP_SESSION="$session" OMCP_BODY="$(call_body "$tool")" wrk -t2 -c8 -d"$WARMUP_ALL" \
      -s "$root/bench/mcp-post.lua" "http://127.0.0.1:$gw_port/mcp")")
    bench_ok "$line" || { echo "bench: the warm-up of $tool had bad answers" >&2; return 1; }
  done
  settle_jit "$backend" "$gw_port" "$session" "$tools"
  for tool in $tools; do
    for c in $CONNECTIONS; do
      measure "$backend" gateway "$tool" "$c" "$root/bench/mcp-post.lua" "http://127.0.0.1:$gw_port/mcp" \
        OMCP_SESSION="$session" OMCP_BODY="$(call_body "$tool")"
    done
  done
  echo "  gateway peak RSS (VmHWM) $(hwm_mb "$gateway_pid") MB, RSS now $(rss_mb "$gateway_pid") MB"
  if grep -E ' (WARN|ERROR) ' "$work/gateway-$backend.log" | head -5 | grep -q .; then
    echo "  gateway log warnings:"; grep -E ' (WARN|ERROR) ' "$work/gateway-$backend.log" | head -5 | sed 's/^/    /'
  fi
  stop "$gateway_pid"

  echo "## $backend: the same backend requests sent straight to the backend (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  for tool in $tools; do
    for c in $CONNECTIONS; do
      measure "$backend" direct "$tool" "$c" "$root/bench/replay.lua" "http://127.0.0.1:$backend_port" \
        OMCP_REPLAY="$work/replay/$backend-$tool.tsv"
    done
    n=$(wc -l <"$work/replay/$backend-$tool.tsv")
    if [ "$n" -gt 1 ]; then
      for i in $(seq 1 "$n"); do
        sed -n "${i}p" "$work/replay/$backend-$tool.tsv" >"$work/replay/$backend-$tool-$i.tsv"
        measure "$backend" "request$i" "$tool" 1 "$root/bench/replay.lua" "http://127.0.0.1:$backend_port" \
          OMCP_REPLAY="$work/replay/$backend-$tool-$i.tsv"
      done
      fan_out "$backend" "$tool" "$backend_port"
    fi
  done
}

echo "# bench/tools.sh $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# DURATION=$DURATION WARMUP=$WARMUP WARMUP_ALL=$WARMUP_ALL CONNECTIONS='$CONNECTIONS'"
python3 "$root/bench/canned.py" "$work/canned"
canned_port=$(free_port)
start_nginx "$root/bench/nginx.conf.template" "$work/nginx-canned" "$canned_port"
run_backend canned "$canned_port" "$TOOLS"
stop "${pids[0]}"

if [ "$PROMETHEUS" != off ]; then
  for tool in $TOOLS; do
    [ "$tool" = query_logs ] && continue   # no logs in Prometheus
    echo "## prometheus: starting a fresh Prometheus for $tool"
    mkfifo "$work/prometheus-$tool.in"
    "$java" -cp "$jar" "$root/bench/PrometheusBackend.java" 3 <"$work/prometheus-$tool.in" >"$work/prometheus-$tool.out" 2>&1 &
    pids+=($!)
    prom_pid=$!
    exec {prom_in}>"$work/prometheus-$tool.in"   # closing it ends the backend
    for i in $(seq 1 600); do
      grep -q '^PROMETHEUS_URL=' "$work/prometheus-$tool.out" && break
      kill -0 "$prom_pid" 2>/dev/null || { cat "$work/prometheus-$tool.out" >&2; exit 1; }
      sleep 0.1
    done
    prom_url=$(sed -n 's/^PROMETHEUS_URL=//p' "$work/prometheus-$tool.out")
    [ -n "$prom_url" ] || { echo "bench: Prometheus did not start within 60 s" >&2; exit 1; }
    run_backend prometheus "${prom_url##*:}" "$tool"
    exec {prom_in}>&-
    stop "$prom_pid"
  done
fi

echo
echo "## Summary (calls or requests per second, p50 and p99 in ms)"
python3 - "$results" <<'EOF'
import sys
from collections import defaultdict
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
data = defaultdict(dict)
for backend, tool, kind, c, rps, p50, p99 in rows:
    data[(backend, tool)][(kind, int(c))] = (float(rps), float(p50), float(p99))
print("| Backend | Tool | Conns | Gateway calls/s | p50 | p99 | Direct req/s | p50 | p99 | Slowest single request p50 | Gateway p50 - slowest | All requests at once, p50 | Gateway p50 - that |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for (backend, tool), m in data.items():
    singles = [v[1] for (kind, c), v in m.items() if kind.startswith("request")]
    for c in sorted({c for (kind, c) in m if kind == "gateway"}):
        g = m.get(("gateway", c))
        d = m.get(("direct", c))
        slowest = max(singles) if singles else (d[1] if d else None)
        cells = [backend, tool, str(c)]
        cells += ["%.0f" % g[0], "%.3f" % g[1], "%.3f" % g[2]] if g else ["-"] * 3
        cells += ["%.0f" % d[0], "%.3f" % d[1], "%.3f" % d[2]] if d else ["-"] * 3
        if c == 1 and g and slowest is not None:
            cells += ["%.3f" % slowest, "%+.3f" % (g[1] - slowest)]
        else:
            cells += ["", ""]
        f = m.get(("fanout", 1))
        if c == 1 and g and f:
            cells += ["%.3f" % f[1], "%+.3f" % (g[1] - f[1])]
        else:
            cells += ["", ""]
        print("| " + " | ".join(cells) + " |")
EOF
