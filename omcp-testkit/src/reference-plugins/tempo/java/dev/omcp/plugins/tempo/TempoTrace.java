package dev.omcp.plugins.tempo;

import dev.omcp.sdk.connector.ConnectorException;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a trace as Tempo returns it from {@code /api/traces/<id>}: OTLP JSON, either
 * {@code {batches: [...]}} or {@code {resourceSpans: [...]}} (optionally under {@code trace}), with
 * {@code scopeSpans} or the older {@code instrumentationLibrarySpans}. A span without a start or end
 * time (OTLP's 0 is "unset") says nothing about the trace's: counted as 1970 it would stretch the
 * trace over decades and rank it the slowest. An entry of the wrong JSON type is a BAD_RESPONSE naming
 * the field, not a ClassCastException.
 *
 * @param spanCount how many spans the trace has: distinct span ids (a span without one counts on its own)
 * @param error whether any span's status is an error
 * @param rootName the root span's name: of the spans without a parent the earliest to start (ties: the first read;
 *     a span without a start after those with one), so a trace whose root has not arrived is not rooted at
 *     whichever orphan Tempo happened to write last; empty when every span has a parent
 * @param rootService the root span's {@code service.name}, or empty
 * @param startNanos the earliest span start, Unix nanoseconds; {@link #NO_TIME} when no span has one
 * @param endNanos the latest span end, Unix nanoseconds; {@link #NO_TIME} when no span has one
 */
record TempoTrace(int spanCount, boolean error, String rootName, String rootService, long startNanos, long endNanos) {
    /** A time Tempo did not give (absent, 0, or not a whole number of nanoseconds). */
    static final long NO_TIME = -1;

    static TempoTrace read(JsonObject answer) throws ConnectorException {
        JsonObject trace = answer.get("trace") instanceof JsonObject inner ? inner : answer;
        String resourcesField = "batches";
        JsonArray resources = array(trace, resourcesField);
        if (resources == null) {
            resourcesField = "resourceSpans";
            resources = array(trace, resourcesField);
        }
        if (resources == null) {
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Tempo's trace has neither batches nor resourceSpans");
        }
        int count = 0;
        // A span Tempo answers twice (ingested twice, not yet deduplicated by compaction) is one span: counted twice, its copy
        // of the trace would seem the fullest and win the gateway's merge. The set holds the id strings the parsed answer
        // already holds, one entry per span, so it grows no faster than the answer the gateway's memory budget bounds.
        Set<String> seen = new HashSet<>();
        boolean error = false;
        String rootName = "";
        String rootService = "";
        long start = Long.MAX_VALUE;
        long end = NO_TIME;
        long rootStart = Long.MAX_VALUE;
        boolean rooted = false;
        for (JsonValue resourceValue : resources) {
            JsonObject resource = entry(resourceValue, resourcesField);
            String service = serviceName(object(resource, "resource"));
            String scopesField = "scopeSpans";
            JsonArray scopes = array(resource, scopesField);
            if (scopes == null) {
                scopesField = "instrumentationLibrarySpans";
                scopes = array(resource, scopesField);
            }
            if (scopes == null) {
                continue;
            }
            for (JsonValue scopeValue : scopes) {
                JsonArray spans = array(entry(scopeValue, scopesField), "spans");
                if (spans == null) {
                    continue;
                }
                for (JsonValue spanValue : spans) {
                    JsonObject span = entry(spanValue, "spans");
                    if (!(span.get("spanId") instanceof JsonString id) || id.getString().isEmpty() || seen.add(id.getString())) {
                        count++;
                    }
                    long spanStart = nanos(span, "startTimeUnixNano");
                    if (spanStart != NO_TIME) {
                        start = Math.min(start, spanStart);
                    }
                    end = Math.max(end, nanos(span, "endTimeUnixNano"));
                    JsonObject status = object(span, "status");
                    if (status != null && isError(status.get("code"))) {
                        error = true;
                    }
                    // an untimed span starts after every timed one: it cannot be shown to be the earliest
                    long rootCandidateStart = spanStart == NO_TIME ? Long.MAX_VALUE : spanStart;
                    if (isNone(span.getString("parentSpanId", "")) && (!rooted || rootCandidateStart < rootStart)) {
                        rooted = true;
                        rootStart = rootCandidateStart;
                        rootName = span.getString("name", "");
                        rootService = service;
                    }
                }
            }
        }
        return new TempoTrace(count, error, rootName, rootService, start == Long.MAX_VALUE ? NO_TIME : start, end);
    }

    /**
     * From the earliest span start to the latest span end; NaN (unknown) when the spans do not tell
     * both, or lie further apart than a search hit's {@code durationMs} can say ({@link
     * TempoConnector#MAX_DURATION_MS}, as the zipkin plugin bounds its traces): a span dated just
     * after 1970 would otherwise make the trace decades long and rank it the slowest.
     */
    double durationMs() {
        if (startNanos == NO_TIME || endNanos == NO_TIME || endNanos < startNanos
                || endNanos - startNanos > TempoConnector.MAX_DURATION_MS * 1_000_000L) {
            return Double.NaN;
        }
        return (endNanos - startNanos) / 1_000_000.0;
    }

    /**
     * Whether a {@code parentSpanId} names no parent: empty, or a span id of only zero bytes. OTLP/JSON
     * writes ids in hex, Tempo's API answers in base64 (protobuf's JSON for bytes), so both are read; a
     * string of hex digits is hex, though {@code A} is also base64's zero: 16 {@code A}s are a real
     * parent, {@code AAAAAAAAAAA=} is 8 zero bytes.
     */
    static boolean isNone(String parentSpanId) {
        if (parentSpanId.isEmpty()) {
            return true;
        }
        if (parentSpanId.chars().allMatch(HexFormat::isHexDigit)) {
            return parentSpanId.chars().allMatch(c -> c == '0');
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(parentSpanId);
            for (byte b : bytes) {
                if (b != 0) {
                    return false;
                }
            }
            return bytes.length > 0;
        } catch (IllegalArgumentException e) {
            return false; // neither hex nor base64: some id, so a parent, not a claim of none
        }
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

    private static String serviceName(JsonObject resource) throws ConnectorException {
        if (resource == null) {
            return "";
        }
        JsonArray attributes = array(resource, "attributes");
        if (attributes == null) {
            return "";
        }
        for (JsonValue value : attributes) {
            JsonObject attribute = entry(value, "attributes");
            if ("service.name".equals(attribute.getString("key", ""))) {
                JsonObject v = object(attribute, "value");
                return v == null ? "" : v.getString("stringValue", "");
            }
        }
        return "";
    }

    private static JsonArray array(JsonObject object, String key) {
        return object.get(key) instanceof JsonArray array ? array : null;
    }

    /** An entry of the array {@code field}: a BAD_RESPONSE naming the field when it is not an object. */
    private static JsonObject entry(JsonValue value, String field) throws ConnectorException {
        if (value instanceof JsonObject object) {
            return object;
        }
        throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE,
                "Tempo's trace has an entry of '" + field + "' that is not a JSON object");
    }

    /** The object field {@code field}, null when absent or null; a BAD_RESPONSE naming it when it is something else. */
    private static JsonObject object(JsonObject parent, String field) throws ConnectorException {
        JsonValue value = parent.get(field);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (value instanceof JsonObject object) {
            return object;
        }
        throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Tempo's trace has a '" + field + "' that is not a JSON object");
    }

    /**
     * A time in Unix nanoseconds (OTLP JSON writes 64-bit integers as strings); {@link #NO_TIME} when it
     * is absent, 0 (OTLP's "unset"), negative or not a whole number.
     */
    static long nanos(JsonObject object, String key) {
        JsonValue value = object.get(key);
        long nanos;
        try {
            if (value instanceof JsonString text && text.getString().matches("[0-9]{1,19}")) {
                nanos = Long.parseLong(text.getString());
            } else if (value instanceof JsonNumber number && number.isIntegral()) {
                nanos = number.longValueExact();
            } else {
                return NO_TIME;
            }
        } catch (NumberFormatException | ArithmeticException e) {
            return NO_TIME; // beyond a long: no time Tempo stored
        }
        return nanos > 0 ? nanos : NO_TIME;
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
