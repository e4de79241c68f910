package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.Settings;
import dev.omcp.app.support.CheckedToolCalls;
import dev.omcp.app.support.McpHttpClient;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.core.sources.Bound;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.sources.SourceContact;
import dev.omcp.sdk.connector.LogsCapability;
import dev.omcp.sdk.connector.MetricsCapability;
import dev.omcp.sdk.query.LogQuery;
import dev.omcp.sdk.query.LogResult;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.testkit.loki.LokiFake;
import com.sun.net.httpserver.HttpServer;
import jakarta.json.JsonObject;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's wiring of sources: file, environment, egress guard, registry and routes, in process on port 0. */
class SourcesWiringIT {
    private final HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();

    private GatewayAssembly start(Map<String, String> env) throws Exception {
        Map<String, String> all = new HashMap<>(env);
        all.put("PORT", "0");
        Settings settings = SettingsReader.read(all);
        return GatewayAssembly.start(settings, GatewayAssembly.Options.none(), "test");
    }

    private HttpResponse<String> call(GatewayAssembly gateway, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
                .header("Content-Type", "application/json")
                // a bearer header is exempt from the CSRF check (spec 4.3), as for any non-browser client
                .header("Authorization", "Bearer test-cli")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theGatewayStartsWithZeroSources() throws Exception {
        // spec 1.4
        try (GatewayAssembly gateway = start(Map.of())) {
            HttpResponse<String> list = call(gateway, "GET", "/api/sources", null);
            assertThat(list.statusCode()).isEqualTo(200);
            assertThat(list.body()).isEqualTo("{\"sources\":[]}");
            HttpResponse<String> metadata = call(gateway, "POST", "/api/sources",
                    "{\"name\":\"m\",\"type\":\"prometheus\",\"url\":\"http://[::ffff:169.254.169.254]/\"}");
            assertThat(metadata.statusCode()).isEqualTo(400);
            assertThat(metadata.body()).contains("OMCP_SOURCE_URL_REJECTED").contains("cloud-metadata");
            HttpResponse<String> loopback = call(gateway, "POST", "/api/sources/test",
                    "{\"name\":\"l\",\"type\":\"prometheus\",\"url\":\"http://2130706433:9090/\"}");
            assertThat(loopback.statusCode()).isEqualTo(400);
            assertThat(loopback.body()).contains("OMCP_ALLOW_PRIVATE_BACKENDS");
        }
    }

    @Test
    void aSourcesFileWithASecretFromTheEnvironmentServesLogsThroughTheGuardedClient(@TempDir Path dir) throws Exception {
        Instant t0 = Instant.parse("2026-01-01T10:00:00Z");
        try (LokiFake loki = new LokiFake()) {
            loki.push(Map.of("service_name", "api"), t0.plusSeconds(5), "{\"level\":\"error\",\"msg\":\"boom\"}");
            Path file = dir.resolve("sources.yaml");
            Files.writeString(file, """
                    sources:
                      - name: logs
                        type: loki
                        url: ${LOKI_BASE}
                        headers: {X-Scope-OrgID: "${LOKI_TENANT}"}
                    """);
            Map<String, String> env = Map.of("CONFIG_PATH", file.toString(), "LOKI_BASE", loki.url(), "LOKI_TENANT", "team-secret",
                    "OMCP_ALLOW_PRIVATE_BACKENDS", "true");
            try (GatewayAssembly gateway = start(env)) {
                HttpResponse<String> list = call(gateway, "GET", "/api/sources", null);
                assertThat(list.body()).contains("\"status\":\"connected\"").contains("queryLogs").doesNotContain(loki.url() + "/");

                List<Bound<LogsCapability>> logs = gateway.sources().with(LogsCapability.class, Principal.anonymous());
                assertThat(logs).extracting(Bound::source).containsExactly("logs");
                LogResult result = logs.get(0).capability().queryLogs(new LogQuery("api", new TimeRange(t0, t0.plusSeconds(60)),
                        Optional.empty(), Optional.of("error"), Map.of(), 10));
                assertThat(result.entries()).singleElement().satisfies(e -> assertThat(e.line()).contains("boom"));
                assertThat(loki.requests()).allSatisfy(r -> assertThat(r.headers()).containsEntry("x-scope-orgid", "team-secret"));

                // an API change writes the file back with the ${VAR} text, never the substituted values
                HttpResponse<String> updated = call(gateway, "PUT", "/api/sources/logs",
                        "{\"type\":\"loki\",\"settings\":{\"headers\":{\"X-Scope-OrgID\":\"team-secret\"},\"logFormat\":\"logfmt\"}}");
                assertThat(updated.statusCode()).isEqualTo(200);
                String written = Files.readString(file);
                assertThat(written).contains("${LOKI_BASE}").contains("${LOKI_TENANT}").contains("logFormat: logfmt")
                        .doesNotContain("team-secret").doesNotContain(loki.url());
                assertThat(call(gateway, "DELETE", "/api/sources/logs", null).statusCode()).isEqualTo(204);
                assertThat(gateway.sources().with(LogsCapability.class, Principal.anonymous())).isEmpty();
            }
        }
    }

    @Test
    void aLoneLogsSourceThatStopsAnsweringCostsTheToolCallItsTimeoutAndNothingMore() throws Exception {
        // The lone source's call runs on the tool call's own thread (FanOut), so the deadline ends it by
        // interrupting that thread: the real HTTP client has to give up on that interrupt for the answer to
        // come at the timeout, twice in a row on one session. (FanOutTest shows the interrupt is cleared.)
        // The answer still names the LogQL that hung, for lines and for counts, so the agent knows what to narrow.
        CountDownLatch release = new CountDownLatch(1);
        HttpServer loki = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        loki.createContext("/", exchange -> {
            try (exchange) {
                if (exchange.getRequestURI().getPath().endsWith("/query_range")) {
                    release.await();
                }
                byte[] body = "{\"status\":\"success\",\"data\":[\"api\"]}".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        loki.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        loki.start();
        String url = "http://127.0.0.1:" + loki.getAddress().getPort();
        try (GatewayAssembly gateway = start(Map.of("LOKI_URL", url, "OMCP_ALLOW_PRIVATE_BACKENDS", "true",
                "OMCP_TOOL_SOURCE_TIMEOUT", "1"))) {
            McpHttpClient mcp = new McpHttpClient("http://127.0.0.1:" + gateway.port());
            mcp.initialize();
            CheckedToolCalls tools = new CheckedToolCalls(mcp);
            for (int call = 0; call < 2; call++) {
                long start = System.nanoTime();
                JsonObject logs = tools.tool("query_logs", "{\"service\":\"api\",\"filter\":\"time(out|d out)\"}");
                Duration took = Duration.ofNanos(System.nanoTime() - start);

                assertThat(logs.toString()).contains("\"loki\"").contains("did not answer in time");
                assertThat(logs.getJsonArray("lines")).isEmpty();
                assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(900)).isLessThan(Duration.ofSeconds(5));
                // the LogQL the connector sent, though the deadline left no answer to carry it
                assertThat(logs.getJsonArray("failedSources").getJsonObject(0).getString("query"))
                        .isEqualTo("{service_name=\"api\"} |~ \"time(out|d out)\"");
                assertThat(logs.getString("note")).contains("narrow the query that ran out of time (failedSources[].query)");
            }
            JsonObject counts = tools.tool("query_logs", "{\"service\":\"api\",\"aggregate\":\"sum\",\"level\":\"error\"}");
            assertThat(counts.getJsonArray("failedSources").getJsonObject(0).getString("query"))
                    .isEqualTo("sum(count_over_time({service_name=\"api\"} | json | __error__=\"\""
                            + " | level=~\"(?i)(error|err)\" [60s]))");
            // the post-mortem's log search as well, in its json form
            JsonObject postmortem = tools.tool("generate_postmortem", "{\"service\":\"api\",\"format\":\"json\"}");
            assertThat(postmortem.getJsonArray("failedSources").getValuesAs(JsonObject.class))
                    .filteredOn(f -> f.getString("signal").equals("logs"))
                    .singleElement()
                    .satisfies(f -> assertThat(f.getString("query")).startsWith("{service_name=\"api\"}").contains("error"));
            // list_sources, which asks no backend, tells from those calls that the source is failing now
            JsonObject listed = tools.tool("list_sources", "{}").getJsonArray("sources").getValuesAs(JsonObject.class).stream()
                    .filter(s -> s.getString("name").equals("loki")).findFirst().orElseThrow();
            assertThat(listed.getString("status")).isEqualTo("connected");
            assertThat(listed.getString("lastFailure")).isEqualTo("timeout");
            assertThat(Instant.parse(listed.getString("lastFailureAt"))).isAfter(Instant.now().minusSeconds(60));
            assertThat(call(gateway, "GET", "/api/sources", null).body()).contains("\"lastFailure\":\"timeout\"");
            // /api/health turns degraded only when failures keep coming with no answer between them
            // (SourceContact.keepsFailing); here the fake still answers label lookups, which end a streak
            int streak = listed.getInt("consecutiveFailures", 0);
            boolean keepsFailing = streak >= SourceContact.FAILING_CALLS && Duration.between(
                    Instant.parse(listed.getString("failingSince")), Instant.parse(listed.getString("lastFailureAt")))
                    .compareTo(SourceContact.FAILING_SPAN) >= 0;
            assertThat(call(gateway, "GET", "/api/health", null).body())
                    .startsWith(keepsFailing ? "{\"status\":\"degraded\"" : "{\"status\":\"ok\"")
                    .contains(keepsFailing ? "\"failing\":1" : "\"failing\":0");
        } finally {
            release.countDown();
            loki.stop(0);
        }
    }

    @Test
    void aSourcesFileThatCannotBeRead_isShownToOperatorsAndAgents_notPassedOffAsNoSources(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sources.yaml");
        String broken = "sources:\n  - name: prom\n    type: prometheus\n    url: [unclosed\n";
        Files.writeString(file, broken);
        try (GatewayAssembly gateway = start(Map.of("CONFIG_PATH", file.toString(), "PROMETHEUS_URL", "http://127.0.0.1:1"))) {
            String health = call(gateway, "GET", "/api/health", null).body();
            assertThat(health).startsWith("{\"status\":\"degraded\"").contains("\"sourcesFile\":{\"readable\":false,"
                    + "\"problem\":\"the sources file is not valid YAML at line");

            McpHttpClient mcp = new McpHttpClient("http://127.0.0.1:" + gateway.port());
            mcp.initialize();
            JsonObject listed = new CheckedToolCalls(mcp).tool("list_sources", "{}");
            assertThat(listed.getJsonArray("sources")).isEmpty();
            assertThat(listed.getString("note")).contains("could not be read at start").contains("not valid YAML")
                    .contains("fix the file and restart");
            // and it is left as it was
            assertThat(Files.readString(file)).isEqualTo(broken);
        }
    }

    @Test
    void aBlankUrl_inTheFileFailsItsSourceSayingWhatToWrite_andInTheApiIsRefusedWhileTheStoredSourceKeepsServing(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("sources.yaml");
        String text = """
                sources:
                  - name: prom
                    type: prometheus
                    url: http://127.0.0.1:1
                  - name: empty
                    type: prometheus
                    url: ""
                  - name: spaces
                    type: loki
                    url: "   "
                  - name: from-env
                    type: prometheus
                    url: ${BLANK_URL}
                """;
        Files.writeString(file, text);
        Map<String, String> env = Map.of("CONFIG_PATH", file.toString(), "BLANK_URL", " ", "OMCP_ALLOW_PRIVATE_BACKENDS", "true");
        try (GatewayAssembly gateway = start(env)) {
            for (String name : List.of("empty", "spaces", "from-env")) {
                String shown = call(gateway, "GET", "/api/sources/" + name, null).body();
                assertThat(shown).as(name).contains("\"status\":\"failed\"", "source '" + name + "' needs a url",
                        "url: http://<host>:<port>");
            }

            for (String blank : List.of("\"\"", "\"   \"", "\"\\n\"")) {
                HttpResponse<String> put = call(gateway, "PUT", "/api/sources/prom", "{\"type\":\"prometheus\",\"url\":" + blank + "}");
                assertThat(put.statusCode()).as(put.body()).isEqualTo(400);
                assertThat(put.body()).contains("OMCP_SOURCE_INVALID", "source 'prom': 'url' is blank", "leave 'url' out to keep");
            }
            HttpResponse<String> post = call(gateway, "POST", "/api/sources", "{\"name\":\"new\",\"type\":\"loki\",\"url\":\" \"}");
            assertThat(post.statusCode()).as(post.body()).isEqualTo(400);
            assertThat(post.body()).contains("OMCP_SOURCE_INVALID", "source 'new': 'url' is blank");

            assertThat(call(gateway, "GET", "/api/sources/prom", null).body()).contains("\"status\":\"connected\"",
                    "\"endpoint\":\"http://127.0.0.1:1\"");
            assertThat(call(gateway, "GET", "/api/sources/new", null).statusCode()).isEqualTo(404);
            assertThat(gateway.sources().with(MetricsCapability.class, Principal.anonymous())).extracting(Bound::source)
                    .containsExactly("prom");
            assertThat(Files.readString(file)).isEqualTo(text);
        }
    }

    @Test
    void removingASourceThatASkippedEntryOfTheFileWouldBringBack_isAConflict_namingTheEntryAndWhatToDo(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("sources.yaml");
        String text = """
                sources:
                  - name: prom
                    type: prometheus
                    url: http://127.0.0.1:1
                  - name: prom
                    type: prometheus
                    url: http://127.0.0.1:2
                """;
        Files.writeString(file, text);
        try (GatewayAssembly gateway = start(Map.of("CONFIG_PATH", file.toString(), "OMCP_ALLOW_PRIVATE_BACKENDS", "true"))) {
            HttpResponse<String> delete = call(gateway, "DELETE", "/api/sources/prom", null);

            // before: 503, which tells a client to try again later, though only fixing the file helps
            assertThat(delete.statusCode()).as(delete.body()).isEqualTo(409);
            assertThat(delete.body()).contains("\"code\":\"OMCP_SOURCE_CONFLICT\"", "sources entry 2 (line 5)", "'prom'",
                    "delete or rename that entry", "restart the gateway").doesNotContain("127.0.0.1:2");
            assertThat(call(gateway, "GET", "/api/sources/prom", null).body()).contains("\"status\":\"connected\"",
                    "\"endpoint\":\"http://127.0.0.1:1\"");
            assertThat(Files.readString(file)).isEqualTo(text);
        }
    }

    @Test
    void environmentUrlsMakeSourcesWhenThereIsNoFile() throws Exception {
        try (LokiFake loki = new LokiFake()) {
            try (GatewayAssembly gateway = start(Map.of("LOGS_URL", loki.url(), "OMCP_ALLOW_PRIVATE_BACKENDS", "true"))) {
                HttpResponse<String> list = call(gateway, "GET", "/api/sources", null);
                assertThat(list.body()).contains("\"name\":\"loki\"").contains("\"origin\":\"environment\"");
            }
            try (GatewayAssembly refused = start(Map.of("LOGS_URL", loki.url()))) {
                // without the opt-in a loopback backend is kept but not connected, and the reason says why
                HttpResponse<String> list = call(refused, "GET", "/api/sources", null);
                assertThat(list.body()).contains("\"status\":\"failed\"").contains("OMCP_ALLOW_PRIVATE_BACKENDS");
            }
        }
    }
}
