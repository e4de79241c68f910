package dev.omcp.testkit.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.testkit.demo.system.SimulatedSystem;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The simulated Kubernetes API and Zipkin answer as the real ones do. */
class DemoBackendsIT {
    private static final Instant NOW = Instant.parse("2026-11-22T14:00:00Z");
    private static DemoBackends backends;
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        backends = DemoBackends.start(SimulatedSystem.create(Clock.fixed(NOW, ZoneOffset.UTC), 7, Duration.ofHours(2), Duration.ofMinutes(25)));
    }

    @AfterAll
    static void stop() {
        backends.close();
    }

    private static HttpResponse<String> get(String url, boolean withToken) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
        if (withToken) {
            request.header("Authorization", "Bearer " + backends.kubernetesToken());
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonValue json(String text) {
        return Json.createReader(new StringReader(text)).readValue();
    }

    @Test
    void kubernetesLists_carryOwnersPlacementsAndSelectors() throws Exception {
        JsonObject pods = json(get(backends.kubernetesUrl() + "/api/v1/namespaces/shop/pods", true).body()).asJsonObject();
        assertThat(pods.getString("kind")).isEqualTo("PodList");
        JsonObject pod = pods.getJsonArray("items").getJsonObject(0);
        assertThat(pod.getJsonObject("spec").getString("nodeName")).startsWith("worker-");
        assertThat(pod.getJsonObject("metadata").getJsonArray("ownerReferences").getJsonObject(0).getString("kind")).isEqualTo("ReplicaSet");
        JsonArray replicaSets = json(get(backends.kubernetesUrl() + "/apis/apps/v1/replicasets", true).body()).asJsonObject().getJsonArray("items");
        assertThat(replicaSets.getJsonObject(0).getJsonObject("metadata").getJsonArray("ownerReferences").getJsonObject(0).getString("kind"))
                .isEqualTo("Deployment");
    }

    @Test
    void aBrokenPercentEscapeInAForm_isTheClientsMistake_400() throws Exception {
        // a query target with one is refused by the HTTP server itself; a form body reaches the parameter reader
        for (String url : List.of(backends.prometheusUrl() + "/api/v1/query", backends.lokiUrl() + "/loki/api/v1/query_range")) {
            HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(URI.create(url))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("query=up%zz")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(url + ": " + response.body()).isEqualTo(400);
            assertThat(response.body()).contains("bad_data").contains("invalid URL escape");
        }
    }

    @Test
    void kubernetes_refusesAMissingToken() throws Exception {
        HttpResponse<String> response = get(backends.kubernetesUrl() + "/api/v1/pods", false);
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(json(response.body()).asJsonObject().getString("kind")).isEqualTo("Status");
    }

    @Test
    void kubernetesWatch_streamsAddedEventsThenStaysOpenUntilItsTimeout() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(backends.kubernetesUrl() + "/api/v1/nodes?watch=true&timeoutSeconds=1"))
                .header("Authorization", "Bearer " + backends.kubernetesToken()).build();
        HttpResponse<InputStream> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body()))) {
            int added = 0;
            String line;
            while ((line = reader.readLine()) != null) {
                assertThat(json(line).asJsonObject().getString("type")).isEqualTo("ADDED");
                added++;
            }
            assertThat(added).isEqualTo(SimulatedSystem.NODES.size());
        }
    }

    @Test
    void aQuietKubernetesWatch_answersAtOnce_bookmarksWhenAsked_andEndsCleanlyAtItsTimeout() throws Exception {
        // from the current version: nothing to send but bookmarks; a client's request timeout (here 1 s) covers only the
        // wait for the headers, which an API server sends at once
        String version = json(get(backends.kubernetesUrl() + "/api/v1/nodes", true).body()).asJsonObject().getJsonObject("metadata")
                .getString("resourceVersion");
        HttpRequest request = HttpRequest.newBuilder(URI.create(backends.kubernetesUrl() + "/api/v1/nodes?watch=1&resourceVersion="
                + version + "&allowWatchBookmarks=true&timeoutSeconds=3")).timeout(Duration.ofSeconds(1))
                .header("Authorization", "Bearer " + backends.kubernetesToken()).build();
        long start = System.nanoTime();
        HttpResponse<InputStream> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body()))) {
            String line = reader.readLine();
            JsonObject bookmark = json(line).asJsonObject();
            assertThat(bookmark.getString("type")).isEqualTo("BOOKMARK");
            assertThat(bookmark.getJsonObject("object").getString("kind")).isEqualTo("Node");
            assertThat(bookmark.getJsonObject("object").getJsonObject("metadata").getString("resourceVersion")).isEqualTo(version);
            assertThat(reader.readLine()).as("the watch ends cleanly, with nothing more").isNull();
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(2900), Duration.ofSeconds(6));
    }

    @Test
    void zipkin_findsSlowFailingPaymentTracesDuringTheIncident() throws Exception {
        JsonArray services = json(get(backends.zipkinUrl() + "/api/v2/services", false).body()).asJsonArray();
        assertThat(services.toString()).contains("payments");
        JsonArray traces = json(get(backends.zipkinUrl() + "/api/v2/traces?serviceName=payments&lookback=600000&limit=20&endTs="
                + NOW.toEpochMilli(), false).body()).asJsonArray();
        assertThat(traces).hasSize(20);
        String traceId = traces.getJsonArray(0).getJsonObject(0).getString("traceId");
        JsonArray one = json(get(backends.zipkinUrl() + "/api/v2/trace/" + traceId, false).body()).asJsonArray();
        assertThat(one.size()).isGreaterThan(3);
        JsonArray links = json(get(backends.zipkinUrl() + "/api/v2/dependencies?endTs=" + NOW.toEpochMilli() + "&lookback=600000", false).body()).asJsonArray();
        assertThat(links.toString()).contains("\"parent\":\"payments\",\"child\":\"payments-db\"");
        assertThat(get(backends.zipkinUrl() + "/api/v2/trace/0000000000000000", false).statusCode()).isEqualTo(404);
    }

    @Test
    void aFailingTraceFromZipkin_findsItsRequestsLinesInLoki_inEveryServiceOnItsPath_withTheErrorsOfTheFailingOnes() throws Exception {
        // what an agent does next: the trace id of a failing checkout, searched in the logs, finds what each service
        // the request passed through wrote about it (the timeout in payments, the 502 in the frontend)
        JsonArray failing = json(get(backends.zipkinUrl() + "/api/v2/traces?serviceName=payments&annotationQuery=error&lookback=600000"
                + "&limit=10&endTs=" + NOW.toEpochMilli(), false).body()).asJsonArray();
        List<JsonArray> ended = endedBeforeNow(failing);
        assertThat(ended).as("failing payment traces during the incident").hasSizeGreaterThan(2);
        boolean sawPoolTimeout = false;
        for (JsonArray trace : ended) {
            Map<String, JsonObject> logged = assertLoggedUnderItsIds(trace);
            JsonObject payments = logged.get("payments");
            if (payments.getString("level").equals("error")) {
                assertThat(payments.getString("msg")).isEqualTo("timeout acquiring connection from pool payments-db after 750ms");
                sawPoolTimeout = true;
            }
        }
        assertThat(sawPoolTimeout).isTrue();
    }

    @Test
    void aBrowseTraceFromZipkin_findsItsRequestsLinesInLoki_inTheFrontendTheCatalogAndItsCache() throws Exception {
        JsonArray browsing = json(get(backends.zipkinUrl() + "/api/v2/traces?serviceName=catalog-cache&lookback=600000&limit=5&endTs="
                + NOW.toEpochMilli(), false).body()).asJsonArray();
        List<JsonArray> ended = endedBeforeNow(browsing);
        assertThat(ended).isNotEmpty();
        for (JsonArray trace : ended) {
            assertThat(assertLoggedUnderItsIds(trace)).containsOnlyKeys("frontend", "catalog", "catalog-cache");
        }
    }

    /** The traces whose every span ended before the fixed now: their services have written their lines. */
    private static List<JsonArray> endedBeforeNow(JsonArray traces) {
        long nowMicros = NOW.toEpochMilli() * 1000;
        return traces.stream().map(JsonValue::asJsonArray).filter(t -> t.stream().map(JsonValue::asJsonObject)
                .allMatch(s -> s.getJsonNumber("timestamp").longValue() + s.getJsonNumber("duration").longValue() < nowMicros)).toList();
    }

    /**
     * Searches Loki for the trace's id around its time and checks that each service with a server span in it wrote one
     * line of the request, under the trace's id and that span's id, at error level exactly when the span failed.
     *
     * @return the line each service wrote, parsed
     */
    private static Map<String, JsonObject> assertLoggedUnderItsIds(JsonArray trace) throws Exception {
        String traceId = trace.getJsonObject(0).getString("traceId");
        Map<String, JsonObject> serverSpans = new java.util.TreeMap<>();
        long startMicros = Long.MAX_VALUE;
        long endMicros = 0;
        for (JsonValue value : trace) {
            JsonObject span = value.asJsonObject();
            startMicros = Math.min(startMicros, span.getJsonNumber("timestamp").longValue());
            endMicros = Math.max(endMicros, span.getJsonNumber("timestamp").longValue() + span.getJsonNumber("duration").longValue());
            if (span.getString("kind").equals("SERVER")) {
                serverSpans.put(span.getJsonObject("localEndpoint").getString("serviceName"), span);
            }
        }
        String query = "{namespace=\"shop\"} |= \"" + traceId + "\"";
        HttpResponse<String> response = get(backends.lokiUrl() + "/loki/api/v1/query_range?query=" + URLEncoder.encode(query,
                StandardCharsets.UTF_8) + "&start=" + (startMicros * 1000 - 60_000_000_000L) + "&end=" + (endMicros * 1000 + 1000)
                + "&limit=100", false);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        Map<String, JsonObject> logged = new java.util.TreeMap<>();
        for (JsonValue stream : json(response.body()).asJsonObject().getJsonObject("data").getJsonArray("result")) {
            String service = stream.asJsonObject().getJsonObject("stream").getString("service_name");
            for (JsonValue value : stream.asJsonObject().getJsonArray("values")) {
                assertThat(logged.put(service, json(value.asJsonArray().getString(1)).asJsonObject()))
                        .as("one line of the request in " + service).isNull();
            }
        }
        assertThat(logged.keySet()).as(traceId).isEqualTo(serverSpans.keySet());
        for (Map.Entry<String, JsonObject> line : logged.entrySet()) {
            JsonObject span = serverSpans.get(line.getKey());
            assertThat(line.getValue().getString("trace_id")).isEqualTo(traceId);
            assertThat(line.getValue().getString("span_id")).isEqualTo(span.getString("id"));
            boolean failed = span.getJsonObject("tags").containsKey("error");
            assertThat(line.getValue().getString("level")).as(line.toString()).isEqualTo(failed ? "error"
                    : line.getKey().equals("payments-db") && line.getValue().getString("msg").startsWith("slow query") ? "warn" : "info");
        }
        return logged;
    }

    @Test
    void zipkin_spanNames_areLowerCase_andASearchFindsTheNameItListed_inAnyCase() throws Exception {
        // Zipkin lower-cases span names when it stores them and the spanName it is asked for
        JsonArray names = json(get(backends.zipkinUrl() + "/api/v2/spans?serviceName=frontend", false).body()).asJsonArray();
        assertThat(names.getValuesAs(jakarta.json.JsonString::getString)).contains("get /api/checkout")
                .allSatisfy(name -> assertThat(name).isLowerCase());
        String search = backends.zipkinUrl() + "/api/v2/traces?serviceName=frontend&lookback=600000&limit=5&endTs=" + NOW.toEpochMilli()
                + "&spanName=";
        for (String asked : java.util.List.of("get /api/checkout", "GET /api/checkout")) {
            JsonArray traces = json(get(search + URLEncoder.encode(asked, StandardCharsets.UTF_8), false).body()).asJsonArray();
            assertThat(traces).as(asked).isNotEmpty().allSatisfy(t -> assertThat(t.toString()).contains("\"name\":\"get /api/checkout\""));
        }
    }

    @Test
    void zipkin_annotationQuery_filtersOnTagsAsZipkinDoes() throws Exception {
        String search = backends.zipkinUrl() + "/api/v2/traces?serviceName=payments&lookback=600000&limit=50&endTs=" + NOW.toEpochMilli()
                + "&annotationQuery=";
        JsonArray errors = json(get(search + "error", false).body()).asJsonArray();
        assertThat(errors).isNotEmpty().allSatisfy(t -> assertThat(t.toString()).contains("\"error\":"));
        JsonArray ok = json(get(search + URLEncoder.encode("http.status_code=200", StandardCharsets.UTF_8), false).body()).asJsonArray();
        assertThat(ok).isNotEmpty().allSatisfy(t -> assertThat(t.toString()).contains("\"http.status_code\":\"200\""));
        JsonArray both = json(get(search + URLEncoder.encode("http.status_code=599 and error", StandardCharsets.UTF_8), false).body())
                .asJsonArray();
        assertThat(both).as("no simulated span answers 599").isEmpty();
    }
}
