package dev.omcp.connectors.builtin.prometheus;

import dev.omcp.connectors.builtin.backend.QueryText;
import dev.omcp.connectors.builtin.backend.ServiceLabels;
import dev.omcp.ports.anomaly.AnomalySeries;
import dev.omcp.sdk.connector.ConnectorException;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The values of the {@code service} label that name services of the backend. On a source that is also the gateway's
 * remote-write receiver, the gateway's own anomaly series ({@link GatewayAnomalySeries}) carry that label too, naming
 * every service any tenant's calls judged: listed or resolved, those names would show one tenant what another asked
 * about. So there the values are those of the other series only. Nothing is lost: a name the gateway judged came from a
 * source the judging caller reaches, which lists it, and here no series but the gateway's carries it.
 *
 * <p>What it costs: a source holding none of the gateway's series (the usual one) is asked its plain label values,
 * read from the index, after one request for the {@code __name__} values among the gateway's four metric names, which
 * the server answers from the index too. Only a receiver is asked the values among the series other than the gateway's,
 * an intersection of postings that Prometheus ends, for each value, at its first series. Both answers are cached for
 * the label cache time-to-live, as the plain label values are.
 */
final class BackendServiceNames {
    private static final String CACHE_KEY = "service values beside the gateway's series";
    /** The gateway's metric names, sorted so a request reads the same each time. */
    private static final String OWN_METRICS = QueryText.quote(String.join("|", new TreeSet<>(AnomalySeries.METRICS)));

    private final ServiceLabels labels;

    BackendServiceNames(ServiceLabels labels) {
        this.labels = labels;
    }

    /** Whether {@code label} is the one the gateway names judged services in: the only label these values replace. */
    static boolean replace(String label) {
        return AnomalySeries.SERVICE_LABEL.equals(label);
    }

    /** The values, cached. */
    Set<String> values() throws ConnectorException {
        return labels.derived(CACHE_KEY, () -> holdsGatewaySeries()
                ? labels.fetch(AnomalySeries.SERVICE_LABEL, Map.of("match[]", otherSeries()))
                : labels.fetch(AnomalySeries.SERVICE_LABEL, Map.of()));
    }

    private boolean holdsGatewaySeries() throws ConnectorException {
        // the names themselves, not just an answer: a server that ignores match[] answers every metric name
        return !Collections.disjoint(labels.fetch("__name__", Map.of("match[]", gatewaySeries())), AnomalySeries.METRICS);
    }

    /** The selector of the gateway's series, by their exact names: a prefix could take someone else's metric. */
    static String gatewaySeries() {
        return "{__name__=~" + OWN_METRICS + "}";
    }

    /** The selector of the series with a {@code service} label other than the gateway's. */
    static String otherSeries() {
        return "{" + AnomalySeries.SERVICE_LABEL + "!=\"\",__name__!~" + OWN_METRICS + "}";
    }
}
