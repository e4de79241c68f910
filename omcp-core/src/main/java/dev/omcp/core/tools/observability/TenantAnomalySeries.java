package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.history.AnomalyHistory;
import dev.omcp.ports.anomaly.AnomalySeries;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Keeps the anomaly scores the gateway wrote to its remote-write receiver ({@link AnomalySeries}) to the caller's
 * tenant when a metrics source reads them back. The receiver holds every tenant's scores side by side, told apart
 * by their {@code tenant} label, and a source pointing at it usually serves every tenant; read unfiltered, a
 * tenant's agent would see other tenants' service names and incidents. So the same rule as
 * {@code get_anomaly_history} applies: a caller reads the scores recorded for its own tenant, and a caller without
 * a tenant those recorded without one (the label then absent, which an empty exact-match value selects).
 *
 * <p>The rule is the core's; a connector only applies the extra exact-match label filter it is handed, as any
 * other. Metrics of the backend's own are left alone: a {@code tenant} label there is the caller's to filter on.
 *
 * <p>Nor does anything else a caller is told about these series depend on what other tenants did: a service's
 * discovered metric names include them once any tenant's call judged it, so they are never taken from discovery; the
 * gateway offers them from its own knowledge instead, when it writes them, and an answer without scores says the same
 * whoever else has some.
 */
final class TenantAnomalySeries {
    /** The tools whose judgements are written as scores. */
    private static final String JUDGING_TOOLS = "detect_anomalies, get_service_health, generate_postmortem";

    private TenantAnomalySeries() {}

    /**
     * The label filters to send for {@code metric}: for one of the gateway's anomaly series, {@code asked} with the
     * caller's tenant added; else {@code asked} as it is.
     *
     * @throws InvalidArgumentException when {@code asked} filters those series on another tenant: the answer is the
     *     same whatever that tenant is and whether it exists, so it reveals nothing about it
     */
    static Map<String, String> labels(String metric, Map<String, String> asked, String callerTenant) {
        if (!AnomalySeries.isOwn(metric)) {
            return asked;
        }
        String named = asked.get(AnomalySeries.TENANT_LABEL);
        if (named != null && !named.equals(callerTenant)) {
            throw new InvalidArgumentException("labels.tenant: " + metric + " is the gateway's anomaly history, and it shows only "
                    + (callerTenant.isEmpty() ? "the scores recorded without a tenant, as get_anomaly_history does"
                            : "your own tenant's scores")
                    + "; leave tenant out of labels, the gateway sets it.");
        }
        Map<String, String> scoped = new HashMap<>(asked);
        scoped.put(AnomalySeries.TENANT_LABEL, callerTenant);
        return Map.copyOf(scoped);
    }

    /**
     * {@code discovered} without the gateway's series: on its receiver they are a service's metrics once any tenant's
     * call judged it, so offered from there they would say so.
     */
    static Set<String> withoutOwn(Set<String> discovered) {
        Set<String> names = new TreeSet<>(discovered);
        names.removeAll(AnomalySeries.METRICS);
        return names;
    }

    /** The gateway's series names to offer a caller, from what the gateway knows: only when it writes them anywhere. */
    static Set<String> offered(AnomalyHistory history) {
        return history.remoteSinkConfigured() ? AnomalySeries.METRICS : Set.of();
    }

    /**
     * The note of an answer holding none of the caller's scores of {@code metric} (one of the gateway's series): the
     * same words whether other tenants have scores for {@code service}, and no claim that the service exists, which
     * the scores of another tenant would make for a name the backend does not know.
     */
    static String noneRecorded(String service, String metric, Duration duration, boolean filtered, String callerTenant,
            boolean remoteSink) {
        return "No score of " + whose(callerTenant) + " for '" + service + "' is in " + metric + " over the last "
                + Durations.format(duration) + (filtered ? " with these label filters" : "") + ": " + metric
                + " is the gateway's anomaly history, read for " + whose(callerTenant) + " only, and a score is written when "
                + aCall(callerTenant) + " judges the service (" + JUDGING_TOOLS + "); get_anomaly_history shows the last hour's."
                + writtenElsewhere(remoteSink);
    }

    /**
     * The note of a {@code detect_anomalies} asked to judge {@code metrics} (the gateway's series among those asked) that
     * found none of the caller's scores in them: what those series are, that they are no metric of the service, and where to
     * read or what to judge instead. Like {@link #noneRecorded}, the same words whoever else has scores and whether the
     * backend knows the name: the gateway selects its series by their {@code service} label without looking the name up.
     *
     * @param whom {@code 'payments'}, or the services judged when there were several
     * @param span the time read, as {@code the last 15m and its baseline}
     * @param outcome what became of the judgement, as {@code nothing was judged}
     */
    static String noneToJudge(String whom, boolean oneService, List<String> metrics, String span, String outcome, String callerTenant,
            boolean remoteSink) {
        String named = String.join(", ", metrics);
        boolean several = metrics.size() > 1;
        return "No score of " + whose(callerTenant) + " for " + whom + " is in " + named + " over " + span + ", so " + outcome + ": "
                + named + (several ? " are" : " is") + " the gateway's anomaly history, its own judgements read for "
                + whose(callerTenant) + " only, not a metric of " + (oneService ? "the service" : "the services")
                + ". A score is written when " + aCall(callerTenant) + " judges a service (" + JUDGING_TOOLS
                + "): get_anomaly_history shows the last hour's, query_metrics with the metric reads them further back. Judge "
                + (oneService ? "the service's" : "their") + " own metrics instead (curated: "
                + String.join(", ", CuratedMetricNames.names()) + "; or a metric the source has, see query_metrics)."
                + writtenElsewhere(remoteSink);
    }

    private static String whose(String callerTenant) {
        return callerTenant.isEmpty() ? "the calls without a tenant" : "your tenant";
    }

    private static String aCall(String callerTenant) {
        return callerTenant.isEmpty() ? "such a call" : "a call of your tenant";
    }

    private static String writtenElsewhere(boolean remoteSink) {
        return remoteSink ? "" : " This gateway writes no scores to a receiver (OMCP_ANOMALY_HISTORY_REMOTE_WRITE is not set): "
                + "any a source holds were written by another gateway or an earlier configuration.";
    }
}
