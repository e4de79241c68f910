package dev.omcp.ports.inspect;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One observed tool call (spec 2.14): its signature only, never the raw argument values or the result.
 *
 * @param ts when the call was answered
 * @param principal the caller's principal id ({@code key:ci-bot}, {@code user:alice}, {@code anonymous})
 * @param authKind how the caller was authenticated, lower case ({@code api_key}, {@code session}, ...)
 * @param tenant the caller's tenant; empty string when none
 * @param roles the caller's roles, so that a {@code role:} rule can be evaluated against a stored record
 * @param products the Products the caller was limited to (a {@code /mcp/v/<id>} call), for {@code product:} rules
 * @param tool the tool name as called (bounded)
 * @param resources the resource dimensions named by the call ({@code source}, {@code service},
 *     {@code namespace}) with their values: names, not free text, bounded in length
 * @param args each other argument's shape: a bucket, an enum value, a fingerprint; never the value
 * @param outcome {@code ok} or {@code error}
 * @param latencyMs how long the call took, in milliseconds
 * @param decision {@code allow}, {@code would-block} or {@code blocked}
 */
public record Observation(Instant ts, String principal, String authKind, String tenant, Set<String> roles, Set<String> products,
        String tool, Map<String, String> resources, Map<String, String> args, Outcome outcome, long latencyMs, Decision decision) {

    public Observation {
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(authKind, "authKind");
        Objects.requireNonNull(tenant, "tenant");
        roles = java.util.Collections.unmodifiableSet(new TreeSet<>(roles));
        products = java.util.Collections.unmodifiableSet(new TreeSet<>(products));
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(decision, "decision");
        // sorted: a record reads and stores the same whatever order the caller sent its arguments in
        resources = java.util.Collections.unmodifiableMap(new TreeMap<>(resources));
        args = java.util.Collections.unmodifiableMap(new TreeMap<>(args));
        if (latencyMs < 0) {
            throw new IllegalArgumentException("latencyMs must not be negative, got " + latencyMs);
        }
    }

    /** A record of a caller without roles or Products (records written before they were kept read this way). */
    public Observation(Instant ts, String principal, String authKind, String tenant, String tool, Map<String, String> resources,
            Map<String, String> args, Outcome outcome, long latencyMs, Decision decision) {
        this(ts, principal, authKind, tenant, Set.of(), Set.of(), tool, resources, args, outcome, latencyMs, decision);
    }

    /** The same record with another decision. */
    public Observation withDecision(Decision newDecision) {
        return new Observation(ts, principal, authKind, tenant, roles, products, tool, resources, args, outcome, latencyMs, newDecision);
    }

    /**
     * The record's fields under their wire names, in the order every reader shows them: one shape for
     * the JSONL store and for {@code GET /api/inspect/events}.
     */
    public Map<String, Object> wireFields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("ts", ts.toString());
        fields.put("principal", principal);
        fields.put("authKind", authKind);
        fields.put("tenant", tenant);
        fields.put("roles", List.copyOf(roles));
        fields.put("products", List.copyOf(products));
        fields.put("tool", tool);
        fields.put("resources", resources);
        fields.put("args", args);
        fields.put("outcome", outcome.wireName());
        fields.put("latencyMs", latencyMs);
        fields.put("decision", decision.wireName());
        return fields;
    }

    /** How the call ended. */
    public enum Outcome {
        OK, ERROR;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The outcome of a wire name, or null. */
        public static Outcome parse(String text) {
            for (Outcome outcome : values()) {
                if (outcome.wireName().equals(text)) {
                    return outcome;
                }
            }
            return null;
        }
    }

    /** What Inspect decided about the call. */
    public enum Decision {
        ALLOW("allow"), WOULD_BLOCK("would-block"), BLOCKED("blocked");

        private final String wireName;

        Decision(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        /** The decision of a wire name, or null. */
        public static Decision parse(String text) {
            for (Decision decision : values()) {
                if (decision.wireName.equals(text)) {
                    return decision;
                }
            }
            return null;
        }
    }
}
