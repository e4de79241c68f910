# Shared functions of the benchmark scripts (sourced, not run).

# require_commands NAME...: exits with a message naming the first command that is not installed
require_commands() {
  local name
  for name in "$@"; do
    command -v "$name" >/dev/null || { echo "bench: $name is missing" >&2; exit 1; }
  done
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}'

# initialize PORT: prints the new session id (empty when the gateway does not answer yet)
initialize() {
  curl -s --max-time 5 -D - -o /dev/null -X POST "http://127.0.0.1:$1/mcp" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' -d "$INIT" | tr -d '\r' | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: //p'
}

# await_gateway PORT PID: waits (at most 60 s) until initialize succeeds; fails when the process died
await_gateway() {
  local i
  for i in $(seq 1 1200); do
    [ -n "$(initialize "$1" 2>/dev/null)" ] && return 0
    kill -0 "$2" 2>/dev/null || { echo "bench: the gateway exited during start-up" >&2; return 1; }
    sleep 0.05
  done
  echo "bench: the gateway did not answer initialize within 60 s" >&2
  return 1
}

# mcp PORT SESSION BODY: one JSON-RPC message, the answer on stdout
mcp() {
  curl -s --max-time 30 -X POST "http://127.0.0.1:$1/mcp" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' -H "Mcp-Session-Id: $2" -H 'Mcp-Protocol-Version: 2025-11-25' -d "$3"
}

# jit_cpu_ms PID: CPU time the JVM's JIT compiler threads (C1, C2) have used so far, in ms. Read
# from /proc, so it works whichever JDK runs the gateway. On a slow machine of this kind the JIT
# needs minutes, not seconds, to compile a tool call's whole path (docs/benchmarks.md, "Warm-up
# until the JIT is quiet"), and a row measured while it still compiles measures the compiler too.
jit_cpu_ms() {
  local task total=0 ticks
  for task in /proc/"$1"/task/*; do
    case "$(cat "$task/comm" 2>/dev/null)" in
      C1\ CompilerThre*|C2\ CompilerThre*)
        ticks=$(awk '{print $14 + $15}' "$task/stat" 2>/dev/null || echo 0)
        total=$((total + ticks)) ;;
    esac
  done
  echo $((total * 1000 / $(getconf CLK_TCK)))
}

rss_mb() { awk '/VmRSS/ {printf "%.0f", $2/1024}' "/proc/$1/status"; }
hwm_mb() { awk '/VmHWM/ {printf "%.0f", $2/1024}' "/proc/$1/status"; }

# stop PID: SIGTERM, then waits for it (it is a child of this shell)
stop() {
  [ -n "${1:-}" ] || return 0
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

# bench_ok LINE: fails when a BENCH line counts a bad answer or a socket error
bench_ok() {
  case "$1" in
    BENCH*) ;;
    *) echo "bench: wrk printed no result" >&2; return 1 ;;
  esac
  local field
  for field in non200 bad_status rpc_errors tool_errors partial socket_errors; do
    if [[ "$1" =~ (^| )$field=([0-9]+) ]] && [ "${BASH_REMATCH[2]}" != 0 ]; then
      echo "bench: $field=${BASH_REMATCH[2]} in: $1" >&2
      return 1
    fi
  done
}

# field LINE NAME: the value of NAME=... in a BENCH line
field() { [[ "$1" =~ (^| )$2=([^ ]+) ]] && echo "${BASH_REMATCH[2]}"; }

# wrk_line OUTPUT: the BENCH line of a wrk run's output; the bad answers it quotes go to stderr
wrk_line() {
  grep '^FIRST_BAD_ANSWER' <<<"$1" | head -3 | cut -c1-1200 >&2 || true
  grep '^BENCH' <<<"$1" || true
}

# The tool calls the tool benchmarks send (bench/tools.sh, bench/ab.sh)
args_of() {
  case "$1" in
    list_services) echo '{}' ;;
    query_metrics) echo '{"service":"checkout","metric":"latency_p99"}' ;;
    query_logs) echo '{"service":"checkout"}' ;;
    get_service_health) echo '{"service":"checkout"}' ;;
    *) echo "bench: unknown tool $1" >&2; return 1 ;;
  esac
}
call_body() { printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"%s","arguments":%s}}' "$1" "$(args_of "$1")"; }
threads_for() { [ "$1" -ge 2 ] && echo 2 || echo 1; }

# start_nginx CONFIG_TEMPLATE PREFIX PORT UPSTREAM: renders and starts one nginx, waits until it answers
start_nginx() {
  mkdir -p "$2"
  sed -e "s#PREFIX#$2#g" -e "s#CANNED#$work/canned#g" -e "s#UPSTREAM#${4:-0}#g" -e "s#PORT#$3#g" "$1" >"$2/nginx.conf"
  nginx -p "$2" -c "$2/nginx.conf" -e "$2/error.log" &
  pids+=($!)
  local i
  for i in $(seq 1 100); do
    curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$3/" && return 0
    sleep 0.05
  done
  echo "bench: nginx on port $3 did not start: $(cat "$2/error.log")" >&2
  return 1
}
