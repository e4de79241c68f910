package dev.omcp.adapters.http.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiGuard;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.access.PolicyView;
import dev.omcp.ports.anomaly.AnomalyOverview;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.settings.ManageSettings;
import dev.omcp.ports.settings.SettingsChange;
import dev.omcp.ports.sources.ManageSources;
import dev.omcp.ports.sources.SourceCheck;
import dev.omcp.ports.sources.SourceContact;
import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.ports.sources.SourceDraft;
import dev.omcp.ports.sources.SourceOutcome;
import dev.omcp.ports.sources.SourceView;
import dev.omcp.ports.tools.InvokeTool;
import dev.omcp.ports.tools.ToolOutcome;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import io.javalin.Javalin;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/health} on a real Javalin server: which sources make it {@code degraded}. Not
 * connected ones always; connected ones only once their calls keep failing, so one slow query or a
 * burst of parallel calls meeting the same hiccup does not page anyone.
 */
class HealthOverviewIT {
    private static final Instant T0 = Instant.parse("2026-11-29T02:00:00Z");

    private volatile List<SourceView> listed = List.of();
    private volatile Optional<String> fileProblem = Optional.empty();
    private final AtomicBoolean session = new AtomicBoolean(true);
    private final AtomicInteger toolCalls = new AtomicInteger();
    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    private Javalin app;

    @BeforeEach
    void start() {
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            // a guard like the login modes': a caller only while the session holds
            ApiGuard guard = (ctx, route, handler) -> {
                if (session.get()) {
                    ApiCaller.setPrincipal(ctx, Principal.anonymous());
                }
                handler.handle(ctx);
            };
            new HealthRoutes(new ListedSources(), new AllowEverything(), new NoTools(), new NoSettings(), new NoHistory())
                    .register(new ApiRoutes(config.routes, guard));
        }).start();
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private JsonObject health() throws Exception {
        HttpResponse<String> reply = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/api/health"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(reply.statusCode()).isEqualTo(200);
        return Json.createReader(new StringReader(reply.body())).readObject();
    }

    private static SourceView source(String name, String status, SourceContact contact) {
        return new SourceView(name, "loki", "", "", true, SourceDefinition.Origin.FILE, status,
                status.equals("connected") ? "" : "connection refused", List.of("queryLogs"), JsonObject.EMPTY_JSON_OBJECT, contact);
    }

    /** A streak of {@code calls} failed calls from {@code T0} to {@code T0 + span}, after an answer at T0 - 1 min. */
    private static SourceContact failing(int calls, Duration span) {
        return new SourceContact(Optional.of(T0.minusSeconds(60)), Optional.of(T0.plus(span)), Optional.of(Kind.TIMEOUT),
                calls, Optional.of(T0));
    }

    @Test
    void aServiceQueryParameterBesideTheServiceInThePath_isRefused_neverSilentlyDropped() throws Exception {
        HttpResponse<String> asked = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port()
                + "/api/health/checkout?service=payments%0Adb")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(asked.statusCode()).isEqualTo(400);
        JsonObject body = Json.createReader(new StringReader(asked.body())).readObject();
        assertThat(body.getString("code")).isEqualTo("OMCP_INVALID_PARAMETERS");
        assertThat(body.getString("error")).contains("/api/health/<service>").doesNotContain("\n");
        assertThat(toolCalls).hasValue(0);

        // the path alone asks the tool for that service
        HttpResponse<String> plain = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port()
                + "/api/health/payments/db")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(plain.statusCode()).isEqualTo(200);
        assertThat(Json.createReader(new StringReader(plain.body())).readObject().getString("service")).isEqualTo("payments/db");
        assertThat(toolCalls).hasValue(1);
    }

    @Test
    void aSourceFailingThreeCallsOverTenSeconds_degradesTheStatus_andIsCounted() throws Exception {
        listed = List.of(source("prom", "connected", SourceContact.NONE), source("loki", "connected", failing(3, Duration.ofSeconds(10))));

        JsonObject health = health();

        assertThat(health.getString("status")).isEqualTo("degraded");
        assertThat(health.getJsonObject("counts").getInt("failing")).isEqualTo(1);
        assertThat(health.getJsonObject("counts").getInt("connected")).isEqualTo(2);
        JsonObject loki = health.getJsonArray("sources").getJsonObject(1);
        assertThat(loki.getInt("consecutiveFailures")).isEqualTo(3);
        assertThat(loki.getString("failingSince")).isEqualTo("2026-11-29T02:00:00Z");
        assertThat(loki.getString("lastFailureAt")).isEqualTo("2026-11-29T02:00:10Z");

        // without a session the status alone says it, and nothing else
        session.set(false);
        assertThat(health()).isEqualTo(Json.createObjectBuilder().add("status", "degraded").build());
    }

    @Test
    void fewerFailures_orABurstInside10Seconds_orAnAnswerSince_leaveItOk() throws Exception {
        for (SourceContact contact : List.of(failing(2, Duration.ofMinutes(5)), failing(30, Duration.ofSeconds(9)),
                new SourceContact(Optional.of(T0.plusSeconds(60)), Optional.of(T0), Optional.of(Kind.UNAVAILABLE)))) {
            listed = List.of(source("loki", "connected", contact));

            JsonObject health = health();

            assertThat(health.getString("status")).as(contact.toString()).isEqualTo("ok");
            assertThat(health.getJsonObject("counts").getInt("failing")).isZero();
        }
    }

    @Test
    void aSourceThatIsNotConnected_degradesTheStatus_asBefore() throws Exception {
        listed = List.of(source("loki", "failed", SourceContact.NONE));

        JsonObject health = health();

        assertThat(health.getString("status")).isEqualTo("degraded");
        assertThat(health.getJsonObject("counts").getInt("failed")).isEqualTo(1);
        assertThat(health.getJsonObject("counts").getInt("failing")).isZero();
    }

    @Test
    void aSourcesFileThatCouldNotBeRead_degradesTheStatus_andSaysWhy() throws Exception {
        fileProblem = Optional.of("the sources file is not valid YAML at line 3");

        JsonObject health = health();

        assertThat(health.getString("status")).isEqualTo("degraded");
        assertThat(health.getJsonObject("sourcesFile")).isEqualTo(Json.createObjectBuilder().add("readable", false)
                .add("problem", "the sources file is not valid YAML at line 3").build());
        assertThat(health.getJsonArray("sources")).isEmpty();
        session.set(false);
        assertThat(health()).isEqualTo(Json.createObjectBuilder().add("status", "degraded").build());
    }

    private final class ListedSources implements ManageSources {
        @Override
        public List<SourceView> list(Principal caller) {
            return listed;
        }

        @Override
        public Optional<String> storeProblem() {
            return fileProblem;
        }

        @Override
        public SourceOutcome add(SourceDraft draft, Principal caller) {
            throw new UnsupportedOperationException("not a health route");
        }

        @Override
        public SourceOutcome update(String name, SourceDraft draft, Principal caller,
                dev.omcp.ports.sources.SourcePrecondition precondition) {
            throw new UnsupportedOperationException("not a health route");
        }

        @Override
        public SourceOutcome remove(String name, Principal caller, Optional<java.util.Set<String>> ifVersionIn) {
            throw new UnsupportedOperationException("not a health route");
        }

        @Override
        public SourceCheck test(SourceDraft draft, Principal caller) {
            throw new UnsupportedOperationException("not a health route");
        }
    }

    private static final class AllowEverything implements AccessPolicy {
        @Override
        public AccessDecision decide(Principal principal, Permission permission) {
            return new AccessDecision.Allowed();
        }

        @Override
        public List<Permission> permissionsOf(Principal principal) {
            return List.of();
        }

        @Override
        public List<Permission> catalog() {
            return List.of();
        }

        @Override
        public PolicyView view() {
            throw new UnsupportedOperationException("not used by the overview");
        }
    }

    /** Records the calls of {@code /api/health/<service>}; the overview calls no tool. */
    private final class NoTools implements InvokeTool {
        @Override
        public ToolOutcome invoke(Principal caller, String tool, JsonObject arguments) {
            throw new UnsupportedOperationException("not used by the health routes");
        }

        @Override
        public ToolOutcome invokeWithParameters(Principal caller, String tool, Map<String, List<String>> parameters, JsonObject fixed) {
            toolCalls.incrementAndGet();
            return new ToolOutcome.Completed(tool, new ToolResult(List.of(), Optional.of(fixed), false));
        }
    }

    private static final class NoSettings implements ManageSettings {
        @Override
        public JsonObject view(Principal caller) {
            throw new UnsupportedOperationException("not used by the overview");
        }

        @Override
        public SettingsChange change(JsonObject requested, Principal caller, Optional<java.util.Set<String>> ifVersionIn) {
            throw new UnsupportedOperationException("not used by the overview");
        }

        @Override
        public JsonObject healthThresholds() {
            throw new UnsupportedOperationException("not used by the overview");
        }

        @Override
        public boolean persistent() {
            return false;
        }

        @Override
        public SettingsChange replaceHealthThresholds(JsonObject thresholds, Principal caller,
                Optional<java.util.Set<String>> ifVersionIn) {
            throw new UnsupportedOperationException("not used by the overview");
        }
    }

    private static final class NoHistory implements AnomalyOverview {
        @Override
        public Duration retention() {
            return Duration.ofHours(1);
        }

        @Override
        public List<JsonObject> sparklines(Principal caller, Duration bucket) {
            return List.of();
        }

        @Override
        public boolean durableSinkConfigured() {
            return false;
        }
    }
}
