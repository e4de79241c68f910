package dev.omcp.adapters.http.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.access.Permission;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The refusals the management guard answers before any handler are in the document of every route they can reach. */
class OpenApiDocumentTest {
    private static final List<ApiRoutes.Response> OK = List.of(new ApiRoutes.Response(200, "OK", "application/json"));
    private static final Map<String, Object> NAMED = BodySchema.object("a named thing")
            .requiredProperty("name", BodySchema.string("its name", 1, 63))
            .property("enabled", BodySchema.bool("whether it is on"))
            .build();

    private static ApiRoutes.RequestBody jsonBody(Map<String, Object> schema) {
        return new ApiRoutes.RequestBody(List.of("application/json"), true, Optional.of(schema));
    }

    private static ApiRoutes.Route route(String method, String path, boolean publicRoute, Permission permission, boolean csrfExempt,
            boolean audited) {
        return new ApiRoutes.Route(method, path, "summary", "management", publicRoute, OK, permission, csrfExempt, audited,
                "area", "action", false, Optional.empty(), Optional.empty());
    }

    private static ApiRoutes.Route withBody(List<ApiRoutes.Response> responses, ApiRoutes.RequestBody body) {
        return new ApiRoutes.Route("PUT", "/api/x", "summary", "management", false, responses, new Permission("x", "write"), false,
                true, "x", "write", false, Optional.empty(), Optional.of(body));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> operation(ApiRoutes.Route route) {
        Map<String, Object> paths = (Map<String, Object>) OpenApiDocument.build("OMCP", "1", List.of(route)).get("paths");
        Map<String, Object> item = (Map<String, Object>) paths.get(OpenApiDocument.documentedPath(route.path()));
        return (Map<String, Object>) item.get(route.method().toLowerCase(java.util.Locale.ROOT));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> responses(ApiRoutes.Route route) {
        return (Map<String, Map<String, Object>>) operation(route).get("responses");
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
        assertThat(responses.get("403")).containsEntry("content",
                Map.of("application/json", Map.of("schema", Map.of("$ref", "#/components/schemas/Error"))));
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
                "x", "delete", false, Optional.empty(), Optional.empty());
        assertThat(responses(route).get("403").get("description")).asString().startsWith("its own words; ")
                .contains("OMCP_PERMISSION_DENIED");
        assertThat(responses(route)).containsKeys("401", "503");
    }

    @Test
    void aRouteReadingAJsonBody_documentsTheBody_andEveryRefusalOfOne() {
        ApiRoutes.Route route = withBody(OK, jsonBody(NAMED));
        assertThat(operation(route).get("requestBody")).isEqualTo(Map.of("required", true,
                "content", Map.of("application/json", Map.of("schema", NAMED))));
        Map<String, Map<String, Object>> responses = responses(route);
        assertThat(responses.get("400").get("description")).asString().contains("OMCP_INVALID_BODY");
        assertThat(responses.get("408").get("description")).asString().contains("OMCP_BODY_TIMEOUT");
        assertThat(responses.get("413").get("description")).asString().contains("1 MiB", "OMCP_BODY_TOO_LARGE");
        assertThat(responses.get("415").get("description")).asString().contains("OMCP_UNSUPPORTED_MEDIA_TYPE");
    }

    @Test
    void aRouteReadingABodyOfItsOwnFormat_keepsItsOwnRefusals_andGetsOnlyTheDeadline() {
        ApiRoutes.Route route = withBody(List.of(new ApiRoutes.Response(201, "installed", "application/json"),
                        new ApiRoutes.Response(413, "over 50 MiB (OMCP_BUNDLE_TOO_LARGE)", "application/json")),
                new ApiRoutes.RequestBody(List.of("application/octet-stream"), false, Optional.empty()));
        assertThat(operation(route).get("requestBody")).isEqualTo(Map.of("required", true,
                "content", Map.of("application/octet-stream", Map.of())));
        Map<String, Map<String, Object>> responses = responses(route);
        assertThat(responses.get("413").get("description")).isEqualTo("over 50 MiB (OMCP_BUNDLE_TOO_LARGE)");
        assertThat(responses).containsKey("408").doesNotContainKey("415");
    }

    @Test
    void aBodyRefusalTheRouteAlreadyNames_isNotRepeated_whileOneItDoesNotName_isAdded() {
        ApiRoutes.Route route = withBody(List.of(new ApiRoutes.Response(200, "OK", "application/json"),
                        new ApiRoutes.Response(415, "not JSON (OMCP_UNSUPPORTED_MEDIA_TYPE)", "application/json"),
                        new ApiRoutes.Response(400, "invalid thresholds (OMCP_INVALID_THRESHOLDS)", "application/json")),
                jsonBody(NAMED));
        Map<String, Map<String, Object>> responses = responses(route);
        assertThat(responses.get("415").get("description")).isEqualTo("not JSON (OMCP_UNSUPPORTED_MEDIA_TYPE)");
        assertThat(responses.get("400").get("description")).asString().startsWith("invalid thresholds (OMCP_INVALID_THRESHOLDS); ")
                .contains("OMCP_INVALID_BODY");
    }

    @Test
    void everyErrorInJson_isDescribedByTheSharedErrorSchema_andAnAnswerWithoutABodyHasNoContent() {
        ApiRoutes.Route route = new ApiRoutes.Route("DELETE", "/api/x/{id}", "summary", "management", false,
                List.of(new ApiRoutes.Response(204, "deleted", ""), new ApiRoutes.Response(404, "no such x", "application/json")),
                new Permission("x", "delete"), false, true, "x", "delete", false, Optional.empty(), Optional.empty());
        Map<String, Map<String, Object>> responses = responses(route);
        Map<String, Object> errorContent = Map.of("application/json", Map.of("schema", Map.of("$ref", "#/components/schemas/Error")));
        assertThat(responses.get("404")).containsEntry("content", errorContent);
        assertThat(responses.get("403")).containsEntry("content", errorContent);
        assertThat(responses.get("204")).doesNotContainKey("content");
        @SuppressWarnings("unchecked")
        Map<String, Object> schemas = (Map<String, Object>) ((Map<String, Object>) OpenApiDocument.build("OMCP", "1", List.of(route))
                .get("components")).get("schemas");
        assertThat(schemas).containsKey("Error");
        assertThat(((Map<?, ?>) schemas.get("Error")).get("required")).isEqualTo(List.of("code", "error"));
    }

    @Test
    void aJsonBody_cannotBePublishedAsABareObject_norWithoutASchema() {
        assertThatThrownBy(() -> jsonBody(Map.of("type", "object"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not just");
        assertThatThrownBy(() -> jsonBody(Map.of("type", "object", "properties", Map.of("a", Map.of("type", "string")))))
                .as("properties without a description").isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ApiRoutes.RequestBody(List.of("application/json"), true, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ApiRoutes.RequestBody(List.of("application/octet-stream"), false, Optional.of(NAMED)))
                .as("a schema for a body that is not JSON").isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anObjectSchema_takesOnlyItsProperties_unlessItSaysWhatElseItTakes() {
        assertThat(NAMED).containsEntry("type", "object").containsEntry("required", List.of("name"))
                .containsEntry("additionalProperties", false);
        assertThat(NAMED.get("properties")).isEqualTo(Map.of(
                "name", Map.of("type", "string", "description", "its name", "minLength", 1, "maxLength", 63),
                "enabled", Map.of("type", "boolean", "description", "whether it is on")));
        Map<String, Object> open = BodySchema.object("metadata").otherMembers("ignored").build();
        assertThat(open).containsEntry("additionalProperties", Map.of("description", "ignored"));
        assertThat(BodySchema.describes(open)).isTrue();
        assertThatThrownBy(() -> BodySchema.object("x").required(List.of("missing"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPatternOfTheHandler_isAnchored_asItsWholeMatchIs() {
        assertThat(BodySchema.string("a name", java.util.regex.Pattern.compile("[a-z]+|[0-9]+")))
                .containsEntry("pattern", "^(?:[a-z]+|[0-9]+)$");
    }
}
