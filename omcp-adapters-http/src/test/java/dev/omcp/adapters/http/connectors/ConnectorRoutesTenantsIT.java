package dev.omcp.adapters.http.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiGuard;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.api.OpenApiDocument;
import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.access.PolicyView;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.plugins.ConnectorStatus;
import dev.omcp.ports.plugins.DowngradePolicy;
import dev.omcp.ports.plugins.HubListing;
import dev.omcp.ports.plugins.HubUnavailableException;
import dev.omcp.ports.plugins.InstallOutcome;
import dev.omcp.ports.plugins.ManageConnectors;
import dev.omcp.ports.plugins.RemoveOutcome;
import dev.omcp.ports.plugins.SourceAudience;
import dev.omcp.ports.sources.ManageSources;
import dev.omcp.ports.sources.SourceCheck;
import dev.omcp.ports.sources.SourceDraft;
import dev.omcp.ports.sources.SourceOutcome;
import dev.omcp.ports.sources.SourcePrecondition;
import dev.omcp.ports.sources.SourceView;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A connector plugin serves every tenant's sources, so a caller bound to a tenant lists the plugins
 * but installs, uploads and removes none: 403 {@code OMCP_CONNECTORS_GATEWAY_WIDE} before anything
 * is read or asked of the core. On a real Javalin server on port 0, against connectors kept in memory.
 */
class ConnectorRoutesTenantsIT {
    private static final Principal ACME_ADMIN = Principal.apiKey("acme-admin", "acme");
    private static final Principal OPERATOR = Principal.apiKey("operator", "");

    private final FakeConnectors connectors = new FakeConnectors();
    private final List<ApiRoutes.Route> documented = new ArrayList<>();
    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    /** Who the guard says is calling; null: it says nobody. */
    private volatile Principal caller = ACME_ADMIN;
    private Javalin app;

    @BeforeEach
    void start() {
        // the rule must hold whichever guard identifies the caller: this one only says who it is
        ApiGuard guard = (ctx, route, handler) -> {
            if (caller != null) {
                ApiCaller.setPrincipal(ctx, caller);
            }
            handler.handle(ctx);
        };
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            ApiRoutes routes = new ApiRoutes(config.routes, guard);
            new ConnectorRoutes(connectors, new NoSources(), new AllowAll()).register(routes);
            documented.addAll(routes.documented());
        }).start();
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private HttpResponse<String> call(String method, String path, String contentType, byte[] body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return JsonResponses.mapper().readTree(response.body());
    }

    @Test
    void aCallerBoundToATenant_installsUploadsAndRemovesNoPlugin_andIsToldThatAnOperatorWithoutATenantMust() throws Exception {
        String before = call("GET", "/api/connectors", null, null).body();
        // a bundle larger than a JSON body: still answered, not a connection reset, though it is never read
        byte[] bundle = new byte[2 * 1024 * 1024];

        List<HttpResponse<String>> refused = List.of(
                call("POST", "/api/connectors/install", "application/json", utf8("{\"name\": \"tempo\"}")),
                call("POST", "/api/connectors/install?allowDowngrade=true", "application/json", utf8("{\"name\": \"zipkin\"}")),
                call("POST", "/api/connectors/upload", "application/octet-stream", bundle),
                call("DELETE", "/api/connectors/zipkin", null, null),
                call("DELETE", "/api/connectors/zipkin?force=true", null, null));

        for (HttpResponse<String> response : refused) {
            assertThat(response.statusCode()).as(response.uri() + " " + response.body()).isEqualTo(403);
            JsonNode body = json(response);
            assertThat(body.path("code").asText()).isEqualTo("OMCP_CONNECTORS_GATEWAY_WIDE");
            assertThat(body.path("error").asText()).contains("every tenant", "tenant 'acme'", "nothing changed",
                    "operator without a tenant");
        }
        assertThat(connectors.changes).as("nothing was asked of the core").isEmpty();
        assertThat(call("GET", "/api/connectors", null, null).body()).as("the plugins are as they were").isEqualTo(before);
    }

    @Test
    void anOperatorWithoutATenant_stillInstallsUploadsAndRemovesPlugins() throws Exception {
        caller = OPERATOR;

        assertThat(call("POST", "/api/connectors/install", "application/json", utf8("{\"name\": \"tempo\"}")).statusCode())
                .isEqualTo(201);
        assertThat(call("POST", "/api/connectors/upload", "application/octet-stream", new byte[] {1, 2, 3}).statusCode())
                .isEqualTo(201);
        assertThat(call("DELETE", "/api/connectors/zipkin", null, null).statusCode()).isEqualTo(200);

        assertThat(connectors.changes).containsExactly("install tempo", "upload", "remove zipkin");
        assertThat(json(call("GET", "/api/connectors", null, null)).findValuesAsText("name")).containsExactly("tempo", "uploaded");
    }

    @Test
    void aRequestWhoseCallerTheGuardDidNotIdentify_changesNoPluginEither() throws Exception {
        // an embedding service's guard that records no principal: whether its caller has a tenant cannot be known
        caller = null;

        HttpResponse<String> refused = call("POST", "/api/connectors/install", "application/json", utf8("{\"name\": \"tempo\"}"));

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(json(refused).path("code").asText()).isEqualTo("OMCP_CONNECTORS_GATEWAY_WIDE");
        assertThat(json(refused).path("error").asText()).contains("could not tell who sent this request", "nothing changed");
        assertThat(connectors.changes).isEmpty();
    }

    @Test
    void theOpenApiDocument_saysThatACallerBoundToATenantIsRefused_onEveryChangeOfAPlugin() {
        Map<String, Object> document = OpenApiDocument.build("OMCP", "test", documented);
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Map<String, Map<String, Object>>>> paths =
                (Map<String, Map<String, Map<String, Map<String, Object>>>>) document.get("paths");

        for (String[] change : new String[][] {{"/api/connectors/install", "post"}, {"/api/connectors/upload", "post"},
                {"/api/connectors/{name}", "delete"}}) {
            @SuppressWarnings("unchecked")
            Map<String, Object> forbidden = (Map<String, Object>) paths.get(change[0]).get(change[1]).get("responses").get("403");
            assertThat(String.valueOf(forbidden.get("description"))).as(change[1] + " " + change[0])
                    .contains("bound to a tenant", "OMCP_CONNECTORS_GATEWAY_WIDE");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> listing = (Map<String, Object>) paths.get("/api/connectors").get("get").get("responses").get("403");
        assertThat(listing == null ? "" : String.valueOf(listing.get("description"))).doesNotContain("GATEWAY_WIDE");
    }

    /** Plugins in memory: zipkin installed at first; every change asked of it is recorded. */
    private static final class FakeConnectors implements ManageConnectors {
        final List<String> installed = new CopyOnWriteArrayList<>(List.of("zipkin"));
        final List<String> changes = new CopyOnWriteArrayList<>();

        @Override
        public List<ConnectorStatus> connectors() {
            return installed.stream().map(name -> new ConnectorStatus(name, ConnectorType.Origin.FILESYSTEM, name,
                    ConnectorStatus.State.LOADED, "", Optional.empty(), List.of())).toList();
        }

        @Override
        public HubListing hubCatalog() throws HubUnavailableException {
            throw new HubUnavailableException("no hub in this test");
        }

        @Override
        public InstallOutcome install(String name, Optional<String> version, DowngradePolicy downgrade, SourceAudience audience) {
            changes.add("install " + name);
            installed.add(name);
            return new InstallOutcome.Installed(name, "1.0.0", true, "installed and loaded");
        }

        @Override
        public InstallOutcome upload(byte[] tarball, DowngradePolicy downgrade, SourceAudience audience) {
            changes.add("upload");
            installed.add("uploaded");
            return new InstallOutcome.Installed("uploaded", "1.0.0", true, "installed and loaded");
        }

        @Override
        public RemoveOutcome remove(String name, boolean force, SourceAudience audience) {
            changes.add("remove " + name);
            installed.remove(name);
            return new RemoveOutcome.Removed(name, "1.0.0", List.of(), "removed");
        }

        @Override
        public boolean installEnabled() {
            return true;
        }

        @Override
        public Optional<InstallOutcome.Refused> installRefusal() {
            return Optional.empty();
        }
    }

    /** No sources: an answer names none. */
    private static final class NoSources implements ManageSources {
        @Override
        public List<SourceView> list(Principal caller) {
            return List.of();
        }

        @Override
        public SourceOutcome add(SourceDraft draft, Principal caller) {
            throw new AssertionError("the connector routes add no source");
        }

        @Override
        public SourceOutcome update(String name, SourceDraft draft, Principal caller, SourcePrecondition precondition) {
            throw new AssertionError("the connector routes change no source");
        }

        @Override
        public SourceOutcome remove(String name, Principal caller, Optional<Set<String>> ifVersionIn) {
            throw new AssertionError("the connector routes remove no source");
        }

        @Override
        public SourceCheck test(SourceDraft draft, Principal caller) {
            throw new AssertionError("the connector routes test no source");
        }
    }

    /** Every caller holds every permission: what is tested is the tenant rule, not the roles. */
    private static final class AllowAll implements AccessPolicy {
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
            return new PolicyView(Map.of(), List.of(), "test");
        }
    }
}
