#!/usr/bin/env bash
# Transport benchmarks of the OMCP gateway on loopback, bounded in time.
#   bench/run.sh                 all scenarios (about 2 minutes)
#   DURATION=30s bench/run.sh    longer measurement windows
# Needs: wrk (Debian package), curl, a JDK 21+; builds the jar through ./omcp when needed.
# The load generator shares the machine with the gateway, as the targets in docs/benchmarks.md assume.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
DURATION="${DURATION:-15s}"
WARMUP="${WARMUP:-10s}"
STARTS="${STARTS:-5}"
command -v wrk >/dev/null || { echo "bench: wrk is missing (apt-get install wrk)" >&2; exit 1; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}'

"$root/omcp" --version >/dev/null   # builds the jar and the start-up cache when stale

start_gateway() {
  PORT="$1" "$root/omcp" serve >"$2" 2>&1 &
  echo $!
}

initialize() {
  curl -s -D - -o /dev/null -X POST "http://127.0.0.1:$1/mcp" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' -d "$INIT" | tr -d '\r' | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: //p'
}

rss_mb() { awk '/VmRSS/ {printf "%.0f", $2/1024}' "/proc/$1/status"; }
hwm_mb() { awk '/VmHWM/ {printf "%.0f", $2/1024}' "/proc/$1/status"; }

echo "## Start-up: process start to first successful initialize ($STARTS runs)"
for i in $(seq 1 "$STARTS"); do
  port=$(free_port)
  t0=$(date +%s%N)
  pid=$(start_gateway "$port" /tmp/omcp-bench-start.log)
  until [ -n "$(initialize "$port" 2>/dev/null)" ]; do sleep 0.005; done
  t1=$(date +%s%N)
  echo "start_ms=$(( (t1 - t0) / 1000000 ))"
  kill "$pid"; wait "$pid" 2>/dev/null || true
done

port=$(free_port)
pid=$(start_gateway "$port" /tmp/omcp-bench.log)
until [ -n "$(initialize "$port" 2>/dev/null)" ]; do sleep 0.05; done
session=$(initialize "$port")
sleep 2
echo "## Memory: idle RSS after start: $(rss_mb "$pid") MB"

run() { # name connections threads body
  OMCP_SESSION="$session" OMCP_BODY="$4" wrk -t"$3" -c"$2" -d"$WARMUP" -s "$root/bench/mcp-post.lua" "http://127.0.0.1:$port/mcp" >/dev/null
  echo -n "$1 connections=$2: "
  OMCP_SESSION="$session" OMCP_BODY="$4" wrk -t"$3" -c"$2" -d"$DURATION" --latency -s "$root/bench/mcp-post.lua" "http://127.0.0.1:$port/mcp" | grep '^BENCH'
}

echo "## Throughput and latency"
run "ping" 1 1 '{"jsonrpc":"2.0","id":1,"method":"ping"}'
run "tools/list" 1 1 '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
run "tools/list" 32 2 '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
echo "## Memory: peak RSS (VmHWM) under load: $(hwm_mb "$pid") MB; RSS now: $(rss_mb "$pid") MB"
sleep 5
echo "## Memory: RSS 5 s after the load: $(rss_mb "$pid") MB"
kill "$pid"; wait "$pid" 2>/dev/null || true
