package dev.omcp.testkit.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.omcp.testkit.demo.loki.FakeLokiServer;
import dev.omcp.testkit.demo.system.SimulatedSystem;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The simulated Loki answers LogQL over the shop's logs. */
class FakeLokiServerIT {
    private static final Instant NOW = Instant.parse("2026-11-22T14:00:00Z");
    private static FakeLokiServer loki;
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        SimulatedSystem system = SimulatedSystem.create(Clock.fixed(NOW, ZoneOffset.UTC), 7, Duration.ofHours(3), Duration.ofMinutes(25));
        // past the 15 s of Loki's default query timeout: on a machine loaded by a whole build a half-hour metric query
        // took longer, and these tests judge the answers (the one on the timeout starts a server of its own)
        loki = FakeLokiServer.start(system, Duration.ofSeconds(60));
    }

    @AfterAll
    static void stop() {
        loki.close();
    }

    private static HttpResponse<String> get(String path, String query, String extra) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(loki.baseUrl() + path + "?query="
                + URLEncoder.encode(query, StandardCharsets.UTF_8) + extra)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject json(HttpResponse<String> response) {
        return Json.createReader(new StringReader(response.body())).readObject();
    }

    @Test
    void logQuery_filtersOnTheBackendAndReturnsNewestFirst() throws Exception {
        long end = NOW.toEpochMilli() * 1_000_000L;
        long start = end - 600_000_000_000L;
        HttpResponse<String> response = get("/loki/api/v1/query_range",
                "{service_name=\"payments\"} |= \"timeout\" | json | level=\"error\"",
                "&start=" + start + "&end=" + end + "&limit=20");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonArray streams = json(response).getJsonObject("data").getJsonArray("result");
        assertThat(streams).isNotEmpty();
        long previous = Long.MAX_VALUE;
        int lines = 0;
        for (JsonValue stream : streams) {
            assertThat(stream.asJsonObject().getJsonObject("stream").getString("level")).isEqualTo("error");
            for (JsonValue value : stream.asJsonObject().getJsonArray("values")) {
                assertThat(value.asJsonArray().getString(1)).contains("timeout acquiring connection");
                lines++;
            }
        }
        assertThat(lines).isEqualTo(20);
        assertThat(previous).isPositive();
    }

    @Test
    void metricQuery_countsErrorsPerService() throws Exception {
        long end = NOW.getEpochSecond();
        HttpResponse<String> response = get("/loki/api/v1/query_range",
                "topk(3, sum by (service_name) (count_over_time({namespace=\"shop\"} | json | level=\"error\" [5m])))",
                "&start=" + (end - 1800) + "&end=" + end + "&step=60");
        JsonObject data = json(response).getJsonObject("data");
        assertThat(data.getString("resultType")).isEqualTo("matrix");
        assertThat(data.getJsonArray("result").toString()).contains("\"service_name\":\"payments\"");
    }

    @Test
    void metricQuery_overLokisSeriesLimit_is400WithLokisWords() throws Exception {
        // after | json every line's trace id and timestamp are labels: a series per line
        long end = NOW.getEpochSecond();
        HttpResponse<String> response = get("/loki/api/v1/query_range",
                "count_over_time({service_name=\"payments\"} | json [60s])", "&start=" + (end - 3600) + "&end=" + end + "&step=60");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).startsWith("maximum number of series (500) reached for a single query");
    }

    @Test
    void rangeWindows_areLeftOpenToTheNanosecond_soTilingStepsCountEachLineOnce() throws Exception {
        long end = NOW.getEpochSecond();
        long lines = 0;
        HttpResponse<String> logs = get("/loki/api/v1/query_range", "{service_name=\"payments-db\"}",
                "&start=" + (end - 300) + "000000000&end=" + end + "000000000&limit=5000");
        for (JsonValue stream : json(logs).getJsonObject("data").getJsonArray("result")) {
            for (JsonValue value : stream.asJsonObject().getJsonArray("values")) {
                long nanos = Long.parseLong(value.asJsonArray().getString(0));
                lines += nanos > (end - 300) * 1_000_000_000L && nanos <= end * 1_000_000_000L ? 1 : 0;
            }
        }
        HttpResponse<String> counts = get("/loki/api/v1/query_range", "sum(count_over_time({service_name=\"payments-db\"} [60s]))",
                "&start=" + (end - 240) + "&end=" + end + "&step=60");
        double total = 0;
        for (JsonValue point : json(counts).getJsonObject("data").getJsonArray("result").getJsonObject(0).getJsonArray("values")) {
            total += Double.parseDouble(point.asJsonArray().getString(1));
        }
        assertThat(lines).isPositive();
        assertThat(total).isEqualTo(lines);
    }

    private static double[] points(HttpResponse<String> response, int steps) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        double[] sums = new double[steps];
        for (JsonValue series : json(response).getJsonObject("data").getJsonArray("result")) {
            JsonArray values = series.asJsonObject().getJsonArray("values");
            for (JsonValue point : values) {
                long at = point.asJsonArray().getJsonNumber(0).longValue();
                int s = (int) ((at - (NOW.getEpochSecond() - (steps - 1) * 60L)) / 60);
                sums[s] += Double.parseDouble(point.asJsonArray().getString(1));
            }
        }
        return sums;
    }

    @Test
    void aSumOfCountsAfterJson_isCountedByTheSumsGroups_notRefusedAsASeriesPerLine() throws Exception {
        // after | json every line is a series of its own (its trace id is a label), yet the sum by
        // level is a handful: Loki answers it, and so does the simulation, one counter per level
        long end = NOW.getEpochSecond();
        String range = "&start=" + (end - 3540) + "&end=" + end + "&step=60";
        HttpResponse<String> byLevel = get("/loki/api/v1/query_range",
                "sum by (level) (count_over_time({service_name=\"payments\"} | json [60s]))", range);
        HttpResponse<String> all = get("/loki/api/v1/query_range", "sum(count_over_time({service_name=\"payments\"} [60s]))", range);
        assertThat(json(byLevel).getJsonObject("data").getJsonArray("result"))
                .extracting(series -> series.asJsonObject().getJsonObject("metric").getString("level"))
                .containsExactlyInAnyOrder("error", "info");
        double[] total = points(all, 60);
        assertThat(java.util.Arrays.stream(total).min().orElseThrow()).isPositive();
        assertThat(points(byLevel, 60)).containsExactly(total);
    }

    @Test
    void aCountOverAWeek_isCountedAsTheLinesAreGenerated_andAgreesWithTheHours() throws Exception {
        // a week of lines is more than the demo's heap; the counts of a week must come from counting, not holding
        long end = NOW.getEpochSecond();
        HttpResponse<String> week = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> get("/loki/api/v1/query_range",
                "sum by (level) (count_over_time({service_name=\"payments-db\"} | json [1h]))",
                "&start=" + (end - 7 * 86_400) + "&end=" + end + "&step=3600"));
        assertThat(week.statusCode()).as(week.body()).isEqualTo(200);
        double weekTotal = 0;
        for (JsonValue series : json(week).getJsonObject("data").getJsonArray("result")) {
            for (JsonValue point : series.asJsonObject().getJsonArray("values")) {
                weekTotal += Double.parseDouble(point.asJsonArray().getString(1));
            }
        }
        // the history is 3 hours: the week holds the lines of the last 3 hours, counted the same way hour by hour
        double hours = 0;
        for (int h = 0; h < 3; h++) {
            HttpResponse<String> hour = get("/loki/api/v1/query", "sum(count_over_time({service_name=\"payments-db\"} [1h]))",
                    "&time=" + (end - h * 3600L));
            hours += Double.parseDouble(json(hour).getJsonObject("data").getJsonArray("result").getJsonObject(0)
                    .getJsonArray("value").getString(1));
        }
        assertThat(weekTotal).isPositive().isEqualTo(hours);
    }

    @Test
    void aQueryPastTheQueryTimeout_endsWithLokis504_insteadOfGeneratingOn() throws Exception {
        SimulatedSystem system = SimulatedSystem.create(Clock.fixed(NOW, ZoneOffset.UTC), 7, Duration.ofHours(3), Duration.ofMinutes(25));
        try (FakeLokiServer impatient = FakeLokiServer.start(system, Duration.ZERO)) {
            long end = NOW.getEpochSecond();
            for (String query : List.of("sum(count_over_time({service_name=\"payments\"} [60s]))", "{service_name=\"payments\"}")) {
                HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(URI.create(impatient.baseUrl()
                        + "/loki/api/v1/query_range?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)
                        + "&start=" + (end - 3600) + "&end=" + end + "&step=60")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).as(query).isEqualTo(504);
                assertThat(response.body()).isEqualTo("context deadline exceeded\n");
            }
        }
    }

    private static List<String> entries(HttpResponse<String> response) {
        List<String> out = new java.util.ArrayList<>();
        for (JsonValue stream : json(response).getJsonObject("data").getJsonArray("result")) {
            for (JsonValue value : stream.asJsonObject().getJsonArray("values")) {
                out.add(value.asJsonArray().getString(0) + " " + value.asJsonArray().getString(1));
            }
        }
        out.sort(java.util.Comparator.reverseOrder());
        return out;
    }

    @Test
    void aSearchGeneratedAWindowAtATime_givesTheLinesOfOnePass_fromEitherEnd() throws Exception {
        // the history is generated a window at a time from the end the query reads, so a week costs what its limit costs
        long end = NOW.getEpochSecond();
        String selector = "{service_name=\"payments-db\"}";
        List<String> week = entries(get("/loki/api/v1/query_range", selector, "&start=" + (end - 7 * 86_400) + "&end=" + end + "&limit=30"));
        List<String> hour = entries(get("/loki/api/v1/query_range", selector, "&start=" + (end - 3_600) + "&end=" + end + "&limit=5000"));
        assertThat(hour.size()).isGreaterThan(30);
        assertThat(week).isEqualTo(hour.subList(0, 30));

        // forward from the start: the oldest lines, the same ones a single pass finds
        List<String> firstHalfHour = entries(get("/loki/api/v1/query_range", selector,
                "&start=" + (end - 3_600) + "&end=" + (end - 1_800) + "&limit=5000&direction=forward"));
        List<String> oldest = entries(get("/loki/api/v1/query_range", selector,
                "&start=" + (end - 3_600) + "&end=" + end + "&limit=" + firstHalfHour.size() + "&direction=forward"));
        assertThat(oldest).isEqualTo(firstHalfHour);
    }

    @Test
    void logQuery_returnsTheLinesOfStartInclusiveToEndExclusive_toTheNanosecond() throws Exception {
        // Loki's HTTP API: "start ... Loki returns results with timestamp greater or equal to this value",
        // "end ... Loki returns results with timestamp lower than this value"
        String selector = "{service_name=\"payments-db\"}";
        long end = NOW.getEpochSecond();
        List<String> minute = entries(get("/loki/api/v1/query_range", selector,
                "&start=" + (end - 60) + "&end=" + end + "&limit=5000&direction=forward"));
        assertThat(minute.size()).isGreaterThan(2);
        String line = minute.get(minute.size() / 2);
        long at = Long.parseLong(line.substring(0, line.indexOf(' ')));

        List<String> endingThere = entries(get("/loki/api/v1/query_range", selector,
                "&start=" + (at - 60_000_000_000L) + "&end=" + at + "&limit=5000"));
        assertThat(endingThere).as("the line stamped exactly at end").doesNotContain(line)
                .allSatisfy(e -> assertThat(Long.parseLong(e.substring(0, e.indexOf(' ')))).isLessThan(at));
        assertThat(entries(get("/loki/api/v1/query_range", selector,
                "&start=" + (at - 60_000_000_000L) + "&end=" + (at + 1) + "&limit=5000"))).contains(line);

        List<String> startingThere = entries(get("/loki/api/v1/query_range", selector,
                "&start=" + at + "&end=" + (at + 60_000_000_000L) + "&limit=5000&direction=forward"));
        assertThat(startingThere).as("the line stamped exactly at start").contains(line)
                .allSatisfy(e -> assertThat(Long.parseLong(e.substring(0, e.indexOf(' ')))).isGreaterThanOrEqualTo(at));
    }

    @Test
    void logQuery_backwardKeepsTheNewestLimitLines_forwardTheOldest_eachInItsOrder() throws Exception {
        String selector = "{service_name=\"payments-db\"}";
        long end = NOW.getEpochSecond();
        String window = "&start=" + (end - 600) + "&end=" + end;
        List<String> all = entries(get("/loki/api/v1/query_range", selector, window + "&limit=5000"));
        assertThat(all.size()).isGreaterThan(10);
        assertThat(entries(get("/loki/api/v1/query_range", selector, window + "&limit=5"))).isEqualTo(all.subList(0, 5));
        assertThat(entries(get("/loki/api/v1/query_range", selector, window + "&limit=5&direction=forward")))
                .isEqualTo(all.subList(all.size() - 5, all.size()));
    }

    @Test
    void series_listsTheStreamsTheSelectorPicks() throws Exception {
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(URI.create(loki.baseUrl() + "/loki/api/v1/series?match[]="
                + URLEncoder.encode("{service_name=\"payments\"}", StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
        JsonArray streams = json(response).getJsonArray("data");
        assertThat(streams).isNotEmpty().allSatisfy(stream -> {
            assertThat(stream.asJsonObject().getString("service_name")).isEqualTo("payments");
            assertThat(stream.asJsonObject()).containsKeys("pod", "namespace");
        });
    }

    @Test
    void aCatastrophicallyBacktrackingFilter_is400SayingWhy_andTheServerStaysResponsive() throws Exception {
        long end = NOW.toEpochMilli() * 1_000_000L;
        long start = end - 600_000_000_000L;
        HttpResponse<String> response = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> get("/loki/api/v1/query_range",
                "{service_name=\"payments\"} |~ \"(.*a){12}$\"", "&start=" + start + "&end=" + end + "&limit=20"));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.body()).contains("backtracks too much");
        assertThat(get("/loki/api/v1/query_range", "{service_name=\"payments\"} |~ \"time.*out\"",
                "&start=" + start + "&end=" + end + "&limit=5").statusCode()).isEqualTo(200);
    }

    @Test
    void badLogQl_is400WithAParseError() throws Exception {
        HttpResponse<String> response = get("/loki/api/v1/query_range", "{service_name=\"payments\"", "");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).startsWith("parse error");
    }

    @Test
    void labelValues_listTheServices() throws Exception {
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(URI.create(loki.baseUrl()
                + "/loki/api/v1/label/service_name/values")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(json(response).getJsonArray("data").toString()).contains("checkout", "payments-db");
    }
}
