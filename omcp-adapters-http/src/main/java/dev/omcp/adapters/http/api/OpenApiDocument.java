package dev.omcp.adapters.http.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Builds the OpenAPI 3.1 document of {@code /api/openapi.json} from the registered routes. */
public final class OpenApiDocument {
    private static final Pattern PATH_PARAM = Pattern.compile("\\{([^}]+)}");
    /** Javalin's {@code <name>}: a path parameter that may contain slashes. */
    private static final Pattern SLASHED_PARAM = Pattern.compile("<([^>]+)>");
    private static final Pattern CODE = Pattern.compile("OMCP_[A-Z0-9_]+");
    private static final String JSON = "application/json";
    /** Every error the gateway answers in JSON has at least these members (docs/management-api.md, Errors). */
    private static final String ERROR_SCHEMA = "#/components/schemas/Error";

    private OpenApiDocument() {}

    /** The document as a JSON-ready map. */
    public static Map<String, Object> build(String title, String version, List<ApiRoutes.Route> routes) {
        Map<String, Object> paths = new LinkedHashMap<>();
        for (ApiRoutes.Route route : routes) {
            @SuppressWarnings("unchecked")
            Map<String, Object> item = (Map<String, Object>) paths.computeIfAbsent(documentedPath(route.path()), p -> new LinkedHashMap<>());
            Map<String, Object> operation = new LinkedHashMap<>();
            operation.put("operationId", operationId(route));
            operation.put("summary", route.summary());
            operation.put("tags", List.of(route.tag()));
            List<Map<String, Object>> parameters = pathParameters(route.path());
            // the query parameters a route declares are all it takes (any other is a 400), so a client can be generated from them
            route.queryParameters().ifPresent(names -> names.forEach(name -> parameters.add(Map.of("name", name, "in", "query",
                    "required", false, "schema", Map.of("type", "string")))));
            if (!parameters.isEmpty()) {
                operation.put("parameters", parameters);
            }
            if (route.publicRoute()) {
                operation.put("security", List.of());
            }
            route.requestBody().ifPresent(body -> operation.put("requestBody", requestBody(body)));
            Map<String, Object> responses = new LinkedHashMap<>();
            for (ApiRoutes.Response response : route.responses()) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("description", response.description());
                if (response.mediaType() != null && !response.mediaType().isBlank()) {
                    entry.put("content", content(response.status(), response.mediaType()));
                }
                responses.put(Integer.toString(response.status()), entry);
            }
            GuardRefusals.of(route).forEach((status, description) -> addRefusal(responses, status, description));
            BodyRefusals.of(route).forEach((status, description) -> addBodyRefusal(responses, status, description));
            operation.put("responses", responses);
            item.put(route.method().toLowerCase(Locale.ROOT), operation);
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("openapi", "3.1.0");
        document.put("info", Map.of(
                "title", title,
                "version", version,
                "description", "Management and discovery API of the OMCP gateway. The MCP transport itself is at /mcp."));
        // The session cookie of POST /api/auth/login is the management API's only credential: a bearer
        // header lets a request skip the CSRF check, but nothing here accepts it as a login (spec 4.3),
        // so a client generated from this document must not be offered one.
        document.put("components", Map.of(
                "securitySchemes", Map.of("session", Map.of("type", "apiKey", "in", "cookie", "name", "omcp_session",
                        "description", "set by POST /api/auth/login; a mutating request also echoes the CSRF cookie in "
                                + "X-CSRF-Token (docs/access-control.md)")),
                "schemas", Map.of("Error", errorSchema())));
        document.put("security", List.of(Map.of("session", List.of())));
        document.put("paths", paths);
        return document;
    }

    /** A refusal the guard can answer: after the route's own words for that status when it has some, else on its own. */
    @SuppressWarnings("unchecked")
    private static void addRefusal(Map<String, Object> responses, int status, String description) {
        Map<String, Object> own = (Map<String, Object>) responses.get(Integer.toString(status));
        if (own == null) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("description", description);
            entry.put("content", content(status, JSON));
            responses.put(Integer.toString(status), entry);
        } else {
            own.put("description", own.get("description") + "; " + description);
        }
    }

    /** A body refusal, unless the route's own words for that status already name its code (a route's own limit is more exact). */
    @SuppressWarnings("unchecked")
    private static void addBodyRefusal(Map<String, Object> responses, int status, String description) {
        Map<String, Object> own = (Map<String, Object>) responses.get(Integer.toString(status));
        Matcher code = CODE.matcher(description);
        if (own != null && code.find() && String.valueOf(own.get("description")).contains(code.group())) {
            return;
        }
        addRefusal(responses, status, description);
    }

    /** What a response carries: an error in the shared shape from 400 on, so a generated client can read its code. */
    private static Map<String, Object> content(int status, String mediaType) {
        return Map.of(mediaType, status >= 400 && mediaType.equals(JSON) ? Map.of("schema", Map.of("$ref", ERROR_SCHEMA)) : Map.of());
    }

    private static Map<String, Object> requestBody(ApiRoutes.RequestBody body) {
        Map<String, Object> content = new LinkedHashMap<>();
        // a JSON body is one object (RequestBodies), described by its route; the other formats by the route's summary
        body.mediaTypes().forEach(type -> content.put(type,
                type.equals(JSON) ? Map.of("schema", body.jsonSchema().orElseThrow()) : Map.of()));
        return Map.of("required", true, "content", content);
    }

    private static Map<String, Object> errorSchema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("code", Map.of("type", "string", "description", "stable, for programs: OMCP_PERMISSION_DENIED, ..."));
        properties.put("error", Map.of("type", "string", "description", "what was wrong and what to do, for people"));
        properties.put("errors", Map.of("type", "array", "items", Map.of("type", "string"),
                "description", "a validation refusal's every problem, each naming its field"));
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("required", List.of("code", "error"));
        schema.put("properties", properties);
        schema.put("description", "every error answered in JSON; a route may add members (sources: reason; 403: required, have; "
                + "RFC 7591 registration: error is its error code, with error_description)");
        return schema;
    }

    private static String operationId(ApiRoutes.Route route) {
        StringBuilder id = new StringBuilder(route.method().toLowerCase(Locale.ROOT));
        for (String part : route.path().split("[/{}<>._-]+")) {
            if (!part.isEmpty()) {
                id.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        return id.toString();
    }

    /**
     * The path as OpenAPI templates it: Javalin's {@code <name>} (slashes allowed) becomes
     * {@code {name}}, and its parameter says that it may contain slashes.
     */
    public static String documentedPath(String path) {
        return SLASHED_PARAM.matcher(path).replaceAll("{$1}");
    }

    private static List<Map<String, Object>> pathParameters(String path) {
        List<Map<String, Object>> parameters = new java.util.ArrayList<>();
        Matcher matcher = PATH_PARAM.matcher(path);
        while (matcher.find()) {
            parameters.add(Map.of("name", matcher.group(1), "in", "path", "required", true, "schema", Map.of("type", "string")));
        }
        Matcher slashed = SLASHED_PARAM.matcher(path);
        while (slashed.find()) {
            parameters.add(Map.of("name", slashed.group(1), "in", "path", "required", true, "schema", Map.of("type", "string"),
                    "description", "may contain slashes, sent unencoded"));
        }
        return parameters;
    }
}
