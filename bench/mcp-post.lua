-- wrk script: POST one JSON-RPC message to /mcp inside an MCP session.
-- Environment: OMCP_SESSION (session id), OMCP_BODY (the JSON-RPC message).
wrk.method = "POST"
wrk.body = os.getenv("OMCP_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["Mcp-Session-Id"] = os.getenv("OMCP_SESSION")
wrk.headers["Mcp-Protocol-Version"] = "2025-11-25"

local errors = 0
response = function(status, headers, body)
  if status ~= 200 then
    errors = errors + 1
  end
end

done = function(summary, latency, requests)
  io.write(string.format("BENCH requests=%d duration_s=%.2f rps=%.0f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f non200=%d socket_errors=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
