package dev.omcp.core.analysis.postmortem;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.redaction.Redactor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class LogHighlightExtractorTest {
    private static final Instant T0 = Instant.parse("2025-03-10T09:35:00Z");
    private static final List<String> LEVELS = List.of("error", "warn");
    private final LogHighlightExtractor extractor = new LogHighlightExtractor();

    private static LogHighlightExtractor.Line line(int second, String level, String text) {
        return new LogHighlightExtractor.Line(T0.plusSeconds(second), level, text);
    }

    @Test
    void linesThatDifferOnlyInNumbersAndIds_areOneHighlightCounted() {
        List<LogHighlightExtractor.Line> lines = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            lines.add(line(100 - i, "warn", "{\"level\":\"warn\",\"msg\":\"slow query: UPDATE payments SET status=$1 WHERE id=$2 took "
                    + (800 + 37 * i) + "ms\",\"lock_wait_ms\":\"" + (500 + i) + "\"}"));
        }
        List<LogHighlight> highlights = extractor.extract(lines, LEVELS, UnaryOperator.identity(), 20);
        assertThat(highlights).singleElement().satisfies(h -> {
            assertThat(h.occurrences()).isEqualTo(40);
            // the earliest line represents the group and dates it
            assertThat(h.firstSeen()).isEqualTo(T0.plusSeconds(61));
            assertThat(h.line()).isEqualTo("warn: slow query: UPDATE payments SET status=$1 WHERE id=$2 took 2243ms");
        });
    }

    @Test
    void errorsRankBeforeWarnings_thenTheMostFrequentFirst() {
        List<LogHighlightExtractor.Line> lines = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            lines.add(line(i, "warn", "pool nearly full: " + (45 + i) + "/50"));
        }
        lines.add(line(10, "error", "{\"msg\":\"checkout request failed with status 502\",\"trace_id\":\"4bf92f3577b34da6a3ce929d0e0e4736\"}"));
        for (int i = 0; i < 3; i++) {
            lines.add(line(20 + i, "error", "{\"message\":\"timeout acquiring connection from pool payments-db after 5000ms\"}"));
        }
        List<LogHighlight> highlights = extractor.extract(lines, LEVELS, UnaryOperator.identity(), 20);
        assertThat(highlights).extracting(LogHighlight::line).containsExactly(
                "error: timeout acquiring connection from pool payments-db after 5000ms",
                "error: checkout request failed with status 502",
                "warn: pool nearly full: 45/50");
        assertThat(highlights).extracting(LogHighlight::occurrences).containsExactly(3, 1, 5);
    }

    @Test
    void theRedactorRunsBeforeGrouping_soNoSecretIsKept() {
        List<LogHighlightExtractor.Line> lines = List.of(
                line(1, "error", "login failed for alice@example.com from 203.0.113.7"),
                line(2, "error", "login failed for bob.smith@example.org from 198.51.100.23"));
        Redactor redactor = new Redactor();
        List<LogHighlight> highlights = extractor.extract(lines, LEVELS, text -> redactor.redactText(text).text(), 20);
        assertThat(highlights).singleElement().satisfies(h -> {
            assertThat(h.occurrences()).isEqualTo(2);
            assertThat(h.line()).doesNotContain("alice@example.com").doesNotContain("203.0.113.7").startsWith("error: login failed for ");
        });
    }

    @Test
    void aLineThatIsNotJson_isItsOwnMessage_onOneLine_andBounded() {
        List<LogHighlight> highlights = extractor.extract(List.of(
                line(1, "error", "java.lang.IllegalStateException: boom\n\tat Foo.bar(Foo.java:10)"),
                line(2, "error", "{not json at all}"),
                line(3, "error", "x".repeat(1000)),
                line(4, "error", "   ")), LEVELS, UnaryOperator.identity(), 20);
        assertThat(highlights).extracting(LogHighlight::line).contains(
                "error: java.lang.IllegalStateException: boom \tat Foo.bar(Foo.java:10)", "error: {not json at all}");
        assertThat(highlights).allSatisfy(h -> assertThat(h.line()).hasSizeLessThanOrEqualTo(7 + LogHighlightExtractor.MAX_MESSAGE_CHARS));
        assertThat(highlights).hasSize(3);
    }

    @Test
    void aMessageCutAtItsBound_neverEndsInHalfACharacter() {
        // the bound falls between the two UTF-16 units of an emoji: a lone surrogate is not text an agent can read
        String message = "x".repeat(LogHighlightExtractor.MAX_MESSAGE_CHARS - 2) + "\uD83D\uDE00" + "y".repeat(50);
        List<LogHighlight> highlights = extractor.extract(List.of(line(1, "error", message)), LEVELS, UnaryOperator.identity(), 20);
        String shown = highlights.get(0).line();
        assertThat(shown).endsWith("x…");
        assertThat(shown.chars().filter(c -> Character.isSurrogate((char) c))).isEmpty();
    }

    @Test
    void aJsonLineNestedDeeperThanTheReaderReads_isItsOwnMessage_notAFailureOfThePostmortem() {
        // anyone who can get a line into a service's logs (a logged request body) can write one of these
        String deep = "{\"level\":\"error\",\"msg\":\"payment failed\",\"detail\":" + "[".repeat(1200) + "]".repeat(1200) + "}";
        List<LogHighlight> highlights = extractor.extract(List.of(line(1, "error", deep), line(2, "error", "{\"msg\":\"db timeout\"}")),
                LEVELS, UnaryOperator.identity(), 20);
        assertThat(highlights).extracting(LogHighlight::line).contains("error: db timeout");
        assertThat(highlights).anySatisfy(h -> assertThat(h.line()).startsWith("error: {\"level\":\"error\",\"msg\":\"payment failed\""));
    }

    @Test
    void atMostMaxHighlights() {
        List<LogHighlightExtractor.Line> lines = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            lines.add(line(i, "error", "distinct failure kind " + (char) ('a' + i % 26) + (char) ('a' + i / 26)));
        }
        assertThat(extractor.extract(lines, LEVELS, UnaryOperator.identity(), 20)).hasSize(20);
        assertThat(extractor.extract(List.of(), LEVELS, UnaryOperator.identity(), 20)).isEmpty();
    }

    @Test
    void aGroupWithLinesFromACutRead_countsOnlyALowerBound() {
        List<LogHighlight> highlights = extractor.extract(List.of(
                new LogHighlightExtractor.Line(T0, "warn", "slow query took 900ms", true),
                new LogHighlightExtractor.Line(T0.plusSeconds(1), "warn", "slow query took 950ms", false),
                new LogHighlightExtractor.Line(T0.plusSeconds(2), "error", "disk full", false)), LEVELS, UnaryOperator.identity(), 20);
        assertThat(highlights).extracting(LogHighlight::countIsLowerBound).containsExactly(false, true);
    }

    @Test
    void thePatternHidesWhatVariesPerOccurrence() {
        assertThat(LogHighlightExtractor.pattern("request 0b7c1e2a-9f4d-4c1e-8a55-2f6d1a3b9c0e took 12.5 ms on 10.42.0.7 trace 4bf92f3577b34da6"))
                .isEqualTo("request <id> took <n> ms on <ip> trace <id>");
        // words made of hex letters only are words, not ids
        assertThat(LogHighlightExtractor.pattern("deadbeef cafe facade")).isEqualTo("deadbeef cafe facade");
    }

    @Test
    void linesThatDifferOnlyInTheirHttpStatus_areDifferentErrors_notOneCountedUnderTheEarliest() {
        // before: "HTTP 404" and "HTTP 503" were one highlight, "upstream returned HTTP 404 x3", hiding the 503s
        List<LogHighlightExtractor.Line> lines = List.of(line(1, "error", "upstream returned HTTP 404"),
                line(2, "error", "upstream returned HTTP 503"), line(3, "error", "upstream returned HTTP 503"),
                line(4, "error", "upstream returned HTTP 503"), line(5, "error", "payment failed status=500 after 812ms"),
                line(6, "error", "payment failed status=502 after 3071ms"), line(7, "error", "payment failed status=500 after 95ms"));
        List<LogHighlight> highlights = extractor.extract(lines, LEVELS, UnaryOperator.identity(), 20);
        assertThat(highlights).extracting(LogHighlight::line, LogHighlight::occurrences).containsExactly(
                org.assertj.core.groups.Tuple.tuple("error: upstream returned HTTP 503", 3),
                org.assertj.core.groups.Tuple.tuple("error: payment failed status=500 after 812ms", 2),
                org.assertj.core.groups.Tuple.tuple("error: upstream returned HTTP 404", 1),
                org.assertj.core.groups.Tuple.tuple("error: payment failed status=502 after 3071ms", 1));
        assertThat(LogHighlightExtractor.pattern("GET /orders code: 404 in 12 ms, retry 200 of 500"))
                .as("only a number named as a status is kept").isEqualTo("GET /orders code: 404 in <n> ms, retry <n> of <n>");
    }

    @Test
    void linesThatDifferOnlyInTheirErrorCode_areDifferentErrors() {
        // before: ORA-00060 (deadlock) and ORA-01555 (snapshot too old) were one highlight, "ORA-<n>"
        List<LogHighlightExtractor.Line> lines = List.of(line(1, "error", "ORA-00060: deadlock detected while waiting for resource"),
                line(2, "error", "ORA-01555: deadlock detected while waiting for resource"),
                line(3, "error", "ORA-01555: deadlock detected while waiting for resource"));
        assertThat(extractor.extract(lines, LEVELS, UnaryOperator.identity(), 20))
                .extracting(LogHighlight::occurrences).containsExactly(2, 1);
        assertThat(LogHighlightExtractor.pattern("E11000 duplicate key on orders after 3 tries"))
                .isEqualTo("E11000 duplicate key on orders after <n> tries");
        assertThat(LogHighlightExtractor.pattern("pq: SQLSTATE 40P01 in 12 ms; connect errno=111; worker exit code 137"))
                .isEqualTo("pq: SQLSTATE 40P01 in <n> ms; connect errno=111; worker exit code 137");
        assertThat(LogHighlightExtractor.pattern("lookup failed for req-48151 and order 2342"))
                .as("a lower-case request id is not a code").isEqualTo("lookup failed for req-<n> and order <n>");
    }
}
