-- wrk script: POST one JSON-RPC message to /mcp inside an MCP session.
-- Environment: OMCP_SESSION (session id), OMCP_BODY (the JSON-RPC message), OMCP_CHECK=1 to check
-- every answer.
--
-- With OMCP_CHECK=1 an answer counts as bad when its status is not 200, it is a JSON-RPC error, or
-- it is a tool result with isError or partial: a benchmark of failures measures nothing. The
-- scripts run their warm-up this way and fail on any bad answer. The measured run does not check
-- bodies: handing every body to Lua costs wrk about as much CPU as the gateway spends on a cached
-- answer, on the same two cores (tools/list fell from 17,000 to 5,000 requests/s with it); it
-- still counts statuses of 400 and above (non200) and socket errors.
wrk.method = "POST"
wrk.body = os.getenv("OMCP_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["Mcp-Session-Id"] = os.getenv("OMCP_SESSION")
wrk.headers["Mcp-Protocol-Version"] = "2025-11-25"

local checking = os.getenv("OMCP_CHECK") == "1"
local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  non200, rpcErrors, toolErrors, partials = 0, 0, 0, 0
  firstBad = ""
end

local function bad(status, body)
  if firstBad == "" then
    firstBad = "status " .. status .. ": " .. string.sub(body, 1, 300) .. " ... " .. string.sub(body, -600)
  end
end

-- The serialised answer starts with jsonrpc and id; a JSON-RPC error has "error" right after them.
-- isError and partial are matched in the result object and structuredContent (content[0].text holds
-- the same JSON with escaped quotes, which these plain searches do not match).
if checking then
  response = function(status, headers, body)
    if status ~= 200 then
      non200 = non200 + 1
      bad(status, body)
    elseif string.find(body, '^{"jsonrpc":"2.0","id":[^,]*,"error"') then
      rpcErrors = rpcErrors + 1
      bad(status, body)
    elseif string.find(body, '"isError":true', 1, true) then
      toolErrors = toolErrors + 1
      bad(status, body)
    elseif string.find(body, '"partial":true', 1, true) then
      partials = partials + 1
      bad(status, body)
    end
  end
end

done = function(summary, latency, requests)
  local n, r, t, p = 0, 0, 0, 0
  for _, thread in ipairs(threads) do
    n = n + thread:get("non200")
    r = r + thread:get("rpcErrors")
    t = t + thread:get("toolErrors")
    p = p + thread:get("partials")
    local first = thread:get("firstBad")
    if first ~= nil and first ~= "" then
      io.write("FIRST_BAD_ANSWER " .. first .. "\n")
    end
  end
  if not checking then
    n = summary.errors.status
  end
  io.write(string.format("BENCH requests=%d duration_s=%.2f rps=%.0f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f non200=%d rpc_errors=%d tool_errors=%d partial=%d socket_errors=%d checked=%s\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    n, r, t, p,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    checking and "all" or "status"))
end
