package dev.omcp.core.tools.observability;

import dev.omcp.ports.anomaly.AnomalySeries;
import java.util.HashMap;
import java.util.Map;

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
 */
final class TenantAnomalySeries {
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
}
