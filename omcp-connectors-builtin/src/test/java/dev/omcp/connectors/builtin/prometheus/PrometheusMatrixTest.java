package dev.omcp.connectors.builtin.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.omcp.connectors.builtin.backend.SampleChecks;
import dev.omcp.connectors.builtin.backend.SampleSpellings;
import dev.omcp.connectors.builtin.backend.ValuesCharge;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.memory.AnswerBudget;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.TimeRange;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A range-query answer read from the parser's events, and every shape that is not one refused as a bad response. */
class PrometheusMatrixTest {
    /** The start of an answer that says it succeeded, as every answer of Loki and Prometheus does. */
    private static final String SUCCESS = "{\"status\":\"success\",";


    private static List<Series> read(String json) throws ConnectorException {
        return PrometheusMatrix.read(json.getBytes(StandardCharsets.UTF_8));
    }

    private static dev.omcp.connectors.builtin.backend.BackendJson.Answer<List<Series>> readAnswer(String json) throws ConnectorException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return PrometheusMatrix.readAnswer(body, new ValuesCharge(AnswerBudget.ofBytes(1L << 40), body.length, () -> 0, "Prometheus", ""));
    }

    @Test
    void manyTinySeries_areChargedForTheHeapTheyTake_notOnlyForTheirBytes() {
        // 30 KB of "{}", 10 000 series objects with their arrays: about a megabyte
        byte[] body = (SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[{}" + ",{}".repeat(9_999) + "]}}")
                .getBytes(StandardCharsets.UTF_8);
        AnswerBudget budget = AnswerBudget.ofBytes(512 << 10);
        try (ValuesCharge charge = new ValuesCharge(budget, body.length, () -> 3L * body.length, "Prometheus", "ask for fewer series")) {
            assertThatThrownBy(() -> PrometheusMatrix.readAnswer(body, charge)).isInstanceOfSatisfying(ConnectorException.class, e -> {
                assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE);
                assertThat(e.getMessage()).isEqualTo("Prometheus answered more than the gateway's memory budget for backend answers in "
                        + "flight (512 KiB) can hold; ask for fewer series (an operator can raise OMCP_BACKEND_ANSWER_BUDGET_MIB)");
            });
        }
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void oneSeriesOfManyTinyLabels_isRefusedWhileItsLabelsAreRead_notOnlyOnceTheSeriesEnds() {
        // 20 000 labels of 12 bytes each, a map of about 2 MB: charged while the map grows, so the
        // refusal comes before the broken end of the answer is reached (a series of millions of such
        // labels filled the heap before its first charge)
        StringBuilder json = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{");
        for (int i = 0; i < 20_000; i++) {
            json.append(i == 0 ? "" : ",").append("\"l").append(i).append("\":\"\"");
        }
        byte[] body = json.append(",\"broken\"").toString().getBytes(StandardCharsets.UTF_8);
        AnswerBudget budget = AnswerBudget.ofBytes(512 << 10);
        try (ValuesCharge charge = new ValuesCharge(budget, body.length, () -> body.length, "Prometheus", "ask for fewer series")) {
            assertThatThrownBy(() -> PrometheusMatrix.readAnswer(body, charge)).isInstanceOfSatisfying(ConnectorException.class,
                    e -> assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE));
        }
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void seriesOfOrdinarySamples_takeNoMoreThanTheirBytes_soNothingIsChargedForThem() throws ConnectorException {
        StringBuilder json = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[");
        for (int s = 0; s < 50; s++) {
            json.append(s == 0 ? "" : ",").append("{\"metric\":{\"job\":\"api\",\"instance\":\"10.0.0.").append(s).append(":8080\"},\"values\":[");
            for (int i = 0; i < 60; i++) {
                json.append(i == 0 ? "" : ",").append("[").append(1_795_846_440 + 60 * i).append(".123,\"0.0199\"]");
            }
            json.append("]}");
        }
        byte[] body = json.append("]}}").toString().getBytes(StandardCharsets.UTF_8);
        AnswerBudget budget = AnswerBudget.ofBytes(1 << 20);
        try (ValuesCharge charge = new ValuesCharge(budget, body.length, () -> 0, "Prometheus", "")) {
            assertThat(PrometheusMatrix.readAnswer(body, charge).result()).hasSize(50);
            assertThat(charge.reserved()).isZero();
        }
    }

    @Test
    void aRepeatedValuesMember_addsItsSamples_insteadOfAPhantomSampleAtTheEpoch() throws ConnectorException {
        List<Series> series = read("""
                {"status":"success","data":{"resultType":"matrix","result":[
                  {"metric":{"job":"api"},"values":[[1795316400,"1"]],"values":[[1795316415,"2"]]}]}}
                """);
        assertThat(series).singleElement().satisfies(s -> {
            assertThat(s.epochMillis()).containsExactly(1_795_316_400_000L, 1_795_316_415_000L);
            assertThat(s.values()).containsExactly(1.0, 2.0);
        });
    }

    private static void refused(String json, String message) {
        assertThatThrownBy(() -> read(json)).isInstanceOfSatisfying(ConnectorException.class, e -> {
            assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE);
            assertThat(e.getMessage()).contains(message);
        });
    }

    @Test
    void warningsAndInfosAlongsideTheData_arePassedOn_asSafeLinesBoundedInNumberAndLength() throws ConnectorException {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 12; i++) {
            many.append(i == 0 ? "" : ",").append("\"store ").append(i).append(" did not answer\"");
        }
        String json = "{\"status\":\"success\",\"warnings\":[" + many + "],\"infos\":[\"metric might not be a counter\"],"
                + "\"data\":{\"resultType\":\"matrix\",\"result\":[]}}";

        var answer = readAnswer(json);

        assertThat(answer.result()).isEmpty();
        assertThat(answer.warnings()).hasSize(11).startsWith("store 0 did not answer").endsWith("(3 more not shown)");

        String hostile = "{\"status\":\"success\",\"warnings\":[\"line one\\nforged: second line " + "x".repeat(400) + "\", 42, {\"a\":1}],"
                + "\"data\":{\"resultType\":\"matrix\",\"result\":[]}}";
        List<String> warnings = readAnswer(hostile).warnings();
        assertThat(warnings).singleElement().satisfies(w -> {
            assertThat(w).startsWith("line one forged: second line").doesNotContain("\n");
            assertThat(w.length()).isLessThanOrEqualTo(301);
        });
    }

    @Test
    void seriesCarryTheirLabelsTimesInMillisecondsAndValues() throws ConnectorException {
        List<Series> series = read("""
                {"status":"success","data":{"resultType":"matrix","result":[
                  {"metric":{"job":"api","route":"/q\\"uote\\\\d\\nline"},"values":[[1795316400,"0.25"],[1795316415.5,"1e3"]]},
                  {"metric":{},"values":[[1795316400,"NaN"],[1795316415,"+Inf"],[1795316430,"-Inf"]]}]}}
                """);
        assertThat(series).hasSize(2);
        assertThat(series.get(0).labels()).isEqualTo(Map.of("job", "api", "route", "/q\"uote\\d\nline"));
        assertThat(series.get(0).epochMillis()).containsExactly(1795316400000L, 1795316415500L);
        assertThat(series.get(0).values()).containsExactly(0.25, 1000.0);
        assertThat(series.get(1).labels()).isEmpty();
        assertThat(series.get(1).values()).containsExactly(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);
    }

    @Test
    void membersInAnyOrderAndUnknownMembersAreFine() throws ConnectorException {
        List<Series> series = read("""
                {"status":"success",
                 "data":{"result":[{"exemplars":[{"labels":{"trace_id":"a"},"value":"1","timestamp":1}],"values":[[1,"2"]],
                  "metric":{"a":"b","n":5,"o":{"x":[1,[2]]}}}],"stats":{"timings":{"a":1}},"resultType":"matrix"},
                 "warnings":["slow"],"status":"success","infos":[]}
                """);
        assertThat(series).singleElement().satisfies(s -> {
            assertThat(s.labels()).isEqualTo(Map.of("a", "b"));
            assertThat(s.values()).containsExactly(2.0);
        });
    }

    @Test
    void manyPointsGrowTheArraysAndAnEmptyResultIsNoSeries() throws ConnectorException {
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            values.append(i == 0 ? "" : ",").append("[").append(1_700_000_000 + i * 15).append(",\"").append(i).append("\"]");
        }
        Series s = read(SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":[" + values + "]}]}}")
                .getFirst();
        assertThat(s.size()).isEqualTo(1000);
        assertThat(s.timeAt(999)).isEqualTo((1_700_000_000L + 999 * 15) * 1000);
        assertThat(s.valueAt(999)).isEqualTo(999.0);
        assertThat(read("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}")).isEmpty();
    }

    @Test
    void fractionalTimesAreExactMilliseconds_likeARealPrometheusAnswersAStartWithMilliseconds() throws ConnectorException {
        // one series each, as a series' samples out of time order would be sorted
        String[] times = {"1795846440.123", "1795846500.1", "1795846560.12", "1795846620.1234", "1795846680.1235", "1795846740.0",
            "-1.5", "1.5e3", "1.7958464401235e9", "1e-999999999", "5e-4"};
        StringBuilder json = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[");
        for (int i = 0; i < times.length; i++) {
            json.append(i == 0 ? "" : ",").append("{\"metric\":{},\"values\":[[").append(times[i]).append(",\"1\"]]}");
        }
        assertThat(read(json.append("]}}").toString())).extracting(s -> s.timeAt(0)).containsExactly(1795846440123L, 1795846500100L,
                1795846560120L, 1795846620123L, 1795846680124L, 1795846740000L, -1500L, 1_500_000L, 1795846440124L, 0L, 1L);
    }

    @Test
    void aSampleTimeOutOfRange_isABadResponse_notASampleAtTheEndOfTime() {
        // these once saturated to the largest (or smallest) long: a point "at" the year 292 million, shown as real
        for (String time : new String[] {"17958467401234567890.5", "1e400", "-1e400", "1e999999999", "1000000000000",
                "-1000000000000", "1e12", "99999999999999999999"}) {
            assertTimeoutPreemptively(Duration.ofSeconds(2), () -> refused(
                    "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"values\":[[" + time + ",\"1\"]]}]}}",
                    "sample time out of range"), time);
        }
    }

    @Test
    void plainDecimalMillis_readsOnlyPlainDecimals_andLeavesTheRestToTheExactPath() {
        assertThat(millis("1795846440.123")).isEqualTo(1795846440123L);
        assertThat(millis("0.0005")).isEqualTo(1L);
        assertThat(millis("12.9999")).isEqualTo(13_000L);
        assertThat(millis("-2.25")).isEqualTo(-2250L);
        for (String notPlain : new String[] {"1e3", "1.", ".5", "-", "", "1234567890123.5", "1.2.3", "1.5x"}) {
            assertThat(millis(notPlain)).as(notPlain).isEqualTo(Long.MIN_VALUE);
        }
    }

    private static long millis(String text) {
        return PrometheusMatrix.plainDecimalMillis(text.toCharArray(), 0, text.length());
    }

    @Test
    void sampleValuesParseAsPrometheusWritesThem_includingExponentsAndSpecials() throws ConnectorException {
        Series s = read("""
                {"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[
                  [1,"0.019885"],[2,"1e+06"],[3,"-3.5E-7"],[4,"42"],[5,"NaN"],[6,"+Inf"],[7,"-Inf"],[8,"0.1"],[9,"1.7976931348623157e308"]]}]}}
                """).getFirst();
        assertThat(s.values()).containsExactly(0.019885, 1e6, -3.5e-7, 42.0, Double.NaN, Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY, 0.1, Double.MAX_VALUE);
        for (String bad : new String[] {"", "1.2.3", "Inf2"}) {
            refused(SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[{\"values\":[[1,\"" + bad + "\"]]}]}}",
                    "sample value that is not a number");
        }
    }

    @Test
    void anythingButTheDocumentedShapeIsABadResponse() {
        refused("not json", "not a JSON object");
        refused("[1,2]", "not a JSON object");
        refused("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[", "not a JSON object");
        refused("{\"status\":\"success\"}", "'data' object");
        refused("{\"status\":\"success\",\"data\":[]}", "'data' object");
        refused("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}", "answered a vector instead of a matrix");
        refused("{\"status\":\"success\",\"data\":{\"result\":[]}}", "answered a  instead of a matrix");
        refused("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\"}}", "'result' list");
        refused("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":{}}}", "'result' list");
        refused("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"values\":[[1]]}]}}", "[time, \"value\"] pair");
        refused(SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[{\"values\":[[\"1\",\"2\"]]}]}}", "[time, \"value\"] pair");
        refused(SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[{\"values\":[[1,2]]}]}}", "[time, \"value\"] pair");
        refused(SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[{\"values\":[[1,\"two\"]]}]}}",
                "sample value that is not a number");
        refused(SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[{\"values\":[[1,\"2\",3]]}]}}", "[time, \"value\"] pair");
        refused("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"values\":[5]}]}}", "[time, \"value\"] pair");
    }

    @Test
    void aStatusOtherThanSuccessOrError_isABadResponseNamingIt_notReadAsSuccess() {
        // Prometheus answers "success" or "error" and nothing else; another word is not its answer
        refused("{\"status\":\"weird\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}",
                "Prometheus answered the status 'weird', which is neither success nor error");
        refused("{\"data\":{\"resultType\":\"matrix\",\"result\":[]}}", "Prometheus answered without a 'status' of success or error");
        refused("{\"status\":1,\"data\":{\"resultType\":\"matrix\",\"result\":[]}}", "without a 'status' of success or error");
        // the backend's word is quoted as one short line
        String longStatus = "{\"status\":\"we\\nird" + "x".repeat(5_000) + "\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}";
        assertThatThrownBy(() -> read(longStatus))
                .isInstanceOfSatisfying(ConnectorException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE);
                    assertThat(e.getMessage()).doesNotContain("\n").hasSizeLessThan(300).contains("'we ird");
                });
    }

    @Test
    void textAfterTheAnswersObject_isABadResponse_notIgnored_whileTrailingWhitespaceIsFine() throws ConnectorException {
        refused(matrix("[]") + " trailing", "answered more after its JSON object");
        refused(matrix("[]") + matrix("[{\"metric\":{},\"values\":[[1,\"1\"]]}]"), "answered more after its JSON object");
        refused(matrix("[]") + "]", "answered more after its JSON object");
        assertThat(read(matrix("[]") + " \r\n\t ")).isEmpty();
    }

    @Test
    void anHtmlPage_isNamedAsOne_soTheOperatorLooksAtTheProxy_withoutQuotingThePage() {
        String hint = "an HTML page: a login page or proxy in front of the backend? check the source URL and its credentials";
        for (String page : new String[] {"<!DOCTYPE html><html><title>Sign in to Corp SSO</title></html>", " \n <html>Corp SSO"}) {
            assertThatThrownBy(() -> read(page)).isInstanceOfSatisfying(ConnectorException.class, e -> {
                assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE);
                assertThat(e.getMessage()).isEqualTo("Prometheus answered something that is not a JSON object: " + hint)
                        .doesNotContain("Corp");
            });
        }
        refused("not json", "not a JSON object");
        assertThatThrownBy(() -> read("not json")).hasMessageNotContaining("HTML");
    }

    @Test
    void labelValuesThatAreNotStrings_areLeftOutWithAWarning_andSeriesTheyWouldMakeAlike_areRefused() throws ConnectorException {
        var answer = readAnswer(matrix("[{\"metric\":{\"job\":\"api\",\"n\":5,\"o\":{\"x\":1}},\"values\":[[1,\"1\"]]},"
                + "{\"metric\":{\"job\":\"web\",\"b\":true},\"values\":[[1,\"2\"]]}]"));
        assertThat(answer.result()).extracting(Series::labels).containsExactly(Map.of("job", "api"), Map.of("job", "web"));
        assertThat(answer.warnings()).containsExactly("Prometheus answered label values that are not strings (3); those labels were "
                + "left out of their series");
        // {"job":5} and {"job":6} would both read as {}: two series no one could tell apart, never shown as alike
        refused(matrix("[{\"metric\":{\"job\":5},\"values\":[[1,\"1\"]]},{\"metric\":{\"job\":6},\"values\":[[1,\"2\"]]}]"),
                "Prometheus answered series that are alike once their label values that are not strings are left out");
        assertThat(readAnswer(matrix("[{\"metric\":{\"job\":\"api\"},\"values\":[[1,\"1\"]]}]")).warnings()).isEmpty();
    }

    private static String matrix(String result) {
        return "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":" + result + "}}";
    }

    @Test
    void aSeriesOrItsLabelsOrSamplesOfTheWrongType_isABadResponseSayingWhich_notASeriesWithoutPointsOrLabels() throws ConnectorException {
        // each of these read as a series without points ("no data") or without its labels, and no line said so
        refused(matrix("[5]"), "a series that is not an object");
        refused(matrix("[\"x\",{\"metric\":{},\"values\":[[1,\"1\"]]}]"), "a series that is not an object");
        refused(matrix("[{\"metric\":{\"job\":\"api\"},\"values\":\"x\"}]"), "'values' that is not a list");
        refused(matrix("[{\"metric\":{\"job\":\"api\"},\"values\":{\"1\":\"2\"}}]"), "'values' that is not a list");
        refused(matrix("[{\"metric\":[\"job\",\"api\"],\"values\":[[1,\"1\"]]}]"), "'metric' that is not an object");
        refused(matrix("[{\"metric\":\"api\",\"values\":[[1,\"1\"]]}]"), "'metric' that is not an object");
        // null is what a Go encoder writes for an empty list or map: nothing, as before
        assertThat(read(matrix("[null,{\"metric\":null,\"values\":[[1,\"1\"]]}]"))).singleElement()
                .satisfies(s -> assertThat(s.labels()).isEmpty());
    }

    @Test
    void aValueBeyondTheRangeOfADouble_isABadResponse_notAnInfinityTheBackendNeverAnswered() throws ConnectorException {
        refused(matrix("[{\"metric\":{},\"values\":[[1,\"1e400\"]]}]"), "sample value out of range");
        refused(matrix("[{\"metric\":{},\"values\":[[1,\"-2.5E+309\"]]}]"), "sample value out of range");
        // infinities spelled as Prometheus spells them stay infinities, and a value too small for a double is zero, as in
        // Prometheus' own reading
        assertThat(read(matrix("[{\"metric\":{},\"values\":[[1,\"+Inf\"],[2,\"-Inf\"],[3,\"1e-400\"]]}]"))
                .getFirst().values()).containsExactly(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0);
    }

    @Test
    void aSampleValueSpelledAsOnlyJavaReadsIt_isABadResponseNamingTheSampleValue() {
        for (String spelled : SampleSpellings.NOT_PROMETHEUS) {
            assertThatThrownBy(() -> read(matrix("[{\"metric\":{},\"values\":[[1,\"" + spelled + "\"]]}]"))).as(spelled)
                    .isInstanceOfSatisfying(ConnectorException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE);
                        assertThat(e.getMessage()).contains("sample value").contains("NaN, +Inf or -Inf");
                    });
        }
    }

    @Test
    void nativeHistogramSamples_failTheQueryWithTheReason_insteadOfASeriesWithoutPoints() {
        // the shape Prometheus 2.40+ answers for a native histogram: "histograms" in place of "values"
        String answer = """
                {"status":"success","data":{"resultType":"matrix","result":[
                  {"metric":{"__name__":"http_request_duration_seconds","job":"api"},"histograms":[[1795316400,
                    {"count":"12","sum":"3.5","buckets":[[0,"0.25","0.5","4"],[0,"0.5","1","8"]]}]]},
                  {"metric":{"__name__":"http_request_duration_seconds","job":"web"},"values":[[1795316400,"1"]]}]}}
                """;
        assertThatThrownBy(() -> read(answer)).isInstanceOfSatisfying(ConnectorException.class, e -> {
            assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
            assertThat(e.getMessage()).contains("native histogram samples for 1 of 2 series").contains("metric with float samples");
        });
    }

    @Test
    void anErrorEnvelopeAnsweredWithStatus200_passesOnThePrometheusWordsAndItsErrorType() {
        String badData = """
                {"status":"error","errorType":"bad_data","error":"invalid parameter \\\"query\\\": 1:5: parse error: unexpected \\\"}\\\""}
                """;
        assertThatThrownBy(() -> read(badData)).isInstanceOfSatisfying(ConnectorException.class, e -> {
            assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
            assertThat(e.getMessage()).isEqualTo("Prometheus rejected the query (bad_data): invalid parameter \"query\": 1:5: parse error: "
                    + "unexpected \"}\"");
        });
        assertThatThrownBy(() -> read("{\"status\":\"error\",\"errorType\":\"timeout\",\"error\":\"query timed out in expression evaluation\"}"))
                .isInstanceOfSatisfying(ConnectorException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT);
                    assertThat(e.getMessage()).contains("query timed out in expression evaluation");
                });
        assertThatThrownBy(() -> read("{\"errorType\":\"internal\",\"error\":\"store gateway unreachable\",\"status\":\"error\","
                + "\"data\":{\"resultType\":\"matrix\",\"result\":[]}}"))
                .isInstanceOfSatisfying(ConnectorException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE);
                    assertThat(e.getMessage()).isEqualTo("Prometheus answered an error (internal): store gateway unreachable");
                });
    }

    @Test
    void deeplyNestedHostileAnswersAreRefusedNotFollowed() {
        String deep = "[".repeat(5000) + "]".repeat(5000);
        refused("{\"warnings\":" + deep + ",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}",
                "answered JSON beyond what the gateway reads (nested deeper than 1000 levels");
        // a label value past the parser's 20 million characters: the refusal said "a number or name too long"
        refused(matrix("[{\"metric\":{\"pod\":\"" + "x".repeat(20_000_001) + "\"},\"values\":[[1,\"1\"]]}]"),
                "or a number, name or string too long");
    }

    private static dev.omcp.connectors.builtin.backend.BackendJson.Answer<List<Series>> readAnswer(String json, SampleChecks checks)
            throws ConnectorException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return PrometheusMatrix.readAnswer(body, new ValuesCharge(AnswerBudget.ofBytes(1L << 40), body.length, () -> 0, "Prometheus", ""),
                checks);
    }

    @Test
    void samplesOutOfTimeOrderOrRepeated_areSortedOncePerSeries_keepingTheFirstAnsweredOfATime_andOneWarningSaysSo()
            throws ConnectorException {
        var answer = readAnswer("""
                {"status":"success","warnings":["partial"],"data":{"resultType":"matrix","result":[
                  {"metric":{"s":"unordered"},"values":[[1060,"2"],[1000,"0"],[1120,"4"],[1060,"9"],[1030,"1"]],
                                              "values":[[1000,"8"],[1090,"3"]]},
                  {"metric":{"s":"ordered"},"values":[[1000,"1"],[1060,"2"]]},
                  {"metric":{"s":"repeated"},"values":[[1000,"1"],[1000,"5"]]}]}}
                """, SampleChecks.anyTime());

        assertThat(answer.result()).satisfiesExactly(unordered -> {
            assertThat(unordered.epochMillis()).containsExactly(1_000_000L, 1_030_000L, 1_060_000L, 1_090_000L, 1_120_000L);
            assertThat(unordered.values()).containsExactly(0.0, 1.0, 2.0, 3.0, 4.0);
        }, ordered -> {
            assertThat(ordered.epochMillis()).containsExactly(1_000_000L, 1_060_000L);
            assertThat(ordered.values()).containsExactly(1.0, 2.0);
        }, repeated -> {
            assertThat(repeated.epochMillis()).containsExactly(1_000_000L);
            assertThat(repeated.values()).containsExactly(1.0);
        });
        assertThat(answer.warnings()).containsExactly("partial", "Prometheus answered the samples of 2 series out of time order or "
                + "with repeated times; they were sorted, and 3 repeated times left out (the first sample answered for a time was kept)");
    }

    @Test
    void samplesMoreThanAStepOutsideTheAskedWindow_areLeftOut_thoseWithinAStep_kept_asAStepAligningFrontendAnswersThem()
            throws ConnectorException {
        // asked 1000 s to 1600 s at 60 s: a frontend aligning to the step may answer from 960 s; a hostile one the year 2100
        SampleChecks checks = SampleChecks.within(new TimeRange(Instant.ofEpochSecond(1000), Instant.ofEpochSecond(1600)),
                Duration.ofSeconds(60));
        var answer = readAnswer("""
                {"status":"success",
                 "data":{"resultType":"matrix","result":[{"metric":{},"values":[[939,"0"],[940,"1"],[1000,"2"],[1600,"3"],[1660,"4"],
                  [4102444800,"99"],[1661,"5"]]}]}}
                """, checks);

        assertThat(answer.result()).singleElement().satisfies(s -> {
            assertThat(s.epochMillis()).containsExactly(940_000L, 1_000_000L, 1_600_000L, 1_660_000L);
            assertThat(s.values()).containsExactly(1.0, 2.0, 3.0, 4.0);
        });
        assertThat(answer.warnings()).containsExactly(
                "Prometheus answered 3 samples more than one step outside the asked window; they were left out");
    }

    @Test
    void anOrderedAnswerWithinTheWindow_isReadAsBefore_withoutALineOfTheGateways() throws ConnectorException {
        SampleChecks checks = SampleChecks.within(new TimeRange(Instant.ofEpochSecond(1000), Instant.ofEpochSecond(1600)),
                Duration.ofSeconds(60));
        var answer = readAnswer("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":"
                + "[[1000,\"1\"],[1060,\"2\"],[1600,\"3\"]]}]}}", checks);
        assertThat(answer.result()).singleElement().satisfies(s -> assertThat(s.epochMillis())
                .containsExactly(1_000_000L, 1_060_000L, 1_600_000L));
        assertThat(answer.warnings()).isEmpty();
    }
}
