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
            Map<String, Object> responses = new LinkedHashMap<>();
            for (ApiRoutes.Response response : route.responses()) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("description", response.description());
                if (response.mediaType() != null) {
                    entry.put("content", Map.of(response.mediaType(), Map.of()));
                }
                responses.put(Integer.toString(response.status()), entry);
            }
            GuardRefusals.of(route).forEach((status, description) -> addRefusal(responses, status, description));
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
        document.put("components", Map.of("securitySchemes", Map.of(
                "session", Map.of("type", "apiKey", "in", "cookie", "name", "omcp_session",
                        "description", "set by POST /api/auth/login; a mutating request also echoes the CSRF cookie in "
                                + "X-CSRF-Token (docs/access-control.md)"))));
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
            entry.put("content", Map.of("application/json", Map.of()));
            responses.put(Integer.toString(status), entry);
        } else {
            own.put("description", own.get("description") + "; " + description);
        }
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
