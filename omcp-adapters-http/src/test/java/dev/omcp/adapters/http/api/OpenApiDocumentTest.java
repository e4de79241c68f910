package dev.omcp.adapters.http.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.access.Permission;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The refusals the management guard answers before any handler are in the document of every route they can reach. */
class OpenApiDocumentTest {
    private static final List<ApiRoutes.Response> OK = List.of(new ApiRoutes.Response(200, "OK", "application/json"));

    private static ApiRoutes.Route route(String method, String path, boolean publicRoute, Permission permission, boolean csrfExempt,
            boolean audited) {
        return new ApiRoutes.Route(method, path, "summary", "management", publicRoute, OK, permission, csrfExempt, audited,
                "area", "action", false, Optional.empty());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> responses(ApiRoutes.Route route) {
        Map<String, Object> paths = (Map<String, Object>) OpenApiDocument.build("OMCP", "1", List.of(route)).get("paths");
        Map<String, Object> item = (Map<String, Object>) paths.get(OpenApiDocument.documentedPath(route.path()));
        Map<String, Object> operation = (Map<String, Object>) item.get(route.method().toLowerCase(java.util.Locale.ROOT));
        return (Map<String, Map<String, Object>>) operation.get("responses");
    }

    @Test
    void aProtectedChange_documentsEveryGuardRefusal() {
        Map<String, Map<String, Object>> responses = responses(route("PUT", "/api/sources/{name}", false,
                new Permission("sources", "write"), false, true));
        assertThat(responses).containsKeys("200", "401", "403", "503");
        assertThat(responses.get("401").get("description")).asString().contains("OMCP_AUTH_REQUIRED");
        assertThat(responses.get("403").get("description")).asString()
                .contains("OMCP_CSRF_MISMATCH", "OMCP_PERMISSION_DENIED", "sources:write");
        assertThat(responses.get("503").get("description")).asString()
                .contains("OMCP_POLICY_UNAVAILABLE", "OMCP_AUDIT_UNAVAILABLE", "OMCP_SHARED_STATE_UNAVAILABLE");
        assertThat(responses.get("403")).containsEntry("content", Map.of("application/json", Map.of()));
    }

    @Test
    void aProtectedRead_documentsOnlyTheRefusalsAReadCanMeet() {
        Map<String, Map<String, Object>> responses = responses(route("GET", "/api/sources", false,
                new Permission("sources", "read"), false, true));
        assertThat(responses.get("403").get("description")).asString().contains("OMCP_PERMISSION_DENIED")
                .doesNotContain("CSRF");
        assertThat(responses.get("503").get("description")).asString().contains("OMCP_POLICY_UNAVAILABLE")
                .doesNotContain("OMCP_AUDIT_UNAVAILABLE");
    }

    @Test
    void aPublicRoute_documentsNoSessionRefusal_andAnExemptOne_noCsrfRefusal() {
        Map<String, Map<String, Object>> login = responses(route("POST", "/api/auth/login", true, null, true, true));
        assertThat(login).doesNotContainKeys("401", "403");
        assertThat(login.get("503").get("description")).asString().contains("OMCP_AUDIT_UNAVAILABLE");
        Map<String, Map<String, Object>> info = responses(route("GET", "/api/info", true, null, false, false));
        assertThat(info).containsOnlyKeys("200");
    }

    @Test
    void aStatusTheRouteDocumentsItself_keepsItsOwnDescription_followedByTheGuards() {
        ApiRoutes.Route route = new ApiRoutes.Route("DELETE", "/api/x/{id}", "summary", "management", false,
                List.of(new ApiRoutes.Response(403, "its own words", "application/json")), new Permission("x", "delete"), false, true,
                "x", "delete", false, Optional.empty());
        assertThat(responses(route).get("403").get("description")).asString().startsWith("its own words; ")
                .contains("OMCP_PERMISSION_DENIED");
        assertThat(responses(route)).containsKeys("401", "503");
    }
}
