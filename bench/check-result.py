#!/usr/bin/env python3
"""Checks one tools/call answer saved by bench/tools.sh and prints what it says, so a benchmark
never measures error results.

  bench/check-result.py TOOL FILE [--planted-secrets]

Fails (exit 1) on a JSON-RPC error, an isError result, partial: true, or a result that did not do
the tool's real work: no services, no series, no log lines, no scored health signal. With
--planted-secrets (the canned Loki lines) it also fails when a planted secret survived redaction or
nothing was redacted.
"""
import json
import sys

PLANTED = ["@example.com", "sk_live_", "Hunter2-", "4111 1111 1111 1111", "eyJhbGciOiJIUzI1NiJ9", "203.0.113.", "198.51.100."]


def fail(message):
    print("check: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    tool, path = sys.argv[1], sys.argv[2]
    planted = "--planted-secrets" in sys.argv[3:]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        answer = json.loads(text)
    except ValueError:
        fail("%s answered something that is not JSON: %s" % (tool, text[:300]))
    if "error" in answer:
        fail("%s answered a JSON-RPC error: %s" % (tool, json.dumps(answer["error"])[:300]))
    result = answer["result"]
    if result.get("isError"):
        fail("%s answered an error result: %s" % (tool, result["content"][0]["text"][:300]))
    data = result["structuredContent"]
    if json.loads(result["content"][0]["text"]) != data:
        fail("%s: content[0].text differs from structuredContent" % tool)
    if data.get("partial"):
        fail("%s answered partial: %s" % (tool, json.dumps(data.get("failedSources"))[:300]))
    size = len(text.encode("utf-8"))
    if tool == "list_services":
        if not data["services"]:
            fail("list_services found no service")
        said = "%d services from %s" % (data["total"], ", ".join(data["sources"]))
    elif tool == "query_metrics":
        if not data["series"] or data["series"][0]["points"] < 100:
            fail("query_metrics returned no series or too few points: %s" % json.dumps(data)[:300])
        s = data["series"][0]
        said = "%d series, %d points, avg %.4g, last %.4g, label %s" % (data["totalSeries"], s["points"], s["avg"], s["last"],
                                                                       data["resolvedLabel"])
    elif tool == "query_logs":
        if not data.get("lines"):
            fail("query_logs returned no lines: %s" % json.dumps(data)[:300])
        redaction = data["redaction"]
        said = "%d lines, redaction %s" % (data["returned"], json.dumps(redaction, separators=(",", ":")))
        if planted:
            shown = json.dumps(data)
            leaked = [p for p in PLANTED if p in shown]
            if leaked:
                fail("query_logs leaked planted secrets: %s" % leaked)
            if not redaction.get("applied") or not redaction.get("total"):
                fail("query_logs redacted nothing: %s" % json.dumps(redaction))
    elif tool == "get_service_health":
        if data["status"] == "unknown" or not data["signals"]:
            fail("get_service_health scored no signal: %s" % json.dumps(data)[:400])
        said = "status %s, score %s, %d signals, %d missing, %d drivers, %d anomalies" % (
            data["status"], data.get("score"), len(data["signals"]), len(data["missing"]), len(data["drivers"]),
            len(data["anomalies"]))
    else:
        said = "ok"
    print("%s: %s (answer %d bytes)" % (tool, said, size))


if __name__ == "__main__":
    main()
