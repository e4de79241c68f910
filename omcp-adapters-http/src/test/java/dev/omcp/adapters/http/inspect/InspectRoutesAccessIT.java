package dev.omcp.adapters.http.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.adapters.http.access.ManagementGuard;
import dev.omcp.adapters.http.access.NoSessions;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.api.OpenApiDocument;
import dev.omcp.adapters.http.auth.AuthMode;
import dev.omcp.adapters.http.auth.SessionCookies;
import dev.omcp.adapters.http.security.CsrfProtection;
import dev.omcp.adapters.http.security.TrustedProxies;
import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.access.PolicyView;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.ports.audit.AuditTrail;
import dev.omcp.ports.identity.Principal;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Inspect routes behind the real management guard (spec 4.3: inspect reads need {@code inspection:read}; inspect
 * mutations need {@code inspection:write} and are audited): a viewer reads but neither derives nor reviews, an admin's
 * derivation and review are audit entries, and the OpenAPI document lists what each route takes and answers.
 */
class InspectRoutesAccessIT {
    private static final Permission READ = new Permission("inspection", "read");
    private static final Permission WRITE = new Permission("inspection", "write");

    /** A policy holding one role at a time: the viewer's (read) or the admin's (read and write). */
    private static final class OneRole implements AccessPolicy {
        volatile List<Permission> held = List.of(READ);

        @Override
        public AccessDecision decide(Principal principal, Permission permission) {
            return held.contains(permission) ? new AccessDecision.Allowed() : new AccessDecision.Denied(permission, held);
        }

        @Override
        public List<Permission> permissionsOf(Principal principal) {
            return held;
        }

        @Override
        public List<Permission> catalog() {
            return List.of(READ, WRITE);
        }

        @Override
        public PolicyView view() {
            return new PolicyView(Map.of(), List.of(), "test");
        }
    }

    private final FakeInspect inspect = new FakeInspect();
    private final OneRole policy = new OneRole();
    private final List<AuditEvent> audited = new CopyOnWriteArrayList<>();
    private final List<ApiRoutes.Route> documented = new ArrayList<>();
    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    private Javalin app;

    @BeforeEach
    void start() {
        AuditTrail trail = audited::add;
        ManagementGuard guard = new ManagementGuard(AuthMode.ANONYMOUS,
                new SessionCookies("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8)), new NoSessions(),
                policy, new CsrfProtection(true, new byte[32], new SecureRandom()), TrustedProxies.none(), trail);
        app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            ApiRoutes routes = new ApiRoutes(config.routes, guard);
            new InspectRoutes(inspect).register(routes);
            documented.addAll(routes.documented());
        }).start();
    }

    @AfterEach
    void stop() {
        app.stop();
    }

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
                // CSRF-exempt, so the permission and the audit are what is tested
                .header("Authorization", "Bearer machine");
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aViewerReadsEveryInspectView_butNeitherDerivesNorReviewsNorSwitches() throws Exception {
        for (String path : List.of("/api/inspect/mode", "/api/inspect/events", "/api/inspect/profile", "/api/inspect/deviations",
                "/api/inspect/flows")) {
            assertThat(call("GET", path, null).statusCode()).as(path).isEqualTo(200);
        }
        inspect.calls.clear();

        List<HttpResponse<String>> refused = List.of(call("POST", "/api/inspect/profile/derive", null),
                call("PATCH", "/api/inspect/profile/rules/r-0123456789ab", "{\"status\": \"accepted\"}"),
                call("PUT", "/api/inspect/mode", "{\"mode\": \"dryrun\"}"));

        for (HttpResponse<String> response : refused) {
            assertThat(response.statusCode()).as(response.body()).isEqualTo(403);
            JsonNode body = JsonResponses.mapper().readTree(response.body());
            assertThat(body.path("code").asText()).isEqualTo("OMCP_PERMISSION_DENIED");
            assertThat(body.path("error").asText()).contains("inspection:write");
        }
        assertThat(inspect.calls).as("nothing was asked of the core").isEmpty();
        assertThat(audited).extracting(AuditEvent::method, AuditEvent::status)
                .containsExactly(tuple("POST", 403), tuple("PATCH", 403), tuple("PUT", 403));
    }

    @Test
    void anAdminsDerivationAndReview_areAuditEntries_andTheReadsAreNot() throws Exception {
        policy.held = List.of(READ, WRITE);

        assertThat(call("GET", "/api/inspect/profile", null).statusCode()).isEqualTo(200);
        assertThat(call("POST", "/api/inspect/profile/derive", "{\"window\": \"1h\"}").statusCode()).isEqualTo(200);
        assertThat(call("PATCH", "/api/inspect/profile/rules/r-0123456789ab", "{\"status\": \"accepted\"}").statusCode())
                .isEqualTo(200);
        assertThat(call("GET", "/api/inspect/deviations", null).statusCode()).isEqualTo(200);

        assertThat(audited).extracting(AuditEvent::resource, AuditEvent::action, AuditEvent::method, AuditEvent::path,
                AuditEvent::status, AuditEvent::target).containsExactly(
                tuple("inspection", "write", "POST", "/api/inspect/profile/derive", 200, ""),
                tuple("inspection", "write", "PATCH", "/api/inspect/profile/rules/r-0123456789ab", 200, "r-0123456789ab"));
    }

    @Test
    void theOpenApiDocument_listsEachInspectRoute_withItsParametersBodyAndAnswers() {
        Map<String, Object> document = OpenApiDocument.build("OMCP", "test", documented);
        JsonNode paths = JsonResponses.mapper().valueToTree(document).path("paths");

        assertThat(documented).extracting(route -> route.method() + " " + route.path()).containsExactly(
                "GET /api/inspect/mode", "PUT /api/inspect/mode", "GET /api/inspect/events", "GET /api/inspect/profile",
                "POST /api/inspect/profile/derive", "PATCH /api/inspect/profile/rules/{id}", "GET /api/inspect/deviations",
                "GET /api/inspect/flows");
        assertThat(documented).filteredOn(ApiRoutes.Route::mutating).allSatisfy(route -> {
            assertThat(route.reportsToAudit()).as(route.path()).isTrue();
            assertThat(route.permission()).as(route.path()).isEqualTo(WRITE);
        });
        assertThat(documented).filteredOn(route -> !route.mutating())
                .allSatisfy(route -> assertThat(route.permission()).as(route.path()).isEqualTo(READ));

        assertThat(names(paths.path("/api/inspect/deviations").path("get").path("parameters"))).containsExactly("window", "limit");
        assertThat(names(paths.path("/api/inspect/flows").path("get").path("parameters"))).containsExactly("window");
        assertThat(names(paths.path("/api/inspect/profile/rules/{id}").path("patch").path("parameters"))).containsExactly("id");

        JsonNode derive = paths.path("/api/inspect/profile/derive").path("post");
        assertThat(derive.path("requestBody").path("content").path("application/json").path("schema").path("properties")
                .path("window").path("pattern").asText()).isEqualTo("^(?:([1-9][0-9]{0,4})([smhd]))$");
        assertThat(derive.path("responses").path("403").path("description").asText())
                .contains("OMCP_INSPECT_GATEWAY_WIDE", "OMCP_PERMISSION_DENIED", "OMCP_CSRF_MISMATCH");
        assertThat(derive.path("responses").path("503").path("description").asText())
                .contains("OMCP_INSPECT_PROFILE_NOT_SAVED", "OMCP_AUDIT_UNAVAILABLE");
        assertThat(derive.path("responses").fieldNames()).toIterable().contains("200", "400", "401", "403", "408", "413", "415",
                "503");

        JsonNode patch = paths.path("/api/inspect/profile/rules/{id}").path("patch");
        JsonNode patchBody = patch.path("requestBody").path("content").path("application/json").path("schema");
        assertThat(patchBody.path("properties").path("status").path("enum").toString())
                .isEqualTo("[\"suggested\",\"accepted\",\"rejected\"]");
        assertThat(patchBody.path("additionalProperties").asBoolean(true)).isFalse();
        assertThat(patch.path("responses").path("400").path("description").asText())
                .contains("OMCP_INVALID_PARAMETERS", "OMCP_INVALID_BODY", "OMCP_INVALID_RULE");
        assertThat(patch.path("responses").path("404").path("description").asText()).contains("OMCP_RULE_NOT_FOUND");
        assertThat(paths.path("/api/inspect/profile").path("get").path("responses").path("403").path("description").asText())
                .contains("OMCP_INSPECT_GATEWAY_WIDE");
        assertThat(paths.path("/api/inspect/mode").path("put").path("responses").path("409").path("description").asText())
                .contains("OMCP_INSPECT_NO_ACCEPTED_RULES");
    }

    private static List<String> names(JsonNode parameters) {
        return StreamSupport.stream(parameters.spliterator(), false).map(p -> p.path("name").asText()).toList();
    }
}
