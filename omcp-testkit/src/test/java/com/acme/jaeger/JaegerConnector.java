package com.acme.jaeger;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.http.BackendApi;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceSummary;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A Jaeger query service as a traces source: {@code /api/traces} for the service's traces in the
 * window, {@code /api/services} for the service list (and as the health check: the query service
 * has no health endpoint on its API port). A filter is Jaeger's own {@code tags} parameter, a JSON
 * object of tag values; "errors only" adds {@code "error": "true"} to it.
 */
final class JaegerConnector implements Connector, TracesCapability, ServiceListingCapability {
    private final SourceConfig source;
    private final BackendApi api;

    JaegerConnector(SourceConfig source, BackendApi api) {
        this.source = source;
        this.api = api;
    }

    @Override
    public SourceConfig source() {
        return source;
    }

    @Override
    public Health health() {
        long started = System.nanoTime();
        try {
            api.getObject("api/services", Map.of());
            return new Health(true, "Jaeger answers", Duration.ofNanos(System.nanoTime() - started));
        } catch (ConnectorException e) {
            return new Health(false, e.getMessage(), Duration.ofNanos(System.nanoTime() - started));
        }
    }

    @Override
    public List<ServiceInfo> listServices() throws ConnectorException {
        List<ServiceInfo> services = new ArrayList<>();
        for (JsonValue name : data(api.getObject("api/services", Map.of()))) {
            if (name instanceof JsonString text) {
                services.add(new ServiceInfo(text.getString(), Map.of()));
            }
        }
        services.sort(Comparator.comparing(ServiceInfo::name));
        return services;
    }

    @Override
    public List<TraceSummary> queryTraces(TraceQuery query) throws ConnectorException {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("service", query.service());
        params.put("start", Long.toString(ChronoUnit.MICROS.between(Instant.EPOCH, query.range().start())));
        params.put("end", Long.toString(ChronoUnit.MICROS.between(Instant.EPOCH, query.range().end())));
        params.put("limit", Integer.toString(query.limit()));
        JsonObject tags = tags(query);
        if (!tags.isEmpty()) {
            params.put("tags", tags.toString());
        }
        List<TraceSummary> traces = new ArrayList<>();
        for (JsonValue trace : data(api.getObject("api/traces", params))) {
            if (!(trace instanceof JsonObject object)) {
                throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Jaeger returned a trace that is not an object");
            }
            TraceSummary summary = summarise(object);
            if (!query.errorsOnly() || summary.hasError()) {
                traces.add(summary);
            }
        }
        traces.sort(Comparator.comparing(TraceSummary::start).reversed());
        return traces.size() > query.limit() ? List.copyOf(traces.subList(0, query.limit())) : traces;
    }

    /** The query's filter (a JSON object of tag values) with {@code error} added for errors only. */
    private static JsonObject tags(TraceQuery query) throws ConnectorException {
        JsonObjectBuilder tags = Jsonp.object();
        String filter = query.filter().orElse("").strip();
        if (!filter.isEmpty()) {
            try (JsonReader reader = Jsonp.reader(filter)) {
                reader.readObject().forEach(tags::add);
            } catch (JsonException e) {
                throw new ConnectorException(ConnectorException.Kind.BAD_QUERY,
                        "a Jaeger filter is a JSON object of tag values, for example {\"http.status_code\":\"500\"}");
            }
        }
        if (query.errorsOnly()) {
            tags.add("error", "true");
        }
        return tags.build();
    }

    private static JsonArray data(JsonObject answer) throws ConnectorException {
        if (!(answer.get("data") instanceof JsonArray data)) {
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Jaeger's answer has no data array");
        }
        return data;
    }

    /** One trace of Jaeger's answer: its root span (the one without a parent, else the first), extent, span count and error tag. */
    private static TraceSummary summarise(JsonObject trace) throws ConnectorException {
        if (!(trace.get("spans") instanceof JsonArray spans) || spans.isEmpty() || !(trace.get("processes") instanceof JsonObject processes)) {
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Jaeger returned a trace without spans or processes");
        }
        JsonObject root = null;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        boolean error = false;
        for (JsonValue value : spans) {
            if (!(value instanceof JsonObject span) || !(span.get("startTime") instanceof JsonNumber start)
                    || !(span.get("duration") instanceof JsonNumber duration)) {
                throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Jaeger returned a span without startTime and duration");
            }
            first = Math.min(first, start.longValue());
            last = Math.max(last, start.longValue() + duration.longValue());
            error |= failed(span);
            if (root == null || (!isRoot(root) && isRoot(span))) {
                root = span;
            }
        }
        JsonValue process = processes.get(root.getString("processID", ""));
        String service = process instanceof JsonObject known ? known.getString("serviceName", "") : "";
        return new TraceSummary(trace.getString("traceID", "").toLowerCase(Locale.ROOT), root.getString("operationName", ""), service,
                Instant.EPOCH.plus(first, ChronoUnit.MICROS), (last - first) / 1000.0, spans.size(), error);
    }

    private static boolean isRoot(JsonObject span) {
        return !(span.get("references") instanceof JsonArray references) || references.isEmpty();
    }

    /** Whether a span carries Jaeger's {@code error} tag set to true (a bool, or the string of one). */
    private static boolean failed(JsonObject span) {
        if (!(span.get("tags") instanceof JsonArray tags)) {
            return false;
        }
        for (JsonValue value : tags) {
            if (value instanceof JsonObject tag && "error".equals(tag.getString("key", ""))) {
                JsonValue flag = tag.get("value");
                return flag == JsonValue.TRUE || (flag instanceof JsonString text && text.getString().equals("true"));
            }
        }
        return false;
    }

    @Override
    public void close() {
        // The HTTP client belongs to the gateway; nothing else to release.
    }
}
