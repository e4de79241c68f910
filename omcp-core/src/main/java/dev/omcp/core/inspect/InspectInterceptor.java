package dev.omcp.core.inspect;

import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.McpChain;
import dev.omcp.core.mcp.McpInterceptor;
import dev.omcp.core.mcp.McpResult;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.inspect.Observation;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Observes every {@code tools/call} (spec 2.14): after the call, one {@link Observation} of its
 * signature with decision {@code allow}. It never blocks a call, and never fails one: a record that
 * cannot be built is counted and logged, and the call's answer goes back unchanged. In mode
 * {@code off} a call costs one volatile read.
 */
public final class InspectInterceptor implements McpInterceptor {
    /** A tool name is the caller's text until the registry knows it. */
    static final int MAX_TOOL = 128;
    private static final Logger LOG = LoggerFactory.getLogger(InspectInterceptor.class);

    private final Inspector inspector;
    private final Function<String, Optional<JsonObject>> inputSchemas;
    private final AtomicLong failures = new AtomicLong();

    /**
     * @param inputSchemas a tool's input schema by name (empty for a tool that does not exist): which
     *     string values a tool enumerates, and so may be kept as they are
     */
    public InspectInterceptor(Inspector inspector, Function<String, Optional<JsonObject>> inputSchemas) {
        this.inspector = Objects.requireNonNull(inspector, "inspector");
        this.inputSchemas = Objects.requireNonNull(inputSchemas, "inputSchemas");
    }

    @Override
    public McpResult intercept(McpCall call, McpChain next) {
        if (!inspector.recording() || call.isNotification() || !call.method().equals("tools/call")) {
            return next.proceed(call);
        }
        long start = inspector.clock().millis();
        McpResult result;
        try {
            result = next.proceed(call);
        } catch (RuntimeException bug) {
            observe(call, Observation.Outcome.ERROR, start);
            throw bug;
        }
        observe(call, outcome(result), start);
        return result;
    }

    private static Observation.Outcome outcome(McpResult result) {
        if (result instanceof McpResult.Success success) {
            return success.result().getBoolean("isError", false) ? Observation.Outcome.ERROR : Observation.Outcome.OK;
        }
        return Observation.Outcome.ERROR; // a JSON-RPC error, a refusal
    }

    private void observe(McpCall call, Observation.Outcome outcome, long start) {
        try {
            inspector.record(observation(call, outcome, start));
        } catch (RuntimeException e) {
            // spec 6.2: the recorder never throws on the call path; a record lost is counted and said
            long count = failures.incrementAndGet();
            LOG.warn("event=inspect-record-failed failures={} error={}", count, e.getClass().getSimpleName());
        }
    }

    private Observation observation(McpCall call, Observation.Outcome outcome, long start) {
        long now = inspector.clock().millis();
        JsonObject params = call.params();
        String tool = params.get("name") instanceof JsonString name ? name.getString() : "";
        JsonObject arguments = params.get("arguments") instanceof JsonObject a ? a : JsonValue.EMPTY_JSON_OBJECT;
        JsonObject schema = inputSchemas.apply(tool).orElse(JsonValue.EMPTY_JSON_OBJECT);
        Principal principal = call.principal();
        return new Observation(java.time.Instant.ofEpochMilli(now), principal.id(), principal.authKind().name().toLowerCase(Locale.ROOT),
                principal.tenant(), tool.length() <= MAX_TOOL ? tool : tool.substring(0, MAX_TOOL), ArgumentShape.resources(arguments),
                ArgumentShape.shapes(arguments, schema), outcome, Math.max(0, now - start), Observation.Decision.ALLOW);
    }
}
