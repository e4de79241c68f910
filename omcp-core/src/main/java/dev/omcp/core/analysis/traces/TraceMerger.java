package dev.omcp.core.analysis.traces;

import dev.omcp.sdk.query.TraceSummary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Merges the answers of every traces-capable source for {@code query_traces} (spec 4.4). Stateless
 * and thread-safe.
 *
 * <ol>
 *   <li><b>Drop</b> the traces without a usable id (blank, or longer than {@value #MAX_TRACE_ID}
 *       characters, which no tracing backend issues): they can be neither de-duplicated nor opened,
 *       and blank ids would otherwise all merge into one trace. The note counts them. Drop too the
 *       traces with a negative {@code spanCount}, which no trace can have: the copy comes from a
 *       broken connector and nothing else it says is trusted (not even its error flag). The note
 *       counts those no other source gave intact and names the sources that sent them. Root names
 *       and services longer than {@value #MAX_NAME} characters are cut (a backend's text, shown to
 *       an agent up to {@code limit} times).</li>
 *   <li><b>De-duplicate</b> by trace id, normalised when it is 1 to 32 hex digits: lower case and
 *       left-padded with zeros to 32 (a 64-bit Zipkin id and the same id padded to 128 bits by Tempo
 *       are one trace). Any other id is kept exactly as given: a third-party connector's ids may be
 *       case-sensitive, so spellings that differ are different traces. The trace is shown by the
 *       shortest spelling its copies gave (lower case when hex): the one its sources answer a lookup
 *       for and the services it traced log, never padding no source wrote (a 64-bit id padded to 32
 *       digits is found in neither Zipkin nor the logs). Of several copies the most complete is
 *       kept: most spans, then longest duration, then one with root name and service, then the
 *       first source. When the kept copy
 *       lacks the root's name or service (its source has not seen the root span yet) and another
 *       copy names both, those are taken. {@code hasError} is true when any copy saw an error span.</li>
 *   <li><b>Filter</b> to traces with an error when {@code errorsOnly}.</li>
 *   <li><b>Rank</b>: traces with an error first, then by duration, slowest first (a trace without a
 *       valid duration, NaN, infinite or negative, after the timed ones); ties by trace id.</li>
 *   <li><b>Cap</b> at {@code limit}. The note says how many matched and how many are shown, and
 *       names the sources that returned as many traces as they were asked for: traces beyond those
 *       were never ranked, so the list may be incomplete.</li>
 *   <li><b>Summarise</b> over the returned (capped) set: count, error count, and the p50 and p95 of
 *       {@code durationMs} by the nearest-rank method (the smallest duration with at least p % of
 *       the traces at or below it: the value at 1-based rank {@code ceil(p / 100 * n)} of the sorted
 *       durations), so every percentile is a duration that really occurred. They describe what is
 *       returned, not the backend's whole population; traces without a valid duration are left out
 *       of them (and written with {@code durationMs: null}).</li>
 * </ol>
 */
public final class TraceMerger {
    /** The longest trace id kept: W3C and Zipkin ids are 32 hex digits, other systems' a few more. */
    public static final int MAX_TRACE_ID = 256;
    /** The longest root name or root service shown; longer ones are cut. */
    public static final int MAX_NAME = 256;
    /** The digits of a 128-bit hex trace id (W3C, Zipkin, Tempo): shorter hex ids are the same number, padded. */
    private static final int HEX_ID_DIGITS = 32;

    /**
     * Merges the outcomes of the fan-out.
     *
     * @param outcomes one per traces-capable source that was asked; empty when no connector has the
     *     {@code queryTraces} capability (the answer is then an empty list with a note, not an error)
     */
    public TraceMergeResult merge(TraceQueryEcho query, List<TraceSourceOutcome> outcomes) {
        List<String> sources = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        Map<String, TraceSummary> byId = new LinkedHashMap<>();
        Map<String, String> shownIds = new LinkedHashMap<>();
        int withoutId = 0;
        Map<String, Set<String>> sourcesOfBroken = new LinkedHashMap<>();
        for (TraceSourceOutcome o : outcomes) {
            switch (o) {
                case TraceSourceOutcome.Answered a -> {
                    sources.add(a.source());
                    for (TraceSummary t : a.traces()) {
                        if (t.traceId().isBlank() || t.traceId().length() > MAX_TRACE_ID) {
                            withoutId++;
                            continue;
                        }
                        String id = normalise(t.traceId());
                        if (t.spanCount() < 0) {
                            sourcesOfBroken.computeIfAbsent(id, k -> new LinkedHashSet<>()).add(a.source());
                            continue;
                        }
                        byId.merge(id, checked(t), TraceMerger::moreComplete);
                        shownIds.merge(id, shown(t.traceId()), (kept, other) -> other.length() < kept.length() ? other : kept);
                    }
                }
                case TraceSourceOutcome.Failed f -> errors.add(f.source() + ": " + f.message());
            }
        }
        // a broken copy of a trace another source gave intact lost nothing: only the others are missing
        sourcesOfBroken.keySet().removeAll(byId.keySet());
        int negativeSpans = sourcesOfBroken.size();
        List<TraceSummary> merged = new ArrayList<>(byId.size());
        byId.forEach((id, t) -> merged.add(withId(t, shownIds.get(id))));
        if (query.errorsOnly()) {
            merged.removeIf(t -> !t.hasError());
        }
        // a trace without a duration is not the slowest (NaN sorts above every number): it goes after the timed ones
        merged.sort(Comparator.comparing((TraceSummary t) -> !t.hasError())
                .thenComparing(t -> !timed(t))
                .thenComparing(Comparator.comparingDouble(TraceSummary::durationMs).reversed())
                .thenComparing(t -> normalise(t.traceId())));
        int matched = merged.size();
        List<TraceSummary> capped = merged.subList(0, Math.min(query.limit(), matched));
        int errorCount = (int) capped.stream().filter(TraceSummary::hasError).count();
        double[] durations = capped.stream().filter(TraceMerger::timed).mapToDouble(TraceSummary::durationMs).sorted().toArray();
        int untimed = capped.size() - durations.length;

        Optional<String> note;
        if (outcomes.isEmpty()) {
            note = Optional.of("no connector with the queryTraces capability is configured, so there are no traces to search;"
                    + " add a traces source (for example the tempo connector plugin)");
        } else if (sources.isEmpty()) {
            note = Optional.of("every traces source failed (see errors); nothing was searched");
        } else {
            List<TraceSourceOutcome.Answered> full = atFetchLimit(outcomes);
            List<String> parts = new ArrayList<>();
            if (matched == 0) {
                // the sentence stands alone without a full stop (TracedServiceRecognition words its own); one follows when more is said
                parts.add("no " + (query.errorsOnly() ? "error " : "") + "traces of " + query.service() + " in the last "
                        + query.duration() + (full.isEmpty() && withoutId == 0 && negativeSpans == 0 ? "" : "."));
            } else if (matched > capped.size()) {
                parts.add(cutSentence(query, matched, capped.size()));
            }
            if (!full.isEmpty()) {
                parts.add(fetchLimitSentence(full));
            }
            if (withoutId > 0) {
                parts.add(withoutId + (withoutId == 1 ? " trace came" : " traces came") + " without a usable trace id (blank or longer than "
                        + MAX_TRACE_ID + " characters) and " + (withoutId == 1 ? "was" : "were") + " left out: "
                        + (withoutId == 1 ? "it" : "they") + " could be neither de-duplicated nor opened.");
            }
            if (negativeSpans > 0) {
                Set<String> brokenSources = new LinkedHashSet<>();
                sourcesOfBroken.values().forEach(brokenSources::addAll);
                parts.add(negativeSpanSentence(negativeSpans, brokenSources));
            }
            if (untimed > 0) {
                parts.add(untimed + (untimed == 1 ? " trace came" : " traces came") + " without a valid duration (durationMs null): "
                        + (untimed == 1 ? "it is" : "they are") + " listed after the timed ones and left out of the percentiles.");
            }
            note = parts.isEmpty() ? Optional.empty() : Optional.of(String.join(" ", parts));
        }
        return new TraceMergeResult(query.service(), query.duration(), sources, capped.size(), errorCount,
                percentile(durations, 50), percentile(durations, 95), capped, errors, note);
    }

    /** More matched than {@code limit}: the summary then describes the shown traces only. */
    private static String cutSentence(TraceQueryEcho query, int matched, int shown) {
        return String.format(Locale.ROOT, "%d traces matched; the list and its summary cover only the %d most relevant (errors"
                + " first, then slowest)%s", matched, shown, query.limit() < TraceQueryEcho.MAX_LIMIT
                        ? ": raise limit (at most " + TraceQueryEcho.MAX_LIMIT + ") to see more." : ".");
    }

    /** Sources that returned as many traces as they were asked for: their window may hold more, never ranked. */
    private static String fetchLimitSentence(List<TraceSourceOutcome.Answered> full) {
        return full.stream().map(a -> a.source() + " returned " + a.traces().size()).collect(Collectors.joining(", "))
                + " traces, as many as a source is asked for, so the window may hold more that were not ranked and the list"
                + " may be incomplete: shorten duration or add a filter.";
    }

    /** Traces refused for a negative span count: how many, and which connectors to report. */
    private static String negativeSpanSentence(int count, Set<String> sources) {
        boolean one = count == 1;
        return count + (one ? " trace came" : " traces came") + " with a negative spanCount, which no trace can have, and "
                + (one ? "was" : "were") + " left out; sources that sent " + (one ? "it" : "them") + ": "
                + String.join(", ", sources) + " (a connector bug to report).";
    }

    private static List<TraceSourceOutcome.Answered> atFetchLimit(List<TraceSourceOutcome> outcomes) {
        return outcomes.stream().filter(o -> o instanceof TraceSourceOutcome.Answered a && a.reachedFetchLimit())
                .map(TraceSourceOutcome.Answered.class::cast).toList();
    }

    /** Whether the trace has a duration: a finite one, at least 0. */
    static boolean timed(TraceSummary t) {
        return Double.isFinite(t.durationMs()) && t.durationMs() >= 0;
    }

    /**
     * The trace with an invalid duration (NaN, infinite or negative, as a plugin or a skewed clock may
     * report) made NaN, "unknown": never ranked as the slowest, counted in a percentile or written as a
     * JSON number, which would fail the whole answer. Its root name and service are cut to
     * {@value #MAX_NAME} characters.
     */
    private static TraceSummary checked(TraceSummary t) {
        boolean valid = timed(t) && t.rootName().length() <= MAX_NAME && t.rootService().length() <= MAX_NAME;
        return valid ? t : new TraceSummary(t.traceId(), cut(t.rootName()), cut(t.rootService()), t.start(),
                timed(t) ? t.durationMs() : Double.NaN, t.spanCount(), t.hasError());
    }

    /**
     * {@code text} when at most {@value #MAX_NAME} characters, else its start and an ellipsis; a
     * character outside the Basic Multilingual Plane is never cut in half (a lone surrogate is no
     * text, and the JSON written for the agent would carry a {@code ?} or fail in its place).
     */
    private static String cut(String text) {
        if (text.length() <= MAX_NAME) {
            return text;
        }
        int end = MAX_NAME - 1;
        return text.substring(0, Character.isHighSurrogate(text.charAt(end - 1)) ? end - 1 : end) + "…";
    }

    /** Nearest-rank percentile of sorted values; empty for no values. */
    static OptionalDouble percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return OptionalDouble.empty();
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return OptionalDouble.of(sorted[Math.max(rank, 1) - 1]);
    }

    /**
     * The key the copies of one trace share: a hex id of 1 to {@value #HEX_ID_DIGITS} digits in lower
     * case, left-padded with zeros to {@value #HEX_ID_DIGITS}; any other id exactly as given.
     */
    static String normalise(String traceId) {
        return isHexId(traceId) ? "0".repeat(HEX_ID_DIGITS - traceId.length()) + traceId.toLowerCase(Locale.ROOT) : traceId;
    }

    /** The id as a source gave it, in lower case when it is hex (as W3C and Zipkin write ids); any other id as given. */
    private static String shown(String traceId) {
        return isHexId(traceId) ? traceId.toLowerCase(Locale.ROOT) : traceId;
    }

    private static boolean isHexId(String traceId) {
        return !traceId.isEmpty() && traceId.length() <= HEX_ID_DIGITS && traceId.chars().allMatch(HexFormat::isHexDigit);
    }

    private static TraceSummary withId(TraceSummary t, String id) {
        return id.equals(t.traceId()) ? t
                : new TraceSummary(id, t.rootName(), t.rootService(), t.start(), t.durationMs(), t.spanCount(), t.hasError());
    }

    private static TraceSummary moreComplete(TraceSummary kept, TraceSummary other) {
        Comparator<TraceSummary> completeness = Comparator.comparingInt(TraceSummary::spanCount)
                .thenComparingDouble(t -> timed(t) ? t.durationMs() : -1)
                .thenComparing(TraceMerger::hasRoot);
        TraceSummary best = completeness.compare(other, kept) > 0 ? other : kept;
        TraceSummary rest = best == kept ? other : kept;
        boolean error = kept.hasError() || other.hasError();
        // a copy that has not seen the root span (Tempo before it arrives) says nothing about it: another copy's root stands
        boolean borrowRoot = !hasRoot(best) && hasRoot(rest);
        if (best.hasError() == error && !borrowRoot) {
            return best;
        }
        return new TraceSummary(best.traceId(), borrowRoot ? rest.rootName() : best.rootName(),
                borrowRoot ? rest.rootService() : best.rootService(), best.start(), best.durationMs(), best.spanCount(), error);
    }

    /** Whether the copy names its root span's operation and service. */
    private static boolean hasRoot(TraceSummary t) {
        return !t.rootName().isEmpty() && !t.rootService().isEmpty();
    }
}
