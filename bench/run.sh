#!/usr/bin/env bash
# Transport benchmarks of the OMCP gateway on loopback (issue 2), bounded in time (about 2 minutes).
#   bench/run.sh                 all scenarios
#   DURATION=30s bench/run.sh    longer measurement windows
#   GZIP=1 bench/run.sh          clients that send Accept-Encoding: gzip (most HTTP client libraries do)
# Needs: wrk (Debian package), curl, python3, a JDK 21+; builds the jar through ./omcp when needed.
# The load generator shares the machine with the gateway, as the targets in docs/benchmarks.md assume.
# Every answer of each warm-up run is checked (bench/mcp-post.lua); the measured runs count statuses.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
DURATION="${DURATION:-15s}"
WARMUP="${WARMUP:-10s}"
STARTS="${STARTS:-5}"
command -v wrk >/dev/null || { echo "bench: wrk is missing (apt-get install wrk)" >&2; exit 1; }

"$root/omcp" --version >/dev/null   # builds the jar and the start-up cache when stale

pid=""
# the gateways' logs, removed at the end like every other file a benchmark makes
logs="$(mktemp -d /tmp/omcp-bench-run.XXXXXX)"
trap 'stop "$pid"; rm -rf "$logs"' EXIT
trap 'exit 130' INT TERM

echo "# bench/run.sh $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "## Start-up: process start to first successful initialize ($STARTS runs)"
for i in $(seq 1 "$STARTS"); do
  port=$(free_port)
  t0=$(date +%s%N)
  PORT="$port" "$root/omcp" serve >"$logs/start.log" 2>&1 &
  pid=$!
  until [ -n "$(initialize "$port" 2>/dev/null)" ]; do
    kill -0 "$pid" 2>/dev/null || { echo "bench: the gateway exited during start-up" >&2; exit 1; }
    sleep 0.005
  done
  t1=$(date +%s%N)
  echo "start_ms=$(( (t1 - t0) / 1000000 ))"
  stop "$pid"
done

port=$(free_port)
PORT="$port" "$root/omcp" serve >"$logs/gateway.log" 2>&1 &
pid=$!
await_gateway "$port" "$pid"
session=$(initialize "$port")
sleep 2
echo "## Memory: idle RSS after start: $(rss_mb "$pid") MB"

extra=()
[ -n "${GZIP:-}" ] && extra=(-H 'Accept-Encoding: gzip')
run() { # name connections threads body
  local line
  line=$(wrk_line "$(OMCP_CHECK=1 OMCP_SESSION="$session" OMCP_BODY="$4" wrk -t"$3" -c"$2" -d"$WARMUP" "${extra[@]}" \
    -s "$root/bench/mcp-post.lua" "http://127.0.0.1:$port/mcp")")
  bench_ok "$line" || { echo "bench: the warm-up of $1 had bad answers" >&2; exit 1; }
  line=$(OMCP_SESSION="$session" OMCP_BODY="$4" wrk -t"$3" -c"$2" -d"$DURATION" --latency "${extra[@]}" \
    -s "$root/bench/mcp-post.lua" "http://127.0.0.1:$port/mcp" | grep '^BENCH' || true)
  echo "$1 connections=$2 (load average $(cut -d' ' -f1 /proc/loadavg)): $line"
  bench_ok "$line"
}

echo "## Throughput and latency${GZIP:+ (Accept-Encoding: gzip)}"
run "ping" 1 1 '{"jsonrpc":"2.0","id":1,"method":"ping"}'
run "tools/list" 1 1 '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
run "tools/list" 32 2 '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
echo "## Memory: peak RSS (VmHWM) under load: $(hwm_mb "$pid") MB; RSS now: $(rss_mb "$pid") MB"
sleep 5
echo "## Memory: RSS 5 s after the load: $(rss_mb "$pid") MB"
