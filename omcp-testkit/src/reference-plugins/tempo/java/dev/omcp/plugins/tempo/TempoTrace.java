package dev.omcp.plugins.tempo;

import dev.omcp.sdk.connector.ConnectorException;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Reads a trace as Tempo returns it from {@code /api/traces/<id>}: OTLP JSON, either
 * {@code {batches: [...]}} or {@code {resourceSpans: [...]}} (optionally under {@code trace}), with
 * {@code scopeSpans} or the older {@code instrumentationLibrarySpans}.
 *
 * @param spanCount how many spans the trace has
 * @param error whether any span's status is an error
 * @param rootName the root span's name (the span without parent), or empty
 * @param rootService the root span's {@code service.name}, or empty
 * @param startNanos the earliest span start, Unix nanoseconds
 * @param endNanos the latest span end, Unix nanoseconds
 */
record TempoTrace(int spanCount, boolean error, String rootName, String rootService, long startNanos, long endNanos) {

    static TempoTrace read(JsonObject answer) throws ConnectorException {
        JsonObject trace = answer.containsKey("trace") && answer.get("trace") instanceof JsonObject inner ? inner : answer;
        JsonArray resources = array(trace, "batches");
        if (resources == null) {
            resources = array(trace, "resourceSpans");
        }
        if (resources == null) {
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Tempo's trace has neither batches nor resourceSpans");
        }
        int count = 0;
        boolean error = false;
        String rootName = "";
        String rootService = "";
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (JsonValue resourceValue : resources) {
            JsonObject resource = (JsonObject) resourceValue;
            String service = serviceName(resource.getJsonObject("resource"));
            JsonArray scopes = array(resource, "scopeSpans");
            if (scopes == null) {
                scopes = array(resource, "instrumentationLibrarySpans");
            }
            if (scopes == null) {
                continue;
            }
            for (JsonValue scopeValue : scopes) {
                JsonArray spans = array((JsonObject) scopeValue, "spans");
                if (spans == null) {
                    continue;
                }
                for (JsonValue spanValue : spans) {
                    JsonObject span = (JsonObject) spanValue;
                    count++;
                    long spanStart = nanos(span, "startTimeUnixNano");
                    long spanEnd = nanos(span, "endTimeUnixNano");
                    start = Math.min(start, spanStart);
                    end = Math.max(end, spanEnd);
                    JsonObject status = span.getJsonObject("status");
                    if (status != null && isError(status.get("code"))) {
                        error = true;
                    }
                    String parent = span.getString("parentSpanId", "");
                    if (parent.isEmpty() || parent.chars().allMatch(c -> c == 'A' || c == '0' || c == '=')) {
                        rootName = span.getString("name", "");
                        rootService = service;
                    }
                }
            }
        }
        return new TempoTrace(count, error, rootName, rootService, start == Long.MAX_VALUE ? 0 : start, end == Long.MIN_VALUE ? 0 : end);
    }

    private static boolean isError(JsonValue code) {
        if (code == null) {
            return false;
        }
        return switch (code.getValueType()) {
            case STRING -> code.toString().contains("ERROR");
            case NUMBER -> code.toString().equals("2");
            default -> false;
        };
    }

    private static String serviceName(JsonObject resource) {
        if (resource == null) {
            return "";
        }
        JsonArray attributes = array(resource, "attributes");
        if (attributes == null) {
            return "";
        }
        for (JsonValue value : attributes) {
            JsonObject attribute = (JsonObject) value;
            if ("service.name".equals(attribute.getString("key", ""))) {
                JsonObject v = attribute.getJsonObject("value");
                return v == null ? "" : v.getString("stringValue", "");
            }
        }
        return "";
    }

    private static JsonArray array(JsonObject object, String key) {
        return object.get(key) instanceof JsonArray array ? array : null;
    }

    /** OTLP JSON writes 64-bit integers as strings. */
    static long nanos(JsonObject span, String key) {
        JsonValue value = span.get(key);
        if (value == null) {
            return 0;
        }
        try {
            return value.getValueType() == JsonValue.ValueType.STRING ? Long.parseLong(span.getString(key))
                    : span.getJsonNumber(key).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            return 0;
        }
    }

    /** A trace id as lower-case hex: Tempo's search answers hex, OTLP JSON base64. */
    static String hexId(String id) {
        if (id.matches("[0-9a-fA-F]+")) {
            return id.toLowerCase(Locale.ROOT);
        }
        try {
            return HexFormat.of().formatHex(Base64.getDecoder().decode(id));
        } catch (IllegalArgumentException e) {
            return id.toLowerCase(Locale.ROOT);
        }
    }
}
