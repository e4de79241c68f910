package dev.omcp.adapters.http.api;

import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.audit.AuditRecording;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.info.GatewayDescription;
import io.javalin.http.HandlerType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The endpoints that answer without credentials in every mode (spec 4.2): probes, metrics and
 * discovery.
 */
public final class PublicEndpoints {
    private final GatewayDescription description;
    private final GatewayMetrics metrics;
    private final ManagementIdentity identity;
    private final BooleanSupplier ready;
    private final Supplier<AuditRecording> auditRecording;

    public PublicEndpoints(
            GatewayDescription description, GatewayMetrics metrics, ManagementIdentity identity, BooleanSupplier ready) {
        this(description, metrics, identity, ready, () -> AuditRecording.OK);
    }

    /** With {@code auditRecording}, whose state {@code /readyz} names while ready ({@link ReadinessDegradations}). */
    public PublicEndpoints(GatewayDescription description, GatewayMetrics metrics, ManagementIdentity identity, BooleanSupplier ready,
            Supplier<AuditRecording> auditRecording) {
        this.description = description;
        this.metrics = metrics;
        this.identity = identity;
        this.ready = ready;
        this.auditRecording = Objects.requireNonNull(auditRecording, "auditRecording");
    }

    /** Registers the routes; {@code openApi} supplies the document once every route is known. */
    public void register(ApiRoutes routes, java.util.function.Supplier<Map<String, Object>> openApi) {
        routes.route(HandlerType.GET, "/healthz").tag("probes").publicRoute()
                .summary("Liveness: the process is up and serving HTTP")
                .response(200, "alive")
                .handle(ctx -> JsonResponses.json(ctx, 200, Map.of("status", "ok")));
        routes.route(HandlerType.GET, "/readyz").tag("probes").publicRoute()
                .summary("Readiness: ready once started, not ready while shutting down; an audit log that cannot record "
                        + "is named but keeps the gateway ready, as agents are still served")
                .response(200, "ready: {status: ready, degraded}; degraded lists what is refused while ready, empty when "
                        + "nothing is: [{check: audit, recording: failing|stopped, detail}] while management changes are refused "
                        + "for want of an audit entry")
                .response(503, "starting or shutting down: {status: not-ready, code: OMCP_NOT_READY, error}")
                .handle(ctx -> {
                    if (ready.getAsBoolean()) {
                        Map<String, Object> body = new LinkedHashMap<>();
                        body.put("status", "ready");
                        body.put("degraded", ReadinessDegradations.of(auditRecording.get()));
                        JsonResponses.json(ctx, 200, body);
                        return;
                    }
                    // an error like every other (code and error), so the document can describe every 503 alike
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("status", "not-ready");
                    body.put("code", "OMCP_NOT_READY");
                    body.put("error", "the gateway is starting or shutting down; send requests to another replica or retry shortly");
                    JsonResponses.json(ctx, 503, body);
                });
        routes.route(HandlerType.GET, "/metrics").tag("probes").publicRoute()
                .summary("The gateway's own metrics in the Prometheus text format")
                .response(200, "metrics", GatewayMetrics.CONTENT_TYPE)
                .handle(ctx -> {
                    ctx.status(200).contentType(GatewayMetrics.CONTENT_TYPE);
                    metrics.scrape(ctx.res().getOutputStream());
                });
        routes.route(HandlerType.GET, "/api/info").tag("discovery").publicRoute()
                .summary("Name, version, MCP protocol revisions and the governance block (spec 2.10)")
                .handle(ctx -> JsonResponses.json(ctx, 200, description.info()));
        routes.route(HandlerType.GET, "/api/openapi.json").tag("discovery").publicRoute()
                .summary("This OpenAPI 3.1 document")
                .handle(ctx -> JsonResponses.json(ctx, 200, openApi.get()));
        routes.route(HandlerType.GET, "/api/conformance").tag("discovery").publicRoute()
                .summary("MCP specification posture: revisions, transports and methods")
                .handle(ctx -> JsonResponses.json(ctx, 200, description.conformance()));
        routes.route(HandlerType.GET, "/api/me").tag("discovery").publicRoute()
                .summary("The current identity and its permissions, so a UI can hide what it may not do")
                .response(200, "the caller")
                .response(401, "login modes: no valid session")
                .handle(ctx -> {
                    Optional<Principal> principal = identity.resolve(ctx);
                    if (principal.isEmpty()) {
                        Map<String, Object> body = new LinkedHashMap<>();
                        body.put("code", "OMCP_AUTH_REQUIRED");
                        body.put("error", ManagementIdentity.noSessionError(identity.mode()));
                        body.put("mode", identity.mode());
                        JsonResponses.json(ctx, 401, body);
                        return;
                    }
                    JsonResponses.json(ctx, 200, description.describe(principal.get()));
                });
    }
}
