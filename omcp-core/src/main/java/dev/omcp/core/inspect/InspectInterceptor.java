package dev.omcp.core.inspect;

import dev.omcp.core.mcp.LogText;
import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.McpChain;
import dev.omcp.core.mcp.McpInterceptor;
import dev.omcp.core.mcp.McpResult;
import dev.omcp.core.mcp.handlers.ToolMethods;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.inspect.InspectMode;
import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.json.CompactJson;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Inspect on the call path (spec 2.14, 3.1, 6.2): every {@code tools/call} is recorded as one
 * {@link Observation} of its signature. In {@code dryrun} and {@code enforce} the call is first evaluated
 * against the accepted rules: a call no rule covers is logged and recorded {@code would-block} and runs
 * (dryrun), or is not run at all and answered with a tool error result, recorded {@code blocked}
 * (enforce). This interceptor stands before the token budget and the hooks, so a blocked call reaches no
 * backend and is charged nothing.
 *
 * <p>It never throws on the call path: a record that cannot be built is counted and logged; a call that
 * cannot be evaluated is allowed in dryrun and blocked in enforce (fail closed), and logged. In mode
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
        InspectMode mode = inspector.mode();
        if (mode == InspectMode.OFF || call.isNotification() || !call.method().equals("tools/call")) {
            return next.proceed(call);
        }
        long start = inspector.clock().millis();
        Optional<CallSignature> signature = signature(call);
        // a call that names no tool runs none: the handler answers invalid params, which says more than a block would
        boolean namesATool = call.params().get("name") instanceof JsonString;
        Verdict verdict = mode == InspectMode.OBSERVE || !namesATool ? Verdict.ALLOW : verdict(call, signature, mode);
        if (verdict.decision() != Observation.Decision.ALLOW) {
            inspector.counted(verdict.decision());
        }
        if (verdict.decision() == Observation.Decision.BLOCKED) {
            signature.ifPresent(s -> observe(call, s, Observation.Outcome.ERROR, start, Observation.Decision.BLOCKED));
            return blocked(call, verdict.body());
        }
        McpResult result;
        try {
            result = next.proceed(call);
        } catch (RuntimeException bug) {
            signature.ifPresent(s -> observe(call, s, Observation.Outcome.ERROR, start, verdict.decision()));
            throw bug;
        }
        signature.ifPresent(s -> observe(call, s, outcome(result), start, verdict.decision()));
        return result;
    }

    /** The call's signature, or empty (counted, logged) when it cannot be built. */
    private Optional<CallSignature> signature(McpCall call) {
        try {
            JsonObject params = call.params();
            String tool = toolName(call);
            JsonObject arguments = params.get("arguments") instanceof JsonObject a ? a : JsonValue.EMPTY_JSON_OBJECT;
            JsonObject schema = inputSchemas.apply(tool).orElse(JsonValue.EMPTY_JSON_OBJECT);
            Principal principal = call.principal();
            Set<String> products = principal.allowLists().products().orElse(Set.of());
            return Optional.of(new CallSignature(principal.id(), principal.roles(), products, tool, ArgumentShape.resources(arguments),
                    ArgumentShape.shapes(arguments, schema)));
        } catch (RuntimeException e) {
            failed("inspect-record-failed", call, e);
            return Optional.empty();
        }
    }

    /** The tool name as called, cut to {@value #MAX_TOOL} characters; empty when the call names none. */
    private static String toolName(McpCall call) {
        String tool = call.params().get("name") instanceof JsonString name ? name.getString() : "";
        return tool.length() <= MAX_TOOL ? tool : tool.substring(0, MAX_TOOL);
    }

    /** What dryrun or enforce decides about the call: allowed, or outside the profile and why. */
    private Verdict verdict(McpCall call, Optional<CallSignature> signature, InspectMode mode) {
        if (signature.isEmpty()) {
            return unevaluated(call, mode); // logged where the signature failed
        }
        Coverage coverage;
        try {
            coverage = inspector.evaluate(signature.get());
        } catch (RuntimeException e) {
            failed("inspect-evaluation-failed", call, e);
            return unevaluated(call, mode);
        }
        if (!(coverage instanceof Coverage.Deviates deviates)) {
            return Verdict.ALLOW;
        }
        Observation.Decision decision = mode == InspectMode.ENFORCE ? Observation.Decision.BLOCKED : Observation.Decision.WOULD_BLOCK;
        LOG.info("event=inspect-{} principal=\"{}\" tool=\"{}\" kind={}", decision.wireName(), LogText.of(call.principal().id()),
                LogText.of(signature.get().tool()), deviates.kind().wireName());
        boolean blocks = decision == Observation.Decision.BLOCKED;
        return new Verdict(decision, blocks ? InspectBlockedBody.outside(signature.get().tool(), deviates.kind()) : null);
    }

    /** A call that could not be evaluated: allowed in dryrun, blocked in enforce (fail closed). */
    private static Verdict unevaluated(McpCall call, InspectMode mode) {
        if (mode != InspectMode.ENFORCE) {
            return Verdict.ALLOW;
        }
        LOG.warn("event=inspect-blocked principal=\"{}\" tool=\"{}\" kind={}", LogText.of(call.principal().id()),
                LogText.of(toolName(call)), InspectBlockedBody.EVALUATION_FAILED);
        return new Verdict(Observation.Decision.BLOCKED, InspectBlockedBody.evaluationFailed(toolName(call)));
    }

    /**
     * The refusal as this gateway's error results are built (DECISIONS.md, like the token budget's):
     * {@code isError} and the body as JSON text in {@code content[0].text}, no {@code structuredContent}.
     */
    private static McpResult blocked(McpCall call, JsonObject body) {
        ToolResult result = new ToolResult(List.of(ToolResult.textBlock(CompactJson.of(body))), Optional.empty(), true);
        return McpResult.Success.of(ToolMethods.toJson(result, call.revision()));
    }

    private static Observation.Outcome outcome(McpResult result) {
        if (result instanceof McpResult.Success success) {
            return success.result().getBoolean("isError", false) ? Observation.Outcome.ERROR : Observation.Outcome.OK;
        }
        return Observation.Outcome.ERROR; // a JSON-RPC error, a refusal
    }

    private void observe(McpCall call, CallSignature signature, Observation.Outcome outcome, long start, Observation.Decision decision) {
        try {
            long now = inspector.clock().millis();
            Principal principal = call.principal();
            String authKind = principal.authKind().name().toLowerCase(Locale.ROOT);
            inspector.record(new Observation(Instant.ofEpochMilli(now), principal.id(), authKind, principal.tenant(), signature.roles(),
                    signature.products(), signature.tool(), signature.resources(), signature.args(), outcome, Math.max(0, now - start),
                    decision));
        } catch (RuntimeException e) {
            failed("inspect-record-failed", call, e); // spec 6.2: the recorder never throws on the call path
        }
    }

    /** Counts and logs a failure on the call path; the class of the exception only, its message may quote the call. */
    private void failed(String event, McpCall call, RuntimeException e) {
        long count = failures.incrementAndGet();
        LOG.warn("event={} principal=\"{}\" failures={} error={}", event, LogText.of(call.principal().id()), count,
                e.getClass().getSimpleName());
        LOG.debug("event={} detail", event, e);
    }

    /**
     * What Inspect decided before the call.
     *
     * @param body the error result's body when the call is blocked; null otherwise
     */
    private record Verdict(Observation.Decision decision, JsonObject body) {
        static final Verdict ALLOW = new Verdict(Observation.Decision.ALLOW, null);
    }
}
