package dev.omcp.core.analysis.traces;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.analysis.traces.TraceSourceOutcome.Answered;
import dev.omcp.core.analysis.traces.TraceSourceOutcome.Failed;
import dev.omcp.sdk.query.TraceSummary;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceMergerTest {
    private static final Instant T = Instant.parse("2025-03-10T10:00:00Z");
    private final TraceMerger merger = new TraceMerger();

    private static TraceSummary trace(String id, double ms, int spans, boolean error) {
        return new TraceSummary(id, "GET /checkout", "checkout", T, ms, spans, error);
    }

    @Test
    void outputFieldNames_areExactlyThoseOfSpec44() {
        JsonObject json = merger.merge(TraceQueryEcho.defaults("checkout"),
                List.of(new Answered("tempo", List.of(trace("a1", 10, 3, false))))).toJson();
        assertThat(json.keySet()).containsExactly("service", "duration", "sources", "summary", "traces");
        assertThat(json.getJsonObject("summary").keySet()).containsExactly("total", "errorCount", "p50DurationMs", "p95DurationMs");
        assertThat(json.getJsonArray("traces").getJsonObject(0).keySet())
                .containsExactly("traceId", "rootName", "rootService", "durationMs", "spanCount", "hasError");
        assertThat(json.getString("duration")).isEqualTo("15m");
    }

    @Test
    void duplicatesAcrossSources_keepTheMostCompleteCopyAndAnyErrorFlag() {
        TraceMergeResult r = merger.merge(TraceQueryEcho.defaults("checkout"), List.of(
                new Answered("tempo", List.of(trace("00000000000000004bf92f3577b34da6", 120, 12, false))),
                new Answered("zipkin", List.of(trace("4BF92F3577B34DA6", 118, 7, true)))));
        assertThat(r.traces()).singleElement().satisfies(t -> {
            assertThat(t.traceId()).isEqualTo("4bf92f3577b34da6");
            assertThat(t.spanCount()).isEqualTo(12);
            assertThat(t.hasError()).isTrue();
        });
        assertThat(r.sources()).containsExactly("tempo", "zipkin");
    }

    @Test
    void aTraceIsShownByTheShortestIdItsSourcesGaveIt_theOneItsLogsAndEachSourceFindItBy() {
        // Zipkin names a 64-bit trace by 16 hex digits, and so do the logs of the services it traced; Tempo's padded form
        // of the same id, shown to the agent, was found in neither the logs nor Zipkin
        TraceMergeResult r = merger.merge(TraceQueryEcho.defaults("checkout"), List.of(
                new Answered("tempo", List.of(trace("00000000000000004BF92F3577B34DA6", 120, 12, false))),
                new Answered("zipkin", List.of(trace("4bf92f3577b34da6", 118, 7, true)))));
        assertThat(r.traces()).singleElement().satisfies(t -> {
            assertThat(t.traceId()).isEqualTo("4bf92f3577b34da6");
            assertThat(t.spanCount()).as("the most complete copy is still the one kept").isEqualTo(12);
        });
        // an id only one source gave is shown as that source gave it (lower case when hex), never padded
        TraceMergeResult decimal = merger.merge(TraceQueryEcho.defaults("checkout"),
                List.of(new Answered("datadog", List.of(trace("1234567890123456789", 5, 1, false)))));
        assertThat(decimal.traces()).extracting(TraceSummary::traceId).containsExactly("1234567890123456789");
    }

    @Test
    void idsThatAreNotHex_areKeptExactlyAsGiven_andSpellingsThatDifferAreDifferentTraces() {
        // a third-party connector's ids may be case-sensitive: lower-casing them changed the id and merged two traces into one
        TraceMergeResult r = merger.merge(TraceQueryEcho.defaults("checkout"), List.of(
                new Answered("a", List.of(trace("Req-7F", 20, 1, false))),
                new Answered("b", List.of(trace("req-7f", 10, 1, false), trace("G1", 5, 1, false)))));
        assertThat(r.traces()).extracting(TraceSummary::traceId).containsExactly("Req-7F", "req-7f", "G1");
    }

    @Test
    void normalise_lowerCasesAndPadsOnlyHexIdsOfAtMost32Digits() {
        assertThat(TraceMerger.normalise("4BF92F3577B34DA6")).isEqualTo("00000000000000004bf92f3577b34da6");
        assertThat(TraceMerger.normalise("4BF92F3577B34DA6A3CE929D0E0E4736")).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(TraceMerger.normalise("Req-7F")).isEqualTo("Req-7F");
        assertThat(TraceMerger.normalise("ABCDEF0123456789ABCDEF0123456789A")).as("33 digits: no W3C or Zipkin id")
                .isEqualTo("ABCDEF0123456789ABCDEF0123456789A");
        assertThat(TraceMerger.normalise(" AB ")).isEqualTo(" AB ");
    }

    @Test
    void aKeptCopyThatHasNotSeenTheRootSpan_takesTheRootFromACopyThatHas() {
        // Tempo counts every span it holds but names no root until the root span arrives; Zipkin got the root
        TraceSummary tempo = new TraceSummary("4bf92f3577b34da6a3ce929d0e0e4736", "", "", T, 240, 9, true);
        TraceSummary zipkin = new TraceSummary("4bf92f3577b34da6a3ce929d0e0e4736", "POST /checkout", "checkout", T, 235, 8, false);
        for (List<TraceSourceOutcome> order : List.of(
                List.<TraceSourceOutcome>of(new Answered("tempo", List.of(tempo)), new Answered("zipkin", List.of(zipkin))),
                List.<TraceSourceOutcome>of(new Answered("zipkin", List.of(zipkin)), new Answered("tempo", List.of(tempo))))) {
            assertThat(merger.merge(TraceQueryEcho.defaults("checkout"), order).traces()).singleElement().satisfies(t -> {
                assertThat(t.rootName()).isEqualTo("POST /checkout");
                assertThat(t.rootService()).isEqualTo("checkout");
                assertThat(t.spanCount()).as("the rest is still the most complete copy's").isEqualTo(9);
                assertThat(t.durationMs()).isEqualTo(240);
                assertThat(t.hasError()).isTrue();
            });
        }
        // a copy with only half a root does not lend it; the kept copy keeps what it has
        TraceSummary half = new TraceSummary("4bf92f3577b34da6a3ce929d0e0e4736", "", "checkout", T, 235, 8, false);
        assertThat(merger.merge(TraceQueryEcho.defaults("checkout"), List.of(new Answered("tempo", List.of(tempo)),
                new Answered("zipkin", List.of(half)))).traces()).singleElement()
                .satisfies(t -> assertThat(t.rootService()).isEmpty());
    }

    @Test
    void ranking_putsErrorsFirstThenTheSlowest_andCapsAtLimit() {
        List<TraceSummary> traces = List.of(trace("a", 50, 1, false), trace("b", 900, 1, false), trace("c", 20, 1, true),
                trace("d", 300, 1, true), trace("e", 10, 1, false));
        TraceMergeResult r = merger.merge(new TraceQueryEcho("checkout", "1h", 3, false), List.of(new Answered("tempo", traces)));
        assertThat(r.traces()).extracting(TraceSummary::traceId)
                .containsExactly("d", "c", "b");
        assertThat(r.total()).isEqualTo(3);
        assertThat(r.errorCount()).isEqualTo(2);
        assertThat(r.note()).hasValueSatisfying(n -> assertThat(n).contains("5 traces matched").contains("raise limit"));
    }

    @Test
    void sourcesThatReturnedAsManyAsTheyWereAskedFor_makeTheNoteSayTheListMayBeIncomplete() {
        TraceMergeResult r = merger.merge(TraceQueryEcho.defaults("checkout"), List.of(
                new Answered("tempo", List.of(trace("a", 5, 1, false), trace("b", 6, 1, false)), true),
                new Answered("zipkin", List.of(trace("c", 7, 1, false)))));
        assertThat(r.note()).contains("tempo returned 2 traces, as many as a source is asked for, so the window may hold more that "
                + "were not ranked and the list may be incomplete: shorten duration or add a filter.");
        TraceMergeResult none = merger.merge(new TraceQueryEcho("checkout", "5m", 50, true),
                List.of(new Answered("tempo", List.of(trace("a", 5, 1, false)), true)));
        assertThat(none.note()).hasValueSatisfying(n -> assertThat(n).startsWith("no error traces of checkout in the last 5m. tempo returned 1"));
    }

    @Test
    void aCutAtTheLargestLimit_doesNotSuggestRaisingIt() {
        List<TraceSummary> traces = List.of(trace("a", 1, 1, false), trace("b", 2, 1, false));
        TraceMergeResult r = merger.merge(new TraceQueryEcho("s", "15m", 1, false), List.of(new Answered("x", traces)));
        assertThat(r.note()).contains("2 traces matched; the list and its summary cover only the 1 most relevant "
                + "(errors first, then slowest): raise limit (at most 1000) to see more.");
        List<TraceSummary> many = new ArrayList<>();
        for (int i = 0; i <= TraceQueryEcho.MAX_LIMIT; i++) {
            many.add(trace("t" + i, i, 1, false));
        }
        TraceMergeResult atMax = merger.merge(new TraceQueryEcho("s", "15m", TraceQueryEcho.MAX_LIMIT, false),
                List.of(new Answered("x", many)));
        assertThat(atMax.note()).hasValueSatisfying(n -> assertThat(n).endsWith("the 1000 most relevant (errors first, then slowest).").doesNotContain("raise limit"));
    }

    @Test
    void percentiles_areNearestRankOverTheCappedSet() {
        List<TraceSummary> traces = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            traces.add(trace("t" + i, i * 10.0, 1, false));
        }
        TraceMergeResult all = merger.merge(new TraceQueryEcho("s", "15m", 50, false), List.of(new Answered("x", traces)));
        assertThat(all.p50DurationMs()).hasValue(100.0); // rank ceil(0.5 * 20) = 10 -> 100
        assertThat(all.p95DurationMs()).hasValue(190.0); // rank ceil(0.95 * 20) = 19 -> 190
        TraceMergeResult capped = merger.merge(new TraceQueryEcho("s", "15m", 5, false), List.of(new Answered("x", traces)));
        // the 5 slowest are 160..200: percentiles describe what is returned
        assertThat(capped.p50DurationMs()).hasValue(180.0);
        assertThat(capped.p95DurationMs()).hasValue(200.0);
        assertThat(TraceMerger.percentile(new double[] {7}, 95)).hasValue(7.0);
    }

    @Test
    void errorsOnly_dropsTracesWithoutErrors() {
        TraceMergeResult r = merger.merge(new TraceQueryEcho("s", "15m", 50, true),
                List.of(new Answered("x", List.of(trace("a", 5, 1, false), trace("b", 6, 1, true)))));
        assertThat(r.traces()).extracting(TraceSummary::hasError).containsOnly(true);
    }

    @Test
    void partialFailure_isReportedInErrorsWhileTheOtherSourcesStillAnswer() {
        TraceMergeResult r = merger.merge(TraceQueryEcho.defaults("checkout"), List.of(
                new Answered("tempo", List.of(trace("a", 5, 1, false))),
                new Failed("jaeger", "timed out after 5s")));
        JsonObject json = r.toJson();
        assertThat(json.getJsonArray("errors").getString(0)).isEqualTo("jaeger: timed out after 5s");
        assertThat(json.getBoolean("partial")).isTrue();
        assertThat(json.getJsonArray("traces")).hasSize(1);
        assertThat(json.getJsonArray("sources")).hasSize(1);
    }

    @Test
    void noCapableConnector_givesAnEmptyListAndANoteNotAnError() {
        JsonObject json = merger.merge(TraceQueryEcho.defaults("checkout"), List.of()).toJson();
        assertThat(json.getJsonArray("traces")).isEmpty();
        assertThat(json.getString("note")).contains("queryTraces capability");
        assertThat(json.containsKey("errors")).isFalse();
        assertThat(json.getJsonObject("summary").get("p50DurationMs")).isEqualTo(JsonValue.NULL);
        assertThat(json.getJsonObject("summary").getInt("total")).isZero();
    }

    @Test
    void everySourceFailed_saysSoAndIsNotPartial() {
        TraceMergeResult r = merger.merge(TraceQueryEcho.defaults("checkout"), List.of(new Failed("tempo", "connection refused")));
        assertThat(r.partial()).isFalse();
        assertThat(r.note()).hasValueSatisfying(n -> assertThat(n).contains("every traces source failed"));
        assertThat(r.toJson().containsKey("partial")).isFalse();
        // the note points at errors: without them the caller could not tell why nothing was searched
        assertThat(r.toJson().getJsonArray("errors").getString(0)).isEqualTo("tempo: connection refused");
    }

    @Test
    void nothingMatched_isAnEmptyListWithANoteAndNullPercentiles() {
        TraceMergeResult r = merger.merge(new TraceQueryEcho("checkout", "5m", 50, true), List.of(new Answered("tempo", List.of())));
        assertThat(r.note()).contains("no error traces of checkout in the last 5m");
        assertThat(r.p95DurationMs()).isEmpty();
    }

    @Test
    void limit_outsideItsRangeIsRefused() {
        assertThatThrownBy(() -> new TraceQueryEcho("s", "15m", 0, false)).hasMessageContaining("between 1 and 1000");
        assertThatThrownBy(() -> new TraceQueryEcho("s", "15m", 1001, false)).hasMessageContaining("got 1001");
    }

    @Test
    void tracesWithoutAValidDuration_areListedAfterTheTimedOnes_leftOutOfThePercentiles_andWrittenAsNull() {
        // a plugin's NaN or +Inf duration made the whole answer fail to serialise (JSON has no NaN), and NaN sorted as
        // the slowest trace of all; a negative one (a skewed clock) is no duration either
        List<TraceSummary> traces = List.of(trace("a", Double.NaN, 3, false), trace("b", 40, 2, false),
                trace("c", Double.POSITIVE_INFINITY, 2, false), trace("d", -5, 2, false), trace("e", 10, 2, false));
        TraceMergeResult r = merger.merge(TraceQueryEcho.defaults("checkout"), List.of(new Answered("tempo", traces)));

        assertThat(r.traces()).extracting(TraceSummary::traceId).startsWith("b", "e");
        assertThat(r.p50DurationMs()).hasValue(10.0);
        assertThat(r.p95DurationMs()).hasValue(40.0);
        assertThat(r.note()).hasValueSatisfying(n -> assertThat(n).contains("3 traces came without a valid duration"));
        JsonObject json = r.toJson();
        assertThat(json.getJsonArray("traces").getJsonObject(2).get("durationMs")).isEqualTo(JsonValue.NULL);
        assertThat(json.getJsonArray("traces").getJsonObject(0).getJsonNumber("durationMs").doubleValue()).isEqualTo(40.0);
    }

    @Test
    void aCopyWithoutADuration_doesNotWinOverATimedCopyOfTheSameTrace() {
        TraceMergeResult r = merger.merge(TraceQueryEcho.defaults("checkout"), List.of(
                new Answered("tempo", List.of(trace("4bf92f3577b34da6", Double.NaN, 5, false))),
                new Answered("zipkin", List.of(trace("4bf92f3577b34da6", 118, 5, false)))));
        assertThat(r.traces()).singleElement().extracting(TraceSummary::durationMs).isEqualTo(118.0);
    }

    @Test
    void tracesWithoutAUsableId_areLeftOutAndCounted_notMergedIntoOne() {
        List<TraceSummary> traces = List.of(trace("", 10, 1, true), trace("  ", 20, 1, false), trace("f".repeat(TraceMerger.MAX_TRACE_ID + 1),
                30, 1, true), trace("a1", 5, 2, false));
        TraceMergeResult r = merger.merge(TraceQueryEcho.defaults("checkout"), List.of(new Answered("tempo", traces)));
        assertThat(r.traces()).extracting(TraceSummary::traceId).containsExactly("a1");
        assertThat(r.errorCount()).isZero();
        assertThat(r.note()).hasValue("3 traces came without a usable trace id (blank or longer than 256 characters) and were left out:"
                + " they could be neither de-duplicated nor opened.");
        TraceMergeResult none = merger.merge(TraceQueryEcho.defaults("checkout"), List.of(new Answered("tempo", List.of(trace("", 1, 1, false)))));
        assertThat(none.traces()).isEmpty();
        assertThat(none.note()).hasValue("no traces of checkout in the last 15m. 1 trace came without a usable trace id (blank or longer"
                + " than 256 characters) and was left out: it could be neither de-duplicated nor opened.");
    }

    @Test
    void tracesWithANegativeSpanCount_areLeftOutAndCountedWithTheirSources_notShownToTheAgent() {
        TraceMergeResult r = merger.merge(TraceQueryEcho.defaults("checkout"), List.of(
                new Answered("tempo", List.of(trace("b1", 900, -3, true), trace("a1", 5, 2, false))),
                new Answered("zipkin", List.of(trace("c1", 40, Integer.MIN_VALUE, false)))));
        assertThat(r.traces()).extracting(TraceSummary::traceId).containsExactly("a1");
        assertThat(r.traces()).allSatisfy(t -> assertThat(t.spanCount()).isNotNegative());
        assertThat(r.errorCount()).isZero();
        assertThat(r.note()).hasValue("2 traces came with a negative spanCount, which no trace can have, and were left out;"
                + " sources that sent them: tempo, zipkin (a connector bug to report).");
        TraceMergeResult none = merger.merge(TraceQueryEcho.defaults("checkout"),
                List.of(new Answered("tempo", List.of(trace("b1", 1, -1, false)))));
        assertThat(none.traces()).isEmpty();
        assertThat(none.p50DurationMs()).isEmpty();
        assertThat(none.note()).hasValue("no traces of checkout in the last 15m. 1 trace came with a negative spanCount, which no trace"
                + " can have, and was left out; sources that sent it: tempo (a connector bug to report).");
    }

    @Test
    void aCopyWithANegativeSpanCount_isNotCountedAsLost_norItsSourceNamed_whenAnotherSourceGaveTheSameTraceIntact() {
        TraceMergeResult r = merger.merge(TraceQueryEcho.defaults("checkout"), List.of(
                new Answered("tempo", List.of(trace("4bf92f3577b34da6", 120, -1, true))),
                new Answered("zipkin", List.of(trace("4BF92F3577B34DA6", 118, 7, false), trace("e9", 3, -2, false)))));
        assertThat(r.traces()).singleElement().satisfies(t -> {
            assertThat(t.spanCount()).isEqualTo(7);
            assertThat(t.hasError()).as("a copy refused as broken says nothing trustworthy").isFalse();
        });
        assertThat(r.note()).hasValue("1 trace came with a negative spanCount, which no trace can have, and was left out;"
                + " sources that sent it: zipkin (a connector bug to report).");
    }

    @Test
    void hugeRootNamesAndServices_areCut() {
        TraceSummary huge = new TraceSummary("a1", "x".repeat(100_000), "s".repeat(TraceMerger.MAX_NAME + 1), T, 5, 1, false);
        TraceSummary t = merger.merge(TraceQueryEcho.defaults("checkout"), List.of(new Answered("tempo", List.of(huge)))).traces().getFirst();
        assertThat(t.rootName()).hasSize(TraceMerger.MAX_NAME).endsWith("x…");
        assertThat(t.rootService()).hasSize(TraceMerger.MAX_NAME).endsWith("s…");
        TraceSummary exact = new TraceSummary("a2", "y".repeat(TraceMerger.MAX_NAME), "s", T, 5, 1, false);
        assertThat(merger.merge(TraceQueryEcho.defaults("checkout"), List.of(new Answered("tempo", List.of(exact)))).traces().getFirst()
                .rootName()).isEqualTo("y".repeat(TraceMerger.MAX_NAME));
    }

    @Test
    void aRootNameCutWhereACharacterOutsideTheBasicPlaneStands_neverKeepsHalfOfIt() {
        // the cut falls between the two UTF-16 halves of the emoji: half a character is no text, and JSON writes it as '?'
        String name = "x".repeat(TraceMerger.MAX_NAME - 2) + "😀" + "tail";
        TraceSummary t = merger.merge(TraceQueryEcho.defaults("checkout"),
                List.of(new Answered("tempo", List.of(new TraceSummary("a1", name, name, T, 5, 1, false))))).traces().getFirst();
        assertThat(t.rootName()).isEqualTo("x".repeat(TraceMerger.MAX_NAME - 2) + "…");
        assertThat(t.rootService()).isEqualTo(t.rootName());
    }

    @Test
    void percentiles_onOneTwoAnEvenCountAndEqualValues() {
        assertThat(TraceMerger.percentile(new double[] {5}, 50)).hasValue(5.0);
        assertThat(TraceMerger.percentile(new double[] {5, 9}, 50)).hasValue(5.0);
        assertThat(TraceMerger.percentile(new double[] {5, 9}, 95)).hasValue(9.0);
        assertThat(TraceMerger.percentile(new double[] {1, 2, 3, 4}, 50)).hasValue(2.0);
        assertThat(TraceMerger.percentile(new double[] {1, 2, 3, 4}, 95)).hasValue(4.0);
        assertThat(TraceMerger.percentile(new double[] {7, 7, 7, 7}, 50)).hasValue(7.0);
        assertThat(TraceMerger.percentile(new double[] {7, 7, 7, 7}, 95)).hasValue(7.0);
    }

    @Test
    void equallyCompleteCopies_resolveByTheFirstSource_whicheverOrderTheyCameIn() {
        TraceSummary fromA = new TraceSummary("abc", "A", "checkout", T, 5, 2, false);
        TraceSummary fromB = new TraceSummary("ABC", "B", "checkout", T, 5, 2, false);
        TraceMergeResult r = merger.merge(TraceQueryEcho.defaults("checkout"),
                List.of(new Answered("a", List.of(fromA)), new Answered("b", List.of(fromB))));
        assertThat(r.traces()).singleElement().extracting(TraceSummary::rootName).isEqualTo("A");
        // ties in ranking fall back to the trace id, so equal traces keep one order
        List<TraceSummary> equal = List.of(trace("c", 5, 1, false), trace("a", 5, 1, false), trace("b", 5, 1, false));
        assertThat(merger.merge(TraceQueryEcho.defaults("checkout"), List.of(new Answered("x", equal))).traces())
                .extracting(TraceSummary::traceId).containsExactly("a", "b",
                        "c");
    }
}
