package dev.omcp.core.sources;

import dev.omcp.sdk.text.LogField;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * The operator's log lines for tool calls whose backend address the egress rules refused, with the connector's whole
 * reason, which agents do not get ({@link FanOut#EGRESS_REFUSED_FOR_AGENTS}). A refused source fails every call alike,
 * so each source's line is paced as {@link dev.omcp.sdk.text.LogPace} paces lines: the first at once, then at most one
 * per {@link #EVERY} with the count of refusals it stands for. Timed by a monotonic clock, as the fan-out's deadlines
 * are (the core reads no wall clock of its own). Thread-safe.
 */
final class EgressRefusalLines {
    static final Duration EVERY = Duration.ofMinutes(1);
    /** Sources are the operator's, so few; past this many names (a churn of renamed sources) the paces start afresh. */
    private static final int MAX_SOURCES = 1024;

    private final Logger log;
    private final LongSupplier nanoTime;
    private final Map<String, Pace> paces = new ConcurrentHashMap<>();

    /** @param nanoTime a monotonic clock in nanoseconds, {@code System::nanoTime} */
    EgressRefusalLines(Logger log, LongSupplier nanoTime) {
        this.log = log;
        this.nanoTime = nanoTime;
    }

    /** Notes one refused call to {@code source}, with the connector's cleaned reason. */
    void refused(String source, String reason) {
        if (paces.size() >= MAX_SOURCES && !paces.containsKey(source)) {
            paces.clear();
        }
        long occurrences = paces.computeIfAbsent(source, s -> new Pace()).occurred(nanoTime.getAsLong());
        if (occurrences > 0) {
            log.warn("event=source-egress-refused source={} reason=\"{}\" occurrences={}", LogField.of(source), LogField.of(reason),
                    occurrences);
        }
    }

    /** One source's pace: guarded by itself. */
    private static final class Pace {
        private boolean logged;
        private long lastLine;
        private long sinceLastLine;

        synchronized long occurred(long now) {
            sinceLastLine++;
            if (logged && now - lastLine < EVERY.toNanos()) {
                return 0;
            }
            logged = true;
            lastLine = now;
            long count = sinceLastLine;
            sinceLastLine = 0;
            return count;
        }
    }
}
