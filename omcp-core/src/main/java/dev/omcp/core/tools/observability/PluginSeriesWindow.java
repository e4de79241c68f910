package dev.omcp.core.tools.observability;

import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.TimeRange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Holds a plugin connector's series to the asked window, as the builtin readers hold their samples
 * while they read them: a point more than one step before the range's start or after its end is
 * left out. The analysis reads every point as inside the window and the last one as "now": a plugin
 * that sends seconds in {@code epochMillis} (a common unit mistake) had its points read as January
 * 1970, a gap was added at the range's end, and the verdict said the service stopped reporting
 * then. A step of slack, as the connector contract allows, because a query frontend aligned to the
 * step answers points up to a step outside the window.
 *
 * <p>What was left out is said in one line per source for the whole batch, never per series or
 * query: a detect_anomalies call sends dozens of queries to each source. When nearly all of a
 * source's points lie before the window and would lie inside it read as seconds, the line says the
 * connector likely sends seconds, so the plugin's author learns the fix. Not thread-safe: one per
 * batch, fed after the fan-out.
 */
final class PluginSeriesWindow {
    /** The note's sentence when some source's points were left out: the tools that hold series to the window say it alike. */
    static final String LEFT_OUT_NOTE = "A source answered points outside the asked window, which were left out (see backendWarnings).";
    /** Of a source's points, at least this many tenths read as seconds inside the window blame the unit. */
    private static final int SECONDS_TENTHS = 9;
    private static final long MILLIS_PER_SECOND = 1000;

    private final long firstMillis;
    private final long lastMillis;
    private final long firstAsSeconds;
    private final long lastAsSeconds;
    private final Map<String, Tally> bySource = new LinkedHashMap<>();

    /** How many points one source answered, how many were left out, and how many of those would fit read as seconds. */
    private static final class Tally {
        long answered;
        long outside;
        long insideAsSeconds;
    }

    PluginSeriesWindow(TimeRange range, Duration step) {
        this.firstMillis = range.start().minus(step).toEpochMilli();
        this.lastMillis = range.end().plus(step).toEpochMilli();
        // t seconds read as t * 1000 ms is inside when t lies in these bounds; no multiplication, so no overflow
        this.firstAsSeconds = Math.ceilDiv(firstMillis, MILLIS_PER_SECOND);
        this.lastAsSeconds = Math.floorDiv(lastMillis, MILLIS_PER_SECOND);
    }

    /**
     * {@code result} without the points more than a step outside the window; the same instance when
     * none is. A series whose every point is left out stays, empty, as a builtin reader leaves it:
     * the backend knew the series but has nothing for the window.
     */
    MetricResult inside(String source, MetricResult result) {
        Tally tally = bySource.computeIfAbsent(source, k -> new Tally());
        List<Series> kept = new ArrayList<>(result.series().size());
        boolean changed = false;
        for (Series s : result.series()) {
            Series k = inside(s, tally);
            changed |= k != s;
            kept.add(k);
        }
        return changed ? new MetricResult(kept, result.resolvedSeries(), result.resolvedLabel(), result.step(), result.warnings())
                : result;
    }

    private Series inside(Series series, Tally tally) {
        int n = series.size();
        tally.answered += n;
        int outside = 0;
        for (int i = 0; i < n; i++) {
            long t = series.timeAt(i);
            if (t < firstMillis || t > lastMillis) {
                outside++;
                tally.insideAsSeconds += t >= firstAsSeconds && t <= lastAsSeconds ? 1 : 0;
            }
        }
        if (outside == 0) {
            return series; // one pass, no copy: the common case
        }
        tally.outside += outside;
        long[] times = new long[n - outside];
        double[] values = new double[n - outside];
        int kept = 0;
        for (int i = 0; i < n; i++) {
            long t = series.timeAt(i);
            if (t >= firstMillis && t <= lastMillis) {
                times[kept] = t;
                values[kept++] = series.valueAt(i);
            }
        }
        return new Series(series.labels(), times, values);
    }

    /** One line per source that answered points outside the window, by source, in the order the sources answered. */
    Map<String, String> warnings() {
        Map<String, String> lines = new LinkedHashMap<>();
        bySource.forEach((source, tally) -> {
            if (tally.outside > 0) {
                lines.put(source, line(source, tally));
            }
        });
        return lines;
    }

    private static String line(String source, Tally tally) {
        String line = source + " answered " + tally.outside + " point" + (tally.outside == 1 ? "" : "s")
                + " more than one step outside the asked window (of " + tally.answered + "); they were left out";
        if (tally.insideAsSeconds * 10 >= tally.answered * SECONDS_TENTHS) {
            line += ". Read as seconds their times fall inside it: the connector likely sends seconds in Series.epochMillis, "
                    + "which holds milliseconds";
        }
        return line;
    }
}
