package dev.omcp.testkit.loki;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The recorded Loki fake selects lines by time, direction and limit as Loki does. */
class LokiFakeIT {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private LokiFake loki;

    @BeforeEach
    void start() throws Exception {
        loki = new LokiFake();
        for (int i = 0; i < 5; i++) {
            loki.push(Map.of("service_name", "api"), T0.plusSeconds(i), "line " + i);
        }
    }

    @AfterEach
    void stop() {
        loki.close();
    }

    private HttpResponse<String> get(String path, Map<String, String> params) throws Exception {
        StringBuilder url = new StringBuilder(loki.url()).append(path).append('?');
        params.forEach((k, v) -> url.append(URLEncoder.encode(k, StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)).append('&'));
        return CLIENT.send(HttpRequest.newBuilder(URI.create(url.toString())).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject json(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.createReader(new StringReader(response.body())).readObject();
    }

    private List<String> lines(String start, String end, String limit, String direction) throws Exception {
        JsonObject answer = json(get("/loki/api/v1/query_range", Map.of("query", "{service_name=\"api\"}", "start", start,
                "end", end, "limit", limit, "direction", direction)));
        List<String> out = new ArrayList<>();
        for (JsonValue stream : answer.getJsonObject("data").getJsonArray("result")) {
            stream.asJsonObject().getJsonArray("values").forEach(v -> out.add(v.asJsonArray().getString(1)));
        }
        return out;
    }

    private static String nanos(Instant t) {
        return Long.toString(t.getEpochSecond() * 1_000_000_000L + t.getNano());
    }

    @Test
    void aLogQuery_takesTheLineAtStart_andLeavesTheLineAtEnd() throws Exception {
        // Loki's HTTP API: "Loki returns results with timestamp greater or equal to" start and "lower than" end
        assertThat(lines(nanos(T0.plusSeconds(1)), nanos(T0.plusSeconds(3)), "100", "forward")).containsExactly("line 1", "line 2");
        assertThat(lines(nanos(T0.plusSeconds(1)), nanos(T0.plusSeconds(3).plusNanos(1)), "100", "forward"))
                .containsExactly("line 1", "line 2", "line 3");
    }

    @Test
    void backwardAnswersTheNewestLimitLinesNewestFirst_forwardTheOldestOldestFirst() throws Exception {
        String start = nanos(T0);
        String end = nanos(T0.plusSeconds(10));
        assertThat(lines(start, end, "2", "backward")).containsExactly("line 4", "line 3");
        assertThat(lines(start, end, "2", "forward")).containsExactly("line 0", "line 1");
    }

    @Test
    void theStatsCountTheEntriesReturned_notTheEntriesMatched() throws Exception {
        JsonObject answer = json(get("/loki/api/v1/query_range", Map.of("query", "{service_name=\"api\"}", "start", nanos(T0),
                "end", nanos(T0.plusSeconds(10)), "limit", "2")));
        assertThat(answer.getJsonObject("data").getJsonObject("stats").getJsonObject("summary").getInt("totalEntriesReturned"))
                .isEqualTo(2);
    }

    @Test
    void series_listsAStreamWhoseLinesOverlapStartInclusiveToEndExclusive() throws Exception {
        // Loki's ingester considers a stream when end > its first line and start <= its last line
        loki.push(Map.of("service_name", "late"), T0.plusSeconds(3), "at end");
        loki.push(Map.of("service_name", "early"), T0.plusSeconds(1), "at start");
        JsonObject answer = json(get("/loki/api/v1/series", Map.of("match[]", "{service_name=~\"late|early\"}",
                "start", nanos(T0.plusSeconds(1)), "end", nanos(T0.plusSeconds(3)))));
        assertThat(answer.getJsonArray("data")).extracting(s -> s.asJsonObject().getString("service_name")).containsExactly("early");
    }

    @Test
    void aLimitOverLokisMaxEntries_is400WithLokisWords() throws Exception {
        HttpResponse<String> response = get("/loki/api/v1/query_range", Map.of("query", "{service_name=\"api\"}", "start", nanos(T0),
                "end", nanos(T0.plusSeconds(10)), "limit", "5001"));
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).isEqualTo("max entries limit per query exceeded, limit > max_entries_limit_per_query (5001 > 5000)");
    }

    @Test
    void anEndBeforeTheStart_is400WithLokisWords() throws Exception {
        HttpResponse<String> response = get("/loki/api/v1/query_range", Map.of("query", "{service_name=\"api\"}",
                "start", nanos(T0.plusSeconds(10)), "end", nanos(T0)));
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).isEqualTo("end timestamp must not be before or equal to start time");
    }
}
