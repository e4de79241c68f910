package dev.omcp.connectors.builtin.loki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.connectors.builtin.backend.ValuesCharge;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.memory.AnswerBudget;
import dev.omcp.sdk.query.LogEntry;
import dev.omcp.sdk.query.TimeRange;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A log query's answer read from the parser's tokens, and every shape that is not one refused as a bad response. */
class LokiStreamsTest {
    /** The start of an answer that says it succeeded, as every answer of Loki and Prometheus does. */
    private static final String SUCCESS = "{\"status\":\"success\",";

    private static final TimeRange ALL_TIME = new TimeRange(Instant.EPOCH, Instant.parse("3000-01-01T00:00:00Z"));

    private static List<LogEntry> read(String json) throws ConnectorException {
        return LokiStreams.read(json.getBytes(StandardCharsets.UTF_8));
    }

    private static void refused(String json, String message) {
        assertThatThrownBy(() -> read(json)).isInstanceOfSatisfying(ConnectorException.class, e -> {
            assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE);
            assertThat(e.getMessage()).contains(message);
        });
    }

    @Test
    void entriesCarryTheirStreamsLabelsExactTimesAndLinesWithEscapesUndone() throws ConnectorException {
        List<LogEntry> entries = read("""
                {"status":"success","data":{"resultType":"streams","result":[
                  {"stream":{"app":"api","pod":"api-0"},"values":[["1795320000123456789","{\\"msg\\":\\"a\\\\b\\"}\\ttab"],
                                                                  ["1795320000000000001","second"]]},
                  {"stream":{},"values":[["1795320001000000000","caf\\u00e9 \\ud83d\\ude00"]]}],
                  "stats":{"summary":{"totalLinesProcessed":3}}}}
                """);
        assertThat(entries).containsExactly(
                new LogEntry(Instant.ofEpochSecond(1795320000L, 123456789), "{\"msg\":\"a\\b\"}\ttab", Map.of("app", "api", "pod", "api-0")),
                new LogEntry(Instant.ofEpochSecond(1795320000L, 1), "second", Map.of("app", "api", "pod", "api-0")),
                new LogEntry(Instant.ofEpochSecond(1795320001L), "café \uD83D\uDE00", Map.of()));
    }

    @Test
    void warningsBesideTheData_arePassedOnWithTheLines_asSafeLinesBoundedInNumberAndLength() throws ConnectorException {
        // Loki writes "warnings" between "status" and "data", and only when the query warned
        var answer = LokiStreams.readAnswer("""
                {"status":"success","warnings":["query timed out on some shards, results may be partial",
                  "line one\\nforged: second line\\u0007 %s", 42, {"not":"a warning"}],
                 "data":{"resultType":"streams","result":[{"stream":{"app":"api"},"values":[["1","boom"]]}]}}
                """.formatted("x".repeat(400)).getBytes(StandardCharsets.UTF_8));

        assertThat(answer.result()).extracting(LogEntry::line).containsExactly("boom");
        assertThat(answer.warnings()).hasSize(2);
        assertThat(answer.warnings().getFirst()).isEqualTo("query timed out on some shards, results may be partial");
        assertThat(answer.warnings().get(1)).startsWith("line one forged: second line").doesNotContain("\n", "\u0007");
        assertThat(answer.warnings().get(1).length()).isLessThanOrEqualTo(301);

        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 14; i++) {
            many.append(i == 0 ? "" : ",").append("\"shard ").append(i).append(" did not answer\"");
        }
        var crowded = LokiStreams.readAnswer((SUCCESS + "\"warnings\":[" + many + "],\"data\":{\"resultType\":\"streams\",\"result\":[]}}")
                .getBytes(StandardCharsets.UTF_8));
        assertThat(crowded.warnings()).hasSize(11).startsWith("shard 0 did not answer").endsWith("(4 more not shown)");
        byte[] quiet = (SUCCESS + "\"data\":{\"resultType\":\"streams\",\"result\":[]}}").getBytes(StandardCharsets.UTF_8);
        assertThat(LokiStreams.readAnswer(quiet).warnings()).as("an answer without warnings").isEmpty();
    }

    @Test
    void membersInAnyOrderAndUnknownMembersAreFine() throws ConnectorException {
        var answer = LokiStreams.readAnswer("""
                {"status":"success","data":{"result":[
                   {"values":[["5","five",{"trace_id":"abc"}],["6","six",[1,[2]],null]],"extra":{"x":[1]},
                    "stream":{"a":"b","n":5,"o":{"x":[1,[2]]}}},
                   null,
                   {"stream":{"c":"d"}},
                   {"stream":{"e":"f"},"values":null},
                   {"stream":null,"values":[]}],
                 "resultType":"streams"},"status":"success","warnings":["slow"]}
                """.getBytes(StandardCharsets.UTF_8));
        assertThat(answer.result()).extracting(LogEntry::line).containsExactly("five", "six");
        assertThat(answer.result()).allSatisfy(e -> assertThat(e.labels()).isEqualTo(Map.of("a", "b")));
        assertThat(answer.result().getFirst().timestamp()).isEqualTo(Instant.ofEpochSecond(0, 5));
        // the labels that are not strings are left out, and a line says so
        assertThat(answer.warnings()).containsExactly("slow", "Loki answered label values that are not strings (2); those labels were "
                + "left out of their streams");
        assertThat(read("{\"status\":\"success\",\"data\":{\"resultType\":\"streams\",\"result\":[]}}")).isEmpty();
    }

    @Test
    void aStreamOrItsLabelsOrValuesOfTheWrongType_isABadResponseSayingWhich_notLinesLeftOutUnsaid() throws ConnectorException {
        // these were skipped without a word: the lines of such a stream missed from the answer, which read as complete. Loki
        // writes each stream as an object of a label map and a list of values (null, a Go encoder's nothing, is nothing)
        refused(streams("[7]"), "a stream that is not an object");
        refused(streams("[\"text\"]"), "a stream that is not an object");
        refused(streams("[[1,2]]"), "a stream that is not an object");
        refused(streams("[{\"stream\":{\"e\":\"f\"},\"values\":{\"not\":\"a list\"}}]"), "'values' that is not a list");
        refused(streams("[{\"stream\":{\"e\":\"f\"},\"values\":\"x\"}]"), "'values' that is not a list");
        refused(streams("[{\"stream\":[\"e\",\"f\"],\"values\":[]}]"), "a 'stream' that is not an object");
    }

    private static String streams(String result) {
        return "{\"status\":\"success\",\"data\":{\"resultType\":\"streams\",\"result\":" + result + "}}";
    }

    @Test
    void aStatusOtherThanSuccessOrError_orTextAfterTheAnswer_isABadResponse() {
        refused("{\"status\":\"weird\",\"data\":{\"resultType\":\"streams\",\"result\":[]}}",
                "Loki answered the status 'weird', which is neither success nor error");
        refused("{\"data\":{\"resultType\":\"streams\",\"result\":[]}}", "Loki answered without a 'status' of success or error");
        refused("{\"status\":\"success\",\"data\":{\"resultType\":\"streams\",\"result\":[]}} {}", "answered more after its JSON object");
        refused("\t<html><body>Log in</body></html>", "not a JSON object: an HTML page: a login page or proxy in front of the backend?");
    }

    @Test
    void categorizedLabels_structuredMetadataAndParsedFields_becomeLabelsOfTheirLine() throws ConnectorException {
        // Loki 3 with "X-Loki-Response-Encoding-Flags: categorize-labels": only indexed labels in "stream"
        List<LogEntry> entries = read("""
                {"status":"success","data":{"resultType":"streams","encodingFlags":["categorize-labels"],"result":[
                  {"stream":{"service_name":"api"},"values":[
                    ["1795320000000000002","GET /pay 500",{"structuredMetadata":{"trace_id":"4bf92f35","service_name":"spoofed"},
                                                           "parsed":{"status":"500"}}],
                    ["1795320000000000001","GET /pay 200",{}],
                    ["1795320000000000000","GET /pay 200"]]}]}}
                """);
        assertThat(entries).extracting(LogEntry::labels).containsExactly(
                Map.of("service_name", "api", "trace_id", "4bf92f35", "status", "500"),
                Map.of("service_name", "api"),
                Map.of("service_name", "api"));
    }

    @Test
    void malformedUtf8InALineBecomesTheReplacementCharacterInsteadOfFailingThePage() throws ConnectorException {
        byte[] prefix = (SUCCESS + "\"data\":{\"resultType\":\"streams\",\"result\":[{\"stream\":{},\"values\":[[\"1\",\"bad ")
                .getBytes(StandardCharsets.UTF_8);
        byte[] suffix = " byte\"]]}]}}".getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[prefix.length + 1 + suffix.length];
        System.arraycopy(prefix, 0, body, 0, prefix.length);
        body[prefix.length] = (byte) 0xC3; // a lead byte without its continuation
        System.arraycopy(suffix, 0, body, prefix.length + 1, suffix.length);
        assertThat(LokiStreams.read(body)).singleElement().extracting(LogEntry::line).isEqualTo("bad \uFFFD byte");
    }

    @Test
    void aResultTypeThatIsNoTypeAtAll_isQuotedInTheRefusalAsOneShortLine() {
        String hostile = "streams\\nevent=forged outcome=ok" + "x".repeat(100_000);
        assertThatThrownBy(() -> read("{\"status\":\"success\",\"data\":{\"resultType\":\"" + hostile + "\",\"result\":[]}}"))
                .isInstanceOfSatisfying(ConnectorException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE);
                    assertThat(e.getMessage()).startsWith("Loki answered streams event=forged").endsWith("… instead of streams")
                            .doesNotContain("\n").hasSizeLessThan(200);
                });
    }

    @Test
    void anythingButTheDocumentedShapeIsABadResponseThatSaysWhatWasWrong() {
        refused("", "not a JSON object");
        refused("not json", "not a JSON object");
        refused("[1,2]", "not a JSON object");
        refused(SUCCESS + "\"data\":{\"resultType\":\"streams\",\"result\":[{\"stream\":{},\"values\":[[\"1\",\"cut", "not a JSON object");
        refused(SUCCESS + "\"data\":{\"resultType\":\"streams\",\"result\":[{\"stream\":{},\"values\":[[\"1\",\"x\"]]}",
                "not a JSON object");
        refused("{\"status\":\"success\"}", "'data' object");
        refused("{\"status\":\"success\",\"data\":[]}", "'data' object");
        refused("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}", "answered matrix instead of streams");
        refused("{\"status\":\"success\",\"data\":{\"result\":[]}}", "answered nothing instead of streams");
        refused("{\"status\":\"success\",\"data\":{\"resultType\":\"streams\"}}", "'result' list");
        refused("{\"status\":\"success\",\"data\":{\"resultType\":\"streams\",\"result\":{}}}", "'result' list");
        for (String value : new String[] {"5", "[]", "[\"1\"]", "[1,\"x\"]", "[\"1\",2]", "[\"1\",null]", "{\"t\":\"1\"}"}) {
            refused(SUCCESS + "\"data\":{\"resultType\":\"streams\",\"result\":[{\"values\":[" + value + "]}]}}",
                    "[\"<nanoseconds>\", \"<line>\"] pair");
        }
        refused(SUCCESS + "\"data\":{\"resultType\":\"streams\",\"result\":[{\"values\":[[\"1.5\",\"x\"]]}]}}", "not nanoseconds");
    }

    @Test
    void deeplyNestedHostileAnswersAreRefusedNotFollowed() {
        String deep = "[".repeat(5000) + "]".repeat(5000);
        refused(SUCCESS + "\"data\":{\"resultType\":\"streams\",\"result\":[{\"values\":[[\"1\",\"x\",\"more\"," + deep + "]]}]}}",
                "answered JSON beyond what the gateway reads (nested deeper than 1000 levels");
    }

    /** Reads {@code json} against a budget of 512 KiB and expects the budget's refusal, with every byte given back. */
    private static void refusedByTheBudget(String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        AnswerBudget budget = AnswerBudget.ofBytes(512 << 10);
        try (ValuesCharge charge = new ValuesCharge(budget, body.length, () -> body.length, "Loki", "ask for fewer lines")) {
            assertThatThrownBy(() -> LokiStreams.readAnswer(body, LokiConnector.MAX_LINES, ALL_TIME, charge))
                    .isInstanceOfSatisfying(ConnectorException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE);
                        assertThat(e.getMessage()).startsWith("Loki answered more than the gateway's memory budget");
                    });
        }
        assertThat(budget.inFlight()).isZero();
    }

    private static String tinyMembers(int count) {
        StringBuilder members = new StringBuilder();
        for (int i = 0; i < count; i++) {
            members.append(i == 0 ? "" : ",").append("\"l").append(i).append("\":\"\"");
        }
        return members.toString();
    }

    @Test
    void aStreamOfManyTinyLabels_isRefusedWhileItsLabelsAreRead_beforeTheRestOfTheAnswer() {
        // 20 000 labels of 12 bytes, about 2 MB of heap: refused while read, so the broken end is never reached
        refusedByTheBudget(SUCCESS + "\"data\":{\"resultType\":\"streams\",\"result\":[{\"stream\":{" + tinyMembers(20_000)
                + ",\"broken\"");
    }

    @Test
    void categorizedLabelsOfALine_areChargedAsTheStreamsAre() {
        refusedByTheBudget(SUCCESS + "\"data\":{\"resultType\":\"streams\",\"result\":[{\"stream\":{\"app\":\"api\"},"
                + "\"values\":[[\"1\",\"a\","
                + "{\"structuredMetadata\":{" + tinyMembers(20_000) + "}, \"broken\"");
    }

    @Test
    void theStreamsLabelsCopiedIntoEveryLineWithLabelsOfItsOwn_areCharged() {
        // 1 000 stream labels (14 KB of answer) copied into a map of its own for each of 200 lines: 200 000 map entries
        StringBuilder json = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"streams\",\"result\":[{\"stream\":{")
                .append(tinyMembers(1_000)).append("},\"values\":[");
        for (int i = 0; i < 200; i++) {
            json.append(i == 0 ? "" : ",").append("[\"").append(i).append("\",\"a\",{\"parsed\":{\"k\":\"v\"}}]");
        }
        refusedByTheBudget(json.append("]}]}}").toString());
    }

    @Test
    void anOrdinaryPageOfLines_isReadWithinTheBudget_andChargesNothingBeyondItsBytes() throws ConnectorException {
        byte[] body = page("").getBytes(StandardCharsets.UTF_8);
        AnswerBudget budget = AnswerBudget.ofBytes(1 << 20);
        try (ValuesCharge charge = new ValuesCharge(budget, body.length, () -> 0, "Loki", "")) {
            assertThat(LokiStreams.readAnswer(body, LokiConnector.MAX_LINES, ALL_TIME, charge).result()).hasSize(1_000);
            assertThat(charge.reserved()).isZero();
        }
    }

    @Test
    void anOrdinaryPageOfLinesWithStructuredMetadata_isReadWithinTheBudget_chargedForTheLinesOwnLabelMaps() throws ConnectorException {
        // a map of three labels per line takes more heap than the line's 110 bytes of answer: that part is charged
        byte[] body = page(",{\"structuredMetadata\":{\"trace_id\":\"abc\"}}").getBytes(StandardCharsets.UTF_8);
        AnswerBudget budget = AnswerBudget.ofBytes(1 << 20);
        try (ValuesCharge charge = new ValuesCharge(budget, body.length, () -> 0, "Loki", "")) {
            assertThat(LokiStreams.readAnswer(body, LokiConnector.MAX_LINES, ALL_TIME, charge).result()).hasSize(1_000)
                    .allSatisfy(e -> assertThat(e.labels()).containsEntry("trace_id", "abc").hasSize(3));
            assertThat(charge.reserved()).isPositive();
        }
        assertThat(budget.inFlight()).isZero();
    }

    /** 20 streams of 50 lines, each value ending in {@code extra}. */
    private static String page(String extra) {
        StringBuilder json = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"streams\",\"result\":[");
        for (int s = 0; s < 20; s++) {
            json.append(s == 0 ? "" : ",").append("{\"stream\":{\"app\":\"api\",\"pod\":\"api-").append(s).append("\"},\"values\":[");
            for (int i = 0; i < 50; i++) {
                json.append(i == 0 ? "" : ",").append("[\"").append(1_795_846_440_000_000_000L + i)
                        .append("\",\"GET /api/orders 200 in 12ms user=42\"").append(extra).append("]");
            }
            json.append("]}");
        }
        return json.append("]}}").toString();
    }

    @Test
    void anAnswerWithMoreLinesThanALogQueryAsks_keepsOnlyTheNewest_soMillionsOfTinyLinesCannotFillTheHeap() throws ConnectorException {
        // Loki answers at most the limit asked for; a hostile one sent millions of ten-byte lines, each some 200 bytes of heap
        StringBuilder json = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"streams\",\"result\":[");
        List<LogEntry> all = new java.util.ArrayList<>();
        for (int i = 0; i < 12_000; i++) { // one-line streams
            long nanos = (i * 7919L) % 1009;
            json.append(i == 0 ? "" : ",").append("{\"stream\":{\"s\":\"").append(i % 3).append("\"},\"values\":[[\"")
                    .append(nanos).append("\",\"a").append(i).append("\"]]}");
            all.add(new LogEntry(Instant.ofEpochSecond(0, nanos), "a" + i, Map.of("s", Integer.toString(i % 3))));
        }
        json.append(",{\"values\":["); // one long stream whose labels come after its values
        for (int i = 0; i < 12_000; i++) {
            long nanos = (i * 104_729L) % 1013;
            json.append(i == 0 ? "" : ",").append("[\"").append(nanos).append("\",\"b").append(i).append("\"]");
            all.add(new LogEntry(Instant.ofEpochSecond(0, nanos), "b" + i, Map.of("s", "long")));
        }
        json.append("],\"stream\":{\"s\":\"long\"}}]}}");
        byte[] body = json.toString().getBytes(StandardCharsets.UTF_8);

        List<LogEntry> newestFirst = new java.util.ArrayList<>(all);
        newestFirst.sort(java.util.Comparator.comparing(LogEntry::timestamp).reversed()); // stable: ties in the answer's order
        for (int limit : new int[] {1, 7, LokiConnector.MAX_LINES}) {
            List<LogEntry> kept = new java.util.ArrayList<>(limit == LokiConnector.MAX_LINES ? LokiStreams.read(body)
                    : LokiStreams.readAnswer(body, limit).result());
            kept.sort(java.util.Comparator.comparing(LogEntry::timestamp).reversed()); // as the connector does
            assertThat(kept).as("limit " + limit).containsExactlyElementsOf(newestFirst.subList(0, limit));
        }
    }

    @Test
    void linesOutsideTheAskedWindow_areLeftOutBeforeTheNewestAreKept_soFarFutureLinesCannotDisplaceTheRealOnes_andAWarningCountsThem()
            throws ConnectorException {
        // the window [12:00, 12:10); Loki answers [start, end), a hostile or clock-skewed one lines stamped years ahead
        TimeRange window = new TimeRange(Instant.parse("2026-11-30T12:00:00Z"), Instant.parse("2026-11-30T12:10:00Z"));
        long start = window.start().getEpochSecond() * 1_000_000_000L;
        long end = window.end().getEpochSecond() * 1_000_000_000L;
        String json = """
                {"status":"success","warnings":["results may be partial"],"data":{"resultType":"streams","result":[
                  {"stream":{"app":"api"},"values":[["%d","future one"],["%d","future two"],["%d","at the end"],
                    ["%d","newest real"],["%d","older real"],["%d","at the start"],["%d","before the start"]]},
                  {"stream":{"app":"web"},"values":[["%d","far future"]]}]}}
                """.formatted(4_102_444_800_000_000_000L, 4_102_444_800_000_000_001L, end, end - 1, start + 60_000_000_000L, start,
                start - 1, 9_000_000_000_000_000_000L);
        byte[] body = json.getBytes(StandardCharsets.UTF_8);

        try (ValuesCharge charge = new ValuesCharge(AnswerBudget.ofBytes(1 << 20), body.length, () -> 0, "Loki", "")) {
            var answer = LokiStreams.readAnswer(body, 3, window, charge);

            assertThat(answer.result()).extracting(LogEntry::line).containsExactly("newest real", "older real", "at the start");
            assertThat(answer.warnings()).containsExactly("results may be partial",
                    "Loki returned 5 lines outside the asked window; they were left out");
        }
        try (ValuesCharge charge = new ValuesCharge(AnswerBudget.ofBytes(1 << 20), body.length, () -> 0, "Loki", "")) {
            // a well-behaved answer (every line inside) is read as before, with no line of the gateway's
            String inside = SUCCESS + "\"data\":{\"resultType\":\"streams\",\"result\":[{\"values\":[[\"" + start + "\",\"a\"]]}]}}";
            var answer = LokiStreams.readAnswer(inside.getBytes(StandardCharsets.UTF_8), 3, window, charge);
            assertThat(answer.result()).extracting(LogEntry::line).containsExactly("a");
            assertThat(answer.warnings()).isEmpty();
        }
    }
}
