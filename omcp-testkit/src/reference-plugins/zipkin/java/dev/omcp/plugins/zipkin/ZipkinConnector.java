package dev.omcp.plugins.zipkin;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TopologyCapability;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.http.BackendApi;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceResult;
import dev.omcp.sdk.query.TraceSummary;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A Zipkin server as a traces source (API v2). {@code queryTraces} asks {@code /api/v2/traces} for
 * the service's traces in the window and summarises each: the trace id (the 128-bit one when
 * Zipkin, not strict about trace ids, grouped a 64-bit id with it), the root span, the trace's start and duration from its
 * spans (unknown when none tells them), the span count (a span reported in fragments counted once, see {@link ZipkinSpans}),
 * and whether any span carries the {@code error} tag. Ids are checked against Zipkin's API (trace ids 16 or 32 hex digits, span
 * and parent ids 16): an answer with other text in their place is a BAD_RESPONSE, so none reaches an agent as a trace id.
 *
 * <p>"Errors only" means a failed span anywhere in the trace. Zipkin's {@code annotationQuery}
 * only matches the spans of {@code serviceName} itself, so the connector first asks Zipkin for the
 * traces where the service's own spans carry the {@code error} tag (the whole window is searched,
 * however many good traces are newer), and when those are fewer than the limit it also reads the
 * service's newest {@value #ERROR_OVERFETCH} times the limit traces and keeps those with a failed
 * span elsewhere. A trace that failed only downstream and is older than those is not found.
 *
 * <p>{@code topology} turns Zipkin's dependency links of the last hour ({@code /api/v2/dependencies})
 * into {@code CALLS} edges between service nodes: "checkout calls payments" when checkout's spans
 * called payments. Zipkin knows service names only; the source setting {@code topologyNamespace}
 * names the Kubernetes namespace the traced services run in, so their ids
 * ({@code service/<namespace>/<name>}) are those of the cluster's services and the gateway merges
 * both views into one graph. Without it the ids are cluster-wide ({@code service/<name>}).
 */
final class ZipkinConnector implements Connector, TracesCapability, ServiceListingCapability, TopologyCapability {
    static final int ERROR_OVERFETCH = 5;
    /** Zipkin's annotation query for spans carrying the {@code error} tag (a bare word matches a tag key). */
    static final String ERROR_ANNOTATION = "error";
    /** How far back dependency links are read for the topology. */
    static final Duration DEPENDENCY_LOOKBACK = Duration.ofHours(1);
    private static final int MAX_FETCH = 1000;
    /** Zipkin's API v2 writes a trace id as 16 or 32 hex digits (64 or 128 bits), a span id as 16. */
    private static final Pattern TRACE_ID = Pattern.compile("[0-9a-fA-F]{16}|[0-9a-fA-F]{32}");
    private static final Pattern SPAN_ID = Pattern.compile("[0-9a-fA-F]{16}");
    private static final String NO_PARENT = "0".repeat(16);
    /**
     * The longest span or trace duration believed, in microseconds: the tempo plugin's bound (Tempo's
     * {@code durationMs} is a {@code uint32}, about 49.7 days), so both read a hostile duration alike.
     */
    static final long MAX_DURATION_MICROS = 0xFFFF_FFFFL * 1000;
    /** The latest span start believed, in microseconds: the last one Unix nanoseconds in a long reach (2262), as Tempo's. */
    static final long MAX_TIMESTAMP_MICROS = Long.MAX_VALUE / 1000;
    /** What {@link #micros} reads for a time a span does not tell. */
    private static final long NO_TIME = -1;
    private final SourceConfig source;
    private final BackendApi api;
    private final Clock clock;
    private final String topologyNamespace;

    ZipkinConnector(SourceConfig source, BackendApi api, Clock clock, String topologyNamespace) {
        this.source = source;
        this.api = api;
        this.clock = clock;
        this.topologyNamespace = topologyNamespace;
    }

    @Override
    public SourceConfig source() {
        return source;
    }

    @Override
    public Health health() {
        long started = System.nanoTime();
        try {
            String answer = api.getText("health", Map.of());
            boolean up = answer.contains("UP");
            return new Health(up, up ? "Zipkin is up" : "Zipkin health is not UP", Duration.ofNanos(System.nanoTime() - started));
        } catch (ConnectorException e) {
            return new Health(false, e.getMessage(), Duration.ofNanos(System.nanoTime() - started));
        }
    }

    @Override
    public List<ServiceInfo> listServices() throws ConnectorException {
        return serviceListing().services();
    }

    /**
     * Zipkin's service names, sorted, and a warning counting the entries of its list that are not strings: Zipkin writes
     * names only, so such an entry names no service and is left out, while the others are still worth listing. Said, not
     * silent, so the agent does not take the list for every service Zipkin knows.
     */
    @Override
    public ServiceListing serviceListing() throws ConnectorException {
        JsonStructure answer = api.getJson("api/v2/services", Map.of());
        if (!(answer instanceof JsonArray names)) {
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Zipkin's service list is not a JSON array");
        }
        List<ServiceInfo> services = new ArrayList<>();
        int leftOut = 0;
        for (JsonValue name : names) {
            if (name instanceof JsonString text) {
                services.add(new ServiceInfo(text.getString(), Map.of()));
            } else {
                leftOut++;
            }
        }
        services.sort(Comparator.comparing(ServiceInfo::name));
        List<String> warnings = leftOut == 0 ? List.of() : List.of("Zipkin answered service names that are not strings (" + leftOut
                + "); they were left out of the listing (a broken answer, or something other than Zipkin's API at the source URL)");
        return new ServiceListing(services, warnings);
    }

    @Override
    public List<TraceSummary> queryTraces(TraceQuery query) throws ConnectorException {
        return searchTraces(query).traces();
    }

    /** The traces found, and a warning counting the entries of Zipkin's trace list that were no trace. */
    @Override
    public TraceResult searchTraces(TraceQuery query) throws ConnectorException {
        Optional<String> filter = query.filter().filter(f -> !f.isBlank());
        if (!query.errorsOnly()) {
            return search(query, filter, query.limit()).answer(query.limit());
        }
        // Zipkin finds the traces where the service's own spans failed by itself; only when they
        // are fewer than the limit are the service's newest traces searched for a failure in a
        // span of another service (payments failing because payments-db did).
        Found own = search(query, Optional.of(filter.map(f -> ERROR_ANNOTATION + " and " + f).orElse(ERROR_ANNOTATION)),
                query.limit());
        Map<String, TraceSummary> failed = own.traces();
        int leftOut = own.leftOut();
        if (failed.size() < query.limit()) {
            Found newest = search(query, filter, Math.min(MAX_FETCH, query.limit() * ERROR_OVERFETCH));
            leftOut += newest.leftOut();
            for (TraceSummary trace : newest.traces().values()) {
                if (trace.hasError()) {
                    failed.putIfAbsent(trace.traceId(), trace);
                }
            }
        }
        // a bare "error" also matches an annotation of that name; only the error tag counts as failed
        failed.values().removeIf(trace -> !trace.hasError());
        return new Found(failed, leftOut).answer(query.limit());
    }

    /**
     * What one or more searches found: the summaries by trace id, and how many entries of the trace
     * lists were left out as no trace (not a list of spans, or an empty one).
     */
    private record Found(Map<String, TraceSummary> traces, int leftOut) {
        /** The traces, newest first and at most {@code limit}, with a warning when entries were left out. */
        TraceResult answer(int limit) {
            List<String> warnings = leftOut == 0 ? List.of() : List.of(leftOut + (leftOut == 1 ? " entry" : " entries")
                    + " of Zipkin's trace list " + (leftOut == 1 ? "was" : "were") + " left out: not a list of spans, or an empty one "
                    + "(a broken answer, or something other than Zipkin's API at the source URL)");
            return new TraceResult(newestFirst(traces.values(), limit), warnings);
        }
    }

    /** One {@code /api/v2/traces} search for the query's service and window. */
    private Found search(TraceQuery query, Optional<String> annotationQuery, int limit) throws ConnectorException {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("serviceName", query.service());
        params.put("endTs", Long.toString(query.range().end().toEpochMilli()));
        params.put("lookback", Long.toString(Math.max(1, query.range().length().toMillis())));
        params.put("limit", Integer.toString(limit));
        annotationQuery.ifPresent(filter -> params.put("annotationQuery", filter));
        // every span of every trace: summarised while the answer still counts against the gateway's memory budget
        return api.getJson("api/v2/traces", params, answer -> {
            if (!(answer instanceof JsonArray traces)) {
                throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Zipkin's trace list is not a JSON array");
            }
            Map<String, TraceSummary> summaries = new LinkedHashMap<>();
            int leftOut = 0;
            for (JsonValue trace : traces) {
                if (trace instanceof JsonArray spans && !spans.isEmpty()) {
                    TraceSummary summary = summarise(spans);
                    summaries.putIfAbsent(summary.traceId(), summary);
                } else {
                    leftOut++; // counted, not failed: the other traces of the answer are still worth showing
                }
            }
            return new Found(summaries, leftOut);
        });
    }

    private static List<TraceSummary> newestFirst(Collection<TraceSummary> traces, int limit) {
        List<TraceSummary> sorted = new ArrayList<>(traces);
        sorted.sort(Comparator.comparing(TraceSummary::start).reversed());
        return sorted.size() > limit ? List.copyOf(sorted.subList(0, limit)) : sorted;
    }

    static TraceSummary summarise(JsonArray spans) throws ConnectorException {
        List<ZipkinSpans.Span> reports = new ArrayList<>(spans.size());
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        boolean error = false;
        boolean anyDuration = false;
        String traceId = "";
        for (JsonValue value : spans) {
            if (!(value instanceof JsonObject span)) {
                throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Zipkin returned a span that is not an object");
            }
            // Zipkin with STRICT_TRACE_ID=false groups spans by the low 64 bits, so one trace can mix a 64-bit id with its
            // 128-bit form: the longer is the trace's full id, the one other backends (Tempo) know it by
            String spanTraceId = id(span, "traceId", TRACE_ID, "a trace id (16 or 32 hex digits)");
            if (!traceId.isEmpty() && !lowBits(spanTraceId).equals(lowBits(traceId))) {
                throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE,
                        "Zipkin returned a trace whose spans carry trace ids that are not one trace's");
            }
            if (spanTraceId.length() > traceId.length()) {
                traceId = spanTraceId;
            }
            long start = timestamp(span);
            long duration = micros(span, "duration", MAX_DURATION_MICROS); // 0: unset, as in Zipkin's model
            if (start != Long.MAX_VALUE) {
                first = Math.min(first, start);
                last = Math.max(last, start + Math.max(0, duration)); // both bounded: the sum fits a long
                anyDuration |= duration > 0;
            }
            JsonObject tags = object(span, "tags");
            if (tags != null && tags.containsKey("error")) {
                error = true;
            }
            JsonObject endpoint = object(span, "localEndpoint");
            reports.add(new ZipkinSpans.Span(id(span, "id", SPAN_ID, "a span id (16 hex digits)"), parentId(span),
                    span.getString("kind", ""), span.get("shared") == JsonValue.TRUE,
                    endpoint == null ? "" : endpoint.getString("serviceName", ""), span.getString("name", ""), start));
        }
        ZipkinSpans.Span root = ZipkinSpans.root(reports);
        // Zipkin leaves out a time it does not know (a span still in flight, or reported without one): without a timed
        // span with a duration the trace's duration is unknown, not 0 ms, and without any timestamp so is its start
        Instant start = first == Long.MAX_VALUE ? TraceSummary.UNKNOWN_START
                : Instant.ofEpochSecond(first / 1_000_000, (first % 1_000_000) * 1000);
        // spans decades apart (one dated 1970) would make the trace the slowest by far: beyond the bound no duration is believed
        double durationMs = anyDuration && last - first <= MAX_DURATION_MICROS ? (last - first) / 1000.0
                : TraceSummary.UNKNOWN_DURATION;
        return new TraceSummary(traceId, root.name(), root.service(), start, durationMs, ZipkinSpans.count(reports), error);
    }

    /**
     * The span's id field {@code field}, lower case, when it matches {@code form}; else a BAD_RESPONSE
     * naming the field and never quoting it: an id becomes part of the answer an agent reads (and of a
     * link into a tracing UI), so a broken or hostile backend's text does not pass as one.
     */
    private static String id(JsonObject span, String field, Pattern form, String formInWords) throws ConnectorException {
        if (span.get(field) instanceof JsonString text && form.matcher(text.getString()).matches()) {
            return text.getString().toLowerCase(Locale.ROOT);
        }
        throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE,
                "Zipkin returned a span whose '" + field + "' is not " + formInWords);
    }

    /**
     * The span's {@code parentId}, empty when it has none: absent or null, or all zeros, which Zipkin's
     * model reads as none. A parent that is not a span id is a BAD_RESPONSE.
     */
    private static String parentId(JsonObject span) throws ConnectorException {
        JsonValue parent = span.get("parentId");
        if (parent == null || parent.getValueType() == JsonValue.ValueType.NULL) {
            return "";
        }
        String id = id(span, "parentId", SPAN_ID, "a span id (16 hex digits)");
        return id.equals(NO_PARENT) ? "" : id;
    }

    /** The low 64 bits of a trace id, the part Zipkin groups spans by when it is not strict about trace ids. */
    private static String lowBits(String traceId) {
        return traceId.substring(traceId.length() - 16);
    }

    @Override
    public Topology topology(String namespace) throws ConnectorException {
        if (!namespace.isEmpty() && !namespace.equals(topologyNamespace)) {
            return new Topology(List.of(), List.of()); // the traced services are not in that namespace
        }
        Map<String, String> params = new LinkedHashMap<>();
        params.put("endTs", Long.toString(clock.millis()));
        params.put("lookback", Long.toString(DEPENDENCY_LOOKBACK.toMillis()));
        JsonStructure answer = api.getJson("api/v2/dependencies", params);
        if (!(answer instanceof JsonArray links)) {
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Zipkin's dependency links are not a JSON array");
        }
        Set<String> services = new TreeSet<>();
        Map<String, TopologyEdge> edges = new TreeMap<>();
        for (JsonValue value : links) {
            if (!(value instanceof JsonObject link) || !(link.get("parent") instanceof JsonString parent)
                    || !(link.get("child") instanceof JsonString child)) {
                throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Zipkin returned a dependency link without parent and child");
            }
            if (parent.getString().isBlank() || child.getString().isBlank() || parent.getString().equals(child.getString())) {
                continue; // an unnamed endpoint or a self-call says nothing about dependencies
            }
            services.add(parent.getString());
            services.add(child.getString());
            TopologyEdge edge = new TopologyEdge(serviceId(parent.getString()), serviceId(child.getString()), Relation.CALLS);
            edges.put(edge.from() + " " + edge.to(), edge);
        }
        List<TopologyNode> nodes = new ArrayList<>();
        for (String name : services) {
            nodes.add(new TopologyNode(serviceId(name), "service", name, topologyNamespace, Map.of()));
        }
        return new Topology(nodes, List.copyOf(edges.values()));
    }

    private String serviceId(String name) {
        return TopologyNode.idOf("service", topologyNamespace, name);
    }

    /**
     * The span's start, Long.MAX_VALUE when it tells none: absent, 0 (unset in Zipkin's model) or no
     * time Zipkin could have stored ({@link #micros}), which would otherwise rank the trace the newest.
     */
    private static long timestamp(JsonObject span) throws ConnectorException {
        long micros = micros(span, "timestamp", MAX_TIMESTAMP_MICROS);
        return micros <= 0 ? Long.MAX_VALUE : micros;
    }

    /**
     * A span's field in microseconds, from 0 to {@code max}; {@link #NO_TIME} when the span has none or
     * a number that is no such time (negative, a fraction, beyond {@code max}), as the tempo plugin reads
     * Tempo's times: the span then tells nothing, rather than a made-up 0 or centuries. A value that is
     * not a number at all is a BAD_RESPONSE naming the field, never a ClassCastException.
     */
    private static long micros(JsonObject span, String field, long max) throws ConnectorException {
        JsonValue value = span.get(field);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return NO_TIME;
        }
        if (!(value instanceof JsonNumber number)) {
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE,
                    "Zipkin returned a span whose '" + field + "' is not a number of microseconds");
        }
        // compared as a BigDecimal before anything else: a 1e400 is never expanded into a BigInteger
        BigDecimal micros = number.bigDecimalValue();
        if (micros.signum() < 0 || micros.compareTo(BigDecimal.valueOf(max)) > 0 || micros.stripTrailingZeros().scale() > 0) {
            return NO_TIME;
        }
        return micros.longValue();
    }

    /** A span's object field, null when absent; a BAD_RESPONSE when it is something else. */
    private static JsonObject object(JsonObject span, String field) throws ConnectorException {
        JsonValue value = span.get(field);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (value instanceof JsonObject object) {
            return object;
        }
        throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Zipkin returned a span whose '" + field + "' is not an object");
    }

    @Override
    public void close() {
        // The HTTP client belongs to the gateway; nothing else to release.
    }
}
