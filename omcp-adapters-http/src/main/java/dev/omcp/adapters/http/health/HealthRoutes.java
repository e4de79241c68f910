package dev.omcp.adapters.http.health;

import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.BodyRefusal;
import dev.omcp.adapters.http.api.EntityTags;
import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.adapters.http.api.QueryString;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.adapters.http.settings.SettingsAnswers;
import dev.omcp.adapters.http.settings.ThresholdsSchema;
import dev.omcp.adapters.http.tools.ToolAnswers;
import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.anomaly.AnomalyOverview;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.settings.ManageSettings;
import dev.omcp.ports.sources.ManageSources;
import dev.omcp.ports.sources.SourceView;
import dev.omcp.ports.tools.InvokeTool;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The health routes (spec 4.2, 4.3, DECISIONS.md "Management plane").
 *
 * <table>
 *   <caption>routes and the permission each needs</caption>
 *   <tr><td>GET /api/health</td><td>public; details need a session and health:read</td></tr>
 *   <tr><td>GET /api/health/anomaly-sparklines</td><td>health:read</td></tr>
 *   <tr><td>GET /api/health/thresholds</td><td>health:read</td></tr>
 *   <tr><td>PUT /api/health/thresholds</td><td>health:write</td></tr>
 *   <tr><td>GET /api/health/&lt;service&gt;</td><td>health:read; the service name may contain slashes</td></tr>
 * </table>
 *
 * The fixed paths are registered before the service path, so they win: a service literally named
 * {@code thresholds} or {@code anomaly-sparklines} is asked with {@code get_service_health} instead.
 */
public final class HealthRoutes implements HttpModule {
    static final String GET_SERVICE_HEALTH = "get_service_health";
    private static final String INVALID_THRESHOLDS = "OMCP_INVALID_THRESHOLDS";
    private static final Permission HEALTH_READ = new Permission("health", "read");
    private static final Pattern SERVICE = Pattern.compile("[A-Za-z0-9_.:/-]{1,128}");
    private static final Pattern BUCKET = Pattern.compile("([1-9][0-9]{0,3})([smh])");
    private static final Duration MIN_BUCKET = Duration.ofSeconds(10);
    private static final Duration MAX_BUCKET = Duration.ofMinutes(15);

    private final ManageSources sources;
    private final AccessPolicy policy;
    private final InvokeTool tools;
    private final ManageSettings settings;
    private final AnomalyOverview anomalies;

    public HealthRoutes(ManageSources sources, AccessPolicy policy, InvokeTool tools, ManageSettings settings, AnomalyOverview anomalies) {
        this.sources = Objects.requireNonNull(sources, "sources");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.tools = Objects.requireNonNull(tools, "tools");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.anomalies = Objects.requireNonNull(anomalies, "anomalies");
    }

    @Override
    public void register(ApiRoutes routes) {
        routes.route(HandlerType.GET, "/api/health").publicRoute().tag("health")
                .summary("Server health and source status; without a session (login modes) only {status}")
                .response(200, "{status} without a session; with one also sources (the caller's tenant) and counts; status is "
                        + "degraded when a source is not connected or a connected one keeps failing")
                .handle(this::overview);
        routes.route(HandlerType.GET, "/api/health/anomaly-sparklines").permission("health", "read").tag("health").queryParameters("bucket")
                .summary("Per-service anomaly-score series of the last hour for the caller's tenant; ?bucket=1m (10s-15m); "
                        + "needs health:read")
                .response(200, "{retentionSeconds, bucketSeconds, durableSink, services: [{service, start, bucketSeconds, scores, anomalous, "
                        + "levelAboveLargestBucket}]}; levelAboveLargestBucket (one flag per bucket, true where the bucket's score is a "
                        + "lower bound: a latency above its histogram's largest bucket) only when some bucket has one")
                .response(400, "bucket is not a duration from 10s to 15m, or another parameter is given (OMCP_INVALID_PARAMETERS)")
                .handle(this::sparklines);
        routes.route(HandlerType.GET, "/api/health/thresholds").permission("health", "read").tag("health").queryParameters()
                .summary("The health thresholds in force, every signal written out, with their ETag; needs health:read")
                .response(200, "{thresholds, persisted}; the ETag header is their version, for If-Match on PUT")
                .handle(this::thresholds);
        routes.route(HandlerType.PUT, "/api/health/thresholds").permission("health", "write").tag("health").queryParameters()
                .jsonBody(ThresholdsSchema.REPLACEMENT)
                .summary("Replaces the health thresholds: per signal {degraded, critical, weight, enabled} over the shipped "
                        + "defaults (an omitted signal returns to its default; a whole GET answer is accepted too); written to the sources file's health block "
                        + "when a sources file is in use (persisted: true), else kept until restart; with If-Match only on "
                        + "that version (the ETag of GET); needs health:write")
                .response(200, "{thresholds, changed, persisted}; the ETag header is the new version")
                .response(400, "invalid thresholds, every violation listed, or an If-Match that is not a list of entity tags "
                        + "(OMCP_INVALID_THRESHOLDS)")
                .response(412, "If-Match names a version no longer in force: someone changed them since; nothing changed; the "
                        + "ETag header is the version in force (OMCP_PRECONDITION_FAILED)")
                .response(403, "no health:write, or a caller bound to a tenant: the thresholds judge every tenant's services "
                        + "(OMCP_SETTINGS_GATEWAY_WIDE); nothing changed")
                .response(503, "valid, but the sources file could not be written; nothing changed (OMCP_SETTINGS_NOT_PERSISTED)")
                .handle(this::replaceThresholds);
        routes.route(HandlerType.GET, "/api/health/<service>").permission("health", "read").tag("health")
                .summary("One service's health from get_service_health; the name may contain slashes; query parameters are "
                        + "the tool's other arguments; needs health:read")
                .response(200, "get_service_health's structured result")
                .response(400, "an invalid service name or query parameter, or a query parameter 'service' (the path names the "
                        + "service) (OMCP_INVALID_PARAMETERS)")
                .response(502, "the tool answered an error (OMCP_TOOL_ERROR)")
                .response(503, "this gateway has no get_service_health tool (OMCP_TOOL_UNAVAILABLE)")
                .handle(this::service);
    }

    private void overview(Context ctx) {
        Optional<Principal> caller = ApiCaller.principal(ctx);
        boolean details = caller.isPresent() && policy.decide(caller.get(), HEALTH_READ) instanceof AccessDecision.Allowed;
        // Without details the status still covers every source: it says no more than /readyz would.
        List<SourceView> seen = sources.list(details ? caller.get() : Principal.anonymous());
        int connected = 0;
        int failed = 0;
        int disabled = 0;
        int failing = 0;
        JsonArrayBuilder items = Jsonp.array();
        for (SourceView source : seen) {
            switch (source.status()) {
                case "connected" -> connected++;
                case "disabled" -> disabled++;
                default -> failed++;
            }
            if (source.contact().keepsFailing()) {
                failing++;
            }
            JsonObjectBuilder item = Jsonp.object().add("name", source.name()).add("type", source.type())
                    .add("status", source.status()).add("capabilities", strings(source.capabilities()));
            if (!source.problem().isEmpty()) {
                item.add("problem", source.problem());
            }
            source.contact().addTo(item);
            items.add(item);
        }
        // A connected source whose calls keep failing is an outage a dashboard should see; one slow
        // query is not (SourceContact.keepsFailing says where the line is).
        // a sources file that could not be read left the gateway without the sources it names
        Optional<String> fileProblem = sources.storeProblem();
        String status = failed == 0 && failing == 0 && fileProblem.isEmpty() ? "ok" : "degraded";
        JsonObjectBuilder body = Jsonp.object().add("status", status);
        if (details) {
            fileProblem.ifPresent(problem -> body.add("sourcesFile", Jsonp.object().add("readable", false).add("problem", problem)));
            body.add("sources", items)
                    .add("counts", Jsonp.object().add("total", seen.size()).add("connected", connected).add("failed", failed)
                            .add("disabled", disabled).add("failing", failing))
                    .add("anomalyHistory", Jsonp.object().add("retentionSeconds", anomalies.retention().toSeconds())
                            .add("durableSink", anomalies.durableSinkConfigured()));
        }
        JsonpExchange.write(ctx, 200, body.build());
    }

    private void sparklines(Context ctx) {
        // a parameter other than bucket was refused before this handler (ApiRoutes#queryParameters)
        int given = QueryString.values(ctx, "bucket").size();
        if (given > 1) {
            // the first or the last would win silently; which one the caller meant is not ours to guess
            JsonpExchange.invalid(ctx, "OMCP_INVALID_PARAMETERS", List.of("bucket: given " + given + " times; give it once"));
            return;
        }
        Duration bucket = Duration.ofMinutes(1);
        String requested = QueryString.first(ctx, "bucket").orElse(null);
        if (requested != null) {
            Optional<Duration> parsed = bucket(requested);
            if (parsed.isEmpty()) {
                JsonpExchange.invalid(ctx, "OMCP_INVALID_PARAMETERS", List.of("bucket: '" + JsonpExchange.printable(requested)
                        + "' is not a duration from 10s to 15m, like 30s or 1m"));
                return;
            }
            bucket = parsed.get();
        }
        Principal caller = ApiCaller.principal(ctx).orElseThrow();
        JsonArrayBuilder services = Jsonp.array();
        anomalies.sparklines(caller, bucket).forEach(services::add);
        JsonpExchange.write(ctx, 200, Jsonp.object()
                .add("retentionSeconds", anomalies.retention().toSeconds())
                .add("bucketSeconds", bucket.toSeconds())
                .add("durableSink", anomalies.durableSinkConfigured())
                .add("services", services)
                .build());
    }

    private void thresholds(Context ctx) {
        JsonObject thresholds = settings.healthThresholds();
        // the version of what this answer shows, not read apart from it: a change in between cannot give it a newer tag
        EntityTags.send(ctx, ManageSettings.versionOf(thresholds));
        JsonpExchange.write(ctx, 200, Jsonp.object().add("thresholds", thresholds).add("persisted", settings.persistent()).build());
    }

    private void replaceThresholds(Context ctx) throws IOException {
        EntityTags.IfMatch ifMatch = EntityTags.ifMatch(ctx);
        if (ifMatch instanceof EntityTags.IfMatch.Malformed malformed) {
            SettingsAnswers.malformedIfMatch(ctx, INVALID_THRESHOLDS, malformed);
            return;
        }
        Optional<JsonObject> body = JsonpExchange.object(ctx, BodyRefusal.COMMON, INVALID_THRESHOLDS);
        if (body.isEmpty()) {
            return;
        }
        Principal caller = ApiCaller.principal(ctx).orElseThrow();
        SettingsAnswers.answer(ctx, settings.replaceHealthThresholds(unwrapped(body.get()), caller, ifMatch.required()),
                INVALID_THRESHOLDS, "GET /api/health/thresholds", applied -> Jsonp.object().add("thresholds", applied.current()));
    }

    /**
     * The thresholds of a body that is a whole {@code GET} answer ({@code {thresholds, persisted}}),
     * so a read-modify-write script can send back what it read; any other body as it is. No signal is
     * named {@code thresholds}, so the two cannot be confused.
     */
    static JsonObject unwrapped(JsonObject body) {
        if (body.get("thresholds") instanceof JsonObject thresholds
                && body.keySet().stream().allMatch(key -> key.equals("thresholds") || key.equals("persisted") || key.equals("changed"))) {
            return thresholds;
        }
        return body;
    }

    private void service(Context ctx) {
        String service = ctx.pathParam("service");
        if (!SERVICE.matcher(service).matches()) {
            JsonpExchange.invalid(ctx, "OMCP_INVALID_PARAMETERS", List.of("service: '" + JsonpExchange.printable(service)
                    + "' is not a service name (1-128 of A-Z a-z 0-9 _ . : / -)"));
            return;
        }
        if (QueryString.parameters(ctx).containsKey("service")) {
            // the path names the service; a second one in the query was dropped silently, so the caller
            // got the health of a service they may not have meant
            JsonpExchange.invalid(ctx, "OMCP_INVALID_PARAMETERS", List.of("service: the service is named by the path, "
                    + "/api/health/<service>; leave out the query parameter 'service'"));
            return;
        }
        Map<String, List<String>> parameters = QueryString.parameters(ctx);
        Principal caller = ApiCaller.principal(ctx).orElseThrow();
        ToolAnswers.answer(ctx, tools.invokeWithParameters(caller, GET_SERVICE_HEALTH, parameters,
                Jsonp.object().add("service", service).build()));
    }

    static Optional<Duration> bucket(String text) {
        Matcher matcher = BUCKET.matcher(text);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        long amount = Long.parseLong(matcher.group(1));
        Duration duration = switch (matcher.group(2)) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
        return duration.compareTo(MIN_BUCKET) < 0 || duration.compareTo(MAX_BUCKET) > 0 ? Optional.empty() : Optional.of(duration);
    }

    private static JsonArrayBuilder strings(List<String> values) {
        JsonArrayBuilder array = Jsonp.array();
        values.forEach(array::add);
        return array;
    }
}
