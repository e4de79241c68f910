package dev.omcp.core.tools.observability;

import dev.omcp.sdk.query.LogEntry;
import dev.omcp.sdk.query.LogResult;
import dev.omcp.sdk.query.TraceResult;
import dev.omcp.sdk.query.TraceSummary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Holds a source's answer to the number of traces or lines it was asked for. A plugin is not
 * trusted to honour {@code TraceQuery.limit} or {@code LogQuery.limit}: what it returns beyond them
 * would cost the gateway ranking and redaction work the limit was to bound, and traces beyond it
 * would be ranked against other sources' that were cut at the limit. The newest are kept, as a
 * backend honouring the limit answers them; a warning (shown in {@code backendWarnings}) says how
 * many were left out, first among the source's warnings. Applied to every connector's answer as it
 * enters the tools (a connector keeping to the limit is passed on as it is).
 */
final class AskedLimit {
    private AskedLimit() {}

    /** {@code answer} with at most {@code asked} traces, the newest. */
    static TraceResult traces(TraceResult answer, int asked) {
        if (answer == null || answer.traces().size() <= asked) { // a null answer is the caller's to judge, as before
            return answer;
        }
        List<TraceSummary> newest = new ArrayList<>(answer.traces());
        newest.sort(Comparator.comparing(TraceSummary::start).reversed());
        return new TraceResult(newest.subList(0, asked), withWarning(answer.warnings(), newest.size(), asked, "traces"));
    }

    /** {@code answer} with at most {@code asked} lines, the newest, and marked truncated: more lines matched than are shown. */
    static LogResult lines(LogResult answer, int asked) {
        if (answer == null || answer.entries().size() <= asked) {
            return answer;
        }
        List<LogEntry> newest = new ArrayList<>(answer.entries());
        newest.sort(Comparator.comparing(LogEntry::timestamp).reversed());
        return new LogResult(newest.subList(0, asked), true, answer.resolvedQuery(),
                withWarning(answer.warnings(), newest.size(), asked, "lines"));
    }

    private static List<String> withWarning(List<String> warnings, int returned, int asked, String what) {
        List<String> all = new ArrayList<>(warnings.size() + 1);
        // first, so the source's own warnings (at most WarnedSources.MAX_WARNINGS_PER_SOURCE are shown) cannot push it out
        all.add("the source returned " + returned + " " + what + ", more than the " + asked + " it was asked for: the "
                + (returned - asked) + " oldest were left out");
        all.addAll(warnings);
        return all;
    }
}
