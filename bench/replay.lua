-- wrk script: replays backend requests recorded from the gateway (bench/tools.sh), round robin,
-- straight to the backend, so the gateway's own overhead can be read off next to its tool calls.
-- Environment: OMCP_REPLAY, a file of "METHOD<TAB>URI<TAB>BODY" lines (BODY form-encoded or empty).
-- Bodies are not handed to Lua (that would cost wrk more than nginx spends answering); statuses of
-- 400 and above and socket errors are counted.
local requests = {}
local cursor = 1

function init(args)
  for line in io.lines(os.getenv("OMCP_REPLAY")) do
    local method, uri, body = string.match(line, "^([^\t]+)\t([^\t]+)\t?(.*)$")
    local headers = { ["Accept"] = "application/json" }
    if body == "" then
      body = nil
    else
      headers["Content-Type"] = "application/x-www-form-urlencoded"
    end
    table.insert(requests, wrk.format(method, uri, headers, body))
  end
  if #requests == 0 then
    error("no recorded requests in " .. os.getenv("OMCP_REPLAY"))
  end
end

function request()
  local r = requests[cursor]
  cursor = cursor % #requests + 1
  return r
end

done = function(summary, latency, requests)
  local n = summary.errors.status
  io.write(string.format("BENCH requests=%d duration_s=%.2f rps=%.0f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f bad_status=%d socket_errors=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, n,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
