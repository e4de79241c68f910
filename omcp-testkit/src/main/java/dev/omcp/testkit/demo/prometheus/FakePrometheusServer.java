package dev.omcp.testkit.demo.prometheus;

import dev.omcp.testkit.demo.json.JsonText;
import dev.omcp.testkit.demo.http.LoopbackHttpServer;
import dev.omcp.testkit.demo.http.PrometheusStyleApi;
import dev.omcp.testkit.demo.system.DemoPod;
import dev.omcp.testkit.demo.system.SimulatedSystem;
import dev.omcp.testkit.demo.system.StoredSeries;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The HTTP API of a Prometheus server over the simulated shop's history: instant and range queries
 * (a PromQL subset: selectors, ranges, offsets, the usual functions and aggregations, vector
 * matching), series, labels, label values, targets, metadata, build info and readiness. Errors use
 * Prometheus's {@code {status: "error", errorType, error}} shape.
 */
public final class FakePrometheusServer implements AutoCloseable {
    /** Prometheus refuses range queries with more points per series than this. */
    private static final long MAX_POINTS = 11_000;
    private static final String LABEL_API = "/api/v1/label/";

    private final SimulatedSystem system;
    private final PromQlEvaluator evaluator;
    private final LoopbackHttpServer server;

    private FakePrometheusServer(SimulatedSystem system) throws IOException {
        this.system = system;
        this.evaluator = new PromQlEvaluator(() -> system.metrics().series());
        Map<String, LoopbackHttpServer.Route> routes = new LinkedHashMap<>();
        routes.put("/api/v1/query", this::query);
        routes.put("/api/v1/query_range", this::queryRange);
        routes.put("/api/v1/series", this::series);
        routes.put("/api/v1/labels", this::labels);
        routes.put(LABEL_API, PrometheusStyleApi.labelValues(LABEL_API, this::labelValues));
        routes.put("/api/v1/targets", this::targets);
        routes.put("/api/v1/metadata", this::metadata);
        routes.put("/api/v1/status/buildinfo", r -> r.json(200,
                "{\"status\":\"success\",\"data\":{\"version\":\"2.42.0\",\"revision\":\"omcp-demo\",\"branch\":\"simulated\"}}"));
        routes.put("/-/ready", r -> r.respond(200, "text/plain", "Prometheus Server is Ready.\n"));
        routes.put("/-/healthy", r -> r.respond(200, "text/plain", "Prometheus Server is Healthy.\n"));
        this.server = LoopbackHttpServer.start(routes);
    }

    /** Starts the simulated Prometheus on a free loopback port. */
    public static FakePrometheusServer start(SimulatedSystem system) throws IOException {
        return new FakePrometheusServer(system);
    }

    public String baseUrl() {
        return server.baseUrl();
    }

    @Override
    public void close() {
        server.close();
    }

    private void query(LoopbackHttpServer.Request request) throws IOException {
        try {
            long t = request.param("time") == null ? system.clock().millis() : parseTime(request.param("time"), "time");
            Expr expr = Expr.pinned(PromQlParser.parse(request.param("query")), t, t);
            PromValue value = evaluator.evaluate(expr, t);
            StringBuilder out = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":");
            switch (value) {
                case PromValue.Scalar s -> out.append("\"scalar\",\"result\":").append(point(t, s.value()));
                case PromValue.StringValue s -> out.append("\"string\",\"result\":[").append(PrometheusStyleApi.unixSeconds(t)).append(',')
                        .append(JsonText.quote(s.value())).append(']');
                case PromValue.Vector v -> {
                    out.append("\"vector\",\"result\":[");
                    for (int i = 0; i < v.samples().size(); i++) {
                        PromValue.Sample sample = v.samples().get(i);
                        out.append(i == 0 ? "" : ",").append("{\"metric\":").append(JsonText.object(sample.labels()))
                                .append(",\"value\":").append(point(t, sample.value())).append('}');
                    }
                    out.append(']');
                }
                case PromValue.Matrix m -> {
                    out.append("\"matrix\",\"result\":[");
                    for (int i = 0; i < m.series().size(); i++) {
                        PromValue.RangeSeries series = m.series().get(i);
                        out.append(i == 0 ? "" : ",").append("{\"metric\":").append(JsonText.object(series.labels())).append(",\"values\":[");
                        for (int j = 0; j < series.times().length; j++) {
                            out.append(j == 0 ? "" : ",").append(point(series.times()[j], series.values()[j]));
                        }
                        out.append("]}");
                    }
                    out.append(']');
                }
            }
            request.json(200, out.append("}}").toString());
        } catch (PromQlException e) {
            badData(request, e.getMessage());
        }
    }

    private void queryRange(LoopbackHttpServer.Request request) throws IOException {
        try {
            Expr expr = PromQlParser.parse(request.param("query"));
            long start = parseTime(request.param("start"), "start");
            long end = parseTime(request.param("end"), "end");
            long step = parseStep(request.param("step"));
            if (end < start) {
                throw new PromQlException("end timestamp must not be before start time");
            }
            expr = evaluator.once(Expr.pinned(expr, start, end));
            if ((end - start) / step > MAX_POINTS) {
                throw new PromQlException("exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)");
            }
            Map<Map<String, String>, List<double[]>> series = new LinkedHashMap<>();
            for (long t = start; t <= end; t += step) {
                PromValue value = evaluator.evaluate(expr, t);
                if (value instanceof PromValue.Scalar s) {
                    series.computeIfAbsent(Map.of(), k -> new ArrayList<>()).add(new double[] {t, s.value()});
                } else if (value instanceof PromValue.Vector v) {
                    for (PromValue.Sample sample : v.samples()) {
                        series.computeIfAbsent(new TreeMap<>(sample.labels()), k -> new ArrayList<>()).add(new double[] {t, sample.value()});
                    }
                } else {
                    throw new PromQlException("invalid expression type \"" + PromQlEvaluator.typeName(value)
                            + "\" for range query, must be Scalar or instant Vector");
                }
            }
            StringBuilder out = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[");
            boolean first = true;
            for (Map.Entry<Map<String, String>, List<double[]>> entry : series.entrySet()) {
                out.append(first ? "" : ",").append("{\"metric\":").append(JsonText.object(entry.getKey())).append(",\"values\":[");
                first = false;
                List<double[]> points = entry.getValue();
                for (int i = 0; i < points.size(); i++) {
                    out.append(i == 0 ? "" : ",").append(point((long) points.get(i)[0], points.get(i)[1]));
                }
                out.append("]}");
            }
            request.json(200, out.append("]}}").toString());
        } catch (PromQlException e) {
            badData(request, e.getMessage());
        }
    }

    private void series(LoopbackHttpServer.Request request) throws IOException {
        try {
            List<String> selectors = request.params("match[]");
            if (selectors.isEmpty()) {
                throw new PromQlException("no match[] parameter provided");
            }
            StringBuilder out = new StringBuilder("{\"status\":\"success\",\"data\":[");
            boolean first = true;
            for (StoredSeries stored : matching(selectors)) {
                out.append(first ? "" : ",").append(JsonText.object(stored.labels()));
                first = false;
            }
            request.json(200, out.append("]}").toString());
        } catch (PromQlException e) {
            badData(request, e.getMessage());
        }
    }

    private void labels(LoopbackHttpServer.Request request) throws IOException {
        try {
            TreeSet<String> names = new TreeSet<>();
            for (StoredSeries stored : matching(request.params("match[]"))) {
                names.addAll(stored.labels().keySet());
            }
            request.json(200, PrometheusStyleApi.success(JsonText.array(names)));
        } catch (PromQlException e) {
            badData(request, e.getMessage());
        }
    }

    private void labelValues(LoopbackHttpServer.Request request, String name) throws IOException {
        try {
            TreeSet<String> values = new TreeSet<>();
            for (StoredSeries stored : matching(request.params("match[]"))) {
                String value = stored.labels().get(name);
                if (value != null) {
                    values.add(value);
                }
            }
            request.json(200, PrometheusStyleApi.success(JsonText.array(values)));
        } catch (PromQlException e) {
            badData(request, e.getMessage());
        }
    }

    private void targets(LoopbackHttpServer.Request request) throws IOException {
        StringBuilder out = new StringBuilder("{\"status\":\"success\",\"data\":{\"activeTargets\":[");
        boolean first = true;
        for (DemoPod pod : system.pods()) {
            Map<String, String> labels = new TreeMap<>(Map.of("job", pod.service(), "instance", pod.instance(),
                    "service", pod.service(), "namespace", pod.namespace(), "pod", pod.name()));
            out.append(first ? "" : ",").append("{\"discoveredLabels\":").append(JsonText.object(Map.of("__address__", pod.instance())))
                    .append(",\"labels\":").append(JsonText.object(labels))
                    .append(",\"scrapePool\":").append(JsonText.quote(pod.service()))
                    .append(",\"scrapeUrl\":").append(JsonText.quote("http://" + pod.instance() + "/metrics"))
                    .append(",\"globalUrl\":").append(JsonText.quote("http://" + pod.instance() + "/metrics"))
                    .append(",\"lastError\":\"\",\"lastScrape\":").append(JsonText.quote(Instant.ofEpochMilli(system.clock().millis()).toString()))
                    .append(",\"lastScrapeDuration\":0.004,\"health\":\"up\",\"scrapeInterval\":\"15s\",\"scrapeTimeout\":\"10s\"}");
            first = false;
        }
        // each node's kubelet: its own metrics and the containers' cAdvisor metrics, one job
        for (String node : SimulatedSystem.NODES) {
            String instance = SimulatedSystem.nodeAddress(node) + ":10250";
            for (String path : List.of("/metrics", "/metrics/cadvisor")) {
                Map<String, String> labels = new TreeMap<>(Map.of("job", "kubelet", "instance", instance, "node", node, "metrics_path", path));
                out.append(first ? "{" : ",{").append("\"discoveredLabels\":").append(JsonText.object(Map.of("__address__", instance)))
                        .append(",\"labels\":").append(JsonText.object(labels))
                        .append(",\"scrapePool\":").append(JsonText.quote("kubelet"))
                        .append(",\"scrapeUrl\":").append(JsonText.quote("https://" + instance + path))
                        .append(",\"globalUrl\":").append(JsonText.quote("https://" + instance + path))
                        .append(",\"lastError\":\"\",\"lastScrape\":").append(JsonText.quote(Instant.ofEpochMilli(system.clock().millis()).toString()))
                        .append(",\"lastScrapeDuration\":0.02,\"health\":\"up\",\"scrapeInterval\":\"15s\",\"scrapeTimeout\":\"10s\"}");
                first = false;
            }
        }
        request.json(200, out.append("],\"droppedTargets\":[]}}").toString());
    }

    private void metadata(LoopbackHttpServer.Request request) throws IOException {
        Map<String, String[]> known = new TreeMap<>();
        known.put("http_requests_total", new String[] {"counter", "Total HTTP requests by status."});
        known.put("http_request_duration_seconds", new String[] {"histogram", "HTTP request latency."});
        known.put("process_cpu_seconds_total", new String[] {"counter", "Total user and system CPU time spent in seconds."});
        known.put("process_resident_memory_bytes", new String[] {"gauge", "Resident memory size in bytes."});
        known.put("container_cpu_usage_seconds_total", new String[] {"counter", "Cumulative cpu time consumed in seconds."});
        known.put("container_memory_working_set_bytes", new String[] {"gauge", "Current working set in bytes."});
        known.put("container_spec_cpu_quota", new String[] {"gauge", "CPU quota of the container."});
        known.put("container_spec_cpu_period", new String[] {"gauge", "CPU period of the container."});
        known.put("container_spec_memory_limit_bytes", new String[] {"gauge", "Memory limit for the container."});
        known.put("up", new String[] {"gauge", "1 if the target was scraped successfully."});
        String only = request.param("metric");
        StringBuilder out = new StringBuilder("{\"status\":\"success\",\"data\":{");
        boolean first = true;
        for (Map.Entry<String, String[]> entry : known.entrySet()) {
            if (only != null && !only.equals(entry.getKey())) {
                continue;
            }
            out.append(first ? "" : ",").append(JsonText.quote(entry.getKey())).append(":[{\"type\":")
                    .append(JsonText.quote(entry.getValue()[0])).append(",\"help\":").append(JsonText.quote(entry.getValue()[1]))
                    .append(",\"unit\":\"\"}]");
            first = false;
        }
        request.json(200, out.append("}}").toString());
    }

    private List<StoredSeries> matching(List<String> selectors) {
        if (selectors.isEmpty()) {
            return system.metrics().series();
        }
        List<StoredSeries> out = new ArrayList<>();
        for (StoredSeries stored : system.metrics().series()) {
            for (String selector : selectors) {
                if (!(PromQlParser.parse(selector) instanceof Expr.Selector parsed)) {
                    throw new PromQlException("invalid parameter \"match[]\": expected a series selector");
                }
                if (parsed.matchers().stream().allMatch(m -> m.matches(stored.labels().get(m.name())))) {
                    out.add(stored);
                    break;
                }
            }
        }
        return out;
    }

    private static void badData(LoopbackHttpServer.Request request, String message) throws IOException {
        request.json(400, "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":" + JsonText.quote(message) + "}");
    }

    static long parseTime(String text, String name) {
        if (text == null || text.isBlank()) {
            throw new PromQlException("invalid parameter \"" + name + "\": missing");
        }
        try {
            return Math.round(Double.parseDouble(text) * 1000);
        } catch (NumberFormatException e) {
            try {
                return Instant.parse(text).toEpochMilli();
            } catch (DateTimeParseException ex) {
                throw new PromQlException("invalid parameter \"" + name + "\": cannot parse \"" + text + "\" to a valid timestamp");
            }
        }
    }

    static long parseStep(String text) {
        if (text == null || text.isBlank()) {
            throw new PromQlException("invalid parameter \"step\": missing");
        }
        long millis;
        try {
            millis = Math.round(Double.parseDouble(text) * 1000);
        } catch (NumberFormatException e) {
            Expr expr = PromQlParser.parse("x[" + text + "]");
            millis = ((Expr.Selector) expr).rangeMillis();
        }
        if (millis <= 0) {
            throw new PromQlException("zero or negative query resolution step widths are not accepted. Try a positive integer");
        }
        return millis;
    }

    private static String point(long epochMillis, double value) {
        return "[" + PrometheusStyleApi.unixSeconds(epochMillis) + "," + JsonText.quote(format(value)) + "]";
    }

    static String format(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+Inf" : "-Inf";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }
}
