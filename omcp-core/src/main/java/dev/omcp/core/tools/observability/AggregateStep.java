package dev.omcp.core.tools.observability;

import dev.omcp.sdk.query.LogAggregation;
import dev.omcp.sdk.query.MetricResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The step of a {@code query_logs} aggregate: the one asked for (or the default) made to tile the
 * window, then the one the sources really ran, which the answer echoes (an agent reads counts per
 * step, so it must know the step they are per).
 */
final class AggregateStep {
    private AggregateStep() {}

    /**
     * The step to send: {@code asked} or {@code byDefault}, widened to whole steps that divide the
     * window, so the counts add up to the window's lines (LogAggregation's contract).
     */
    static Duration toSend(Duration window, Optional<Duration> asked, Duration byDefault, List<String> notes) {
        Duration step = LogAggregation.tilingStep(window, asked.orElse(byDefault));
        if (asked.isPresent() && !step.equals(asked.get())) {
            notes.add("The step " + Durations.format(asked.get()) + " does not divide the " + Durations.format(window)
                    + " window into whole steps, so " + Durations.format(step) + " was used: the counts cover exactly the window.");
        }
        return step;
    }

    /**
     * The step the counts are per: the widest any source ran (a source widens a step that would
     * need more points per series than its backend answers), with a note naming who widened it.
     */
    static Duration ran(Duration sent, Duration window, Map<String, MetricResult> answers, List<String> notes) {
        Map<String, Duration> widened = new TreeMap<>();
        answers.forEach((source, answer) -> answer.step().filter(s -> s.compareTo(sent) > 0).ifPresent(s -> widened.put(source, s)));
        if (widened.isEmpty()) {
            return sent;
        }
        Duration widest = widened.values().stream().max(Duration::compareTo).orElseThrow();
        StringBuilder who = new StringBuilder();
        widened.forEach((source, step) -> who.append(who.isEmpty() ? "" : ", ").append(source).append(" (")
                .append(Durations.format(step)).append(')'));
        notes.add("The counts are per " + Durations.format(widest) + ", not the " + Durations.format(sent) + " asked for: "
                + (widened.size() == 1 ? "the source " : "the sources ") + who + " widened the step because the "
                + Durations.format(window) + " window at " + Durations.format(sent) + " needs more points per series than "
                + "its backend answers in one query. Shorten the duration for finer steps.");
        return widest;
    }
}
