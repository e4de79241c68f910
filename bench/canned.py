#!/usr/bin/env python3
"""Writes the time-dependent canned backend answers for bench/tools.sh into OUT_DIR.

  bench/canned.py OUT_DIR

The static answers (label values, targets, build info) live in bench/canned/ and are copied as
they are. The range answers are generated here because their timestamps must end *now*: the
tools judge the last minutes of a window ending at the call, so an answer from yesterday would
leave get_service_health with no recent value (status unknown) and skip the work being measured.
tools.sh calls this again before every measurement, so the data never lags more than one run.

Shapes, so every tool does its real work:
- prom-query-range.json: one series (what `sum by ()` returns) of 151 points, 75 minutes at a
  30 s step (get_service_health's default 15m window plus its 1h baseline). The value hovers
  around 0.02 with seeded noise and steps up to about 0.035 six minutes before the end, so the
  anomaly detector finds a level shift and the health evaluator has drivers to report. The same
  answer serves every curated metric (nginx cannot route on a POSTed form), which reads as a 2%
  error rate, 20 ms p99, 2% CPU and memory: all plausible.
- loki-query-range.json: 50 lines (query_logs' default limit) in two streams, newest first, within
  the last 15 minutes: access-log, JSON and logfmt lines with trace ids, UUIDs and durations (which
  must survive redaction), and planted client IPs, emails, a bearer token, a JWT, a password and a
  card number (which must not).
"""
import json
import os
import random
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
POINTS = 151
STEP_S = 30
LINES = 50


def atomic_write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)  # nginx may be serving the old file: it never sees half a file


def prometheus_range(now, rnd):
    last = now - now % STEP_S
    values = []
    for i in range(POINTS):
        t = last - (POINTS - 1 - i) * STEP_S
        level = 0.035 if t > last - 6 * 60 else 0.02
        values.append([t, "%.6f" % (level * (1 + rnd.gauss(0, 0.04)))])
    return {"status": "success", "data": {"resultType": "matrix", "result": [{"metric": {}, "values": values}]}}


def log_line(i, rnd, ts):
    trace = "%032x" % rnd.getrandbits(128)
    dur = "%.1f" % rnd.uniform(2, 400)
    iso = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts)) + "Z"
    if i % 10 == 3:
        return '198.51.100.%d - - [%s] "GET /api/cart HTTP/1.1" 200 512 "-" "Mozilla/5.0" rt=%s trace_id=%s' % (
            rnd.randint(1, 254), iso, dur, trace)
    if i % 10 == 7:
        return json.dumps({"ts": iso, "level": "warn", "service": "checkout",
                           "msg": "slow payment call for customer%d@example.com from 203.0.113.%d" % (i, rnd.randint(1, 254)),
                           "duration_ms": dur, "trace_id": trace})
    if i == 11:
        return 'level=error msg="upstream refused" auth="Bearer sk_live_%s" trace_id=%s' % ("%024x" % rnd.getrandbits(96), trace)
    if i == 23:
        return 'level=error msg="token rejected" jwt=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.%s trace_id=%s' % (
            "%043x" % rnd.getrandbits(172), trace)
    if i == 31:
        return 'level=error msg="db login failed" password=Hunter2-%d user=app trace_id=%s' % (rnd.randint(100, 999), trace)
    if i == 41:
        return json.dumps({"ts": iso, "level": "error", "service": "checkout", "msg": "card declined 4111 1111 1111 1111",
                           "order_id": "%08x-%04x-4%03x-a%03x-%012x" % (rnd.getrandbits(32), rnd.getrandbits(16),
                                                                        rnd.getrandbits(12), rnd.getrandbits(12),
                                                                        rnd.getrandbits(48)),
                           "trace_id": trace})
    level = "error" if i % 9 == 0 else "info"
    return json.dumps({"ts": iso, "level": level, "service": "checkout", "msg": "request handled", "route": "/api/cart",
                       "status": "500" if level == "error" else "200", "duration_ms": dur, "trace_id": trace})


def loki_range(now, rnd):
    streams = {0: [], 1: []}
    for i in range(LINES):
        ts = now - i * 15  # newest first, 15 s apart: all within the last 15 minutes
        nanos = "%d%09d" % (ts, rnd.randint(0, 999_999_999))
        streams[i % 2].append([nanos, log_line(i, rnd, ts)])
    result = [{"stream": {"service_name": "checkout", "namespace": "shop", "pod": "checkout-%d" % k}, "values": v}
              for k, v in streams.items()]
    return {"status": "success", "data": {"resultType": "streams", "result": result,
                                          "stats": {"summary": {"totalLinesProcessed": 4096}}}}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: canned.py OUT_DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(os.path.join(HERE, "canned")):
        if not os.path.exists(os.path.join(out, name)):
            shutil.copyfile(os.path.join(HERE, "canned", name), os.path.join(out, name))
    now = int(time.time())
    rnd = random.Random(42)  # the same shapes every run; only the timestamps move
    atomic_write(os.path.join(out, "prom-query-range.json"), json.dumps(prometheus_range(now, rnd), separators=(",", ":")))
    atomic_write(os.path.join(out, "loki-query-range.json"), json.dumps(loki_range(now, rnd), separators=(",", ":")))


if __name__ == "__main__":
    main()
