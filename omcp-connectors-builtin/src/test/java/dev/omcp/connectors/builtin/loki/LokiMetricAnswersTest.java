package dev.omcp.connectors.builtin.loki;

import static dev.omcp.sdk.connector.ConnectorException.Kind.BAD_RESPONSE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.connectors.builtin.backend.SampleChecks;
import dev.omcp.connectors.builtin.backend.SampleSpellings;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.TimeRange;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Loki's metric-query answers: every documented value read exactly, every other shape a bad response, never a crash. */
class LokiMetricAnswersTest {
    /** The start of an answer that says it succeeded, as every answer of Loki's metric queries does. */
    private static final String SUCCESS = "{\"status\":\"success\",";

    private static JsonObject json(String text) {
        try (var reader = Jsonp.reader(text)) {
            return reader.readObject();
        }
    }

    private static void refused(String answer, ConnectorException.Kind kind, String message) {
        assertThatThrownBy(() -> LokiMetricAnswers.matrix(json(answer))).isInstanceOfSatisfying(ConnectorException.class, e -> {
            assertThat(e.kind()).isEqualTo(kind);
            assertThat(e.getMessage()).contains(message);
        });
    }

    @Test
    void countsThatLokiWarnedAbout_carryItsWarnings_boundedAndMadeSafe_whetherRangeOrInstant() throws ConnectorException {
        String warned = """
                {"status":"success","warnings":["results may be partial", "two\\nlines", 7],
                 "data":{"resultType":"%s","result":[]}}
                """;
        var range = LokiMetricAnswers.matrixAnswer(json(warned.formatted("matrix")));
        var instant = LokiMetricAnswers.vectorAnswer(json(warned.formatted("vector")));

        assertThat(range.result()).isEmpty();
        assertThat(range.warnings()).containsExactly("results may be partial", "two lines");
        assertThat(instant.warnings()).containsExactly("results may be partial", "two lines");
        assertThat(LokiMetricAnswers.matrixAnswer(json(SUCCESS + "\"warnings\":\"not a list\","
                + "\"data\":{\"resultType\":\"matrix\",\"result\":[]}}"))
                .warnings()).isEmpty();
    }

    @Test
    void aMatrixKeepsItsLabels_exactMillisecondTimes_andTheSpecialValues() throws ConnectorException {
        List<Series> series = LokiMetricAnswers.matrix(json("""
                {"status":"success","data":{"resultType":"matrix","result":[
                  {"metric":{"level":"error","n":5},"values":[[1795846440.123,"3"],[1795846500,"NaN"],[1795846560.1235,"+Inf"],
                                                        [1795846620,"-Inf"]]}],
                  "stats":{"summary":{"execTime":0.01}}}}
                """));
        assertThat(series).singleElement().satisfies(s -> {
            assertThat(s.labels()).isEqualTo(Map.of("level", "error"));
            assertThat(s.epochMillis()).containsExactly(1795846440123L, 1795846500000L, 1795846560124L, 1795846620000L);
            assertThat(s.values()).containsExactly(3.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);
        });
    }

    @Test
    void aVectorIsOneSamplePerSeries() throws ConnectorException {
        List<Series> series = LokiMetricAnswers.vector(json("""
                {"status":"success","data":{"resultType":"vector","result":[
                  {"metric":{"pod":"api-0"},"value":[1795846440.5,"12"]},{"metric":{"pod":"api-1"},"value":[1795846440.5,"+Inf"]}]}}
                """));
        assertThat(series).extracting(Series::labels).containsExactly(Map.of("pod", "api-0"), Map.of("pod", "api-1"));
        assertThat(series).allSatisfy(s -> assertThat(s.epochMillis()).containsExactly(1795846440500L));
        assertThat(series.get(1).values()).containsExactly(Double.POSITIVE_INFINITY);
    }

    @Test
    void malformedSamplesAreBadResponses_notUncheckedExceptions() {
        String pair = "[time, \"value\"] pair";
        for (String values : new String[] {"[[\"1\",\"2\"]]", "[[1,2]]", "[[1]]", "[5]", "[[1,\"2\",3]]",
                "[[1e999999999,\"1\"]]"}) {
            refused(SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":" + values + "}]}}",
                    ConnectorException.Kind.BAD_RESPONSE, pair);
        }
        refused(SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[7]}}", ConnectorException.Kind.BAD_RESPONSE, pair);
        refused(SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":[[1,\"two\"]]}]}}",
                ConnectorException.Kind.BAD_RESPONSE, "sample value that is not a number");
        refused(SUCCESS + "\"data\":{\"resultType\":\"streams\",\"result\":[]}}", ConnectorException.Kind.BAD_RESPONSE,
                "answered streams instead of a matrix");
        refused("{\"status\":\"success\"}", ConnectorException.Kind.BAD_RESPONSE, "'data' object");
        assertThatThrownBy(() -> LokiMetricAnswers.vector(json(SUCCESS + "\"data\":{\"resultType\":\"vector\","
                + "\"result\":[{\"value\":5}]}}")))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.getMessage()).contains(pair));
    }

    @Test
    void aSeriesLabelsOrSamplesOfTheWrongType_isABadResponseSayingWhich_notASeriesWithoutPointsOrLabels() throws ConnectorException {
        refused(SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"level\":\"error\"},\"values\":\"x\"}]}}",
                ConnectorException.Kind.BAD_RESPONSE, "'values' that is not a list");
        refused(SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":[\"level\"],\"values\":[[1,\"1\"]]}]}}",
                ConnectorException.Kind.BAD_RESPONSE, "'metric' that is not an object");
        assertThatThrownBy(() -> LokiMetricAnswers.vector(json(SUCCESS + "\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":5,"
                + "\"value\":[1,\"1\"]}]}}"))).isInstanceOfSatisfying(ConnectorException.class,
                        e -> assertThat(e.getMessage()).contains("'metric' that is not an object"));
        // null is what a Go encoder writes for an empty map: no labels, as before
        assertThat(LokiMetricAnswers.matrix(json(SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":null,"
                + "\"values\":[[1,\"1\"]]}]}}"))).singleElement().satisfies(s -> assertThat(s.labels()).isEmpty());
    }

    @Test
    void aSampleValueSpelledAsOnlyJavaReadsIt_isABadResponseNamingTheSampleValue_inARangeAndAnInstantAnswer() {
        for (String spelled : SampleSpellings.NOT_PROMETHEUS) {
            refused(SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":[[1,\"" + spelled
                    + "\"]]}]}}", BAD_RESPONSE, "sample value");
            assertThatThrownBy(() -> LokiMetricAnswers.vector(json(SUCCESS + "\"data\":{\"resultType\":\"vector\",\"result\":[{"
                    + "\"metric\":{},\"value\":[1,\"" + spelled + "\"]}]}}"))).as(spelled)
                    .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.getMessage()).contains("NaN, +Inf or -Inf"));
        }
    }

    @Test
    void aValueBeyondTheRangeOfADouble_isABadResponse_notAnInfinityLokiNeverAnswered() throws ConnectorException {
        refused(SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":[[1,\"1e400\"]]}]}}",
                ConnectorException.Kind.BAD_RESPONSE, "sample value out of range");
        assertThatThrownBy(() -> LokiMetricAnswers.vector(json(SUCCESS + "\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},"
                + "\"value\":[1,\"-1e999\"]}]}}"))).isInstanceOfSatisfying(ConnectorException.class,
                        e -> assertThat(e.getMessage()).contains("sample value out of range"));
        assertThat(LokiMetricAnswers.matrix(json(SUCCESS + "\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":"
                + "[[1,\"+Inf\"],[2,\"-Inf\"],[3,\"1e-400\"]]}]}}"))).singleElement()
                .satisfies(s -> assertThat(s.values()).containsExactly(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0));
    }

    @Test
    void aTimeOfATinyFraction_isTheEpoch_readWithoutScalingItsExponent_andOneBeyondWhatScalingHolds_isNoUncheckedException()
            throws ConnectorException {
        // 1e-30000000 seconds scaled to whole milliseconds took minutes of CPU; 1e-999999999 escaped as an ArithmeticException
        // one series each: the samples of one series with equal times would be one sample
        List<Series> series = LokiMetricAnswers.matrix(json("""
                {"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1e-999999999,"1"]]},
                 {"metric":{},"values":[[-1e-999999999,"2"]]},{"metric":{},"values":[[1e-30000000,"3"]]},
                 {"metric":{},"values":[[0.0004999,"4"]]},{"metric":{},"values":[[0.0005,"5"]]}]}}
                """));

        assertThat(series).extracting(s -> s.timeAt(0)).containsExactly(0L, 0L, 0L, 0L, 1L);
    }

    @Test
    void aResultTypeThatIsNoTypeAtAll_isQuotedInTheRefusalAsOneShortLine_rangeOrInstant() {
        String hostile = "matrix\\u2028event=forged" + "x".repeat(100_000);
        String answer = SUCCESS + "\"data\":{\"resultType\":\"" + hostile + "\",\"result\":[]}}";
        assertThatThrownBy(() -> LokiMetricAnswers.matrix(json(answer))).isInstanceOfSatisfying(ConnectorException.class, e ->
                assertThat(e.getMessage()).startsWith("Loki answered matrix event=forged").endsWith("… instead of a matrix")
                        .doesNotContain("\u2028").hasSizeLessThan(200));
        assertThatThrownBy(() -> LokiMetricAnswers.vector(json(answer))).isInstanceOfSatisfying(ConnectorException.class, e ->
                assertThat(e.getMessage()).startsWith("Loki answered matrix event=forged").endsWith("… instead of a vector")
                        .hasSizeLessThan(200));
    }

    @Test
    void anErrorEnvelope_passesOnLokisWords() {
        refused("""
                {"status":"error","errorType":"bad_data","error":"parse error at line 1, col 10: syntax error: unexpected IDENTIFIER"}
                """, ConnectorException.Kind.BAD_QUERY, "Loki rejected the query (bad_data): parse error at line 1, col 10");
        refused("{\"status\":\"error\",\"error\":\"context deadline exceeded\"}", ConnectorException.Kind.TIMEOUT,
                "Loki timed out: context deadline exceeded");
    }

    @Test
    void aHostileMatrix_hasItsSamplesSorted_repeatsAndTimesFarOutsideTheWindowLeftOut_andTwoLinesSaySo() throws ConnectorException {
        // counts asked from 1060 s to 1600 s at 60 s (Loki evaluates from start + step): the window with one step of slack
        SampleChecks checks = SampleChecks.within(new TimeRange(Instant.ofEpochSecond(1000), Instant.ofEpochSecond(1600)),
                Duration.ofSeconds(60));
        var answer = LokiMetricAnswers.matrixAnswer(json("""
                {"status":"success","data":{"resultType":"matrix","result":[
                  {"metric":{"s":"hostile"},"values":[[1120,"2"],[4102444800,"99"],[1060,"1"],[1120,"7"],[1,"0"]]},
                  {"metric":{"s":"ordered"},"values":[[1060,"1"],[1600,"2"]]}]}}
                """), checks);

        assertThat(answer.result()).satisfiesExactly(hostile -> {
            assertThat(hostile.epochMillis()).containsExactly(1_060_000L, 1_120_000L);
            assertThat(hostile.values()).containsExactly(1.0, 2.0);
        }, ordered -> assertThat(ordered.epochMillis()).containsExactly(1_060_000L, 1_600_000L));
        assertThat(answer.warnings()).containsExactly(
                "Loki answered 2 samples more than one step outside the asked window; they were left out",
                "Loki answered the samples of 1 series out of time order or with repeated times; they were sorted, and 1 repeated time "
                        + "left out (the first sample answered for a time was kept)");
    }

    @Test
    void anEnvelopeWithAnotherStatusOrNone_isABadResponseQuotingIt_notASuccess_rangeOrInstant() {
        String data = "\"data\":{\"resultType\":\"%s\",\"result\":[{\"metric\":{},\"value\":[1,\"1\"],\"values\":[[1,\"1\"]]}]}}";
        refused("{" + data.formatted("matrix"), ConnectorException.Kind.BAD_RESPONSE,
                "Loki answered without a 'status' of success or error; check that the source URL points at a Loki server");
        refused("{\"status\":\"pending\\u2028forged\"," + data.formatted("matrix"), ConnectorException.Kind.BAD_RESPONSE,
                "Loki answered the status 'pending forged', which is neither success nor error");
        refused("{\"status\":7," + data.formatted("matrix"), ConnectorException.Kind.BAD_RESPONSE, "without a 'status'");
        assertThatThrownBy(() -> LokiMetricAnswers.vectorAnswer(json("{\"status\":\"partial\"," + data.formatted("vector"))))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(BAD_RESPONSE))
                .hasMessageStartingWith("Loki answered the status 'partial'");
    }

    @Test
    void labelValuesThatAreNotStrings_areLeftOutWithAWarningLine_andSeriesTheyLeaveAlikeAreRefused() throws ConnectorException {
        var range = LokiMetricAnswers.matrixAnswer(json("""
                {"status":"success","data":{"resultType":"matrix","result":[
                  {"metric":{"level":"error","n":5,"o":{"x":1}},"values":[[1,"1"]]},{"metric":{"level":"warn"},"values":[[1,"2"]]}]}}
                """));
        assertThat(range.result()).extracting(Series::labels).containsExactly(Map.of("level", "error"), Map.of("level", "warn"));
        assertThat(range.warnings()).containsExactly("Loki answered label values that are not strings (2); those labels were left out "
                + "of their series");
        var instant = LokiMetricAnswers.vectorAnswer(json("""
                {"status":"success","data":{"resultType":"vector","result":[{"metric":{"pod":"a","n":null},"value":[1,"1"]}]}}
                """));
        assertThat(instant.warnings()).containsExactly("Loki answered label values that are not strings (1); those labels were left out "
                + "of their series");
        // {"pod":5} and {"pod":6} would both read as {}: one series shown twice, or two as one
        assertThatThrownBy(() -> LokiMetricAnswers.vectorAnswer(json("""
                {"status":"success","data":{"resultType":"vector","result":[
                  {"metric":{"pod":5},"value":[1,"1"]},{"metric":{"pod":6},"value":[1,"2"]}]}}
                """))).isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(BAD_RESPONSE))
                .hasMessageStartingWith("Loki answered series that are alike once their label values that are not strings are left out");
    }
}
