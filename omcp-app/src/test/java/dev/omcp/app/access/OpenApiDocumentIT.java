package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.omcp.adapters.http.api.OpenApiDocument;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code GET /api/openapi.json} tells the truth about the gateway that serves it, because CI pipelines and
 * client generators rely on it: it lists exactly the routes served, each with every status a real request
 * can get, and it is a document whose references resolve and whose operations can each be named.
 */
class OpenApiDocumentIT {
    private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final Set<String> OPERATIONS = Set.of("get", "put", "post", "delete", "options", "head", "patch", "trace");
    /** A path parameter's value that names something the gateway below has (the source) or a valid name of nothing. */
    private static final Map<String, String> PATH_VALUES = Map.of("{name}", "shared-prometheus", "{id}", "pm-none",
            "{service}", "payments");
    private static final ObjectMapper JACKSON = new ObjectMapper();
    private static final SchemaRegistry DRAFT_2020_12 = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            builder -> builder.schemaLoader(loader -> loader.fetchRemoteResources(false)));
    /**
     * For every route that reads a JSON body, a body written from its published schema alone: valid by it, and
     * each of its required members left out in turn is a body the gateway must refuse. A new route needs one here.
     */
    private static final Map<String, String> VALID_BODIES = Map.ofEntries(
            Map.entry("POST /api/auth/login", "{\"username\": \"nobody\", \"password\": \"not-the-password\"}"),
            Map.entry("POST /api/auth/revocations", "{\"sub\": \"nobody\", \"reason\": \"left the team\"}"),
            Map.entry("PUT /api/settings",
                    "{\"healthThresholds\": {\"latency_p99\": {\"degraded\": 400, \"critical\": 1500, \"weight\": 2}}}"),
            Map.entry("PUT /api/health/thresholds", "{\"cpu\": {\"degraded\": 0.7, \"critical\": 0.9, \"enabled\": true}}"),
            Map.entry("POST /api/sources", "{\"name\": \"added-by-schema\", \"type\": \"prometheus\", "
                    + "\"url\": \"http://127.0.0.1:1\", "
                    + "\"enabled\": false, \"settings\": {}}"),
            Map.entry("POST /api/sources/test",
                    "{\"name\": \"probe\", \"type\": \"prometheus\", \"url\": \"http://127.0.0.1:1\"}"),
            Map.entry("PUT /api/sources/{name}", "{\"type\": \"prometheus\", \"url\": \"http://127.0.0.1:1\"}"),
            Map.entry("POST /api/postmortems", "{\"service\": \"payments\", \"duration\": \"30m\"}"),
            Map.entry("POST /api/playground/invoke", "{\"tool\": \"list_sources\", \"arguments\": {}}"),
            Map.entry("POST /api/connectors/install", "{\"name\": \"no-such-connector\", \"version\": \"1.0.0\"}"),
            // "pm-none" is the path's {id} (PATH_VALUES); list_sources is a registered tool
            Map.entry("PUT /api/products/{id}", "{\"id\": \"pm-none\", \"name\": \"Schema example\", \"status\": \"staging\", "
                    + "\"tools\": [\"list_sources\"]}"),
            Map.entry("PUT /api/inspect/mode", "{\"mode\": \"observe\"}"),
            Map.entry("POST /api/inspect/profile/derive", "{\"window\": \"1h\"}"),
            Map.entry("PATCH /api/inspect/profile/rules/{id}", "{\"status\": \"accepted\"}"));
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    static Path dir;

    private static TestGateway gateway;
    private static Browser alice;
    private static JsonNode document;

    /** What a client can get wrong about a body, each sent to every route that changes something. */
    enum BadBody {
        NOT_DECLARED_JSON("text/plain", "{}"),
        OVER_ONE_MEBIBYTE("application/json", "{\"padding\": \"" + "x".repeat(1024 * 1024) + "\"}"),
        NOT_JSON("application/json", "{\"unterminated"),
        UNKNOWN_MEMBER("application/json", "{\"noSuchMember\": 1}");

        final String contentType;
        final String body;

        BadBody(String contentType, String body) {
            this.contentType = contentType;
            this.body = body;
        }
    }

    @BeforeAll
    static void start() throws IOException {
        Path sources = dir.resolve("sources.yaml");
        Files.writeString(sources, """
                sources:
                  - name: shared-prometheus
                    type: prometheus
                    url: http://127.0.0.1:1
                """);
        Path reference = Path.of(System.getProperty("omcp.reference.dir", "../omcp-testkit/target/reference-plugins"))
                .toAbsolutePath();
        Map<String, String> env = new HashMap<>(ManagementUsers.basicMode(dir));
        env.put("CONFIG_PATH", sources.toString());
        env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");
        // every connector route reads what it is sent, rather than refusing it as switched off
        env.put("PLUGINS_DIR", dir.resolve("plugins").toString());
        env.put("HUB_CATALOG_URL", reference.resolve("hub").toString());
        env.put("PLUGIN_TRUST_ROOT", reference.resolve("trust-root.pem").toString());
        env.put("ENABLE_UI_INSTALL", "true");
        gateway = TestGateway.start(env, new ManualClock(Instant.parse("2026-03-01T10:00:00Z")), "0.1.0");
        alice = ManagementUsers.login(gateway, "alice");
        document = alice.get("/api/openapi.json").json();
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void theDocumentListsExactlyTheRoutesServed_methodsIncluded() {
        Set<String> served = new TreeSet<>();
        for (String route : gateway.assembly().server().servedRoutes()) {
            String method = route.substring(0, route.indexOf(' '));
            String path = route.substring(route.indexOf(' ') + 1);
            if (path.equals("/mcp") || path.startsWith("/mcp/")) {
                // the MCP transport has its own specification; the document's description points there
                continue;
            }
            // HEAD is GET without the body (RFC 9110): served wherever GET is, listed as the GET
            served.add((method.equals("HEAD") ? "GET" : method) + " " + OpenApiDocument.documentedPath(path));
        }
        Set<String> documented = new TreeSet<>();
        document.path("paths").fields().forEachRemaining(item -> item.getValue().fieldNames().forEachRemaining(key -> {
            if (OPERATIONS.contains(key)) {
                documented.add(key.toUpperCase(Locale.ROOT) + " " + item.getKey());
            }
        }));
        assertThat(difference(served, documented)).as("served but not in /api/openapi.json").isEmpty();
        assertThat(difference(documented, served)).as("in /api/openapi.json but not served").isEmpty();
        assertThat(documented).as("the management API is there at all").contains("POST /api/sources",
                "DELETE /api/sources/{name}", "GET /api/health/{service}", "PUT /api/settings");
    }

    @ParameterizedTest
    @EnumSource(BadBody.class)
    void everyChangingRoute_answersABadBodyWithAStatusItsOperationLists_inTheErrorShape(BadBody bad) {
        List<String> problems = new ArrayList<>();
        int sent = 0;
        for (Iterator<Map.Entry<String, JsonNode>> items = document.path("paths").fields(); items.hasNext(); ) {
            Map.Entry<String, JsonNode> item = items.next();
            for (String method : MUTATING) {
                JsonNode operation = item.getValue().path(method.toLowerCase(Locale.ROOT));
                if (operation.isMissingNode()) {
                    continue;
                }
                HttpResponse<String> answer = send(method, concrete(item.getKey()), bad, operation);
                sent++;
                String route = method + " " + item.getKey();
                int status = answer.statusCode();
                if (!operation.path("responses").has(Integer.toString(status))) {
                    problems.add(route + ": answered " + status + ", which its operation does not list: " + cut(answer.body()));
                    continue;
                }
                if (operation.path("requestBody").path("content").has("application/json") && status < 400) {
                    problems.add(route + ": takes a JSON body, yet accepted " + bad + " with " + status);
                }
                if (status >= 400 && !isErrorShape(answer)) {
                    problems.add(route + ": " + status + " is not {code, error}: " + cut(answer.body()));
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(sent).as("routes that change something").isGreaterThan(15);
    }

    @Test
    void everyRouteThatReadsAJsonBody_saysSo_andListsTheBodyRefusals() {
        List<String> missing = new ArrayList<>();
        document.path("paths").fields().forEachRemaining(item -> item.getValue().fields().forEachRemaining(operation -> {
            if (!operation.getValue().path("requestBody").path("content").has("application/json")) {
                return;
            }
            for (String status : List.of("400", "408", "413", "415")) {
                if (!operation.getValue().path("responses").has(status)) {
                    missing.add(operation.getKey() + " " + item.getKey() + " " + status);
                }
            }
        }));
        assertThat(missing).isEmpty();
        assertThat(document.path("paths").path("/api/sources").path("post").path("requestBody").path("required").asBoolean())
                .as("a client generated from the document sends the body").isTrue();
        assertThat(document.path("paths").path("/api/settings").path("put").path("requestBody").path("content").has("application/json"))
                .isTrue();
        assertThat(document.path("paths").path("/api/connectors/upload").path("post").path("requestBody").path("content")
                .has("application/octet-stream")).isTrue();
    }

    @Test
    void everyJsonBody_hasASchemaThatSaysWhatToSend_andAnExampleHere() {
        List<String> bare = new ArrayList<>();
        Set<String> withJson = new TreeSet<>();
        jsonBodies().forEach((route, schema) -> {
            withJson.add(route);
            boolean members = schema.has("properties") || schema.has("additionalProperties") || schema.has("anyOf");
            if (!members || schema.path("description").asText().isBlank()) {
                bare.add(route + ": " + schema);
            }
        });
        assertThat(bare).as("JSON bodies published as a bare object").isEmpty();
        assertThat(withJson).isEqualTo(new TreeSet<>(VALID_BODIES.keySet()));
    }

    @Test
    void aBodyValidByThePublishedSchema_isAcceptedByTheGateway() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, JsonNode> body : jsonBodies().entrySet()) {
            String example = VALID_BODIES.get(body.getKey());
            List<String> violations = violations(body.getValue(), JACKSON.readTree(example));
            if (!violations.isEmpty()) {
                problems.add(body.getKey() + ": the example breaks the published schema: " + violations);
                continue;
            }
            HttpResponse<String> answer = sendTo(body.getKey(), example);
            if (Set.of(400, 413, 415).contains(answer.statusCode())) {
                problems.add(body.getKey() + ": refused a body valid by its schema with " + answer.statusCode() + ": "
                        + cut(answer.body()));
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void everyRequiredMemberOfAPublishedSchema_isRequiredByTheGateway() throws IOException {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Map.Entry<String, JsonNode> body : jsonBodies().entrySet()) {
            for (JsonNode required : body.getValue().path("required")) {
                ObjectNode without = (ObjectNode) JACKSON.readTree(VALID_BODIES.get(body.getKey()));
                without.remove(required.asText());
                checked++;
                String route = body.getKey() + " without " + required.asText();
                if (violations(body.getValue(), without).isEmpty()) {
                    problems.add(route + ": the published schema takes it");
                }
                HttpResponse<String> answer = sendTo(body.getKey(), without.toString());
                if (answer.statusCode() != 400 || !isErrorShape(answer)) {
                    problems.add(route + ": answered " + answer.statusCode() + ", not a 400 error: " + cut(answer.body()));
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(checked).as("required members published and checked").isGreaterThanOrEqualTo(8);
    }

    @Test
    void everyErrorAnswerIsDescribedWithTheSharedErrorShape() {
        JsonNode error = document.path("components").path("schemas").path("Error");
        assertThat(error.path("required").toString()).contains("\"code\"", "\"error\"");
        List<String> without = new ArrayList<>();
        document.path("paths").fields().forEachRemaining(item -> item.getValue().fields().forEachRemaining(operation ->
                operation.getValue().path("responses").fields().forEachRemaining(response -> {
                    JsonNode json = response.getValue().path("content").path("application/json");
                    if (Integer.parseInt(response.getKey()) >= 400 && !json.isMissingNode()
                            && !json.path("schema").path("$ref").asText().equals("#/components/schemas/Error")) {
                        without.add(operation.getKey() + " " + item.getKey() + " " + response.getKey());
                    }
                })));
        assertThat(without).isEmpty();
    }

    @Test
    void everyOperationHasAUniqueOperationId_everyReferenceResolves_andEveryPathParameterIsDeclared() {
        List<String> problems = new ArrayList<>();
        Map<String, String> operationIds = new HashMap<>();
        document.path("paths").fields().forEachRemaining(item -> item.getValue().fields().forEachRemaining(operation -> {
            String route = operation.getKey() + " " + item.getKey();
            String id = operation.getValue().path("operationId").asText();
            String earlier = operationIds.putIfAbsent(id, route);
            if (id.isEmpty() || earlier != null) {
                problems.add(route + ": operationId '" + id + "' is empty or also " + earlier + "'s");
            }
            Set<String> declared = new TreeSet<>();
            operation.getValue().path("parameters").forEach(p -> {
                if (p.path("in").asText().equals("path")) {
                    declared.add(p.path("name").asText());
                }
            });
            Set<String> templated = new TreeSet<>();
            java.util.regex.Matcher names = java.util.regex.Pattern.compile("\\{([^}]+)}").matcher(item.getKey());
            while (names.find()) {
                templated.add(names.group(1));
            }
            if (!declared.equals(templated)) {
                problems.add(route + ": path parameters declared " + declared + ", templated " + templated);
            }
            operation.getValue().path("responses").fields().forEachRemaining(response -> {
                if (!response.getKey().matches("[1-5][0-9][0-9]") || response.getValue().path("description").asText().isBlank()) {
                    problems.add(route + ": response " + response.getKey() + " needs a status code and a description");
                }
            });
        }));
        List<String> references = new ArrayList<>();
        collectReferences(document, references);
        for (String reference : references) {
            if (!reference.startsWith("#/") || document.at(reference.substring(1)).isMissingNode()) {
                problems.add("$ref " + reference + " does not resolve within the document");
            }
        }
        assertThat(problems).isEmpty();
        assertThat(document.path("openapi").asText()).isEqualTo("3.1.0");
    }

    /** The published schema of every JSON body, by route ({@code POST /api/sources}). */
    private static Map<String, JsonNode> jsonBodies() {
        Map<String, JsonNode> bodies = new java.util.TreeMap<>();
        document.path("paths").fields().forEachRemaining(item -> item.getValue().fields().forEachRemaining(operation -> {
            JsonNode json = operation.getValue().path("requestBody").path("content").path("application/json");
            if (!json.isMissingNode()) {
                bodies.put(operation.getKey().toUpperCase(Locale.ROOT) + " " + item.getKey(), json.path("schema"));
            }
        }));
        return bodies;
    }

    /** What an independent draft 2020-12 validator (OpenAPI 3.1's dialect) finds wrong with {@code body}. */
    private static List<String> violations(JsonNode schema, JsonNode body) {
        Schema compiled = DRAFT_2020_12.getSchema(schema);
        return compiled.validate(body).stream().map(e -> e.getInstanceLocation() + ": " + e.getMessage()).toList();
    }

    private static HttpResponse<String> sendTo(String route, String body) {
        String method = route.substring(0, route.indexOf(' '));
        String path = route.substring(route.indexOf(' ') + 1);
        JsonNode operation = document.path("paths").path(path).path(method.toLowerCase(Locale.ROOT));
        return send(method, concrete(path), "application/json", body, operation);
    }

    private static void collectReferences(JsonNode node, List<String> references) {
        if (node.isObject() && node.has("$ref")) {
            references.add(node.path("$ref").asText());
        }
        node.forEach(child -> collectReferences(child, references));
    }

    private static HttpResponse<String> send(String method, String path, BadBody bad, JsonNode operation) {
        return send(method, path, bad.contentType, bad.body, operation);
    }

    private static HttpResponse<String> send(String method, String path, String contentType, String body, JsonNode operation) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.base() + path)).timeout(Duration.ofSeconds(20))
                .method(method, HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", contentType);
        // a public route is sent as a stranger sends it: the logout would otherwise end alice's session
        if (!(operation.has("security") && operation.path("security").isEmpty())) {
            request.header("Cookie", alice.cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining("; ")));
            request.header("X-CSRF-Token", alice.csrfToken());
        }
        try {
            return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + " with " + cut(body) + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static boolean isErrorShape(HttpResponse<String> answer) {
        if (!answer.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
            return false;
        }
        try {
            JsonNode body = new com.fasterxml.jackson.databind.ObjectMapper().readTree(answer.body());
            return body.path("code").isTextual() && body.path("error").isTextual();
        } catch (IOException e) {
            return false;
        }
    }

    private static String concrete(String documentedPath) {
        String path = documentedPath;
        for (Map.Entry<String, String> value : PATH_VALUES.entrySet()) {
            path = path.replace(value.getKey(), value.getValue());
        }
        return path.replaceAll("\\{[^}]+}", "x");
    }

    private static Set<String> difference(Set<String> from, Set<String> without) {
        Set<String> left = new TreeSet<>(from);
        left.removeAll(without);
        return left;
    }

    private static String cut(String body) {
        return body.length() > 300 ? body.substring(0, 300) + "..." : body;
    }
}
